// SPDX-License-Identifier: GPL-2.0
/*
 * poolwin: the busy CPU of bench/pool-window.sh.  Two processes pinned to
 * one CPU pass a byte back and forth over two pipes ROUNDS times (every
 * write wakes the other side, every read blocks), and the parent notes
 * the CLOCK_MONOTONIC time after every STEP rounds, in memory, so the
 * load's own progress over time is known without writing anything while
 * it runs.  Prints one JSON object:
 *
 *   {"cpu": C, "rounds": N, "step": S, "start_ns": T0, "end_ns": T1,
 *    "marks_ns": [t after S rounds, after 2S, ...]}
 *
 *   poolwin CPU ROUNDS [STEP]      (STEP: default 1000)
 */
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void xfer(int fd, int rd)
{
	char c = 'x';

	if ((rd ? read(fd, &c, 1) : write(fd, &c, 1)) != 1) {
		perror("poolwin: pipe");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	long rounds, step, i, nmarks;
	int ab[2], ba[2], status, cpu;
	uint64_t t0, t1, *marks;
	cpu_set_t set;
	pid_t child;

	if (argc < 3 || (cpu = atoi(argv[1])) < 0 ||
	    (rounds = strtol(argv[2], NULL, 10)) <= 0 ||
	    (step = argc > 3 ? strtol(argv[3], NULL, 10) : 1000) <= 0) {
		fprintf(stderr, "usage: poolwin CPU ROUNDS [STEP]\n");
		return 2;
	}
	nmarks = rounds / step;
	marks = calloc((size_t)nmarks + 1, sizeof(*marks));
	if (!marks) {
		perror("poolwin: calloc");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("poolwin: sched_setaffinity");
		return 1;
	}
	if (pipe(ab) || pipe(ba)) {
		perror("poolwin: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("poolwin: fork");
		return 1;
	}
	if (!child) {
		for (i = 0; i < rounds; i++) {
			xfer(ab[0], 1);
			xfer(ba[1], 0);
		}
		_exit(0);
	}
	t0 = mono_ns();
	for (i = 1; i <= rounds; i++) {
		xfer(ab[1], 0);
		xfer(ba[0], 1);
		if (i % step == 0)
			marks[i / step - 1] = mono_ns();
	}
	t1 = mono_ns();
	if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "poolwin: the child failed\n");
		return 1;
	}
	printf("{\"cpu\": %d, \"rounds\": %ld, \"step\": %ld, \"start_ns\": %" PRIu64
	       ", \"end_ns\": %" PRIu64 ", \"marks_ns\": [", cpu, rounds, step, t0, t1);
	for (i = 0; i < nmarks; i++)
		printf("%s%" PRIu64, i ? ", " : "", marks[i]);
	printf("]}\n");
	free(marks);
	return 0;
}
