// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler probes: sched_switch (with the blocking site of a task that
 * goes to sleep) and sched_waking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/mm_types.h>	/* struct folio, before 6.12's sched events */
#include <linux/preempt.h>
#include <linux/sched.h>
#include <trace/events/sched.h>
#include "compat.h"
#include "recorder.h"
#include "control/autotrig.h"
#include "instr/cost.h"
#include "probes/ctx.h"
#include "instr/sampler.h"
#include "instr/site.h"
#include "instr/sitetab.h"
#include "instr/ustack.h"
#include "probes/sched.h"
#include "taskstate.h"
#include "probes/tracepoints.h"
#include "probes/work.h"

/*
 * A capture's addresses, per CPU: off the probe's stack, which the kernel
 * may fill with zeros on every entry (CONFIG_INIT_STACK_ALL_ZERO), so the
 * common case, a number from the site cache, writes no buffer at all.
 * Interrupts are off in the sched_switch probe, so nothing else on this
 * CPU uses it meanwhile.
 */
struct site_scratch {
	u32 ip[TIPME_SITE_DEPTH_MAX];
	unsigned int n;
	bool full;
};

static DEFINE_PER_CPU(struct site_scratch, site_scratch);

/* Where current blocks: its number, or 0 with the addresses in the scratch. */
static noinline u32 site_capture_slow(unsigned long sp)
{
	struct site_scratch *sc = this_cpu_ptr(&site_scratch);
	u32 id;

	sc->n = tipme_site_capture(sc->ip, READ_ONCE(tipme_site_depth),
				   &sc->full, &id, sp);
	return id;
}

static __always_inline u32 site_number(unsigned long sp)
{
	u32 id = tipme_site_number(READ_ONCE(tipme_site_depth), sp);

	return id ? id : site_capture_slow(sp);
}

/* A blocking site the site table has no number for: the chain itself. */
static noinline void record_blocked_whole(struct task_struct *prev, u64 t0)
{
	struct site_scratch *sc = this_cpu_ptr(&site_scratch);
	struct tipme_rec_blocked *r;
	struct tipme_wslot ws;
	size_t len;

	len = sizeof(*r) + sc->n * sizeof(u32);
	r = tipme_reserve(TIPME_REC_BLOCKED, len, &ws);
	if (!r)
		return;
	r->len = len;
	r->nr = sc->n;
	r->flags = sc->full ? TIPME_BLOCKED_FULL : 0;
	r->pid = prev->pid;
	memcpy(r + 1, sc->ip, sc->n * sizeof(u32));
	tipme_commit(&ws, TIPME_REC_BLOCKED);
	tipme_cost_add(TIPME_REC_BLOCKED, t0);
}

/*
 * Where @prev blocks, after a full-form switch record.  Runs on @prev's
 * stack: the probe is called from __schedule() before the switch, right
 * after the switch record, so that a TIPME_REC_SITE names the thread that
 * record took off the CPU.
 */
static void record_blocked(struct task_struct *prev, u64 t0, unsigned long sp)
{
	struct tipme_rec_site *rs;
	struct tipme_wslot ws;
	u32 id = site_number(sp);

	if (!id) {
		record_blocked_whole(prev, t0);
		return;
	}
	rs = tipme_reserve(TIPME_REC_SITE, sizeof(*rs), &ws);
	if (!rs)
		return;
	rs->id = id;
	tipme_commit(&ws, TIPME_REC_SITE);
	tipme_cost_add(TIPME_REC_SITE, t0);
}

/*
 * The user-space call chain of @prev, which goes to sleep, after its switch
 * record and site: a number of the user stack table, whose cost starts at
 * @t0, the end of those.
 */
static noinline void record_ustack(u64 t0)
{
	struct tipme_rec_ustack_c *r;
	struct tipme_wslot ws;
	u32 id = tipme_ustack_capture();

	r = tipme_reserve(TIPME_REC_USTACK_C, sizeof(*r), &ws);
	if (!r)
		return;
	r->id = id;
	tipme_commit(&ws, TIPME_REC_USTACK_C);
	tipme_cost_add(TIPME_REC_USTACK_C, t0);
}

