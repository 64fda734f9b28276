// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler probes: sched_switch (with the blocking site of a task that
 * goes to sleep) and sched_waking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm_types.h>	/* struct folio, before 6.12's sched events */
#include <linux/preempt.h>
#include <linux/sched.h>
#include <trace/events/sched.h>
#include "recorder.h"
#include "control/autotrig.h"
#include "instr/cost.h"
#include "probes/ctx.h"
#include "instr/sampler.h"
#include "instr/site.h"
#include "taskstate.h"
#include "probes/tracepoints.h"

/*
 * Where @prev blocks.  Runs on @prev's stack: the probe is called from
 * __schedule() before the switch.
 */
static void record_blocked(struct task_struct *prev, u64 t0)
{
	struct {
		struct tipme_rec_blocked h;
		u32 ip[TIPME_SITE_DEPTH_MAX];
	} *r;
	struct tipme_wslot ws;
	u32 ip[TIPME_SITE_DEPTH_MAX];
	unsigned int n;
	size_t len;
	bool full;

	n = tipme_site_capture(ip, READ_ONCE(tipme_site_depth), &full);
	len = sizeof(r->h) + n * sizeof(u32);
	r = tipme_reserve(TIPME_REC_BLOCKED, len, &ws);
	if (!r)
		return;
	r->h.len = len;
	r->h.nr = n;
	r->h.flags = full ? TIPME_BLOCKED_FULL : 0;
	r->h.pid = prev->pid;
	memcpy(r->ip, ip, n * sizeof(u32));
	tipme_commit(&ws, TIPME_REC_BLOCKED);
	tipme_cost_add(TIPME_REC_BLOCKED, t0);
}

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
	struct tipme_rec_switch *r;
	struct tipme_wslot ws;
	u64 now;

	if (!preempt && prev_state && prev->pid)
		tipme_auto_switch(prev);
	r = tipme_reserve(TIPME_REC_SCHED_SWITCH, sizeof(*r), &ws);
	if (!r)
		return;
	r->prev_pid = prev->pid;
	r->next_pid = next->pid;
	r->prev_prio = (u8)prev->prio;
	r->next_prio = (u8)next->prio;
	r->prev_state = preempt ? TIPME_TS_RUNNABLE : tipme_task_state(prev_state);
	r->flags = preempt ? TIPME_SWITCH_PREEMPT : 0;
	tipme_commit(&ws, TIPME_REC_SCHED_SWITCH);
	tipme_sampler_switch(prev->pid, next->pid);
	now = tipme_cost_add(TIPME_REC_SCHED_SWITCH, ws.ts);
	if (!preempt && prev_state && prev->pid && READ_ONCE(tipme_site_depth))
		record_blocked(prev, now);
}

static void probe_sched_waking(void *data, struct task_struct *p)
{
	struct tipme_rec_waking *r;
	struct tipme_wslot ws;

	tipme_auto_waking(p);
	r = tipme_reserve(TIPME_REC_SCHED_WAKING, sizeof(*r), &ws);
	if (!r)
		return;
	tipme_waking_pack(r, p->pid, task_cpu(p), current->pid,
			  tipme_ctx_now());
	tipme_commit(&ws, TIPME_REC_SCHED_WAKING);
	tipme_cost_add(TIPME_REC_SCHED_WAKING, ws.ts);
}

struct tipme_probe tipme_sched_probes[] = {
	TIPME_PROBE(sched_switch, probe_sched_switch),
	TIPME_PROBE(sched_waking, probe_sched_waking),
};

const size_t tipme_sched_probes_count = ARRAY_SIZE(tipme_sched_probes);
