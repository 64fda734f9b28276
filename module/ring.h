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
 */
#ifndef TIPME_RING_H
#define TIPME_RING_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/percpu.h>
#include <asm/local.h>
#include <linux/tipme.h>

#define TIPME_MAX_NESTING	4	/* task, softirq, hardirq, NMI */

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
 *        allocation so no stale kernel memory can reach a dump
 * @ctl: 2^@nsub_shift slot counters
 * @sub_shift: log2 of the sub-buffer size
 * @nsub_shift: log2 of the number of sub-buffers
 * @cpu: CPU owning the ring
 * @frozen: the oldest sub-buffer a trigger froze (TIPME_RING_THAWED: none);
 *          writers drop records rather than overwrite it or a later one
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
	struct tipme_slot_ctl *ctl;
	unsigned int sub_shift;
	unsigned int nsub_shift;
	int cpu;
	u64 frozen;
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
void tipme_ring_free(struct tipme_ring *r);
bool tipme_ring_claim(struct tipme_ring *r, unsigned long begin);

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
	return r->data + (pos & ((1UL << (r->sub_shift + r->nsub_shift)) - 1));
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

#endif /* TIPME_RING_H */
