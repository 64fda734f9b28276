// SPDX-License-Identifier: GPL-2.0
/*
 * tipme export --perfetto (perfetto.h).  One JSON object:
 *
 *   {"traceEvents": [...], "systemTraceEvents": "FTRACE TEXT",
 *    "displayTimeUnit": "ms", "metadata": {...}}
 *
 * The ftrace text is what the kernel's own trace file would hold for
 * sched_switch, sched_waking and sched_blocked_reason (the blocking site
 * of the sleep just begun), one line per record, timestamps in seconds of
 * CLOCK_MONOTONIC; the viewers turn it into CPU tracks and thread states.
 * Trace events carry the same clock in microseconds.  Command names are
 * written with anything that would break the ftrace line format (spaces,
 * '=', control bytes) replaced by '_'.  A line's task, pid and tgid are
 * not padded to columns (the importers match them with any spacing).
 *
 * The ftrace text is as long as the dump has records (about 150 bytes a
 * record): it is not held in memory but written as it is made, in a
 * second pass over the records after the trace events.
 *
 * With a range (pm_perfetto_in.range), the trace is what a recording of
 * that range alone would give: its records (decoded from the sub-buffers
 * the range needs only), the samples, X records and instants in it, and
 * the slices (lock waits, reclaim, block requests) that begin in it; a
 * sched_blocked_reason's iowait comes from the CPU's last switch in the
 * range (none: 0).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/clock.h"
#include "../dump/decode.h"
#include "../dump/index.h"
#include "../dump/tables.h"
#include "../dump/usym.h"
#include "../records/records.h"
#include "../analysis/xprof.h"
#include "json.h"
#include "names.h"
#include "perfetto.h"
#include "xdumpfile.h"

/* Async slice ids: 1 the verdict, 2.. its chain, from here block requests. */
#define BLK_ID		(1ULL << 32)

/* An X request's server time is cut here (as tipme report --x cuts it). */
#define X_REQ_CAP_NS	100000000LL

struct pf {
	const struct pm_perfetto_in *in;
	struct tm_jw w;
	char *ft;		/* the ftrace text not yet written */
	size_t ftlen;
	int pass;		/* 0: the trace events, 1: the ftrace text */
	uint8_t *prev_state;	/* per CPU: the last switch's prev_state */
	uint32_t ncpu;
	uint32_t *pids;		/* threads named by trace events */
	size_t npids, cap;
	struct pm_perfetto_stats *stats;
	int oom;
};

/* A time in the range the trace covers. */
static int in_range(const struct pf *p, int64_t ns)
{
	return !p->in->range || (ns >= p->in->from_ns && ns <= p->in->to_ns);
}

/* Bytes of ftrace text held before they are written. */
#define FT_BUF		65536

static void ft_flush(struct pf *p)
{
	tm_jw_str_part(&p->w, p->ft, p->ftlen);
	p->ftlen = 0;
}

static void ft_printf(struct pf *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append to the ftrace text (a piece is far below FT_BUF). */
static void ft_printf(struct pf *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(p->ft + p->ftlen, FT_BUF - p->ftlen, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < FT_BUF - p->ftlen) {
			p->ftlen += (size_t)n;
			return;
		}
		if (!p->ftlen) {	/* longer than the buffer: cut */
			p->ftlen = FT_BUF - 1;
			return;
		}
		ft_flush(p);
	}
}

/* @b - @a in ns, saturated (a damaged dump's times must not overflow it). */
static int64_t ns_diff(int64_t b, int64_t a)
{
	if (a < 0 && b > INT64_MAX + a)
		return INT64_MAX;
	if (a > 0 && b < INT64_MIN + a)
		return INT64_MIN;
	return b - a;
}

/* A time or length in ns as the trace's microseconds, exactly (up to 3 decimals). */
static void kus(struct pf *p, const char *key, int64_t ns)
{
	tm_jw_kfixed(&p->w, key, ns, 3);
}

/*
 * A command name fit for an ftrace line; the idle task is "swapper/CPU"
 * as a switch's field (@cpu >= 0), "<idle>" as a line's task (@cpu < 0).
 */
