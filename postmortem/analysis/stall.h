/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The longest stall of any thread in a window (stall.c), for
 * pm_interval_choose() when nothing else says which moment matters.
 */
#ifndef TIPME_PM_STALL_H
#define TIPME_PM_STALL_H

#include <stdint.h>

#include "../state/state.h"

int pm_longest_stall(const struct pm_incident *inc, const struct pm_state *st,
		     int64_t from_ns, int64_t to_ns, struct pm_span *out);

#endif
