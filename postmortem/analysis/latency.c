// SPDX-License-Identifier: GPL-2.0
/*
 * How long each key or button press and pointer motion of an incident
 * took to reach the screen, and where that time went.  TIPME's measure:
 * from the input event (the X server's device event) until the client that
 * received it went back to waiting and the X server executed the drawing
 * the client asked for meanwhile: it went back to waiting too, or it
 * dispatched the next request of any client, whichever came first.
 *
 * The X dump says which client got the press and when, and whether the
 * server sent that client replies; the kernel dump says what the client's
 * thread did meanwhile.  The client is waiting for input again when its
 * thread blocks in poll/select/epoll in a sleep that no reply ends, on any
 * of the process's connections (a sleep ended by a reply is a round trip
 * inside the handling, e.g. xcb_wait_for_reply(); so is a sleep that the
 * answer to work it handed off ends: a terminal's echo, answered(), which
 * follows wakeups and the kernel work items a task queued).  Its
 * drawing is every drawing request of the process (core drawing requests,
 * RENDER, MIT-SHM, Present, GLX, DRI3) that the server dispatched from the
 * delivery until the client next woke after it was done: a request the
 * server dispatches while the client sleeps was sent before it slept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xdumpfile.h"
#include "../dump/tables.h"
#include "kinput.h"
#include "latency.h"
#include "xprof.h"

/* An event the server queues later than this after the press is not its. */
#define DELIVERY_LIMIT_NS	1000000000LL
/*
 * X stamps its records in whole milliseconds, rounded down: a stamp may be
 * up to this much before the truth, never after it.
 */
#define X_SLOP_NS	1000000LL

struct lat_ctx {
	const struct pm_dump *pm;
	const struct pm_state *st;
	const struct pm_res *res;
	const struct tm_xdump *x;
	int64_t dump_end_ns;
	int64_t x_last_ns;	/* the X dump's latest stamp, -1 if none */
	uint32_t server;	/* the X server's PID, 0 if unknown */
};

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

/* A request that draws: core drawing requests and drawing extensions. */
static int draws(const struct tm_xdump *x, const struct tipme_x11_rec *r)
{
	static const char *const ext[] = { "RENDER:", "MIT-SHM:", "Present:", "GLX:", "DRI3:" };
	char name[64];
	size_t i;

	/* ClearArea .. ImageText16, but not GetImage */
	if (r->major >= 61 && r->major <= 77 && r->major != 73)
		return 1;
	if (r->major < 128)
		return 0;
	tm_xdump_op_name(x, r, name, sizeof(name));
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strncmp(name, ext[i], strlen(ext[i])))
			return 1;
	return 0;
}

/*
 * The client's drawing for @ev: its drawing requests dispatched in
 * [delivery, @until]; then when the X server had executed the last of
 * them: when it went back to waiting, or dispatched the next request of
 * any client, whichever came first.
 */
