/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding the records of one CPU stream, and merging all CPUs into one
 * sequence ordered by timestamp.
 *
 * Events point into the loaded dump: nothing is copied except the small
 * normalised payloads of the types this reader knows.
 */
#ifndef TIPME_PM_DECODE_H
#define TIPME_PM_DECODE_H

#include <stdint.h>

#include "pm.h"

enum pm_ev_kind {
	PM_EV_RECORD = 1,	/* a record */
	PM_EV_LOST = 2,		/* sub-buffers missing from the stream (seq gap) */
};

/**
 * struct pm_event - one decoded record, or a loss marker
 * @kind: enum pm_ev_kind
 * @cpu: CPU whose stream it came from
 * @ts: full timestamp (recorder ticks); for PM_EV_LOST the timestamp of
 *      the first record after the gap (or of the last before it, at the
 *      end of the stream)
 * @ns: @ts in CLOCK_MONOTONIC ns (set by pm_merge_next() only: the one
 *      place a record's time is converted; state/ and everything above it
 *      work in these)
 * @type: record type (PM_EV_RECORD); a compact record is given as the
 *        type it stands for (TIPME_REC_SWITCH_C as TIPME_REC_SCHED_SWITCH,
 *        TIPME_REC_WAKING_C as TIPME_REC_SCHED_WAKING, TIPME_REC_SITE as
 *        TIPME_REC_BLOCKED), with @u filled in from what the stream says;
 *        a TIPME_REC_SWITCH_SITE_S is given as two events, the switch and
 *        then the blocked (whose @rec_size is 0)
 * @raw_type: the type as stored
 * @ext: the record carried an extended timestamp
 * @waker_unknown: a TIPME_REC_WAKING_C before the stream told which task
 *                 was on the CPU: @u.wk's waker is 0 and means nothing
 * @prev_unknown: a short switch (TIPME_REC_SWITCH_S, _SWITCH_SITE_S) before
 *                the stream told which task was on the CPU: @u.sw's
 *                prev_pid and prev_prio are 0 and mean nothing
 * @rt: the dump's description of @type (for a compact record, this
 *      reader's description of the type it stands for)
 * @rec_size: bytes the record occupies in the stream
 * @payload: the payload as stored in the dump (any alignment); for a
 *           TIPME_REC_SITE the site's entry in the loaded site table, laid
 *           out as a TIPME_REC_BLOCKED payload (not in the file)
 * @payload_len: its length
 * @u: fixed payload of a type this reader decodes (pm_rectype_size()),
 *     normalised: fields the writer did not have are zero, fields it
 *     added are not here; the array of a varlen type follows it in
 *     @payload (records/ reads it).  Every type's is @u.rec.<NAME>
 *     (TIPME_REC_<NAME>); the usual ones have short names too
 * @seq: sequence number of the sub-buffer holding the record
 * @file_off: file offset of the record
 * @lost_first: PM_EV_LOST: first missing sub-buffer seq
 * @lost_count: PM_EV_LOST: number of missing sub-buffers
 * @lost_since: PM_EV_LOST: timestamp of the last record before the gap
 *              (0 if none)
 * @lost_since_ns: @lost_since in CLOCK_MONOTONIC ns (pm_merge_next(); 0
 *              if none)
 */
/* A member of struct pm_event.u.rec: the fixed part of TIPME_REC_<id>. */
#define PM_EV_FIXED_PART(nr, id, st, n, len, family)	st id;

struct pm_event {
	int kind;
	uint32_t cpu;
	uint64_t ts;
	int64_t ns;
	uint8_t type;
	uint8_t raw_type;
	uint8_t ext;
	uint8_t waker_unknown;
	uint8_t prev_unknown;
	const struct pm_rectype *rt;
	uint32_t rec_size;
	const unsigned char *payload;
	uint32_t payload_len;
	union {
		struct tipme_rec_switch sw;
		struct tipme_rec_waking wk;
		struct tipme_rec_trigger trig;
		struct tipme_rec_input in;
		struct tipme_rec_blocked bl;
		struct tipme_rec_fork fk;
		struct tipme_rec_exec ex;
		struct tipme_rec_exit xt;
		struct tipme_rec_comm cm;
		struct tipme_rec_blk bk;
		struct tipme_rec_lock_begin lb;
		struct tipme_rec_lock_end le;
		struct tipme_rec_reclaim_begin rb;
		struct tipme_rec_reclaim_end re;
		struct tipme_rec_kswapd kw;
		struct tipme_rec_throttled th;
		struct tipme_rec_sample sm;
		struct tipme_rec_sample_end se;
		struct tipme_rec_cost co;
		struct tipme_rec_switch_c swc;
		struct tipme_rec_waking_c wkc;
		struct tipme_rec_site si;
		struct tipme_rec_switch_s sws;
		struct tipme_rec_switch_site_s swss;
		union {
			TIPME_REC_TYPES(PM_EV_FIXED_PART)
			TIPME_REC_TEST_TYPES(PM_EV_FIXED_PART)
		} rec;
	} u;
	uint64_t seq;
	uint64_t file_off;
	uint64_t lost_first;
	uint64_t lost_count;
	uint64_t lost_since;
	int64_t lost_since_ns;
};

