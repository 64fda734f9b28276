// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_uapi: the pure helpers and the structure sizes of
 * include/uapi/linux/tipme.h, the format shared by the module, the daemon
 * and the postmortem tools.  A change here breaks every dump ever written.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/tipme.h>

/* xorshift64: deterministic pseudo-random numbers for the sweeps below. */
static u64 uapi_rand(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

static const u64 uapi_ts_samples[] = {
	0, 1, 0xff, 0x100, 0xffffff, 0x1000000, 0x1000001, 0x12345678,
	0xdeadbeefcafeULL, 0xfffffffffeffffffULL, U64_MAX,
};

static void uapi_hdr_roundtrip(struct kunit *test)
{
	unsigned int i, type, ext;

	for (type = 0; type <= TIPME_HDR_TYPE_MASK; type++)
		for (ext = 0; ext <= 1; ext++)
			for (i = 0; i < ARRAY_SIZE(uapi_ts_samples); i++) {
				u64 ts = uapi_ts_samples[i];
				u32 hdr = tipme_hdr_make(type, ext, ts);

				KUNIT_EXPECT_EQ(test, tipme_hdr_type(hdr), (u32)type);
				KUNIT_EXPECT_EQ(test, tipme_hdr_ext(hdr), (int)ext);
				KUNIT_EXPECT_EQ(test, tipme_hdr_ts(hdr),
						(u32)(ts & TIPME_HDR_TS_MASK));
			}
}

/* The bit layout is part of the dump format: pin it down. */
static void uapi_hdr_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tipme_hdr_make(TIPME_REC_SCHED_SWITCH, 0, 0x123456),
			0x12345601U);
	KUNIT_EXPECT_EQ(test, tipme_hdr_make(TIPME_REC_SCHED_WAKING, 1, 0xabcdef),
			0xabcdef82U);
	/* Only the low 24 bits of the timestamp are kept. */
	KUNIT_EXPECT_EQ(test, tipme_hdr_make(0, 0, 0xff000000ULL), 0U);
	/* A type too wide for 7 bits never sets the EXT bit. */
	KUNIT_EXPECT_EQ(test, tipme_hdr_make(0x80 | 5, 0, 0), 5U);
	KUNIT_EXPECT_FALSE(test, tipme_hdr_ext(tipme_hdr_make(0xff, 0, 0)));
	/* Any non-zero ext argument means "extended". */
	KUNIT_EXPECT_TRUE(test, tipme_hdr_ext(tipme_hdr_make(1, 42, 0)));
	KUNIT_EXPECT_EQ(test, TIPME_HDR_TS_MASK, 0xffffffU);
}

static void uapi_ts_extend_no_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0x1000, 0x2000), 0x2000ULL);
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0x1000, 0x1000), 0x1000ULL);
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0x5000000, 0xffffff), 0x5ffffffULL);
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0xabc000123ULL, 0x456),
			0xabc000456ULL);
	/* Bits above the 24 low ones in @low are ignored. */
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0x1000, 0x7f002000), 0x2000ULL);
}

static void uapi_ts_extend_at_wrap(struct kunit *test)
{
	/* prev is the last tick before a wrap; this record is exactly at it. */
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0xffffff, 0), 0x1000000ULL);
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0x3ffffff, 0), 0x4000000ULL);
	/* prev exactly at a wrap, this record at the same tick. */
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0x1000000, 0), 0x1000000ULL);
}

static void uapi_ts_extend_past_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0xffffff, 1), 0x1000001ULL);
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0x1fffffe, 1), 0x2000001ULL);
	/* The largest gap a writer may leave without an extended timestamp. */
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0x1000001, 0), 0x2000000ULL);
	/* Near the top of the 64-bit range. */
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0xfffffffffefffff0ULL, 0xfffff8),
			0xfffffffffefffff8ULL);
	KUNIT_EXPECT_EQ(test, tipme_ts_extend(0xfffffffffefffff0ULL, 0x10),
			0xffffffffff000010ULL);
}

/*
 * A writer's sequence of timestamps, each less than 2^24 ticks after the
 * previous one, rebuilt from the low 24 bits alone across many wraps.
 */