static void display(const struct lat_ctx *c, struct pm_lat_event *ev,
		    int64_t until)
{
	const struct pm_thread *srv = c->server ? pm_state_thread(c->st, c->server) : NULL;
	struct tipme_x11_client cl;
	struct tipme_x11_rec r;
	int64_t last = -1, next = -1;
	uint32_t i, last_i = 0;
	size_t j;

	for (i = 0; i < c->x->recs.count; i++) {
		tm_xdump_rec(c->x, i, &r);
		if (r.kind != TIPME_X11_REQUEST || r.time_ns > INT64_MAX ||
		    (int64_t)r.time_ns < ev->delivered_ns || (int64_t)r.time_ns > until ||
		    tm_xdump_client_by_id(c->x, r.client, &cl) || cl.pid != ev->pid ||
		    (cl.flags & TIPME_X11_CL_PID_UNKNOWN) || !draws(c->x, &r))
			continue;
		ev->drawing++;
		if ((int64_t)r.time_ns > last)
			last = (int64_t)r.time_ns;
		last_i = i;
	}
	if (last < 0)
		return;
	ev->draw_ns = last;
	/*
	 * The server runs one request at a time, and the X dump holds the
	 * requests in the order it dispatched them: the next one (of any
	 * client) after the last drawing began once that was done.  Its
	 * stamp is in whole ms, never after the dispatch: the drawing was
	 * done before the stamp's millisecond ended.  A server busy with
	 * other clients afterwards is not drawing for this input, nor one
	 * busy with tipme-xhook's own fences (their dispatch, recorded once
	 * after another client's request, is as good as a next request).
	 */
	for (i = last_i + 1; i < c->x->recs.count; i++) {
		tm_xdump_rec(c->x, i, &r);
		if (r.kind == TIPME_X11_REQUEST || r.kind == TIPME_X11_DISPATCH) {
			/* a crafted stamp near the end of time: none */
			if (r.time_ns <= (uint64_t)(INT64_MAX - X_SLOP_NS))
				next = (int64_t)r.time_ns + X_SLOP_NS;
			break;
		}
	}
	/*
	 * X stamps the dispatch in whole ms, never after it, and the server
	 * is busy from the stamp until the request is done: its first wait
	 * for clients that starts at the stamp or later is after it.
	 */
	for (j = 0; srv && j < srv->nsegs; j++) {
		const struct pm_seg *s = &srv->segs[j];

		if (s->start_ns >= last && waits_for_input(c, s)) {
			ev->display_ns = s->start_ns;
			break;
		}
	}
	/* (without the server's thread, a next request may come much later) */
	if (srv && next >= 0 && (!ev->display_ns || next < ev->display_ns))
		ev->display_ns = next;
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
		tm_xdump_rec(c->x, i, &r);
		if (r.kind != TIPME_X11_REPLY ||
		    tm_xdump_client_by_id(c->x, r.client, &cl) || cl.pid != pid)
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

/* What the server wrote to a client, in the order it wrote it. */
struct lat_el {
	int64_t ns;	/* its stamp */
	int reply;	/* a reply (else an event) */
};

/* The replies and events the server wrote to process @pid, in dump order. */
static struct lat_el *process_output(const struct lat_ctx *c, uint32_t pid, size_t *n)
{
	struct tipme_x11_client cl;
	struct tipme_x11_rec r;
	struct lat_el *e;
	uint32_t i;

	*n = 0;
	e = malloc(sizeof(*e) * (c->x->recs.count ? c->x->recs.count : 1));
	if (!e)
		return NULL;
	for (i = 0; i < c->x->recs.count; i++) {
		tm_xdump_rec(c->x, i, &r);
		if ((r.kind != TIPME_X11_REPLY && r.kind != TIPME_X11_EVENT) ||
		    r.time_ns > INT64_MAX ||
		    tm_xdump_client_by_id(c->x, r.client, &cl) || cl.pid != pid)
			continue;
		e[*n].ns = (int64_t)r.time_ns;
		e[(*n)++].reply = r.kind == TIPME_X11_REPLY;
	}
	return e;
}

/*
 * Is one of the sorted @t[@n] inside [@from, @to], from X's millisecond
 * before @from on (a stamp is rounded down, so one after @to was written
 * after it)?
 */
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
	return lo < n && t[lo] <= to;
}

/*
 * When the round of its loop began in which the server thread @pid woke
 * a client at @ns: the end of its latest wait for clients before @ns (it
 * reads the clock it stamps with once it is awake); @ns if the dump does
 * not say.  A sleep elsewhere (Xvfb reading a file over 9p while it
 * compiles a keymap, a page fault) is inside the round, not its start.
 */
static int64_t loop_start(const struct lat_ctx *c, uint32_t pid, int64_t ns)
{
	const struct pm_thread *t = pm_state_thread(c->st, pid);
	size_t lo = 0, hi = t ? t->nsegs : 0;

	/* the first stretch that starts after @ns */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->segs[mid].start_ns <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		const struct pm_seg *sg = &t->segs[lo];

		if (waits_for_input(c, sg))
			return sg->end_ns < ns ? sg->end_ns : ns;
	}
	return ns;
}

