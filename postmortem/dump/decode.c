// SPDX-License-Identifier: GPL-2.0
/*
 * Decode one CPU stream; merge all CPUs by time.
 *
 * A CPU stream is the concatenation of the TIPME_SEC_CPU_STREAM sections
 * of that CPU in file order: (struct tipme_subbuf, len bytes of records)*.
 * A sub-buffer never crosses a section boundary.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"
#include "decode.h"
#include "tables.h"

void pm_dec_init(struct pm_dec *d, const struct pm_dump *pm,
		 const struct pm_cpu *pc)
{
	memset(d, 0, sizeof(*d));
	d->pm = pm;
	d->pc = pc;
	d->cpu = pc->cpu;
	d->sec_i = 0;
	d->sec = NULL;
	d->cur = -1;
	d->sleeper = -1;
	d->usleeper = -1;
}

/* After an error: stay at the end from now on. */
static int dec_stop(struct pm_dec *d)
{
	d->done = 1;
	d->in_sb = 0;
	d->have_held = 0;
	d->have_extra = 0;
	d->pending_lost = 0;
	return -EINVAL;
}

static int dec_err(struct pm_dec *d, struct tm_err *e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Fail with context: "cpu 1, sub-buffer seq 7 (file offset 4096): <msg>". */
static int dec_err(struct pm_dec *d, struct tm_err *e, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	int err;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (d->sb)
		err = tm_err_set(e, EINVAL, "cpu %" PRIu32 ", sub-buffer seq %" PRIu64
				 " (file offset %" PRIu64 "): %s",
				 d->cpu, d->sb_seq, d->sb_file_off, msg);
	else
		err = tm_err_set(e, EINVAL, "cpu %" PRIu32 ": %s", d->cpu, msg);
	dec_stop(d);
	return err;
}

/* Move to the next stream section of this CPU; 0 if there is none. */
static int next_section(struct pm_dec *d)
{
	const struct tm_dump_sec *s;

	if (d->sec_i >= d->pc->nr_secs)
		return 0;
	s = &d->pm->d.secs[d->pc->secs[d->sec_i++]];
	d->sec_idx = s->index;
	d->sec_check = 1;
	d->sec = s->data;
	d->sec_size = s->h.size;
	d->sec_pos = 0;
	d->sec_file_off = s->hdr_off + sizeof(struct tipme_section);
	return 1;
}

/*
 * Bytes read between two drops of the dump's mapped pages: a stream is
 * read once, front to back, so what was read need not stay in the
 * resident set next to what is built from it (the pages stay in the page
 * cache and come back unchanged if touched again).  Every decoder of a
 * merge drops the whole file's: a few MiB stay resident, whatever the
 * dump's size.
 */
#define PM_DEC_DROP_EVERY	(1U << 20)

void pm_dump_read(const struct pm_dump *pm, uint64_t *since, uint64_t bytes)
{
	*since += bytes;
	if (*since < PM_DEC_DROP_EVERY)
		return;
	*since = 0;
	tm_drop_file_pages(pm->d.buf, pm->d.size, pm->d.owned == TM_DUMP_MAPPED);
}

/* Read the next sub-buffer header.  1: in a sub-buffer, 0: end, <0 error. */
static int next_subbuf(struct pm_dec *d, struct tm_err *e)
{
	struct tipme_subbuf sb;
	uint64_t left;

	while (!d->sec || d->sec_pos == d->sec_size) {
		if (!next_section(d))
			return 0;
	}
	if (d->sec_check) {
		/* the section's checksum, when its first bytes are read */
		d->sec_check = 0;
		if (pm_sec_check(d->pm, d->sec_idx, e) < 0) {
			d->sb = NULL;
			return dec_stop(d);
		}
	}
	if (d->on_subbuf)
		d->on_subbuf(d->on_subbuf_arg, d);
	left = d->sec_size - d->sec_pos;
	d->sb = NULL;
	if (left < sizeof(sb))
		return dec_err(d, e, "%" PRIu64 " bytes at file offset %" PRIu64
			       " are too short for a sub-buffer header",
			       left, d->sec_file_off + d->sec_pos);
	memcpy(&sb, d->sec + d->sec_pos, sizeof(sb));
	pm_dump_read(d->pm, &d->read_since_drop, sizeof(sb) + sb.len);
	d->sb_seq = sb.seq;
	d->sb_file_off = d->sec_file_off + d->sec_pos;
	d->sb = d->sec + d->sec_pos + sizeof(sb);
	left -= sizeof(sb);
	if (sb.len % 4)
		return dec_err(d, e, "length %" PRIu32 " is not a multiple of 4",
			       sb.len);
	if (sb.len > left)
		return dec_err(d, e, "length %" PRIu32 " extends past the end of the section (%" PRIu64 " bytes left)",
			       sb.len, left);
	if (d->have_seq) {
		if (sb.seq <= d->st.last_seq)
			return dec_err(d, e, "sequence number does not increase (previous %" PRIu64 ")",
				       d->st.last_seq);
		if (sb.seq - d->st.last_seq > 1) {
			if (!d->pending_lost)
				d->pending_lost_first = d->st.last_seq + 1;
			d->pending_lost += sb.seq - d->st.last_seq - 1;
			d->st.missing_subbufs += sb.seq - d->st.last_seq - 1;
			d->st.gaps++;
			d->loss_mark = 1;
			/* what the missing records said is not known */
			d->cur = -1;
			d->sleeper = -1;
			d->usleeper = -1;
			d->known |= PM_DEC_KNOWN_CUR | PM_DEC_KNOWN_SLEEPER;
		}
	} else {
		d->st.first_seq = sb.seq;
		d->have_seq = 1;
		/* sub-buffers since load are numbered from 0 */
		d->loss_mark = sb.seq > 0;
	}
	d->st.last_seq = sb.seq;
	d->st.subbufs++;
	if (sb.flags & TIPME_SUBBUF_PARTIAL)
		d->st.partial_subbufs++;
	d->sb_len = sb.len;
	d->sb_pos = 0;
	d->sb_first = 1;
	d->in_sb = 1;
	d->sec_pos += sizeof(sb) + sb.len;
	return 1;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void make_lost(struct pm_dec *d, struct pm_event *ev, uint64_t ts,
		      int have_since, uint64_t since)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = PM_EV_LOST;
	ev->cpu = d->cpu;
	ev->ts = ts;
	ev->seq = d->sb_seq;
	ev->file_off = d->sb_file_off;
	ev->lost_first = d->pending_lost_first;
	ev->lost_count = d->pending_lost;
	ev->lost_since = have_since ? since : 0;
	d->pending_lost = 0;
}

/* A record's header as read: what decode_record() and the skim share. */
struct rec_hdr {
	const struct pm_rectype *rt;
	const unsigned char *payload;
	uint64_t ts;
	uint32_t pos, plen, rec_size;
	unsigned int type;
	int ext;
};

/*
 * Read the header of the record at the current position, check it, count
 * it in the statistics and step over it.  1: a record, 0: padding.
 * Inlined in both its callers: it is most of pm_dec_skim()'s loop.
 */
static inline __attribute__((always_inline)) int read_record(struct pm_dec *d, struct rec_hdr *h, struct tm_err *e)
{
	const struct pm_rectype *rt;
	uint32_t left = d->sb_len - d->sb_pos, hdr, size, plen;
	const unsigned char *p = d->sb + d->sb_pos;
	unsigned int type;
	uint64_t ts;
	uint16_t vlen;
	int ext;

	if (left < TIPME_HDR_SIZE)
		return dec_err(d, e, "record at +%" PRIu32 ": header extends past the end",
			       d->sb_pos);
	hdr = get32(p);
	type = tipme_hdr_type(hdr);
	if (type == TIPME_REC_PAD) {
		d->st.pad_bytes += left;
		d->in_sb = 0;
		return 0;
	}
	rt = &d->pm->rt[type];
	if (!rt->present)
		return dec_err(d, e, "record at +%" PRIu32 ": type %u is not in the record-type table",
			       d->sb_pos, type);
	ext = tipme_hdr_ext(hdr);
	if (d->sb_first && !ext)
		return dec_err(d, e, "first record (%s) has no extended timestamp",
			       rt->name);
	size = TIPME_HDR_SIZE + (ext ? TIPME_HDR_EXT_SIZE : 0);
	if (size > left)
		return dec_err(d, e, "record at +%" PRIu32 " (%s): extended timestamp extends past the end",
			       d->sb_pos, rt->name);
	if (ext) {
		memcpy(&ts, p + TIPME_HDR_SIZE, sizeof(ts));
		if (d->have_prev && ts < d->prev_ts)
			return dec_err(d, e, "record at +%" PRIu32 " (%s): timestamp %" PRIu64
				       " is before the previous one (%" PRIu64 ")",
				       d->sb_pos, rt->name, ts, d->prev_ts);
	} else {
		ts = tipme_ts_extend(d->prev_ts, tipme_hdr_ts(hdr));
	}
	if (rt->flags & TIPME_RECTYPE_VARLEN) {
		if (left - size < sizeof(vlen))
			return dec_err(d, e, "record at +%" PRIu32 " (%s): length field extends past the end",
				       d->sb_pos, rt->name);
		memcpy(&vlen, p + size, sizeof(vlen));
		if (vlen < sizeof(vlen) || vlen < rt->payload_size)
			return dec_err(d, e, "record at +%" PRIu32 " (%s): payload length %u is below the minimum %u",
				       d->sb_pos, rt->name, vlen,
				       rt->payload_size > sizeof(vlen) ? rt->payload_size : (unsigned int)sizeof(vlen));
		plen = vlen;
	} else {
		plen = rt->payload_size;
	}
	if (plen > left - size || ((size + plen + 3) & ~3U) > left)
		return dec_err(d, e, "record at +%" PRIu32 " (%s): %" PRIu32
			       " bytes extend past the end (%" PRIu32 " left)",
			       d->sb_pos, rt->name, size + plen, left);

	h->rt = rt;
	h->payload = p + size;
	h->ts = ts;
	h->pos = d->sb_pos;
	h->plen = plen;
	h->rec_size = (size + plen + 3) & ~3U;
	h->type = type;
	h->ext = ext;

	d->st.records++;
	d->st.count[type]++;
	d->st.bytes[type] += h->rec_size;
	if (ext)
		d->st.ext_records++;
	if (!d->st.have_ts) {
		d->st.first_ts = ts;
		d->st.have_ts = 1;
	}
	d->st.last_ts = ts;
	if (d->loss_mark) {
		d->st.lost_before = 1;
		d->st.kept_from_ts = ts;
		d->loss_mark = 0;
	}
	d->prev_ts = ts;
	d->have_prev = 1;
	d->sb_first = 0;
	d->sb_pos += h->rec_size;
	return 1;
}

/* The event of the record @h. */
static inline __attribute__((always_inline)) void
fill_event(const struct pm_dec *d, const struct rec_hdr *h,
		       struct pm_event *ev)
{
	/*
	 * Every field set, none left from before (one memset of the whole
	 * event per record was a quarter of the decoding: a rep stos).
	 */
	ev->kind = PM_EV_RECORD;
	ev->cpu = d->cpu;
	ev->ts = h->ts;
	ev->ns = 0;
	ev->type = (uint8_t)h->type;
	ev->raw_type = (uint8_t)h->type;
	ev->ext = (uint8_t)h->ext;
	ev->waker_unknown = 0;
	ev->prev_unknown = 0;
	ev->rt = h->rt;
	ev->payload = h->payload;
	ev->payload_len = h->plen;
	ev->rec_size = h->rec_size;
	ev->seq = d->sb_seq;
	ev->file_off = d->sb_file_off + sizeof(struct tipme_subbuf) + h->pos;
	ev->lost_first = 0;
	ev->lost_count = 0;
	ev->lost_since = 0;
	ev->lost_since_ns = 0;
	memset(&ev->u, 0, sizeof(ev->u));
	if (h->rt->our_size)	/* common prefix; the rest stays zero */
		memcpy(&ev->u, ev->payload,
		       h->plen < h->rt->our_size ? h->plen : h->rt->our_size);
}

/* Decode the record at the current position.  1: record, 0: padding. */
static int decode_record(struct pm_dec *d, struct pm_event *ev,
			 struct tm_err *e)
{
	struct rec_hdr h = { 0 };
	int ret = read_record(d, &h, e);

	if (ret > 0)
		fill_event(d, &h, ev);
	return ret;
}

/* @ev, a switch record, as the sched_switch it stands for. */
static void as_switch(struct pm_event *ev)
{
	ev->type = TIPME_REC_SCHED_SWITCH;
	ev->rt = pm_rectype_canon(ev->type);
}

/* Site @id as a blocked event of @pid at @ev's place. */
static void as_blocked(const struct pm_dec *d, struct pm_event *ev,
		       uint32_t id, uint32_t pid)
{
	const unsigned char *blob;
	uint32_t len;

	blob = pm_site_blob(d->pm, id, &len);
	ev->type = TIPME_REC_BLOCKED;
	ev->rt = pm_rectype_canon(ev->type);
	ev->payload = blob;
	ev->payload_len = len;
	memset(&ev->u, 0, sizeof(ev->u));
	memcpy(&ev->u.bl, blob, sizeof(ev->u.bl));
	ev->u.bl.pid = pid;
}

/*
 * Whom a compact record is about: *@who, or -1 (counted as unattributed)
 * when the stream has not said.  @take: the next such record is not its.
 */
static int64_t whose(struct pm_dec *d, int64_t *who, int take)
{
	int64_t pid = *who;

	if (pid < 0) {
		d->st.unattributed++;
		return -1;
	}
	if (take)
		*who = -1;
	return pid;
}

/* A compact record of thread @who (known) as @type, its payload cleared. */
static void as_thread_rec(struct pm_event *ev, unsigned int type)
{
	ev->type = (uint8_t)type;
	ev->rt = pm_rectype_canon(type);
	memset(&ev->u, 0, sizeof(ev->u));
}

/*
 * A record's fixed part of @size bytes from its payload @p, of which @n
 * are there: the rest zero, as the event holds it.
 */
static inline void fixed_part(void *dst, size_t size, const unsigned char *p,
			      size_t n)
{
	if (n >= size) {
		memcpy(dst, p, size);
		return;
	}
	memset(dst, 0, size);
	memcpy(dst, p, n);
}

/*
 * The switch a record of any switch form (@type, described by @rt, its
 * payload @p of @plen bytes) stands for, at the decoder's state, in @sw;
 * @prev_unknown: a short switch came before the stream told which task
 * was on the CPU (@sw's prev_pid and prev_prio are 0).
 * Return: the site of a short switch with one, else 0.
 */
static inline __attribute__((always_inline)) uint32_t
unpack_switch(const struct pm_dec *d, const struct pm_rectype *rt,
			      unsigned int type, const unsigned char *p, uint32_t plen,
			      struct tipme_rec_switch *sw, uint8_t *prev_unknown)
{
	size_t n = plen < rt->our_size ? plen : rt->our_size;
	struct tipme_rec_switch_site_s ss;
	struct tipme_rec_switch_c c;

	*prev_unknown = 0;
	switch (type) {
	case TIPME_REC_SWITCH_C:
		fixed_part(&c, sizeof(c), p, n);
		tipme_switch_c_unpack(&c, sw);
		return 0;
	case TIPME_REC_SWITCH_S:
	case TIPME_REC_SWITCH_SITE_S:
		/* a short switch's word is where a short switch with a site's is */
		fixed_part(&ss, sizeof(ss), p, n);
		*prev_unknown = d->cur < 0;
		tipme_switch_s_unpack(ss.word, type == TIPME_REC_SWITCH_SITE_S,
				      d->cur < 0 ? 0 : (uint32_t)d->cur,
				      d->cur < 0 ? 0 : d->cur_prio, sw);
		return type == TIPME_REC_SWITCH_SITE_S ? ss.site : 0;
	default:
		fixed_part(sw, sizeof(*sw), p, n);
		return 0;
	}
}

/*
 * After a switch (@type as stored, @sw what it stands for): the CPU's
 * current task and the thread the switch put to sleep.
 */
static inline __attribute__((always_inline)) void
follow_switch(struct pm_dec *d, unsigned int type,
			  const struct tipme_rec_switch *sw, int prev_unknown)
{
	/* its previous task is known to a cold decoder if it names it, or
	 * if the current task was known */
	if (type != TIPME_REC_SWITCH_S && type != TIPME_REC_SWITCH_SITE_S)
		d->known |= PM_DEC_KNOWN_SLEEPER;
	else if (d->known & PM_DEC_KNOWN_CUR)
		d->known |= PM_DEC_KNOWN_SLEEPER;
	d->known |= PM_DEC_KNOWN_CUR;
	d->sleeper = !prev_unknown && sw->prev_pid &&
		     !(sw->flags & TIPME_SWITCH_PREEMPT) &&
		     sw->prev_state != TIPME_TS_RUNNABLE ? (int64_t)sw->prev_pid : -1;
	d->usleeper = d->sleeper;
	d->cur = sw->next_pid;
	d->cur_prio = sw->next_prio;
}

static int is_switch(unsigned int type)
{
	return type == TIPME_REC_SCHED_SWITCH || type == TIPME_REC_SWITCH_C ||
	       type == TIPME_REC_SWITCH_S || type == TIPME_REC_SWITCH_SITE_S;
}

/*
 * Follow the CPU's current task (and its priority) and the thread its
 * latest switch put to sleep, and give compact records as the types they
 * stand for; a short switch with a site leaves its blocked event in
 * @d->extra.
 * Return: 1 to pass @ev on, 0 to drop it.
 */
static inline __attribute__((always_inline)) int
normalise(struct pm_dec *d, struct pm_event *ev)
{
	uint32_t word, site = 0;
	int64_t pid;

	if (!ev->rt->our_size)
		return 1;	/* the dump's table names it otherwise: as is */
	if (is_switch(ev->raw_type)) {
		site = unpack_switch(d, ev->rt, ev->raw_type, ev->payload,
				     ev->payload_len, &ev->u.sw, &ev->prev_unknown);
		if (ev->raw_type != TIPME_REC_SCHED_SWITCH)
			as_switch(ev);
		follow_switch(d, ev->raw_type, &ev->u.sw, ev->prev_unknown);
		if (site && (pid = whose(d, &d->sleeper, 1)) >= 0) {
			d->extra = *ev;
			d->extra.rec_size = 0;
			as_blocked(d, &d->extra, site, (uint32_t)pid);
			d->have_extra = 1;
		}
		return 1;
	}
	switch (ev->raw_type) {
	case TIPME_REC_WAKING_C:
		word = ev->u.wkc.word;
		tipme_waking_pack(&ev->u.wk, word & TIPME_PID_MASK, word >> 24,
				  d->cur >= 0 ? (uint32_t)d->cur : 0,
				  (word >> 22) & 3U);
		ev->waker_unknown = d->cur < 0;
		ev->type = TIPME_REC_SCHED_WAKING;
		ev->rt = pm_rectype_canon(ev->type);
		return 1;
	case TIPME_REC_SITE:
		if ((pid = whose(d, &d->sleeper, 1)) < 0)
			return 0;
		as_blocked(d, ev, ev->u.si.id, (uint32_t)pid);
		return 1;
	case TIPME_REC_USTACK_C:
		word = ev->u.rec.USTACK_C.id;
		if ((pid = whose(d, &d->usleeper, 1)) < 0)
			return 0;
		as_thread_rec(ev, TIPME_REC_USTACK);
		ev->u.rec.USTACK.pid = (uint32_t)pid;
		ev->u.rec.USTACK.id = word;
		return 1;
	case TIPME_REC_PROF_C:
	case TIPME_REC_PROF_U:
		if (ev->raw_type == TIPME_REC_PROF_C) {
			site = ev->u.rec.PROF_C.site;
			word = ev->u.rec.PROF_C.ustack;
		} else {
			word = ev->u.rec.PROF_U.ustack;
		}
		if ((pid = whose(d, &d->cur, 0)) < 0)
			return 0;
		as_thread_rec(ev, TIPME_REC_PROF);
		ev->u.rec.PROF.pid = (uint32_t)pid;
		ev->u.rec.PROF.site = site;
		ev->u.rec.PROF.ustack = word;
		return 1;
	default:
		return 1;
	}
}

/*
 * What normalise() does to the decoder's state for the record @h, without
 * making its event.  Return: 1 if pm_dec_next() gives it, 0 if it drops it.
 */
static inline __attribute__((always_inline)) int
skim_state(struct pm_dec *d, const struct rec_hdr *h)
{
	struct tipme_rec_switch sw;
	uint8_t prev_unknown;
	uint32_t site;

	if (!h->rt->our_size)
		return 1;
	if (is_switch(h->type)) {
		site = unpack_switch(d, h->rt, h->type, h->payload, h->plen, &sw,
				     &prev_unknown);
		follow_switch(d, h->type, &sw, prev_unknown);
		if (site)
			whose(d, &d->sleeper, 1);
		return 1;
	}
	switch (h->type) {
	case TIPME_REC_SITE:
		return whose(d, &d->sleeper, 1) >= 0;
	case TIPME_REC_USTACK_C:
		return whose(d, &d->usleeper, 1) >= 0;
	case TIPME_REC_PROF_C:
	case TIPME_REC_PROF_U:
		return whose(d, &d->cur, 0) >= 0;
	default:
		return 1;
	}
}

/*
 * Where the next record is: in the current sub-buffer, or the next one
 * with records left.  1: there is one, 0: the end of the stream, <0 an
 * error.
 */
static int in_subbuf(struct pm_dec *d, struct tm_err *e)
{
	int ret;

	while (!d->done) {
		if (!d->in_sb) {
			ret = next_subbuf(d, e);
			if (ret < 0)
				return ret;
			if (ret == 0)
				d->done = 1;
			continue;
		}
		if (d->sb_pos < d->sb_len)
			return 1;
		d->in_sb = 0;
	}
	return 0;
}

int pm_dec_next(struct pm_dec *d, struct pm_event *ev, struct tm_err *e)
{
	uint64_t before;
	int ret, had;

	if (d->have_held) {
		*ev = d->held;
		d->have_held = 0;
		return 1;
	}
	if (d->have_extra) {
		*ev = d->extra;
		d->have_extra = 0;
		return 1;
	}
	for (;;) {
		ret = in_subbuf(d, e);
		if (ret < 0)
			return ret;
		if (!ret) {
			if (d->pending_lost) {
				/* gap at the end of the stream */
				d->st.lost_at_end = 1;
				make_lost(d, ev, d->prev_ts, d->have_prev,
					  d->prev_ts);
				return 1;
			}
			return 0;
		}
		before = d->prev_ts;
		had = d->have_prev;
		ret = decode_record(d, ev, e);
		if (ret < 0)
			return ret;
		if (ret == 0 || !normalise(d, ev))
			continue;
		/* a gap before it is reported now, its time is the previous */
		d->known |= PM_DEC_KNOWN_PREV;
		if (d->pending_lost) {
			/* report the gap first, then this record */
			d->held = *ev;
			d->have_held = 1;
			make_lost(d, ev, d->held.ts, had, before);
		}
		return 1;
	}
}

/* A record pm_dec_skim() gives with a @rec_size, counted in @t. */
static inline void tally(struct pm_dec_tally *t, unsigned int type, uint64_t ts)
{
	t->count[type]++;
	t->n++;
	if (!t->have_ts) {
		t->first_ts = ts;
		t->have_ts = 1;
	}
	t->last_ts = ts;
}

/*
 * pm_dec_skim()'s table: per type, a fixed-length record's size without
 * an extended timestamp (0: not present, or of variable length), and
 * whether skim_state() must see it.
 */
static void skim_table(struct pm_dec *d)
{
	unsigned int k;

	for (k = 0; k < PM_NR_TYPES; k++) {
		const struct pm_rectype *rt = &d->pm->rt[k];

		d->skim_size[k] = 0;
		if (rt->present && k != TIPME_REC_PAD && !(rt->flags & TIPME_RECTYPE_VARLEN))
			d->skim_size[k] = (TIPME_HDR_SIZE + rt->payload_size + 3) & ~3U;
		d->skim_state[k] = rt->our_size &&
				   (is_switch(k) || k == TIPME_REC_SITE ||
				    k == TIPME_REC_USTACK_C || k == TIPME_REC_PROF_C ||
				    k == TIPME_REC_PROF_U);
	}
	d->skim_ready = 1;
}

/*
 * pm_dec_skim()'s loop over the current sub-buffer, its position and
 * previous timestamp in locals: read_record() and skim_state() for each
 * record that passes read_record()'s checks on the face of it (not the
 * sub-buffer's first, of a fixed length that fits, not padding, its
 * timestamp not before the previous) and @want does not name.  It stops
 * at the first other one, for read_record() to read (or fail on).
 */
static void skim_fast(struct pm_dec *d, const uint8_t *want,
		      struct pm_dec_tally *t)
{
	const unsigned char *sb = d->sb;
	uint32_t pos = d->sb_pos, len = d->sb_len, size;
	uint64_t ts, prev = d->prev_ts;
	struct rec_hdr h = { 0 };
	unsigned int type;
	int took = 0;

	if (d->sb_first)	/* its extended timestamp: read_record() checks */
		return;
	while (len - pos >= TIPME_HDR_SIZE) {
		uint32_t hdr = get32(sb + pos);
		int ext = tipme_hdr_ext(hdr);

		type = tipme_hdr_type(hdr);
		size = d->skim_size[type];
		if (!size || want[type])
			break;
		if (ext) {
			size += TIPME_HDR_EXT_SIZE;
			if (size > len - pos)
				break;
			memcpy(&ts, sb + pos + TIPME_HDR_SIZE, sizeof(ts));
			if (ts < prev)
				break;
			d->st.ext_records++;
		} else {
			if (size > len - pos)
				break;
			ts = tipme_ts_extend(prev, tipme_hdr_ts(hdr));
		}
		d->st.records++;
		d->st.count[type]++;
		d->st.bytes[type] += size;
		prev = ts;
		if (d->skim_state[type]) {
			h.rt = &d->pm->rt[type];
			h.type = type;
			h.plen = h.rt->payload_size;
			h.payload = sb + pos + TIPME_HDR_SIZE + (ext ? TIPME_HDR_EXT_SIZE : 0);
			if (!skim_state(d, &h)) {
				pos += size;
				continue;
			}
		}
		pos += size;
		took = 1;
		tally(t, type, ts);
	}
	if (pos == d->sb_pos)
		return;
	d->st.last_ts = prev;
	d->prev_ts = prev;
	d->sb_pos = pos;
	if (took) {
		d->known |= PM_DEC_KNOWN_PREV;
		d->pending_lost = 0;
	}
}

int pm_dec_skim(struct pm_dec *d, const uint8_t *want, struct pm_event *ev,
		struct pm_dec_tally *t, struct tm_err *e)
{
	struct rec_hdr h = { 0 };
	int ret;

	if (!d->skim_ready)
		skim_table(d);
	for (;;) {
		ret = in_subbuf(d, e);
		if (ret < 0)
			return ret;
		if (!ret) {
			if (d->pending_lost)	/* gap at the end of the stream */
				d->st.lost_at_end = 1;
			d->pending_lost = 0;
			return 0;
		}
		skim_fast(d, want, t);
		if (d->sb_pos >= d->sb_len)
			continue;
		ret = read_record(d, &h, e);
		if (ret < 0)
			return ret;
		if (ret == 0)
			continue;
		if (want[h.type]) {
			fill_event(d, &h, ev);
			if (!normalise(d, ev))
				continue;
			d->have_extra = 0;	/* a short switch's blocked: not given */
		} else if (!skim_state(d, &h)) {
			continue;
		}
		/* as pm_dec_next() gives it, a gap before it reported */
		d->known |= PM_DEC_KNOWN_PREV;
		d->pending_lost = 0;
		if (want[h.type])
			return 1;
		tally(t, h.type, h.ts);
	}
}

void pm_dec_snap(const struct pm_dec *d, struct pm_dec_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->sec_i = d->sec_i;
	s->sec_pos = d->sec_pos;
	s->have_seq = d->have_seq;
	s->last_seq = d->st.last_seq;
	s->have_prev = d->have_prev;
	s->prev_ts = d->prev_ts;
	s->cur = d->cur;
	s->cur_prio = d->cur_prio;
	s->sleeper = d->sleeper;
	s->usleeper = d->usleeper;
	s->pending_lost_first = d->pending_lost_first;
	s->pending_lost = d->pending_lost;
}

void pm_dec_seek(struct pm_dec *d, const struct pm_dec_snap *s)
{
	const struct tm_dump_sec *sec;

	d->sec = NULL;
	d->sec_i = s->sec_i < d->pc->nr_secs ? s->sec_i : d->pc->nr_secs;
	if (d->sec_i) {
		sec = &d->pm->d.secs[d->pc->secs[d->sec_i - 1]];
		d->sec_idx = sec->index;
		d->sec_check = 1;
		d->sec = sec->data;
		d->sec_size = sec->h.size;
		d->sec_pos = s->sec_pos < d->sec_size ? s->sec_pos : d->sec_size;
		d->sec_file_off = sec->hdr_off + sizeof(struct tipme_section);
	}
	d->in_sb = 0;
	d->have_seq = s->have_seq;
	d->st.last_seq = s->last_seq;
	d->st.first_seq = s->last_seq;
	d->have_prev = s->have_prev;
	d->prev_ts = s->prev_ts;
	d->cur = s->cur;
	d->cur_prio = s->cur_prio;
	d->sleeper = s->sleeper;
	d->usleeper = s->usleeper;
	d->pending_lost_first = s->pending_lost_first;
	d->pending_lost = s->pending_lost;
	d->have_held = 0;
	d->have_extra = 0;
	d->done = 0;
}

int pm_dec_all(const struct pm_dump *pm, const struct pm_cpu *pc,
	       struct pm_dec_stats *st, struct tm_err *e)
{
	struct pm_dec d;
	struct pm_event ev;
	int ret;

	pm_dec_init(&d, pm, pc);
	while ((ret = pm_dec_next(&d, &ev, e)) > 0)
		;
	*st = d.st;
	return ret;
}

/* ------------------------------------------------------------------ */
/* k-way merge                                                        */
/* ------------------------------------------------------------------ */

static int ev_less(const struct pm_event *a, const struct pm_event *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	return a->cpu < b->cpu;
}

static void sift_down(struct pm_merge *m, uint32_t i)
{
	uint32_t c, t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= m->heap_n)
			return;
		if (c + 1 < m->heap_n &&
		    ev_less(&m->cur[m->heap[c + 1]], &m->cur[m->heap[c]]))
			c++;
		if (!ev_less(&m->cur[m->heap[c]], &m->cur[m->heap[i]]))
			return;
		t = m->heap[c];
		m->heap[c] = m->heap[i];
		m->heap[i] = t;
		i = c;
	}
}

