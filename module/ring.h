/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU flight-recorder rings.
 *
 * Each CPU owns one ring, split into 2^n sub-buffers of 2^m bytes.  Only
 * code running on that CPU writes to it; a writer may be interrupted by
 * another writer on the same CPU (softirq, hardirq, NMI), so space is
 * reserved with a cmpxchg on a CPU-local position and published with
 * CPU-local commit counters.  The timestamp is read inside the reservation
 * loop, so the order of records in the ring is the order of their
 * timestamps even when writers nest.
 *
 * Positions are byte counts since load and never wrap; sub-buffer number
 * g = pos >> m holds bytes [g << m, (g + 1) << m) and lives in slot
 * g mod 2^n.  Per slot, @commit counts every byte ever committed there
 * (records and padding), so the slot holds a complete sub-buffer of lap
 * L = g >> n exactly when commit == (L + 1) << m.  A writer may only start
 * a new lap in a slot when the previous lap is complete there; otherwise
 * it drops its record and counts it.
 *
 * Readers (the dump, on any CPU) copy whole sub-buffers and then check the
 * position again: if a writer has since entered lap L + 1 of the slot, the
 * copy may be torn and is thrown away.  Writers never wait for readers.
 *
 * Slot s's memory is @map[s] (its low bits, below the sub-buffer size, are
 * a tag, not part of the address).  A ring of its own (tipme_ring_init())
 * maps slot s to its s-th sub-buffer once and for all.  A ring that draws
 * from a pool (tipme_ring_init_pool(), struct tipme_pool) has a few slots
 * only, and a writer starting sub-buffer g takes memory for it from the
 * pool on the slow path (tipme_ring_claim()): the next free sub-buffer of
 * the machine or the oldest one no writer or reader holds, whichever CPU
 * wrote it.  The fast path is the same for both.
 */
#ifndef TIPME_RING_H
#define TIPME_RING_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/percpu.h>
#include <asm/local.h>
#include <linux/tipme.h>

#define TIPME_MAX_NESTING	4	/* task, softirq, hardirq, NMI */

/* A ring drawing from a pool has 2^TIPME_POOL_SLOTS_SHIFT slots. */
#define TIPME_POOL_SLOTS_SHIFT	3
/* Bits of a pool slot's @map entry that tag its lap (below PAGE_SIZE). */
#define TIPME_MAP_TAG		0xfffUL

struct tipme_ring;

/**
 * struct tipme_pool_sub - one sub-buffer of a pool
 * @state: TIPME_POOL_* bits: owner CPU, its sub-buffer number, retired
 *	(in the pool's queue), readers; 0 while free
 * @nrec: records in it, set by its owner when it retires it
 * @owner: the ring that took it last, for counting its records lost
 */
struct tipme_pool_sub {
	atomic64_t state;
	u64 nrec;
	struct tipme_ring *owner;
};

/*
 * struct tipme_pool_sub.state: readers pinning it (bits 0-7), retired
 * (complete, counted, queued: any CPU may take it), owned, the owner's CPU
 * (16 bits) and the owner's sub-buffer number (38 bits).
 */
#define TIPME_POOL_READERS	0xffULL
#define TIPME_POOL_RETIRED	0x100ULL
#define TIPME_POOL_OWNED	0x200ULL
#define TIPME_POOL_CPU_SHIFT	10
#define TIPME_POOL_SEQ_SHIFT	26
#define TIPME_POOL_KEY		(~(TIPME_POOL_READERS | TIPME_POOL_RETIRED))

static inline u64 tipme_pool_key(int cpu, u64 seq)
{
	return TIPME_POOL_OWNED | (u64)cpu << TIPME_POOL_CPU_SHIFT |
	       seq << TIPME_POOL_SEQ_SHIFT;
}

static inline int tipme_pool_state_cpu(u64 state)
{
	return (state >> TIPME_POOL_CPU_SHIFT) & 0xffff;
}

static inline u64 tipme_pool_state_seq(u64 state)
{
	return state >> TIPME_POOL_SEQ_SHIFT;
}

/**
 * struct tipme_pool_cell - one place in the pool's queue of retired
 *	sub-buffers
 * @seq: the queue position it may be written at (== position) or read
 *	at (== position + 1)
 * @idx: the sub-buffer
 */
struct tipme_pool_cell {
	atomic64_t seq;
	unsigned long idx;
};

/**
 * struct tipme_pool - sub-buffers shared by every CPU's ring
 * @fresh: never-used sub-buffers handed out (the first 2^@nsub_shift takes)
 * @head: next position of @queue to take from
 * @tail: next position of @queue to put at
 * @queue: the retired sub-buffers, oldest first: in the order their
 *	owners finished them, so a take reuses the one whose newest record
 *	is the machine's oldest
 * @data: the sub-buffers, zeroed at allocation
 * @subs: their state
 * @sub_shift: log2 of the sub-buffer size
 * @nsub_shift: log2 of their number
 * @frozen: a trigger froze the history: only never-used sub-buffers may
 *	be taken
 * @skipped: takes that passed over a sub-buffer a reader pinned (it goes
 *	back to the end of the queue)
 */
