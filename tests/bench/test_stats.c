// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-bench's numbers: statistics, histograms, the SVG figure, the text
 * and JSON reports of a synthetic run, and the trigger policy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "hist.h"
#include "tap.h"

#define MS NS_PER_MS

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

static void test_stats(void)
{
	uint64_t one[] = { 7 * MS };
	uint64_t two[] = { 30 * MS, 10 * MS };
	uint64_t odd[] = { 5, 1, 4, 2, 3 };
	uint64_t edge[] = { 150 * MS, 150 * MS + 1, NS_PER_SEC, NS_PER_SEC + 1, 0 };
	uint64_t hundred[100], thousand[1000];
	struct bench_stats st;
	size_t i;

	tap_ok(bench_stats(one, 0, &st) == -EINVAL, "no samples: -EINVAL");
	tap_ok(!bench_stats(one, 1, &st) && st.min_ns == 7 * MS && st.median_ns == 7 * MS &&
	       st.p99_ns == 7 * MS && st.max_ns == 7 * MS && st.n == 1, "one sample is every statistic");
	tap_ok(!bench_stats(two, 2, &st) && st.median_ns == 20 * MS && st.min_ns == 10 * MS &&
	       st.max_ns == 30 * MS && st.p99_ns == 30 * MS && st.mean_ns == 20.0 * MS,
	       "even count: the median is the mean of the middle two");
	tap_ok(!bench_stats(odd, 5, &st) && st.median_ns == 3 && odd[0] == 5,
	       "odd count: the middle value; the input is not reordered");
	for (i = 0; i < 100; i++)
		hundred[i] = (100 - i) * MS;	/* 100..1 ms */
	tap_ok(!bench_stats(hundred, 100, &st) && st.p99_ns == 99 * MS && st.median_ns == 50 * MS + MS / 2,
	       "p99 of 1..100 ms is 99 ms (nearest rank)");
	for (i = 0; i < 1000; i++)
		thousand[i] = i + 1;
	tap_ok(!bench_stats(thousand, 1000, &st) && st.p99_ns == 990, "p99 of 1..1000 is 990");
	tap_ok(tm_rank(thousand, 1000, 100) == 1000 && tm_rank(thousand, 1000, 0.01) == 1 &&
	       tm_rank(thousand, 1000, 50) == 500, "tm_rank: ends and middle");
	tap_ok(!bench_stats(edge, 5, &st) && st.over_150ms == 3 && st.over_1s == 1,
	       "over 150 ms and over 1 s are strictly greater");
}

static void test_hist(void)
{
	uint64_t v[] = { 0, 10 * MS - 1, 10 * MS, 25 * MS, 25 * MS, 1000 * MS };
	uint64_t *c = NULL;
	size_t nr, i, sum = 0;

	nr = bench_hist(v, 6, BENCH_BUCKET_NS, &c);
	tap_ok(nr == 101 && c, "buckets up to the maximum's (1000 ms -> 101 buckets)");
	if (!c)
		return;
	for (i = 0; i < nr; i++)
		sum += c[i];
	tap_ok(c[0] == 2 && c[1] == 1 && c[2] == 2 && c[100] == 1 && sum == 6,
	       "[0,10) ms holds 0 and 9.999999 ms; 10 ms opens the next bucket");
	free(c);
	tap_ok(bench_hist(v, 0, BENCH_BUCKET_NS, &c) == 0 && !c, "no samples: no histogram");
}

