/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TIPME's timeline as SVG (timeline.c): one lane per CPU (who ran there,
 * coloured per process), one lane per chosen thread (running, waiting for
 * a CPU, or blocked coloured by what it waited for, as tipme report names
 * it), its priority as a line, fork/exec/exit marks, wakeups between the
 * lanes as arrows, input on top, the verdict's interval highlighted.
 */
#ifndef TIPME_PM_REPORT_TIMELINE_H
#define TIPME_PM_REPORT_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../analysis/verdict.h"
#include "../state/resources.h"
#include "../state/state.h"

struct tm_xdump;

/**
 * struct pm_timeline_in - what the picture shows
 * @pm: the dump
 * @st: its state
 * @res: its resources
 * @verdict: tipme report's analysis of the interval that matters, or NULL
 * @pids: the threads to give lanes, in order
 * @npids: how many
 * @from_ns: start of the time shown (CLOCK_MONOTONIC ns)
 * @to_ns: its end
 * @title: the figure's title (the dump's name)
 */
struct pm_timeline_in {
	const struct pm_incident *inc;
	const struct pm_state *st;
	const struct pm_res *res;
	const struct pm_verdict *verdict;
	const uint32_t *pids;
	size_t npids;
	int64_t from_ns;
	int64_t to_ns;
	const char *title;
};

/**
 * struct pm_timeline_stats - what was drawn
 * @cpus: CPU lanes
 * @lanes: thread lanes
 * @stretches: rectangles for stretches
 * @wakeups: arrows
 * @marks: the X dump's marks (Ctrl-Alt-Plus) drawn
 */
struct pm_timeline_stats {
	size_t cpus, lanes, stretches, wakeups, marks;
};

int pm_timeline_svg(FILE *f, const struct pm_timeline_in *in,
		    struct pm_timeline_stats *stats);
size_t pm_timeline_default_pids(const struct pm_verdict *r, uint32_t *pids,
				size_t max);

#endif
