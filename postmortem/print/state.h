/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rebuilt state (state/state.h) and the resource waits
 * (state/resources.h) as plain text, every field of every stretch, loss
 * and wait in a fixed order: a debugging aid and the golden form the unit
 * tests compare (tests/unit/golden/state-*.txt).
 */
#ifndef TIPME_PM_PRINT_STATE_H
#define TIPME_PM_PRINT_STATE_H

#include <stdio.h>

#include "../state/resources.h"
#include "../state/state.h"

/**
 * pm_state_print() - every thread's stretches and the losses, as text
 * @f: output
 * @pm: the dump (the names of blocking sites)
 * @st: the state
 *
 * One line per loss, then per thread a header and one line per stretch;
 * times are CLOCK_MONOTONIC ns, as integers.
 */
void pm_state_print(FILE *f, const struct pm_dump *pm,
		    const struct pm_state *st);

/**
 * pm_res_print() - every resource wait, as text
 * @f: output
 * @r: the resources
 *
 * One line per lock wait, reclaim, block request, wakeup, input event
 * and sampled policy, each kind in the order of its array.
 */
void pm_res_print(FILE *f, const struct pm_res *r);

#endif
