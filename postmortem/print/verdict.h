/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict of tipme report (analysis/verdict.h) as text or JSON.
 */
#ifndef TIPME_PM_REPORT_VERDICT_H
#define TIPME_PM_REPORT_VERDICT_H

#include <stdio.h>

#include "../analysis/rank.h"
#include "../analysis/verdict.h"
#include "../analysis/xprof.h"

/**
 * struct pm_verdict_extra - what tipme report shows beside the verdict
 * @desc: the incident's description (the user's words), or NULL
 * @rank: chosen by a stall: the stalls ranked (rank->c[0] is the
 *	verdict's interval), else NULL
 * @cand: the verdict on each of @rank's candidates, in its order
 *	(cand[0] is the report's own)
 */
struct pm_verdict_extra {
	const char *desc;
	const struct pm_rank *rank;
	const struct pm_verdict *cand[PM_RANK_MAX];
};

void pm_verdict_print(FILE *f, const struct pm_incident *inc, const struct pm_state *st,
		      const struct pm_verdict *r, const char *name,
		      const struct pm_xprof *xp, const struct pm_verdict_extra *ex,
		      int json);

#endif