/**
 * struct pm_dec_stats - what a decoder has seen so far
 * @records: records decoded
 * @count: records per type
 * @bytes: bytes per type (header, extended timestamp and payload)
 * @ext_records: records with an extended timestamp
 * @pad_bytes: padding at the ends of sub-buffers
 * @subbufs: sub-buffers read
 * @partial_subbufs: sub-buffers flagged TIPME_SUBBUF_PARTIAL
 * @missing_subbufs: sub-buffers missing between those read (seq gaps)
 * @gaps: number of seq gaps
 * @unattributed: compact records dropped because the stream had not said
 *                whom they were about (TIPME_REC_SITE after a lost switch)
 * @first_seq: seq of the first sub-buffer
 * @last_seq: seq of the last sub-buffer
 * @have_ts: @first_ts and @last_ts are set
 * @first_ts: first record's timestamp
 * @last_ts: last record's timestamp
 * @lost_before: sub-buffers of this CPU before @kept_from_ts are missing
 *               (the stream starts after sub-buffer 0, or has a gap)
 * @kept_from_ts: the first record after the latest such loss
 * @lost_at_end: sub-buffers after @last_ts are missing
 */
struct pm_dec_stats {
	uint64_t records;
	uint64_t count[PM_NR_TYPES];
	uint64_t bytes[PM_NR_TYPES];
	uint64_t ext_records;
	uint64_t pad_bytes;
	uint64_t subbufs;
	uint64_t partial_subbufs;
	uint64_t missing_subbufs;
	uint64_t gaps;
	uint64_t unattributed;
	uint64_t first_seq;
	uint64_t last_seq;
	int have_ts;
	uint64_t first_ts;
	uint64_t last_ts;
	int lost_before;
	uint64_t kept_from_ts;
	int lost_at_end;
};

/**
 * struct pm_dec_snap - what a decoder knows where a sub-buffer begins:
 * enough to start decoding there and give the same events a decoder
 * that read the stream from its beginning gives (pm_dec_seek())
 * @sec_i: sections of the CPU opened so far (the sub-buffer is in the
 *	   one before; 0: none opened yet)
 * @sec_pos: offset of the sub-buffer's header in that section
 * @have_seq: a sub-buffer came before
 * @last_seq: its seq (a gap up to this one is reported as lost)
 * @have_prev: a record came before
 * @prev_ts: its timestamp (the base of the first short timestamp)
 * @cur: the CPU's current task as the stream told it, -1 if not known
 * @cur_prio: its priority
 * @sleeper: the task the latest switch put to sleep (a site record that
 *	     follows is its), -1 if none
 * @usleeper: the same for a compact user-space chain record
 * @pending_lost_first: a gap not yet reported (empty sub-buffers after it)
 * @pending_lost: its number of missing sub-buffers, 0 if none
 */
struct pm_dec_snap {
	uint32_t sec_i;
	uint64_t sec_pos;
	int have_seq;
	uint64_t last_seq;
	int have_prev;
	uint64_t prev_ts;
	int64_t cur;
	uint32_t cur_prio;
	int64_t sleeper;
	int64_t usleeper;
	uint64_t pending_lost_first;
	uint64_t pending_lost;
};

struct pm_dec;

/*
 * Called by a decoder before it reads each sub-buffer's header (after a
 * section is opened), with nothing of the previous one left to give.
 */
typedef void (*pm_dec_subbuf_fn)(void *arg, const struct pm_dec *d);

/**
 * struct pm_dec - decoder of one CPU's stream; fields are private except
 * @cpu, @st, @on_subbuf and @on_subbuf_arg
 */