static const char *ft_comm(const struct pf *p, uint32_t pid, uint64_t ts,
			   long cpu, char *buf, size_t len)
{
	const char *n = pid ? pm_task_name(&p->in->inc->pm, pid, ts) : NULL;
	size_t i;

	if (!pid && cpu >= 0)
		snprintf(buf, len, "swapper/%ld", cpu);
	else
		snprintf(buf, len, "%s", n ? n : pid ? "<...>" : "<idle>");
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] <= ' ' || buf[i] == '=' || buf[i] == '"' ||
		    buf[i] == '\\' || (unsigned char)buf[i] >= 0x7f)
			buf[i] = '_';
	return buf;
}

static uint32_t tgid_of(const struct pf *p, uint32_t pid, int64_t ns)
{
	const struct pm_exec *x = pid ? pm_exec_at(&p->in->inc->pm, pid, ns) : NULL;

	return x && x->x.tgid ? x->x.tgid : pid;
}

/*
 * "comm-PID (TGID) [CPU] d..2 SECONDS: " for record @ev: named as tipme
 * records names a record's tasks (at its own timestamp), at its
 * CLOCK_MONOTONIC time.
 */
static void ft_head(struct pf *p, uint32_t pid, const struct pm_event *ev)
{
	const struct pm_exec *x = pid ? pm_exec_find(&p->in->inc->pm, pid, ev->ts) : NULL;
	int64_t ns = ev->ns;
	char c[24];

	ft_printf(p, "%s-%" PRIu32 " (%" PRIu32 ") [%03" PRIu32 "] d..2 %s%" PRId64 ".%09" PRId64 ": ",
		ft_comm(p, pid, ev->ts, -1, c, sizeof(c)), pid,
		x && x->x.tgid ? x->x.tgid : pid, ev->cpu,
		ns < 0 ? "-" : "", (ns < 0 ? -ns : ns) / 1000000000,
		(ns < 0 ? -ns : ns) % 1000000000);
	p->stats->ftrace_lines++;
}

static char state_char(uint8_t s)
{
	static const char c[] = { 'R', 'S', 'D', 'I', 'T', 't', 'X', 'Z' };

	return s < sizeof(c) ? c[s] : 'S';
}

static void on_switch(struct pf *p, const struct pm_event *ev)
{
	const struct tipme_rec_switch *sw = &ev->u.sw;
	char a[24], b[24];

	ft_head(p, sw->prev_pid, ev);
	ft_printf(p, "sched_switch: prev_comm=%s prev_pid=%" PRIu32 " prev_prio=%u prev_state=%c%s ==> next_comm=%s next_pid=%" PRIu32 " next_prio=%u\n",
		ft_comm(p, sw->prev_pid, ev->ts, ev->cpu, a, sizeof(a)), sw->prev_pid,
		sw->prev_prio, state_char(sw->prev_state),
		sw->prev_state == TIPME_TS_RUNNABLE && sw->prev_pid ? "+" : "",
		ft_comm(p, sw->next_pid, ev->ts, ev->cpu, b, sizeof(b)), sw->next_pid,
		sw->next_prio);
	if (ev->cpu < p->ncpu)
		p->prev_state[ev->cpu] = sw->prev_state;
}

static void on_waking(struct pf *p, const struct pm_event *ev)
{
	uint32_t pid = tipme_waking_pid(&ev->u.wk);
	char c[24];

	if (ev->waker_unknown)
		return;	/* the line needs the task that ran: not known */
	ft_head(p, tipme_waking_waker(&ev->u.wk), ev);
	ft_printf(p, "sched_waking: comm=%s pid=%" PRIu32 " prio=120 target_cpu=%03" PRIu32 "\n",
		ft_comm(p, pid, ev->ts, -1, c, sizeof(c)), pid,
		tipme_waking_cpu(&ev->u.wk));
}

