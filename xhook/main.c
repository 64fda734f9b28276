// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: record what the X server does, per client, and write it out
 * when the user presses Ctrl-Alt-Minus.
 *
 * Two connections to the X server (Documentation/xhook.md, xconn.c):
 *  - data: creates and enables the RECORD context; a dedicated thread does
 *    nothing but read its replies, parse them and write the ring, so the
 *    server never waits for us (record.c);
 *  - control: everything else (key grabs in keys.c, X-Resource PID queries
 *    and fences in record.c).  It stays registered in the context: its
 *    NoOperation requests are the fence markers, and its QueryClientIds
 *    requests tell the parser at which point of the stream a PID answer
 *    was computed, so a PID is only ever given to the client that held the
 *    base at that point.
 *
 * Dumps go to --output-dir or, with tipmed, into its incidents
 * (deliver.c); a hotkey dump is followed by the description window
 * (ask.c).  This file: the options, the start-up and shut-down order, and
 * the main thread's poll loop with one handler per source.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>

#include <xcb/xcb.h>

#include "ctlproto.h"
#include "app.h"
#include "termsafe.h"
#include "xdumpfile.h"

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
"  -a, --auto-trigger-ms MS  a key or button press whose answer takes longer\n"
"                          than MS (from the device event to the client's\n"
"                          last request) triggers an incident, source auto\n"
"                          (default 300; 0 = off)\n"
"      --auto-spacing S    at most one auto trigger in S seconds (default 60)\n"
"      --auto-per-day N    at most N auto triggers in 24 hours (default 24)\n"
"  -v, --verbose           say more\n"
"      --x11-session-only  exit at once (status 0) in a session that says it is\n"
"                          not an X11 one (XDG_SESSION_TYPE): the autostart entry\n"
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

/* A decimal number in [@lo, @hi] into *@v; -1 if it is not one. */
static int number(const char *s, unsigned lo, unsigned hi, unsigned *v)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || n < lo || n > hi)
		return -1;
	*v = (unsigned)n;
	return 0;
}

/* The session is an X11 one, or does not say (XDG_SESSION_TYPE unset). */
static int x11_session(void)
{
	const char *t = getenv("XDG_SESSION_TYPE");

	return !t || !*t || !strcmp(t, "x11");
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
		{ "auto-trigger-ms", required_argument, NULL, 'a' },
		{ "auto-spacing", required_argument, NULL, 'S' },
		{ "auto-per-day", required_argument, NULL, 'D' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "x11-session-only", no_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "d:o:s:f:kGnt:a:vh", opts, NULL)) != -1) {
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
		case 'a':
			if (number(optarg, 0, 60000, &app->env.auto_ms)) {
				fprintf(stderr, "tipme-xhook: --auto-trigger-ms: 0..60000\n");
				return -EINVAL;
			}
			break;
		case 'S':
			if (number(optarg, 0, 86400, &app->env.auto_spacing_s)) {
				fprintf(stderr, "tipme-xhook: --auto-spacing: 0..86400\n");
				return -EINVAL;
			}
			break;
		case 'D':
			if (number(optarg, 1, 10000, &app->env.auto_per_day)) {
				fprintf(stderr, "tipme-xhook: --auto-per-day: 1..10000\n");
				return -EINVAL;
			}
			break;
		case 'v':
			app->env.verbose = 1;
			break;
		case 'X':
			app->env.x11_session_only = 1;
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

/* ---- the poll loop ------------------------------------------------------ */

/* What a handler tells the loop. */
enum {
	XH_RUN,		/* go on */
	XH_STOP,	/* a stop signal: end the recording, exit 0 */
	XH_FAIL,	/* poll failed: end the recording, exit 1 */
	XH_LOST,	/* the X server went away: exit 4 */
};

/* The loop's file descriptors. */
enum { FD_X, FD_SIGNAL, FD_TIMER, FD_WAKE, FD_UI, FD_TIPMED, FD_N };

/*
 * The control connection: key mapping changes, errors, and its loss.  Run
 * on every wake-up: xcb may have read events while waiting for a reply.
 */
static int on_x(struct xh_app *app, short revents)
{
	xcb_generic_event_t *ev;

	(void)revents;
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
		return XH_LOST;
	}
	return XH_RUN;
}

/*
 * The tipmed worker's answers to our TRIGGERs (announced on the wake-up
 * eventfd, drained before the handlers run; looked at on every wake-up).
 */
