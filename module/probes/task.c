// SPDX-License-Identifier: GPL-2.0
/*
 * Process lifecycle probes: task_newtask and task_rename (task family),
 * sched_process_exec and sched_process_exit (sched family).  Each writes
 * its record and keeps the exec table up to date.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <trace/events/sched.h>
#include <trace/events/task.h>
#include "compat.h"
#include "recorder.h"
#include "instr/cost.h"
#include "instr/exec.h"
#include "probes/tracepoints.h"

static void probe_task_newtask(void *data, struct task_struct *task,
			       tipme_clone_flags_t clone_flags)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_fork *r;
	struct tipme_wslot ws;

	tipme_exec_on_fork(task, clone_flags);
	r = tipme_reserve(TIPME_REC_FORK, sizeof(*r), &ws);
	if (!r)
		return;
	r->parent_pid = current->pid;
	r->parent_tgid = current->tgid;
	r->child_pid = task->pid;
	r->child_tgid = task->tgid;
	r->clone_flags_lo = (u32)clone_flags;
	r->clone_flags_hi = (u32)((u64)clone_flags >> 32);
	tipme_commit(&ws, TIPME_REC_FORK);
	tipme_cost_add(TIPME_REC_FORK, t0);
}

static void probe_sched_process_exec(void *data, struct task_struct *p,
				     pid_t old_pid, struct linux_binprm *bprm)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_exec *r;
	struct tipme_wslot ws;
	u32 id;

	id = tipme_exec_on_exec(p, old_pid);
	r = tipme_reserve(TIPME_REC_EXEC, sizeof(*r), &ws);
	if (!r)
		return;
	r->pid = p->pid;
	r->old_pid = old_pid;
	r->exec_id = id;
	memcpy(r->comm, p->comm, sizeof(r->comm));
	r->comm[sizeof(r->comm) - 1] = '\0';
	tipme_commit(&ws, TIPME_REC_EXEC);
	tipme_cost_add(TIPME_REC_EXEC, t0);
}

static void probe_sched_process_exit(void *data,
				     TIPME_EXIT_PROBE_ARGS(p, group_dead))
{
#ifndef TIPME_EXIT_GROUP_DEAD
	bool group_dead = !atomic_read(&p->signal->live);
#endif
	u64 t0 = tipme_cost_now();
	struct tipme_rec_exit *r;
	struct tipme_wslot ws;

	tipme_exec_on_exit(p, group_dead);
	r = tipme_reserve(TIPME_REC_EXIT, sizeof(*r), &ws);
	if (!r)
		return;
	r->pid = p->pid;
	r->tgid = p->tgid;
	r->code = p->exit_code;
	r->flags = group_dead ? TIPME_EXIT_GROUP : 0;
	tipme_commit(&ws, TIPME_REC_EXIT);
	tipme_cost_add(TIPME_REC_EXIT, t0);
}

static void probe_task_rename(void *data, struct task_struct *task,
			      const char *comm)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_comm *r;
	struct tipme_wslot ws;

	/* execve renames too; TIPME_REC_EXEC has the name. */
	if (task->in_execve)
		return;
	tipme_exec_on_comm(task, comm);
	r = tipme_reserve(TIPME_REC_COMM, sizeof(*r), &ws);
	if (!r)
		return;
	r->pid = task->pid;
	r->tgid = task->tgid;
	strscpy_pad(r->comm, comm, sizeof(r->comm));
	tipme_commit(&ws, TIPME_REC_COMM);
	tipme_cost_add(TIPME_REC_COMM, t0);
}

struct tipme_probe tipme_task_probes[] = {
	TIPME_PROBE(task_newtask, probe_task_newtask),
	TIPME_PROBE(task_rename, probe_task_rename),
	TIPME_PROBE(sched_process_exec, probe_sched_process_exec),
	TIPME_PROBE(sched_process_exit, probe_sched_process_exit),
};

const size_t tipme_task_probes_count = ARRAY_SIZE(tipme_task_probes);
