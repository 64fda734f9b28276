// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "clock.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

void pm_clock_init(struct pm_clock *c, const struct tipme_clock_pair *p,
		   uint32_t n, uint64_t tsc_khz)
{
	c->p = p;
	c->n = n;
	c->tsc_khz = tsc_khz ? tsc_khz : 1000000;
}

static int64_t sat(i128 v)
{
	if (v > INT64_MAX)
		return INT64_MAX;
	if (v < INT64_MIN)
		return INT64_MIN;
	return (int64_t)v;
}

static u128 ticks_ns(const struct pm_clock *c, uint64_t ticks)
{
	/* ticks of a ns (local_clock()): the same number, no division */
	if (c->tsc_khz == 1000000u)
		return ticks;
	/* the same quotient in 64 bits when the product fits (the usual case) */
	if (ticks <= UINT64_MAX / 1000000u)
		return ticks * 1000000u / c->tsc_khz;
	return (u128)ticks * 1000000u / c->tsc_khz;
}

int64_t pm_ticks_to_ns(const struct pm_clock *c, uint64_t ticks)
{
	return sat((i128)ticks_ns(c, ticks));
}

static uint64_t yval(const struct tipme_clock_pair *p, int real)
{
	return real ? p->real_ns : p->mono_ns;
}

static int64_t map(const struct pm_clock *c, uint64_t ts, int real)
{
	const struct tipme_clock_pair *a, *b;
	uint32_t lo, hi, mid;
	uint64_t dt, span, mag;
	i128 y0, y1, dy;
	u128 q, r, abs_dy;

	if (!c->n)
		return sat((i128)ticks_ns(c, ts));
	if (ts <= c->p[0].ts)
		return sat((i128)yval(&c->p[0], real) -
			   (i128)ticks_ns(c, c->p[0].ts - ts));
	if (ts >= c->p[c->n - 1].ts)
		return sat((i128)yval(&c->p[c->n - 1], real) +
			   (i128)ticks_ns(c, ts - c->p[c->n - 1].ts));
	/* p[lo].ts <= ts < p[hi].ts */
	lo = 0;
	hi = c->n - 1;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (c->p[mid].ts <= ts)
			lo = mid;
		else
			hi = mid;
	}
	a = &c->p[lo];
	b = &c->p[hi];
	dt = ts - a->ts;
	span = b->ts - a->ts;
	y0 = (i128)yval(a, real);
	y1 = (i128)yval(b, real);
	dy = y1 - y0;
	abs_dy = (u128)(dy < 0 ? -dy : dy);
	/*
	 * |dy| * dt / span without overflow: dt < span < 2^64.  Each
	 * quotient in 64 bits when its operands fit (pairs are close, so
	 * they do): the same numbers without a 128-bit division per record.
	 */
	if (abs_dy <= UINT64_MAX) {
		q = (uint64_t)abs_dy / span;
		r = (uint64_t)abs_dy % span;
	} else {
		q = abs_dy / span;
		r = abs_dy % span;
	}
	if (!dt || (uint64_t)r <= UINT64_MAX / dt)
		mag = (uint64_t)(q * dt + (uint64_t)r * dt / span);
	else
		mag = (uint64_t)(q * dt + r * dt / span);
	return sat(dy < 0 ? y0 - (i128)mag : y0 + (i128)mag);
}

int64_t pm_clock_mono(const struct pm_clock *c, uint64_t ts)
{
	return map(c, ts, 0);
}

int64_t pm_clock_real(const struct pm_clock *c, uint64_t ts)
{
	return map(c, ts, 1);
}

char *pm_fmt_ns(int64_t ns, char *buf, unsigned long len)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%s%llu.%09llu", ns < 0 ? "-" : "",
		 (unsigned long long)(a / 1000000000u),
		 (unsigned long long)(a % 1000000000u));
	return buf;
}
