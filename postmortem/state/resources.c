// SPDX-License-Identifier: GPL-2.0
/*
 * Resource waits from the instrumentation records: one pass over the
 * merged events pairs lock_begin with lock_end, reclaim_begin with
 * reclaim_end and a block request's issue with its completion (same
 * device and sector), follows a stacked device's bio from its queueing
 * through the remap that sent it below to its completion at the top, and
 * keeps every wakeup, joined to the network receive that made it; a
 * thread its cgroup's CPU quota took off a CPU is held off until it next
 * runs.  Unpaired ends are dropped
 * (their beginning is before the dump); unpaired beginnings last to the
 * dump's end.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/decode.h"
#include "../dump/tables.h"
#include "../records/records.h"
#include "resources.h"
#include "state.h"

/* Append one element of @size to *@arr (grown by doubling). */
static void *push(void **arr, size_t *n, size_t *cap, size_t size)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		void *p = realloc(*arr, c * size);

		if (!p)
			return NULL;
		*arr = p;
		*cap = c;
	}
	return (char *)*arr + (*n)++ * size;
}

struct caps {
	size_t locks, reclaims, blk, bios, wakes, inputs, policies, works, throttles;
	size_t recvs, sends;
	size_t flips, queued, vblanks, fences, fwaits, emits, names;
	size_t open_throttles;	/* of them, not yet ended by a switch */
};

/*
 * Per CPU, what the latest TIPME_REC_INTR of each interrupt context named
 * (PM_INTR_UNKNOWN since the stream began or since a gap).
 */
struct intr_now {
	int32_t *soft, *hard;
	size_t n;
};

