// SPDX-License-Identifier: GPL-2.0
/*
 * The longest stall of any thread (stall.h): the interval tipme report
 * analyses when no pid and no input says which moment matters.
 */
#include "../dump/clock.h"
#include "../dump/tables.h"
#include "segcause.h"
#include "stall.h"

/*
 * Woken by a child of its process (a shell reading a command's output,
 * make waiting for a compiler): waiting for work it handed out, not a
 * stall of its own; the child's own stalls are candidates.
 */
static int waits_for_child(const struct pm_dump *pm, uint32_t pid,
			   const struct pm_seg *s)
{
	const struct pm_exec *me, *w;

	if (s->waker <= 0 || s->waker_ctx != TIPME_CTX_TASK)
		return 0;
	me = pm_exec_at(pm, pid, s->start_ns);
	w = pm_exec_at(pm, (uint32_t)s->waker, s->end_ns);
	return me && w && w->x.ppid == me->x.tgid && w->x.tgid != me->x.tgid;
}

/**
 * pm_longest_stall() - the longest stall of any thread in an interval
 * @inc: the incident
 * @st: its state
 * @from_ns: where to look, CLOCK_MONOTONIC ns
 * @to_ns: up to
 * @out: set to the stalled thread (@out->pid) and its stall
 *	(@out->from_ns, @out->to_ns); the rest is left alone
 *
 * A stall is a stretch a thread spent waiting for something other than
 * work: runnable, in uninterruptible sleep, or asleep until another task
 * woke it, but not an idle wait (poll, select, epoll, waiting for a child,
 * reading what a child writes, a kernel worker's queue); kernel threads are
 * not candidates (a task's chain reaches them when they matter).  Used when no input and no pid says which
 * moment matters; the weakest of the three choices, and said so.
 *
 * Return: 1 if one was found, else 0.
 */
int pm_longest_stall(const struct pm_incident *inc, const struct pm_state *st,
		     int64_t from_ns, int64_t to_ns, struct pm_span *out)
{
	const struct pm_dump *pm = &inc->pm;
	int64_t best = 0;
	size_t i, j;

	for (i = 0; i < st->nthreads; i++) {
		const struct pm_thread *t = &st->threads[i];
		const struct pm_exec *x = t->nsegs ?
			pm_exec_at(pm, t->pid, t->segs[t->nsegs - 1].start_ns) : NULL;

		/* a kernel thread's waits are its work queue's; its stalls show in a task's chain */
		if (x && (x->x.flags & TIPME_EXEC_KTHREAD))
			continue;
		for (j = 0; j < t->nsegs; j++) {
			const struct pm_seg *s = &t->segs[j];
			int64_t s0 = s->start_ns;
			int64_t s1 = s->end_ns;
			int stall;

			s0 = s0 > from_ns ? s0 : from_ns;
			s1 = s1 < to_ns ? s1 : to_ns;
			if (s1 - s0 <= best)
				continue;
			stall = s->state == PM_T_RUNNABLE ||
				(s->state == PM_T_BLOCKED && !pm_seg_idle(inc, s) &&
				 !waits_for_child(pm, t->pid, s) &&
				 (s->block_state == TIPME_TS_DISK ||
				  (s->block_state == TIPME_TS_SLEEPING && s->waker > 0 &&
				   s->waker_ctx == TIPME_CTX_TASK)));
			if (!stall)
				continue;
			best = s1 - s0;
			out->pid = t->pid;
			out->from_ns = s0;
			out->to_ns = s1;
		}
	}
	return best > 0;
}
