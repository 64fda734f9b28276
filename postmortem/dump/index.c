// SPDX-License-Identifier: GPL-2.0
/*
 * The sub-buffers of a dump by time (index.h): one pass of each CPU's
 * decoder, which stops at every sub-buffer's header to leave its state.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"

struct bld {
	struct pm_index *ix;
	size_t cap;
	int oom;
	const struct pm_dump *pm;
};

/* A sub-buffer begins: its entry, with the decoder's state. */
static void on_subbuf(void *arg, const struct pm_dec *d)
{
	struct bld *b = arg;
	struct pm_index *ix = b->ix;
	struct pm_sbx *sb, *prev;

	if (b->oom)
		return;
	if (ix->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 256;

		sb = realloc(ix->sb, cap * sizeof(*sb));
		if (!sb) {
			b->oom = 1;
			return;
		}
		ix->sb = sb;
		b->cap = cap;
	}
	sb = &ix->sb[ix->n++];
	memset(sb, 0, sizeof(*sb));
	pm_dec_snap(d, &sb->snap);
	memcpy(&sb->seq, d->sec + d->sec_pos, sizeof(sb->seq));
	prev = ix->n - 1 > ix->cpu_first[ix->nr_cpus] ? sb - 1 : NULL;
	sb->first_ns = sb->last_ns = prev ? prev->last_ns : INT64_MIN;
}

int pm_index_build(struct pm_index *ix, const struct pm_dump *pm,
		   struct tm_err *e)
{
	struct bld b = { ix, 0, 0, pm };
	struct pm_event ev;
	struct pm_dec d;
	struct pm_sbx *sb;
	uint32_t c;
	int ret;

	memset(ix, 0, sizeof(*ix));
	ix->cpu_first = calloc(pm->nr_cpus + 1, sizeof(*ix->cpu_first));
	if (!ix->cpu_first)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (c = 0; c < pm->nr_cpus; c++) {
		/* while CPU c is read, nr_cpus is c: its first is cpu_first[c] */
		ix->nr_cpus = c;
		ix->cpu_first[c] = ix->n;
		pm_dec_init(&d, pm, &pm->cpus[c]);
		d.on_subbuf = on_subbuf;
		d.on_subbuf_arg = &b;
		while ((ret = pm_dec_next(&d, &ev, e)) > 0) {
			int64_t ns = pm_clock_mono(&pm->clock, ev.ts);

			if (b.oom || ix->n == ix->cpu_first[c])
				break;
			sb = &ix->sb[ix->n - 1];
			if (!sb->events)
				sb->first_ns = ns;
			sb->last_ns = ns;
			sb->events++;
		}
		if (b.oom)
			return tm_err_set(e, ENOMEM, "out of memory");
		if (ret < 0)
			return ret;
	}
	ix->nr_cpus = pm->nr_cpus;
	ix->cpu_first[pm->nr_cpus] = ix->n;
	return 0;
}

/* Room for one more entry in @ix. */
static struct pm_sbx *scan_add(struct pm_index *ix, size_t *cap)
{
	struct pm_sbx *sb;

	if (ix->n == *cap) {
		size_t n = *cap ? 2 * *cap : 256;

		sb = realloc(ix->sb, n * sizeof(*sb));
		if (!sb)
			return NULL;
		ix->sb = sb;
		*cap = n;
	}
	sb = &ix->sb[ix->n++];
	memset(sb, 0, sizeof(*sb));
	return sb;
}

/*
 * The sub-buffers of one stream section (the @i-th of its CPU), from
 * their headers: each entry's place, seq, and its first record's time (a
 * sub-buffer without records: the previous one's, *@prev).
 */
