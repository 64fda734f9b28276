// SPDX-License-Identifier: GPL-2.0
/*
 * smpbench: the sampler's full round, natively.  QEMU TCG cannot tell what
 * the sampler costs on a real machine, and a module cannot be loaded on
 * the build hosts, so this runs the sampler's own code (module/instr/smptab.c,
 * built against bench/vm/shim/) over N objects laid out like Debian
 * 6.1's task_struct (size and field offsets taken from its headers), linked
 * like the task list, reading the fields the sampler reads and writing the
 * entries in 64-entry batches as the module does.  "cold" evicts the caches
 * between rounds (a round runs once a second; the rest of the machine runs
 * in between), "warm" does not.
 *
 *   cc -O2 -Ibench/vm/shim -Iinclude/uapi -Imodule \
 *      -o smpbench bench/vm/smpbench.c
 *   ./smpbench [N] [ROUNDS] [warm]
 *
 * "warm" runs the warm rounds only (no eviction buffer): what make bench
 * counts instructions of in the guest and times here.
 */
#define KBUILD_MODNAME "smpbench"
#include "instr/smptab.c"	/* module/, by -Imodule */

#include <stdio.h>
#include <time.h>

/* module/fault.c's load-step fault injection: never here */
bool tipme_fail_step(const char *what)
{
	(void)what;
	return false;
}

/* struct task_struct on Debian's 6.1.0-56-amd64. */
#define T_SIZE		9792
#define T_CPU		20	/* thread_info.cpu */
#define T_STATE		24
#define T_ON_CPU	52
#define T_PRIO		108
#define T_RUNTIME	200	/* se.sum_exec_runtime */
#define T_POLICY	972
#define T_TASKS		2192
#define T_PID		2416
#define T_TGID		2420
#define T_THREAD_NODE	2608
#define T_START		2776

#define F(p, off, type)	(*(volatile type *)((char *)(p) + (off)))
#define NEXT(p)		(*(char **)((char *)(p) + T_TASKS))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct tipme_smptab tab;
static struct tipme_sample_ent batch[64];
static char *ring;
static size_t ring_pos, ring_size = 16 << 20;

static void one(void *p, u32 round)
{
	struct tipme_smp_task s;
	struct tipme_smp_ent *e;
	static unsigned int n;

	s.pid = F(p, T_PID, u32);
	s.tgid = F(p, T_TGID, u32);
	s.state = F(p, T_STATE, u32) ? 1 : 0;
	s.policy = F(p, T_POLICY, u32);
	s.prio = F(p, T_PRIO, int);
	s.on_cpu = F(p, T_ON_CPU, int);
	s.cpu = F(p, T_CPU, u32);
	s.runtime = F(p, T_RUNTIME, u64);
	s.start_ns = F(p, T_START, u64);
	(void)F(p, T_THREAD_NODE, long);
	e = tipme_smptab_get(&tab, s.pid, true);
	if (e && tipme_smp_update(e, &s, true, round, &batch[n]) && ++n == 64) {
		if (ring_pos + sizeof(batch) > ring_size)
			ring_pos = 0;
		memcpy(ring + ring_pos, batch, sizeof(batch));
		ring_pos += sizeof(batch);
		n = 0;
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
	long rounds = argc > 2 ? strtol(argv[2], NULL, 10) : 20, i, r;
	int warm_only = argc > 3 && !strcmp(argv[3], "warm");
	size_t evict_size = warm_only ? 64 : 256 << 20;
	char **t = calloc(n, sizeof(*t)), *evict = malloc(evict_size);
	volatile char sink = 0;
	int cold;

	ring = malloc(ring_size);
	if (!t || !evict || !ring || tipme_smptab_init(&tab, 16384))
		return 1;
	for (i = 0; i < n; i++) {
		t[i] = calloc(1, T_SIZE);
		free(malloc(4096 * (1 + rand() % 3)));	/* scatter */
		F(t[i], T_PID, u32) = 1000 + i;
		F(t[i], T_TGID, u32) = 1000 + i / 8;
		F(t[i], T_PRIO, int) = 120;
		F(t[i], T_STATE, u32) = 1;
	}
	for (i = 0; i < n; i++)		/* the task list, shuffled */
		NEXT(t[i]) = t[(i * 7919 + 13) % n];
	memset(evict, 1, evict_size);
	for (cold = 0; cold < (warm_only ? 1 : 2); cold++) {
		double total = 0;

		for (r = 1; r <= rounds; r++) {
			char *p = t[0];
			double t0;

			if (cold)
				for (i = 0; i < (long)evict_size; i += 64)
					sink += evict[i]++;
			t0 = now();
			for (i = 0; i < n; i++) {
				one(p, (u32)(r + cold * rounds));
				p = NEXT(p);
			}
			total += now() - t0;
		}
		printf("smpbench %s: %ld threads, %.1f ns per thread, %.0f us per full round\n",
		       cold ? "cold" : "warm", n, total * 1e9 / ((double)n * rounds),
		       total * 1e6 / rounds);
	}
	return sink == 42;
}