static int on_worker(struct xh_app *app, short revents)
{
	struct tl_job *job;

	(void)revents;
	if (app->env.tipmed) {
		while ((job = tl_done(&app->tl.worker))) {
			xh_trigger_answered(app, job);
			free(job);
		}
	}
	return XH_RUN;
}

/* tipmed's SUBSCRIBE connection: TRIGGERED and INCIDENT lines. */
static int on_subscription(struct xh_app *app, short revents)
{
	if (revents)
		xh_tipmed_read(app);
	return XH_RUN;
}

/*
 * The data thread's requests (announced on the wake-up eventfd; looked at
 * on every wake-up): a hotkey, clients whose PIDs to learn, or the end of
 * the recording.
 */
static int on_data_thread(struct xh_app *app, short revents)
{
	unsigned want;
	uint64_t trig_ns;
	int dead;

	(void)revents;
	pthread_mutex_lock(&app->st.lock);
	want = app->st.want;
	app->st.want = 0;
	dead = app->st.x_dead;
	trig_ns = app->st.trigger_ns;
	pthread_mutex_unlock(&app->st.lock);
	if (dead) {
		fprintf(stderr, "tipme-xhook: the X server ended the recording (did it exit?); exiting\n");
		return XH_LOST;
	}
	if (want & (XH_WANT_RESOLVE | XH_WANT_COLLECT))
		xh_resolve_pids(app);
	if (want & XH_WANT_TRIGGER)
		xh_trigger(app, TIPME_X11_TRIGGER_HOTKEY, trig_ns);
	return XH_RUN;
}

/* The description window's connection. */
static int on_ui(struct xh_app *app, short revents)
{
	xh_ask_poll(app, revents);
	return XH_RUN;
}

/* The timer: a fence every --fence-ms; once a second the slower chores. */
static int on_timer(struct xh_app *app, short revents)
{
	uint64_t n;

	if (!(revents & POLLIN) ||
	    read(app->timer_fd, &n, sizeof(n)) != sizeof(n))
		return XH_RUN;
	if (app->env.fence_ms)
		xh_fence_send(app);
	xh_auto_tick(app);
	app->ticks += (unsigned)n;
	if (app->ticks >= app->ticks_per_s) {
		app->ticks = 0;
		xh_clock_pair(&app->st);
		if (app->env.tipmed)
			xh_tipmed_tick(app);
		pthread_mutex_lock(&app->st.lock);
		if (app->st.ncl > app->st.cl_max / 2)
			xh_logv(app, "forgot %u old clients\n",
			     xh_clients_compact(&app->st));
		pthread_mutex_unlock(&app->st.lock);
	}
	return XH_RUN;
}

/* Signals: SIGUSR1 is a trigger; SIGINT, SIGTERM and SIGHUP stop. */
static int on_signal(struct xh_app *app, short revents)
{
	struct signalfd_siginfo si;

	if (!(revents & POLLIN))
		return XH_RUN;
	while (read(app->signal_fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGUSR1) {
			xh_trigger(app, TIPME_X11_TRIGGER_SIGNAL, xh_now_ns());
		} else {
			xh_logv(app, "signal %u: stopping\n", si.ssi_signo);
			return XH_STOP;
		}
	}
	return XH_RUN;
}

/*
 * The handlers, in the order they run after each wake-up, with the file
 * descriptor whose events they get.  The wake-up eventfd has two producers
 * (the data thread and the tipmed worker) and is drained before any of
 * them runs, so that nothing announced after that is missed.
 */
static const struct {
	int fd;
	int (*handle)(struct xh_app *app, short revents);
} handlers[] = {
	{ FD_X, on_x },
	{ FD_WAKE, on_worker },
	{ FD_TIPMED, on_subscription },
	{ FD_WAKE, on_data_thread },
	{ FD_UI, on_ui },
	{ FD_TIMER, on_timer },
	{ FD_SIGNAL, on_signal },
};

/* Poll until a handler says to stop; return what it said. */
static int run(struct xh_app *app)
{
	struct pollfd pfd[FD_N];
	unsigned i;
	int next;

	pfd[FD_X].fd = xcb_get_file_descriptor(app->ctrl);
	pfd[FD_SIGNAL].fd = app->signal_fd;
	pfd[FD_TIMER].fd = app->timer_fd;
	pfd[FD_WAKE].fd = app->wake_fd;
	pfd[FD_UI].fd = ui_fd(&app->ui);
	for (;;) {
		pfd[FD_TIPMED].fd = app->tl.sub.fd;
		for (i = 0; i < FD_N; i++)
			pfd[i].events = POLLIN;
		if (poll(pfd, FD_N, -1) < 0 && errno != EINTR) {
			perror("tipme-xhook: poll");
			return XH_FAIL;
		}
		if (pfd[FD_WAKE].revents & POLLIN) {
			uint64_t v;

			if (read(app->wake_fd, &v, sizeof(v)) < 0)
				(void)0;
		}
		for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++) {
			next = handlers[i].handle(app, pfd[handlers[i].fd].revents);
			if (next != XH_RUN)
				return next;
		}
	}
}

