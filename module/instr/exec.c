// SPDX-License-Identifier: GPL-2.0
/*
 * The exec table kept up to date (the table itself is exectab.c), in probe
 * context.
 *
 * The lifecycle probes (probes/task.c) add and retire entries under the
 * table's raw spinlock: they never sleep and never allocate.  An exec
 * queues a request for the new image's path, argv and environment, which
 * exec_strings.c reads in process context.
 *
 * At load, every task that exists gets an entry (the snapshot), and
 * exec_strings.c reads the processes' strings.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "fault.h"
#include "recorder.h"
#include "instr/exec.h"
#include "instr/exectab.h"
#include "instr/exec_strings.h"

#define EXE_MAX		256	/* bytes of the executable's path kept */

static unsigned int exec_table_size = 8192;
module_param(exec_table_size, uint, 0444);
MODULE_PARM_DESC(exec_table_size, "Exec table entries: processes and threads, live and recently exited (default 8192)");

static unsigned int exec_strings = 4096;
module_param(exec_strings, uint, 0444);
MODULE_PARM_DESC(exec_strings, "Exec table entries that can keep a path and argv (default 4096)");

static unsigned int exec_retention = 600;
module_param(exec_retention, uint, 0444);
MODULE_PARM_DESC(exec_retention, "Seconds an exec table entry is kept after its process exits (default 600)");

static unsigned int argv_max = 512;
module_param(argv_max, uint, 0444);
MODULE_PARM_DESC(argv_max, "Bytes of argv kept per process (default 512)");

static bool capture_env;
module_param(capture_env, bool, 0444);
MODULE_PARM_DESC(capture_env, "Also keep each process's environment (default 0: off; dumps say whether it was on)");

static unsigned int env_max = 1024;
module_param(env_max, uint, 0444);
MODULE_PARM_DESC(env_max, "Bytes of environment kept per process when capture_env=1 (default 1024)");

static struct tipme_xt xt;
static bool xt_ready;

static inline void copy_comm(char *dst, const char *src)
{
	memcpy(dst, src, TIPME_COMM_LEN);
	dst[TIPME_COMM_LEN - 1] = '\0';
}

static u32 parent_tgid(struct task_struct *p)
{
	struct task_struct *parent;
	u32 tgid;

	rcu_read_lock();
	parent = rcu_dereference(p->real_parent);
	tgid = parent ? parent->tgid : 0;
	rcu_read_unlock();
	return tgid;
}

/**
 * tipme_exec_on_fork() - a task was created
 * @child: the new task (its parent is current)
 * @clone_flags: CLONE_* flags
 *
 * Context: the task_newtask probe (preemption disabled).
 */
void tipme_exec_on_fork(struct task_struct *child, unsigned long clone_flags)
{
	bool thread = clone_flags & CLONE_THREAD;
	bool kthread = child->flags & PF_KTHREAD;
	u64 now = tipme_clock_now();
	struct tipme_xt_ent *e, *parent;

	if (!READ_ONCE(xt_ready))
		return;
	raw_spin_lock(&xt.lock);
	e = tipme_xt_new(&xt, child->pid, child->tgid, now,
			 !thread && !kthread && child->mm);
	if (e) {
		e->flags = thread ? TIPME_EXEC_THREAD : TIPME_EXEC_FORKED;
		if (kthread)
			e->flags |= TIPME_EXEC_KTHREAD;
		e->ppid = parent_tgid(child);
		e->start_mono_ns = child->start_time;
		copy_comm(e->comm, child->comm);
		if (!thread && !kthread) {
			parent = tipme_xt_lookup(&xt, current->tgid);
			if (parent)
				tipme_xt_copy_strings(&xt, e, parent);
			else
				e->flags |= TIPME_EXEC_ARGV_LOST;
		}
	}
	raw_spin_unlock(&xt.lock);
}

/**
 * tipme_exec_on_exec() - current replaced its image
 * @p: current
 * @old_pid: its thread id before the exec
 *
 * Context: the sched_process_exec probe (preemption disabled).
 * Return: the new entry's id, 0 if there is none.
 */