static int intr_grow(struct intr_now *in, uint32_t cpu)
{
	size_t n = in->n, i;
	int32_t *s, *h;

	if (cpu < n)
		return 0;
	n = (size_t)cpu + 1;
	s = realloc(in->soft, n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	in->soft = s;
	h = realloc(in->hard, n * sizeof(*h));
	if (!h)
		return -ENOMEM;
	in->hard = h;
	for (i = in->n; i < n; i++)
		in->soft[i] = in->hard[i] = PM_INTR_UNKNOWN;
	in->n = n;
	return 0;
}

/* The interrupt a record of context @ctx on @cpu ran in. */
static int32_t intr_of(const struct intr_now *in, uint32_t cpu, uint32_t ctx)
{
	if (cpu >= in->n)
		return PM_INTR_UNKNOWN;
	if (ctx == TIPME_CTX_SOFTIRQ)
		return in->soft[cpu];
	if (ctx == TIPME_CTX_HARDIRQ)
		return in->hard[cpu];
	return PM_INTR_UNKNOWN;
}

static int on_intr(struct intr_now *in, const struct pm_event *ev)
{
	const struct tipme_rec_intr *x = &ev->u.rec.INTR;

	if (intr_grow(in, ev->cpu))
		return -ENOMEM;
	if (x->ctx == TIPME_CTX_SOFTIRQ)
		in->soft[ev->cpu] = x->vec;
	else if (x->ctx == TIPME_CTX_HARDIRQ)
		in->hard[ev->cpu] = x->irq;
	return 0;
}

/*
 * Per CPU and context (cpu * 4 + enum tipme_ctx), the latest receive not
 * yet past a context switch or another softirq vector: 1 + its index in
 * struct pm_res.recvs, 0 for none.
 */
struct net_now {
	uint32_t *recv;
	size_t n;
};

static int on_net(struct pm_res *r, struct caps *c, struct net_now *nn,
		  const struct pm_event *ev)
{
	const struct tipme_rec_net *x = &ev->u.rec.NET_RECV;
	int recv = ev->type == TIPME_REC_NET_RECV;
	struct pm_net *m = recv ? push((void **)&r->recvs, &r->nrecvs, &c->recvs, sizeof(*m)) :
			   push((void **)&r->sends, &r->nsends, &c->sends, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->ns = ev->ns;
	m->cpu = ev->cpu;
	m->pid = x->pid;
	m->ctx = x->ctx;
	m->len = x->len;
	m->family = x->family;
	m->proto = x->proto;
	m->lport = x->lport;
	m->rport = x->rport;
	memcpy(m->laddr, x->laddr, sizeof(m->laddr));
	memcpy(m->raddr, x->raddr, sizeof(m->raddr));
	if (recv && ev->cpu < nn->n / 4 && x->ctx <= TIPME_CTX_NMI)
		nn->recv[ev->cpu * 4 + x->ctx] = (uint32_t)r->nrecvs;
	return 0;
}

/* The receive that made wakeup @w, by the rule of PM_NET_WAKE_NS. */
static uint32_t net_woke(const struct pm_res *r, const struct net_now *nn,
			 const struct pm_wake *w)
{
	uint32_t i;

	if (w->cpu >= nn->n / 4 || w->ctx > TIPME_CTX_NMI)
		return 0;
	i = nn->recv[w->cpu * 4 + w->ctx];
	if (!i || w->ns - r->recvs[i - 1].ns > PM_NET_WAKE_NS)
		return 0;
	return i;
}

static void net_forget(struct net_now *nn, uint32_t cpu)
{
	if (cpu < nn->n / 4)
		memset(&nn->recv[cpu * 4], 0, 4 * sizeof(*nn->recv));
}

static int mirrored(const struct pm_net *a, const struct pm_net *b)
{
	return a->proto == b->proto && a->family == b->family &&
	       a->lport == b->rport && a->rport == b->lport &&
	       !memcmp(a->laddr, b->raddr, sizeof(a->laddr)) &&
	       !memcmp(a->raddr, b->laddr, sizeof(a->raddr));
}

const struct pm_net *pm_res_net_sent(const struct pm_res *r,
				     const struct pm_net *recv)
{
	size_t lo = 0, hi = r->nsends;

	while (lo < hi) {	/* the first send after the receive */
		size_t mid = lo + (hi - lo) / 2;

		if (r->sends[mid].ns <= recv->ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0)
		if (mirrored(&r->sends[lo], recv))
			return &r->sends[lo];
	return NULL;
}

/*
 * A work item queued, started or ended.  An item is pending on one list
 * at a time and runs on one worker at a time: a start is that of its
 * latest queueing not yet started, an end that of its latest start.
 */
static int on_work(struct pm_res *r, struct caps *c, const struct intr_now *in,
		   const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_work *x = &ev->u.rec.WORK_QUEUE;
	uint32_t id, pid, ctx;
	struct pm_work *w;
	size_t i;

	if (ev->type == TIPME_REC_WORK_END) {
		id = ev->u.rec.WORK_END.work;
		for (i = r->nworks; i-- > 0;) {
			w = &r->works[i];
			if (w->work == id && w->start_ns) {
				if (!w->end_ns)
					w->end_ns = ev->ns;
				break;
			}
		}
		return 0;
	}
	id = x->work;
	pid = x->who & TIPME_PID_MASK;
	ctx = (x->who >> 22) & 3;
	if (ev->type == TIPME_REC_WORK_START) {
		for (i = r->nworks; i-- > 0;) {
			w = &r->works[i];
			if (w->work != id)
				continue;
			if (w->start_ns)
				break;
			w->start_ns = ev->ns;
			w->worker = pid;
			return 0;
		}
	}
	w = push((void **)&r->works, &r->nworks, &c->works, sizeof(*w));
	if (!w)
		return -ENOMEM;
	memset(w, 0, sizeof(*w));
	w->work = id;
	w->func = pm_text_addr(pm, x->func);
	w->queue_intr = PM_INTR_UNKNOWN;
	if (ev->type == TIPME_REC_WORK_START) {	/* queued before the dump began */
		w->start_ns = ev->ns;
		w->worker = pid;
		return 0;
	}
	w->queue_ns = ev->ns;
	w->queuer = pid;
	w->queue_ctx = ctx;
	w->queue_cpu = ev->cpu;
	w->queue_intr = intr_of(in, ev->cpu, ctx);
	return 0;
}

/* A cpu_throttle record: @pid held off from now until it next runs. */
static int on_throttle(struct pm_res *r, struct caps *c, const struct pm_event *ev)
{
	const struct tipme_rec_cpu_throttle *x = &ev->u.rec.CPU_THROTTLE;
	struct pm_throttle *t;

	t = push((void **)&r->throttles, &r->nthrottles, &c->throttles, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->pid = x->pid;
	t->cpu = ev->cpu;
	t->cgroup = (uint64_t)x->cgroup_hi << 32 | x->cgroup_lo;
	t->start_ns = ev->ns;
	t->end_ns = 0;
	c->open_throttles++;
	return 0;
}

/* A switch onto a CPU ends the throttling of the thread it puts there. */
static void end_throttle(struct pm_res *r, struct caps *c, const struct pm_event *ev)
{
	size_t i;

	for (i = r->nthrottles; c->open_throttles && i-- > 0;) {
		struct pm_throttle *t = &r->throttles[i];

		if (!t->end_ns && t->pid == ev->u.sw.next_pid) {
			t->end_ns = ev->ns;
			c->open_throttles--;
		}
	}
}

static int on_lock(struct pm_res *r, struct caps *c, const struct pm_event *ev)
{
	size_t rest, i;

	if (ev->type == TIPME_REC_LOCK_BEGIN) {
		struct tipme_rec_lock_begin b;
		struct pm_lockwait *l;

		pm_ev_fixed(ev, &b, sizeof(b), &rest);
		l = push((void **)&r->locks, &r->nlocks, &c->locks, sizeof(*l));
		if (!l)
			return -ENOMEM;
		l->lock = (uint64_t)b.lock_hi << 32 | b.lock_lo;
		l->pid = b.pid;
		l->owner = b.owner;
		l->flags = b.flags;
		l->ret = 0;
		l->start_ns = ev->ns;
		l->end_ns = 0;
		return 0;
	} else {
		struct tipme_rec_lock_end x;
		uint64_t lock;

		pm_ev_fixed(ev, &x, sizeof(x), &rest);
		lock = (uint64_t)x.lock_hi << 32 | x.lock_lo;
		for (i = r->nlocks; i-- > 0;) {
			struct pm_lockwait *l = &r->locks[i];

			if (!l->end_ns && l->pid == x.pid && l->lock == lock) {
				l->end_ns = ev->ns;
				l->ret = x.ret;
				break;
			}
		}
	}
	return 0;
}

static int on_reclaim(struct pm_res *r, struct caps *c, const struct pm_event *ev)
{
	size_t rest, i;

	if (ev->type == TIPME_REC_RECLAIM_BEGIN) {
		struct tipme_rec_reclaim_begin b;
		struct pm_reclaim *m;

		pm_ev_fixed(ev, &b, sizeof(b), &rest);
		m = push((void **)&r->reclaims, &r->nreclaims, &c->reclaims, sizeof(*m));
		if (!m)
			return -ENOMEM;
		memset(m, 0, sizeof(*m));
		m->pid = b.pid;
		m->kind = b.kind;
		m->start_ns = ev->ns;
	} else {
		struct tipme_rec_reclaim_end x;

		pm_ev_fixed(ev, &x, sizeof(x), &rest);
		for (i = r->nreclaims; i-- > 0;) {
			struct pm_reclaim *m = &r->reclaims[i];

			if (!m->end_ns && m->pid == x.pid) {
				m->end_ns = ev->ns;
				m->nr_reclaimed = x.nr_reclaimed;
				m->high_cgroup = (uint64_t)x.high_cgroup_hi << 32 |
						 x.high_cgroup_lo;
				m->high_kib = x.high_kib;
				break;
			}
		}
	}
	return 0;
}

/* @at: the request the record is about (its index in r->blk) */
static int on_blk(struct pm_res *r, struct caps *c, const struct pm_event *ev,
		  size_t *at)
{
	struct tipme_rec_blk b;
	struct pm_blkreq *q;
	uint64_t sector;
	size_t rest, i;

	pm_ev_fixed(ev, &b, sizeof(b), &rest);
	sector = (uint64_t)b.sector_hi << 32 | b.sector_lo;
	if (ev->type == TIPME_REC_BLK_ISSUE) {	/* a queued request goes out */
		for (i = r->nblk; i-- > 0;) {
			q = &r->blk[i];
			if (q->insert_ns && !q->issue_ns && !q->complete_ns && q->dev == b.dev &&
			    q->sector == sector) {
				q->issue_ns = ev->ns;
				if (!q->issuer && b.ctx == TIPME_CTX_TASK)
					q->issuer = b.pid;
				*at = i;
				return 0;
			}
		}
	}
	if (ev->type == TIPME_REC_BLK_COMPLETE) {
		for (i = r->nblk; i-- > 0;) {
			q = &r->blk[i];
			if (!q->complete_ns && q->dev == b.dev && q->sector == sector)
				break;
		}
		/*
		 * A write with a preflush or FUA on a device that needs the
		 * flushes done for it completes twice: its data, then (0
		 * bytes) the sequence, which ends the wait.
		 */
		if (i == (size_t)-1 && !b.bytes) {
			for (i = r->nblk; i-- > 0;) {
				q = &r->blk[i];
				if (q->issue_ns && q->dev == b.dev && q->sector == sector)
					break;
			}
		}
		if (i != (size_t)-1) {
			q = &r->blk[i];
			q->complete_ns = ev->ns;
			q->complete_cpu = ev->cpu;
			q->complete_pid = b.pid;
			q->complete_ctx = b.ctx;
			return 0;
		}
	}
	q = push((void **)&r->blk, &r->nblk, &c->blk, sizeof(*q));
	if (!q)
		return -ENOMEM;
	*at = r->nblk - 1;
	memset(q, 0, sizeof(*q));
	q->dev = b.dev;
	q->sector = sector;
	q->bytes = b.bytes;
	q->op = b.op;
	if (ev->type == TIPME_REC_BLK_ISSUE || ev->type == TIPME_REC_BLK_INSERT) {
		q->issuer = b.ctx == TIPME_CTX_TASK ? b.pid : 0;
		if (ev->type == TIPME_REC_BLK_ISSUE)
			q->issue_ns = ev->ns;
		else
			q->insert_ns = ev->ns;
	} else {		/* issued before the dump began */
		q->complete_ns = ev->ns;
		q->complete_cpu = ev->cpu;
		q->complete_pid = b.pid;
		q->complete_ctx = b.ctx;
	}
	return 0;
}

/* The latest bio on @dev not completed whose range holds @sector. */
static struct pm_bio *bio_holding(struct pm_res *r, uint32_t dev, uint64_t sector)
{
	size_t i;

	for (i = r->nbios; i-- > 0;) {
		struct pm_bio *b = &r->bios[i];
		uint64_t end = b->sector + (b->bytes >> 9);

		if (b->complete_ns || b->dev != dev || !b->queue_ns)
			continue;
		if (sector == b->sector || (sector > b->sector && sector < end))
			return b;
	}
	return NULL;
}

/* @at: a bio queued (its index in r->bios), else left alone */
static int on_bio(struct pm_res *r, struct caps *c, const struct pm_event *ev,
		  size_t *at)
{
	const struct tipme_rec_bio *x = &ev->u.rec.BIO_QUEUE;
	uint64_t sector = (uint64_t)x->sector_hi << 32 | x->sector_lo;
	struct pm_bio *b, *parent;
	int64_t queue_ns = ev->ns;
	uint32_t submitter;
	size_t i;

	if (ev->type == TIPME_REC_BIO_REMAP) {
		const struct tipme_rec_bio_remap *m = &ev->u.rec.BIO_REMAP;

		b = bio_holding(r, m->from_dev, (uint64_t)m->from_hi << 32 | m->from_lo);
		if (b) {
			if (!b->nsent++) {
				b->sent_ns = ev->ns;
				b->below_dev = m->dev;
				b->below_sector = (uint64_t)m->sector_hi << 32 | m->sector_lo;
				b->below_bytes = m->bytes;
			}
		}
		return 0;
	}
	if (ev->type == TIPME_REC_BIO_COMPLETE) {
		for (i = r->nbios; i-- > 0;) {
			b = &r->bios[i];
			if (!b->complete_ns && b->id == x->bio && b->dev == x->dev) {
				b->complete_ns = ev->ns;
				b->complete_cpu = ev->cpu;
				b->complete_pid = x->pid;
				b->complete_ctx = x->ctx;
				return 0;
			}
		}
	}
	parent = NULL;
	if (ev->type == TIPME_REC_BIO_SPLIT) {
		for (i = r->nbios; i-- > 0;)	/* the bio itself, going on */
			if (!r->bios[i].complete_ns && r->bios[i].id == x->bio &&
			    r->bios[i].dev == x->dev)
				return 0;
		parent = bio_holding(r, x->dev, sector);
	}
	/* a part split off: from its parent's queueing, its submitter's */
	submitter = x->ctx == TIPME_CTX_TASK ? x->pid : 0;
	if (parent) {
		queue_ns = parent->queue_ns;
		submitter = parent->submitter;
	}
	b = push((void **)&r->bios, &r->nbios, &c->bios, sizeof(*b));
	if (!b)
		return -ENOMEM;
	memset(b, 0, sizeof(*b));
	b->id = x->bio;
	b->dev = x->dev;
	b->sector = sector;
	b->bytes = x->bytes;
	b->op = x->op;
	if (ev->type == TIPME_REC_BIO_COMPLETE) {	/* queued before the dump began */
		b->complete_ns = ev->ns;
		b->complete_cpu = ev->cpu;
		b->complete_pid = x->pid;
		b->complete_ctx = x->ctx;
		return 0;
	}
	b->queue_ns = queue_ns;
	b->submitter = submitter;
	if (ev->type == TIPME_REC_BIO_QUEUE)
		*at = r->nbios - 1;
	return 0;
}

/*
 * The read a blk_file record follows: the latest request issued or bio
 * queued on its CPU in its context, written by the same probe just before
 * it (only interrupts of other kinds come between).
 */
struct last_read {
	int bio;		/* 1: r->bios[at], 0: r->blk[at], -1: none */
	size_t at;
	int64_t ns;
};

#define FILE_AFTER_NS	10000000	/* at most this after the read's record */

static void on_file(struct pm_res *r, const struct pm_event *ev,
		    struct last_read *last, uint32_t nr_cpus)
{
	const struct tipme_rec_blk_file *f = &ev->u.rec.BLK_FILE;
	struct last_read *l;
	uint8_t *kind;
	uint32_t *dev;
	uint64_t *ino;

	if (ev->cpu >= nr_cpus || f->ctx > TIPME_CTX_NMI)
		return;
	l = &last[ev->cpu * 4 + f->ctx];
	if (l->bio < 0 || ev->ns - l->ns > FILE_AFTER_NS)
		return;
	if (l->bio) {
		kind = &r->bios[l->at].file_kind;
		dev = &r->bios[l->at].file_dev;
		ino = &r->bios[l->at].file_ino;
	} else {
		kind = &r->blk[l->at].file_kind;
		dev = &r->blk[l->at].file_dev;
		ino = &r->blk[l->at].file_ino;
	}
	*kind = f->kind;
	*dev = f->dev;
	*ino = f->ino_lo | (uint64_t)f->ino_hi << 32;
	l->bio = -1;
}

/* Every thread of a sampler record, with its policy (deduplicated later). */
static int on_sample(struct pm_res *r, struct caps *c, const struct pm_event *ev)
{
	struct tipme_sample_ent t;
	const unsigned char *p;
	size_t i, n;

	n = pm_sample_entries(ev, &p);
	for (i = 0; i < n; i++) {
		struct pm_policy *q;

		memcpy(&t, p + i * sizeof(t), sizeof(t));
		if (r->npolicies && r->policies[r->npolicies - 1].pid == tipme_smp_pid(t.word) &&
		    r->policies[r->npolicies - 1].policy == tipme_smp_policy(t.word))
			continue;
		q = push((void **)&r->policies, &r->npolicies, &c->policies, sizeof(*q));
		if (!q)
			return -ENOMEM;
		q->pid = tipme_smp_pid(t.word);
		q->policy = tipme_smp_policy(t.word);
	}
	return 0;
}

/* By pid, then in the order seen. */
static int policy_cmp(const void *a, const void *b)
{
	const struct pm_policy *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Keep each thread's last policy, sorted by pid. */
static void policies_finish(struct pm_res *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->npolicies; i++)
		r->policies[i].seq = i;
	if (r->npolicies)
		qsort(r->policies, r->npolicies, sizeof(*r->policies), policy_cmp);
	for (i = 0; i < r->npolicies; i++) {
		if (n && r->policies[n - 1].pid == r->policies[i].pid)
			n--;
		r->policies[n++] = r->policies[i];
	}
	r->npolicies = n;
}

/* By worker, then start. */
static int work_cmp(const void *a, const void *b)
{
	const struct pm_work *x = *(const struct pm_work *const *)a;
	const struct pm_work *y = *(const struct pm_work *const *)b;

	if (x->worker != y->worker)
		return x->worker < y->worker ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* The items each worker started, for the lookups by worker and time. */
static int works_index(struct pm_res *r)
{
	size_t i, n = 0;

	if (!r->nworks)
		return 0;
	r->by_worker = malloc(r->nworks * sizeof(*r->by_worker));
	if (!r->by_worker)
		return -ENOMEM;
	for (i = 0; i < r->nworks; i++)
		if (r->works[i].start_ns && r->works[i].worker)
			r->by_worker[n++] = &r->works[i];
	if (n)
		qsort(r->by_worker, n, sizeof(*r->by_worker), work_cmp);
	r->nby_worker = n;
	return 0;
}

/* The first of @pid's items started at or after @ns (or the next worker's). */
static size_t works_lower(const struct pm_res *r, uint32_t pid, int64_t ns)
{
	size_t lo = 0, hi = r->nby_worker;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pm_work *w = r->by_worker[mid];

		if (w->worker < pid || (w->worker == pid && w->start_ns < ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t pm_res_works_of(const struct pm_res *r, uint32_t pid, int64_t from,
		       const struct pm_work *const **items)
{
	size_t i = works_lower(r, pid, from == INT64_MAX ? from : from + 1), n = 0;

	*items = NULL;
	if (!r->nby_worker)
		return 0;
	if (i > 0 && r->by_worker[i - 1]->worker == pid)
		i--;
	*items = r->by_worker + i;
	while (i + n < r->nby_worker && r->by_worker[i + n]->worker == pid)
		n++;
	return n;
}

static int member_cmp(const void *a, const void *b)
{
	const struct pm_member *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->cgroup < y->cgroup ? -1 : x->cgroup > y->cgroup;
}

/*
 * The threads of the cgroups with a CPU limit, from the system section's
 * "cgroup.ID.threads=0,TID,..." lines (helper/sysinfo.c), sorted.
 */
static int members(struct pm_res *r, const struct pm_dump *pm)
{
	size_t pos = 0, n, cap = 0, i;
	const char *line;

	while (pm_text_next(&pm->system, &pos, &line, &n)) {
		const char *p, *end = line + n, *eq = memchr(line, '=', n);
		unsigned long long id = 0;
		int digits = 0;

		/* "cgroup." ID ".threads" "=" */
		if (!eq || n < 7 || memcmp(line, "cgroup.", 7))
			continue;
		for (p = line + 7; p < eq && *p >= '0' && *p <= '9' && digits < 19; p++, digits++)
			id = id * 10 + (unsigned long long)(*p - '0');
		if (!id || eq - p != 8 || memcmp(p, ".threads", 8))
			continue;
		for (p = eq + 1; p < end;) {
			unsigned long tid = 0;
			struct pm_member *m;

			for (digits = 0; p < end && *p >= '0' && *p <= '9' && digits < 10;
			     p++, digits++)
				tid = tid * 10 + (unsigned long)(*p - '0');
			if (p < end && *p != ',')
				break;	/* not a list of numbers: the rest is ignored */
			p++;
			if (!tid || tid > TIPME_PID_MASK)
				continue;
			m = push((void **)&r->members, &r->nmembers, &cap, sizeof(*m));
			if (!m)
				return -ENOMEM;
			m->pid = (uint32_t)tid;
			m->cgroup = id;
		}
	}
	if (r->nmembers)
		qsort(r->members, r->nmembers, sizeof(*r->members), member_cmp);
	for (i = n = 0; i < r->nmembers; i++)
		if (!n || member_cmp(&r->members[n - 1], &r->members[i]))
			r->members[n++] = r->members[i];
	r->nmembers = n;
	return 0;
}

int pm_res_member(const struct pm_res *r, uint32_t pid, uint64_t cgroup)
{
	struct pm_member key = { .pid = pid, .cgroup = cgroup };

	return r->nmembers && bsearch(&key, r->members, r->nmembers, sizeof(key),
				      member_cmp) != NULL;
}

/* A dma_fence's emit, and a context's names, while the records are read. */
struct fence_emit {
	uint64_t ctx, seqno;
	uint32_t who;
	int64_t ns;
};

struct fence_names {
	uint64_t ctx;
	char driver[TIPME_FENCE_DRIVER_LEN];
	char timeline[TIPME_FENCE_TIMELINE_LEN];
};

/*
 * Per CPU and context (cpu * 4 + enum tipme_ctx), the latest DRM event
 * delivered and dma_fence signalled not yet past a context switch: 1 +
 * its index in struct pm_res.flips or .fences, 0 for none.  The reader
 * of a DRM file and a fence's waiter are woken right after, in the same
 * call.
 */
struct disp_now {
	uint32_t *flip, *fence;
	size_t n;
	struct fence_emit *emits;
	size_t nemits;
	struct fence_names *names;
	size_t nnames;
};

static uint64_t u64_of(uint32_t lo, uint32_t hi)
{
	return (uint64_t)hi << 32 | lo;
}

/* A name field of a fence_name record as a C string in @dst (cut to fit). */
static void fence_name(char *dst, size_t size, const uint8_t *src, size_t len)
{
	size_t n = strnlen((const char *)src, len);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int on_display(struct pm_res *r, struct caps *c, struct disp_now *dn,
		      const struct pm_event *ev)
{
	const struct tipme_rec_vblank_ev *v = &ev->u.rec.VBLANK_QUEUED;
	const struct tipme_rec_fence *fe = &ev->u.rec.FENCE;
	uint32_t who = v->who & TIPME_PID_MASK, ctx = (v->who >> 22) & 3;
	size_t slot = (size_t)ev->cpu * 4;
	struct pm_flip *f;
	size_t i;

	switch (ev->type) {
	case TIPME_REC_VBLANK: {
		struct tipme_rec_vblank *b = push((void **)&r->vblanks, &r->nvblanks,
						  &c->vblanks, sizeof(*b));

		if (!b)
			return -ENOMEM;
		*b = ev->u.rec.VBLANK;
		return 0;
	}
	case TIPME_REC_VBLANK_QUEUED: {
		struct pm_queued *q = push((void **)&r->queued, &r->nqueued, &c->queued,
					   sizeof(*q));

		if (!q)
			return -ENOMEM;
		*q = (struct pm_queued){ ev->ns, v->crtc, v->seq, v->file, who };
		return 0;
	}
	case TIPME_REC_VBLANK_DELIVERED:
		if (!v->file)	/* a commit's own event that nobody reads */
			return 0;
		f = push((void **)&r->flips, &r->nflips, &c->flips, sizeof(*f));
		if (!f)
			return -ENOMEM;
		memset(f, 0, sizeof(*f));
		f->ns = ev->ns;
		f->cpu = ev->cpu;
		f->crtc = v->crtc;
		f->seq = v->seq;
		f->file = v->file;
		f->owner = v->owner & TIPME_PID_MASK;
		f->who = who;
		f->ctx = ctx;
		for (i = r->nvblanks; v->seq && i-- > 0;)
			if (r->vblanks[i].crtc == v->crtc && r->vblanks[i].seq == v->seq) {
				f->vblank_ns = (int64_t)u64_of(r->vblanks[i].time_lo,
							       r->vblanks[i].time_hi);
				break;
			}
		for (i = r->nqueued; i-- > 0;)
			if (r->queued[i].file == v->file && r->queued[i].crtc == v->crtc &&
			    (!v->seq || r->queued[i].seq == v->seq)) {
				f->queued_ns = r->queued[i].ns;
				f->queuer = r->queued[i].who;
				break;
			}
		if (ev->cpu < dn->n / 4)
			dn->flip[slot + ctx] = (uint32_t)r->nflips;
		return 0;
	case TIPME_REC_FENCE_NAME: {
		const struct tipme_rec_fence_name *fn = &ev->u.rec.FENCE_NAME;
		struct fence_names *nm = push((void **)&dn->names, &dn->nnames, &c->names,
					      sizeof(*nm));

		if (!nm)
			return -ENOMEM;
		nm->ctx = u64_of(fn->ctx_lo, fn->ctx_hi);
		fence_name(nm->driver, sizeof(nm->driver), fn->driver, sizeof(fn->driver));
		fence_name(nm->timeline, sizeof(nm->timeline), fn->timeline,
			   sizeof(fn->timeline));
		return 0;
	}
	case TIPME_REC_FENCE:
		break;
	default:
		return 0;
	}
	who = fe->who & TIPME_PID_MASK;
	ctx = (fe->who >> 22) & 3;
	if (fe->op == TIPME_FENCE_EMIT) {
		struct fence_emit *em = push((void **)&dn->emits, &dn->nemits, &c->emits,
					     sizeof(*em));

		if (!em)
			return -ENOMEM;
		*em = (struct fence_emit){ u64_of(fe->ctx_lo, fe->ctx_hi),
					   u64_of(fe->seqno_lo, fe->seqno_hi),
					   ctx == TIPME_CTX_TASK ? who : 0, ev->ns };
	} else if (fe->op == TIPME_FENCE_WAIT_START) {
		struct pm_fence_wait *fw = push((void **)&r->fwaits, &r->nfwaits, &c->fwaits,
						sizeof(*fw));

		if (!fw)
			return -ENOMEM;
		*fw = (struct pm_fence_wait){ who, u64_of(fe->ctx_lo, fe->ctx_hi),
					      u64_of(fe->seqno_lo, fe->seqno_hi), ev->ns, 0 };
	} else if (fe->op == TIPME_FENCE_WAIT_END) {
		for (i = r->nfwaits; i-- > 0;)
			if (r->fwaits[i].pid == who && !r->fwaits[i].end_ns) {
				r->fwaits[i].end_ns = ev->ns;
				break;
			}
	} else if (fe->op == TIPME_FENCE_SIGNALED) {
		struct pm_fence *s = push((void **)&r->fences, &r->nfences, &c->fences,
					  sizeof(*s));

		if (!s)
			return -ENOMEM;
		memset(s, 0, sizeof(*s));
		s->ctx = u64_of(fe->ctx_lo, fe->ctx_hi);
		s->seqno = u64_of(fe->seqno_lo, fe->seqno_hi);
		s->ns = ev->ns;
		s->cpu = ev->cpu;
		s->signaler = who;
		s->sig_ctx = ctx;
		for (i = dn->nemits; i-- > 0;)
			if (dn->emits[i].ctx == s->ctx && dn->emits[i].seqno == s->seqno) {
				s->emitter = dn->emits[i].who;
				s->emit_ns = dn->emits[i].ns;
				break;
			}
		for (i = dn->nnames; i-- > 0;)
			if (dn->names[i].ctx == s->ctx) {
				memcpy(s->driver, dn->names[i].driver, sizeof(s->driver));
				memcpy(s->timeline, dn->names[i].timeline, sizeof(s->timeline));
				break;
			}
		if (ev->cpu < dn->n / 4)
			dn->fence[slot + ctx] = (uint32_t)r->nfences;
	}
	return 0;
}

/*
 * The latest of @tab's (1 + index) on @w's CPU and context, when its @ns
 * (@stride bytes apart from @base) is at most PM_NET_WAKE_NS before @w.
 */
static uint32_t disp_woke(const uint32_t *tab, size_t n, const struct pm_wake *w,
			  const void *base, size_t stride)
{
	uint32_t i;
	int64_t ns;

	if (w->cpu >= n / 4 || w->ctx > TIPME_CTX_NMI)
		return 0;
	i = tab[w->cpu * 4 + w->ctx];
	if (!i)
		return 0;
	memcpy(&ns, (const char *)base + (size_t)(i - 1) * stride, sizeof(ns));
	return w->ns - ns > PM_NET_WAKE_NS ? 0 : i;
}

_Static_assert(offsetof(struct pm_flip, ns) == 0 && offsetof(struct pm_fence, ns) == 0,
	       "disp_woke() reads the time at the start");

static void disp_forget(struct disp_now *dn, uint32_t cpu)
{
	if (cpu < dn->n / 4) {
		memset(&dn->flip[cpu * 4], 0, 4 * sizeof(*dn->flip));
		memset(&dn->fence[cpu * 4], 0, 4 * sizeof(*dn->fence));
	}
}

/* What pm_res_build() keeps while it reads the records. */
struct res_bld {
	struct pm_res *r;
	const struct pm_dump *pm;
	struct intr_now irq;
	struct last_read *reads;
	struct net_now nn;
	struct disp_now dn;
	struct caps c;
	int64_t last;
};

static int res_bld_init(struct res_bld *b, struct pm_res *r,
			const struct pm_incident *inc, struct tm_err *e)
{
	const struct pm_dump *pm = &inc->pm;
	size_t i;

	memset(r, 0, sizeof(*r));
	memset(b, 0, sizeof(*b));
	b->r = r;
	b->pm = pm;
	b->reads = calloc((size_t)pm->nr_cpus * 4 + 1, sizeof(*b->reads));
	if (!b->reads)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (i = 0; i < (size_t)pm->nr_cpus * 4; i++)
		b->reads[i].bio = -1;
	b->nn.n = (size_t)pm->nr_cpus * 4;
	b->nn.recv = calloc(b->nn.n + 1, sizeof(*b->nn.recv));
	b->dn.n = b->nn.n;
	b->dn.flip = calloc(b->dn.n + 1, sizeof(*b->dn.flip));
	b->dn.fence = calloc(b->dn.n + 1, sizeof(*b->dn.fence));
	if (!b->nn.recv || !b->dn.flip || !b->dn.fence)
		return tm_err_set(e, ENOMEM, "out of memory");
	return 0;
}

static int res_bld_event(struct res_bld *b, const struct pm_event *ev,
			 struct tm_err *e)
{
	struct pm_res *r = b->r;
	const struct pm_dump *pm = b->pm;
	size_t at;
	int err = 0;

	b->last = ev->ns;
	if (ev->kind == PM_EV_LOST && ev->cpu < b->irq.n)
		b->irq.soft[ev->cpu] = b->irq.hard[ev->cpu] = PM_INTR_UNKNOWN;
	if (ev->kind == PM_EV_LOST) {
		net_forget(&b->nn, ev->cpu);
		disp_forget(&b->dn, ev->cpu);
	}
	if (ev->kind != PM_EV_RECORD || !ev->rt || !ev->rt->our_size)
		return 0;
	switch (ev->type) {
	case TIPME_REC_SCHED_WAKING: {
		struct pm_wake *w = push((void **)&r->wakes, &r->nwakes,
					 &b->c.wakes, sizeof(*w));

		if (!w) {
			err = -ENOMEM;
			break;
		}
		w->ns = ev->ns;
		w->cpu = ev->cpu;
		w->target = tipme_waking_pid(&ev->u.wk);
		w->waker = ev->waker_unknown ? PM_WAKER_UNKNOWN :
			   tipme_waking_waker(&ev->u.wk);
		w->ctx = tipme_waking_ctx(&ev->u.wk);
		w->intr = intr_of(&b->irq, ev->cpu, w->ctx);
		w->net = net_woke(r, &b->nn, w);
		w->flip = disp_woke(b->dn.flip, b->dn.n, w, r->flips, sizeof(*r->flips));
		w->fence = disp_woke(b->dn.fence, b->dn.n, w, r->fences, sizeof(*r->fences));
		break;
	}
	case TIPME_REC_INTR:
		/* another softirq vector: a receive before is not its */
		if (ev->u.rec.INTR.ctx == TIPME_CTX_SOFTIRQ && ev->cpu < b->nn.n / 4)
			b->nn.recv[ev->cpu * 4 + TIPME_CTX_SOFTIRQ] = 0;
		err = on_intr(&b->irq, ev);
		break;
	case TIPME_REC_NET_RECV:
	case TIPME_REC_NET_SEND:
		err = on_net(r, &b->c, &b->nn, ev);
		break;
	case TIPME_REC_WORK_QUEUE:
	case TIPME_REC_WORK_START:
	case TIPME_REC_WORK_END:
		err = on_work(r, &b->c, &b->irq, pm, ev);
		break;
	case TIPME_REC_VBLANK:
	case TIPME_REC_VBLANK_QUEUED:
	case TIPME_REC_VBLANK_DELIVERED:
	case TIPME_REC_FENCE:
	case TIPME_REC_FENCE_NAME:
		err = on_display(r, &b->c, &b->dn, ev);
		break;
	case TIPME_REC_INPUT: {
		struct pm_input *in = push((void **)&r->inputs, &r->ninputs,
					   &b->c.inputs, sizeof(*in));

		if (!in) {
			err = -ENOMEM;
			break;
		}
		in->ns = ev->ns;
		in->cpu = ev->cpu;
		in->kind = ev->u.in.kind;
		in->value = ev->u.in.value;
		break;
	}
	case TIPME_REC_LOCK_BEGIN:
	case TIPME_REC_LOCK_END:
		err = on_lock(r, &b->c, ev);
		break;
	case TIPME_REC_RECLAIM_BEGIN:
	case TIPME_REC_RECLAIM_END:
		err = on_reclaim(r, &b->c, ev);
		break;
	case TIPME_REC_BLK_INSERT:
	case TIPME_REC_BLK_ISSUE:
	case TIPME_REC_BLK_COMPLETE:
		at = SIZE_MAX;
		err = on_blk(r, &b->c, ev, &at);
		if (!err && ev->type == TIPME_REC_BLK_ISSUE && ev->cpu < pm->nr_cpus &&
		    ev->u.bk.ctx <= TIPME_CTX_NMI)
			b->reads[ev->cpu * 4 + ev->u.bk.ctx] = (struct last_read){ 0, at, ev->ns };
		break;
	case TIPME_REC_BIO_QUEUE:
	case TIPME_REC_BIO_COMPLETE:
	case TIPME_REC_BIO_SPLIT:
	case TIPME_REC_BIO_REMAP:
		at = SIZE_MAX;
		err = on_bio(r, &b->c, ev, &at);
		if (!err && at != SIZE_MAX && ev->cpu < pm->nr_cpus &&
		    ev->u.rec.BIO_QUEUE.ctx <= TIPME_CTX_NMI)
			b->reads[ev->cpu * 4 + ev->u.rec.BIO_QUEUE.ctx] =
				(struct last_read){ 1, at, ev->ns };
		break;
	case TIPME_REC_BLK_FILE:
		on_file(r, ev, b->reads, pm->nr_cpus);
		break;
	case TIPME_REC_SAMPLE:
		err = on_sample(r, &b->c, ev);
		break;
	case TIPME_REC_CPU_THROTTLE:
		err = on_throttle(r, &b->c, ev);
		break;
	case TIPME_REC_SCHED_SWITCH:
		if (b->c.open_throttles)
			end_throttle(r, &b->c, ev);
		net_forget(&b->nn, ev->cpu);
		disp_forget(&b->dn, ev->cpu);
		break;
	default:
		break;
	}
	if (err < 0)
		return tm_err_set(e, ENOMEM, "out of memory");
	return 0;
}

static uint32_t proc_of(const struct pm_dump *pm, uint32_t pid, int64_t ns)
{
	const struct pm_exec *x = pm_exec_at(pm, pid, ns);

	return x && x->x.tgid ? x->x.tgid : pid;
}

/*
 * Each DRM file's reader (struct pm_flip.reader): the process a delivery
 * to the file woke in the same call.  The file's owner is who opened it,
 * which is not the compositor when a seat daemon opened the device and
 * passed the descriptor on; the records have no such hand-off, but the
 * reader's wait ends with every delivery it was asleep for.  A file no
 * delivery woke anyone for (the reader was runnable each time: on
 * virtio-gpu the worker that completes the commit may preempt the
 * compositor on its own CPU) is the process's whose thread queued the
 * work item a delivery to it was made in (flip_committers()).
 */
static void flip_readers(struct pm_res *r, const struct pm_dump *pm)
{
	size_t i, j;

	for (i = 0; i < r->nwakes; i++) {
		const struct pm_wake *w = &r->wakes[i];
		struct pm_flip *f;

		if (!w->flip || w->flip > r->nflips)
			continue;
		f = &r->flips[w->flip - 1];
		if (!f->reader)
			f->reader = proc_of(pm, w->target, w->ns);
	}
	for (i = 0; i < r->nflips; i++) {
		if (r->flips[i].reader)
			continue;
		for (j = 0; j < r->nflips; j++)
			if (r->flips[j].reader && r->flips[j].file == r->flips[i].file) {
				r->flips[i].reader = r->flips[j].reader;
				break;
			}
	}
}

/*
 * The reader of a DRM file no delivery woke anyone for (the compositor
 * was runnable whenever one came: on virtio-gpu the flip completes right
 * after the commit): the process that committed its flips, whose commit
 * ioctl on the file asked for the events.  A delivery from a kernel
 * worker's work item (a nonblocking commit's commit_work) was committed
 * by the user thread that queued the item.  Runs after flip_readers()
 * and works_index(); a file some delivery woke a reader for keeps that
 * one.
 */
static void flip_committers(struct pm_res *r, const struct pm_dump *pm)
{
	size_t i, j;

	for (i = 0; i < r->nflips; i++) {
		const struct pm_flip *f = &r->flips[i];
		const struct pm_exec *x;
		const struct pm_work *w;
		uint32_t proc;

		if (f->reader || f->ctx != TIPME_CTX_TASK)
			continue;
		w = pm_res_work_running(r, f->who, f->ns);
		x = w && w->queue_ctx == TIPME_CTX_TASK && w->queuer ?
		    pm_exec_at(pm, w->queuer, w->queue_ns) : NULL;
		if (!x || (x->x.flags & TIPME_EXEC_KTHREAD))
			continue;
		proc = proc_of(pm, w->queuer, f->ns);
		for (j = 0; j < r->nflips; j++)
			if (!r->flips[j].reader && r->flips[j].file == f->file)
				r->flips[j].reader = proc;
	}
}

/**
 * pm_flip_read_by() - does a process read a DRM event's file?
 * @pm: the dump (the processes)
 * @f: the event
 * @proc: the process (its TGID)
 *
 * Return: 1 if @proc opened @f's file or is its reader (struct
 * pm_flip.reader), else 0.
 */
int pm_flip_read_by(const struct pm_dump *pm, const struct pm_flip *f, uint32_t proc)
{
	if (f->reader)
		return f->reader == proc;
	return f->owner && (f->owner == proc || proc_of(pm, f->owner, f->ns) == proc);
}

static int lock_pid_cmp(const void *a, const void *b, void *base)
{
	const struct pm_lockwait *l = base;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (l[x].pid != l[y].pid)
		return l[x].pid < l[y].pid ? -1 : 1;
	return (x > y) - (x < y);
}

/* Where the completion times of an array of requests (or bios) are. */
struct done_at {
	const unsigned char *base;
	size_t size;
	size_t off;
};

static int done_cmp(const void *a, const void *b, void *arg)
{
	const struct done_at *d = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int64_t nx, ny;

	memcpy(&nx, d->base + x * d->size + d->off, sizeof(nx));
	memcpy(&ny, d->base + y * d->size + d->off, sizeof(ny));
	if (nx != ny)
		return nx < ny ? -1 : 1;
	return (x > y) - (x < y);
}

/* @n indices 0..n-1 sorted by @cmp (given @arg) into *@out (NULL if none). */
static int index_of(uint32_t **out, const void *arg, size_t n,
		    int (*cmp)(const void *, const void *, void *))
{
	uint32_t *ix;
	size_t i;

	*out = NULL;
	if (!n || n > UINT32_MAX)
		return 0;
	ix = malloc(n * sizeof(*ix));
	if (!ix)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ix[i] = (uint32_t)i;
	qsort_r(ix, n, sizeof(*ix), cmp, (void *)arg);
	*out = ix;
	return 0;
}

int pm_res_index(struct pm_res *r)
{
	struct done_at blk = { (const void *)r->blk, sizeof(*r->blk),
			       offsetof(struct pm_blkreq, complete_ns) };
	struct done_at bio = { (const void *)r->bios, sizeof(*r->bios),
			       offsetof(struct pm_bio, complete_ns) };

	free(r->locks_by_pid);
	free(r->blk_by_done);
	free(r->bios_by_done);
	if (index_of(&r->locks_by_pid, r->locks, r->nlocks, lock_pid_cmp) ||
	    index_of(&r->blk_by_done, &blk, r->nblk, done_cmp) ||
	    index_of(&r->bios_by_done, &bio, r->nbios, done_cmp))
		return -ENOMEM;
	return 0;
}

/* Finish (or, @err < 0, release) the resources; return @err or a new one. */
static int res_bld_end(struct res_bld *b, int err, struct tm_err *e)
{
	struct pm_res *r = b->r;
	size_t i;

	free(b->irq.soft);
	free(b->irq.hard);
	free(b->reads);
	free(b->nn.recv);
	free(b->dn.flip);
	free(b->dn.fence);
	free(b->dn.emits);
	free(b->dn.names);
	if (err < 0) {
		pm_res_free(r);
		return err;
	}
	for (i = 0; i < r->nlocks; i++)
		if (!r->locks[i].end_ns)
			r->locks[i].end_ns = b->last;
	for (i = 0; i < r->nreclaims; i++)
		if (!r->reclaims[i].end_ns)
			r->reclaims[i].end_ns = b->last;
	for (i = 0; i < r->nthrottles; i++)
		if (!r->throttles[i].end_ns)
			r->throttles[i].end_ns = b->last;
	for (i = 0; i < r->nfwaits; i++)
		if (!r->fwaits[i].end_ns)
			r->fwaits[i].end_ns = b->last;
	policies_finish(r);
	flip_readers(r, b->pm);
	if (works_index(r) || members(r, b->pm) || pm_res_index(r)) {
		pm_res_free(r);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	flip_committers(r, b->pm);
	return 0;
}

int pm_res_build(struct pm_res *r, const struct pm_incident *inc,
		 struct tm_err *e)
{
	struct res_bld b;
	struct pm_merge mg;
	struct pm_event ev;
	int err;

	err = res_bld_init(&b, r, inc, e);
	if (!err)
		err = pm_merge_init(&mg, &inc->pm, NULL, e);
	if (err)
		return res_bld_end(&b, err, e);
	while ((err = pm_merge_next(&mg, &ev, e)) > 0)
		if ((err = res_bld_event(&b, &ev, e)) < 0)
			break;
	pm_merge_free(&mg);
	return res_bld_end(&b, err < 0 ? err : 0, e);
}

int pm_state_res_build(struct pm_state *st, struct pm_res *r,
		       const struct pm_incident *inc, struct tm_err *e)
{
	return pm_state_res_build_range(st, r, inc, INT64_MIN, INT64_MAX, e);
}

/*
 * The state and resources from the records of [@from_ns, @to_ns]; with
 * @ck, the state restored from the last checkpoint at or before
 * @from_ns and the records read from there.
 */
static int build_two(struct pm_state *st, struct pm_res *r,
		     const struct pm_incident *inc, const struct pm_ckpts *ck,
		     int64_t from_ns, int64_t to_ns, struct tm_err *e)
{
	struct pm_state_bld *sb;
	struct res_bld b;
	struct pm_merge mg;
	struct pm_event ev;
	int err, gaps = 0;

	err = pm_state_bld_new(&sb, st, inc, e);
	if (!err && ck)
		err = pm_state_bld_restore(sb, ck, from_ns, to_ns, &from_ns, &to_ns, e);
	if (err) {
		pm_state_bld_end(sb, 1);
		memset(r, 0, sizeof(*r));
		return err;
	}
	err = res_bld_init(&b, r, inc, e);
	if (!err)
		err = pm_state_merge_open(&mg, inc, from_ns, to_ns, &gaps, e);
	if (err) {
		pm_state_bld_end(sb, 1);
		return res_bld_end(&b, err, e);
	}
	while ((err = pm_merge_next(&mg, &ev, e)) > 0)
		if ((err = pm_state_bld_event(sb, &ev, e)) < 0 ||
		    (err = res_bld_event(&b, &ev, e)) < 0)
			break;
	pm_merge_free(&mg);
	if (err >= 0 && gaps)
		st->lost = 1;
	if (pm_state_bld_end(sb, err < 0) < 0 && err >= 0)
		err = tm_err_set(e, ENOMEM, "out of memory");
	err = res_bld_end(&b, err < 0 ? err : 0, e);
	if (err < 0)
		pm_state_free(st);
	return err;
}

int pm_state_res_build_range(struct pm_state *st, struct pm_res *r,
			     const struct pm_incident *inc, int64_t from_ns,
			     int64_t to_ns, struct tm_err *e)
{
	return build_two(st, r, inc, NULL, from_ns, to_ns, e);
}

int pm_state_res_build_ckpt(struct pm_state *st, struct pm_res *r,
			    const struct pm_incident *inc, const struct pm_ckpts *ck,
			    int64_t from_ns, int64_t to_ns, struct tm_err *e)
{
	return build_two(st, r, inc, ck, from_ns, to_ns, e);
}

void pm_res_free(struct pm_res *r)
{
	free(r->locks);
	free(r->reclaims);
	free(r->blk);
	free(r->bios);
	free(r->wakes);
	free(r->works);
	free(r->by_worker);
	free(r->inputs);
	free(r->policies);
	free(r->throttles);
	free(r->members);
	free(r->recvs);
	free(r->sends);
	free(r->flips);
	free(r->queued);
	free(r->vblanks);
	free(r->fences);
	free(r->fwaits);
	free(r->locks_by_pid);
	free(r->blk_by_done);
	free(r->bios_by_done);
	memset(r, 0, sizeof(*r));
}

int pm_res_policy(const struct pm_res *r, uint32_t pid)
{
	size_t lo = 0, hi = r->npolicies;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->policies[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->npolicies && r->policies[lo].pid == pid ?
	       (int)r->policies[lo].policy : -1;
}

size_t pm_res_wake_from(const struct pm_res *r, int64_t ns)
{
	size_t lo = 0, hi = r->nwakes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->wakes[mid].ns < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct pm_wake *pm_res_wake_at(const struct pm_res *r, uint32_t pid,
				     int64_t ns)
{
	size_t lo = pm_res_wake_from(r, ns);

	for (; lo < r->nwakes && r->wakes[lo].ns == ns; lo++)
		if (r->wakes[lo].target == pid)
			return &r->wakes[lo];
	return NULL;
}

const struct pm_work *pm_res_work_running(const struct pm_res *r, uint32_t pid,
					  int64_t ns)
{
	const struct pm_work *const *w;
	size_t n = pm_res_works_of(r, pid, ns, &w);

	if (!n || w[0]->start_ns > ns || (w[0]->end_ns && w[0]->end_ns < ns))
		return NULL;
	return w[0];
}

const struct pm_work *pm_res_work_next(const struct pm_res *r, uint32_t pid,
				       int64_t from, int64_t to)
{
	size_t i = works_lower(r, pid, from);

	if (i >= r->nby_worker || r->by_worker[i]->worker != pid ||
	    r->by_worker[i]->start_ns >= to)
		return NULL;
	return r->by_worker[i];
}
