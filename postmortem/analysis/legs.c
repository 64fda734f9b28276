// SPDX-License-Identifier: GPL-2.0
/*
 * The legs between two kinds of event (legs.h).  Keys: a thread for the
 * scheduler, lock and reclaim events; a block request for two block
 * events (the request's own insert, issue and completion), its queueing
 * or issuing thread when a block event meets a thread's event; the whole
 * machine for input and the X server's idle, and for any pair with one of
 * those.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/clock.h"
#include "../dump/decode.h"
#include "legs.h"
#include "segcause.h"
#include "xdumpfile.h"
#include "xprof.h"

const char *const pm_leg_event_name[PM_LEG_NR] = {
	[PM_LEG_WAKING] = "waking",
	[PM_LEG_SWITCH_IN] = "switch-in",
	[PM_LEG_SWITCH_OUT] = "switch-out",
	[PM_LEG_SLEEP] = "sleep",
	[PM_LEG_BLK_INSERT] = "blk-insert",
	[PM_LEG_BLK_ISSUE] = "blk-issue",
	[PM_LEG_BLK_COMPLETE] = "blk-complete",
	[PM_LEG_LOCK_BEGIN] = "lock-begin",
	[PM_LEG_LOCK_END] = "lock-end",
	[PM_LEG_RECLAIM_BEGIN] = "reclaim-begin",
	[PM_LEG_RECLAIM_END] = "reclaim-end",
	[PM_LEG_INPUT] = "input",
	[PM_LEG_X_PRESS] = "x-press",
	[PM_LEG_X_IDLE] = "x-idle",
};

/**
 * pm_leg_event_parse() - an event kind by the name users type
 * @s: the name ("waking", "blk-issue" ...)
 *
 * Return: enum pm_leg_event, or -1.
 */
int pm_leg_event_parse(const char *s)
{
	int i;

	for (i = 0; i < PM_LEG_NR; i++)
		if (!strcmp(s, pm_leg_event_name[i]))
			return i;
	return -1;
}

struct lev {
	int64_t ts;
	uint64_t key;
	uint32_t owner;
	uint8_t to;		/* 0: opens a leg, 1: closes one */
};

struct coll {
	struct lev *v;
	size_t n, cap;
	int from, to;
	int global;		/* one of the kinds is machine-wide: every key is 0 */
	int request;		/* both are block events: the key is the request */
	int oom;
};

static void add(struct coll *c, int kind, int64_t ts, uint64_t key, uint32_t owner)
{
	struct lev *n;

	if (kind != c->from && kind != c->to)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;

		n = realloc(c->v, cap * sizeof(*n));
		if (!n) {
			c->oom = 1;
			return;
		}
		c->v = n;
		c->cap = cap;
	}
	n = &c->v[c->n++];
	n->ts = ts;
	n->key = c->global ? 0 : key;
	n->owner = owner;
	n->to = kind == c->to;
}

static int is_blk(int k)
{
	return k >= PM_LEG_BLK_INSERT && k <= PM_LEG_BLK_COMPLETE;
}

static int is_global(int k)
{
	return k >= PM_LEG_INPUT;
}

/* Scheduler events, from the records in time order. */
static int sched_events(struct coll *c, const struct pm_dump *pm, struct tm_err *e)
{
	struct pm_merge mg;
	struct pm_event ev;
	int err;

	if (c->from > PM_LEG_SLEEP && c->to > PM_LEG_SLEEP)
		return 0;
	err = pm_merge_init(&mg, pm, NULL, e);
	if (err)
		return err;
	while (!c->oom && (err = pm_merge_next(&mg, &ev, e)) > 0) {
		int64_t t = ev.ns;

		if (ev.kind != PM_EV_RECORD || !ev.rt || !ev.rt->our_size)
			continue;
		if (ev.type == TIPME_REC_SCHED_WAKING) {
			uint32_t p = tipme_waking_pid(&ev.u.wk);

			add(c, PM_LEG_WAKING, t, p, p);
		} else if (ev.type == TIPME_REC_SCHED_SWITCH) {
			const struct tipme_rec_switch *sw = &ev.u.sw;

			if (sw->prev_pid) {
				add(c, PM_LEG_SWITCH_OUT, t, sw->prev_pid, sw->prev_pid);
				if (sw->prev_state != TIPME_TS_RUNNABLE)
					add(c, PM_LEG_SLEEP, t, sw->prev_pid, sw->prev_pid);
			}
			if (sw->next_pid)
				add(c, PM_LEG_SWITCH_IN, t, sw->next_pid, sw->next_pid);
		}
	}
	pm_merge_free(&mg);
	return err < 0 ? err : 0;
}

