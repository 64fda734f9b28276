// SPDX-License-Identifier: GPL-2.0
/*
 * Ranking the stalls of a window by how likely a person felt them
 * (rank.h).  A stall (stall.c: pm_seg_stall()) of a thread counts
 * more when
 *
 *   - the incident's description names its process (the user said so);
 *   - its process is interactive: it received input (an X dump's key or
 *     button event, or the kernel input record whose delivery woke it) or
 *     is a client of the X server (the X dump's client list);
 *   - an interactive thread waited for it, directly or through a chain of
 *     waits (a task asleep during the stall that this thread woke, and who
 *     waited for that task in turn, up to CHAIN_DEPTH hops);
 *
 * and least when no other task waited for it at all.  Within a tier the
 * longer stall ranks first.  Each thread offers its best stall once.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/clock.h"
#include "../dump/tables.h"
#include "kinput.h"
#include "rank.h"
#include "stall.h"

/* How many hops of waiting the chain back to an interactive thread follows. */
#define CHAIN_DEPTH	4
/* ... and how many waits it looks at for one stall, at most. */
#define CHAIN_SEEN	64

/*
 * Stalls shorter than this are judged (their waiters looked up) only for
 * a thread that has no longer one: nobody feels them, and a busy dump has
 * millions.
 */
#define FELT_NS		1000000

/* X event codes (the X11 protocol's) that are a person's input. */
#define X_KEY_PRESS	2
#define X_BUTTON_PRESS	4

struct ia {
	uint32_t tgid;
	unsigned int why;	/* PM_WHY_INPUT, PM_WHY_XCLIENT */
};

/* A blocked stretch that a task's wakeup ended: seg @si of thread @ti. */
/*
 * A sleep another task's wakeup ended, its times kept here too: a
 * waker's sleeps are in time order (of their start) with the latest end
 * so far (@reach_ns), so waiters() finds those inside a hop by two
 * searches in one array, not by a walk through every sleeper's stretches.
 */
struct wx {
	uint32_t waker;
	uint32_t ti;
	size_t si;
	int64_t start_ns;
	int64_t end_ns;
	int64_t reach_ns;
};

/* The sleeps one hop of waiters() found, put back in the order it takes them. */
struct hits {
	struct wx *v;
	size_t n, cap;
};

struct ctx {
	const struct pm_incident *inc;
	const struct pm_state *st;
	const char *hint;
	struct ia *ia;
	size_t nia, cap;
	struct wx *wx;
	size_t nwx;
	struct hits *hits;
};

static uint32_t tgid_of(const struct pm_dump *pm, uint32_t pid, int64_t ns)
{
	const struct pm_exec *x = pm_exec_at(pm, pid, ns);

	return x ? x->x.tgid : pid;
}

static int kthread(const struct pm_dump *pm, uint32_t pid, int64_t ns)
{
	const struct pm_exec *x = pm_exec_at(pm, pid, ns);

	return x && (x->x.flags & TIPME_EXEC_KTHREAD);
}

static int ia_add(struct ctx *c, uint32_t tgid, unsigned int why)
{
	size_t i;

	if (!tgid)
		return 0;
	for (i = 0; i < c->nia; i++)
		if (c->ia[i].tgid == tgid) {
			c->ia[i].why |= why;
			return 0;
		}
	if (c->nia == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct ia *p = realloc(c->ia, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		c->ia = p;
		c->cap = cap;
	}
	c->ia[c->nia++] = (struct ia){ tgid, why };
	return 0;
}

static unsigned int ia_why(const struct ctx *c, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < c->nia; i++)
		if (c->ia[i].tgid == tgid)
			return c->ia[i].why;
	return 0;
}

/**
 * pm_hint_names() - does a description name a process
 * @hint: the description (the user's words), or NULL
 * @comm: the process's or thread's name
 *
 * A word of @hint (letters, digits, '-', '_', '.', '+') equal to @comm,
 * ignoring case; a word longer than a kernel task name (15 bytes) names
 * the task whose name is its first 15 bytes.
 *
 * Return: 1 if it does, else 0.
 */
