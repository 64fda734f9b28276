// SPDX-License-Identifier: GPL-2.0
/*
 * Stream decoding and merging against synthetic dumps with known content;
 * malformed streams; truncation at every offset; random corruption with
 * and without checksums (run under ASan/UBSan: nothing may crash).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "dump/decode.h"
#include "gen.h"
#include "scen.h"
#include "tap.h"
#include "typing.h"

static char dir[64];
static FILE *devnull;

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* Compare the merged events of @pm with @out; describe the first mismatch. */
static int merged_equal(struct pm_dump *pm, const struct gen_out *out,
			char *why, size_t wlen)
{
	struct tm_err e = { "" };
	struct pm_merge m;
	struct pm_event ev;
	size_t i = 0;
	int ret;

	snprintf(why, wlen, "ok");
	if (pm_merge_init(&m, pm, NULL, &e)) {
		snprintf(why, wlen, "merge init: %s", e.msg);
		return 0;
	}
	while ((ret = pm_merge_next(&m, &ev, &e)) > 0) {
		const struct gen_ev *g = &out->ev[i];

		if (i >= out->n) {
			snprintf(why, wlen, "more events than written");
			goto fail;
		}
		if (ev.kind != g->kind || ev.cpu != g->cpu || ev.ts != g->ts) {
			snprintf(why, wlen, "event %zu: got kind %d cpu %u ts %llu, want kind %d cpu %u ts %llu",
				 i, ev.kind, ev.cpu, (unsigned long long)ev.ts, g->kind,
				 g->cpu, (unsigned long long)g->ts);
			goto fail;
		}
		if (g->kind == PM_EV_LOST) {
			if (ev.lost_first != g->lost_first || ev.lost_count != g->lost_count) {
				snprintf(why, wlen, "event %zu: lost range differs", i);
				goto fail;
			}
		} else if (ev.type != g->type || ev.payload_len != g->len ||
			   ev.ext != g->ext || memcmp(ev.payload, g->payload, g->len)) {
			snprintf(why, wlen, "event %zu: record differs (type %u/%u len %u/%u ext %d/%d)",
				 i, ev.type, g->type, ev.payload_len, g->len, ev.ext, g->ext);
			goto fail;
		} else if (ev.rt->our_size) {
			unsigned char norm[sizeof(ev.u)];

			memset(norm, 0, sizeof(norm));
			memcpy(norm, g->payload, g->len < ev.rt->our_size ? g->len : ev.rt->our_size);
			if (memcmp(&ev.u, norm, ev.rt->our_size)) {
				snprintf(why, wlen, "event %zu: normalised payload differs", i);
				goto fail;
			}
		}
		i++;
	}
	if (ret < 0) {
		snprintf(why, wlen, "error after %zu events: %s", i, e.msg);
		goto fail;
	}
	if (i != out->n) {
		snprintf(why, wlen, "got %zu events, wrote %zu", i, out->n);
		goto fail;
	}
	pm_merge_free(&m);
	return 1;
fail:
	pm_merge_free(&m);
	return 0;
}

/*
 * pm_dec_skim() on one CPU of @pm against pm_dec_next(): the records of
 * the types @want names given as the full decoder gives them, the others
 * counted as it gives them (by type, first and last timestamp), and at
 * the end the same statistics, or the same error.
 */
static int skim_cpu_same(const struct pm_dump *pm, const struct pm_cpu *pc,
			 const uint8_t *want)
{
	struct tm_err e1 = { "" }, e2 = { "" };
	struct pm_dec_tally full, t;
	struct pm_dec a, b;
	struct pm_event x, y;
	int ra, rb;

	memset(&full, 0, sizeof(full));
	memset(&t, 0, sizeof(t));
	pm_dec_init(&a, pm, pc);
	pm_dec_init(&b, pm, pc);
	for (;;) {
		while ((ra = pm_dec_next(&a, &x, &e1)) > 0) {
			if (x.kind != PM_EV_RECORD || !x.rec_size)
				continue;
			if (want[x.raw_type])
				break;
			full.count[x.raw_type]++;
			full.n++;
			if (!full.have_ts)
				full.first_ts = x.ts;
			full.have_ts = 1;
			full.last_ts = x.ts;
		}
		rb = pm_dec_skim(&b, want, &y, &t, &e2);
		if (ra != rb || memcmp(&full, &t, sizeof(t)))
			return 0;
		if (ra <= 0)
			break;
		if (x.kind != y.kind || x.ts != y.ts || x.type != y.type ||
		    x.raw_type != y.raw_type || x.rec_size != y.rec_size ||
		    x.file_off != y.file_off || x.payload != y.payload ||
		    x.payload_len != y.payload_len || x.waker_unknown != y.waker_unknown ||
		    x.prev_unknown != y.prev_unknown || memcmp(&x.u, &y.u, sizeof(x.u)))
			return 0;
		memset(&full, 0, sizeof(full));
		memset(&t, 0, sizeof(t));
	}
	if (ra < 0)
		return !strcmp(e1.msg, e2.msg);
	return !memcmp(&a.st, &b.st, sizeof(a.st));
}