/* Is @pid the X server (or a thread of it)? */
static int is_server(const struct lat_ctx *c, uint32_t pid, int64_t ns)
{
	const struct pm_exec *x;

	if (!c->server)
		return 0;
	x = pm_exec_at(c->pm, pid, ns);
	return pid == c->server || (x && x->x.tgid == c->server);
}

/* Did the X server end the wait for input @g (woke it, in task context)? */
static int served(const struct lat_ctx *c, const struct pm_seg *g)
{
	return waits_for_input(c, g) && g->waker > 0 && g->waker_ctx == TIPME_CTX_TASK &&
	       is_server(c, (uint32_t)g->waker, g->end_ns);
}

/*
 * The first of @el[@n] the client had not received after the server ended
 * its wait @g (served()), from @next, the first before: a write to a
 * client sends everything written to it before, so what is stamped more
 * than X's millisecond before the wakeup was sent by then, and so was the
 * first element not yet sent, if stamped before the wakeup: the wakeup
 * sent something (what the dump does not hold, an error, is taken for
 * it).
 */
static size_t delivered(const struct lat_el *el, size_t n, size_t next, const struct pm_seg *g)
{
	while (next < n && el[next].ns <= g->end_ns - X_SLOP_NS)
		next++;
	if (next < n && el[next].ns <= g->end_ns)
		next++;
	return next;
}

/*
 * Did the X server end the client's sleep @s (served()) with output the X
 * dump does not hold: no reply or event that the client had not had, from
 * @el[@next] on, is stamped before the wakeup (delivered() took none for
 * it), while the X dump went on recording after it?  The next input comes
 * as an event, which the dump holds, so such a sleep was no wait for
 * input: the server answered the client's requests with what the dump
 * leaves out (an error, the rest of a reply too long for one write, room
 * in the socket for the rest of a request).  In t-xreport, after the reply
 * to its round trip the client waited 0.4 ms more, woken by the server with
 * nothing the dump holds, before its next round trip, and was done 9 ms
 * later.
 */
static int ended_unrecorded(const struct lat_ctx *c, const struct pm_seg *s,
			    const struct lat_el *el, size_t nel, size_t next)
{
	return served(c, s) && delivered(el, nel, next, s) == next &&
	       c->x_last_ns > s->end_ns;
}

/*
 * Was the client's sleep @s a round trip, ended by a reply?  A reply is
 * stamped inside the sleep, from X's millisecond before it began (a stamp
 * is rounded down) to the wakeup that ended it: one stamped after that was
 * written after it, the answer to a request the client sent once awake
 * (in t-latency, on its other connection, within X's millisecond of the
 * wakeup by the next input, which then ran to the end of that input's
 * handling).  With the X server's thread in the kernel dump, the server
 * must also be what woke the client (a sleep nothing ended, at the dump's
 * end, is no round trip however close a reply came before it).  Then a
 * reply stamped before the sleep began counts too if it is stamped in
 * the round of the server's loop that woke the client: the server writes
 * a reply when it runs the request but sends it when the round ends, so
 * on a busy machine a reply written early in a long round carries a stamp
 * from before the client began to wait for it (the round began where the
 * server last slept).
 * But not a reply the client had already received: with the server's
 * output to the client @el[@nel] (replies and events, in the order it
 * wrote them), only @el[@next] on, what the server had not sent when the
 * sleep began (delivered()): a server kept busy (Xwayland under TCG never
 * slept for seconds) has long rounds, and a reply written and sent in the
 * millisecond the client next waits in is stamped inside that wait too.
 * Without @el (out of memory), any reply in @rep[@nrep] counts.  Events
 * do not count: the server sends some to every client (MappingNotify when
 * a keymap changes), so a sleep that one ends is still a wait for input.
 */