u32 tipme_exec_on_exec(struct task_struct *p, pid_t old_pid)
{
	u64 now = tipme_clock_now();
	struct tipme_xt_ent *e;
	bool queued = false;
	u32 id = 0;

	if (!READ_ONCE(xt_ready))
		return 0;
	raw_spin_lock(&xt.lock);
	e = tipme_xt_lookup(&xt, p->pid);
	if (e)
		tipme_xt_retire(&xt, e, now, TIPME_EXEC_REPLACED, 0);
	if (old_pid != p->pid) {
		e = tipme_xt_lookup(&xt, old_pid);
		if (e)
			tipme_xt_retire(&xt, e, now, TIPME_EXEC_REPLACED, 0);
	}
	e = tipme_xt_new(&xt, p->pid, p->tgid, now, p->mm);
	if (e) {
		e->flags = TIPME_EXEC_EXECED;
		e->ppid = parent_tgid(p);
		e->start_mono_ns = p->start_time;
		copy_comm(e->comm, p->comm);
		queued = tipme_exec_strings_queue(e, p->mm);
		id = e->id;
	}
	raw_spin_unlock(&xt.lock);
	if (queued)
		tipme_exec_strings_kick();
	return id;
}

/**
 * tipme_exec_on_exit() - current exits
 * @p: current
 * @group_dead: it is the last thread of its process
 *
 * Context: the sched_process_exit probe (preemption disabled).
 */
void tipme_exec_on_exit(struct task_struct *p, bool group_dead)
{
	u64 now = tipme_clock_now();
	struct tipme_xt_ent *e;

	if (!READ_ONCE(xt_ready))
		return;
	raw_spin_lock(&xt.lock);
	if (p->pid != p->tgid) {
		e = tipme_xt_lookup(&xt, p->pid);
		if (e)
			tipme_xt_retire(&xt, e, now, 0, p->exit_code);
	}
	if (group_dead) {
		e = tipme_xt_lookup(&xt, p->tgid);
		if (e)
			tipme_xt_retire(&xt, e, now, 0, p->exit_code);
	}
	raw_spin_unlock(&xt.lock);
}

/**
 * tipme_exec_on_comm() - a task is renamed
 * @p: the task
 * @comm: its new name
 *
 * Context: the task_rename probe (preemption disabled, @p's task_lock
 * held).
 */
void tipme_exec_on_comm(struct task_struct *p, const char *comm)
{
	struct tipme_xt_ent *e;

	if (!READ_ONCE(xt_ready))
		return;
	raw_spin_lock(&xt.lock);
	e = tipme_xt_lookup(&xt, p->pid);
	if (e)
		strscpy_pad(e->comm, comm, sizeof(e->comm));
	raw_spin_unlock(&xt.lock);
}

/**
 * tipme_exec_snapshot() - enter every task that exists
 *
 * Tasks created meanwhile are entered by the probes, which must be
 * attached already; tasks found in both places are entered once, and
 * tasks already exiting are left out (their exit may have been seen).
 *
 * Context: process context, may sleep (module init).
 */
void tipme_exec_snapshot(void)
{
	struct task_struct **tasks, *g, *p;
	unsigned int n = 0, i;
	u64 now;

	tasks = tipme_fail_step("snapshot task list") ? NULL :
		vmalloc_array(exec_table_size, sizeof(*tasks));
	if (!tasks)
		return;		/* the table fills from the probes only */
	rcu_read_lock();
	for_each_process_thread(g, p) {
		if (n == exec_table_size)
			break;
		get_task_struct(p);
		tasks[n++] = p;
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		struct tipme_xt_ent *e = NULL;
		bool proc, kthread;
		s32 idx = -1;
		u32 id = 0;

		p = tasks[i];
		proc = p->pid == p->tgid;
		kthread = p->flags & PF_KTHREAD;
		now = tipme_clock_now();
		raw_spin_lock(&xt.lock);
		if (!(READ_ONCE(p->flags) & PF_EXITING) &&
		    !tipme_xt_lookup(&xt, p->pid))
			e = tipme_xt_new(&xt, p->pid, p->tgid, now,
					 proc && !kthread);
		if (e) {
			e->flags = TIPME_EXEC_SNAPSHOT |
				   (proc ? 0 : TIPME_EXEC_THREAD) |
				   (kthread ? TIPME_EXEC_KTHREAD : 0);
			e->ppid = parent_tgid(p);
			e->start_mono_ns = p->start_time;
			copy_comm(e->comm, p->comm);
			if (e->str >= 0) {
				e->flags |= TIPME_EXEC_PENDING;
				idx = tipme_xt_index(&xt, e);
				id = e->id;
			}
		}
		raw_spin_unlock(&xt.lock);
		if (idx >= 0)
			tipme_exec_strings_snapshot(p, idx, id);
		put_task_struct(p);
		cond_resched();
	}
	tipme_exec_strings_kick();
	vfree(tasks);
}

