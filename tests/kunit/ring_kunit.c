// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_ring: the per-CPU ring's writer and reader logic
 * (module/ring.h, module/ring.c), driven with a fake clock so every
 * timestamp is known, and with nesting simulated by calling writers from
 * inside the clock (the point where an interrupt hurts most: between
 * reading the position and the cmpxchg) or between reserve and commit.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "ring.h"

#define REC_ID		5	/* a test record type: payload = one u32 id */
#define SUB_SHIFT	8	/* 256-byte sub-buffers */
#define NSUB_SHIFT	2	/* 4 of them */

static u64 fake_now;
static u64 fake_step = 10;
static void (*clock_hook)(void);

static u64 fake_clock(void)
{
	void (*hook)(void) = clock_hook;

	if (hook) {
		clock_hook = NULL;	/* fire once */
		hook();
	}
	fake_now += fake_step;
	return fake_now;
}

static struct tipme_ring *ring;

static bool write_id(u32 id)
{
	struct tipme_wslot ws;
	u32 *p = tipme_ring_reserve(ring, REC_ID, 4, fake_clock, &ws);

	if (!p)
		return false;
	*p = id;
	tipme_ring_commit(&ws, REC_ID);
	return true;
}

struct rec {
	u32 type;
	bool ext;
	u64 ts;
	u32 id;
};

/* Decode one sub-buffer as a reader would; returns records found. */
static int decode(struct kunit *test, const char *buf, u32 len, u64 *prev,
		  struct rec *out, int max)
{
	u32 off = 0;
	int n = 0;

	while (off + 4 <= len) {
		u32 hdr = *(const u32 *)(buf + off);
		u32 type = tipme_hdr_type(hdr);
		u32 size = 4;
		struct rec r = { .type = type, .ext = tipme_hdr_ext(hdr) };

		if (type == TIPME_REC_PAD)
			break;
		if (r.ext) {
			const u32 *w = (const u32 *)(buf + off + 4);

			r.ts = w[0] | (u64)w[1] << 32;
			size += 8;
		} else {
			KUNIT_EXPECT_NE(test, off, 0U);	/* first must be ext */
			r.ts = tipme_ts_extend(*prev, tipme_hdr_ts(hdr));
		}
		if (type == REC_ID) {
			r.id = *(const u32 *)(buf + off + size);
			size += 4;
		} else if (type == TIPME_REC_SCHED_SWITCH) {
			size += sizeof(struct tipme_rec_switch);
		} else if (type == TIPME_REC_SCHED_WAKING) {
			size += sizeof(struct tipme_rec_waking);
		} else {
			KUNIT_FAIL(test, "unknown type %u at %u", type, off);
			break;
		}
		KUNIT_EXPECT_GE(test, r.ts, *prev);
		*prev = r.ts;
		if (n < max)
			out[n] = r;
		n++;
		off += size;
	}
	return n;
}

/* Read every intact sub-buffer, oldest first, as the dump does. */
static int read_all(struct kunit *test, struct rec *out, int max)
{
	unsigned long end = local_read(&ring->reserve);
	u64 seq = tipme_ring_oldest_seq(ring, end), prev = 0;
	struct tipme_sub_view v;
	int n = 0;

	for (; end && seq <= (end - 1) >> ring->sub_shift; seq++) {
		if (tipme_ring_view(ring, seq, &v))
			continue;
		prev = 0;
		n += decode(test, tipme_ring_ptr(ring, seq << ring->sub_shift),
			    v.len, &prev, out + n, max - n);
		KUNIT_EXPECT_TRUE(test, tipme_ring_still_valid(ring, seq));
	}
	return n;
}

static int ring_test_init(struct kunit *test)
{
	ring = kunit_kzalloc(test, sizeof(*ring), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ring);
	KUNIT_ASSERT_EQ(test, tipme_ring_init(ring, 0, SUB_SHIFT, NSUB_SHIFT), 0);
	fake_now = 1000;
	fake_step = 10;
	clock_hook = NULL;
	return 0;
}

static void ring_test_exit(struct kunit *test)
{
	tipme_ring_free(ring);
}

