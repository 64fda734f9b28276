/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The on-CPU profiler's records (prof.c), written from its timers
 * (instr/profile.c).
 */
#ifndef TIPME_PROBES_PROF_H
#define TIPME_PROBES_PROF_H

#include <linux/types.h>

void tipme_prof_record(u64 t0);
void tipme_prof_rate(u32 hz);

#endif /* TIPME_PROBES_PROF_H */
