// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-bigdump: a large synthetic dump for the analysis benchmark
 * (bench/analysis-speed.sh --synthetic), written natively in seconds
 * instead of the QEMU run's forty minutes of TCG.
 *
 *   tipme-bigdump [-m MIB] [-c CPUS] [-t THREADS] [-s SEED] FILE
 *   tipme-bigdump -k PRESSES FILE
 *
 * A simulated machine of CPUS CPUs (2..8) runs THREADS threads (16 to
 * 32768, 400 by default): they wake each other, sleep at kernel sites,
 * are preempted, issue block requests and wait on locks; CPU 0 samples
 * every thread's state every 10 ms.  The records are the module's compact
 * forms with short headers (tests/unit/scen.c, built here with bigger
 * buffers).  The load is uneven (CPU 0 the busiest), every CPU's ring
 * wraps (the oldest sub-buffers are dropped, as the module overwrites
 * them), and now and then a few sub-buffers are lost (a gap in the
 * sequence).  The dump ends with a trigger.  Same seed, same file.
 *
 * With -k, instead: a compositor's desktop typed at PRESSES times, one
 * key every 30 ms (tests/unit/typing.c: each press read, handed to the
 * client, flipped; a quarter of them finding the compositor already
 * runnable), for the speed of the kernel input's analyses (tipme latency,
 * tipme report) on many inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"
#include "scen.h"
#include "typing.h"

#define MAX_THREADS	32768

enum { T_SLEEP, T_RUNNABLE, T_RUNNING };

struct big {
	struct scen *s;
	uint64_t rnd;
	uint32_t ncpus, nthreads;
	uint8_t state[MAX_THREADS];
	uint32_t runq[MAX_THREADS];
	uint32_t nrunq;
	uint64_t next_t[SCEN_CPUS];
	uint32_t cur[SCEN_CPUS];	/* index+1 into the threads, 0 idle */
	uint64_t seq[SCEN_CPUS];
	size_t cap;			/* sub-buffers a CPU's ring keeps */
	uint64_t dropped[SCEN_CPUS];
	uint32_t blk_pending[SCEN_CPUS];
	uint64_t blk_done_t[SCEN_CPUS];
	uint32_t blk_tag;
};

static const char *const sites[][4] = {
	{ "pipe_read", "vfs_read", "ksys_read", NULL },
	{ "futex_wait_queue", "futex_wait", NULL },
	{ "do_sys_poll", NULL },
	{ "hrtimer_nanosleep", "common_nsleep", NULL },
	{ "n_tty_read", NULL },
	{ "unix_stream_read_generic", NULL },
	{ "eventfd_read", NULL },
	{ "sk_wait_data", "tcp_recvmsg_locked", "tcp_recvmsg", NULL },
	{ "mutex_lock", "ext4_sync_file", NULL },
	{ "folio_wait_bit_common", "filemap_fault", "__do_fault", NULL },
	{ "io_schedule", "folio_wait_writeback", "file_write_and_wait_range", NULL },
};

#define NSITES	(sizeof(sites) / sizeof(sites[0]))

static uint32_t pid_of(uint32_t i)
{
	return i == 0 ? 1 : 1000 + i;	/* pid 1 is one of them */
}

static uint32_t rnd(struct big *b, uint32_t n)
{
	return (uint32_t)(gen_rand(&b->rnd) % n);
}

static uint32_t prio_of(uint32_t i)
{
	return i % 17 == 0 ? 100 : 120;
}

/*
 * Room for one more record in @cpu's sub-buffer, or the next one; the
 * record's time @t, not before the CPU's latest record.
 */
