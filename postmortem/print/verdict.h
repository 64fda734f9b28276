/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict of tipme report (analysis/verdict.h) as text or JSON.
 */
#ifndef TIPME_PM_REPORT_VERDICT_H
#define TIPME_PM_REPORT_VERDICT_H

#include <stdio.h>

#include "../analysis/verdict.h"
#include "../analysis/xprof.h"

void pm_verdict_print(FILE *f, const struct pm_incident *inc, const struct pm_state *st,
		      const struct pm_verdict *r, const char *name,
		      const struct pm_xprof *xp, int json);

#endif
