/* SPDX-License-Identifier: GPL-2.0 */
/* The recorder's own cost (analysis/cost.h) as text lines or JSON members. */
#ifndef TIPME_PM_REPORT_COST_H
#define TIPME_PM_REPORT_COST_H

#include <stdio.h>

#include "../analysis/cost.h"
#include "json.h"

/**
 * pm_cost_print() - Mesa PerfTool's lines for a struct pm_cost
 * @f: output
 * @pm: the dump
 * @c: the cost
 * @indent: spaces before each line
 */
void pm_cost_print(FILE *f, const struct pm_dump *pm, const struct pm_cost *c,
		   int indent);

/**
 * pm_cost_json() - a struct pm_cost as JSON members
 * @w: JSON writer, inside an object
 * @pm: the dump
 * @c: the cost
 */
void pm_cost_json(struct tm_jw *w, const struct pm_dump *pm,
		  const struct pm_cost *c);

#endif
