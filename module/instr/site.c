// SPDX-License-Identifier: GPL-2.0
/*
 * Blocking sites.  The sched_switch probe runs on the stack of the task
 * being switched out, so stack_trace_save() from the probe sees where that
 * task went to sleep:
 *
 *   [probe plumbing] __schedule schedule [schedule_timeout ...] pipe_read
 *   vfs_read ksys_read do_syscall_64 ...
 *
 * We want the frames after the scheduler's: the "wait channel".  The
 * functions of the scheduler and of the sleeping locks are __sched (section
 * .sched.text); the spinning ones are in .lock.text, which the linker
 * script places, with .cpuidle.text, right after it.  The section bounds
 * are not exported, so the range is learnt at load from exported functions
 * known to live there (anchors): everything from the lowest to the end of
 * the highest.  A __sched function outside the anchors' span would show up
 * as a site; the postmortem drops those using the dump's symbol table
 * (__sched_text_start.. __lock_text_end).
 *
 * The plumbing frames before __schedule are the same for every capture:
 * the first capture counts them and later ones skip them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/sizes.h>
#include <linux/stacktrace.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include "compat.h"
#include "fault.h"
#include "instr/site.h"
#include "instr/sitetab.h"

/* Frames of the scheduler itself that may precede the site. */
#define SITE_SLACK		5
/* More plumbing than this means the calibration went wrong. */
#define SITE_SKIP_MAX		8

unsigned int tipme_site_depth;

static bool stack_cache = true;
module_param(stack_cache, bool, 0444);
MODULE_PARM_DESC(stack_cache, "Reuse a blocking site when a task sleeps through a call chain seen before, checked on its stack (default 1)");

static unsigned int site_table = 8192;
module_param(site_table, uint, 0444);
MODULE_PARM_DESC(site_table, "Blocking sites numbered in the site table, so that records name them in 4 bytes (up to 65536, 0: off; default 8192)");

static unsigned long site_lo, site_hi;	/* [lo, hi): scheduler and locks */
static int site_skip = -1;		/* plumbing frames, -1: not counted yet */

#ifdef TIPME_SITE_CACHE
#define SITE_SETS		16	/* by syscall and user page offset, 2^n */
#define SITE_WAYS		8
#define SITE_CHAIN_MAX		24	/* return-address slots an entry checks */
#define SITE_WALK_MAX		40	/* frames looked at, at most */

/*
 * A capture, kept as the chain the unwinder followed from the first
 * scheduler frame to the last site frame kept: where each return address
 * was on the stack (relative to site_cached()'s stack pointer) and its low
 * 32 bits (the high ones are tipme_site_text_hi()).  @n site frames start
 * at @ret[@first].  @nslot 0: an empty way.  @id: the site's number in the
 * site table, 0 until it has one.
 */
struct site_cache_ent {
	u32 nr;
	u32 id;		/* its number in the site table, 0: none yet */
	u8 nslot;
	u8 first;
	u8 n;
	u8 full;
	u32 span;	/* bytes above the stack pointer the slots need */
	u16 slot[SITE_CHAIN_MAX];
	u32 ret[SITE_CHAIN_MAX];
};

struct site_cpu {
	struct site_cache_ent ent[SITE_SETS][SITE_WAYS];
	u8 victim[SITE_SETS];
	unsigned long hits;
	unsigned long misses;
};

static struct site_cpu __percpu *site_pcpu;
#endif

/* Size of the function at @addr, from kallsyms ("name+0x0/0x124"). */
static unsigned long sym_size(unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN], *p, *end;
	unsigned long size;

	sprint_symbol(buf, addr);
	p = strchr(buf, '/');
	if (!p)
		return 0;
	p++;
	end = strchr(p, ' ');
	if (end)
		*end = '\0';
	if (kstrtoul(p, 16, &size))
		return 0;
	return size;
}

/**
 * tipme_site_init() - learn the scheduler's text range
 * @depth: return addresses to keep per blocking site (0: capture off)
 *
 * Context: process context (module init).
 * Return: 0 or -ENOMEM (a range that cannot be learnt only makes sites
 * less precise).
 */
