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

void pm_cost_begin(struct pm_cost_run *r, const struct pm_dump *pm,
		   int64_t from_ns, int64_t to_ns, struct pm_cost *c)
{
	memset(r, 0, sizeof(*r));
	r->pm = pm;
	r->c = c;
	r->first = INT64_MAX;
	r->last = INT64_MIN;
	memset(c, 0, sizeof(*c));
	c->from_ns = from_ns;
	c->to_ns = to_ns;
	c->ncpus = pm->nr_cpus;
	r->whole = from_ns == INT64_MIN && to_ns == INT64_MAX;
}

/* A record of the whole dump: its timestamp kept if first or last. */
static void whole_ts(struct pm_cost_run *r, uint64_t ts)
{
	if (!r->have_ts || ts < r->first_ts)
		r->first_ts = ts;
	if (!r->have_ts || ts > r->last_ts)
		r->last_ts = ts;
	r->have_ts = 1;
}

int pm_cost_add(struct pm_cost_run *r, const struct pm_event *ev,
		struct tm_err *e)
{
	const struct pm_dump *pm = r->pm;
	struct pm_cost *c = r->c;
	int64_t mono;
	int inside;

	if (ev->kind != PM_EV_RECORD)
		return 0;
	/* one record, one charge: not the blocked a short switch carries */
	if (r->whole) {
		inside = ev->rec_size != 0;
		if (inside)
			whole_ts(r, ev->ts);
	} else {
		mono = pm_clock_mono(&pm->clock, ev->ts);
		inside = mono >= c->from_ns && mono <= c->to_ns && ev->rec_size;
		if (inside && mono < r->first)
			r->first = mono;
		if (inside && mono > r->last)
			r->last = mono;
	}
	if (inside) {
		c->records++;
		/* cost batches count records as written */
		c->type_records[ev->raw_type]++;
		r->pend[ev->raw_type]++;
	}
	if (ev->type == TIPME_REC_COST && ev->rt->our_size) {
		const unsigned char *p;
		size_t n, i;

		c->have_costs = 1;
		n = pm_cost_entries(ev, &p);
		for (i = 0; i < n; i++) {
			struct tipme_cost_ent ce;
			double ns, share;

			memcpy(&ce, p + i * sizeof(ce), sizeof(ce));
			if (ce.type >= PM_NR_TYPES)
				return tm_err_set(e, EINVAL,
						  "cpu %" PRIu32 ": self-cost record at file offset %" PRIu64
						  ": entry %zu names record type %u (types are below %d)",
						  ev->cpu, ev->file_off, i, ce.type, PM_NR_TYPES);
			ns = (double)pm_ticks_to_ns(&pm->clock, ce.cycles);
			if (!ce.count) {	/* work without records */
				if (inside) {
					c->work_ns += ns;
					c->type_ns[ce.type] += ns;
				}
				continue;
			}
			share = r->pend[ce.type] >= ce.count ? 1.0 :
				(double)r->pend[ce.type] / ce.count;
			c->type_ns[ce.type] += ns * share;
			if (r->pend[ce.type] > ce.count)	/* not ours to know */
				c->estimated_records += r->pend[ce.type] - ce.count;
			r->pend[ce.type] = 0;
		}
		/* Types the batch did not list were written elsewhere. */
	}
	return 0;
}

void pm_cost_tally(struct pm_cost_run *r, struct pm_dec_tally *t)
{
	struct pm_cost *c = r->c;
	unsigned int k;

	if (!t->n)
		return;
	whole_ts(r, t->first_ts);
	whole_ts(r, t->last_ts);
	c->records += t->n;
	for (k = 0; k < PM_NR_TYPES; k++) {
		c->type_records[k] += t->count[k];
		r->pend[k] += t->count[k];
	}
	memset(t, 0, sizeof(*t));
}

void pm_cost_cpu_end(struct pm_cost_run *r)
{
	unsigned int t;

	for (t = 1; t < PM_NR_TYPES; t++) {
		if (!r->pend[t])
			continue;
		r->c->type_ns[t] += r->pend[t] * total_avg_ns(r->pm, t);
		r->c->estimated_records += r->pend[t];
		r->pend[t] = 0;
	}
}

void pm_cost_end(struct pm_cost_run *r)
{
	struct pm_cost *c = r->c;
	unsigned int t;

	if (r->whole && r->have_ts) {
		r->first = pm_clock_mono(&r->pm->clock, r->first_ts);
		r->last = pm_clock_mono(&r->pm->clock, r->last_ts);
	}
	if (c->from_ns == INT64_MIN)
		c->from_ns = r->first == INT64_MAX ? 0 : r->first;
	if (c->to_ns == INT64_MAX)
		c->to_ns = r->last == INT64_MIN ? c->from_ns : r->last;
	for (t = 1; t < PM_NR_TYPES; t++)
		c->cost_ns += c->type_ns[t];
}

/*
 * Charge the records of @d's stream: over the whole dump only their
 * headers are read, and the self-cost records whole (pm_dec_skim()).
 */
static int cost_cpu(struct pm_cost_run *r, struct pm_dec *d, struct tm_err *e)
{
	static const uint8_t costs[PM_NR_TYPES] = { [TIPME_REC_COST] = 1 };
	struct pm_dec_tally t;
	struct pm_event ev;
	int ret;

	memset(&t, 0, sizeof(t));
	while ((ret = r->whole ? pm_dec_skim(d, costs, &ev, &t, e) :
				 pm_dec_next(d, &ev, e)) > 0) {
		pm_cost_tally(r, &t);
		ret = pm_cost_add(r, &ev, e);
		if (ret)
			return ret;
	}
	pm_cost_tally(r, &t);
	return ret;
}

int pm_cost_compute(const struct pm_dump *pm, int64_t from_ns, int64_t to_ns,
		    struct pm_cost *c, struct tm_err *e)
{
	struct pm_cost_run r;
	struct pm_dec d;
	uint32_t i;
	int ret;

	pm_cost_begin(&r, pm, from_ns, to_ns, c);
	for (i = 0; i < pm->nr_cpus; i++) {
		pm_dec_init(&d, pm, &pm->cpus[i]);
		ret = cost_cpu(&r, &d, e);
		if (ret)
			return ret;
		pm_cost_cpu_end(&r);
	}
	pm_cost_end(&r);
	return 0;
}
