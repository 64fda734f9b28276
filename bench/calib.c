// SPDX-License-Identifier: GPL-2.0
/*
 * The fork storm's "computes ~10 ms": a loop whose iteration count is
 * calibrated at start-up on the CPU the benchmark runs on, instead of a
 * count that was right for one machine once.
 */
#include <errno.h>
#include <string.h>

#include "bench.h"

static volatile uint64_t calib_sink;

/* @loops rounds of xorshift64: a serial dependency chain, no memory. */
uint64_t calib_spin(uint64_t loops)
{
	uint64_t x = 0x9e3779b97f4a7c15ull + loops, i;

	for (i = 0; i < loops; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	calib_sink = x;
	return x;
}

static uint64_t time_spin(uint64_t loops)
{
	uint64_t t0 = mono_ns();

	calib_spin(loops);
	return mono_ns() - t0;
}

/**
 * calib_run() - find the loop count that computes for @target_ns
 * @target_ns: the computation wanted per iteration
 * @c: result; c->check_ns holds five timed runs of the final count
 *
 * Interference (preemption, interrupts) only ever makes a run slower, so
 * the fastest of several runs gives the machine's speed.
 *
 * Return: 0, or -ERANGE if the clock did not advance.
 */
int calib_run(uint64_t target_ns, struct bench_calib *c)
{
	uint64_t loops = 1000, t, best = UINT64_MAX;
	double best_rate = 0;
	int i;

	memset(c, 0, sizeof(*c));
	c->target_ns = target_ns;
	time_spin(100000);	/* warm up: caches, frequency, TCG's code cache */
	/* grow until one run takes a measurable while (>= 2 ms) */
	for (;;) {
		t = time_spin(loops);
		if (t >= 2 * NS_PER_MS || loops >= (1ull << 40))
			break;
		loops *= 2;
	}
	if (!t)
		return -ERANGE;
	for (i = 0; i < 5; i++) {
		uint64_t n = (uint64_t)((double)loops * (double)target_ns / (double)t);

		if (n < 1)
			n = 1;
		t = time_spin(n);
		if (t && (double)t / (double)n < (best == UINT64_MAX ? 1e300 : best_rate)) {
			best_rate = (double)t / (double)n;
			best = t;
		}
		t = t ? t : 1;
		loops = n;
	}
	if (best == UINT64_MAX || best_rate <= 0)
		return -ERANGE;
	c->ns_per_loop = best_rate;
	c->loops = (uint64_t)((double)target_ns / best_rate);
	if (!c->loops)
		c->loops = 1;
	for (i = 0; i < 5; i++)
		c->check_ns[i] = time_spin(c->loops);
	return 0;
}
