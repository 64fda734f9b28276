// SPDX-License-Identifier: GPL-2.0
/*
 * burnsplit: a known on-CPU split for the profiler.  Built with frame
 * pointers (-fno-omit-frame-pointer -O1, tests/vm/vm.mk): main() calls
 * burn_hot() and burn_cold() in turn, each doing whole blocks of the same
 * arithmetic (20,000 steps, no system call inside), HOT% of all blocks in
 * burn_hot(), the rest in burn_cold(), until the thread has used SECONDS
 * of CPU time (CLOCK_THREAD_CPUTIME_ID, read by main() once a round).
 *
 * The split is counted in work, not read from the CPU clock: in a TCG
 * guest on a loaded host the guest's clocks run on while the host has
 * taken the vCPU away, so whichever function was running then is charged
 * tens of milliseconds it did not compute, which a sampling profiler (one
 * late tick for the whole gap) never sees; the blocks each function did
 * are what the profiler samples.  A round is 2 to 18 blocks, drawn from a
 * fixed pseudo-random sequence, so that a profiler ticking at a fixed
 * rate meets the split at phases that do not repeat (fixed 10 ms rounds
 * against 99 Hz ticks slide 0.1 ms a round: consecutive samples alike, the
 * share wandering by more than the test's 10 points).
 *
 * Prints the ground truth:
 *
 *   pid=PID start_ns=T end_ns=T cpu_ns=N hot_blocks=N cold_blocks=N
 *
 * (CLOCK_MONOTONIC start and end, the CPU time used between them, the
 * blocks each function did), then waits in pause() until it is killed,
 * so that its mappings are there for a dump.
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
 * The end of a block.  A call, so that burn_hot() and burn_cold() are not
 * leaf functions: GCC leaves a leaf function without a frame of its own
 * even with -fno-omit-frame-pointer, and a frame-pointer walk from inside
 * it would skip its caller, main().
 */
static __attribute__((noinline)) void block_done(unsigned long x)
{
	sink = x;
}

/* @n blocks of arithmetic with multiplier @m.  Inlined: each caller runs its own copy. */
static inline __attribute__((always_inline)) void burn(long long n, unsigned long m)
{
	unsigned long x = sink;
	int i;

	while (n-- > 0) {
		for (i = 0; i < 20000; i++)
			x = x * m + 1442695040888963407UL;
		block_done(x);
	}
}

static __attribute__((noinline)) void burn_hot(long long n)
{
	burn(n, 6364136223846793005UL);
}

static __attribute__((noinline)) void burn_cold(long long n)
{
	burn(n, 2862933555777941757UL);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3;
	int hot = argc > 2 ? atoi(argv[2]) : 70;
	long long total = (long long)(secs * 1e9), hot_n = 0, cold_n = 0;
	unsigned long long seed = 1;
	long long start, end, cpu0;

	if (secs <= 0 || hot < 0 || hot > 100) {
		fprintf(stderr, "usage: burnsplit [SECONDS [HOT]]\n");
		return 2;
	}
	start = clock_ns(CLOCK_MONOTONIC);
	cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	/* Each function is given what keeps the totals at HOT% and the rest. */
	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0 < total) {
		long long t, want_hot, want_cold;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		t = hot_n + cold_n + 2 + (long long)((seed >> 33) % 17);
		want_hot = t * hot / 100 - hot_n;
		want_cold = t - hot_n - cold_n - want_hot;
		if (want_hot > 0) {
			burn_hot(want_hot);
			hot_n += want_hot;
		}
		if (want_cold > 0) {
			burn_cold(want_cold);
			cold_n += want_cold;
		}
	}
	end = clock_ns(CLOCK_MONOTONIC);
	printf("pid=%d start_ns=%lld end_ns=%lld cpu_ns=%lld hot_blocks=%lld cold_blocks=%lld\n",
	       (int)getpid(), start, end, clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0,
	       hot_n, cold_n);
	fflush(stdout);
	pause();
	return 0;
}
