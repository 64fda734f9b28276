// SPDX-License-Identifier: GPL-2.0
/*
 * Output of a run: text (default), JSON (--json, every sample included)
 * and the SVG figure (--svg).  All three come from the same statistics.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "json.h"

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static const char *what(const struct bench_env *env)
{
	return env->kind == BENCH_PAGING ? "paging" : "forkstorm";
}

static void meaning(char *buf, size_t len, const struct bench_env *env)
{
	if (env->kind == BENCH_PAGING)
		snprintf(buf, len,
			 "time beyond the %.0f ms sleep until one word of the timing buffer was read",
			 ms(env->sleep_ns));
	else
		snprintf(buf, len,
			 "interval between timestamps of a task that computes %.0f ms then sleeps %.0f ms (nominal %.0f ms)",
			 ms(env->compute_ns), ms(env->sleep_ns),
			 ms(env->compute_ns + env->sleep_ns));
}

static void fmt_size(char *buf, size_t len, uint64_t b)
{
	if (b >= (1ull << 30) && !(b % (1ull << 30)))
		snprintf(buf, len, "%llu GiB", (unsigned long long)(b >> 30));
	else if (b >= (1ull << 20) && !(b % (1ull << 20)))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= (1ull << 10) && !(b % (1ull << 10)))
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)b);
}

/* Intervals of a series that contain one of its forks: count and max. */
static void fork_intervals(const struct bench_series *s, size_t *n, uint64_t *max,
			   uint64_t *max_other)
{
	size_t i, k = 0;

	*n = 0;
	*max = *max_other = 0;
	for (i = 0; i < s->n; i++) {
		uint64_t end = s->s[i].end_ns, start = end - s->s[i].val_ns;
		int has = 0;

		while (k < s->nr_forks && s->forks[k] < start)
			k++;
		if (k < s->nr_forks && s->forks[k] <= end)
			has = 1;
		if (has) {
			(*n)++;
			if (s->s[i].val_ns > *max)
				*max = s->s[i].val_ns;
		} else if (s->s[i].val_ns > *max_other) {
			*max_other = s->s[i].val_ns;
		}
	}
}

static size_t slowest(const struct bench_series *s)
{
	size_t i, k = 0;

	for (i = 1; i < s->n; i++)
		if (s->s[i].val_ns > s->s[k].val_ns)
			k = i;
	return k;
}

/* ---- text ---------------------------------------------------------------- */

static void text_hist(FILE *f, const uint64_t *counts, size_t nr)
{
	size_t k, first = nr, last = 0;
	int bar, gap = 0;

	for (k = 0; k < nr; k++)
		if (counts[k]) {
			if (first == nr)
				first = k;
			last = k;
		}
	fprintf(f, "  histogram, %llu ms buckets (bar length: log10 of the count):\n",
		(unsigned long long)(BENCH_BUCKET_NS / NS_PER_MS));
	for (k = first; k <= last && k < nr; k++) {
		if (!counts[k]) {
			if (!gap)
				fprintf(f, "      ...\n");
			gap = 1;
			continue;
		}
		gap = 0;
		bar = 1 + (int)(log10((double)counts[k]) * 8);
		fprintf(f, "    [%6zu, %6zu) ms %7" PRIu64 " %.*s\n",
			k * (size_t)(BENCH_BUCKET_NS / NS_PER_MS),
			(k + 1) * (size_t)(BENCH_BUCKET_NS / NS_PER_MS), counts[k], bar,
			"##################################################");
	}
}

static void text_stats(FILE *f, const char *indent, const struct bench_stats *st)
{
	fprintf(f, "%smin %.3f ms, median %.3f ms, p99 %.3f ms, max %.3f ms, mean %.3f ms\n",
		indent, ms(st->min_ns), ms(st->median_ns), ms(st->p99_ns), ms(st->max_ns),
		st->mean_ns / 1e6);
	fprintf(f, "%sover 150 ms: %zu, over 1 s: %zu\n", indent, st->over_150ms,
		st->over_1s);
}