static uint64_t room(struct big *b, uint32_t cpu, uint64_t t)
{
	struct scen *s = b->s;
	size_t n;

	if (t < s->last_ts[cpu])
		t = s->last_ts[cpu];
	if (s->sb[cpu][s->nsb[cpu] - 1].len + 600 <= SCEN_SB_BYTES)
		return t;
	if ((size_t)s->nsb[cpu] == b->cap) {
		/* the ring wraps: drop the oldest sixteenth */
		n = b->cap / 16 ? b->cap / 16 : 1;
		memmove(&s->sb[cpu][0], &s->sb[cpu][n],
			(b->cap - n) * sizeof(s->sb[cpu][0]));
		s->nsb[cpu] -= (int)n;
		b->dropped[cpu] += n;
	}
	b->seq[cpu] += rnd(b, 400) == 0 ? 3 : 1;	/* now and then a loss */
	s->sb[cpu][s->nsb[cpu]].len = 0;
	scen_subbuf(s, cpu, b->seq[cpu]);
	return t;
}

static uint32_t pop_runnable(struct big *b)
{
	uint32_t k, i;

	if (!b->nrunq)
		return 0;
	k = rnd(b, b->nrunq < 4 ? b->nrunq : 4);	/* near the front */
	i = b->runq[k];
	memmove(&b->runq[k], &b->runq[k + 1], (b->nrunq - k - 1) * sizeof(b->runq[0]));
	b->nrunq--;
	return i + 1;
}

static void make_runnable(struct big *b, uint32_t i)
{
	b->state[i] = T_RUNNABLE;
	b->runq[b->nrunq++] = i;
}

/* A sleeping thread woken by @waker_pid on @cpu (0: an interrupt). */
static void wake_one(struct big *b, uint32_t cpu, uint64_t t, uint32_t waker_pid)
{
	uint32_t i, tries;

	for (tries = 0; tries < 8; tries++) {
		i = rnd(b, b->nthreads);
		if (b->state[i] != T_SLEEP)
			continue;
		scen_wake(b->s, cpu, room(b, cpu, t), pid_of(i), rnd(b, b->ncpus), waker_pid,
			  waker_pid ? TIPME_CTX_TASK : TIPME_CTX_HARDIRQ);
		make_runnable(b, i);
		return;
	}
}

static void do_switch(struct big *b, uint32_t cpu, uint64_t t, uint8_t state,
		      uint32_t next)
{
	uint32_t prev = b->cur[cpu];
	uint32_t ppid = prev ? pid_of(prev - 1) : 0, npid = next ? pid_of(next - 1) : 0;

	t = room(b, cpu, t);
	scen_switch(b->s, cpu, t, ppid, prev ? state : TIPME_TS_RUNNABLE,
		    (uint8_t)(prev ? prio_of(prev - 1) : 120), npid,
		    (uint8_t)(next ? prio_of(next - 1) : 120));
	if (prev && state != TIPME_TS_RUNNABLE)
		scen_blocked(b->s, cpu, t, ppid, sites[rnd(b, NSITES)]);
	if (prev)
		b->state[prev - 1] = state == TIPME_TS_RUNNABLE ? T_RUNNABLE : T_SLEEP;
	if (prev && state == TIPME_TS_RUNNABLE)
		b->runq[b->nrunq++] = prev - 1;
	if (next)
		b->state[next - 1] = T_RUNNING;
	b->cur[cpu] = next;
}

static void blk(struct big *b, uint32_t cpu, uint64_t t, uint8_t type, uint32_t pid,
		uint32_t tag)
{
	struct tipme_rec_blk r = {
		.dev = 0x800010, .sector_lo = tag * 8, .bytes = 4096 * (1 + tag % 8),
		.pid = pid, .tag = (uint16_t)tag, .op = tag % 2,
	};

	scen_rec(b->s, cpu, type, room(b, cpu, t), &r, sizeof(r));
}

static void lock(struct big *b, uint32_t cpu, uint64_t t, uint32_t pid)
{
	uint32_t addr = 0x81234000u + 64 * rnd(b, 32);
	struct tipme_rec_lock_begin lb = {
		.lock_lo = addr, .lock_hi = 0xffff8880, .pid = pid,
		.owner = pid_of(rnd(b, b->nthreads)),
	};
	struct tipme_rec_lock_end le = { .lock_lo = addr, .lock_hi = 0xffff8880, .pid = pid };

	t = room(b, cpu, t);
	scen_rec(b->s, cpu, TIPME_REC_LOCK_BEGIN, t, &lb, sizeof(lb));
	t += 2000 + rnd(b, 20000);
	scen_rec(b->s, cpu, TIPME_REC_LOCK_END, room(b, cpu, t), &le, sizeof(le));
}

