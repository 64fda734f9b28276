// SPDX-License-Identifier: GPL-2.0
/*
 * The exec table's strings: the executable's path, argv and (with
 * capture_env=1) the environment of each image, read in process context.
 *
 * They live in the new image's memory, which a probe must not touch (it
 * may fault): the exec probe (exec.c) takes a reference on the mm
 * (mm_users) and queues a request; the work item here adopts the mm
 * (kthread_use_mm), copies the strings, and drops the reference.  Holding
 * the mm keeps the strings readable even when the process has already
 * exited.  At load, the snapshot queues each existing process the same way.
 *
 * The copy never faults: it takes only what is in memory, page by page,
 * with page faults disabled.  A fault could wait for ever (argv pages that
 * their owner remapped onto a FUSE file whose daemon never answers, or
 * registered with userfaultfd), and one wedged work item would stop every
 * later read and rmmod with it.  A fresh image's strings are in memory
 * (exec wrote them); what is not is cut off and flagged truncated, and a
 * read that gets nothing keeps no argv (counted, flagged), as does an
 * image whose request finds the queue full.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include "compat.h"
#include "fault.h"
#include "instr/cost.h"
#include "instr/exectab.h"
#include "instr/exec_strings.h"

#define XT_REQS		256	/* argv reads waiting for the work item */

static struct tipme_xt *xt;
static unsigned int argv_max, env_max;
static bool capture_env;

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
static unsigned int req_head, req_tail;	/* under xt->lock */

/*
 * The buffers strings are read into; only the work item uses them (a work
 * item never runs twice at once).
 */
static char *wbuf_path, *wbuf_argv, *wbuf_env;

static void xt_work_fn(struct work_struct *work);
static DECLARE_WORK(xt_work, xt_work_fn);

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

	raw_spin_lock(&xt->lock);
	e = &xt->ents[idx];
	if (e->id == id) {
		e->flags &= ~TIPME_EXEC_PENDING;
		if (ok) {
			tipme_xt_set_strings(xt, e, wbuf_path, exe_len,
					     wbuf_argv, arg_len,
					     capture_env ? wbuf_env : NULL,
					     env_len);
			if (arg_total > arg_len)
				e->flags |= TIPME_EXEC_ARGV_TRUNC;
			if (capture_env && env_total > env_len)
				e->flags |= TIPME_EXEC_ENV_TRUNC;
		} else {
			e->flags |= TIPME_EXEC_ARGV_LOST;
			xt->argv_lost++;
		}
	}
	raw_spin_unlock(&xt->lock);
}

/*
 * Copy up to @len bytes at user address @src of the current mm into @dst,
 * page by page, without faulting; returns how many were copied (stops at
 * the first page not in memory).
 */
static size_t copy_present(char *dst, unsigned long src, size_t len)
{
	size_t done = 0, n;

	while (done < len) {
		n = min_t(size_t, len - done,
			  PAGE_SIZE - offset_in_page(src + done));
		if (copy_from_user_nofault(dst + done,
					   (const void __user *)(src + done), n))
			break;
		done += n;
	}
	return done;
}

static void xt_read_req(struct xt_req *r)
{
	size_t arg_total, env_total, arg_len, env_len = 0, exe_len;
	unsigned long arg, env;

	mm_string_areas(r->mm, &arg, &arg_total, &env, &env_total);
	kthread_use_mm(r->mm);
	arg_len = copy_present(wbuf_argv, arg,
			       min_t(size_t, arg_total, argv_max));
	if (arg_len && capture_env)
		env_len = copy_present(wbuf_env, env,
				       min_t(size_t, env_total, env_max));
	kthread_unuse_mm(r->mm);
	exe_len = mm_exe_path(r->mm, wbuf_path, PATH_MAX);
	xt_store(r->idx, r->id, exe_len, arg_len, arg_total, env_len,
		 env_total, arg_len > 0);
	mmput(r->mm);
}

static void xt_work_fn(struct work_struct *work)
{
	struct xt_req r;
	u64 t0;

	for (;;) {
		raw_spin_lock(&xt->lock);
		if (req_head == req_tail) {
			raw_spin_unlock(&xt->lock);
			return;
		}
		r = reqs[req_head % XT_REQS];
		req_head++;
		raw_spin_unlock(&xt->lock);
		t0 = tipme_cost_now();
		xt_read_req(&r);
		/* Work without a record: its cost goes to the exec records. */
		preempt_disable();
		tipme_cost_account(TIPME_REC_EXEC, 0, tipme_cost_now() - t0,
				   tipme_cost_now());
		preempt_enable();
	}
}

