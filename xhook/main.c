// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: record what the X server does, per client, and write it out
 * when the user presses Ctrl-Alt-Minus.
 *
 * Two connections to the X server (Documentation/xhook.md):
 *  - data: creates and enables the RECORD context; a dedicated thread does
 *    nothing but read its replies, parse them and write the ring, so the
 *    server never waits for us;
 *  - control: everything else (key grabs, X-Resource PID queries, fences).
 *    It stays registered in the context: its NoOperation requests are the
 *    fence markers, and its QueryClientIds requests tell the parser at
 *    which point of the stream a PID answer was computed, so a PID is
 *    only ever given to the client that held the base at that point.
 *
 * With tipmed (tipmed_link.h), a SUBSCRIBE connection on the main thread's
 * poll loop and a worker thread for the requests and the dump files.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>

#include <xcb/xcb.h>
#include <xcb/record.h>
#include <xcb/res.h>

#include "ctlproto.h"
#include "app.h"
#include "xdump_read.h"

/* Exit codes (Documentation/xhook.md) */
#define EXIT_USAGE	2
#define EXIT_NO_EXT	3	/* RECORD or X-Resource missing or too old */
#define EXIT_X_LOST	4	/* the X server went away */

static void usage(FILE *f)
{
	fprintf(f,
"Usage: tipme-xhook [OPTIONS]\n"
"       tipme-xhook print [--json] DUMP\n"
"\n"
"Record X11 input, events and requests per client into a ring; on\n"
"Ctrl-Alt-Minus (or SIGUSR1) write the last seconds to an X dump.  With\n"
"tipmed, on every trigger it announces (any source), hand the dump to the\n"
"incident as xhook.dump; the hotkey asks tipmed for the incident.\n"
"\n"
"  -d, --display DPY       X display (default $DISPLAY)\n"
"      --tipmed [SOCKET]   work with tipmed (default socket " TIPME_CTL_SOCKET ");\n"
"                          the default when that socket exists and no -o is given\n"
"      --no-tipmed         never talk to tipmed\n"
"  -o, --output-dir DIR    where dumps go (default .); with --tipmed: those\n"
"                          tipmed does not take (not running, no module)\n"
"  -s, --ring-size MIB     ring size in MiB (default 16; 48 bytes a record)\n"
"  -f, --fence-ms MS       fence period (default 5; 0 = off)\n"
"  -k, --keylog            start with key logging on (default off)\n"
"  -G, --no-grab           do not grab the hotkeys (still seen in the stream)\n"
"  -n, --no-ask            no \"What felt slow?\" window after a hotkey dump\n"
"  -t, --ask-timeout S     close that window after S idle seconds (default 60)\n"
"  -v, --verbose           say more\n"
"  -h, --help              this text\n"
"\n"
"Hotkeys: Ctrl-Alt-Minus dump, Ctrl-Alt-Plus mark, Ctrl-Alt-0 key logging\n"
"off, Ctrl-Alt-1 key logging on.\n"
"Exit codes: 0 stopped by SIGINT/SIGTERM, 1 error, 2 usage, 3 RECORD or\n"
"X-Resource missing, 4 the X server went away.\n"
"\n"
"EXAMPLES:\n"
"  tipme-xhook &                       # with tipmed: dumps go into its incidents\n"
"  tipme-xhook -o ~/tipme-dumps &      # record; Ctrl-Alt-Minus writes a dump\n"
"  kill -USR1 %%1                       # same as the hotkey\n"
"  tipme-xhook print ~/tipme-dumps/x11-*.xdump | less\n"
"  tipme-xhook print --json DUMP > dump.json\n");
}

/* ---- dumps -------------------------------------------------------------- */

/*
 * Where a dump of our own goes: a file in --output-dir (without tipmed, or
 * when tipmed did not take our trigger).  Dumps for tipmed's incidents are
 * built and PUT by the worker thread instead (see "tipmed" below), which
 * writes them to --output-dir itself when the PUT fails.
 */
static int dump_deliver(struct xh_app *app, const void *buf, size_t len, const char *name)
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

static void set_ui_focused(struct xh_app *app, int on)
{
	pthread_mutex_lock(&app->st.lock);
	app->st.ui_focused = on;
	pthread_mutex_unlock(&app->st.lock);
}

static void note_for(struct xh_app *app, uint32_t seq, const char *text);

