// SPDX-License-Identifier: GPL-2.0
/* tipme latency's output: one line or JSON object per press. */
#include <inttypes.h>
#include <string.h>

#include "../dump/tables.h"
#include "latency.h"
#include "safetext.h"
#include "site.h"

static const char *const result_name[] = {
	[PM_LAT_HANDLED] = "handled",
	[PM_LAT_UNFINISHED] = "unfinished",
	[PM_LAT_NOT_DELIVERED] = "not_delivered",
	[PM_LAT_PID_UNKNOWN] = "pid_unknown",
	[PM_LAT_NO_THREAD] = "no_kernel_records",
};

static const char *press_name(int code)
{
	return code == PM_X_KEY_PRESS ? "key press" :
	       code == PM_X_MOTION ? "motion" : "button press";
}

static const char *press_key(int code)
{
	return code == PM_X_KEY_PRESS ? "key_press" :
	       code == PM_X_MOTION ? "motion" : "button_press";
}

static const char *const stage_words[PM_STAGE_NR] = {
	[PM_STAGE_DISPATCH] = "dispatch",
	[PM_STAGE_CLIENT] = "client",
	[PM_STAGE_COMMIT] = "commit to compositor",
	[PM_STAGE_COMPOSE] = "compositor to flip",
	[PM_STAGE_REFRESH] = "waiting for the refresh",
	[PM_STAGE_IDLE] = "reader to its next wait",
	[PM_STAGE_X_SERVER] = "X server",
	[PM_STAGE_X_CLIENT] = "X client",
	[PM_STAGE_X_DRAW] = "X server drawing",
};

/* "600 foot" into @buf; "-" for none. */
static const char *task_words(const struct pm_dump *pm, uint32_t pid, int64_t ns,
			      char *buf, size_t len)
{
	const char *c = pid ? pm_comm_at(pm, pid, ns) : NULL;
	char name[16 * TM_TEXT_PER_BYTE + 1];

	if (!pid)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%" PRIu32 " %s", pid,
			 c ? tm_text_fmt(c, strnlen(c, 16), name, sizeof(name)) : "?");
	return buf;
}


/* A press's legs on one line, "dispatch 0.4 ms (500 sway), ..." after @indent. */
static void legs_print(FILE *f, const struct pm_dump *pm, const struct pm_press_leg *legs,
		       int nl, const struct pm_flip_end *e, const char *indent)
{
	char a[64];
	int k;

	for (k = 0; k < nl; k++) {
		if (legs[k].stage == PM_STAGE_REFRESH)
			snprintf(a, sizeof(a), "crtc %" PRIu32, e->flip->crtc);
		else
			task_words(pm, legs[k].pid, legs[k].from_ns, a, sizeof(a));
		fprintf(f, "%s%s %.1f ms (%s)", k ? ", " : indent, stage_words[legs[k].stage],
			(legs[k].to_ns - legs[k].from_ns) / 1e6, a);
	}
	if (nl)
		fputc('\n', f);
}

/* A press's legs as the JSON array "legs". */
static void legs_json(struct tm_jw *j, const struct pm_dump *pm,
		      const struct pm_press_leg *legs, int nl)
{
	const char *c;
	int k;

	tm_jw_key(j, "legs");
	tm_jw_arr_begin(j);
	for (k = 0; k < nl; k++) {
		tm_jw_obj_begin(j);
		tm_jw_kstr(j, "stage", pm_stage_key[legs[k].stage]);
		tm_jw_key(j, "pid");
		if (legs[k].pid) {
			tm_jw_u64(j, legs[k].pid);
			c = pm_comm_at(pm, legs[k].pid, legs[k].from_ns);
			tm_jw_kstr(j, "comm", c ? c : "");
		} else {
			tm_jw_null(j);
		}
		tm_jw_ki64(j, "from_mono_ns", legs[k].from_ns);
		tm_jw_ki64(j, "to_mono_ns", legs[k].to_ns);
		tm_jw_ki64(j, "ns", legs[k].to_ns - legs[k].from_ns);
		tm_jw_obj_end(j);
	}
	tm_jw_arr_end(j);
}

/* Where a press's X client's part ended: done, or its drawing executed before. */
static int64_t client_end(const struct pm_lat_event *ev)
{
	return ev->display_ns && ev->display_ns < ev->done_ns ? ev->display_ns : ev->done_ns;
}

