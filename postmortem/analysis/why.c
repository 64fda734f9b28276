// SPDX-License-Identifier: GPL-2.0
/*
 * Where did a thread's time go in an interval, and who was it waiting for?
 *
 * Every nanosecond of the interval is put in one class (running, waiting
 * for a CPU after a wakeup, waiting for a CPU after preemption, blocked by
 * task state, unknown) and "% accounted" says how much is known.  Long
 * stretches are listed: a runnable one with the threads that held its CPU
 * meanwhile, a blocked one with where it blocked and who woke it; and, as
 * RSP did, the waker's own time during that stretch is analysed in turn
 * (depth), so "X waited 800 ms on a pipe" becomes "... for Y, which was
 * runnable 700 ms behind Z".  Where it computed: the hot functions of its
 * running stretches, from the profiler's samples the state keeps (hot.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hot.h"
#include "why.h"

/* The hot functions of @w's thread in its running stretches of the interval. */
static int hot_of(const struct pm_incident *inc, const struct pm_state *st, struct pm_why *w)
{
	struct pm_span *sp;
	size_t j, n = 0;
	int err;

	if (!w->thread || !st->nsamples)
		return 0;
	sp = malloc((w->thread->nsegs ? w->thread->nsegs : 1) * sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	for (j = pm_seg_first(w->thread, w->t0);
	     j < w->thread->nsegs && w->thread->segs[j].start_ns < w->t1; j++) {
		const struct pm_seg *s = &w->thread->segs[j];

		if (s->state != PM_T_RUNNING)
			continue;
		sp[n].pid = w->pid;
		sp[n].from_ns = s->start_ns > w->t0 ? s->start_ns : w->t0;
		sp[n++].to_ns = s->end_ns < w->t1 ? s->end_ns : w->t1;
	}
	err = pm_hot_compute(inc, st, w->pid, sp, n, &w->hot);
	free(sp);
	return err;
}

static enum pm_why_class seg_cls(const struct pm_seg *s)
{
	switch (s->state) {
	case PM_T_RUNNING:
		return PM_WHY_RUN;
	case PM_T_RUNNABLE:
		return s->woken ? PM_WHY_WOKEN : PM_WHY_PREEMPTED;
	case PM_T_BLOCKED:
		if (s->block_state == TIPME_TS_SLEEPING)
			return PM_WHY_SLEEP;
		if (s->block_state == TIPME_TS_DISK || s->block_state == TIPME_TS_IDLE)
			return PM_WHY_DISK;
		if (s->block_state == TIPME_TS_DEAD || s->block_state == TIPME_TS_ZOMBIE)
			return PM_WHY_EXITED;
		return PM_WHY_OTHER;
	default:
		return PM_WHY_UNKNOWN;
	}
}

static int holder_cmp(const void *a, const void *b)
{
	const struct pm_why_holder *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

/* The threads that ran on @cpu during [t0, t1), most time first. */
static int cpu_holders(const struct pm_state *st,
		       uint32_t cpu, uint32_t self, int64_t t0, int64_t t1,
		       struct pm_why_stretch *ws)
{
	struct pm_why_holder *all = NULL;
	size_t n = 0, i, j;

	for (i = 0; i < st->nthreads; i++) {
		const struct pm_thread *t = &st->threads[i];
		int64_t sum = 0;

		if (t->pid == self)
			continue;
		for (j = pm_seg_first(t, t0); j < t->nsegs && t->segs[j].start_ns < t1; j++) {
			const struct pm_seg *s = &t->segs[j];

			if (s->state == PM_T_RUNNING && s->cpu == cpu)
				sum += pm_seg_overlap(s, t0, t1);
		}
		if (sum > 0) {
			struct pm_why_holder *nh = realloc(all, (n + 1) * sizeof(*nh));

			if (!nh) {
				free(all);
				return -ENOMEM;
			}
			all = nh;
			all[n].pid = t->pid;
			all[n++].ns = sum;
		}
	}
	if (n)
		qsort(all, n, sizeof(*all), holder_cmp);
	if (n > PM_WHY_HOLDERS)
		n = PM_WHY_HOLDERS;
	if (n)
		memcpy(ws->holders, all, n * sizeof(*all));
	ws->nholders = n;
	free(all);
	return 0;
}

static int add_stretch(struct pm_why *w, struct pm_why_stretch **ws)
{
	struct pm_why_stretch *n = realloc(w->stretches,
					   (w->nstretches + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	w->stretches = n;
	*ws = &n[w->nstretches++];
	memset(*ws, 0, sizeof(**ws));
	return 0;
}

static int list_stretches(const struct pm_incident *inc, const struct pm_state *st,
			  struct pm_why *w, int64_t min_ns, int depth)
{
	const struct pm_thread *t = w->thread;
	int64_t t0 = w->t0, t1 = w->t1;
	size_t j;
	int err;

	/* with a minimum, only the stretches in [t0, t1] can have it */
	for (j = min_ns > 0 ? pm_seg_first(t, t0) : 0; t && j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];
		int64_t a = s->start_ns, b = s->end_ns;
		int64_t d = pm_seg_overlap(s, t0, t1);

		if (min_ns > 0 && a >= t1)
			break;
		enum pm_why_class cl = seg_cls(s);
		struct pm_why_stretch *ws;

		if (d < min_ns || cl == PM_WHY_RUN || cl == PM_WHY_UNKNOWN ||
		    cl == PM_WHY_EXITED)
			continue;
		err = add_stretch(w, &ws);
		if (err)
			return err;
		ws->seg = s;
		ws->cls = cl;
		ws->start_ns = a > t0 ? a : t0;
		ws->ns = d;
		if (cl == PM_WHY_WOKEN || cl == PM_WHY_PREEMPTED)
			err = cpu_holders(st, s->cpu, t->pid, ws->start_ns,
					  b < t1 ? b : t1, ws);
		else if (depth > 0 && s->waker > 0 &&
			 s->waker_ctx == TIPME_CTX_TASK && (uint32_t)s->waker != t->pid)
			err = pm_why_analyse(inc, st, (uint32_t)s->waker, ws->start_ns,
					     b < t1 ? b : t1, min_ns, depth - 1,
					     &ws->waker);
		if (err)
			return err;
	}
	return 0;
}

int pm_why_analyse(const struct pm_incident *inc, const struct pm_state *st,
		   uint32_t pid, int64_t t0, int64_t t1, int64_t min_ns,
		   int depth, struct pm_why **out)
{
	struct pm_why *w = calloc(1, sizeof(*w));
	size_t j;
	int k, err;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->pid = pid;
	w->thread = pm_state_thread(st, pid);
	w->t0 = t0;
	w->t1 = t1;
	for (j = pm_seg_first(w->thread, t0);
	     w->thread && j < w->thread->nsegs && w->thread->segs[j].start_ns < t1; j++) {
		const struct pm_seg *s = &w->thread->segs[j];

		w->ns[seg_cls(s)] += pm_seg_overlap(s, t0, t1);
	}
	for (k = 0; k < PM_WHY_NR; k++)
		if (k != PM_WHY_UNKNOWN)
			w->known += w->ns[k];
	w->ns[PM_WHY_UNKNOWN] = t1 - t0 - w->known > 0 ? t1 - t0 - w->known : 0;
	err = list_stretches(inc, st, w, min_ns, depth);
	if (!err)
		err = hot_of(inc, st, w);
	if (err) {
		pm_why_free(w);
		return err;
	}
	*out = w;
	return 0;
}

void pm_why_free(struct pm_why *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nstretches; i++)
		pm_why_free(w->stretches[i].waker);
	free(w->stretches);
	pm_hot_free(&w->hot);
	free(w);
}