/* Where the sleep that the last switch on this CPU began is (the viewers show it). */
static void on_blocked(struct pf *p, const struct pm_event *ev)
{
	const struct tipme_rec_blocked *b = &ev->u.bl;
	uint64_t site[1];
	const char *name;
	uint64_t off = 0;
	int n;

	if (!pm_rec_frames(&p->in->inc->pm, ev, site, 1))
		return;
	name = pm_sym_name(&p->in->inc->pm, site[0], &off);
	ft_head(p, b->pid, ev);
	ft_printf(p, "sched_blocked_reason: pid=%" PRIu32 " iowait=%d caller=",
		b->pid, ev->cpu < p->ncpu && p->prev_state[ev->cpu] == TIPME_TS_DISK);
	/* one word: a module symbol's " [module]" goes */
	n = name ? (int)strcspn(name, " \t\n") : 0;
	if (n)
		ft_printf(p, "%.*s+0x%" PRIx64 "\n", n, name, off);
	else
		ft_printf(p, "0x%" PRIx64 "\n", site[0]);
}

/* Remember a thread that a trace event names (for its name, at the end). */
static void named(struct pf *p, uint32_t pid)
{
	size_t i;

	for (i = p->npids; i-- > 0;)
		if (p->pids[i] == pid)
			return;
	if (p->npids == p->cap) {
		size_t c = p->cap ? p->cap * 2 : 64;
		uint32_t *n = realloc(p->pids, c * sizeof(*n));

		if (!n) {
			p->oom = 1;
			return;
		}
		p->pids = n;
		p->cap = c;
	}
	p->pids[p->npids++] = pid;
}

/* The head of one trace event: name, phase, time, thread. */
static void ev_begin(struct pf *p, const char *name, const char *ph, int64_t ts_ns,
		     uint32_t pid, uint32_t tid)
{
	tm_jw_obj_begin(&p->w);
	tm_jw_kstr(&p->w, "name", name);
	tm_jw_kstr(&p->w, "ph", ph);
	kus(p, "ts", ts_ns);
	tm_jw_ku64(&p->w, "pid", pid);
	tm_jw_ku64(&p->w, "tid", tid);
	p->stats->events++;
	if (tid)
		named(p, tid);
}

/* A slice on thread @tid from @a to @b (CLOCK_MONOTONIC ns). */
static void slice(struct pf *p, const char *name, const char *cat, uint32_t tid,
		  int64_t a, int64_t b)
{
	ev_begin(p, name, "X", a, tgid_of(p, tid, a), tid);
	tm_jw_kstr(&p->w, "cat", cat);
	kus(p, "dur", b > a ? ns_diff(b, a) : 0);
}

static void instant(struct pf *p, const char *name, const char *cat,
		    int64_t ts_ns, uint32_t pid, uint32_t tid, const char *scope)
{
	ev_begin(p, name, "i", ts_ns, pid, tid);
	tm_jw_kstr(&p->w, "cat", cat);
	tm_jw_kstr(&p->w, "s", scope);
}

static void on_input(struct pf *p, const struct pm_event *ev)
{
	const struct tipme_rec_input *in = &ev->u.in;
	char name[48];

	snprintf(name, sizeof(name), "%s%s", tm_input_kind_title(in->kind, "input"),
		 in->kind == TIPME_INPUT_MOTION ? "" :
		 in->value == 1 ? " press" : in->value == 2 ? " repeat" : " release");
	instant(p, name, "input", ev->ns, 0, 0, "g");
	tm_jw_obj_end(&p->w);
}

/*
 * The records, in time order: in pass 0 the trace events of input,
 * triggers and gaps, in pass 1 the ftrace text.
 */