static void uapi_ts_extend_sequence(struct kunit *test)
{
	static const u64 starts[] = { 0, 0xfff000, 0x123456789aULL,
				      0xffff000000000000ULL };
	unsigned int s, i, wraps;

	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		u64 state = 0x9e3779b97f4a7c15ULL + s;
		u64 ts = starts[s], prev = ts;

		wraps = 0;
		for (i = 0; i < 20000; i++) {
			u64 step, got;

			switch (i % 4) {
			case 0:	/* the largest legal step */
				step = TIPME_HDR_TS_MASK;
				break;
			case 1:	/* no time passed */
				step = 0;
				break;
			default:
				step = uapi_rand(&state) & TIPME_HDR_TS_MASK;
			}
			ts += step;
			if ((ts >> TIPME_HDR_TS_BITS) != (prev >> TIPME_HDR_TS_BITS))
				wraps++;
			got = tipme_ts_extend(prev,
					      tipme_hdr_ts(tipme_hdr_make(1, 0, ts)));
			if (got != ts) {
				KUNIT_FAIL(test, "start %llx step %u: got %llx want %llx",
					   starts[s], i, got, ts);
				return;
			}
			prev = got;
		}
		KUNIT_EXPECT_GT(test, wraps, 5000U);
	}
}

static const u32 uapi_pids[] = { 0, 1, 2, 1000, 32768, 0x2aaaaa, 0x155555,
				 TIPME_PID_MASK - 1, TIPME_PID_MASK };
static const u32 uapi_cpus[] = { 0, 1, 7, 0x3ff, 0x400, 0x401, 0x2aaaa,
				 0x15555, (1U << 18) - 2, (1U << 18) - 1 };

static void uapi_waking_roundtrip(struct kunit *test)
{
	unsigned int p, c, w, ctx;

	for (p = 0; p < ARRAY_SIZE(uapi_pids); p++)
		for (c = 0; c < ARRAY_SIZE(uapi_cpus); c++)
			for (w = 0; w < ARRAY_SIZE(uapi_pids); w++)
				for (ctx = TIPME_CTX_TASK; ctx <= TIPME_CTX_NMI; ctx++) {
					struct tipme_rec_waking r;
					u32 pid = uapi_pids[p], cpu = uapi_cpus[c];
					u32 waker = uapi_pids[w];

					tipme_waking_pack(&r, pid, cpu, waker, ctx);
					KUNIT_EXPECT_EQ(test, tipme_waking_pid(&r), pid);
					KUNIT_EXPECT_EQ(test, tipme_waking_cpu(&r), cpu);
					KUNIT_EXPECT_EQ(test, tipme_waking_waker(&r), waker);
					KUNIT_EXPECT_EQ(test, tipme_waking_ctx(&r), (u32)ctx);
				}
}

static void uapi_waking_random(struct kunit *test)
{
	u64 state = 0x0123456789abcdefULL;
	unsigned int i;

	for (i = 0; i < 100000; i++) {
		u64 r = uapi_rand(&state);
		u32 pid = r & TIPME_PID_MASK;
		u32 cpu = (r >> 22) & ((1U << 18) - 1);
		u32 waker = (r >> 40) & TIPME_PID_MASK;
		u32 ctx = r >> 62;
		struct tipme_rec_waking w;

		tipme_waking_pack(&w, pid, cpu, waker, ctx);
		if (tipme_waking_pid(&w) != pid || tipme_waking_cpu(&w) != cpu ||
		    tipme_waking_waker(&w) != waker || tipme_waking_ctx(&w) != ctx) {
			KUNIT_FAIL(test, "pack(%u, %u, %u, %u) -> %08x %08x",
				   pid, cpu, waker, ctx, w.target, w.waker);
			return;
		}
	}
}