static int ended_by_reply(const struct lat_ctx *c, const struct pm_seg *s,
			  const int64_t *rep, size_t nrep, const struct lat_el *el, size_t nel,
			  size_t next)
{
	int64_t s0 = s->start_ns, s1 = s->end_ns, round;
	const struct pm_exec *w;
	size_t k;

	if (!c->server || !pm_state_thread(c->st, c->server))
		return reply_between(rep, nrep, s0, s1);
	if (s->waker <= 0 || s->waker_ctx != TIPME_CTX_TASK)
		return 0;
	w = pm_exec_at(c->pm, (uint32_t)s->waker, s->end_ns);
	if ((uint32_t)s->waker != c->server && !(w && w->x.tgid == c->server))
		return 0;
	round = loop_start(c, (uint32_t)s->waker, s->end_ns);
	if (round > s0)
		round = s0;
	if (!el)
		return reply_between(rep, nrep, round, s1);
	/* not one the client had received before it began to wait */
	for (k = next; k < nel && el[k].ns <= s1; k++)
		if (el[k].reply && el[k].ns >= round - X_SLOP_NS)
			return 1;
	return 0;
}

/* How many hops back the look for an answer follows, at most. */
#define ANSWER_HOPS	8
/* ... and how many of one task's own sleeps (a timer, I/O) it passes. */
#define ANSWER_SLEEPS	16
/* The answer is looked for this long after the client first waits for input. */
#define ANSWER_WITHIN_NS	10000000000LL

/* Is @pid a thread of the process @client? */
static int of_client(const struct lat_ctx *c, uint32_t pid, uint32_t client,
		     int64_t ns)
{
	const struct pm_exec *x = pm_exec_at(c->pm, pid, ns);

	return pid == client || (x && x->x.tgid == client);
}

/*
 * The wait of @t that a task ended last before @ns (passing its sleeps an
 * interrupt ended: a timer, its own I/O), or NULL.
 */
static const struct pm_seg *task_woken_before(const struct pm_thread *t, int64_t ns)
{
	size_t lo = 0, hi = t ? t->nsegs : 0, seen = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->segs[mid].start_ns < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0 && seen < ANSWER_SLEEPS) {
		const struct pm_seg *g = &t->segs[lo];

		if (g->state != PM_T_BLOCKED || g->end_ns > ns)
			continue;
		if (g->waker > 0 && g->waker_ctx == TIPME_CTX_TASK)
			return g;
		seen++;
	}
	return NULL;
}

/*
 * Who handed @who, at @at, the work it was doing: the task that queued the
 * kernel work item @who ran then (a pty's flush_to_ldisc: a worker busy
 * with other items when it was queued was woken by nobody), else the task
 * that ended its last wait before (task_woken_before()).  Return: that
 * task with @from_ns when it handed the work over, or 0.
 */
static uint32_t handed_from(const struct lat_ctx *c, uint32_t who, int64_t at,
			    int64_t *from_ns)
{
	const struct pm_work *wk = pm_res_work_running(c->res, who, at);
	const struct pm_seg *g;

	if (wk && wk->queue_ctx == TIPME_CTX_TASK && wk->queuer &&
	    wk->queuer != who && wk->queue_ns > 0) {
		*from_ns = wk->queue_ns;
		return wk->queuer;
	}
	g = task_woken_before(pm_state_thread(c->st, who), at);
	if (!g)
		return 0;
	*from_ns = g->end_ns;
	return (uint32_t)g->waker;
}

/*
 * Was the client's sleep @s, after the delivery of @ev, ended by the
 * answer to work it handed off while handling @ev: woken by a task that
 * was handed its work (woken, or running a work item queued) by a task
 * ... and so back to the client, between the delivery and @handed_by,
 * where the client first waited for input after the delivery (a terminal
 * writes the key to a pty and waits for the echo: the tty's flush worker,
 * the program, the flush worker again; a request to a service over a
 * socket)?  Not through the X server: its replies are ended_by_reply()'s,
 * and its events are input.  Only work handed off before that first wait
 * counts: an exchange that goes on (a sound server asking for more) does
 * not stretch the press.
 */