static int records(struct pf *p, struct tm_err *e)
{
	struct pm_merge mg;
	struct pm_event ev;
	char name[64];
	int err;

	if (p->in->range) {
		struct pm_index ix;

		/* the sub-buffers the range needs only */
		err = pm_index_scan(&ix, &p->in->inc->pm, e);
		if (!err)
			err = pm_merge_range(&mg, &p->in->inc->pm, &ix, NULL,
					     p->in->from_ns, p->in->to_ns, e);
		pm_index_free(&ix);
	} else {
		err = pm_merge_init(&mg, &p->in->inc->pm, NULL, e);
	}
	if (err)
		return err;
	while (!p->oom && (err = pm_merge_next(&mg, &ev, e)) > 0) {
		if (!in_range(p, ev.ns))
			continue;
		if (ev.kind == PM_EV_LOST) {
			if (p->pass)
				continue;
			snprintf(name, sizeof(name), "records lost on cpu %" PRIu32, ev.cpu);
			instant(p, name, "tipme", ev.ns, 0, 0, "g");
			tm_jw_ku64(&p->w, "subbufs", ev.lost_count);
			tm_jw_obj_end(&p->w);
			continue;
		}
		if (!ev.rt || !ev.rt->our_size)
			continue;
		if (p->pass != (ev.type == TIPME_REC_SCHED_SWITCH ||
				ev.type == TIPME_REC_SCHED_WAKING ||
				ev.type == TIPME_REC_BLOCKED))
			continue;
		switch (ev.type) {
		case TIPME_REC_SCHED_SWITCH:
			on_switch(p, &ev);
			break;
		case TIPME_REC_SCHED_WAKING:
			on_waking(p, &ev);
			break;
		case TIPME_REC_BLOCKED:
			on_blocked(p, &ev);
			break;
		case TIPME_REC_INPUT:
			on_input(p, &ev);
			break;
		case TIPME_REC_TRIGGER:
			instant(p, ev.u.trig.coalesced ? "trigger (joined)" : "trigger",
				"tipme", ev.ns, 0, 0, "g");
			tm_jw_obj_end(&p->w);
			break;
		default:
			break;
		}
	}
	pm_merge_free(&mg);
	return err < 0 ? err : 0;
}

/*
 * The on-CPU profiler's samples, from the state (no pass of their own):
 * an instant on the sampled thread's track, named by the function it was
 * taken in, its chains as arrays of frames in its arguments.  Perfetto's
 * JSON importer ignores Chrome's "stackFrames" and "samples" (only its
 * protobuf traces carry callstacks), so instants are what it shows.
 */
static void samples(struct pf *p)
{
	const struct pm_dump *pm = &p->in->inc->pm;
	uint64_t k[PM_FRAMES_MAX];
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	struct pm_usym sym[PM_USYM_MAX];
	char name[300], buf[32];
	size_t i, j, nk;
	int cut;

	for (i = 0; i < p->in->st->nsamples && !p->oom; i++) {
		const struct pm_psample *sa = &p->in->st->samples[i];
		const struct pm_ustack *u = sa->ustack ? pm_ustack_get(pm, sa->ustack) : NULL;
		const char *leaf = NULL, *kname;
		size_t nu = 0;

		if (!in_range(p, sa->ns))
			continue;
		nk = sa->site ? pm_site_chain(pm, sa->site, k, PM_FRAMES_MAX, &cut) : 0;
		if (u)
			nu = pm_ustack_resolve(pm, u, sa->ns, fr, &cut);
		if (nu && pm_usym_frame(pm, &fr[0], 0, sym))
			leaf = sym[0].func;
		else if (nu)
			leaf = fr[0].map ? fr[0].map->name : "user";
		if (nk) {	/* interrupted in the kernel: its function first */
			kname = pm_sym_name(pm, k[0], NULL);
			leaf = kname ? kname : "kernel";
		}
		snprintf(name, sizeof(name), "sample: %s", leaf ? leaf : "no chain");
		instant(p, name, "cpu_sample", sa->ns, tgid_of(p, sa->pid, sa->ns), sa->pid, "t");
		tm_jw_key(&p->w, "args");
		tm_jw_obj_begin(&p->w);
		if (nk) {
			tm_jw_key(&p->w, "kernel_stack");
			tm_jw_arr_begin(&p->w);
			for (j = 0; j < nk; j++) {
				kname = pm_sym_name(pm, k[j], NULL);
				if (!kname) {
					snprintf(buf, sizeof(buf), "0x%" PRIx64, k[j]);
					kname = buf;
				}
				tm_jw_str(&p->w, kname);
			}
			tm_jw_arr_end(&p->w);
		}
		if (sa->ustack) {
			tm_jw_key(&p->w, "user_stack");
			tm_jw_kbool(&p->w, "user_stack_truncated",
				    pm_json_ustack_names(&p->w, pm, sa->ustack, sa->ns));
		}
		tm_jw_obj_end(&p->w);
		tm_jw_obj_end(&p->w);
	}
}

