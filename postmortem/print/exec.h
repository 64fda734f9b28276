/* SPDX-License-Identifier: GPL-2.0 */
/* The exec table (dump/tables.h) as text or JSON. */
#ifndef TIPME_PM_REPORT_EXEC_H
#define TIPME_PM_REPORT_EXEC_H

#include <stdio.h>

#include "../dump/tables.h"
#include "json.h"

/**
 * pm_exec_summary_print() - two lines on the exec table: entries, capacity,
 * losses (or that the dump has none)
 * @f: output
 * @pm: the dump
 */
void pm_exec_summary_print(FILE *f, const struct pm_dump *pm);

/**
 * pm_exec_table_json() - an "exec_table" member: its header, and entries
 * @w: JSON writer, inside an object
 * @pm: the dump
 * @entries: also an "entries" array with every entry
 */
void pm_exec_table_json(struct tm_jw *w, const struct pm_dump *pm, int entries);

/**
 * pm_exec_list_print() - `tipme ps`'s table, one line per entry
 * @f: output
 * @pm: the dump; it has an exec table
 * @threads: also the threads (pid != tgid)
 */
void pm_exec_list_print(FILE *f, const struct pm_dump *pm, int threads);

#endif
