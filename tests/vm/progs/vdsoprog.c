// SPDX-License-Identifier: GPL-2.0
/*
 * vdsoprog: a program that spends its time in the vDSO, for the user
 * chains that pass through it (t-vdso.sh).  Built with frame pointers
 * (-fno-omit-frame-pointer -O1, tests/vm/vm.mk): main() calls
 * poll_clock(), which calls the vDSO's clock_gettime directly (found with
 * dlsym() in the vDSO glibc loaded, "linux-vdso.so.1": not through libc's
 * wrapper, which keeps no frame), CLOCK_MONOTONIC in a loop (computed in
 * the vDSO) and CLOCK_THREAD_CPUTIME_ID once per round (a system call
 * made from the vDSO), until the thread has used SECONDS of CPU time.
 * Prints the ground truth, measured, not assumed:
 *
 *   pid=PID start_ns=T end_ns=T calls=N vdso=LO-HI
 *
 * (CLOCK_MONOTONIC start and end, the vDSO calls made, where the vDSO is
 * mapped, as /proc/self/maps says), then waits in pause() until it is
 * killed, so that its mappings are there for a dump.
 *
 *   vdsoprog [SECONDS]     (default 3)
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*gettime_fn)(clockid_t, struct timespec *);

static long long ns_of(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* Call @vdso_gettime until this thread has used @ns of CPU time. */
static __attribute__((noinline)) long long poll_clock(gettime_fn vdso_gettime,
						      long long ns)
{
	struct timespec t0, t;
	long long calls = 0;
	int i;

	if (vdso_gettime(CLOCK_THREAD_CPUTIME_ID, &t0))
		return -1;
	do {
		for (i = 0; i < 64; i++)
			if (vdso_gettime(CLOCK_MONOTONIC, &t))
				return -1;
		if (vdso_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
			return -1;
		calls += 65;
	} while (ns_of(&t) - ns_of(&t0) < ns);
	return calls;
}

/* Where the vDSO is mapped: "LO-HI" of its /proc/self/maps line. */
static int vdso_range(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "re");
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]")) {
			snprintf(buf, len, "%.*s", (int)strcspn(line, " "), line);
			found = 1;
		}
	fclose(f);
	return found ? 0 : -1;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3;
	void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	gettime_fn fn = NULL;
	struct timespec a, b;
	long long calls;
	char range[64];

	if (secs <= 0) {
		fprintf(stderr, "usage: vdsoprog [SECONDS]\n");
		return 2;
	}
	if (h)
		*(void **)&fn = dlsym(h, "__vdso_clock_gettime");
	if (!fn || vdso_range(range, sizeof(range))) {
		fprintf(stderr, "vdsoprog: no vDSO clock_gettime\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	calls = poll_clock(fn, (long long)(secs * 1e9));
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (calls < 0) {
		perror("vdsoprog: clock_gettime");
		return 1;
	}
	printf("pid=%d start_ns=%lld end_ns=%lld calls=%lld vdso=%s\n", (int)getpid(),
	       ns_of(&a), ns_of(&b), calls, range);
	fflush(stdout);
	pause();
	return 0;
}
