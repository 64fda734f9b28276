// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: a trigger of ours (the hotkey, SIGUSR1, a press measured too
 * slow) and the "What felt slow?" window that follows a hotkey dump.  The dump goes to tipmed's
 * incident or to --output-dir (deliver.c); the window's text then goes
 * into that dump file again, or to the incident as a NOTE.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

/* Connect the window's own X connection (before recording starts). */
void xh_ask_connect(struct xh_app *app)
{
	if (ui_connect(&app->ui, app->env.display) == 0)
		app->st.ui_base = ui_base(&app->ui);
	else
		fprintf(stderr, "tipme-xhook: warning: no description window\n");
}

static void set_ui_focused(struct xh_app *app, int on)
{
	pthread_mutex_lock(&app->st.lock);
	app->st.ui_focused = on;
	pthread_mutex_unlock(&app->st.lock);
}

/* The description window is done: save its text into the dump, or not. */
void xh_ask_finish(struct xh_app *app, int save)
{
	uint8_t *buf = NULL;
	size_t len = 0;

	if (!app->ask.open)
		return;
	app->ask.open = 0;
	set_ui_focused(app, 0);
	ui_close(&app->ui);
	if (app->ask.seq) {		/* a tipmed incident: its description.txt */
		if (save && app->ui.len)
			xh_tipmed_note(app, app->ask.seq, app->ui.text);
		else
			xh_logv(app, "no description\n");
		app->ask.seq = 0;
		return;
	}
	if (save && app->ui.len) {
		app->ask.snap.description = app->ui.text;
		if (tm_xdump_build(&app->ask.snap, &buf, &len) == 0 &&
		    xh_dump_write(app, buf, len, app->ask.name) == 0)
			fprintf(stderr, "tipme-xhook: description saved in %s\n", app->ask.name);
		free(buf);
	} else {
		xh_logv(app, "no description\n");
	}
	xh_snapshot_free(&app->ask.snap);
}

/* Open the description window (@seq: for that tipmed trigger, or 0). */
static int ask_open(struct xh_app *app, uint32_t seq)
{
	xh_ask_finish(app, 1);
	if (!app->ui.c || ui_open(&app->ui))
		return -1;
	app->ask.open = 1;
	app->ask.seq = seq;
	app->ask.deadline = xh_now_ns() + app->env.ask_timeout * 1000000000ULL;
	return 0;
}

/* A dump of our own, to --output-dir (no tipmed, or it did not take it). */
static void do_trigger(struct xh_app *app, uint32_t cause, uint64_t t_ns)
{
	struct tm_xdump_content s;
	char name[128];

	/* a new hotkey dump gets a new window: keep what was typed so far */
	if (cause == TIPME_X11_TRIGGER_HOTKEY)
		xh_ask_finish(app, 1);

	if (xh_dump_local(app, cause, t_ns, &s, name, sizeof(name)))
		return;
	if (cause == TIPME_X11_TRIGGER_HOTKEY && ask_open(app, 0) == 0) {
		app->ask.snap = s;		/* kept until the window is done */
		memcpy(app->ask.name, name, sizeof(app->ask.name));
		return;
	}
	xh_snapshot_free(&s);
}

/* The tipmed worker's answer to our TRIGGER (from tl_done()). */
void xh_trigger_answered(struct xh_app *app, struct tl_job *j)
{
	if (j->cause == TIPME_X11_TRIGGER_AUTO && j->err == -EBUSY) {
		/* tipmed's own limit on auto incidents: no dump here either */
		app->auto_held++;
		fprintf(stderr, "tipme-xhook: auto: tipmed held it back (%s)\n", j->msg);
		return;
	}
	if (xh_tipmed_trigger_done(app, j))
		do_trigger(app, j->cause, j->t_ns);
	else if (j->cause == TIPME_X11_TRIGGER_HOTKEY)
		ask_open(app, j->seq);
}

/* Our hotkey or SIGUSR1 with tipmed: ask it for an incident. */
static void ask_tipmed(struct xh_app *app, uint32_t cause, uint64_t t_ns)
{
	if (cause == TIPME_X11_TRIGGER_HOTKEY)
		xh_ask_finish(app, 1);
	if (xh_tipmed_trigger(app, cause, t_ns))
		do_trigger(app, cause, t_ns);
}

