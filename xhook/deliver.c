// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: where dumps go.  Snapshots of the ring (after a fence), the
 * dump files of our own in --output-dir, and with tipmed the dumps handed
 * to its incidents, plus the descriptions (NOTE) for them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"

/* ---- dumps -------------------------------------------------------------- */

/*
 * Where a dump of our own goes: a file in --output-dir (without tipmed, or
 * when tipmed did not take our trigger).  Dumps for tipmed's incidents are
 * built and PUT by the worker thread instead (see "tipmed" below), which
 * writes them to --output-dir itself when the PUT fails.
 */
int xh_dump_write(struct xh_app *app, const void *buf, size_t len, const char *name)
{
	int err;

	err = xh_write_atomic(app->env.output_dir, name, buf, len);
	if (err)
		fprintf(stderr, "tipme-xhook: cannot write %s/%s: %s\n",
			app->env.output_dir, name, strerror(-err));
	else
		fprintf(stderr, "tipme-xhook: wrote %s/%s\n", app->env.output_dir, name);
	return err;
}

static void dump_name(struct xh_app *app, uint64_t real_ns, char *name, size_t size)
{
	time_t t = (time_t)(real_ns / 1000000000ULL);
	char stamp[32];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(name, size, "x11-%s-%d-%03u.xdump", stamp, (int)getpid(), ++app->dump_seq);
}

/*
 * Fence, wait until the stream has caught up with the fence, learn the PIDs
 * of new clients, and copy the ring (a few ms under st.lock; the data
 * thread's socket buffer absorbs that).
 */
static int take_snapshot(struct xh_app *app, uint32_t cause, uint64_t t_ns,
			 struct tm_xdump_content *s)
{
	uint32_t seq;
	int err;

	seq = xh_fence_send(app);
	if (xh_fence_wait(app, seq, 1000))
		fprintf(stderr, "tipme-xhook: fence timed out: the dump may miss the last records\n");
	xh_resolve_pids(app);
	xh_clock_pair(&app->st);
	memset(s, 0, sizeof(*s));
	err = xh_snapshot_take(&app->st, s);
	if (err) {
		fprintf(stderr, "tipme-xhook: snapshot: %s\n", strerror(-err));
		return err;
	}
	s->trigger = cause;
	s->trigger_ns = t_ns;
	s->real_ns = xh_real_ns();
	s->exts = app->exts;
	s->nexts = app->nexts;
	s->system = app->system_text;
	if (cause == TIPME_X11_TRIGGER_AUTO)
		s->description = app->auto_reason;	/* what was measured */
	return 0;
}

/**
 * xh_dump_local() - a dump of our own, to --output-dir
 * @app: recording
 * @cause: TIPME_X11_TRIGGER_*
 * @t_ns: when it was asked for (CLOCK_MONOTONIC)
 * @s: the snapshot it was built from, the caller's on success
 * @name: its file name, @size bytes
 * @size: size of @name
 *
 * Return: 0, or a negative errno (said on stderr; nothing to free).
 */
int xh_dump_local(struct xh_app *app, uint32_t cause, uint64_t t_ns,
		  struct tm_xdump_content *s, char *name, size_t size)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int err;

	err = take_snapshot(app, cause, t_ns, s);
	if (err)
		return err;
	err = tm_xdump_build(s, &buf, &len);
	if (!err) {
		xh_logv(app, "dump: %" PRIu64 " records, %u clients, %zu bytes\n", s->nrecs,
		     s->ncl, len);
		dump_name(app, s->real_ns, name, size);
		err = xh_dump_write(app, buf, len, name);
	} else {
		fprintf(stderr, "tipme-xhook: dump: %s\n", strerror(-err));
	}
	free(buf);
	if (err)
		xh_snapshot_free(s);
	return err;
}

/* ---- tipmed ------------------------------------------------------------- */

/*
 * With tipmed (--tipmed, the default when its socket exists): every trigger
 * tipmed announces, from any source (kernel hotkey, sysctl, CLI, us), is
 * fenced and snapshotted the moment its "TRIGGERED" line arrives; once the
 * "INCIDENT" line names its directory the worker builds the dump and PUTs
 * it there as xhook.dump.  Our own hotkey (and SIGUSR1) only send "TRIGGER
 * xhook": on a real machine the kernel saw the same key and the two
 * coalesce into one incident.  Whatever tipmed does not take (no tipmed,
 * no module, not subscribed, an incident that never appears) goes to
 * --output-dir as without tipmed.  Neither the data thread nor the main
 * thread ever waits for tipmed: requests run on the worker thread.
 */
