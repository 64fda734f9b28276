// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict: charge every nanosecond of a thread's interval to the
 * deepest cause that explains it.
 *
 * Walking the thread's stretches inside the interval:
 *  - running: its own computing (memory if it was reclaiming meanwhile;
 *    a lock's, if it was holding one that the waiter above it needed);
 *  - runnable: the CPU, held by whoever ran there most meanwhile;
 *  - stopped: the stopped task itself (and who continued it);
 *  - blocked, woken by another task: that task's time during the wait is
 *    analysed in turn, clipped to the wait (its time before the wait began
 *    is not ours to charge: RSP's rule); a lock wait is charged the same
 *    way to the lock's holder;
 *  - blocked, woken by an interrupt: the block request completed on the
 *    waking CPU just before (block_io), else a timer if the thread slept
 *    in a sleep call, else unknown;
 *  - the X server running, with the incident's X dump: its time is split
 *    among the clients whose requests it executed meanwhile (xprof.c);
 *    another process's share is x_server with that client the culprit,
 *    the interval's own process's share the server computing for it;
 *  - no record says: unknown.  Never a guess: the dump must support what
 *    is printed, and "unknown" is an honest answer.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/clock.h"
#include "../dump/tables.h"
#include "verdict.h"
#include "xdump.h"
#include "xprof.h"

const char *const pm_cause_key[PM_C_NR] = {
	[PM_C_RUNNING] = "running",
	[PM_C_CPU] = "cpu_contention",
	[PM_C_BLOCK_IO] = "block_io",
	[PM_C_LOCK] = "lock",
	[PM_C_MEMORY] = "memory",
	[PM_C_TIMER] = "timer",
	[PM_C_STOPPED] = "stopped",
	[PM_C_X_SERVER] = "x_server",
	[PM_C_UNKNOWN] = "unknown",
};

#define MAX_DEPTH	6
/*
 * A completion this close before a wakeup on the same CPU caused it; and up
 * to BLK_WAKE_IRQ_NS when both ran in the same kind of interrupt of the
 * same task: the end_io path wakes the waiter in the completion's own
 * interrupt, which an emulated machine can stretch (2.007 ms seen between
 * the two under QEMU TCG, its vCPU thread held up by the host).
 */
#define BLK_WAKE_NS	2000000
#define BLK_WAKE_IRQ_NS	20000000

/* The lock a waiter above us needed while we held it, if any. */
struct held {
	char resource[PM_RES_LEN];
	uint32_t waiter;
};

struct va {
	struct pm_report *r;
	const struct pm_dump *pm;
	const struct pm_state *st;
	const struct pm_res *res;
	size_t cap_items, cap_chain;
	uint32_t stack[MAX_DEPTH + 1];
	int depth;
	int oom;
	const struct xdump *x;	/* the incident's X dump, or NULL */
	uint32_t xserver;	/* the X server's PID, 0 if not known */
	uint32_t ours;		/* the interval's process (its tgid) */
};

static int64_t mono(const struct va *v, uint64_t ts)
{
	return pm_clock_mono(&v->pm->clock, ts);
}

static struct pm_cause_item *charge(struct va *v, int cause, uint32_t culprit,
				    const char *resource, int64_t ns)
{
	struct pm_report *r = v->r;
	struct pm_cause_item *it;
	size_t i;

	if (ns <= 0)
		return NULL;
	if (!resource)
		resource = "";
	for (i = 0; i < r->nitems; i++) {
		it = &r->items[i];
		if (it->cause == cause && it->culprit == culprit &&
		    !strcmp(it->resource, resource)) {
			it->ns += ns;
			return it;
		}
	}
	if (r->nitems == v->cap_items) {
		size_t c = v->cap_items ? v->cap_items * 2 : 16;
		struct pm_cause_item *n = realloc(r->items, c * sizeof(*n));

		if (!n) {
			v->oom = 1;
			return NULL;
		}
		r->items = n;
		v->cap_items = c;
	}
	it = &r->items[r->nitems++];
	memset(it, 0, sizeof(*it));
	it->cause = cause;
	it->culprit = culprit;
	it->prio = -1;
	it->policy = -1;
	snprintf(it->resource, sizeof(it->resource), "%s", resource);
	it->ns = ns;
	return it;
}

static int add_step(struct va *v, int parent, uint32_t pid, int64_t a,
		    int64_t b, int cause, const struct pm_seg *s)
{
	struct pm_report *r = v->r;
	struct pm_chain_step *c;

	if (r->nchain == v->cap_chain) {
		size_t n = v->cap_chain ? v->cap_chain * 2 : 16;
		struct pm_chain_step *p = realloc(r->chain, n * sizeof(*p));

		if (!p) {
			v->oom = 1;
			return -1;
		}
		r->chain = p;
		v->cap_chain = n;
	}
	c = &r->chain[r->nchain];
	memset(c, 0, sizeof(*c));
	c->parent = parent;
	c->pid = pid;
	c->from_ns = a;
	c->to_ns = b;
	c->cause = cause;
	c->seg = s;
	c->waker = s ? s->waker : -1;
	c->waker_ctx = s ? s->waker_ctx : 0;
	return (int)r->nchain++;
}

/*
 * The thread that ran longest on @cpu in [a, b), other than @self, and the
 * priority it ran at (-1 if none ran).
 */
static uint32_t cpu_holder(const struct va *v, uint32_t cpu, uint32_t self,
			   int64_t a, int64_t b, int *prio)
{
	uint32_t best = 0;
	int64_t best_ns = 0;
	size_t i, j;

	*prio = -1;
	for (i = 0; i < v->st->nthreads; i++) {
		const struct pm_thread *t = &v->st->threads[i];
		int64_t sum = 0, most = 0;
		int p = -1;

		if (t->pid == self)
			continue;
		for (j = 0; j < t->nsegs; j++) {
			int64_t o;

			if (t->segs[j].state != PM_T_RUNNING || t->segs[j].cpu != cpu)
				continue;
			o = pm_seg_overlap(v->pm, &t->segs[j], a, b);
			sum += o;
			if (o > most) {
				most = o;
				p = t->segs[j].prio;
			}
		}
		if (sum > best_ns) {
			best_ns = sum;
			best = t->pid;
			*prio = p;
		}
	}
	return best;
}

/* A sleep that only a timer ends: the thread asked for it. */
static const char *sleep_site(const struct va *v, const struct pm_seg *s)
{
	static const char *const sleeps[] = {
		"nanosleep", "hrtimer", "schedule_timeout", "msleep", "usleep",
		"do_sys_poll", "do_select", "ep_poll", "futex_wait",
	};
	uint32_t i;
	size_t k;

	for (i = 0; i < s->nsite; i++) {
		const char *n = pm_sym_name(v->pm, s->site[i], NULL);

		for (k = 0; n && k < sizeof(sleeps) / sizeof(sleeps[0]); k++)
			if (strstr(n, sleeps[k]))
				return n;
	}
	return NULL;
}

static const char *site0(const struct va *v, const struct pm_seg *s)
{
	const char *n = s->nsite ? pm_sym_name(v->pm, s->site[0], NULL) : NULL;

	return n ? n : "";
}

static const char *lock_kind(uint32_t flags)
{
	if (flags & TIPME_LOCK_MUTEX)
		return "mutex";
	if (flags & TIPME_LOCK_RT)
		return "rt_mutex";
	if (flags & TIPME_LOCK_PERCPU)
		return "percpu-rwsem";
	if (flags & (TIPME_LOCK_READ | TIPME_LOCK_WRITE))
		return "rwsem";
	if (flags & TIPME_LOCK_SPIN)
		return "spinlock";
	return "lock";
}

/* The lock wait of @pid covering [a, b), if one was recorded. */
static const struct pm_lockwait *lock_wait(const struct va *v, uint32_t pid,
					   int64_t a, int64_t b)
{
	size_t i;

	for (i = 0; i < v->res->nlocks; i++) {
		const struct pm_lockwait *l = &v->res->locks[i];

		if (l->pid == pid && mono(v, l->start) < b && mono(v, l->end) > a)
			return l;
	}
	return NULL;
}

/* The block request whose completion woke @w (same CPU, just before). */
static const struct pm_blkreq *blk_for_wake(const struct va *v,
					    const struct pm_wake *w)
{
	const struct pm_blkreq *best = NULL;
	size_t i;

	for (i = 0; w && i < v->res->nblk; i++) {
		const struct pm_blkreq *q = &v->res->blk[i];
		int64_t dt;

		if (!q->complete || q->complete_cpu != w->cpu || q->complete > w->ts)
			continue;
		dt = mono(v, w->ts) - mono(v, q->complete);
		if (dt > BLK_WAKE_NS &&
		    (dt > BLK_WAKE_IRQ_NS || q->complete_ctx == TIPME_CTX_TASK ||
		     q->complete_ctx != w->ctx || q->complete_pid != w->waker))
			continue;
		if (!best || q->complete > best->complete)
			best = q;
	}
	return best;
}

/*
 * "block device sda (8:0)" when the dump names the device (tipmed writes
 * blockdev.MAJOR:MINOR=NAME into the system section), else by number.
 */
static void blk_resource(const struct va *v, uint32_t dev, char *res,
			 size_t size)
{
	unsigned int maj = dev >> 20, min = dev & 0xfffff;
	char key[40], name[32];
	const char *p;

	snprintf(key, sizeof(key), "blockdev.%u:%u", maj, min);
	if (!pm_text_get(&v->pm->system, key, name, sizeof(name)) && *name) {
		for (p = name; *p; p++)
			if (!isalnum((unsigned char)*p) && !strchr("._-!", *p))
				break;
		if (!*p) {
			snprintf(res, size, "block device %s (%u:%u)", name,
				 maj, min);
			return;
		}
	}
	snprintf(res, size, "block device %u:%u", maj, min);
}

static void charge_blk(struct va *v, const struct pm_blkreq *q, int64_t ns)
{
	char res[PM_RES_LEN];
	struct pm_cause_item *it;

	blk_resource(v, q->dev, res, sizeof(res));
	it = charge(v, PM_C_BLOCK_IO, q->issuer, res, ns);
	if (it) {
		it->nreq++;
		if (q->issue)
			it->req_ns += mono(v, q->complete) - mono(v, q->issue);
		if (q->insert && q->issue) {
			it->nqueued++;
			it->queue_ns += mono(v, q->issue) - mono(v, q->insert);
		}
	}
}

/* Charge the part of [a, b) that @pid spent reclaiming; returns it. */
static int64_t charge_reclaim(struct va *v, uint32_t pid, int64_t a, int64_t b)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < v->res->nreclaims; i++) {
		const struct pm_reclaim *m = &v->res->reclaims[i];
		int64_t lo = mono(v, m->start), hi = mono(v, m->end);
		struct pm_cause_item *it;

		if (m->pid != pid)
			continue;
		lo = lo > a ? lo : a;
		hi = hi < b ? hi : b;
		if (hi <= lo)
			continue;
		it = charge(v, PM_C_MEMORY, pid,
			    m->kind == TIPME_RECLAIM_DIRECT ? "direct reclaim" :
			    "memory cgroup reclaim", hi - lo);
		if (it) {
			it->nreq++;
			it->pages += m->nr_reclaimed;
		}
		sum += hi - lo;
	}
	return sum;
}

