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
 * 12).  Older kernels lack at least genl's header checks for every command
 * of a family that leaves .resv_start_op at 0 (6.1, 9c5d03d36251,
 * "genetlink: start to validate reserved header bytes") and
 * lock:contention_begin (5.19, "locking: Add lock contention
 * tracepoints"); sched_switch gained prev_state as its last argument in
 * 5.18 ("sched/tracing: Don't re-read p->state when emitting sched_switch
 * event").  TIPME_PROBE() fails the build on a probe prototype mismatch.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "tipme needs Linux 6.1 or later"
#endif

/* ------------------------------------------------------------------ */
/* Control: generic netlink and sysctl                                */
/* ------------------------------------------------------------------ */

#include <linux/rcupdate.h>
#include <linux/sysctl.h>
#include <net/genetlink.h>

/*
 * Binding to a generic netlink multicast group can require CAP_NET_ADMIN
 * in the group's network namespace since 6.7 ("genetlink: add
 * CAP_NET_ADMIN test for multicast bind"), a fix backported to the stable
 * series (Debian's 6.1 has it); Kbuild looks for the flag
 * (TIPME_HAVE_GENL_MCAST_CAP).  Without it anyone in the initial namespace
 * may listen, as the kernel allows for every family there.
 */
#ifdef TIPME_HAVE_GENL_MCAST_CAP
#define TIPME_GENL_MCGRP_FLAGS	GENL_MCAST_CAP_NET_ADMIN
#else
#define TIPME_GENL_MCGRP_FLAGS	0
#endif

/* ------------------------------------------------------------------ */
/* Tracepoint prototypes (TIPME_PROBE() checks each at build time)    */
/* ------------------------------------------------------------------ */

/*
 * sched_process_exit passes group_dead since 6.16 (3e816361e94a,
 * "sched/tracepoints: Move and extend the sched_process_exit()
 * tracepoint"), and fires before exit_mm() instead of after it.  Kbuild
 * tests the prototype (TIPME_EXIT_GROUP_DEAD); before, the probe works
 * group_dead out from signal->live as do_exit() did.
 */
#ifdef TIPME_EXIT_GROUP_DEAD
#define TIPME_EXIT_PROBE_ARGS(p, gd)	struct task_struct *p, bool gd
#else
#define TIPME_EXIT_PROBE_ARGS(p, gd)	struct task_struct *p
#endif

/*
 * task_newtask's clone_flags became u64 ("treewide: change the type of
 * clone_flags from unsigned long to u64", after 6.12: not in Debian 13's
 * 6.12, in Debian unstable's 7.2).  Kbuild tests the prototype
 * (TIPME_CLONE_FLAGS_U64).
 */
#ifdef TIPME_CLONE_FLAGS_U64
#define tipme_clone_flags_t	u64
#else
#define tipme_clone_flags_t	unsigned long
#endif

/*
 * The direct reclaim tracepoints (mm_vmscan_direct_reclaim_*,
 * mm_vmscan_memcg_*reclaim_*) put gfp_flags first and pass the memcg
 * being reclaimed for, begin and end ("mm: vmscan: add memcg to the
 * direct reclaim tracepoints", after 6.12: not in Debian 13's 6.12, in
 * Debian unstable's 7.2; the upstream commit was not at hand offline).
 * Kbuild tests both prototypes (TIPME_RECLAIM_BEGIN_MEMCG,
 * TIPME_RECLAIM_END_MEMCG).  tipme records the same fields either way.
 */
struct mem_cgroup;
#ifdef TIPME_RECLAIM_BEGIN_MEMCG
#define TIPME_RECLAIM_BEGIN_ARGS(order, gfp) \
	gfp_t gfp, int order, struct mem_cgroup *memcg
#else
#define TIPME_RECLAIM_BEGIN_ARGS(order, gfp)	int order, gfp_t gfp
#endif
#ifdef TIPME_RECLAIM_END_MEMCG
#define TIPME_RECLAIM_END_ARGS(nr)	unsigned long nr, struct mem_cgroup *memcg
#else
#define TIPME_RECLAIM_END_ARGS(nr)	unsigned long nr
#endif

/*
 * tcp_probe passes its skb const after 6.12 (in Debian unstable's 7.2;
 * the upstream commit was not at hand offline).  Kbuild tests the
 * prototype (TIPME_TCP_PROBE_CONST_SKB); the probe only reads it.
 */
#ifdef TIPME_TCP_PROBE_CONST_SKB
#define TIPME_TCP_PROBE_ARGS(sk, skb)	struct sock *sk, const struct sk_buff *skb
#else
#define TIPME_TCP_PROBE_ARGS(sk, skb)	struct sock *sk, struct sk_buff *skb
#endif

/*
 * sysctl handlers take a const table since 6.11 (78eb4ea25cd5, "sysctl:
 * treewide: constify the ctl_table argument of proc_handlers").
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define tipme_ctl_table const struct ctl_table
#else
#define tipme_ctl_table struct ctl_table
#endif

/**
 * tipme_register_sysctl() - register a sysctl table that ends in a sentinel
 * @path: directory under /proc/sys
 * @table: the entries, then one empty entry
 * @n: ARRAY_SIZE(@table), the sentinel included
 *
 * Until 6.6 register_sysctl() found a table's end by its empty last entry.
 * Since 6.6 it is a macro that passes ARRAY_SIZE() to register_sysctl_sz()
 * (53f3811dfd5e, "sysctl: Use ctl_table_size as stopping criteria for list
 * macro", and its series), and since 6.11 an empty entry within that size
 * fails the table check ("procname is null": d7a76ec87195, "sysctl:
 * Remove check for sentinel element in ctl_table arrays").  So the table
 * keeps its sentinel for the old call and the new one is given the size
 * without it.  Kbuild looks for register_sysctl_sz()
 * (TIPME_HAVE_REGISTER_SYSCTL_SZ).
 *
 * Context: process context.
 * Return: the table's header, or NULL.
 */
static inline struct ctl_table_header *
tipme_register_sysctl(const char *path, struct ctl_table *table, size_t n)
{
#ifdef TIPME_HAVE_REGISTER_SYSCTL_SZ
	return register_sysctl_sz(path, table, n - 1);
#else
	return register_sysctl(path, table);
#endif
}

/* ------------------------------------------------------------------ */
/* Instrumentation (exec table, lock owners)                          */
/* ------------------------------------------------------------------ */

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
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
 * The path and inode a mapping's file shows the user.  A file mapped
 * through a stacking file system (overlayfs) is the lower file in
 * vma->vm_file: until 6.8 it carried the overlay's path as a "fake path"
 * beside the lower inode; since 6.8 ("fs: store real path
 * instead of fake path in backing file f_path") its f_path is the lower
 * path too, and file_user_path() gives the path /proc/PID/maps shows;
 * file_user_inode(), its inode, came soon after (both are in 6.12).
 * Kbuild looks for each (TIPME_HAVE_FILE_USER_PATH,
 * TIPME_HAVE_FILE_USER_INODE).
 */
#ifdef TIPME_HAVE_FILE_USER_PATH
#define tipme_file_user_path(f)		file_user_path(f)
#else
#define tipme_file_user_path(f)		((const struct path *)&(f)->f_path)
#endif
#ifdef TIPME_HAVE_FILE_USER_INODE
#define tipme_file_user_inode(f)	file_user_inode(f)
#else
#define tipme_file_user_inode(f)	((const struct inode *)file_inode(f))
#endif

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

/* ------------------------------------------------------------------ */
/* The ring device and mapped dumps                                   */
/* ------------------------------------------------------------------ */

#include <linux/mm.h>

/*
 * vm_flags became read-only outside the helpers that change it in 6.3
 * (bc292ab00f6c, "mm: introduce vma->vm_flags wrapper functions"), which
 * Kbuild looks for (TIPME_HAVE_VM_FLAGS_SET).
 */
static inline void tipme_vm_flags_set(struct vm_area_struct *vma,
				      unsigned long flags)
{
#ifdef TIPME_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

static inline void tipme_vm_flags_clear(struct vm_area_struct *vma,
					unsigned long flags)
{
#ifdef TIPME_HAVE_VM_FLAGS_SET
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

/**
 * tipme_genl_dump_attrs() - the parsed attributes of a dump's request
 * @cb: the dump's callback state
 *
 * Later kernels keep them in a struct genl_info reached through
 * genl_info_dump() (6.12 and 7.2 have it, 6.1 does not); Kbuild looks for
 * it (TIPME_HAVE_GENL_INFO_DUMP).
 *
 * Context: a dump's start or dumpit callback.
 * Return: the attribute table, indexed by attribute type.
 */
static inline struct nlattr **tipme_genl_dump_attrs(struct netlink_callback *cb)
{
#ifdef TIPME_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/* ------------------------------------------------------------------ */
/* CFS bandwidth: a task its group's CPU quota holds off              */
/* ------------------------------------------------------------------ */

#include <linux/sched.h>

/**
 * tipme_throttle_level() - is a runnable task held off by its cgroup's quota
 * @p: a fair task leaving its CPU still runnable
 *
 * Until 6.18 a throttled group's scheduling entity is taken off its
 * parent's queue while the tasks below it stay queued, and an entity that
 * is not throttled is queued whenever a task below it is: the lowest group
 * entity above @p that is not queued is the throttled one.  The task
 * based throttle model of 6.18 leaves the groups queued and dequeues each
 * task on its way to user space, marking it (p->throttled; Kbuild looks
 * for it: TIPME_TASK_THROTTLED); which level ran out is then private to
 * the scheduler, and @p's own group is named.
 *
 * Context: the sched_switch probe, @p's runqueue locked.
 * Return: how many levels above @p's own group the throttled group is, or
 * -1 if @p is not throttled.
 */
static __always_inline int tipme_throttle_level(const struct task_struct *p)
{
#ifdef TIPME_TASK_THROTTLED
	return p->throttled ? 0 : -1;
#elif defined(CONFIG_CFS_BANDWIDTH)
	const struct sched_entity *se;
	int up = 0;

	/* an RT or deadline task has no fair group entities above it */
	if (p->prio < MAX_RT_PRIO || !p->se.on_rq)
		return -1;
	for (se = p->se.parent; se; se = se->parent, up++)
		if (!se->on_rq)
			return up;
	return -1;
#else
	return -1;
#endif
}

/* ------------------------------------------------------------------ */
/* Block I/O: whose pages a read fills                                */
/* ------------------------------------------------------------------ */

#include <linux/page-flags.h>

/*
 * The low bits of a folio's mapping that say it is anonymous (or KSM,
 * movable) rather than an address_space: PAGE_MAPPING_FLAGS, renamed
 * FOLIO_MAPPING_FLAGS after 6.12 ("mm: rename PAGE_MAPPING_* to
 * FOLIO_MAPPING_*": not in Debian 13's 6.12, in Debian unstable's 7.2;
 * the upstream commit was not at hand offline).  The header's own macro
 * tells which.
 */
#ifdef PAGE_MAPPING_FLAGS
#define TIPME_MAPPING_FLAGS	PAGE_MAPPING_FLAGS
#else
#define TIPME_MAPPING_FLAGS	FOLIO_MAPPING_FLAGS
#endif

/* ------------------------------------------------------------------ */
/* Display and GPU: tracepoints of modules, DRM files, dma_fence      */
/* ------------------------------------------------------------------ */

#include <linux/compiler.h>
#include <linux/dma-fence.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/tracepoint.h>
#include <drm/drm_file.h>

/*
 * A module's tracepoint table (struct module.tracepoints_ptrs) holds
 * 32-bit offsets where the architecture has PREL32 relocations (4.19,
 * "tracepoint: Use PREL32 relocations when supported") and
 * pointers elsewhere; the kernel's own reader of it is private to
 * kernel/tracepoint.c.
 */
static inline struct tracepoint *tipme_tp_deref(tracepoint_ptr_t *p)
{
#ifdef CONFIG_HAVE_ARCH_PREL32_RELOCATIONS
	return offset_to_ptr(p);
#else
	return *p;
#endif
}

/*
 * The thread that opened a DRM file (struct drm_file.pid); RCU-protected
 * since 6.8 ("drm: Update file owner during use"), which
 * also makes it the last process that used the file.  Kbuild looks for
 * the __rcu (TIPME_DRM_FILE_PID_RCU).
 *
 * Context: any.
 */
static inline u32 tipme_drm_file_owner(struct drm_file *file)
{
	struct pid *pid;
	u32 nr;

	rcu_read_lock();
#ifdef TIPME_DRM_FILE_PID_RCU
	pid = rcu_dereference(file->pid);
#else
	pid = file->pid;
#endif
	nr = pid ? (u32)pid_nr(pid) : 0;
	rcu_read_unlock();
	return nr;
}

/*
 * A fence's driver and timeline names: through its ops until 6.17, whose
 * dma_fence_driver_name() and dma_fence_timeline_name() (
 * "dma-fence: Add safe access helpers and document the rules") are the
 * only safe way once ops became RCU-protected and are dropped at signal.
 * Kbuild looks for them (TIPME_HAVE_FENCE_NAME_HELPERS).
 *
 * Context: inside rcu_read_lock().
 */
#ifdef TIPME_HAVE_FENCE_NAME_HELPERS
static inline const char *tipme_fence_driver_name(struct dma_fence *f)
{
	const char __rcu *name = dma_fence_driver_name(f);

	return rcu_dereference(name);
}

static inline const char *tipme_fence_timeline_name(struct dma_fence *f)
{
	const char __rcu *name = dma_fence_timeline_name(f);

	return rcu_dereference(name);
}
#else
static inline const char *tipme_fence_driver_name(struct dma_fence *f)
{
	return f->ops && f->ops->get_driver_name ?
	       f->ops->get_driver_name(f) : NULL;
}

static inline const char *tipme_fence_timeline_name(struct dma_fence *f)
{
	return f->ops && f->ops->get_timeline_name ?
	       f->ops->get_timeline_name(f) : NULL;
}
#endif

/* ------------------------------------------------------------------ */
/* Timers                                                             */
/* ------------------------------------------------------------------ */

#include <linux/hrtimer.h>

/*
 * hrtimer_setup() sets a timer's callback with the rest (6.13, "hrtimers:
 * Introduce hrtimer_setup() to replace hrtimer_init()"); hrtimer_init()
 * went in 6.15.
 */
static inline void tipme_hrtimer_setup(struct hrtimer *t,
				       enum hrtimer_restart (*fn)(struct hrtimer *),
				       clockid_t clock, enum hrtimer_mode mode)
{
#ifdef TIPME_HAVE_HRTIMER_SETUP
	hrtimer_setup(t, fn, clock, mode);
#else
	hrtimer_init(t, clock, mode);
	t->function = fn;
#endif
}

#endif /* TIPME_COMPAT_H */
