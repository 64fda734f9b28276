// SPDX-License-Identifier: GPL-2.0
/*
 * What one stretch of a thread was, by the verdict's rules (segcause.h):
 * the rules themselves (a lock wait, the block request whose completion
 * woke it, a sleep a timer ends, the site it slept in), which the
 * verdict's walk (verdict.c) applies while following wakers, and the
 * per-stretch answers the timeline, legs and the stall finder use.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../dump/clock.h"
#include "../dump/pm.h"
#include "../dump/tables.h"
#include "segcause.h"

const char *const pm_cause_key[PM_C_NR] = {
	[PM_C_RUNNING] = "running",
	[PM_C_CPU] = "cpu_contention",
	[PM_C_BLOCK_IO] = "block_io",
	[PM_C_LOCK] = "lock",
	[PM_C_MEMORY] = "memory",
	[PM_C_TIMER] = "timer",
	[PM_C_STOPPED] = "stopped",
	[PM_C_X_SERVER] = "x_server",
	[PM_C_THROTTLED] = "cpu_throttled",
	[PM_C_NETWORK] = "network",
	[PM_C_GPU] = "gpu",
	[PM_C_DISPLAY] = "display",
	[PM_C_UNKNOWN] = "unknown",
};

/*
 * A completion this close before a wakeup on the same CPU caused it; and up
 * to BLK_WAKE_IRQ_NS when both ran in the same kind of interrupt of the
 * same task: the end_io path wakes the waiter in the completion's own
 * interrupt, which an emulated machine can stretch (2.007 ms seen between
 * the two under QEMU TCG, its vCPU thread held up by the host).
 */
#define BLK_WAKE_NS	2000000
/* An input's record and its reader's wakeup are this close, either way. */
#define INPUT_CALL_NS	2000000LL
#define BLK_WAKE_IRQ_NS	20000000

const char *pm_seg_sleep_site(const struct pm_dump *pm, const struct pm_seg *s)
{
	static const char *const sleeps[] = {
		"nanosleep", "hrtimer", "schedule_timeout", "msleep", "usleep",
		"do_sys_poll", "do_select", "ep_poll", "futex_wait",
		"do_sigtimedwait",	/* sigtimedwait's timeout, a timer's signal */
	};
	uint32_t i;
	size_t k;

	for (i = 0; i < s->nsite; i++) {
		const char *n = pm_sym_name(pm, s->site[i], NULL);

		for (k = 0; n && k < sizeof(sleeps) / sizeof(sleeps[0]); k++)
			if (strstr(n, sleeps[k]))
				return n;
	}
	return NULL;
}

int pm_seg_fault(const struct pm_dump *pm, const struct pm_seg *s)
{
	/* filemap_fault (and file systems' wrappers), the generic fault path */
	static const char *const faults[] = {
		"filemap_fault", "do_swap_page", "swapin_readahead", "__do_fault",
		"do_read_fault", "do_cow_fault", "do_shared_fault", "handle_mm_fault",
		"do_user_addr_fault", "exc_page_fault", "do_page_fault",
	};
	uint32_t i;
	size_t k;

	for (i = 0; i < s->nsite; i++) {
		const char *n = pm_sym_name(pm, s->site[i], NULL);

		for (k = 0; n && k < sizeof(faults) / sizeof(faults[0]); k++)
			if (strstr(n, faults[k]))
				return 1;
	}
	return 0;
}

const char *pm_seg_site0(const struct pm_dump *pm, const struct pm_seg *s)
{
	const char *n = s->nsite ? pm_sym_name(pm, s->site[0], NULL) : NULL;

	return n ? n : "";
}

int pm_seg_memhigh(const struct pm_dump *pm, const struct pm_seg *s)
{
	return s->state == PM_T_BLOCKED &&
	       !strcmp(pm_seg_site0(pm, s), "mem_cgroup_handle_over_high");
}

const struct pm_lockwait *pm_seg_lock_wait(const struct pm_res *res,
					   uint32_t pid, int64_t a, int64_t b)
{
	size_t i, lo = 0, hi = res->nlocks;

	if (!res->locks_by_pid) {
		for (i = 0; i < res->nlocks; i++) {
			const struct pm_lockwait *l = &res->locks[i];

			if (l->pid == pid && l->start_ns < b && l->end_ns > a)
				return l;
		}
		return NULL;
	}
	/* @pid's waits, in the order of @res->locks: the scan's first */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (res->locks[res->locks_by_pid[mid]].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < res->nlocks; i++) {
		const struct pm_lockwait *l = &res->locks[res->locks_by_pid[i]];

		if (l->pid != pid)
			break;
		if (l->start_ns < b && l->end_ns > a)
			return l;
	}
	return NULL;
}

