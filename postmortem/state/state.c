// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuild every thread's running / runnable / blocked stretches from the
 * sched_switch, sched_waking and blocked records, in time order.
 *
 *   switch prev->next on CPU c at t:  prev's running stretch ends; it is
 *       runnable from t if it was preempted or still runnable, else blocked
 *       (with its task state); next's stretch ends and it runs on c.
 *   waking of p by w at t:  if p was blocked, that stretch ends with waker
 *       w, and p is runnable (woken, waiting for a CPU) from t.  If p was
 *       still running, the wakeup is kept: a task is woken while it is
 *       still on its way off the CPU (sched_waking fires before the waker
 *       waits for that), and when its switch-out to sleep follows, the
 *       sleep is over at once (runnable from the switch, woken by w).  But
 *       the kept wakeup may instead have found p still running its wait
 *       loop, which then went to sleep again: a wakeup is only traced for
 *       a sleeping task, so another waking of p before it next runs proves
 *       that, and the sleep lasts until that waking.
 *   blocked record for p:  where p's current blocked stretch went to sleep.
 *   prof record for p at t:  a sample of the on-CPU profiler, kept as it is
 *       (struct pm_psample) for the analyses that name what p computed.
 *   sampler entry for p at t:  if nothing has said what p is doing (before
 *       its first record, or after a gap), p is running, runnable or
 *       blocked (with its task state) from t, as the sampler saw it; only
 *       once every CPU's records have begun, so that no switch or wakeup
 *       of p after t can be missing.
 *   the sampler's table at the dump:  the same for each thread whose
 *       records do not say what it does where they end (on_smpsnap()).
 *
 * The idle tasks (pid 0) are not tracked.  A gap in a CPU's stream (lost
 * sub-buffers) makes every open stretch unknown from there on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/decode.h"
#include "../dump/index.h"
#include "../dump/tables.h"
#include "../records/records.h"
#include "state.h"
#include "ckpt.h"

/* Open-addressing map pid -> index in threads (build time only). */
struct pidmap {
	uint32_t *keys;
	size_t *vals;
	size_t cap;
};

static size_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	return x;
}

