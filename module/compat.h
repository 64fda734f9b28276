/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version drift, all in one place.  Every entry names the upstream
 * change and the version it appeared in.
 */
#ifndef TIPME_COMPAT_H
#define TIPME_COMPAT_H

#include <linux/version.h>

/*
 * Input handlers: 6.11 ("Input: make events() return the number of events
 * kept") turned the batched callback into a filter that returns a count.
 * tipme only uses the per-event .event callback, whose signature has not
 * changed; if it ever does, the adapter goes here.
 */

/*
 * The floor: 6.1, the oldest kernel tipme is built and tested on (Debian
 * 12).  What it needs from before then: lock:contention_begin (5.19,
 * "locking: Add lock contention tracepoints") and sched_switch with
 * prev_state as its last argument (5.18, "sched/tracing: Don't re-read
 * p->state when emitting sched_switch event"); TIPME_PROBE() fails the
 * build on a prototype mismatch.  5.19 and 6.0 may work but are untested.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "tipme is built and tested on Linux 6.1 and later"
#endif

/*
 * Generic netlink: strict checking of the reserved header bytes and of
 * attributes without a policy entry, from the op given in
 * struct genl_family.resv_start_op, 6.1 ("genetlink: start to validate
 * reserved header bytes").  Kbuild looks for the field in the headers
 * (TIPME_HAVE_GENL_RESV_START_OP).
 */
#ifdef TIPME_HAVE_GENL_RESV_START_OP
#define TIPME_GENL_STRICT_FROM(op)	.resv_start_op = (op),
#else
#define TIPME_GENL_STRICT_FROM(op)
#endif

/*
 * sysctl: proc_handler's table argument became const in 6.11 ("sysctl:
 * treewide: constify the ctl_table argument of proc_handlers"); distribution
 * kernels may carry it earlier, so Kbuild reads the typedef in the headers
 * (TIPME_HAVE_CONST_CTL_TABLE).  Handlers take "TIPME_CTL_CONST struct
 * ctl_table *".
 */
#ifdef TIPME_HAVE_CONST_CTL_TABLE
#define TIPME_CTL_CONST const
#else
#define TIPME_CTL_CONST
#endif

/* ------------------------------------------------------------------ */
/* Instrumentation (exec table, lock owners)                          */
/* ------------------------------------------------------------------ */

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rtmutex.h>
#include <linux/rwsem.h>

/**
 * tipme_mm_exe_file() - the executable of an address space, referenced
 * @mm: the address space
 *
 * get_mm_exe_file() is not exported.  get_file_rcu() took a struct file *
 * until 6.7 ("fs: rework get_file_rcu()"), which made it take the RCU
 * pointer's address and return the file.
 *
 * Context: process context.
 * Return: the file (release with fput()) or NULL.
 */
static inline struct file *tipme_mm_exe_file(struct mm_struct *mm)
{
	struct file *f;

	rcu_read_lock();
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
	f = rcu_dereference(mm->exe_file);
	if (f && !get_file_rcu(f))
		f = NULL;
#else
	f = get_file_rcu(&mm->exe_file);
#endif
	rcu_read_unlock();
	return f;
}

/*
 * Lock owners, for lock:contention_begin (5.19).  The owner words are
 * private to kernel/locking/: a mutex's is the owner's task_struct with
 * MUTEX_FLAGS (0x07) in its low bits (4.10, "locking/mutex: Rework mutex::owner");
 * an rw_semaphore's likewise with RWSEM_READER_OWNED (bit 0) and
 * RWSEM_NONSPINNABLE (bit 1), naming a writer only when bit 0 is clear
 * (5.3); struct rt_mutex_base (5.15) keeps the task with
 * RT_MUTEX_HAS_WAITERS in bit 0.  On PREEMPT_RT mutexes and rw_semaphores
 * are built on rt_mutex_base and report LCB_F_RT; rw_semaphores and rwlocks
 * there are struct rwbase_rt, whose writer holds ->rtmutex.
 */
#define TIPME_MUTEX_FLAGS		0x07UL
#define TIPME_RWSEM_READER_OWNED	0x01UL
#define TIPME_RWSEM_FLAGS		0x03UL
#define TIPME_RT_MUTEX_HAS_WAITERS	0x01UL

static inline unsigned long tipme_rt_mutex_owner(const struct rt_mutex_base *l)
{
	return (unsigned long)READ_ONCE(l->owner) & ~TIPME_RT_MUTEX_HAS_WAITERS;
}

/*
 * The blocking-site cache must know where on the stack a return address
 * was read from, which unwind_get_return_address_ptr() (not exported)
 * computes from the ORC unwinder's frame state (struct unwind_state, 4.14):
 * just below the caller's stack pointer, unless the frame is an interrupt
 * frame.  Without ORC, sites are unwound every time.
 */
#if defined(CONFIG_X86_64) && defined(CONFIG_UNWINDER_ORC)
#include <asm/unwind.h>
#define TIPME_SITE_CACHE 1

static inline unsigned long tipme_unwind_ret_slot(struct unwind_state *st)
{
	return st->regs || !st->sp ? 0 : st->sp - sizeof(long);
}
#endif

#ifndef CONFIG_PREEMPT_RT
static inline unsigned long tipme_mutex_owner(const struct mutex *m)
{
	return (unsigned long)atomic_long_read(&m->owner) & ~TIPME_MUTEX_FLAGS;
}

static inline unsigned long tipme_rwsem_owner(const struct rw_semaphore *s)
{
	unsigned long o = (unsigned long)atomic_long_read(&s->owner);

	return o & TIPME_RWSEM_READER_OWNED ? 0 : o & ~TIPME_RWSEM_FLAGS;
}
#else
#include <linux/rwbase_rt.h>

static inline unsigned long tipme_rwbase_owner(const struct rwbase_rt *b)
{
	return tipme_rt_mutex_owner(&b->rtmutex);
}
#endif

#endif /* TIPME_COMPAT_H */
