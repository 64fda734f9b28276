// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU flight-recorder rings: allocation, the slow path of writers
 * (starting a new lap in a slot, or taking a sub-buffer from the pool all
 * CPUs share), and the reader side used by the dump.  The hot path is
 * inline in ring.h.
 *
 * The pool (struct tipme_pool) is an array of sub-buffers and a queue of
 * the retired ones, in the order their owners finished them.  A take
 * hands out the never-used sub-buffers first, then the head of the queue:
 * the sub-buffer whose newest record is the machine's oldest, whichever
 * CPU wrote it.  A sub-buffer a writer is still filling is not in the
 * queue; one a reader has pinned goes back to its end.  The queue is a
 * bounded array of cells, each with the position it may be written or
 * read at (as D. Vyukov's bounded queue): every step is a cmpxchg on the
 * head, the tail or a sub-buffer's state word, so any context may take or
 * retire, NMI included, and a writer never waits for another CPU.  A take
 * that finds the head's cell not yet written (its writer was interrupted
 * by this one) fails, and the record is dropped.  The owner's records in
 * a sub-buffer another take reuses are counted as overwritten, on the
 * owner's @stolen.
 *
 * A ring drawing from the pool keeps 2^TIPME_POOL_SLOTS_SHIFT slots: slot
 * g mod 8 holds the memory of its sub-buffer g while it is written.  The
 * slot is reused for g + 8 only after sub-buffer g was retired, in order,
 * by the ring's own writers (on their slow path, when they start a new
 * sub-buffer): a writer still inside sub-buffer g, interrupted, keeps its
 * memory; otherwise the nested writer drops its record, as the ring of
 * its own does when the previous lap of a slot is incomplete.  A CPU that
 * goes offline keeps its last sub-buffer (unretired) and the rest
 * readable until takes reuse them.  A sub-buffer is retired as soon as
 * it is complete: by the writer that padded it, or, if an interrupted
 * writer was still inside it then, at the start of the next one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "fault.h"
#include "ring.h"

/**
 * tipme_ring_init() - allocate one CPU's ring
 * @r: the ring, zeroed by the caller
 * @cpu: CPU that will write it (memory is allocated on its node)
 * @sub_shift: log2 of the sub-buffer size
 * @nsub_shift: log2 of the number of sub-buffers
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int tipme_ring_init(struct tipme_ring *r, int cpu, unsigned int sub_shift,
		    unsigned int nsub_shift)
{
	int node = cpu_to_node(cpu);
	unsigned long i;

	r->cpu = cpu;
	r->frozen = TIPME_RING_THAWED;
	r->sub_shift = sub_shift;
	r->nsub_shift = nsub_shift;
	r->data = tipme_fail_step("ring data") ? NULL :
		  vzalloc_node(1UL << (sub_shift + nsub_shift), node);
	if (!r->data)
		return -ENOMEM;
	r->ctl = tipme_fail_step("ring control") ? NULL :
		 kvzalloc_node(array_size(1UL << nsub_shift, sizeof(*r->ctl)),
			       GFP_KERNEL, node);
	r->map = kvmalloc_node(array_size(1UL << nsub_shift, sizeof(*r->map)),
			       GFP_KERNEL, node);
	if (!r->ctl || !r->map) {
		tipme_ring_free(r);
		return -ENOMEM;
	}
	for (i = 0; i < tipme_ring_nsub(r); i++)
		r->map[i] = (unsigned long)(r->data + (i << sub_shift));
	return 0;
}

/**
 * tipme_ring_init_pool() - set up one CPU's ring drawing from a pool
 * @r: the ring, zeroed by the caller
 * @cpu: CPU that will write it
 * @p: the pool, initialised by tipme_pool_init(), outliving @r
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int tipme_ring_init_pool(struct tipme_ring *r, int cpu, struct tipme_pool *p)
{
	int node = cpu_to_node(cpu);

	r->cpu = cpu;
	r->frozen = TIPME_RING_THAWED;
	r->sub_shift = p->sub_shift;
	r->nsub_shift = TIPME_POOL_SLOTS_SHIFT;
	r->pool = p;
	r->map_tag = TIPME_MAP_TAG;
	r->ctl = tipme_fail_step("ring control") ? NULL :
		 kvzalloc_node(array_size(tipme_ring_nsub(r), sizeof(*r->ctl)),
			       GFP_KERNEL, node);
	r->map = kvzalloc_node(array_size(tipme_ring_nsub(r), sizeof(*r->map)),
			       GFP_KERNEL, node);
	if (!r->ctl || !r->map) {
		tipme_ring_free(r);
		return -ENOMEM;
	}
	return 0;
}

/**
 * tipme_ring_free() - free a ring allocated by tipme_ring_init()
 * @r: the ring; no writer or reader may use it any more
 *
 * Context: process context.
 */
