// SPDX-License-Identifier: GPL-2.0
/*
 * tipme report on work that changes hands, in scenario dumps whose truth
 * the test wrote (tests/unit/scen.h): a key echoed through a pty by a
 * program that computes 300 ms, the pty's flush worker between (pty); a
 * client asking a broker over a unix socket, the broker asking a service
 * that computes 300 ms (relay); a UI thread handing a job to a pool's
 * worker through condition variables, futexes (pool), or eventfds
 * (eventfd).  In each, another task wakes the task between for other
 * work meanwhile (a timer's work item, another client's ping), or the
 * worker waited 2 s idle before its job: the report must still charge
 * the client's wait to the task that did the work, hop by hop, and,
 * without --pid, choose the client's wait, not the worker's wait for
 * work.  Under X (xterm): a key typed into a terminal, echoed by the
 * program after 300 ms; the press reaches the screen when the terminal
 * drew the echo, not when it first went back to poll(), also when its
 * write queued the pty's flush on a worker busy with another item, which
 * woke nobody (xterm-busy; tipme latency says so too).  Text and JSON
 * against tests/unit/golden/handoff-NAME.{txt,json}
 * (TIPME_UPDATE_GOLDEN=1 rewrites them; review the diff).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture.h"
#include "cmd/commands.h"
#include "gen.h"
#include "golden.h"
#include "scen.h"
#include "tap.h"
#include "writefile.h"
#include "xdumpfile.h"

static char dir[64];

static const char *const poll_site[] = { "do_sys_poll", NULL };
static const char *const worker_site[] = { "worker_thread", "kthread", NULL };
static const char *const tty_site[] = { "n_tty_read", "vfs_read", "ksys_read", NULL };
static const char *const unix_site[] = { "unix_stream_read_generic", "ksys_read", NULL };
static const char *const futex_site[] = { "futex_wait_queue", "futex_wait", NULL };
static const char *const efd_site[] = { "eventfd_read", "vfs_read", "ksys_read", NULL };
static const char *const sleep_site[] = { "hrtimer_nanosleep", "common_nsleep", NULL };

/* tipme report [--json] @args on scenario @name, with the directory as "DIR". */
static char *report(const char *name, const char *args, int json, int *ret)
{
	char dump[160], buf[512], *argv[16], *tok, *save = NULL;
	int argc = 0;

	struct stat sb;

	snprintf(dump, sizeof(dump), "%s/%s", dir, name);	/* an incident */
	if (stat(dump, &sb) || !S_ISDIR(sb.st_mode))
		snprintf(dump, sizeof(dump), "%s/%s.dump", dir, name);
	snprintf(buf, sizeof(buf), "report%s %s", json ? " --json" : "", args);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 14;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc++] = dump;
	argv[argc] = NULL;
	return capture_in(pm_cmd_report, argc, argv, dir, ret);
}

/* @text against golden/handoff-@name.@ext; rewritten when asked. */
static int golden(const char *name, const char *ext, const char *text)
{
	char path[160];

	snprintf(path, sizeof(path), "tests/unit/golden/handoff-%s.%s", name, ext);
	return golden_file(path, text);
}

/*
 * The verdict of @name with @args: @cause, culprit @culprit, at least
 * @min_pct of the interval; every string of @must (NULL-terminated) in the
 * JSON; text and JSON as golden (@gold: the golden files' name).
 */
static void check(const char *name, const char *gold, const char *args,
		  const char *cause, int culprit, double min_pct,
		  const char *const *must, const char *what)
{
	char want[160], *json, *text, *v;
	double pct = -1;
	int ret, ok, i;

	json = report(name, args, 1, &ret);
	v = strstr(json, "\"verdict\":");
	snprintf(want, sizeof(want), "\"verdict\":{\"cause\":\"%s\",\"culprit\":{\"pid\":%d,",
		 cause, culprit);
	ok = !ret && v && !strncmp(v, want, strlen(want));
	if (v && (v = strstr(v, "\"pct\":")))
		pct = strtod(v + 6, NULL);
	for (i = 0; must && must[i]; i++)
		if (!strstr(json, must[i])) {
			tap_diag("missing: %s", must[i]);
			ok = 0;
		}
	tap_ok(ok && pct >= min_pct, "%s: %s, culprit %d, %.1f%% (at least %.0f%%)",
	       what, cause, culprit, pct, min_pct);
	if (!ok || pct < min_pct)
		tap_diag("%s", json);
	tap_ok(golden(gold, "json", json), "%s: JSON as golden", gold);
	text = report(name, args, 0, &ret);
	tap_ok(!ret && golden(gold, "txt", text), "%s: text as golden", gold);
	free(json);
	free(text);
}

