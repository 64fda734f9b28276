// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: two processes pass one byte back and forth over two pipes
 * ROUNDS times, pinned to one CPU so that every write wakes the other
 * side and every read blocks.  Prints the ground truth a test checks the
 * recording against: both pids, the rounds, and the CLOCK_MONOTONIC
 * interval the exchange took.
 *
 *   pingpong ROUNDS [CPU]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void xfer(int in, int out, long rounds, int first)
{
	char c = 'x';
	long i;

	for (i = 0; i < rounds; i++) {
		if (first && write(out, &c, 1) != 1)
			exit(1);
		if (read(in, &c, 1) != 1)
			exit(1);
		if (!first && write(out, &c, 1) != 1)
			exit(1);
	}
}

int main(int argc, char **argv)
{
	int ab[2], ba[2], status;
	long rounds;
	cpu_set_t set;
	double t0, t1;
	pid_t child;

	if (argc < 2 || (rounds = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: pingpong ROUNDS [CPU]\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(argc > 2 ? atoi(argv[2]) : 0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("pingpong: sched_setaffinity");
		return 1;
	}
	if (pipe(ab) || pipe(ba)) {
		perror("pingpong: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (!child) {
		xfer(ab[0], ba[1], rounds, 0);
		_exit(0);
	}
	/* Let the child block in read first, so round 1 is like the others. */
	usleep(20000);
	t0 = mono();
	xfer(ba[0], ab[1], rounds, 1);
	t1 = mono();
	if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	printf("parent=%d child=%d rounds=%ld start=%.9f end=%.9f\n",
	       (int)getpid(), (int)child, rounds, t0, t1);
	return 0;
}