void tipme_ring_free(struct tipme_ring *r)
{
	kvfree(r->map);
	kvfree(r->ctl);
	vfree(r->data);
	r->map = NULL;
	r->ctl = NULL;
	r->data = NULL;
}

/**
 * tipme_pool_init() - allocate the sub-buffers all CPUs share
 * @p: the pool, zeroed by the caller
 * @sub_shift: log2 of the sub-buffer size (at least PAGE_SHIFT)
 * @nsub_shift: log2 of the number of sub-buffers
 * @node: NUMA node of the memory (NUMA_NO_NODE: any)
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int tipme_pool_init(struct tipme_pool *p, unsigned int sub_shift,
		    unsigned int nsub_shift, int node)
{
	unsigned long i;

	p->sub_shift = sub_shift;
	p->nsub_shift = nsub_shift;
	p->data = tipme_fail_step("pool data") ? NULL :
		  vzalloc_node(1UL << (sub_shift + nsub_shift), node);
	p->subs = kvzalloc_node(array_size(1UL << nsub_shift, sizeof(*p->subs)),
				GFP_KERNEL, node);
	p->queue = kvzalloc_node(array_size(1UL << nsub_shift, sizeof(*p->queue)),
				 GFP_KERNEL, node);
	if (!p->data || !p->subs || !p->queue) {
		tipme_pool_free(p);
		return -ENOMEM;
	}
	for (i = 0; i < tipme_pool_nsub(p); i++)
		atomic64_set(&p->queue[i].seq, i);
	return 0;
}

/**
 * tipme_pool_free() - free a pool allocated by tipme_pool_init()
 * @p: the pool; no ring may use it any more
 *
 * Context: process context.
 */
void tipme_pool_free(struct tipme_pool *p)
{
	kvfree(p->queue);
	p->queue = NULL;
	kvfree(p->subs);
	vfree(p->data);
	p->subs = NULL;
	p->data = NULL;
}

/**
 * tipme_pool_freeze() - let takes use only never-used sub-buffers, or all
 * @p: the pool
 * @frozen: true while a trigger's window is frozen
 *
 * Context: any.
 */
void tipme_pool_freeze(struct tipme_pool *p, bool frozen)
{
	WRITE_ONCE(p->frozen, frozen);
}

/* Put sub-buffer @idx at the end of the queue.  Return: false if full. */
static bool pool_put(struct tipme_pool *p, unsigned long idx)
{
	u64 t = atomic64_read(&p->tail), s;
	struct tipme_pool_cell *c;

	for (;;) {
		c = &p->queue[t & (tipme_pool_nsub(p) - 1)];
		s = atomic64_read_acquire(&c->seq);
		if (s == t) {
			if (atomic64_try_cmpxchg(&p->tail, &t, t + 1))
				break;
			continue;
		}
		if ((s64)(s - t) < 0)
			return false;	/* its last reader is not done with it */
		t = atomic64_read(&p->tail);
	}
	c->idx = idx;
	atomic64_set_release(&c->seq, t + 1);
	return true;
}

/* The sub-buffer at the head of the queue, or -1 if none is ready. */
static long pool_get(struct tipme_pool *p)
{
	u64 h = atomic64_read(&p->head), s;
	struct tipme_pool_cell *c;
	unsigned long idx;

	for (;;) {
		c = &p->queue[h & (tipme_pool_nsub(p) - 1)];
		s = atomic64_read_acquire(&c->seq);
		if (s == h + 1) {
			if (atomic64_try_cmpxchg(&p->head, &h, h + 1))
				break;
			continue;
		}
		if ((s64)(s - (h + 1)) < 0)
			return -1;	/* empty, or its writer is not done */
		h = atomic64_read(&p->head);
	}
	idx = c->idx;
	atomic64_set_release(&c->seq, h + tipme_pool_nsub(p));
	return idx;
}

/*
 * Take a sub-buffer for sub-buffer @seq of @r: the next never-used one,
 * else the oldest retired one no reader pins.  Return: its index, or -1.
 */
