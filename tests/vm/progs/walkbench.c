// SPDX-License-Identifier: GPL-2.0
/*
 * walkbench: the memory access pattern of a full sampler round, in user
 * space, to compare a machine with QEMU's emulation of it: walk a linked
 * list of N objects of task_struct's size (8448 bytes on Debian's 6.1),
 * read the fields the sampler reads at their offsets, and update an entry
 * in an open-addressing table.  Prints ns per object and pass.
 *
 *   walkbench [N] [PASSES]     (default 2000 objects, 200 passes)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define OBJ	8448
#define SLOTS	32768

struct ent {
	uint32_t pid, tgid, word, round;
	uint64_t runtime, start;
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
	long passes = argc > 2 ? strtol(argv[2], NULL, 10) : 200, i, p;
	static const int off[] = { 24, 40, 108, 112, 124, 312, 1296, 1408, 2360 };
	struct ent *tab = calloc(SLOTS, sizeof(*tab));
	char **obj = calloc(n, sizeof(*obj));
	uint64_t sink = 0;
	double t0, t1;

	if (!tab || !obj)
		return 1;
	for (i = 0; i < n; i++) {
		obj[i] = malloc(OBJ);
		if (!obj[i])
			return 1;
		memset(obj[i], (int)i, OBJ);
		free(malloc(4096 + (rand() % 4) * 4096));	/* scatter */
	}
	for (i = 0; i < n; i++)		/* the task list: a shuffled ring */
		*(char **)obj[i] = obj[(i * 7919 + 13) % n];
	t0 = mono();
	for (p = 1; p <= passes; p++) {
		char *o = obj[0];

		for (i = 0; i < n; i++) {
			uint32_t pid = (uint32_t)(uintptr_t)o ^ (uint32_t)i;
			uint32_t h = (pid * 2654435761U) & (SLOTS - 1);
			unsigned int k;
			uint64_t v = 0;

			for (k = 0; k < sizeof(off) / sizeof(off[0]); k++)
				v += *(volatile uint32_t *)(o + off[k]);
			while (tab[h].pid && tab[h].pid != pid)
				h = (h + 1) & (SLOTS - 1);
			tab[h].pid = pid;
			tab[h].round = (uint32_t)p;
			tab[h].runtime += v;
			sink += v;
			o = *(char **)o;
		}
	}
	t1 = mono();
	printf("walkbench n=%ld passes=%ld ns_per_object=%.1f sink=%llu\n", n, passes,
	       (t1 - t0) * 1e9 / ((double)n * passes), (unsigned long long)(sink & 1));
	return 0;
}