void pm_latency_print(FILE *f, const struct pm_incident *inc,
		      const struct pm_latency *l, const char *path,
		      int64_t min_ns)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_lat_event *evs = l->events, *slow = l->slowest;
	struct pm_press_leg legs[PM_PRESS_LEGS_X];
	size_t i, n = l->n, shown = 0;
	char a[64];
	int nl;

	fprintf(f, "%-14s  %-12s  %-24s  %10s  %s\n", "PRESS (s)", "EVENT",
	       "CLIENT", "LATENCY", "WHERE THE TIME WENT");
	for (i = 0; i < n; i++) {
		const struct pm_lat_event *ev = &evs[i];
		int64_t lat = ev->end_ns - ev->press_ns;
		char who[96], name[sizeof(ev->comm) * TM_TEXT_PER_BYTE + 1];

		if (ev->result <= PM_LAT_UNFINISHED && lat < min_ns)
			continue;
		shown++;
		snprintf(who, sizeof(who), "%" PRIu32 " %s", ev->pid,
			 ev->comm[0] ? tm_text_fmt(ev->comm, strnlen(ev->comm, sizeof(ev->comm)),
						   name, sizeof(name)) : "?");
		fprintf(f, "%14.6f  %-12s  %-24s  ", ev->press_ns / 1e9,
		       press_name(ev->code), ev->pid ? who : "-");
		switch (ev->result) {
		case PM_LAT_NOT_DELIVERED:
			fprintf(f, "%10s  no client received it\n", "-");
			continue;
		case PM_LAT_PID_UNKNOWN:
			fprintf(f, "%10s  the client's PID is unknown\n", "-");
			continue;
		case PM_LAT_NO_THREAD:
			fprintf(f, "%10s  no kernel records of PID %" PRIu32 "\n",
			       "-", ev->pid);
			continue;
		}
		fprintf(f, "%s%7.1f ms  ran %.1f, runnable %.1f, blocked %.1f ms",
		       ev->result == PM_LAT_UNFINISHED ? ">" : " ", lat / 1e6,
		       ev->time[0] / 1e6, ev->time[1] / 1e6, ev->time[2] / 1e6);
		if (ev->longest) {
			fprintf(f, " (longest %.1f ms", ev->longest_ns / 1e6);
			pm_print_seg_site(f, pm, ev->longest);
			fputc(')', f);
		}
		if (ev->display_ns > ev->done_ns)
			fprintf(f, "; then the X server drew for %.1f ms",
				(ev->display_ns - ev->done_ns) / 1e6);
		if (ev->result == PM_LAT_UNFINISHED)
			fprintf(f, ", still handling at the dump's end");
		fputc('\n', f);
		if (ev->via.end.flip) {
			nl = pm_press_legs_x(&ev->via, ev->pid, ev->handed_ns, ev->draw_ns, legs);
			fprintf(f, "                from the kernel's input at %.6f to the flip "
				"(crtc %" PRIu32 "): %.1f ms, through %s:\n", ev->via.press_ns / 1e9,
				ev->via.end.flip->crtc, (ev->via.end.flip_ns - ev->via.press_ns) / 1e6,
				task_words(pm, ev->via.reader, ev->via.read_ns, a, sizeof(a)));
			legs_print(f, pm, legs, nl, &ev->via.end, "                  ");
		}
		if (ev->xflip.flip) {
			nl = pm_xorg_legs(&ev->xflip, l->server, ev->pid, ev->press_ns,
					  ev->handed_ns, client_end(ev), legs);
			fprintf(f, "                to the X server's flip after the drawing "
				"(crtc %" PRIu32 ") at %.6f: %.1f ms:\n", ev->xflip.flip->crtc,
				ev->xflip.flip_ns / 1e9, (ev->xflip.flip_ns - ev->press_ns) / 1e6);
			legs_print(f, pm, legs, nl, &ev->xflip, "                  ");
		}
	}
	if (!shown)
		fprintf(f, "(no press%s)\n", min_ns ? " above --min-ms" : "");
	if (slow)
		fprintf(f, "\nslowest: %.1f ms for PID %" PRIu32 "; its waits in detail:\n"
		       "  tipme why --pid %" PRIu32 " --from %.6f --to %.6f %s\n"
		       "  tipme report %s\n",
		       pm_lat_to_screen_ns(slow) / 1e6, slow->pid, slow->pid,
		       slow->press_ns / 1e9, slow->done_ns / 1e9, path, path);
}