static void sample(struct big *b, uint64_t t, uint32_t seq)
{
	unsigned char buf[sizeof(struct tipme_rec_sample) + 24 * sizeof(struct tipme_sample_ent)];
	struct tipme_rec_sample h = { .nr = 24, .seq = seq };
	struct tipme_sample_ent e;
	uint32_t k, i;

	h.len = sizeof(buf);
	memcpy(buf, &h, sizeof(h));
	for (k = 0; k < h.nr; k++) {
		i = rnd(b, b->nthreads);
		memset(&e, 0, sizeof(e));
		e.word = tipme_smp_word(pid_of(i), b->state[i] == T_SLEEP ? TIPME_TS_SLEEPING :
					TIPME_TS_RUNNABLE, 0, b->state[i] == T_RUNNING);
		e.tgid = pid_of(i - i % 8);
		e.runtime = rnd(b, 1000000);
		e.prio = (uint8_t)prio_of(i);
		memcpy(buf + sizeof(h) + k * sizeof(e), &e, sizeof(e));
	}
	scen_rec(b->s, 0, TIPME_REC_SAMPLE, room(b, 0, t), buf, sizeof(buf));
}

/* One step of @cpu at its time. */
static void step(struct big *b, uint32_t cpu)
{
	uint64_t t = b->next_t[cpu];
	uint32_t cur = b->cur[cpu], r = rnd(b, 100), next;
	uint32_t pid = cur ? pid_of(cur - 1) : 0;

	if (b->blk_pending[cpu] && t >= b->blk_done_t[cpu]) {
		blk(b, cpu, t, TIPME_REC_BLK_COMPLETE, 0, b->blk_pending[cpu]);
		b->blk_pending[cpu] = 0;
		wake_one(b, cpu, t + 1000, 0);
	}
	if (!cur) {
		next = pop_runnable(b);
		if (next)
			do_switch(b, cpu, t, TIPME_TS_RUNNABLE, next);
		else if (r < 30)
			wake_one(b, cpu, t, 0);
		b->next_t[cpu] = t + (5000 + rnd(b, 200000)) * (1 + cpu);
		return;
	}
	if (r < 38) {
		wake_one(b, cpu, t, pid);
	} else if (r < 68) {
		do_switch(b, cpu, t, r < 64 ? TIPME_TS_SLEEPING : TIPME_TS_DISK,
			  pop_runnable(b));
	} else if (r < 78) {
		if (b->nrunq) {
			next = pop_runnable(b);
			do_switch(b, cpu, t, TIPME_TS_RUNNABLE, next);
		}
	} else if (r < 81 && !b->blk_pending[cpu]) {
		b->blk_pending[cpu] = ++b->blk_tag % 1000 + 1;
		b->blk_done_t[cpu] = t + 100000 + rnd(b, 2000000);
		blk(b, cpu, t, TIPME_REC_BLK_INSERT, pid, b->blk_pending[cpu]);
		blk(b, cpu, t + 3000, TIPME_REC_BLK_ISSUE, pid, b->blk_pending[cpu]);
		do_switch(b, cpu, t + 4000, TIPME_TS_DISK, pop_runnable(b));
	} else if (r < 85) {
		lock(b, cpu, t, pid);
	}
	b->next_t[cpu] = t + 25000 + (uint64_t)rnd(b, 40000) * (1 + cpu);
}

static size_t kept(const struct big *b)
{
	size_t n = 0;
	uint32_t c;

	for (c = 0; c < b->ncpus; c++)
		n += (size_t)b->s->nsb[c];
	return n * SCEN_SB_BYTES;
}

