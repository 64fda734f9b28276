/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder's own cost.  Every probe reads the clock when it starts and
 * adds the ticks it took to per-CPU counters of its record type: running
 * totals since load (status, dump section) and a batch that each CPU writes
 * out as a TIPME_REC_COST record every cost_period_ms, so a reader can tell
 * the recorder's overhead inside any interval of the dump.
 */
#ifndef TIPME_COST_H
#define TIPME_COST_H

#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/tipme.h>
#include "clock.h"

/* A batch is written out before any of its counts can overflow a __u16. */
#define TIPME_COST_BATCH_MAX	60000

/**
 * struct tipme_cost_cpu - one CPU's cost counters
 * @total_cycles: ticks per record type since load
 * @total_count: records per record type since load
 * @batch_cycles: ticks per type since the last TIPME_REC_COST
 * @batch_count: records per type since the last TIPME_REC_COST
 * @last_emit: when the last TIPME_REC_COST was written
 * @emitting: a TIPME_REC_COST is being written (nested writers skip)
 */
struct tipme_cost_cpu {
	u64 total_cycles[TIPME_REC_NR];
	u64 total_count[TIPME_REC_NR];
	u32 batch_cycles[TIPME_REC_NR];
	u32 batch_count[TIPME_REC_NR];
	u64 last_emit;
	int emitting;
};

extern struct tipme_cost_cpu __percpu *tipme_cost_pcpu;
extern u64 tipme_cost_period;

/* Context: any.  Cheaper than the record clock: no serialising fence. */
static __always_inline u64 tipme_cost_now(void)
{
	if (static_branch_likely(&tipme_clock_is_tsc))
		return rdtsc();
	return local_clock();
}

void tipme_cost_emit(u64 now);

/**
 * tipme_cost_account() - charge @count records of @type and @cycles ticks
 * @type: enum tipme_rec_type
 * @count: records written (0 for work that wrote none)
 * @cycles: ticks it took
 * @now: the clock, as tipme_cost_now()
 *
 * Context: preemption disabled, any context.
 */
static __always_inline void tipme_cost_account(u32 type, u32 count, u64 cycles,
					       u64 now)
{
	struct tipme_cost_cpu __percpu *c = tipme_cost_pcpu;
	u32 n;

	if (unlikely(cycles > U32_MAX))
		cycles = U32_MAX;
	this_cpu_add(c->total_cycles[type], cycles);
	this_cpu_add(c->total_count[type], count);
	this_cpu_add(c->batch_cycles[type], (u32)cycles);
	n = this_cpu_add_return(c->batch_count[type], count);
	if (unlikely(now - this_cpu_read(c->last_emit) >= tipme_cost_period ||
		     n >= TIPME_COST_BATCH_MAX))
		tipme_cost_emit(now);
}

/**
 * tipme_cost_add() - charge one record of @type that started at @t0
 * @type: enum tipme_rec_type
 * @t0: tipme_cost_now() when the probe started, or the record's timestamp
 *      (struct tipme_wslot.ts) where the probe does nothing before
 *      reserving it: one clock read less per record
 *
 * Context: preemption disabled, any context.
 * Return: the clock now, for a record written next to start its cost at.
 */
static __always_inline u64 tipme_cost_add(u32 type, u64 t0)
{
	u64 now = tipme_cost_now();

	tipme_cost_account(type, 1, now - t0, now);
	return now;
}

int tipme_cost_init(unsigned int period_ms);
void tipme_cost_exit(void);
void tipme_cost_flush_all(void);
size_t tipme_cost_totals(struct tipme_cost_total *out, size_t max);

#endif /* TIPME_COST_H */