static int text_series(FILE *f, const struct bench_result *r, const struct bench_series *s)
{
	const struct bench_env *env = r->env;
	struct bench_stats st, aux;
	uint64_t *v = NULL, *a = NULL, *counts = NULL;
	size_t nr, i;
	int err;

	fprintf(f, "\n%s: %zu samples in %.1f s%s\n", s->label, s->n,
		(double)(s->ended_ns - s->started_ns) / 1e9,
		s->stopped_early ? " (stopped early by the time limit)" : "");
	if (!s->n)
		return 0;
	err = bench_series_values(s, 0, &v);
	if (!err)
		err = bench_series_values(s, 1, &a);
	if (!err)
		err = bench_stats(v, s->n, &st);
	if (!err)
		err = bench_stats(a, s->n, &aux);
	if (err)
		goto out;
	text_stats(f, "  ", &st);
	i = slowest(s);
	fprintf(f, "  slowest: sample %zu, CLOCK_MONOTONIC %.6f-%.6f s\n", i,
		(double)(s->s[i].end_ns - s->s[i].val_ns) / 1e9, (double)s->s[i].end_ns / 1e9);
	if (env->kind == BENCH_PAGING) {
		const struct bench_pressure *p = &s->pr;
		size_t faulted = 0;

		for (i = 0; i < s->n; i++)
			faulted += s->s[i].majflt > 0;
		fprintf(f, "  the read alone: median %.3f ms, max %.3f ms; samples with a major fault: %zu\n",
			ms(aux.median_ns), ms(aux.max_ns), faulted);
		if (p->have_vmstat)
			fprintf(f, "  swap (whole machine): pswpout +%" PRIu64 ", pswpin +%" PRIu64 " pages\n",
				p->pswpout, p->pswpin);
		if (p->have_cgroup)
			fprintf(f, "  cgroup: memory.max reached %" PRIu64 " times, pgmajfault +%" PRIu64
				", swap in use up to %.1f MiB, oom_kill %" PRIu64 "\n",
				p->cg_ev_max, p->cg_pgmajfault, (double)p->cg_swap_peak / 1048576.0,
				p->cg_ev_oom_kill);
	} else {
		fprintf(f, "  computation per iteration: median %.3f ms, max %.3f ms\n",
			ms(aux.median_ns), ms(aux.max_ns));
		if (s->load == LOAD_B) {
			size_t n;
			uint64_t mx, mo;

			fork_intervals(s, &n, &mx, &mo);
			fprintf(f, "  %zu forks; %zu intervals contain one (max %.3f ms), the others max %.3f ms\n",
				s->nr_forks, n, ms(mx), ms(mo));
		}
	}
	nr = bench_hist(v, s->n, BENCH_BUCKET_NS, &counts);
	if (!nr) {
		err = -ENOMEM;
		goto out;
	}
	text_hist(f, counts, nr);
out:
	free(v);
	free(a);
	free(counts);
	return err;
}