int pm_hint_names(const char *hint, const char *comm)
{
	size_t n = comm ? strlen(comm) : 0, w;
	const char *p = hint;

	if (!p || !n)
		return 0;
	while (*p) {
		for (w = 0; p[w] && (isalnum((unsigned char)p[w]) ||
				     strchr("-_.+", p[w])); w++)
			;
		if (w && (w == n || (n == TIPME_COMM_LEN - 1 && w > n)) &&
		    !strncasecmp(p, comm, n))
			return 1;
		p += w ? w : 1;
	}
	return 0;
}

static int named(const struct ctx *c, uint32_t pid, int64_t ns)
{
	const struct pm_dump *pm = &c->inc->pm;

	if (!c->hint)
		return 0;
	return pm_hint_names(c->hint, pm_comm_at(pm, pid, ns)) ||
	       pm_hint_names(c->hint, pm_comm_at(pm, tgid_of(pm, pid, ns), ns));
}

/* The X dump's clients (an X socket each) and those that got input. */
static int x_clients(struct ctx *c)
{
	const struct tm_xdump *x = pm_incident_x(c->inc);
	struct tipme_x11_client cl;
	struct tipme_x11_rec r;
	uint32_t i;

	if (!x)
		return 0;
	for (i = 0; i < x->clients.count; i++) {
		tm_xdump_client_at(x, i, &cl);
		if (cl.pid && !(cl.flags & (TIPME_X11_CL_SERVER | TIPME_X11_CL_PID_UNKNOWN)) &&
		    ia_add(c, cl.pid, PM_WHY_XCLIENT))
			return -ENOMEM;
	}
	for (i = 0; i < x->recs.count; i++) {
		tm_xdump_rec(x, i, &r);
		if (r.kind != TIPME_X11_EVENT ||
		    (r.major != X_KEY_PRESS && r.major != X_BUTTON_PRESS) ||
		    tm_xdump_client_by_id(x, r.client, &cl) || !cl.pid ||
		    (cl.flags & (TIPME_X11_CL_SERVER | TIPME_X11_CL_PID_UNKNOWN)))
			continue;
		if (ia_add(c, cl.pid, PM_WHY_INPUT))
			return -ENOMEM;
	}
	return 0;
}

static int ia_input(void *arg, int64_t press_ns, uint32_t tgid)
{
	(void)press_ns;
	return ia_add(arg, tgid, PM_WHY_INPUT);
}

/*
 * The processes whose reader a key or button press the kernel saw woke
 * (pm_press_readers()): of the presses the state holds whole, and those
 * the caller found around the others (@known: a bounded build's).
 */
static int kernel_readers(struct ctx *c, const struct pm_res *res,
			  const struct pm_rank_known *known)
{
	size_t i;
	int err;

	err = pm_press_readers(c->inc, c->st, res, known ? known->from_ns : INT64_MIN,
			       known ? known->to_ns : INT64_MAX, ia_input, c);
	for (i = 0; !err && known && i < known->n; i++)
		err = ia_add(c, known->tgid[i], PM_WHY_INPUT);
	return err;
}

/* By waker, then by when the sleep began. */
static int wx_cmp(const void *a, const void *b)
{
	const struct wx *x = a, *y = b;

	if (x->waker != y->waker)
		return x->waker < y->waker ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->ti != y->ti)
		return x->ti < y->ti ? -1 : 1;
	return x->si < y->si ? -1 : x->si > y->si;
}

/* The order waiters() takes a hop's sleeps in: by sleeper, then stretch. */
static int hit_cmp(const void *a, const void *b)
{
	const struct wx *x = a, *y = b;

	if (x->ti != y->ti)
		return x->ti < y->ti ? -1 : 1;
	return x->si < y->si ? -1 : x->si > y->si;
}

