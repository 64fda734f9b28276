/* SPDX-License-Identifier: GPL-2.0 */
/* A latency result (analysis/latency.h) as a table or one JSON object. */
#ifndef TIPME_PM_REPORT_LATENCY_H
#define TIPME_PM_REPORT_LATENCY_H

#include <stdio.h>

#include "../analysis/flip.h"
#include "../analysis/latency.h"
#include "json.h"

/**
 * pm_latency_print() - one line per press, then the slowest's why command
 * @f: output
 * @inc: the incident
 * @l: the result
 * @path: the incident, for the suggested command
 * @min_ns: handled and unfinished presses faster than this are left out
 */
void pm_latency_print(FILE *f, const struct pm_incident *inc,
		      const struct pm_latency *l, const char *path,
		      int64_t min_ns);

/**
 * pm_latency_json() - the result as one JSON object
 * @j: JSON writer
 * @inc: the incident
 * @l: the result
 * @min_ns: as for pm_latency_print()
 */
void pm_latency_json(struct tm_jw *j, const struct pm_incident *inc,
		     const struct pm_latency *l, int64_t min_ns);

/**
 * pm_presses_print() - without an X dump: one line per press the kernel
 *			saw, then its stages to the flip, each with its thread
 * @f: output
 * @inc: the incident
 * @p: the presses (pm_kernel_presses())
 * @n: how many
 * @path: the incident, for the suggested command
 * @min_ns: presses faster than this are left out
 */
void pm_presses_print(FILE *f, const struct pm_incident *inc,
		      const struct pm_press_path *p, size_t n, const char *path,
		      int64_t min_ns);

/**
 * pm_presses_json() - the same as one JSON object
 * @j: JSON writer
 * @inc: the incident
 * @p: the presses
 * @n: how many
 * @min_ns: as for pm_presses_print()
 */
void pm_presses_json(struct tm_jw *j, const struct pm_incident *inc,
		     const struct pm_press_path *p, size_t n, int64_t min_ns);

#endif
