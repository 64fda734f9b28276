// SPDX-License-Identifier: GPL-2.0
/*
 * Memory pressure probes (vmscan family): direct reclaim and memory cgroup
 * reclaim begin/end, kswapd runs and the allocations that wake it, and
 * reclaim throttling.  A reclaim begin carries the allocation's call stack
 * (reclaim_stack_depth frames), which shows whether a page fault, a read or
 * a kernel allocation had to reclaim.  A memory cgroup reclaim's end names
 * the cgroup most over its memory.high (the one a penalty sleep after it
 * is for) and that limit.  See Documentation/instrumentation.md
 * for what is and is not covered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/math64.h>
#include <linux/memcontrol.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <trace/events/vmscan.h>
#include "compat.h"
#include "recorder.h"
#include "instr/cost.h"
#include "instr/site.h"
#include "probes/tracepoints.h"

static unsigned int reclaim_stack_depth = 12;
module_param(reclaim_stack_depth, uint, 0444);
MODULE_PARM_DESC(reclaim_stack_depth, "Return addresses recorded when a task starts reclaiming (0-16, default 12)");

static void reclaim_begin(u8 kind, int order, gfp_t gfp)
{
	u64 t0 = tipme_cost_now();
	struct {
		struct tipme_rec_reclaim_begin h;
		u32 ip[TIPME_SITE_DEPTH_MAX];
	} *r;
	u32 ip[TIPME_SITE_DEPTH_MAX];
	struct tipme_wslot ws;
	unsigned int n = 0;
	size_t len;

	if (reclaim_stack_depth)
		n = tipme_stack_capture(ip, reclaim_stack_depth);
	len = sizeof(r->h) + n * sizeof(u32);
	r = tipme_reserve(TIPME_REC_RECLAIM_BEGIN, len, &ws);
	if (!r)
		return;
	r->h.len = len;
	r->h.kind = kind;
	r->h.nr = n;
	r->h.pid = current->pid;
	r->h.order = order;
	r->h.gfp = (__force u32)gfp;
	memcpy(r->ip, ip, n * sizeof(u32));
	tipme_commit(&ws, TIPME_REC_RECLAIM_BEGIN);
	tipme_cost_add(TIPME_REC_RECLAIM_BEGIN, t0);
}

#ifdef CONFIG_MEMCG
/**
 * over_high() - the memory cgroup most over its memory.high
 * @high_kib: its memory.high, KiB (U32_MAX: 4 TiB or more)
 *
 * Of current's memory cgroup and its ancestors, the one whose usage is
 * most over its memory.high, relative to it: the one whose overage sets
 * the penalty sleep of mem_cgroup_handle_over_high() (as the kernel's
 * own mem_find_max_overage() weighs it; swap.high is not looked at).
 *
 * Context: a reclaim tracepoint, current reclaiming for its cgroup.
 * Return: that cgroup's id (cgroup_id()), 0 if none is over memory.high.
 */
static u64 over_high(u32 *high_kib)
{
	struct cgroup_subsys_state *css;
	u64 id = 0, worst = 0;

	*high_kib = 0;
	rcu_read_lock();
	for (css = task_css(current, memory_cgrp_id); css && css->parent;
	     css = css->parent) {
		struct mem_cgroup *memcg = mem_cgroup_from_css(css);
		unsigned long usage = page_counter_read(&memcg->memory);
		unsigned long high = READ_ONCE(memcg->memory.high);
		u64 over;

		if (usage <= high)
			continue;
		over = div64_u64((u64)(usage - high) << 20, max(high, 1UL));
		if (over <= worst)
			continue;
		worst = over;
		id = css->cgroup ? cgroup_id(css->cgroup) : 0;
		*high_kib = min_t(u64, (u64)high << (PAGE_SHIFT - 10), U32_MAX);
	}
	rcu_read_unlock();
	if (!id)
		*high_kib = 0;
	return id;
}
#endif

static void reclaim_end(u8 kind, unsigned long nr_reclaimed)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_reclaim_end *r;
	struct tipme_wslot ws;
	u32 high_kib = 0;
	u64 id = 0;

#ifdef CONFIG_MEMCG
	if (kind == TIPME_RECLAIM_MEMCG)
		id = over_high(&high_kib);
