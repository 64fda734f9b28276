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

/*
 * Scheduler events, from the records of [@lo, @hi) in time order; with
 * @presses, the key and button presses too (into @presses: the whole
 * dump's come from its resources, after the scheduler's).
 */
static int sched_events(struct coll *c, const struct pm_incident *inc, int64_t lo,
			int64_t hi, struct coll *presses, struct tm_err *e)
{
	struct pm_merge mg;
	struct pm_event ev;
	int err, gaps;

	if (c->from > PM_LEG_SLEEP && c->to > PM_LEG_SLEEP && !presses)
		return 0;
	err = pm_state_merge_open(&mg, inc, lo, hi == INT64_MAX ? hi : hi - 1, &gaps, e);
	if (err)
		return err;
	while (!c->oom && (err = pm_merge_next(&mg, &ev, e)) > 0) {
		int64_t t = ev.ns;

		if (ev.kind != PM_EV_RECORD || !ev.rt || !ev.rt->our_size || t < lo ||
		    (hi != INT64_MAX && t >= hi))
			continue;
		if (presses && ev.type == TIPME_REC_INPUT && ev.u.in.value == 1 &&
		    (ev.u.in.kind == TIPME_INPUT_KEY || ev.u.in.kind == TIPME_INPUT_BUTTON))
			add(presses, PM_LEG_INPUT, t, 0, 0);
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
	if (presses && presses->oom)
		c->oom = 1;
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

/* X dump record @r: a key or button press. */
static int x_press(const struct tipme_x11_rec *r)
{
	return r->kind == TIPME_X11_DEVICE && (r->major == 2 || r->major == 4) &&
	       r->time_ns <= INT64_MAX;
}

/* The X dump's presses in [@lo, @hi). */
static void x_presses(struct coll *c, const struct tm_xdump *x, int64_t lo, int64_t hi)
{
	size_t i;

	for (i = 0; i < x->recs.count; i++) {
		struct tipme_x11_rec r;

		tm_xdump_rec(x, (uint32_t)i, &r);
		if (x_press(&r) && (int64_t)r.time_ns >= lo &&
		    (hi == INT64_MAX || (int64_t)r.time_ns < hi))
			add(c, PM_LEG_X_PRESS, (int64_t)r.time_ns, 0,
			    receiver(x, (uint32_t)i, &r));
	}
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
	x_presses(c, x, INT64_MIN, INT64_MAX);
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

/* The keys' legs: @tab (@cap slots, a power of two) and the legs found. */
struct pairs {
	struct slot *tab;
	size_t cap;
	int64_t from_ns, to_ns;
	struct pm_legs *out;
};

/* Room for @keys keys and the legs of @c's events. */
static int pairs_new(struct pairs *p, const struct coll *c, size_t keys, struct pm_legs *out)
{
	p->cap = 1024;
	while (p->cap < 2 * (c->n + keys) + 2)
		p->cap *= 2;
	p->tab = calloc(p->cap, sizeof(*p->tab));
	p->out = out;
	out->legs = malloc((c->n ? c->n : 1) * sizeof(*out->legs));
	return p->tab && out->legs ? 0 : -ENOMEM;
}

static void leg(struct pairs *p, const struct slot *s, int64_t end)
{
	if (s->start >= p->from_ns && s->start <= p->to_ns)
		p->out->legs[p->out->n++] = (struct pm_leg){ .owner = s->owner,
							     .start_ns = s->start,
							     .ns = (uint64_t)(end - s->start) };
}

/* @c's events, sorted, against the keys' legs. */
static void pairs_run(struct pairs *p, struct coll *c)
{
	size_t i;

	if (c->n)	/* c.v is NULL without events: qsort wants a pointer */
		qsort(c->v, c->n, sizeof(*c->v), lev_cmp);
	for (i = 0; i < c->n; i++) {
		const struct lev *v = &c->v[i];
		struct slot *s = slot_of(p->tab, p->cap, v->key);

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
		leg(p, s, v->ts);
	}
}

/* The legs still open, begun in the range. */
static void pairs_end(struct pairs *p)
{
	size_t i;

	for (i = 0; i < p->cap; i++)
		if (p->tab[i].used && p->tab[i].open && p->tab[i].start >= p->from_ns &&
		    p->tab[i].start <= p->to_ns)
			p->out->unclosed++;
	free(p->tab);
}

static void open_before(struct pairs *p, const struct pm_incident *inc, const struct coll *c,
			const struct pm_ckpt_evs *b);
static void close_after(struct pairs *p, const struct pm_incident *inc, const struct coll *c,
			const struct pm_ckpt_evs *a);

/*
 * @c's legs that begin in [@from_ns, @to_ns]; with checkpoints, those
 * open at @b (where @c's events begin) and closing after @a (where they
 * end) as they tell.
 */
static int pair_up(struct coll *c, const struct pm_incident *inc, const struct pm_ckpt_evs *b,
		   const struct pm_ckpt_evs *a, int64_t from_ns, int64_t to_ns,
		   struct pm_legs *out, struct tm_err *e)
{
	struct pairs p = { .from_ns = from_ns, .to_ns = to_ns };

	if (c->oom || pairs_new(&p, c, b ? b->nthreads + 1 : 0, out)) {
		free(p.tab);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	if (b)
		open_before(&p, inc, c, b);
	pairs_run(&p, c);
	if (a)
		close_after(&p, inc, c, a);
	pairs_end(&p);
	return 0;
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
	struct coll c = { .from = from, .to = to };
	int err;

	memset(out, 0, sizeof(*out));
	if (from < 0 || to < 0 || from >= PM_LEG_NR || to >= PM_LEG_NR || from == to)
		return tm_err_set(e, EINVAL, "two different kinds of event are needed");
	c.global = is_global(from) || is_global(to);
	c.request = is_blk(from) && is_blk(to);
	err = sched_events(&c, inc, INT64_MIN, INT64_MAX, NULL, e);
	if (!err) {
		other_events(&c, inc, st, res);
		err = pair_up(&c, inc, NULL, NULL, from_ns, to_ns, out, e);
	}
	free(c.v);
	if (err)
		pm_legs_free(out);
	return err;
}

_Static_assert((int)PM_LEG_WAKING == (int)TIPME_CKPT_EV_WAKING &&
	       (int)PM_LEG_SWITCH_IN == (int)TIPME_CKPT_EV_SWITCH_IN &&
	       (int)PM_LEG_SWITCH_OUT == (int)TIPME_CKPT_EV_SWITCH_OUT &&
	       (int)PM_LEG_SLEEP == (int)TIPME_CKPT_EV_SLEEP,
	       "the scheduler's leg events are the checkpoints' first four");

/* The checkpoints' enum tipme_ckpt_ev of a kind pm_legs_bounded() takes. */
static int ckpt_ev(int k)
{
	return k == PM_LEG_INPUT ? TIPME_CKPT_EV_PRESS : k;
}

int pm_legs_bounded(int from, int to)
{
	return (from <= PM_LEG_SLEEP || from == PM_LEG_INPUT || from == PM_LEG_X_PRESS) &&
	       (to <= PM_LEG_SLEEP || to == PM_LEG_INPUT || to == PM_LEG_X_PRESS);
}

/*
 * The X dump's last press before @ns (@after 0) or its first at or after
 * it (@after 1): its time, or 0.
 */
static int64_t x_press_near(const struct tm_xdump *x, int64_t ns, int after)
{
	int64_t best = 0;
	size_t i;

	for (i = 0; x && i < x->recs.count; i++) {
		struct tipme_x11_rec r;
		int64_t t;

		tm_xdump_rec(x, (uint32_t)i, &r);
		if (!x_press(&r))
			continue;
		t = (int64_t)r.time_ns;
		if (after ? t >= ns && (!best || t < best) : t < ns && t > best)
			best = t;
	}
	return best;
}

/* The machine's last event of kind @k before checkpoint @c, or its first at or after it. */
static int64_t machine_ev(const struct pm_incident *inc, const struct pm_ckpt_evs *c,
			  int k, int after)
{
	if (k == PM_LEG_X_PRESS)
		return x_press_near(pm_incident_x(inc), c->ns, after);
	return after ? c->next[ckpt_ev(k)] : c->last[ckpt_ev(k)];
}

/* Find-only slot_of(). */
static struct slot *slot_find(const struct pairs *p, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (p->cap - 1);

	while (p->tab[i].used && p->tab[i].key != key)
		i = (i + 1) & (p->cap - 1);
	return p->tab[i].used ? &p->tab[i] : NULL;
}

/*
 * The keys whose leg is open at checkpoint @b: a key's leg is open after
 * its last event of the two kinds if that one opens a leg (an open while
 * open is ignored, so is a close while closed), and of two at one time
 * the close counts last.  Begun before the range, it is not one of its
 * legs: only what it keeps closed counts.
 */
static void open_before(struct pairs *p, const struct pm_incident *inc, const struct coll *c,
			const struct pm_ckpt_evs *b)
{
	size_t i;

	if (b->ns == INT64_MIN)
		return;
	if (c->global) {
		if (machine_ev(inc, b, c->from, 0) > machine_ev(inc, b, c->to, 0))
			*slot_of(p->tab, p->cap, 0) = (struct slot){ .key = 0, .start = INT64_MIN,
								     .used = 1, .open = 1 };
		return;
	}
	for (i = 0; i < b->nthreads; i++) {
		const struct pm_thread *t = &b->threads[i];

		if (t->ev_last[c->from] > t->ev_last[c->to])
			*slot_of(p->tab, p->cap, t->pid) = (struct slot){
				.key = t->pid, .start = INT64_MIN, .used = 1, .open = 1 };
	}
	/* pid 0's wakeups: the only events of key 0 */
	if (c->from == PM_LEG_WAKING && b->last[TIPME_CKPT_EV_WAKING0])
		*slot_of(p->tab, p->cap, 0) = (struct slot){ .key = 0, .start = INT64_MIN,
							     .used = 1, .open = 1 };
}

/*
 * The legs still open at checkpoint @a, where the records read end:
 * each closes at its key's first event of the closing kind at or after
 * it (an open before that is ignored).
 */
static void close_after(struct pairs *p, const struct pm_incident *inc, const struct coll *c,
			const struct pm_ckpt_evs *a)
{
	struct slot *s;
	int64_t t;
	size_t i;

	if (a->ns == INT64_MAX)
		return;
	if (c->global) {
		s = slot_find(p, 0);
		t = machine_ev(inc, a, c->to, 1);
		if (s && s->open && t) {
			s->open = 0;
			leg(p, s, t);
		}
		return;
	}
	for (i = 0; i < a->nthreads; i++) {
		t = a->threads[i].ev_next[c->to];
		s = t ? slot_find(p, a->threads[i].pid) : NULL;
		if (s && s->open) {
			s->open = 0;
			leg(p, s, t);
		}
	}
}

/**
 * pm_legs_find_ckpt() - pm_legs_find() of a time range, from the
 *	checkpoints around it
 * @inc: the incident
 * @ck: its checkpoints (pm_ckpts_grid(), pm_ckpts_load())
 * @from: enum pm_leg_event that opens a leg
 * @to: enum pm_leg_event that closes it; pm_legs_bounded(@from, @to)
 * @from_ns: as pm_legs_find()'s
 * @to_ns: as pm_legs_find()'s
 * @out: the legs; release with pm_legs_free()
 * @e: error message
 *
 * Reads the records from the last checkpoint at or before @from_ns to the
 * first after @to_ns only; which keys have a leg open where they begin,
 * and where the legs still open where they end close, come from those
 * two checkpoints.  The legs are pm_legs_find()'s (in another order).
 *
 * Return: 0 or a negative errno (-EINVAL for two kinds it does not take).
 */
int pm_legs_find_ckpt(const struct pm_incident *inc, const struct pm_ckpts *ck, int from,
		      int to, int64_t from_ns, int64_t to_ns, struct pm_legs *out,
		      struct tm_err *e)
{
	struct coll c = { .from = from, .to = to }, presses = { .from = from, .to = to };
	const struct tm_xdump *x = pm_incident_x(inc);
	struct pm_ckpt_evs b, a;
	int err;

	memset(out, 0, sizeof(*out));
	if (from < 0 || to < 0 || from >= PM_LEG_NR || to >= PM_LEG_NR || from == to ||
	    !pm_legs_bounded(from, to))
		return tm_err_set(e, EINVAL, "not two kinds of event a range's legs are found of");
	c.global = presses.global = is_global(from) || is_global(to);
	pm_ckpts_evs(ck, from_ns, to_ns < from_ns ? from_ns : to_ns, &b, &a);
	/* the whole dump's order: the scheduler's, then the presses, then the X dump's */
	err = sched_events(&c, inc, b.ns, a.ns, c.global ? &presses : NULL, e);
	if (!err) {
		size_t i;

		for (i = 0; i < presses.n && !c.oom; i++)
			add(&c, PM_LEG_INPUT, presses.v[i].ts, 0, 0);
		if (x && (from == PM_LEG_X_PRESS || to == PM_LEG_X_PRESS))
			x_presses(&c, x, b.ns, a.ns);
		err = pair_up(&c, inc, &b, &a, from_ns, to_ns, out, e);
	}
	free(c.v);
	free(presses.v);
	if (err)
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
