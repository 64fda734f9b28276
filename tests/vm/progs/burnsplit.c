// SPDX-License-Identifier: GPL-2.0
/*
 * burnsplit: a known on-CPU split for the profiler.  Built with frame
 * pointers (-fno-omit-frame-pointer -O1, tests/vm/vm.mk): main() calls
 * burn_hot() and burn_cold() in turn, each computing for a slice of CPU
 * time (CLOCK_THREAD_CPUTIME_ID, read once per block of arithmetic so that
 * nearly every instruction runs in the function itself), HOT% of the total
 * in burn_hot(), the rest in burn_cold(), in rounds of 10 ms, for SECONDS
 * of CPU time.
 * Prints the ground truth, measured, not assumed:
 *
 *   pid=PID start_ns=T end_ns=T hot_ns=N cold_ns=N
 *
 * (CLOCK_MONOTONIC start and end; the CPU time spent in each function),
 * then waits in pause() until it is killed, so that its mappings are there
 * for a dump.
 *
 *   burnsplit [SECONDS [HOT]]     (default 3 and 70)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static volatile unsigned long sink;

/*
 * Compute until the thread has used @ns more CPU time, with multiplier @m;
 * Return: ns used.  Inlined, so that each caller runs its own copy.
 */
static inline __attribute__((always_inline)) long long burn(long long ns,
							   unsigned long m)
{
	long long t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), t;
	unsigned long x = sink;
	int i;

	do {
		for (i = 0; i < 100000; i++)
			x = x * m + 1442695040888963407UL;
		sink = x;
		t = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	} while (t - t0 < ns);
	return t - t0;
}

static __attribute__((noinline)) long long burn_hot(long long ns)
{
	return burn(ns, 6364136223846793005UL);
}

static __attribute__((noinline)) long long burn_cold(long long ns)
{
	return burn(ns, 2862933555777941757UL);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3;
	int hot = argc > 2 ? atoi(argv[2]) : 70;
	long long total = (long long)(secs * 1e9), hot_ns = 0, cold_ns = 0;
	long long start, end;

	if (secs <= 0 || hot < 0 || hot > 100) {
		fprintf(stderr, "usage: burnsplit [SECONDS [HOT]]\n");
		return 2;
	}
	start = clock_ns(CLOCK_MONOTONIC);
	/*
	 * Rounds of 10 ms; each function is asked for what keeps the totals
	 * at HOT% and the rest (a burn overshoots by up to a block of
	 * arithmetic, which the next round pays back).
	 */
	while (hot_ns + cold_ns < total) {
		long long t = hot_ns + cold_ns + 10000000LL;
		long long want_hot = t * hot / 100 - hot_ns;
		long long want_cold = t * (100 - hot) / 100 - cold_ns;

		if (want_hot > 0)
			hot_ns += burn_hot(want_hot);
		if (want_cold > 0)
			cold_ns += burn_cold(want_cold);
	}
	end = clock_ns(CLOCK_MONOTONIC);
	printf("pid=%d start_ns=%lld end_ns=%lld hot_ns=%lld cold_ns=%lld\n",
	       (int)getpid(), start, end, hot_ns, cold_ns);
	fflush(stdout);
	pause();
	return 0;
}
