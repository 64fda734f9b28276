// SPDX-License-Identifier: GPL-2.0
/*
 * tipme why: where did a thread's time go in an interval, and who was it
 * waiting for?
 *
 * Every nanosecond of the interval is put in one class (running, waiting
 * for a CPU after a wakeup, waiting for a CPU after preemption, blocked by
 * task state, unknown) and "% accounted" says how much is known.  Long
 * stretches are listed: a runnable one with the threads that held its CPU
 * meanwhile, a blocked one with where it blocked and who woke it; and, as
 * RSP did, the waker's own time during that stretch is analysed in turn
 * (--depth), so "X waited 800 ms on a pipe" becomes "... for Y, which was
 * runnable 700 ms behind Z".
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/clock.h"
#include "../cmd/commands.h"
#include "../records/records.h"
#include "../report/site.h"
#include "../dump/instr.h"
#include "json.h"
#include "../state/state.h"

enum cls {
	C_RUN, C_WOKEN, C_PREEMPTED, C_SLEEP, C_DISK, C_OTHER, C_EXITED,
	C_UNKNOWN, C_NR
};

static const char *const cls_name[C_NR] = {
	"running", "runnable after wakeup", "runnable after preemption",
	"sleeping (S)", "uninterruptible (D)", "stopped/other", "exited",
	"unknown",
};

static const char *const cls_key[C_NR] = {
	"running", "runnable_woken", "runnable_preempted", "sleeping",
	"uninterruptible", "other", "exited", "unknown",
};

struct ctx {
	const struct pm_dump *pm;
	const struct pm_state *st;
	int64_t min_ns;
	int depth;
	int json;
	struct jw w;
};

static int64_t mono(const struct ctx *c, uint64_t ts)
{
	return pm_clock_mono(&c->pm->clock, ts);
}

static enum cls seg_cls(const struct pm_seg *s)
{
	switch (s->state) {
	case PM_T_RUNNING:
		return C_RUN;
	case PM_T_RUNNABLE:
		return s->woken ? C_WOKEN : C_PREEMPTED;
	case PM_T_BLOCKED:
		if (s->block_state == TIPME_TS_SLEEPING)
			return C_SLEEP;
		if (s->block_state == TIPME_TS_DISK || s->block_state == TIPME_TS_IDLE)
			return C_DISK;
		if (s->block_state == TIPME_TS_DEAD || s->block_state == TIPME_TS_ZOMBIE)
			return C_EXITED;
		return C_OTHER;
	default:
		return C_UNKNOWN;
	}
}

/* Overlap of [a0, a1) with [b0, b1), in ns. */
struct holder {
	uint32_t pid;
	int64_t ns;
};

static int holder_cmp(const void *a, const void *b)
{
	const struct holder *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

/* The threads that ran on @cpu during [t0, t1), most time first. */
static size_t cpu_holders(const struct ctx *c, uint32_t cpu, uint32_t self,
			  int64_t t0, int64_t t1, struct holder *out, size_t max)
{
	struct holder *all = NULL;
	size_t n = 0, i, j;

	for (i = 0; i < c->st->nthreads; i++) {
		const struct pm_thread *t = &c->st->threads[i];
		int64_t sum = 0;

		if (t->pid == self)
			continue;
		for (j = 0; j < t->nsegs; j++) {
			const struct pm_seg *s = &t->segs[j];

			if (s->state == PM_T_RUNNING && s->cpu == cpu)
				sum += pm_seg_overlap(c->pm, s, t0, t1);
		}
		if (sum > 0) {
			struct holder *nh = realloc(all, (n + 1) * sizeof(*nh));

			if (!nh)
				break;
			all = nh;
			all[n].pid = t->pid;
			all[n++].ns = sum;
		}
	}
	if (n)
		qsort(all, n, sizeof(*all), holder_cmp);
	if (n > max)
		n = max;
	if (n)
		memcpy(out, all, n * sizeof(*out));
	free(all);
	return n;
}

static const char *name_of(const struct ctx *c, uint32_t pid, int64_t ns_unused,
			   uint64_t ts)
{
	const char *n = pid ? pm_task_name(c->pm, pid, ts) : "idle/interrupt";

	(void)ns_unused;
	return n ? n : "?";
}

static void sum_thread(const struct ctx *c, const struct pm_thread *t,
		       int64_t t0, int64_t t1, int64_t tot[C_NR])
{
	size_t j;

	memset(tot, 0, sizeof(int64_t) * C_NR);
	for (j = 0; t && j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];

		tot[seg_cls(s)] += pm_seg_overlap(c->pm, s, t0, t1);
	}
}

static void analyse(struct ctx *c, uint32_t pid, int64_t t0, int64_t t1,
		    int depth, int indent);