#endif
	r = tipme_reserve(TIPME_REC_RECLAIM_END, sizeof(*r), &ws);
	if (!r)
		return;
	r->pid = current->pid;
	r->kind = kind;
	memset(r->reserved, 0, sizeof(r->reserved));
	r->nr_reclaimed = min_t(unsigned long, nr_reclaimed, U32_MAX);
	r->high_cgroup_lo = lower_32_bits(id);
	r->high_cgroup_hi = upper_32_bits(id);
	r->high_kib = high_kib;
	tipme_commit(&ws, TIPME_REC_RECLAIM_END);
	tipme_cost_add(TIPME_REC_RECLAIM_END, t0);
}

static void probe_direct_begin(void *data, TIPME_RECLAIM_BEGIN_ARGS(order, gfp))
{
	reclaim_begin(TIPME_RECLAIM_DIRECT, order, gfp);
}

static void probe_direct_end(void *data, TIPME_RECLAIM_END_ARGS(nr_reclaimed))
{
	reclaim_end(TIPME_RECLAIM_DIRECT, nr_reclaimed);
}

#ifdef CONFIG_MEMCG
static void probe_memcg_begin(void *data, TIPME_RECLAIM_BEGIN_ARGS(order, gfp))
{
	reclaim_begin(TIPME_RECLAIM_MEMCG, order, gfp);
}

static void probe_memcg_end(void *data, TIPME_RECLAIM_END_ARGS(nr_reclaimed))
{
	reclaim_end(TIPME_RECLAIM_MEMCG, nr_reclaimed);
}

static void probe_memcg_soft_begin(void *data, TIPME_RECLAIM_BEGIN_ARGS(order, gfp))
{
	reclaim_begin(TIPME_RECLAIM_MEMCG_SOFT, order, gfp);
}

static void probe_memcg_soft_end(void *data, TIPME_RECLAIM_END_ARGS(nr_reclaimed))
{
	reclaim_end(TIPME_RECLAIM_MEMCG_SOFT, nr_reclaimed);
}
#endif

static void kswapd_record(u8 kind, int nid, int zid, int order, gfp_t gfp)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_kswapd *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_KSWAPD, sizeof(*r), &ws);
	if (!r)
		return;
	r->pid = current->pid;
	r->nid = nid;
	r->zid = zid;
	r->kind = kind;
	r->order = order;
	r->gfp = (__force u32)gfp;
	tipme_commit(&ws, TIPME_REC_KSWAPD);
	tipme_cost_add(TIPME_REC_KSWAPD, t0);
}

static void probe_kswapd_wake(void *data, int nid, int zid, int order)
{
	kswapd_record(TIPME_KSWAPD_RUN, nid, zid, order, 0);
}

static void probe_wakeup_kswapd(void *data, int nid, int zid, int order,
				gfp_t gfp)
{
	kswapd_record(TIPME_KSWAPD_WAKEUP, nid, zid, order, gfp);
}

static void probe_throttled(void *data, int nid, int usec_timeout,
			    int usec_delayed, int reason)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_throttled *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_THROTTLED, sizeof(*r), &ws);
	if (!r)
		return;
	r->pid = current->pid;
	r->nid = nid;
	r->usec_timeout = usec_timeout;
	r->usec_delayed = usec_delayed;
	r->reason = reason;
	tipme_commit(&ws, TIPME_REC_THROTTLED);
	tipme_cost_add(TIPME_REC_THROTTLED, t0);
}

struct tipme_probe tipme_mm_probes[] = {
	TIPME_PROBE(mm_vmscan_direct_reclaim_begin, probe_direct_begin),
	TIPME_PROBE(mm_vmscan_direct_reclaim_end, probe_direct_end),
#ifdef CONFIG_MEMCG
	TIPME_PROBE(mm_vmscan_memcg_reclaim_begin, probe_memcg_begin),
	TIPME_PROBE(mm_vmscan_memcg_reclaim_end, probe_memcg_end),
	TIPME_PROBE(mm_vmscan_memcg_softlimit_reclaim_begin, probe_memcg_soft_begin),
	TIPME_PROBE(mm_vmscan_memcg_softlimit_reclaim_end, probe_memcg_soft_end),
#endif
	TIPME_PROBE(mm_vmscan_kswapd_wake, probe_kswapd_wake),
	TIPME_PROBE(mm_vmscan_wakeup_kswapd, probe_wakeup_kswapd),
	TIPME_PROBE(mm_vmscan_throttled, probe_throttled),
};

const size_t tipme_mm_probes_count = ARRAY_SIZE(tipme_mm_probes);
