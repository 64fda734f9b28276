// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics and histograms of the samples, and the sample arrays.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/**
 * bench_rank() - nearest-rank percentile of sorted values
 * @sorted: values in ascending order
 * @n: how many (at least 1)
 * @pct: percentile, 0 < pct <= 100
 *
 * Return: the smallest value with at least @pct percent of the values at
 * or below it.
 */
uint64_t bench_rank(const uint64_t *sorted, size_t n, double pct)
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
 * bench_stats() - summarise durations
 * @v: values in ns, any order (not modified)
 * @n: how many
 * @st: result
 *
 * Return: 0, -EINVAL if @n is 0, -ENOMEM.
 */
int bench_stats(const uint64_t *v, size_t n, struct bench_stats *st)
{
	uint64_t *s;
	double sum = 0;
	size_t i;

	memset(st, 0, sizeof(*st));
	if (!n)
		return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_u64);
	st->n = n;
	st->min_ns = s[0];
	st->max_ns = s[n - 1];
	if (n % 2)
		st->median_ns = s[n / 2];
	else
		st->median_ns = s[n / 2 - 1] + (s[n / 2] - s[n / 2 - 1]) / 2;
	st->p99_ns = bench_rank(s, n, 99);
	for (i = 0; i < n; i++) {
		sum += (double)s[i];
		if (s[i] > 150 * NS_PER_MS)
			st->over_150ms++;
		if (s[i] > NS_PER_SEC)
			st->over_1s++;
	}
	st->mean_ns = sum / (double)n;
	free(s);
	return 0;
}

/**
 * bench_hist() - histogram with buckets [k*w, (k+1)*w)
 * @v: values in ns
 * @n: how many
 * @width_ns: bucket width
 * @counts: result, calloc()ed, one entry per bucket up to the maximum's
 *
 * Return: the number of buckets (0 if @n is 0 or on allocation failure,
 * with *@counts NULL).
 */
size_t bench_hist(const uint64_t *v, size_t n, uint64_t width_ns,
		  uint64_t **counts)
{
	uint64_t max = 0;
	size_t i, nr;

	*counts = NULL;
	if (!n || !width_ns)
		return 0;
	for (i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	nr = (size_t)(max / width_ns) + 1;
	*counts = calloc(nr, sizeof(**counts));
	if (!*counts)
		return 0;
	for (i = 0; i < n; i++)
		(*counts)[v[i] / width_ns]++;
	return nr;
}

/* The values (or the aux values) of a series as a malloc()ed array. */
int bench_series_values(const struct bench_series *s, int aux, uint64_t **out)
{
	size_t i;

	*out = malloc((s->n ? s->n : 1) * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < s->n; i++)
		(*out)[i] = aux ? s->s[i].aux_ns : s->s[i].val_ns;
	return 0;
}

int bench_series_push(struct bench_series *s, const struct bench_sample *x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		struct bench_sample *p = realloc(s->s, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->s = p;
		s->cap = cap;
	}
	s->s[s->n++] = *x;
	return 0;
}

int bench_series_fork(struct bench_series *s, uint64_t t)
{
	if (s->nr_forks == s->forks_cap) {
		size_t cap = s->forks_cap ? s->forks_cap * 2 : 64;
		uint64_t *p = realloc(s->forks, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->forks = p;
		s->forks_cap = cap;
	}
	s->forks[s->nr_forks++] = t;
	return 0;
}

void bench_series_free(struct bench_series *s)
{
	free(s->s);
	free(s->forks);
	s->s = NULL;
	s->forks = NULL;
	s->n = s->cap = s->nr_forks = s->forks_cap = 0;
}

void bench_result_free(struct bench_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_series; i++)
		bench_series_free(&r->series[i]);
	r->nr_series = 0;
}
