// SPDX-License-Identifier: GPL-2.0
/*
 * The exec table kept up to date (the table itself is exectab.c).
 *
 * The lifecycle probes (probes/task.c) add and retire entries under the
 * table's raw spinlock: they never sleep and never allocate.  argv, the
 * environment and the executable's path live in the new image's memory,
 * which a probe must not touch (it may fault): the exec probe takes a
 * reference on the mm (mm_users) and queues a request; a work item adopts
 * the mm (kthread_use_mm), copies the strings with copy_from_user, and
 * drops the reference.  Holding the mm keeps the strings readable even
 * when the process has already exited.  If the queue is full the entry
 * keeps no argv (counted, flagged).
 *
 * At load, every task that exists gets an entry (the snapshot); processes
 * get their strings read with access_process_vm().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include "recorder.h"
#include "compat.h"
#include "cost.h"
#include "exec.h"
#include "exectab.h"

#define EXE_MAX		256	/* bytes of the executable's path kept */
#define XT_REQS		256	/* argv reads waiting for the work item */

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

/**
 * struct xt_req - an image whose strings the work item must read
 * @id: the entry's serial number when queued
 * @idx: the entry's index
 * @mm: the image, with a reference (mm_users)
 */
struct xt_req {
	u32 id;
	s32 idx;
	struct mm_struct *mm;
};

static struct xt_req reqs[XT_REQS];
static unsigned int req_head, req_tail;	/* under xt.lock */

/*
 * The buffers strings are read into, by the work item and by the snapshot
 * at load, which can run at the same time (the probes are attached first).
 */
static char *wbuf_path, *wbuf_argv, *wbuf_env;
static DEFINE_MUTEX(wbuf_lock);

static void xt_work_fn(struct work_struct *work);
static DECLARE_WORK(xt_work, xt_work_fn);

static inline void copy_comm(char *dst, const char *src)
{
	memcpy(dst, src, TIPME_COMM_LEN);
	dst[TIPME_COMM_LEN - 1] = '\0';
}

/* Path of the image's executable into @buf; returns its length. */
static size_t mm_exe_path(struct mm_struct *mm, char *buf, size_t size)
{
	struct file *exe;
	char *p;
	size_t len = 0;

	exe = tipme_mm_exe_file(mm);
	if (!exe)
		return 0;
	p = file_path(exe, buf, size);
	if (!IS_ERR(p)) {
		len = strlen(p);
		memmove(buf, p, len);
	}
	fput(exe);
	return len;
}

/* Where argv and the environment are in @mm. */
static void mm_string_areas(struct mm_struct *mm, unsigned long *arg,
			    size_t *arg_len, unsigned long *env,
			    size_t *env_len)
{
	unsigned long as, ae, es, ee;

	spin_lock(&mm->arg_lock);
	as = mm->arg_start;
	ae = mm->arg_end;
	es = mm->env_start;
	ee = mm->env_end;
	spin_unlock(&mm->arg_lock);
	*arg = as;
	*arg_len = ae > as ? ae - as : 0;
	*env = es;
	*env_len = ee > es ? ee - es : 0;
}

/* Store the strings read for entry (@idx, @id), if it is still that entry. */
static void xt_store(s32 idx, u32 id, size_t exe_len, size_t arg_len,
		     size_t arg_total, size_t env_len, size_t env_total,
		     bool ok)
{
	struct tipme_xt_ent *e;

	raw_spin_lock(&xt.lock);
	e = &xt.ents[idx];
	if (e->id == id) {
		e->flags &= ~TIPME_EXEC_PENDING;
		if (ok) {
			tipme_xt_set_strings(&xt, e, wbuf_path, exe_len,
					     wbuf_argv, arg_len,
					     capture_env ? wbuf_env : NULL,
					     env_len);
			if (arg_total > arg_len)
				e->flags |= TIPME_EXEC_ARGV_TRUNC;
			if (capture_env && env_total > env_len)
				e->flags |= TIPME_EXEC_ENV_TRUNC;
		} else {
			e->flags |= TIPME_EXEC_ARGV_LOST;
			xt.argv_lost++;
		}
	}
	raw_spin_unlock(&xt.lock);
}