static int answered(const struct lat_ctx *c, const struct pm_lat_event *ev,
		    const struct pm_seg *s, int64_t handed_by)
{
	int64_t at = s->end_ns, from_ns = 0;
	uint32_t who, from;
	int hop;

	if (s->waker <= 0 || s->waker_ctx != TIPME_CTX_TASK)
		return 0;
	who = (uint32_t)s->waker;
	for (hop = 0; hop < ANSWER_HOPS; hop++) {
		if (of_client(c, who, ev->pid, at) || is_server(c, who, at))
			return 0;
		from = handed_from(c, who, at, &from_ns);
		if (!from)
			return 0;
		if (of_client(c, from, ev->pid, from_ns))
			return from_ns >= ev->delivered_ns - X_SLOP_NS &&
			       from_ns <= handed_by;
		who = from;
		at = from_ns;
	}
	return 0;
}

/* Where the handling of @ev ended, and where its time went. */
static void follow(const struct lat_ctx *c, struct pm_lat_event *ev)
{
	const struct pm_thread *t = pm_state_thread(c->st, ev->pid);
	size_t j, nrep, nel, next = 0;
	int64_t *rep, woke, first = -1, done;
	struct lat_el *el;

	if (!t || !t->nsegs) {
		ev->result = PM_LAT_NO_THREAD;
		return;
	}
	/* Out of memory only costs the round-trip distinction. */
	rep = process_replies(c, ev->pid, &nrep);
	el = process_output(c, ev->pid, &nel);
	ev->result = PM_LAT_UNFINISHED;
	ev->done_ns = c->dump_end_ns;
	woke = c->dump_end_ns;
	done = -1;
	for (j = 0; j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];
		size_t before = next;
		int rt;

		if (el && served(c, s))
			next = delivered(el, nel, next, s);
		/* X's millisecond stamp may be up to 1 ms before the truth */
		if (s->start_ns <= ev->delivered_ns + X_SLOP_NS || !waits_for_input(c, s))
			continue;
		rt = ended_by_reply(c, s, rep, nrep, el, nel, before) ||
		     (el && ended_unrecorded(c, s, el, nel, before));
		if (rt)
			continue;
		if (first < 0)
			first = s->start_ns;
		else if (s->start_ns >= first + ANSWER_WITHIN_NS)
			break;
		/*
		 * Done at the first wait for input after the last that the
		 * answer to work handed off ended (another event, a key's
		 * release, may end one before the answer comes).
		 */
		if (answered(c, ev, s, first)) {
			done = -1;
		} else if (done < 0) {
			done = s->start_ns;
			woke = s->end_ns;
		}
	}
	if (done >= 0) {
		ev->result = PM_LAT_HANDLED;
		ev->done_ns = done;
	} else {
		woke = c->dump_end_ns;
	}
	free(rep);
	free(el);
	ev->end_ns = ev->done_ns;
	if (ev->result == PM_LAT_HANDLED) {
		display(c, ev, woke);
		if (ev->display_ns > ev->end_ns)
			ev->end_ns = ev->display_ns;
		/* it drew, and the server was still at it when the dump ends */
		if (ev->drawing && !ev->display_ns && c->server &&
		    pm_state_thread(c->st, c->server)) {
			ev->result = PM_LAT_UNFINISHED;
			ev->end_ns = c->dump_end_ns;
		}
	}
	for (j = 0; j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];
		int64_t part = pm_seg_overlap(s, ev->press_ns,
					      ev->done_ns);

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