void pm_latency_json(struct tm_jw *j, const struct pm_incident *inc,
		     const struct pm_latency *l, int64_t min_ns)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_lat_event *evs = l->events, *slow = l->slowest;
	struct pm_press_leg legs[PM_PRESS_LEGS_X];
	size_t i, n = l->n;

	tm_jw_obj_begin(j);
	tm_jw_key(j, "events");
	tm_jw_arr_begin(j);
	for (i = 0; i < n; i++) {
		const struct pm_lat_event *ev = &evs[i];

		if (ev->result <= PM_LAT_UNFINISHED &&
		    ev->end_ns - ev->press_ns < min_ns)
			continue;
		tm_jw_obj_begin(j);
		tm_jw_ki64(j, "press_mono_ns", ev->press_ns);
		tm_jw_kstr(j, "event", press_key(ev->code));
		tm_jw_kstr(j, "result", result_name[ev->result]);
		tm_jw_ku64(j, "pid", ev->pid);
		tm_jw_kstr(j, "comm", ev->comm);
		if (ev->result <= PM_LAT_UNFINISHED || ev->result == PM_LAT_NO_THREAD ||
		    ev->result == PM_LAT_PID_UNKNOWN)
			tm_jw_ki64(j, "delivered_mono_ns", ev->delivered_ns);
		if (ev->result <= PM_LAT_UNFINISHED) {
			tm_jw_ki64(j, "done_mono_ns", ev->done_ns);
			tm_jw_ku64(j, "drawing_requests", ev->drawing);
			tm_jw_key(j, "display_mono_ns");
			if (ev->display_ns)
				tm_jw_i64(j, ev->display_ns);
			else
				tm_jw_null(j);
			tm_jw_ki64(j, "end_mono_ns", ev->end_ns);
			tm_jw_ki64(j, "latency_ns", ev->end_ns - ev->press_ns);
			tm_jw_ki64(j, "running_ns", ev->time[0]);
			tm_jw_ki64(j, "runnable_ns", ev->time[1]);
			tm_jw_ki64(j, "blocked_ns", ev->time[2]);
			tm_jw_ki64(j, "unknown_ns", ev->time[3]);
			tm_jw_ki64(j, "drawing_after_done_ns", ev->end_ns - ev->done_ns);
			/* only under Xwayland: the X dump's JSON stays as it was */
			if (ev->via.end.flip) {
				tm_jw_ki64(j, "kernel_press_mono_ns", ev->via.press_ns);
				tm_jw_kstr(j, "end", "flip");
				tm_jw_ki64(j, "flip_mono_ns", ev->via.end.flip_ns);
				tm_jw_ku64(j, "crtc", ev->via.end.flip->crtc);
				tm_jw_ki64(j, "to_flip_ns", ev->via.end.flip_ns - ev->via.press_ns);
				tm_jw_ku64(j, "compositor", ev->via.compositor);
				tm_jw_ku64(j, "x_server", ev->via.client);
				legs_json(j, pm, legs,
					  pm_press_legs_x(&ev->via, ev->pid, ev->handed_ns,
							  ev->draw_ns, legs));
			}
			/* only when the X server flips (Xorg with modesetting) */
			if (ev->xflip.flip) {
				tm_jw_kstr(j, "end", "flip");
				tm_jw_ki64(j, "flip_mono_ns", ev->xflip.flip_ns);
				tm_jw_ku64(j, "crtc", ev->xflip.flip->crtc);
				tm_jw_ki64(j, "flip_commit_mono_ns", ev->xflip.commit_ns);
				tm_jw_ki64(j, "to_flip_ns", ev->xflip.flip_ns - ev->press_ns);
				tm_jw_ku64(j, "x_server", l->server);
				legs_json(j, pm, legs,
					  pm_xorg_legs(&ev->xflip, l->server, ev->pid, ev->press_ns,
						       ev->handed_ns, client_end(ev), legs));
			}
			if (ev->longest) {
				tm_jw_key(j, "longest_block");
				tm_jw_obj_begin(j);
				tm_jw_ki64(j, "ns", ev->longest_ns);
				tm_jw_kstr(j, "state", pm_state_name(ev->longest->block_state, 0));
				pm_json_seg_site(j, pm, ev->longest);
				if (ev->longest->waker >= 0)
					tm_jw_ki64(j, "woken_by", ev->longest->waker);
				tm_jw_obj_end(j);
			}
		}
		tm_jw_obj_end(j);
	}
	tm_jw_arr_end(j);
	if (slow)
		tm_jw_ki64(j, "slowest_press_mono_ns", slow->press_ns);
	tm_jw_obj_end(j);
}

/* A press's end and latency (0 with no end in the dump). */
static int64_t press_end(const struct pm_press_path *p)
{
	return p->end.flip ? p->end.flip_ns : p->idle_ns;
}