#define TL_WAIT_NS	(120ULL * 1000000000ULL) /* a snapshot waits this long for its incident */
#define TL_QUEUE_MAX	4	/* jobs waiting for the worker */

static uint32_t cause_of(struct xh_app *app, uint32_t seq)
{
	unsigned i;

	for (i = 0; i < TL_RECENT; i++)
		if (app->tl.ours[i].seq == seq)
			return app->tl.ours[i].cause;
	return TIPME_X11_TRIGGER_REQUEST;
}

static const char *incident_of(struct xh_app *app, uint32_t seq)
{
	unsigned i;

	for (i = 0; i < TL_RECENT; i++)
		if (app->tl.recent[i].seq == seq)
			return app->tl.recent[i].name;
	return NULL;
}

static struct tl_job *job_new(enum tl_kind kind)
{
	struct tl_job *j = calloc(1, sizeof(*j));

	if (!j)
		fprintf(stderr, "tipme-xhook: out of memory\n");
	else
		j->kind = kind;
	return j;
}

/*
 * Hand @s (zeroed here) to the worker: PUT into @incident, or (NULL) a file
 * in --output-dir.  While the worker waits for a slow tipmed with a few
 * dumps queued already, files are written here instead.
 */
static void submit_dump(struct xh_app *app, struct tm_xdump_content *s, const char *incident)
{
	struct tl_job *j = NULL;
	char name[128];
	uint8_t *buf = NULL;
	size_t len = 0;

	if (tl_queued(&app->tl.worker) < TL_QUEUE_MAX)
		j = job_new(incident ? TL_PUT : TL_LOCAL);
	if (!j) {
		if (incident)
			fprintf(stderr, "tipme-xhook: incident %s: tipmed is slow to take dumps; this one goes to %s\n",
				incident, app->env.output_dir);
		dump_name(app, s->real_ns, name, sizeof(name));
		if (tm_xdump_build(s, &buf, &len) == 0)
			xh_dump_write(app, buf, len, name);
		free(buf);
		xh_snapshot_free(s);
		return;
	}
	j->snap = *s;
	memset(s, 0, sizeof(*s));
	dump_name(app, j->snap.real_ns, j->file, sizeof(j->file));
	if (incident)
		snprintf(j->incident, sizeof(j->incident), "%s", incident);
	tl_submit(&app->tl.worker, j);
}

static void slot_flush(struct xh_app *app, unsigned i, const char *why)
{
	fprintf(stderr, "tipme-xhook: trigger %u: %s; its dump goes to %s\n",
		app->tl.slots[i].seq, why, app->env.output_dir);
	submit_dump(app, &app->tl.slots[i].snap, NULL);
	app->tl.slots[i].used = 0;
}

static void on_triggered(struct xh_app *app, uint32_t seq, uint64_t mono_ns)
{
	unsigned i, pick = TL_SLOTS;

	for (i = 0; i < TL_SLOTS; i++) {
		if (app->tl.slots[i].used && app->tl.slots[i].seq == seq)
			return;
		if (!app->tl.slots[i].used)
			pick = i;
	}
	if (pick == TL_SLOTS) {
		for (pick = 0, i = 1; i < TL_SLOTS; i++)
			if (app->tl.slots[i].taken_ns < app->tl.slots[pick].taken_ns)
				pick = i;
		slot_flush(app, pick, "no incident yet and too many newer triggers");
	}
	if (take_snapshot(app, cause_of(app, seq), mono_ns, &app->tl.slots[pick].snap))
		return;
	app->tl.slots[pick].used = 1;
	app->tl.slots[pick].seq = seq;
	app->tl.slots[pick].taken_ns = xh_now_ns();
	xh_logv(app, "trigger %u: snapshot of %" PRIu64 " records, %u clients\n", seq,
	     app->tl.slots[pick].snap.nrecs, app->tl.slots[pick].snap.ncl);
}

static void submit_note(struct xh_app *app, const char *incident, const char *text)
{
	struct tl_job *j = job_new(TL_NOTE);
	char *p;

	if (!j)
		return;
	snprintf(j->incident, sizeof(j->incident), "%s", incident);
	snprintf(j->line, sizeof(j->line), "NOTE %s %s", incident, text);
	for (p = j->line; *p; p++)	/* one line */
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	tl_submit(&app->tl.worker, j);
}

