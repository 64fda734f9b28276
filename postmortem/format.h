/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Presentation of single events, shared by the commands: one text line in
 * the spirit of TIPME's and ftrace's output, or one JSON object; and where
 * a blocked stretch slept.  Task and value names are in names.h.
 */
#ifndef TIPME_PM_FORMAT_H
#define TIPME_PM_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "decode.h"
#include "json.h"
#include "names.h"


struct pm_seg;

/**
 * pm_print_seg_site() - " in f <- g <- h": where a blocked stretch slept
 * @f: output
 * @pm: the dump (its symbols)
 * @s: the stretch (struct pm_seg, state.h)
 *
 * Function names only, innermost first; nothing for a stretch without a
 * site.
 */
void pm_print_seg_site(FILE *f, const struct pm_dump *pm,
		       const struct pm_seg *s);

/**
 * pm_json_seg_site() - the same as a "site" member: an array of names
 * @w: JSON writer, inside an object
 * @pm: the dump
 * @s: the stretch
 */
void pm_json_seg_site(struct jw *w, const struct pm_dump *pm,
		      const struct pm_seg *s);


/**
 * pm_print_event() - one text line for an event
 * @f: output
 * @pm: the dump
 * @ev: the event
 *
 * "  1234.567890123 [001] sched_switch prev=207 (S, prio 120) -> next=0 (prio 120)"
 */
void pm_print_event(FILE *f, const struct pm_dump *pm,
		    const struct pm_event *ev);

/**
 * pm_json_event() - one JSON object for an event
 * @w: JSON writer
 * @pm: the dump
 * @ev: the event
 */
void pm_json_event(struct jw *w, const struct pm_dump *pm,
		   const struct pm_event *ev);





#endif