/* A hotkey press or SIGUSR1: ask tipmed for an incident, or dump here. */
void xh_trigger(struct xh_app *app, uint32_t cause, uint64_t t_ns)
{
	if (app->env.tipmed)
		ask_tipmed(app, cause, t_ns);
	else
		do_trigger(app, cause, t_ns);
}

/*
 * The window's connection after a wake-up: while asking, its keys, the
 * idle timeout and the end of the window; else drop what comes.
 */
void xh_ask_poll(struct xh_app *app, short revents)
{
	if (app->ask.open) {
		int r = ui_handle(&app->ui);

		if (app->ui.last_key) {
			app->ui.last_key = 0;
			app->ask.deadline = xh_now_ns() + app->env.ask_timeout * 1000000000ULL;
		}
		if (r == UI_SAVE)
			xh_ask_finish(app, 1);
		else if (r != UI_CONTINUE || xh_now_ns() > app->ask.deadline)
			xh_ask_finish(app, 0);
	} else if (app->ui.c && (revents & POLLIN)) {
		xcb_generic_event_t *uev;

		while ((uev = xcb_poll_for_event(app->ui.c)))
			free(uev);
	}
}

#define DAY_NS	(86400ULL * 1000000000ULL)

/*
 * On the timer: presses measured since the last tick (autotrig.c).  One
 * slower than --auto-trigger-ms triggers an incident of source "auto",
 * at most one per --auto-spacing and --auto-per-day a day; the
 * description window stays shut (not being asked is the point).
 */
void xh_auto_tick(struct xh_app *app)
{
	struct xh_auto_press p[XH_AUTO_RESULTS];
	uint64_t now = xh_now_ns(), thr = app->env.auto_ms * 1000000ULL;
	unsigned n, i;

	if (!app->env.auto_ms)
		return;
	n = xh_auto_collect(&app->st.autotrig, &app->st.lock, now, p,
			    XH_AUTO_RESULTS);
	for (i = 0; i < n; i++) {
		uint64_t lat = p[i].end_ns - p[i].press_ns;
		const char *what = p[i].code == 4 ? "button press" : "key press";
		uint32_t pid = 0;
		char comm[17] = "";

		app->auto_measured++;
		pthread_mutex_lock(&app->st.lock);
		if (p[i].client < app->st.ncl) {
			pid = app->st.cl[p[i].client].pid;
			memcpy(comm, app->st.cl[p[i].client].comm, 16);
		}
		pthread_mutex_unlock(&app->st.lock);
		for (char *c = comm; *c; c++)	/* it goes into a protocol line */
			if (*c < ' ' || *c > '~' || *c == '"' || *c == '\\')
				*c = '?';
		xh_logv(app, "auto: %s to client %u (pid %" PRIu32 ") answered in %.1f ms\n",
			what, p[i].client, pid, lat / 1e6);
		if (lat < thr)
			continue;
		if (now - app->auto_day_ns >= DAY_NS || !app->auto_day_ns) {
			app->auto_day_ns = now;
			app->auto_day_count = 0;
		}
		if ((app->auto_last_ns &&
		     now - app->auto_last_ns < app->env.auto_spacing_s * 1000000000ULL) ||
		    app->auto_day_count >= app->env.auto_per_day) {
			app->auto_held++;
			fprintf(stderr, "tipme-xhook: auto: a %s took %.0f ms; no incident (%s)\n",
				what, lat / 1e6,
				app->auto_day_count >= app->env.auto_per_day ?
				"the day's budget is spent" : "too soon after the last one");
			continue;
		}
		app->auto_last_ns = now;
		app->auto_day_count++;
		app->auto_fired++;
		snprintf(app->auto_reason, sizeof(app->auto_reason),
			 "auto: a %s to pid %" PRIu32 " (%s) took %.0f ms (threshold %u ms), press at %.6f s",
			 what, pid, comm[0] ? comm : "?", lat / 1e6,
			 app->env.auto_ms, p[i].press_ns / 1e9);
		snprintf(app->auto_fields, sizeof(app->auto_fields),
			 "input=%s pid=%" PRIu32 " press_ns=%" PRIu64 " latency_ns=%" PRIu64
			 " comm=%s", p[i].code == 4 ? "button" : "key", pid,
			 p[i].press_ns, lat, comm);
		fprintf(stderr, "tipme-xhook: %s\n", app->auto_reason);
		xh_trigger(app, TIPME_X11_TRIGGER_AUTO, now);
	}
}