static int on_stack(const struct va *v, uint32_t pid)
{
	int i;

	for (i = 0; i <= v->depth; i++)
		if (v->stack[i] == pid)
			return 1;
	return 0;
}

static void walk(struct va *v, uint32_t pid, int64_t t0, int64_t t1,
		 int parent, const struct held *held);

/* A blocked stretch [a, b) of @t, inside the interval. */
static void blocked(struct va *v, const struct pm_thread *t,
		    const struct pm_seg *s, int64_t a, int64_t b, int parent)
{
	const struct pm_wake *w = NULL;
	const struct pm_lockwait *l;
	const struct pm_blkreq *q;
	struct held h = { "", t->pid };
	const char *sl;
	int64_t rest;
	int step;

	if (s->block_state == TIPME_TS_STOPPED || s->block_state == TIPME_TS_TRACED) {
		struct pm_cause_item *it = charge(v, PM_C_STOPPED, t->pid,
			s->block_state == TIPME_TS_TRACED ? "traced" : "stopped", b - a);

		if (it && s->waker > 0)
			it->other = (uint32_t)s->waker;
		add_step(v, parent, t->pid, a, b, PM_C_STOPPED, s);
		return;
	}
	rest = b - a - charge_reclaim(v, t->pid, a, b);
	if (rest <= 0)
		return;
	l = lock_wait(v, t->pid, a, b);
	if (l) {
		uint32_t holder = l->owner ? l->owner :
			(s->waker > 0 && s->waker_ctx == TIPME_CTX_TASK ?
			 (uint32_t)s->waker : 0);

		snprintf(h.resource, sizeof(h.resource), "%s 0x%" PRIx64,
			 lock_kind(l->flags), l->lock);
		step = add_step(v, parent, t->pid, a, b, PM_C_LOCK, s);
		if (holder && holder != t->pid && v->depth < MAX_DEPTH &&
		    !on_stack(v, holder) && step >= 0) {
			v->r->chain[step].followed = 1;
			v->r->chain[step].waker = holder;
			walk(v, holder, a, b, step, &h);
		} else {
			charge(v, PM_C_LOCK, holder, h.resource, rest);
		}
		return;
	}
	if (s->waker > 0 && s->waker_ctx == TIPME_CTX_TASK &&
	    (uint32_t)s->waker != t->pid) {
		int futex = strstr(site0(v, s), "futex") != NULL;

		if (futex)
			snprintf(h.resource, sizeof(h.resource), "futex");
		step = add_step(v, parent, t->pid, a, b,
				futex ? PM_C_LOCK : PM_C_UNKNOWN, s);
		if (v->depth < MAX_DEPTH && !on_stack(v, (uint32_t)s->waker) &&
		    step >= 0) {
			v->r->chain[step].followed = 1;
			walk(v, (uint32_t)s->waker, a, b, step, futex ? &h : NULL);
		} else {
			charge(v, futex ? PM_C_LOCK : PM_C_UNKNOWN,
			       (uint32_t)s->waker, futex ? "futex" : "", rest);
		}
		return;
	}
	/* woken by an interrupt (or by nothing in the interval) */
	if (s->waker >= 0)
		w = pm_res_wake_at(v->res, t->pid, s->end);
	q = blk_for_wake(v, w);
	if (q) {
		charge_blk(v, q, rest);
		add_step(v, parent, t->pid, a, b, PM_C_BLOCK_IO, s);
		return;
	}
	sl = sleep_site(v, s);
	if (sl && s->block_state == TIPME_TS_SLEEPING) {
		charge(v, PM_C_TIMER, t->pid, sl, rest);
		add_step(v, parent, t->pid, a, b, PM_C_TIMER, s);
		return;
	}
	charge(v, PM_C_UNKNOWN, 0, "", rest);
	add_step(v, parent, t->pid, a, b, PM_C_UNKNOWN, s);
}

