/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mapping recorder timestamps (TSC ticks or local_clock() ns)
 * to CLOCK_MONOTONIC and CLOCK_REALTIME.
 *
 * Between two clock pairs the mapping is linear through both; before the
 * first and after the last pair it continues from that pair at the
 * header's tsc_khz.  With no pairs at all, ticks are converted at tsc_khz
 * from 0 ("raw" time, not comparable with other clocks).
 */
#ifndef TIPME_PM_CLOCK_H
#define TIPME_PM_CLOCK_H

#include <stdint.h>
#include <linux/tipme.h>

/*
 * How far two CPUs' stamps may differ: local_clock(), which the recorder
 * stamps with when the TSC is unstable, keeps each CPU within about a tick
 * of the others (5 ms seen in a guest at HZ=250).  Analyses that compare
 * records stamped on different CPUs allow this much either way.
 */
#define PM_CPU_SKEW_NS	10000000LL

/**
 * struct pm_clock - a timestamp mapping
 * @p: clock pairs, strictly increasing in ts, non-decreasing in mono_ns
 * @n: number of pairs
 * @tsc_khz: ticks per millisecond (never 0)
 */
struct pm_clock {
	const struct tipme_clock_pair *p;
	uint32_t n;
	uint64_t tsc_khz;
};

/**
 * pm_clock_init() - set up a mapping
 * @c: the mapping
 * @p: pairs as described in struct pm_clock; kept by reference
 * @n: number of pairs
 * @tsc_khz: ticks per millisecond; 0 is taken as 1000000 (ns ticks)
 */
void pm_clock_init(struct pm_clock *c, const struct tipme_clock_pair *p,
		   uint32_t n, uint64_t tsc_khz);

/**
 * pm_clock_mono() - CLOCK_MONOTONIC ns at timestamp @ts
 * @c: the mapping
 * @ts: recorder timestamp
 *
 * Return: nanoseconds, saturated to the int64_t range.
 */
int64_t pm_clock_mono(const struct pm_clock *c, uint64_t ts);

/**
 * pm_clock_real() - CLOCK_REALTIME ns at timestamp @ts
 * @c: the mapping
 * @ts: recorder timestamp
 *
 * Return: nanoseconds, saturated to the int64_t range.
 */
int64_t pm_clock_real(const struct pm_clock *c, uint64_t ts);

/**
 * pm_ticks_to_ns() - a duration in ticks converted at tsc_khz
 * @c: the mapping
 * @ticks: duration
 *
 * Return: nanoseconds, saturated to INT64_MAX.
 */
int64_t pm_ticks_to_ns(const struct pm_clock *c, uint64_t ticks);

/**
 * pm_fmt_ns() - format ns as seconds with 9 decimals ("-1.000000005")
 * @ns: nanoseconds
 * @buf: output
 * @len: size of @buf (32 is enough)
 *
 * Return: @buf.
 */
char *pm_fmt_ns(int64_t ns, char *buf, unsigned long len);

#endif