static void ring_roundtrip(struct kunit *test)
{
	struct tipme_rec_switch *sw;
	struct tipme_rec_waking *wk;
	struct tipme_wslot ws;
	struct rec r[4];
	u64 prev = 0;
	u32 len;

	sw = tipme_ring_reserve(ring, TIPME_REC_SCHED_SWITCH, sizeof(*sw),
				fake_clock, &ws);
	KUNIT_ASSERT_NOT_NULL(test, sw);
	*sw = (struct tipme_rec_switch){ .prev_pid = 207, .next_pid = 4194303,
		.prev_prio = 120, .next_prio = 99, .prev_state = TIPME_TS_DISK };
	tipme_ring_commit(&ws, TIPME_REC_SCHED_SWITCH);
	KUNIT_EXPECT_EQ(test, ws.len, 4U + 8 + 12);	/* first: extended */

	wk = tipme_ring_reserve(ring, TIPME_REC_SCHED_WAKING, sizeof(*wk),
				fake_clock, &ws);
	KUNIT_ASSERT_NOT_NULL(test, wk);
	tipme_waking_pack(wk, 208, 3, 207, TIPME_CTX_HARDIRQ);
	tipme_ring_commit(&ws, TIPME_REC_SCHED_WAKING);
	KUNIT_EXPECT_EQ(test, ws.len, 12U);	/* compact: 12 bytes */

	len = local_read(&ring->reserve);
	KUNIT_ASSERT_EQ(test, decode(test, ring->data, len, &prev, r, 4), 2);
	KUNIT_EXPECT_EQ(test, r[0].type, (u32)TIPME_REC_SCHED_SWITCH);
	KUNIT_EXPECT_EQ(test, r[0].ts, 1010ULL);
	KUNIT_EXPECT_EQ(test, r[1].type, (u32)TIPME_REC_SCHED_WAKING);
	KUNIT_EXPECT_EQ(test, r[1].ts, 1020ULL);
	sw = (struct tipme_rec_switch *)(ring->data + 12);
	KUNIT_EXPECT_EQ(test, sw->prev_pid, 207U);
	KUNIT_EXPECT_EQ(test, sw->next_pid, 4194303U);
	KUNIT_EXPECT_EQ(test, sw->prev_state, (u8)TIPME_TS_DISK);
	wk = (struct tipme_rec_waking *)(ring->data + 24 + 4);
	KUNIT_EXPECT_EQ(test, tipme_waking_pid(wk), 208U);
	KUNIT_EXPECT_EQ(test, tipme_waking_cpu(wk), 3U);
	KUNIT_EXPECT_EQ(test, tipme_waking_waker(wk), 207U);
	KUNIT_EXPECT_EQ(test, tipme_waking_ctx(wk), (u32)TIPME_CTX_HARDIRQ);
	KUNIT_EXPECT_EQ(test, local_read(&ring->written), 2L);
	KUNIT_EXPECT_EQ(test, local_read(&ring->type_count[TIPME_REC_SCHED_SWITCH]), 1L);
}

static void ring_delta_overflow(struct kunit *test)
{
	struct rec r[8];
	u64 prev = 0;

	KUNIT_ASSERT_TRUE(test, write_id(1));		/* ext: first in sub */
	fake_step = (1ULL << TIPME_HDR_TS_BITS) - 1;
	KUNIT_ASSERT_TRUE(test, write_id(2));		/* just fits: compact */
	fake_step = 1ULL << TIPME_HDR_TS_BITS;
	KUNIT_ASSERT_TRUE(test, write_id(3));		/* overflows: ext */
	fake_step = 3ULL << 40;
	KUNIT_ASSERT_TRUE(test, write_id(4));		/* far: ext */
	fake_step = 1;
	KUNIT_ASSERT_TRUE(test, write_id(5));
	KUNIT_ASSERT_EQ(test, decode(test, ring->data,
				     local_read(&ring->reserve), &prev, r, 8), 5);
	KUNIT_EXPECT_TRUE(test, r[0].ext);
	KUNIT_EXPECT_FALSE(test, r[1].ext);
	KUNIT_EXPECT_TRUE(test, r[2].ext);
	KUNIT_EXPECT_TRUE(test, r[3].ext);
	KUNIT_EXPECT_FALSE(test, r[4].ext);
	KUNIT_EXPECT_EQ(test, r[1].ts - r[0].ts, (1ULL << TIPME_HDR_TS_BITS) - 1);
	KUNIT_EXPECT_EQ(test, r[2].ts - r[1].ts, 1ULL << TIPME_HDR_TS_BITS);
	KUNIT_EXPECT_EQ(test, r[3].ts - r[2].ts, 3ULL << 40);
	KUNIT_EXPECT_EQ(test, r[4].ts - r[3].ts, 1ULL);
}

