/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's task state bits, as sched_switch reports them, mapped to our
 * own enum tipme_task_state (the bits change between kernel versions).
 */
#ifndef TIPME_TASKSTATE_H
#define TIPME_TASKSTATE_H

#include <linux/sched.h>
#include <linux/tipme.h>

/* Context: any. */
static inline u8 tipme_task_state(unsigned int state)
{
	if (!state)
		return TIPME_TS_RUNNABLE;
#ifdef TASK_RTLOCK_WAIT	/* PREEMPT_RT sleeping spinlocks, since 5.15 */
	if (state & TASK_RTLOCK_WAIT)
		return TIPME_TS_RTLOCK;
#endif
	if ((state & TASK_IDLE) == TASK_IDLE)
		return TIPME_TS_IDLE;
	if (state & TASK_UNINTERRUPTIBLE)
		return TIPME_TS_DISK;
	if (state & TASK_INTERRUPTIBLE)
		return TIPME_TS_SLEEPING;
	if (state & __TASK_STOPPED)
		return TIPME_TS_STOPPED;
	if (state & __TASK_TRACED)
		return TIPME_TS_TRACED;
	if (state & TASK_PARKED)
		return TIPME_TS_PARKED;
	if (state & EXIT_ZOMBIE)
		return TIPME_TS_ZOMBIE;
	if (state & (TASK_DEAD | EXIT_DEAD))
		return TIPME_TS_DEAD;
	return TIPME_TS_OTHER;
}

#endif /* TIPME_TASKSTATE_H */