static const char *blk_dev_name(const struct pf *p, uint32_t dev, char *buf, size_t len)
{
	char key[40], name[32];

	snprintf(key, sizeof(key), "blockdev.%u:%u", dev >> 20, dev & 0xfffff);
	if (!pm_text_get(&p->in->inc->pm.system, key, name, sizeof(name)) && *name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%u:%u", dev >> 20, dev & 0xfffff);
	return buf;
}

/* Lock waits, reclaim and block requests, from the state library. */
static void resources(struct pf *p)
{
	const struct pm_res *r = p->in->res;
	char name[96], dev[40];
	size_t i, id, nid = 0;

	for (i = 0; i < r->nlocks; i++) {
		const struct pm_lockwait *l = &r->locks[i];

		if (!in_range(p, l->start_ns))
			continue;
		snprintf(name, sizeof(name), "lock wait 0x%" PRIx64, l->lock);
		slice(p, name, "lock", l->pid, l->start_ns, l->end_ns);
		tm_jw_key(&p->w, "args");
		tm_jw_obj_begin(&p->w);
		if (l->owner)
			tm_jw_ku64(&p->w, "holder", l->owner);
		tm_jw_obj_end(&p->w);
		tm_jw_obj_end(&p->w);
	}
	for (i = 0; i < r->nreclaims; i++) {
		const struct pm_reclaim *m = &r->reclaims[i];

		if (!in_range(p, m->start_ns))
			continue;
		slice(p, m->kind == TIPME_RECLAIM_DIRECT ? "direct reclaim" :
		      "memory cgroup reclaim", "memory", m->pid, m->start_ns, m->end_ns);
		tm_jw_key(&p->w, "args");
		tm_jw_obj_begin(&p->w);
		tm_jw_ku64(&p->w, "pages_reclaimed", m->nr_reclaimed);
		tm_jw_obj_end(&p->w);
		tm_jw_obj_end(&p->w);
	}
	for (i = 0; i < r->nblk; i++) {
		const struct pm_blkreq *q = &r->blk[i];
		int64_t a = q->insert_ns ? q->insert_ns : q->issue_ns;

		if (!a || !q->complete_ns || q->complete_ns < a || !in_range(p, a))
			continue;	/* only whole requests: async slices need both ends */
		/*
		 * a range's state holds the requests near it only: their
		 * slices are numbered in the order written, the same whatever
		 * the state was built from
		 */
		id = p->in->range ? nid++ : i;
		snprintf(name, sizeof(name), "I/O on %s",
			 blk_dev_name(p, q->dev, dev, sizeof(dev)));
		ev_begin(p, name, "b", a, tgid_of(p, q->issuer, a), q->issuer);
		tm_jw_kstr(&p->w, "cat", "block");
		tm_jw_ku64(&p->w, "id", BLK_ID + id);
		tm_jw_key(&p->w, "args");
		tm_jw_obj_begin(&p->w);
		tm_jw_ku64(&p->w, "sector", q->sector);
		tm_jw_ku64(&p->w, "bytes", q->bytes);
		if (q->insert_ns && q->issue_ns)
			tm_jw_kfixed(&p->w, "queued_ms", ns_diff(q->issue_ns, q->insert_ns), 6);
		if (q->issue_ns)
			tm_jw_kfixed(&p->w, "device_ms", ns_diff(q->complete_ns, q->issue_ns), 6);
		tm_jw_obj_end(&p->w);
		tm_jw_obj_end(&p->w);
		ev_begin(p, name, "e", q->complete_ns, tgid_of(p, q->issuer, a), q->issuer);
		tm_jw_kstr(&p->w, "cat", "block");
		tm_jw_ku64(&p->w, "id", BLK_ID + id);
		tm_jw_obj_end(&p->w);
	}
}

/* The begin of an async slice of thread @tid at @a (CLOCK_MONOTONIC ns), left open for args. */
static void async_begin(struct pf *p, const char *name, const char *cat,
			uint32_t tid, int64_t a, uint64_t id)
{
	ev_begin(p, name, "b", a, tgid_of(p, tid, p->in->st->last_ns), tid);
	tm_jw_kstr(&p->w, "cat", cat);
	tm_jw_ku64(&p->w, "id", id);
}

static void async_end(struct pf *p, const char *name, const char *cat,
		      uint32_t tid, int64_t b, uint64_t id)
{
	ev_begin(p, name, "e", b, tgid_of(p, tid, p->in->st->last_ns), tid);
	tm_jw_kstr(&p->w, "cat", cat);
	tm_jw_ku64(&p->w, "id", id);
	tm_jw_obj_end(&p->w);
}

/*
 * The verdict's interval, and each wait of its chain, as async slices (a
 * track of their own beside the thread's, so that they never cross the
 * thread's lock and reclaim slices).
 */
static void verdict(struct pf *p)
{
	const struct pm_verdict *r = p->in->verdict;
	const struct pm_cause_item *v = r->nitems ? &r->items[0] : NULL;
	char name[128];
	size_t i;

	snprintf(name, sizeof(name), "tipme report: %s", v ? pm_cause_key[v->cause] : "nothing recorded");
	async_begin(p, name, "tipme", r->pid, r->from_ns, 1);
	tm_jw_key(&p->w, "args");
	tm_jw_obj_begin(&p->w);
	if (v) {
		tm_jw_kstr(&p->w, "cause", pm_cause_key[v->cause]);
		if (v->culprit)
			tm_jw_ku64(&p->w, "culprit", v->culprit);
		tm_jw_kstr(&p->w, "resource", v->resource);
		tm_jw_kfixed(&p->w, "ms", v->ns, 6);
	}
	tm_jw_obj_end(&p->w);
	tm_jw_obj_end(&p->w);
	async_end(p, name, "tipme", r->pid, r->to_ns, 1);
	for (i = 0; i < r->nchain; i++) {
		const struct pm_chain_step *c = &r->chain[i];

		if (c->followed)
			snprintf(name, sizeof(name), "waiting for %" PRId64, c->waker);
		else
			snprintf(name, sizeof(name), "%s", pm_cause_key[c->cause]);
		async_begin(p, name, "tipme chain", c->pid, c->from_ns, 2 + i);
		tm_jw_obj_end(&p->w);
		async_end(p, name, "tipme chain", c->pid, c->to_ns, 2 + i);
	}
}

/* The X server's requests per client, its device events and deliveries. */
static void xserver(struct pf *p)
{
	const struct tm_xdump *x = pm_incident_x(p->in->inc);
	struct tipme_x11_rec r, nx;
	struct tipme_x11_client cl;
	uint32_t server = pm_xserver_pid(x), k;
	char op[64], name[96];

	for (k = 0; k < x->recs.count; k++) {
		int64_t dur = 0;

		tm_xdump_rec(x, k, &r);
		if (r.time_ns > INT64_MAX / 2 || !in_range(p, (int64_t)r.time_ns))
			continue;
		if (tm_xdump_client_by_id(x, r.client, &cl))
			memset(&cl, 0, sizeof(cl));
		cl.comm[sizeof(cl.comm) - 1] = '\0';
		if (r.kind == TIPME_X11_REQUEST && server) {
			if (k + 1 < x->recs.count) {
				tm_xdump_rec(x, k + 1, &nx);
				if (nx.time_ns > r.time_ns && nx.time_ns <= INT64_MAX / 2)
					dur = (int64_t)(nx.time_ns - r.time_ns);
				if (dur > X_REQ_CAP_NS)
					dur = X_REQ_CAP_NS;
			}
			ev_begin(p, tm_xdump_op_name(x, &r, op, sizeof(op)), "X",
				 (int64_t)r.time_ns, server, server);
			tm_jw_kstr(&p->w, "cat", "x11");
			kus(p, "dur", dur);
			tm_jw_key(&p->w, "args");
			tm_jw_obj_begin(&p->w);
			tm_jw_ku64(&p->w, "client_pid", cl.pid);
			tm_jw_kstr(&p->w, "client", cl.comm);
			tm_jw_ku64(&p->w, "bytes", r.length);
			tm_jw_ku64(&p->w, "op_size", r.op_size);
			tm_jw_obj_end(&p->w);
			tm_jw_obj_end(&p->w);
		} else if (r.kind == TIPME_X11_DEVICE && server) {
			snprintf(name, sizeof(name), "X device %s", tm_xdump_event_name(r.major));
			instant(p, name, "x11", (int64_t)r.time_ns, server, server, "t");
			tm_jw_obj_end(&p->w);
		} else if (r.kind == TIPME_X11_EVENT && cl.pid && r.major >= 2 && r.major <= 6) {
			snprintf(name, sizeof(name), "X %s delivered", tm_xdump_event_name(r.major));
			instant(p, name, "x11", (int64_t)r.time_ns, cl.pid, cl.pid, "t");
			tm_jw_obj_end(&p->w);
		}
	}
}

/* Process and thread names for the threads the trace events name. */
static void names(struct pf *p)
{
	int64_t ts = p->in->st->last_ns;
	const char *n;
	size_t i;

	for (i = 0; i < p->npids; i++) {
		uint32_t tid = p->pids[i], pid = tgid_of(p, tid, ts);

		n = pm_comm_at(&p->in->inc->pm, tid, ts);
		if (!n)
			continue;
		ev_begin(p, "thread_name", "M", 0, pid, tid);
		tm_jw_key(&p->w, "args");
		tm_jw_obj_begin(&p->w);
		tm_jw_kstr(&p->w, "name", n);
		tm_jw_obj_end(&p->w);
		tm_jw_obj_end(&p->w);
		if (pid != tid || !(n = pm_comm_at(&p->in->inc->pm, pid, ts)))
			continue;
		ev_begin(p, "process_name", "M", 0, pid, 0);
		tm_jw_key(&p->w, "args");
		tm_jw_obj_begin(&p->w);
		tm_jw_kstr(&p->w, "name", n);
		tm_jw_obj_end(&p->w);
		tm_jw_obj_end(&p->w);
	}
}

/**
 * pm_perfetto_write() - write a dump as one Chrome JSON trace
 * @f: output
 * @in: the dump, its state, resources, verdict and X dump
 * @stats: what was written
 * @e: error message
 *
 * Return: 0, or a negative errno (-ENOMEM, a broken dump, -EIO when @f
 * could not be written).
 */
int pm_perfetto_write(FILE *f, const struct pm_perfetto_in *in,
		      struct pm_perfetto_stats *stats, struct tm_err *e)
{
	struct pf p = { .in = in, .stats = stats };
	size_t i;
	int err;

	memset(stats, 0, sizeof(*stats));
	for (i = 0; i < in->inc->pm.nr_cpus; i++)
		if (in->inc->pm.cpus[i].cpu >= p.ncpu)
			p.ncpu = in->inc->pm.cpus[i].cpu + 1;
	p.prev_state = calloc(p.ncpu ? p.ncpu : 1, 1);
	p.ft = malloc(FT_BUF);
	if (!p.prev_state || !p.ft) {
		free(p.prev_state);
		free(p.ft);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	tm_jw_init(&p.w, f, 0);
	tm_jw_obj_begin(&p.w);
	tm_jw_key(&p.w, "traceEvents");
	tm_jw_arr_begin(&p.w);
	err = records(&p, e);
	if (!err) {
		resources(&p);
		samples(&p);
		if (in->verdict)
			verdict(&p);
		if (pm_incident_x(in->inc))
			xserver(&p);
		names(&p);
	}
	tm_jw_arr_end(&p.w);
	if (!err && !p.oom) {
		tm_jw_key(&p.w, "systemTraceEvents");
		tm_jw_str_begin(&p.w);
		ft_printf(&p, "# tracer: nop\n#\n");
		p.pass = 1;
		err = records(&p, e);
		ft_flush(&p);
		tm_jw_str_end(&p.w);
	}
	if (!err && !p.oom) {
		tm_jw_kstr(&p.w, "displayTimeUnit", "ms");
		tm_jw_key(&p.w, "metadata");
		tm_jw_obj_begin(&p.w);
		tm_jw_kstr(&p.w, "source", "tipme export --perfetto");
		tm_jw_kstr(&p.w, "clock", "CLOCK_MONOTONIC");
		tm_jw_obj_end(&p.w);
	}
	tm_jw_obj_end(&p.w);
	free(p.ft);
	free(p.prev_state);
	free(p.pids);
	if (err)
		return err;
	if (p.oom)
		return tm_err_set(e, ENOMEM, "out of memory");
	if (tm_jw_finish(&p.w))
		return tm_err_set(e, EIO, "error writing the trace");
	return 0;
}