/*
 * Every CPU of @pm skimmed (pm_dec_skim()) as the full decoder reads it,
 * wanting no record, the ones `tipme info` wants, and the compact ones
 * whose thread a switch tells.  (The whole dump's cost, which skims, is
 * test_instr's, and fuzz_kdump's against pm_cost_add() of every event.)
 */
static int skim_same(const struct pm_dump *pm)
{
	static const uint8_t none[PM_NR_TYPES];
	static const uint8_t info[PM_NR_TYPES] = {
		[TIPME_REC_SAMPLE_END] = 1, [TIPME_REC_COST] = 1,
	};
	static const uint8_t compact[PM_NR_TYPES] = {
		[TIPME_REC_SWITCH_SITE_S] = 1, [TIPME_REC_SITE] = 1,
		[TIPME_REC_WAKING_C] = 1, [TIPME_REC_PROF_C] = 1,
	};
	uint32_t i;

	for (i = 0; i < pm->nr_cpus; i++)
		if (!skim_cpu_same(pm, &pm->cpus[i], none) ||
		    !skim_cpu_same(pm, &pm->cpus[i], info) ||
		    !skim_cpu_same(pm, &pm->cpus[i], compact))
			return 0;
	return 1;
}

/*
 * A desktop typed at (tests/unit/typing.c) in compact records with short
 * headers, in @path; a gap in one CPU's stream.
 */
static int write_compact(const char *path)
{
	struct scen *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -1;
	scen_init(s, 2);
	s->compact = 1;
	s->short_ts = 1;
	/* cpu 1's stream begins with a gap of two sub-buffers */
	scen_subbuf(s, 1, s->sb[1][0].seq + 3);
	err = typing_write(s, 60, NULL);
	if (!err)
		err = scen_write(s, path);
	free(s);
	return err;
}

