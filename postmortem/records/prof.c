// SPDX-License-Identifier: GPL-2.0
/*
 * The on-CPU profiler's records: prof (a sample of the thread a profiler
 * timer interrupted: its kernel chain from the site table, its user chain
 * from the user stack table) and prof_rate (a CPU's sampling rate from
 * then on).
 */
#include <inttypes.h>

#include "family.h"

static unsigned int prof_pids(const struct pm_event *ev, uint32_t *pids)
{
	if (ev->type != TIPME_REC_PROF)
		return 0;
	pids[0] = ev->u.rec.PROF.pid;
	return 1;
}

static void prof_text(FILE *f, const struct pm_dump *pm,
		      const struct pm_event *ev)
{
	const struct tipme_rec_prof *p = &ev->u.rec.PROF;
	uint64_t fr[PM_FRAMES_MAX];
	char a[48];
	size_t n;
	int cut;

	if (ev->type == TIPME_REC_PROF_RATE) {
		if (ev->u.rec.PROF_RATE.hz)
			fprintf(f, " %" PRIu32 " Hz\n", ev->u.rec.PROF_RATE.hz);
		else
			fputs(" stopped\n", f);
		return;
	}
	fprintf(f, " pid=%s", pm_fmt_task(pm, p->pid, ev->ts, a, sizeof(a)));
	n = pm_site_chain(pm, p->site, fr, PM_FRAMES_MAX, &cut);
	if (n) {
		fputs(" kernel: ", f);
		pm_rec_print_frames(f, pm, fr, n);
		if (cut)
			fputs(" <- ...", f);
	}
	if (p->ustack) {
		fputs(" user: ", f);
		pm_print_ustack(f, pm, p->ustack, ev->ns);
	}
	fputc('\n', f);
}

static void prof_json(struct tm_jw *w, const struct pm_dump *pm,
		      const struct pm_event *ev)
{
	const struct tipme_rec_prof *p = &ev->u.rec.PROF;
	uint64_t fr[PM_FRAMES_MAX];
	size_t n;
	int cut;

	if (ev->type == TIPME_REC_PROF_RATE) {
		tm_jw_ku64(w, "hz", ev->u.rec.PROF_RATE.hz);
		return;
	}
	pm_rec_json_task(w, pm, "pid", "comm", p->pid, ev->ts);
	n = pm_site_chain(pm, p->site, fr, PM_FRAMES_MAX, &cut);
	tm_jw_ku64(w, "site", p->site);
	pm_rec_json_frames(w, pm, "kernel_stack", fr, n);
	tm_jw_kbool(w, "kernel_stack_truncated", cut);
	tm_jw_ku64(w, "ustack", p->ustack);
	if (p->ustack) {
		pm_json_ustack(w, pm, p->ustack, ev->ns);
	} else {
		tm_jw_key(w, "user_stack");
		tm_jw_null(w);
	}
}

const struct pm_recops pm_rec_prof = {
	.pids = prof_pids,
	.text = prof_text,
	.json = prof_json,
};