/* The process (thread group) of @pid, or @pid if the dump does not say. */
static uint32_t tgid_of(const struct va *v, uint32_t pid, int64_t at)
{
	const struct pm_exec *x = pm_exec_find(v->pm, pid, (uint64_t)(at > 0 ? at : 0));

	return x && x->x.tgid ? x->x.tgid : pid;
}

/*
 * The X server ran [a, b) of a wait [t0, t1) that led into it: split the
 * run among the clients in proportion to the server time their requests
 * took in [t0, t1) (@xp, computed once per wait).  Another process's share
 * is x_server, that client to blame; the interval's own process's share,
 * and what no request explains, is the server computing.
 */
static void charge_xserver(struct va *v, const struct pm_xprof *xp,
			   int64_t a, int64_t b)
{
	int64_t total = 0, left = b - a;
	char res[PM_RES_LEN];
	size_t i;

	for (i = 0; xp && i < xp->nclients; i++)
		if (xp->clients[i].server_ns > 0 && total < INT64_MAX - xp->clients[i].server_ns)
			total += xp->clients[i].server_ns;
	snprintf(res, sizeof(res), "X server %u", v->xserver);
	for (i = 0; total > 0 && i < xp->nclients; i++) {
		const struct pm_xprof_client *c = &xp->clients[i];
		struct pm_cause_item *it;
		int64_t part;

		if (c->server_ns <= 0 || (c->pid && c->pid == v->ours) ||
		    c->id == TIPME_X11_CLIENT_SERVER)
			continue;
		part = (int64_t)((double)(b - a) * (double)c->server_ns / (double)total);
		if (part > left)
			part = left;
		it = charge(v, PM_C_X_SERVER, c->pid, res, part);
		if (it)
			it->other = v->xserver;
		left -= part;
	}
	charge(v, PM_C_RUNNING, v->xserver, "", left);
}