/**
 * tipme_exec_init() - allocate the exec table
 *
 * Context: process context (module init), before the lifecycle probes are
 * attached.
 * Return: 0 or a negative errno.
 */
int tipme_exec_init(void)
{
	u64 retention = (u64)exec_retention * 1000 * tipme_clock_khz();
	int err;

	if (argv_max < 16 || argv_max > 4096 || env_max > 8192) {
		pr_err("argv_max must be 16..4096 and env_max at most 8192\n");
		return -EINVAL;
	}
	err = tipme_xt_init(&xt, exec_table_size,
			    min(exec_strings, exec_table_size), EXE_MAX,
			    argv_max, capture_env ? env_max : 0, retention);
	if (err) {
		pr_err("cannot allocate the exec table (%u entries): %d\n",
		       exec_table_size, err);
		return err;
	}
	err = tipme_exec_strings_init(&xt, argv_max, env_max, capture_env);
	if (err) {
		tipme_xt_free(&xt);
		return err;
	}
	WRITE_ONCE(xt_ready, true);
	return 0;
}

/**
 * tipme_exec_exit() - free the exec table
 *
 * Context: process context; the lifecycle probes are detached.
 */
void tipme_exec_exit(void)
{
	WRITE_ONCE(xt_ready, false);
	tipme_exec_strings_exit();
	tipme_xt_free(&xt);
}

/**
 * tipme_exec_env_capture() - whether environments are kept
 *
 * Context: any.
 * Return: the capture_env parameter.
 */
bool tipme_exec_env_capture(void)
{
	return capture_env;
}

/**
 * tipme_exec_retention_ns() - how long an exited process is kept
 *
 * Context: any.
 * Return: the exec_retention parameter, in ns.
 */
u64 tipme_exec_retention_ns(void)
{
	return (u64)exec_retention * NSEC_PER_SEC;
}

/**
 * tipme_exec_header() - the exec table section's header, now
 * @h: filled in
 *
 * Expired entries are freed first.
 *
 * Context: process context.
 */
void tipme_exec_header(struct tipme_exectab_hdr *h)
{
	raw_spin_lock(&xt.lock);
	tipme_xt_gc(&xt, tipme_clock_now());
	tipme_xt_header(&xt, h, xt.live + xt.exited,
			(u64)exec_retention * NSEC_PER_SEC);
	raw_spin_unlock(&xt.lock);
}

/**
 * tipme_exec_read() - copy entries out for a dump
 * @pos: first slot to look at; advanced past the slots copied
 * @buf: destination: whole struct tipme_exec entries
 * @size: its bytes
 * @done: set when every slot has been looked at
 *
 * Context: process context.
 * Return: bytes written (0 with *@done clear: the next entry needs more
 * than @size bytes).
 */
size_t tipme_exec_read(u32 *pos, void *buf, size_t size, bool *done)
{
	size_t len = 0, n;

	while (*pos < xt.cap) {
		struct tipme_xt_ent *e = &xt.ents[*pos];

		raw_spin_lock(&xt.lock);
		n = e->id ? tipme_xt_serialize(&xt, e, buf + len, size - len) : 0;
		if (e->id && !n) {
			raw_spin_unlock(&xt.lock);
			break;
		}
		raw_spin_unlock(&xt.lock);
		len += n;
		(*pos)++;
	}
	*done = *pos >= xt.cap;
	return len;
}

/**
 * tipme_exec_entry_max() - the largest entry tipme_exec_read() can copy
 *
 * Context: any.
 * Return: bytes.
 */
u32 tipme_exec_entry_max(void)
{
	return ALIGN(sizeof(struct tipme_exec) + xt.exe_max + xt.argv_max +
		     xt.env_max, 8);
}

/**
 * tipme_exec_params_text() - "key=value\n" lines for the dump
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_exec_params_text(char *buf, size_t size)
{
	return scnprintf(buf, size,
			 "exec_table_size=%u\nexec_strings=%u\nexec_retention=%u\nargv_max=%u\ncapture_env=%d\nenv_max=%u\n",
			 exec_table_size, xt.nstr, exec_retention, argv_max,
			 capture_env, capture_env ? env_max : 0);
}
