// SPDX-License-Identifier: GPL-2.0
/* tipme why's output: the time per class and the long stretches. */
#include <inttypes.h>

#include "../dump/tables.h"
#include "../records/records.h"
#include "hot.h"
#include "site.h"
#include "why.h"

static const char *const cls_name[PM_WHY_NR] = {
	"running", "runnable after wakeup", "runnable after preemption",
	"sleeping (S)", "uninterruptible (D)", "stopped/other", "exited",
	"unknown",
};

static const char *const cls_key[PM_WHY_NR] = {
	"running", "runnable_woken", "runnable_preempted", "sleeping",
	"uninterruptible", "other", "exited", "unknown",
};

static const char *name_of(const struct pm_dump *pm, uint32_t pid, int64_t ns)
{
	const char *n = pid ? pm_comm_at(pm, pid, ns) : "idle/interrupt";

	return n ? n : "?";
}

static int runnable(const struct pm_why_stretch *ws)
{
	return ws->cls == PM_WHY_WOKEN || ws->cls == PM_WHY_PREEMPTED;
}

static void print_thread(FILE *f, const struct pm_dump *pm,
			 const struct pm_why *w, int indent);

static void print_stretch(FILE *f, const struct pm_dump *pm,
			  const struct pm_why_stretch *ws, int indent)
{
	const struct pm_seg *s = ws->seg;
	char at[40];
	size_t k;

	fprintf(f, "%*s  %s  %9.3f ms  %s", indent, "",
		pm_fmt_ns(ws->start_ns, at, sizeof(at)), ws->ns / 1e6,
		cls_name[ws->cls]);
	if (runnable(ws)) {
		fprintf(f, " on cpu %u; it ran:", s->cpu);
		for (k = 0; k < ws->nholders; k++)
			fprintf(f, " %u (%s) %.3f ms%s", ws->holders[k].pid,
				name_of(pm, ws->holders[k].pid, s->start_ns),
				ws->holders[k].ns / 1e6,
				k + 1 < ws->nholders ? "," : "");
		fprintf(f, "%s\n", ws->nholders ? "" : " nothing recorded");
		return;
	}
	pm_print_seg_site(f, pm, s);
	if (s->waker >= 0)
		fprintf(f, "; woken by %" PRId32 " (%s, %s)\n", s->waker,
			name_of(pm, (uint32_t)s->waker, s->end_ns),
			pm_ctx_name(s->waker_ctx));
	else
		fprintf(f, "; not woken in the window\n");
	if (ws->waker) {
		fprintf(f, "%*s    meanwhile %" PRId32 " (%s):\n", indent, "",
			s->waker, name_of(pm, (uint32_t)s->waker, s->end_ns));
		print_thread(f, pm, ws->waker, indent + 6);
	}
}

static void print_thread(FILE *f, const struct pm_dump *pm,
			 const struct pm_why *w, int indent)
{
	int64_t span = w->t1 - w->t0;
	size_t i;
	int k;

	for (k = 0; k < PM_WHY_NR; k++) {
		if (!w->ns[k])
			continue;
		fprintf(f, "%*s  %-27s %10.3f ms %6.1f%%\n", indent, "", cls_name[k],
			w->ns[k] / 1e6, span ? 100.0 * w->ns[k] / span : 0);
	}
	fprintf(f, "%*s  accounted: %.1f%% of %.3f ms\n", indent, "",
		span ? 100.0 * w->known / span : 0, span / 1e6);
	if (w->hot.samples)
		pm_hot_print(f, &w->hot, name_of(pm, w->pid, w->t1), indent + 2);
	if (!w->thread)
		fprintf(f, "%*s  (no scheduler record of pid %u)\n", indent, "", w->pid);
	for (i = 0; i < w->nstretches; i++)
		print_stretch(f, pm, &w->stretches[i], indent);
}

void pm_why_print(FILE *f, const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_why *w, int at_trigger)
{
	const struct pm_dump *pm = &inc->pm;
	char a[40], b[40];

	fprintf(f, "pid %ld (%s), %s .. %s%s:\n", (long)w->pid,
		name_of(pm, w->pid, st->last_ns),
		pm_fmt_ns(w->t0, a, sizeof(a)), pm_fmt_ns(w->t1, b, sizeof(b)),
		at_trigger ? " (up to the trigger)" : "");
	if (st->lost)
		fprintf(f, "  NOTE: the dump has gaps (lost sub-buffers): some time is unknown\n");
	print_thread(f, pm, w, 0);
}

