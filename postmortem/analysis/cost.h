/* SPDX-License-Identifier: GPL-2.0 */
/* The recorder's own cost inside an interval, from its self-cost records. */
#ifndef TIPME_PM_ANALYSIS_COST_H
#define TIPME_PM_ANALYSIS_COST_H

#include <stdint.h>

#include "../dump/pm.h"

struct pm_event;
struct pm_dec_tally;

/**
 * struct pm_cost - the recorder's own cost inside an interval
 * @from_ns: interval start, CLOCK_MONOTONIC
 * @to_ns: interval end
 * @ncpus: CPUs the dump has streams for
 * @records: records written inside the interval (all types)
 * @cost_ns: time the recorder spent creating them (CPU time, all CPUs)
 * @estimated_records: records whose cost came from the type's average over
 *                     the whole recording (no cost batch covered them)
 * @type_records: per type
 * @type_ns: per type
 * @work_ns: recorder work inside the interval that wrote no record
 *           (argv reads, sampler rounds that found nothing)
 * @have_costs: the dump has self-cost records at all
 */
struct pm_cost {
	int64_t from_ns, to_ns;
	uint32_t ncpus;
	uint64_t records;
	double cost_ns;
	uint64_t estimated_records;
	uint64_t type_records[PM_NR_TYPES];
	double type_ns[PM_NR_TYPES];
	double work_ns;
	int have_costs;
};

/**
 * pm_cost_compute() - the recorder's own cost in [@from_ns, @to_ns]
 * @pm: the dump
 * @from_ns: start (CLOCK_MONOTONIC ns); INT64_MIN for the first record
 * @to_ns: end; INT64_MAX for the last record
 * @c: result
 * @e: error message
 *
 * Each record is charged the average cost of its type in the self-cost
 * batch (TIPME_REC_COST) that covers it on its CPU.
 *
 * Return: 0 or a negative errno.
 */
int pm_cost_compute(const struct pm_dump *pm, int64_t from_ns, int64_t to_ns,
		    struct pm_cost *c, struct tm_err *e);

/**
 * struct pm_cost_run - pm_cost_compute() one event at a time
 * @pm: the dump
 * @c: the result being summed
 * @first: earliest record inside the interval (CLOCK_MONOTONIC ns)
 * @last: latest
 * @pend: per type, records of the current CPU no cost batch covered yet
 * @whole: the interval is the whole dump (INT64_MIN to INT64_MAX): every
 *	record is inside, and @first and @last are the times of the
 *	earliest and latest timestamps, @first_ts and @last_ts (the clock's
 *	mapping never goes back: the loader keeps pairs increasing), so
 *	that a record's time is not converted
 * @have_ts: @first_ts and @last_ts hold a record's
 *
 * For a caller that decodes each CPU's stream anyway (`tipme info`), so
 * that the dump is decoded once: pm_cost_begin(), then per CPU every
 * event of its stream to pm_cost_add() (or, over the whole dump, what
 * pm_dec_skim() passed over to pm_cost_tally(), then the record it gave,
 * every TIPME_REC_COST among them, to pm_cost_add()) and
 * pm_cost_cpu_end(), then pm_cost_end().  The result is
 * pm_cost_compute()'s.
 */
struct pm_cost_run {
	const struct pm_dump *pm;
	struct pm_cost *c;
	int64_t first, last;
	uint64_t pend[PM_NR_TYPES];
	int whole, have_ts;
	uint64_t first_ts, last_ts;
};

void pm_cost_begin(struct pm_cost_run *r, const struct pm_dump *pm,
		   int64_t from_ns, int64_t to_ns, struct pm_cost *c);
/* Return: 0 or a negative errno (a cost entry naming no record type). */
int pm_cost_add(struct pm_cost_run *r, const struct pm_event *ev,
		struct tm_err *e);
/*
 * pm_cost_tally(): the records pm_dec_skim() passed over, charged as
 * pm_cost_add() would each, and @t emptied; for a run over the whole
 * dump only (@whole).
 */
void pm_cost_tally(struct pm_cost_run *r, struct pm_dec_tally *t);
void pm_cost_cpu_end(struct pm_cost_run *r);
void pm_cost_end(struct pm_cost_run *r);

#endif
