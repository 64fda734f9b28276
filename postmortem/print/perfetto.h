/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A dump as one trace that ui.perfetto.dev and chrome://tracing open
 * (perfetto.c): Chrome's JSON trace event format, the scheduler records
 * as ftrace text in "systemTraceEvents" (the viewers draw CPU tracks and
 * thread states from them) and the rest as trace events: lock waits,
 * reclaim and block requests from the state library, input, the trigger,
 * the on-CPU profiler's samples with their chains, the verdict's interval
 * and chain, and the X server's requests per client from the incident's X
 * dump.
 */
#ifndef TIPME_PM_REPORT_PERFETTO_H
#define TIPME_PM_REPORT_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include "../analysis/verdict.h"
#include "../state/resources.h"
#include "../state/state.h"

struct tm_xdump;

/**
 * struct pm_perfetto_in - what goes into the trace
 * @inc: the incident (its kernel dump and X dump)
 * @st: its state
 * @res: its resources
 * @verdict: tipme report's analysis of the interval that matters, or NULL
 * @range: 0: the whole dump; 1: only what happened in [@from_ns, @to_ns]
 *	(the records in it, the slices that begin in it: @st and @res need
 *	know that range and the ends of those slices)
 * @from_ns: with @range, CLOCK_MONOTONIC ns
 * @to_ns: with @range, the end, included
 */
struct pm_perfetto_in {
	const struct pm_incident *inc;
	const struct pm_state *st;
	const struct pm_res *res;
	const struct pm_verdict *verdict;
	int range;
	int64_t from_ns;
	int64_t to_ns;
};

/**
 * struct pm_perfetto_stats - what was written
 * @ftrace_lines: lines of ftrace text (sched_switch, sched_waking,
 *	sched_blocked_reason)
 * @events: trace events
 */
struct pm_perfetto_stats {
	uint64_t ftrace_lines;
	uint64_t events;
};

int pm_perfetto_write(FILE *f, const struct pm_perfetto_in *in,
		      struct pm_perfetto_stats *stats, struct tm_err *e);

#endif
