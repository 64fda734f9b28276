// SPDX-License-Identifier: GPL-2.0
/* The summary of a dump that `tipme info` prints. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../dump/tables.h"
#include "info.h"

static int cmp_u32(uint32_t a, uint32_t b)
{
	return (a > b) - (a < b);
}

/*
 * The CPUs' streams are skimmed on up to INFO_THREADS threads at once
 * (each a CPU's stream at a time, pm_dec_skim()), each keeping what the
 * whole pass needs of its stream: the sample_end and cost records it gave
 * whole, the counts of the records between them (a tally, kept sparse:
 * the types it counted), its statistics.  The recorder's cost is then
 * summed from them in CPU order, as one thread reading the streams one
 * after the other would (the sums are of doubles: the order is the
 * result's), and the sampler's rounds counted.
 */
#define INFO_THREADS	4

/* The records a stream's skim passed over before one it gave whole. */
struct tally_ent {
	uint32_t type;
	uint64_t n;
};

/**
 * struct logged - a record the skim gave whole, and the tally before it
 * @ev: the record (its payload in the mapped dump)
 * @t_off: the tally's first entry in struct cpu_log.te
 * @t_n: its entries
 * @n: records it counted
 * @have_ts: @first_ts and @last_ts are a record's
 * @first_ts: the earliest of them
 * @last_ts: the latest
 */
struct logged {
	struct pm_event ev;
	size_t t_off;
	uint32_t t_n;
	uint64_t n;
	int have_ts;
	uint64_t first_ts, last_ts;
};

/**
 * struct cpu_log - one CPU stream's skim
 * @pc: the stream
 * @ev: the records given whole, in order
 * @nev: entries of @ev
 * @cap: room in @ev
 * @te: the tallies' entries
 * @nte: entries of @te
 * @tcap: room in @te
 * @end: the tally after the last record of @ev (@end.ev unused)
 * @st: the stream's statistics
 * @ret: pm_dec_skim()'s last answer (0, or a negative errno in @e)
 * @e: its message
 */
struct cpu_log {
	const struct pm_cpu *pc;
	struct logged *ev;
	size_t nev, cap;
	struct tally_ent *te;
	size_t nte, tcap;
	struct logged end;
	struct pm_dec_stats st;
	int ret;
	struct tm_err e;
};

/* Keep @t in @l's tally entries as @lg's tally, and empty it. */
static int keep_tally(struct cpu_log *l, struct logged *lg,
		      struct pm_dec_tally *t)
{
	uint32_t k;

	lg->t_off = l->nte;
	lg->t_n = 0;
	lg->n = t->n;
	lg->have_ts = t->have_ts;
	lg->first_ts = t->first_ts;
	lg->last_ts = t->last_ts;
	for (k = 0; k < PM_NR_TYPES && t->n; k++) {
		if (!t->count[k])
			continue;
		if (l->nte == l->tcap) {
			size_t cap = l->tcap ? 2 * l->tcap : 256;
			struct tally_ent *n = realloc(l->te, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			l->te = n;
			l->tcap = cap;
		}
		l->te[l->nte].type = k;
		l->te[l->nte++].n = t->count[k];
		lg->t_n++;
	}
	memset(t, 0, sizeof(*t));
	return 0;
}

/* @lg's tally, whole again. */
static void tally_of(const struct cpu_log *l, const struct logged *lg,
		     struct pm_dec_tally *t)
{
	uint32_t k;

	memset(t, 0, sizeof(*t));
	t->n = lg->n;
	t->have_ts = lg->have_ts;
	t->first_ts = lg->first_ts;
	t->last_ts = lg->last_ts;
	for (k = 0; k < lg->t_n; k++)
		t->count[l->te[lg->t_off + k].type] = l->te[lg->t_off + k].n;
}

/* Skim @l's stream (@cost: give the cost records whole too). */
static void skim_cpu(const struct pm_dump *pm, struct cpu_log *l, int cost)
{
	/* the records read whole: the rest only counted (pm_dec_skim()) */
	static const uint8_t smp[PM_NR_TYPES] = { [TIPME_REC_SAMPLE_END] = 1 };
	static const uint8_t smp_cost[PM_NR_TYPES] = {
		[TIPME_REC_SAMPLE_END] = 1, [TIPME_REC_COST] = 1,
	};
	struct pm_dec_tally t;
	struct pm_event ev;
	struct pm_dec d;
	int ret;

	memset(&t, 0, sizeof(t));
	pm_dec_init(&d, pm, l->pc);
	while ((ret = pm_dec_skim(&d, cost ? smp_cost : smp, &ev, &t, &l->e)) > 0) {
		if (l->nev == l->cap) {
			size_t cap = l->cap ? 2 * l->cap : 64;
			struct logged *n = realloc(l->ev, cap * sizeof(*n));

			if (!n) {
				ret = tm_err_set(&l->e, ENOMEM, "out of memory");
				break;
			}
			l->ev = n;
			l->cap = cap;
		}
		l->ev[l->nev].ev = ev;
		if (keep_tally(l, &l->ev[l->nev++], &t)) {
			ret = tm_err_set(&l->e, ENOMEM, "out of memory");
			break;
		}
	}
	if (!ret && keep_tally(l, &l->end, &t))
		ret = tm_err_set(&l->e, ENOMEM, "out of memory");
	l->st = d.st;
	l->ret = ret;
}

/* The threads' shared work: the next stream to skim. */
struct skim_work {
	const struct pm_dump *pm;
	struct cpu_log *logs;
	size_t n;
	size_t next;
	int cost;
	pthread_mutex_t lock;
};

static void *skim_thread(void *arg)
{
	struct skim_work *w = arg;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&w->lock);
		i = w->next++;
		pthread_mutex_unlock(&w->lock);
		if (i >= w->n)
			return NULL;
		skim_cpu(w->pm, &w->logs[i], w->cost);
	}
}

