// SPDX-License-Identifier: GPL-2.0
/*
 * A press's path to the screen on a compositor's desktop (flip.h), from
 * the kernel's records alone: scheduler wakeups say who handed work to
 * whom, DRM's events say when the compositor's flips completed.
 *
 *   input ──▶ reader (the compositor's thread evdev woke)
 *         ──▶ client (the first other process a compositor thread woke
 *             from a wait on a socket or in poll/epoll while the reader
 *             dispatched the input, before it waited for work again)
 *         ──▶ commit (the client's last wakeup of a compositor thread
 *             before the compositor committed its next flip)
 *         ──▶ flip (that flip: the first one after the commit, on any
 *             output) ──▶ the refresh that showed it
 */
#include <string.h>

#include "../dump/clock.h"
#include "../dump/tables.h"
#include "flip.h"
#include "segcause.h"

/* The client is followed this long after it was woken, at most. */
#define CLIENT_WITHIN_NS	10000000000LL
/* ... and the compositor's dispatch this long, when it never waits again. */
#define DISPATCH_WITHIN_NS	1000000000LL
/* Outputs that flipped up to this long after the flip are counted. */
#define OUTPUTS_AFTER_NS	100000000LL
/*
 * A compositor's wait for its repaint window after a flip that started
 * its repaint loop, and its repaint after it, take this long at most.
 */
#define REPAINT_WITHIN_NS	100000000LL
/* How many later messages of the client the commit may move to. */
#define COMMIT_MOVES		16

static uint32_t tgid_of(const struct pm_dump *pm, uint32_t pid, int64_t ns)
{
	const struct pm_exec *x = pm_exec_at(pm, pid, ns);

	return x && x->x.tgid ? x->x.tgid : pid;
}

static int kthread(const struct pm_dump *pm, uint32_t pid, int64_t ns)
{
	const struct pm_exec *x = pm_exec_at(pm, pid, ns);

	return x && (x->x.flags & TIPME_EXEC_KTHREAD);
}

/* A wakeup by a task of process @from of a thread of process @to, or 0. */
static int task_wake(const struct pm_dump *pm, const struct pm_wake *w,
		     uint32_t from, uint32_t to)
{
	return w->ctx == TIPME_CTX_TASK && w->waker && w->waker != PM_WAKER_UNKNOWN &&
	       tgid_of(pm, w->waker, w->ns) == from && tgid_of(pm, w->target, w->ns) == to;
}

/* The end of @pid's last run in [@lo, @hi], or 0. */
static int64_t last_run(const struct pm_state *st, uint32_t pid, int64_t lo, int64_t hi)
{
	const struct pm_thread *t = pm_state_thread(st, pid);
	int64_t best = 0;
	size_t j;

	for (j = t ? pm_seg_first(t, lo) : 0; t && j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];

		if (s->start_ns >= hi)
			break;
		if (s->state == PM_T_RUNNING && s->end_ns > lo)
			best = s->end_ns < hi ? s->end_ns : hi;
	}
	return best;
}

/*
 * A compositor thread woken by the delivery of @f (struct pm_wake.flip),
 * or NULL.
 */
static const struct pm_wake *woken_by_flip(const struct pm_dump *pm, const struct pm_res *res,
					   const struct pm_flip *f, uint32_t compositor)
{
	uint32_t id = (uint32_t)(f - res->flips) + 1;
	size_t i;

	for (i = pm_res_wake_from(res, f->ns); i < res->nwakes &&
	     res->wakes[i].ns <= f->ns + REPAINT_WITHIN_NS; i++)
		if (res->wakes[i].flip == id &&
		    tgid_of(pm, res->wakes[i].target, res->wakes[i].ns) == compositor)
			return &res->wakes[i];
	return NULL;
}

/*
 * Whether a task of another process woke a thread of @compositor in (@lo,
 * @hi), other than with an input (pm_seg_input_wake(): a key's release written
 * through uinput; from a device the wakeup is an interrupt's, no task's).
 */
static int news(const struct pm_dump *pm, const struct pm_state *st, const struct pm_res *res,
		uint32_t compositor, int64_t lo, int64_t hi)
{
	size_t i;

	for (i = pm_res_wake_from(res, lo + 1); i < res->nwakes && res->wakes[i].ns < hi; i++) {
		const struct pm_wake *w = &res->wakes[i];

		/* a flip's delivery (by a kernel worker) is no news of a client's */
		if (w->flip || w->ctx != TIPME_CTX_TASK || !w->waker ||
		    w->waker == PM_WAKER_UNKNOWN || pm_seg_input_wake(st, res, w))
			continue;
		if (tgid_of(pm, w->target, w->ns) == compositor &&
		    tgid_of(pm, w->waker, w->ns) != compositor)
			return 1;
	}
	return 0;
}

/*
 * Whether a compositor thread woke a thread of another process, no kernel
 * thread, from task context in (@lo, @hi): told a client something (a
 * frame's done, a presentation's feedback).
 */
static int told(const struct pm_dump *pm, const struct pm_res *res, uint32_t compositor,
		int64_t lo, int64_t hi)
{
	size_t i;

	for (i = pm_res_wake_from(res, lo + 1); i < res->nwakes && res->wakes[i].ns < hi; i++) {
		const struct pm_wake *w = &res->wakes[i];

		if (w->ctx != TIPME_CTX_TASK || !w->waker || w->waker == PM_WAKER_UNKNOWN)
			continue;
		if (tgid_of(pm, w->waker, w->ns) == compositor &&
		    tgid_of(pm, w->target, w->ns) != compositor && !kthread(pm, w->target, w->ns))
			return 1;
	}
	return 0;
}

/*
 * From when the messages of the compositor (its thread @pid) after the
 * delivery of flip @f could answer it: the compositor reads a flip's
 * event in its loop's wait for work, and sends what it queued in its loop's round
 * before (its replies to the commit: a buffer's release) first.  If @pid
 * was asleep in that wait at the delivery, from the delivery.  Else (it
 * ran, or was preempted by the kernel worker that delivered it) from its
 * first message after the delivery, if one came before it next waited for
 * work (that round's), else from the end of that wait; INT64_MAX if it
 * never waited so.
 */