/* The word layout documented in the header. */
static void uapi_waking_layout(struct kunit *test)
{
	struct tipme_rec_waking w;

	tipme_waking_pack(&w, 0x3fffff, 0, 0, TIPME_CTX_TASK);
	KUNIT_EXPECT_EQ(test, w.target, 0x003fffffU);
	KUNIT_EXPECT_EQ(test, w.waker, 0U);

	tipme_waking_pack(&w, 0, 0x3ff, 0, TIPME_CTX_TASK);
	KUNIT_EXPECT_EQ(test, w.target, 0xffc00000U);
	KUNIT_EXPECT_EQ(test, w.waker, 0U);

	tipme_waking_pack(&w, 0, 0x3fc00, 0, TIPME_CTX_TASK);
	KUNIT_EXPECT_EQ(test, w.target, 0U);
	KUNIT_EXPECT_EQ(test, w.waker, 0xff000000U);

	tipme_waking_pack(&w, 0, 0, 0x3fffff, TIPME_CTX_NMI);
	KUNIT_EXPECT_EQ(test, w.target, 0U);
	KUNIT_EXPECT_EQ(test, w.waker, 0x00ffffffU);

	tipme_waking_pack(&w, 0, 0, 0, TIPME_CTX_HARDIRQ);
	KUNIT_EXPECT_EQ(test, w.waker, 0x00800000U);
}

/*
 * A compact switch gives back the 16-byte record the probe would have
 * written, for every state, the extreme pids and priorities, preempted or
 * not.
 */
static void uapi_switch_c_roundtrip(struct kunit *test)
{
	static const u32 pids[] = { 0, 1, 4242, 0x3fffff };
	static const u32 prios[] = { 0, 99, 120, 139, 255 };
	static const u32 states[] = {
		TIPME_TS_RUNNABLE, TIPME_TS_SLEEPING, TIPME_TS_DISK, TIPME_TS_IDLE,
		TIPME_TS_STOPPED, TIPME_TS_TRACED, TIPME_TS_PARKED, TIPME_TS_DEAD,
		TIPME_TS_ZOMBIE, TIPME_TS_RTLOCK, TIPME_TS_OTHER, TIPME_CSW_PREEMPTED,
	};
	size_t i, n = ARRAY_SIZE(pids) * ARRAY_SIZE(pids) * ARRAY_SIZE(prios) *
		      ARRAY_SIZE(prios) * ARRAY_SIZE(states);

	/* every combination: i in mixed radix */
	for (i = 0; i < n; i++) {
		size_t r = i, a, b, p, q, st;
		struct tipme_rec_switch_c c;
		struct tipme_rec_switch sw;
		bool pre;

		st = r % ARRAY_SIZE(states);
		r /= ARRAY_SIZE(states);
		q = r % ARRAY_SIZE(prios);
		r /= ARRAY_SIZE(prios);
		p = r % ARRAY_SIZE(prios);
		r /= ARRAY_SIZE(prios);
		b = r % ARRAY_SIZE(pids);
		a = r / ARRAY_SIZE(pids);
		pre = states[st] == TIPME_CSW_PREEMPTED;

		tipme_switch_c_pack(&c, pids[a], prios[p], pids[b], prios[q],
				    states[st]);
		tipme_switch_c_unpack(&c, &sw);
		if (sw.prev_pid != pids[a] || sw.next_pid != pids[b] ||
		    sw.prev_prio != prios[p] || sw.next_prio != prios[q] ||
		    sw.prev_state != (pre ? TIPME_TS_RUNNABLE : states[st]) ||
		    sw.flags != (pre ? TIPME_SWITCH_PREEMPT : 0)) {
			KUNIT_FAIL(test, "switch %u/%u -> %u/%u state %u: got %u/%u -> %u/%u state %u flags %u",
				   pids[a], prios[p], pids[b], prios[q], states[st],
				   sw.prev_pid, sw.prev_prio, sw.next_pid,
				   sw.next_prio, sw.prev_state, sw.flags);
			return;
		}
	}
	/* a short switch gives back every state it has a kind for */
	for (i = 0; i < ARRAY_SIZE(states); i++) {
		int site;

		for (site = 0; site < 2; site++) {
			int kind = tipme_switch_s_kind(states[i], site);
			struct tipme_rec_switch sw;
			bool pre = states[i] == TIPME_CSW_PREEMPTED;

			if (kind < 0)
				continue;
			tipme_switch_s_unpack(tipme_switch_s_word(0x3fffff, 139, kind),
					      site, 7, 99, &sw);
			KUNIT_EXPECT_EQ(test, sw.prev_pid, 7U);
			KUNIT_EXPECT_EQ(test, sw.prev_prio, 99);
			KUNIT_EXPECT_EQ(test, sw.next_pid, 0x3fffffU);
			KUNIT_EXPECT_EQ(test, sw.next_prio, 139);
			KUNIT_EXPECT_EQ(test, sw.prev_state,
					pre ? TIPME_TS_RUNNABLE : states[i]);
			KUNIT_EXPECT_EQ(test, sw.flags, pre ? TIPME_SWITCH_PREEMPT : 0);
		}
	}
	/* the common ways out have a short form: with a site, and without */
	KUNIT_EXPECT_GE(test, tipme_switch_s_kind(TIPME_CSW_PREEMPTED, 0), 0);
	KUNIT_EXPECT_GE(test, tipme_switch_s_kind(TIPME_TS_RUNNABLE, 0), 0);
	KUNIT_EXPECT_GE(test, tipme_switch_s_kind(TIPME_TS_IDLE, 1), 0);
	KUNIT_EXPECT_GE(test, tipme_switch_s_kind(TIPME_TS_DEAD, 1), 0);
	KUNIT_EXPECT_EQ(test, tipme_switch_s_kind(TIPME_TS_STOPPED, 1), -1);

	/* the short wakeup: target pid, context and cpu in one word */
	KUNIT_EXPECT_EQ(test, tipme_waking_c_word(0x3fffff, 255, TIPME_CTX_NMI),
			0xffffffffU);
	KUNIT_EXPECT_EQ(test, tipme_waking_c_word(7, 2, TIPME_CTX_SOFTIRQ),
			7U | 1U << 22 | 2U << 24);
}

