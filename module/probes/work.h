/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interrupt context of a record (probes/work.c): which softirq vector
 * or interrupt handler a wakeup or a queued work item came from.
 */
#ifndef TIPME_PROBES_WORK_H
#define TIPME_PROBES_WORK_H

#include <linux/types.h>

void tipme_intr_tell(u32 ctx);

#endif /* TIPME_PROBES_WORK_H */