/* Does @prev, going to sleep, have a user-space chain to record? */
static __always_inline bool want_ustack(struct task_struct *prev)
{
	return !(prev->flags & (PF_KTHREAD | PF_EXITING | PF_IO_WORKER)) &&
	       prev->mm && tipme_ustack_on();
}

/*
 * The task the latest switch record of this CPU put on it, and its
 * priority, as a reader of the ring will know them; TIPME_PID_NONE when
 * that record was lost.  A wakeup by that very task leaves its pid out
 * (TIPME_REC_WAKING_C), and so does that task's switch out
 * (TIPME_REC_SWITCH_S) unless its priority changed meanwhile.
 */
#define TIPME_PID_NONE	U32_MAX

struct ring_current {
	u32 pid;
	u32 prio;
};

static DEFINE_PER_CPU(struct ring_current, ring_current) = { TIPME_PID_NONE, 0 };

/**
 * tipme_ring_current_is() - does a reader of this CPU's ring know @pid runs
 * @pid: the current task's pid
 *
 * A record of the task the latest switch record put on the CPU may leave
 * its pid out (a compact form).
 *
 * Context: preemption disabled, any context, on the ring's CPU.
 * Return: true if that switch record put @pid on this CPU.
 */
bool tipme_ring_current_is(u32 pid)
{
	return this_cpu_read(ring_current.pid) == pid;
}

static __always_inline void ring_current_set(u32 pid, u32 prio)
{
	this_cpu_write(ring_current.pid, pid);
	this_cpu_write(ring_current.prio, prio);
}

/*
 * The switch out of the CPU's current task, in 8 bytes, or 12 with the
 * number of the site @prev sleeps in (found while the record is reserved).
 * Return: the end of its cost (tipme_cost_add()), 0 if it was dropped.
 */
static __always_inline u64 record_switch_short(struct task_struct *prev,
					       struct task_struct *next,
					       u32 state, bool site,
					       unsigned long sp)
{
	struct tipme_rec_switch_site_s *r;
	struct tipme_wslot ws;
	u32 type = site ? TIPME_REC_SWITCH_SITE_S : TIPME_REC_SWITCH_S;
	u32 id = 0;
	u64 now;

	r = tipme_reserve(type, site ? sizeof(*r) : sizeof(r->word), &ws);
	if (!r)
		return 0;
	r->word = tipme_switch_s_word(next->pid, next->prio,
				      tipme_switch_s_kind(state, site));
	if (site) {
		id = site_number(sp);
		r->site = id;
	}
	tipme_commit(&ws, type);
	ring_current_set(next->pid, next->prio);
	tipme_sampler_switch(prev->pid, next->pid);
	now = tipme_cost_add(type, ws.ts);
	if (site && !id)
		record_blocked_whole(prev, now);
	return now ? now : 1;
}

#ifdef CONFIG_CFS_BANDWIDTH
/*
 * @p leaves its CPU runnable because the group @up levels above its own
 * ran out of CPU quota: the cgroup of that group, in the cpu controller's
 * hierarchy (whose groups are the scheduler's task groups, level for
 * level).  Called with @p's runqueue locked, from the sched_switch probe.
 */
static noinline void record_cpu_throttle(struct task_struct *p, unsigned int up)
{
	struct cgroup_subsys_state *css = task_css(p, cpu_cgrp_id);
	struct tipme_rec_cpu_throttle *r;
	struct tipme_wslot ws;
	u64 id = 0;

	while (css && up--)
		css = css->parent;
	if (css && css->cgroup)
		id = cgroup_id(css->cgroup);
	r = tipme_reserve(TIPME_REC_CPU_THROTTLE, sizeof(*r), &ws);
	if (!r)
		return;
	r->pid = p->pid;
	r->cgroup_lo = lower_32_bits(id);
	r->cgroup_hi = upper_32_bits(id);
	tipme_commit(&ws, TIPME_REC_CPU_THROTTLE);
	tipme_cost_add(TIPME_REC_CPU_THROTTLE, ws.ts);
}

