/* SPDX-License-Identifier: GPL-2.0 */
/* Where a blocked stretch (state/state.h) went to sleep, as text or JSON. */
#ifndef TIPME_PM_REPORT_SITE_H
#define TIPME_PM_REPORT_SITE_H

#include <stdio.h>

#include "../state/state.h"
#include "json.h"

/**
 * pm_print_seg_site() - " in f <- g <- h": where a blocked stretch slept
 * @f: output
 * @pm: the dump (its symbols)
 * @s: the stretch
 *
 * Function names only, innermost first; nothing for a stretch without a
 * site.  A stretch with a user-space chain gets it after the site:
 * " [user: app+0x1234 <- libc.so.6+0x2a1f0]" (pm_print_ustack()).
 */
void pm_print_seg_site(FILE *f, const struct pm_dump *pm,
		       const struct pm_seg *s);

/**
 * pm_json_seg_site() - the same as a "site" member: an array of names,
 * and "user_stack" and "user_stack_truncated" for a stretch with a user
 * chain (pm_json_ustack())
 * @w: JSON writer, inside an object
 * @pm: the dump
 * @s: the stretch
 */
void pm_json_seg_site(struct tm_jw *w, const struct pm_dump *pm,
		      const struct pm_seg *s);

#endif