/* Charge [t0, t1) of @pid's time; @held: it held a lock for a waiter. */
static void walk(struct va *v, uint32_t pid, int64_t t0, int64_t t1,
		 int parent, const struct held *held)
{
	const struct pm_thread *t = pm_state_thread(v->st, pid);
	struct pm_xprof xp = { 0 };
	int64_t pos = t0;
	int have_xp = 0;
	size_t j;

	v->stack[++v->depth] = pid;
	for (j = 0; t && j < t->nsegs && !v->oom; j++) {
		const struct pm_seg *s = &t->segs[j];
		int64_t a = mono(v, s->start), b = mono(v, s->end);
		struct pm_cause_item *it;
		char res[PM_RES_LEN];
		uint32_t culprit;
		int prio;

		a = a > t0 ? a : t0;
		b = b < t1 ? b : t1;
		if (b <= a)
			continue;
		if (a > pos)
			charge(v, PM_C_UNKNOWN, 0, "", a - pos);
		pos = b > pos ? b : pos;
		switch (s->state) {
		case PM_T_RUNNING:
			b -= charge_reclaim(v, pid, a, b);
			if (held) {
				charge(v, PM_C_LOCK, pid, held->resource, b - a);
			} else if (v->x && pid == v->xserver) {
				if (!have_xp) {
					if (pm_xprof_analyse(v->x, NULL, NULL, t0, t1, &xp))
						v->oom = 1;
					have_xp = 1;
				}
				charge_xserver(v, &xp, a, b);
			} else {
				charge(v, PM_C_RUNNING, pid, "", b - a);
			}
			break;
		case PM_T_RUNNABLE:
			snprintf(res, sizeof(res), "cpu %u", s->cpu);
			culprit = cpu_holder(v, s->cpu, pid, a, b, &prio);
			it = charge(v, PM_C_CPU, culprit, res, b - a);
			if (it && prio >= 0)
				it->prio = prio;
			if (it && culprit)
				it->policy = pm_res_policy(v->res, culprit);
			if (b - a >= 1000000)
				add_step(v, parent, pid, a, b, PM_C_CPU, s);
			break;
		case PM_T_BLOCKED:
			if (s->block_state == TIPME_TS_DEAD ||
			    s->block_state == TIPME_TS_ZOMBIE)
				charge(v, PM_C_UNKNOWN, 0, "exited", b - a);
			else
				blocked(v, t, s, a, b, parent);
			break;
		default:
			charge(v, PM_C_UNKNOWN, 0, "", b - a);
		}
	}
	if (t1 > pos)
		charge(v, PM_C_UNKNOWN, 0, "", t1 - pos);
	pm_xprof_free(&xp);
	v->depth--;
}