/* Every sleep in [from, to] that a task's wakeup ended, by waker. */
static int index_waits(struct ctx *c, int64_t from_ns, int64_t to_ns)
{
	const struct pm_state *st = c->st;
	size_t i, j, n = 0;

	for (i = 0; i < st->nthreads; i++)
		for (j = pm_seg_first(&st->threads[i], from_ns - 1);
		     j < st->threads[i].nsegs && st->threads[i].segs[j].start_ns <= to_ns; j++) {
			const struct pm_seg *s = &st->threads[i].segs[j];

			n += s->state == PM_T_BLOCKED && s->waker > 0 &&
			     s->waker_ctx == TIPME_CTX_TASK &&
			     s->end_ns >= from_ns && s->start_ns <= to_ns;
		}
	c->wx = malloc((n ? n : 1) * sizeof(*c->wx));
	if (!c->wx)
		return -ENOMEM;
	for (i = 0; i < st->nthreads; i++)
		for (j = pm_seg_first(&st->threads[i], from_ns - 1);
		     j < st->threads[i].nsegs && st->threads[i].segs[j].start_ns <= to_ns; j++) {
			const struct pm_seg *s = &st->threads[i].segs[j];

			if (s->state == PM_T_BLOCKED && s->waker > 0 &&
			    s->waker_ctx == TIPME_CTX_TASK &&
			    s->end_ns >= from_ns && s->start_ns <= to_ns)
				c->wx[c->nwx++] = (struct wx){ (uint32_t)s->waker,
							       (uint32_t)i, j,
							       s->start_ns, s->end_ns, 0 };
		}
	qsort(c->wx, c->nwx, sizeof(*c->wx), wx_cmp);
	for (i = 0; i < c->nwx; i++)
		c->wx[i].reach_ns = i && c->wx[i - 1].waker == c->wx[i].waker &&
				    c->wx[i - 1].reach_ns > c->wx[i].end_ns ?
				    c->wx[i - 1].reach_ns : c->wx[i].end_ns;
	return 0;
}