int tipme_site_init(unsigned int depth)
{
	const unsigned long anchors[] = {
		(unsigned long)io_schedule_timeout,
		(unsigned long)schedule,
		(unsigned long)io_schedule,
		(unsigned long)schedule_timeout,
		(unsigned long)schedule_hrtimeout_range,
		(unsigned long)wait_for_completion,
		(unsigned long)mutex_unlock,
		(unsigned long)down_read,
		(unsigned long)_raw_spin_lock_irqsave,
		(unsigned long)_raw_spin_unlock_irqrestore,
		(unsigned long)_raw_spin_lock,
		(unsigned long)_raw_spin_unlock_bh,
	};
	unsigned long lo = ULONG_MAX, hi = 0, s = (unsigned long)schedule;
	size_t i;

	tipme_site_depth = min_t(unsigned int, depth, TIPME_SITE_DEPTH_MAX);
	for (i = 0; i < ARRAY_SIZE(anchors); i++) {
		lo = min(lo, anchors[i]);
		hi = max(hi, anchors[i] + max(sym_size(anchors[i]), 1UL));
	}
	if (hi - lo > SZ_1M || s < lo || s >= hi) {
		pr_warn("scheduler text not contiguous (%lx..%lx): blocking sites may start in the scheduler\n",
			lo, hi);
		lo = s;
		hi = s + max(sym_size(s), 1UL);
	}
	site_lo = lo;
	site_hi = hi;
	pr_debug("scheduler and lock text %lx..%lx (%lu KiB)\n", lo, hi,
		 (hi - lo) >> 10);
	if (tipme_sitetab_init(site_table, tipme_site_depth))
		return -ENOMEM;
#ifdef TIPME_SITE_CACHE
	if (stack_cache && tipme_site_depth) {
		site_pcpu = tipme_fail_step("stack cache") ? NULL :
			    alloc_percpu(struct site_cpu);
		if (!site_pcpu) {
			tipme_sitetab_exit();
			return -ENOMEM;
		}
	}
#endif
	return 0;
}

/**
 * tipme_site_exit() - free what tipme_site_init() allocated
 *
 * Context: process context; the sched_switch probe is detached.
 */
void tipme_site_exit(void)
{
#ifdef TIPME_SITE_CACHE
	free_percpu(site_pcpu);
	site_pcpu = NULL;
#endif
	tipme_sitetab_exit();
}

/**
 * tipme_site_in_sched() - is @ip in the scheduler's or a lock's code
 * @ip: a kernel text address
 *
 * Context: any.
 * Return: true if it is.
 */
bool tipme_site_in_sched(unsigned long ip)
{
	return ip >= site_lo && ip < site_hi;
}

/**
 * tipme_site_text_hi() - high 32 bits of kernel text addresses
 *
 * Context: any.
 * Return: they, as records store only the low 32 bits.
 */
u32 tipme_site_text_hi(void)
{
	return (u32)((u64)(unsigned long)schedule >> 32);
}

static bool site_cache_on(void);

static inline u32 site_ip32(unsigned long ip)
{
	return ((u64)ip >> 32) == tipme_site_text_hi() ? (u32)ip : 0;
}

/* First capture: count the frames before the scheduler's. */
static int site_calibrate(void)
{
	unsigned long buf[SITE_SKIP_MAX + 2];
	unsigned int n, i;

	n = stack_trace_save(buf, ARRAY_SIZE(buf), 0);
	for (i = 0; i < n; i++)
		if (tipme_site_in_sched(buf[i]))
			break;
	if (i >= n)
		i = 0;	/* no scheduler frame: keep everything */
	cmpxchg(&site_skip, -1, (int)i);
	return READ_ONCE(site_skip);
}

/*
 * With stack_trace_save().  The plumbing before the scheduler's frames is
 * skipped as counted by the first capture; it can change by a frame when
 * another tracer attaches to sched_switch (the tracepoint then calls its
 * probes through __traceiter_sched_switch instead of a direct static call),
 * so the frames kept are those after the first run of scheduler frames,
 * wherever it is.
 */
static unsigned int site_trace(u32 *ips, unsigned int depth, bool *full)
{
	unsigned long buf[TIPME_SITE_DEPTH_MAX + SITE_SLACK + 1];
	unsigned int n, i, k = 0;
	int skip = READ_ONCE(site_skip);

	if (unlikely(skip < 0))
		skip = site_calibrate();
	n = stack_trace_save(buf, depth + SITE_SLACK + 1, skip);
	for (i = 0; i < n && !tipme_site_in_sched(buf[i]); i++)
		;
	if (i == n)
		i = 0;		/* no scheduler frame: keep what there is */
	for (; i < n && tipme_site_in_sched(buf[i]); i++)
		;
	for (; i < n && k < depth; i++)
		ips[k++] = site_ip32(buf[i]);
	*full = k == depth;
	return k;
}

#ifdef TIPME_SITE_CACHE
/*
 * The cache.  Unwinding costs several times what writing a record does,
 * and tasks mostly sleep where they, or others running the same code,
 * slept before.  An entry is the chain of return addresses the unwinder
 * followed, with where each was on the stack relative to the probe's
 * stack pointer (the stack's top moves: syscalls start at a random offset
 * with randomize_kstack_offset, below the frames kept).  A later sleep
 * reuses an entry if every one of those slots holds that address again:
 * the ORC unwinder finds each caller's frame from the callee's address
 * and stack pointer, so the same addresses at the same places are the
 * same walk (a frame located by its frame pointer is the exception; the
 * sleep paths have none).  The chain starts at the first scheduler frame:
 * everything between the probe's stack pointer and it is the probe's own
 * plumbing, the same code at the same places every time and written by
 * this very call, so nothing stale can sit there.  Entries are found by
 * system call and user-space call site, not by thread, so a new process
 * sleeping where another one slept hits too.
 */