/*
 * tipme latency --json on incident @name: the press ends where @done and
 * @end (its "done_mono_ns" and "end_mono_ns" lines) say.
 */
static void latency(const char *name, const char *done, const char *end, const char *what)
{
	char inc[120], out[160], err[160], *argv[] = { "latency", "--json", inc, NULL };
	char *json;
	int ret;

	snprintf(inc, sizeof(inc), "%s/%s", dir, name);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	ret = capture_run(pm_cmd_latency, 3, argv, out, err);
	json = capture_slurp(ret ? err : out);
	tap_ok(!ret && strstr(json, done) && strstr(json, end), "%s", what);
	if (ret || !strstr(json, done) || !strstr(json, end))
		tap_diag("%s", json);
	free(json);
}

static int save(struct scen *s, const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s.dump", dir, name);
	return scen_write(s, path);
}

/*
 * A terminal (xterm 3000, cpu 0) writes a key to a pty's master at 10 ms:
 * the tty layer queues its flush to an unbound worker (3001), which hands
 * the key to the program on the slave (3002, cpu 1), asleep in its read.
 * The program computes 300 ms and writes the echo: the worker flushes it
 * to the master and wakes the terminal, asleep in poll, at 310.8 ms.  At
 * 100 ms a daemon (3003), after a 97 ms sleep, queues other work on the
 * same worker.
 */
static int pty_scenario(struct scen *s)
{
	scen_init(s, 2);
	scen_task(s, 3000, 3000, "xterm", "/usr/bin/xterm", "xterm", 6);
	scen_task(s, 3001, 3001, "kworker/u4:1", "", "", 0);
	scen_task(s, 3002, 3002, "prog", "/usr/bin/prog", "prog", 5);
	scen_task(s, 3003, 3003, "daemon", "/usr/sbin/daemon", "daemon", 7);
	scen_ppid(s, 3000, 1);
	scen_ppid(s, 3002, 3000);
	scen_ppid(s, 3003, 1);
	scen_switch(s, 1, MS(0.5), 3001, TIPME_TS_IDLE, 120, 3002, 120);
	scen_blocked(s, 1, MS(0.5), 3001, worker_site);
	scen_switch(s, 1, MS(0.6), 3002, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(0.6), 3002, tty_site);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 3003, 120);
	scen_switch(s, 0, MS(3), 3003, TIPME_TS_SLEEPING, 120, 3000, 120);
	scen_blocked(s, 0, MS(3), 3003, sleep_site);
	/* the key */
	scen_wake(s, 0, MS(10), 3001, 1, 3000, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(10.1), 3000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10.1), 3000, poll_site);
	scen_switch(s, 1, MS(10.2), 0, TIPME_TS_RUNNABLE, 120, 3001, 120);
	scen_wake(s, 1, MS(10.3), 3002, 1, 3001, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(10.4), 3001, TIPME_TS_IDLE, 120, 3002, 120);
	scen_blocked(s, 1, MS(10.4), 3001, worker_site);
	/* other work for the same worker */
	scen_wake(s, 0, MS(100), 3003, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(100.05), 0, TIPME_TS_RUNNABLE, 120, 3003, 120);
	scen_wake(s, 0, MS(100.1), 3001, 0, 3003, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(100.2), 3003, TIPME_TS_SLEEPING, 120, 3001, 120);
	scen_blocked(s, 0, MS(100.2), 3003, sleep_site);
	scen_switch(s, 0, MS(100.4), 3001, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 0, MS(100.4), 3001, worker_site);
	/* the echo */
	scen_wake(s, 1, MS(310.5), 3001, 1, 3002, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(310.6), 3002, TIPME_TS_SLEEPING, 120, 3001, 120);
	scen_blocked(s, 1, MS(310.6), 3002, tty_site);
	scen_wake(s, 1, MS(310.8), 3000, 0, 3001, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(310.9), 3001, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, MS(310.9), 3001, worker_site);
	scen_switch(s, 0, MS(311), 0, TIPME_TS_RUNNABLE, 120, 3000, 120);
	scen_switch(s, 0, MS(312), 3000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(312), 3000, poll_site);
	return save(s, "pty");
}

