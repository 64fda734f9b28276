/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipme legs' output (legs.c): per owner and for all, count, total, mean,
 * p50, p99 and max; a histogram with an overflow bucket, as text, JSON or
 * SVG.
 */
#ifndef TIPME_PM_REPORT_LEGS_H
#define TIPME_PM_REPORT_LEGS_H

#include <stdio.h>

#include "../analysis/legs.h"
#include "hist.h"
#include "json.h"

enum pm_legs_by { PM_LEGS_BY_PID, PM_LEGS_BY_COMM, PM_LEGS_BY_ALL };

/**
 * struct pm_legs_view - how to show legs
 * @from: enum pm_leg_event
 * @to: enum pm_leg_event
 * @by: enum pm_legs_by
 * @log2: log2 histogram buckets, else linear ones of @width_ns
 * @width_ns: linear bucket width
 * @buckets: buckets before the overflow
 * @top: owners listed (the others are summed in "all")
 */
struct pm_legs_view {
	int from, to, by, log2;
	uint64_t width_ns;
	size_t buckets, top;
};

int pm_legs_print(FILE *f, const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_legs *l, const struct pm_legs_view *v, int json);
int pm_legs_svg(FILE *f, const struct pm_legs *l, const struct pm_legs_view *v,
		const char *title);

#endif
