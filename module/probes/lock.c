// SPDX-License-Identifier: GPL-2.0
/*
 * Lock contention probes: lock:contention_begin/end (5.19).  Only the slow
 * paths fire them, so an uncontended lock costs nothing here.  The holder
 * is read where the lock word names it (mutex, rt_mutex, an rw_semaphore
 * held for writing): the owner pointer is read racily, as the kernel's own
 * optimistic spinning does, and the task it points to cannot be freed while
 * this probe runs (task_structs are freed after an RCU grace period and
 * probes run with preemption disabled).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched.h>
#include <linux/uaccess.h>
#include <trace/events/lock.h>
#include "recorder.h"
#include "compat.h"
#include "instr/cost.h"
#include "probes/tracepoints.h"

/* The record's flags are the kernel's. */
static_assert(TIPME_LOCK_SPIN == LCB_F_SPIN && TIPME_LOCK_READ == LCB_F_READ &&
	      TIPME_LOCK_WRITE == LCB_F_WRITE && TIPME_LOCK_RT == LCB_F_RT &&
	      TIPME_LOCK_PERCPU == LCB_F_PERCPU && TIPME_LOCK_MUTEX == LCB_F_MUTEX);

static u32 lock_owner_pid(void *lock, unsigned int flags)
{
	unsigned long owner = 0;
	pid_t pid;

	if (flags & LCB_F_RT) {
#ifdef CONFIG_PREEMPT_RT
		if (flags & (LCB_F_READ | LCB_F_WRITE))
			owner = tipme_rwbase_owner(lock);
		else
#endif
			owner = tipme_rt_mutex_owner(lock);
	}
#ifndef CONFIG_PREEMPT_RT
	else if (flags & LCB_F_MUTEX)
		owner = tipme_mutex_owner(lock);
	else if ((flags & (LCB_F_READ | LCB_F_WRITE)) &&
		 !(flags & (LCB_F_SPIN | LCB_F_PERCPU)))
		owner = tipme_rwsem_owner(lock);
#endif
	if (!owner)
		return 0;
	if (get_kernel_nofault(pid, &((struct task_struct *)owner)->pid))
		return 0;
	return pid;
}

static void probe_contention_begin(void *data, void *lock, unsigned int flags)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_lock_begin *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_LOCK_BEGIN, sizeof(*r), &ws);
	if (!r)
		return;
	r->lock_lo = (u32)(unsigned long)lock;
	r->lock_hi = (u32)((u64)(unsigned long)lock >> 32);
	r->pid = current->pid;
	r->owner = lock_owner_pid(lock, flags);
	r->flags = flags;
	tipme_commit(&ws, TIPME_REC_LOCK_BEGIN);
	tipme_cost_add(TIPME_REC_LOCK_BEGIN, t0);
}

static void probe_contention_end(void *data, void *lock, int ret)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_lock_end *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_LOCK_END, sizeof(*r), &ws);
	if (!r)
		return;
	r->lock_lo = (u32)(unsigned long)lock;
	r->lock_hi = (u32)((u64)(unsigned long)lock >> 32);
	r->pid = current->pid;
	r->ret = ret;
	tipme_commit(&ws, TIPME_REC_LOCK_END);
	tipme_cost_add(TIPME_REC_LOCK_END, t0);
}

struct tipme_probe tipme_lock_probes[] = {
	TIPME_PROBE(contention_begin, probe_contention_begin),
	TIPME_PROBE(contention_end, probe_contention_end),
};

const size_t tipme_lock_probes_count = ARRAY_SIZE(tipme_lock_probes);