struct tipme_pool {
	atomic64_t fresh;
	atomic64_t head;
	atomic64_t tail;
	struct tipme_pool_cell *queue;
	char *data;
	struct tipme_pool_sub *subs;
	unsigned int sub_shift;
	unsigned int nsub_shift;
	bool frozen;
	atomic64_t skipped;
};

/**
 * struct tipme_slot_ctl - accounting of one sub-buffer slot
 * @commit: bytes committed to this slot, cumulative over laps
 * @nrec: records committed to this slot, cumulative over laps
 * @lapstart: @nrec when the slot's current lap began
 */
struct tipme_slot_ctl {
	local_t commit;
	local_t nrec;
	local_t lapstart;
};

/**
 * struct tipme_ring - one CPU's ring
 * @reserve: bytes reserved since load: the write position
 * @written: records committed since load
 * @overwritten: committed records lost to wrap-around since load
 * @dropped: records not written (see struct tipme_cpu_stats)
 * @nesting: writers active on this CPU right now
 * @last_ts: timestamp of the latest reservation; may lag behind it, which
 *           only makes writers emit extended timestamps more often
 * @data: the sub-buffers, 2^(@sub_shift + @nsub_shift) bytes, zeroed at
 *        allocation so no stale kernel memory can reach a dump (NULL when
 *        the ring draws from @pool)
 * @map: 2^@nsub_shift slot addresses, each ORed with a tag of its lap
 *       when the ring draws from @pool
 * @map_tag: the bits of @map's entries that are the tag: TIPME_MAP_TAG
 *           with @pool (its sub-buffers are page-aligned), else 0
 * @ctl: 2^@nsub_shift slot counters
 * @sub_shift: log2 of the sub-buffer size
 * @nsub_shift: log2 of the number of sub-buffers
 * @cpu: CPU owning the ring
 * @frozen: the oldest sub-buffer a trigger froze (TIPME_RING_THAWED: none);
 *          writers drop records rather than overwrite it or a later one
 * @pool: the pool the ring draws sub-buffers from, or NULL
 * @retired: with @pool: twice the number of sub-buffers its writers retired
 *           (complete, counted, free to be taken), plus 1 while a writer is
 *           retiring one
 * @stolen: with @pool: its records lost because another take reused them
 * @type_count: records committed per type since load
 */
struct tipme_ring {
	local_t reserve;
	local_t written;
	local_t overwritten;
	local_t dropped;
	local_t nesting;
	u64 last_ts;
	char *data;
	unsigned long *map;
	unsigned long map_tag;
	struct tipme_slot_ctl *ctl;
	unsigned int sub_shift;
	unsigned int nsub_shift;
	int cpu;
	u64 frozen;
	struct tipme_pool *pool;
	local_t retired;
	atomic64_t stolen;
	local_t type_count[TIPME_REC_NR];
};

#define TIPME_RING_THAWED	U64_MAX

/**
 * struct tipme_wslot - a reservation in progress
 * @ring: the ring reserved in
 * @pos: position of the record
 * @len: bytes reserved for it (header, extended timestamp, payload)
 * @ts: its timestamp, which probes reuse as the start of their own cost
 */
struct tipme_wslot {
	struct tipme_ring *ring;
	unsigned long pos;
	u32 len;
	u64 ts;
};

int tipme_ring_init(struct tipme_ring *r, int cpu, unsigned int sub_shift,
		    unsigned int nsub_shift);
int tipme_ring_init_pool(struct tipme_ring *r, int cpu, struct tipme_pool *p);
void tipme_ring_free(struct tipme_ring *r);
bool tipme_ring_claim(struct tipme_ring *r, unsigned long begin);
void tipme_ring_retire(struct tipme_ring *r, unsigned long begin);
int tipme_pool_init(struct tipme_pool *p, unsigned int sub_shift,
		    unsigned int nsub_shift, int node);
void tipme_pool_free(struct tipme_pool *p);

static inline unsigned long tipme_ring_sub_size(const struct tipme_ring *r)
{
	return 1UL << r->sub_shift;
}

static inline unsigned long tipme_ring_nsub(const struct tipme_ring *r)
{
	return 1UL << r->nsub_shift;
}

static inline char *tipme_ring_ptr(const struct tipme_ring *r,
				   unsigned long pos)
{
	return (char *)(r->map[(pos >> r->sub_shift) &
			       (tipme_ring_nsub(r) - 1)] & ~r->map_tag) +
	       (pos & (tipme_ring_sub_size(r) - 1));
}

static inline struct tipme_slot_ctl *tipme_ring_ctl(const struct tipme_ring *r,
						    unsigned long pos)
{
	return &r->ctl[(pos >> r->sub_shift) & (tipme_ring_nsub(r) - 1)];
}

static __always_inline void tipme_ring_drop(struct tipme_ring *r)
{
	local_inc(&r->dropped);
	local_dec(&r->nesting);
}