int bench_results_text(FILE *f, const struct bench_result *r)
{
	const struct bench_env *env = r->env;
	char buf[256], b1[32], b2[32], b3[32];
	size_t i;
	int err;

	meaning(buf, sizeof(buf), env);
	fprintf(f, "tipme-bench %s: TIPME section %s, %s\n", what(env),
		env->kind == BENCH_PAGING ? "4.1.1" : "4.2.1",
		env->kind == BENCH_PAGING ? "the paging stall" : "the fork storm");
	fprintf(f, "  sample: %s\n", buf);
	fprintf(f, "kernel:  %s %s %s %s\n", r->uts.sysname, r->uts.release, r->uts.version,
		r->uts.machine);
	fmt_size(b1, sizeof(b1), r->mem_total);
	fprintf(f, "machine: %ld CPUs online, %s RAM, page size %ld\n", r->cpus_online, b1,
		r->page_size);
	fprintf(f, "clock:   CLOCK_MONOTONIC\n");
	if (r->cpu >= 0)
		fprintf(f, "pinned:  every process to CPU %d\n", r->cpu);
	else
		fprintf(f, "pinned:  no\n");
	if (env->kind == BENCH_PAGING) {
		fmt_size(b1, sizeof(b1), env->timer_size);
		fmt_size(b2, sizeof(b2), env->child_size);
		fprintf(f, "params:  %" PRIu64 " samples per run; timing process: %s buffer, "
			"%" PRIu64 "-byte stride, %.0f ms sleep%s\n",
			env->samples, b1, env->stride, ms(env->sleep_ns),
			env->no_cgroup ? "" : env->timer_outside ? ", outside the cgroup" :
			", inside the cgroup");
		fprintf(f, "         children: %s each, one word per %" PRIu64 " bytes, cyclically\n",
			b2, env->stride);
		if (env->no_cgroup) {
			fprintf(f, "memory:  no cgroup (the machine's own pressure only)\n");
		} else {
			if (env->memory_max)
				fmt_size(b3, sizeof(b3), env->memory_max);
			else
				snprintf(b3, sizeof(b3), "max (no limit)");
			fprintf(f, "memory:  cgroup under %s, memory.max %s\n", r->cgroup_parent, b3);
		}
		fprintf(f, "swap:    %s\n", r->swap_desc[0] ? r->swap_desc : "none");
		fprintf(f, "vm:      page-cluster %ld (swap-ins read %ld pages at a time), swappiness %ld\n",
			r->page_cluster, r->page_cluster >= 0 && r->page_cluster < 16 ?
			1L << r->page_cluster : -1L, r->swappiness);
	} else {
		fprintf(f, "params:  %" PRIu64 " intervals per load; %.1f ms computation, %.1f ms sleep; "
			"load B forks every %.0f ms\n", env->samples, ms(env->compute_ns),
			ms(env->sleep_ns), ms(env->fork_period_ns));
		if (r->have_calib)
			fprintf(f, "calibration: %.1f ms = %" PRIu64 " loops (%.3f ns each); "
				"checked: %.2f %.2f %.2f %.2f %.2f ms\n",
				ms(r->calib.target_ns), r->calib.loops, r->calib.ns_per_loop,
				ms(r->calib.check_ns[0]), ms(r->calib.check_ns[1]),
				ms(r->calib.check_ns[2]), ms(r->calib.check_ns[3]),
				ms(r->calib.check_ns[4]));
	}
	for (i = 0; i < r->nr_series; i++) {
		err = text_series(f, r, &r->series[i]);
		if (err)
			return err;
	}
	if (env->trigger_above_ns) {
		fprintf(f, "\ntriggers above %.1f ms (%s): %zu requested, %" PRIu64 " held back\n",
			ms(env->trigger_above_ns),
			env->trigger_spacing_ns ? "with spacing" : "once per run", r->nr_trig,
			r->trig_suppressed);
		for (i = 0; i < r->nr_trig; i++) {
			const struct bench_trigger *t = &r->trig[i];

			fprintf(f, "  %s sample %zu (%.3f ms, CLOCK_MONOTONIC %.6f-%.6f s): via %s",
				r->series[t->series].label, t->index, ms(t->sample.val_ns),
				(double)(t->sample.end_ns - t->sample.val_ns) / 1e9,
				(double)t->sample.end_ns / 1e9, t->via);
			if (!strcmp(t->via, "socket"))
				fprintf(f, ", seq %" PRIu64 "%s", t->seq,
					t->coalesced ? " (coalesced)" : "");
			if (t->error[0])
				fprintf(f, " [%s]", t->error);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_stats(struct tm_jw *w, const char *key, const struct bench_stats *st)
{
	tm_jw_key(w, key);
	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "n", st->n);
	tm_jw_kdouble(w, "min_ms", ms(st->min_ns));
	tm_jw_kdouble(w, "median_ms", ms(st->median_ns));
	tm_jw_kdouble(w, "p99_ms", ms(st->p99_ns));
	tm_jw_kdouble(w, "max_ms", ms(st->max_ns));
	tm_jw_kdouble(w, "mean_ms", st->mean_ns / 1e6);
	tm_jw_ku64(w, "over_150ms", st->over_150ms);
	tm_jw_ku64(w, "over_1s", st->over_1s);
	tm_jw_obj_end(w);
}

static int json_series(struct tm_jw *w, const struct bench_result *r,
		       const struct bench_series *s)
{
	const struct bench_env *env = r->env;
	struct bench_stats st, aux;
	uint64_t *v = NULL, *a = NULL, *counts = NULL;
	size_t i, nr;
	int err = 0;

	tm_jw_obj_begin(w);
	tm_jw_kstr(w, "label", s->label);
	if (env->kind == BENCH_PAGING)
		tm_jw_ku64(w, "children", s->children);
	else
		tm_jw_kstr(w, "load", bench_load_name(s->load));
	tm_jw_ku64(w, "samples", s->n);
	tm_jw_kbool(w, "stopped_early", s->stopped_early);
	tm_jw_ku64(w, "started_mono_ns", s->started_ns);
	tm_jw_ku64(w, "ended_mono_ns", s->ended_ns);
	if (s->n) {
		err = bench_series_values(s, 0, &v);
		if (!err)
			err = bench_series_values(s, 1, &a);
		if (!err)
			err = bench_stats(v, s->n, &st);
		if (!err)
			err = bench_stats(a, s->n, &aux);
		if (err)
			goto out;
		json_stats(w, "stats", &st);
		json_stats(w, env->kind == BENCH_PAGING ? "read_stats" : "compute_stats", &aux);
		i = slowest(s);
		tm_jw_key(w, "slowest");
		tm_jw_obj_begin(w);
		tm_jw_ku64(w, "index", i);
		tm_jw_kdouble(w, "ms", ms(s->s[i].val_ns));
		tm_jw_ku64(w, "start_mono_ns", s->s[i].end_ns - s->s[i].val_ns);
		tm_jw_ku64(w, "end_mono_ns", s->s[i].end_ns);
		tm_jw_obj_end(w);
		nr = bench_hist(v, s->n, BENCH_BUCKET_NS, &counts);
		if (!nr) {
			err = -ENOMEM;
			goto out;
		}
		tm_jw_key(w, "histogram");
		tm_jw_obj_begin(w);
		tm_jw_ku64(w, "bucket_ms", BENCH_BUCKET_NS / NS_PER_MS);
		tm_jw_key(w, "counts");
		tm_jw_arr_begin(w);
		for (i = 0; i < nr; i++)
			tm_jw_u64(w, counts[i]);
		tm_jw_arr_end(w);
		tm_jw_obj_end(w);
	}
	if (env->kind == BENCH_PAGING) {
		const struct bench_pressure *p = &s->pr;
		size_t faulted = 0;

		for (i = 0; i < s->n; i++)
			faulted += s->s[i].majflt > 0;
		tm_jw_key(w, "pressure");
		tm_jw_obj_begin(w);
		if (p->have_vmstat) {
			tm_jw_ku64(w, "pswpin", p->pswpin);
			tm_jw_ku64(w, "pswpout", p->pswpout);
		}
		if (p->have_cgroup) {
			tm_jw_ku64(w, "cgroup_pgmajfault", p->cg_pgmajfault);
			tm_jw_ku64(w, "cgroup_workingset_refault_anon", p->cg_refault_anon);
			tm_jw_ku64(w, "cgroup_events_max", p->cg_ev_max);
			tm_jw_ku64(w, "cgroup_events_oom", p->cg_ev_oom);
			tm_jw_ku64(w, "cgroup_events_oom_kill", p->cg_ev_oom_kill);
			tm_jw_ku64(w, "cgroup_swap_peak_bytes", p->cg_swap_peak);
		}
		tm_jw_ku64(w, "timer_majflt", p->timer_majflt);
		tm_jw_ku64(w, "samples_with_majflt", faulted);
		tm_jw_obj_end(w);
	} else if (s->load == LOAD_B) {
		size_t n;
		uint64_t mx, mo;

		fork_intervals(s, &n, &mx, &mo);
		tm_jw_key(w, "forks_mono_ns");
		tm_jw_arr_begin(w);
		for (i = 0; i < s->nr_forks; i++)
			tm_jw_u64(w, s->forks[i]);
		tm_jw_arr_end(w);
		tm_jw_key(w, "intervals_with_fork");
		tm_jw_obj_begin(w);
		tm_jw_ku64(w, "count", n);
		tm_jw_kdouble(w, "max_ms", ms(mx));
		tm_jw_kdouble(w, "max_ms_without_fork", ms(mo));
		tm_jw_obj_end(w);
	}
	/* every sample, column by column */
	tm_jw_key(w, "samples_columns");
	tm_jw_obj_begin(w);
	tm_jw_key(w, "end_mono_ns");
	tm_jw_arr_begin(w);
	for (i = 0; i < s->n; i++)
		tm_jw_u64(w, s->s[i].end_ns);
	tm_jw_arr_end(w);
	tm_jw_key(w, "ns");
	tm_jw_arr_begin(w);
	for (i = 0; i < s->n; i++)
		tm_jw_u64(w, s->s[i].val_ns);
	tm_jw_arr_end(w);
	tm_jw_key(w, env->kind == BENCH_PAGING ? "read_ns" : "compute_ns");
	tm_jw_arr_begin(w);
	for (i = 0; i < s->n; i++)
		tm_jw_u64(w, s->s[i].aux_ns);
	tm_jw_arr_end(w);
	if (env->kind == BENCH_PAGING) {
		tm_jw_key(w, "majflt");
		tm_jw_arr_begin(w);
		for (i = 0; i < s->n; i++)
			tm_jw_u64(w, s->s[i].majflt);
		tm_jw_arr_end(w);
	}
	tm_jw_obj_end(w);
out:
	tm_jw_obj_end(w);
	free(v);
	free(a);
	free(counts);
	return err;
}

int bench_results_json(FILE *f, const struct bench_result *r)
{
	const struct bench_env *env = r->env;
	struct tm_jw w;
	char buf[256];
	size_t i;
	int err = 0;

	tm_jw_init(&w, f, 0);
	tm_jw_obj_begin(&w);
	tm_jw_kstr(&w, "benchmark", what(env));
	tm_jw_kstr(&w, "paper_section", env->kind == BENCH_PAGING ? "4.1.1" : "4.2.1");
	meaning(buf, sizeof(buf), env);
	tm_jw_kstr(&w, "sample", buf);
	tm_jw_kstr(&w, "clock", "CLOCK_MONOTONIC");
	tm_jw_ku64(&w, "started_realtime_ns", r->started_real_ns);
	tm_jw_key(&w, "kernel");
	tm_jw_obj_begin(&w);
	tm_jw_kstr(&w, "sysname", r->uts.sysname);
	tm_jw_kstr(&w, "release", r->uts.release);
	tm_jw_kstr(&w, "version", r->uts.version);
	tm_jw_kstr(&w, "machine", r->uts.machine);
	tm_jw_obj_end(&w);
	tm_jw_key(&w, "machine");
	tm_jw_obj_begin(&w);
	tm_jw_ki64(&w, "cpus_online", r->cpus_online);
	tm_jw_ku64(&w, "mem_total_bytes", r->mem_total);
	tm_jw_ku64(&w, "swap_total_bytes", r->swap_total);
	tm_jw_ki64(&w, "page_size", r->page_size);
	tm_jw_obj_end(&w);

	tm_jw_key(&w, "parameters");
	tm_jw_obj_begin(&w);
	tm_jw_ku64(&w, "samples", env->samples);
	tm_jw_kbool(&w, "short", env->short_mode);
	tm_jw_key(&w, "cpu");
	if (r->cpu >= 0)
		tm_jw_i64(&w, r->cpu);
	else
		tm_jw_null(&w);
	tm_jw_kdouble(&w, "sleep_ms", ms(env->sleep_ns));
	tm_jw_key(&w, "time_limit_s");
	if (env->time_limit_ns)
		tm_jw_double(&w, (double)env->time_limit_ns / 1e9);
	else
		tm_jw_null(&w);
	tm_jw_key(&w, "trigger_above_ms");
	if (env->trigger_above_ns)
		tm_jw_double(&w, ms(env->trigger_above_ns));
	else
		tm_jw_null(&w);
	tm_jw_key(&w, "trigger_spacing_s");
	if (env->trigger_spacing_ns)
		tm_jw_double(&w, (double)env->trigger_spacing_ns / 1e9);
	else
		tm_jw_null(&w);
	if (env->kind == BENCH_PAGING) {
		tm_jw_key(&w, "children");
		tm_jw_arr_begin(&w);
		for (i = 0; i < env->nr_children; i++)
			tm_jw_u64(&w, env->children[i]);
		tm_jw_arr_end(&w);
		tm_jw_ku64(&w, "child_size_bytes", env->child_size);
		tm_jw_ku64(&w, "timer_size_bytes", env->timer_size);
		tm_jw_ku64(&w, "stride_bytes", env->stride);
		tm_jw_kbool(&w, "cgroup", !env->no_cgroup);
		if (!env->no_cgroup) {
			tm_jw_kstr(&w, "cgroup_parent", r->cgroup_parent);
			tm_jw_key(&w, "memory_max_bytes");
			if (env->memory_max)
				tm_jw_u64(&w, env->memory_max);
			else
				tm_jw_null(&w);
			tm_jw_kbool(&w, "timer_in_cgroup", !env->timer_outside);
		}
		tm_jw_kstr(&w, "swap", r->swap_desc);
		tm_jw_ki64(&w, "swap_read_delay_ms", env->swap_delay_ms);
		tm_jw_ki64(&w, "swap_write_delay_ms", env->swap_write_delay_ms);
		tm_jw_ki64(&w, "vm_page_cluster", r->page_cluster);
		tm_jw_ki64(&w, "vm_swappiness", r->swappiness);
	} else {
		tm_jw_key(&w, "loads");
		tm_jw_arr_begin(&w);
		for (i = 0; i < env->nr_loads; i++)
			tm_jw_str(&w, bench_load_name(env->loads[i]));
		tm_jw_arr_end(&w);
		tm_jw_kdouble(&w, "compute_ms", ms(env->compute_ns));
		tm_jw_kdouble(&w, "fork_period_ms", ms(env->fork_period_ns));
	}
	tm_jw_obj_end(&w);

	if (r->have_calib) {
		tm_jw_key(&w, "calibration");
		tm_jw_obj_begin(&w);
		tm_jw_kdouble(&w, "target_ms", ms(r->calib.target_ns));
		tm_jw_ku64(&w, "loops", r->calib.loops);
		tm_jw_kdouble(&w, "ns_per_loop", r->calib.ns_per_loop);
		tm_jw_key(&w, "check_ms");
		tm_jw_arr_begin(&w);
		for (i = 0; i < 5; i++)
			tm_jw_double(&w, ms(r->calib.check_ns[i]));
		tm_jw_arr_end(&w);
		tm_jw_obj_end(&w);
	}

	tm_jw_key(&w, "series");
	tm_jw_arr_begin(&w);
	for (i = 0; i < r->nr_series && !err; i++)
		err = json_series(&w, r, &r->series[i]);
	tm_jw_arr_end(&w);

	tm_jw_key(&w, "triggers");
	tm_jw_arr_begin(&w);
	for (i = 0; i < r->nr_trig; i++) {
		const struct bench_trigger *t = &r->trig[i];

		tm_jw_obj_begin(&w);
		tm_jw_ku64(&w, "series", t->series);
		tm_jw_kstr(&w, "label", r->series[t->series].label);
		tm_jw_ku64(&w, "index", t->index);
		tm_jw_kdouble(&w, "ms", ms(t->sample.val_ns));
		tm_jw_ku64(&w, "start_mono_ns", t->sample.end_ns - t->sample.val_ns);
		tm_jw_ku64(&w, "end_mono_ns", t->sample.end_ns);
		tm_jw_ku64(&w, "requested_mono_ns", t->mono_ns);
		tm_jw_kstr(&w, "via", t->via);
		if (!strcmp(t->via, "socket")) {
			tm_jw_ku64(&w, "seq", t->seq);
			tm_jw_kbool(&w, "coalesced", (int)t->coalesced);
		}
		tm_jw_kstr(&w, "error", t->error);
		tm_jw_obj_end(&w);
	}
	tm_jw_arr_end(&w);
	tm_jw_ku64(&w, "triggers_held_back", r->trig_suppressed);
	tm_jw_obj_end(&w);
	if (err)
		return err;
	return tm_jw_finish(&w);
}

/* ---- SVG ----------------------------------------------------------------- */

int bench_results_svg(const char *path, const struct bench_result *r,
		     struct tm_err *e)
{
	const struct bench_env *env = r->env;
	struct svg_series ss[BENCH_MAX_SERIES];
	uint64_t *counts[BENCH_MAX_SERIES] = { NULL };
	char title[256];
	size_t i, n = 0;
	FILE *f;
	int err = 0;

	for (i = 0; i < r->nr_series; i++) {
		const struct bench_series *s = &r->series[i];
		uint64_t *v;

		if (!s->n)
			continue;
		if (bench_series_values(s, 0, &v)) {
			err = -ENOMEM;
			goto out;
		}
		ss[n].nr = bench_hist(v, s->n, BENCH_BUCKET_NS, &counts[n]);
		free(v);
		if (!ss[n].nr) {
			err = -ENOMEM;
			goto out;
		}
		ss[n].counts = counts[n];
		ss[n].label = s->label;
		n++;
	}
	if (!n) {
		err = tm_err_set(e, ENODATA, "--svg: no samples to draw");
		goto out;
	}
	if (env->kind == BENCH_PAGING) {
		char sz[32], mem[48];

		fmt_size(sz, sizeof(sz), env->child_size);
		if (env->no_cgroup)
			snprintf(mem, sizeof(mem), "no cgroup");
		else if (!env->memory_max)
			snprintf(mem, sizeof(mem), "memory.max max");
		else
			snprintf(mem, sizeof(mem), "memory.max %llu MiB",
				 (unsigned long long)(env->memory_max >> 20));
		snprintf(title, sizeof(title),
			 "Paging stall (TIPME 4.1.1): %s per child, %s, Linux %s", sz, mem,
			 r->uts.release);
	} else {
		snprintf(title, sizeof(title),
			 "Fork storm (TIPME 4.2.1): %.0f ms compute + %.0f ms sleep, Linux %s",
			 ms(env->compute_ns), ms(env->sleep_ns), r->uts.release);
	}
	f = fopen(path, "we");
	if (!f) {
		err = tm_err_set(e, errno, "--svg: cannot create %s: %s", path, strerror(errno));
		goto out;
	}
	err = bench_svg(f, title, env->kind == BENCH_PAGING ?
			"latency beyond the sleep (ms)" : "interval between timestamps (ms)",
			ss, n, BENCH_BUCKET_NS);
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		tm_err_set(e, -err, "--svg: cannot write %s: %s", path, strerror(-err));
out:
	for (i = 0; i < BENCH_MAX_SERIES; i++)
		free(counts[i]);
	return err;
}