int64_t pm_seg_throttle(const struct pm_res *res, uint32_t pid, uint32_t cpu,
			int64_t a, int64_t b, const struct pm_throttle **th)
{
	int64_t sum = 0, most = 0, done = a;
	size_t i;

	*th = NULL;
	/* by start: what one adds beyond the ones before is new */
	for (i = 0; i < res->nthrottles && res->throttles[i].start_ns < b; i++) {
		const struct pm_throttle *t = &res->throttles[i];
		int64_t lo = t->start_ns > a ? t->start_ns : a;
		int64_t hi = t->end_ns < b ? t->end_ns : b;

		if (hi <= lo || (t->pid != pid &&
				 (t->cpu != cpu || !pm_res_member(res, pid, t->cgroup))))
			continue;
		if (hi - lo > most) {
			most = hi - lo;
			*th = t;
		}
		lo = lo > done ? lo : done;
		if (hi > lo) {
			sum += hi - lo;
			done = hi;
		}
	}
	return sum;
}

/*
 * Whether a completion at @ns on @cpu, in @ctx of @pid, made the wakeup @w:
 * on the waking CPU, at most BLK_WAKE_NS before it (BLK_WAKE_IRQ_NS in one
 * interrupt), and when a task woke, in that very task.
 */
static int completion_woke(const struct pm_wake *w, int64_t ns, uint32_t cpu,
			   uint32_t ctx, uint32_t pid)
{
	int64_t dt;

	if (!ns || cpu != w->cpu || ns > w->ns)
		return 0;
	if (w->ctx == TIPME_CTX_TASK &&
	    (ctx != TIPME_CTX_TASK || pid != w->waker || w->waker == PM_WAKER_UNKNOWN))
		return 0;
	dt = w->ns - ns;
	if (dt > BLK_WAKE_NS &&
	    (dt > BLK_WAKE_IRQ_NS || ctx == TIPME_CTX_TASK || ctx != w->ctx || pid != w->waker))
		return 0;
	return 1;
}

/* A completion: of a block request or of a bio. */
struct done {
	int64_t ns;
	uint32_t cpu, ctx, pid;
};

static void blk_done(const void *base, size_t i, struct done *d)
{
	const struct pm_blkreq *q = (const struct pm_blkreq *)base + i;

	*d = (struct done){ q->complete_ns, q->complete_cpu, q->complete_ctx,
			    q->complete_pid };
}

static void bio_done(const void *base, size_t i, struct done *d)
{
	const struct pm_bio *b = (const struct pm_bio *)base + i;

	*d = (struct done){ b->complete_ns, b->complete_cpu, b->complete_ctx,
			    b->complete_pid };
}

/*
 * The latest of the @n completions of @base (entries of @size bytes, read
 * by @get) that made @w, the first of several at that time; its index, or
 * -1.  With @by_done (the indices by completion time, then index) only
 * those in the window completion_woke() accepts are looked at, else all.
 */
static ptrdiff_t latest_woke(const void *base, size_t n, const uint32_t *by_done,
			     void (*get)(const void *, size_t, struct done *),
			     const struct pm_wake *w)
{
	size_t i = 0, hi = n, at;
	struct done d, best = { 0 };
	ptrdiff_t found = -1;

	if (!w)
		return -1;
	while (by_done && i < hi) {	/* the first at or after the window */
		size_t mid = i + (hi - i) / 2;

		get(base, by_done[mid], &d);
		if (d.ns < w->ns - BLK_WAKE_IRQ_NS)
			i = mid + 1;
		else
			hi = mid;
	}
	for (; i < n; i++) {
		at = by_done ? by_done[i] : i;
		get(base, at, &d);
		if (by_done && d.ns > w->ns)
			break;
		if (!completion_woke(w, d.ns, d.cpu, d.ctx, d.pid))
			continue;
		if (found < 0 || d.ns > best.ns) {
			best = d;
			found = (ptrdiff_t)at;
		}
	}
	return found;
}

const struct pm_blkreq *pm_seg_blk_wake(const struct pm_res *res,
					const struct pm_wake *w)
{
	ptrdiff_t i = latest_woke(res->blk, res->nblk, res->blk_by_done, blk_done, w);

	return i < 0 ? NULL : &res->blk[i];
}

const struct pm_bio *pm_seg_bio_wake(const struct pm_res *res,
				     const struct pm_wake *w)
{
	ptrdiff_t i = latest_woke(res->bios, res->nbios, res->bios_by_done, bio_done, w);

	return i < 0 ? NULL : &res->bios[i];
}

/* A bio queued this long before a wait is not the one it submits. */
#define BIO_HELD_NS	1000000000LL

