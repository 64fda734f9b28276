// SPDX-License-Identifier: GPL-2.0
/*
 * Summaries and histograms of durations (hist.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/**
 * tm_rank() - nearest-rank percentile of sorted values
 * @sorted: values in ascending order
 * @n: how many (at least 1)
 * @pct: percentile, 0 < pct <= 100
 *
 * Return: the smallest value with at least @pct percent of the values at
 * or below it.
 */
uint64_t tm_rank(const uint64_t *sorted, size_t n, double pct)
{
	double r = ceil(pct / 100.0 * (double)n);
	size_t k;

	if (r < 1)
		r = 1;
	k = (size_t)r;
	if (k > n)
		k = n;
	return sorted[k - 1];
}

/**
 * tm_summarise() - count, extremes, median, percentiles, total and mean
 * @v: values, any order (not modified)
 * @n: how many
 * @s: result
 *
 * Return: 0, -EINVAL if @n is 0, -ENOMEM.
 */
int tm_summarise(const uint64_t *v, size_t n, struct tm_summary *s)
{
	uint64_t *c;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -EINVAL;
	c = malloc(n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_u64);
	s->n = n;
	s->min = c[0];
	s->max = c[n - 1];
	s->median = n % 2 ? c[n / 2] : c[n / 2 - 1] + (c[n / 2] - c[n / 2 - 1]) / 2;
	s->p50 = tm_rank(c, n, 50);
	s->p99 = tm_rank(c, n, 99);
	for (i = 0; i < n; i++)
		s->total = s->total > UINT64_MAX - c[i] ? UINT64_MAX : s->total + c[i];
	s->mean = (double)s->total / (double)n;
	free(c);
	return 0;
}

static size_t bucket(const struct tm_hist *h, uint64_t v)
{
	size_t k = 0;

	if (!h->log2)
		return v / h->width < h->nb ? (size_t)(v / h->width) : h->nb;
	while (v >= 2) {
		v >>= 1;
		k++;
	}
	return k < h->nb ? k : h->nb;
}

/**
 * tm_hist_build() - count values into buckets
 * @v: values
 * @n: how many
 * @log2: power-of-two buckets, else linear ones of @width
 * @width: linear bucket width (ignored with @log2)
 * @nb: buckets before the overflow; 0: linear, as many as the largest
 *	value needs (no overflow)
 * @h: result; release with tm_hist_free()
 *
 * Return: 0, -EINVAL (a linear width of 0, or @nb 0 with @log2), -ENOMEM.
 */
int tm_hist_build(const uint64_t *v, size_t n, int log2, uint64_t width,
		  size_t nb, struct tm_hist *h)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	if ((!log2 && !width) || (log2 && !nb))
		return -EINVAL;
	h->log2 = log2;
	h->width = width;
	if (!nb) {
		uint64_t max = 0;

		for (i = 0; i < n; i++)
			if (v[i] > max)
				max = v[i];
		nb = n ? (size_t)(max / width) + 1 : 0;
	}
	h->nb = nb;
	h->counts = calloc(nb ? nb : 1, sizeof(*h->counts));
	if (!h->counts)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		size_t k = bucket(h, v[i]);

		if (k < nb)
			h->counts[k]++;
		else
			h->overflow++;
	}
	return 0;
}

/**
 * tm_hist_lo() - where bucket @k begins (for k = @h->nb: the overflow's)
 * @h: the histogram
 * @k: a bucket
 *
 * Return: its lower bound in the values' unit.
 */
uint64_t tm_hist_lo(const struct tm_hist *h, size_t k)
{
	if (!h->log2)
		return (uint64_t)k * h->width;
	return k ? (uint64_t)1 << (k < 63 ? k : 63) : 0;
}

/**
 * tm_hist_free() - release a histogram
 * @h: the histogram
 */
void tm_hist_free(struct tm_hist *h)
{
	free(h->counts);
	memset(h, 0, sizeof(*h));
}