static long pool_take(struct tipme_pool *p, struct tipme_ring *r, u64 seq)
{
	unsigned long n = tipme_pool_nsub(p), tries;
	u64 key = tipme_pool_key(r->cpu, seq), s;
	struct tipme_pool_sub *sub;
	long idx;

	if (atomic64_read(&p->fresh) < n) {
		s = atomic64_inc_return(&p->fresh) - 1;
		if (s < n) {
			sub = &p->subs[s];
			atomic64_set(&sub->state, key);
			sub->owner = r;
			return s;
		}
	}
	/* Frozen: nothing written before may go. */
	if (READ_ONCE(p->frozen))
		return -1;
	for (tries = 0; tries < n; tries++) {
		idx = pool_get(p);
		if (idx < 0)
			return -1;
		sub = &p->subs[idx];
		s = atomic64_read(&sub->state);
		do {
			if (s & TIPME_POOL_READERS)
				break;
		} while (!atomic64_try_cmpxchg(&sub->state, &s, key));
		if (s & TIPME_POOL_READERS) {
			/* A dump is reading it: it goes back to the end. */
			atomic64_inc(&p->skipped);
			pool_put(p, idx);
			continue;
		}
		/* Its owner wrote @nrec and @owner before retiring it. */
		if (s & TIPME_POOL_RETIRED)
			atomic64_add(sub->nrec, &sub->owner->stolen);
		sub->owner = r;
		return idx;
	}
	return -1;
}

/* A sub-buffer taken but not used (a nested writer was faster): free it. */
static void pool_give_back(struct tipme_pool *p, unsigned long idx)
{
	struct tipme_pool_sub *sub = &p->subs[idx];
	u64 s = atomic64_read(&sub->state);

	while (!atomic64_try_cmpxchg(&sub->state, &s, s & TIPME_POOL_READERS))
		;
	pool_put(p, idx);
}

/*
 * Retire @r's complete sub-buffers before @upto, oldest first: note how
 * many records each holds, then let other takes have it.  One writer of
 * the CPU at a time (the low bit of @r->retired); a writer nested inside
 * it leaves the work to it.
 */
static void pool_retire(struct tipme_ring *r, u64 upto)
{
	struct tipme_pool *p = r->pool;
	struct tipme_pool_sub *sub;
	struct tipme_slot_ctl *c;
	unsigned long slot, e;
	long v, n;
	u64 u, s;

	for (;;) {
		v = local_read(&r->retired);
		u = (unsigned long)v >> 1;
		if ((v & 1) || u >= upto)
			return;
		slot = u & (tipme_ring_nsub(r) - 1);
		c = &r->ctl[slot];
		if (local_read(&c->commit) <
		    (long)(((u >> r->nsub_shift) + 1) << r->sub_shift))
			return;		/* still being written */
		if (local_cmpxchg(&r->retired, v, v | 1) != v)
			continue;
		n = local_read(&c->nrec);
		e = READ_ONCE(r->map[slot]);
		sub = &p->subs[((e & ~TIPME_MAP_TAG) - (unsigned long)p->data) >>
			       p->sub_shift];
		sub->nrec = n - local_read(&c->lapstart);
		s = atomic64_read(&sub->state);
		while (!atomic64_try_cmpxchg(&sub->state, &s,
					     s | TIPME_POOL_RETIRED))
			;
		if (!pool_put(p, sub - p->subs)) {
			/* Cannot happen: the queue has a cell per sub-buffer. */
			s = atomic64_read(&sub->state);
			while (!atomic64_try_cmpxchg(&sub->state, &s,
						     s & ~TIPME_POOL_RETIRED))
				;
			local_set(&r->retired, v);
			return;
		}
		local_set(&c->lapstart, n);
		local_set(&r->retired, (long)((u + 1) << 1));
	}
}

/**
 * tipme_ring_retire() - give the pool a ring's sub-buffers before @begin
 * @r: a ring drawing from a pool
 * @begin: position of the first byte of the sub-buffer a writer started
 *
 * The writer that started it committed the padding that completed the
 * sub-buffer before: it retires that one now, unless a writer it
 * interrupted is still inside it (then the next start retires it).
 * Without this, the previous sub-buffer would wait for the start of the
 * next one, and a CPU that writes little would hold two sub-buffers of
 * old records where the busy CPUs could keep new ones.
 *
 * Context: writer context, from tipme_ring_reserve(), on @r's CPU.
 */
