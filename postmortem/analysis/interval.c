// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing the interval that matters (interval.h).
 */
#include <errno.h>
#include <string.h>

#include "../dump/clock.h"
#include "interval.h"
#include "kinput.h"
#include "latency.h"
#include "rank.h"
#include "xprof.h"

/* Clip a window to the part of it where @pid existed (first seen .. exit). */
static void life(const struct pm_state *st,
		 uint32_t pid, int64_t *t0, int64_t *t1)
{
	const struct pm_thread *t = pm_state_thread(st, pid);
	size_t j;

	if (!t || !t->nsegs)
		return;
	if (t->segs[0].state != PM_T_UNKNOWN &&
	    t->segs[0].start_ns > *t0)
		*t0 = t->segs[0].start_ns;
	for (j = 0; j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];

		if (s->state == PM_T_BLOCKED && (s->block_state == TIPME_TS_DEAD ||
						 s->block_state == TIPME_TS_ZOMBIE)) {
			int64_t x = s->start_ns;

			if (x < *t1 && x > *t0)
				*t1 = x;
			break;
		}
	}
}

/* How close a press of the X dump must be to the one an auto trigger named. */
#define AUTO_PRESS_SLACK_NS	2000000LL

/*
 * The input of the X dump that an auto trigger fired on (@press_ns, when
 * the X dump has it), else the slowest, from the device event to the
 * screen; when the X server is a compositor's client (Xwayland) and the
 * kernel's dump follows the press to it and its commit to a flip, from
 * the kernel's input record to that flip.  Returns 1 when it chose the interval, 0 if there is none,
 * -ENOMEM.
 */
static int by_input(const struct pm_incident *inc, const struct pm_state *st,
		    const struct pm_res *res, int64_t press_ns,
		    struct pm_interval *out)
{
	uint32_t server = pm_xserver_pid(pm_incident_x(inc));
	const struct pm_lat_event *ev = NULL;
	struct pm_latency lat;
	int64_t best = AUTO_PRESS_SLACK_NS + 1;
	size_t i;
	int ret;

	if (pm_latency_analyse(inc, st, res, &lat) < 0)
		return -ENOMEM;
	for (i = 0; press_ns && i < lat.n; i++) {
		int64_t d = lat.events[i].press_ns - press_ns;

		d = d < 0 ? -d : d;
		if (d < best && lat.events[i].pid &&
		    (lat.events[i].result == PM_LAT_HANDLED ||
		     lat.events[i].result == PM_LAT_UNFINISHED)) {
			best = d;
			ev = &lat.events[i];
		}
	}
	if (ev)
		out->chosen_by = PM_BY_AUTO;
	else
		ev = lat.slowest;
	ret = ev && ev->pid;
	if (ret) {
		out->pid = ev->pid;
		out->from_ns = ev->press_ns;
		out->to_ns = ev->end_ns;
		out->end = ev->display_ns ? PM_END_X_DRAWN : PM_END_CLIENT_DONE;
		if (ev->done_ns < ev->end_ns)
			out->display_ns = ev->done_ns;
		/* an X server that drives a display itself: its flip (latency.h) */
		if (ev->xflip.flip) {
			out->path.end = ev->xflip;
			out->path.compositor = server;
			out->to_ns = out->path.end.flip_ns;
			out->end = PM_END_FLIP;
		} else if (ev->via.end.flip) {
			/*
			 * an X server that is a compositor's client (Xwayland):
			 * from the kernel's input record through the compositor
			 * to it, and from its commit of the drawing to the flip
			 */
			out->path = ev->via;
			out->from_ns = out->path.press_ns;
			out->to_ns = out->path.end.flip_ns;
			out->end = PM_END_FLIP;
		} else {
			memset(&out->path, 0, sizeof(out->path));
		}
		/*
		 * to a flip: once the X server had executed the drawing, the
		 * screen waited for it alone (its commit, or its flip), not for
		 * the client's wait for the next input (Xwayland under TCG
		 * committed 350 ms after it had drawn)
		 */
		if (out->end == PM_END_FLIP && ev->display_ns && ev->display_ns < ev->done_ns)
			out->display_ns = ev->display_ns;
		else if (out->end == PM_END_FLIP)
			out->display_ns = ev->done_ns;
	}
	pm_latency_free(&lat);
	return ret;
}