int pm_merge_init(struct pm_merge *m, const struct pm_dump *pm,
		  const unsigned char *cpu_mask, struct tm_err *e)
{
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->pm = pm;
	m->from_ns = INT64_MIN;
	m->to_ns = INT64_MAX;
	if (!pm->nr_cpus)
		return 0;
	m->decs = calloc(pm->nr_cpus, sizeof(*m->decs));
	m->cur = calloc(pm->nr_cpus, sizeof(*m->cur));
	m->heap = calloc(pm->nr_cpus, sizeof(*m->heap));
	if (!m->decs || !m->cur || !m->heap) {
		pm_merge_free(m);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	for (i = 0; i < pm->nr_cpus; i++) {
		if (cpu_mask && !cpu_mask[i])
			continue;
		pm_dec_init(&m->decs[m->n++], pm, &pm->cpus[i]);
	}
	return 0;
}

static int merge_next(struct pm_merge *m, struct pm_event *ev, struct tm_err *e);

int pm_merge_next(struct pm_merge *m, struct pm_event *ev, struct tm_err *e)
{
	int ret;

	while ((ret = merge_next(m, ev, e)) > 0 && ev->ns < m->from_ns)
		;
	if (ret > 0 && ev->ns > m->to_ns) {
		m->heap_n = 0;	/* the rest is later still */
		return 0;
	}
	return ret;
}

static int merge_next(struct pm_merge *m, struct pm_event *ev, struct tm_err *e)
{
	uint32_t i, top;
	int ret;

	if (!m->primed) {
		m->primed = 1;
		for (i = 0; i < m->n; i++) {
			ret = pm_dec_next(&m->decs[i], &m->cur[i], &m->errmsg);
			if (ret < 0) {
				m->err = ret;
				break;
			}
			if (ret > 0)
				m->heap[m->heap_n++] = i;
		}
		for (i = m->heap_n / 2; i-- > 0;)
			sift_down(m, i);
	}
	if (m->err) {
		if (e)
			*e = m->errmsg;
		return m->err;
	}
	if (!m->heap_n)
		return 0;
	top = m->heap[0];
	*ev = m->cur[top];
	/* the one conversion of a record's time: everything above is in ns */
	ev->ns = pm_clock_mono(&m->pm->clock, ev->ts);
	ev->lost_since_ns = ev->lost_since ?
			    pm_clock_mono(&m->pm->clock, ev->lost_since) : 0;
	ret = pm_dec_next(&m->decs[top], &m->cur[top], &m->errmsg);
	if (ret < 0) {
		/* return this event; the error comes with the next call */
		m->err = ret;
		return 1;
	}
	if (ret == 0)
		m->heap[0] = m->heap[--m->heap_n];
	sift_down(m, 0);
	return 1;
}

void pm_merge_free(struct pm_merge *m)
{
	free(m->decs);
	free(m->cur);
	free(m->heap);
	memset(m, 0, sizeof(*m));
}

const unsigned char *pm_ev_fixed(const struct pm_event *ev, void *fixed,
				 size_t size, size_t *rest)
{
	size_t n = ev->payload_len < size ? ev->payload_len : size;

	memset(fixed, 0, size);
	memcpy(fixed, ev->payload, n);
	*rest = ev->payload_len > size ? ev->payload_len - size : 0;
	return ev->payload + n;
}