static void test_random_dump(void)
{
	struct tm_err e = { "" };
	struct pm_dec_stats st;
	struct gen_spec s;
	struct gen_out out;
	struct pm_dump pm;
	char path[128], why[256];
	size_t i, near = 0, near_noext = 0, same = 0, ext = 0, lost = 0;
	uint64_t subbufs = 0;
	uint32_t c;
	int err, ok;

	gen_default(&s);
	gen_random(&s, 1, 3, 400);
	path_in(path, sizeof(path), "random.tipme");
	err = gen_write(path, &s, &out, &e);
	tap_ok(!err, "generate 3 CPUs x 400 records%s%s", err ? ": " : "", e.msg);
	err = pm_open(&pm, path, 0, &e);
	tap_ok(!err && pm.nr_cpus == 3 && pm.cpus[0].nr_secs == 2 && pm.nr_pairs == 4 &&
	       pm.nr_stats == 3 && pm.rt[GEN_TYPE_FUTURE].present && !pm.rt[GEN_TYPE_FUTURE].our_size,
	       "pm_open: 3 CPUs (cpu 0 split over 2 sections), pairs, stats, future types%s%s",
	       err ? ": " : "", e.msg);

	ok = 1;
	for (c = 0; c < pm.nr_cpus && !err; c++) {
		err = pm_dec_all(&pm, &pm.cpus[c], &st, &e);
		ok &= st.records == 400;
		ok &= c != 1 || (st.missing_subbufs == 3 && st.gaps == 1);
		ext += st.ext_records;
		subbufs += st.subbufs;
	}
	tap_ok(!err && ok && ext == out.ext_records && subbufs == out.subbufs,
	       "per-CPU decode: 400 records each, %zu extended timestamps, %llu sub-buffers, cpu 1 misses 3%s%s",
	       ext, (unsigned long long)subbufs, err ? ": " : "", e.msg);

	tap_ok(merged_equal(&pm, &out, why, sizeof(why)),
	       "merged events equal what was written: order across CPUs, exact timestamps, payloads (%s)",
	       why);

	/* make sure the interesting cases were really generated */
	for (i = 0; i < out.n; i++) {
		const struct gen_ev *g = &out.ev[i];
		size_t j;

		if (g->kind == PM_EV_LOST) {
			lost++;
			continue;
		}
		if (i && out.ev[i - 1].ts == g->ts && out.ev[i - 1].cpu != g->cpu)
			same++;
		for (j = i; j-- > 0;) {		/* previous record of the same CPU */
			if (out.ev[j].cpu == g->cpu && out.ev[j].kind == PM_EV_RECORD) {
				uint64_t d = g->ts - out.ev[j].ts;

				if (d >= (1ULL << 24) - 2 && d <= (1ULL << 24) + 100) {
					near++;
					if (!g->ext)
						near_noext++;
				}
				break;
			}
		}
	}
	tap_ok(near >= 10 && near_noext >= 1 && same >= 10 && lost == 1 && out.pad_records > 10,
	       "coverage: %zu deltas within [2^24-2, 2^24+100] (%zu without extended ts), "
	       "%zu cross-CPU ties, %zu loss marker, %zu padding records",
	       near, near_noext, same, lost, out.pad_records);

	err = pm_info_print(devnull, &pm, NULL, 0, &e) || pm_info_print(devnull, &pm, NULL, 1, &e) ||
	      pm_records_print(devnull, &pm, NULL, 0, &e) ||
	      pm_records_print(devnull, &pm, NULL, 1, &e);
	tap_ok(!err, "info and records (text and JSON) run over it%s%s", err ? ": " : "", e.msg);
	tap_ok(skim_same(&pm), "skimmed (pm_dec_skim()): the full decoder's counts and records");
	pm_close(&pm);
	gen_out_free(&out);
	gen_spec_free(&s);
}

/* A newer writer's larger switch and an older writer's smaller waking. */
static void test_compat_sizes(void)
{
	struct tm_err e = { "" };
	struct gen_spec s;
	struct gen_out out;
	struct pm_dump pm;
	char path[128], why[256];
	int err;

	gen_default(&s);
	s.types[0].payload_size = 16;	/* sched_switch grew by 4 bytes */
	s.types[1].payload_size = 4;	/* sched_waking without its waker word */
	gen_random(&s, 7, 2, 300);
	path_in(path, sizeof(path), "compat.tipme");
	err = gen_write(path, &s, &out, &e);
	if (!err)
		err = pm_open(&pm, path, 0, &e);
	tap_ok(!err && merged_equal(&pm, &out, why, sizeof(why)),
	       "table sizes differ from ours: common prefix taken, rest zero, records skipped by the table's size (%s%s)",
	       why, e.msg);
	pm_close(&pm);
	gen_out_free(&out);
	gen_spec_free(&s);
}

/* ------------------------------------------------------------------ */
/* Hand-made streams                                                   */
/* ------------------------------------------------------------------ */

struct sbuild {
	unsigned char b[4096];
	size_t len;
	size_t sb_hdr;
};

static void sb_start(struct sbuild *s, uint64_t seq)
{
	struct tipme_subbuf h = { .seq = seq };

	s->sb_hdr = s->len;
	memcpy(s->b + s->len, &h, sizeof(h));
	s->len += sizeof(h);
}

static void sb_raw(struct sbuild *s, const void *p, size_t n)
{
	memcpy(s->b + s->len, p, n);
	s->len += n;
}

static void sb_rec(struct sbuild *s, unsigned int type, int ext, uint64_t ts,
		   const void *payload, size_t plen)
{
	uint32_t hdr = tipme_hdr_make(type, ext, ts);
	static const unsigned char zeros[4];

	sb_raw(s, &hdr, 4);
	if (ext)
		sb_raw(s, &ts, 8);
	sb_raw(s, payload, plen);
	sb_raw(s, zeros, (4 - plen % 4) % 4);
}

static void sb_end(struct sbuild *s)
{
	uint32_t len = (uint32_t)(s->len - s->sb_hdr - sizeof(struct tipme_subbuf));

	memcpy(s->b + s->sb_hdr + 8, &len, 4);
}