/*
 * A client (3100, cpu 0) asks a broker (3101, polling its sockets) over a
 * unix socket at 10 ms; the broker asks a service (3102, cpu 1), which
 * computes 300 ms and answers; the broker relays the answer at 310.6 ms.
 * At 100 ms another client (3103), after a 97 ms sleep, pings the broker,
 * which answers at once.  None descends from another.  The trigger at 400 ms.
 */
static int relay_scenario(struct scen *s)
{
	scen_init(s, 2);
	scen_task(s, 3100, 3100, "client", "/usr/bin/client", "client", 7);
	scen_task(s, 3101, 3101, "broker", "/usr/bin/broker", "broker", 7);
	scen_task(s, 3102, 3102, "service", "/usr/bin/service", "service", 8);
	scen_task(s, 3103, 3103, "pinger", "/usr/bin/pinger", "pinger", 7);
	scen_ppid(s, 3100, 1);
	scen_ppid(s, 3101, 1);
	scen_ppid(s, 3102, 1);
	scen_ppid(s, 3103, 1);
	scen_switch(s, 1, MS(0.5), 3101, TIPME_TS_SLEEPING, 120, 3102, 120);
	scen_blocked(s, 1, MS(0.5), 3101, poll_site);
	scen_switch(s, 1, MS(0.6), 3102, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(0.6), 3102, unix_site);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 3103, 120);
	scen_switch(s, 0, MS(3), 3103, TIPME_TS_SLEEPING, 120, 3100, 120);
	scen_blocked(s, 0, MS(3), 3103, sleep_site);
	/* the request */
	scen_wake(s, 0, MS(10), 3101, 1, 3100, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(10.1), 3100, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10.1), 3100, unix_site);
	scen_switch(s, 1, MS(10.2), 0, TIPME_TS_RUNNABLE, 120, 3101, 120);
	scen_wake(s, 1, MS(10.3), 3102, 1, 3101, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(10.4), 3101, TIPME_TS_SLEEPING, 120, 3102, 120);
	scen_blocked(s, 1, MS(10.4), 3101, poll_site);
	/* another client's ping, answered at once */
	scen_wake(s, 0, MS(100), 3103, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(100.05), 0, TIPME_TS_RUNNABLE, 120, 3103, 120);
	scen_wake(s, 0, MS(100.1), 3101, 0, 3103, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(100.15), 3103, TIPME_TS_SLEEPING, 120, 3101, 120);
	scen_blocked(s, 0, MS(100.15), 3103, unix_site);
	scen_wake(s, 0, MS(100.25), 3103, 0, 3101, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(100.3), 3101, TIPME_TS_SLEEPING, 120, 3103, 120);
	scen_blocked(s, 0, MS(100.3), 3101, poll_site);
	scen_switch(s, 0, MS(100.4), 3103, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(100.4), 3103, sleep_site);
	/* the answer, relayed */
	scen_wake(s, 1, MS(310.4), 3101, 1, 3102, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(310.5), 3102, TIPME_TS_SLEEPING, 120, 3101, 120);
	scen_blocked(s, 1, MS(310.5), 3102, unix_site);
	scen_wake(s, 1, MS(310.6), 3100, 0, 3101, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(310.7), 3101, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(310.7), 3101, poll_site);
	scen_switch(s, 0, MS(310.8), 0, TIPME_TS_RUNNABLE, 120, 3100, 120);
	scen_switch(s, 0, MS(312), 3100, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(312), 3100, poll_site);
	scen_trigger(s, MS(400));
	return save(s, "relay");
}

