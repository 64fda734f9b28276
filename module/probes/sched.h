/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the scheduler probes (sched.c) know that other writers of the same
 * ring use for their compact forms.
 */
#ifndef TIPME_PROBES_SCHED_H
#define TIPME_PROBES_SCHED_H

#include <linux/types.h>

bool tipme_ring_current_is(u32 pid);

#endif /* TIPME_PROBES_SCHED_H */