struct pm_dec {
	const struct pm_dump *pm;
	const struct pm_cpu *pc;
	uint32_t cpu;
	uint32_t sec_i;
	const unsigned char *sec;
	uint64_t sec_size;
	uint64_t sec_pos;
	uint64_t sec_file_off;
	uint32_t sec_idx;
	int sec_check;
	const unsigned char *sb;
	uint32_t sb_len;
	uint32_t sb_pos;
	uint64_t sb_seq;
	uint64_t sb_file_off;
	int in_sb;
	int sb_first;
	int have_seq;
	int loss_mark;
	uint64_t prev_ts;
	int have_prev;
	int64_t cur;
	uint32_t cur_prio;
	int64_t sleeper;
	int64_t usleeper;
	int have_extra;
	struct pm_event extra;
	uint64_t pending_lost_first;
	uint64_t pending_lost;
	int have_held;
	struct pm_event held;
	int done;
	struct pm_dec_stats st;
	pm_dec_subbuf_fn on_subbuf;
	void *on_subbuf_arg;
	uint8_t known;
	uint64_t read_since_drop;
	int skim_ready;
	uint32_t skim_size[PM_NR_TYPES];
	uint8_t skim_state[PM_NR_TYPES];
};

/*
 * struct pm_dec's @known: what a decoder started "cold" at a sub-buffer
 * (pm_dec_seek() with nothing known: no current task, no sleeper, no
 * sequence, no previous record) has learnt since, so that its state is
 * that of a decoder that read the stream from its beginning: the current
 * task (a switch names the next one; a gap makes it unknown to both),
 * the thread the latest switch put to sleep (a switch whose previous task
 * is known to both; a gap), and the previous record (timestamp, a gap
 * not yet reported: both agree once a record has been read).
 */
#define PM_DEC_KNOWN_CUR	0x1
#define PM_DEC_KNOWN_SLEEPER	0x2
#define PM_DEC_KNOWN_PREV	0x4
#define PM_DEC_KNOWN_ALL	0x7

/**
 * pm_dump_read() - count bytes read from @pm's mapped file; past a MiB
 * since the last drop, give its pages back (tm_drop_file_pages())
 * @pm: the dump
 * @since: the reader's count since its last drop
 * @bytes: read now
 *
 * For readers that go through the file once (the decoders, the index of
 * sub-buffers): the pages stay in the page cache, and the resident set
 * holds a few MiB of the file, not all of it.
 */
void pm_dump_read(const struct pm_dump *pm, uint64_t *since, uint64_t bytes);

/**
 * pm_dec_snap() - the decoder's state, called from its @on_subbuf
 * @d: decoder
 * @s: the state where the sub-buffer about to be read begins
 */
void pm_dec_snap(const struct pm_dec *d, struct pm_dec_snap *s);

/**
 * pm_dec_seek() - start a decoder at a sub-buffer
 * @d: decoder, from pm_dec_init() on the same dump and CPU
 * @s: what pm_dec_snap() said there
 *
 * The decoder then gives the events a decoder that read the stream from
 * its beginning gives from that sub-buffer on (its statistics count only
 * what it reads from there).
 */
void pm_dec_seek(struct pm_dec *d, const struct pm_dec_snap *s);

/**
 * pm_dec_init() - start decoding one CPU
 * @d: decoder
 * @pm: the dump
 * @pc: the CPU (an element of pm->cpus)
 */
void pm_dec_init(struct pm_dec *d, const struct pm_dump *pm,
		 const struct pm_cpu *pc);

/**
 * pm_dec_next() - the next event of this CPU
 * @d: decoder
 * @ev: the event
 * @e: error message ("cpu 1, sub-buffer seq 7 at offset 4096: ...")
 *
 * Return: 1 with an event in @ev, 0 at the end, negative errno on a
 * malformed stream (the decoder then stays at its end).
 */
int pm_dec_next(struct pm_dec *d, struct pm_event *ev, struct tm_err *e);

/**
 * struct pm_dec_tally - the records pm_dec_skim() passed over
 * @n: how many
 * @count: how many of each type, as stored (@raw_type)
 * @have_ts: @first_ts and @last_ts are set
 * @first_ts: the first one's timestamp
 * @last_ts: the last one's
 *
 * The records counted are those pm_dec_next() gives with a @rec_size:
 * not the blocked event a short switch with a site also stands for, not
 * the losses, not the compact records it drops as unattributed.
 */
struct pm_dec_tally {
	uint64_t n;
	uint64_t count[PM_NR_TYPES];
	int have_ts;
	uint64_t first_ts;
	uint64_t last_ts;
};

/**
 * pm_dec_skim() - the next record of a type @want names; the others
 * only counted
 * @d: decoder from pm_dec_init(), read only by pm_dec_skim()
 * @want: per type as stored (PM_NR_TYPES entries): nonzero for the
 *	records to give as events
 * @ev: the record, as pm_dec_next() gives it
 * @t: the records before it not given, added (the caller empties it)
 * @e: error message
 *
 * For a reader that needs a stream's counts (@d->st), not its records
 * (`tipme info`): it reads each record's header, and the payload only of
 * the switches and the compact records that follow them, whose thread a
 * switch tells.  The losses and the blocked event of a short switch with
 * a site are not given; @d->st at the end, and the errors, are
 * pm_dec_next()'s.
 *
 * Return: 1 with an event in @ev, 0 at the end, negative errno on a
 * malformed stream.
 */
