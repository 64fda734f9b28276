// SPDX-License-Identifier: GPL-2.0
/*
 * What a stall is (stall.h): the stretches rank.c ranks when no pid and
 * no input says which moment matters.
 */
#include "../dump/clock.h"
#include "../dump/tables.h"
#include "segcause.h"
#include "stall.h"

/**
 * pm_descends() - is a thread's process a descendant of another process
 * @pm: the dump (its exec table's parent links)
 * @pid: the thread
 * @tgid: the would-be ancestor process
 * @ns: when (CLOCK_MONOTONIC ns): the entries alive then are followed
 *
 * Follows the parent links of the exec table from @pid's process up, at
 * most 64 steps, to init or a process the table does not know.
 *
 * Return: 1 if @pid's process is a child, grandchild ... of @tgid (not
 * @tgid itself), else 0.
 */
int pm_descends(const struct pm_dump *pm, uint32_t pid, uint32_t tgid,
		int64_t ns)
{
	const struct pm_exec *x = pm_exec_at(pm, pid, ns);
	uint32_t cur;
	int depth;

	if (!x || x->x.tgid == tgid)
		return 0;
	cur = x->x.tgid;
	for (depth = 0; depth < 64; depth++) {
		x = pm_exec_at(pm, cur, ns);
		if (!x || x->x.ppid == cur || x->x.ppid == 0)
			return 0;
		if (x->x.ppid == tgid)
			return 1;
		if (x->x.ppid == 1)
			return 0;
		cur = x->x.ppid;
	}
	return 0;
}

/*
 * Woken by a descendant of its process (a shell reading a command's
 * output, make waiting for a compiler, a grandchild's exit through a
 * pidfd): waiting for work it handed out, not a stall of its own; the
 * descendant's own stalls are candidates.
 */
static int waits_for_descendant(const struct pm_dump *pm, uint32_t pid,
				const struct pm_seg *s)
{
	const struct pm_exec *me;

	if (s->waker <= 0 || s->waker_ctx != TIPME_CTX_TASK)
		return 0;
	me = pm_exec_at(pm, pid, s->start_ns);
	return me && pm_descends(pm, (uint32_t)s->waker, me->x.tgid, s->end_ns);
}

/* How many stretches the look for a hand-off's answer follows, at most. */
#define JOB_SEGS	64

/* The first stretch of @t that starts at or after @ns (t->nsegs if none). */
static size_t seg_from(const struct pm_thread *t, int64_t ns)
{
	size_t lo = 0, hi = t->nsegs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->segs[mid].start_ns < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * pm_seg_job_wait() - was a wait one for a job another task handed over
 * @inc: the incident
 * @st: its state
 * @pid: the thread
 * @s: one of its blocked stretches
 *
 * A worker waiting for work (a thread pool's worker on its condition
 * variable or eventfd, a service waiting for its next request) is woken
 * by a task that hands it a job and then waits for the answer.  So @s is
 * a wait for a job when the task whose wakeup ended it next waited (after
 * idle waits for other work: poll, epoll, a worker's queue) until this
 * thread woke it, and this thread did not wait meanwhile but for that task
 * (the mutex of its condition variable): it did the job in one go.  The
 * waker's wait is the stall a person may feel; the worker's is not.
 *
 * Return: 1 if it was, else 0.
 */
int pm_seg_job_wait(const struct pm_incident *inc, const struct pm_state *st,
		    uint32_t pid, const struct pm_seg *s)
{
	const struct pm_thread *x, *me;
	const struct pm_seg *answer = NULL;
	size_t j, n;

	if (s->state != PM_T_BLOCKED || s->waker <= 0 || s->waker_ctx != TIPME_CTX_TASK ||
	    (uint32_t)s->waker == pid)
		return 0;
	x = pm_state_thread(st, (uint32_t)s->waker);
	me = pm_state_thread(st, pid);
	if (!x || !me)
		return 0;
	for (j = seg_from(x, s->end_ns), n = 0; j < x->nsegs && n < JOB_SEGS; j++, n++) {
		const struct pm_seg *g = &x->segs[j];

		if (g->state != PM_T_BLOCKED)
			continue;
		if (g->waker == (int64_t)pid && g->waker_ctx == TIPME_CTX_TASK) {
			answer = g;
			break;
		}
		if (!pm_seg_idle(inc, g))
			return 0;
	}
	if (!answer)
		return 0;
	for (j = seg_from(me, s->end_ns), n = 0; j < me->nsegs && n < JOB_SEGS; j++, n++) {
		const struct pm_seg *g = &me->segs[j];

		if (g->start_ns >= answer->end_ns)
			return 1;
		if (g->state == PM_T_BLOCKED && g->waker != s->waker)
			return 0;
	}
	return j == me->nsegs;
}

/**
 * pm_seg_stall() - is a stretch a stall
 * @inc: the incident
 * @st: its state
 * @pid: its thread
 * @s: the stretch
 *
 * Return: 1 if @s is runnable, in uninterruptible sleep, or asleep until
 * another task woke it, and not an idle wait (pm_seg_idle()), a wait for
 * a descendant (pm_descends()) nor a worker's wait for a job
 * (pm_seg_job_wait()); else 0.
 */
int pm_seg_stall(const struct pm_incident *inc, const struct pm_state *st,
		 uint32_t pid, const struct pm_seg *s)
{
	return s->state == PM_T_RUNNABLE ||
	       (s->state == PM_T_BLOCKED && !pm_seg_idle(inc, s) &&
		!waits_for_descendant(&inc->pm, pid, s) &&
		(s->block_state == TIPME_TS_DISK ||
		 (s->block_state == TIPME_TS_SLEEPING && s->waker > 0 &&
		  s->waker_ctx == TIPME_CTX_TASK &&
		  !pm_seg_job_wait(inc, st, pid, s))));
}
