/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the exec table's strings in process context, for exec.c: the
 * queue the exec probe fills, the work item that empties it, and the
 * snapshot's reads at load.
 */
#ifndef TIPME_EXEC_STRINGS_H
#define TIPME_EXEC_STRINGS_H

#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/types.h>
#include "instr/exectab.h"

int tipme_exec_strings_init(struct tipme_xt *table, unsigned int argv_bytes,
			    unsigned int env_bytes, bool env);
void tipme_exec_strings_exit(void);
bool tipme_exec_strings_queue(struct tipme_xt_ent *e, struct mm_struct *mm);
void tipme_exec_strings_kick(void);
void tipme_exec_strings_snapshot(struct task_struct *p, s32 idx, u32 id);

#endif /* TIPME_EXEC_STRINGS_H */