/* The description window is done: save its text into the dump, or not. */
static void ask_finish(struct xh_app *app, int save)
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
			note_for(app, app->ask.seq, app->ui.text);
		else
			xh_logv(app, "no description\n");
		app->ask.seq = 0;
		return;
	}
	if (save && app->ui.len) {
		app->ask.snap.description = app->ui.text;
		if (xh_dump_build(&app->ask.snap, &buf, &len) == 0 &&
		    dump_deliver(app, buf, len, app->ask.name) == 0)
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
	ask_finish(app, 1);
	if (!app->ui.c || ui_open(&app->ui))
		return -1;
	app->ask.open = 1;
	app->ask.seq = seq;
	app->ask.deadline = xh_now_ns() + app->env.ask_timeout * 1000000000ULL;
	return 0;
}

/*
 * Fence, wait until the stream has caught up with the fence, learn the PIDs
 * of new clients, and copy the ring (a few ms under st.lock; the data
 * thread's socket buffer absorbs that).
 */
static int take_snapshot(struct xh_app *app, uint32_t cause, uint64_t t_ns, struct xh_snapshot *s)
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
	return 0;
}

/* A dump of our own, to --output-dir (no tipmed, or it did not take it). */
static void do_trigger(struct xh_app *app, uint32_t cause, uint64_t t_ns)
{
	struct xh_snapshot s;
	char name[128];
	uint8_t *buf = NULL;
	size_t len = 0;
	int err;

	/* a new hotkey dump gets a new window: keep what was typed so far */
	if (cause == TIPME_X11_TRIGGER_HOTKEY)
		ask_finish(app, 1);

	if (take_snapshot(app, cause, t_ns, &s))
		return;
	err = xh_dump_build(&s, &buf, &len);
	if (!err) {
		xh_logv(app, "dump: %" PRIu64 " records, %u clients, %zu bytes\n", s.nrecs,
		     s.ncl, len);
		dump_name(app, s.real_ns, name, sizeof(name));
		err = dump_deliver(app, buf, len, name);
	} else {
		fprintf(stderr, "tipme-xhook: dump: %s\n", strerror(-err));
	}
	free(buf);
	if (!err && cause == TIPME_X11_TRIGGER_HOTKEY && ask_open(app, 0) == 0) {
		app->ask.snap = s;		/* kept until the window is done */
		memcpy(app->ask.name, name, sizeof(app->ask.name));
		return;
	}
	xh_snapshot_free(&s);
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
#define TL_WAIT_NS	(120ULL * 1000000000ULL) /* ... at most this long */
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
static void submit_dump(struct xh_app *app, struct xh_snapshot *s, const char *incident)
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
		if (xh_dump_build(s, &buf, &len) == 0)
			dump_deliver(app, buf, len, name);
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
static void note_for(struct xh_app *app, uint32_t seq, const char *text)
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
	struct xh_snapshot s;
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

	if (!tl_parse_triggered(line, &seq, &mono))
		on_triggered(app, seq, mono);
	else if (!tl_parse_incident(line, &seq, name, sizeof(name)))
		on_incident(app, seq, name);
	else
		xh_logv(app, "tipmed: ignored '%s'\n", line);
}

/* Connect and SUBSCRIBE if not connected (at start, then every second). */
static void sub_try(struct xh_app *app)
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

/* The worker's answer to our TRIGGER. */
static void trigger_done(struct xh_app *app, struct tl_job *j)
{
	if (j->err) {
		fprintf(stderr, "tipme-xhook: %s; writing the dump here instead\n",
			j->msg);
		do_trigger(app, j->cause, j->t_ns);
		return;
	}
	app->tl.ours[app->tl.ours_next].seq = j->seq;
	app->tl.ours[app->tl.ours_next].cause = j->cause;
	app->tl.ours_next = (app->tl.ours_next + 1) % TL_RECENT;
	xh_logv(app, "tipmed: trigger %u%s\n", j->seq, j->coalesced ? " (joined it)" : "");
	if (!app->tl.sub.subscribed) {
		fprintf(stderr, "tipme-xhook: trigger %u: not subscribed to tipmed, so its incident gets no X dump: writing it here\n",
			j->seq);
		do_trigger(app, j->cause, j->t_ns);
	} else if (j->cause == TIPME_X11_TRIGGER_HOTKEY) {
		ask_open(app, j->seq);
	}
}

