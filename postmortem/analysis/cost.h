/* SPDX-License-Identifier: GPL-2.0 */
/* The recorder's own cost inside an interval, from its self-cost records. */
#ifndef TIPME_PM_ANALYSIS_COST_H
#define TIPME_PM_ANALYSIS_COST_H

#include <stdint.h>

#include "../dump/pm.h"

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

#endif