/* The first of @c->wx woken by @pid. */
static size_t wx_first(const struct ctx *c, uint32_t pid)
{
	size_t lo = 0, hi = c->nwx;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->wx[mid].waker < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct hop {
	uint32_t pid;
	int64_t from_ns, to_ns;
	int depth;
};

/*
 * Who waited for @cd's thread during its stall: a task asleep then that
 * the thread woke (at the stall's end or later), and who waited for that
 * task in turn.  Sets PM_WHY_WAITED, and PM_WHY_CHAIN with the first
 * interactive (or named: *@named) thread the waits lead back to.
 */
/*
 * The sleeps @pid ended that overlap [@from_ns, @to_ns), by sleeper and
 * stretch, in @c->hits (the first with a latest end at or after @from_ns
 * found by a search, the scan stopped at the first beginning at @to_ns).
 * Return: 0 or -ENOMEM.
 */
static int wx_hits(const struct ctx *c, uint32_t pid, int64_t from_ns, int64_t to_ns)
{
	struct hits *hs = c->hits;
	size_t lo = wx_first(c, pid), hi = c->nwx, k;
	struct wx *v;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->wx[mid].waker == pid && c->wx[mid].reach_ns < from_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	hs->n = 0;
	for (k = lo; k < c->nwx && c->wx[k].waker == pid && c->wx[k].start_ns < to_ns; k++) {
		if (c->wx[k].end_ns < from_ns)
			continue;
		if (hs->n == hs->cap) {
			v = realloc(hs->v, (hs->cap ? 2 * hs->cap : 64) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			hs->v = v;
			hs->cap = hs->cap ? 2 * hs->cap : 64;
		}
		hs->v[hs->n++] = c->wx[k];
	}
	if (hs->n > 1)
		qsort(hs->v, hs->n, sizeof(*hs->v), hit_cmp);
	return 0;
}

static void waiters(const struct ctx *c, struct pm_cand *cd, int *named_chain)
{
	const struct pm_dump *pm = &c->inc->pm;
	struct hop q[CHAIN_SEEN];
	size_t head = 0, tail = 0, k;

	q[tail++] = (struct hop){ cd->sp.pid, cd->sp.from_ns, cd->sp.to_ns, 0 };
	while (head < tail) {
		struct hop h = q[head++];

		if (wx_hits(c, h.pid, h.from_ns, h.to_ns))
			return;	/* out of memory: the waits not followed */
		for (k = 0; k < c->hits->n; k++) {
			const struct pm_thread *u = &c->st->threads[c->hits->v[k].ti];
			const struct pm_seg *s = &u->segs[c->hits->v[k].si];

			if (u->pid == h.pid || kthread(pm, u->pid, s->start_ns))
				continue;
			if (!cd->waiter) {
				cd->waiter = u->pid;
				cd->why |= PM_WHY_WAITED;
			}
			if (named(c, u->pid, s->start_ns) ||
			    ia_why(c, tgid_of(pm, u->pid, s->start_ns))) {
				cd->why |= PM_WHY_CHAIN;
				cd->interactive = u->pid;
				*named_chain = named(c, u->pid, s->start_ns);
				return;
			}
			if (h.depth + 1 < CHAIN_DEPTH && tail < CHAIN_SEEN)
				q[tail++] = (struct hop){ u->pid, s->start_ns, s->end_ns,
							  h.depth + 1 };
		}
	}
}

/* @cd's tier and signals. */
static void judge(const struct ctx *c, struct pm_cand *cd)
{
	const struct pm_dump *pm = &c->inc->pm;
	int named_chain = 0;

	cd->why = ia_why(c, tgid_of(pm, cd->sp.pid, cd->sp.from_ns));
	if (named(c, cd->sp.pid, cd->sp.from_ns))
		cd->why |= PM_WHY_HINT;
	cd->waiter = 0;
	cd->interactive = 0;
	waiters(c, cd, &named_chain);
	if (named_chain && (cd->why & PM_WHY_HINT)) {
		/* named itself: the named waiter adds nothing */
		cd->why &= ~PM_WHY_CHAIN;
		cd->interactive = 0;
	}
	if (named_chain)
		cd->why |= PM_WHY_HINT;
	if (cd->why & PM_WHY_HINT)
		cd->tier = PM_TIER_NAMED;
	else if (cd->why & (PM_WHY_INPUT | PM_WHY_XCLIENT | PM_WHY_CHAIN))
		cd->tier = PM_TIER_INTERACTIVE;
	else
		cd->tier = cd->why & PM_WHY_WAITED ? PM_TIER_BATCH : PM_TIER_NOBODY;
}

/* @a ranks above @b */
static int better(const struct pm_cand *a, const struct pm_cand *b)
{
	int64_t la = a->sp.to_ns - a->sp.from_ns, lb = b->sp.to_ns - b->sp.from_ns;

	if (a->tier != b->tier)
		return a->tier > b->tier;
	if (la != lb)
		return la > lb;
	return a->sp.pid < b->sp.pid;
}

/* Put @cd among the best of @out (kept in order). */
static void keep(struct pm_rank *out, const struct pm_cand *cd)
{
	size_t i = out->n < PM_RANK_MAX ? out->n : PM_RANK_MAX;

	if (i == PM_RANK_MAX && !better(cd, &out->c[PM_RANK_MAX - 1]))
		return;
	if (i == PM_RANK_MAX)
		i--;
	while (i > 0 && better(cd, &out->c[i - 1])) {
		out->c[i] = out->c[i - 1];
		i--;
	}
	out->c[i] = *cd;
	if (out->n < PM_RANK_MAX)
		out->n++;
}

/**
 * pm_stall_rank() - the stalls of a window, most likely felt first
 * @inc: the incident (its X dump, if any, says who is an X client and got input)
 * @st: its state
 * @res: its resources (kernel input records and wakeups)
 * @from_ns: the window, CLOCK_MONOTONIC ns
 * @to_ns: its end
 * @hint: the incident's description (process names in it rank first), or NULL
 * @known: processes that received input in records @st was not built
 *	from, or NULL
 * @out: the best PM_RANK_MAX, one per thread, best first
 *
 * A stall is what pm_seg_stall() says (a wait for one's own descendants
 * is none); kernel threads are not candidates, nor stalls shorter than
 * FELT_NS while longer ones exist.  Ranked by tier (enum
 * pm_tier: named, interactive, waited for, nobody waited), then by length
 * inside the window.
 *
 * Return: 1 if a stall was found, 0 if none, -ENOMEM.
 */
int pm_stall_rank(const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_res *res, int64_t from_ns, int64_t to_ns,
		  const char *hint, const struct pm_rank_known *known,
		  struct pm_rank *out)
{
	const struct pm_dump *pm = &inc->pm;
	struct hits hits = { NULL, 0, 0 };
	struct ctx c = { .inc = inc, .st = st, .hint = hint, .hits = &hits };
	struct pm_rank shorts = { .n = 0 };
	size_t i, j;
	int ret = -ENOMEM, top;

	memset(out, 0, sizeof(*out));
	out->from_ns = from_ns;
	out->to_ns = to_ns;
	out->have_x = pm_incident_x(inc) != NULL;
	if (x_clients(&c) || kernel_readers(&c, res, known) || index_waits(&c, from_ns, to_ns))
		goto out;
	/*
	 * The best tier a stall can reach: with it, a stall that could not
	 * rank above its thread's best nor above the third kept is not
	 * judged (the output is the same: judging only lowers the tier).
	 */
	top = hint ? PM_TIER_NAMED : c.nia ? PM_TIER_INTERACTIVE : PM_TIER_BATCH;
	for (i = 0; i < st->nthreads; i++) {
		const struct pm_thread *t = &st->threads[i];
		struct pm_cand best = { .tier = -1 }, cd, shortest = { .tier = -1 };
		int stalled = 0;	/* a stall of FELT_NS or longer, judged or not */

		/* a kernel thread's waits are its work queue's; its stalls show in a task's chain */
		if (!t->nsegs || kthread(pm, t->pid, t->segs[t->nsegs - 1].start_ns))
			continue;
		for (j = pm_seg_first(t, from_ns); j < t->nsegs && t->segs[j].start_ns < to_ns; j++) {
			const struct pm_seg *s = &t->segs[j];
			int64_t s0 = s->start_ns > from_ns ? s->start_ns : from_ns;
			int64_t s1 = s->end_ns < to_ns ? s->end_ns : to_ns;
			int matters;

			if (s1 <= s0)
				continue;
			memset(&cd, 0, sizeof(cd));
			cd.sp = (struct pm_span){ t->pid, s0, s1 };
			if (s1 - s0 < FELT_NS) {
				/*
				 * judged only if the thread has nothing longer,
				 * and ranked only if no thread has
				 */
				if (stalled || (shortest.tier >= 0 &&
						(out->n || s1 - s0 <= shortest.sp.to_ns -
								     shortest.sp.from_ns)) ||
				    !pm_seg_stall(inc, st, t->pid, s))
					continue;
				shortest = cd;
				shortest.tier = 0;
				continue;
			}
			cd.tier = top;
			matters = (best.tier < 0 || better(&cd, &best)) &&
				  (out->n < PM_RANK_MAX || better(&cd, &out->c[PM_RANK_MAX - 1]));
			if ((!matters && stalled) || !pm_seg_stall(inc, st, t->pid, s))
				continue;
			stalled = 1;
			if (!matters)
				continue;
			judge(&c, &cd);
			if (best.tier < 0 || better(&cd, &best))
				best = cd;
		}
		if (stalled) {
			out->nthreads++;
			if (best.tier >= 0)
				keep(out, &best);
		} else if (shortest.tier >= 0) {
			out->nthreads++;
			if (!out->n) {
				best = shortest;
				judge(&c, &best);
				keep(&shorts, &best);
			}
		}
	}
	/* stalls nobody feels are shown only when there is nothing else */
	if (!out->n) {
		memcpy(out->c, shorts.c, sizeof(out->c));
		out->n = shorts.n;
	}
	ret = out->n > 0;
out:
	free(c.ia);
	free(c.wx);
	free(hits.v);
	return ret;
}