/**
 * tipme_exec_strings_queue() - ask for the strings of a new image
 * @e: its exec table entry
 * @mm: the image, or NULL (the entry is then flagged as having no argv)
 *
 * Takes a reference on @mm for the work item.  The caller kicks the work
 * item with tipme_exec_strings_kick() once it has dropped the lock.
 *
 * Context: a probe (preemption disabled), with the table's lock held.
 * Return: true if the request was queued.
 */
bool tipme_exec_strings_queue(struct tipme_xt_ent *e, struct mm_struct *mm)
{
	if (!mm || e->str < 0 || req_tail - req_head >= XT_REQS) {
		e->flags |= TIPME_EXEC_ARGV_LOST;
		xt->argv_lost++;
		return false;
	}
	mmget(mm);
	reqs[req_tail % XT_REQS] = (struct xt_req){
		.id = e->id, .idx = tipme_xt_index(xt, e), .mm = mm,
	};
	req_tail++;
	e->flags |= TIPME_EXEC_PENDING;
	return true;
}

/**
 * tipme_exec_strings_snapshot() - ask for a process's strings at load
 * @p: the task, referenced
 * @idx: its entry's index
 * @id: its entry's serial number (the strings are dropped if the entry was
 *	reused meanwhile)
 *
 * Queues a request for the work item, which reads the strings as it reads
 * a new image's (without faulting); waits for the queue to drain when it
 * is full.  The caller kicks the work item when it has queued everything.
 *
 * Context: process context, may sleep (module init).
 */
void tipme_exec_strings_snapshot(struct task_struct *p, s32 idx, u32 id)
{
	struct mm_struct *mm = get_task_mm(p);

	if (!mm) {
		xt_store(idx, id, 0, 0, 0, 0, 0, false);
		return;
	}
	for (;;) {
		raw_spin_lock(&xt->lock);
		if (req_tail - req_head < XT_REQS) {
			reqs[req_tail % XT_REQS] = (struct xt_req){
				.id = id, .idx = idx, .mm = mm,
			};
			req_tail++;
			raw_spin_unlock(&xt->lock);
			return;
		}
		raw_spin_unlock(&xt->lock);
		tipme_exec_strings_kick();
		flush_work(&xt_work);
	}
}

/**
 * tipme_exec_strings_kick() - have the work item read what was queued
 *
 * Context: any but NMI, without the table's lock.
 */
void tipme_exec_strings_kick(void)
{
	queue_work(system_unbound_wq, &xt_work);
}

/**
 * tipme_exec_strings_init() - allocate the buffers strings are read into
 * @table: the exec table the strings go to
 * @argv_bytes: bytes of argv kept per image
 * @env_bytes: bytes of environment kept per image
 * @env: keep environments
 *
 * Context: process context (module init), before the lifecycle probes are
 * attached.
 * Return: 0 or -ENOMEM.
 */
int tipme_exec_strings_init(struct tipme_xt *table, unsigned int argv_bytes,
			    unsigned int env_bytes, bool env)
{
	xt = table;
	argv_max = argv_bytes;
	env_max = env_bytes;
	capture_env = env;
	wbuf_path = tipme_fail_step("path buffer") ? NULL :
		    kmalloc(PATH_MAX, GFP_KERNEL);
	wbuf_argv = tipme_fail_step("argv buffer") ? NULL :
		    kmalloc(argv_max, GFP_KERNEL);
	wbuf_env = !capture_env || tipme_fail_step("environment buffer") ?
		   NULL : kmalloc(env_max, GFP_KERNEL);
	if (!wbuf_path || !wbuf_argv || (capture_env && !wbuf_env)) {
		tipme_exec_strings_exit();
		return -ENOMEM;
	}
	return 0;
}

/**
 * tipme_exec_strings_exit() - wait for the work item, drop what is queued
 *
 * Context: process context; nothing queues requests any more (the probes
 * are detached or ignore the table).
 */
void tipme_exec_strings_exit(void)
{
	flush_work(&xt_work);
	/* Nothing can be queued any more; drop what the work item left. */
	while (req_head != req_tail)
		mmput(reqs[req_head++ % XT_REQS].mm);
	kfree(wbuf_path);
	kfree(wbuf_argv);
	kfree(wbuf_env);
	wbuf_path = wbuf_argv = wbuf_env = NULL;
}
