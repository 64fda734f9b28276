/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot functions of a thread's computing (analysis/hot.h) as text and
 * JSON, for the printers of report and why.
 */
#ifndef TIPME_PM_PRINT_HOT_H
#define TIPME_PM_PRINT_HOT_H

#include <stdio.h>

#include "../analysis/hot.h"
#include "json.h"

/**
 * pm_hot_print() - "PID (COMM) computing: N profiler samples ..." and a
 *	line per function: its samples, share, source file and callers
 * @f: output
 * @h: the hot functions (@h->samples > 0)
 * @comm: the thread's name
 * @indent: spaces before each line
 */
void pm_hot_print(FILE *f, const struct pm_hot *h, const char *comm, int indent);

/**
 * pm_hot_json() - the same as one JSON object (Documentation/report.md,
 *	HOT)
 * @w: JSON writer, where a value goes
 * @h: the hot functions
 * @comm: the thread's name
 */
void pm_hot_json(struct tm_jw *w, const struct pm_hot *h, const char *comm);

#endif