/* Walk with the ORC unwinder, noting the chain in @e if it can be kept. */
static unsigned int site_walk(u32 *ips, unsigned int depth, bool *full,
			      unsigned long sp, unsigned long top,
			      struct site_cache_ent *e)
{
	struct unwind_state st;
	unsigned int k = 0, steps = 0;
	int phase = 0;		/* 0 plumbing, 1 scheduler, 2 site */
	bool keep = true;

	e->nslot = 0;
	e->span = 0;
	for (unwind_start(&st, current, NULL, NULL);
	     !unwind_done(&st) && steps < SITE_WALK_MAX;
	     unwind_next_frame(&st), steps++) {
		unsigned long a = unwind_get_return_address(&st);
		unsigned long slot = tipme_unwind_ret_slot(&st);

		if (!a)
			break;
		if (phase == 0) {
			if (!tipme_site_in_sched(a))
				continue;
			phase = 1;
		}
		if (slot > sp && slot < top && slot - sp <= U16_MAX &&
		    e->nslot < SITE_CHAIN_MAX &&
		    (a >> 32) == tipme_site_text_hi()) {
			e->slot[e->nslot] = slot - sp;
			e->ret[e->nslot++] = (u32)a;
			e->span = max_t(u32, e->span, slot - sp + sizeof(long));
		} else {
			keep = false;	/* a frame the chain cannot hold */
		}
		if (phase == 1) {
			if (tipme_site_in_sched(a))
				continue;
			phase = 2;
		}
		if (!k)
			e->first = e->nslot - 1;
		ips[k++] = site_ip32(a);
		if (k == depth)
			break;
	}
	*full = k == depth;
	e->n = k;
	e->full = *full;
	if (!keep || !k)
		e->nslot = 0;
	return k;
}

/* Does every slot of @e hold its return address?  Site frames first. */
static bool site_chain_holds(const struct site_cache_ent *e, unsigned long sp,
			     unsigned long top)
{
	unsigned long hi = (unsigned long)tipme_site_text_hi() << 32;
	unsigned int i;

	if (e->span > top - sp)
		return false;
	for (i = e->first; i < e->nslot; i++)
		if (READ_ONCE_NOCHECK(*(unsigned long *)(sp + e->slot[i])) !=
		    (hi | e->ret[i]))
			return false;
	for (i = 0; i < e->first; i++)
		if (READ_ONCE_NOCHECK(*(unsigned long *)(sp + e->slot[i])) !=
		    (hi | e->ret[i]))
			return false;
	return true;
}

/*
 * The set of the cache a sleep looks in: the system call and where in its
 * page user space made it (the same in every process that maps the same
 * library, whatever address space layout randomisation chose), which
 * mostly tells the chain.
 */
static inline unsigned int site_set(u32 *nr)
{
	struct pt_regs *regs = task_pt_regs(current);

	*nr = (u32)regs->orig_ax;
	return hash_32(*nr ^ ((u32)regs->ip & ~PAGE_MASK) << 10,
		       ilog2(SITE_SETS));
}

/* The cached capture whose chain the stack above @sp holds, or NULL. */
static struct site_cache_ent *site_find(struct site_cpu *sc, unsigned int set,
					u32 nr, unsigned long sp,
					unsigned long top)
{
	struct site_cache_ent *e;
	unsigned int w;

	for (w = 0; w < SITE_WAYS; w++) {
		e = &sc->ent[set][w];
		if (e->nslot && e->nr == nr && site_chain_holds(e, sp, top))
			return e;
	}
	return NULL;
}

static unsigned int site_cached(u32 *ips, unsigned int depth, bool *full,
				u32 *id, unsigned long sp)
{
	unsigned long top = (unsigned long)task_stack_page(current) + THREAD_SIZE;
	struct site_cpu *sc = this_cpu_ptr(site_pcpu);
	struct site_cache_ent *e;
	unsigned int set, n;
	u32 nr;

	set = site_set(&nr);
	e = site_find(sc, set, nr, sp, top);
	if (e) {
		sc->hits++;
		n = min_t(unsigned int, e->n, depth);
		*full = e->full;
		if (n == e->n) {
			if (!e->id)
				e->id = tipme_sitetab_intern(&e->ret[e->first],
							     n, e->full);
			*id = e->id;
			if (*id)
				return n;
		}
		memcpy(ips, &e->ret[e->first], n * sizeof(u32));
		return n;
	}
	sc->misses++;
	e = &sc->ent[set][sc->victim[set]];
	sc->victim[set] = (sc->victim[set] + 1) % SITE_WAYS;
	e->nr = nr;
	n = site_walk(ips, depth, full, sp, top, e);
	*id = tipme_sitetab_intern(ips, n, *full);
	e->id = e->nslot ? *id : 0;
	return n;
}
#endif /* TIPME_SITE_CACHE */

