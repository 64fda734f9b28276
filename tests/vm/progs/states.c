// SPDX-License-Identifier: GPL-2.0
/*
 * states: three processes in known states for SECONDS:
 *   spinner  runs a busy loop (R)
 *   sleeper  sleeps in nanosleep (S)
 *   dwaiter  waits in vfork() for a child that sleeps: uninterruptible (D)
 * Once all three are in place (seen in /proc) it prints
 *
 *   spinner=PID sleeper=PID dwaiter=PID from_ns=T to_ns=T
 *
 * where [from, to] (CLOCK_MONOTONIC) is when all three held their state.
 *
 *   states [SECONDS]     (default 2)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

static void sleep_ns(long long ns)
{
	struct timespec d = { ns / 1000000000LL, ns % 1000000000LL };

	while (nanosleep(&d, &d))
		;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? strtod(argv[1], NULL) : 2;
	long long hold = (long long)(secs * 1e9), from, to;
	pid_t spinner, sleeper, dwaiter;
	int status;

	spinner = fork();
	if (!spinner) {
		long long end = mono_ns() + hold + 2000000000LL;

		while (mono_ns() < end)
			;
		_exit(0);
	}
	sleeper = fork();
	if (!sleeper) {
		sleep_ns(hold + 2000000000LL);
		_exit(0);
	}
	dwaiter = fork();
	if (!dwaiter) {
		/* The parent of a vfork child waits uninterruptibly. */
		if (!vfork()) {
			sleep_ns(hold + 2000000000LL);
			_exit(0);
		}
		_exit(0);
	}
	while (proc_state(sleeper) != 'S' || proc_state(dwaiter) != 'D' ||
	       proc_state(spinner) != 'R')
		sleep_ns(1000000);
	from = mono_ns();
	sleep_ns(hold);
	to = mono_ns();
	printf("spinner=%d sleeper=%d dwaiter=%d from_ns=%lld to_ns=%lld\n",
	       (int)spinner, (int)sleeper, (int)dwaiter, from, to);
	fflush(stdout);
	kill(spinner, SIGKILL);
	kill(sleeper, SIGKILL);
	while (wait(&status) > 0)
		;
	return 0;
}
