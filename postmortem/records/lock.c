// SPDX-License-Identifier: GPL-2.0
/* The lock contention records: a wait for a lock begins, and ends. */
#include <inttypes.h>

#include "family.h"

static void lock_flag_text(unsigned int fl, char *buf, size_t len)
{
	static const char *const names[] = { "spin", "read", "write", "rt", "percpu", "mutex" };
	size_t i, o = 0;

	snprintf(buf, len, "%s", fl ? "" : "sem");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (fl & (1U << i))
			o += snprintf(buf + o, o < len ? len - o : 0, "%s%s",
				      o ? "," : "", names[i]);
}

static unsigned int lock_pids(const struct pm_event *ev, uint32_t *pids)
{
	if (ev->type == TIPME_REC_LOCK_END) {
		pids[0] = ev->u.le.pid;
		return 1;
	}
	pids[0] = ev->u.lb.pid;
	pids[1] = ev->u.lb.owner;
	return ev->u.lb.owner ? 2 : 1;
}

static void lock_text(FILE *f, const struct pm_dump *pm,
		      const struct pm_event *ev)
{
	const struct tipme_rec_lock_begin *lb = &ev->u.lb;
	const struct tipme_rec_lock_end *le = &ev->u.le;
	char a[48], b[48], fl[64];

	if (ev->type == TIPME_REC_LOCK_END) {
		fprintf(f, " lock=0x%08" PRIx32 "%08" PRIx32 " pid=%s ret=%" PRId32 "\n",
			le->lock_hi, le->lock_lo,
			pm_fmt_task(pm, le->pid, ev->ts, a, sizeof(a)), le->ret);
		return;
	}
	lock_flag_text(lb->flags, fl, sizeof(fl));
	fprintf(f, " lock=0x%08" PRIx32 "%08" PRIx32 " (%s) pid=%s",
		lb->lock_hi, lb->lock_lo, fl,
		pm_fmt_task(pm, lb->pid, ev->ts, a, sizeof(a)));
	if (lb->owner)
		fprintf(f, " held by %s", pm_fmt_task(pm, lb->owner, ev->ts, b, sizeof(b)));
	fputc('\n', f);
}

static void lock_json(struct tm_jw *w, const struct pm_dump *pm,
		      const struct pm_event *ev)
{
	const struct tipme_rec_lock_begin *lb = &ev->u.lb;
	const struct tipme_rec_lock_end *le = &ev->u.le;
	char fl[64];

	if (ev->type == TIPME_REC_LOCK_END) {
		tm_jw_ku64(w, "lock", le->lock_lo | (uint64_t)le->lock_hi << 32);
		pm_rec_json_task(w, pm, "pid", NULL, le->pid, ev->ts);
		tm_jw_ki64(w, "ret", le->ret);
		return;
	}
	lock_flag_text(lb->flags, fl, sizeof(fl));
	tm_jw_ku64(w, "lock", lb->lock_lo | (uint64_t)lb->lock_hi << 32);
	tm_jw_kstr(w, "kind", fl);
	tm_jw_ku64(w, "flags", lb->flags);
	pm_rec_json_task(w, pm, "pid", NULL, lb->pid, ev->ts);
	if (lb->owner)
		pm_rec_json_task(w, pm, "owner", NULL, lb->owner, ev->ts);
	else
		tm_jw_ku64(w, "owner", 0);
}

const struct pm_recops pm_rec_lock = {
	.pids = lock_pids,
	.text = lock_text,
	.json = lock_json,
};