static bool site_cache_on(void)
{
#ifdef TIPME_SITE_CACHE
	return site_pcpu;
#else
	return false;
#endif
}

/**
 * tipme_site_number() - the site's number, when the cache has it at once
 * @depth: addresses kept per site (at most TIPME_SITE_DEPTH_MAX)
 * @sp: the probe's stack pointer, as tipme_site_capture() is given it
 *
 * The common case, on the hot path: no buffer for addresses, no unwind.
 *
 * Context: as tipme_site_capture().
 * Return: the site table's number for where the current task blocks, or 0
 * if tipme_site_capture() must find out.
 */
u32 tipme_site_number(unsigned int depth, unsigned long sp)
{
#ifdef TIPME_SITE_CACHE
	unsigned long top = (unsigned long)task_stack_page(current) + THREAD_SIZE;
	struct site_cache_ent *e;
	struct site_cpu *sc;
	unsigned int set;
	u32 nr;

	if (!site_pcpu)
		return 0;
	sc = this_cpu_ptr(site_pcpu);
	set = site_set(&nr);
	e = site_find(sc, set, nr, sp, top);
	if (!e || !e->id || e->n > depth)
		return 0;
	sc->hits++;
	return e->id;
#else
	return 0;
#endif
}

/**
 * tipme_site_capture() - where the current task blocks
 * @ips: TIPME_SITE_DEPTH_MAX slots for the low 32 bits of return addresses
 * @depth: how many to keep (at most TIPME_SITE_DEPTH_MAX)
 * @full: set if all @depth slots were filled (outer frames may be cut)
 * @id: set to the site's number in the site table, or 0 if it has none
 * @sp: the probe's stack pointer (current_stack_pointer in the probe):
 *      cached call chains are located relative to it, so every call from
 *      the same probe finds them whatever path it took to get here
 *
 * Context: the sched_switch probe (preemption and interrupts disabled), on
 * the stack of the task that goes to sleep.  Never sleeps or allocates.
 * Return: the number of addresses of the site, innermost first; they are
 * stored in @ips only when *@id is 0.
 */
unsigned int tipme_site_capture(u32 *ips, unsigned int depth, bool *full,
				u32 *id, unsigned long sp)
{
	unsigned int n;

	depth = min_t(unsigned int, depth, TIPME_SITE_DEPTH_MAX);
	*id = 0;
#ifdef TIPME_SITE_CACHE
	if (site_pcpu)
		return site_cached(ips, depth, full, id, sp);
#endif
	n = site_trace(ips, depth, full);
	*id = tipme_sitetab_intern(ips, n, *full);
	return n;
}

/**
 * tipme_stack_capture() - the current stack, from the caller's caller
 * @ips: slots for the low 32 bits of return addresses
 * @depth: how many to keep (at most TIPME_SITE_DEPTH_MAX)
 *
 * The first frames are the probe's and the tracepoint's: readers drop them
 * by name.
 *
 * Context: any, never sleeps or allocates.
 * Return: addresses stored, innermost first.
 */
unsigned int tipme_stack_capture(u32 *ips, unsigned int depth)
{
	unsigned long buf[TIPME_SITE_DEPTH_MAX];
	unsigned int n, i;

	n = stack_trace_save(buf, min_t(unsigned int, depth,
					TIPME_SITE_DEPTH_MAX), 0);
	for (i = 0; i < n; i++)
		ips[i] = site_ip32(buf[i]);
	return n;
}

/**
 * tipme_site_params_text() - "key=value\n" lines for the dump's parameters
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_site_params_text(char *buf, size_t size)
{
	unsigned long hits = 0, misses = 0;
	int cpu, n;

#ifdef TIPME_SITE_CACHE
	for_each_possible_cpu(cpu) {
		if (!site_pcpu)
			break;
		hits += READ_ONCE(per_cpu_ptr(site_pcpu, cpu)->hits);
		misses += READ_ONCE(per_cpu_ptr(site_pcpu, cpu)->misses);
	}
#else
	(void)cpu;
#endif
	n = scnprintf(buf, size,
		      "stack_depth=%u\ntext_addr_hi=0x%x\nsite_skip=%d\nstack_cache=%d\nsite_cache_hits=%lu\nsite_cache_misses=%lu\n",
		      tipme_site_depth, tipme_site_text_hi(),
		      READ_ONCE(site_skip), site_cache_on(), hits, misses);
	return n + tipme_sitetab_params_text(buf + n, size - n);
}