static int64_t answers_from(const struct pm_incident *inc, const struct pm_state *st,
			    const struct pm_res *res, uint32_t compositor, uint32_t pid,
			    const struct pm_flip *f)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_thread *t = pid ? pm_state_thread(st, pid) : NULL;
	const struct pm_seg *wait = NULL;
	size_t i, j;

	for (j = t ? pm_seg_first(t, f->ns) : 0; t && j < t->nsegs && !wait; j++) {
		const struct pm_seg *s = &t->segs[j];

		if (s->state != PM_T_BLOCKED || !pm_seg_idle(inc, s))
			continue;
		if (s->start_ns <= f->ns)
			return f->ns;
		wait = s;
	}
	if (!t)
		return f->ns;
	for (i = pm_res_wake_from(res, f->ns + 1);
	     i < res->nwakes && (!wait || res->wakes[i].ns < wait->start_ns); i++) {
		const struct pm_wake *w = &res->wakes[i];

		if (w->ctx == TIPME_CTX_TASK && w->waker && w->waker != PM_WAKER_UNKNOWN &&
		    tgid_of(pm, w->waker, w->ns) == compositor &&
		    tgid_of(pm, w->target, w->ns) != compositor && !kthread(pm, w->target, w->ns))
			return w->ns;
	}
	return wait ? wait->end_ns : INT64_MAX;
}

/*
 * The kernel work item @f was delivered in, when a thread of @compositor
 * queued it from a task at or after @from_ns (a nonblocking commit's: the
 * commit ioctl queues commit_work, whose worker completes the flip), or
 * NULL.
 */
static const struct pm_work *committed_work(const struct pm_dump *pm, const struct pm_res *res,
					    const struct pm_flip *f, uint32_t compositor,
					    int64_t from_ns)
{
	const struct pm_work *w = f->ctx == TIPME_CTX_TASK ?
				  pm_res_work_running(res, f->who, f->ns) : NULL;

	if (!w || w->queue_ctx != TIPME_CTX_TASK || !w->queuer || w->queue_ns < from_ns ||
	    w->queue_ns > f->ns || tgid_of(pm, w->queuer, w->queue_ns) != compositor)
		return NULL;
	return w;
}

/*
 * The repaint a flip that only started the compositor's repaint loop
 * led to (weston's on a device DRM counts no vblanks of: on an idle output
 * it flips the picture on the screen again to learn when the refresh is,
 * and composes at its repaint window before the next one): the
 * compositor's next flip on the same file and CRTC, delivered within
 * REPAINT_WITHIN_NS after @f, when no other process woke a compositor
 * thread in between (flips' deliveries and inputs aside: news()): a
 * compositor that flips again without news from anyone repaints what it
 * had before the first.
 * Not when the compositor, after it read @f's event (answers_from()) and
 * before its repaint timer (when it never waited for one: before it
 * committed the next flip), told a client something (told()): the flip
 * showed a new frame, the client answered while the compositor was awake
 * (no wakeup to see), and the next flip is that answer's (sway, stopped
 * while a client committed, showing the commit on its first flip once
 * continued).  weston, preempted by the kernel worker that delivers its
 * loop's first flip, sends the client its replies to the commit (a
 * buffer's release) before it reads that flip's event: no frame's news.
 * @thread (in: the compositor's thread the commit woke, 0 if none known;
 * out: the one that repainted) and @timer_ns: the thread @f's delivery
 * woke, else @thread, and the end of its first wait for work after @f
 * that an interrupt ended (its timer; 0: it never waited so, busy past
 * its repaint window).  NULL if there is no such flip.
 */
static const struct pm_flip *repaint_after(const struct pm_incident *inc,
					   const struct pm_state *st, const struct pm_res *res,
					   uint32_t compositor, const struct pm_flip *f,
					   int64_t *timer_ns, uint32_t *thread)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_wake *w = woken_by_flip(pm, res, f, compositor), *end;
	const struct pm_flip *d = NULL;
	const struct pm_work *wk;
	const struct pm_thread *t;
	int64_t from = w ? w->ns : f->ns;
	uint32_t pid = w ? w->target : *thread;
	size_t j;

	for (j = (size_t)(f - res->flips) + 1; j < res->nflips && !d; j++) {
		if (res->flips[j].ns > f->ns + REPAINT_WITHIN_NS)
			return NULL;
		if (res->flips[j].file == f->file && res->flips[j].crtc == f->crtc &&
		    pm_flip_read_by(pm, &res->flips[j], compositor))
			d = &res->flips[j];
	}
	if (!d || news(pm, st, res, compositor, f->ns, d->ns))
		return NULL;
	*timer_ns = 0;
	t = pid ? pm_state_thread(st, pid) : NULL;
	for (j = t ? pm_seg_first(t, from) : 0; t && j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];

		if (s->start_ns >= d->ns)
			break;
		if (s->start_ns <= from || s->state != PM_T_BLOCKED || !pm_seg_idle(inc, s) ||
		    s->waker < 0 || (s->waker > 0 && s->waker_ctx == TIPME_CTX_TASK) ||
		    s->end_ns >= d->ns)
			continue;
		end = pm_res_wake_at(res, t->pid, s->end_ns);
		if (end && !end->flip && !end->fence) {
			*timer_ns = s->end_ns;
			break;
		}
	}
	/* without a wait for its timer, the repaint is the next flip's commit */
	wk = committed_work(pm, res, d, compositor, f->ns);
	if (told(pm, res, compositor, answers_from(inc, st, res, compositor, pid, f),
		 *timer_ns ? *timer_ns : wk ? wk->queue_ns : d->ns))
		return NULL;
	*thread = pid;
	return d;
}

