/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a stall is (stall.c), for the ranking of a window's stalls
 * (rank.h) when nothing else says which moment matters: which stretch of
 * a thread is one, and whose waits are for one's own descendants or for a
 * job another task handed over.
 */
#ifndef TIPME_PM_STALL_H
#define TIPME_PM_STALL_H

#include <stdint.h>

#include "../state/state.h"

int pm_descends(const struct pm_dump *pm, uint32_t pid, uint32_t tgid,
		int64_t ns);
int pm_seg_job_wait(const struct pm_incident *inc, const struct pm_state *st,
		    uint32_t pid, const struct pm_seg *s);
int pm_seg_stall(const struct pm_incident *inc, const struct pm_state *st,
		 uint32_t pid, const struct pm_seg *s);

#endif
