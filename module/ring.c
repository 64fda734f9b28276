// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU flight-recorder rings: allocation, the slow path of writers
 * (starting a new lap in a slot), and the reader side used by the dump.
 * The hot path is inline in ring.h.
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
	if (!r->ctl) {
		vfree(r->data);
		r->data = NULL;
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
	kvfree(r->ctl);
	vfree(r->data);
	r->ctl = NULL;
	r->data = NULL;
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
	if (pos > (seq + tipme_ring_nsub(r)) << r->sub_shift)
		return -ESTALE;
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
