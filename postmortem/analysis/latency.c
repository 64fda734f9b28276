// SPDX-License-Identifier: GPL-2.0
/*
 * tipme latency: how long each key or button press of an incident took to
 * handle, and where that time went.  TIPME's measure: from the input event
 * (the X server's device event) until the client that received it goes
 * back to waiting for input.
 *
 * The X dump says which client got the press and when, and whether the
 * server sent that client replies; the kernel dump says what the client's
 * thread did meanwhile.  The client is waiting for input again when its
 * thread blocks in poll/select/epoll and no reply reaches it during that
 * sleep, on any of the process's connections (a sleep ended by a reply is
 * a round trip inside the handling, e.g. xcb_wait_for_reply()).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../xhook/xdump_read.h"
#include "../cmd/commands.h"
#include "../report/site.h"
#include "../dump/instr.h"
#include "json.h"
#include "../state/state.h"

#define X_KEY_PRESS	2
#define X_BUTTON_PRESS	4
/* An event the server queues later than this after the press is not its. */
#define DELIVERY_LIMIT_NS	1000000000LL
/* X stamps its records in whole milliseconds. */
#define X_SLOP_NS	1000000LL

enum lat_result {
	LAT_HANDLED,		/* the client waited for input again */
	LAT_UNFINISHED,		/* still handling when the dump ends */
	LAT_NOT_DELIVERED,	/* no client got the event */
	LAT_PID_UNKNOWN,	/* the client's PID could not be learnt */
	LAT_NO_THREAD,		/* the kernel dump has nothing of that PID */
};

static const char *const result_name[] = {
	[LAT_HANDLED] = "handled",
	[LAT_UNFINISHED] = "unfinished",
	[LAT_NOT_DELIVERED] = "not_delivered",
	[LAT_PID_UNKNOWN] = "pid_unknown",
	[LAT_NO_THREAD] = "no_kernel_records",
};

/**
 * struct lat_event - one press and what became of it
 * @press_ns: the device event (CLOCK_MONOTONIC)
 * @code: X_KEY_PRESS or X_BUTTON_PRESS
 * @result: enum lat_result
 * @pid: the receiving client's PID (0 if none or unknown)
 * @comm: its command name
 * @delivered_ns: when the server queued the event to it
 * @end_ns: when it waited for input again (or the dump's end)
 * @time: running, runnable, blocked and unknown ns inside the handling
 * @longest: the longest blocked stretch inside the handling, or NULL
 * @longest_ns: its part inside the handling
 */
struct lat_event {
	int64_t press_ns;
	int code;
	int result;
	uint32_t pid;
	char comm[16];
	int64_t delivered_ns;
	int64_t end_ns;
	int64_t time[4];
	const struct pm_seg *longest;
	int64_t longest_ns;
};

struct lat_ctx {
	const struct pm_dump *pm;
	const struct pm_state *st;
	const struct xdump *x;
	int64_t dump_end_ns;
};

static int64_t mono(const struct lat_ctx *c, uint64_t ts)
{
	return pm_clock_mono(&c->pm->clock, ts);
}

