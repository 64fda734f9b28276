// SPDX-License-Identifier: GPL-2.0
/*
 * The index of sub-buffers by time (dump/index.h), built by decoding
 * every record or from the sub-buffers' headers alone: the events of a
 * time range decoded from it are the events a scan of the whole dump
 * gives in that range, for random ranges over dumps with many sub-buffers, gaps,
 * streams split over sections, a partial last sub-buffer, and compact
 * records whose meaning depends on what came before (the CPU's current
 * task, the thread a switch put to sleep) across sub-buffer boundaries.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "dump/decode.h"
#include "dump/index.h"
#include "gen.h"
#include "scen.h"
#include "tap.h"

static char dir[64];

struct evs {
	struct pm_event *v;
	size_t n, cap;
};

static int push(struct evs *a, const struct pm_event *ev)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 1024;
		struct pm_event *v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = *ev;
	return 0;
}

/* Every field a reader sees. */
static int same_event(const struct pm_event *a, const struct pm_event *b)
{
	return a->kind == b->kind && a->cpu == b->cpu && a->ts == b->ts && a->ns == b->ns &&
	       a->type == b->type && a->raw_type == b->raw_type && a->ext == b->ext &&
	       a->waker_unknown == b->waker_unknown && a->prev_unknown == b->prev_unknown &&
	       a->rt == b->rt && a->rec_size == b->rec_size &&
	       a->payload_len == b->payload_len &&
	       (!a->payload_len || !memcmp(a->payload, b->payload, a->payload_len)) &&
	       !memcmp(&a->u, &b->u, sizeof(a->u)) && a->seq == b->seq &&
	       a->file_off == b->file_off && a->lost_first == b->lost_first &&
	       a->lost_count == b->lost_count && a->lost_since == b->lost_since &&
	       a->lost_since_ns == b->lost_since_ns;
}

/* Every event of a whole merge (of the CPUs in @mask). */
static int full_scan(const struct pm_dump *pm, const unsigned char *mask, struct evs *a)
{
	struct tm_err e = { "" };
	struct pm_merge m;
	struct pm_event ev;
	int ret;

	a->n = 0;
	if (pm_merge_init(&m, pm, mask, &e))
		return -1;
	while ((ret = pm_merge_next(&m, &ev, &e)) > 0)
		if (push(a, &ev))
			ret = -1;
	pm_merge_free(&m);
	return ret;
}

/*
 * The range [@from, @to] from the index equals the full scan's events in
 * it; *@subbufs: sub-buffers the range's decoders read.
 */
static int range_ok(const struct pm_dump *pm, const struct pm_index *ix,
		    const unsigned char *mask, const struct evs *all,
		    int64_t from, int64_t to, uint64_t *subbufs, char *why, size_t wlen)
{
	struct tm_err e = { "" };
	struct pm_merge m;
	struct pm_event ev;
	size_t i = 0, got = 0;
	uint32_t c;
	int ret, ok = 1;

	*subbufs = 0;
	if (pm_merge_range(&m, pm, ix, mask, from, to, &e)) {
		snprintf(why, wlen, "pm_merge_range: %s", e.msg);
		pm_merge_free(&m);
		return 0;
	}
	while (i < all->n && all->v[i].ns < from)
		i++;
	while ((ret = pm_merge_next(&m, &ev, &e)) > 0) {
		if (i >= all->n || all->v[i].ns > to) {
			snprintf(why, wlen, "event %zu of the range is not in the full scan", got);
			ok = 0;
			break;
		}
		if (!same_event(&ev, &all->v[i])) {
			snprintf(why, wlen, "event %zu of the range (cpu %u ts %llu type %u) differs from the full scan's (cpu %u ts %llu type %u)",
				 got, ev.cpu, (unsigned long long)ev.ts, ev.type, all->v[i].cpu,
				 (unsigned long long)all->v[i].ts, all->v[i].type);
			ok = 0;
			break;
		}
		i++;
		got++;
	}
	if (ok && ret < 0) {
		snprintf(why, wlen, "error: %s", e.msg);
		ok = 0;
	}
	if (ok && i < all->n && all->v[i].ns <= to) {
		snprintf(why, wlen, "the range ends after %zu events, before the full scan's", got);
		ok = 0;
	}
	for (c = 0; c < m.n; c++)
		*subbufs += m.decs[c].st.subbufs;
	pm_merge_free(&m);
	return ok;
}