int pm_dec_skim(struct pm_dec *d, const uint8_t *want, struct pm_event *ev,
		struct pm_dec_tally *t, struct tm_err *e);

/**
 * pm_dec_all() - decode a whole CPU stream, keeping only the statistics
 * @pm: the dump
 * @pc: the CPU
 * @st: the statistics
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_dec_all(const struct pm_dump *pm, const struct pm_cpu *pc,
	       struct pm_dec_stats *st, struct tm_err *e);

/**
 * struct pm_merge - k-way merge of all CPU decoders by (ts, cpu); private
 */
struct pm_merge {
	const struct pm_dump *pm;
	int64_t from_ns;
	int64_t to_ns;
	struct pm_dec *decs;
	struct pm_event *cur;
	uint32_t *heap;
	uint32_t n;
	uint32_t heap_n;
	int primed;
	int err;
	struct tm_err errmsg;
};

/**
 * pm_merge_init() - prepare to merge the CPUs of @pm
 * @m: merge state; release with pm_merge_free()
 * @pm: the dump
 * @cpu_mask: if not NULL, only CPUs whose index in pm->cpus has a nonzero
 *            entry are merged
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_merge_init(struct pm_merge *m, const struct pm_dump *pm,
		  const unsigned char *cpu_mask, struct tm_err *e);

/**
 * pm_merge_next() - the next event in time order
 * @m: merge state
 * @ev: the event
 * @e: error message
 *
 * Events with equal timestamps come in CPU order; events of one CPU keep
 * their stream order.  Each event's @ns and @lost_since_ns are set here.
 *
 * Return: 1 with an event, 0 at the end, negative errno on error.
 */
int pm_merge_next(struct pm_merge *m, struct pm_event *ev, struct tm_err *e);

/**
 * pm_merge_free() - release a merge
 * @m: merge state
 */
void pm_merge_free(struct pm_merge *m);

/**
 * pm_ev_waker() - who woke the task of a TIPME_REC_SCHED_WAKING event
 * @ev: the event
 *
 * Return: the waker's pid (0: the idle task, in an interrupt), or -1 if
 * the dump does not say.
 */
static inline int64_t pm_ev_waker(const struct pm_event *ev)
{
	return ev->waker_unknown ? -1 : (int64_t)tipme_waking_waker(&ev->u.wk);
}

/**
 * pm_ev_fixed() - copy the fixed part of a record's payload
 * @ev: the record
 * @fixed: where to copy it: fields a shorter (older) payload lacks are zero
 * @size: size of the fixed part
 * @rest: set to the bytes that follow it (a variable part)
 *
 * Return: the first byte after the fixed part.
 */
const unsigned char *pm_ev_fixed(const struct pm_event *ev, void *fixed,
				 size_t size, size_t *rest);

/*
 * The arrays after a variable-length record's fixed part (dump/tail.c):
 * every reader of them goes through these.  Each gives as many elements
 * as the record's count says and its payload holds whole.
 */

/**
 * pm_rec_addrs() - the 32-bit return addresses of a blocked or
 * reclaim_begin record, as stored
 * @ev: a decoded record
 * @n: set to how many (0 for other types)
 *
 * Return: where they start in @ev's payload (read each with memcpy).
 */
const unsigned char *pm_rec_addrs(const struct pm_event *ev, size_t *n);

/**
 * pm_rec_frames() - a blocked or reclaim_begin record's frames, cleaned
 * @pm: the dump
 * @ev: a decoded record
 * @out: full addresses of the frames worth showing, innermost first
 *       (pm_site_frames() of the first PM_FRAMES_MAX addresses)
 * @max: room in @out
 *
 * Return: frames in @out (0 for other types).
 */
size_t pm_rec_frames(const struct pm_dump *pm, const struct pm_event *ev,
		     uint64_t *out, size_t max);

/**
 * pm_sample_entries() - the threads of a sample record (TIPME_REC_SAMPLE)
 * @ev: the record
 * @p: set to where they start (read each struct tipme_sample_ent with memcpy)
 *
 * Return: how many.
 */
size_t pm_sample_entries(const struct pm_event *ev, const unsigned char **p);

/**
 * pm_cost_entries() - the entries of a self-cost record (TIPME_REC_COST)
 * @ev: the record
 * @p: set to where they start (read each struct tipme_cost_ent with memcpy)
 *
 * Return: how many.
 */
size_t pm_cost_entries(const struct pm_event *ev, const unsigned char **p);

#endif
