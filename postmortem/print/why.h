/* SPDX-License-Identifier: GPL-2.0 */
/* A why result (analysis/why.h) as text or as one JSON object. */
#ifndef TIPME_PM_REPORT_WHY_H
#define TIPME_PM_REPORT_WHY_H

#include <stdio.h>

#include "../analysis/why.h"
#include "json.h"

/**
 * pm_why_print() - the result as text: a header line, the time per class,
 * the long stretches, the wakers' time indented under them
 * @f: output
 * @inc: the incident
 * @st: the state the result was computed from
 * @w: the result
 * @at_trigger: the interval ends at the dump's trigger
 */
void pm_why_print(FILE *f, const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_why *w, int at_trigger);

/**
 * pm_why_json() - the result as one JSON object
 * @j: JSON writer
 * @inc: the incident
 * @st: the state
 * @w: the result
 * @at_trigger: the interval ends at the dump's trigger
 */
void pm_why_json(struct tm_jw *j, const struct pm_incident *inc,
		 const struct pm_state *st, const struct pm_why *w,
		 int at_trigger);

#endif
