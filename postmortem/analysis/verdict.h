/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict of tipme report (verdict.c): the analysis takes the
 * rebuilt state (state.h) and the resource waits (resources.h) of a dump
 * and an interval of one thread, follows who it waited for down to the
 * leaves, and charges every nanosecond of the interval to one cause.  It
 * returns a struct pm_report; report/verdict.c prints it as text or JSON.
 */
#ifndef TIPME_PM_VERDICT_H
#define TIPME_PM_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "../dump/pm.h"
#include "../state/resources.h"
#include "../state/state.h"

enum pm_cause {
	PM_C_RUNNING,		/* a task on the chain computing */
	PM_C_CPU,		/* runnable while another task held the CPU */
	PM_C_BLOCK_IO,		/* waiting for a block device */
	PM_C_LOCK,		/* waiting for a lock's holder */
	PM_C_MEMORY,		/* reclaiming memory */
	PM_C_TIMER,		/* a sleep that a timer ended */
	PM_C_STOPPED,		/* stopped (SIGSTOP, ptrace, freezer) */
	PM_C_X_SERVER,		/* the X server busy for another client */
	PM_C_UNKNOWN,		/* what the dump cannot explain */
	PM_C_NR,
};

/* The verdict's JSON names, in enum pm_cause order (a documented contract). */
extern const char *const pm_cause_key[PM_C_NR];

#define PM_RES_LEN	80

/**
 * struct pm_cause_item - time charged to one (cause, culprit, resource)
 * @cause: enum pm_cause
 * @culprit: the task to blame, 0 if none
 * @resource: what was waited for ("cpu 1", "block device 254:0",
 *            "mutex 0xffff...", a sleep's site), "" if nothing
 * @ns: time charged
 * @nreq: block_io: requests; memory: reclaim stretches
 * @req_ns: block_io: their summed issue-to-completion time (the device's)
 * @nqueued: block_io: how many of them were queued before issue (an
 *	insert record; the others went to the driver directly)
 * @queue_ns: block_io: their summed insert-to-issue time
 * @pages: memory: pages reclaimed
 * @prio: cpu_contention: the culprit's kernel priority when it ran (-1:
 *        not recorded)
 * @policy: cpu_contention: the culprit's scheduling policy, as the
 *	sampler saw it (SCHED_NORMAL 0 .. SCHED_DEADLINE 6; -1: not seen)
 * @other: stopped: who continued it; lock: the waiter; x_server: the X
 *	server; 0 if none
 */
struct pm_cause_item {
	int cause;
	uint32_t culprit;
	char resource[PM_RES_LEN];
	int64_t ns;
	uint32_t nreq;
	int64_t req_ns;
	uint32_t nqueued;
	int64_t queue_ns;
	uint64_t pages;
	int prio;
	int policy;
	uint32_t other;
};

/**
 * struct pm_chain_step - one wait on the chain, and what it waited for
 * @parent: index of the step whose waker this is, -1 for the interval's
 *          own thread
 * @pid: the waiting thread
 * @from_ns: start of the wait inside its interval (CLOCK_MONOTONIC)
 * @to_ns: its end
 * @cause: the cause it was charged to, or what led on (the waker's
 *         causes are its children)
 * @seg: the stretch (its site)
 * @waker: who ended it (-1: not woken in the interval)
 * @waker_ctx: enum tipme_ctx of that wakeup
 * @followed: the waker's time was analysed in turn (it has children)
 */
struct pm_chain_step {
	int parent;
	uint32_t pid;
	int64_t from_ns;
	int64_t to_ns;
	int cause;
	const struct pm_seg *seg;
	int64_t waker;
	int waker_ctx;
	int followed;
};

enum pm_chosen_by {
	PM_BY_PID,		/* the user named the thread */
	PM_BY_INPUT,		/* the slowest key or button press */
	PM_BY_STALL,		/* the longest stall before the trigger */
	PM_BY_KERNEL_INPUT,	/* the slowest input the kernel saw (no X dump) */
	PM_BY_AUTO,		/* the press that fired the auto trigger */
};

/**
 * struct pm_report - the analysis of one interval
 * @pid: the thread the interval belongs to
 * @from_ns: its start, CLOCK_MONOTONIC ns
 * @to_ns: its end
 * @chosen_by: enum pm_chosen_by
 * @items: causes, by time charged, largest first
 * @nitems: how many
 * @unknown_ns: time charged to nothing known (also an item)
 * @chain: the waits followed, in the order found
 * @nchain: how many
 * @lost: the dump has gaps (lost sub-buffers)
 * @display_ns: 0, or where the client was done and the X server's drawing
 *	for it began (the rest of the interval is the server's)
 */
struct pm_report {
	uint32_t pid;
	int64_t from_ns;
	int64_t to_ns;
	int chosen_by;
	struct pm_cause_item *items;
	size_t nitems;
	int64_t unknown_ns;
	struct pm_chain_step *chain;
	size_t nchain;
	int lost;
	int64_t display_ns;
};

struct xdump;

/**
 * struct pm_report_x - what the incident's X dump adds to an interval
 * @x: the X dump
 * @display_ns: 0, or where the client was done with an input and the rest
 *	of the interval, up to its end, is the X server's executing its
 *	drawing (TIPME's input-to-display end)
 */
struct pm_report_x {
	const struct xdump *x;
	int64_t display_ns;
};

int pm_report_analyse(struct pm_report *r, const struct pm_incident *inc,
		      const struct pm_state *st, const struct pm_res *res,
		      const struct pm_report_x *xin, uint32_t pid,
		      int64_t from_ns, int64_t to_ns, struct tm_err *e);
int pm_report_longest_stall(const struct pm_incident *inc, const struct pm_state *st,
			    int64_t from_ns, int64_t to_ns, uint32_t *pid,
			    int64_t *a, int64_t *b);
int pm_report_kernel_input(const struct pm_incident *inc, const struct pm_state *st,
			   const struct pm_res *res, int64_t from_ns,
			   int64_t to_ns, int64_t press_ns, uint32_t *pid,
			   int64_t *a, int64_t *b);
void pm_report_free(struct pm_report *r);
int pm_seg_idle(const struct pm_incident *inc, const struct pm_seg *s);
int pm_seg_cause(const struct pm_incident *inc, const struct pm_res *res,
		 uint32_t pid, const struct pm_seg *s, uint32_t xserver);

#endif
