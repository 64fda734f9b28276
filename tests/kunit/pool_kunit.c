// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_pool: rings that draw their sub-buffers from one pool
 * for the whole machine (module/ring.c, pool=1).  Three rings stand for
 * three CPUs; the test writes them in turn, so it knows which CPU wrote
 * what and when, and checks which sub-buffer each take found: the next
 * never-used one, else the machine's oldest; never one a writer is still
 * filling or a reader pinned; and every CPU's kept records are its newest,
 * in order, with the rest counted as overwritten.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "ring.h"

#define REC_ID		5	/* a test record type: payload = one u32 id */
#define SUB_SHIFT	12	/* 4 KiB sub-buffers */
#define POOL_SHIFT	4	/* 16 of them */
#define NRINGS		3

static u64 fake_now;
static void (*clock_hook)(void);

static u64 fake_clock(void)
{
	void (*hook)(void) = clock_hook;

	if (hook) {
		clock_hook = NULL;	/* fire once */
		hook();
	}
	fake_now += 10;
	return fake_now;
}

static struct tipme_pool *pool;
static struct tipme_ring *rings;

static bool write_id(int cpu, u32 id)
{
	struct tipme_wslot ws;
	u32 *p = tipme_ring_reserve(&rings[cpu], REC_ID, 4, fake_clock, &ws);

	if (!p)
		return false;
	*p = id;
	tipme_ring_commit(&ws, REC_ID);
	return true;
}

/* Write records with ids from *id on until @cpu has @nsub sub-buffers. */
static void fill(struct kunit *test, int cpu, unsigned long nsub, u32 *id)
{
	while (local_read(&rings[cpu].reserve) <
	       (long)(nsub << SUB_SHIFT) - 8)
		KUNIT_ASSERT_TRUE(test, write_id(cpu, (*id)++));
}

static u64 state(unsigned long idx)
{
	return atomic64_read(&pool->subs[idx].state);
}

static bool holds(unsigned long idx, int cpu, u64 seq)
{
	return (state(idx) & TIPME_POOL_KEY) == tipme_pool_key(cpu, seq);
}

/* The pool sub-buffer holding @cpu's sub-buffer @seq, or -1. */
static long find(int cpu, u64 seq)
{
	unsigned long i;

	for (i = 0; i < tipme_pool_nsub(pool); i++)
		if (holds(i, cpu, seq))
			return i;
	return -1;
}

/*
 * Read @cpu's sub-buffers as the dump does (pin, view, copy, unpin),
 * oldest first, into @ids; every record's id, its time in order.
 * Return: records read.
 */
static int read_cpu(struct kunit *test, int cpu, u32 *ids, int max)
{
	struct tipme_ring *r = &rings[cpu];
	unsigned long end = local_read(&r->reserve);
	struct tipme_sub_view v;
	u64 seq, prev = 0;
	int n = 0;
	long idx;

	for (seq = 0; end && seq <= (end - 1) >> SUB_SHIFT; seq++) {
		const char *buf;
		u32 off = 0;

		idx = find(cpu, seq);
		if (idx < 0 || !tipme_pool_pin(pool, idx, cpu, seq))
			continue;
		KUNIT_ASSERT_EQ(test, tipme_ring_view(r, seq, &v), 0);
		buf = tipme_pool_ptr(pool, idx);
		while (off + 8 <= v.len) {
			u32 hdr = *(const u32 *)(buf + off);
			u64 ts;

			if (tipme_hdr_type(hdr) == TIPME_REC_PAD)
				break;
			KUNIT_ASSERT_EQ(test, tipme_hdr_type(hdr), (u32)REC_ID);
			if (tipme_hdr_ext(hdr)) {
				ts = *(const u64 *)(buf + off + 4);
				off += 8;
			} else {
				KUNIT_EXPECT_NE(test, off, 0U);
				ts = tipme_ts_extend(prev, tipme_hdr_ts(hdr));
			}
			KUNIT_EXPECT_GE(test, ts, prev);
			prev = ts;
			if (n < max)
				ids[n] = *(const u32 *)(buf + off + 4);
			n++;
			off += 8;
		}
		tipme_pool_unpin(pool, idx);
	}
	return n;
}