/* Whether the dump lists device @below among the slaves of device @top. */
static int slave_of(const struct pm_dump *pm, uint32_t below, uint32_t top)
{
	char key[48], name[64], list[512];
	const char *p;
	size_t n;

	snprintf(key, sizeof(key), "blockdev.%u:%u", below >> 20, below & 0xfffff);
	if (pm_text_get(&pm->system, key, name, sizeof(name)) || !*name)
		return 0;
	snprintf(key, sizeof(key), "blockdev.%u:%u.slaves", top >> 20, top & 0xfffff);
	if (pm_text_get(&pm->system, key, list, sizeof(list)))
		return 0;
	n = strlen(name);
	for (p = list; *p; p += strcspn(p, ","), p += *p == ',') {
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || !p[n]))
			return 1;
	}
	return 0;
}

const struct pm_bio *pm_seg_bio_held(const struct pm_dump *pm,
				     const struct pm_res *res, uint32_t pid,
				     const struct pm_seg *s,
				     const struct pm_blkreq *q)
{
	size_t lo = 0, hi = res->nbios;

	if (!q || !res->nbios)
		return NULL;
	while (lo < hi) {	/* the first bio queued after the wait began */
		size_t mid = lo + (hi - lo) / 2;

		if (res->bios[mid].queue_ns <= s->start_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		const struct pm_bio *b = &res->bios[lo];

		if (s->start_ns - b->queue_ns > BIO_HELD_NS)
			break;
		if (b->submitter != pid)
			continue;
		if ((b->sent_ns && b->sent_ns < s->end_ns) ||
		    (b->complete_ns && b->complete_ns < s->end_ns) ||
		    !slave_of(pm, q->dev, b->dev))
			return NULL;
		return b;
	}
	return NULL;
}

const struct pm_net *pm_seg_net_wake(const struct pm_res *res,
				     const struct pm_wake *w)
{
	return w && w->net && w->net <= res->nrecvs ? &res->recvs[w->net - 1] : NULL;
}

/**
 * pm_seg_fence() - the dma_fence whose signal ended a wait
 * @res: resources
 * @pid: the waiter
 * @s: its blocked stretch
 * @w: the wakeup that ended it, or NULL
 *
 * The signal the wakeup followed (struct pm_wake.fence: signalled just
 * before on the waking CPU, in the same context), else the signal, inside
 * the stretch, of the fence @pid waited on through dma_fence_wait (its
 * wait_start before the stretch and its wait_end after).
 *
 * Return: the signal, or NULL.
 */
const struct pm_fence *pm_seg_fence(const struct pm_res *res, uint32_t pid,
				    const struct pm_seg *s, const struct pm_wake *w)
{
	size_t i, j;

	if (w && w->fence && w->fence <= res->nfences)
		return &res->fences[w->fence - 1];
	for (i = 0; i < res->nfwaits; i++) {
		const struct pm_fence_wait *fw = &res->fwaits[i];

		if (fw->start_ns > s->start_ns)
			break;
		if (fw->pid != pid || fw->end_ns < s->end_ns)
			continue;
		for (j = 0; j < res->nfences; j++) {
			const struct pm_fence *f = &res->fences[j];

			if (f->ctx == fw->ctx && f->seqno == fw->seqno &&
			    f->ns >= s->start_ns && f->ns <= s->end_ns)
				return f;
		}
	}
	return NULL;
}

/**
 * pm_seg_input_wake() - whether a wakeup delivered an input the kernel recorded
 * @st: the state (where the waker ran)
 * @res: resources (the inputs)
 * @w: the wakeup
 *
 * evdev wakes the reader in the call that hands the input to tipme's
 * handler too, in the context the input came in: from a device an
 * interrupt, from a uinput device the writing task's, on the CPU of the
 * input's record, that task running from one to the other (kinput.c).
 *
 * Return: 1 if @w is such a wakeup, else 0.
 */
int pm_seg_input_wake(const struct pm_state *st, const struct pm_res *res,
		      const struct pm_wake *w)
{
	size_t lo = 0, hi = res->ninputs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (res->inputs[mid].ns < w->ns - INPUT_CALL_NS)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < res->ninputs && res->inputs[lo].ns <= w->ns + INPUT_CALL_NS; lo++)
		if (res->inputs[lo].cpu == w->cpu &&
		    pm_ran_through(st, w->waker, w->cpu, res->inputs[lo].ns, w->ns))
			return 1;
	return 0;
}

/**
 * pm_seg_flip() - the DRM event whose delivery ended a wait of its reader
 * @pm: the dump (the readers' processes)
 * @res: resources
 * @pid: the woken thread
 * @w: the wakeup, or NULL
 *
 * Return: the event delivered just before @w on its CPU, in its context
 * (struct pm_wake.flip), to a file @pid's process reads; or NULL.
 */
