// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler probes: sched_switch and sched_waking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/preempt.h>
#include <linux/sched.h>
#include <trace/events/sched.h>
#include "../tipme.h"
#include "../taskstate.h"
#include "../tracepoints.h"

static void probe_sched_switch(void *data, bool preempt,
			       struct task_struct *prev,
			       struct task_struct *next,
			       unsigned int prev_state)
{
	struct tipme_rec_switch *r;
	struct tipme_wslot ws;

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
}

static inline u32 waker_context(void)
{
	if (in_nmi())
		return TIPME_CTX_NMI;
	if (in_hardirq())
		return TIPME_CTX_HARDIRQ;
	if (in_serving_softirq())
		return TIPME_CTX_SOFTIRQ;
	return TIPME_CTX_TASK;
}

static void probe_sched_waking(void *data, struct task_struct *p)
{
	struct tipme_rec_waking *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_SCHED_WAKING, sizeof(*r), &ws);
	if (!r)
		return;
	tipme_waking_pack(r, p->pid, task_cpu(p), current->pid,
			  waker_context());
	tipme_commit(&ws, TIPME_REC_SCHED_WAKING);
}

struct tipme_probe tipme_sched_probes[] = {
	TIPME_PROBE(sched_switch, probe_sched_switch),
	TIPME_PROBE(sched_waking, probe_sched_waking),
};

const size_t tipme_sched_probes_count = ARRAY_SIZE(tipme_sched_probes);