int main(int argc, char **argv)
{
	uint32_t mib = 64, i, c, best, nsample = 0, presses = 0;
	struct big *b = calloc(1, sizeof(*b));
	uint64_t t, next_sample = 10000000;
	char comm[16], exe[64], args[64];
	int opt, wrapped;

	if (!b)
		return 1;
	b->ncpus = 4;
	b->nthreads = 400;
	b->rnd = 1;
	while ((opt = getopt(argc, argv, "m:c:t:s:k:")) != -1) {
		switch (opt) {
		case 'k': presses = (uint32_t)atoi(optarg); break;
		case 'm': mib = (uint32_t)atoi(optarg); break;
		case 'c': b->ncpus = (uint32_t)atoi(optarg); break;
		case 't': b->nthreads = (uint32_t)atoi(optarg); break;
		case 's': b->rnd = strtoull(optarg, NULL, 0); break;
		default: goto usage;
		}
	}
	if (optind + 1 != argc || b->ncpus < 2 || b->ncpus > SCEN_CPUS ||
	    b->nthreads < 16 || b->nthreads > MAX_THREADS || mib < 1)
		goto usage;
	b->cap = (size_t)mib * 1048576 / SCEN_SB_BYTES / b->ncpus;
	if (b->cap < 4 || b->cap > SCEN_SUBBUFS) {
		fprintf(stderr, "tipme-bigdump: %u MiB over %u CPUs: at most %u MiB per CPU\n",
			mib, b->ncpus, SCEN_SUBBUFS * SCEN_SB_BYTES / 1048576);
		return 2;
	}
	b->s = malloc(sizeof(*b->s));
	if (!b->s)
		return 1;
	if (presses) {
		scen_init(b->s, 2);
		b->s->compact = 1;
		b->s->short_ts = 1;
		if (typing_write(b->s, presses, NULL)) {
			fprintf(stderr, "tipme-bigdump: %u presses overflow the buffers\n", presses);
			return 1;
		}
		return scen_write(b->s, argv[optind]) ? 1 : 0;
	}
	scen_init(b->s, b->ncpus);
	b->s->compact = 1;
	b->s->short_ts = 1;
	for (i = 0; i < b->nthreads; i++) {
		snprintf(comm, sizeof(comm), i ? "app%u-%u" : "init", i / 8, i % 8);
		snprintf(exe, sizeof(exe), i ? "/usr/bin/app%u" : "/sbin/init", i / 8);
		snprintf(args, sizeof(args), "%s", exe);
		scen_task(b->s, pid_of(i), pid_of(i ? 1 + (i - 1) / 8 * 8 : 0), comm, exe, args, strlen(args) + 1);
		make_runnable(b, i);
		b->state[i] = i < b->nthreads / 2 ? T_RUNNABLE : T_SLEEP;
	}
	b->nrunq = b->nthreads / 2;
	for (c = 0; c < b->ncpus; c++) {
		b->seq[c] = 1000 * c;
		b->s->sb[c][0].seq = b->seq[c];
		b->next_t[c] = 1000000000ULL + c * 1000;
	}
	for (;;) {
		best = 0;
		for (c = 1; c < b->ncpus; c++)
			if (b->next_t[c] < b->next_t[best])
				best = c;
		t = b->next_t[best];
		if (t >= next_sample) {
			sample(b, next_sample, ++nsample);
			next_sample += 10000000;
		}
		step(b, best);
		if (b->s->overflow) {
			fprintf(stderr, "tipme-bigdump: a sub-buffer overflowed\n");
			return 1;
		}
		wrapped = 1;
		for (c = 0; c < b->ncpus; c++)
			wrapped &= b->dropped[c] > 0;
		if (wrapped && kept(b) >= (size_t)mib * 1048576 * 9 / 10)
			break;
	}
	for (c = 0; c < b->ncpus; c++)
		if (b->next_t[c] > t)
			t = b->next_t[c];
	scen_trigger(b->s, room(b, 0, t + 1000));
	if (scen_write(b->s, argv[optind]))
		return 1;
	return 0;
usage:
	fprintf(stderr, "usage: tipme-bigdump [-m MIB] [-c CPUS 2..%d] [-t THREADS 16..%d] [-s SEED] FILE\n"
		"       tipme-bigdump -k PRESSES FILE\n", SCEN_CPUS, MAX_THREADS);
	return 2;
}
