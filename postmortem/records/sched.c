// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler records: sched_switch, sched_waking, blocked (where a
 * thread that switched out asleep went to sleep), and cpu_throttle (a
 * thread its cgroup's CPU quota took off the CPU), and ustack (the
 * user-space call chain of a thread that switched out asleep).
 */
#include <inttypes.h>

#include "family.h"

static unsigned int sched_pids(const struct pm_event *ev, uint32_t *pids)
{
	switch (ev->type) {
	case TIPME_REC_SCHED_SWITCH:
		pids[0] = ev->u.sw.next_pid;
		pids[1] = ev->u.sw.prev_pid;
		return ev->prev_unknown ? 1 : 2;
	case TIPME_REC_SCHED_WAKING:
		pids[0] = tipme_waking_pid(&ev->u.wk);
		pids[1] = tipme_waking_waker(&ev->u.wk);
		return ev->waker_unknown ? 1 : 2;
	case TIPME_REC_BLOCKED:
		pids[0] = ev->u.bl.pid;
		return 1;
	case TIPME_REC_CPU_THROTTLE:
		pids[0] = ev->u.rec.CPU_THROTTLE.pid;
		return 1;
	case TIPME_REC_USTACK:
		pids[0] = ev->u.rec.USTACK.pid;
		return 1;
	default:
		return 0;
	}
}

/* The throttled cgroup's id (0: not known). */
static uint64_t throttle_cgroup(const struct tipme_rec_cpu_throttle *t)
{
	return (uint64_t)t->cgroup_hi << 32 | t->cgroup_lo;
}

static void sched_text(FILE *f, const struct pm_dump *pm,
		       const struct pm_event *ev)
{
	const struct tipme_rec_switch *sw = &ev->u.sw;
	const struct tipme_rec_waking *wk = &ev->u.wk;
	uint64_t fr[PM_FRAMES_MAX];
	char a[48], b[48];
	size_t n;

	switch (ev->type) {
	case TIPME_REC_SCHED_SWITCH:
		fprintf(f, " prev=%s (%s, prio %u) -> next=%s (prio %u)\n",
			ev->prev_unknown ? "?" :
			pm_fmt_task(pm, sw->prev_pid, ev->ts, a, sizeof(a)),
			pm_state_name(sw->prev_state, sw->flags & TIPME_SWITCH_PREEMPT),
			sw->prev_prio,
			pm_fmt_task(pm, sw->next_pid, ev->ts, b, sizeof(b)),
			sw->next_prio);
		break;
	case TIPME_REC_SCHED_WAKING:
		fprintf(f, " pid=%s cpu=%" PRIu32 " by %s (%s)\n",
			pm_fmt_task(pm, tipme_waking_pid(wk), ev->ts, a, sizeof(a)),
			tipme_waking_cpu(wk),
			ev->waker_unknown ? "?" :
			pm_fmt_task(pm, tipme_waking_waker(wk), ev->ts, b, sizeof(b)),
			pm_ctx_name(tipme_waking_ctx(wk)));
		break;
	case TIPME_REC_BLOCKED:
		n = pm_rec_frames(pm, ev, fr, PM_FRAMES_MAX);
		fprintf(f, " pid=%s in ", pm_fmt_task(pm, ev->u.bl.pid, ev->ts, a, sizeof(a)));
		pm_rec_print_frames(f, pm, fr, n);
		fputs(ev->u.bl.flags & TIPME_BLOCKED_FULL ? " <- ...\n" : "\n", f);
		break;
	case TIPME_REC_CPU_THROTTLE:
		fprintf(f, " pid=%s cgroup=%" PRIu64 "\n",
			pm_fmt_task(pm, ev->u.rec.CPU_THROTTLE.pid, ev->ts, a, sizeof(a)),
			throttle_cgroup(&ev->u.rec.CPU_THROTTLE));
		break;
	case TIPME_REC_USTACK:
		fprintf(f, " pid=%s user: ",
			pm_fmt_task(pm, ev->u.rec.USTACK.pid, ev->ts, a, sizeof(a)));
		pm_print_ustack(f, pm, ev->u.rec.USTACK.id, ev->ns);
		fputc('\n', f);
		break;
	}
}

static void sched_json(struct tm_jw *w, const struct pm_dump *pm,
		       const struct pm_event *ev)
{
	const struct tipme_rec_switch *sw = &ev->u.sw;
	const struct tipme_rec_waking *wk = &ev->u.wk;
	uint64_t fr[PM_FRAMES_MAX];
	size_t n;

	switch (ev->type) {
	case TIPME_REC_SCHED_SWITCH:
		if (ev->prev_unknown) {
			tm_jw_key(w, "prev_pid");
			tm_jw_null(w);
		} else {
			pm_rec_json_task(w, pm, "prev_pid", "prev_comm", sw->prev_pid,
					 ev->ts);
		}
		tm_jw_kstr(w, "prev_state", pm_state_name(sw->prev_state, 0));
		if (ev->prev_unknown) {
			tm_jw_key(w, "prev_prio");
			tm_jw_null(w);
		} else {
			tm_jw_ku64(w, "prev_prio", sw->prev_prio);
		}
		tm_jw_kbool(w, "preempt", sw->flags & TIPME_SWITCH_PREEMPT);
		pm_rec_json_task(w, pm, "next_pid", "next_comm", sw->next_pid, ev->ts);
		tm_jw_ku64(w, "next_prio", sw->next_prio);
		break;
	case TIPME_REC_SCHED_WAKING:
		pm_rec_json_task(w, pm, "pid", "comm", tipme_waking_pid(wk), ev->ts);
		tm_jw_ku64(w, "target_cpu", tipme_waking_cpu(wk));
		if (ev->waker_unknown) {
			tm_jw_key(w, "waker");
			tm_jw_null(w);
		} else {
			pm_rec_json_task(w, pm, "waker", "waker_comm",
					 tipme_waking_waker(wk), ev->ts);
		}
		tm_jw_kstr(w, "waker_ctx", pm_ctx_name(tipme_waking_ctx(wk)));
		break;
	case TIPME_REC_BLOCKED:
		n = pm_rec_frames(pm, ev, fr, PM_FRAMES_MAX);
		pm_rec_json_task(w, pm, "pid", NULL, ev->u.bl.pid, ev->ts);
		pm_rec_json_frames(w, pm, "site", fr, n);
		tm_jw_kbool(w, "truncated", ev->u.bl.flags & TIPME_BLOCKED_FULL);
		break;
	case TIPME_REC_CPU_THROTTLE:
		pm_rec_json_task(w, pm, "pid", "comm", ev->u.rec.CPU_THROTTLE.pid, ev->ts);
		tm_jw_ku64(w, "cgroup", throttle_cgroup(&ev->u.rec.CPU_THROTTLE));
		break;
	case TIPME_REC_USTACK:
		pm_rec_json_task(w, pm, "pid", "comm", ev->u.rec.USTACK.pid, ev->ts);
		tm_jw_ku64(w, "id", ev->u.rec.USTACK.id);
		pm_json_ustack(w, pm, ev->u.rec.USTACK.id, ev->ns);
		break;
	}
}

const struct pm_recops pm_rec_sched = {
	.pids = sched_pids,
	.text = sched_text,
	.json = sched_json,
};
