// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics and histograms of the samples, and the sample arrays.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "hist.h"

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
	struct tm_summary s;
	size_t i;
	int err;

	memset(st, 0, sizeof(*st));
	err = tm_summarise(v, n, &s);
	if (err)
		return err;
	st->n = n;
	st->min_ns = s.min;
	st->max_ns = s.max;
	st->median_ns = s.median;
	st->p99_ns = s.p99;
	st->mean_ns = s.mean;
	for (i = 0; i < n; i++) {
		if (v[i] > 150 * NS_PER_MS)
			st->over_150ms++;
		if (v[i] > NS_PER_SEC)
			st->over_1s++;
	}
	return 0;
}

/**
 * bench_hist() - histogram with buckets [k*w, (k+1)*w)
 * @v: values in ns
 * @n: how many
 * @width_ns: bucket width
 * @counts: result, malloc()ed, one entry per bucket up to the maximum's
 *
 * Return: the number of buckets (0 if @n is 0 or on allocation failure,
 * with *@counts NULL).
 */
size_t bench_hist(const uint64_t *v, size_t n, uint64_t width_ns,
		  uint64_t **counts)
{
	struct tm_hist h;

	*counts = NULL;
	if (!n || tm_hist_build(v, n, 0, width_ns, 0, &h))
		return 0;
	*counts = h.counts;
	return h.nb;
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
