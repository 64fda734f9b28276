// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's own cost in an interval, from the self-cost records.
 *
 * Each CPU writes a TIPME_REC_COST after the records it covers: per type,
 * how many records it wrote since the previous one and the ticks they took.
 * A record inside the interval is charged its type's average in the batch
 * that covers it; records no batch covers (the end of a stream) are charged
 * the type's average over the whole recording (TIPME_SEC_COST).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/decode.h"
#include "../dump/tables.h"
#include "../records/records.h"
#include "cost.h"

/* Average ns per record of @type since load, from TIPME_SEC_COST. */
static double total_avg_ns(const struct pm_dump *pm, unsigned int type)
{
	const struct pm_instr *in = pm->instr;
	size_t i;

	for (i = 0; in && i < in->nr_costs; i++)
		if (in->costs[i].type == type && in->costs[i].count)
			return (double)pm_ticks_to_ns(&pm->clock, in->costs[i].cycles) /
			       (double)in->costs[i].count;
	return 0;
}

static int cost_cpu(const struct pm_dump *pm, const struct pm_cpu *pc,
		    struct pm_cost *c, int64_t *first, int64_t *last,
		    struct tm_err *e)
{
	uint64_t pend[PM_NR_TYPES];
	struct pm_event ev;
	struct pm_dec d;
	unsigned int t;
	int ret;

	memset(pend, 0, sizeof(pend));
	pm_dec_init(&d, pm, pc);
	while ((ret = pm_dec_next(&d, &ev, e)) > 0) {
		int64_t mono;
		int inside;

		if (ev.kind != PM_EV_RECORD)
			continue;
		mono = pm_clock_mono(&pm->clock, ev.ts);
		/* one record, one charge: not the blocked a short switch carries */
		inside = mono >= c->from_ns && mono <= c->to_ns && ev.rec_size;
		if (inside) {
			c->records++;
			/* cost batches count records as written */
			c->type_records[ev.raw_type]++;
			pend[ev.raw_type]++;
			if (mono < *first)
				*first = mono;
			if (mono > *last)
				*last = mono;
		}
		if (ev.type == TIPME_REC_COST && ev.rt->our_size) {
			const unsigned char *p;
			size_t n, i;

			c->have_costs = 1;
			n = pm_cost_entries(&ev, &p);
			for (i = 0; i < n; i++) {
				struct tipme_cost_ent ce;
				double ns, share;

				memcpy(&ce, p + i * sizeof(ce), sizeof(ce));
				if (ce.type >= PM_NR_TYPES)
					return tm_err_set(e, EINVAL,
							  "cpu %" PRIu32 ": self-cost record at file offset %" PRIu64
							  ": entry %zu names record type %u (types are below %d)",
							  ev.cpu, ev.file_off, i, ce.type, PM_NR_TYPES);
				ns = (double)pm_ticks_to_ns(&pm->clock, ce.cycles);
				if (!ce.count) {	/* work without records */
					if (inside) {
						c->work_ns += ns;
						c->type_ns[ce.type] += ns;
					}
					continue;
				}
				share = pend[ce.type] >= ce.count ? 1.0 :
					(double)pend[ce.type] / ce.count;
				c->type_ns[ce.type] += ns * share;
				if (pend[ce.type] > ce.count)	/* not ours to know */
					c->estimated_records += pend[ce.type] - ce.count;
				pend[ce.type] = 0;
			}
			/* Types the batch did not list were written elsewhere. */
		}
	}
	if (ret < 0)
		return ret;
	for (t = 1; t < PM_NR_TYPES; t++) {
		if (!pend[t])
			continue;
		c->type_ns[t] += pend[t] * total_avg_ns(pm, t);
		c->estimated_records += pend[t];
	}
	return 0;
}

int pm_cost_compute(const struct pm_dump *pm, int64_t from_ns, int64_t to_ns,
		    struct pm_cost *c, struct tm_err *e)
{
	int64_t first = INT64_MAX, last = INT64_MIN;
	unsigned int t;
	uint32_t i;
	int err;

	memset(c, 0, sizeof(*c));
	c->from_ns = from_ns;
	c->to_ns = to_ns;
	c->ncpus = pm->nr_cpus;
	for (i = 0; i < pm->nr_cpus; i++) {
		err = cost_cpu(pm, &pm->cpus[i], c, &first, &last, e);
		if (err)
			return err;
	}
	if (from_ns == INT64_MIN)
		c->from_ns = first == INT64_MAX ? 0 : first;
	if (to_ns == INT64_MAX)
		c->to_ns = last == INT64_MIN ? c->from_ns : last;
	for (t = 1; t < PM_NR_TYPES; t++)
		c->cost_ns += c->type_ns[t];
	return 0;
}
