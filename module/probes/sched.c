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
 * __schedule() before the switch, right after the switch record, so that
 * a TIPME_REC_SITE names the thread that record took off the CPU.  A site
 * the site table has no number for is written whole (TIPME_REC_BLOCKED).
 */
static void record_blocked(struct task_struct *prev, u64 t0)
{
	struct {
		struct tipme_rec_blocked h;
		u32 ip[TIPME_SITE_DEPTH_MAX];
	} *r;
	struct tipme_rec_site *rs;
	struct tipme_wslot ws;
	u32 ip[TIPME_SITE_DEPTH_MAX];
	unsigned int n;
	size_t len;
	bool full;
	u32 id;

	n = tipme_site_capture(ip, READ_ONCE(tipme_site_depth), &full, &id);
	if (id) {
		rs = tipme_reserve(TIPME_REC_SITE, sizeof(*rs), &ws);
		if (!rs)
			return;
		rs->id = id;
		tipme_commit(&ws, TIPME_REC_SITE);
		tipme_cost_add(TIPME_REC_SITE, t0);
		return;
	}
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
 * The task the latest switch record of this CPU put on it, as a reader of
 * the ring will know it; TIPME_PID_NONE when that record was lost.  A
 * wakeup by that very task leaves its pid out (TIPME_REC_WAKING_C).
 */
#define TIPME_PID_NONE	U32_MAX
static DEFINE_PER_CPU(u32, ring_current) = TIPME_PID_NONE;

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
	struct tipme_rec_switch_c *r;
	struct tipme_wslot ws;
	u64 now;

	if (!preempt && prev_state && prev->pid)
		tipme_auto_switch(prev);
	r = tipme_reserve(TIPME_REC_SWITCH_C, sizeof(*r), &ws);
	if (!r) {
		this_cpu_write(ring_current, TIPME_PID_NONE);
		return;
	}
	tipme_switch_c_pack(r, prev->pid, prev->prio, next->pid, next->prio,
			    preempt ? TIPME_CSW_PREEMPTED :
			    tipme_task_state(prev_state));
	tipme_commit(&ws, TIPME_REC_SWITCH_C);
	this_cpu_write(ring_current, next->pid);
	tipme_sampler_switch(prev->pid, next->pid);
	now = tipme_cost_add(TIPME_REC_SWITCH_C, ws.ts);
	if (!preempt && prev_state && prev->pid && READ_ONCE(tipme_site_depth))
		record_blocked(prev, now);
}

static void probe_sched_waking(void *data, struct task_struct *p)
{
	struct tipme_rec_waking_c *c;
	struct tipme_rec_waking *r;
	struct tipme_wslot ws;
	unsigned int cpu = task_cpu(p);

	tipme_auto_waking(p);
	if (this_cpu_read(ring_current) == current->pid &&
	    cpu < TIPME_WAKING_C_CPUS) {
		c = tipme_reserve(TIPME_REC_WAKING_C, sizeof(*c), &ws);
		if (!c)
			return;
		c->word = tipme_waking_c_word(p->pid, cpu, tipme_ctx_now());
		tipme_commit(&ws, TIPME_REC_WAKING_C);
		tipme_cost_add(TIPME_REC_WAKING_C, ws.ts);
		return;
	}
	r = tipme_reserve(TIPME_REC_SCHED_WAKING, sizeof(*r), &ws);
	if (!r)
		return;
	tipme_waking_pack(r, p->pid, cpu, current->pid, tipme_ctx_now());
	tipme_commit(&ws, TIPME_REC_SCHED_WAKING);
	tipme_cost_add(TIPME_REC_SCHED_WAKING, ws.ts);
}

struct tipme_probe tipme_sched_probes[] = {
	TIPME_PROBE(sched_switch, probe_sched_switch),
	TIPME_PROBE(sched_waking, probe_sched_waking),
};

const size_t tipme_sched_probes_count = ARRAY_SIZE(tipme_sched_probes);
