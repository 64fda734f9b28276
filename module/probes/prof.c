// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's sample: what the task a profiler timer interrupted was
 * doing (instr/profile.c runs the timers).
 *
 * The interrupted task is current.  Its kernel chain, when the timer came
 * in kernel mode, is the stack from the interrupted instruction on
 * (stack_trace_save() from the timer walks the interrupt's frames first:
 * they are dropped up to the interrupted address), numbered in the site
 * table as blocking sites are (low 32 bits, at most the site depth).  Its
 * user chain, for a user task, is the frame-pointer walk of ustack.c from
 * the registers it entered the kernel with, numbered in the user stack
 * table.  The record leaves the pid out when the CPU's latest switch
 * record put the task on it (TIPME_REC_PROF_C, TIPME_REC_PROF_U).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <asm/irq_regs.h>
#include "recorder.h"
#include "instr/cost.h"
#include "instr/site.h"
#include "instr/sitetab.h"
#include "instr/ustack.h"
#include "probes/prof.h"
#include "probes/sched.h"

/* Interrupt plumbing above the interrupted frame, at most. */
#define PROF_IRQ_FRAMES		24

/* The number of the interrupted kernel chain; 0 if none or not kept. */
static u32 prof_kernel_chain(struct pt_regs *regs)
{
	unsigned long st[PROF_IRQ_FRAMES + TIPME_SITE_DEPTH_MAX];
	unsigned int depth = READ_ONCE(tipme_site_depth);
	u32 ips[TIPME_SITE_DEPTH_MAX], hi = tipme_site_text_hi();
	unsigned int n, i, k = 0;
	unsigned long ip;

	if (!depth || !tipme_sitetab_enabled())
		return 0;
	ip = instruction_pointer(regs);
	n = stack_trace_save(st, ARRAY_SIZE(st), 0);
	for (i = 0; i < n && i < PROF_IRQ_FRAMES; i++)
		if (st[i] == ip)
			break;
	if (i == n || i == PROF_IRQ_FRAMES) {
		/* no frame at the interrupted address: the leaf alone */
		st[0] = ip;
		i = 0;
		n = 1;
	}
	for (; i < n && k < depth; i++) {
		if ((u64)st[i] >> 32 != hi)
			break;
		ips[k++] = (u32)st[i];
	}
	if (!k)
		return 0;
	return tipme_sitetab_intern(ips, k, i < n);
}

/**
 * tipme_prof_record() - one profiler sample of the current task
 * @t0: tipme_cost_now() when the timer's callback started
 *
 * Context: the profiler's timer (hard interrupt context), on the CPU whose
 * ring gets the record.  Never sleeps, allocates or takes a page fault.
 */
void tipme_prof_record(u64 t0)
{
	struct task_struct *p = current;
	struct pt_regs *regs = get_irq_regs();
	struct tipme_wslot ws;
	u32 site = 0, ustack = 0, type;
	bool user;

	if (!READ_ONCE(tipme.recording) || is_idle_task(p) || !regs)
		return;
	user = user_mode(regs);
	if (!user)
		site = prof_kernel_chain(regs);
	if (p->mm && !(p->flags & (PF_KTHREAD | PF_EXITING | PF_IO_WORKER)))
		ustack = tipme_ustack_capture_irq();
	if (!tipme_ring_current_is(p->pid)) {
		struct tipme_rec_prof *r;

		type = TIPME_REC_PROF;
		r = tipme_reserve(type, sizeof(*r), &ws);
		if (!r)
			return;
		r->pid = p->pid;
		r->site = site;
		r->ustack = ustack;
	} else if (user) {
		struct tipme_rec_prof_u *r;

		type = TIPME_REC_PROF_U;
		r = tipme_reserve(type, sizeof(*r), &ws);
		if (!r)
			return;
		r->ustack = ustack;
	} else {
		struct tipme_rec_prof_c *r;

		type = TIPME_REC_PROF_C;
		r = tipme_reserve(type, sizeof(*r), &ws);
		if (!r)
			return;
		r->site = site;
		r->ustack = ustack;
	}
	tipme_commit(&ws, type);
	tipme_cost_add(type, t0);
}

/**
 * tipme_prof_rate() - tell this CPU's ring the profiler's rate from now on
 * @hz: samples per second; 0: the profiler stops on this CPU
 *
 * Context: preemption disabled, on the CPU concerned.
 */
void tipme_prof_rate(u32 hz)
{
	struct tipme_rec_prof_rate *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_PROF_RATE, sizeof(*r), &ws);
	if (!r)
		return;
	r->hz = hz;
	r->reserved = 0;
	tipme_commit(&ws, TIPME_REC_PROF_RATE);
}