/* Blocked waiting for file descriptors: where a client waits for input. */
static int waits_for_input(const struct lat_ctx *c, const struct pm_seg *s)
{
	uint32_t i;

	if (s->state != PM_T_BLOCKED)
		return 0;
	for (i = 0; i < s->nsite; i++) {
		const char *n = pm_sym_name(c->pm, s->site[i], NULL);

		if (n && (strstr(n, "poll") || strstr(n, "select")))
			return 1;
	}
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The times of the replies the server sent to process @pid, on any of its
 * connections (a toolkit may keep more than one), sorted; NULL if none.
 */
static int64_t *process_replies(const struct lat_ctx *c, uint32_t pid,
				size_t *n)
{
	struct tipme_x11_client cl;
	struct tipme_x11_rec r;
	int64_t *t = NULL;
	uint32_t i;

	*n = 0;
	for (i = 0; i < c->x->recs.count; i++) {
		xdump_rec(c->x, i, &r);
		if (r.kind != TIPME_X11_REPLY ||
		    xdump_client_by_id(c->x, r.client, &cl) || cl.pid != pid)
			continue;
		if (!t) {
			t = malloc(sizeof(*t) * c->x->recs.count);
			if (!t)
				return NULL;
		}
		t[(*n)++] = (int64_t)r.time_ns;
	}
	if (t)
		qsort(t, *n, sizeof(*t), cmp_i64);
	return t;
}

/* Is one of the sorted @t[@n] inside [@from, @to] (give or take X's ms)? */
static int reply_between(const int64_t *t, size_t n, int64_t from, int64_t to)
{
	size_t lo = 0, hi = n;

	from -= X_SLOP_NS;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t[mid] < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && t[lo] <= to + X_SLOP_NS;
}

/* Where the handling of @ev ended, and where its time went. */
static void follow(const struct lat_ctx *c, struct lat_event *ev)
{
	const struct pm_thread *t = pm_state_thread(c->st, ev->pid);
	size_t j, nrep;
	int64_t *rep;

	if (!t || !t->nsegs) {
		ev->result = LAT_NO_THREAD;
		return;
	}
	/* Out of memory only costs the round-trip distinction. */
	rep = process_replies(c, ev->pid, &nrep);
	ev->result = LAT_UNFINISHED;
	ev->end_ns = c->dump_end_ns;
	for (j = 0; j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];
		int64_t s0 = mono(c, s->start), s1 = mono(c, s->end);

		/* X's millisecond stamp may be up to 1 ms before the truth */
		if (s0 <= ev->delivered_ns + X_SLOP_NS)
			continue;
		if (waits_for_input(c, s) && !reply_between(rep, nrep, s0, s1)) {
			ev->result = LAT_HANDLED;
			ev->end_ns = s0;
			break;
		}
	}
	free(rep);
	for (j = 0; j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];
		int64_t part = pm_seg_overlap(c->pm, s, ev->press_ns,
					      ev->end_ns);

		if (!part)
			continue;
		switch (s->state) {
		case PM_T_RUNNING:
			ev->time[0] += part;
			break;
		case PM_T_RUNNABLE:
			ev->time[1] += part;
			break;
		case PM_T_BLOCKED:
			ev->time[2] += part;
			if (part > ev->longest_ns) {
				ev->longest_ns = part;
				ev->longest = s;
			}
			break;
		default:
			ev->time[3] += part;
		}
	}
}

/* Every key and button press of the X dump, in time order. */
static size_t collect(const struct lat_ctx *c, struct lat_event *evs)
{
	struct tipme_x11_rec r, q;
	struct tipme_x11_client cl;
	uint32_t i, j;
	size_t n = 0;

	for (i = 0; i < c->x->recs.count; i++) {
		struct lat_event *ev = &evs[n];

		xdump_rec(c->x, i, &r);
		if (r.kind != TIPME_X11_DEVICE ||
		    (r.major != X_KEY_PRESS && r.major != X_BUTTON_PRESS))
			continue;
		memset(ev, 0, sizeof(*ev));
		ev->press_ns = (int64_t)r.time_ns;
		ev->code = r.major;
		ev->result = LAT_NOT_DELIVERED;
		n++;
		for (j = i + 1; j < c->x->recs.count; j++) {
			xdump_rec(c->x, j, &q);
			if ((int64_t)q.time_ns > ev->press_ns + DELIVERY_LIMIT_NS) {
				j = c->x->recs.count;
				break;
			}
			if (q.kind == TIPME_X11_EVENT && q.major == r.major &&
			    q.client != TIPME_X11_CLIENT_SERVER &&
			    !(q.flags & TIPME_X11_REC_SEND_EVENT))
				break;
		}
		if (j >= c->x->recs.count)
			continue;	/* no client got it */
		ev->delivered_ns = (int64_t)q.time_ns;
		if (xdump_client_by_id(c->x, q.client, &cl) || !cl.pid ||
		    (cl.flags & TIPME_X11_CL_PID_UNKNOWN)) {
			ev->result = LAT_PID_UNKNOWN;
			continue;
		}
		ev->pid = cl.pid;
		memcpy(ev->comm, cl.comm, sizeof(ev->comm));
		ev->comm[sizeof(ev->comm) - 1] = '\0';
		follow(c, ev);
	}
	return n;
}