static void note_dropped(struct xh_app *app)
{
	if (app->tl.note_seq)
		fprintf(stderr, "tipme-xhook: trigger %u got no incident: the description was not saved: %s\n",
			app->tl.note_seq, app->tl.note_text);
	app->tl.note_seq = 0;
}

/* The user's answer for tipmed trigger @seq: NOTE now or once it has a name. */
void xh_tipmed_note(struct xh_app *app, uint32_t seq, const char *text)
{
	const char *name = incident_of(app, seq);

	if (name) {
		submit_note(app, name, text);
		return;
	}
	note_dropped(app);
	app->tl.note_seq = seq;
	snprintf(app->tl.note_text, sizeof(app->tl.note_text), "%s", text);
	xh_logv(app, "trigger %u: the description waits for its incident\n", seq);
}

static void on_incident(struct xh_app *app, uint32_t seq, const char *name)
{
	struct tm_xdump_content s;
	unsigned i;

	snprintf(app->tl.recent[app->tl.recent_next].name, sizeof(app->tl.recent[0].name), "%s", name);
	app->tl.recent[app->tl.recent_next].seq = seq;
	app->tl.recent_next = (app->tl.recent_next + 1) % TL_RECENT;
	for (i = 0; i < TL_SLOTS; i++)
		if (app->tl.slots[i].used && app->tl.slots[i].seq == seq)
			break;
	if (i < TL_SLOTS) {
		s = app->tl.slots[i].snap;
		app->tl.slots[i].used = 0;
	} else {
		/* we subscribed after its trigger: the ring still has the past */
		fprintf(stderr, "tipme-xhook: incident %s: its trigger was not announced to us: snapshot taken now\n",
			name);
		if (take_snapshot(app, cause_of(app, seq), xh_now_ns(), &s))
			return;
	}
	s.trigger = cause_of(app, seq);	/* our TRIGGER's answer may come late */
	xh_logv(app, "incident %s (trigger %u): handing over the dump\n", name, seq);
	submit_dump(app, &s, name);
	if (app->tl.note_seq == seq) {
		submit_note(app, name, app->tl.note_text);
		app->tl.note_seq = 0;
	}
}

static void sub_line(void *arg, const char *line)
{
	struct xh_app *app = arg;
	char name[128];
	uint64_t mono;
	uint32_t seq;

	if (!tm_ctl_parse_triggered(line, &seq, &mono))
		on_triggered(app, seq, mono);
	else if (!tm_ctl_parse_incident(line, &seq, name, sizeof(name)))
		on_incident(app, seq, name);
	else
		xh_logv(app, "tipmed: ignored '%s'\n", line);
}

/* Connect and SUBSCRIBE if not connected (at start, then every second). */
void xh_tipmed_connect(struct xh_app *app)
{
	struct tm_err e = { "" };
	int err;

	if (app->tl.sub.fd >= 0)
		return;
	app->tl.sub_reported = 0;
	err = tl_sub_connect(&app->tl.sub, app->env.tipmed, &e);
	if (err && err != app->tl.sub_err)	/* say it once, not every second */
		fprintf(stderr, "tipme-xhook: no tipmed (%s): dumps go to %s until it is there\n",
			e.msg, app->env.output_dir);
	if (err)
		app->tl.sub_err = err;
}

/* The subscription ended with @err (why: @why). */
static void sub_down(struct xh_app *app, int err, const char *why)
{
	unsigned i;

	if (app->tl.sub.subscribed)
		fprintf(stderr, "tipme-xhook: lost tipmed (%s): reconnecting; meanwhile dumps go to %s\n",
			why, app->env.output_dir);
	else if (err != app->tl.sub_err)
		fprintf(stderr, "tipme-xhook: %s; dumps go to %s\n", why, app->env.output_dir);
	app->tl.sub_err = err;
	tl_sub_close(&app->tl.sub);
	for (i = 0; i < TL_SLOTS; i++)
		if (app->tl.slots[i].used)
			slot_flush(app, i, "lost tipmed before its incident appeared");
	note_dropped(app);
}

/* Once a second: give up on old snapshots, reconnect. */
void xh_tipmed_tick(struct xh_app *app)
{
	uint64_t now = xh_now_ns();
	unsigned i;

	for (i = 0; i < TL_SLOTS; i++)
		if (app->tl.slots[i].used && now - app->tl.slots[i].taken_ns > TL_WAIT_NS)
			slot_flush(app, i, "no incident after 120 s");
	xh_tipmed_connect(app);
}