/*
 * The PID of the client the press @r (record @i) was delivered to: the
 * next event of its kind queued to a client within a second; 0 if none or
 * its PID is unknown.  A press's legs belong to that client.
 */
static uint32_t receiver(const struct tm_xdump *x, uint32_t i, const struct tipme_x11_rec *r)
{
	struct tipme_x11_client cl;
	struct tipme_x11_rec q;
	uint32_t j;

	for (j = i + 1; j < x->recs.count; j++) {
		tm_xdump_rec(x, j, &q);
		if (q.time_ns > r->time_ns + 1000000000ULL)
			break;
		if (q.kind == TIPME_X11_EVENT && q.major == r->major &&
		    q.client != TIPME_X11_CLIENT_SERVER &&
		    !(q.flags & TIPME_X11_REC_SEND_EVENT))
			return tm_xdump_client_by_id(x, q.client, &cl) ||
			       (cl.flags & TIPME_X11_CL_PID_UNKNOWN) ? 0 : cl.pid;
	}
	return 0;
}

/* Everything the state library and the X dump hold. */
static void other_events(struct coll *c, const struct pm_incident *inc,
			 const struct pm_state *st, const struct pm_res *res)
{
	const struct tm_xdump *x = pm_incident_x(inc);
	size_t i, j;

	for (i = 0; i < res->nblk; i++) {
		const struct pm_blkreq *q = &res->blk[i];
		uint64_t key = c->request ? i + 1 : q->issuer;

		if (q->insert_ns)
			add(c, PM_LEG_BLK_INSERT, q->insert_ns, key, q->issuer);
		if (q->issue_ns)
			add(c, PM_LEG_BLK_ISSUE, q->issue_ns, key, q->issuer);
		if (q->complete_ns)
			add(c, PM_LEG_BLK_COMPLETE, q->complete_ns, key, q->issuer);
	}
	for (i = 0; i < res->nlocks; i++) {
		add(c, PM_LEG_LOCK_BEGIN, res->locks[i].start_ns,
		    res->locks[i].pid, res->locks[i].pid);
		add(c, PM_LEG_LOCK_END, res->locks[i].end_ns,
		    res->locks[i].pid, res->locks[i].pid);
	}
	for (i = 0; i < res->nreclaims; i++) {
		add(c, PM_LEG_RECLAIM_BEGIN, res->reclaims[i].start_ns,
		    res->reclaims[i].pid, res->reclaims[i].pid);
		add(c, PM_LEG_RECLAIM_END, res->reclaims[i].end_ns,
		    res->reclaims[i].pid, res->reclaims[i].pid);
	}
	for (i = 0; i < res->ninputs; i++)
		if ((res->inputs[i].kind == TIPME_INPUT_KEY ||
		     res->inputs[i].kind == TIPME_INPUT_BUTTON) && res->inputs[i].value == 1)
			add(c, PM_LEG_INPUT, res->inputs[i].ns, 0, 0);
	if (!x)
		return;
	for (i = 0; i < x->recs.count; i++) {
		struct tipme_x11_rec r;

		tm_xdump_rec(x, (uint32_t)i, &r);
		if (r.kind == TIPME_X11_DEVICE && (r.major == 2 || r.major == 4) &&
		    r.time_ns <= INT64_MAX)
			add(c, PM_LEG_X_PRESS, (int64_t)r.time_ns, 0,
			    receiver(x, (uint32_t)i, &r));
	}
	{
		uint32_t xs = pm_xserver_pid(x);
		const struct pm_thread *t = xs ? pm_state_thread(st, xs) : NULL;

		for (j = 0; t && j < t->nsegs; j++)
			if (t->segs[j].state == PM_T_BLOCKED && pm_seg_idle(inc, &t->segs[j]))
				add(c, PM_LEG_X_IDLE, t->segs[j].start_ns, 0, xs);
	}
}