/* @rounds random ranges (and the edges) over @pm; returns failures. */
static int random_ranges(const struct pm_dump *pm, const struct pm_index *ix,
			 const char *what, uint64_t seed, int rounds)
{
	unsigned char mask[GEN_MAX_CPUS];
	struct evs all = { NULL, 0, 0 };
	uint64_t rnd = seed, sb, narrow_sb = 0, total_sb = ix->n;
	char why[300] = "ok";
	int r, bad = 0, narrow = 0;
	uint32_t c;
	size_t k;

	if (full_scan(pm, NULL, &all) || !all.n) {
		tap_ok(0, "%s: full scan", what);
		free(all.v);
		return 1;
	}
	for (r = 0; r < rounds && !bad; r++) {
		int64_t a = all.v[gen_rand(&rnd) % all.n].ns, b = all.v[gen_rand(&rnd) % all.n].ns;
		int64_t t;

		if (a > b) {
			t = a;
			a = b;
			b = t;
		}
		switch (r % 6) {
		case 0:	/* a point */
			b = a;
			break;
		case 1:	/* between records */
			a += 1;
			b -= b > a ? 1 : 0;
			break;
		case 2:	/* from the start */
			a = INT64_MIN;
			break;
		case 3:	/* to the end */
			b = INT64_MAX;
			break;
		case 4:	/* before everything, or after */
			a = b = (gen_rand(&rnd) & 1) ? all.v[0].ns - 1 : all.v[all.n - 1].ns + 1;
			break;
		}
		if (!range_ok(pm, ix, NULL, &all, a, b, &sb, why, sizeof(why)))
			bad++;
		if (r % 6 == 0 && sb < total_sb) {
			narrow++;
			narrow_sb += sb;
		}
	}
	tap_ok(!bad, "%s: %d random ranges from the index give the full scan's events (%s)",
	       what, rounds, why);
	/* from where each sub-buffer begins: its decoder starts there */
	for (k = 0; k < ix->n && !bad; k++)
		if (ix->sb[k].events &&
		    !range_ok(pm, ix, NULL, &all, ix->sb[k].first_ns,
			      ix->sb[k].last_ns < INT64_MAX - 1000000 ?
			      ix->sb[k].last_ns + 1000000 : INT64_MAX,
			      &sb, why, sizeof(why)))
			bad++;
	tap_ok(!bad, "%s: from the start of each of %zu sub-buffers: the full scan's events (%s)",
	       what, ix->n, why);
	tap_ok(narrow > 0 && narrow_sb / (uint64_t)narrow < total_sb,
	       "%s: a point reads %llu of %llu sub-buffers on average", what,
	       (unsigned long long)(narrow ? narrow_sb / (uint64_t)narrow : 0),
	       (unsigned long long)total_sb);

	/* one CPU left out */
	for (c = 0; c < pm->nr_cpus && c < GEN_MAX_CPUS; c++)
		mask[c] = c != 1;
	bad = 0;
	if (full_scan(pm, mask, &all))
		bad = 1;
	for (r = 0; r < rounds / 4 && !bad && all.n; r++) {
		int64_t a = all.v[gen_rand(&rnd) % all.n].ns;

		if (!range_ok(pm, ix, mask, &all, a, a + 50000000, &sb, why, sizeof(why)))
			bad++;
	}
	tap_ok(!bad, "%s: CPU 1 left out: ranges equal the full scan's (%s)", what, why);
	free(all.v);
	return bad;
}