static void json_thread(struct tm_jw *j, const struct pm_dump *pm,
			const struct pm_state *st, const struct pm_why *w);

static void json_stretch(struct tm_jw *j, const struct pm_dump *pm,
			 const struct pm_state *st,
			 const struct pm_why_stretch *ws)
{
	const struct pm_seg *s = ws->seg;
	char at[40];
	size_t k;

	tm_jw_obj_begin(j);
	tm_jw_kstr(j, "class", cls_key[ws->cls]);
	tm_jw_kstr(j, "start", pm_fmt_ns(ws->start_ns, at, sizeof(at)));
	tm_jw_ki64(j, "start_mono_ns", ws->start_ns);
	tm_jw_kdouble(j, "ms", ws->ns / 1e6);
	if (runnable(ws)) {
		tm_jw_ku64(j, "cpu", s->cpu);
		tm_jw_key(j, "cpu_held_by");
		tm_jw_arr_begin(j);
		for (k = 0; k < ws->nholders; k++) {
			tm_jw_obj_begin(j);
			tm_jw_ku64(j, "pid", ws->holders[k].pid);
			tm_jw_kstr(j, "comm", name_of(pm, ws->holders[k].pid, s->start_ns));
			tm_jw_kdouble(j, "ms", ws->holders[k].ns / 1e6);
			tm_jw_obj_end(j);
		}
		tm_jw_arr_end(j);
	} else {
		pm_json_seg_site(j, pm, s);
		if (s->waker >= 0) {
			tm_jw_ku64(j, "woken_by", (uint64_t)s->waker);
			tm_jw_kstr(j, "woken_by_comm",
				name_of(pm, (uint32_t)s->waker, s->end_ns));
			tm_jw_kstr(j, "waker_ctx", pm_ctx_name(s->waker_ctx));
		}
		if (ws->waker) {
			tm_jw_key(j, "waker_during");
			json_thread(j, pm, st, ws->waker);
		}
	}
	tm_jw_obj_end(j);
}

static void json_thread(struct tm_jw *j, const struct pm_dump *pm,
			const struct pm_state *st, const struct pm_why *w)
{
	size_t i;
	int k;

	tm_jw_obj_begin(j);
	tm_jw_ku64(j, "pid", w->pid);
	tm_jw_kstr(j, "comm", name_of(pm, w->pid, st->last_ns));
	tm_jw_ki64(j, "from_mono_ns", w->t0);
	tm_jw_ki64(j, "to_mono_ns", w->t1);
	tm_jw_key(j, "ms");
	tm_jw_obj_begin(j);
	for (k = 0; k < PM_WHY_NR; k++)
		tm_jw_kdouble(j, cls_key[k], w->ns[k] / 1e6);
	tm_jw_obj_end(j);
	tm_jw_kdouble(j, "accounted_pct",
		   w->t1 > w->t0 ? 100.0 * w->known / (w->t1 - w->t0) : 0);
	if (w->hot.samples) {
		tm_jw_key(j, "hot");
		pm_hot_json(j, &w->hot, name_of(pm, w->pid, st->last_ns));
	}
	tm_jw_key(j, "stretches");
	tm_jw_arr_begin(j);
	for (i = 0; i < w->nstretches; i++)
		json_stretch(j, pm, st, &w->stretches[i]);
	tm_jw_arr_end(j);
	tm_jw_obj_end(j);
}

void pm_why_json(struct tm_jw *j, const struct pm_incident *inc,
		 const struct pm_state *st, const struct pm_why *w,
		 int at_trigger)
{
	const struct pm_dump *pm = &inc->pm;
	tm_jw_obj_begin(j);
	tm_jw_kbool(j, "dump_has_gaps", st->lost);
	tm_jw_kbool(j, "ends_at_trigger", at_trigger);
	tm_jw_key(j, "thread");
	json_thread(j, pm, st, w);
	tm_jw_obj_end(j);
}