static int scan_sec(struct pm_index *ix, size_t *cap, const struct pm_dump *pm,
		    const struct pm_cpu *pc, uint32_t i, int64_t *prev,
		    uint64_t *since, struct tm_err *e)
{
	const struct tm_dump_sec *s = &pm->d.secs[pc->secs[i]];
	struct tipme_subbuf h;
	struct pm_sbx *sb;
	uint64_t pos, ts;
	uint32_t hdr;

	for (pos = 0; pos < s->h.size; pos += sizeof(h) + h.len) {
		if (s->h.size - pos < sizeof(h))
			return tm_err_set(e, EINVAL, "cpu %u: %" PRIu64 " bytes at file offset %" PRIu64
					  " are too short for a sub-buffer header", pc->cpu,
					  (uint64_t)(s->h.size - pos),
					  (uint64_t)(s->hdr_off + sizeof(struct tipme_section) + pos));
		memcpy(&h, s->data + pos, sizeof(h));
		if (h.len > s->h.size - pos - sizeof(h))
			return tm_err_set(e, EINVAL, "cpu %u, sub-buffer seq %" PRIu64
					  ": length %u extends past the end of the section",
					  pc->cpu, (uint64_t)h.seq, h.len);
		/* a header per sub-buffer maps the pages around it */
		pm_dump_read(pm, since, sizeof(h) + h.len);
		sb = scan_add(ix, cap);
		if (!sb)
			return tm_err_set(e, ENOMEM, "out of memory");
		sb->snap.sec_i = i + 1;
		sb->snap.sec_pos = pos;
		sb->seq = h.seq;
		sb->first_ns = *prev;
		if (h.len >= TIPME_HDR_SIZE + TIPME_HDR_EXT_SIZE) {
			memcpy(&hdr, s->data + pos + sizeof(h), sizeof(hdr));
			if (tipme_hdr_type(hdr) != TIPME_REC_PAD && tipme_hdr_ext(hdr)) {
				memcpy(&ts, s->data + pos + sizeof(h) + TIPME_HDR_SIZE,
				       sizeof(ts));
				sb->first_ns = *prev = pm_clock_mono(&pm->clock, ts);
				sb->events = 1;
			}
		}
	}
	return 0;
}

/*
 * The sub-buffers of one CPU's sections; then each @last_ns bounded by
 * the next first record's time (timestamps never go back within a CPU's
 * stream).  The headers are read before the sections' checksums are
 * checked (pm_sec_check(): the decoder, when it enters one): a section
 * whose headers do not hold together and whose checksum is wrong is left
 * out of the index, for the decoder to fail on if a command reads it.
 */
static int scan_cpu(struct pm_index *ix, size_t *cap, const struct pm_dump *pm,
		    const struct pm_cpu *pc, struct tm_err *e)
{
	size_t first = ix->n, k, sec_first;
	int64_t prev = INT64_MIN, next = INT64_MAX, sec_prev;
	uint64_t since = 0;
	uint32_t i;
	int err;

	for (i = 0; i < pc->nr_secs; i++) {
		sec_first = ix->n;
		sec_prev = prev;
		err = scan_sec(ix, cap, pm, pc, i, &prev, &since, e);
		if (!err || err == -ENOMEM)
			continue;
		if (!pm_sec_check(pm, pc->secs[i], e))
			return err;
		ix->n = sec_first;
		prev = sec_prev;
	}
	for (k = ix->n; k-- > first;) {
		ix->sb[k].last_ns = next;
		if (ix->sb[k].events)
			next = ix->sb[k].first_ns;
	}
	return 0;
}

int pm_index_scan(struct pm_index *ix, const struct pm_dump *pm,
		  struct tm_err *e)
{
	size_t cap = 0;
	uint32_t c;
	int err;

	memset(ix, 0, sizeof(*ix));
	ix->lazy = 1;
	ix->cpu_first = calloc(pm->nr_cpus + 1, sizeof(*ix->cpu_first));
	if (!ix->cpu_first)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (c = 0; c < pm->nr_cpus; c++) {
		ix->cpu_first[c] = ix->n;
		err = scan_cpu(ix, &cap, pm, &pm->cpus[c], e);
		if (err)
			return err;
	}
	ix->nr_cpus = pm->nr_cpus;
	ix->cpu_first[pm->nr_cpus] = ix->n;
	return 0;
}

void pm_index_free(struct pm_index *ix)
{
	free(ix->sb);
	free(ix->cpu_first);
	memset(ix, 0, sizeof(*ix));
}