/*
 * Write a dump with the standard table plus @extra (may be NULL) and one
 * stream for @cpu, open it and print its records into @text.  Returns the
 * error of pm_open/pm_records_print, with its message in @e.
 */
static int try_stream(const struct sbuild *sb, uint32_t cpu,
		      const struct tipme_rectype *extra, int no_table,
		      char *text, size_t tlen, struct tm_err *e)
{
	struct gen_spec s;
	struct pm_dump pm;
	struct tm_dumpw w;
	char path[128];
	FILE *f;
	int err;

	gen_default(&s);
	if (extra)
		s.types[s.nr_types++] = *extra;
	path_in(path, sizeof(path), "hand.tipme");
	err = tm_dumpw_open(&w, path, &s.hdr, 0, e);
	if (!err && !no_table)
		err = tm_dumpw_section(&w, TIPME_SEC_RECTYPES, 0, s.types,
				    s.nr_types * sizeof(s.types[0]), e);
	if (!err)
		err = tm_dumpw_section(&w, TIPME_SEC_CPU_STREAM, cpu, sb->b, sb->len, e);
	if (!err)
		err = tm_dumpw_commit(&w, e);
	tm_dumpw_abort(&w);
	if (err)
		return err;
	memset(text, 0, tlen);
	err = pm_open(&pm, path, 0, e);
	if (!err) {
		f = fmemopen(text, tlen - 1, "w");
		err = pm_records_print(f, &pm, NULL, 0, e);
		fclose(f);
	}
	pm_close(&pm);
	printf("# -> %d %s\n", err, e->msg);
	return err;
}

static const struct tipme_rec_switch sw1 = { 100, 200, 120, 110, TIPME_TS_SLEEPING, 0 };

