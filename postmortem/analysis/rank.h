/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stalls of a window ranked by how likely a person felt them
 * (rank.c), for pm_interval_choose() when no pid and no input says which
 * moment matters: the first is the interval tipme report analyses, the
 * next few are shown beside it as candidates.
 */
#ifndef TIPME_PM_RANK_H
#define TIPME_PM_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "../state/resources.h"
#include "../state/state.h"

/* How many candidates are kept (and shown). */
#define PM_RANK_MAX	3

/* struct pm_cand.why: the signals that placed a stall where it is */
#define PM_WHY_HINT	0x01	/* its process is named in the incident's description */
#define PM_WHY_INPUT	0x02	/* its process received input (X dump, kernel input) */
#define PM_WHY_XCLIENT	0x04	/* its process is a client of the X server (X dump) */
#define PM_WHY_WAITED	0x08	/* another task waited for it during the stall */
#define PM_WHY_CHAIN	0x10	/* ... and those waits lead back to @interactive */

/* struct pm_cand.tier, best last */
enum pm_tier {
	PM_TIER_NOBODY,		/* nobody waited for it */
	PM_TIER_BATCH,		/* waited for, but by no interactive thread */
	PM_TIER_INTERACTIVE,	/* interactive, or an interactive thread waited for it */
	PM_TIER_NAMED,		/* the description names it (or who waited for it) */
};

/**
 * struct pm_cand - one stall, and why it ranks where it does
 * @sp: the thread and its stall, cut to the window
 * @tier: enum pm_tier
 * @why: PM_WHY_*
 * @waiter: the first task found waiting for it (PM_WHY_WAITED), else 0
 * @interactive: the interactive (or named) thread its waiters lead back
 *	to (PM_WHY_CHAIN), else 0
 */
struct pm_cand {
	struct pm_span sp;
	int tier;
	unsigned int why;
	uint32_t waiter;
	uint32_t interactive;
};

/**
 * struct pm_rank - the best stalls of a window
 * @c: the best first (one per thread: its best stall)
 * @n: how many of @c are set
 * @nthreads: threads with a stall in the window
 * @from_ns: the window searched, CLOCK_MONOTONIC ns
 * @to_ns: its end
 * @have_x: the incident had an X dump (X clients and their input known)
 */
struct pm_rank {
	struct pm_cand c[PM_RANK_MAX];
	size_t n;
	size_t nthreads;
	int64_t from_ns;
	int64_t to_ns;
	int have_x;
};

/**
 * struct pm_rank_known - who received input, for a state built from part
 *			  of the records
 * @from_ns: the presses the state holds with everything around them
 *	that says who read them: from here (CLOCK_MONOTONIC ns) ...
 * @to_ns: ... to here
 * @tgid: the processes that read the others (a bounded build's caller
 *	finds them in builds around those presses: pm_press_readers())
 * @n: how many
 */
struct pm_rank_known {
	int64_t from_ns;
	int64_t to_ns;
	uint32_t *tgid;
	size_t n;
};

int pm_stall_rank(const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_res *res, int64_t from_ns, int64_t to_ns,
		  const char *hint, const struct pm_rank_known *known,
		  struct pm_rank *out);
int pm_hint_names(const char *hint, const char *comm);

#endif
