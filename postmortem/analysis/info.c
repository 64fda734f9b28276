// SPDX-License-Identifier: GPL-2.0
/* The summary of a dump that `tipme info` prints. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/tables.h"
#include "info.h"

static int cmp_u32(uint32_t a, uint32_t b)
{
	return (a > b) - (a < b);
}

/*
 * Decode @pc's stream for its counts, the sampler's rounds it holds and,
 * unless it failed already, the recorder's cost (@r): one pass over the
 * stream for all.
 */
static int decode_cpu(struct pm_info *in, const struct pm_cpu *pc,
		      struct pm_cost_run *r, struct pm_dec_stats *st,
		      struct tm_err *e)
{
	/* the records read whole: the rest only counted (pm_dec_skim()) */
	static const uint8_t smp[PM_NR_TYPES] = { [TIPME_REC_SAMPLE_END] = 1 };
	static const uint8_t smp_cost[PM_NR_TYPES] = {
		[TIPME_REC_SAMPLE_END] = 1, [TIPME_REC_COST] = 1,
	};
	const struct tipme_rec_sample_end *se;
	struct pm_dec_tally t;
	struct pm_event ev;
	struct pm_dec d;
	int ret;

	memset(&t, 0, sizeof(t));
	pm_dec_init(&d, in->pm, pc);
	while ((ret = pm_dec_skim(&d, in->have_instr && !in->cost_err ? smp_cost : smp,
				  &ev, &t, e)) > 0) {
		if (in->have_instr && !in->cost_err) {
			pm_cost_tally(r, &t);
			in->cost_err = pm_cost_add(r, &ev, &in->cost_msg);
		}
		if (ev.type != TIPME_REC_SAMPLE_END)
			continue;
		se = &ev.u.se;
		in->smp.ends++;
		in->smp.full += !!(se->flags & TIPME_SMPEND_FULL);
		if (se->threads > in->smp.threads_max)
			in->smp.threads_max = se->threads;
		in->smp.table_full += !!(se->flags & TIPME_SMPEND_TABLE_FULL);
		in->smp.skipped += se->skipped;
	}
	*st = d.st;
	if (!ret && in->have_instr && !in->cost_err) {
		pm_cost_tally(r, &t);
		pm_cost_cpu_end(r);
	}
	return ret;
}

/* Gather the CPUs of the streams and of the stats, decode every stream. */
static int collect(struct pm_info *in, struct pm_cost_run *r,
		   struct tm_err *e)
{
	const struct pm_dump *pm = in->pm;
	uint64_t first = 0, last = 0, kept_from = 0, kept_to = 0;
	int c, lost_before = 0, lost_after = 0;
	uint32_t i = 0, j = 0, k, t;

	in->cpus = calloc((size_t)pm->nr_cpus + pm->nr_stats + 1, sizeof(*in->cpus));
	if (!in->cpus)
		return tm_err_set(e, ENOMEM, "out of memory");
	while (i < pm->nr_cpus || j < pm->nr_stats) {
		struct pm_info_cpu *ic = &in->cpus[in->nr++];

		if (i >= pm->nr_cpus)
			c = 1;
		else if (j >= pm->nr_stats)
			c = -1;
		else
			c = cmp_u32(pm->cpus[i].cpu, pm->stats[j].cpu);
		if (c <= 0) {
			int err;

			ic->cpu = pm->cpus[i].cpu;
			ic->has_stream = 1;
			err = decode_cpu(in, &pm->cpus[i], r, &ic->st, e);
			if (err)
				return err;
			i++;
		}
		if (c >= 0) {
			ic->cpu = pm->stats[j].cpu;
			ic->cs = &pm->stats[j];
			j++;
		}
	}
	for (k = 0; k < in->nr; k++) {
		struct pm_info_cpu *ic = &in->cpus[k];

		for (t = 0; t < PM_NR_TYPES; t++) {
			in->tot.count[t] += ic->st.count[t];
			in->tot.bytes[t] += ic->st.bytes[t];
		}
		in->tot.records += ic->st.records;
		in->tot.pad_bytes += ic->st.pad_bytes;
		in->tot.subbufs += ic->st.subbufs;
		in->missing += ic->st.missing_subbufs;
		if (ic->cs) {
			in->overwritten += ic->cs->overwritten;
			in->dropped += ic->cs->dropped;
			in->discarded += ic->cs->discarded_subbufs;
		}
		if (!ic->st.have_ts)
			continue;
		if (!in->have_window || ic->st.first_ts < first)
			first = ic->st.first_ts;
		if (!in->have_window || ic->st.last_ts > last)
			last = ic->st.last_ts;
		in->have_window = 1;
		if (ic->st.lost_before &&
		    (!lost_before || ic->st.kept_from_ts > kept_from)) {
			kept_from = ic->st.kept_from_ts;
			lost_before = 1;
		}
		if (ic->st.lost_at_end && (!lost_after || ic->st.last_ts < kept_to)) {
			kept_to = ic->st.last_ts;
			lost_after = 1;
		}
	}
	/*
	 * The window no CPU lost records in: from the latest first record
	 * after a CPU's loss (or the earliest record if none lost any) to
	 * the end of the streams (or the earliest last record before a loss).
	 */
	in->win_start = lost_before ? kept_from : first;
	in->win_end = lost_after && kept_to < last ? kept_to : last;
	return 0;
}

int pm_info_collect(struct pm_info *in, const struct pm_dump *pm,
		    struct tm_err *e)
{
	struct pm_cost_run r;
	int err;

	memset(in, 0, sizeof(*in));
	in->pm = pm;
	/* Dumps of writers without instrumentation: no exec table, no cost. */
	in->have_instr = (pm->instr && pm->instr->have_exectab) ||
			 pm->rt[TIPME_REC_COST].our_size;
	if (in->have_instr)
		pm_cost_begin(&r, pm, INT64_MIN, INT64_MAX, &in->cost);
	err = collect(in, &r, e);
	if (err)
		return err;
	if (in->have_instr && !in->cost_err)
		pm_cost_end(&r);
	return 0;
}

void pm_info_free(struct pm_info *in)
{
	free(in->cpus);
	in->cpus = NULL;
}
