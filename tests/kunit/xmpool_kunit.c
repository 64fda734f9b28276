// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_xmpool: the pool of captured mappings (xmpool.c):
 * storing and replacing a process, files shared between mappings, exits
 * noted and dropped after their retention, eviction order, room running
 * out, and the entries a dump copies, also when a process is stored
 * again between two parts of a dump.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "instr/xmpool.h"

#define RET	1000	/* retention, ns */

/* The processes the test says are alive, by pid (pids below 64). */
static DECLARE_BITMAP(alive_pids, 64);
static unsigned int alive_calls;

static bool test_alive(u32 pid, u64 start_ns)
{
	alive_calls++;
	return pid < 64 && test_bit(pid, alive_pids);
}

static struct tipme_xmp *make(struct kunit *test, u32 nprocs, u32 nmaps,
			      u32 npaths)
{
	struct tipme_xmp *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_ASSERT_EQ(test, tipme_xmp_init(x, nprocs, nmaps, npaths, RET,
					     test_alive), 0);
	bitmap_zero(alive_pids, 64);
	alive_calls = 0;
	test->priv = x;
	return x;
}

static void xmp_test_exit(struct kunit *test)
{
	if (test->priv)
		tipme_xmp_free(test->priv);
}

/* Mapping @i of a walk: file "/f<file>", 0x1000 bytes at @i * 0x10000. */
static void found_set(struct tipme_xm_found *f, unsigned int i,
		      unsigned int file)
{
	memset(f, 0, sizeof(*f));
	f->start = 0x10000ULL * (i + 1);
	f->end = f->start + 0x1000;
	f->offset = 0x1000ULL * i;
	f->f.len = snprintf(f->f.s, sizeof(f->f.s), "/f%u", file);
	f->f.ino = file;
	f->f.dev = 8;
	f->f.hash = file * 2654435761U;
	f->f.bid_len = 2;
	f->f.bid[0] = file;
	f->f.bid[1] = 0xee;
}

/* Store process @pid (start time @pid * 100) with @n mappings of @nfiles. */
static void store(struct tipme_xmp *x, u32 pid, unsigned int n,
		  unsigned int nfiles, u64 now)
{
	struct tipme_xm_found *f = kcalloc(n, sizeof(*f), GFP_KERNEL);
	unsigned int i;

	if (!f)
		return;	/* the expectations on what is kept then fail */
	for (i = 0; i < n; i++)
		found_set(&f[i], i, pid * 10 + i % nfiles);
	tipme_xmp_store(x, pid, pid * 100ULL, f, n, false, now);
	kfree(f);
}

/* Mappings kept of @pid. */
static unsigned int maps_of(struct tipme_xmp *x, u32 pid)
{
	unsigned int i, n = 0;

	for (i = 0; i < x->nmaps; i++)
		n += x->maps[i].proc >= 0 &&
		     x->procs[x->maps[i].proc].pid == pid;
	return n;
}

static unsigned int paths_used(struct tipme_xmp *x)
{
	unsigned int i, n = 0;

	for (i = 0; i < x->npaths; i++)
		n += !!x->paths[i].refs;
	return n;
}

static const struct tipme_xm_proc *proc_of(struct tipme_xmp *x, u32 pid)
{
	unsigned int i;

	for (i = 0; i < x->nprocs; i++)
		if (x->procs[i].used && x->procs[i].pid == pid)
			return &x->procs[i];
	return NULL;
}

/* Two mappings of one file share its path slot; a dump copies all three. */
static void xmpool_store_read(struct kunit *test)
{
	struct tipme_xmp *x = make(test, 4, 16, 8);
	const struct tipme_xmap *e;
	size_t len, off;
	bool done = false;
	u32 pos = 0;
	void *buf;
	int n = 0;

	set_bit(1, alive_pids);
	store(x, 1, 3, 2, 10);
	KUNIT_EXPECT_EQ(test, x->nmaps_used, 3U);
	KUNIT_EXPECT_EQ(test, x->nprocs_used, 1U);
	KUNIT_EXPECT_EQ(test, paths_used(x), 2U);
	buf = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = tipme_xmp_read(x, &pos, x->stores, buf, 4096, &done);
	KUNIT_EXPECT_TRUE(test, done);
	for (off = 0; off < len; off += e->size, n++) {
		e = buf + off;
		KUNIT_EXPECT_EQ(test, e->pid, 1U);
		KUNIT_EXPECT_EQ(test, e->start_mono_ns, 100ULL);
		KUNIT_EXPECT_EQ(test, e->end - e->start, 0x1000ULL);
		KUNIT_EXPECT_EQ(test, e->path_len, 4U);
		KUNIT_EXPECT_EQ(test, e->flags & TIPME_XMAP_EXITED, 0U);
		KUNIT_EXPECT_EQ(test, (e->flags >> 8) & 0xff, 2U);
		KUNIT_EXPECT_EQ(test, memcmp((const char *)(e + 1), "/f1", 3), 0);
	}
	KUNIT_EXPECT_EQ(test, n, 3);
}