/* Sizes are part of the dump format and of the ring's space accounting. */
static void uapi_sizes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_switch), (size_t)12);
	KUNIT_EXPECT_EQ(test, TIPME_HDR_SIZE + sizeof(struct tipme_rec_switch),
			(size_t)16);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_waking), (size_t)8);
	KUNIT_EXPECT_EQ(test, TIPME_HDR_SIZE + sizeof(struct tipme_rec_waking),
			(size_t)12);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_clock_pair), (size_t)32);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_cpu_stats), (size_t)48);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_file_header), (size_t)72);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_section), (size_t)24);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_subbuf), (size_t)16);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rectype),
			(size_t)(4 + TIPME_RECTYPE_NAME_LEN));
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_sym), (size_t)16);
	/* the compact forms: 12, 8 and 8 bytes with the header */
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_switch_c), (size_t)8);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_waking_c), (size_t)4);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_site), (size_t)4);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_switch_s), (size_t)4);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_switch_site_s), (size_t)8);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_site), (size_t)8);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_sitetab_hdr), (size_t)32);
	/* work items and interrupt context: 16, 8 and 8 bytes with the header */
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_work), (size_t)12);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_work_end), (size_t)4);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_intr), (size_t)4);
	/* user-space chains: 8 (compact) and 12 bytes with the header */
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_ustack_c), (size_t)4);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_ustack), (size_t)8);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_ustack), (size_t)16);
	/* profiler samples: 8 and 12 bytes (compact), 16 and 12 with the header */
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_prof_u), (size_t)4);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_prof_c), (size_t)8);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_prof), (size_t)12);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_prof_rate), (size_t)8);
	/* display and GPU: 20, 24, 28 and 64 bytes with the header */
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_vblank), (size_t)16);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_vblank_ev), (size_t)20);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_fence), (size_t)24);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_fence_name), (size_t)60);

	/* Records stay 4-byte multiples, so records stay 4-byte aligned. */
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_switch) % 4, (size_t)0);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_waking) % 4, (size_t)0);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_clock_pair) % 4, (size_t)0);
	KUNIT_EXPECT_EQ(test, TIPME_HDR_EXT_SIZE % 4, 0);

	/* 64-bit fields sit on 8-byte offsets in the file structures. */
	KUNIT_EXPECT_EQ(test, offsetof(struct tipme_file_header, tsc_khz), (size_t)24);
	KUNIT_EXPECT_EQ(test, offsetof(struct tipme_file_header, file_size), (size_t)48);
	KUNIT_EXPECT_EQ(test, offsetof(struct tipme_section, size), (size_t)8);
	KUNIT_EXPECT_EQ(test, offsetof(struct tipme_cpu_stats, written), (size_t)8);
	KUNIT_EXPECT_EQ(test, offsetof(struct tipme_clock_pair, err_ts), (size_t)24);
}

