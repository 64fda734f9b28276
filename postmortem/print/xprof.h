/* SPDX-License-Identifier: GPL-2.0 */
/* Printers of the X server tables (analysis/xprof.h): text and JSON. */
#ifndef TIPME_PM_REPORT_XPROF_H
#define TIPME_PM_REPORT_XPROF_H

#include <stdio.h>

#include "json.h"
#include "../analysis/xprof.h"

void pm_xprof_text(FILE *f, const struct pm_xprof *p);
void pm_xprof_json(struct tm_jw *w, const struct pm_xprof *p);

#endif