/**
 * tipme_ring_reserve() - reserve room for one record
 * @r: this CPU's ring
 * @type: enum tipme_rec_type
 * @payload: payload bytes (a multiple of 4)
 * @clock: the timestamp source; always inlined into the caller
 * @ws: filled in for tipme_ring_commit()
 *
 * Context: preemption disabled, any context including NMI, on the CPU
 * owning @r.  A successful reservation must be followed by
 * tipme_ring_commit() on the same CPU before preemption is enabled.
 *
 * Return: pointer to the payload, or NULL if the record was dropped.
 */
static __always_inline void *tipme_ring_reserve(struct tipme_ring *r,
						u32 type, u32 payload,
						u64 (*clock)(void),
						struct tipme_wslot *ws)
{
	unsigned long mask = tipme_ring_sub_size(r) - 1;
	unsigned long old, begin, pad;
	u32 len, *hdr;
	bool ext;
	u64 ts;

	if (local_inc_return(&r->nesting) > TIPME_MAX_NESTING) {
		tipme_ring_drop(r);
		return NULL;
	}
	do {
		old = local_read(&r->reserve);
		ts = clock();
		ext = ((ts - READ_ONCE(r->last_ts)) >> TIPME_HDR_TS_BITS) ||
		      !(old & mask);
		len = TIPME_HDR_SIZE + payload + (ext ? TIPME_HDR_EXT_SIZE : 0);
		pad = 0;
		begin = old;
		if ((old & mask) + len > mask + 1) {
			pad = mask + 1 - (old & mask);
			begin = old + pad;
			if (!ext) {
				ext = true;
				len += TIPME_HDR_EXT_SIZE;
			}
			if (len > mask + 1) {
				tipme_ring_drop(r);
				return NULL;
			}
		}
		if (!(begin & mask) && !tipme_ring_claim(r, begin)) {
			tipme_ring_drop(r);
			return NULL;
		}
	} while (local_cmpxchg(&r->reserve, old, begin + len) != old);
	WRITE_ONCE(r->last_ts, ts);

	if (pad) {
		/* The rest of the previous sub-buffer is padding. */
		*(u32 *)tipme_ring_ptr(r, old) = tipme_hdr_make(TIPME_REC_PAD, 0, 0);
		/* The marker before the commit that publishes it. */
		smp_wmb();
		local_add(pad, &tipme_ring_ctl(r, old)->commit);
		/* Complete now: the pool may have it back at once. */
		if (r->pool)
			tipme_ring_retire(r, begin);
	}
	hdr = (u32 *)tipme_ring_ptr(r, begin);
	*hdr = tipme_hdr_make(type, ext, ts);
	if (ext) {
		hdr[1] = (u32)ts;
		hdr[2] = (u32)(ts >> 32);
	}
	ws->ring = r;
	ws->pos = begin;
	ws->len = len;
	ws->ts = ts;
	return (char *)hdr + len - payload;
}

/**
 * tipme_ring_commit() - publish a record reserved with tipme_ring_reserve()
 * @ws: the reservation
 * @type: the record's type, for the per-type count
 *
 * Context: as tipme_ring_reserve(), on the same CPU.
 */
static __always_inline void tipme_ring_commit(struct tipme_wslot *ws, u32 type)
{
	struct tipme_ring *r = ws->ring;
	struct tipme_slot_ctl *c = tipme_ring_ctl(r, ws->pos);

	/* The record's bytes before the commit count readers check. */
	smp_wmb();
	local_inc(&c->nrec);
	local_add(ws->len, &c->commit);
	local_inc(&r->written);
	if (type < TIPME_REC_NR)
		local_inc(&r->type_count[type]);
	local_dec(&r->nesting);
}

/**
 * struct tipme_sub_view - what a reader may copy of one sub-buffer
 * @seq: sub-buffer number
 * @len: bytes that are committed and may be copied
 * @partial: the sub-buffer was still being filled
 */
struct tipme_sub_view {
	u64 seq;
	u32 len;
	bool partial;
};

int tipme_ring_view(struct tipme_ring *r, u64 seq, struct tipme_sub_view *v);
bool tipme_ring_still_valid(struct tipme_ring *r, u64 seq);
u64 tipme_ring_oldest_intact(struct tipme_ring *r);
u64 tipme_ring_oldest_seq(struct tipme_ring *r, unsigned long end);
u64 tipme_ring_overwritten(struct tipme_ring *r);

static inline unsigned long tipme_pool_nsub(const struct tipme_pool *p)
{
	return 1UL << p->nsub_shift;
}

static inline char *tipme_pool_ptr(const struct tipme_pool *p,
				   unsigned long idx)
{
	return p->data + (idx << p->sub_shift);
}

bool tipme_pool_pin(struct tipme_pool *p, unsigned long idx, int cpu, u64 seq);
void tipme_pool_unpin(struct tipme_pool *p, unsigned long idx);
void tipme_pool_freeze(struct tipme_pool *p, bool frozen);

#endif /* TIPME_RING_H */
