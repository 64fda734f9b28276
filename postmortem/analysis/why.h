/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a thread's time went in an interval, and whom it waited for: the
 * interval's time by class, and the long stretches with the threads that
 * held the CPU (runnable) or the waker's own time meanwhile (blocked).
 * Pure: rebuilt state in, a struct pm_why out; print/why.h prints it.
 */
#ifndef TIPME_PM_ANALYSIS_WHY_H
#define TIPME_PM_ANALYSIS_WHY_H

#include <stddef.h>
#include <stdint.h>

#include "../state/state.h"
#include "hot.h"

enum pm_why_class {
	PM_WHY_RUN,
	PM_WHY_WOKEN,		/* runnable after a wakeup */
	PM_WHY_PREEMPTED,	/* runnable after preemption */
	PM_WHY_SLEEP,		/* blocked, S */
	PM_WHY_DISK,		/* blocked, D (or idle) */
	PM_WHY_OTHER,		/* blocked, stopped or other */
	PM_WHY_EXITED,
	PM_WHY_UNKNOWN,		/* no record tells (before, or a gap) */
	PM_WHY_NR
};

#define PM_WHY_HOLDERS	3

/**
 * struct pm_why_holder - a thread that ran on a CPU a stretch waited for
 * @pid: the thread (0: idle or interrupts)
 * @ns: how long it ran there during the stretch
 */
struct pm_why_holder {
	uint32_t pid;
	int64_t ns;
};

struct pm_why;

/**
 * struct pm_why_stretch - a long runnable or blocked stretch
 * @seg: the stretch (its CPU, blocking site, waker)
 * @cls: enum pm_why_class
 * @start_ns: where it starts inside the interval, CLOCK_MONOTONIC
 * @ns: how much of it lies inside the interval
 * @holders: runnable: the threads that ran on its CPU meanwhile, most first
 * @nholders: entries in @holders
 * @waker: blocked and woken by another task: the waker's own time during
 *         the stretch (one level less deep), or NULL
 */
struct pm_why_stretch {
	const struct pm_seg *seg;
	int cls;
	int64_t start_ns;
	int64_t ns;
	struct pm_why_holder holders[PM_WHY_HOLDERS];
	size_t nholders;
	struct pm_why *waker;
};

/**
 * struct pm_why - one thread's time in an interval
 * @pid: the thread
 * @thread: its stretches, NULL if no scheduler record names it
 * @t0: interval start, CLOCK_MONOTONIC ns
 * @t1: interval end
 * @ns: time per enum pm_why_class; PM_WHY_UNKNOWN is what the others leave
 * @known: time in the classes other than PM_WHY_UNKNOWN
 * @stretches: runnable and blocked stretches of at least the minimum, in
 *             time order
 * @nstretches: entries in @stretches
 * @hot: the hot functions of its running stretches in the interval, from
 *	the profiler's samples (@hot.samples 0: none)
 */
struct pm_why {
	uint32_t pid;
	const struct pm_thread *thread;
	int64_t t0, t1;
	int64_t ns[PM_WHY_NR];
	int64_t known;
	struct pm_why_stretch *stretches;
	size_t nstretches;
	struct pm_hot hot;
};

/**
 * pm_why_analyse() - where @pid's time went in [@t0, @t1]
 * @inc: the incident
 * @st: the rebuilt state
 * @pid: the thread
 * @t0: interval start, CLOCK_MONOTONIC ns
 * @t1: interval end
 * @min_ns: stretches shorter than this inside the interval are not listed
 * @depth: how many levels of wakers to analyse in turn
 * @out: the result; release with pm_why_free()
 *
 * Return: 0 or -ENOMEM.
 */
int pm_why_analyse(const struct pm_incident *inc, const struct pm_state *st,
		   uint32_t pid, int64_t t0, int64_t t1, int64_t min_ns,
		   int depth, struct pm_why **out);

/**
 * pm_why_free() - release a result and the wakers' results in it
 * @w: the result, or NULL
 */
void pm_why_free(struct pm_why *w);

#endif
