/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keeping the exec table up to date: what the lifecycle probes call, the
 * work item that reads argv in process context, the snapshot of the tasks
 * that existed at load, and reading the table out for a dump.
 */
#ifndef TIPME_EXEC_H
#define TIPME_EXEC_H

#include <linux/sched.h>
#include <linux/types.h>
#include <linux/tipme.h>

int tipme_exec_init(void);
void tipme_exec_snapshot(void);
void tipme_exec_exit(void);

void tipme_exec_on_fork(struct task_struct *child, unsigned long clone_flags);
u32 tipme_exec_on_exec(struct task_struct *p, pid_t old_pid);
void tipme_exec_on_exit(struct task_struct *p, bool group_dead);
void tipme_exec_on_comm(struct task_struct *p, const char *comm);

bool tipme_exec_env_capture(void);
void tipme_exec_header(struct tipme_exectab_hdr *h);
u64 tipme_exec_retention_ns(void);
size_t tipme_exec_read(u32 *pos, void *buf, size_t size, bool *done);
u32 tipme_exec_entry_max(void);
int tipme_exec_params_text(char *buf, size_t size);

#endif /* TIPME_EXEC_H */
