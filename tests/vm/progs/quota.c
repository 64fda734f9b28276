// SPDX-License-Identifier: GPL-2.0
/*
 * quota: a waiter (this process, outside the cgroup) reads a pipe that a
 * child, moved into cgroup CG (a cgroup v2 folder with a cpu.max the test
 * set), writes once it is done:
 *
 *   spin MS   the child computes until it has used MS ms of CPU time, so
 *             a quota below that throttles it (the stall to find);
 *   sleep MS  the child computes 2 ms, sleeps MS ms, computes 2 ms: no
 *             quota of a few ms per period throttles it (the negative).
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
 *   quota CG spin|sleep MS
 */
#include <sched.h>
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

int main(int argc, char **argv)
{
	int go[2], done[2], status, sleep_mode;
	long long start, woke, cpu_ns, th0, th1, nr0, nr1;
	char path[512], pid[32], c = 'x';
	struct timespec d;
	struct stat st;
	pid_t child;
	long ms;

	if (argc != 4 || (strcmp(argv[2], "spin") && strcmp(argv[2], "sleep"))) {
		fprintf(stderr, "usage: quota CG spin|sleep MS\n");
		return 2;
	}
	sleep_mode = !strcmp(argv[2], "sleep");
	ms = strtol(argv[3], NULL, 10);
	if (ms <= 0 || stat(argv[1], &st) || pipe(go) || pipe(done) || pin(0))
		return 1;
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
		_exit(0);
	}
	/* into the cgroup before it does anything there */
	snprintf(path, sizeof(path), "%s/cgroup.procs", argv[1]);
	snprintf(pid, sizeof(pid), "%d\n", (int)child);
	if (write_file(path, pid))
		return 1;
	nr0 = cpu_stat(argv[1], "nr_throttled");
	th0 = cpu_stat(argv[1], "throttled_usec");
	start = clock_ns(CLOCK_MONOTONIC);
	if (write(go[1], &c, 1) != 1)
		return 1;
	if (read(done[0], &cpu_ns, sizeof(cpu_ns)) != sizeof(cpu_ns))
		return 1;
	woke = clock_ns(CLOCK_MONOTONIC);
	waitpid(child, &status, 0);
	nr1 = cpu_stat(argv[1], "nr_throttled");
	th1 = cpu_stat(argv[1], "throttled_usec");
	if (nr0 < 0 || th0 < 0 || nr1 < 0 || th1 < 0)
		return 1;
	printf("waiter=%d child=%d start_ns=%lld woke_ns=%lld child_cpu_ns=%lld nr_throttled=%lld throttled_us=%lld cgroup_ino=%llu\n",
	       (int)getpid(), (int)child, start, woke, cpu_ns, nr1 - nr0, th1 - th0,
	       (unsigned long long)st.st_ino);
	return status ? 1 : 0;
}