static void print_totals(const struct ctx *c, const int64_t tot[C_NR],
			 int64_t span, int indent)
{
	int64_t known = 0;
	int k;

	for (k = 0; k < C_NR; k++) {
		if (k != C_UNKNOWN)
			known += tot[k];
		if (!tot[k])
			continue;
		printf("%*s  %-27s %10.3f ms %6.1f%%\n", indent, "", cls_name[k],
		       tot[k] / 1e6, span ? 100.0 * tot[k] / span : 0);
	}
	(void)c;
	printf("%*s  accounted: %.1f%% of %.3f ms\n", indent, "",
	       span ? 100.0 * known / span : 0, span / 1e6);
}

static void list_stretches(struct ctx *c, const struct pm_thread *t,
			   int64_t t0, int64_t t1, int depth, int indent)
{
	struct holder h[3];
	size_t j, k, nh;

	for (j = 0; t && j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];
		int64_t a = mono(c, s->start), b = mono(c, s->end);
		int64_t d = pm_seg_overlap(c->pm, s, t0, t1);
		enum cls cl = seg_cls(s);
		char at[40];

		if (d < c->min_ns || cl == C_RUN || cl == C_UNKNOWN || cl == C_EXITED)
			continue;
		pm_fmt_ns(a > t0 ? a : t0, at, sizeof(at));
		if (c->json) {
			jw_obj_begin(&c->w);
			jw_kstr(&c->w, "class", cls_key[cl]);
			jw_kstr(&c->w, "start", at);
			jw_ki64(&c->w, "start_mono_ns", a > t0 ? a : t0);
			jw_kdouble(&c->w, "ms", d / 1e6);
		} else {
			printf("%*s  %s  %9.3f ms  %s", indent, "", at, d / 1e6,
			       cls_name[cl]);
		}
		if (cl == C_WOKEN || cl == C_PREEMPTED) {
			nh = cpu_holders(c, s->cpu, t->pid, a > t0 ? a : t0,
					 b < t1 ? b : t1, h, 3);
			if (c->json) {
				jw_ku64(&c->w, "cpu", s->cpu);
				jw_key(&c->w, "cpu_held_by");
				jw_arr_begin(&c->w);
			} else {
				printf(" on cpu %u; it ran:", s->cpu);
			}
			for (k = 0; k < nh; k++) {
				if (c->json) {
					jw_obj_begin(&c->w);
					jw_ku64(&c->w, "pid", h[k].pid);
					jw_kstr(&c->w, "comm", name_of(c, h[k].pid, 0, s->start));
					jw_kdouble(&c->w, "ms", h[k].ns / 1e6);
					jw_obj_end(&c->w);
				} else {
					printf(" %u (%s) %.3f ms%s", h[k].pid,
					       name_of(c, h[k].pid, 0, s->start),
					       h[k].ns / 1e6, k + 1 < nh ? "," : "");
				}
			}
			if (c->json)
				jw_arr_end(&c->w);
			else
				printf("%s\n", nh ? "" : " nothing recorded");
		} else {
			if (c->json) {
				pm_json_seg_site(&c->w, c->pm, s);
				if (s->waker >= 0) {
					jw_ku64(&c->w, "woken_by", (uint64_t)s->waker);
					jw_kstr(&c->w, "woken_by_comm",
						name_of(c, (uint32_t)s->waker, 0, s->end));
					jw_kstr(&c->w, "waker_ctx", pm_ctx_name(s->waker_ctx));
				}
			} else {
				pm_print_seg_site(stdout, c->pm, s);
				if (s->waker >= 0)
					printf("; woken by %" PRId64 " (%s, %s)\n", s->waker,
					       name_of(c, (uint32_t)s->waker, 0, s->end),
					       pm_ctx_name(s->waker_ctx));
				else
					printf("; not woken in the window\n");
			}
			if (depth > 0 && s->waker > 0 &&
			    s->waker_ctx == TIPME_CTX_TASK && (uint32_t)s->waker != t->pid) {
				if (c->json)
					jw_key(&c->w, "waker_during");
				else
					printf("%*s    meanwhile %" PRId64 " (%s):\n", indent, "",
					       s->waker, name_of(c, (uint32_t)s->waker, 0, s->end));
				analyse(c, (uint32_t)s->waker, a > t0 ? a : t0,
					b < t1 ? b : t1, depth - 1, indent + 6);
			}
		}
		if (c->json)
			jw_obj_end(&c->w);
	}
}

static void analyse(struct ctx *c, uint32_t pid, int64_t t0, int64_t t1,
		    int depth, int indent)
{
	const struct pm_thread *t = pm_state_thread(c->st, pid);
	int64_t tot[C_NR], known = 0;
	int k;

	sum_thread(c, t, t0, t1, tot);
	tot[C_UNKNOWN] = t1 - t0;
	for (k = 0; k < C_NR; k++)
		if (k != C_UNKNOWN)
			known += tot[k];
	tot[C_UNKNOWN] = t1 - t0 - known > 0 ? t1 - t0 - known : 0;
	if (c->json) {
		jw_obj_begin(&c->w);
		jw_ku64(&c->w, "pid", pid);
		jw_kstr(&c->w, "comm", name_of(c, pid, 0, c->st->last_ts));
		jw_ki64(&c->w, "from_mono_ns", t0);
		jw_ki64(&c->w, "to_mono_ns", t1);
		jw_key(&c->w, "ms");
		jw_obj_begin(&c->w);
		for (k = 0; k < C_NR; k++)
			jw_kdouble(&c->w, cls_key[k], tot[k] / 1e6);
		jw_obj_end(&c->w);
		jw_kdouble(&c->w, "accounted_pct",
			   t1 > t0 ? 100.0 * known / (t1 - t0) : 0);
		jw_key(&c->w, "stretches");
		jw_arr_begin(&c->w);
	} else {
		print_totals(c, tot, t1 - t0, indent);
		if (!t)
			printf("%*s  (no scheduler record of pid %u)\n", indent, "", pid);
	}
	list_stretches(c, t, t0, t1, depth, indent);
	if (c->json) {
		jw_arr_end(&c->w);
		jw_obj_end(&c->w);
	}
}