/* "print [--json] DUMP": the same as `tipme xrecords`, kept for tipme-xhook users */
static int print_dump(int argc, char **argv)
{
	int json = argc == 3 && !strcmp(argv[1], "--json");
	struct tm_err e = { "" };
	struct tm_xdump d;
	uint8_t *buf;
	int ret;

	if (argc != 2 + json || argv[argc - 1][0] == '-') {
		fprintf(stderr, "Usage: tipme-xhook print [--json] DUMP   (or: tipme xrecords)\n");
		return EXIT_USAGE;
	}
	if (tm_xdump_load(argv[argc - 1], &d, &buf, &e)) {
		fprintf(stderr, "tipme-xhook print: %s\n", e.msg);
		return 1;
	}
	ret = tm_xdump_print(stdout, &d, json);
	free(buf);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct xh_app the_app = {
		.env = {
			.output_dir = ".",
			.ring_bytes = 16ULL << 20,
			.fence_ms = 5,
			.ask_timeout = 60,
			.auto_ms = 300,
			.auto_spacing_s = 60,
			.auto_per_day = 24,
		},
		.wake_fd = -1,
		.signal_fd = -1,
		.timer_fd = -1,
	};
	struct xh_app *app = &the_app;
	sigset_t mask;
	int err, ret = 1, next;

	tl_sub_init(&app->tl.sub);
	if (argc > 1 && !strcmp(argv[1], "print")) {
		/* client names in the dump are other people's bytes */
		if (tm_termsafe_stdio())
			fprintf(stderr, "tipme-xhook: warning: output is not filtered for control bytes\n");
		return print_dump(argc - 1, argv + 1);
	}
	if (parse_args(app, argc, argv))
		return EXIT_USAGE;
	if (app->env.x11_session_only && !x11_session()) {
		/* a Wayland session: its Xwayland may not even run yet */
		fprintf(stderr, "tipme-xhook: a %s session, not X11: not recording (start tipme-xhook by hand to record Xwayland's clients)\n",
			getenv("XDG_SESSION_TYPE"));
		return 0;
	}
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
	if (!app->env.no_ask)
		xh_ask_connect(app);
	xh_record_initial_clients(app);
	if (xh_record_create(app))
		goto out_state;
	app->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	app->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	app->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (app->wake_fd < 0 || app->signal_fd < 0 || app->timer_fd < 0) {
		perror("tipme-xhook: eventfd/signalfd/timerfd");
		goto out_state;
	}
	app->st.notify_fd = app->wake_fd;
	if (app->env.tipmed && xh_tipmed_start(app, app->wake_fd))
		goto out_fds;
	app->st.autotrig.on = app->env.auto_ms > 0;
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

		timerfd_settime(app->timer_fd, 0, &its, NULL);
		app->ticks_per_s = 1000 / ms ? 1000 / ms : 1;
	}
	if (app->env.tipmed)
		xh_tipmed_connect(app);
	fprintf(stderr, "tipme-xhook: recording %s (ring %" PRIu64 " records, key logging %s); dumps go to %s%s%s%s\n",
		app->env.display ? app->env.display : getenv("DISPLAY") ? getenv("DISPLAY") : "",
		app->st.cap, app->st.keylog ? "ON" : "off",
		app->env.tipmed ? "tipmed's incidents (" : "", app->env.tipmed ? app->env.tipmed : "",
		app->env.tipmed ? "), else to " : "", app->env.output_dir);

	next = run(app);
	if (next == XH_LOST) {
		ret = EXIT_X_LOST;
		goto out_thread;
	}
	ret = next == XH_STOP ? 0 : 1;
	xh_record_stop(app);
out_thread:
	xh_record_join(app);
out_fds:
	xh_ask_finish(app, 0);
	xh_tipmed_stop(app);
	ui_disconnect(&app->ui);
	close(app->timer_fd);
	close(app->signal_fd);
	close(app->wake_fd);
out_state:
	xh_state_free(&app->st);
out_disconnect:
	xh_xconn_close(app);
	return ret;
}