/*
 * A UI thread (3200, cpu 0) hands a job to its pool's worker (3201, cpu 1),
 * idle since 0.5 ms, at 2 s, and waits for it; the worker computes 300 ms
 * and wakes it at 2300.2 ms.  @efd: through eventfds, else condition
 * variables (futexes).  The trigger at 2.5 s.
 */
static int pool_scenario(struct scen *s, int efd)
{
	const char *const *wait = efd ? efd_site : futex_site;

	scen_init(s, 2);
	scen_task(s, 3200, 3200, "app", "/usr/bin/app", "app", 4);
	scen_task(s, 3201, 3200, "app-pool", "/usr/bin/app", "app", 4);
	scen_ppid(s, 3200, 1);
	scen_switch(s, 1, MS(0.5), 3201, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(0.5), 3201, wait);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 3200, 120);
	scen_switch(s, 0, MS(2), 3200, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2), 3200, poll_site);
	scen_wake(s, 0, MS(1999), 3200, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(1999.1), 0, TIPME_TS_RUNNABLE, 120, 3200, 120);
	/* the job */
	scen_wake(s, 0, MS(2000), 3201, 1, 3200, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(2000.1), 3200, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2000.1), 3200, wait);
	scen_switch(s, 1, MS(2000.2), 0, TIPME_TS_RUNNABLE, 120, 3201, 120);
	/* done */
	scen_wake(s, 1, MS(2300.2), 3200, 0, 3201, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(2300.3), 3201, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(2300.3), 3201, wait);
	scen_switch(s, 0, MS(2300.4), 0, TIPME_TS_RUNNABLE, 120, 3200, 120);
	scen_switch(s, 0, MS(2302), 3200, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2302), 3200, poll_site);
	scen_trigger(s, MS(2500));
	return save(s, efd ? "eventfd" : "pool");
}

/*
 * A key press at 5 ms reaches xterm (3400) through the X server (3401);
 * xterm writes it to the pty (the flush worker 3402 hands it to the
 * program 3403) and polls at 6.1 ms; the key's release wakes it at
 * 11 ms, and it polls again; the program computes 300 ms and echoes; the
 * flush worker wakes xterm at 306.7 ms, which draws the echo (ImageText8
 * at 307 ms) and polls again at 308 ms; the server is done at 309 ms.  An
 * incident directory with the X dump.  @busy: with the work records, and
 * the flush worker is busy from 2 ms to 8 ms with a daemon's (3404) item
 * when xterm's write queues flush_to_ldisc at 6 ms: nobody is woken then,
 * the worker runs the item when it is done and wakes the program at
 * 8.1 ms; the echo's item wakes the worker, idle again.  @fenced:
 * tipme-xhook's fences keep the server busy after the echo: it waits for
 * clients again only at 900 ms, and the X dump has the dispatch of the
 * first fence after the drawing, at 308 ms: the drawing was done then.
 */