/**
 * pm_flip_after() - a compositor's first page flip committed after a moment
 * @inc: the incident
 * @st: its state
 * @res: its resources (the DRM events)
 * @compositor: the compositor's process
 * @thread: its thread that was working then (the commit is its last run
 *	before the flip when no record says; 0: none known)
 * @after_ns: the moment (the client's commit), CLOCK_MONOTONIC ns
 * @out: the flip
 *
 * The earlier of: the delivery of the first event a compositor thread
 * queued at or after @after_ns (vblank_queued; the queueing is the
 * commit), and the first event delivered at or after @after_ns to a DRM
 * file the compositor reads (a page flip's completion).  On a device with
 * vblanks a flip the compositor committed before @after_ns may still be
 * pending then, and without a vblank_queued record its completion cannot
 * be told from the next one's: the records have no commit of their own.
 * A flip that only started the compositor's repaint loop (repaint_after():
 * the compositor flipped again on the same output within 100 ms, hearing
 * from no other process in between) gives way to that next flip, the
 * repaint's; @out->started is then the first.  The flip's commit
 * (@out->commit_ns, @out->commit_from): the vblank_queued record's time;
 * else the delivery, when a compositor thread sent it; else the queueing
 * of the kernel work item a kernel worker delivered it in, when a
 * compositor thread queued it after the search's start (a nonblocking
 * commit's commit_work); else the end of @thread's last run before the
 * delivery; else @after_ns (or the repaint's timer).
 *
 * Return: 1 with @out set, 0 if the dump has no such flip.
 */
int pm_flip_after(const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_res *res, uint32_t compositor, uint32_t thread,
		  int64_t after_ns, struct pm_flip_end *out)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_flip *f = NULL, *fq = NULL, *f2 = NULL;
	const struct pm_work *wk;
	int64_t q_ns = 0, run, from = after_ns, timer = 0;
	uint32_t crtcs[16];
	size_t i, j, n = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < res->nqueued && !fq; i++) {
		const struct pm_queued *q = &res->queued[i];

		if (q->ns < after_ns || tgid_of(pm, q->who, q->ns) != compositor)
			continue;
		for (j = 0; j < res->nflips; j++) {
			const struct pm_flip *d = &res->flips[j];

			if (d->ns >= q->ns && d->file == q->file && d->crtc == q->crtc &&
			    (!d->seq || !q->seq || d->seq - q->seq < 0x80000000U)) {
				fq = d;
				q_ns = q->ns;
				break;
			}
		}
	}
	for (i = 0; i < res->nflips && !f; i++)
		if (res->flips[i].ns >= after_ns && pm_flip_read_by(pm, &res->flips[i], compositor))
			f = &res->flips[i];
	if (fq && (!f || fq->ns <= f->ns))
		f = fq;
	else
		fq = NULL;
	if (f)
		f2 = repaint_after(inc, st, res, compositor, f, &timer, &thread);
	if (f2) {
		/* that flip only started the repaint loop: the repaint's is the press's */
		out->started = f;
		out->repaint_ns = timer;
		from = timer ? timer : f->ns;
		f = f2;
		fq = NULL;
	}
	if (fq) {
		out->commit_ns = q_ns;
		out->commit_from = PM_COMMIT_QUEUED;
	} else if (f && f->ctx == TIPME_CTX_TASK && tgid_of(pm, f->who, f->ns) == compositor) {
		out->commit_ns = f->ns;
		out->commit_from = PM_COMMIT_DELIVERY;
	} else if (f && (wk = committed_work(pm, res, f, compositor, from))) {
		out->commit_ns = wk->queue_ns;
		out->commit_from = PM_COMMIT_WORK;
	} else if (f) {
		run = thread ? last_run(st, thread, from, f->ns) : 0;
		out->commit_ns = run ? run : from;
		out->commit_from = run ? PM_COMMIT_LAST_RUN : PM_COMMIT_AFTER;
	}
	if (!f)
		return 0;
	out->flip = f;
	out->flip_ns = f->vblank_ns >= out->commit_ns && f->vblank_ns <= f->ns ?
		       f->vblank_ns : f->ns;
	for (i = 0; i < res->nflips; i++) {
		const struct pm_flip *d = &res->flips[i];

		if (d->ns < after_ns || !pm_flip_read_by(pm, d, compositor))
			continue;
		if (d->ns > out->flip_ns + OUTPUTS_AFTER_NS)
			break;
		for (j = 0; j < n && crtcs[j] != d->crtc; j++)
			;
		if (j == n && n < sizeof(crtcs) / sizeof(crtcs[0]))
			crtcs[n++] = d->crtc;
	}
	out->noutputs = (uint32_t)n;
	return 1;
}

/*
 * Was @pid waiting for a message when woken at @ns: in poll, select or
 * epoll, or reading a socket or a pipe?
 */
static int waited_for_message(const struct pm_incident *inc, const struct pm_state *st,
			      uint32_t pid, int64_t ns)
{
	static const char *const sites[] = { "sock", "unix_stream", "recv", "pipe_read" };
	const struct pm_thread *t = pm_state_thread(st, pid);
	size_t j, k;
	uint32_t i;

	for (j = t ? pm_seg_first(t, ns - 1) : 0; t && j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];

		if (s->start_ns >= ns)
			break;
		if (s->state != PM_T_BLOCKED || s->end_ns < ns)
			continue;
		if (pm_seg_idle(inc, s))
			return 1;
		for (i = 0; i < s->nsite; i++) {
			const char *n = pm_sym_name(&inc->pm, s->site[i], NULL);

			for (k = 0; n && k < sizeof(sites) / sizeof(sites[0]); k++)
				if (strstr(n, sites[k]))
					return 1;
		}
		return 0;
	}
	return 0;
}

/* The client woken while the reader dispatched the input; 1 if one was. */
static int woken_client(const struct pm_incident *inc, const struct pm_state *st,
			const struct pm_res *res, struct pm_press_path *p)
{
	const struct pm_dump *pm = &inc->pm;
	int64_t until = p->idle_ns ? p->idle_ns : p->read_ns + DISPATCH_WITHIN_NS;
	uint32_t procs[8];
	size_t i, j;

	for (i = pm_res_wake_from(res, p->read_ns); i < res->nwakes && res->wakes[i].ns <= until;
	     i++) {
		const struct pm_wake *w = &res->wakes[i];
		uint32_t proc;

		if (w->ctx != TIPME_CTX_TASK || !w->waker || w->waker == PM_WAKER_UNKNOWN ||
		    tgid_of(pm, w->waker, w->ns) != p->compositor)
			continue;
		proc = tgid_of(pm, w->target, w->ns);
		if (proc == p->compositor || kthread(pm, w->target, w->ns) ||
		    !waited_for_message(inc, st, w->target, w->ns))
			continue;
		for (j = 0; j < p->nclients && j < 8 && procs[j] != proc; j++)
			;
		if (j < p->nclients)
			continue;
		if (j < 8)
			procs[j] = proc;
		if (!p->nclients++) {
			p->client = w->target;
			p->client_proc = proc;
			p->client_waker = w->waker;
			p->client_ns = w->ns;
		}
	}
	return p->nclients > 0;
}

