// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict: charge every nanosecond of a thread's interval to the
 * deepest cause that explains it.
 *
 * Walking the thread's stretches inside the interval:
 *  - running: its own computing (memory if it was reclaiming meanwhile;
 *    a lock's, if it was holding one that the waiter above it needed);
 *  - runnable: the CPU, held by whoever ran there most meanwhile; or,
 *    while its cgroup's CPU quota held it off (a cpu_throttle record),
 *    that cgroup's limit;
 *  - stopped: the stopped task itself (and who continued it);
 *  - blocked in the penalty sleep of a memory cgroup over its
 *    memory.high: memory, the sleeper the culprit;
 *  - blocked, woken by another task: that task's time during the wait is
 *    analysed in turn, clipped to the wait (its time before the wait began
 *    is not ours to charge: RSP's rule); a lock wait is charged the same
 *    way to the lock's holder;
 *  - blocked, woken by data a socket it waited on received (network):
 *    until the local peer sent that data, the peer's time, analysed in
 *    turn; from then (or throughout, for a peer the dump does not have),
 *    the data on its way: network, the socket's addresses the resource;
 *  - blocked, woken by an interrupt: the block request completed on the
 *    waking CPU just before (block_io; via a page fault when the thread
 *    blocked in the fault path, with the file or swap the read filled),
 *    else a timer if the thread slept in a sleep call, else unknown;
 *  - blocked, woken by a dma_fence's signal (or waiting in
 *    dma_fence_wait for one signalled meanwhile): gpu, the fence's driver
 *    and timeline the resource, the task that emitted its work (else
 *    signalled it) the culprit;
 *  - blocked, woken by the delivery of a DRM event (a flip's completion,
 *    a vblank) to a file its process reads: display, nobody's fault;
 *    and from the commit of the flip that ends a press to the refresh
 *    that showed it: display;
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
#include "../records/records.h"
#include "segcause.h"
#include "verdict.h"
#include "xdumpfile.h"
#include "xprof.h"

#define MAX_DEPTH	6

/* walk()'s @woke: it woke the waiter above; the press's client, until done */
#define WOKE_WAITER	1
#define WOKE_ANSWER	2

/* The lock a waiter above us needed while we held it, if any. */
struct held {
	char resource[PM_RES_LEN];
	uint32_t waiter;
};

struct va {
	struct pm_verdict *r;
	const struct pm_incident *inc;
	const struct pm_dump *pm;
	const struct pm_state *st;
	const struct pm_res *res;
	size_t cap_items, cap_chain;
	uint32_t stack[MAX_DEPTH + 1];
	int64_t until[MAX_DEPTH + 1];	/* the end of each walk on the stack */
	int depth;
	int oom;
	const struct tm_xdump *x;	/* the incident's X dump, or NULL */
	uint32_t xserver;	/* the X server's PID, 0 if not known */
	uint32_t ours;		/* the interval's process (its tgid) */
	struct run *runs;	/* every running stretch walked, for the hot functions */
	size_t nruns, cap_runs;
	uint32_t pacer;		/* the compositor, while it composes a press's flip */
	int32_t pace_crtc;	/* that flip's CRTC (-1: not known) */
};

/* A running stretch the walk charged, under the step it walked for. */
struct run {
	int parent;
	struct pm_span sp;
};

/* What tells block_io items on one device apart: how, and whose pages. */
struct io_key {
	int via_fault;
	int file_kind;
	uint32_t file_dev;
	uint64_t file_ino;
};

static int same_io(const struct pm_cause_item *it, const struct io_key *k)
{
	return it->via_fault == k->via_fault && it->file_kind == k->file_kind &&
	       it->file_dev == k->file_dev && it->file_ino == k->file_ino;
}

/* Charge @ns to the item of (@cause, @culprit, @resource, @k). */
static struct pm_cause_item *charge_key(struct va *v, int cause, uint32_t culprit,
					const char *resource, int64_t ns,
					const struct io_key *k)
{
	static const struct io_key none;
	struct pm_verdict *r = v->r;
	struct pm_cause_item *it;
	size_t i;

	if (ns <= 0)
		return NULL;
	if (!resource)
		resource = "";
	if (!k)
		k = &none;
	for (i = 0; i < r->nitems; i++) {
		it = &r->items[i];
		if (it->cause == cause && it->culprit == culprit &&
		    !strcmp(it->resource, resource) && same_io(it, k)) {
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
	it->via_fault = k->via_fault;
	it->file_kind = k->file_kind;
	it->file_dev = k->file_dev;
	it->file_ino = k->file_ino;
	it->crtc = -1;
	return it;
}

static struct pm_cause_item *charge(struct va *v, int cause, uint32_t culprit,
				    const char *resource, int64_t ns)
{
	return charge_key(v, cause, culprit, resource, ns, NULL);
}

static int add_step(struct va *v, int parent, uint32_t pid, int64_t a,
		    int64_t b, int cause, const struct pm_seg *s)
{
	struct pm_verdict *r = v->r;
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
	c->waker_intr = PM_INTR_UNKNOWN;
	if (s && s->state == PM_T_BLOCKED && s->waker >= 0) {
		const struct pm_wake *w = pm_res_wake_at(v->res, pid, s->end_ns);

		if (w)
			c->waker_intr = w->intr;
		if (s->waker > 0 && s->waker_ctx == TIPME_CTX_TASK)
			c->waker_work = pm_res_work_running(v->res, (uint32_t)s->waker,
							    s->end_ns);
	}
	return (int)r->nchain++;
}

/* Keep @pid's running [a, b) under step @parent, for its hot functions. */
static void add_run(struct va *v, int parent, uint32_t pid, int64_t a, int64_t b)
{
	struct run *r;

	if (v->nruns == v->cap_runs) {
		size_t n = v->cap_runs ? 2 * v->cap_runs : 16;

		r = realloc(v->runs, n * sizeof(*r));
		if (!r) {
			v->oom = 1;
			return;
		}
		v->runs = r;
		v->cap_runs = n;
	}
	r = &v->runs[v->nruns++];
	r->parent = parent;
	r->sp = (struct pm_span){ .pid = pid, .from_ns = a, .to_ns = b };
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
		for (j = pm_seg_first(t, a); j < t->nsegs && t->segs[j].start_ns < b; j++) {
			int64_t o;

			if (t->segs[j].state != PM_T_RUNNING || t->segs[j].cpu != cpu)
				continue;
			o = pm_seg_overlap(&t->segs[j], a, b);
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

/*
 * The dump's name for @dev in the system section: @suffix "" is the device
 * (tipmed writes blockdev.MAJOR:MINOR=NAME), ".dm" its device-mapper name.
 * Return: 1 with @name set when the dump names it in plain characters.
 */
static int dev_name(const struct va *v, uint32_t dev, const char *suffix,
		    char *name, size_t size)
{
	char key[48];
	const char *p;

	snprintf(key, sizeof(key), "blockdev.%u:%u%s", dev >> 20, dev & 0xfffff, suffix);
	if (pm_text_get(&v->pm->system, key, name, size) || !*name)
		return 0;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-!+:", *p))
			return 0;
	return 1;
}

/*
 * "block device sda (8:0)" when the dump names the device, "block device
 * dm-0 (vg-root, 253:0)" with a device-mapper name, else by number.
 */
static void blk_resource(const struct va *v, uint32_t dev, char *res,
			 size_t size)
{
	unsigned int maj = dev >> 20, min = dev & 0xfffff;
	char name[32], dm[64];

	if (!dev_name(v, dev, "", name, sizeof(name)))
		snprintf(res, size, "block device %u:%u", maj, min);
	else if (dev_name(v, dev, ".dm", dm, sizeof(dm)))
		snprintf(res, size, "block device %s (%s, %u:%u)", name, dm, maj, min);
	else
		snprintf(res, size, "block device %s (%u:%u)", name, maj, min);
}

/*
 * The key of a wait for a read that filled pages of @kind (@dev, @ino):
 * a file's, swap; a block device's own pages are no file's.
 */
static struct io_key io_key(int via_fault, int kind, uint32_t dev, uint64_t ino)
{
	struct io_key k = { via_fault, 0, 0, 0 };

	if (kind == TIPME_BLK_FILE_FILE) {
		k.file_kind = kind;
		k.file_dev = dev;
		k.file_ino = ino;
	} else if (kind == TIPME_BLK_FILE_SWAP) {
		k.file_kind = kind;
	}
	return k;
}

static void file_devname(const struct va *v, struct pm_cause_item *it)
{
	if (it->file_kind == TIPME_BLK_FILE_FILE && !*it->file_devname)
		dev_name(v, it->file_dev, "", it->file_devname, sizeof(it->file_devname));
}

/* Count request @q in block_io item @it: its time in the device and queued. */
static void count_req(struct pm_cause_item *it, const struct pm_blkreq *q)
{
	it->nreq++;
	if (q->issue_ns)
		it->req_ns += q->complete_ns - q->issue_ns;
	if (q->insert_ns && q->issue_ns) {
		it->nqueued++;
		it->queue_ns += q->issue_ns - q->insert_ns;
	}
}

static int64_t overlap(int64_t a, int64_t b, int64_t lo, int64_t hi)
{
	lo = lo > a ? lo : a;
	hi = hi < b ? hi : b;
	return hi > lo ? hi - lo : 0;
}

/* A request below ends one above at most this before its completion. */
#define BELOW_DONE_NS	20000000

/* The requests a stacked request-based device sent below for one of its own. */
struct below {
	uint32_t dev;		/* the device below (0: none found) */
	int64_t sent_ns;	/* the first one's start (insert, else issue) */
	uint32_t n;		/* how many */
	int64_t req_ns;		/* their summed issue-to-completion time */
};

static int64_t blk_start(const struct pm_blkreq *r)
{
	return r->insert_ns ? r->insert_ns : r->issue_ns;
}

/*
 * Whether task @pid woke, from task context in [@from, @to], a kernel
 * worker waiting inside a work item.
 */
static int woke_worker(const struct va *v, uint32_t pid, int64_t from, int64_t to)
{
	const struct pm_res *r = v->res;
	size_t i;

	for (i = pm_res_wake_from(r, from); i < r->nwakes && r->wakes[i].ns <= to; i++) {
		const struct pm_wake *w = &r->wakes[i];

		if (w->waker == pid && w->target != pid && w->ctx == TIPME_CTX_TASK &&
		    pm_res_work_running(r, w->target, w->ns))
			return 1;
	}
	return 0;
}

/*
 * Whether tasks @a and @b worked on the same thing in [@from, @to]: the
 * same task, or one woke the other from task context then.
 */
static int related(const struct va *v, uint32_t a, uint32_t b, int64_t from, int64_t to)
{
	const struct pm_res *r = v->res;
	size_t i;

	if (a == b)
		return 1;
	for (i = pm_res_wake_from(r, from); i < r->nwakes && r->wakes[i].ns <= to; i++) {
		const struct pm_wake *w = &r->wakes[i];

		if (w->ctx == TIPME_CTX_TASK &&
		    ((w->waker == a && w->target == b) || (w->waker == b && w->target == a)))
			return 1;
	}
	return 0;
}

/*
 * Whether @r, a request of another device than @q's, may have been sent
 * below for @q: started after @q was issued and completed by @q's
 * completion, issued by a kernel worker inside a work item (a loop
 * device's worker reading or writing its backing file), or by a task
 * that, once it completed, woke a worker waiting inside its work item (a
 * loop device's flush: its worker fsyncs the backing file and waits for
 * that file system's journal thread, whose requests go below).
 */
static int below_of(const struct va *v, const struct pm_blkreq *q,
		    const struct pm_blkreq *r)
{
	int64_t start = blk_start(r);

	if (r->dev == q->dev || !r->issuer || !r->complete_ns || !start ||
	    start < q->issue_ns || r->complete_ns > q->complete_ns || !r->issue_ns)
		return 0;
	return pm_res_work_running(v->res, r->issuer, start) ||
	       woke_worker(v, r->issuer, r->complete_ns, q->complete_ns);
}

/*
 * The requests a request-based stacked device (a loop device) sent below
 * for its request @q: the one that ended it -- the latest of below_of()'s
 * to complete at most BELOW_DONE_NS before @q did (the loop's completion
 * runs from the one below, in its interrupt or soon after), or one whose
 * worker completed @q itself, or in a softirq run on its way (a read
 * through the page cache, a flush that waited for the backing file
 * system's journal) -- and the
 * others sent to that device meanwhile by its issuer or by a task it
 * woke or was woken by (the worker and the journal thread it waited for).
 * Nothing when no request below passes.  (The records do not link them: a loop worker
 * reads its backing file as any task would.)
 */
static void served_below(const struct va *v, const struct pm_blkreq *q,
			 struct below *bl)
{
	const struct pm_res *r = v->res;
	const struct pm_blkreq *end = NULL;
	size_t i, lo = 0, hi = r->nblk;

	memset(bl, 0, sizeof(*bl));
	if (!q->issue_ns || !q->complete_ns)
		return;
	while (r->blk_by_done && lo < hi) {	/* the first done at or after q's issue */
		size_t mid = lo + (hi - lo) / 2;

		if (r->blk[r->blk_by_done[mid]].complete_ns < q->issue_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* (below_of() wants them done in [q's issue, q's completion]) */
	for (i = lo; i < r->nblk; i++) {
		const struct pm_blkreq *x = &r->blk[r->blk_by_done ? r->blk_by_done[i] : i];

		if (r->blk_by_done && x->complete_ns > q->complete_ns)
			break;
		if (!below_of(v, q, x))
			continue;
		if (q->complete_ns - x->complete_ns > BELOW_DONE_NS && q->complete_pid != x->issuer)
			continue;
		if (!end || x->complete_ns >= end->complete_ns)
			end = x;
	}
	if (!end)
		return;
	bl->dev = end->dev;
	bl->sent_ns = blk_start(end);
	for (i = lo; i < r->nblk; i++) {
		const struct pm_blkreq *x = &r->blk[r->blk_by_done ? r->blk_by_done[i] : i];

		if (r->blk_by_done && x->complete_ns > q->complete_ns)
			break;
		if (x->dev != end->dev || !below_of(v, q, x) ||
		    !related(v, x->issuer, end->issuer, q->issue_ns, q->complete_ns))
			continue;
		bl->n++;
		bl->req_ns += x->complete_ns - x->issue_ns;
		if (blk_start(x) < bl->sent_ns)
			bl->sent_ns = blk_start(x);
	}
}

/* @dev's name into @it's below, else its MAJOR:MINOR. */
static void below_name(const struct va *v, struct pm_cause_item *it, uint32_t dev)
{
	if (!dev_name(v, dev, "", it->below, sizeof(it->below)))
		snprintf(it->below, sizeof(it->below), "%u:%u", dev >> 20, dev & 0xfffff);
}

/*
 * The wait [a, b) ended by request @q, @ns of it charged; @via_fault:
 * the waiter blocked in a page fault.  A request of a stacked
 * request-based device (a loop device) splits into its time in that
 * device, until its worker sent the first request below, and below
 * (served_below()).
 */
static void charge_blk(struct va *v, const struct pm_blkreq *q, int64_t a,
		       int64_t b, int64_t ns, int via_fault)
{
	struct io_key k = io_key(via_fault, q->file_kind, q->file_dev, q->file_ino);
	char res[PM_RES_LEN];
	struct pm_cause_item *it;
	struct below bl;

	blk_resource(v, q->dev, res, sizeof(res));
	it = charge_key(v, PM_C_BLOCK_IO, q->issuer, res, ns, &k);
	if (!it)
		return;
	file_devname(v, it);
	served_below(v, q, &bl);
	if (bl.dev) {
		it->mapper_ns += overlap(a, b, blk_start(q), bl.sent_ns);
		it->below_ns += overlap(a, b, bl.sent_ns, q->complete_ns);
	}
	if (it->last_io == q)
		return;
	it->last_io = q;
	count_req(it, q);
	dev_name(v, q->dev, "", it->device, sizeof(it->device));
	if (!bl.dev)
		return;
	it->nbelow += bl.n;
	it->below_req_ns += bl.req_ns;
	below_name(v, it, bl.dev);
}

/*
 * The block_io item of a wait of @ns on @bio, submitted to a stacked
 * device: its submitter the culprit, the device (and its device-mapper
 * name) named.  Return: the item, or NULL when out of room.
 */
static struct pm_cause_item *bio_item(struct va *v, const struct pm_bio *bio,
				      int64_t ns, int via_fault)
{
	struct io_key k = io_key(via_fault, bio->file_kind, bio->file_dev, bio->file_ino);
	char res[PM_RES_LEN];
	struct pm_cause_item *it;

	blk_resource(v, bio->dev, res, sizeof(res));
	it = charge_key(v, PM_C_BLOCK_IO, bio->submitter, res, ns, &k);
	if (!it)
		return NULL;
	file_devname(v, it);
	dev_name(v, bio->dev, "", it->device, sizeof(it->device));
	dev_name(v, bio->dev, ".dm", it->dm_name, sizeof(it->dm_name));
	return it;
}

/*
 * The wait [a, b) ended by the completion of @bio at the top of a stack:
 * block_io on the device it was submitted to, its submitter the culprit;
 * the wait split into the time the bio was in the stacked device (until
 * its first part went below) and below it, and the requests of the device
 * below that served it (same sectors, issued while it was there).
 */
static void charge_bio(struct va *v, const struct pm_bio *bio, int64_t a,
		       int64_t b, int64_t ns, int via_fault)
{
	struct pm_cause_item *it = bio_item(v, bio, ns, via_fault);
	size_t i;

	if (!it)
		return;
	if (!bio->sent_ns) {
		it->mapper_ns += overlap(a, b, bio->queue_ns, bio->complete_ns);
	} else {
		it->mapper_ns += overlap(a, b, bio->queue_ns, bio->sent_ns);
		it->below_ns += overlap(a, b, bio->sent_ns, bio->complete_ns);
	}
	if (it->last_io == bio)
		return;
	it->last_io = bio;
	it->nbio++;
	if (!bio->sent_ns)
		return;
	below_name(v, it, bio->below_dev);
	for (i = 0; i < v->res->nblk; i++) {
		const struct pm_blkreq *q = &v->res->blk[i];
		uint64_t end = bio->below_sector + (bio->below_bytes >> 9);
		int64_t start = q->insert_ns ? q->insert_ns : q->issue_ns;

		if (q->dev != bio->below_dev || !start || start < bio->sent_ns ||
		    !q->complete_ns || q->complete_ns > bio->complete_ns ||
		    q->sector < bio->below_sector || (q->sector >= end && q->sector != bio->below_sector))
			continue;
		count_req(it, q);
	}
}

/*
 * The wait [a, b) inside the submission of @bio to a stacked device, ended
 * by request @q the device sent below for itself (pm_seg_bio_held(): md's
 * superblock write): block_io on @bio's device, its submitter the culprit,
 * the wait split into the time before @q started (in the device) and
 * @q's time below, which counts among the requests there.  The bio itself
 * is counted when its completion ends a wait.
 */
static void charge_bio_held(struct va *v, const struct pm_bio *bio,
			    const struct pm_blkreq *q, int64_t a, int64_t b,
			    int64_t ns, int via_fault)
{
	struct pm_cause_item *it = bio_item(v, bio, ns, via_fault);

	if (!it)
		return;
	it->mapper_ns += overlap(a, b, bio->queue_ns, blk_start(q));
	it->below_ns += overlap(a, b, blk_start(q), q->complete_ns);
	if (!*it->below)
		below_name(v, it, q->dev);
	if (it->last_io == q)
		return;
	it->last_io = q;
	count_req(it, q);
}

/*
 * @pid computing in [a, b): a kernel worker's time in each work item's
 * function is charged with the item ("work flush_to_ldisc"), the rest
 * plainly.
 */
static void charge_running(struct va *v, uint32_t pid, int64_t a, int64_t b)
{
	char res[PM_RES_LEN], fn[96];
	const struct pm_work *const *ws;
	size_t i, n = pm_res_works_of(v->res, pid, a, &ws);
	int64_t in_work = 0;

	for (i = 0; i < n && ws[i]->start_ns < b; i++) {
		const struct pm_work *w = ws[i];
		int64_t o;

		/* an end the dump lost: until the worker's next item */
		o = overlap(a, b, w->start_ns, w->end_ns ? w->end_ns :
			    i + 1 < n ? ws[i + 1]->start_ns : b);
		if (o <= 0)
			continue;
		snprintf(res, sizeof(res), "work %s", pm_fmt_func(v->pm, w->func, fn, sizeof(fn)));
		charge(v, PM_C_RUNNING, pid, res, o);
		in_work += o;
	}
	charge(v, PM_C_RUNNING, pid, "", b - a - in_work);
}

/*
 * The dump's path and CPU limit of cgroup @id, from the system section
 * (tipmed writes cgroup.ID=PATH and cgroup.ID.cpu_max=QUOTA PERIOD for
 * every cgroup with a limit): "cgroup PATH" in @res, or "cgroup ID" when
 * the dump does not name it (it was removed before the dump).
 */
static void cgroup_resource(const struct va *v, struct pm_cause_item *it,
			    char *res, size_t size)
{
	char key[64], val[PM_RES_LEN];
	long long q, p;
	char tail;

	snprintf(key, sizeof(key), "cgroup.%" PRIu64, it->cgroup_id);
	if (!pm_text_get(&v->pm->system, key, val, sizeof(val)) && val[0] == '/' &&
	    strlen(val) < sizeof(it->cgroup) && !strpbrk(val, " \\"))
		snprintf(it->cgroup, sizeof(it->cgroup), "%s", val);
	snprintf(key, sizeof(key), "cgroup.%" PRIu64 ".cpu_max", it->cgroup_id);
	if (!pm_text_get(&v->pm->system, key, val, sizeof(val)) &&
	    sscanf(val, "%lld %lld%c", &q, &p, &tail) == 2 && q > 0 && p > 0) {
		it->quota_us = q;
		it->period_us = p;
	}
	if (*it->cgroup)
		snprintf(res, size, "cgroup %s", it->cgroup);
	else if (it->cgroup_id)
		snprintf(res, size, "cgroup %" PRIu64, it->cgroup_id);
	else
		snprintf(res, size, "cgroup");
}

/*
 * The part of the runnable stretch [a, b) of @pid on @cpu that its
 * cgroup's CPU quota held it off: cpu_throttled, the cgroup the resource,
 * the culprit the thread that was taken off the CPU when the quota ran
 * out (@pid itself, or another thread of its group: @pid was woken while
 * the group was throttled).  Return: the ns charged.
 */
static int64_t charge_throttle(struct va *v, uint32_t pid, uint32_t cpu,
			       int64_t a, int64_t b)
{
	const struct pm_throttle *th;
	struct pm_cause_item probe = { .quota_us = -1, .period_us = -1 }, *it;
	char res[PM_RES_LEN];
	int64_t ns = pm_seg_throttle(v->res, pid, cpu, a, b, &th);

	if (ns <= 0 || !th)
		return 0;
	probe.cgroup_id = th->cgroup;
	cgroup_resource(v, &probe, res, sizeof(res));
	it = charge(v, PM_C_THROTTLED, th->pid, res, ns);
	if (it) {
		snprintf(it->cgroup, sizeof(it->cgroup), "%s", probe.cgroup);
		it->cgroup_id = probe.cgroup_id;
		it->quota_us = probe.quota_us;
		it->period_us = probe.period_us;
	}
	return ns;
}

/*
 * The memory cgroup reclaim of @t that came before its penalty sleep @s
 * (mem_cgroup_handle_over_high() reclaims, then sleeps): its latest that
 * ended at or before @s began and after its previous sleep ended, with a
 * cgroup over memory.high recorded; NULL if none.
 */
static const struct pm_reclaim *memhigh_reclaim(const struct va *v,
						const struct pm_thread *t,
						const struct pm_seg *s)
{
	const struct pm_reclaim *best = NULL;
	int64_t since = 0;
	size_t i;

	for (i = (size_t)(s - t->segs); i-- > 0;) {
		if (t->segs[i].state == PM_T_BLOCKED) {
			since = t->segs[i].end_ns;
			break;
		}
	}
	for (i = 0; i < v->res->nreclaims && v->res->reclaims[i].start_ns <= s->start_ns; i++) {
		const struct pm_reclaim *m = &v->res->reclaims[i];

		if (m->pid == t->pid && m->kind == TIPME_RECLAIM_MEMCG && m->high_cgroup &&
		    m->end_ns && m->end_ns <= s->start_ns && m->end_ns >= since &&
		    (!best || m->end_ns > best->end_ns))
			best = m;
	}
	return best;
}

/*
 * Charge @ns of @t's penalty sleep @s for its memory cgroup over
 * memory.high: memory, the resource "memory.high throttling", with the
 * cgroup (its path from the dump, as cpu_throttled's) and its limit when
 * the reclaim before it recorded them.
 */
static void charge_memhigh(struct va *v, const struct pm_thread *t,
			   const struct pm_seg *s, int64_t ns)
{
	const struct pm_reclaim *m = memhigh_reclaim(v, t, s);
	struct pm_cause_item probe = { .quota_us = -1, .period_us = -1 }, *it;
	char res[PM_RES_LEN], cg[PM_RES_LEN];

	snprintf(res, sizeof(res), "memory.high throttling");
	if (m) {
		int n;

		probe.cgroup_id = m->high_cgroup;
		cgroup_resource(v, &probe, cg, sizeof(cg));
		n = snprintf(res, sizeof(res), "memory.high throttling in %s (high %.1f MiB)",
			     cg, m->high_kib / 1024.0);
		/* a path too long for the resource: the cgroup's id (JSON: both) */
		if (n < 0 || (size_t)n >= sizeof(res))
			snprintf(res, sizeof(res), "memory.high throttling in cgroup %" PRIu64
				 " (high %.1f MiB)", m->high_cgroup, m->high_kib / 1024.0);
	}
	it = charge(v, PM_C_MEMORY, t->pid, res, ns);
	if (!it)
		return;
	it->sleeps++;
	if (m) {
		snprintf(it->cgroup, sizeof(it->cgroup), "%s", probe.cgroup);
		it->cgroup_id = probe.cgroup_id;
		it->mem_high = (uint64_t)m->high_kib * 1024;
	}
}

/* Charge the part of [a, b) that @pid spent reclaiming; returns it. */
static int64_t charge_reclaim(struct va *v, uint32_t pid, int64_t a, int64_t b)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < v->res->nreclaims; i++) {
		const struct pm_reclaim *m = &v->res->reclaims[i];
		int64_t lo = m->start_ns, hi = m->end_ns;
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
		 int parent, const struct held *held, int woke);

/* The first stretch of @t (or NULL) that starts at or after @ns. */
static size_t seg_starting(const struct pm_thread *t, int64_t ns)
{
	size_t lo = 0, hi = t ? t->nsegs : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->segs[mid].start_ns < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The I/O whose completion woke a worker: a stacked device's bio, or a request. */
struct worker_io {
	const struct pm_bio *bio;
	const struct pm_blkreq *q;
	int64_t start_ns;	/* queued (or issued) */
	int64_t done_ns;	/* completed */
};

/*
 * @worker woke a waiter at @woke_ns, after its last wait before that, a
 * wait for work (a kworker in worker_thread), was ended by an I/O
 * completion: an end_io deferred to a workqueue (ext4's end of writeback,
 * a decrypting target).  The waiter waited for that I/O, then for the
 * worker.  Return: 1 with @io set, else 0.
 */
static int worker_io(const struct va *v, uint32_t worker, int64_t a,
		     int64_t woke_ns, struct worker_io *io)
{
	const struct pm_thread *t = pm_state_thread(v->st, worker);
	const struct pm_seg *last = NULL;
	const struct pm_wake *w;
	size_t j;

	memset(io, 0, sizeof(*io));
	/* the last wait that began before @woke_ns and ended by then; back
	 * from there, since one that ended by @a is no answer either */
	for (j = seg_starting(t, woke_ns); j-- > 0;) {
		const struct pm_seg *g = &t->segs[j];

		if (g->end_ns <= a)
			break;
		if (g->state == PM_T_BLOCKED && g->end_ns <= woke_ns) {
			last = g;
			break;
		}
	}
	if (!last || last->end_ns <= a || !pm_seg_idle(v->inc, last) || last->waker < 0)
		return 0;
	w = pm_res_wake_at(v->res, worker, last->end_ns);
	io->bio = pm_seg_bio_wake(v->res, w);
	if (io->bio) {
		io->start_ns = io->bio->queue_ns;
		io->done_ns = io->bio->complete_ns;
		return 1;
	}
	io->q = pm_seg_blk_wake(v->res, w);
	if (!io->q)
		return 0;
	io->start_ns = io->q->insert_ns ? io->q->insert_ns : io->q->issue_ns;
	io->done_ns = io->q->complete_ns;
	return 1;
}

/*
 * Follow @worker through [lo, hi) of a wait of @t (stretch @s): a step of
 * its own, which the worker's time explains.
 */
static void follow(struct va *v, const struct pm_thread *t, const struct pm_seg *s,
		   uint32_t worker, int64_t lo, int64_t hi, int parent)
{
	int step;

	if (hi <= lo)
		return;
	step = add_step(v, parent, t->pid, lo, hi, PM_C_UNKNOWN, s);
	if (step >= 0) {
		v->r->chain[step].waker = worker;
		v->r->chain[step].waker_ctx = TIPME_CTX_TASK;
	}
	if (v->depth < MAX_DEPTH && !on_stack(v, worker) && step >= 0) {
		v->r->chain[step].followed = 1;
		walk(v, worker, lo, hi, step, NULL, 0);
	} else {
		charge(v, PM_C_UNKNOWN, worker, "", hi - lo);
	}
}

/*
 * Whether @t handed @waker a job just before its wait @s: it woke @waker
 * (ending one of its waits) after its own previous wait, while running up
 * to @s.  A futex wait that such a waker ends is a hand-off (a condition
 * variable: a job and its answer), not a lock the waker held.
 */
static int handed_to(const struct va *v, const struct pm_thread *t,
		     const struct pm_seg *s, uint32_t waker)
{
	const struct pm_thread *w = pm_state_thread(v->st, waker);
	size_t j = (size_t)(s - t->segs), lo = 0, hi;
	int64_t since = 0;

	while (j-- > 0)
		if (t->segs[j].state == PM_T_BLOCKED) {
			since = t->segs[j].end_ns;
			break;
		}
	/* the waker's first stretch that starts at or after @since */
	for (hi = w ? w->nsegs : 0; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->segs[mid].start_ns < since)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ... or the one before, a wait that ends after @since */
	for (j = lo ? lo - 1 : 0; w && j < w->nsegs; j++) {
		const struct pm_seg *g = &w->segs[j];

		if (g->end_ns > s->start_ns)
			break;
		if (g->state == PM_T_BLOCKED && g->end_ns >= since &&
		    g->waker == (int64_t)t->pid && g->waker_ctx == TIPME_CTX_TASK)
			return 1;
	}
	return 0;
}

/* A wait for work: interruptible or TASK_IDLE (a kworker's), at an idle site. */
static int idle_sleep(const struct va *v, const struct pm_seg *s)
{
	return (s->block_state == TIPME_TS_SLEEPING || s->block_state == TIPME_TS_IDLE) &&
	       pm_seg_idle(v->inc, s);
}

/*
 * Whether the X server sent the interval's process a reply during @s
 * (within X's millisecond): a round trip, the server's to explain.
 */
static int round_trip(const struct va *v, const struct pm_seg *s)
{
	struct tipme_x11_client cl;
	struct tipme_x11_rec r;
	uint32_t i;

	for (i = 0; v->x && i < v->x->recs.count; i++) {
		tm_xdump_rec(v->x, i, &r);
		if (r.kind == TIPME_X11_REPLY && r.time_ns <= INT64_MAX &&
		    (int64_t)r.time_ns + 1000000 >= s->start_ns &&
		    (int64_t)r.time_ns <= s->end_ns + 1000000 &&
		    !tm_xdump_client_by_id(v->x, r.client, &cl) && cl.pid &&
		    cl.pid == v->ours)
			return 1;
	}
	return 0;
}

/*
 * The wait for work that @t, which woke a waiter at @t1, was woken from
 * last in (@t0, @t1] by another task: an idle wait (a worker's queue,
 * poll, epoll) whose waker handed it the work that led to the wakeup
 * (a pty's flush to the line discipline, a broker's reply to relay).
 * Return: that stretch, or NULL.
 */
static const struct pm_seg *work_wait(const struct va *v, const struct pm_thread *t,
				      int64_t t0, int64_t t1)
{
	const struct pm_seg *last = NULL;
	size_t lo = seg_starting(t, t1);

	/* from the first stretch that starts at or after @t1, back */
	while (lo-- > 0 && t->segs[lo].end_ns > t0) {
		const struct pm_seg *g = &t->segs[lo];

		if (g->state == PM_T_BLOCKED && g->end_ns <= t1 && idle_sleep(v, g)) {
			last = g;
			break;
		}
	}
	if (!last || last->waker <= 0 || last->waker_ctx != TIPME_CTX_TASK ||
	    (uint32_t)last->waker == t->pid)
		return NULL;
	return last;
}

static void blocked(struct va *v, const struct pm_thread *t,
		    const struct pm_seg *s, int64_t a, int64_t b, int parent);

/*
 * The I/O whose completion queued work item @wk from an interrupt (an
 * end_io deferred to a workqueue), by the rule of a wakeup: a completion
 * on the queueing CPU just before.  Return: 1 with @io set, else 0.
 */
static int work_io(const struct va *v, const struct pm_work *wk, struct worker_io *io)
{
	struct pm_wake w = {
		.ns = wk->queue_ns, .cpu = wk->queue_cpu, .waker = wk->queuer,
		.ctx = wk->queue_ctx, .intr = wk->queue_intr,
	};

	memset(io, 0, sizeof(*io));
	io->bio = pm_seg_bio_wake(v->res, &w);
	if (io->bio) {
		io->start_ns = io->bio->queue_ns;
		io->done_ns = io->bio->complete_ns;
		return 1;
	}
	io->q = pm_seg_blk_wake(v->res, &w);
	if (!io->q)
		return 0;
	io->start_ns = io->q->insert_ns ? io->q->insert_ns : io->q->issue_ns;
	io->done_ns = io->q->complete_ns;
	return 1;
}

/*
 * [a, q) of a wait that kernel worker @worker's work item @wk ended, before
 * @wk was queued: a step of the worker waiting for work (the cause of
 * nothing), whose time is the queuer's.  A task that queued it is followed
 * in turn; an interrupt that queued it after an I/O completed on that CPU
 * is block_io on that I/O; else unknown, the step naming the softirq or
 * interrupt.
 */
static void queued_by(struct va *v, uint32_t worker, const struct pm_work *wk,
		      const struct pm_seg *s, int64_t a, int64_t q, int parent)
{
	struct worker_io io;
	int step;

	if (q <= a)
		return;
	step = add_step(v, parent, worker, a, q, PM_C_UNKNOWN, s);
	if (step >= 0) {
		v->r->chain[step].for_work = wk;
		v->r->chain[step].waker = wk->queuer;
		v->r->chain[step].waker_ctx = (int)wk->queue_ctx;
		v->r->chain[step].waker_intr = wk->queue_intr;
		v->r->chain[step].waker_work = NULL;
	}
	if (wk->queue_ctx == TIPME_CTX_TASK && wk->queuer && wk->queuer != worker &&
	    v->depth < MAX_DEPTH && !on_stack(v, wk->queuer) && step >= 0) {
		v->r->chain[step].followed = 1;
		walk(v, wk->queuer, a, q, step, NULL, 0);
	} else if (wk->queue_ctx != TIPME_CTX_TASK && work_io(v, wk, &io) &&
		   io.start_ns < q) {
		int64_t lo = io.start_ns > a ? io.start_ns : a;

		charge(v, PM_C_UNKNOWN, 0, "", lo - a);
		if (io.bio)
			charge_bio(v, io.bio, lo, q, q - lo, 0);
		else
			charge_blk(v, io.q, lo, q, q - lo, 0);
		if (step >= 0)
			v->r->chain[step].cause = PM_C_BLOCK_IO;
	} else {
		charge(v, PM_C_UNKNOWN, 0, "", q - a);
	}
}

/*
 * [a, b) of @t's stretch @s, a kernel worker waiting for work, reached
 * through the chain: the waiter above waited, until the work item the
 * worker ran next (or ran when this walk ends) was queued, for whoever
 * queued it; the rest of the wait is the worker's own wakeup.
 * Return: 1 if the dump has that work item and its queueing, else 0.
 */
static int waiting_for_work(struct va *v, const struct pm_thread *t,
			    const struct pm_seg *s, int64_t a, int64_t b, int parent)
{
	const struct pm_work *wk;
	int64_t next = INT64_MAX, q;
	size_t j;

	for (j = (size_t)(s - t->segs) + 1; j < t->nsegs; j++)
		if (t->segs[j].state == PM_T_BLOCKED) {
			next = t->segs[j].start_ns;
			break;
		}
	wk = pm_res_work_running(v->res, t->pid, v->until[v->depth]);
	if (!wk || wk->start_ns < s->end_ns || wk->start_ns >= next)
		wk = pm_res_work_next(v->res, t->pid, s->end_ns, next);
	if (!wk || !wk->queue_ns || wk->queue_ns > s->end_ns)
		return 0;
	q = wk->queue_ns < a ? a : wk->queue_ns > b ? b : wk->queue_ns;
	queued_by(v, t->pid, wk, s, a, q, parent);
	if (b > q)
		blocked(v, t, s, q, b, parent);
	return 1;
}

/*
 * The wait [a, b) of @t (stretch @s) that kernel worker @worker ended
 * while it ran work item @wk, queued during the wait: until the queueing
 * the waiter waited for whoever queued it (queued_by()), then for the
 * worker (its wakeup, the items before, the function).
 */
static void via_work(struct va *v, const struct pm_thread *t, const struct pm_seg *s,
		     uint32_t worker, const struct pm_work *wk, int64_t a, int64_t b,
		     int parent)
{
	int64_t q = wk->queue_ns < b ? wk->queue_ns : b;
	int step = add_step(v, parent, t->pid, a, b, PM_C_UNKNOWN, s);

	if (step < 0)
		return;
	if (v->depth >= MAX_DEPTH || on_stack(v, worker)) {
		charge(v, PM_C_UNKNOWN, worker, "", b - a);
		return;
	}
	v->r->chain[step].followed = 1;
	v->stack[++v->depth] = worker;	/* the worker's wait, a level of its own */
	v->until[v->depth] = b;
	queued_by(v, worker, wk, NULL, a, q, step);
	v->depth--;
	if (b > q)
		walk(v, worker, q, b, step, NULL, 0);
}

/*
 * [a, b) of @t's wait @s, ended by data its socket received (@nr), @rest
 * of it not charged yet: until the latest data from the other end was
 * sent, when a local task sent it after the wait began, that peer's time
 * (analysed in turn: computing, sleeping, waiting itself); from then on,
 * network with no culprit, the socket's addresses the resource (a link's
 * delay, a remote peer the dump does not have).
 */
static void net_wait(struct va *v, const struct pm_thread *t, const struct pm_seg *s,
		     const struct pm_net *nr, int64_t a, int64_t b, int64_t rest,
		     int parent)
{
	const struct pm_net *sd = pm_res_net_sent(v->res, nr);
	struct pm_cause_item *it;
	char res[PM_RES_LEN], l[48], r[48];
	int64_t ts = a;
	int step;

	pm_net_addr(nr->family, nr->laddr, nr->lport, l, sizeof(l));
	pm_net_addr(nr->family, nr->raddr, nr->rport, r, sizeof(r));
	snprintf(res, sizeof(res), "%s %s -> %s", pm_net_proto(nr->proto), l, r);
	if (sd && sd->pid && sd->pid != t->pid && sd->ns > a)
		ts = sd->ns < b ? sd->ns : b;
	if (ts > a) {
		step = add_step(v, parent, t->pid, a, ts, PM_C_NETWORK, s);
		if (step >= 0) {
			v->r->chain[step].net = nr;
			v->r->chain[step].waker = sd->pid;
			v->r->chain[step].waker_ctx = TIPME_CTX_TASK;
			v->r->chain[step].waker_intr = PM_INTR_UNKNOWN;
		}
		if (v->depth < MAX_DEPTH && !on_stack(v, sd->pid) && step >= 0) {
			v->r->chain[step].followed = 1;
			walk(v, sd->pid, a, ts, step, NULL, WOKE_WAITER);
		} else {
			charge(v, PM_C_UNKNOWN, sd->pid, "", ts - a);
		}
		rest -= ts - a;
	}
	if (b <= ts)
		return;
	it = charge(v, PM_C_NETWORK, 0, res, rest);
	if (it) {
		snprintf(it->net_proto, sizeof(it->net_proto), "%s", pm_net_proto(nr->proto));
		snprintf(it->net_local, sizeof(it->net_local), "%s", l);
		snprintf(it->net_remote, sizeof(it->net_remote), "%s", r);
	}
	step = add_step(v, parent, t->pid, ts, b, PM_C_NETWORK, s);
	if (step >= 0)
		v->r->chain[step].net = nr;
}

/* Charge [a, b) of a wait that fence signal @f ended: gpu. */
static void charge_gpu(struct va *v, const struct pm_fence *f, int64_t ns)
{
	char res[PM_RES_LEN];
	struct pm_cause_item *it;
	uint32_t signaler = f->sig_ctx == TIPME_CTX_TASK ? f->signaler : 0;

	if (*f->driver || *f->timeline)
		snprintf(res, sizeof(res), "fence %s %s", f->driver, f->timeline);
	else
		snprintf(res, sizeof(res), "fence context %" PRIu64, f->ctx);
	it = charge(v, PM_C_GPU, f->emitter ? f->emitter : signaler, res, ns);
	if (!it)
		return;
	it->other = signaler;
	it->fence_ctx = f->ctx;
	snprintf(it->fence_driver, sizeof(it->fence_driver), "%s", f->driver);
	snprintf(it->fence_timeline, sizeof(it->fence_timeline), "%s", f->timeline);
}

/*
 * Charge @ns of waiting for a refresh of @crtc (-1: not known): display;
 * @window: the compositor's thread that waited for its repaint window
 * before it composed (0: none), an item of its own.
 */
static void charge_display(struct va *v, int32_t crtc, int64_t ns, uint32_t window)
{
	char res[PM_RES_LEN];
	struct pm_cause_item *it;

	if (crtc >= 0)
		snprintf(res, sizeof(res), "crtc %" PRId32 "%s", crtc, window ? " repaint window" : "");
	else
		snprintf(res, sizeof(res), "%s", window ? "repaint window" : "");
	it = charge(v, PM_C_DISPLAY, 0, res, ns);
	if (it) {
		it->crtc = crtc;
		it->other = window;
	}
}

static uint32_t tgid_of(const struct va *v, uint32_t pid, int64_t at);

/* A blocked stretch [a, b) of @t, inside the interval. */
static void blocked(struct va *v, const struct pm_thread *t,
		    const struct pm_seg *s, int64_t a, int64_t b, int parent)
{
	const struct pm_wake *w = NULL;
	const struct pm_lockwait *l;
	const struct pm_blkreq *q;
	const struct pm_bio *bio;
	struct held h = { "", t->pid };
	const char *sl;
	int64_t rest;
	int step, fault;

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
	/* its memory cgroup over memory.high: the kernel's penalty sleep */
	if (pm_seg_memhigh(v->pm, s)) {
		charge_memhigh(v, t, s, rest);
		add_step(v, parent, t->pid, a, b, PM_C_MEMORY, s);
		return;
	}
	l = pm_seg_lock_wait(v->res, t->pid, a, b);
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
			walk(v, holder, a, b, step, &h, 0);
		} else {
			charge(v, PM_C_LOCK, holder, h.resource, rest);
		}
		return;
	}
	/* a completion woke it: a stacked device's bio at the top, a request */
	if (s->waker >= 0)
		w = pm_res_wake_at(v->res, t->pid, s->end_ns);
	fault = pm_seg_fault(v->pm, s);
	bio = pm_seg_bio_wake(v->res, w);
	if (bio) {
		charge_bio(v, bio, a, b, rest, fault);
		add_step(v, parent, t->pid, a, b, PM_C_BLOCK_IO, s);
		return;
	}
	q = pm_seg_blk_wake(v->res, w);
	bio = pm_seg_bio_held(v->pm, v->res, t->pid, s, q);
	if (bio) {
		charge_bio_held(v, bio, q, a, b, rest, fault);
		add_step(v, parent, t->pid, a, b, PM_C_BLOCK_IO, s);
		return;
	}
	if (q) {
		charge_blk(v, q, a, b, rest, fault);
		add_step(v, parent, t->pid, a, b, PM_C_BLOCK_IO, s);
		return;
	}
	if (pm_seg_net_wake(v->res, w)) {
		net_wait(v, t, s, pm_seg_net_wake(v->res, w), a, b, rest, parent);
		return;
	}
	if (pm_seg_fence(v->res, t->pid, s, w)) {
		charge_gpu(v, pm_seg_fence(v->res, t->pid, s, w), rest);
		add_step(v, parent, t->pid, a, b, PM_C_GPU, s);
		return;
	}
	if (pm_seg_flip(v->pm, v->res, t->pid, w)) {
		charge_display(v, (int32_t)pm_seg_flip(v->pm, v->res, t->pid, w)->crtc, rest, 0);
		add_step(v, parent, t->pid, a, b, PM_C_DISPLAY, s);
		return;
	}
	/*
	 * the compositor composing a press's flip, in its wait for work
	 * until an input's delivery woke it (a key's release written through
	 * uinput: the writer's task wakes it, where a keyboard's interrupt
	 * would): the wait for its repaint window it was in, the display's
	 * pace (below), not the writer's doing
	 */
	if (v->pacer && w && w->ctx == TIPME_CTX_TASK && pm_seg_idle(v->inc, s) &&
	    tgid_of(v, t->pid, a) == v->pacer && pm_seg_input_wake(v->st, v->res, w)) {
		charge_display(v, v->pace_crtc, rest, t->pid);
		add_step(v, parent, t->pid, a, b, PM_C_DISPLAY, s);
		return;
	}
	if (s->waker > 0 && s->waker_ctx == TIPME_CTX_TASK &&
	    (uint32_t)s->waker != t->pid) {
		int futex = strstr(pm_seg_site0(v->pm, s), "futex") != NULL;
		const struct pm_work *wk;
		struct worker_io io;

		wk = futex ? NULL : pm_res_work_running(v->res, (uint32_t)s->waker, s->end_ns);
		if (wk && wk->queue_ns > a && !worker_io(v, (uint32_t)s->waker, a, s->end_ns, &io)) {
			via_work(v, t, s, (uint32_t)s->waker, wk, a, b, parent);
			return;
		}
		if (!futex && worker_io(v, (uint32_t)s->waker, a, s->end_ns, &io)) {
			int64_t lo = io.start_ns > a ? io.start_ns : a;
			int64_t hi = io.done_ns < b ? io.done_ns : b;

			lo = lo < b ? lo : b;

			follow(v, t, s, (uint32_t)s->waker, a, lo, parent);
			if (hi > lo) {
				if (io.bio)
					charge_bio(v, io.bio, lo, hi, hi - lo, fault);
				else
					charge_blk(v, io.q, lo, hi, hi - lo, fault);
				add_step(v, parent, t->pid, lo, hi, PM_C_BLOCK_IO, s);
			}
			follow(v, t, s, (uint32_t)s->waker, hi > lo ? hi : lo, b, parent);
			return;
		}

		/* a job handed to the waker just before: a hand-off, no lock */
		if (futex && handed_to(v, t, s, (uint32_t)s->waker))
			futex = 0;
		if (futex)
			snprintf(h.resource, sizeof(h.resource), "futex");
		step = add_step(v, parent, t->pid, a, b,
				futex ? PM_C_LOCK : PM_C_UNKNOWN, s);
		if (v->depth < MAX_DEPTH && !on_stack(v, (uint32_t)s->waker) &&
		    step >= 0) {
			v->r->chain[step].followed = 1;
			walk(v, (uint32_t)s->waker, a, b, step, futex ? &h : NULL,
			     WOKE_WAITER);
		} else {
			charge(v, futex ? PM_C_LOCK : PM_C_UNKNOWN,
			       (uint32_t)s->waker, futex ? "futex" : "", rest);
		}
		return;
	}
	/*
	 * the compositor composing a press's flip, waiting for work until an
	 * interrupt (its timer) woke it: it chose when to compose, the
	 * display's pace (weston's repaint window before the refresh)
	 */
	if (v->pacer && s->waker >= 0 && pm_seg_idle(v->inc, s) &&
	    tgid_of(v, t->pid, a) == v->pacer) {
		charge_display(v, v->pace_crtc, rest, t->pid);
		add_step(v, parent, t->pid, a, b, PM_C_DISPLAY, s);
		return;
	}
	/* woken by an interrupt (or by nothing in the interval) */
	sl = pm_seg_sleep_site(v->pm, s);
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
	const struct pm_exec *x = pm_exec_at(v->pm, pid, at);

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

/*
 * The task that brought the work wait @ww ended with: its waker, or, for
 * a kernel worker that woke it from inside a work item a task queued (a
 * pty's flush_to_ldisc), that task: a shared worker's other waits are
 * for other items, not for this answer.
 */
static uint32_t bringer(const struct va *v, const struct pm_seg *ww)
{
	uint32_t w = (uint32_t)ww->waker;
	const struct pm_work *wk = pm_res_work_running(v->res, w, ww->end_ns);

	if (wk && wk->queue_ctx == TIPME_CTX_TASK && wk->queuer && wk->queuer != w)
		return wk->queuer;
	return w;
}

/*
 * Charge [t0, t1) of @pid's time; @held: it held a lock for a waiter;
 * @woke: it woke a waiter at @t1, so its waits for work before then were
 * waits for the work that the last of them brought (work_wait()): each is
 * charged to the task that brought it, not to whoever else woke it for
 * other work meanwhile.  WOKE_ANSWER: the client of a press, until it was
 * done: its waits for input before the answer to work it handed off
 * (a terminal's echo) were waits for that answer, but for round trips to
 * the X server (a reply during the wait) and when the X server answered.
 */
static void walk(struct va *v, uint32_t pid, int64_t t0, int64_t t1,
		 int parent, const struct held *held, int woke)
{
	const struct pm_thread *t = pm_state_thread(v->st, pid);
	const struct pm_seg *ww = woke ? work_wait(v, t, t0, t1) : NULL;

	/* the answer to a press came from the X server: its rules, not these */
	if (woke == WOKE_ANSWER && ww && v->xserver &&
	    tgid_of(v, (uint32_t)ww->waker, ww->end_ns) == v->xserver)
		ww = NULL;
	struct pm_xprof xp = { 0 };
	int64_t pos = t0;
	int have_xp = 0;
	size_t j;

	v->stack[++v->depth] = pid;
	v->until[v->depth] = t1;
	for (j = pm_seg_first(t, t0); t && j < t->nsegs && t->segs[j].start_ns < t1 &&
	     !v->oom; j++) {
		const struct pm_seg *s = &t->segs[j];
		int64_t a = s->start_ns, b = s->end_ns;
		struct pm_cause_item *it;
		char res[PM_RES_LEN];
		uint32_t culprit;
		int64_t thr;
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
			add_run(v, parent, pid, a, b);
			b -= charge_reclaim(v, pid, a, b);
			if (held) {
				charge(v, PM_C_LOCK, pid, held->resource, b - a);
			} else if (v->x && pid == v->xserver) {
				if (!have_xp) {
					if (pm_xprof_analyse(v->x, NULL, t0, t1, &xp))
						v->oom = 1;
					have_xp = 1;
				}
				charge_xserver(v, &xp, a, b);
			} else {
				charge_running(v, pid, a, b);
			}
			break;
		case PM_T_RUNNABLE:
			/* its cgroup's quota held it off; the rest waited for the CPU */
			thr = charge_throttle(v, pid, s->cpu, a, b);
			snprintf(res, sizeof(res), "cpu %u", s->cpu);
			culprit = cpu_holder(v, s->cpu, pid, a, b, &prio);
			it = charge(v, PM_C_CPU, culprit, res, b - a - thr);
			if (it && prio >= 0)
				it->prio = prio;
			if (it && culprit)
				it->policy = pm_res_policy(v->res, culprit);
			if (b - a >= 1000000)
				add_step(v, parent, pid, a, b,
					 2 * thr > b - a ? PM_C_THROTTLED : PM_C_CPU, s);
			break;
		case PM_T_BLOCKED:
			if (s->block_state == TIPME_TS_DEAD ||
			    s->block_state == TIPME_TS_ZOMBIE)
				charge(v, PM_C_UNKNOWN, 0, "exited", b - a);
			else if (ww && s != ww && s->end_ns <= ww->end_ns &&
				 (s->waker != ww->waker || s->waker_ctx != TIPME_CTX_TASK) &&
				 idle_sleep(v, s) &&
				 (woke != WOKE_ANSWER || !round_trip(v, s)))
				follow(v, t, s, bringer(v, ww), a, b, parent);
			else if (!pm_seg_idle(v->inc, s) ||
				 !waiting_for_work(v, t, s, a, b, parent))
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

/*
 * A press's path to its flip, [t0, t1) up to the flip's commit: the
 * reader's dispatch until it woke the client; the client from then until
 * its commit (the compositor's other wakeups meanwhile, for other clients
 * or other outputs, are not this press's); the compositor thread the
 * commit woke, composing, until the flip's commit.
 */
static void press_path(struct va *v, const struct pm_press_path *p, int64_t t0, int64_t t1)
{
	int64_t a = p->client_ns > t0 ? p->client_ns : t0;
	int64_t b = p->commit_ns < t1 ? p->commit_ns : t1;
	int step;

	a = a < t1 ? a : t1;
	if (a > t0)
		walk(v, p->reader, t0, a, -1, NULL, 0);
	if (b > a && !v->oom) {
		step = add_step(v, -1, p->reader, a, b, PM_C_UNKNOWN, NULL);
		if (step >= 0) {
			v->r->chain[step].handed = 1;
			v->r->chain[step].followed = 1;
			v->r->chain[step].waker = p->client;
			v->r->chain[step].waker_ctx = TIPME_CTX_TASK;
			v->stack[0] = p->reader;
			v->depth = 0;
			walk(v, p->client, a, b, step, NULL, WOKE_WAITER);
			v->depth = -1;
		}
	}
	b = b > a ? b : a;
	if (t1 > b && !v->oom) {
		v->pacer = p->compositor;
		v->pace_crtc = p->end.flip ? (int32_t)p->end.flip->crtc : -1;
		walk(v, p->commit_to, b, t1, -1, NULL, 0);
		v->pacer = 0;
	}
}

/*
 * A press to an X client under Xwayland, [t0, t1) up to where the
 * client's part ended (interval.h, display_ns: it waited for input again
 * or Xwayland had executed its drawing; else Xwayland's commit): the compositor's
 * dispatch until it woke the X server (its client); the X client @pid
 * from then on, as a press of the X dump's (the X server handing it the
 * key and answering its requests is x_server, the client's own waits and
 * running are its).
 */
static void xwayland_path(struct va *v, const struct pm_press_path *p, uint32_t pid,
			  int64_t t0, int64_t t1)
{
	int64_t a = p->client_ns > t0 ? p->client_ns : t0;

	a = a < t1 ? a : t1;
	if (a > t0)
		walk(v, p->reader, t0, a, -1, NULL, 0);
	if (t1 > a && !v->oom)
		walk(v, pid, a, t1, -1, NULL, WOKE_ANSWER);
}

/* By step, thread, then time: each thread's stretches under a step together. */
static int run_cmp(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	if (x->sp.pid != y->sp.pid)
		return x->sp.pid < y->sp.pid ? -1 : 1;
	return (x->sp.from_ns > y->sp.from_ns) - (x->sp.from_ns < y->sp.from_ns);
}

/* The hot functions of every thread the walk found computing (r->hot). */
static int hot_functions(struct va *v)
{
	struct pm_verdict *r = v->r;
	struct pm_span *sp;
	size_t i, j;
	int err = 0;

	if (!v->nruns || !v->st->nsamples)
		return 0;
	qsort(v->runs, v->nruns, sizeof(*v->runs), run_cmp);
	sp = malloc(v->nruns * sizeof(*sp));
	r->hot = calloc(v->nruns, sizeof(*r->hot));
	if (!sp || !r->hot)
		err = -ENOMEM;
	for (i = 0; i < v->nruns && !err; i = j) {
		for (j = i; j < v->nruns && v->runs[j].parent == v->runs[i].parent &&
		     v->runs[j].sp.pid == v->runs[i].sp.pid; j++)
			sp[j - i] = v->runs[j].sp;
		err = pm_hot_compute(v->inc, v->st, v->runs[i].sp.pid, sp, j - i,
				     &r->hot[r->nhot]);
		if (err)
			break;
		r->hot[r->nhot].parent = v->runs[i].parent;
		if (r->hot[r->nhot].samples)
			r->nhot++;
		else
			pm_hot_free(&r->hot[r->nhot]);
	}
	free(sp);
	return err;	/* what was kept, pm_verdict_free() releases */
}

static int item_cmp(const void *a, const void *b)
{
	const struct pm_cause_item *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->cause - y->cause;
}

/**
 * pm_verdict_analyse() - charge a thread's interval to causes
 * @r: result; release with pm_verdict_free()
 * @inc: the incident (its X dump, if any, splits the X server's time)
 * @st: its state
 * @res: its resource waits
 * @iv: the interval: its thread, [from_ns, to_ns), how it was chosen and
 *	where the client was done (display_ns)
 * @e: error message
 *
 * Every nanosecond of [@iv->from_ns, @iv->to_ns) is charged to exactly
 * one item, so the items add up to the interval; what the dump cannot
 * explain is a PM_C_UNKNOWN item.
 *
 * Return: 0 or -ENOMEM.
 */
int pm_verdict_analyse(struct pm_verdict *r, const struct pm_incident *inc,
		       const struct pm_state *st, const struct pm_res *res,
		       const struct pm_interval *iv, struct tm_err *e)
{
	struct va v = { .r = r, .inc = inc, .pm = &inc->pm, .st = st, .res = res, .depth = -1 };
	const struct tm_xdump *x = pm_incident_x(inc);
	uint32_t pid = iv->pid;
	int64_t from_ns = iv->from_ns, to_ns = iv->to_ns, mid, xend, disp = iv->to_ns;
	size_t i;
	int step, xw = 0;

	memset(r, 0, sizeof(*r));
	r->pid = pid;
	r->from_ns = from_ns;
	r->to_ns = to_ns;
	r->chosen_by = iv->chosen_by;
	r->lost = st->lost;
	r->end = iv->end;
	r->reader_by = iv->path.reader_by;
	if (iv->end == PM_END_FLIP) {
		r->path = iv->path;
		disp = iv->path.end.commit_ns;
		disp = disp < from_ns ? from_ns : disp > to_ns ? to_ns : disp;
		r->flip_commit_ns = disp;
	}
	mid = xend = disp;
	if (x) {
		v.x = x;
		v.xserver = pm_xserver_pid(x);
		v.ours = tgid_of(&v, pid, from_ns);
		/* Xwayland: the press's path reached the X server as its client */
		xw = v.xserver && iv->end == PM_END_FLIP && iv->path.client &&
		     iv->path.client_proc == v.xserver && tgid_of(&v, pid, from_ns) != v.xserver;
		r->via_xserver = xw;
		if (xw)
			xend = iv->path.commit_ns < from_ns ? from_ns :
			       iv->path.commit_ns > disp ? disp : iv->path.commit_ns;
		mid = xend;
		if (v.xserver && iv->display_ns > from_ns && iv->display_ns < xend)
			mid = iv->display_ns;
	}
	r->display_ns = mid < xend ? mid : 0;
	if (xw && mid > from_ns)
		xwayland_path(&v, &iv->path, pid, from_ns, mid);
	else if (mid > from_ns && iv->end == PM_END_FLIP && iv->path.client)
		press_path(&v, &iv->path, from_ns, mid);
	else if (mid > from_ns)
		walk(&v, pid, from_ns, mid, -1, NULL,
		     x && (iv->chosen_by == PM_BY_INPUT || iv->chosen_by == PM_BY_AUTO) ?
		     WOKE_ANSWER : 0);
	if (mid < xend && !v.oom) {
		/* the client was done: the rest is the server drawing for it */
		step = add_step(&v, -1, pid, mid, xend, PM_C_X_SERVER, NULL);
		if (step >= 0) {
			r->chain[step].followed = 1;
			r->chain[step].waker = v.xserver;
			v.stack[0] = pid;
			v.depth = 0;
			walk(&v, v.xserver, mid, xend, step, NULL, 0);
			v.depth = -1;
		}
	}
	/* Xwayland's commit of the drawing: the compositor, to its flip */
	if (xend < disp && !v.oom)
		walk(&v, iv->path.commit_to, xend, disp, -1, NULL, 0);
	if (disp < to_ns && !v.oom) {
		/* the flip committed: the display's pace until its refresh */
		charge_display(&v, iv->path.end.flip ? (int32_t)iv->path.end.flip->crtc : -1,
			       to_ns - disp, 0);
		add_step(&v, -1, pid, disp, to_ns, PM_C_DISPLAY, NULL);
	}
	if (!v.oom && hot_functions(&v))
		v.oom = 1;
	free(v.runs);
	if (v.oom) {
		pm_verdict_free(r);
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
 * pm_verdict_free() - release what pm_verdict_analyse() allocated
 * @r: the report
 */
void pm_verdict_free(struct pm_verdict *r)
{
	size_t i;

	for (i = 0; i < r->nhot; i++)
		pm_hot_free(&r->hot[i]);
	free(r->hot);
	free(r->items);
	free(r->chain);
	memset(r, 0, sizeof(*r));
}