/* Skim every stream of @pm into @logs, on threads where the machine has CPUs. */
static void skim_all(struct skim_work *w)
{
	pthread_t th[INFO_THREADS];
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = w->n < INFO_THREADS ? w->n : INFO_THREADS, k, started = 0;

	if (online > 0 && (size_t)online < n)
		n = (size_t)online;
	pthread_mutex_init(&w->lock, NULL);
	for (k = 1; k < n; k++)
		if (!pthread_create(&th[started], NULL, skim_thread, w))
			started++;
	skim_thread(w);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	pthread_mutex_destroy(&w->lock);
}

/*
 * What @l's stream says, in its order: its counts, the sampler's rounds
 * it holds and, unless it failed already, the recorder's cost (@r).
 */
static int replay_cpu(struct pm_info *in, const struct cpu_log *l,
		      struct pm_cost_run *r, struct pm_dec_stats *st,
		      struct tm_err *e)
{
	const struct tipme_rec_sample_end *se;
	struct pm_dec_tally t;
	size_t i;

	for (i = 0; i < l->nev; i++) {
		const struct pm_event *ev = &l->ev[i].ev;

		if (in->have_instr && !in->cost_err) {
			tally_of(l, &l->ev[i], &t);
			pm_cost_tally(r, &t);
			in->cost_err = pm_cost_add(r, ev, &in->cost_msg);
		}
		if (ev->type != TIPME_REC_SAMPLE_END)
			continue;
		se = &ev->u.se;
		in->smp.ends++;
		in->smp.full += !!(se->flags & TIPME_SMPEND_FULL);
		if (se->threads > in->smp.threads_max)
			in->smp.threads_max = se->threads;
		in->smp.table_full += !!(se->flags & TIPME_SMPEND_TABLE_FULL);
		in->smp.skipped += se->skipped;
	}
	*st = l->st;
	if (l->ret) {
		*e = l->e;
		return l->ret;
	}
	if (in->have_instr && !in->cost_err) {
		tally_of(l, &l->end, &t);
		pm_cost_tally(r, &t);
		pm_cost_cpu_end(r);
	}
	return 0;
}

static void free_logs(struct skim_work *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		free(w->logs[i].ev);
		free(w->logs[i].te);
	}
	free(w->logs);
}

/* Gather the CPUs of the streams and of the stats, decode every stream. */
static int collect(struct pm_info *in, struct pm_cost_run *r,
		   struct tm_err *e)
{
	const struct pm_dump *pm = in->pm;
	uint64_t first = 0, last = 0, kept_from = 0, kept_to = 0;
	int c, lost_before = 0, lost_after = 0;
	uint32_t i, j = 0, k, t;
	struct skim_work w;

	in->cpus = calloc((size_t)pm->nr_cpus + pm->nr_stats + 1, sizeof(*in->cpus));
	w.logs = calloc((size_t)pm->nr_cpus + 1, sizeof(*w.logs));
	if (!in->cpus || !w.logs) {
		free(w.logs);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	w.pm = pm;
	w.n = pm->nr_cpus;
	w.next = 0;
	w.cost = in->have_instr;
	for (i = 0; i < pm->nr_cpus; i++)
		w.logs[i].pc = &pm->cpus[i];
	skim_all(&w);
	i = 0;
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
			err = replay_cpu(in, &w.logs[i], r, &ic->st, e);
			if (err) {
				free_logs(&w);
				return err;
			}
			i++;
		}
		if (c >= 0) {
			ic->cpu = pm->stats[j].cpu;
			ic->cs = &pm->stats[j];
			j++;
		}
	}
	free_logs(&w);
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
	/* every section's checksum, the streams' too (pm_open() left them) */
	err = pm_check_all(pm, e);
	if (err) {
		if (pm->path[0])
			tm_err_prefix(e, "%s", pm->path);
		return err;
	}
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