/* The next wakeup of the compositor by the client in (@after, @before), or NULL. */
static const struct pm_wake *next_message(const struct pm_incident *inc,
					  const struct pm_res *res,
					  const struct pm_press_path *p,
					  int64_t after, int64_t before)
{
	size_t i;

	for (i = pm_res_wake_from(res, after + 1); i < res->nwakes && res->wakes[i].ns < before; i++)
		if (task_wake(&inc->pm, &res->wakes[i], p->client_proc, p->compositor))
			return &res->wakes[i];
	return NULL;
}

/* Where the work items queued (or, before the dump, started) from @ns on begin. */
static size_t work_from(const struct pm_res *res, int64_t ns)
{
	size_t lo = 0, hi = res->nworks, mid;
	int64_t at;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		at = res->works[mid].queue_ns ? res->works[mid].queue_ns :
						res->works[mid].start_ns;
		if (at < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * When @client first passed work on to someone else after @woken: woke
 * another thread (its own process's, another's, a kernel worker; not the
 * compositor's: that is a message to it) or queued a kernel work item, in
 * task context; 0 if it did not before @before.  A terminal writing the
 * key to its pty queues the tty's work, whose worker wakes the shell.
 */
static int64_t passed_on(const struct pm_incident *inc, const struct pm_res *res,
			 uint32_t client, uint32_t compositor, int64_t woken, int64_t before)
{
	int64_t first = 0;
	size_t i;

	for (i = pm_res_wake_from(res, woken + 1); i < res->nwakes && res->wakes[i].ns < before;
	     i++) {
		const struct pm_wake *w = &res->wakes[i];

		if (w->waker == client && w->ctx == TIPME_CTX_TASK && w->target != client &&
		    tgid_of(&inc->pm, w->target, w->ns) != compositor) {
			first = w->ns;
			break;
		}
	}
	for (i = work_from(res, woken + 1); i < res->nworks; i++) {
		const struct pm_work *w = &res->works[i];
		int64_t at = w->queue_ns ? w->queue_ns : w->start_ns;

		if (at >= before || (first && at >= first))
			break;
		if (w->queue_ns && w->queuer == client && w->queue_ctx == TIPME_CTX_TASK) {
			first = at;
			break;
		}
	}
	return first;
}

/*
 * By when the client's first message for the press must come: before the
 * compositor woke @client's thread again from a wait for a message (it had
 * handled the press without a word, and waited for the next), and within
 * CLIENT_WITHIN_NS.  A client busy with the press (computing, asleep, or
 * waiting on a fence) is not waiting for a message from the compositor;
 * one that passed work on before that wait (passed_on()) may be waiting
 * for the answer in it (a terminal, for its shell's echo), and the
 * compositor's message (the key's release, say) proves nothing: it has
 * until CLIENT_WITHIN_NS.
 */
static int64_t answer_by(const struct pm_incident *inc, const struct pm_state *st,
			 const struct pm_res *res, uint32_t client, uint32_t compositor,
			 int64_t woken)
{
	const struct pm_thread *t = pm_state_thread(st, client);
	int64_t limit = woken + CLIENT_WITHIN_NS;
	size_t j;

	for (j = t ? pm_seg_first(t, woken) : 0; t && j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];

		if (s->start_ns >= limit)
			break;
		if (s->start_ns > woken && s->state == PM_T_BLOCKED && pm_seg_idle(inc, s) &&
		    s->waker > 0 && s->waker_ctx == TIPME_CTX_TASK &&
		    tgid_of(&inc->pm, (uint32_t)s->waker, s->end_ns) == compositor)
			return passed_on(inc, res, client, compositor, woken, s->start_ns) ?
			       limit : s->end_ns;
	}
	return limit;
}

/* The first run of @pid that ends after @ns, from @ns on; 0 if none. */
static int64_t runs_from(const struct pm_state *st, uint32_t pid, int64_t ns)
{
	const struct pm_thread *t = pm_state_thread(st, pid);
	size_t j;

	for (j = t ? pm_seg_first(t, ns) : 0; t && j < t->nsegs; j++)
		if (t->segs[j].state == PM_T_RUNNING && t->segs[j].end_ns > ns)
			return t->segs[j].start_ns > ns ? t->segs[j].start_ns : ns;
	return 0;
}

/*
 * @pid's stretch at @ns (the one that begins at @ns, if one ends there),
 * or NULL.
 */
static const struct pm_seg *seg_at(const struct pm_state *st, uint32_t pid, int64_t ns)
{
	const struct pm_thread *t = pm_state_thread(st, pid);
	size_t j;

	for (j = t ? pm_seg_first(t, ns) : 0; t && j < t->nsegs && t->segs[j].start_ns <= ns; j++)
		if (t->segs[j].end_ns > ns)
			return &t->segs[j];
	return NULL;
}

/* Is @s a wait for work (poll, select, epoll ...)? */
static int work_wait(const struct pm_incident *inc, const struct pm_seg *s)
{
	return s && s->state == PM_T_BLOCKED && pm_seg_idle(inc, s);
}

/*
 * Did a thread of @compositor commit in (@lo, @hi): queue a work item (a
 * nonblocking commit queues DRM's commit_work; on virtio-gpu that work
 * delivers the flip) or a vblank event, in task context?  A flip may be
 * pending then.  The module's auto trigger sees the same two
 * (tipme_auto_queued(), tipme_auto_vblank_queued()).
 */
static int committed(const struct pm_incident *inc, const struct pm_res *res,
		     uint32_t compositor, int64_t lo, int64_t hi)
{
	size_t i;

	for (i = 0; i < res->nqueued; i++)
		if (res->queued[i].ns > lo && res->queued[i].ns < hi &&
		    tgid_of(&inc->pm, res->queued[i].who, res->queued[i].ns) == compositor)
			return 1;
	for (i = work_from(res, lo + 1); i < res->nworks; i++) {
		const struct pm_work *w = &res->works[i];
		int64_t at = w->queue_ns ? w->queue_ns : w->start_ns;

		if (at >= hi)
			break;
		if (w->queue_ns && w->queue_ctx == TIPME_CTX_TASK && w->queuer &&
		    tgid_of(&inc->pm, w->queuer, w->queue_ns) == compositor)
			return 1;
	}
	return 0;
}

/*
 * The first end in (@lo, @hi) of a wait for work of the reader @pid that
 * it went through whole without its process committing (committed())
 * since @lo or the end of its previous wait for work, or 0: it went on
 * to other work.  A wakeup by its timer while the flip its process
 * committed before the wait is pending (sway under load) is not one.
 */
static int64_t forgot_at(const struct pm_incident *inc, const struct pm_state *st,
			 const struct pm_res *res, uint32_t pid, uint32_t compositor,
			 int64_t lo, int64_t hi)
{
	const struct pm_thread *t = pm_state_thread(st, pid);
	int64_t from = lo;
	size_t j;

	for (j = t ? pm_seg_first(t, lo) : 0; t && j < t->nsegs && t->segs[j].start_ns < hi; j++) {
		const struct pm_seg *s = &t->segs[j];

		if (s->end_ns <= lo || s->end_ns >= hi || !work_wait(inc, s))
			continue;
		if (!committed(inc, res, compositor, from, s->end_ns))
			return s->end_ns;
		from = s->end_ns;
	}
	return 0;
}

/*
 * Until when a compositor woken from its wait for work went on to other
 * work than the flip @end: its delivery, or, when that flip is the repaint
 * after one that only started the repaint loop (weston), the loop's
 * start: its wait for the repaint window after it is the flip's own.
 */
static int64_t composed(const struct pm_flip_end *end)
{
	return end->started ? end->started->ns : end->flip->ns;
}

/* How the commit was found (struct pm_press_path.commit_by). */
const char *const pm_commit_by_key[PM_COMMIT_BY_NR] = {
	[PM_COMMIT_BY_WAKEUP] = "wakeup",
	[PM_COMMIT_BY_AWAKE] = "awake",
	[PM_COMMIT_BY_STOPPED] = "stopped",
};

/* Candidates of a commit no wakeup shows that are looked at, at most. */
#define UNSEEN_CANDIDATES	256

/**
 * struct unseen - the search for a commit no wakeup shows
 * @p: the path
 * @until: candidates before this
 * @after: ... and after this (the reader woke from its wait for work then)
 * @tried: candidates looked at
 * @found: 1 once one reached a flip, -1 once none can
 */
struct unseen {
	struct pm_press_path *p;
	int64_t until;
	int64_t after;
	int tried;
	int found;
};

/*
 * A candidate of the commit at @e: the client ran while the reader was not
 * waiting for work (@reader is its stretch at @e).  The first one whose
 * flip came before the reader was woken from a wait for work (it went
 * from the client's message to the flip without other work) is the
 * commit, moved on to later ones before that flip's commit.
 */
static void unseen_try(const struct pm_incident *inc, const struct pm_state *st,
		       const struct pm_res *res, struct unseen *u, int64_t e,
		       const struct pm_seg *reader)
{
	struct pm_press_path *p = u->p;
	struct pm_flip_end end;
	int64_t woke;

	if (u->found < 0 || e <= u->after || e >= u->until || work_wait(inc, reader))
		return;
	if (u->found > 0) {
		if (e >= p->end.commit_ns ||
		    forgot_at(inc, st, res, p->reader, p->compositor, e, composed(&p->end)))
			return;
	} else {
		if (++u->tried > UNSEEN_CANDIDATES) {
			u->found = -1;
			return;
		}
		if (!pm_flip_after(inc, st, res, p->compositor, p->reader, e, &end)) {
			u->found = -1;
			return;
		}
		woke = forgot_at(inc, st, res, p->reader, p->compositor, e, composed(&end));
		if (woke) {
			u->after = woke;
			return;
		}
		p->end = end;
		u->found = 1;
	}
	p->commit_ns = e;
	p->committer = p->client;
	p->commit_to = p->reader;
	p->commit_by = reader && reader->state == PM_T_BLOCKED &&
		       reader->block_state == TIPME_TS_STOPPED ? PM_COMMIT_BY_STOPPED :
								 PM_COMMIT_BY_AWAKE;
	p->composit_ns = runs_from(st, p->reader, e);
}

/*
 * A commit no wakeup shows: a compositor thread that is runnable, running
 * or stopped is not woken by the client's message (the scheduler wakes
 * only a sleeper).  Its candidates, in time order, after @after (the
 * client's wakeup, or when it had drawn the answer) up to @until: the end
 * of each run of the client (asleep or preempted) when
 * the reader was not waiting for work then (the client and the reader
 * both awake: a message could pass unseen).  The first candidate whose
 * flip (pm_flip_after()'s) came before the reader was next woken from a
 * wait for work it went through whole without its process committing
 * (forgot_at()) is the commit, moved on to later candidates before that
 * flip's commit while the client did not sleep (only preempted); a client that ran only while the reader slept, or whose
 * every candidate was followed by the reader's waking for other work
 * before a flip, drew nothing (the module's auto trigger keeps the same
 * rule: module/control/autotrig.c).  Return: 1 if that reaches a flip.
 */
static int unseen_commit(const struct pm_incident *inc, const struct pm_state *st,
			 const struct pm_res *res, struct pm_press_path *p, int64_t after,
			 int64_t until)
{
	const struct pm_thread *c = pm_state_thread(st, p->client);
	struct unseen u = { .p = p, .until = until, .after = after };
	size_t j;

	if (!c)
		return 0;
	for (j = pm_seg_first(c, after); j < c->nsegs && u.found >= 0; j++) {
		const struct pm_seg *s = &c->segs[j];

		if (s->start_ns >= until)
			break;
		/* a client that slept after the commit has done that work */
		if (u.found > 0 && s->state == PM_T_BLOCKED)
			break;
		if (s->state == PM_T_RUNNING && s->end_ns > after)
			unseen_try(inc, st, res, &u, s->end_ns, seg_at(st, p->reader, s->end_ns));
	}
	if (u.found <= 0) {
		memset(&p->end, 0, sizeof(p->end));
		return 0;
	}
	return 1;
}

/*
 * The commit from the client's message @c, moved on to its next message
 * as long as that came before the compositor committed the flip found for
 * the one before (a round trip, or a request in several writes), and the
 * flip after it.  Return: 1 if it reaches a flip.
 */
static int commit_and_flip(const struct pm_incident *inc, const struct pm_state *st,
			   const struct pm_res *res, struct pm_press_path *out,
			   const struct pm_wake *c)
{
	const struct pm_wake *next;
	int moves;

	memset(&out->end, 0, sizeof(out->end));
	out->commit_by = PM_COMMIT_BY_WAKEUP;
	for (moves = 0; moves <= COMMIT_MOVES; moves++) {
		if (!pm_flip_after(inc, st, res, out->compositor, c->target, c->ns, &out->end))
			break;
		next = next_message(inc, res, out, c->ns, out->end.commit_ns);
		if (!next)
			break;
		c = next;
	}
	out->commit_ns = c->ns;
	out->committer = c->waker;
	out->commit_to = c->target;
	out->composit_ns = runs_from(st, c->target, c->ns);
	if (!out->end.flip)
		return 0;
	/* a flip the client's commit did not reach */
	if (out->end.flip_ns < out->commit_ns) {
		memset(&out->end, 0, sizeof(out->end));
		return 0;
	}
	return 1;
}

/*
 * When the thread woken at @w (the reader) next waited for work (poll,
 * epoll ...) after it; 0 if never.
 */
static int64_t idle_after(const struct pm_incident *inc, const struct pm_state *st,
			  const struct pm_wake *w)
{
	const struct pm_thread *t = pm_state_thread(st, w->target);
	size_t j;

	for (j = t ? pm_seg_first(t, w->ns) : 0; t && j < t->nsegs; j++) {
		const struct pm_seg *s = &t->segs[j];

		if (s->start_ns <= w->ns || s->state != PM_T_BLOCKED || !pm_seg_idle(inc, s))
			continue;
		/*
		 * A wait no wakeup ended, that began on another CPU soon after
		 * the reader's wakeup: that wakeup ended it, its time on a CPU
		 * whose clock lags (a sleeping task's wakeup is always
		 * recorded); the reader dispatched the input after it.
		 */
		if (s->waker < 0 && s->end_ns != INT64_MAX && s->cpu != w->cpu &&
		    s->start_ns - w->ns <= PM_CPU_SKEW_NS)
			continue;
		return s->start_ns;
	}
	return 0;
}

/*
 * A reader that hands the input to another thread of its process before
 * it waits for work again, having woken no client (a thread of another
 * process, no kernel thread) first: Xorg 21's input thread reads the
 * device and wakes the server's main thread through a pipe, then polls
 * again at once.  That thread, the first the reader woke so in task
 * context, dispatches the input, up to its own next wait for work.  The
 * module's auto trigger follows the same hand-off, once
 * (module/control/autotrig.c, step 2b).
 */
static void hand_off(const struct pm_incident *inc, const struct pm_state *st,
		     const struct pm_res *res, struct pm_press_path *p)
{
	const struct pm_dump *pm = &inc->pm;
	int64_t until = p->idle_ns ? p->idle_ns : p->read_ns + DISPATCH_WITHIN_NS;
	size_t i;

	for (i = pm_res_wake_from(res, p->read_ns + 1); i < res->nwakes && res->wakes[i].ns < until;
	     i++) {
		const struct pm_wake *w = &res->wakes[i];

		if (w->ctx != TIPME_CTX_TASK || w->waker != p->reader || w->target == p->reader ||
		    kthread(pm, w->target, w->ns))
			continue;
		if (tgid_of(pm, w->target, w->ns) != p->compositor)
			return;		/* its client first */
		p->handed_from = p->reader;
		p->handed_ns = w->ns;
		p->reader = w->target;
		p->idle_ns = idle_after(inc, st, w);
		return;
	}
}

/**
 * pm_press_path() - follow a press from its reader to the screen
 * @inc: the incident
 * @st: its state
 * @res: its resources
 * @reader: the wakeup that delivered the input (kinput.h finds it)
 * @press_ns: the input record's time
 * @out: the path
 *
 * The reader is the thread the input woke, or the one it handed the input
 * to (hand_off(): Xorg's input thread wakes the main thread).
 * The client is the first thread of another process that a thread of the
 * reader's process woke from a wait for a message (poll, select, epoll, a
 * socket's or a pipe's read) while the reader dispatched the input, up to
 * its next wait for work; @out->nclients says how many processes were
 * woken so.  Its commit is its first wakeup of a compositor thread after
 * that (before the compositor next woke that thread from a wait for a
 * message: a client that handled the key without a word and waited for
 * the next one has no commit for it; within 10 s), moved on to its next
 * one as long as that came before the
 * compositor committed the flip found for the previous (a round trip, or
 * a request in several writes, before the commit).  The flip is
 * pm_flip_after()'s from the commit.  Before it, the commit no wakeup
 * shows (unseen_commit()), when its flip came before that wakeup (or
 * there is none).
 *
 * Return: 1 if the path reaches a flip, else 0 (@out says how far it got).
 */
int pm_press_path(const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_res *res, const struct pm_wake *reader,
		  int64_t press_ns, struct pm_press_path *out)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_wake *c;
	int64_t by;

	memset(out, 0, sizeof(*out));
	out->press_ns = press_ns;
	out->reader = reader->target;
	out->read_ns = reader->ns;
	out->compositor = tgid_of(pm, reader->target, reader->ns);
	out->idle_ns = idle_after(inc, st, reader);
	hand_off(inc, st, res, out);
	if (!woken_client(inc, st, res, out))
		return 0;
	by = answer_by(inc, st, res, out->client, out->compositor, out->client_ns);
	c = next_message(inc, res, out, out->client_ns, by);
	/*
	 * A commit no wakeup shows whose flip came before the client's first
	 * message (if any) is the press's: the message is a later one (the
	 * module's auto trigger, following the press as it happens, ends it
	 * at that flip too).  A compositor stopped while the client ran
	 * answers so (its answer to the commit may leave no wakeup either --
	 * a client blocked uninterruptibly, in a write, is not woken by it --
	 * so that @by is past the answer and the message a later one).
	 */
	if (unseen_commit(inc, st, res, out, out->client_ns, c ? c->ns : by) &&
	    (!c || out->end.flip->ns <= c->ns))
		return 1;
	if (!c)
		return 0;
	return commit_and_flip(inc, st, res, out, c);
}

/* When @pid next began to wait for work (poll, epoll ...) after @ns; 0 if never. */
static int64_t next_idle(const struct pm_incident *inc, const struct pm_state *st,
			 uint32_t pid, int64_t ns)
{
	const struct pm_thread *t = pm_state_thread(st, pid);
	size_t j;

	for (j = t ? pm_seg_first(t, ns) : 0; t && j < t->nsegs; j++)
		if (t->segs[j].start_ns >= ns && t->segs[j].state == PM_T_BLOCKED &&
		    pm_seg_idle(inc, &t->segs[j]))
			return t->segs[j].start_ns;
	return 0;
}

/**
 * pm_press_reader_end() - where a press that reached no flip ends
 * @inc: the incident
 * @st: its state
 * @p: its path (pm_press_path() returned 0)
 *
 * The reader's next wait for work (poll, epoll ...; the thread the input
 * was handed to, if it was), or, when the client answered with a message
 * that woke a thread of the reader's process (@p->commit_ns) and DRM's
 * flip completions were traced (the dump's parameters say the
 * drm_vblank_event_delivered probe was attached), that thread's next wait
 * for work after it if later: the server executed the client's drawing
 * then, and no flip followed (Xorg drawing a core client's answer into
 * its front buffer).  The module's auto trigger ends such a press there
 * too (module/control/autotrig.c, step 5c), and without flips traced at
 * the reader's wait, as this does.
 *
 * Return: that time, 0 if the reader never waited again.
 */
int64_t pm_press_reader_end(const struct pm_incident *inc, const struct pm_state *st,
			    const struct pm_press_path *p)
{
	int64_t end = p->idle_ns, drawn;
	char tp[16];

	if (!end || !p->commit_ns || p->commit_by != PM_COMMIT_BY_WAKEUP || !p->commit_to ||
	    pm_text_get(&inc->pm.params, "tp.drm_vblank_event_delivered", tp, sizeof(tp)) ||
	    strcmp(tp, "attached") ||
	    tgid_of(&inc->pm, p->commit_to, p->commit_ns) != p->compositor)
		return end;
	drawn = next_idle(inc, st, p->commit_to, p->commit_ns);
	return drawn > end ? drawn : end;
}

/**
 * pm_press_commit_from() - a press's commit and flip from a later moment
 * @inc: the incident
 * @st: its state
 * @res: its resources
 * @p: a path pm_press_path() followed to its client; its commit and flip
 *	are found again
 * @from_ns: when the client's answer began: an X server that is the
 *	compositor's client (Xwayland) executed its own client's drawing
 *	(the X dump says when), and its messages to the compositor before
 *	then were not that answer
 *
 * The commit is the client's first wakeup of a compositor thread at or
 * after @from_ns (within 10 s of the client's wakeup), moved on as in
 * pm_press_path(); the flip is pm_flip_after()'s from it.  When no such
 * wakeup comes before the client's thread next waits for work (poll,
 * epoll ...) after @from_ns, the compositor was not asleep for the commit
 * the client made meanwhile: the commit no wakeup shows (unseen_commit(),
 * its candidates the ends of the client's runs from @from_ns to that
 * wait), else that wait's start, unseen (@p->commit_by
 * PM_COMMIT_BY_AWAKE, to the reader), as pm_press_path()'s.
 *
 * Return: 1 if that reaches a flip, else 0 (@p's commit and flip cleared).
 */
int pm_press_commit_from(const struct pm_incident *inc, const struct pm_state *st,
			 const struct pm_res *res, struct pm_press_path *p, int64_t from_ns)
{
	const struct pm_wake *c;
	int64_t idle;

	p->commit_ns = 0;
	p->committer = p->commit_to = 0;
	p->commit_by = PM_COMMIT_BY_WAKEUP;
	p->composit_ns = 0;
	memset(&p->end, 0, sizeof(p->end));
	if (!p->client)
		return 0;
	idle = next_idle(inc, st, p->client, from_ns);
	c = next_message(inc, res, p, from_ns - 1, p->client_ns + CLIENT_WITHIN_NS);
	if (c && (!idle || c->ns <= idle))
		return commit_and_flip(inc, st, res, p, c);
	/*
	 * no wakeup before the client waited for work again: the compositor
	 * was not asleep for the commit (runnable, composing another frame,
	 * or woken by its frame timer while the client ran): the first end
	 * of a run of the client from @from_ns on, up to that wait, with the
	 * compositor awake, whose flip came before the compositor woke for
	 * other work (Xwayland under TCG, busy 150 ms after the drawing,
	 * committed while sway was up for its timer, and sway flipped 42 ms
	 * before Xwayland waited again); else the end of the run is the commit
	 */
	if (idle && unseen_commit(inc, st, res, p, from_ns - 1, idle + 1))
		return 1;
	if (!idle || !pm_flip_after(inc, st, res, p->compositor, p->reader, idle, &p->end))
		return 0;
	p->commit_ns = idle;
	p->committer = p->client;
	p->commit_to = p->reader;
	p->commit_by = PM_COMMIT_BY_AWAKE;
	p->composit_ns = runs_from(st, p->reader, idle);
	return 1;
}

const char *const pm_reader_by_key[PM_READER_NR] = {
	[PM_READER_NONE] = "none",
	[PM_READER_WAKEUP] = "wakeup",
	[PM_READER_AWAKE] = "awake",
	[PM_READER_FLIP_READER] = "flip_reader",
};

const char *const pm_stage_key[PM_STAGE_NR] = {
	[PM_STAGE_DISPATCH] = "dispatch",
	[PM_STAGE_CLIENT] = "client",
	[PM_STAGE_COMMIT] = "commit_to_compositor",
	[PM_STAGE_COMPOSE] = "compositor_to_flip",
	[PM_STAGE_REFRESH] = "refresh",
	[PM_STAGE_IDLE] = "reader_to_idle",
	[PM_STAGE_X_SERVER] = "x_server",
	[PM_STAGE_X_CLIENT] = "x_client",
	[PM_STAGE_X_DRAW] = "x_drawing",
};

/*
 * @n stages from @press_ns to the flip on the screen at @flip_ns, each
 * ending at @at[i] (kept in order).
 */
static int legs_to(int64_t press_ns, int64_t flip_ns, const int64_t *at, const uint32_t *who,
		   const int *stage, int n, struct pm_press_leg *legs)
{
	int64_t from = press_ns;
	int i;

	for (i = 0; i < n; i++) {
		int64_t to = at[i] > from ? at[i] : from;

		if (i == n - 1 || to > flip_ns)
			to = to > flip_ns ? flip_ns : to;
		legs[i] = (struct pm_press_leg){ stage[i], who[i], from, to };
		from = to;
	}
	return n;
}

/**
 * pm_press_legs() - a press's path as consecutive stages
 * @p: the path (pm_press_path())
 * @legs: PM_PRESS_LEGS entries, filled in order
 *
 * With a flip: the compositor's dispatch (the input to its wakeup of the
 * client), the client (to its commit), the commit reaching the compositor
 * (to its thread running), the compositor composing (to the flip's
 * commit), the refresh (to the flip on the screen); each from where the
 * one before ended, so they add up to the press.  Without a flip, but a
 * reader that waited again: one stage, the reader's.
 *
 * Return: how many legs (0: the reader never waited again in the dump).
 */
int pm_press_legs(const struct pm_press_path *p, struct pm_press_leg *legs)
{
	static const int stage[] = { PM_STAGE_DISPATCH, PM_STAGE_CLIENT, PM_STAGE_COMMIT,
				     PM_STAGE_COMPOSE, PM_STAGE_REFRESH };
	const int64_t at[] = { p->client_ns, p->commit_ns, p->composit_ns,
			       p->end.commit_ns, p->end.flip_ns };
	const uint32_t who[] = { p->reader, p->client, p->commit_to, p->commit_to, 0 };

	if (!p->end.flip) {
		if (!p->idle_ns)
			return 0;
		legs[0] = (struct pm_press_leg){ PM_STAGE_IDLE, p->reader, p->press_ns,
						 p->idle_ns };
		return 1;
	}
	return legs_to(p->press_ns, p->end.flip_ns, at, who, stage, PM_PRESS_LEGS, legs);
}

/**
 * pm_press_legs_x() - the stages of a press to an X client under Xwayland
 * @p: the path, its client the X server (as kinput.c joins it)
 * @xclient: the X client's thread that got the key
 * @handed_ns: when the X server woke it with the key
 * @draw_ns: the X dump's stamp of its last drawing request in answer
 * @legs: PM_PRESS_LEGS_X entries, filled in order
 *
 * The compositor's dispatch (to its wakeup of the X server), the X server
 * (to its wakeup of @xclient), the X client (to its last drawing request),
 * the X server drawing (to its commit to the compositor), then as
 * pm_press_legs(): the commit reaching the compositor, the compositor
 * composing, the refresh.  They add up to the press.
 *
 * Return: how many legs (0: no flip).
 */
int pm_press_legs_x(const struct pm_press_path *p, uint32_t xclient, int64_t handed_ns,
		    int64_t draw_ns, struct pm_press_leg *legs)
{
	static const int stage[] = { PM_STAGE_DISPATCH, PM_STAGE_X_SERVER, PM_STAGE_X_CLIENT,
				     PM_STAGE_X_DRAW, PM_STAGE_COMMIT, PM_STAGE_COMPOSE,
				     PM_STAGE_REFRESH };
	const int64_t at[] = { p->client_ns, handed_ns, draw_ns, p->commit_ns, p->composit_ns,
			       p->end.commit_ns, p->end.flip_ns };
	const uint32_t who[] = { p->reader, p->client, xclient, p->client, p->commit_to,
				 p->commit_to, 0 };

	if (!p->end.flip)
		return 0;
	return legs_to(p->press_ns, p->end.flip_ns, at, who, stage, PM_PRESS_LEGS_X, legs);
}

/**
 * pm_xorg_legs() - the stages of a press to an X client of an X server that flips
 * @e: the X server's flip that showed the drawing (Xorg with modesetting)
 * @server: the X server's thread
 * @xclient: the X client's thread that got the input
 * @press_ns: the X server's device event
 * @handed_ns: when the X server woke @xclient with it
 * @client_ns: where @xclient's part ended: it waited for input again, or
 *	the X server had executed its drawing, if that came first (the
 *	server may run the drawing requests long after the client sent them)
 * @legs: PM_XORG_LEGS entries, filled in order
 *
 * The X server (the device event to its wakeup of @xclient), the X client
 * (to @client_ns), the X server drawing (to the flip's commit), the
 * refresh.  They add up to the press.
 *
 * Return: how many legs (0: no flip).
 */
int pm_xorg_legs(const struct pm_flip_end *e, uint32_t server, uint32_t xclient,
		 int64_t press_ns, int64_t handed_ns, int64_t client_ns, struct pm_press_leg *legs)
{
	static const int stage[] = { PM_STAGE_X_SERVER, PM_STAGE_X_CLIENT, PM_STAGE_X_DRAW,
				     PM_STAGE_REFRESH };
	const int64_t at[] = { handed_ns, client_ns, e->commit_ns, e->flip_ns };
	const uint32_t who[] = { server, xclient, server, 0 };

	if (!e->flip)
		return 0;
	return legs_to(press_ns, e->flip_ns, at, who, stage, PM_XORG_LEGS, legs);
}