static const char *press_name(int code)
{
	return code == X_KEY_PRESS ? "key press" : "button press";
}

static void print_text(const struct lat_ctx *c, const char *path,
		       const struct lat_event *evs, size_t n, int64_t min_ns,
		       const struct lat_event *slow)
{
	size_t i, shown = 0;

	printf("%-14s  %-12s  %-24s  %10s  %s\n", "PRESS (s)", "EVENT",
	       "CLIENT", "LATENCY", "WHERE THE TIME WENT");
	for (i = 0; i < n; i++) {
		const struct lat_event *ev = &evs[i];
		int64_t lat = ev->end_ns - ev->press_ns;
		char who[40];

		if (ev->result <= LAT_UNFINISHED && lat < min_ns)
			continue;
		shown++;
		snprintf(who, sizeof(who), "%" PRIu32 " %s", ev->pid,
			 ev->comm[0] ? ev->comm : "?");
		printf("%14.6f  %-12s  %-24s  ", ev->press_ns / 1e9,
		       press_name(ev->code), ev->pid ? who : "-");
		switch (ev->result) {
		case LAT_NOT_DELIVERED:
			printf("%10s  no client received it\n", "-");
			continue;
		case LAT_PID_UNKNOWN:
			printf("%10s  the client's PID is unknown\n", "-");
			continue;
		case LAT_NO_THREAD:
			printf("%10s  no kernel records of PID %" PRIu32 "\n",
			       "-", ev->pid);
			continue;
		}
		printf("%s%7.1f ms  ran %.1f, runnable %.1f, blocked %.1f ms",
		       ev->result == LAT_UNFINISHED ? ">" : " ", lat / 1e6,
		       ev->time[0] / 1e6, ev->time[1] / 1e6, ev->time[2] / 1e6);
		if (ev->longest) {
			printf(" (longest %.1f ms", ev->longest_ns / 1e6);
			pm_print_seg_site(stdout, c->pm, ev->longest);
			putchar(')');
		}
		if (ev->result == LAT_UNFINISHED)
			printf(", still handling at the dump's end");
		putchar('\n');
	}
	if (!shown)
		printf("(no press%s)\n", min_ns ? " above --min-ms" : "");
	if (slow)
		printf("\nslowest: %.1f ms for PID %" PRIu32 "; its waits in detail:\n"
		       "  tipme why --pid %" PRIu32 " --from %.6f --to %.6f %s\n",
		       (slow->end_ns - slow->press_ns) / 1e6, slow->pid, slow->pid,
		       slow->press_ns / 1e9, slow->end_ns / 1e9, path);
}

