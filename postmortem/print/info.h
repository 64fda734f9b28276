/* SPDX-License-Identifier: GPL-2.0 */
/* The summary of a dump (analysis/info.h) as text or one JSON object. */
#ifndef TIPME_PM_REPORT_INFO_H
#define TIPME_PM_REPORT_INFO_H

#include <stdio.h>

#include "../analysis/info.h"

/**
 * pm_info_text() - the summary as text
 * @f: output
 * @in: the summary
 */
void pm_info_text(FILE *f, const struct pm_info *in);

/**
 * pm_info_json() - the summary as one JSON object and a newline
 * @f: output
 * @in: the summary
 */
void pm_info_json(FILE *f, const struct pm_info *in);

#endif
