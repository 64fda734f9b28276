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

/**
 * pm_seg_stall() - is a stretch a stall
 * @inc: the incident
 * @pid: its thread
 * @s: the stretch
 *
 * Return: 1 if @s is runnable, in uninterruptible sleep, or asleep until
 * another task woke it, and not an idle wait (pm_seg_idle()) nor a wait
 * for a descendant (pm_descends()); else 0.
 */
int pm_seg_stall(const struct pm_incident *inc, uint32_t pid,
		 const struct pm_seg *s)
{
	return s->state == PM_T_RUNNABLE ||
	       (s->state == PM_T_BLOCKED && !pm_seg_idle(inc, s) &&
		!waits_for_descendant(&inc->pm, pid, s) &&
		(s->block_state == TIPME_TS_DISK ||
		 (s->block_state == TIPME_TS_SLEEPING && s->waker > 0 &&
		  s->waker_ctx == TIPME_CTX_TASK)));
}