static void xt_read_req(struct xt_req *r)
{
	size_t arg_total, env_total, arg_len, env_len = 0, exe_len;
	unsigned long arg, env;
	bool ok;

	mm_string_areas(r->mm, &arg, &arg_total, &env, &env_total);
	arg_len = min_t(size_t, arg_total, argv_max);
	mutex_lock(&wbuf_lock);
	kthread_use_mm(r->mm);
	ok = arg_len && !copy_from_user(wbuf_argv, (const void __user *)arg,
					arg_len);
	if (ok && capture_env) {
		env_len = min_t(size_t, env_total, env_max);
		if (copy_from_user(wbuf_env, (const void __user *)env, env_len))
			env_len = 0;
	}
	kthread_unuse_mm(r->mm);
	exe_len = mm_exe_path(r->mm, wbuf_path, PATH_MAX);
	xt_store(r->idx, r->id, exe_len, arg_len, arg_total, env_len,
		 env_total, ok);
	mutex_unlock(&wbuf_lock);
	mmput(r->mm);
}

static void xt_work_fn(struct work_struct *work)
{
	struct xt_req r;
	u64 t0;

	for (;;) {
		raw_spin_lock(&xt.lock);
		if (req_head == req_tail) {
			raw_spin_unlock(&xt.lock);
			return;
		}
		r = reqs[req_head % XT_REQS];
		req_head++;
		raw_spin_unlock(&xt.lock);
		t0 = tipme_cost_now();
		xt_read_req(&r);
		/* Work without a record: its cost goes to the exec records. */
		preempt_disable();
		tipme_cost_account(TIPME_REC_EXEC, 0, tipme_cost_now() - t0,
				   tipme_cost_now());
		preempt_enable();
	}
}

/* Queue a strings read for @e of image @mm.  Context: xt.lock held. */
static bool xt_queue(struct tipme_xt_ent *e, struct mm_struct *mm)
{
	if (!mm || e->str < 0 || req_tail - req_head >= XT_REQS) {
		e->flags |= TIPME_EXEC_ARGV_LOST;
		xt.argv_lost++;
		return false;
	}
	mmget(mm);
	reqs[req_tail % XT_REQS] = (struct xt_req){
		.id = e->id, .idx = tipme_xt_index(&xt, e), .mm = mm,
	};
	req_tail++;
	e->flags |= TIPME_EXEC_PENDING;
	return true;
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
		queued = xt_queue(e, p->mm);
		id = e->id;
	}
	raw_spin_unlock(&xt.lock);
	if (queued)
		queue_work(system_unbound_wq, &xt_work);
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

/* Read a process's strings for the snapshot. */
static void snapshot_strings(struct task_struct *p, s32 idx, u32 id)
{
	size_t arg_total, env_total, arg_len, env_len = 0, exe_len;
	unsigned long arg, env;
	struct mm_struct *mm;
	int n;

	mm = get_task_mm(p);
	if (!mm) {
		xt_store(idx, id, 0, 0, 0, 0, 0, false);
		return;
	}
	mm_string_areas(mm, &arg, &arg_total, &env, &env_total);
	mutex_lock(&wbuf_lock);
	exe_len = mm_exe_path(mm, wbuf_path, PATH_MAX);
	mmput(mm);
	arg_len = min_t(size_t, arg_total, argv_max);
	n = arg_len ? access_process_vm(p, arg, wbuf_argv, arg_len, FOLL_FORCE) : 0;
	arg_len = n > 0 ? n : 0;
	if (capture_env && arg_len) {
		env_len = min_t(size_t, env_total, env_max);
		n = access_process_vm(p, env, wbuf_env, env_len, FOLL_FORCE);
		env_len = n > 0 ? n : 0;
	}
	xt_store(idx, id, exe_len, arg_len, arg_total, env_len, env_total,
		 arg_len > 0);
	mutex_unlock(&wbuf_lock);
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

	tasks = vmalloc_array(exec_table_size, sizeof(*tasks));
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
			snapshot_strings(p, idx, id);
		put_task_struct(p);
		cond_resched();
	}
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
	wbuf_path = kmalloc(PATH_MAX, GFP_KERNEL);
	wbuf_argv = kmalloc(argv_max, GFP_KERNEL);
	wbuf_env = capture_env ? kmalloc(env_max, GFP_KERNEL) : NULL;
	if (!wbuf_path || !wbuf_argv || (capture_env && !wbuf_env)) {
		tipme_exec_exit();
		return -ENOMEM;
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
	flush_work(&xt_work);
	/* Nothing can be queued any more; drop what the work item left. */
	while (req_head != req_tail)
		mmput(reqs[req_head++ % XT_REQS].mm);
	kfree(wbuf_path);
	kfree(wbuf_argv);
	kfree(wbuf_env);
	wbuf_path = wbuf_argv = wbuf_env = NULL;
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