void tipme_ring_retire(struct tipme_ring *r, unsigned long begin)
{
	pool_retire(r, begin >> r->sub_shift);
}

/* tipme_ring_claim() of a ring drawing from a pool. */
static bool pool_claim(struct tipme_ring *r, unsigned long begin)
{
	struct tipme_pool *p = r->pool;
	u64 g = begin >> r->sub_shift;
	unsigned long slot = g & (tipme_ring_nsub(r) - 1);
	unsigned long tag = (g >> r->nsub_shift) & TIPME_MAP_TAG;
	unsigned long e = READ_ONCE(r->map[slot]), ne;
	long idx;

	if (e && (e & TIPME_MAP_TAG) == tag)
		return true;	/* a nested writer took it */
	pool_retire(r, g);
	/* The slot's previous sub-buffer must be retired first. */
	if (g >= tipme_ring_nsub(r) &&
	    g - tipme_ring_nsub(r) >= (unsigned long)local_read(&r->retired) >> 1)
		return false;
	idx = pool_take(p, r, g);
	if (idx < 0)
		return false;
	ne = (unsigned long)tipme_pool_ptr(p, idx) | tag;
	if (cmpxchg_local(&r->map[slot], e, ne) != e)
		pool_give_back(p, idx);
	return true;
}

/**
 * tipme_pool_pin() - keep a sub-buffer from being taken while it is read
 * @p: the pool
 * @idx: the sub-buffer
 * @cpu: the CPU the reader expects to own it
 * @seq: and its sub-buffer number there
 *
 * Pinned, it is not taken until tipme_pool_unpin(), so a copy of what its
 * owner committed in it is intact.  A sub-buffer its owner is still
 * filling may be pinned too (the owner goes on writing it).
 *
 * Context: any.
 * Return: true if it was pinned, false if it holds another sub-buffer now.
 */
bool tipme_pool_pin(struct tipme_pool *p, unsigned long idx, int cpu, u64 seq)
{
	struct tipme_pool_sub *sub = &p->subs[idx];
	u64 key = tipme_pool_key(cpu, seq), s = atomic64_read(&sub->state);

	do {
		if ((s & TIPME_POOL_KEY) != key ||
		    (s & TIPME_POOL_READERS) == TIPME_POOL_READERS)
			return false;
	} while (!atomic64_try_cmpxchg(&sub->state, &s, s + 1));
	return true;
}

/**
 * tipme_pool_unpin() - end a tipme_pool_pin()
 * @p: the pool
 * @idx: the sub-buffer
 *
 * Context: any.
 */
void tipme_pool_unpin(struct tipme_pool *p, unsigned long idx)
{
	/* The copy's reads before the sub-buffer may be taken again. */
	atomic64_fetch_sub_release(1, &p->subs[idx].state);
}

/**
 * tipme_ring_claim() - let a writer start a sub-buffer
 * @r: the ring
 * @begin: position of the sub-buffer's first byte
 *
 * The slot may be reused only when the previous lap in it is completely
 * committed: a writer interrupted in the middle of it would otherwise have
 * its record overwritten under it.  When that lap is complete, its records
 * are counted as overwritten, exactly once whatever the nesting: the count
 * moves with a cmpxchg of the slot's @lapstart.  May run several times for
 * one sub-buffer (a writer retrying its reservation); only the first run
 * that sees the completed lap counts it.  A sub-buffer a trigger froze
 * (@r->frozen and later ones) is not reused until the dump has read it.
 *
 * Context: writer context (preemption disabled), from tipme_ring_reserve().
 * Return: false if the writer must drop its record.
 */
bool tipme_ring_claim(struct tipme_ring *r, unsigned long begin)
{
	struct tipme_slot_ctl *c = tipme_ring_ctl(r, begin);
	unsigned long lap = begin >> (r->sub_shift + r->nsub_shift);
	long full = (long)(lap << r->sub_shift);
	long commit, n, start;

	if (r->pool)
		return pool_claim(r, begin);
	if (!lap)
		return true;
	if (unlikely((begin >> r->sub_shift) - tipme_ring_nsub(r) >=
		     READ_ONCE(r->frozen)))
		return false;
	commit = local_read(&c->commit);
	if (commit < full)
		return false;
	if (commit > full)
		return true;	/* a nested writer started the lap */
	n = local_read(&c->nrec);
	start = local_read(&c->lapstart);
	barrier();
	if (local_read(&c->commit) != full || n == start)
		return true;
	if (local_cmpxchg(&c->lapstart, start, n) == start)
		local_add(n - start, &r->overwritten);
	return true;
}

