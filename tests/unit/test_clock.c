// SPDX-License-Identifier: GPL-2.0
/* Timestamp -> CLOCK_MONOTONIC / CLOCK_REALTIME mapping. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump/clock.h"
#include "gen.h"
#include "dump/pm.h"
#include "tap.h"

static int64_t absd(int64_t a, int64_t b)
{
	return a > b ? a - b : b - a;
}

int main(void)
{
	struct tipme_clock_pair p[8];
	struct pm_clock c;
	char buf[32], dir[64], path[128];
	uint64_t rng = 2024, ts, t0 = 5000000000ULL;
	int64_t worst = 0, d;
	long double khz_true = 2999999.7L, f;
	int i, ok;

	tap_plan(16);

	pm_clock_init(&c, NULL, 0, 3000000);
	tap_ok(pm_clock_mono(&c, 3000000000ULL) == 1000000000 &&
	       pm_clock_mono(&c, 1) == 0 && pm_clock_mono(&c, 3) == 1,
	       "no pairs: ticks / tsc_khz from 0");

	memset(p, 0, sizeof(p));
	p[0].ts = 1000000;
	p[0].mono_ns = 50000000000LL;
	p[0].real_ns = 1714566896000000000ULL;
	pm_clock_init(&c, p, 1, 2000000);
	tap_ok(pm_clock_mono(&c, 1000000) == 50000000000LL &&
	       pm_clock_mono(&c, 1000000 + 2000000000ULL) == 51000000000LL &&
	       pm_clock_mono(&c, 0) == 50000000000LL - 500000 &&
	       pm_clock_real(&c, 3000000) == 1714566896001000000LL,
	       "one pair: extrapolated at tsc_khz on both sides");

	/* pairs from a clock running slightly slower than tsc_khz says */
	for (i = 0; i < 5; i++) {
		p[i].ts = t0 + (uint64_t)i * 30000000000ULL;	/* 10 s apart */
		f = (long double)(p[i].ts - t0) * 1e6L / khz_true;
		p[i].mono_ns = 100000000000ULL + (uint64_t)(f + 0.5L);
		p[i].real_ns = 1714566896000000000ULL + (uint64_t)(f + 0.5L);
		p[i].reserved = 0;
	}
	pm_clock_init(&c, p, 5, 3000000);
	ok = 1;
	for (i = 0; i < 5; i++)
		ok &= pm_clock_mono(&c, p[i].ts) == (int64_t)p[i].mono_ns &&
		      pm_clock_real(&c, p[i].ts) == (int64_t)p[i].real_ns;
	tap_ok(ok, "exact at every pair");
	for (i = 0; i < 100000; i++) {
		ts = t0 + gen_rand(&rng) % (4 * 30000000000ULL);
		f = (long double)(ts - t0) * 1e6L / khz_true;
		d = absd(pm_clock_mono(&c, ts), 100000000000LL + (int64_t)(f + 0.5L));
		if (d > worst)
			worst = d;
	}
	tap_ok(worst <= 2, "100000 random points between pairs: within %lld ns of the true clock",
	       (long long)worst);
	ts = p[4].ts + 3000000000ULL;	/* 1 s after the last pair */
	tap_ok(pm_clock_mono(&c, ts) == (int64_t)p[4].mono_ns + 1000000000,
	       "after the last pair: continues at the header's tsc_khz");
	ts = p[0].ts - 3000;
	tap_ok(pm_clock_mono(&c, ts) == (int64_t)p[0].mono_ns - 1000,
	       "before the first pair: continues at the header's tsc_khz");

	/* piecewise: the slope changes at p[1] */
	p[0].ts = 1000; p[0].mono_ns = 10000;
	p[1].ts = 2000; p[1].mono_ns = 11000;	/* 1 ns per tick */
	p[2].ts = 3000; p[2].mono_ns = 13000;	/* 2 ns per tick */
	p[0].real_ns = 900000; p[1].real_ns = 800000; p[2].real_ns = 800500;	/* realtime stepped back */
	pm_clock_init(&c, p, 3, 1000000);
	tap_ok(pm_clock_mono(&c, 1500) == 10500 && pm_clock_mono(&c, 2500) == 12000 &&
	       pm_clock_mono(&c, 2999) == 12998 && pm_clock_mono(&c, 2000) == 11000,
	       "piecewise linear between pairs");
	tap_ok(pm_clock_real(&c, 1500) == 850000 && pm_clock_real(&c, 2500) == 800250,
	       "realtime may go backwards between pairs");
	p[1].mono_ns = UINT64_MAX / 2;
	p[2].mono_ns = UINT64_MAX / 2 + 5;
	pm_clock_init(&c, p, 3, 1);
	tap_ok(pm_clock_mono(&c, UINT64_MAX) == INT64_MAX &&
	       pm_clock_mono(&c, 1500) > 0 && pm_ticks_to_ns(&c, UINT64_MAX) == INT64_MAX,
	       "extreme values saturate instead of overflowing");

	/* ns ticks (local_clock()) are not divided: the same numbers as when they were */
	pm_clock_init(&c, NULL, 0, 1000000);
	tap_ok(pm_ticks_to_ns(&c, 0) == 0 && pm_ticks_to_ns(&c, 123456789) == 123456789 &&
	       pm_ticks_to_ns(&c, UINT64_MAX / 1000000 + 1) == (int64_t)(UINT64_MAX / 1000000 + 1) &&
	       pm_ticks_to_ns(&c, INT64_MAX) == INT64_MAX &&
	       pm_ticks_to_ns(&c, (uint64_t)INT64_MAX + 1) == INT64_MAX &&
	       pm_ticks_to_ns(&c, UINT64_MAX) == INT64_MAX &&
	       pm_clock_mono(&c, 98765432101ULL) == 98765432101LL,
	       "ns ticks: the tick count itself, saturated at INT64_MAX");

	tap_ok(!strcmp(pm_fmt_ns(1234567890123LL, buf, sizeof(buf)), "1234.567890123") &&
	       !strcmp(pm_fmt_ns(0, buf, sizeof(buf)), "0.000000000") &&
	       !strcmp(pm_fmt_ns(-1500000000LL, buf, sizeof(buf)), "-1.500000000") &&
	       !strcmp(pm_fmt_ns(INT64_MIN, buf, sizeof(buf)), "-9223372036.854775808"),
	       "seconds formatting, negative and extreme values");

	/* through pm_open: out-of-order pairs are ignored and counted */
	if (gen_tmpdir(dir)) {
		struct tm_err e = { "" };
		struct gen_spec s;
		struct pm_dump pm;
		int err;

		gen_default(&s);
		s.nr_pairs = 4;
		memset(s.pairs, 0, sizeof(s.pairs));
		s.pairs[0] = (struct tipme_clock_pair){ .ts = 100, .mono_ns = 1000, .real_ns = 5 };
		s.pairs[1] = (struct tipme_clock_pair){ .ts = 50, .mono_ns = 2000 };	/* ts back */
		s.pairs[2] = (struct tipme_clock_pair){ .ts = 200, .mono_ns = 900 };	/* mono back */
		s.pairs[3] = (struct tipme_clock_pair){ .ts = 300, .mono_ns = 1100 };
		snprintf(path, sizeof(path), "%s/clock.tipme", dir);
		err = gen_write(path, &s, NULL, &e);
		if (!err)
			err = pm_open(&pm, path, 0, &e);
		tap_ok(!err && pm.nr_pairs == 2 && pm.pairs_ignored == 2 &&
		       pm_clock_mono(&pm.clock, 200) == 1050,
		       "pm_open keeps increasing pairs, ignores and counts the others%s%s",
		       err ? ": " : "", e.msg);
		pm_close(&pm);
		/*
		 * local_clock(): a pair it did not move across (err_ts 0) was
		 * taken with the clock held behind CLOCK_MONOTONIC (here 8 ms);
		 * it is left out, and the records near it map as the others
		 * say; with the TSC, or with no pair that moved, it is kept
		 */
		s.pairs[0] = (struct tipme_clock_pair){ .ts = 1000000000, .mono_ns = 1039000000,
							.err_ts = 3000 };
		s.pairs[1] = (struct tipme_clock_pair){ .ts = 1992000000, .mono_ns = 2039000000 };
		s.pairs[2] = (struct tipme_clock_pair){ .ts = 3000000000ULL, .mono_ns = 3039000000ULL,
							.err_ts = 5000 };
		s.nr_pairs = 3;
		s.hdr.tsc_khz = 1000000;
		s.hdr.clock_source = TIPME_CLOCK_LOCAL;
		err = gen_write(path, &s, NULL, &e) || pm_open(&pm, path, 0, &e);
		tap_ok(!err && pm.nr_pairs == 2 && pm.pairs_ignored == 1 &&
		       pm_clock_mono(&pm.clock, 2000000000) == 2039000000,
		       "local_clock(): a pair taken while it stood still is ignored, the records "
		       "near it map to CLOCK_MONOTONIC (%lld)",
		       err ? 0LL : (long long)pm_clock_mono(&pm.clock, 2000000000));
		pm_close(&pm);
		s.hdr.clock_source = TIPME_CLOCK_TSC;
		err = gen_write(path, &s, NULL, &e) || pm_open(&pm, path, 0, &e);
		ok = !err && pm.nr_pairs == 3 && !pm.pairs_ignored;
		pm_close(&pm);
		s.hdr.clock_source = TIPME_CLOCK_LOCAL;
		s.pairs[0].err_ts = s.pairs[2].err_ts = 0;
		err = gen_write(path, &s, NULL, &e) || pm_open(&pm, path, 0, &e);
		tap_ok(ok && !err && pm.nr_pairs == 3 && !pm.pairs_ignored,
		       "... kept with the TSC, and when no pair saw local_clock() move");
		pm_close(&pm);
		s.pairs[0] = (struct tipme_clock_pair){ .ts = 100, .mono_ns = 1000, .real_ns = 5 };
		s.pairs[1] = (struct tipme_clock_pair){ .ts = 50, .mono_ns = 2000 };
		s.pairs[2] = (struct tipme_clock_pair){ .ts = 200, .mono_ns = 900 };
		s.nr_pairs = 4;
		s.hdr.tsc_khz = 2000000;
		s.hdr.clock_source = TIPME_CLOCK_TSC;
		s.pairs[1].reserved = 7;
		err = gen_write(path, &s, NULL, &e);
		if (!err)
			err = pm_open(&pm, path, 0, &e);
		tap_ok(err && strstr(e.msg, "pair 1: reserved field is not zero"),
		       "a pair with a non-zero reserved field is rejected (%s)", e.msg);
		pm_close(&pm);
		s.hdr.tsc_khz = 0;
		err = gen_write(path, &s, NULL, &e);
		if (!err)
			err = pm_open(&pm, path, 0, &e);
		tap_ok(err && strstr(e.msg, "tsc_khz is 0"), "tsc_khz 0 is rejected (%s)", e.msg);
		pm_close(&pm);
		gen_rmtree(dir);
	} else {
		tap_ok(0, "temporary directory");
	}
	return tap_done();
}