static void print_json(const struct lat_ctx *c, const struct lat_event *evs,
		       size_t n, int64_t min_ns, const struct lat_event *slow)
{
	struct jw w;
	size_t i;

	jw_init(&w, stdout, JW_PRETTY);
	jw_obj_begin(&w);
	jw_key(&w, "events");
	jw_arr_begin(&w);
	for (i = 0; i < n; i++) {
		const struct lat_event *ev = &evs[i];

		if (ev->result <= LAT_UNFINISHED &&
		    ev->end_ns - ev->press_ns < min_ns)
			continue;
		jw_obj_begin(&w);
		jw_ki64(&w, "press_mono_ns", ev->press_ns);
		jw_kstr(&w, "event", ev->code == X_KEY_PRESS ? "key_press" : "button_press");
		jw_kstr(&w, "result", result_name[ev->result]);
		jw_ku64(&w, "pid", ev->pid);
		jw_kstr(&w, "comm", ev->comm);
		if (ev->result <= LAT_UNFINISHED || ev->result == LAT_NO_THREAD ||
		    ev->result == LAT_PID_UNKNOWN)
			jw_ki64(&w, "delivered_mono_ns", ev->delivered_ns);
		if (ev->result <= LAT_UNFINISHED) {
			jw_ki64(&w, "end_mono_ns", ev->end_ns);
			jw_ki64(&w, "latency_ns", ev->end_ns - ev->press_ns);
			jw_ki64(&w, "running_ns", ev->time[0]);
			jw_ki64(&w, "runnable_ns", ev->time[1]);
			jw_ki64(&w, "blocked_ns", ev->time[2]);
			jw_ki64(&w, "unknown_ns", ev->time[3]);
			if (ev->longest) {
				jw_key(&w, "longest_block");
				jw_obj_begin(&w);
				jw_ki64(&w, "ns", ev->longest_ns);
				jw_kstr(&w, "state", pm_state_name(ev->longest->block_state, 0));
				pm_json_seg_site(&w, c->pm, ev->longest);
				if (ev->longest->waker >= 0)
					jw_ki64(&w, "woken_by", ev->longest->waker);
				jw_obj_end(&w);
			}
		}
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	if (slow)
		jw_ki64(&w, "slowest_press_mono_ns", slow->press_ns);
	jw_obj_end(&w);
	jw_finish(&w);
}

static const char usage_text[] =
	"usage: tipme latency [--min-ms MS] [--json] INCIDENT\n"
	"  How long each key and button press of an incident took to handle:\n"
	"  from the X server's device event until the client that received it\n"
	"  waited for input again (its thread blocked in poll/select/epoll with\n"
	"  no reply on the way), and how that time split into running, waiting\n"
	"  for a CPU and blocked (the longest block named).  Needs both dumps of\n"
	"  the incident: xhook.dump (tipme-xhook) and kernel.dump.  Times are\n"
	"  CLOCK_MONOTONIC seconds.\n"
	"  -m, --min-ms MS   only presses that took at least MS ms\n"
	"  -j, --json        one JSON object\n"
	"EXAMPLES\n"
	"  tipme latency /var/lib/tipme/incidents/20240501T123456Z-7\n"
	"  tipme latency --min-ms 100 --json INCIDENT\n";

int pm_cmd_latency(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "min-ms", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct lat_event *slow = NULL;
	struct lat_event *evs = NULL;
	struct lat_ctx c = { 0 };
	struct pm_state st = { 0 };
	struct pm_dump pm;
	struct xdump x;
	struct tm_err e;
	uint8_t *xbuf = NULL;
	double min_ms = 0;
	int opt, json = 0, ret = 1;
	char *end;
	size_t n, i;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "m:jh", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			min_ms = strtod(optarg, &end);
			if (*end || end == optarg || min_ms < 0) {
				fprintf(stderr, "tipme latency: --min-ms wants a number of ms >= 0, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (xdump_load(argv[optind], &x, &xbuf, stderr))
		return 1;
	if (pm_open(&pm, argv[optind], 0, &e)) {
		fprintf(stderr, "tipme latency: %s\n", e.msg);
		goto out_x;
	}
	if (pm_state_build(&st, &pm, &e)) {
		fprintf(stderr, "tipme latency: %s\n", e.msg);
		goto out;
	}
	c.pm = &pm;
	c.st = &st;
	c.x = &x;
	c.dump_end_ns = mono(&c, st.last_ts);
	evs = calloc(x.recs.count ? x.recs.count : 1, sizeof(*evs));
	if (!evs) {
		fprintf(stderr, "tipme latency: out of memory\n");
		goto out;
	}
	n = collect(&c, evs);
	for (i = 0; i < n; i++)
		if (evs[i].result <= LAT_UNFINISHED &&
		    (!slow || evs[i].end_ns - evs[i].press_ns >
			      slow->end_ns - slow->press_ns))
			slow = &evs[i];
	if (json)
		print_json(&c, evs, n, (int64_t)(min_ms * 1e6), slow);
	else
		print_text(&c, argv[optind], evs, n, (int64_t)(min_ms * 1e6), slow);
	ret = ferror(stdout) ? 1 : 0;
out:
	free(evs);
	pm_state_free(&st);
	pm_close(&pm);
out_x:
	free(xbuf);
	return ret;
}
