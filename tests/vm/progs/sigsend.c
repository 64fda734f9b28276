// SPDX-License-Identifier: GPL-2.0
/*
 * sigsend: send a signal and say when, as a bracket a shell cannot give
 * (reading the clock from a shell forks a process, and under TCG the
 * fork and exit of that process can take longer than the window a test
 * checks).  Prints
 *
 *   sent_lo_ns=T sent_hi_ns=T
 *
 * CLOCK_MONOTONIC just before and just after kill(2): the signal, and any
 * wakeup it makes, happened between the two.
 *
 *   sigsend SIGNUM PID
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long sig, pid;
	long long lo, hi;
	char *end;

	if (argc != 3)
		goto usage;
	sig = strtol(argv[1], &end, 10);
	if (*end || sig <= 0 || sig >= 65)
		goto usage;
	pid = strtol(argv[2], &end, 10);
	if (*end || pid <= 0)
		goto usage;
	lo = mono_ns();
	if (kill((pid_t)pid, (int)sig)) {
		perror("sigsend: kill");
		return 1;
	}
	hi = mono_ns();
	printf("sent_lo_ns=%lld sent_hi_ns=%lld\n", lo, hi);
	return 0;
usage:
	fprintf(stderr, "usage: sigsend SIGNUM PID\n");
	return 2;
}