static void test_handmade(void)
{
	struct tipme_rectype var = { .type = 20, .flags = TIPME_RECTYPE_VARLEN,
				     .payload_size = 6, .name = "var_thing" };
	struct tm_err e = { "" };
	struct sbuild sb;
	char text[4096];
	unsigned char vp[12];
	uint32_t junk = 0xdeadbeef, pad = 0;
	uint16_t vl;
	int err;

	/* good: two sub-buffers, PAD with garbage after it, an empty one, a PAD-only one */
	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 5);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 0, 1000 + (1 << 24) - 1, &sw1, sizeof(sw1));
	sb_raw(&sb, &pad, 4);
	sb_raw(&sb, &junk, 4);
	sb_end(&sb);
	sb_start(&sb, 6);
	sb_end(&sb);
	sb_start(&sb, 7);
	sb_raw(&sb, &pad, 4);
	sb_raw(&sb, &pad, 4);
	sb_end(&sb);
	sb_start(&sb, 8);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000 + (1 << 24) - 1, &sw1, sizeof(sw1));
	sb_end(&sb);
	err = try_stream(&sb, 1, NULL, 0, text, sizeof(text), &e);
	tap_ok(!err && !strcmp(text,
		"     0.000000500 [001] sched_switch prev=100 (S, prio 120) -> next=200 (prio 110)\n"
		"     0.008389107 [001] sched_switch prev=100 (S, prio 120) -> next=200 (prio 110)\n"
		"     0.008389107 [001] sched_switch prev=100 (S, prio 120) -> next=200 (prio 110)\n"),
	       "padding ends a sub-buffer (garbage after it ignored); empty and padding-only sub-buffers; equal ts across sub-buffers");
	tap_diag("%s", text);

	/* variable-length records, including one with odd length */
	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	memset(vp, 0xab, sizeof(vp));
	vl = 7;
	memcpy(vp, &vl, 2);
	sb_rec(&sb, 20, 1, 50, vp, 7);
	vl = 12;
	memcpy(vp, &vl, 2);
	sb_rec(&sb, 20, 0, 60, vp, 12);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 0, 70, &sw1, sizeof(sw1));
	sb_end(&sb);
	err = try_stream(&sb, 0, &var, 0, text, sizeof(text), &e);
	tap_ok(!err && strstr(text, "var_thing (type 20, 7 bytes) 0700abababab") &&
	       strstr(text, "var_thing (type 20, 12 bytes) 0c00abababababababababab") &&
	       strstr(text, "sched_switch prev=100"),
	       "variable-length records are sized by their length field");
	tap_diag("%s", text);

	vl = 4;
	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	memcpy(vp, &vl, 2);
	sb_rec(&sb, 20, 1, 50, vp, 8);
	sb_end(&sb);
	err = try_stream(&sb, 0, &var, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "below the minimum 6"), "varlen length below the table's minimum");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 0, 1000, &sw1, sizeof(sw1));
	sb_end(&sb);
	err = try_stream(&sb, 0, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "first record (sched_switch) has no extended timestamp") &&
	       strstr(e.msg, "cpu 0, sub-buffer seq 1"),
	       "first record of a sub-buffer without extended timestamp");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_rec(&sb, 42, 0, 1001, &sw1, sizeof(sw1));
	sb_end(&sb);
	err = try_stream(&sb, 0, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "type 42 is not in the record-type table") &&
	       strstr(text, "sched_switch"),
	       "a type absent from the table is an error (earlier records printed)");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 999, &sw1, sizeof(sw1));
	sb_end(&sb);
	err = try_stream(&sb, 0, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "before the previous one"), "timestamp going backwards");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_end(&sb);
	sb_start(&sb, 2);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 500, &sw1, sizeof(sw1));
	sb_end(&sb);
	err = try_stream(&sb, 0, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "before the previous one"),
	       "timestamp going backwards across sub-buffers");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 3);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_end(&sb);
	sb_start(&sb, 3);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 2000, &sw1, sizeof(sw1));
	sb_end(&sb);
	err = try_stream(&sb, 0, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "does not increase"), "sub-buffer seq not increasing");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_end(&sb);
	sb.len -= 4;		/* cut the record: sub-buffer says 20 bytes, 16 follow */
	err = try_stream(&sb, 0, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "extends past the end of the section"),
	       "sub-buffer longer than its section");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_end(&sb);
	sb.b[8] = 16;		/* sub-buffer len 16: the record (24 bytes) overruns it */
	sb.len = 16 + 16;
	err = try_stream(&sb, 0, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "extend past the end"), "record longer than its sub-buffer");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_end(&sb);
	sb.b[8] = 22;
	err = try_stream(&sb, 0, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "not a multiple of 4"), "sub-buffer length not a multiple of 4");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_end(&sb);
	sb_raw(&sb, &junk, 4);	/* 4 stray bytes after the last sub-buffer */
	err = try_stream(&sb, 0, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "too short for a sub-buffer header"),
	       "a partial sub-buffer header at the end of a section");

	memset(&sb, 0, sizeof(sb));
	sb_start(&sb, 1);
	sb_rec(&sb, TIPME_REC_SCHED_SWITCH, 1, 1000, &sw1, sizeof(sw1));
	sb_end(&sb);
	err = try_stream(&sb, 9, NULL, 0, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "not below nr_cpus"), "a stream for a CPU >= nr_cpus");
	err = try_stream(&sb, 0, NULL, 1, text, sizeof(text), &e);
	tap_ok(err == -EINVAL && strstr(e.msg, "no record-type table"), "streams without a record-type table");
	{
		struct tipme_rectype bad = { .type = 21, .payload_size = 6, .name = "odd" };

		err = try_stream(&sb, 0, &bad, 0, text, sizeof(text), &e);
		tap_ok(err == -EINVAL && strstr(e.msg, "not a multiple of 4"),
		       "a fixed-size type whose size is not a multiple of 4");
		bad.payload_size = 8;
		bad.flags = 0x80;
		err = try_stream(&sb, 0, &bad, 0, text, sizeof(text), &e);
		tap_ok(err == -EINVAL && strstr(e.msg, "unknown flags"), "unknown rectype flags");
		bad.flags = 0;
		memset(bad.name, 'x', sizeof(bad.name));
		err = try_stream(&sb, 0, &bad, 0, text, sizeof(text), &e);
		tap_ok(err == -EINVAL && strstr(e.msg, "invalid name"), "a name without NUL");
		bad = (struct tipme_rectype){ .type = TIPME_REC_SCHED_SWITCH, .payload_size = 12,
					      .name = "again" };
		err = try_stream(&sb, 0, &bad, 0, text, sizeof(text), &e);
		tap_ok(err == -EINVAL && strstr(e.msg, "listed twice"), "a type listed twice");
	}
}

/* ------------------------------------------------------------------ */
/* Truncation and corruption                                           */
/* ------------------------------------------------------------------ */