static int pool_test_init(struct kunit *test)
{
	int i;

	pool = kunit_kzalloc(test, sizeof(*pool), GFP_KERNEL);
	rings = kunit_kcalloc(test, NRINGS, sizeof(*rings), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_ASSERT_NOT_NULL(test, rings);
	KUNIT_ASSERT_EQ(test, tipme_pool_init(pool, SUB_SHIFT, POOL_SHIFT,
					      NUMA_NO_NODE), 0);
	for (i = 0; i < NRINGS; i++)
		KUNIT_ASSERT_EQ(test, tipme_ring_init_pool(&rings[i], i, pool), 0);
	fake_now = 1000;
	clock_hook = NULL;
	return 0;
}

static void pool_test_exit(struct kunit *test)
{
	int i;

	for (i = 0; i < NRINGS; i++)
		tipme_ring_free(&rings[i]);
	tipme_pool_free(pool);
}

/* Takes go to never-used sub-buffers first, in order, whatever the CPU. */
static void pool_take_next_free(struct kunit *test)
{
	u32 id = 0;

	fill(test, 0, 3, &id);
	KUNIT_EXPECT_TRUE(test, holds(0, 0, 0));
	KUNIT_EXPECT_TRUE(test, holds(1, 0, 1));
	KUNIT_EXPECT_TRUE(test, holds(2, 0, 2));
	KUNIT_EXPECT_TRUE(test, write_id(1, id++));
	KUNIT_EXPECT_TRUE(test, holds(3, 1, 0));
	KUNIT_EXPECT_TRUE(test, write_id(2, id++));
	KUNIT_EXPECT_TRUE(test, holds(4, 2, 0));
	KUNIT_EXPECT_EQ(test, state(5), 0ULL);
	/* Complete sub-buffers are retired once a later one is started. */
	KUNIT_EXPECT_TRUE(test, state(0) & TIPME_POOL_RETIRED);
	KUNIT_EXPECT_FALSE(test, state(2) & TIPME_POOL_RETIRED);
	KUNIT_EXPECT_EQ(test, tipme_ring_overwritten(&rings[0]), 0ULL);
}

/*
 * A full pool: the next take, on any CPU, reuses the machine's oldest
 * sub-buffer and counts its records as its owner's overwritten ones.
 */
static void pool_steal_oldest(struct kunit *test)
{
	u32 id = 0, ids[8];
	u64 nrec0;

	fill(test, 0, tipme_pool_nsub(pool), &id);
	KUNIT_EXPECT_TRUE(test, holds(tipme_pool_nsub(pool) - 1, 0,
				      tipme_pool_nsub(pool) - 1));
	nrec0 = pool->subs[0].nrec;
	KUNIT_EXPECT_GT(test, nrec0, 100ULL);
	KUNIT_EXPECT_TRUE(test, write_id(1, 70000));
	KUNIT_EXPECT_TRUE(test, holds(0, 1, 0));
	KUNIT_EXPECT_EQ(test, tipme_ring_overwritten(&rings[0]), nrec0);
	KUNIT_EXPECT_EQ(test, tipme_ring_overwritten(&rings[1]), 0ULL);
	/* The next oldest goes to the next take, CPU 0's own. */
	fill(test, 0, tipme_pool_nsub(pool) + 1, &id);
	KUNIT_EXPECT_TRUE(test, holds(1, 0, tipme_pool_nsub(pool)));
	KUNIT_EXPECT_EQ(test, read_cpu(test, 1, ids, 8), 1);
	KUNIT_EXPECT_EQ(test, ids[0], 70000U);
}

/*
 * The oldest is the one finished first, not the one started first: an
 * idle CPU's sub-buffer, started before the busy CPU's but finished after
 * them, outlives them (its newest records are newer).
 */
static void pool_oldest_by_finish(struct kunit *test)
{
	u32 id = 0;

	KUNIT_ASSERT_TRUE(test, write_id(2, id++));	/* CPU 2 takes sub-buffer 0 */
	fill(test, 0, 8, &id);				/* CPU 0 takes 1..8 */
	fill(test, 2, 3, &id);				/* CPU 2 finishes 0, takes 9, 10 */
	KUNIT_EXPECT_TRUE(test, holds(0, 2, 0));
	KUNIT_EXPECT_TRUE(test, state(0) & TIPME_POOL_RETIRED);
	fill(test, 0, 14, &id);				/* 11..15 fresh, then one reused */
	KUNIT_EXPECT_TRUE(test, holds(1, 0, 13));	/* CPU 0's first, not CPU 2's */
	KUNIT_EXPECT_TRUE(test, holds(0, 2, 0));
	KUNIT_EXPECT_EQ(test, tipme_ring_overwritten(&rings[2]), 0ULL);
}

/* A CPU's sub-buffer in the making is never taken, however long it takes. */
static void pool_never_steal_written(struct kunit *test)
{
	u32 id = 0, ids[4];
	long idx;

	KUNIT_ASSERT_TRUE(test, write_id(2, 4242));
	idx = find(2, 0);
	KUNIT_ASSERT_EQ(test, idx, 0L);
	fill(test, 0, 5 * tipme_pool_nsub(pool), &id);
	KUNIT_EXPECT_TRUE(test, holds(idx, 2, 0));
	KUNIT_EXPECT_FALSE(test, state(idx) & TIPME_POOL_RETIRED);
	KUNIT_EXPECT_EQ(test, read_cpu(test, 2, ids, 4), 1);
	KUNIT_EXPECT_EQ(test, ids[0], 4242U);
	KUNIT_EXPECT_EQ(test, local_read(&rings[0].dropped), 0L);
}

/* Nor one a reader pinned; unpinned, it goes at its turn. */
static void pool_never_steal_pinned(struct kunit *test)
{
	u32 id = 0, first;
	long idx;

	fill(test, 0, tipme_pool_nsub(pool), &id);
	idx = find(0, 1);
	KUNIT_ASSERT_EQ(test, idx, 1L);
	KUNIT_ASSERT_TRUE(test, tipme_pool_pin(pool, idx, 0, 1));
	first = *(u32 *)(tipme_pool_ptr(pool, idx) + 12);
	fill(test, 0, 3 * tipme_pool_nsub(pool), &id);
	KUNIT_EXPECT_TRUE(test, holds(idx, 0, 1));
	KUNIT_EXPECT_EQ(test, *(u32 *)(tipme_pool_ptr(pool, idx) + 12), first);
	/* Its turns came and went: it went back to the end of the queue. */
	KUNIT_EXPECT_GE(test, atomic64_read(&pool->skipped), 2LL);
	/* A pin of what it no longer holds fails. */
	KUNIT_EXPECT_FALSE(test, tipme_pool_pin(pool, 0, 0, 0));
	tipme_pool_unpin(pool, idx);
	fill(test, 0, 4 * tipme_pool_nsub(pool) + 1, &id);
	KUNIT_EXPECT_FALSE(test, holds(idx, 0, 1));
}

/*
 * CPUs writing in turn: each keeps its newest records, in order, and
 * every record written is either kept or counted as overwritten.
 */
static void pool_sequence_order(struct kunit *test)
{
	u32 *ids, next[NRINGS] = { 0, 0, 0 };
	int cpu, n, i, step;

	ids = kunit_kcalloc(test, 16 << SUB_SHIFT, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	/* CPU 0 busy, 1 now and then, 2 rarely: uneven on purpose. */
	for (step = 0; step < 30000; step++) {
		cpu = step % 97 == 0 ? 2 : step % 7 == 0 ? 1 : 0;
		KUNIT_ASSERT_TRUE(test, write_id(cpu, next[cpu]++));
	}
	for (cpu = 0; cpu < NRINGS; cpu++) {
		u64 written = local_read(&rings[cpu].written);

		n = read_cpu(test, cpu, ids, 16 << SUB_SHIFT);
		KUNIT_EXPECT_EQ(test, written, (u64)next[cpu]);
		KUNIT_EXPECT_EQ(test, (u64)n + tipme_ring_overwritten(&rings[cpu]),
				written);
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ(test, ids[i], next[cpu] - n + i);
	}
	/* The busy CPU holds nearly the whole pool, not a third of it. */
	KUNIT_EXPECT_GT(test, local_read(&rings[0].written) -
			(long)tipme_ring_overwritten(&rings[0]),
			(long)(10 << SUB_SHIFT) / 8);
}

/* Frozen: nothing written before may be taken; thawed, writing goes on. */
static void pool_frozen(struct kunit *test)
{
	u32 id = 0;

	fill(test, 0, tipme_pool_nsub(pool) - 2, &id);
	tipme_pool_freeze(pool, true);
	while (local_read(&rings[0].dropped) == 0 && id < 100000)
		write_id(0, id++);
	KUNIT_EXPECT_EQ(test, tipme_ring_overwritten(&rings[0]), 0ULL);
	KUNIT_EXPECT_FALSE(test, write_id(1, id++));
	KUNIT_EXPECT_TRUE(test, holds(0, 0, 0));
	tipme_pool_freeze(pool, false);
	KUNIT_EXPECT_TRUE(test, write_id(1, id++));
	KUNIT_EXPECT_GT(test, tipme_ring_overwritten(&rings[0]), 0ULL);
}

static void nested_write(void)
{
	write_id(0, 100);
}

/*
 * An "interrupt" starts the same sub-buffer between a writer's position
 * read and its cmpxchg: one take is used, the other given back, and both
 * records are kept in order.
 */
static void pool_nested_claim(struct kunit *test)
{
	u32 id = 0, *ids;
	int n;

	ids = kunit_kcalloc(test, 2048, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	/* The next record starts sub-buffer 1, with the nested one first. */
	while (local_read(&rings[0].reserve) < (1L << SUB_SHIFT))
		KUNIT_ASSERT_TRUE(test, write_id(0, id++));
	KUNIT_ASSERT_EQ(test, local_read(&rings[0].reserve), 1L << SUB_SHIFT);
	clock_hook = nested_write;
	KUNIT_ASSERT_TRUE(test, write_id(0, 5000));
	KUNIT_EXPECT_EQ(test, local_read(&rings[0].nesting), 0L);
	n = read_cpu(test, 0, ids, 2048);
	KUNIT_ASSERT_EQ(test, n, (int)id + 2);
	KUNIT_EXPECT_EQ(test, ids[n - 2], 100U);
	KUNIT_EXPECT_EQ(test, ids[n - 1], 5000U);
	/* Exactly one sub-buffer holds sub-buffer 1. */
	KUNIT_EXPECT_GE(test, find(0, 1), 0L);
	KUNIT_EXPECT_EQ(test, (state(1) & TIPME_POOL_OWNED) +
			(state(2) & TIPME_POOL_OWNED), TIPME_POOL_OWNED);
}

/* Reserve a record of 16 bytes (12 of payload) on @cpu; commit it unless !@commit. */
static bool write16(int cpu, bool commit, struct tipme_wslot *ws)
{
	u32 *p = tipme_ring_reserve(&rings[cpu], REC_ID, 12, fake_clock, ws);

	if (!p)
		return false;
	p[0] = p[1] = p[2] = 0;
	if (commit)
		tipme_ring_commit(ws, REC_ID);
	return true;
}

/*
 * A sub-buffer its writer completes with padding goes back to the pool as
 * the next one starts, not when the one after that does: a CPU that writes
 * little holds one sub-buffer of old records, not two.  16-byte records
 * after the first (24 with its full timestamp) leave 8 bytes of padding
 * at the end of a 4 KiB sub-buffer.
 */
static void pool_retire_when_padded(struct kunit *test)
{
	struct tipme_wslot ws;
	long idx;

	while (local_read(&rings[2].reserve) < (1L << SUB_SHIFT))
		KUNIT_ASSERT_TRUE(test, write16(2, true, &ws));
	idx = find(2, 0);
	KUNIT_ASSERT_GE(test, idx, 0L);
	KUNIT_EXPECT_EQ(test, tipme_hdr_type(*(u32 *)(tipme_pool_ptr(pool, idx) +
						    (1 << SUB_SHIFT) - 8)),
			(u32)TIPME_REC_PAD);
	KUNIT_EXPECT_TRUE(test, state(idx) & TIPME_POOL_RETIRED);
	KUNIT_EXPECT_EQ(test, pool->subs[idx].nrec, 255ULL);
	KUNIT_EXPECT_FALSE(test, state(find(2, 1)) & TIPME_POOL_RETIRED);
}

/*
 * ... but not while a writer it interrupted is still inside it: then it
 * waits for the next start, so no other CPU takes memory still written.
 */
static void pool_retire_waits_for_writer(struct kunit *test)
{
	struct tipme_wslot outer, inner;
	long idx;

	/* The last record that fits in sub-buffer 0, reserved, not committed */
	while (local_read(&rings[2].reserve) < (1L << SUB_SHIFT) - 24)
		KUNIT_ASSERT_TRUE(test, write16(2, true, &inner));
	KUNIT_ASSERT_TRUE(test, write16(2, false, &outer));
	/* "An interrupt" pads sub-buffer 0 and starts sub-buffer 1. */
	KUNIT_ASSERT_TRUE(test, write16(2, true, &inner));
	KUNIT_ASSERT_GE(test, local_read(&rings[2].reserve), 1L << SUB_SHIFT);
	idx = find(2, 0);
	KUNIT_ASSERT_GE(test, idx, 0L);
	KUNIT_EXPECT_FALSE(test, state(idx) & TIPME_POOL_RETIRED);
	tipme_ring_commit(&outer, REC_ID);
	KUNIT_EXPECT_FALSE(test, state(idx) & TIPME_POOL_RETIRED);
	while (local_read(&rings[2].reserve) <= (2L << SUB_SHIFT))
		KUNIT_ASSERT_TRUE(test, write16(2, true, &inner));
	KUNIT_EXPECT_TRUE(test, state(idx) & TIPME_POOL_RETIRED);
	KUNIT_EXPECT_EQ(test, pool->subs[idx].nrec, 255ULL);
	KUNIT_EXPECT_EQ(test, local_read(&rings[2].dropped), 0L);
}

static struct kunit_case pool_cases[] = {
	KUNIT_CASE(pool_take_next_free),
	KUNIT_CASE(pool_steal_oldest),
	KUNIT_CASE(pool_oldest_by_finish),
	KUNIT_CASE(pool_never_steal_written),
	KUNIT_CASE(pool_never_steal_pinned),
	KUNIT_CASE(pool_sequence_order),
	KUNIT_CASE(pool_frozen),
	KUNIT_CASE(pool_nested_claim),
	KUNIT_CASE(pool_retire_when_padded),
	KUNIT_CASE(pool_retire_waits_for_writer),
	{}
};

static struct kunit_suite pool_suite = {
	.name = "tipme_pool",
	.init = pool_test_init,
	.exit = pool_test_exit,
	.test_cases = pool_cases,
};

kunit_test_suite(pool_suite);

MODULE_LICENSE("GPL");