static int xterm_scenario(struct scen *s, int busy, int fenced)
{
	struct tipme_x11_client cl[] = {
		{ .id = 0, .pid = 3401, .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = 3400, .xid_base = 0x400000, .comm = "xterm" },
	};
	struct tipme_x11_rec rec[6];
	struct tm_xdump_content c = { .recs = rec, .cl = cl, .ncl = 2 };
	char inc[120], path[200];
	struct tm_err e = { "" };
	uint8_t *buf;
	size_t len;
	int ret;

	scen_init(s, 2);
	scen_task(s, 3400, 3400, "xterm", "/usr/bin/xterm", "xterm", 6);
	scen_task(s, 3401, 3401, "Xorg", "/usr/lib/xorg/Xorg", "Xorg", 5);
	scen_task(s, 3402, 3402, "kworker/u4:2", "", "", 0);
	scen_task(s, 3403, 3403, "prog", "/usr/bin/prog", "prog", 5);
	scen_ppid(s, 3403, 3400);
	if (busy) {
		scen_task(s, 3404, 3404, "daemon", "/usr/sbin/daemon", "daemon", 7);
		scen_ppid(s, 3404, 1);
	}
	scen_switch(s, 1, MS(0.5), 3402, TIPME_TS_IDLE, 120, 3403, 120);
	scen_blocked(s, 1, MS(0.5), 3402, worker_site);
	scen_switch(s, 1, MS(0.6), 3403, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(0.6), 3403, tty_site);
	if (busy) {	/* the daemon's item keeps the worker busy until 8 ms */
		scen_switch(s, 1, MS(1.9), 0, TIPME_TS_RUNNABLE, 120, 3404, 120);
		scen_work(s, 1, TIPME_REC_WORK_QUEUE, MS(2), 0x5a5a, "vmstat_update", 3404,
			  TIPME_CTX_TASK);
		scen_wake(s, 1, MS(2.05), 3402, 1, 3404, TIPME_CTX_TASK);
		scen_switch(s, 1, MS(2.1), 3404, TIPME_TS_SLEEPING, 120, 3402, 120);
		scen_blocked(s, 1, MS(2.1), 3404, sleep_site);
		scen_work(s, 1, TIPME_REC_WORK_START, MS(2.2), 0x5a5a, "vmstat_update", 3402,
			  TIPME_CTX_TASK);
	}
	scen_switch(s, 0, MS(1), 3400, TIPME_TS_SLEEPING, 120, 3401, 120);
	scen_blocked(s, 0, MS(1), 3400, poll_site);
	scen_switch(s, 0, MS(1.5), 3401, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(1.5), 3401, poll_site);
	/* the key: the server, then xterm, which writes it to the pty */
	scen_wake(s, 0, MS(5), 3401, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(5.05), 0, TIPME_TS_RUNNABLE, 120, 3401, 120);
	scen_wake(s, 0, MS(5.2), 3400, 0, 3401, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(5.3), 3401, TIPME_TS_SLEEPING, 120, 3400, 120);
	scen_blocked(s, 0, MS(5.3), 3401, poll_site);
	if (busy) {	/* queued behind the daemon's item: nobody woken */
		scen_work(s, 0, TIPME_REC_WORK_QUEUE, MS(6), 0x7777, "flush_to_ldisc", 3400,
			  TIPME_CTX_TASK);
		scen_switch(s, 0, MS(6.1), 3400, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(6.1), 3400, poll_site);
		scen_work(s, 1, TIPME_REC_WORK_END, MS(8), 0x5a5a, NULL, 0, 0);
		scen_work(s, 1, TIPME_REC_WORK_START, MS(8.05), 0x7777, "flush_to_ldisc", 3402,
			  TIPME_CTX_TASK);
		scen_wake(s, 1, MS(8.1), 3403, 1, 3402, TIPME_CTX_TASK);
		scen_work(s, 1, TIPME_REC_WORK_END, MS(8.15), 0x7777, NULL, 0, 0);
		scen_switch(s, 1, MS(8.2), 3402, TIPME_TS_IDLE, 120, 3403, 120);
		scen_blocked(s, 1, MS(8.2), 3402, worker_site);
	} else {
		scen_wake(s, 0, MS(6), 3402, 1, 3400, TIPME_CTX_TASK);
		scen_switch(s, 0, MS(6.1), 3400, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(6.1), 3400, poll_site);
		scen_switch(s, 1, MS(6.2), 0, TIPME_TS_RUNNABLE, 120, 3402, 120);
		scen_wake(s, 1, MS(6.3), 3403, 1, 3402, TIPME_CTX_TASK);
		scen_switch(s, 1, MS(6.4), 3402, TIPME_TS_IDLE, 120, 3403, 120);
		scen_blocked(s, 1, MS(6.4), 3402, worker_site);
	}
	/* the key's release: xterm handles it and polls again */
	scen_wake(s, 0, MS(10.9), 3401, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(10.95), 0, TIPME_TS_RUNNABLE, 120, 3401, 120);
	scen_wake(s, 0, MS(11.05), 3400, 0, 3401, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(11.1), 3401, TIPME_TS_SLEEPING, 120, 3400, 120);
	scen_blocked(s, 0, MS(11.1), 3401, poll_site);
	scen_switch(s, 0, MS(11.3), 3400, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(11.3), 3400, poll_site);
	/* the echo */
	if (busy)
		scen_work(s, 1, TIPME_REC_WORK_QUEUE, MS(306.35), 0x7777, "flush_to_ldisc", 3403,
			  TIPME_CTX_TASK);
	scen_wake(s, 1, MS(306.4), 3402, 1, 3403, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(306.5), 3403, TIPME_TS_SLEEPING, 120, 3402, 120);
	scen_blocked(s, 1, MS(306.5), 3403, tty_site);
	if (busy)
		scen_work(s, 1, TIPME_REC_WORK_START, MS(306.6), 0x7777, "flush_to_ldisc", 3402,
			  TIPME_CTX_TASK);
	scen_wake(s, 1, MS(306.7), 3400, 0, 3402, TIPME_CTX_TASK);
	if (busy)
		scen_work(s, 1, TIPME_REC_WORK_END, MS(306.75), 0x7777, NULL, 0, 0);
	scen_switch(s, 1, MS(306.8), 3402, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, MS(306.8), 3402, worker_site);
	scen_switch(s, 0, MS(306.9), 0, TIPME_TS_RUNNABLE, 120, 3400, 120);
	/* drawn */
	scen_wake(s, 0, MS(307), 3401, 1, 3400, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(307.1), 0, TIPME_TS_RUNNABLE, 120, 3401, 120);
	scen_switch(s, 0, MS(308), 3400, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(308), 3400, poll_site);
	scen_switch(s, 1, MS(fenced ? 900 : 309), 3401, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(fenced ? 900 : 309), 3401, poll_site);

	memset(rec, 0, sizeof(rec));
	rec[0] = (struct tipme_x11_rec){ .time_ns = MS(5), .kind = TIPME_X11_DEVICE,
		.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32 };
	rec[1] = (struct tipme_x11_rec){ .time_ns = MS(5), .client = 1, .kind = TIPME_X11_EVENT,
		.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32, .xid = 0x400001 };
	rec[2] = (struct tipme_x11_rec){ .time_ns = MS(11), .kind = TIPME_X11_DEVICE,
		.major = 3, .flags = TIPME_X11_REC_REDACTED, .length = 32 };
	rec[3] = (struct tipme_x11_rec){ .time_ns = MS(11), .client = 1, .kind = TIPME_X11_EVENT,
		.major = 3, .flags = TIPME_X11_REC_REDACTED, .length = 32, .xid = 0x400001 };
	rec[4] = (struct tipme_x11_rec){ .time_ns = MS(307), .client = 1,
		.kind = TIPME_X11_REQUEST, .major = 76, .seq = 9, .length = 20,
		.xid = 0x400001, .op_size = 1 };
	rec[5] = (struct tipme_x11_rec){ .time_ns = MS(308), .client = TIPME_X11_CLIENT_NONE,
		.kind = TIPME_X11_DISPATCH, .major = 127, .seq = 77 };
	c.nrecs = fenced ? 6 : 5;
	snprintf(inc, sizeof(inc), "%s/%s", dir,
		 fenced ? "xterm-fenced" : busy ? "xterm-busy" : "xterm");
	mkdir(inc, 0700);
	snprintf(path, sizeof(path), "%s/kernel.dump", inc);
	ret = scen_write(s, path);
	snprintf(path, sizeof(path), "%s/xhook.dump", inc);
	if (ret || tm_xdump_build(&c, &buf, &len))
		return 1;
	ret = tm_write_file_new(path, buf, len, &e);
	free(buf);
	return ret;
}