/**
 * pm_interval_choose() - the interval to analyse
 * @inc: the incident
 * @st: its state
 * @res: its resources
 * @ask: what the user asked for
 * @out: the interval
 *
 * With @ask->pid: [@ask->from_ns, @ask->to_ns], or the window before the
 * trigger cut to the thread's life.  Without: the input of @x that
 * @ask->press_ns names (an auto trigger's), or the slowest one, to the
 * screen; else the input the kernel saw that @ask->press_ns names (the
 * module's own auto trigger), or the slowest in the window; else the
 * stall most likely felt (pm_stall_rank(), @ask->hint its hint) in the
 * @ask->search_ns before the trigger (by default PM_STALL_SEARCH_NS, or the
 * window if longer).
 *
 * Return: 1 with an interval, 0 if the dump has none to offer (no --pid,
 * no input, no stall), or -ENOMEM.
 */
int pm_interval_choose(const struct pm_incident *inc, const struct pm_state *st,
		       const struct pm_res *res,
		       const struct pm_interval_ask *ask, struct pm_interval *out)
{
	const struct tm_xdump *x = pm_incident_x(inc);
	int64_t end = st->trigger_ns ? st->trigger_ns : st->last_ns;
	int64_t first = st->first_ns;
	struct pm_span sp;
	int ret;

	memset(out, 0, sizeof(*out));
	if (ask->pid) {
		out->chosen_by = PM_BY_PID;
		out->pid = ask->pid;
		if (ask->from_ns >= 0) {
			out->from_ns = ask->from_ns;
			out->to_ns = ask->to_ns;
		} else {
			out->to_ns = end;
			out->from_ns = end - ask->window_ns;
			life(st, ask->pid, &out->from_ns, &out->to_ns);
		}
	} else {
		out->chosen_by = PM_BY_INPUT;
		ret = x ? by_input(inc, st, res, ask->press_ns, out) : 0;
		sp = (struct pm_span){ out->pid, out->from_ns, out->to_ns };
		if (ret < 0)
			return ret;
		if (!ret) {
			/* the press the module's auto trigger named, else the slowest */
			ret = ask->press_ns ?
			      pm_kernel_input(inc, st, res, end - ask->window_ns, end,
					      ask->press_ns, &sp, &out->path) : 0;
			out->chosen_by = ret == 2 ? PM_BY_AUTO : PM_BY_KERNEL_INPUT;
			if (!ret)
				ret = pm_kernel_input(inc, st, res, end - ask->window_ns,
						      end, 0, &sp, &out->path);
			if (ret < 0)
				return ret;
			if (ret)
				out->end = out->path.end.flip ? PM_END_FLIP : PM_END_READER_IDLE;
		}
		if (!ret) {
			int64_t w = ask->search_ns ? ask->search_ns :
				    ask->window_ns > PM_STALL_SEARCH_NS ?
				    ask->window_ns : PM_STALL_SEARCH_NS;
			int64_t from = end - w > first ? end - w : first;

			out->chosen_by = PM_BY_STALL;
			out->end = PM_END_NONE;
			ret = pm_stall_rank(inc, st, res, from, end, ask->hint,
					    ask->known, &out->rank);
			if (ret < 0)
				return ret;
			sp = out->rank.c[0].sp;
		}
		if (!ret)
			return 0;
		out->pid = sp.pid;
		out->from_ns = sp.from_ns;
		out->to_ns = sp.to_ns;
	}
	if (out->from_ns < first)
		out->from_ns = first;
	return 1;
}