/* A second walk of the same process replaces the first; files are freed. */
static void xmpool_replace(struct kunit *test)
{
	struct tipme_xmp *x = make(test, 4, 16, 8);
	struct tipme_xm_found f;

	set_bit(1, alive_pids);
	store(x, 1, 4, 4, 10);
	KUNIT_EXPECT_EQ(test, paths_used(x), 4U);
	store(x, 1, 2, 1, 20);
	KUNIT_EXPECT_EQ(test, maps_of(x, 1), 2U);
	KUNIT_EXPECT_EQ(test, x->nmaps_used, 2U);
	KUNIT_EXPECT_EQ(test, x->nprocs_used, 1U);
	KUNIT_EXPECT_EQ(test, paths_used(x), 1U);
	/* the build-id of a kept file is known, of a dropped one not */
	found_set(&f, 0, 10);
	f.f.bid_len = 0;
	KUNIT_EXPECT_TRUE(test, tipme_xmp_bid(x, &f.f));
	KUNIT_EXPECT_EQ(test, (unsigned int)f.f.bid_len, 2U);
	found_set(&f, 0, 13);
	KUNIT_EXPECT_FALSE(test, tipme_xmp_bid(x, &f.f));
}

/*
 * An exit is noted once, at the first store or gc that finds the process
 * gone; only processes not yet noted are asked; the process is dropped
 * exactly when its retention has passed.
 */
static void xmpool_exit_retention(struct kunit *test)
{
	struct tipme_xmp *x = make(test, 8, 32, 16);

	set_bit(1, alive_pids);
	set_bit(2, alive_pids);
	store(x, 1, 2, 2, 10);
	store(x, 2, 2, 2, 20);
	clear_bit(1, alive_pids);
	alive_calls = 0;
	tipme_xmp_gc(x, 30);
	KUNIT_EXPECT_EQ(test, alive_calls, 2U);
	KUNIT_ASSERT_NOT_NULL(test, proc_of(x, 1));
	KUNIT_EXPECT_EQ(test, proc_of(x, 1)->exit_ns, 30ULL);
	KUNIT_EXPECT_EQ(test, proc_of(x, 2)->exit_ns, 0ULL);
	alive_calls = 0;
	tipme_xmp_gc(x, 40);
	KUNIT_EXPECT_EQ(test, alive_calls, 1U);	/* 2 only */
	KUNIT_EXPECT_EQ(test, proc_of(x, 1)->exit_ns, 30ULL);
	tipme_xmp_gc(x, 30 + RET - 1);
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 1));
	KUNIT_EXPECT_EQ(test, maps_of(x, 1), 2U);
	tipme_xmp_gc(x, 30 + RET);
	KUNIT_EXPECT_NULL(test, proc_of(x, 1));
	KUNIT_EXPECT_EQ(test, maps_of(x, 1), 0U);
	KUNIT_EXPECT_EQ(test, x->nprocs_used, 1U);
	KUNIT_EXPECT_EQ(test, x->evicted, 0ULL);
	/* its slot, mappings and files are free for others */
	set_bit(3, alive_pids);
	store(x, 3, 2, 2, 30 + RET + 1);
	KUNIT_EXPECT_EQ(test, x->nprocs_used, 2U);
	KUNIT_EXPECT_EQ(test, paths_used(x), 4U);
}

/*
 * With gc_every_ns, a store asks the live processes whether they are
 * still there only once that long has passed since exits were last
 * noted, or when it may have to evict: then an exited process not yet
 * noted still goes before a live one stored longer ago, as when every
 * store noted exits.
 */
