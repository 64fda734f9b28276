// SPDX-License-Identifier: GPL-2.0
/*
 * quota: a waiter (this process, outside the cgroup) reads a pipe that a
 * child, moved into cgroup CG (a cgroup v2 folder with a cpu.max the test
 * set), writes once it is done:
 *
 *   spin MS   the child computes until it has used MS ms of CPU time, so
 *             a quota below that throttles it (the stall to find);
 *   sleep MS  the child computes 2 ms, sleeps MS ms, computes 2 ms: no
 *             quota of a few ms per period throttles it (the negative);
 *   tick MS   two children in the cgroup on CPU 1: a spinner that computes
 *             without end, and a ticker that sleeps to deadlines 5 ms
 *             apart for MS ms and keeps the wakeup that came latest after
 *             its deadline (woken while the spinner had its group
 *             throttled, it waits for the next period).  It prints
 *
 *               ticker=PID spinner=PID deadline_ns=T woke_ns=T
 *               nr_throttled=K cgroup_ino=INO
 *
 *             and then waits, the children alive (a dump lists the
 *             cgroup's threads), until it is killed; its children die
 *             with it.
 *
 * Both pinned to CPU 1 (the child) and 0 (the waiter), so the cgroup's
 * throttled time is the child's on one CPU.  Prints the ground truth:
 *
 *   waiter=PID child=PID start_ns=T woke_ns=T child_cpu_ns=N
 *   nr_throttled=K throttled_us=U cgroup_ino=INO
 *
 * (CLOCK_MONOTONIC ns: when the waiter let the child go, when its read
 * returned; the child's CPU time; the cgroup's cpu.stat counters over
 * the wait, as the kernel counted them; the folder's inode number, the
 * cgroup's id).
 *
 *   quota CG spin|sleep|tick MS
 */
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Compute until this thread has used @ms more of CPU time. */
static void spin_cpu(long ms)
{
	long long end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ms * 1000000LL;
	volatile unsigned long x = 0;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		x++;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* @key's value in CG/cpu.stat, or -1. */
static long long cpu_stat(const char *cg, const char *key)
{
	char path[512], k[64];
	long long v, r = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu.stat", cg);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", k, &v) == 2)
		if (!strcmp(k, key))
			r = v;
	fclose(f);
	return r;
}

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return -1;
	bad = fputs(s, f) < 0;
	return fclose(f) || bad ? -1 : 0;
}

static void to_cgroup(const char *cg, pid_t pid)
{
	char path[512], s[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(s, sizeof(s), "%d\n", (int)pid);
	if (write_file(path, s))
		exit(1);
}

/* The tick mode: see the top of the file. */
static int tick(const char *cg, long ms, ino_t ino)
{
	long long end, deadline, woke, late = -1, best_deadline = 0, best_woke = 0, nr0, nr1;
	int go[2], res[2];
	pid_t spinner, ticker;
	struct timespec d;
	char c = 'x';

	if (pipe(go) || pipe(res))
		return 1;
	spinner = fork();
	if (!spinner) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pin(1) || read(go[0], &c, 1) != 1)
			_exit(1);
		for (;;)
			spin_cpu(1000);
	}
	ticker = fork();
	if (!ticker) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pin(1) || read(go[0], &c, 1) != 1)
			_exit(1);
		end = clock_ns(CLOCK_MONOTONIC) + ms * 1000000LL;
		for (deadline = clock_ns(CLOCK_MONOTONIC) + 5000000; deadline < end;
		     deadline = woke + 5000000) {
			d.tv_sec = deadline / 1000000000LL;
			d.tv_nsec = deadline % 1000000000LL;
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, NULL))
				;
			woke = clock_ns(CLOCK_MONOTONIC);
			if (woke - deadline > late) {
				late = woke - deadline;
				best_deadline = deadline;
				best_woke = woke;
			}
		}
		if (write(res[1], &best_deadline, sizeof(best_deadline)) != sizeof(best_deadline) ||
		    write(res[1], &best_woke, sizeof(best_woke)) != sizeof(best_woke))
			_exit(1);
		for (;;)
			pause();
	}
	if (spinner < 0 || ticker < 0)
		return 1;
	to_cgroup(cg, spinner);
	to_cgroup(cg, ticker);
	nr0 = cpu_stat(cg, "nr_throttled");
	if (write(go[1], "xx", 2) != 2 ||
	    read(res[0], &best_deadline, sizeof(best_deadline)) != sizeof(best_deadline) ||
	    read(res[0], &best_woke, sizeof(best_woke)) != sizeof(best_woke))
		return 1;
	nr1 = cpu_stat(cg, "nr_throttled");
	printf("ticker=%d spinner=%d deadline_ns=%lld woke_ns=%lld nr_throttled=%lld cgroup_ino=%llu\n",
	       (int)ticker, (int)spinner, best_deadline, best_woke, nr1 - nr0,
	       (unsigned long long)ino);
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	int go[2], done[2], status, sleep_mode;
	long long start, woke, cpu_ns, th0, th1, nr0, nr1;
	char c = 'x';
	struct timespec d;
	struct stat st;
	pid_t child;
	long ms;

	if (argc != 4 || (strcmp(argv[2], "spin") && strcmp(argv[2], "sleep") &&
			  strcmp(argv[2], "tick"))) {
		fprintf(stderr, "usage: quota CG spin|sleep|tick MS\n");
		return 2;
	}
	sleep_mode = !strcmp(argv[2], "sleep");
	ms = strtol(argv[3], NULL, 10);
	if (ms <= 0 || stat(argv[1], &st) || pipe(go) || pipe(done) || pin(0))
		return 1;
	if (!strcmp(argv[2], "tick"))
		return tick(argv[1], ms, st.st_ino);
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		if (pin(1) || read(go[0], &c, 1) != 1)
			_exit(1);
		if (sleep_mode) {
			spin_cpu(2);
			d.tv_sec = ms / 1000;
			d.tv_nsec = (ms % 1000) * 1000000L;
			while (nanosleep(&d, &d))
				;
			spin_cpu(2);
		} else {
			spin_cpu(ms);
		}
		cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		if (write(done[1], &cpu_ns, sizeof(cpu_ns)) != sizeof(cpu_ns))
			_exit(1);
		/*
		 * asleep, not exiting, until the waiter has read cpu.stat: a
		 * throttle that the exit's own CPU time ran into would be
		 * counted there and is no part of the wait
		 */
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	/* into the cgroup before it does anything there */
	to_cgroup(argv[1], child);
	nr0 = cpu_stat(argv[1], "nr_throttled");
	th0 = cpu_stat(argv[1], "throttled_usec");
	start = clock_ns(CLOCK_MONOTONIC);
	if (write(go[1], &c, 1) != 1)
		return 1;
	if (read(done[0], &cpu_ns, sizeof(cpu_ns)) != sizeof(cpu_ns))
		return 1;
	woke = clock_ns(CLOCK_MONOTONIC);
	nr1 = cpu_stat(argv[1], "nr_throttled");
	th1 = cpu_stat(argv[1], "throttled_usec");
	if (write(go[1], &c, 1) != 1)
		return 1;
	waitpid(child, &status, 0);
	if (nr0 < 0 || th0 < 0 || nr1 < 0 || th1 < 0)
		return 1;
	printf("waiter=%d child=%d start_ns=%lld woke_ns=%lld child_cpu_ns=%lld nr_throttled=%lld throttled_us=%lld cgroup_ino=%llu\n",
	       (int)getpid(), (int)child, start, woke, cpu_ns, nr1 - nr0, th1 - th0,
	       (unsigned long long)st.st_ino);
	return status ? 1 : 0;
}
