// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic dump generator for the unit tests (see gen.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dumpfile.h"
#include "gen.h"

void gen_add_type(struct gen_spec *s, uint8_t type, uint8_t flags,
		  uint16_t payload_size, const char *name)
{
	struct tipme_rectype *t = &s->types[s->nr_types++];

	memset(t, 0, sizeof(*t));
	t->type = type;
	t->flags = flags;
	t->payload_size = payload_size;
	snprintf(t->name, sizeof(t->name), "%s", name);
}

#define KNOWN(nr, id, st, n, len, family) \
	case nr: \
		gen_add_type(s, nr, TIPME_RECTYPE_##len, sizeof(st), n); \
		return 0;

int gen_add_known(struct gen_spec *s, uint8_t type)
{
	switch (type) {
	TIPME_REC_TYPES(KNOWN)
	TIPME_REC_TEST_TYPES(KNOWN)
	default:
		return -1;
	}
}

void gen_default(struct gen_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->hdr.flags = TIPME_FILE_ENV_CAPTURED;
	s->hdr.tsc_khz = 2000000;		/* 2 GHz: 1 tick = 0.5 ns */
	s->hdr.clock_source = TIPME_CLOCK_TSC;
	s->hdr.nr_cpus = 4;
	s->hdr.created_real_ns = 1714566896123456789ULL;	/* 2024-05-01 12:34:56.123456789 UTC */
	gen_add_known(s, TIPME_REC_SCHED_SWITCH);
	gen_add_known(s, TIPME_REC_SCHED_WAKING);
	gen_add_known(s, TIPME_REC_TRIGGER);
	gen_add_known(s, TIPME_REC_INPUT);
	s->subbuf_size = 256;
	s->system = "kernel=6.1.0-test\nhostname=testbox\n";
	s->params = "subbuf_size=256\nsubbufs=8\n";
	s->seed = 1;
}

static const struct tipme_rectype *find_type(const struct gen_spec *s,
					     uint8_t type)
{
	size_t i;

	for (i = 0; i < s->nr_types; i++)
		if (s->types[i].type == type)
			return &s->types[i];
	return NULL;
}

static uint64_t pick_delta(uint64_t *rng)
{
	static const uint64_t big[] = {
		(1ULL << 24) - 2, (1ULL << 24) - 1, 1ULL << 24, (1ULL << 24) + 1,
		(1ULL << 24) + 100, (1ULL << 25) + 3, (1ULL << 32) + 7,
	};
	uint64_t r = gen_rand(rng) % 100;

	if (r < 10)
		return 0;			/* same timestamp */
	if (r < 55)
		return 100 * (1 + gen_rand(rng) % 10);	/* collide across CPUs */
	if (r < 80)
		return gen_rand(rng) % 100000;
	if (r < 90)
		return gen_rand(rng) % (1ULL << 24);
	return big[gen_rand(rng) % (sizeof(big) / sizeof(big[0]))];
}

static void fill_payload(const struct gen_spec *s, struct gen_in *r,
			 uint64_t *rng)
{
	const struct tipme_rectype *t = find_type(s, r->type);
	uint32_t i;

	for (i = 0; i < GEN_MAX_PAYLOAD; i++)
		r->payload[i] = (unsigned char)gen_rand(rng);
	if (r->type == TIPME_REC_SCHED_SWITCH) {
		struct tipme_rec_switch sw = {
			.prev_pid = (uint32_t)(gen_rand(rng) % 5000),
			.next_pid = (uint32_t)(gen_rand(rng) % 5000),
			.prev_prio = (uint8_t)(gen_rand(rng) % 140),
			.next_prio = (uint8_t)(gen_rand(rng) % 140),
			.prev_state = (uint8_t)(gen_rand(rng) % 11),
			.flags = (uint8_t)(gen_rand(rng) % 2),
		};
		memcpy(r->payload, &sw, sizeof(sw));
	} else if (r->type == TIPME_REC_SCHED_WAKING) {
		struct tipme_rec_waking wk;

		tipme_waking_pack(&wk, (uint32_t)(gen_rand(rng) % TIPME_PID_MASK),
				  (uint32_t)(gen_rand(rng) % 4),
				  (uint32_t)(gen_rand(rng) % 5000),
				  (uint32_t)(gen_rand(rng) % 4));
		memcpy(r->payload, &wk, sizeof(wk));
	}
	if (t->flags & TIPME_RECTYPE_VARLEN)
		r->len = t->payload_size + (uint32_t)(gen_rand(rng) % (GEN_MAX_PAYLOAD - t->payload_size + 1));
	else
		r->len = t->payload_size;
}

void gen_random(struct gen_spec *s, uint64_t seed, size_t nr_cpus,
		size_t per_cpu)
{
	static const uint8_t mix[] = {
		TIPME_REC_SCHED_SWITCH, TIPME_REC_SCHED_SWITCH, TIPME_REC_SCHED_SWITCH,
		TIPME_REC_SCHED_WAKING, TIPME_REC_SCHED_WAKING,
		TIPME_REC_TRIGGER, TIPME_REC_INPUT,
		GEN_TYPE_FUTURE, GEN_TYPE_FUTURE_VAR,
	};
	uint64_t rng = seed, base = 1000000000000ULL, ts, span;
	size_t c, i, k0;

	if (!find_type(s, GEN_TYPE_FUTURE))
		gen_add_type(s, GEN_TYPE_FUTURE, 0, 20, "future_event");
	if (!find_type(s, GEN_TYPE_FUTURE_VAR))
		gen_add_type(s, GEN_TYPE_FUTURE_VAR, TIPME_RECTYPE_VARLEN, 4,
			     "future_varlen");
	s->seed = seed;
	s->nr_cpus = nr_cpus;
	for (c = 0; c < nr_cpus; c++) {
		struct gen_cpu *gc = &s->cpus[c];

		gc->cpu = (uint32_t)c;
		gc->nr = per_cpu;
		gc->recs = calloc(per_cpu ? per_cpu : 1, sizeof(*gc->recs));
		gc->first_seq = 10 + c;
		gc->last_partial = 1;
		gc->split = c == 0;
		if (c == 1) {
			gc->gap_before = 2;
			gc->gap_len = 3;
		}
		ts = base;
		k0 = 0;
		for (i = 0; i < per_cpu; i++) {
			struct gen_in *r = &gc->recs[i];

			ts += i ? pick_delta(&rng) : 0;
			/* often land exactly on a timestamp of CPU 0: ties */
			if (c && gen_rand(&rng) % 4 == 0) {
				const struct gen_cpu *c0 = &s->cpus[0];

				while (k0 < c0->nr && c0->recs[k0].ts < ts)
					k0++;	/* ts only grows: a cursor will do */
				if (k0 < c0->nr)
					ts = c0->recs[k0].ts;
			}
			r->ts = ts;
			r->type = mix[gen_rand(&rng) % sizeof(mix)];
			r->force_ext = gen_rand(&rng) % 50 == 0;
			fill_payload(s, r, &rng);
		}
	}
	/* clock pairs over the range: mono = 7 s + ticks / 2, with a drift */
	span = 1ULL << 34;
	s->nr_pairs = 4;
	for (i = 0; i < s->nr_pairs; i++) {
		struct tipme_clock_pair *p = &s->pairs[i];

		memset(p, 0, sizeof(*p));
		p->ts = base + i * span;
		p->mono_ns = 7000000000ULL + (p->ts - base) / 2 + i * 1000;
		p->real_ns = 1714566890000000000ULL + p->mono_ns;
		p->err_ts = 40;
	}
	s->nr_stats = nr_cpus;
	for (c = 0; c < nr_cpus; c++) {
		struct tipme_cpu_stats *st = &s->stats[c];

		memset(st, 0, sizeof(*st));
		st->cpu = (uint32_t)c;
		st->flags = TIPME_CPU_ONLINE;
		st->written = per_cpu + (c == 1 ? 33 : 0);
		st->overwritten = c == 1 ? 33 : 0;
		st->dropped = c == 1 ? 2 : 0;
		st->bytes = per_cpu * 16;
		st->discarded_subbufs = 0;
	}
	s->unknown_section = 1;
}

/* ------------------------------------------------------------------ */

struct wstate {
	struct tm_dumpw *w;
	uint64_t rng;
	struct gen_ev *ev;
	size_t n, cap;
	struct gen_out *out;
};

static int add_ev(struct wstate *ws, const struct gen_ev *ev)
{
	if (ws->n == ws->cap) {
		size_t ncap = ws->cap ? ws->cap * 2 : 256;
		struct gen_ev *nev = realloc(ws->ev, ncap * sizeof(*nev));

		if (!nev)
			return -ENOMEM;
		ws->ev = nev;
		ws->cap = ncap;
	}
	ws->ev[ws->n] = *ev;
	ws->ev[ws->n].order = ws->n;
	ws->n++;
	return 0;
}

/* Append in random pieces: exercises the incremental CRC. */
static int append_chunked(struct wstate *ws, const void *data, size_t len,
			  struct tm_err *e)
{
	const unsigned char *p = data;
	size_t n;
	int err;

	while (len) {
		n = 1 + gen_rand(&ws->rng) % len;
		err = tm_dumpw_section_append(ws->w, p, n, e);
		if (err)
			return err;
		p += n;
		len -= n;
	}
	return 0;
}

static int emit_subbuf(struct wstate *ws, uint64_t seq, const unsigned char *data,
		       uint32_t len, uint32_t flags, struct tm_err *e)
{
	struct tipme_subbuf sb = { .seq = seq, .len = len, .flags = flags };
	int err;

	err = tm_dumpw_section_append(ws->w, &sb, sizeof(sb), e);
	if (!err)
		err = append_chunked(ws, data, len, e);
	ws->out->subbufs++;
	return err;
}

static int write_cpu(struct wstate *ws, const struct gen_spec *s,
		     const struct gen_cpu *gc, struct tm_err *e)
{
	uint32_t sbsize = s->subbuf_size, used = 0, size, plen;
	unsigned char *buf = calloc(1, sbsize);
	uint64_t seq = gc->first_seq, sbi = 0, prev_ts = 0;
	int in_sb = 0, first = 0, ext, err = 0;
	struct gen_ev ev;
	size_t i;

	if (!buf)
		return -ENOMEM;
	err = tm_dumpw_section_begin(ws->w, TIPME_SEC_CPU_STREAM, gc->cpu, e);
	for (i = 0; i < gc->nr && !err; i++) {
		const struct gen_in *r = &gc->recs[i];
		const struct tipme_rectype *t = find_type(s, r->type);
		unsigned char rec[4 + 8 + GEN_MAX_PAYLOAD + 4];
		uint32_t hdr;

		if (!in_sb) {
			if (sbi && sbi == gc->gap_before && gc->gap_len) {
				memset(&ev, 0, sizeof(ev));
				ev.kind = 2;
				ev.cpu = gc->cpu;
				ev.ts = r->ts;
				ev.lost_first = seq;
				ev.lost_count = gc->gap_len;
				err = add_ev(ws, &ev);
				seq += gc->gap_len;
			}
			memset(buf, 0, sbsize);
			used = 0;
			in_sb = 1;
			first = 1;
		}
		ext = first || r->force_ext || r->ts - prev_ts >= (1ULL << TIPME_HDR_TS_BITS);
		plen = r->len;
		size = (4 + (ext ? 8 : 0) + plen + 3) & ~3U;
		if (!t || plen > GEN_MAX_PAYLOAD || size > sbsize) {
			err = tm_err_set(e, EINVAL, "gen: record %zu does not fit", i);
			break;
		}
		if (used + size > sbsize) {
			/* close this sub-buffer: a padding record, or a short length */
			uint32_t len = used;

			if (used < sbsize && gen_rand(&ws->rng) % 3) {
				len = sbsize;	/* buf is zeroed: header word 0 = PAD */
				ws->out->pad_records++;
			}
			err = emit_subbuf(ws, seq++, buf, len, 0, e);
			sbi++;
			if (!err && gc->split && sbi == 1) {
				err = tm_dumpw_section_end(ws->w, e);
				if (!err)
					err = tm_dumpw_section_begin(ws->w, TIPME_SEC_CPU_STREAM,
								  gc->cpu, e);
			}
			in_sb = 0;
			i--;
			continue;
		}
		memset(rec, 0, sizeof(rec));
		hdr = tipme_hdr_make(r->type, ext, r->ts);
		memcpy(rec, &hdr, 4);
		if (ext)
			memcpy(rec + 4, &r->ts, 8);
		memcpy(rec + 4 + (ext ? 8 : 0), r->payload, plen);
		if (t->flags & TIPME_RECTYPE_VARLEN) {
			uint16_t v = (uint16_t)plen;

			memcpy(rec + 4 + (ext ? 8 : 0), &v, 2);
		}
		memcpy(buf + used, rec, size);
		used += size;

		memset(&ev, 0, sizeof(ev));
		ev.kind = 1;
		ev.cpu = gc->cpu;
		ev.ts = r->ts;
		ev.type = r->type;
		ev.ext = ext;
		ev.len = plen;
		memcpy(ev.payload, rec + 4 + (ext ? 8 : 0), plen);
		err = add_ev(ws, &ev);
		if (ext)
			ws->out->ext_records++;
		prev_ts = r->ts;
		first = 0;
	}
	if (!err && in_sb) {
		uint32_t len = used, flags = 0;

		if (gc->last_partial)
			flags = TIPME_SUBBUF_PARTIAL;
		else if (used < sbsize) {
			len = sbsize;
			ws->out->pad_records++;
		}
		err = emit_subbuf(ws, seq++, buf, len, flags, e);
	}
	if (!err)
		err = tm_dumpw_section_end(ws->w, e);
	free(buf);
	return err;
}

static int cmp_ev(const void *a, const void *b)
{
	const struct gen_ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

int gen_write(const char *path, const struct gen_spec *s, struct gen_out *out,
	      struct tm_err *e)
{
	static const char unknown[] = "a section from the future";
	struct gen_out dummy;
	struct wstate ws;
	struct tm_dumpw w;
	size_t i;
	int err;

	if (!out)
		out = &dummy;
	memset(out, 0, sizeof(*out));
	memset(&ws, 0, sizeof(ws));
	ws.w = &w;
	ws.rng = s->seed;
	ws.out = out;

	err = tm_dumpw_open(&w, path, &s->hdr, 0, e);
	if (!err && s->nr_types)
		err = tm_dumpw_section(&w, TIPME_SEC_RECTYPES, 0, s->types,
				    s->nr_types * sizeof(s->types[0]), e);
	if (!err && s->system)
		err = tm_dumpw_section(&w, TIPME_SEC_SYSTEM, 0, s->system,
				    strlen(s->system), e);
	if (!err && s->params)
		err = tm_dumpw_section(&w, TIPME_SEC_PARAMS, 0, s->params,
				    strlen(s->params), e);
	if (!err && s->unknown_section)
		err = tm_dumpw_section(&w, 1000, 0, unknown, sizeof(unknown) - 1, e);
	for (i = 0; i < s->nr_cpus && !err; i++)
		err = write_cpu(&ws, s, &s->cpus[i], e);
	if (!err && s->nr_stats)
		err = tm_dumpw_section(&w, TIPME_SEC_CPU_STATS, 0, s->stats,
				    s->nr_stats * sizeof(s->stats[0]), e);
	if (!err && s->nr_pairs)
		err = tm_dumpw_section(&w, TIPME_SEC_CLOCKS, 0, s->pairs,
				    s->nr_pairs * sizeof(s->pairs[0]), e);
	if (!err)
		err = tm_dumpw_commit(&w, e);
	if (err) {
		if (err == -ENOMEM)
			tm_err_set(e, ENOMEM, "out of memory");
		tm_dumpw_abort(&w);
		free(ws.ev);
		return err;
	}
	if (ws.n)
		qsort(ws.ev, ws.n, sizeof(*ws.ev), cmp_ev);
	if (out == &dummy)
		free(ws.ev);
	else {
		out->ev = ws.ev;
		out->n = ws.n;
	}
	return 0;
}

void gen_out_free(struct gen_out *out)
{
	free(out->ev);
	memset(out, 0, sizeof(*out));
}

void gen_spec_free(struct gen_spec *s)
{
	size_t i;

	for (i = 0; i < s->nr_cpus; i++) {
		free(s->cpus[i].recs);
		s->cpus[i].recs = NULL;
	}
}

int gen_flip_stream_byte(const char *from, const char *to, uint32_t cpu,
			 uint32_t k, unsigned char bit, uint64_t *off)
{
	struct tm_err e = { "" };
	unsigned char *b;
	struct tm_dump d;
	size_t n = 0;
	uint32_t i, seen = 0;
	uint64_t at;
	FILE *f;
	int ret = -1;

	b = gen_read_file(from, &n);
	if (!b || tm_dump_parse(&d, b, n, 0, &e)) {
		free(b);
		return -1;
	}
	for (i = 0; i < d.nr_secs; i++) {
		const struct tm_dump_sec *s = &d.secs[i];

		if (s->h.type != TIPME_SEC_CPU_STREAM || s->h.cpu != cpu || seen++ != k)
			continue;
		at = s->hdr_off + sizeof(struct tipme_section);
		if (off)
			*off = at;
		b[at + s->h.size / 2] ^= bit;
		f = fopen(to, "wb");
		if (f && fwrite(b, 1, n, f) == n)
			ret = 0;
		if (f && fclose(f))
			ret = -1;
		break;
	}
	tm_dump_free(&d);
	free(b);
	return ret;
}

unsigned char *gen_read_file(const char *path, size_t *size)
{
	unsigned char *buf = NULL;
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0) {
		buf = malloc(st.st_size ? (size_t)st.st_size : 1);
		if (buf) {
			n = read(fd, buf, (size_t)st.st_size);
			if (n != st.st_size) {
				free(buf);
				buf = NULL;
			}
			*size = (size_t)st.st_size;
		}
	}
	close(fd);
	return buf;
}

char *gen_tmpdir(char *buf)
{
	const char *t = getenv("TMPDIR");

	snprintf(buf, 64, "%s/tipme-test-XXXXXX", t && strlen(t) < 40 ? t : "/tmp");
	return mkdtemp(buf);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) && errno != ENOENT ? -1 : 0;
}

void gen_rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char **gen_real_dumps(size_t *n)
{
	const char *env = getenv("TIPME_REAL_DUMPS");
	char list[1024], cmd[1200], line[1024], **v = NULL, **w;
	size_t cap = 0;
	FILE *f;

	*n = 0;
	snprintf(list, sizeof(list), "%s", env && *env ? env : "tests/vm/out");
	for (char *p = list, *q; p && *p; p = q) {
		q = strchr(p, ':');
		if (q)
			*q++ = 0;
		snprintf(cmd, sizeof(cmd), "find '%s' -maxdepth 3 \\( -name '*.dump' -o "
			 "-name '*.incident' \\) -print 2>/dev/null | sort", p);
		f = popen(cmd, "r");
		while (f && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			if (*n == cap) {
				cap = cap ? 2 * cap : 16;
				w = realloc(v, cap * sizeof(*v));
				if (!w)
					break;
				v = w;
			}
			v[*n] = strdup(line);
			if (v[*n])
				(*n)++;
		}
		if (f)
			pclose(f);
	}
	return v;
}

void gen_real_dumps_free(char **paths, size_t n)
{
	while (n)
		free(paths[--n]);
	free(paths);
}