static void ring_wraparound(struct kunit *test)
{
	const u32 total = 1000;
	struct rec *r;
	long kept, written, overwritten;
	int n, i;
	u32 id;

	r = kunit_kcalloc(test, 256, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for (id = 1; id <= total; id++)
		KUNIT_ASSERT_TRUE(test, write_id(id));
	n = read_all(test, r, 256);
	written = local_read(&ring->written);
	overwritten = local_read(&ring->overwritten);
	kept = written - overwritten;
	KUNIT_EXPECT_EQ(test, written, (long)total);
	KUNIT_EXPECT_GT(test, overwritten, 0L);
	KUNIT_EXPECT_EQ(test, local_read(&ring->dropped), 0L);
	/* Exactly the records not counted as overwritten are readable... */
	KUNIT_EXPECT_EQ(test, (long)n, kept);
	/* ...and they are the newest, contiguous, in order. */
	for (i = 0; i < n && i < 256; i++)
		KUNIT_EXPECT_EQ(test, r[i].id, total - n + 1 + i);
	/* A sub-buffer that wrapped is stale to readers. */
	KUNIT_EXPECT_EQ(test, tipme_ring_view(ring, 0, &(struct tipme_sub_view){}),
			-ESTALE);
}

static void nested_write(void)
{
	write_id(100);
}

static void ring_nested_in_clock(struct kunit *test)
{
	struct rec r[4];
	u64 prev = 0;

	KUNIT_ASSERT_TRUE(test, write_id(1));
	/* An "interrupt" writes between A's position read and its cmpxchg. */
	clock_hook = nested_write;
	KUNIT_ASSERT_TRUE(test, write_id(2));
	KUNIT_ASSERT_EQ(test, decode(test, ring->data,
				     local_read(&ring->reserve), &prev, r, 4), 3);
	KUNIT_EXPECT_EQ(test, r[1].id, 100U);	/* the nested one landed first */
	KUNIT_EXPECT_EQ(test, r[2].id, 2U);	/* A retried after it */
	KUNIT_EXPECT_LT(test, r[1].ts, r[2].ts);	/* ring order = time order */
	KUNIT_EXPECT_EQ(test, local_read(&ring->nesting), 0L);
}

static void ring_nested_between_reserve_and_commit(struct kunit *test)
{
	struct tipme_sub_view v;
	struct tipme_wslot ws;
	struct rec r[4];
	u64 prev = 0;
	u32 *a;

	a = tipme_ring_reserve(ring, REC_ID, 4, fake_clock, &ws);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_TRUE(test, write_id(200));	/* nested, commits first */
	/* A reader must not see the sub-buffer while A is in flight. */
	KUNIT_EXPECT_EQ(test, tipme_ring_view(ring, 0, &v), -EBUSY);
	*a = 1;
	tipme_ring_commit(&ws, REC_ID);
	KUNIT_ASSERT_EQ(test, tipme_ring_view(ring, 0, &v), 0);
	KUNIT_EXPECT_TRUE(test, v.partial);
	KUNIT_ASSERT_EQ(test, decode(test, ring->data, v.len, &prev, r, 4), 2);
	KUNIT_EXPECT_EQ(test, r[0].id, 1U);
	KUNIT_EXPECT_EQ(test, r[1].id, 200U);
}

static void ring_inflight_blocks_wrap(struct kunit *test)
{
	struct tipme_wslot ws;
	long dropped;
	u32 *a, id;

	/* A writer stuck in the oldest sub-buffer... */
	a = tipme_ring_reserve(ring, REC_ID, 4, fake_clock, &ws);
	KUNIT_ASSERT_NOT_NULL(test, a);
	/* ...while nested writers go all the way round: they must not
	 * overwrite it, but drop and count instead.
	 */
	for (id = 1; id <= 200; id++)
		write_id(id);
	dropped = local_read(&ring->dropped);
	KUNIT_EXPECT_GT(test, dropped, 0L);
	KUNIT_EXPECT_EQ(test, local_read(&ring->written) + dropped, 200L);
	*a = 7;
	tipme_ring_commit(&ws, REC_ID);
	KUNIT_EXPECT_EQ(test, *(u32 *)(ring->data + 12), 7U);
	/* Once it committed, writing goes on. */
	KUNIT_EXPECT_TRUE(test, write_id(999));
}

static void ring_too_big_and_too_deep(struct kunit *test)
{
	struct tipme_wslot ws[TIPME_MAX_NESTING + 1];
	int i;

	KUNIT_EXPECT_NULL(test, tipme_ring_reserve(ring, REC_ID, 1U << SUB_SHIFT,
						   fake_clock, &ws[0]));
	KUNIT_EXPECT_EQ(test, local_read(&ring->dropped), 1L);
	for (i = 0; i < TIPME_MAX_NESTING; i++)
		KUNIT_EXPECT_NOT_NULL(test, tipme_ring_reserve(ring, REC_ID, 4,
							       fake_clock, &ws[i]));
	KUNIT_EXPECT_NULL(test, tipme_ring_reserve(ring, REC_ID, 4, fake_clock,
						   &ws[i]));
	KUNIT_EXPECT_EQ(test, local_read(&ring->dropped), 2L);
	for (i = TIPME_MAX_NESTING - 1; i >= 0; i--)
		tipme_ring_commit(&ws[i], REC_ID);
	KUNIT_EXPECT_EQ(test, local_read(&ring->nesting), 0L);
}

static void ring_padding(struct kunit *test)
{
	struct tipme_sub_view v;
	u32 id, n = 0;

	/* 8-byte records into 256-byte sub-buffers with a 12-byte first one:
	 * some record must cross, leaving padding, and start extended.
	 */
	for (id = 1; local_read(&ring->reserve) < 300; id++)
		KUNIT_ASSERT_TRUE(test, write_id(id));
	KUNIT_ASSERT_EQ(test, tipme_ring_view(ring, 0, &v), 0);
	KUNIT_EXPECT_FALSE(test, v.partial);
	KUNIT_EXPECT_EQ(test, v.len, 256U);
	KUNIT_EXPECT_TRUE(test, tipme_hdr_ext(*(u32 *)(ring->data + 256)));
	for (id = 0; id < 256; id += 4)
		if (*(u32 *)(ring->data + id) == 0)
			n++;
	KUNIT_EXPECT_GT(test, n, 0U);	/* a PAD header is in sub-buffer 0 */
}

/*
 * A frozen window: once the ring is full, writers drop records instead of
 * overwriting the frozen sub-buffer, and write again once it is thawed.
 */
static void ring_frozen_window(struct kunit *test)
{
	unsigned long nsub = tipme_ring_nsub(ring), pos;
	u32 id = 0;

	while (local_read(&ring->reserve) < (long)(nsub << ring->sub_shift) - 16)
		KUNIT_ASSERT_TRUE(test, write_id(id++));
	ring->frozen = tipme_ring_oldest_seq(ring, local_read(&ring->reserve));
	KUNIT_EXPECT_EQ(test, ring->frozen, 0ULL);
	while (local_read(&ring->dropped) == 0 && id < 10000)
		write_id(id++);
	pos = local_read(&ring->reserve);
	KUNIT_EXPECT_LE(test, pos, nsub << ring->sub_shift);
	KUNIT_EXPECT_FALSE(test, write_id(id++));
	KUNIT_EXPECT_EQ(test, local_read(&ring->overwritten), 0L);
	/* Sub-buffer 0 is intact: a reader still sees all of it. */
	KUNIT_EXPECT_TRUE(test, tipme_ring_still_valid(ring, 0));
	ring->frozen = TIPME_RING_THAWED;
	KUNIT_EXPECT_TRUE(test, write_id(id++));
	KUNIT_EXPECT_GT(test, local_read(&ring->overwritten), 0L);
	KUNIT_EXPECT_FALSE(test, tipme_ring_still_valid(ring, 0));
}

/*
 * A mapped reader's check: the oldest intact sub-buffer is the first whose
 * slot no writer has entered again, position against (seq + nsub) laps.
 */
static void ring_oldest_intact(struct kunit *test)
{
	unsigned long size = tipme_ring_sub_size(ring);
	unsigned long nsub = tipme_ring_nsub(ring);
	u64 seq, want;
	u32 id;

	KUNIT_EXPECT_EQ(test, tipme_ring_oldest_intact(ring), 0ULL);
	for (id = 0; id < 40 * size / 8; id++) {
		unsigned long pos;

		KUNIT_ASSERT_TRUE(test, write_id(id));
		pos = local_read(&ring->reserve);
		want = 0;
		while (pos > (want + nsub) * size)
			want++;
		KUNIT_ASSERT_EQ(test, tipme_ring_oldest_intact(ring), want);
		for (seq = want ? want - 1 : 0; seq <= want + 1; seq++)
			KUNIT_EXPECT_EQ(test, tipme_ring_still_valid(ring, seq),
					seq >= want);
	}
	KUNIT_EXPECT_GT(test, tipme_ring_oldest_intact(ring), 30ULL);
}

static struct kunit_case ring_cases[] = {
	KUNIT_CASE(ring_oldest_intact),
	KUNIT_CASE(ring_roundtrip),
	KUNIT_CASE(ring_delta_overflow),
	KUNIT_CASE(ring_wraparound),
	KUNIT_CASE(ring_nested_in_clock),
	KUNIT_CASE(ring_nested_between_reserve_and_commit),
	KUNIT_CASE(ring_inflight_blocks_wrap),
	KUNIT_CASE(ring_too_big_and_too_deep),
	KUNIT_CASE(ring_padding),
	KUNIT_CASE(ring_frozen_window),
	{}
};

static struct kunit_suite ring_suite = {
	.name = "tipme_ring",
	.init = ring_test_init,
	.exit = ring_test_exit,
	.test_cases = ring_cases,
};

kunit_test_suite(ring_suite);

MODULE_LICENSE("GPL");