/* Our hotkey or SIGUSR1 with tipmed: ask it for an incident. */
static void ask_tipmed(struct xh_app *app, uint32_t cause, uint64_t t_ns)
{
	struct tl_job *j;

	if (cause == TIPME_X11_TRIGGER_HOTKEY)
		ask_finish(app, 1);
	if (tl_queued(&app->tl.worker) >= TL_QUEUE_MAX) {
		fprintf(stderr, "tipme-xhook: tipmed is slow to answer: the dump goes to %s\n",
			app->env.output_dir);
		do_trigger(app, cause, t_ns);
		return;
	}
	j = job_new(TL_TRIGGER);
	if (!j) {
		do_trigger(app, cause, t_ns);
		return;
	}
	snprintf(j->line, sizeof(j->line), "TRIGGER xhook");
	j->cause = cause;
	j->t_ns = t_ns;
	xh_logv(app, "asking tipmed for a trigger (%u requests before it)\n",
	     tl_queued(&app->tl.worker));
	tl_submit(&app->tl.worker, j);
}

static void tipmed_tick(struct xh_app *app)
{
	uint64_t now = xh_now_ns();
	unsigned i;

	for (i = 0; i < TL_SLOTS; i++)
		if (app->tl.slots[i].used && now - app->tl.slots[i].taken_ns > TL_WAIT_NS)
			slot_flush(app, i, "no incident after 120 s");
	sub_try(app);
}

static void tipmed_stop(struct xh_app *app)
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

static int parse_args(struct xh_app *app, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "display", required_argument, NULL, 'd' },
		{ "output-dir", required_argument, NULL, 'o' },
		{ "tipmed", optional_argument, NULL, 'T' },
		{ "no-tipmed", no_argument, NULL, 'N' },
		{ "ring-size", required_argument, NULL, 's' },
		{ "fence-ms", required_argument, NULL, 'f' },
		{ "keylog", no_argument, NULL, 'k' },
		{ "no-grab", no_argument, NULL, 'G' },
		{ "no-ask", no_argument, NULL, 'n' },
		{ "ask-timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "d:o:s:f:kGnt:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			app->env.display = optarg;
			break;
		case 'o':
			app->env.output_dir = optarg;
			app->env.output_set = 1;
			break;
		case 'T':
			/* "--tipmed SOCKET" as well as "--tipmed=SOCKET" */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				optarg = argv[optind++];
			app->env.tipmed = optarg && *optarg ? optarg : TIPME_CTL_SOCKET;
			break;
		case 'N':
			app->env.no_tipmed = 1;
			break;
		case 's':
			errno = 0;
			app->env.ring_bytes = strtoull(optarg, &end, 10) << 20;
			if (errno || *end || app->env.ring_bytes < (1 << 20) ||
			    app->env.ring_bytes > (4096ULL << 20)) {
				fprintf(stderr, "tipme-xhook: --ring-size: 1..4096 MiB\n");
				return -EINVAL;
			}
			break;
		case 'f':
			errno = 0;
			app->env.fence_ms = (unsigned)strtoul(optarg, &end, 10);
			if (errno || *end || app->env.fence_ms > 1000) {
				fprintf(stderr, "tipme-xhook: --fence-ms: 0..1000\n");
				return -EINVAL;
			}
			break;
		case 'k':
			app->env.keylog = 1;
			break;
		case 'G':
			app->env.no_grab = 1;
			break;
		case 'n':
			app->env.no_ask = 1;
			break;
		case 't':
			errno = 0;
			app->env.ask_timeout = (unsigned)strtoul(optarg, &end, 10);
			if (errno || *end || !app->env.ask_timeout || app->env.ask_timeout > 3600) {
				fprintf(stderr, "tipme-xhook: --ask-timeout: 1..3600\n");
				return -EINVAL;
			}
			break;
		case 'v':
			app->env.verbose = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind != argc || (app->env.tipmed && app->env.no_tipmed)) {
		usage(stderr);
		return -EINVAL;
	}
	if (!app->env.tipmed && !app->env.no_tipmed && !app->env.output_set &&
	    access(TIPME_CTL_SOCKET, F_OK) == 0)
		app->env.tipmed = TIPME_CTL_SOCKET;
	return 0;
}