static int item_cmp(const void *a, const void *b)
{
	const struct pm_cause_item *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->cause - y->cause;
}

/**
 * pm_report_analyse() - charge a thread's interval to causes
 * @r: result; release with pm_report_free()
 * @inc: the incident
 * @st: its state
 * @res: its resource waits
 * @pid: the thread
 * @from_ns: start of the interval, CLOCK_MONOTONIC ns
 * @to_ns: its end
 * @e: error message
 *
 * Every nanosecond of [@from_ns, @to_ns) is charged to exactly one item,
 * so the items add up to the interval; what the dump cannot explain is a
 * PM_C_UNKNOWN item.  @r->chosen_by is left to the caller.
 *
 * Return: 0 or -ENOMEM.
 */
int pm_report_analyse(struct pm_report *r, const struct pm_incident *inc,
		      const struct pm_state *st, const struct pm_res *res,
		      const struct pm_report_x *xin, uint32_t pid,
		      int64_t from_ns, int64_t to_ns, struct tm_err *e)
{
	const struct pm_dump *pm = &inc->pm;
	struct va v = { .r = r, .pm = pm, .st = st, .res = res, .depth = -1 };
	int64_t mid = to_ns;
	size_t i;
	int step;

	memset(r, 0, sizeof(*r));
	r->pid = pid;
	r->from_ns = from_ns;
	r->to_ns = to_ns;
	r->lost = st->lost;
	if (xin && xin->x) {
		v.x = xin->x;
		v.xserver = pm_xserver_pid(xin->x);
		v.ours = tgid_of(&v, pid, from_ns);
		if (v.xserver && xin->display_ns > from_ns && xin->display_ns < to_ns)
			mid = xin->display_ns;
	}
	r->display_ns = mid < to_ns ? mid : 0;
	if (mid > from_ns)
		walk(&v, pid, from_ns, mid, -1, NULL);
	if (mid < to_ns && !v.oom) {
		/* the client was done: the rest is the server drawing for it */
		step = add_step(&v, -1, pid, mid, to_ns, PM_C_X_SERVER, NULL);
		if (step >= 0) {
			r->chain[step].followed = 1;
			r->chain[step].waker = v.xserver;
			v.stack[0] = pid;
			v.depth = 0;
			walk(&v, v.xserver, mid, to_ns, step, NULL);
		}
	}
	if (v.oom) {
		pm_report_free(r);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	if (r->nitems)
		qsort(r->items, r->nitems, sizeof(*r->items), item_cmp);
	for (i = 0; i < r->nitems; i++)
		if (r->items[i].cause == PM_C_UNKNOWN)
			r->unknown_ns += r->items[i].ns;
	return 0;
}

/**
 * pm_seg_cause() - what one stretch of a thread was, by the verdict's rules
 * @inc: the incident
 * @res: its resources
 * @pid: the thread
 * @s: one of its stretches
 * @xserver: the X server's PID (0: not known)
 *
 * The rules of the walk above for a single stretch, without following
 * wakers: for pictures and tables that colour each stretch.
 *
 * Return: enum pm_cause: running (memory if it was reclaiming),
 * cpu_contention (runnable), stopped, lock (a recorded lock wait, or a
 * futex a task ended), memory, block_io (a completion on the waking CPU
 * just before), x_server (the X server woke it), timer (a sleep call an
 * interrupt ended), unknown (woken by another task: what it waited for is
 * that task's; or nothing says).
 */
int pm_seg_cause(const struct pm_incident *inc, const struct pm_res *res,
		 uint32_t pid, const struct pm_seg *s, uint32_t xserver)
{
	const struct pm_dump *pm = &inc->pm;
	struct va v = { .pm = pm, .res = res };
	int64_t a = mono(&v, s->start), b = mono(&v, s->end);
	const struct pm_wake *w;
	size_t i;

	for (i = 0; i < res->nreclaims && s->state != PM_T_RUNNABLE; i++) {
		const struct pm_reclaim *m = &res->reclaims[i];

		if (m->pid == pid && mono(&v, m->start) < b && mono(&v, m->end) > a)
			return PM_C_MEMORY;
	}
	switch (s->state) {
	case PM_T_RUNNING:
		return PM_C_RUNNING;
	case PM_T_RUNNABLE:
		return PM_C_CPU;
	case PM_T_BLOCKED:
		break;
	default:
		return PM_C_UNKNOWN;
	}
	if (s->block_state == TIPME_TS_STOPPED || s->block_state == TIPME_TS_TRACED)
		return PM_C_STOPPED;
	if (lock_wait(&v, pid, a, b))
		return PM_C_LOCK;
	if (s->waker > 0 && s->waker_ctx == TIPME_CTX_TASK) {
		if (xserver && (uint32_t)s->waker == xserver)
			return PM_C_X_SERVER;
		return strstr(site0(&v, s), "futex") ? PM_C_LOCK : PM_C_UNKNOWN;
	}
	w = s->waker >= 0 ? pm_res_wake_at(res, pid, s->end) : NULL;
	if (blk_for_wake(&v, w))
		return PM_C_BLOCK_IO;
	if (sleep_site(&v, s) && s->block_state == TIPME_TS_SLEEPING)
		return PM_C_TIMER;
	return PM_C_UNKNOWN;
}

/*
 * Woken by a child of its process (a shell reading a command's output,
 * make waiting for a compiler): waiting for work it handed out, not a
 * stall of its own; the child's own stalls are candidates.
 */
static int waits_for_child(const struct pm_dump *pm, uint32_t pid,
			   const struct pm_seg *s)
{
	const struct pm_exec *me, *w;

	if (s->waker <= 0 || s->waker_ctx != TIPME_CTX_TASK)
		return 0;
	me = pm_exec_find(pm, pid, s->start);
	w = pm_exec_find(pm, (uint32_t)s->waker, s->end);
	return me && w && w->x.ppid == me->x.tgid && w->x.tgid != me->x.tgid;
}

/**
 * pm_seg_idle() - a wait for work: poll, select, epoll, a worker's queue ...
 * @inc: the incident
 * @s: a blocked stretch
 *
 * Time an idle thread spends waiting for work is not a stall.
 *
 * Return: 1 if @s is one, else 0.
 */
int pm_seg_idle(const struct pm_incident *inc, const struct pm_seg *s)
{
	const struct pm_dump *pm = &inc->pm;
	static const char *const idle[] = {
		"do_wait", "poll", "select", "ep_poll", "worker_thread",
		"smpboot_thread", "kthreadd", "rcu_gp", "kswapd", "do_sigtimedwait",
	};
	uint32_t i;
	size_t k;

	for (i = 0; i < s->nsite; i++) {
		const char *n = pm_sym_name(pm, s->site[i], NULL);

		for (k = 0; n && k < sizeof(idle) / sizeof(idle[0]); k++)
			if (strstr(n, idle[k]))
				return 1;
	}
	return 0;
}

/**
 * pm_report_longest_stall() - the longest stall of any thread in an interval
 * @inc: the incident
 * @st: its state
 * @from_ns: where to look, CLOCK_MONOTONIC ns
 * @to_ns: up to
 * @pid: the stalled thread
 * @a: start of its stall
 * @b: end
 *
 * A stall is a stretch a thread spent waiting for something other than
 * work: runnable, in uninterruptible sleep, or asleep until another task
 * woke it, but not an idle wait (poll, select, epoll, waiting for a child,
 * reading what a child writes, a kernel worker's queue); kernel threads are
 * not candidates (a task's chain reaches them when they matter).  Used when no input and no pid says which
 * moment matters; the weakest of the three choices, and said so.
 *
 * Return: 1 if one was found, else 0.
 */
int pm_report_longest_stall(const struct pm_incident *inc, const struct pm_state *st,
			    int64_t from_ns, int64_t to_ns, uint32_t *pid,
			    int64_t *a, int64_t *b)
{
	const struct pm_dump *pm = &inc->pm;
	int64_t best = 0;
	size_t i, j;

	for (i = 0; i < st->nthreads; i++) {
		const struct pm_thread *t = &st->threads[i];
		const struct pm_exec *x = t->nsegs ?
			pm_exec_find(pm, t->pid, t->segs[t->nsegs - 1].start) : NULL;

		/* a kernel thread's waits are its work queue's; its stalls show in a task's chain */
		if (x && (x->x.flags & TIPME_EXEC_KTHREAD))
			continue;
		for (j = 0; j < t->nsegs; j++) {
			const struct pm_seg *s = &t->segs[j];
			int64_t s0 = pm_clock_mono(&pm->clock, s->start);
			int64_t s1 = pm_clock_mono(&pm->clock, s->end);
			int stall;

			s0 = s0 > from_ns ? s0 : from_ns;
			s1 = s1 < to_ns ? s1 : to_ns;
			if (s1 - s0 <= best)
				continue;
			stall = s->state == PM_T_RUNNABLE ||
				(s->state == PM_T_BLOCKED && !pm_seg_idle(inc, s) &&
				 !waits_for_child(pm, t->pid, s) &&
				 (s->block_state == TIPME_TS_DISK ||
				  (s->block_state == TIPME_TS_SLEEPING && s->waker > 0 &&
				   s->waker_ctx == TIPME_CTX_TASK)));
			if (!stall)
				continue;
			best = s1 - s0;
			*pid = t->pid;
			*a = s0;
			*b = s1;
		}
	}
	return best > 0;
}

/* The reader's wakeup is this close to an input record, on its CPU. */
#define INPUT_BEFORE_NS	1000000
#define INPUT_WAKE_NS	2000000
/* ... or the CPU was held up that long at most (see late_reader()) */
#define INPUT_LATE_NS	250000000
/* The module stamps an auto trigger's press just before the input record. */
#define AUTO_PRESS_NS	2000000

static uint64_t dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* @pid ran on @cpu without a break from @t0 to @t1 (recorder time). */
static int ran_through(const struct pm_state *st, uint32_t pid, uint32_t cpu,
		       uint64_t t0, uint64_t t1)
{
	const struct pm_thread *th = pm_state_thread(st, pid);
	size_t j;

	for (j = 0; th && j < th->nsegs; j++) {
		const struct pm_seg *sg = &th->segs[j];

		if (sg->start > t0)
			break;
		if (sg->state == PM_T_RUNNING && sg->cpu == cpu && sg->end >= t1)
			return 1;
	}
	return 0;
}

/*
 * The reader's wakeup for input @in, when none is near it in time: a
 * frame goes to every handler in one call with interrupts off, so the
 * wakeup evdev makes can come later only if the CPU itself was held up
 * (a virtual CPU the host did not run, up to INPUT_LATE_NS).  Then it
 * is the first user
 * thread's wakeup after the record on that CPU by the task that was on
 * the CPU, which ran without a break from the record to that wakeup.
 */
static const struct pm_wake *late_reader(const struct pm_dump *pm,
					 const struct pm_state *st,
					 const struct pm_res *res, size_t lo,
					 const struct pm_input *in)
{
	size_t i;

	for (i = lo; i < res->nwakes; i++) {
		const struct pm_wake *w = &res->wakes[i];
		const struct pm_exec *x;

		if (pm_clock_mono(&pm->clock, w->ts) >
		    pm_clock_mono(&pm->clock, in->ts) + INPUT_LATE_NS)
			break;
		if (w->ts < in->ts || w->cpu != in->cpu)
			continue;
		if (!w->waker || !ran_through(st, w->waker, in->cpu, in->ts, w->ts))
			return NULL;
		x = pm_exec_find(pm, w->target, w->ts);
		if (!x || !(x->x.flags & TIPME_EXEC_KTHREAD))
			return w;
	}
	return NULL;
}

/**
 * pm_report_kernel_input() - the slowest input the kernel saw, without X
 * @inc: the incident
 * @st: its state
 * @res: its resources (the wakeups)
 * @from_ns: CLOCK_MONOTONIC start of the window searched
 * @to_ns: its end
 * @press_ns: 0, or the press the module's auto trigger fired on: then only
 *	the input recorded within 2 ms of it counts
 * @pid: set to the thread the slowest input woke
 * @a: set to the input's time
 * @b: set to when that thread went back to sleep
 *
 * For a dump without an X dump: every key or button press and pointer
 * motion frame the kernel recorded in the window, the user thread woken
 * nearest to it on the same CPU (from 1 ms before to 2 ms after, or
 * later as late_reader() allows: the reader of the event device, e.g.
 * the X server, a compositor, a console program, woken by evdev in the
 * same frame; kernel threads are left out), and the time
 * until that thread waits for work again (poll, select, epoll: the sites
 * pm_seg_idle() knows).  This ends when the reader is done with
 * the event, not when the screen shows its effect: the weaker definition.
 *
 * Return: 2 if @press_ns named an input with a reader, 1 if another
 * input with a reader was found, else 0.
 */
int pm_report_kernel_input(const struct pm_incident *inc, const struct pm_state *st,
			   const struct pm_res *res, int64_t from_ns,
			   int64_t to_ns, int64_t press_ns, uint32_t *pid,
			   int64_t *a, int64_t *b)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_wake *near;
	const struct pm_thread *th;
	int64_t best = 0;
	size_t k, lo = 0, i, j;

	for (k = 0; k < res->ninputs; k++) {
		const struct pm_input *in = &res->inputs[k];
		int64_t t = pm_clock_mono(&pm->clock, in->ts);

		if (t < from_ns || t > to_ns ||
		    (press_ns && (uint64_t)dist((uint64_t)t, (uint64_t)press_ns) > AUTO_PRESS_NS))
			continue;
		if (!((in->kind == TIPME_INPUT_KEY || in->kind == TIPME_INPUT_BUTTON) &&
		      in->value == 1) && in->kind != TIPME_INPUT_MOTION)
			continue;
		/*
		 * The input core hands a frame to its handlers in order at
		 * SYN_REPORT: evdev, which wakes the reader, usually before
		 * ours, which writes the record.  So the reader's wakeup is
		 * the one nearest the record on its CPU, either side.
		 */
		while (lo < res->nwakes &&
		       pm_clock_mono(&pm->clock, res->wakes[lo].ts) + INPUT_BEFORE_NS < t)
			lo++;
		near = NULL;
		for (i = lo; i < res->nwakes &&
		     pm_clock_mono(&pm->clock, res->wakes[i].ts) <= t + INPUT_WAKE_NS; i++) {
			const struct pm_wake *w = &res->wakes[i];
			const struct pm_exec *x;

			if (w->cpu != in->cpu)
				continue;
			/* kernel threads (softirq, workqueues) do not read input */
			x = pm_exec_find(pm, w->target, w->ts);
			if (x && (x->x.flags & TIPME_EXEC_KTHREAD))
				continue;
			if (!near || dist(w->ts, in->ts) < dist(near->ts, in->ts))
				near = w;
		}
		if (!near)
			near = late_reader(pm, st, res, lo, in);
		th = near ? pm_state_thread(st, near->target) : NULL;
		for (j = 0; th && j < th->nsegs; j++) {
			const struct pm_seg *sg = &th->segs[j];
			int64_t end;

			/* back to waiting for the next event (poll, select, ...) */
			if (sg->start <= near->ts || sg->state != PM_T_BLOCKED ||
			    !pm_seg_idle(inc, sg))
				continue;
			end = pm_clock_mono(&pm->clock, sg->start);
			if (end - t > best) {
				best = end - t;
				*pid = near->target;
				*a = t;
				*b = end;
			}
			break;
		}
	}
	return best > 0 ? (press_ns ? 2 : 1) : 0;
}

/**
 * pm_report_free() - release what pm_report_analyse() allocated
 * @r: the report
 */
void pm_report_free(struct pm_report *r)
{
	free(r->items);
	free(r->chain);
	memset(r, 0, sizeof(*r));
}