void pm_presses_print(FILE *f, const struct pm_incident *inc,
		      const struct pm_press_path *p, size_t n, const char *path,
		      int64_t min_ns)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_press_path *slow = NULL;
	struct pm_press_leg legs[PM_PRESS_LEGS];
	char a[64], b[64], end[32];
	size_t i, shown = 0;
	int nl;

	fprintf(f, "no X dump: the presses the kernel saw, through the reader of the event device\n");
	fprintf(f, "%-14s  %10s  %-12s  %-22s  %s\n", "PRESS (s)", "LATENCY", "END",
		"COMPOSITOR", "CLIENT");
	for (i = 0; i < n; i++) {
		int64_t e = press_end(&p[i]);

		if (e && e - p[i].press_ns < min_ns)
			continue;
		shown++;
		if (e && (!slow || e - p[i].press_ns > press_end(slow) - slow->press_ns))
			slow = &p[i];
		if (p[i].end.flip)
			snprintf(end, sizeof(end), "flip crtc %" PRIu32, p[i].end.flip->crtc);
		else
			snprintf(end, sizeof(end), "%s", p[i].reader ? "reader_idle" : "no reader");
		fprintf(f, "%14.6f  ", p[i].press_ns / 1e9);
		if (e)
			fprintf(f, "%7.1f ms", (e - p[i].press_ns) / 1e6);
		else
			fprintf(f, "%10s", "-");
		fprintf(f, "  %-12s  %-22s  %s\n", e ? end : "unfinished",
			task_words(pm, p[i].reader, p[i].read_ns, a, sizeof(a)),
			task_words(pm, p[i].client, p[i].client_ns, b, sizeof(b)));
		nl = pm_press_legs(&p[i], legs);
		legs_print(f, pm, legs, nl, &p[i].end, "                  ");
		if (p[i].reader_by == PM_READER_AWAKE || p[i].reader_by == PM_READER_FLIP_READER)
			fprintf(f, "                  no wakeup delivered it: %s read it already awake, %s\n",
				task_words(pm, p[i].reader, p[i].read_ns, a, sizeof(a)),
				p[i].reader_by == PM_READER_AWAKE ?
				"as the thread the nearest other input's wakeup woke" :
				"as the main thread of the process reading the page flips' events");
		if (p[i].nclients > 1 || p[i].end.noutputs > 1)
			fprintf(f, "                  followed: the first of %" PRIu32 " client%s the compositor woke, "
				"the first flip after its commit (%" PRIu32 " output%s flipped)\n",
				p[i].nclients, p[i].nclients == 1 ? "" : "s", p[i].end.noutputs,
				p[i].end.noutputs == 1 ? "" : "s");
	}
	if (!shown)
		fprintf(f, "(no press%s)\n", min_ns ? " above --min-ms" : "");
	if (slow)
		fprintf(f, "\nslowest: %.1f ms; where its time went:\n  tipme report %s\n",
			(press_end(slow) - slow->press_ns) / 1e6, path);
}

void pm_presses_json(struct tm_jw *j, const struct pm_incident *inc,
		     const struct pm_press_path *p, size_t n, int64_t min_ns)
{
	const struct pm_dump *pm = &inc->pm;
	struct pm_press_leg legs[PM_PRESS_LEGS];
	size_t i;
	int nl;

	tm_jw_obj_begin(j);
	tm_jw_key(j, "presses");
	tm_jw_arr_begin(j);
	for (i = 0; i < n; i++) {
		int64_t e = press_end(&p[i]);

		if (e && e - p[i].press_ns < min_ns)
			continue;
		tm_jw_obj_begin(j);
		tm_jw_ki64(j, "press_mono_ns", p[i].press_ns);
		tm_jw_kstr(j, "end", p[i].end.flip ? "flip" : e ? "reader_idle" :
			   p[i].reader ? "unfinished" : "no_reader");
		tm_jw_key(j, "end_mono_ns");
		if (e)
			tm_jw_i64(j, e);
		else
			tm_jw_null(j);
		tm_jw_key(j, "latency_ns");
		if (e)
			tm_jw_i64(j, e - p[i].press_ns);
		else
			tm_jw_null(j);
		tm_jw_key(j, "reader");
		if (p[i].reader)
			tm_jw_u64(j, p[i].reader);
		else
			tm_jw_null(j);
		tm_jw_key(j, "reader_by");
		if (p[i].reader_by != PM_READER_NONE)
			tm_jw_str(j, pm_reader_by_key[p[i].reader_by]);
		else
			tm_jw_null(j);
		tm_jw_key(j, "client");
		if (p[i].client)
			tm_jw_u64(j, p[i].client);
		else
			tm_jw_null(j);
		tm_jw_ku64(j, "clients_woken", p[i].nclients);
		tm_jw_key(j, "crtc");
		if (p[i].end.flip)
			tm_jw_u64(j, p[i].end.flip->crtc);
		else
			tm_jw_null(j);
		tm_jw_ku64(j, "outputs", p[i].end.noutputs);
		nl = pm_press_legs(&p[i], legs);
		legs_json(j, pm, legs, nl);
		tm_jw_obj_end(j);
	}
	tm_jw_arr_end(j);
	tm_jw_obj_end(j);
}