static const char usage_text[] =
	"usage: tipme why --pid PID [--window MS] [--from S --to S] [--min-ms MS]\n"
	"                 [--depth N] [--json] DUMP\n"
	"  Where PID's time went in an interval: running, waiting for a CPU (and\n"
	"  who held it), blocked (where, and who woke it, analysed in turn).\n"
	"  Default interval: the WINDOW ms (2000) before the dump's trigger, or\n"
	"  before its end if it has none.  Times are CLOCK_MONOTONIC seconds.\n"
	"  DUMP is a dump file or an incident directory (its kernel.dump).\n"
	"EXAMPLES\n"
	"  tipme why --pid 4242 /var/lib/tipme/incidents/20240501T123456Z-7\n"
	"  tipme why --pid 4242 --from 1203.5 --to 1204.3 --depth 2 kernel.dump\n";

int pm_cmd_why(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "window", required_argument, NULL, 'w' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "min-ms", required_argument, NULL, 'm' },
		{ "depth", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ctx c = { .min_ns = 10000000, .depth = 1 };
	double window_ms = 2000, from = -1, to = -1, v;
	struct tm_err e = { "" };
	struct pm_dump pm;
	struct pm_state st;
	long pid = -1;
	int64_t t0, t1, end;
	char *endp, a[40], b[40];
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:w:f:t:m:d:jh", opts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage_text, stdout);
			return 0;
		}
		if (opt == 'j') {
			c.json = 1;
			continue;
		}
		if (opt == '?' || !optarg)
			goto usage;
		v = strtod(optarg, &endp);
		if (*endp || v < 0)
			goto bad;
		switch (opt) {
		case 'p':
			pid = (long)v;
			break;
		case 'w':
			window_ms = v;
			break;
		case 'f':
			from = v;
			break;
		case 't':
			to = v;
			break;
		case 'm':
			c.min_ns = (int64_t)(v * 1e6);
			break;
		case 'd':
			c.depth = (int)v;
			break;
		}
	}
	if (pid <= 0 || optind + 1 != argc || (from >= 0) != (to >= 0) ||
	    (from >= 0 && to <= from) || window_ms <= 0)
		goto usage;
	if (pm_open(&pm, argv[optind], 0, &e)) {
		fprintf(stderr, "tipme why: %s\n", e.msg);
		return 1;
	}
	if (pm_state_build(&st, &pm, &e)) {
		fprintf(stderr, "tipme why: %s: %s\n", argv[optind], e.msg);
		pm_close(&pm);
		return 1;
	}
	c.pm = &pm;
	c.st = &st;
	if (from >= 0) {
		t0 = (int64_t)(from * 1e9);
		t1 = (int64_t)(to * 1e9);
	} else {
		end = mono(&c, st.trigger_ts ? st.trigger_ts : st.last_ts);
		t1 = end;
		t0 = end - (int64_t)(window_ms * 1e6);
		if (t0 < mono(&c, st.first_ts))
			t0 = mono(&c, st.first_ts);
	}
	if (c.json) {
		jw_init(&c.w, stdout, 0);
		jw_obj_begin(&c.w);
		jw_kbool(&c.w, "dump_has_gaps", st.lost);
		jw_kbool(&c.w, "ends_at_trigger", from < 0 && st.trigger_ts);
		jw_key(&c.w, "thread");
		analyse(&c, (uint32_t)pid, t0, t1, c.depth, 0);
		jw_obj_end(&c.w);
		jw_finish(&c.w);
	} else {
		printf("pid %ld (%s), %s .. %s%s:\n", pid,
		       name_of(&c, (uint32_t)pid, 0, st.last_ts),
		       pm_fmt_ns(t0, a, sizeof(a)), pm_fmt_ns(t1, b, sizeof(b)),
		       from < 0 && st.trigger_ts ? " (up to the trigger)" : "");
		if (st.lost)
			printf("  NOTE: the dump has gaps (lost sub-buffers): some time is unknown\n");
		analyse(&c, (uint32_t)pid, t0, t1, c.depth, 0);
	}
	pm_state_free(&st);
	pm_close(&pm);
	return 0;
bad:
	fprintf(stderr, "tipme why: invalid value '%s'\n", optarg);
usage:
	fputs(usage_text, stderr);
	return 2;
}
