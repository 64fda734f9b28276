/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instrumentation beyond the scheduler probes: process lifecycle and the
 * exec table, block I/O, lock contention, memory pressure, the sampler,
 * blocking sites and the recorder's own cost.  main.c sets it up and tears
 * it down; the dump asks it for its parameters.
 */
#ifndef TIPME_INSTR_SETUP_H
#define TIPME_INSTR_SETUP_H

#include <linux/types.h>

int tipme_instr_init(void);
void tipme_instr_exit(void);
int tipme_instr_params_text(char *buf, size_t size);

#endif /* TIPME_INSTR_SETUP_H */
