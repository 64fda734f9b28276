/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipme legs (legs.c): the time between two kinds of event, per owner.
 * Each event of the first kind opens a leg for its key (a thread, a block
 * request, or the whole machine); the next event of the second kind with
 * the same key closes it.  While a leg is open, further events of the first
 * kind for its key do not restart it (scheduling delay counts from the
 * first wakeup).
 */
#ifndef TIPME_PM_LEGS_H
#define TIPME_PM_LEGS_H

#include <stddef.h>
#include <stdint.h>

#include "../state/resources.h"
#include "../state/state.h"

struct tm_xdump;

enum pm_leg_event {
	PM_LEG_WAKING,		/* sched_waking of a thread */
	PM_LEG_SWITCH_IN,	/* a thread put on a CPU */
	PM_LEG_SWITCH_OUT,	/* a thread taken off a CPU (any state) */
	PM_LEG_SLEEP,		/* a thread taken off a CPU to sleep (not preempted) */
	PM_LEG_BLK_INSERT,	/* a block request queued */
	PM_LEG_BLK_ISSUE,	/* ... handed to the driver */
	PM_LEG_BLK_COMPLETE,	/* ... completed */
	PM_LEG_LOCK_BEGIN,	/* a thread starts waiting for a lock */
	PM_LEG_LOCK_END,	/* ... stops waiting */
	PM_LEG_RECLAIM_BEGIN,	/* a thread starts reclaiming memory */
	PM_LEG_RECLAIM_END,
	PM_LEG_INPUT,		/* a key or button press the kernel saw */
	PM_LEG_X_PRESS,		/* a key or button press in the X server */
	PM_LEG_X_IDLE,		/* the X server back to waiting for clients */
	PM_LEG_NR,
};

extern const char *const pm_leg_event_name[PM_LEG_NR];
int pm_leg_event_parse(const char *s);

/**
 * struct pm_leg - one leg
 * @owner: the thread the leg belongs to (0: the whole machine)
 * @start_ns: its start, CLOCK_MONOTONIC ns
 * @ns: its length
 */
struct pm_leg {
	uint32_t owner;
	int64_t start_ns;
	uint64_t ns;
};

/**
 * struct pm_legs - every leg of a dump
 * @legs: in the order they closed
 * @n: how many
 * @unclosed: legs still open at the dump's end (not in @legs)
 */
struct pm_legs {
	struct pm_leg *legs;
	size_t n;
	size_t unclosed;
};

int pm_legs_find(const struct pm_incident *inc, const struct pm_state *st,
		 const struct pm_res *res, int from,
		 int to, int64_t from_ns, int64_t to_ns, struct pm_legs *out,
		 struct tm_err *e);

/**
 * pm_legs_bounded() - whether pm_legs_find_ckpt() takes two kinds
 * @from: enum pm_leg_event
 * @to: enum pm_leg_event
 *
 * Return: 1 when each is a scheduler event (waking, switch-in,
 * switch-out, sleep), input or x-press (the events the checkpoints keep
 * the last before and the first after them of); else 0 (block, lock and
 * reclaim events, x-idle: pm_legs_find() on the whole dump's state).
 */
int pm_legs_bounded(int from, int to);

struct pm_ckpts;

int pm_legs_find_ckpt(const struct pm_incident *inc, const struct pm_ckpts *ck, int from,
		      int to, int64_t from_ns, int64_t to_ns, struct pm_legs *out,
		      struct tm_err *e);
void pm_legs_free(struct pm_legs *l);

#endif
