// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler's records: a round's threads (sample) and its summary
 * (sample_end).  They name threads but are selected by type only.
 */
#include <inttypes.h>
#include <string.h>

#include "family.h"

static const char *policy_name(unsigned int p)
{
	static const char *const names[] = {
		"normal", "fifo", "rr", "batch", "iso", "idle", "deadline", "?",
	};

	return names[p & 7];
}

static void sample_text(FILE *f, const struct pm_dump *pm,
			const struct pm_event *ev)
{
	const struct tipme_rec_sample *s = &ev->u.sm;
	const struct tipme_rec_sample_end *se = &ev->u.se;
	const unsigned char *p;
	size_t i, n;
	char a[48];

	if (ev->type == TIPME_REC_SAMPLE_END) {
		fprintf(f, " seq=%" PRIu32 "%s looked at %" PRIu32 ", wrote %" PRIu32
			"%s", se->seq,
			se->flags & TIPME_SMPEND_FULL ? " full:" : ":",
			se->threads, se->emitted,
			se->flags & TIPME_SMPEND_OVERFLOW ? ", log overflowed" : "");
		if (se->flags & TIPME_SMPEND_TABLE_FULL)
			fprintf(f, ", table full: %" PRIu32 " skipped", se->skipped);
		fprintf(f, ", took %.1f us\n", pm_ticks_to_ns(&pm->clock, se->cycles) / 1e3);
		return;
	}
	n = pm_sample_entries(ev, &p);
	fprintf(f, " seq=%" PRIu32 "%s %zu thread%s:", s->seq,
		s->flags & TIPME_SAMPLE_FULL ? " full" : "", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		struct tipme_sample_ent t;

		memcpy(&t, p + i * sizeof(t), sizeof(t));
		fprintf(f, "%s %s %s%s cpu%u prio %u +%.3fms%s", i ? " |" : "",
			pm_fmt_task(pm, tipme_smp_pid(t.word), ev->ts, a, sizeof(a)),
			pm_state_name(tipme_smp_state(t.word), 0),
			tipme_smp_oncpu(t.word) ? "(on cpu)" : "",
			t.cpu, t.prio, t.runtime / 1e6,
			t.flags & TIPME_SMP_NEW ? " new" : "");
	}
	fputc('\n', f);
}

static void sample_json(struct tm_jw *w, const struct pm_dump *pm,
			const struct pm_event *ev)
{
	const struct tipme_rec_sample *s = &ev->u.sm;
	const struct tipme_rec_sample_end *se = &ev->u.se;
	const unsigned char *p;
	size_t i, n;

	if (ev->type == TIPME_REC_SAMPLE_END) {
		tm_jw_ku64(w, "seq", se->seq);
		tm_jw_kbool(w, "full", se->flags & TIPME_SMPEND_FULL);
		tm_jw_kbool(w, "overflow", se->flags & TIPME_SMPEND_OVERFLOW);
		tm_jw_kbool(w, "table_full", se->flags & TIPME_SMPEND_TABLE_FULL);
		tm_jw_ku64(w, "threads", se->threads);
		tm_jw_ku64(w, "emitted", se->emitted);
		tm_jw_ku64(w, "skipped", se->skipped);
		tm_jw_ki64(w, "cost_ns", pm_ticks_to_ns(&pm->clock, se->cycles));
		return;
	}
	n = pm_sample_entries(ev, &p);
	tm_jw_ku64(w, "seq", s->seq);
	tm_jw_kbool(w, "full", s->flags & TIPME_SAMPLE_FULL);
	tm_jw_key(w, "threads");
	tm_jw_arr_begin(w);
	for (i = 0; i < n; i++) {
		struct tipme_sample_ent t;

		memcpy(&t, p + i * sizeof(t), sizeof(t));
		tm_jw_obj_begin(w);
		pm_rec_json_task(w, pm, "pid", NULL, tipme_smp_pid(t.word), ev->ts);
		tm_jw_ku64(w, "tgid", t.tgid);
		tm_jw_kstr(w, "state", pm_state_name(tipme_smp_state(t.word), 0));
		tm_jw_kbool(w, "on_cpu", tipme_smp_oncpu(t.word));
		tm_jw_kstr(w, "policy", policy_name(tipme_smp_policy(t.word)));
		tm_jw_ku64(w, "prio", t.prio);
		tm_jw_ku64(w, "cpu", t.cpu);
		tm_jw_ku64(w, "runtime_ns", t.runtime);
		tm_jw_kbool(w, "new", t.flags & TIPME_SMP_NEW);
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
}

const struct pm_recops pm_rec_sample = {
	.text = sample_text,
	.json = sample_json,
};