static int map_grow(struct pidmap *m)
{
	struct pidmap n = { .cap = m->cap ? m->cap * 2 : 1024 };
	size_t i, j;

	n.keys = calloc(n.cap, sizeof(*n.keys));
	n.vals = calloc(n.cap, sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		for (j = hash32(m->keys[i]) & (n.cap - 1); n.keys[j];
		     j = (j + 1) & (n.cap - 1))
			;
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

static struct pm_thread *thread_get(struct pm_state *st, struct pidmap *m,
				    uint32_t pid)
{
	struct pm_thread *t;
	size_t j;

	if (st->nthreads * 2 >= m->cap && map_grow(m))
		return NULL;
	for (j = hash32(pid) & (m->cap - 1); m->keys[j]; j = (j + 1) & (m->cap - 1))
		if (m->keys[j] == pid)
			return &st->threads[m->vals[j]];
	if (!(st->nthreads & (st->nthreads - 1))) {
		t = realloc(st->threads, (st->nthreads ? st->nthreads * 2 : 64) *
			    sizeof(*t));
		if (!t)
			return NULL;
		st->threads = t;
	}
	t = &st->threads[st->nthreads];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	m->keys[j] = pid;
	m->vals[j] = st->nthreads++;
	return t;
}

static struct pm_seg *cur(struct pm_thread *t)
{
	return t->nsegs ? &t->segs[t->nsegs - 1] : NULL;
}

/* End the current stretch at @ns and open one in @state. */
static struct pm_seg *open_seg(struct pm_thread *t, int64_t ns, int state)
{
	struct pm_seg *s = cur(t);

	if (s && s->end_ns == INT64_MAX)
		s->end_ns = ns;
	if (t->nsegs == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;
		struct pm_seg *n = realloc(t->segs, cap * sizeof(*n));

		if (!n)
			return NULL;
		t->segs = n;
		t->cap = cap;
	}
	s = &t->segs[t->nsegs++];
	memset(s, 0, sizeof(*s));
	s->start_ns = ns;
	s->end_ns = INT64_MAX;
	s->state = (uint8_t)state;
	s->waker = -1;
	return s;
}

/*
 * A thread created in the dump: it did not exist before its fork record,
 * and is runnable from it (the new task is woken by its creator), so its
 * first stretch starts there, not unknown from the dump's start.  A child
 * already seen (a pid reused, or records out of order) is left alone.
 */
static int on_fork(struct pm_state *st, struct pidmap *m,
		   const struct pm_event *ev)
{
	struct pm_thread *t;
	struct pm_seg *s;

	if (!ev->u.rec.FORK.child_pid)
		return 0;
	t = thread_get(st, m, ev->u.rec.FORK.child_pid);
	if (!t)
		return -ENOMEM;
	if (t->nsegs)
		return 0;
	s = open_seg(t, ev->ns, PM_T_RUNNABLE);
	if (!s)
		return -ENOMEM;
	s->cpu = ev->cpu;	/* its creator's: where it is woken first */
	return 0;
}

/*
 * Per-CPU stream bounds: a CPU's records can start later and end earlier
 * than the dump's (its ring wrapped sooner, or it was idle), and a thread
 * seen leaving a CPU ran there only since that CPU's stream began.
 */
struct cpu_span {
	int64_t *first;	/* CLOCK_MONOTONIC ns; 0: no record yet */
	int64_t *last;
	uint32_t n;
};

static int64_t cpu_first(const struct cpu_span *c, const struct pm_state *st,
			  uint32_t cpu)
{
	return cpu < c->n && c->first[cpu] ? c->first[cpu] : st->first_ns;
}

/*
 * The events tipme legs pairs (enum tipme_ckpt_ev): the machine's last
 * of each kind, and while checkpoints are made (@grid), the first of
 * each at or after each checkpoint, the machine's and each thread's.
 */
struct evs {
	int64_t last[TIPME_CKPT_EVS];
	struct pm_ckpts *grid;
};

static void ev_note(struct evs *v, const struct pm_state *st, struct pm_thread *t,
		    int k, int64_t ns)
{
	size_t j, i;

	if (ns > v->last[k])
		v->last[k] = ns;
	if (t && ns > t->ev_last[k])
		t->ev_last[k] = ns;
	/* the checkpoints before it that wait for one: the latest ones */
	for (j = v->grid ? v->grid->n : 0; j-- > 0 && !v->grid->c[j].ev_next[k];)
		v->grid->c[j].ev_next[k] = ns;
	if (!t)
		return;
	i = (size_t)(t - st->threads);
	for (j = v->grid ? v->grid->n : 0; j-- > 0;) {
		struct pm_ckpt *c = &v->grid->c[j];

		if (i >= c->nthreads || c->threads[i].ev_next[k])
			break;
		c->threads[i].ev_next[k] = ns;
	}
}

/* A key or button press: noted, and kept in the checkpoints being made. */
static int on_press(struct evs *v, const struct pm_state *st, int64_t ns)
{
	struct pm_ckpts *ck = v->grid;

	ev_note(v, st, NULL, TIPME_CKPT_EV_PRESS, ns);
	if (!ck)
		return 0;
	if (ck->npresses == ck->cap_presses) {
		size_t cap = ck->cap_presses ? 2 * ck->cap_presses : 64;
		int64_t *p = realloc(ck->presses, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ck->presses = p;
		ck->cap_presses = cap;
	}
	ck->presses[ck->npresses++] = ns;
	return 0;
}

static int on_switch(struct pm_state *st, struct pidmap *m, struct evs *v,
		     const struct cpu_span *cs, const struct pm_event *ev)
{
	const struct tipme_rec_switch *sw = &ev->u.sw;
	struct pm_thread *t;
	struct pm_seg *s;

	if (sw->prev_pid) {
		t = thread_get(st, m, sw->prev_pid);
		if (!t)
			return -ENOMEM;
		ev_note(v, st, t, TIPME_CKPT_EV_SWITCH_OUT, ev->ns);
		if (sw->prev_state != TIPME_TS_RUNNABLE)
			ev_note(v, st, t, TIPME_CKPT_EV_SLEEP, ev->ns);
		if (!cur(t)) {	/* first sight: it ran here since this CPU's records began */
			s = open_seg(t, cpu_first(cs, st, ev->cpu), PM_T_RUNNING);
			if (!s)
				return -ENOMEM;
			s->cpu = ev->cpu;
			s->prio = sw->prev_prio;
		}
		s = open_seg(t, ev->ns, sw->prev_state == TIPME_TS_RUNNABLE ?
			     PM_T_RUNNABLE : PM_T_BLOCKED);
		if (!s)
			return -ENOMEM;
		s->block_state = sw->prev_state;
		s->cpu = ev->cpu;
		if (t->pend && s->state == PM_T_BLOCKED &&
		    sw->prev_state != TIPME_TS_DEAD &&
		    sw->prev_state != TIPME_TS_ZOMBIE) {
			/* woken before it was off the CPU: asleep for no time
			 * (a task leaving for good stays gone) */
			s->waker = t->pend_waker;
			s->waker_ctx = t->pend_ctx;
			s = open_seg(t, ev->ns, PM_T_RUNNABLE);
			if (!s)
				return -ENOMEM;
			s->woken = 1;
			s->cpu = t->pend_cpu;
			t->tent = 1;
		} else {
			t->tent = 0;
		}
		t->pend = 0;
	}
	if (sw->next_pid) {
		t = thread_get(st, m, sw->next_pid);
		if (!t)
			return -ENOMEM;
		ev_note(v, st, t, TIPME_CKPT_EV_SWITCH_IN, ev->ns);
		s = open_seg(t, ev->ns, PM_T_RUNNING);
		if (!s)
			return -ENOMEM;
		s->cpu = ev->cpu;
		s->prio = sw->next_prio;
		t->pend = 0;
		t->tent = 0;
	}
	return 0;
}

static int on_waking(struct pm_state *st, struct pidmap *m, struct evs *v,
		     const struct pm_event *ev)
{
	uint32_t pid = tipme_waking_pid(&ev->u.wk);
	struct pm_thread *t;
	struct pm_seg *s;

	if (!pid) {
		ev_note(v, st, NULL, TIPME_CKPT_EV_WAKING, ev->ns);
		ev_note(v, st, NULL, TIPME_CKPT_EV_WAKING0, ev->ns);
		return 0;
	}
	t = thread_get(st, m, pid);
	if (!t)
		return -ENOMEM;
	ev_note(v, st, t, TIPME_CKPT_EV_WAKING, ev->ns);
	s = cur(t);
	if (s && s->state == PM_T_RUNNING) {	/* may be on its way to sleep */
		t->pend = 1;
		t->pend_waker = pm_ev_waker(ev);
		t->pend_ctx = (uint8_t)tipme_waking_ctx(&ev->u.wk);
		t->pend_cpu = tipme_waking_cpu(&ev->u.wk);
		return 0;
	}
	if (t->tent && s && s->state == PM_T_RUNNABLE && t->nsegs >= 2 &&
	    t->segs[t->nsegs - 2].state == PM_T_BLOCKED) {
		/* the kept wakeup did not end that sleep: this one does */
		struct pm_seg *b = &t->segs[t->nsegs - 2];

		b->end_ns = ev->ns;
		b->waker = pm_ev_waker(ev);
		b->waker_ctx = (uint8_t)tipme_waking_ctx(&ev->u.wk);
		s->start_ns = ev->ns;
		s->cpu = tipme_waking_cpu(&ev->u.wk);
		t->tent = 0;
		return 0;
	}
	if (s && s->state != PM_T_BLOCKED && s->state != PM_T_UNKNOWN)
		return 0;	/* already runnable */
	if (s) {
		s->waker = pm_ev_waker(ev);
		s->waker_ctx = (uint8_t)tipme_waking_ctx(&ev->u.wk);
	} else {
		s = open_seg(t, st->first_ns, PM_T_UNKNOWN);
		if (!s)
			return -ENOMEM;
	}
	s = open_seg(t, ev->ns, PM_T_RUNNABLE);
	if (!s)
		return -ENOMEM;
	s->woken = 1;
	s->cpu = tipme_waking_cpu(&ev->u.wk);
	return 0;
}

/*
 * Sub-buffers of a CPU are missing between @ev->lost_since and @ev->ts:
 * whoever was running there is known to have run only up to the gap.  What
 * it did in the gap is unknown (an open PM_T_UNKNOWN stretch until its
 * next record), never "running".
 */
static int cut_running_at_loss(struct pm_state *st, const struct pm_event *ev)
{
	size_t i;

	if (!ev->lost_since)
		return 0;
	for (i = 0; i < st->nthreads; i++) {
		struct pm_thread *t = &st->threads[i];
		struct pm_seg *s = cur(t);

		if (!s || s->state != PM_T_RUNNING || s->cpu != ev->cpu ||
		    s->end_ns != INT64_MAX || s->start_ns > ev->lost_since_ns)
			continue;
		s = open_seg(t, ev->lost_since_ns, PM_T_UNKNOWN);
		if (!s)
			return -ENOMEM;
		s->cpu = ev->cpu;
	}
	return 0;
}

/* Has every CPU's stream begun by now (no record of any CPU missing)? */
static int all_begun(const struct cpu_span *cs, const struct pm_dump *pm)
{
	size_t i;

	for (i = 0; i < pm->nr_cpus; i++)
		if (pm->cpus[i].nr_secs && pm->cpus[i].cpu < cs->n &&
		    !cs->first[pm->cpus[i].cpu])
			return 0;
	return 1;
}

/*
 * @t, whose stretch now is unknown, is from @ns in the state a sampler
 * entry (@word, @prio, @cpu) says.  Return: the stretch, NULL without
 * memory.
 */
static struct pm_seg *sampled(struct pm_thread *t, int64_t ns, uint32_t word,
			      uint8_t prio, uint16_t cpu)
{
	uint32_t state = tipme_smp_state(word);
	struct pm_seg *s;

	if (tipme_smp_oncpu(word)) {
		s = open_seg(t, ns, PM_T_RUNNING);
		if (s)
			s->prio = prio;
	} else {
		s = open_seg(t, ns, state == TIPME_TS_RUNNABLE ?
			     PM_T_RUNNABLE : PM_T_BLOCKED);
		if (s && state != TIPME_TS_RUNNABLE)
			s->block_state = (uint8_t)state;
	}
	if (s)
		s->cpu = cpu;
	return s;
}

static int on_sample(struct pm_state *st, struct pidmap *m,
		     const struct cpu_span *cs, const struct pm_dump *pm,
		     const struct pm_event *ev)
{
	struct tipme_sample_ent e;
	const unsigned char *p;
	size_t i, n;

	if (!all_begun(cs, pm))
		return 0;
	n = pm_sample_entries(ev, &p);
	for (i = 0; i < n; i++) {
		uint32_t pid, state;
		struct pm_thread *t;
		struct pm_seg *s;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		pid = tipme_smp_pid(e.word);
		state = tipme_smp_state(e.word);
		if (!pid || state == TIPME_TS_DEAD || state == TIPME_TS_ZOMBIE)
			continue;
		t = thread_get(st, m, pid);
		if (!t)
			return -ENOMEM;
		s = cur(t);
		if (s && s->state == PM_T_RUNNING && tipme_smp_oncpu(e.word) &&
		    s->cpu == e.cpu && s->prio != e.prio && ev->ns > s->start_ns) {
			/*
			 * Its priority changed while it ran (sched_setscheduler
			 * on itself, a PI boost): a switch record gave the old
			 * one, the sampler sees the new one from here.
			 */
			uint32_t cpu = s->cpu;

			s = open_seg(t, ev->ns, PM_T_RUNNING);
			if (!s)
				return -ENOMEM;
			s->cpu = cpu;
			s->prio = e.prio;
			continue;
		}
		if (s && s->state != PM_T_UNKNOWN)
			continue;	/* the records already say */
		if (!s && !open_seg(t, st->first_ns, PM_T_UNKNOWN))
			return -ENOMEM;
		if (!sampled(t, ev->ns, e.word, e.prio, e.cpu))
			return -ENOMEM;
	}
	return 0;
}


/*
 * Sites, each kept once (build time only): a hash of the frame lists
 * seen, pointing into chunks of struct pm_state that never move.  A
 * list is PM_SITE_FRAMES addresses, zero after its last frame.
 */
#define SITE_CHUNK	1024	/* lists per chunk */

struct sitemap {
	const uint64_t **keys;
	size_t n, cap;
	size_t used;		/* lists used in the last chunk */
};

static size_t site_hash(const uint64_t *f)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < PM_SITE_FRAMES; i++)
		h = (h ^ f[i]) * 0x100000001b3ULL;
	return (size_t)(h ^ (h >> 29));
}

static int site_grow(struct sitemap *sm)
{
	size_t cap = sm->cap ? sm->cap * 2 : 256, i, j;
	const uint64_t **k = calloc(cap, sizeof(*k));

	if (!k)
		return -ENOMEM;
	for (i = 0; i < sm->cap; i++) {
		if (!sm->keys[i])
			continue;
		for (j = site_hash(sm->keys[i]) & (cap - 1); k[j]; j = (j + 1) & (cap - 1))
			;
		k[j] = sm->keys[i];
	}
	free(sm->keys);
	sm->keys = k;
	sm->cap = cap;
	return 0;
}

/* The kept copy of frame list @f (PM_SITE_FRAMES, zero-filled), or NULL. */
static const uint64_t *site_keep(struct pm_state *st, struct sitemap *sm,
				 const uint64_t *f)
{
	uint64_t *p, **c;
	size_t j;

	if ((sm->n + 1) * 2 > sm->cap && site_grow(sm))
		return NULL;
	for (j = site_hash(f) & (sm->cap - 1); sm->keys[j]; j = (j + 1) & (sm->cap - 1))
		if (!memcmp(sm->keys[j], f, PM_SITE_FRAMES * sizeof(*f)))
			return sm->keys[j];
	if (!st->nsite_chunks || sm->used == SITE_CHUNK) {
		c = realloc(st->site_chunks, (st->nsite_chunks + 1) * sizeof(*c));
		if (!c)
			return NULL;
		st->site_chunks = c;
		c[st->nsite_chunks] = malloc(SITE_CHUNK * PM_SITE_FRAMES * sizeof(**c));
		if (!c[st->nsite_chunks])
			return NULL;
		st->nsite_chunks++;
		sm->used = 0;
	}
	p = st->site_chunks[st->nsite_chunks - 1] + sm->used++ * PM_SITE_FRAMES;
	memcpy(p, f, PM_SITE_FRAMES * sizeof(*f));
	sm->keys[j] = p;
	sm->n++;
	return p;
}

static int on_blocked(struct pm_state *st, struct pidmap *m, struct sitemap *sm,
		      const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_blocked *b = &ev->u.bl;
	uint64_t f[PM_SITE_FRAMES] = { 0 };
	struct pm_thread *t;
	struct pm_seg *s;
	size_t n;

	t = thread_get(st, m, b->pid);
	s = t ? cur(t) : NULL;
	/* a sleep a wakeup ended at once: the stretch before the runnable one */
	if (s && s->state == PM_T_RUNNABLE && s->woken && t->nsegs >= 2 &&
	    t->segs[t->nsegs - 2].state == PM_T_BLOCKED &&
	    t->segs[t->nsegs - 2].end_ns == s->start_ns)
		s = &t->segs[t->nsegs - 2];
	if (!s || s->state != PM_T_BLOCKED)
		return 0;
	n = pm_rec_frames(pm, ev, f, PM_SITE_FRAMES);
	s->site = n ? site_keep(st, sm, f) : NULL;
	s->nsite = (uint32_t)n;
	if (n && !s->site) {
		s->nsite = 0;
		return -ENOMEM;
	}
	return 0;
}

/* The user chain of a thread's latest sleep, which its switch began. */
static void on_ustack(struct pm_state *st, struct pidmap *m,
		      const struct pm_event *ev)
{
	const struct tipme_rec_ustack *u = &ev->u.rec.USTACK;
	struct pm_thread *t;
	struct pm_seg *s;

	t = thread_get(st, m, u->pid);
	s = t ? cur(t) : NULL;
	if (s && s->state == PM_T_RUNNABLE && s->woken && t->nsegs >= 2 &&
	    t->segs[t->nsegs - 2].state == PM_T_BLOCKED &&
	    t->segs[t->nsegs - 2].end_ns == s->start_ns)
		s = &t->segs[t->nsegs - 2];
	if (s && s->state == PM_T_BLOCKED)
		s->ustack = u->id;
}

static int on_lost(struct pm_state *st, const struct pm_event *ev)
{
	struct pm_loss *l = realloc(st->losses, (st->nlosses + 1) * sizeof(*l));

	if (!l)
		return -ENOMEM;
	st->losses = l;
	l += st->nlosses++;
	l->cpu = ev->cpu;
	l->since_ns = ev->lost_since_ns;
	l->until_ns = ev->ns;
	l->first_seq = ev->lost_first;
	l->subbufs = ev->lost_count;
	st->lost = 1;
	return cut_running_at_loss(st, ev);
}

static int on_prof(struct pm_state *st, size_t *cap, const struct pm_event *ev)
{
	const struct tipme_rec_prof *r = &ev->u.rec.PROF;
	struct pm_psample *p;

	if (!r->pid)
		return 0;
	if (st->nsamples == *cap) {
		size_t n = *cap ? 2 * *cap : 256;

		p = realloc(st->samples, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		st->samples = p;
		*cap = n;
	}
	p = &st->samples[st->nsamples++];
	p->ns = ev->ns;
	p->pid = r->pid;
	p->site = r->site;
	p->ustack = r->ustack;
	return 0;
}

/* By thread, then time, then chains: a total order, whatever qsort does. */
static int sample_cmp(const void *a, const void *b)
{
	const struct pm_psample *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return (x->ustack > y->ustack) - (x->ustack < y->ustack);
}

static int tid_cmp(const void *a, const void *b)
{
	const struct pm_thread *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* What pm_state_build() keeps while it reads the records (state.h). */
struct pm_state_bld {
	struct pm_state *st;
	const struct pm_dump *pm;
	struct pidmap m;
	struct sitemap sm;
	struct cpu_span cs;
	size_t samples_cap;
	int have;
	const struct pm_ckpts *ck;	/* restored from one of these */
	const struct pm_ckpt *fin;	/* ends as the whole dump's at this one */
	struct pm_ckpts *pass;		/* the checkpoints this build is making */
	struct evs evs;
};

/*
 * The sampler's table at the dump (TIPME_SEC_SMPSNAP), once the records
 * are read: each thread as the sampler last looked at it, at that time,
 * for a thread whose records do not say what it is doing at their end
 * (none, or a gap).  The sampler would have looked at it again had it
 * left a CPU since, so a blocked thread stayed blocked unless a wakeup
 * said so, and the state holds from when it was looked at, or from when
 * every CPU's records have begun if that is later (with many threads
 * full rounds are seconds apart: a thread that never runs is looked at
 * before the window).  Entries looked at after the records read end (a
 * range before the dump's end) say nothing about it.
 */
static int on_smpsnap(struct pm_state_bld *b)
{
	const struct pm_instr *in = b->pm->instr;
	struct pm_state *st = b->st;
	int64_t begun = INT64_MIN;
	size_t i;

	if (!in || !in->have_smpsnap || !b->have)
		return 0;
	for (i = 0; i < b->pm->nr_cpus; i++) {
		uint32_t c = b->pm->cpus[i].cpu;

		if (!b->pm->cpus[i].nr_secs || c >= b->cs.n)
			continue;
		if (!b->cs.first[c])
			return 0;	/* a CPU without records: any may be missing */
		if (b->cs.first[c] > begun)
			begun = b->cs.first[c];
	}
	for (i = 0; i < in->nr_snap; i++) {
		const struct tipme_smpsnap_ent *en = &in->snap[i];
		uint32_t pid = tipme_smp_pid(en->word);
		uint32_t state = tipme_smp_state(en->word);
		int64_t at = pm_clock_mono(&b->pm->clock, en->seen_ts);
		struct pm_thread *t;
		struct pm_seg *s;

		if (!pid || (en->flags & TIPME_SMPSNAP_GONE) ||
		    state == TIPME_TS_DEAD || state == TIPME_TS_ZOMBIE ||
		    at > st->last_ns)
			continue;
		t = thread_get(st, &b->m, pid);
		if (!t)
			return -ENOMEM;
		s = cur(t);
		if (s && s->state != PM_T_UNKNOWN)
			continue;	/* the records already say */
		if (at < begun)
			at = begun;
		if (!s && at > st->first_ns &&
		    !(s = open_seg(t, st->first_ns, PM_T_UNKNOWN)))
			return -ENOMEM;
		if (s && at < s->start_ns)
			at = s->start_ns;
		if (at < st->first_ns)
			at = st->first_ns;
		if (!sampled(t, at, en->word, en->prio, en->cpu))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The builder is about to forget thread @t's stretches before
 * @t->segs[@keep] (index @i among the threads): those a checkpoint holds
 * are final now, as the whole dump's build leaves them.
 */
static void fin_note(struct pm_ckpts *ck, size_t i, const struct pm_thread *t,
		     size_t keep)
{
	size_t k, j, at;

	for (k = 0; ck && k < ck->n; k++) {
		struct pm_ckpt *c = &ck->c[k];
		const struct pm_thread *ct;

		if (c->nfin == c->nsegs || i >= c->nthreads)
			continue;
		ct = &c->threads[i];
		at = c->fin_off[i];
		for (j = 0; j < ct->nsegs; j++) {
			uint64_t seq = ct->dropped + j;

			if (seq >= t->dropped && seq < t->dropped + keep) {
				c->fin[at + j] = t->segs[seq - t->dropped];
				c->nfin++;
			}
		}
	}
}

int pm_state_bld_new(struct pm_state_bld **bp, struct pm_state *st,
		     const struct pm_incident *inc, struct tm_err *e)
{
	const struct pm_dump *pm = &inc->pm;
	struct pm_state_bld *b = calloc(1, sizeof(*b));
	size_t i;

	memset(st, 0, sizeof(*st));
	*bp = b;
	if (!b)
		return tm_err_set(e, ENOMEM, "out of memory");
	b->st = st;
	b->pm = pm;
	for (i = 0; i < pm->nr_cpus; i++)	/* CPU numbers: below the highest streamed */
		if (pm->cpus[i].cpu >= b->cs.n)
			b->cs.n = pm->cpus[i].cpu + 1;
	b->cs.first = calloc(b->cs.n ? b->cs.n : 1, sizeof(*b->cs.first));
	b->cs.last = calloc(b->cs.n ? b->cs.n : 1, sizeof(*b->cs.last));
	if (!b->cs.first || !b->cs.last)
		return tm_err_set(e, ENOMEM, "out of memory");
	return 0;
}

int pm_state_bld_event(struct pm_state_bld *b, const struct pm_event *ev,
		       struct tm_err *e)
{
	struct pm_state *st = b->st;
	struct cpu_span *cs = &b->cs;
	int err = 0;

	if (!b->have) {
		st->first_ns = ev->ns;
		b->have = 1;
	}
	st->last_ns = ev->ns;
	if (ev->cpu < cs->n) {
		if (!cs->first[ev->cpu])
			cs->first[ev->cpu] = ev->ns;
		cs->last[ev->cpu] = ev->ns;
	}
	if (ev->kind == PM_EV_LOST)
		err = on_lost(st, ev);
	else if (!ev->rt || !ev->rt->our_size)
		return 0;
	else if (ev->type == TIPME_REC_SCHED_SWITCH)
		err = on_switch(st, &b->m, &b->evs, cs, ev);
	else if (ev->type == TIPME_REC_SCHED_WAKING)
		err = on_waking(st, &b->m, &b->evs, ev);
	else if (ev->type == TIPME_REC_INPUT && ev->u.in.value == 1 &&
		 (ev->u.in.kind == TIPME_INPUT_KEY || ev->u.in.kind == TIPME_INPUT_BUTTON))
		err = on_press(&b->evs, st, ev->ns);
	else if (ev->type == TIPME_REC_BLOCKED)
		err = on_blocked(st, &b->m, &b->sm, b->pm, ev);
	else if (ev->type == TIPME_REC_USTACK)
		on_ustack(st, &b->m, ev);
	else if (ev->type == TIPME_REC_SAMPLE)
		err = on_sample(st, &b->m, cs, b->pm, ev);
	else if (ev->type == TIPME_REC_PROF)
		err = on_prof(st, &b->samples_cap, ev);
	else if (ev->type == TIPME_REC_FORK)
		err = on_fork(st, &b->m, ev);
	else if (ev->type == TIPME_REC_TRIGGER && !ev->u.trig.coalesced)
		st->trigger_ns = ev->ns;
	return err < 0 ? tm_err_set(e, ENOMEM, "out of memory") : 0;
}

static void forget(struct pm_state *st, struct pm_ckpts *ck, int all);
static int fin_restore(struct pm_state_bld *b);

/*
 * Restored from a checkpoint: the facts of the whole dump (its first and
 * last record, latest trigger, every loss), not the records read's.
 * The stretches open where those end were closed there already.
 */
static int whole_facts(struct pm_state *st, const struct pm_state *w)
{
	struct pm_loss *l = NULL;

	if (w->nlosses) {
		l = malloc(w->nlosses * sizeof(*l));
		if (!l)
			return -ENOMEM;
		memcpy(l, w->losses, w->nlosses * sizeof(*l));
	}
	free(st->losses);
	st->losses = l;
	st->nlosses = w->nlosses;
	st->lost = w->lost;
	st->first_ns = w->first_ns;
	st->last_ns = w->last_ns;
	st->trigger_ns = w->trigger_ns;
	return 0;
}

int pm_state_bld_end(struct pm_state_bld *b, int failed)
{
	struct pm_state *st;
	struct cpu_span *cs;
	size_t i;

	if (!b)
		return failed ? -ENOMEM : 0;
	st = b->st;
	cs = &b->cs;
	if (!failed && b->fin && fin_restore(b) < 0)
		failed = 1;
	if (!failed && on_smpsnap(b) < 0)
		failed = 1;
	free(b->m.keys);
	free(b->m.vals);
	free(b->sm.keys);
	if (failed) {
		pm_state_free(st);
	} else {
		for (i = 0; i < st->nthreads; i++) {
			struct pm_seg *s = cur(&st->threads[i]);

			if (!s || s->end_ns != INT64_MAX)
				continue;
			/* running where the records end: known only up to that CPU's last */
			if (s->state == PM_T_RUNNING && s->cpu < cs->n && cs->last[s->cpu] &&
			    cs->last[s->cpu] >= s->start_ns)
				s->end_ns = cs->last[s->cpu];
			else
				s->end_ns = st->last_ns;
		}
		if (b->pass)
			forget(st, b->pass, 1);
		if (st->nthreads)
			qsort(st->threads, st->nthreads, sizeof(*st->threads), tid_cmp);
		if (st->nsamples)
			qsort(st->samples, st->nsamples, sizeof(*st->samples), sample_cmp);
		if (b->ck && whole_facts(st, &b->ck->whole)) {
			pm_state_free(st);
			failed = 1;
		}
	}
	free(cs->first);
	free(cs->last);
	free(b);
	return failed ? -ENOMEM : 0;
}

int pm_state_build(struct pm_state *st, const struct pm_incident *inc,
		   struct tm_err *e)
{
	return pm_state_build_range(st, inc, INT64_MIN, INT64_MAX, e);
}

/* A CPU's stream misses sub-buffers: a gap in their sequence numbers. */
static int index_gaps(const struct pm_index *ix)
{
	uint32_t c;
	size_t k;

	for (c = 0; c < ix->nr_cpus; c++)
		for (k = ix->cpu_first[c] + 1; k < ix->cpu_first[c + 1]; k++)
			if (ix->sb[k].seq - ix->sb[k - 1].seq > 1)
				return 1;
	return 0;
}

int pm_state_merge_open(struct pm_merge *mg, const struct pm_incident *inc,
			int64_t from_ns, int64_t to_ns, int *gaps, struct tm_err *e)
{
	struct pm_index ix;
	int err;

	*gaps = 0;
	if (from_ns == INT64_MIN && to_ns == INT64_MAX)
		return pm_merge_init(mg, &inc->pm, NULL, e);
	/* the sub-buffers' headers alone, then the range's records */
	err = pm_index_scan(&ix, &inc->pm, e);
	if (!err)
		err = pm_merge_range(mg, &inc->pm, &ix, NULL, from_ns, to_ns, e);
	*gaps = !err && index_gaps(&ix);
	pm_index_free(&ix);
	return err;
}

/*
 * The state from the records of [@from_ns, @to_ns]; with @ck, restored
 * from its checkpoints around them (pm_state_bld_restore()).
 */
static int build(struct pm_state *st, const struct pm_incident *inc,
		 const struct pm_ckpts *ck, int64_t from_ns, int64_t to_ns,
		 struct tm_err *e)
{
	struct pm_state_bld *b;
	struct pm_merge mg;
	struct pm_event ev;
	int err, gaps = 0;

	err = pm_state_bld_new(&b, st, inc, e);
	if (!err && ck)
		err = pm_state_bld_restore(b, ck, from_ns, to_ns, &from_ns, &to_ns, e);
	if (!err)
		err = pm_state_merge_open(&mg, inc, from_ns, to_ns, &gaps, e);
	if (err) {
		pm_state_bld_end(b, 1);
		return err;
	}
	while ((err = pm_merge_next(&mg, &ev, e)) > 0)
		if ((err = pm_state_bld_event(b, &ev, e)) < 0)
			break;
	pm_merge_free(&mg);
	/* a gap outside the range is still the dump's */
	if (err >= 0 && gaps)
		st->lost = 1;
	if (pm_state_bld_end(b, err < 0) < 0 && err >= 0)
		err = tm_err_set(e, ENOMEM, "out of memory");
	return err < 0 ? err : 0;
}

int pm_state_build_range(struct pm_state *st, const struct pm_incident *inc,
			 int64_t from_ns, int64_t to_ns, struct tm_err *e)
{
	return build(st, inc, NULL, from_ns, to_ns, e);
}

/*
 * Checkpoints (state.h: pm_ckpts_grid()).  Between checkpoints the pass
 * forgets what the builder no longer reads: every stretch of a thread but
 * its last two, and the profiler's samples.
 */
static void forget(struct pm_state *st, struct pm_ckpts *ck, int all)
{
	size_t i;

	for (i = 0; i < st->nthreads; i++) {
		struct pm_thread *t = &st->threads[i];
		size_t keep = all ? t->nsegs : t->nsegs > 2 ? t->nsegs - 2 : 0;

		if (!keep)
			continue;
		fin_note(ck, i, t, keep);
		if (!all) {
			memmove(t->segs, t->segs + keep, 2 * sizeof(*t->segs));
			t->nsegs = 2;
			t->dropped += keep;
		}
	}
	st->nsamples = 0;
}

static void ckpt_free(struct pm_ckpt *c)
{
	size_t i;

	for (i = 0; i < c->nthreads; i++)
		free(c->threads[i].segs);
	free(c->threads);
	free(c->first);
	free(c->last);
	free(c->fin);
	free(c->fin_off);
}

/* Keep the builder @b as checkpoint @c, before the events at @ns. */
static int ckpt_take(struct pm_ckpt *c, const struct pm_state_bld *b, int64_t ns)
{
	const struct pm_state *st = b->st;
	size_t i, n = b->cs.n ? b->cs.n : 1;

	memset(c, 0, sizeof(*c));
	c->ns = ns;
	c->threads = calloc(st->nthreads ? st->nthreads : 1, sizeof(*c->threads));
	c->fin_off = malloc((st->nthreads ? st->nthreads : 1) * sizeof(*c->fin_off));
	c->first = malloc(n * sizeof(*c->first));
	c->last = malloc(n * sizeof(*c->last));
	if (!c->threads || !c->fin_off || !c->first || !c->last)
		return -ENOMEM;
	memcpy(c->first, b->cs.first, n * sizeof(*c->first));
	memcpy(c->last, b->cs.last, n * sizeof(*c->last));
	for (i = 0; i < st->nthreads; i++) {
		const struct pm_thread *t = &st->threads[i];
		struct pm_thread *k = &c->threads[c->nthreads];

		*k = *t;
		k->segs = NULL;
		k->cap = t->nsegs;
		if (t->nsegs) {
			k->segs = malloc(t->nsegs * sizeof(*k->segs));
			if (!k->segs)
				return -ENOMEM;
			memcpy(k->segs, t->segs, t->nsegs * sizeof(*k->segs));
		}
		c->nthreads++;
		/* the threads' stretches one after another in @fin */
		c->fin_off[i] = c->nsegs;
		c->nsegs += t->nsegs;
	}
	c->fin = calloc(c->nsegs ? c->nsegs : 1, sizeof(*c->fin));
	if (!c->fin)
		return -ENOMEM;
	c->first_ns = st->first_ns;
	c->last_ns = st->last_ns;
	c->trigger_ns = st->trigger_ns;
	c->nlosses = st->nlosses;
	c->have = b->have;
	memcpy(c->ev_last, b->evs.last, sizeof(c->ev_last));
	return 0;
}

/* Events between two forgettings (the samples and the stretches of them). */
#define CKPT_FORGET_EVENTS	(1u << 20)

/* Room for one more checkpoint in @ck: returns it, or NULL. */
static struct pm_ckpt *ckpt_slot(struct pm_ckpts *ck, size_t *cap)
{
	struct pm_ckpt *c;

	if (ck->n == *cap) {
		c = realloc(ck->c, (*cap ? 2 * *cap : 16) * sizeof(*c));
		if (!c)
			return NULL;
		ck->c = c;
		*cap = *cap ? 2 * *cap : 16;
	}
	return &ck->c[ck->n++];
}

int pm_ckpts_grid(struct pm_ckpts **out, const struct pm_incident *inc,
		  uint64_t every, struct tm_err *e)
{
	struct pm_ckpts *ck = calloc(1, sizeof(*ck));
	struct pm_state_bld *b = NULL;
	struct pm_merge mg;
	struct pm_event ev;
	int64_t prev = INT64_MIN;
	uint64_t nev = 0, next = every ? every : 1;
	uint32_t count = 0;
	size_t cap = 0;
	int err;

	*out = NULL;
	if (!ck)
		return tm_err_set(e, ENOMEM, "out of memory");
	err = pm_state_bld_new(&b, &ck->whole, inc, e);
	if (!err)
		err = pm_merge_init(&mg, &inc->pm, NULL, e);
	if (err) {
		pm_state_bld_end(b, 1);
		pm_ckpts_free(ck);
		return err;
	}
	ck->ncs = b->cs.n;
	ck->every = next;
	b->evs.grid = ck;
	while ((err = pm_merge_next(&mg, &ev, e)) > 0) {
		/* every event before @ev.ns read, none at it yet */
		if (nev >= next && ev.ns > prev && b->have) {
			struct pm_ckpt *c;

			forget(&ck->whole, ck, 0);
			c = ckpt_slot(ck, &cap);
			if (!c || ckpt_take(c, b, ev.ns) < 0) {
				if (c) {
					ckpt_free(c);
					ck->n--;
				}
				err = tm_err_set(e, ENOMEM, "out of memory");
				break;
			}
			c->at = ev.ns;
			next = nev + ck->every;
		}
		if (++count == CKPT_FORGET_EVENTS) {
			forget(&ck->whole, ck, 0);
			count = 0;
		}
		prev = ev.ns;
		nev++;
		if ((err = pm_state_bld_event(b, &ev, e)) < 0)
			break;
	}
	pm_merge_free(&mg);
	b->pass = ck;	/* the stretches left are final once it ends them */
	if (pm_state_bld_end(b, err < 0) < 0 && err >= 0)
		err = tm_err_set(e, ENOMEM, "out of memory");
	if (err < 0) {
		pm_ckpts_free(ck);
		return err;
	}
	*out = ck;
	return 0;
}

void pm_ckpts_free(struct pm_ckpts *ck)
{
	size_t i;

	if (!ck)
		return;
	for (i = 0; i < ck->n; i++)
		ckpt_free(&ck->c[i]);
	free(ck->c);
	free(ck->presses);
	free(ck->readers);
	pm_state_free(&ck->whole);
	free(ck);
}

size_t pm_ckpts_presses(const struct pm_ckpts *ck, const int64_t **ns,
			const uint32_t **readers)
{
	*ns = ck->presses;
	*readers = ck->readers;
	return ck->npresses;
}

void pm_ckpts_set_readers(struct pm_ckpts *ck, uint32_t *readers)
{
	free(ck->readers);
	ck->readers = readers;
}

int64_t pm_ckpts_end(const struct pm_ckpts *ck)
{
	return ck->whole.trigger_ns ? ck->whole.trigger_ns : ck->whole.last_ns;
}

const struct pm_state *pm_ckpts_whole(const struct pm_ckpts *ck)
{
	return &ck->whole;
}

/* A copy of checkpoint @c in the builder @b, just made by pm_state_bld_new(). */
static int ckpt_restore(struct pm_state_bld *b, const struct pm_ckpt *c,
			const struct pm_state *whole)
{
	struct pm_state *st = b->st;
	size_t i, j, n = b->cs.n ? b->cs.n : 1;

	memcpy(b->cs.first, c->first, n * sizeof(*c->first));
	memcpy(b->cs.last, c->last, n * sizeof(*c->last));
	for (i = 0; i < c->nthreads; i++) {
		const struct pm_thread *k = &c->threads[i];
		struct pm_thread *t = thread_get(st, &b->m, k->pid);

		if (!t)
			return -ENOMEM;
		t->pend = k->pend;
		t->pend_ctx = k->pend_ctx;
		t->tent = k->tent;
		t->pend_cpu = k->pend_cpu;
		t->pend_waker = k->pend_waker;
		if (!k->nsegs)
			continue;
		t->segs = malloc(k->nsegs * sizeof(*t->segs));
		if (!t->segs)
			return -ENOMEM;
		t->cap = t->nsegs = k->nsegs;
		for (j = 0; j < k->nsegs; j++) {
			struct pm_seg *s = &t->segs[j];

			*s = k->segs[j];
			if (s->nsite && !(s->site = site_keep(st, &b->sm, k->segs[j].site)))
				return -ENOMEM;
		}
	}
	st->first_ns = c->first_ns;
	st->last_ns = c->last_ns;
	st->trigger_ns = c->trigger_ns;
	if (c->nlosses) {
		st->losses = malloc(c->nlosses * sizeof(*st->losses));
		if (!st->losses)
			return -ENOMEM;
		memcpy(st->losses, whole->losses, c->nlosses * sizeof(*st->losses));
		st->nlosses = c->nlosses;
		st->lost = 1;
	}
	b->have = c->have;
	return 0;
}

/*
 * The records read end where checkpoint @b->fin was taken: each thread's
 * last stretches there (open, or the sleep a wakeup may still change)
 * become the whole dump's, as it ended them later.
 */
static int fin_restore(struct pm_state_bld *b)
{
	const struct pm_ckpt *c = b->fin;
	size_t i, j, at = 0;

	for (i = 0; i < c->nthreads; at += c->threads[i++].nsegs) {
		const struct pm_thread *ct = &c->threads[i];
		struct pm_thread *t = thread_get(b->st, &b->m, ct->pid);

		if (!t)
			return -ENOMEM;
		if (t->nsegs < ct->nsegs)
			continue;	/* not the builder the checkpoint was */
		for (j = 0; j < ct->nsegs; j++) {
			struct pm_seg *s = &t->segs[t->nsegs - ct->nsegs + j];

			*s = c->fin[at + j];
			if (s->nsite && !(s->site = site_keep(b->st, &b->sm, c->fin[at + j].site)))
				return -ENOMEM;
		}
	}
	return 0;
}

int pm_state_bld_restore(struct pm_state_bld *b, const struct pm_ckpts *ck,
			 int64_t from_ns, int64_t to_ns, int64_t *start_ns,
			 int64_t *end_ns, struct tm_err *e)
{
	size_t lo = 0, hi = ck->n, k;

	/* the last checkpoint at or before @from_ns */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ck->c[mid].at <= from_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	b->ck = ck;
	/* the first after @to_ns, where the stretches open are final */
	*end_ns = INT64_MAX;
	for (k = lo; to_ns != INT64_MAX && k < ck->n; k++)
		if (ck->c[k].ns > to_ns && ck->c[k].nfin == ck->c[k].nsegs) {
			b->fin = &ck->c[k];
			*end_ns = ck->c[k].ns - 1;
			break;
		}
	*start_ns = INT64_MIN;
	if (!lo)
		return 0;	/* from the dump's first record */
	*start_ns = ck->c[lo - 1].ns;
	if (ckpt_restore(b, &ck->c[lo - 1], &ck->whole) < 0)
		return tm_err_set(e, ENOMEM, "out of memory");
	return 0;
}

/* The checkpoint @c, or none at @ns. */
static void evs_of(const struct pm_ckpt *c, int64_t ns, struct pm_ckpt_evs *out)
{
	memset(out, 0, sizeof(*out));
	out->ns = ns;
	if (!c)
		return;
	out->ns = c->ns;
	out->threads = c->threads;
	out->nthreads = c->nthreads;
	out->last = c->ev_last;
	out->next = c->ev_next;
}

void pm_ckpts_evs(const struct pm_ckpts *ck, int64_t from_ns, int64_t to_ns,
		  struct pm_ckpt_evs *before, struct pm_ckpt_evs *after)
{
	size_t lo = 0, hi = ck->n, k;

	while (lo < hi) {	/* the last at or before @from_ns, as pm_state_bld_restore() */
		size_t mid = lo + (hi - lo) / 2;

		if (ck->c[mid].at <= from_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	evs_of(lo ? &ck->c[lo - 1] : NULL, INT64_MIN, before);
	for (k = lo; k < ck->n && ck->c[k].ns <= to_ns; k++)
		;
	evs_of(k < ck->n ? &ck->c[k] : NULL, INT64_MAX, after);
}

int pm_state_build_ckpt(struct pm_state *st, const struct pm_incident *inc,
			const struct pm_ckpts *ck, int64_t from_ns, int64_t to_ns,
			struct tm_err *e)
{
	return build(st, inc, ck, from_ns, to_ns, e);
}

void pm_state_free(struct pm_state *st)
{
	size_t i;

	for (i = 0; i < st->nthreads; i++)
		free(st->threads[i].segs);
	free(st->threads);
	free(st->losses);
	for (i = 0; i < st->nsite_chunks; i++)
		free(st->site_chunks[i]);
	free(st->site_chunks);
	free(st->samples);
	memset(st, 0, sizeof(*st));
}

size_t pm_seg_first(const struct pm_thread *t, int64_t ns)
{
	size_t lo = 0, hi = t ? t->nsegs : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->segs[mid].end_ns <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int pm_ran_through(const struct pm_state *st, uint32_t pid, uint32_t cpu, int64_t t0,
		   int64_t t1)
{
	const struct pm_thread *th = pm_state_thread(st, pid);
	int64_t lo = t0 < t1 ? t0 : t1, hi = t0 < t1 ? t1 : t0;
	size_t j;

	for (j = pm_seg_first(th, lo - 1); th && j < th->nsegs; j++) {
		const struct pm_seg *sg = &th->segs[j];

		if (sg->start_ns > lo)
			break;
		if (sg->state == PM_T_RUNNING && sg->cpu == cpu && sg->end_ns >= hi)
			return 1;
	}
	return 0;
}

int64_t pm_seg_overlap(const struct pm_seg *s, int64_t t0, int64_t t1)
{
	int64_t a = s->start_ns, b = s->end_ns;
	int64_t lo = a > t0 ? a : t0, hi = b < t1 ? b : t1;

	return hi > lo ? hi - lo : 0;
}

/* The first sample at or after (@pid, @ns) in the order of st->samples. */
static size_t sample_at(const struct pm_state *st, uint32_t pid, int64_t ns)
{
	size_t lo = 0, hi = st->nsamples;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pm_psample *p = &st->samples[mid];

		if (p->pid < pid || (p->pid == pid && p->ns < ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct pm_psample *pm_state_samples(const struct pm_state *st, uint32_t pid,
					  int64_t ns, size_t *n)
{
	size_t first = sample_at(st, pid, ns);
	size_t end = pid < UINT32_MAX ? sample_at(st, pid + 1, INT64_MIN) : st->nsamples;

	*n = end > first ? end - first : 0;
	return *n ? &st->samples[first] : NULL;
}

const struct pm_thread *pm_state_thread(const struct pm_state *st, uint32_t pid)
{
	struct pm_thread key = { .pid = pid };

	if (!st->nthreads)
		return NULL;
	return bsearch(&key, st->threads, st->nthreads, sizeof(key), tid_cmp);
}

size_t pm_ckpts_count(const struct pm_ckpts *ck)
{
	return ck ? ck->n : 0;
}