/* In time order; at one time, what opens a leg before what closes it. */
static int lev_cmp(const void *a, const void *b)
{
	const struct lev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (int)x->to - (int)y->to;
}

struct slot {
	uint64_t key;
	int64_t start;
	uint32_t owner;
	uint8_t used, open;
};

static struct slot *slot_of(struct slot *tab, size_t cap, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);

	while (tab[i].used && tab[i].key != key)
		i = (i + 1) & (cap - 1);
	tab[i].used = 1;
	tab[i].key = key;
	return &tab[i];
}

/**
 * pm_legs_find() - every leg from one kind of event to another
 * @inc: the incident
 * @st: its state
 * @res: its resources
 * @from: enum pm_leg_event that opens a leg
 * @to: enum pm_leg_event that closes it (not @from)
 * @from_ns: only legs that start at or after this (CLOCK_MONOTONIC ns)
 * @to_ns: ... and at or before this
 * @out: the legs; release with pm_legs_free()
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_legs_find(const struct pm_incident *inc, const struct pm_state *st,
		 const struct pm_res *res, int from,
		 int to, int64_t from_ns, int64_t to_ns, struct pm_legs *out,
		 struct tm_err *e)
{
	const struct pm_dump *pm = &inc->pm;
	struct coll c = { .from = from, .to = to };
	struct slot *tab;
	size_t cap = 1024, i;
	int err;

	memset(out, 0, sizeof(*out));
	if (from < 0 || to < 0 || from >= PM_LEG_NR || to >= PM_LEG_NR || from == to)
		return tm_err_set(e, EINVAL, "two different kinds of event are needed");
	c.global = is_global(from) || is_global(to);
	c.request = is_blk(from) && is_blk(to);
	err = sched_events(&c, pm, e);
	if (err)
		goto out;
	other_events(&c, inc, st, res);
	if (c.oom)
		goto oom;
	if (c.n)	/* c.v is NULL without events: qsort wants a pointer */
		qsort(c.v, c.n, sizeof(*c.v), lev_cmp);
	while (cap < 2 * c.n + 2)
		cap *= 2;
	tab = calloc(cap, sizeof(*tab));
	out->legs = malloc((c.n ? c.n : 1) * sizeof(*out->legs));
	if (!tab || !out->legs) {
		free(tab);
		goto oom;
	}
	for (i = 0; i < c.n; i++) {
		const struct lev *v = &c.v[i];
		struct slot *s = slot_of(tab, cap, v->key);

		if (!v->to) {
			if (!s->open) {
				s->open = 1;
				s->start = v->ts;
				s->owner = v->owner;
			}
			continue;
		}
		if (!s->open)
			continue;
		s->open = 0;
		if (s->start < from_ns || s->start > to_ns)
			continue;
		out->legs[out->n++] = (struct pm_leg){ .owner = s->owner, .start_ns = s->start,
						       .ns = (uint64_t)(v->ts - s->start) };
	}
	for (i = 0; i < cap; i++)
		if (tab[i].used && tab[i].open && tab[i].start >= from_ns && tab[i].start <= to_ns)
			out->unclosed++;
	free(tab);
	free(c.v);
	return 0;
oom:
	err = tm_err_set(e, ENOMEM, "out of memory");
out:
	free(c.v);
	pm_legs_free(out);
	return err;
}

/**
 * pm_legs_free() - release what pm_legs_find() allocated
 * @l: the legs
 */
void pm_legs_free(struct pm_legs *l)
{
	free(l->legs);
	memset(l, 0, sizeof(*l));
}