size_t pm_index_find(const struct pm_index *ix, uint32_t cpu_i, int64_t ns)
{
	size_t lo = ix->cpu_first[cpu_i], hi = ix->cpu_first[cpu_i + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->sb[mid].last_ns < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct cold {
	const struct pm_sbx *at;	/* the sub-buffer to learn the state of */
	struct pm_dec_snap snap;
	uint8_t known;
	int reached;
};

static void cold_subbuf(void *arg, const struct pm_dec *d)
{
	struct cold *c = arg;

	if (c->reached || d->sec_i != c->at->snap.sec_i ||
	    d->sec_pos != c->at->snap.sec_pos)
		return;
	pm_dec_snap(d, &c->snap);
	c->known = d->known;
	c->reached = 1;
}

/*
 * The decoder's state where sub-buffer @k of a lazy index begins: decoded
 * from 1, 2, 4, ... sub-buffers before it until the state there is known
 * (or from the CPU's first, whose state is the start's).
 */
static int cold_start(struct pm_dec *dec, const struct pm_dump *pm,
		      const struct pm_cpu *pc, const struct pm_index *ix,
		      size_t first, size_t k, struct tm_err *e)
{
	struct cold c = { &ix->sb[k], { 0 }, 0, 0 };
	struct pm_dec_snap s;
	struct pm_event ev;
	size_t back = 1, j;
	int ret;

	for (;;) {
		j = k - first > back ? k - back : first;
		memset(&s, 0, sizeof(s));
		s.sec_i = ix->sb[j].snap.sec_i;
		s.sec_pos = ix->sb[j].snap.sec_pos;
		s.cur = s.sleeper = s.usleeper = -1;
		pm_dec_init(dec, pm, pc);
		pm_dec_seek(dec, &s);
		dec->known = 0;
		dec->on_subbuf = cold_subbuf;
		dec->on_subbuf_arg = &c;
		c.reached = 0;
		while (!c.reached && (ret = pm_dec_next(dec, &ev, e)) > 0)
			;
		dec->on_subbuf = NULL;
		if (!c.reached)
			return ret < 0 ? ret : tm_err_set(e, EINVAL, "cpu %u: the index is not this dump's",
							  pc->cpu);
		if (j == first || c.known == PM_DEC_KNOWN_ALL)
			break;
		back *= 2;
	}
	pm_dec_init(dec, pm, pc);	/* no callback left pointing at @c */
	pm_dec_seek(dec, &c.snap);
	return 0;
}

int pm_merge_range(struct pm_merge *m, const struct pm_dump *pm,
		   const struct pm_index *ix, const unsigned char *cpu_mask,
		   int64_t from_ns, int64_t to_ns, struct tm_err *e)
{
	uint32_t c, k = 0;
	size_t at;
	int err;

	err = pm_merge_init(m, pm, cpu_mask, e);
	if (err)
		return err;
	m->from_ns = from_ns;
	m->to_ns = to_ns;
	if (ix->nr_cpus != pm->nr_cpus)
		return tm_err_set(e, EINVAL, "the index is not this dump's");
	for (c = 0; c < pm->nr_cpus; c++) {
		if (cpu_mask && !cpu_mask[c])
			continue;
		at = pm_index_find(ix, c, from_ns);
		if (ix->lazy && at == ix->cpu_first[c]) {
			/* from the stream's start, as pm_merge_init() left it */
		} else if (ix->lazy && at < ix->cpu_first[c + 1]) {
			err = cold_start(&m->decs[k], pm, &pm->cpus[c], ix,
					 ix->cpu_first[c], at, e);
			if (err) {
				pm_merge_free(m);
				return err;
			}
		} else if (at < ix->cpu_first[c + 1]) {
			pm_dec_seek(&m->decs[k], &ix->sb[at].snap);
		} else if (ix->cpu_first[c + 1] > ix->cpu_first[c]) {
			/* nothing of this CPU in the range: start at its end */
			m->decs[k].done = 1;
		}
		k++;
	}
	return 0;
}
