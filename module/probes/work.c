// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel work and interrupt context probes: a work item queued
 * (workqueue_queue_work), a worker calling its function
 * (workqueue_execute_start) and the function's return
 * (workqueue_execute_end); and which softirq vector (softirq_entry) or
 * interrupt handler (irq_handler_entry/exit) runs on the CPU.
 *
 * With them a reader follows a wakeup by a kernel worker to the work item
 * it ran and on to whoever queued it, and names the softirq or interrupt
 * of a wakeup in interrupt context.  The interrupt probes write nothing:
 * they note the vector or interrupt per CPU, and a TIPME_REC_INTR naming
 * it is written only before the first wakeup or work item queued in that
 * softirq or handler (tipme_intr_tell()), so softirqs and interrupts that
 * wake nobody cost no ring space.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/workqueue.h>
#include <trace/events/irq.h>
#include <trace/events/workqueue.h>
#include "recorder.h"
#include "control/autotrig.h"
#include "instr/cost.h"
#include "probes/ctx.h"
#include "probes/tracepoints.h"
#include "probes/work.h"

/* struct intr_now.irq before the first handler since load: not known */
#define INTR_IRQ_UNKNOWN	U32_MAX
/* struct intr_now.vec before the first softirq since load */
#define INTR_VEC_UNKNOWN	0xff

/**
 * struct intr_now - what interrupt context runs on a CPU
 * @irq: the interrupt whose handler runs, TIPME_INTR_NO_IRQ outside them
 * @vec: the softirq vector that runs (or ran last)
 * @hard_told: a TIPME_REC_INTR has named @irq since it changed
 * @soft_told: one has named @vec since the softirq began
 *
 * Written by the probes of this CPU only, each field by one context: a
 * hardirq between a softirq's reads and writes changes only its own.
 */
struct intr_now {
	u32 irq;
	u8 vec;
	bool hard_told;
	bool soft_told;
};

static DEFINE_PER_CPU(struct intr_now, intr_now) = {
	.irq = INTR_IRQ_UNKNOWN,
	.vec = INTR_VEC_UNKNOWN,
};

static void intr_record(u32 ctx, u32 irq, u32 vec)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_intr *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_INTR, sizeof(*r), &ws);
	if (!r)
		return;
	r->irq = (u16)irq;
	r->vec = (u8)vec;
	r->ctx = (u8)ctx;
	tipme_commit(&ws, TIPME_REC_INTR);
	tipme_cost_add(TIPME_REC_INTR, t0);
}

/**
 * tipme_intr_tell() - name the softirq or interrupt a record is written in
 * @ctx: enum tipme_ctx of the record about to be written
 *
 * Writes a TIPME_REC_INTR before the first record of a softirq vector or
 * an interrupt handler that needs one (a wakeup, a work item queued), none
 * for the next ones of the same softirq or handler, and none at all while
 * the interrupt probes have not yet seen what runs.
 *
 * Context: a probe, preemption disabled; called only for @ctx other than
 * TIPME_CTX_TASK.
 */
void tipme_intr_tell(u32 ctx)
{
	u32 v;

	if (ctx == TIPME_CTX_SOFTIRQ) {
		v = this_cpu_read(intr_now.vec);
		if (this_cpu_read(intr_now.soft_told) || v == INTR_VEC_UNKNOWN)
			return;
		this_cpu_write(intr_now.soft_told, true);
		intr_record(ctx, 0, v);
	} else if (ctx == TIPME_CTX_HARDIRQ) {
		v = this_cpu_read(intr_now.irq);
		if (this_cpu_read(intr_now.hard_told) || v == INTR_IRQ_UNKNOWN)
			return;
		this_cpu_write(intr_now.hard_told, true);
		intr_record(ctx, v > TIPME_INTR_NO_IRQ ? TIPME_INTR_NO_IRQ : v, 0);
	}
}

static void probe_softirq_entry(void *data, unsigned int vec_nr)
{
	this_cpu_write(intr_now.vec, (u8)vec_nr);
	this_cpu_write(intr_now.soft_told, false);
}

/*
 * A threaded handler (PREEMPT_RT, threadirqs) runs in task context, where
 * the CPU's real interrupts may interrupt it: only handlers in hardirq
 * context are what a hardirq's records ran in.
 */
static void probe_irq_handler_entry(void *data, int irq,
				    struct irqaction *action)
{
	if (!in_hardirq())
		return;
	this_cpu_write(intr_now.irq, irq < 0 || irq >= TIPME_INTR_NO_IRQ ?
		       TIPME_INTR_NO_IRQ : (u32)irq);
	this_cpu_write(intr_now.hard_told, false);
}

static void probe_irq_handler_exit(void *data, int irq,
				   struct irqaction *action, int ret)
{
	if (!in_hardirq())
		return;
	this_cpu_write(intr_now.irq, TIPME_INTR_NO_IRQ);
	this_cpu_write(intr_now.hard_told, false);
}

/* A work item's identity in the records: a hash of its address. */
static u32 work_id(const struct work_struct *work)
{
	return hash_ptr(work, 32);
}

static void work_record(u32 type, struct work_struct *work, work_func_t func)
{
	u64 t0 = tipme_cost_now();
	u32 ctx = tipme_ctx_now();
	struct tipme_rec_work *r;
	struct tipme_wslot ws;

	if (ctx != TIPME_CTX_TASK)
		tipme_intr_tell(ctx);
	r = tipme_reserve(type, sizeof(*r), &ws);
	if (!r)
		return;
	r->work = work_id(work);
	r->func = (u32)(unsigned long)func;
	r->who = tipme_work_who(current->pid, ctx);
	tipme_commit(&ws, type);
	tipme_cost_add(type, t0);
}

static void probe_workqueue_queue_work(void *data, int req_cpu,
				       struct pool_workqueue *pwq,
				       struct work_struct *work)
{
	tipme_auto_queue();
	work_record(TIPME_REC_WORK_QUEUE, work, work->func);
}

static void probe_workqueue_execute_start(void *data, struct work_struct *work)
{
	work_record(TIPME_REC_WORK_START, work, work->func);
}

/* @work may be freed by now: only its address is used. */
static void probe_workqueue_execute_end(void *data, struct work_struct *work,
					work_func_t function)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_work_end *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_WORK_END, sizeof(*r), &ws);
	if (!r)
		return;
	r->work = work_id(work);
	tipme_commit(&ws, TIPME_REC_WORK_END);
	tipme_cost_add(TIPME_REC_WORK_END, t0);
}

struct tipme_probe tipme_work_probes[] = {
	TIPME_PROBE(softirq_entry, probe_softirq_entry),
	TIPME_PROBE(irq_handler_entry, probe_irq_handler_entry),
	TIPME_PROBE(irq_handler_exit, probe_irq_handler_exit),
	TIPME_PROBE(workqueue_queue_work, probe_workqueue_queue_work),
	TIPME_PROBE(workqueue_execute_start, probe_workqueue_execute_start),
	TIPME_PROBE(workqueue_execute_end, probe_workqueue_execute_end),
};

const size_t tipme_work_probes_count = ARRAY_SIZE(tipme_work_probes);