/* Is @p, runnable and leaving its CPU, held off by CFS bandwidth control? */
static __always_inline void check_cpu_throttle(struct task_struct *p)
{
	int up = tipme_throttle_level(p);

	if (unlikely(up >= 0))
		record_cpu_throttle(p, up);
}
#else
static __always_inline void check_cpu_throttle(struct task_struct *p)
{
}
#endif

/*
 * The clock is the costliest part of a record (local_clock() more so than
 * the TSC): the switch's and the wakeup's own cost starts at their
 * record's timestamp, and the blocking site's at the switch's end.
 */
static void probe_sched_switch(void *data, bool preempt,
			       struct task_struct *prev,
			       struct task_struct *next,
			       unsigned int prev_state)
{
	unsigned long sp = current_stack_pointer;
	u32 state = preempt ? TIPME_CSW_PREEMPTED : tipme_task_state(prev_state);
	bool sleep = !preempt && prev_state && prev->pid;
	bool site = sleep && READ_ONCE(tipme_site_depth);
	struct tipme_rec_switch_c *r;
	struct tipme_wslot ws;
	bool numbered;
	u64 now;

	if (prev->pid)
		tipme_auto_switch(prev, sleep ? prev_state : 0);
	if (!sleep && prev->pid && (preempt || !prev_state))
		check_cpu_throttle(prev);
	/* Without a site table the site follows whole. */
	numbered = site && tipme_sitetab_enabled();
	if (tipme_switch_s_kind(state, numbered) >= 0 &&
	    this_cpu_read(ring_current.pid) == prev->pid &&
	    this_cpu_read(ring_current.prio) == (u32)prev->prio) {
		now = record_switch_short(prev, next, state, numbered, sp);
		if (!now) {
			ring_current_set(TIPME_PID_NONE, 0);
			return;
		}
		if (site && !numbered)
			record_blocked(prev, now, sp);
		if (sleep && want_ustack(prev))
			record_ustack(now);
		return;
	}
	r = tipme_reserve(TIPME_REC_SWITCH_C, sizeof(*r), &ws);
	if (!r) {
		ring_current_set(TIPME_PID_NONE, 0);
		return;
	}
	tipme_switch_c_pack(r, prev->pid, prev->prio, next->pid, next->prio,
			    state);
	tipme_commit(&ws, TIPME_REC_SWITCH_C);
	ring_current_set(next->pid, next->prio);
	tipme_sampler_switch(prev->pid, next->pid);
	now = tipme_cost_add(TIPME_REC_SWITCH_C, ws.ts);
	if (site)
		record_blocked(prev, now, sp);
	if (sleep && want_ustack(prev))
		record_ustack(now);
}

static void probe_sched_waking(void *data, struct task_struct *p)
{
	struct tipme_rec_waking_c *c;
	struct tipme_rec_waking *r;
	struct tipme_wslot ws;
	unsigned int cpu = task_cpu(p);
	u32 ctx = tipme_ctx_now();

	tipme_auto_waking(p);
	if (unlikely(ctx != TIPME_CTX_TASK))
		tipme_intr_tell(ctx);	/* which softirq or interrupt */
	if (this_cpu_read(ring_current.pid) == current->pid &&
	    cpu < TIPME_WAKING_C_CPUS) {
		c = tipme_reserve(TIPME_REC_WAKING_C, sizeof(*c), &ws);
		if (!c)
			return;
		c->word = tipme_waking_c_word(p->pid, cpu, ctx);
		tipme_commit(&ws, TIPME_REC_WAKING_C);
		tipme_cost_add(TIPME_REC_WAKING_C, ws.ts);
		return;
	}
	r = tipme_reserve(TIPME_REC_SCHED_WAKING, sizeof(*r), &ws);
	if (!r)
		return;
	tipme_waking_pack(r, p->pid, cpu, current->pid, ctx);
	tipme_commit(&ws, TIPME_REC_SCHED_WAKING);
	tipme_cost_add(TIPME_REC_SCHED_WAKING, ws.ts);
}

struct tipme_probe tipme_sched_probes[] = {
	TIPME_PROBE(sched_switch, probe_sched_switch),
	TIPME_PROBE(sched_waking, probe_sched_waking),
};

const size_t tipme_sched_probes_count = ARRAY_SIZE(tipme_sched_probes);