static void test_svg(void)
{
	uint64_t a[] = { 5, 0, 0, 1 }, b[] = { 3, 2 };
	struct svg_series s[2] = {
		{ "N=1 <&>", a, 4 },
		{ "N=2", b, 2 },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	err = bench_svg(f, "title \"x\"", "latency (ms)", s, 2, BENCH_BUCKET_NS);
	fclose(f);
	tap_ok(!err && buf && !strncmp(buf, "<?xml", 5) && strstr(buf, "</svg>\n"),
	       "the SVG is a whole document");
	tap_ok(buf && count(buf, "<title>") == 4, "one bar per non-empty bucket of each series");
	tap_ok(buf && strstr(buf, "N=1 &lt;&amp;&gt;") && strstr(buf, "title &quot;x&quot;") &&
	       !strstr(buf, "<&>"), "labels are XML-escaped");
	tap_ok(buf && strstr(buf, ">1000</text>") == NULL && strstr(buf, ">10</text>"),
	       "the log axis goes to the next decade above the largest count");
	free(buf);
	f = fopen("/dev/null", "w");
	tap_ok(bench_svg(f, "t", "x", s, 0, BENCH_BUCKET_NS) == -EINVAL, "no series: -EINVAL");
	fclose(f);
}

static void test_trigger(void)
{
	struct trig_policy p;

	trig_init(&p, 0, 0);
	tap_ok(trig_due(&p, 1, 10 * NS_PER_SEC) == 0, "threshold 0: triggering is off");
	trig_init(&p, 100 * MS, 0);
	tap_ok(trig_due(&p, 1, 100 * MS) == 0, "a sample equal to the threshold does not trigger");
	tap_ok(trig_due(&p, 2, 100 * MS + 1) == 1, "the first sample above does");
	tap_ok(trig_due(&p, 100 * NS_PER_SEC, 500 * MS) == -1, "once per run: later ones are held back");
	trig_init(&p, 100 * MS, 10 * NS_PER_SEC);
	tap_ok(trig_due(&p, NS_PER_SEC, 200 * MS) == 1 &&
	       trig_due(&p, 5 * NS_PER_SEC, 200 * MS) == -1 &&
	       trig_due(&p, 11 * NS_PER_SEC, 200 * MS) == 1 && p.fired == 2,
	       "with spacing: again only after the spacing has passed");
}

/* A synthetic forkstorm run with two loads, for the reports. */
static void make_result(struct bench_result *r, struct bench_env *env)
{
	struct bench_sample x;
	size_t i, k;

	memset(r, 0, sizeof(*r));
	memset(env, 0, sizeof(*env));
	env->kind = BENCH_FORKSTORM;
	env->samples = 50;
	env->compute_ns = 10 * MS;
	env->sleep_ns = 50 * MS;
	env->fork_period_ns = 2000 * MS;
	env->loads[0] = LOAD_A;
	env->loads[1] = LOAD_B;
	env->nr_loads = 2;
	env->trigger_above_ns = 150 * MS;
	r->env = env;
	snprintf(r->uts.sysname, sizeof(r->uts.sysname), "Linux");
	snprintf(r->uts.release, sizeof(r->uts.release), "6.1.0-test");
	r->cpus_online = 2;
	r->page_size = 4096;
	r->cpu = 0;
	r->have_calib = 1;
	r->calib.target_ns = 10 * MS;
	r->calib.loops = 1000;
	r->nr_series = 2;
	for (k = 0; k < 2; k++) {
		struct bench_series *s = &r->series[k];
		uint64_t t = NS_PER_SEC;

		s->load = k ? LOAD_B : LOAD_A;
		snprintf(s->label, sizeof(s->label), "load %s", k ? "B" : "A");
		s->started_ns = t;
		for (i = 0; i < 50; i++) {
			x.val_ns = (60 + (k && i == 20 ? 400 : i % 3)) * MS;
			t += x.val_ns;
			x.end_ns = t;
			x.aux_ns = 10 * MS;
			x.majflt = 0;
			bench_series_push(s, &x);
		}
		s->ended_ns = t;
		if (k)
			for (i = 0; i < 2; i++)
				bench_series_fork(s, s->s[20].end_ns - 10 * MS + i);
	}
	r->nr_trig = 1;
	r->trig[0].series = 1;
	r->trig[0].index = 20;
	r->trig[0].sample = r->series[1].s[20];
	r->trig[0].via = "sysctl";
	snprintf(r->trig[0].error, sizeof(r->trig[0].error), "socket: \"gone\"");
}

static void test_reports(void)
{
	struct bench_result r;
	struct bench_env env;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	make_result(&r, &env);
	tap_ok(r.series[0].n == 50 && r.series[0].cap >= 50 && r.series[1].nr_forks == 2,
	       "samples and forks are kept in order");
	f = open_memstream(&buf, &len);
	err = bench_results_text(f, &r);
	fclose(f);
	tap_ok(!err && buf && count(buf, "histogram, 10 ms buckets") == 2 &&
	       strstr(buf, "[   460,    470) ms       1") &&
	       strstr(buf, "over 150 ms: 1, over 1 s: 0") &&
	       strstr(buf, "2 forks; 1 intervals contain one (max 460.000 ms)") &&
	       strstr(buf, "via sysctl"), "the text report has the histograms, counts, forks, trigger");
	if (!tap_ok(buf && strstr(buf, "      ...\n"), "runs of empty buckets are elided"))
		tap_diag("%s", buf ? buf : "");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	err = bench_results_json(f, &r);
	fclose(f);
	tap_ok(!err && buf && buf[0] == '{' && len > 1 && buf[len - 1] == '\n' &&
	       count(buf, "\n") == 1, "the JSON report is one balanced object on one line");
	tap_ok(buf && strstr(buf, "\"benchmark\":\"forkstorm\"") &&
	       strstr(buf, "\"over_150ms\":1") && strstr(buf, "\"max_ms\":460") &&
	       strstr(buf, "\"bucket_ms\":10") && strstr(buf, "\"via\":\"sysctl\"") &&
	       strstr(buf, "\"error\":\"socket: \\\"gone\\\"\"") &&
	       strstr(buf, "\"loads\":[\"A\",\"B\"]"), "the JSON report has the keys and values");
	free(buf);
	bench_result_free(&r);
	tap_ok(r.nr_series == 0, "bench_result_free() empties the result");
}

/* The shared histogram (lib/hist.c): log2 buckets and the overflow bucket. */
static void test_lib_hist(void)
{
	uint64_t v[] = { 0, 1, 2, 3, 4, 1000, 1023, 1024, 5000000 };
	struct tm_hist h;
	struct tm_summary s;

	tap_ok(!tm_hist_build(v, 9, 1, 0, 11, &h) && h.counts[0] == 2 && h.counts[1] == 2 &&
	       h.counts[2] == 1 && h.counts[9] == 2 && h.counts[10] == 1 && h.overflow == 1 &&
	       tm_hist_lo(&h, 10) == 1024, "tm_hist log2: [0,2) [2,4) [4,8) ... [1024,2048), 5 ms overflows");
	tm_hist_free(&h);
	tap_ok(!tm_hist_build(v, 9, 0, 1000, 2, &h) && h.counts[0] == 5 && h.counts[1] == 3 &&
	       h.overflow == 1, "tm_hist linear with 2 buckets of 1000: 5, 3 and 1 over");
	tm_hist_free(&h);
	tap_ok(!tm_summarise(v, 9, &s) && s.p50 == 4 && s.p99 == 5000000 && s.total == 5003057 &&
	       s.median == 4, "tm_summarise: p50, p99, total");
}

int main(void)
{
	tap_plan(30);
	test_stats();
	test_lib_hist();
	test_hist();
	test_svg();
	test_trigger();
	test_reports();
	return tap_done();
}