/* Every key and button press and pointer motion of the X dump, in time order. */
static size_t collect(const struct lat_ctx *c, struct pm_lat_event *evs)
{
	struct tipme_x11_rec r, q;
	struct tipme_x11_client cl;
	uint32_t i, j;
	size_t n = 0;

	for (i = 0; i < c->x->recs.count; i++) {
		struct pm_lat_event *ev = &evs[n];

		tm_xdump_rec(c->x, i, &r);
		if (r.kind != TIPME_X11_DEVICE ||
		    (r.major != PM_X_KEY_PRESS && r.major != PM_X_BUTTON_PRESS &&
		     r.major != PM_X_MOTION))
			continue;
		memset(ev, 0, sizeof(*ev));
		ev->press_ns = (int64_t)r.time_ns;
		ev->code = r.major;
		ev->result = PM_LAT_NOT_DELIVERED;
		n++;
		for (j = i + 1; j < c->x->recs.count; j++) {
			tm_xdump_rec(c->x, j, &q);
			if ((int64_t)q.time_ns > ev->press_ns + DELIVERY_LIMIT_NS) {
				j = c->x->recs.count;
				break;
			}
			if (q.kind == TIPME_X11_EVENT && q.major == r.major &&
			    q.client != TIPME_X11_CLIENT_SERVER &&
			    !(q.flags & TIPME_X11_REC_SEND_EVENT))
				break;
		}
		if (j >= c->x->recs.count) {
			/* no client got it; motion nobody asked for is no input */
			if (r.major == PM_X_MOTION)
				n--;
			continue;
		}
		ev->delivered_ns = (int64_t)q.time_ns;
		if (tm_xdump_client_by_id(c->x, q.client, &cl) || !cl.pid ||
		    (cl.flags & TIPME_X11_CL_PID_UNKNOWN)) {
			ev->result = PM_LAT_PID_UNKNOWN;
			continue;
		}
		ev->pid = cl.pid;
		memcpy(ev->comm, cl.comm, sizeof(ev->comm));
		ev->comm[sizeof(ev->comm) - 1] = '\0';
		follow(c, ev);
	}
	return n;
}

int64_t pm_lat_to_screen_ns(const struct pm_lat_event *ev)
{
	if (ev->via.end.flip)
		return ev->via.end.flip_ns - ev->via.press_ns;
	if (ev->xflip.flip)
		return ev->xflip.flip_ns - ev->press_ns;
	return ev->end_ns - ev->press_ns;
}

/*
 * The press that took longest to reach the screen, of those handled: to
 * the flip when the kernel's dump follows it there (the interval `tipme
 * report` then shows), else to its end in the X dump.
 */
static const struct pm_lat_event *slowest(const struct pm_latency *l)
{
	const struct pm_lat_event *slow = NULL;
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct pm_lat_event *ev = &l->events[i];

		if (ev->result <= PM_LAT_UNFINISHED &&
		    (!slow || pm_lat_to_screen_ns(ev) > pm_lat_to_screen_ns(slow)))
			slow = ev;
	}
	return slow;
}

/* When the X server @ev's client got the input from woke it with it: @from_ns on. */
static int64_t handed(const struct lat_ctx *c, const struct pm_lat_event *ev, int64_t from_ns)
{
	size_t k;

	for (k = pm_res_wake_from(c->res, from_ns); k < c->res->nwakes; k++) {
		const struct pm_wake *w = &c->res->wakes[k];

		if (w->ns > ev->draw_ns)
			break;
		if (w->target == ev->pid && w->ctx == TIPME_CTX_TASK &&
		    is_server(c, w->waker, w->ns))
			return w->ns;
	}
	return 0;
}

/*
 * Each handled input whose drawing an X server that flips executed (Xorg
 * with modesetting): the flip that showed it (pm_latency_analyse()).
 */
static void xorg_flips(const struct pm_incident *inc, const struct lat_ctx *c,
		       struct pm_latency *l)
{
	size_t i;