static void uapi_constants(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(TIPME_FILE_MAGIC) - 1, (size_t)8);
	/* Every record type fits the 7 type bits of the header word. */
	KUNIT_EXPECT_EQ(test, (u32)TIPME_REC_TYPE_LIMIT, TIPME_HDR_TYPE_MASK + 1);
	KUNIT_EXPECT_LE(test, (int)TIPME_REC_NR, TIPME_REC_TYPE_LIMIT);
	KUNIT_EXPECT_EQ(test, TIPME_PID_MASK, (1U << 22) - 1);
	KUNIT_EXPECT_EQ(test, TIPME_CMD_MAX, __TIPME_CMD_MAX - 1);
	KUNIT_EXPECT_EQ(test, TIPME_ATTR_MAX, __TIPME_ATTR_MAX - 1);
}

struct uapi_rectype {
	unsigned int nr;
	size_t size;
	unsigned int flags;
	const char *name;
};

#define UAPI_RECTYPE(nr, id, st, n, len, family) \
	{ TIPME_REC_##id, sizeof(st), TIPME_RECTYPE_##len, n },

static const struct uapi_rectype uapi_types[] = {
	TIPME_REC_TYPES(UAPI_RECTYPE)
};

static const struct uapi_rectype uapi_test_types[] = {
	{ TIPME_REC_NR, 0, 0, "" },	/* the types below: above the module's */
	TIPME_REC_TEST_TYPES(UAPI_RECTYPE)
};

/* TIPME_REC_TYPES: one entry per number, in order, each fit for the table. */
static void uapi_rectype_list(struct kunit *test)
{
	const struct uapi_rectype *t;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(uapi_types); i++) {
		t = &uapi_types[i];
		KUNIT_EXPECT_GT(test, t->nr, i ? uapi_types[i - 1].nr : 0U);
		KUNIT_EXPECT_LT(test, strlen(t->name), (size_t)TIPME_RECTYPE_NAME_LEN);
		KUNIT_EXPECT_GT(test, strlen(t->name), (size_t)0);
		if (!(t->flags & TIPME_RECTYPE_VARLEN))
			KUNIT_EXPECT_EQ(test, t->size % 4, (size_t)0);
		KUNIT_EXPECT_LE(test, t->size, (size_t)U16_MAX);
	}
	/* TIPME_REC_NR is one past the last type the module writes */
	KUNIT_EXPECT_EQ(test, (unsigned int)TIPME_REC_NR,
			uapi_types[ARRAY_SIZE(uapi_types) - 1].nr + 1);
	/* the tests' types lie above those, below the type bits' limit */
	for (i = 1; i < ARRAY_SIZE(uapi_test_types); i++) {
		KUNIT_EXPECT_GT(test, uapi_test_types[i].nr, uapi_test_types[i - 1].nr);
		KUNIT_EXPECT_LT(test, uapi_test_types[i].nr, (unsigned int)TIPME_REC_TYPE_LIMIT);
	}
}

static struct kunit_case tipme_uapi_cases[] = {
	KUNIT_CASE(uapi_switch_c_roundtrip),
	KUNIT_CASE(uapi_hdr_roundtrip),
	KUNIT_CASE(uapi_hdr_layout),
	KUNIT_CASE(uapi_ts_extend_no_wrap),
	KUNIT_CASE(uapi_ts_extend_at_wrap),
	KUNIT_CASE(uapi_ts_extend_past_wrap),
	KUNIT_CASE(uapi_ts_extend_sequence),
	KUNIT_CASE(uapi_waking_roundtrip),
	KUNIT_CASE(uapi_waking_random),
	KUNIT_CASE(uapi_waking_layout),
	KUNIT_CASE(uapi_sizes),
	KUNIT_CASE(uapi_rectype_list),
	KUNIT_CASE(uapi_constants),
	{}
};

static struct kunit_suite tipme_uapi_suite = {
	.name = "tipme_uapi",
	.test_cases = tipme_uapi_cases,
};

kunit_test_suite(tipme_uapi_suite);

MODULE_DESCRIPTION("KUnit tests for the tipme UAPI header");
MODULE_LICENSE("GPL");
