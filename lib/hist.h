/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summaries and histograms of durations (hist.c), for the benchmarks'
 * 10 ms histograms (bench/) and tipme legs (postmortem/): nearest-rank
 * percentiles, linear or log2 buckets with an overflow bucket.
 */
#ifndef TIPME_LIB_HIST_H
#define TIPME_LIB_HIST_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct tm_summary - a set of durations (ns) in numbers
 * @n: how many
 * @min: the smallest
 * @median: the middle one (the mean of the two middle ones for an even @n)
 * @p50: nearest-rank 50th percentile (a value of the set)
 * @p99: nearest-rank 99th percentile
 * @max: the largest
 * @total: their sum (saturates at UINT64_MAX)
 * @mean: @total / @n
 */
struct tm_summary {
	size_t n;
	uint64_t min, median, p50, p99, max, total;
	double mean;
};

uint64_t tm_rank(const uint64_t *sorted, size_t n, double pct);
int tm_summarise(const uint64_t *v, size_t n, struct tm_summary *s);

/**
 * struct tm_hist - a histogram
 * @log2: buckets [2^k, 2^(k+1)) ns (bucket 0: [0, 2)), else linear
 * @width: linear: bucket k is [k * @width, (k + 1) * @width)
 * @nb: buckets before the overflow
 * @counts: their counts
 * @overflow: values at or above the last bucket's end
 */
struct tm_hist {
	int log2;
	uint64_t width;
	size_t nb;
	uint64_t *counts;
	uint64_t overflow;
};

int tm_hist_build(const uint64_t *v, size_t n, int log2, uint64_t width,
		  size_t nb, struct tm_hist *h);
uint64_t tm_hist_lo(const struct tm_hist *h, size_t k);
void tm_hist_free(struct tm_hist *h);

#endif