const struct pm_flip *pm_seg_flip(const struct pm_dump *pm, const struct pm_res *res,
				  uint32_t pid, const struct pm_wake *w)
{
	const struct pm_flip *f;
	const struct pm_exec *x;

	if (!w || !w->flip || w->flip > res->nflips)
		return NULL;
	f = &res->flips[w->flip - 1];
	x = pm_exec_at(pm, pid, w->ns);
	if (!pm_flip_read_by(pm, f, x && x->x.tgid ? x->x.tgid : pid))
		return NULL;
	return f;
}

/**
 * pm_seg_cause() - what one stretch of a thread was, by the verdict's rules
 * @inc: the incident
 * @res: its resources
 * @pid: the thread
 * @s: one of its stretches
 * @xserver: the X server's PID (0: not known)
 *
 * The rules of the verdict's walk (verdict.c) for a single stretch, without following
 * wakers: for pictures and tables that colour each stretch.
 *
 * Return: enum pm_cause: running (memory if it was reclaiming),
 * cpu_contention (runnable; cpu_throttled when its cgroup's CPU quota
 * held it off for most of the stretch), stopped, memory (reclaiming, or
 * the penalty sleep of a memory cgroup over memory.high,
 * pm_seg_memhigh()), lock (a recorded lock wait, or a
 * futex a task ended), block_io (a completion on the waking CPU
 * just before: a stacked device's bio at the top, or a request; by a task
 * only in that task), network (data a socket it waited on received just
 * before, on the waking CPU), gpu (a dma_fence's signal ended it,
 * pm_seg_fence()), display (the delivery of a DRM event it reads ended
 * it, pm_seg_flip()), x_server (the X server woke it), timer (a sleep call an
 * interrupt ended), unknown (woken by another task: what it waited for is
 * that task's; or nothing says).
 */
int pm_seg_cause(const struct pm_incident *inc, const struct pm_res *res,
		 uint32_t pid, const struct pm_seg *s, uint32_t xserver)
{
	const struct pm_dump *pm = &inc->pm;
	int64_t a = s->start_ns, b = s->end_ns;
	const struct pm_wake *w;
	size_t i;

	for (i = 0; i < res->nreclaims && s->state != PM_T_RUNNABLE; i++) {
		const struct pm_reclaim *m = &res->reclaims[i];

		if (m->pid == pid && m->start_ns < b && m->end_ns > a)
			return PM_C_MEMORY;
	}
	switch (s->state) {
	case PM_T_RUNNING:
		return PM_C_RUNNING;
	case PM_T_RUNNABLE: {
		const struct pm_throttle *th;

		/* the larger part decides */
		if (2 * pm_seg_throttle(res, pid, s->cpu, a, b, &th) > b - a)
			return PM_C_THROTTLED;
		return PM_C_CPU;
	}
	case PM_T_BLOCKED:
		break;
	default:
		return PM_C_UNKNOWN;
	}
	if (s->block_state == TIPME_TS_STOPPED || s->block_state == TIPME_TS_TRACED)
		return PM_C_STOPPED;
	if (pm_seg_memhigh(pm, s))
		return PM_C_MEMORY;
	if (pm_seg_lock_wait(res, pid, a, b))
		return PM_C_LOCK;
	w = s->waker >= 0 ? pm_res_wake_at(res, pid, s->end_ns) : NULL;
	if (pm_seg_bio_wake(res, w) || pm_seg_blk_wake(res, w))
		return PM_C_BLOCK_IO;
	if (pm_seg_net_wake(res, w))
		return PM_C_NETWORK;
	if (pm_seg_fence(res, pid, s, w))
		return PM_C_GPU;
	if (pm_seg_flip(pm, res, pid, w))
		return PM_C_DISPLAY;
	if (s->waker > 0 && s->waker_ctx == TIPME_CTX_TASK) {
		if (xserver && (uint32_t)s->waker == xserver)
			return PM_C_X_SERVER;
		return strstr(pm_seg_site0(pm, s), "futex") ? PM_C_LOCK : PM_C_UNKNOWN;
	}
	if (pm_seg_sleep_site(pm, s) && s->block_state == TIPME_TS_SLEEPING)
		return PM_C_TIMER;
	return PM_C_UNKNOWN;
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
	static const char *const idle[] = {
		"do_wait", "poll", "select", "ep_poll", "worker_thread",
		"smpboot_thread", "kthreadd", "rcu_gp", "kswapd", "do_sigtimedwait",
	};
	const struct pm_dump *pm = &inc->pm;
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