/* Open a private copy of @buf (exactly @size bytes, so ASan sees overruns) and use it all. */
static int exercise(const unsigned char *buf, size_t size, unsigned int flags,
		    int *stage, FILE *json)
{
	unsigned char *copy = malloc(size ? size : 1);
	struct tm_err e = { "" };
	struct pm_dump pm;
	int err;

	memcpy(copy, buf, size);
	*stage = 0;
	err = pm_open_mem(&pm, copy, size, flags, &e);
	if (!err) {
		*stage = 1;
		err = pm_info_print(json ? json : devnull, &pm, NULL, 1, &e);
	}
	if (!err)
		err = pm_records_print(devnull, &pm, NULL, 0, &e);
	if (!err)
		err = pm_records_print(json ? json : devnull, &pm, NULL, 1, &e);
	if (err && !e.msg[0])
		err = 1000;	/* an error must always say why */
	pm_close(&pm);
	free(copy);
	return err;
}

/* Header and section-header bytes no checksum covers. */
static int unprotected(const struct tm_dump *d, size_t off)
{
	uint32_t i;

#define IN(f) (off >= offsetof(struct tipme_file_header, f) && \
	       off < offsetof(struct tipme_file_header, f) + sizeof(((struct tipme_file_header *)0)->f))
	if (IN(flags) || IN(tsc_khz) || IN(clock_source) || IN(nr_cpus) || IN(created_real_ns))
		return 1;
#undef IN
	for (i = 0; i < d->nr_secs; i++)
		if (off >= d->secs[i].hdr_off && off < d->secs[i].hdr_off + 8)
			return 1;	/* section type and cpu */
	return 0;
}

static void test_corruption(void)
{
	struct tm_err e = { "" };
	struct gen_spec s;
	struct tm_dump d;
	unsigned char *good, *m;
	size_t size = 0, off, bad_off = 0;
	uint64_t rng = 12345;
	char path[128];
	int err, stage, all, n_rej = 0, n_acc = 0, n_acc_prot = 0, i, j;
	int codes_ok = 1;
	char json_path[128], cmd[512];
	FILE *json;

	gen_default(&s);
	s.subbuf_size = 128;
	gen_random(&s, 99, 2, 40);
	path_in(path, sizeof(path), "small.tipme");
	err = gen_write(path, &s, NULL, &e);
	gen_spec_free(&s);
	good = err ? NULL : gen_read_file(path, &size);
	if (!good) {
		tap_ok(0, "small dump for corruption tests");
		return;
	}
	tm_dump_parse(&d, good, size, 0, &e);
	tap_ok(exercise(good, size, 0, &stage, NULL) == 0,
	       "the small dump (%zu bytes) is accepted and fully decoded", size);

	all = 1;
	for (off = 0; off < size; off++) {
		err = exercise(good, off, 0, &stage, NULL);
		if (err >= 0 || err == 1000) {
			all = 0;
			bad_off = off;
		}
	}
	tap_ok(all, "truncated at every one of %zu offsets: always rejected with a message%s",
	       size, all ? "" : " (FAILED somewhere)");
	if (!all)
		tap_diag("first failing offset %zu", bad_off);

	m = malloc(size);
	for (i = 0; i < 5000; i++) {
		memcpy(m, good, size);
		off = gen_rand(&rng) % size;
		m[off] ^= (unsigned char)(1 + gen_rand(&rng) % 255);
		err = exercise(m, size, 0, &stage, NULL);
		if (err == 1000)
			codes_ok = 0;
		if (err < 0) {
			n_rej++;
		} else {
			n_acc++;
			if (!unprotected(&d, off)) {
				n_acc_prot++;
				bad_off = off;
			}
		}
	}
	tap_ok(codes_ok && n_acc_prot == 0,
	       "5000 single-byte flips: %d rejected, %d accepted, all accepted ones in fields no checksum covers",
	       n_rej, n_acc);
	if (n_acc_prot)
		tap_diag("%d flips in covered bytes accepted, e.g. offset %zu", n_acc_prot, bad_off);

	/* no checksums: the decoders themselves face the garbage */
	snprintf(json_path, sizeof(json_path), "%s/fuzz.json", dir);
	json = fopen(json_path, "w");
	n_rej = n_acc = 0;
	codes_ok = 1;
	for (i = 0; i < 20000; i++) {
		int flips = 1 + (int)(gen_rand(&rng) % 8);

		memcpy(m, good, size);
		for (j = 0; j < flips; j++) {
			off = gen_rand(&rng) % size;
			/* favour the streams: most of the file, but bias to headers too */
			if (gen_rand(&rng) % 4 == 0)
				m[off] = (unsigned char)gen_rand(&rng);
			else
				m[off] ^= (unsigned char)(1U << (gen_rand(&rng) % 8));
		}
		err = exercise(m, gen_rand(&rng) % 16 ? size : gen_rand(&rng) % size,
			       TM_DUMP_NO_CRC, &stage, n_acc < 300 ? json : NULL);
		if (err == 1000)
			codes_ok = 0;
		if (err < 0)
			n_rej++;
		else
			n_acc++;
	}
	fclose(json);
	tap_ok(codes_ok, "20000 corruptions with checksums off: no crash, every rejection explained (%d rejected, %d decoded)",
	       n_rej, n_acc);
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json,sys\n"
		 "d=open(sys.argv[1],encoding=\"utf-8\",errors=\"strict\").read()\n"
		 "dec=json.JSONDecoder();i=0;n=0\n"
		 "while True:\n"
		 "  while i<len(d) and d[i].isspace(): i+=1\n"
		 "  if i>=len(d): break\n"
		 "  o,i=dec.raw_decode(d,i);n+=1\n"
		 "assert n>300\n' %s", json_path);
	err = system(cmd);
	tap_ok(err == 0, "the JSON of 300 decoded corrupt dumps (info and records) is valid UTF-8 JSON");
	free(m);
	tm_dump_free(&d);
	free(good);
}

