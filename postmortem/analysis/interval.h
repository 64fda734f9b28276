/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interval that matters in a dump (interval.c): the one the user
 * named, or the slowest input to the screen (with the incident's X dump),
 * or the slowest input the kernel saw, or the stall most likely felt.  tipme report
 * analyses it; tipme export marks it.
 */
#ifndef TIPME_PM_INTERVAL_H
#define TIPME_PM_INTERVAL_H

#include <stdint.h>

#include "../state/resources.h"
#include "../state/state.h"
#include "flip.h"
#include "rank.h"

enum pm_chosen_by {
	PM_BY_PID,		/* the user named the thread */
	PM_BY_INPUT,		/* the slowest key or button press */
	PM_BY_STALL,		/* the stall ranked first before the trigger (rank.h) */
	PM_BY_KERNEL_INPUT,	/* the slowest input the kernel saw (no X dump) */
	PM_BY_AUTO,		/* the press that fired the auto trigger */
};

/* Where an interval chosen by an input ends (struct pm_interval.end). */
enum pm_end {
	PM_END_NONE,		/* not chosen by an input */
	PM_END_READER_IDLE,	/* no X dump, no flip: the reader waited again */
	PM_END_FLIP,		/* the refresh that showed the compositor's flip */
	PM_END_CLIENT_DONE,	/* X: the client waited for input again */
	PM_END_X_DRAWN,		/* X: the server executed the client's drawing */
};

/*
 * Without a pid or input, how far before the trigger the stalls are
 * searched at least: a person presses the key seconds after the stall.
 */
#define PM_STALL_SEARCH_NS	10000000000LL

/**
 * struct pm_interval_ask - what the user asked for
 * @pid: the thread (0: let the dump say)
 * @from_ns: start (CLOCK_MONOTONIC ns), or -1 for the window before the
 *	trigger
 * @to_ns: end, with @from_ns
 * @window_ns: how far before the trigger (or the dump's end) to look
 * @press_ns: without @pid, the press an auto trigger fired on (its device
 *	event, CLOCK_MONOTONIC; meta.json), or 0
 * @hint: without @pid, the incident's description (a process it names
 *	ranks first among the stalls), or NULL
 * @search_ns: without @pid or input, how far before the trigger the
 *	stalls are searched (0: the 10 s default, or @window_ns if longer)
 * @margin_ns: with @pid and @from_ns, build the state from the records of
 *	[@from_ns - @margin_ns, @to_ns + @margin_ns] only
 *	(pm_state_res_build_range()); 0: from the whole dump
 * @bounded: without @margin_ns, build the state and resources from a
 *	checkpoint (pm_state_res_build_ckpt()) @lookback_ns before the
 *	interval (or before the window searched), to @lookback_ns after
 *	it (or to the dump's end), not from every record (cmd/interval.c)
 * @lookback_ns: with @bounded
 * @cover_from_ns: with @bounded and @cover_to_ns > @cover_from_ns, the
 *	build also reads [@cover_from_ns - @lookback_ns, @cover_to_ns +
 *	@lookback_ns]: what a picture of the interval draws beside it
 *	(tipme timeline's --from and --to, or its margin)
 * @cover_to_ns: with @cover_from_ns
 * @known: for a bounded build, who received input where it did not read
 *	all it needs to say so (cmd/interval.c), for pm_stall_rank(); NULL
 *	for a state of every record
 */
struct pm_interval_ask {
	uint32_t pid;
	int64_t from_ns;
	int64_t to_ns;
	int64_t window_ns;
	int64_t press_ns;
	const char *hint;
	int64_t search_ns;
	int64_t margin_ns;
	int bounded;
	int64_t lookback_ns;
	int64_t cover_from_ns;
	int64_t cover_to_ns;
	const struct pm_rank_known *known;
};

/**
 * struct pm_interval - the interval chosen
 * @pid: its thread
 * @from_ns: start, CLOCK_MONOTONIC ns (not before the dump's first record)
 * @to_ns: end
 * @chosen_by: enum pm_chosen_by
 * @display_ns: chosen by input with an X dump, where the client's part
 *	ended and the rest of the interval, up to its end, is the X
 *	server's executing its drawing (TIPME's input-to-display end): where
 *	the client was done; to a flip (@end PM_END_FLIP), where the X server
 *	had executed its drawing if that came first (the rest up to the
 *	server's commit or flip is the server's, then the compositor's); else 0
 * @rank: chosen by PM_BY_STALL, the stalls ranked (the first is this
 *	interval, from_ns not yet cut to the dump's first record); else
 *	rank.n is 0
 * @end: enum pm_end
 * @path: chosen by an input the kernel saw: its path (flip.h); with
 *	PM_END_FLIP, path.end is the flip @to_ns is the refresh of; chosen by
 *	the X dump's input with PM_END_FLIP: path.end (the X server's
 *	flip after the drawing) and path.compositor (the server) only, or,
 *	when the X server is the compositor's client (Xwayland; path.client
 *	is then a thread of it), the kernel's press's whole path, its commit
 *	the server's after the drawing (pm_kernel_press_via())
 */
struct pm_interval {
	uint32_t pid;
	int64_t from_ns;
	int64_t to_ns;
	int chosen_by;
	int64_t display_ns;
	struct pm_rank rank;
	int end;
	struct pm_press_path path;
};

int pm_interval_choose(const struct pm_incident *inc, const struct pm_state *st,
		       const struct pm_res *res,
		       const struct pm_interval_ask *ask, struct pm_interval *out);

#endif