static void xmpool_gc_every(struct kunit *test)
{
	struct tipme_xmp *x = make(test, 3, 32, 16);

	x->gc_every_ns = 100;
	set_bit(1, alive_pids);
	set_bit(2, alive_pids);
	set_bit(3, alive_pids);
	set_bit(4, alive_pids);
	store(x, 1, 1, 1, 200);		/* due: 200 since none */
	KUNIT_EXPECT_EQ(test, x->gc_ns, 200ULL);
	clear_bit(1, alive_pids);
	alive_calls = 0;
	store(x, 2, 1, 1, 210);
	store(x, 3, 1, 1, 280);
	KUNIT_EXPECT_EQ(test, alive_calls, 0U);
	KUNIT_ASSERT_NOT_NULL(test, proc_of(x, 1));
	KUNIT_EXPECT_EQ(test, proc_of(x, 1)->exit_ns, 0ULL);
	/* not due, but the pool is full: 4's store notes exits, 1 goes */
	store(x, 4, 1, 1, 290);
	KUNIT_EXPECT_EQ(test, alive_calls, 3U);
	KUNIT_EXPECT_EQ(test, x->gc_ns, 290ULL);
	KUNIT_EXPECT_NULL(test, proc_of(x, 1));
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 2));
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 3));
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 4));
	KUNIT_EXPECT_EQ(test, x->evicted, 1ULL);
	tipme_xmp_free(x);

	/* room enough: exits are noted once gc_every_ns has passed */
	x = make(test, 8, 32, 16);
	x->gc_every_ns = 100;
	set_bit(1, alive_pids);
	set_bit(2, alive_pids);
	set_bit(3, alive_pids);
	store(x, 1, 1, 1, 200);
	clear_bit(1, alive_pids);
	store(x, 2, 1, 1, 299);
	KUNIT_EXPECT_EQ(test, alive_calls, 0U);
	KUNIT_EXPECT_EQ(test, proc_of(x, 1)->exit_ns, 0ULL);
	store(x, 3, 1, 1, 300);
	KUNIT_EXPECT_EQ(test, alive_calls, 2U);	/* 1 and 2 */
	KUNIT_ASSERT_NOT_NULL(test, proc_of(x, 1));
	KUNIT_EXPECT_EQ(test, proc_of(x, 1)->exit_ns, 300ULL);
	KUNIT_EXPECT_EQ(test, proc_of(x, 2)->exit_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, x->evicted, 0ULL);
}

/*
 * Room for two processes: a third evicts the one noted exited longest
 * ago, else (all alive) the one stored longest ago; a process stored
 * again counts as stored then.
 */
static void xmpool_evict_order(struct kunit *test)
{
	struct tipme_xmp *x = make(test, 2, 32, 16);

	set_bit(1, alive_pids);
	set_bit(2, alive_pids);
	set_bit(3, alive_pids);
	set_bit(4, alive_pids);
	store(x, 1, 1, 1, 10);
	store(x, 2, 1, 1, 20);
	store(x, 1, 1, 1, 30);		/* 1 stored again: 2 is the oldest */
	store(x, 3, 1, 1, 40);
	KUNIT_EXPECT_NULL(test, proc_of(x, 2));
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 1));
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 3));
	KUNIT_EXPECT_EQ(test, x->evicted, 1ULL);
	/* 3 exits: it goes before 1, though stored later */
	clear_bit(3, alive_pids);
	store(x, 4, 1, 1, 50);
	KUNIT_EXPECT_NULL(test, proc_of(x, 3));
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 1));
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 4));
	KUNIT_EXPECT_EQ(test, x->evicted, 2ULL);
	KUNIT_EXPECT_EQ(test, x->nprocs_used, 2U);
	KUNIT_EXPECT_EQ(test, x->nmaps_used, 2U);
}

/*
 * Mapping slots run out: others are evicted, never the process being
 * stored; what still does not fit is refused and the process is partial.
 * Path slots running out refuse the same way.
 */
static void xmpool_room(struct kunit *test)
{
	struct tipme_xmp *x = make(test, 4, 4, 16);

	set_bit(1, alive_pids);
	set_bit(2, alive_pids);
	store(x, 1, 3, 3, 10);
	store(x, 2, 6, 6, 20);
	KUNIT_EXPECT_NULL(test, proc_of(x, 1));
	KUNIT_EXPECT_EQ(test, x->evicted, 1ULL);
	KUNIT_EXPECT_EQ(test, maps_of(x, 2), 4U);
	KUNIT_EXPECT_EQ(test, x->refused, 2ULL);
	KUNIT_ASSERT_NOT_NULL(test, proc_of(x, 2));
	KUNIT_EXPECT_TRUE(test, proc_of(x, 2)->partial);
	KUNIT_EXPECT_EQ(test, paths_used(x), 4U);
	tipme_xmp_free(x);

	x = make(test, 4, 16, 2);
	set_bit(5, alive_pids);
	store(x, 5, 4, 4, 10);
	KUNIT_EXPECT_EQ(test, maps_of(x, 5), 2U);
	KUNIT_EXPECT_EQ(test, x->refused, 2ULL);
	KUNIT_EXPECT_EQ(test, paths_used(x), 2U);
}