/* `tipme records` of [@from, @to], through the index or the whole dump. */
static char *records_text(struct pm_dump *pm, int64_t from, int64_t to,
			  int whole, int json, size_t *len)
{
	struct pm_filter flt;
	struct tm_err e = { "" };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int err;

	if (!f)
		return NULL;
	memset(&flt, 0, sizeof(flt));
	flt.range = 1;
	flt.from_ns = from;
	flt.to_ns = to;
	flt.whole = whole;
	err = pm_records_print(f, pm, &flt, json, &e);
	fclose(f);
	if (err) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * `tipme records --from --to` prints, text and JSON, byte for byte what
 * the whole dump's records print in that range, for random ranges.
 */
static void records_ranges(struct pm_dump *pm, const char *what, uint64_t seed)
{
	struct evs all = { NULL, 0, 0 };
	uint64_t rnd = seed;
	size_t la, lb, lines = 0;
	int r, bad = 0, json;

	if (full_scan(pm, NULL, &all) || !all.n) {
		tap_ok(0, "%s: full scan", what);
		free(all.v);
		return;
	}
	for (r = 0; r < 40 && !bad; r++) {
		int64_t a = all.v[gen_rand(&rnd) % all.n].ns;
		int64_t b = a + (int64_t)(gen_rand(&rnd) % 20000000);

		for (json = 0; json < 2 && !bad; json++) {
			char *x = records_text(pm, a, b, 0, json, &la);
			char *y = records_text(pm, a, b, 1, json, &lb);

			if (!x || !y || la != lb || memcmp(x, y, la))
				bad++;
			else
				lines += la ? 1 : 0;
			free(x);
			free(y);
		}
	}
	tap_ok(!bad && lines > 40, "%s: records --from --to, text and JSON, from the index "
	       "and from the whole dump: the same bytes (%d of 40 ranges differ)",
	       what, bad);
	free(all.v);
}

/* The same ranges through an index of the headers alone. */
static void lazy_ranges(const struct pm_dump *pm, const struct pm_index *full,
			const char *what, uint64_t seed)
{
	struct tm_err e = { "" };
	struct pm_index ix;
	char name[80];
	int err;

	err = pm_index_scan(&ix, pm, &e);
	tap_ok(!err && ix.lazy && ix.n == full->n && ix.nr_cpus == full->nr_cpus,
	       "index of the headers: %zu sub-buffers (%zu decoded)%s%s", ix.n, full->n,
	       err ? ": " : "", e.msg);
	snprintf(name, sizeof(name), "%s, headers only", what);
	if (!err)
		random_ranges(pm, &ix, name, seed, 300);
	pm_index_free(&ix);
}

static void test_gen(void)
{
	struct tm_err e = { "" };
	struct pm_index ix;
	struct gen_spec s;
	struct pm_dump pm;
	char path[128];
	int err;

	gen_default(&s);
	gen_random(&s, 7, 3, 3000);
	snprintf(path, sizeof(path), "%s/gen.tipme", dir);
	err = gen_write(path, &s, NULL, &e);
	gen_spec_free(&s);
	tap_ok(!err, "random dump: 3 CPUs, 256-byte sub-buffers, a gap, a split stream%s%s",
	       err ? ": " : "", e.msg);
	err = pm_open(&pm, path, 0, &e);
	if (!err)
		err = pm_index_build(&ix, &pm, &e);
	tap_ok(!err && ix.n > 100 && ix.nr_cpus == 3,
	       "index: %zu sub-buffers%s%s", ix.n, err ? ": " : "", e.msg);
	if (!err) {
		random_ranges(&pm, &ix, "random dump", 11, 300);
		lazy_ranges(&pm, &ix, "random dump", 11);
		records_ranges(&pm, "random dump", 11);
	}
	pm_index_free(&ix);
	pm_close(&pm);
}

/*
 * Compact records across sub-buffers: each CPU's switches (short ones:
 * who was on the CPU comes from the record before), sleeps whose site
 * record begins the next sub-buffer, gaps after which the current task
 * is unknown, one followed by an empty sub-buffer (the loss is reported
 * with the next record, in the next sub-buffer), and two sub-buffers of
 * cpu 0 with wakeups alone (their waker is the task a switch put on the
 * CPU in the sub-buffer before them: a range that begins in the second
 * must decode from before the first to know it).
 *
 * Each dump is read through both indexes: pm_index_build()'s, which keeps
 * the decoder's state per sub-buffer, and pm_index_scan()'s of the
 * headers alone, whose ranges learn that state by decoding the
 * sub-buffers before them.
 */
static void test_compact(void)
{
	static const char *const site[] = { "pipe_read", "vfs_read", NULL };
	struct tm_err e = { "" };
	struct pm_index ix;
	struct pm_dump pm;
	struct scen *s = calloc(1, sizeof(*s));
	char path[128];
	uint64_t t = 1000000, rnd = 5;
	uint32_t c, k, b, pid[SCEN_CPUS];
	int err;

	if (!s) {
		tap_ok(0, "out of memory");
		return;
	}
	scen_init(s, 3);
	s->compact = 1;
	s->short_ts = 1;
	for (c = 0; c < 3; c++)
		pid[c] = 0;
	for (b = 0; b < SCEN_SUBBUFS; b++) {
		for (c = 0; c < 3; c++) {
			/* cpu 0's next was opened by the sleep that ended the last */
			if (b && c) {
				/*
				 * cpu 2 loses two sub-buffers before its last;
				 * cpu 1 two before an empty one
				 */
				scen_subbuf(s, c, s->sb[c][b - 1].seq +
					    ((c == 2 && b == 3) || (c == 1 && b == 2) ? 3 : 1));
			}
			if (c == 1 && b == 2)
				continue;
			for (k = 0; k < 500; k++) {
				uint32_t next = 100 + (uint32_t)(gen_rand(&rnd) % 40);
				int sleep = gen_rand(&rnd) % 3 == 0;

				t += 1000 + gen_rand(&rnd) % 20000;
				if (c == 0 && (b == 1 || b == 2)) {
					/* no switch: only what came before says who wakes */
					scen_wake(s, c, t, 100 + (uint32_t)(gen_rand(&rnd) % 40),
						  0, pid[c], TIPME_CTX_TASK);
					continue;
				}
				scen_switch(s, c, t, pid[c], sleep ? TIPME_TS_SLEEPING : TIPME_TS_RUNNABLE,
					    120, next, 120);
				if (sleep && pid[c])
					scen_blocked(s, c, t, pid[c], site);
				if (gen_rand(&rnd) % 2)
					scen_wake(s, c, t + 10, 100 + (uint32_t)(gen_rand(&rnd) % 40),
						  (uint32_t)(gen_rand(&rnd) % 3), next, TIPME_CTX_TASK);
				pid[c] = next;
			}
		}
		/* cpu 0's wakeups alone go on in its next sub-buffer */
		if (b == 1 || b == 2) {
			scen_subbuf(s, 0, s->sb[0][b].seq + 1);
			continue;
		}
		/* a sleep at the end of cpu 0's sub-buffer, its site in the next */
		if (b + 1 < SCEN_SUBBUFS) {
			t += 5000;
			scen_switch(s, 0, t, pid[0], TIPME_TS_SLEEPING, 120, 7, 120);
			scen_subbuf(s, 0, s->sb[0][b].seq + 1);
			scen_blocked(s, 0, t + 1, pid[0], site);
			pid[0] = 7;
		}
	}
	snprintf(path, sizeof(path), "%s/compact.tipme", dir);
	err = scen_write(s, path);
	tap_ok(!err, "compact dump: 3 CPUs x %d sub-buffers, short headers, gaps on cpus 1 and 2",
	       SCEN_SUBBUFS);
	free(s);
	err = pm_open(&pm, path, 0, &e);
	if (!err)
		err = pm_index_build(&ix, &pm, &e);
	tap_ok(!err && ix.n >= 3 * SCEN_SUBBUFS - 1, "index: %zu sub-buffers%s%s", ix.n,
	       err ? ": " : "", e.msg);
	if (!err) {
		random_ranges(&pm, &ix, "compact dump", 3, 300);
		lazy_ranges(&pm, &ix, "compact dump", 3);
		records_ranges(&pm, "compact dump", 3);
	}
	pm_index_free(&ix);
	pm_close(&pm);
}

int main(void)
{
	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	tap_plan(24);
	test_gen();
	test_compact();
	gen_rmtree(dir);
	return tap_done();
}
