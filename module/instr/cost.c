// SPDX-License-Identifier: GPL-2.0
/*
 * Self-cost accounting: per-CPU counters and the TIPME_REC_COST batches.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "fault.h"
#include "recorder.h"
#include "instr/cost.h"

struct tipme_cost_cpu __percpu *tipme_cost_pcpu;
u64 tipme_cost_period;

/**
 * tipme_cost_emit() - write this CPU's batch as a TIPME_REC_COST record
 * @now: tipme_cost_now()
 *
 * Types whose batch is empty are left out; a record with no entry is not
 * written.  The record's own cost goes into the next batch.
 *
 * Context: preemption disabled, any context; a nested call while one is
 * being written returns at once.
 */
void tipme_cost_emit(u64 now)
{
	struct tipme_cost_cpu __percpu *c = tipme_cost_pcpu;
	struct {
		struct tipme_rec_cost h;
		struct tipme_cost_ent e[TIPME_REC_NR];
	} buf;
	struct tipme_rec_cost *r;
	struct tipme_wslot ws;
	unsigned int t, n = 0;
	u32 count, cycles;
	size_t len;

	if (this_cpu_cmpxchg(c->emitting, 0, 1))
		return;
	this_cpu_write(c->last_emit, now);
	for (t = 1; t < TIPME_REC_NR; t++) {
		if (!this_cpu_read(c->batch_count[t]) &&
		    !this_cpu_read(c->batch_cycles[t]))
			continue;
		count = this_cpu_xchg(c->batch_count[t], 0);
		cycles = this_cpu_xchg(c->batch_cycles[t], 0);
		buf.e[n].type = t;
		buf.e[n].reserved = 0;
		buf.e[n].count = min_t(u32, count, U16_MAX);
		buf.e[n].cycles = cycles;
		n++;
	}
	if (n) {
		len = sizeof(buf.h) + n * sizeof(buf.e[0]);
		buf.h.len = len;
		buf.h.nr = n;
		buf.h.flags = 0;
		r = tipme_reserve(TIPME_REC_COST, len, &ws);
		if (r) {
			memcpy(r, &buf, len);
			tipme_commit(&ws, TIPME_REC_COST);
			/* Straight into the counters: no recursion into here. */
			cycles = min_t(u64, tipme_cost_now() - now, U32_MAX);
			this_cpu_add(c->total_cycles[TIPME_REC_COST], cycles);
			this_cpu_inc(c->total_count[TIPME_REC_COST]);
			this_cpu_add(c->batch_cycles[TIPME_REC_COST], cycles);
			this_cpu_inc(c->batch_count[TIPME_REC_COST]);
		}
	}
	this_cpu_write(c->emitting, 0);
}

static void flush_one(void *unused)
{
	tipme_cost_emit(tipme_cost_now());
}

/**
 * tipme_cost_flush_all() - write every CPU's pending batch now
 *
 * A dump calls it first, so the cost of the last records before it is in
 * the rings too.
 *
 * Context: process context, may sleep (waits for every CPU).
 */
void tipme_cost_flush_all(void)
{
	on_each_cpu(flush_one, NULL, 1);
}

/**
 * tipme_cost_totals() - every record type's cost since load, all CPUs
 * @out: destination
 * @max: its entries
 *
 * Context: any.
 * Return: entries written (types that have a cost or a count).
 */
size_t tipme_cost_totals(struct tipme_cost_total *out, size_t max)
{
	size_t n = 0;
	unsigned int t;
	int cpu;

	for (t = 1; t < TIPME_REC_NR && n < max; t++) {
		u64 count = 0, cycles = 0;

		for_each_possible_cpu(cpu) {
			struct tipme_cost_cpu *c = per_cpu_ptr(tipme_cost_pcpu, cpu);

			count += READ_ONCE(c->total_count[t]);
			cycles += READ_ONCE(c->total_cycles[t]);
		}
		if (!count && !cycles)
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		out[n].type = t;
		out[n].count = count;
		out[n].cycles = cycles;
		n++;
	}
	return n;
}

/**
 * tipme_cost_init() - allocate the counters
 * @period_ms: how often each CPU writes its batch
 *
 * Context: process context (module init).
 * Return: 0 or -ENOMEM.
 */
int tipme_cost_init(unsigned int period_ms)
{
	tipme_cost_period = (u64)max(period_ms, 1U) * tipme_clock_khz();
	tipme_cost_pcpu = tipme_fail_step("cost counters") ? NULL :
			  alloc_percpu(struct tipme_cost_cpu);
	return tipme_cost_pcpu ? 0 : -ENOMEM;
}

/**
 * tipme_cost_exit() - free the counters
 *
 * Context: process context; no probe may run any more.
 */
void tipme_cost_exit(void)
{
	free_percpu(tipme_cost_pcpu);
	tipme_cost_pcpu = NULL;
}