int main(int argc, char **argv)
{
	static struct xh_app the_app = {
		.env = {
			.output_dir = ".",
			.ring_bytes = 16ULL << 20,
			.fence_ms = 5,
			.ask_timeout = 60,
		},
	};
	struct xh_app *app = &the_app;
	struct pollfd pfd[6];
	sigset_t mask;
	int sfd = -1, tfd = -1, efd = -1, err, ret = 1;
	unsigned ticks = 0, ticks_per_s;

	tl_sub_init(&app->tl.sub);
	if (argc > 1 && !strcmp(argv[1], "print"))
		return xdump_main(argc - 1, argv + 1);
	if (parse_args(app, argc, argv))
		return EXIT_USAGE;
	if (mkdir(app->env.output_dir, 0700) < 0 && errno != EEXIST) {
		fprintf(stderr, "tipme-xhook: %s: %s\n", app->env.output_dir, strerror(errno));
		return 1;
	}

	/* signals: handled on the main thread only, via signalfd */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &mask, NULL);

	if (xh_xconn_open(app))
		goto out_disconnect;
	err = xh_state_init(&app->st, app->env.ring_bytes, 1U << 16);
	if (err) {
		fprintf(stderr, "tipme-xhook: ring: %s\n", strerror(-err));
		goto out_disconnect;
	}
	if (!app->st.ring_locked)
		fprintf(stderr, "tipme-xhook: warning: could not mlock the ring (RLIMIT_MEMLOCK)\n");
	app->st.keylog = app->st.keylog_ever = app->env.keylog;
	app->st.ctrl_base = xcb_get_setup(app->ctrl)->resource_id_base;
	app->st.data_base = xcb_get_setup(app->dconn)->resource_id_base;
	err = xh_xconn_extensions(app);
	if (err) {
		ret = err == -ENOTSUP ? EXIT_NO_EXT : 1;
		if (err != -ENOTSUP)
			fprintf(stderr, "tipme-xhook: cannot list extensions\n");
		goto out_state;
	}
	xh_xconn_describe(app);
	if (xh_keys_setup(app))
		fprintf(stderr, "tipme-xhook: cannot read the keyboard mapping: no hotkeys\n");

	/* before the context exists, so it is never a stranger to the parser */
	if (!app->env.no_ask) {
		if (ui_connect(&app->ui, app->env.display) == 0)
			app->st.ui_base = ui_base(&app->ui);
		else
			fprintf(stderr, "tipme-xhook: warning: no description window\n");
	}
	xh_record_initial_clients(app);
	if (xh_record_create(app))
		goto out_state;
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (efd < 0 || sfd < 0 || tfd < 0) {
		perror("tipme-xhook: eventfd/signalfd/timerfd");
		goto out_state;
	}
	app->st.notify_fd = efd;
	if (app->env.tipmed) {
		app->tl.worker.sock = app->env.tipmed;
		app->tl.worker.dir = app->env.output_dir;
		app->tl.worker.notify_fd = efd;
		app->tl.worker.verbose = app->env.verbose;
		err = tl_worker_start(&app->tl.worker);
		if (err) {
			fprintf(stderr, "tipme-xhook: cannot start the tipmed thread: %s\n",
				strerror(-err));
			goto out_fds;
		}
	}
	if (xh_record_thread_start(app))
		goto out_thread;
	if (!app->env.no_grab)
		xh_keys_grab(app);
	xh_clock_pair(&app->st);
	xh_resolve_pids(app);
	xh_pids_query_new_clients(app);
	{
		unsigned ms = app->env.fence_ms ? app->env.fence_ms : 100;
		struct itimerspec its = {
			.it_interval = { ms / 1000, (long)(ms % 1000) * 1000000L },
			.it_value = { ms / 1000, (long)(ms % 1000) * 1000000L },
		};

		timerfd_settime(tfd, 0, &its, NULL);
		ticks_per_s = 1000 / ms ? 1000 / ms : 1;
	}
	if (app->env.tipmed)
		sub_try(app);
	fprintf(stderr, "tipme-xhook: recording %s (ring %" PRIu64 " records, key logging %s); dumps go to %s%s%s%s\n",
		app->env.display ? app->env.display : getenv("DISPLAY") ? getenv("DISPLAY") : "",
		app->st.cap, app->st.keylog ? "ON" : "off",
		app->env.tipmed ? "tipmed's incidents (" : "", app->env.tipmed ? app->env.tipmed : "",
		app->env.tipmed ? "), else to " : "", app->env.output_dir);

	pfd[0].fd = xcb_get_file_descriptor(app->ctrl);
	pfd[1].fd = sfd;
	pfd[2].fd = tfd;
	pfd[3].fd = efd;
	pfd[4].fd = ui_fd(&app->ui);
	for (;;) {
		xcb_generic_event_t *ev;
		struct tl_job *job;
		unsigned want = 0;
		int dead;
		uint64_t trig_ns;
		int i;

		pfd[5].fd = app->tl.sub.fd;
		for (i = 0; i < 6; i++)
			pfd[i].events = POLLIN;
		if (poll(pfd, 6, -1) < 0 && errno != EINTR) {
			perror("tipme-xhook: poll");
			break;
		}
		while ((ev = xcb_poll_for_event(app->ctrl))) {
			uint8_t type = ev->response_type & 0x7f;

			if (type == 0) {
				xh_logv(app, "X error %u on the control connection\n",
				     ((xcb_generic_error_t *)ev)->error_code);
			} else if (type == XCB_MAPPING_NOTIFY) {
				xcb_mapping_notify_event_t *m = (void *)ev;

				if (m->request != XCB_MAPPING_POINTER) {
					xh_keys_setup(app);
					if (!app->env.no_grab)
						xh_keys_grab(app);
				}
			}
			free(ev);
		}
		if (xcb_connection_has_error(app->ctrl)) {
			fprintf(stderr, "tipme-xhook: lost the connection to the X server (did it exit?); exiting\n");
			ret = EXIT_X_LOST;
			goto out_thread;
		}
		if (pfd[3].revents & POLLIN) {
			uint64_t v;

			if (read(efd, &v, sizeof(v)) < 0)
				(void)0;
		}
		if (app->env.tipmed) {
			while ((job = tl_done(&app->tl.worker))) {
				trigger_done(app, job);
				free(job);
			}
		}
		if (pfd[5].fd >= 0 && pfd[5].revents) {
			struct tm_err e = { "" };

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
		pthread_mutex_lock(&app->st.lock);
		want = app->st.want;
		app->st.want = 0;
		dead = app->st.x_dead;
		trig_ns = app->st.trigger_ns;
		pthread_mutex_unlock(&app->st.lock);
		if (dead) {
			fprintf(stderr, "tipme-xhook: the X server ended the recording (did it exit?); exiting\n");
			ret = EXIT_X_LOST;
			goto out_thread;
		}
		if (want & (XH_WANT_RESOLVE | XH_WANT_COLLECT))
			xh_resolve_pids(app);
		if ((want & XH_WANT_TRIGGER) && app->env.tipmed)
			ask_tipmed(app, TIPME_X11_TRIGGER_HOTKEY, trig_ns);
		else if (want & XH_WANT_TRIGGER)
			do_trigger(app, TIPME_X11_TRIGGER_HOTKEY, trig_ns);
		if (app->ask.open) {
			int r = ui_handle(&app->ui);

			if (app->ui.last_key) {
				app->ui.last_key = 0;
				app->ask.deadline = xh_now_ns() + app->env.ask_timeout * 1000000000ULL;
			}
			if (r == UI_SAVE)
				ask_finish(app, 1);
			else if (r != UI_CONTINUE || xh_now_ns() > app->ask.deadline)
				ask_finish(app, 0);
		} else if (app->ui.c && (pfd[4].revents & POLLIN)) {
			xcb_generic_event_t *uev;

			while ((uev = xcb_poll_for_event(app->ui.c)))
				free(uev);
		}
		if (pfd[2].revents & POLLIN) {
			uint64_t n;

			if (read(tfd, &n, sizeof(n)) == sizeof(n)) {
				if (app->env.fence_ms)
					xh_fence_send(app);
				ticks += (unsigned)n;
				if (ticks >= ticks_per_s) {
					ticks = 0;
					xh_clock_pair(&app->st);
					if (app->env.tipmed)
						tipmed_tick(app);
					pthread_mutex_lock(&app->st.lock);
					if (app->st.ncl > app->st.cl_max / 2)
						xh_logv(app, "forgot %u old clients\n",
						     xh_clients_compact(&app->st));
					pthread_mutex_unlock(&app->st.lock);
				}
			}
		}
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGUSR1 && app->env.tipmed) {
					ask_tipmed(app, TIPME_X11_TRIGGER_SIGNAL, xh_now_ns());
				} else if (si.ssi_signo == SIGUSR1) {
					do_trigger(app, TIPME_X11_TRIGGER_SIGNAL, xh_now_ns());
				} else {
					xh_logv(app, "signal %u: stopping\n", si.ssi_signo);
					ret = 0;
					goto out_stop;
				}
			}
		}
	}

out_stop:
	xh_record_stop(app);
out_thread:
	xh_record_join(app);
out_fds:
	ask_finish(app, 0);
	tipmed_stop(app);
	ui_disconnect(&app->ui);
	close(tfd);
	close(sfd);
	close(efd);
out_state:
	xh_state_free(&app->st);
out_disconnect:
	xh_xconn_close(app);
	return ret;
}