/* Times a corrupt dump's streams hold the cases the skim must follow. */
static void skim_coverage(const struct pm_dump *pm, int *unattr, int *gaps)
{
	struct tm_err e = { "" };
	struct pm_dec_stats st;
	uint32_t i;

	for (i = 0; i < pm->nr_cpus; i++) {
		pm_dec_all(pm, &pm->cpus[i], &st, &e);
		*unattr += st.unattributed > 0;
		*gaps += st.gaps > 0;
	}
}

/*
 * The skim (what `tipme info` and `tipme cost` over the whole dump read)
 * on compact records with short headers, and on 3000 corruptions of them
 * with the checksums off: the full decoder's counts, records and errors.
 */
static void test_skim(void)
{
	unsigned char *good, *m;
	struct tm_err e = { "" };
	uint64_t rng = 777;
	struct pm_dump pm;
	int i, j, same = 1, opened = 0, unattr = 0, gaps = 0;
	size_t size = 0, off;
	char path[128];

	path_in(path, sizeof(path), "compact.tipme");
	good = write_compact(path) ? NULL : gen_read_file(path, &size);
	if (!good || pm_open(&pm, path, 0, &e)) {
		tap_ok(0, "compact dump for the skim%s%s", e.msg[0] ? ": " : "", e.msg);
		if (good)
			pm_close(&pm);
		free(good);
		return;
	}
	tap_ok(skim_same(&pm) && pm.rt[TIPME_REC_SWITCH_SITE_S].present,
	       "skimmed: compact records with short headers give the full decoder's counts and records");
	pm_close(&pm);
	m = malloc(size);
	for (i = 0; i < 3000 && m; i++) {
		int flips = 1 + (int)(gen_rand(&rng) % 6);

		memcpy(m, good, size);
		for (j = 0; j < flips; j++) {
			off = gen_rand(&rng) % size;
			m[off] ^= (unsigned char)(1U << (gen_rand(&rng) % 8));
		}
		if (pm_open_mem(&pm, m, size, TM_DUMP_NO_CRC, &e)) {
			pm_close(&pm);	/* what it had read of it */
			continue;
		}
		opened++;
		if (!skim_same(&pm)) {
			if (same)
				tap_diag("corruption %d: skimmed otherwise", i);
			same = 0;
		}
		skim_coverage(&pm, &unattr, &gaps);
		pm_close(&pm);
	}
	tap_ok(same && opened > 1000 && unattr > 10 && gaps > 1000,
	       "3000 corruptions of it, checksums off: %d opened, all skimmed as decoded "
	       "(%d with unattributed compact records, %d with sequence gaps)",
	       opened, unattr, gaps);
	free(m);
	free(good);
}

int main(void)
{
	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	devnull = fopen("/dev/null", "w");
	tap_plan(33);
	test_random_dump();
	test_compat_sizes();
	test_handmade();
	test_corruption();
	test_skim();
	fclose(devnull);
	gen_rmtree(dir);
	return tap_done();
}