/* At exit: what waits goes to --output-dir; the worker gets 5 s. */
void xh_tipmed_stop(struct xh_app *app)
{
	unsigned i, n;

	for (i = 0; i < TL_SLOTS; i++)
		if (app->tl.slots[i].used)
			slot_flush(app, i, "stopping before its incident appeared");
	note_dropped(app);
	n = tl_worker_stop(&app->tl.worker, 5000);
	if (n)
		fprintf(stderr, "tipme-xhook: tipmed did not answer in 5 s: %u requests given up\n", n);
	tl_sub_close(&app->tl.sub);
}

/* Start the worker thread; it pokes @wake_fd when a TRIGGER is answered. */
int xh_tipmed_start(struct xh_app *app, int wake_fd)
{
	int err;

	app->tl.worker.sock = app->env.tipmed;
	app->tl.worker.dir = app->env.output_dir;
	app->tl.worker.notify_fd = wake_fd;
	app->tl.worker.verbose = app->env.verbose;
	err = tl_worker_start(&app->tl.worker);
	if (err)
		fprintf(stderr, "tipme-xhook: cannot start the tipmed thread: %s\n",
			strerror(-err));
	return err;
}

/* The SUBSCRIBE connection is readable: its lines, or its end. */
void xh_tipmed_read(struct xh_app *app)
{
	struct tm_err e = { "" };
	int err;

	err = tl_sub_read(&app->tl.sub, sub_line, app, &e);
	if (err)
		sub_down(app, err, e.msg);
	else if (app->tl.sub.subscribed && !app->tl.sub_reported) {
		fprintf(stderr, "tipme-xhook: subscribed to tipmed at %s\n",
			app->env.tipmed);
		app->tl.sub_reported = 1;
		app->tl.sub_err = 0;
	}
}

/**
 * xh_tipmed_trigger() - ask tipmed for an incident ("TRIGGER xhook")
 * @app: tipmed worker running
 * @cause: TIPME_X11_TRIGGER_HOTKEY or _SIGNAL
 * @t_ns: when (CLOCK_MONOTONIC)
 *
 * The answer comes back through tl_done() for xh_tipmed_trigger_done().
 *
 * Return: 0, or -EBUSY / -ENOMEM when the caller must write the dump
 * itself (said on stderr).
 */
int xh_tipmed_trigger(struct xh_app *app, uint32_t cause, uint64_t t_ns)
{
	struct tl_job *j;

	if (tl_queued(&app->tl.worker) >= TL_QUEUE_MAX) {
		fprintf(stderr, "tipme-xhook: tipmed is slow to answer: the dump goes to %s\n",
			app->env.output_dir);
		return -EBUSY;
	}
	j = job_new(TL_TRIGGER);
	if (!j)
		return -ENOMEM;
	if (cause == TIPME_X11_TRIGGER_AUTO)
		snprintf(j->line, sizeof(j->line), "TRIGGER auto %s", app->auto_fields);
	else
		snprintf(j->line, sizeof(j->line), "TRIGGER xhook");
	j->cause = cause;
	j->t_ns = t_ns;
	xh_logv(app, "asking tipmed for a trigger (%u requests before it)\n",
	     tl_queued(&app->tl.worker));
	tl_submit(&app->tl.worker, j);
	return 0;
}

/**
 * xh_tipmed_trigger_done() - tipmed answered our TRIGGER
 * @app: tipmed worker running
 * @j: the job back from tl_done()
 *
 * Return: 0 when the incident gets our dump (its TRIGGERED and INCIDENT
 * lines do the rest), -1 when the caller must write the dump itself (no
 * trigger, or we are not subscribed; said on stderr).
 */
int xh_tipmed_trigger_done(struct xh_app *app, struct tl_job *j)
{
	if (j->err) {
		fprintf(stderr, "tipme-xhook: %s; writing the dump here instead\n",
			j->msg);
		return -1;
	}
	app->tl.ours[app->tl.ours_next].seq = j->seq;
	app->tl.ours[app->tl.ours_next].cause = j->cause;
	app->tl.ours_next = (app->tl.ours_next + 1) % TL_RECENT;
	xh_logv(app, "tipmed: trigger %u%s\n", j->seq, j->coalesced ? " (joined it)" : "");
	if (!app->tl.sub.subscribed) {
		fprintf(stderr, "tipme-xhook: trigger %u: not subscribed to tipmed, so its incident gets no X dump: writing it here\n",
			j->seq);
		return -1;
	}
	return 0;
}