/**
 * tipme_ring_view() - find what a reader may copy of a sub-buffer
 * @r: the ring (any CPU may read)
 * @seq: sub-buffer number
 * @v: filled in on success
 *
 * Context: any; does not block.
 * Return: 0; -ESTALE if the sub-buffer was already overwritten; -ENODATA
 * if nothing was written to it yet; -EBUSY if a writer is still filling
 * it past what is committed (try again).
 */
int tipme_ring_view(struct tipme_ring *r, u64 seq, struct tipme_sub_view *v)
{
	unsigned long size = tipme_ring_sub_size(r);
	unsigned long pos = local_read(&r->reserve);
	unsigned long cur = pos >> r->sub_shift;
	u64 lap = seq >> r->nsub_shift;
	long committed;

	/* Position before commit counts; pairs with the writers' smp_wmb(). */
	smp_rmb();
	if (pos > (seq + tipme_ring_nsub(r)) << r->sub_shift) {
		if (!r->pool)
			return -ESTALE;
		/* Its slot was reused, so it was complete (and retired). */
		v->seq = seq;
		v->len = size;
		v->partial = false;
		return 0;
	}
	if (!pos || seq > (pos - 1) >> r->sub_shift)
		return -ENODATA;
	committed = local_read(&tipme_ring_ctl(r, seq << r->sub_shift)->commit) -
		    (long)(lap << r->sub_shift);
	if (committed > (long)size)
		return -ESTALE;
	v->seq = seq;
	if (cur > seq) {
		if (committed != (long)size)
			return -EBUSY;
		v->len = size;
		v->partial = false;
	} else {
		if (committed != (long)(pos & (size - 1)))
			return -EBUSY;
		v->len = pos & (size - 1);
		v->partial = true;
	}
	/* Commit counts before the bytes they cover. */
	smp_rmb();
	return 0;
}

/**
 * tipme_ring_oldest_intact() - the oldest sub-buffer writers have not
 *	overtaken
 * @r: the ring
 *
 * A copy of sub-buffer seq taken since tipme_ring_view() is intact while
 * no writer has entered the next lap of its slot, that is while the write
 * position is at most (seq + nsub) sub-buffers: exactly when seq is at
 * least this number.  It only grows, so a later check covers every copy
 * taken before it.
 *
 * Context: any.
 * Return: the sub-buffer number (0 before the first lap ends).
 */
u64 tipme_ring_oldest_intact(struct tipme_ring *r)
{
	unsigned long pos;
	u64 laps;

	/* The copied bytes before the position that may have overtaken them. */
	smp_rmb();
	pos = local_read(&r->reserve);
	laps = (pos + tipme_ring_sub_size(r) - 1) >> r->sub_shift;
	return laps > tipme_ring_nsub(r) ? laps - tipme_ring_nsub(r) : 0;
}

/**
 * tipme_ring_still_valid() - check a copy after it was taken
 * @r: the ring
 * @seq: the sub-buffer copied
 *
 * Context: any.
 * Return: true if no writer has entered the next lap of @seq's slot, so
 * the bytes copied since tipme_ring_view() are intact.
 */
bool tipme_ring_still_valid(struct tipme_ring *r, u64 seq)
{
	return seq >= tipme_ring_oldest_intact(r);
}

/**
 * tipme_ring_overwritten() - records of a ring lost to wrap-around
 * @r: the ring
 *
 * Context: any.
 * Return: those its own writers overwrote and, with a pool, those in its
 * sub-buffers other takes reused.
 */
u64 tipme_ring_overwritten(struct tipme_ring *r)
{
	return local_read(&r->overwritten) + atomic64_read(&r->stolen);
}

/**
 * tipme_ring_oldest_seq() - the oldest sub-buffer that may still be intact
 * @r: the ring
 * @end: a write position taken earlier
 *
 * Context: any.
 * Return: the sub-buffer number; callers check each with tipme_ring_view().
 */
u64 tipme_ring_oldest_seq(struct tipme_ring *r, unsigned long end)
{
	u64 last;

	if (!end)
		return 0;
	last = (end - 1) >> r->sub_shift;
	return last >= tipme_ring_nsub(r) - 1 ? last - (tipme_ring_nsub(r) - 1) : 0;
}