int main(void)
{
	static const char *const pty_must[] = {
		"\"pid\":3000,\"comm\":\"xterm\",\"from_mono_ns\":10100000,\"to_mono_ns\":310800000,",
		"\"woken_by\":3001,",
		"\"woken_by\":3002,",
		NULL,
	};
	static const char *const relay_must[] = {
		"\"pid\":3100,\"comm\":\"client\",\"from_mono_ns\":10100000,\"to_mono_ns\":310600000,",
		"\"pid\":3101,\"comm\":\"broker\",\"from_mono_ns\":100300000,\"to_mono_ns\":310400000,",
		"\"woken_by\":3102,",
		NULL,
	};
	static const char *const relay_auto[] = {
		"\"interval\":{\"pid\":3100,\"comm\":\"client\",\"from_mono_ns\":10100000,"
		"\"to_mono_ns\":310600000,\"chosen_by\":\"ranked_stall\"",
		NULL,
	};
	static const char *const pool_auto[] = {
		"\"interval\":{\"pid\":3200,\"comm\":\"app\",\"from_mono_ns\":2000100000,"
		"\"to_mono_ns\":2300200000,\"chosen_by\":\"ranked_stall\"",
		"\"woken_by\":3201,",
		NULL,
	};
	static const char *const xterm_must[] = {
		"\"interval\":{\"pid\":3400,\"comm\":\"xterm\",\"from_mono_ns\":5000000,"
		"\"to_mono_ns\":309000000,\"chosen_by\":\"input\",\"client_done_mono_ns\":308000000,"
		"\"end\":\"x_drawn\"}",
		"\"woken_by\":3402,",
		"\"woken_by\":3403,",
		NULL,
	};
	struct scen *s = malloc(sizeof(*s));

	scen_compact = getenv("TIPME_SCEN_COMPACT") != NULL;
	tap_plan(31);
	snprintf(dir, sizeof(dir), "/tmp/tipme-handoff-XXXXXX");
	if (!s || !mkdtemp(dir))
		return 1;
	if (pty_scenario(s) || relay_scenario(s) || pool_scenario(s, 0) ||
	    pool_scenario(s, 1) || xterm_scenario(s, 0, 0) || xterm_scenario(s, 1, 0) ||
	    xterm_scenario(s, 0, 1))
		return 1;
	check("pty", "pty", "--pid 3000 --from 0.010 --to 0.311", "running", 3002, 95,
	      pty_must, "a key echoed through a pty: the program's 300 ms, through the flush worker");
	check("relay", "relay", "--pid 3100 --from 0.010 --to 0.3108", "running", 3102, 95,
	      relay_must, "a client, a broker, a service: the service's 300 ms, through the broker");
	check("relay", "relay-auto", "", "running", 3102, 95, relay_auto,
	      "no pid: the client's wait is chosen, charged to the service");
	check("pool", "pool", "--pid 3200 --from 2.000 --to 2.3004", "running", 3201, 95,
	      pool_auto + 1, "a job handed to a worker on a condition variable: its work, no lock");
	check("pool", "pool-auto", "", "running", 3201, 95, pool_auto,
	      "no pid: the UI thread's wait, not the worker's 2 s wait for a job");
	check("eventfd", "eventfd", "--pid 3200 --from 2.000 --to 2.3004", "running", 3201, 95,
	      pool_auto + 1, "a job handed to a worker through an eventfd: its work");
	check("eventfd", "eventfd-auto", "", "running", 3201, 95, pool_auto,
	      "no pid: the UI thread's wait, not the worker's wait for a job");
	check("xterm", "xterm", "", "running", 3403, 95, xterm_must,
	      "a key typed into xterm: until the echo is drawn, the program's 300 ms");
	check("xterm-busy", "xterm-busy", "", "running", 3403, 95, xterm_must,
	      "xterm's write queued on a busy flush worker: still until the echo is drawn");
	check("xterm-fenced", "xterm-fenced", "", "running", 3403, 95, xterm_must,
	      "the server busy with tipme-xhook's fences after the echo: drawn at their dispatch");
	latency("xterm-busy", "\"done_mono_ns\": 308000000,", "\"end_mono_ns\": 309000000,",
		"tipme latency: xterm done at its poll after drawing the echo, on the screen at 309 ms");
	free(s);
	/* TIPME_KEEP_TMP=1 keeps the scenarios' incidents (fuzz seeds) */
	if (!getenv("TIPME_KEEP_TMP"))
		gen_rmtree(dir);
	return tap_done();
}
