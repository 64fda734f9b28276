// SPDX-License-Identifier: GPL-2.0
/*
 * The memory pressure records: direct reclaim begins and ends, kswapd is
 * woken or runs, a thread is throttled in reclaim.
 */
#include <inttypes.h>

#include "family.h"

static const char *reclaim_kind_name(unsigned int k)
{
	switch (k) {
	case TIPME_RECLAIM_DIRECT:	return "direct";
	case TIPME_RECLAIM_MEMCG:	return "memcg";
	case TIPME_RECLAIM_MEMCG_SOFT:	return "memcg_soft";
	default:			return "?";
	}
}

static const char *throttle_reason_name(unsigned int r)
{
	static const char *const names[] = { "writeback", "isolated", "noprogress", "congested" };

	return r < 4 ? names[r] : "?";
}

/* A memcg reclaim's cgroup over memory.high (0: none, or not recorded). */
static uint64_t high_cgroup(const struct tipme_rec_reclaim_end *re)
{
	return (uint64_t)re->high_cgroup_hi << 32 | re->high_cgroup_lo;
}

static unsigned int mem_pids(const struct pm_event *ev, uint32_t *pids)
{
	switch (ev->type) {
	case TIPME_REC_RECLAIM_BEGIN:
		pids[0] = ev->u.rb.pid;
		return 1;
	case TIPME_REC_RECLAIM_END:
		pids[0] = ev->u.re.pid;
		return 1;
	case TIPME_REC_KSWAPD:
		pids[0] = ev->u.kw.pid;
		return 1;
	case TIPME_REC_THROTTLED:
		pids[0] = ev->u.th.pid;
		return 1;
	default:
		return 0;
	}
}

static void mem_text(FILE *f, const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_reclaim_begin *rb = &ev->u.rb;
	const struct tipme_rec_reclaim_end *re = &ev->u.re;
	const struct tipme_rec_kswapd *kw = &ev->u.kw;
	const struct tipme_rec_throttled *th = &ev->u.th;
	uint64_t fr[PM_FRAMES_MAX];
	size_t n;
	char a[48];

	switch (ev->type) {
	case TIPME_REC_RECLAIM_BEGIN:
		n = pm_rec_frames(pm, ev, fr, PM_FRAMES_MAX);
		fprintf(f, " %s pid=%s order=%" PRIu32 " gfp=0x%" PRIx32,
			reclaim_kind_name(rb->kind),
			pm_fmt_task(pm, rb->pid, ev->ts, a, sizeof(a)), rb->order, rb->gfp);
		if (n) {
			fputs(" from ", f);
			pm_rec_print_frames(f, pm, fr, n);
		}
		fputc('\n', f);
		break;
	case TIPME_REC_RECLAIM_END:
		fprintf(f, " %s pid=%s reclaimed=%" PRIu32 " pages",
			reclaim_kind_name(re->kind),
			pm_fmt_task(pm, re->pid, ev->ts, a, sizeof(a)), re->nr_reclaimed);
		if (high_cgroup(re))
			fprintf(f, " over memory.high: cgroup %" PRIu64 " (high %" PRIu32
				" KiB)", high_cgroup(re), re->high_kib);
		fputc('\n', f);
		break;
	case TIPME_REC_KSWAPD:
		if (kw->kind == TIPME_KSWAPD_WAKEUP)
			fprintf(f, " woken by %s node %u zone %u order %" PRIu32
				" gfp=0x%" PRIx32 "\n",
				pm_fmt_task(pm, kw->pid, ev->ts, a, sizeof(a)), kw->nid,
				kw->zid, kw->order, kw->gfp);
		else
			fprintf(f, " %s runs: node %u zone %u order %" PRIu32 "\n",
				pm_fmt_task(pm, kw->pid, ev->ts, a, sizeof(a)), kw->nid,
				kw->zid, kw->order);
		break;
	case TIPME_REC_THROTTLED:
		fprintf(f, " pid=%s node %" PRIu32 " slept %" PRIu32 " of %" PRIu32
			" us (%s)\n", pm_fmt_task(pm, th->pid, ev->ts, a, sizeof(a)),
			th->nid, th->usec_delayed, th->usec_timeout,
			throttle_reason_name(th->reason));
		break;
	}
}

static void mem_json(struct tm_jw *w, const struct pm_dump *pm,
		     const struct pm_event *ev)
{
	const struct tipme_rec_reclaim_begin *rb = &ev->u.rb;
	const struct tipme_rec_reclaim_end *re = &ev->u.re;
	const struct tipme_rec_kswapd *kw = &ev->u.kw;
	const struct tipme_rec_throttled *th = &ev->u.th;
	uint64_t fr[PM_FRAMES_MAX];
	size_t n;

	switch (ev->type) {
	case TIPME_REC_RECLAIM_BEGIN:
		n = pm_rec_frames(pm, ev, fr, PM_FRAMES_MAX);
		tm_jw_kstr(w, "kind", reclaim_kind_name(rb->kind));
		pm_rec_json_task(w, pm, "pid", NULL, rb->pid, ev->ts);
		tm_jw_ku64(w, "order", rb->order);
		tm_jw_ku64(w, "gfp", rb->gfp);
		pm_rec_json_frames(w, pm, "stack", fr, n);
		break;
	case TIPME_REC_RECLAIM_END:
		tm_jw_kstr(w, "kind", reclaim_kind_name(re->kind));
		pm_rec_json_task(w, pm, "pid", NULL, re->pid, ev->ts);
		tm_jw_ku64(w, "nr_reclaimed", re->nr_reclaimed);
		tm_jw_key(w, "high_cgroup");
		if (high_cgroup(re))
			tm_jw_u64(w, high_cgroup(re));
		else
			tm_jw_null(w);
		tm_jw_key(w, "high_kib");
		if (high_cgroup(re))
			tm_jw_u64(w, re->high_kib);
		else
			tm_jw_null(w);
		break;
	case TIPME_REC_KSWAPD:
		tm_jw_kstr(w, "kind", kw->kind == TIPME_KSWAPD_WAKEUP ? "wakeup" : "run");
		pm_rec_json_task(w, pm, "pid", NULL, kw->pid, ev->ts);
		tm_jw_ku64(w, "nid", kw->nid);
		tm_jw_ku64(w, "zid", kw->zid);
		tm_jw_ku64(w, "order", kw->order);
		tm_jw_ku64(w, "gfp", kw->gfp);
		break;
	case TIPME_REC_THROTTLED:
		pm_rec_json_task(w, pm, "pid", NULL, th->pid, ev->ts);
		tm_jw_ku64(w, "nid", th->nid);
		tm_jw_ku64(w, "usec_timeout", th->usec_timeout);
		tm_jw_ku64(w, "usec_delayed", th->usec_delayed);
		tm_jw_kstr(w, "reason", throttle_reason_name(th->reason));
		break;
	}
}

const struct pm_recops pm_rec_mem = {
	.pids = mem_pids,
	.text = mem_text,
	.json = mem_json,
};