/*
 * Many processes come and go (a fork and exec storm): the counts stay
 * equal to what the slots hold, and every kept process has all of its
 * mappings.
 */
static void xmpool_churn(struct kunit *test)
{
	struct tipme_xmp *x = make(test, 8, 24, 16);
	u64 now = 10;
	u32 pid, i, used;

	for (pid = 1; pid < 60; pid++) {
		set_bit(pid, alive_pids);
		store(x, pid, 3, 2, now++);
		if (pid > 2)
			clear_bit(pid - 2, alive_pids);
		if (pid % 7 == 0)
			now += RET / 2;
		used = 0;
		for (i = 0; i < x->nprocs; i++)
			used += x->procs[i].used;
		KUNIT_ASSERT_EQ(test, used, x->nprocs_used);
	}
	for (pid = 1; pid < 60; pid++)
		if (proc_of(x, pid))
			KUNIT_EXPECT_EQ(test, maps_of(x, pid), 3U);
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 59));
	KUNIT_EXPECT_NOT_NULL(test, proc_of(x, 58));
	KUNIT_EXPECT_EQ(test, paths_used(x), 2 * x->nprocs_used);
}

/*
 * A dump copies the pool in parts; between two of them the process is
 * walked and stored again (a new chain of it), its mappings in the slots
 * in another order.  Read without a mark (@since: every store), the
 * second part copies again a mapping the first had copied: one process
 * with two entries for one range, which a dump's reader calls overlapping
 * mappings.  With the dump's mark it copies none of the new store.
 */
static void xmpool_paged_read(struct kunit *test)
{
	size_t one = ALIGN(sizeof(struct tipme_xmap) + 4 + 2, 8);
	struct tipme_xmp *x = make(test, 4, 16, 8);
	const struct tipme_xmap *e;
	u64 starts[8], since;
	unsigned int n, i, j, dup;
	bool done;
	size_t len, off;
	u32 pos;
	void *buf;
	int mark;

	buf = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	set_bit(1, alive_pids);
	for (mark = 0; mark < 2; mark++) {
		store(x, 1, 3, 3, 10 + 10 * mark);
		since = mark ? x->stores : U64_MAX;
		pos = 0;
		n = 0;
		/* the first part has room for one entry */
		len = tipme_xmp_read(x, &pos, since, buf, one, &done);
		KUNIT_ASSERT_EQ(test, len, one);
		KUNIT_ASSERT_FALSE(test, done);
		starts[n++] = ((const struct tipme_xmap *)buf)->start;
		store(x, 1, 3, 3, 11 + 10 * mark);
		len = tipme_xmp_read(x, &pos, since, buf, 4096, &done);
		KUNIT_ASSERT_TRUE(test, done);
		for (off = 0; off < len && n < ARRAY_SIZE(starts); off += e->size) {
			e = buf + off;
			starts[n++] = e->start;
		}
		for (dup = 0, i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				dup += starts[i] == starts[j];
		if (!mark) {
			KUNIT_EXPECT_EQ(test, n, 3U);
			KUNIT_EXPECT_EQ(test, dup, 1U);
		} else {
			KUNIT_EXPECT_EQ(test, n, 1U);
			KUNIT_EXPECT_EQ(test, dup, 0U);
		}
	}
}

static struct kunit_case xmpool_cases[] = {
	KUNIT_CASE(xmpool_store_read),
	KUNIT_CASE(xmpool_replace),
	KUNIT_CASE(xmpool_exit_retention),
	KUNIT_CASE(xmpool_gc_every),
	KUNIT_CASE(xmpool_evict_order),
	KUNIT_CASE(xmpool_room),
	KUNIT_CASE(xmpool_churn),
	KUNIT_CASE(xmpool_paged_read),
	{}
};

static struct kunit_suite xmpool_suite = {
	.name = "tipme_xmpool",
	.exit = xmp_test_exit,
	.test_cases = xmpool_cases,
};

kunit_test_suite(xmpool_suite);

MODULE_LICENSE("GPL");