	for (i = 0; c->server && c->res->nflips && i < l->n; i++) {
		struct pm_lat_event *ev = &l->events[i];
		struct pm_flip_end e;

		if (ev->result != PM_LAT_HANDLED || !ev->display_ns)
			continue;
		/*
		 * committed in the drawing's dispatch (a Present flip) or
		 * after: Xorg on virtio-gpu delivered it 20 ms before it
		 * waited again (before, the press ended at the next press's flip)
		 */
		if (pm_flip_after(inc, c->st, c->res, c->server, 0, ev->draw_ns, &e) &&
		    (e.commit_from == PM_COMMIT_QUEUED || e.commit_from == PM_COMMIT_WORK ||
		     e.commit_from == PM_COMMIT_DELIVERY))
			ev->xflip = e;
		else if (pm_flip_after(inc, c->st, c->res, c->server, 0, ev->display_ns, &e) &&
			 e.flip_ns >= ev->display_ns)
			ev->xflip = e;
		else
			continue;
		ev->handed_ns = handed(c, ev, ev->press_ns);
		if (!ev->handed_ns)
			ev->handed_ns = ev->delivered_ns;
	}
}

/*
 * Each handled input that came through a compositor whose client the X
 * server is (Xwayland): the kernel's press it came from, to the flip
 * (lat_event.via), and when the server woke the client with it.
 */
static int join_kernel(const struct pm_incident *inc, const struct lat_ctx *c,
		       struct pm_latency *l)
{
	struct pm_input_read *rd;
	size_t i;

	if (!c->server || !c->res->nflips || !c->res->ninputs)
		return 0;
	if (pm_input_readers(inc, c->st, c->res, &rd))
		return -ENOMEM;
	for (i = 0; i < l->n; i++) {
		struct pm_lat_event *ev = &l->events[i];

		if (ev->result != PM_LAT_HANDLED || !ev->draw_ns || ev->xflip.flip ||
		    pm_kernel_press_via(inc, c->st, c->res, rd, c->server, ev->press_ns,
					ev->draw_ns, &ev->via) != 1)
			continue;
		ev->handed_ns = handed(c, ev, ev->via.client_ns);
		if (!ev->handed_ns)
			ev->handed_ns = ev->via.client_ns;
	}
	free(rd);
	return 0;
}

int pm_latency_analyse(const struct pm_incident *inc, const struct pm_state *st,
		       const struct pm_res *res, struct pm_latency *out)
{
	const struct pm_dump *pm = &inc->pm;
	const struct tm_xdump *x = pm_incident_x(inc);
	struct lat_ctx c = { .pm = pm, .st = st, .res = res, .x = x };
	uint32_t i;

	memset(out, 0, sizeof(*out));
	c.dump_end_ns = st->last_ns;
	c.server = pm_xserver_pid(x);
	out->server = c.server;
	c.x_last_ns = -1;
	for (i = 0; i < x->recs.count; i++) {
		struct tipme_x11_rec r;

		tm_xdump_rec(x, i, &r);
		if (r.time_ns <= INT64_MAX && (int64_t)r.time_ns > c.x_last_ns)
			c.x_last_ns = (int64_t)r.time_ns;
	}
	out->events = calloc(x->recs.count ? x->recs.count : 1, sizeof(*out->events));
	if (!out->events)
		return -ENOMEM;
	out->n = collect(&c, out->events);
	xorg_flips(inc, &c, out);
	if (join_kernel(inc, &c, out)) {
		pm_latency_free(out);
		return -ENOMEM;
	}
	out->slowest = slowest(out);
	return 0;
}

void pm_latency_only(struct pm_latency *l, const struct pm_dump *pm, uint32_t pid)
{
	const struct pm_exec *me = pm_exec_at(pm, pid, 0);
	uint32_t tgid = me ? me->x.tgid : pid;
	size_t i, n = 0;

	for (i = 0; i < l->n; i++) {
		const struct pm_exec *x = l->events[i].pid ?
			pm_exec_at(pm, l->events[i].pid, l->events[i].press_ns) : NULL;

		if (l->events[i].pid &&
		    (l->events[i].pid == pid || (x ? x->x.tgid : l->events[i].pid) == tgid))
			l->events[n++] = l->events[i];
	}
	l->n = n;
	l->slowest = slowest(l);
}

void pm_latency_free(struct pm_latency *l)
{
	free(l->events);
	memset(l, 0, sizeof(*l));
}
