// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_sampler: the encoding of a thread's sample entry, the
 * rule deciding what a round writes, and the sampler's per-thread table.
 */
#include <kunit/test.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "instr/smptab.h"

static void sampler_word(struct kunit *test)
{
	u32 w = tipme_smp_word(TIPME_PID_MASK, TIPME_TS_OTHER, SCHED_DEADLINE, 1);

	KUNIT_EXPECT_EQ(test, tipme_smp_pid(w), TIPME_PID_MASK);
	KUNIT_EXPECT_EQ(test, tipme_smp_state(w), (u32)TIPME_TS_OTHER);
	KUNIT_EXPECT_EQ(test, tipme_smp_policy(w), (u32)SCHED_DEADLINE);
	KUNIT_EXPECT_TRUE(test, tipme_smp_oncpu(w));
	w = tipme_smp_word(1234, TIPME_TS_DISK, SCHED_FIFO, 0);
	KUNIT_EXPECT_EQ(test, tipme_smp_pid(w), 1234U);
	KUNIT_EXPECT_EQ(test, tipme_smp_state(w), (u32)TIPME_TS_DISK);
	KUNIT_EXPECT_EQ(test, tipme_smp_policy(w), (u32)SCHED_FIFO);
	KUNIT_EXPECT_FALSE(test, tipme_smp_oncpu(w));
	/* Fields do not bleed into each other. */
	w = tipme_smp_word(0xffffffff, 0xff, 0xff, 0);
	KUNIT_EXPECT_EQ(test, tipme_smp_pid(w), TIPME_PID_MASK);
	KUNIT_EXPECT_EQ(test, tipme_smp_state(w), 15U);
	KUNIT_EXPECT_EQ(test, tipme_smp_policy(w), 7U);
	KUNIT_EXPECT_FALSE(test, tipme_smp_oncpu(w));
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_sample_ent), 16UL);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_rec_sample), 8UL);
	/* the sampler's table at the dump: no padding a reader would miss */
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_smpsnap_hdr), 32UL);
	KUNIT_EXPECT_EQ(test, sizeof(struct tipme_smpsnap_ent), 32UL);
}

static struct tipme_smp_task task(u32 pid, u8 state, u64 runtime)
{
	return (struct tipme_smp_task){
		.pid = pid, .tgid = 100, .state = state, .policy = SCHED_NORMAL,
		.prio = 120, .cpu = 1, .runtime = runtime, .start_ns = 5000,
	};
}

static void sampler_rules(struct kunit *test)
{
	struct tipme_smp_ent e = { .pid = 101 };
	struct tipme_smp_task s = task(101, TIPME_TS_SLEEPING, 7000);
	struct tipme_sample_ent out;

	/* New: written, with the CPU time since the thread started. */
	KUNIT_ASSERT_TRUE(test, tipme_smp_update(&e, &s, false, 1, &out));
	KUNIT_EXPECT_EQ(test, (u32)out.flags, (u32)TIPME_SMP_NEW);
	KUNIT_EXPECT_EQ(test, out.runtime, 7000U);
	KUNIT_EXPECT_EQ(test, out.tgid, 100U);
	KUNIT_EXPECT_EQ(test, out.cpu, 1);
	KUNIT_EXPECT_EQ(test, out.prio, 120);
	KUNIT_EXPECT_EQ(test, tipme_smp_state(out.word), (u32)TIPME_TS_SLEEPING);
	/* Unchanged: not written, but marked as looked at. */
	KUNIT_EXPECT_FALSE(test, tipme_smp_update(&e, &s, false, 2, &out));
	KUNIT_EXPECT_EQ(test, e.round, 2U);
	/* Unchanged in a full round: written, runtime 0, not new. */
	KUNIT_ASSERT_TRUE(test, tipme_smp_update(&e, &s, true, 3, &out));
	KUNIT_EXPECT_EQ(test, out.runtime, 0U);
	KUNIT_EXPECT_EQ(test, (u32)out.flags, 0U);
	/* Ran: written with the CPU time since its last entry. */
	s.runtime = 9500;
	KUNIT_ASSERT_TRUE(test, tipme_smp_update(&e, &s, false, 4, &out));
	KUNIT_EXPECT_EQ(test, out.runtime, 2500U);
	/*
	 * Ran and switched: the switch records say when, so no entry; the
	 * next entry holds the CPU time of both rounds.
	 */
	s.runtime = 9900;
	KUNIT_EXPECT_FALSE(test, tipme_smp_update(&e, &s, TIPME_SMPU_SWITCHED, 4, &out));
	s.runtime = 10000;
	KUNIT_ASSERT_TRUE(test, tipme_smp_update(&e, &s, 0, 4, &out));
	KUNIT_EXPECT_EQ(test, out.runtime, 500U);
	/* ... but a switched thread whose state changed is written. */
	s.state = TIPME_TS_DISK;
	KUNIT_EXPECT_TRUE(test, tipme_smp_update(&e, &s, TIPME_SMPU_SWITCHED, 4, &out));
	s.state = TIPME_TS_SLEEPING;
	KUNIT_EXPECT_TRUE(test, tipme_smp_update(&e, &s, TIPME_SMPU_SWITCHED, 4, &out));
	/* Each field on its own makes an entry. */
	s.state = TIPME_TS_DISK;
	KUNIT_EXPECT_TRUE(test, tipme_smp_update(&e, &s, false, 5, &out));
	KUNIT_EXPECT_EQ(test, tipme_smp_state(out.word), (u32)TIPME_TS_DISK);
	KUNIT_EXPECT_EQ(test, out.runtime, 0U);
	s.on_cpu = true;
	KUNIT_EXPECT_TRUE(test, tipme_smp_update(&e, &s, false, 6, &out));
	KUNIT_EXPECT_TRUE(test, tipme_smp_oncpu(out.word));
	s.cpu = 0;
	KUNIT_EXPECT_TRUE(test, tipme_smp_update(&e, &s, false, 7, &out));
	s.prio = 100;
	KUNIT_EXPECT_TRUE(test, tipme_smp_update(&e, &s, false, 8, &out));
	s.policy = SCHED_FIFO;
	KUNIT_EXPECT_TRUE(test, tipme_smp_update(&e, &s, false, 9, &out));
	KUNIT_EXPECT_EQ(test, tipme_smp_policy(out.word), (u32)SCHED_FIFO);
	s.tgid = 101;
	KUNIT_EXPECT_TRUE(test, tipme_smp_update(&e, &s, false, 10, &out));
	KUNIT_EXPECT_FALSE(test, tipme_smp_update(&e, &s, false, 11, &out));
	/* A reused pid (another start time) is new again. */
	s.start_ns = 6000;
	s.runtime = 300;
	KUNIT_ASSERT_TRUE(test, tipme_smp_update(&e, &s, false, 12, &out));
	KUNIT_EXPECT_EQ(test, (u32)out.flags, (u32)TIPME_SMP_NEW);
	KUNIT_EXPECT_EQ(test, out.runtime, 300U);
}

static void sampler_runtime_saturates(struct kunit *test)
{
	struct tipme_smp_ent e = { .pid = 5 };
	struct tipme_smp_task s = task(5, TIPME_TS_RUNNABLE, 1);
	struct tipme_sample_ent out;

	KUNIT_ASSERT_TRUE(test, tipme_smp_update(&e, &s, false, 1, &out));
	s.runtime += 5ULL * NSEC_PER_SEC;	/* more than a __u32 of ns */
	KUNIT_ASSERT_TRUE(test, tipme_smp_update(&e, &s, false, 2, &out));
	KUNIT_EXPECT_EQ(test, out.runtime, U32_MAX);
	KUNIT_EXPECT_EQ(test, (u32)out.flags, (u32)TIPME_SMP_RUNTIME_SAT);
	/* The baseline moved on all the same. */
	s.runtime += 10;
	KUNIT_ASSERT_TRUE(test, tipme_smp_update(&e, &s, false, 3, &out));
	KUNIT_EXPECT_EQ(test, out.runtime, 10U);
}

/* Inserts and deletes (backward shift) keep every other entry findable. */
static void sampler_table(struct kunit *test)
{
	struct tipme_smptab t;
	struct tipme_smp_ent *e;
	u32 *pids, i, n = 600;
	bool *gone;

	KUNIT_ASSERT_EQ(test, tipme_smptab_init(&t, 1000), 0);
	pids = kunit_kcalloc(test, n, sizeof(*pids), GFP_KERNEL);
	gone = kunit_kcalloc(test, n, sizeof(*gone), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, pids && gone);
	for (i = 0; i < n; i++) {
		/* Clustered pids collide in the hash. */
		pids[i] = 1 + i * (i % 3 ? 1 : 2048);
		e = tipme_smptab_get(&t, pids[i], true);
		KUNIT_ASSERT_NOT_NULL(test, e);
		e->tgid = pids[i] ^ 0x5555;
	}
	KUNIT_EXPECT_EQ(test, t.used, n);
	for (i = 0; i < n; i++) {
		if (get_random_u32() % 2)
			continue;
		e = tipme_smptab_get(&t, pids[i], false);
		KUNIT_ASSERT_NOT_NULL(test, e);
		tipme_smptab_del(&t, e);
		gone[i] = true;
	}
	for (i = 0; i < n; i++) {
		e = tipme_smptab_get(&t, pids[i], false);
		if (gone[i]) {
			KUNIT_EXPECT_NULL(test, e);
		} else {
			KUNIT_ASSERT_NOT_NULL(test, e);
			KUNIT_EXPECT_EQ(test, e->tgid, pids[i] ^ 0x5555);
		}
	}
	tipme_smptab_free(&t);
}

/* A full round forgets the threads it did not see; the table has a limit. */
static void sampler_sweep_and_limit(struct kunit *test)
{
	struct tipme_smptab t;
	struct tipme_smp_ent *e;
	u32 i;

	KUNIT_ASSERT_EQ(test, tipme_smptab_init(&t, 64), 0);
	for (i = 1; i <= 64; i++) {
		e = tipme_smptab_get(&t, i, true);
		KUNIT_ASSERT_NOT_NULL(test, e);
		e->round = i % 4 ? 7 : 6;
	}
	KUNIT_EXPECT_NULL(test, tipme_smptab_get(&t, 65, true));
	KUNIT_EXPECT_EQ(test, tipme_smptab_sweep(&t, 7), 16U);
	KUNIT_EXPECT_EQ(test, t.used, 48U);
	for (i = 1; i <= 64; i++) {
		if (i % 4)
			KUNIT_EXPECT_NOT_NULL(test, tipme_smptab_get(&t, i, false));
		else
			KUNIT_EXPECT_NULL(test, tipme_smptab_get(&t, i, false));
	}
	KUNIT_EXPECT_NOT_NULL(test, tipme_smptab_get(&t, 65, true));
	tipme_smptab_free(&t);
}

/*
 * A full table grows (what the sampler does after a round that skipped
 * threads): every entry is kept with its contents, and the new room is
 * there; the threads that did not fit before fit now.
 */
static void sampler_grow(struct kunit *test)
{
	struct tipme_smptab t;
	struct tipme_smp_ent *e;
	u32 i;

	KUNIT_ASSERT_EQ(test, tipme_smptab_init(&t, 20), 0);
	for (i = 1; i <= 20; i++) {
		e = tipme_smptab_get(&t, i * 7919, true);
		KUNIT_ASSERT_NOT_NULL(test, e);
		e->runtime = i;
		e->round = 3;
	}
	KUNIT_EXPECT_NULL(test, tipme_smptab_get(&t, 5, true));
	KUNIT_EXPECT_EQ(test, tipme_smptab_grow(&t, 20), -EINVAL);
	KUNIT_EXPECT_EQ(test, tipme_smptab_grow(&t, TIPME_SMPTAB_MAX + 1), -EINVAL);
	KUNIT_ASSERT_EQ(test, tipme_smptab_grow(&t, 40), 0);
	KUNIT_EXPECT_EQ(test, t.limit, 40U);
	KUNIT_EXPECT_EQ(test, t.used, 20U);
	KUNIT_EXPECT_EQ(test, t.mask + 1, 128U);
	for (i = 1; i <= 20; i++) {
		e = tipme_smptab_get(&t, i * 7919, false);
		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_EXPECT_EQ(test, e->runtime, (u64)i);
		KUNIT_EXPECT_EQ(test, e->round, 3U);
	}
	for (i = 1; i <= 20; i++)
		KUNIT_EXPECT_NOT_NULL(test, tipme_smptab_get(&t, i, true));
	KUNIT_EXPECT_NULL(test, tipme_smptab_get(&t, 21, true));
	/* Nothing was lost by the move: a sweep finds them all. */
	KUNIT_EXPECT_EQ(test, tipme_smptab_sweep(&t, 3), 20U);
	KUNIT_EXPECT_EQ(test, t.used, 20U);
	tipme_smptab_free(&t);
}

/* Full rounds come less often past their thread budget, never more often. */
static void sampler_full_every(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tipme_smp_full_every(1000, 0, 2048), 1000U);
	KUNIT_EXPECT_EQ(test, tipme_smp_full_every(1000, 2048, 2048), 1000U);
	KUNIT_EXPECT_EQ(test, tipme_smp_full_every(1000, 2049, 2048), 2000U);
	KUNIT_EXPECT_EQ(test, tipme_smp_full_every(1000, 20059, 2048), 10000U);
	KUNIT_EXPECT_EQ(test, tipme_smp_full_every(1000, 1U << 22, 0), 1000U);
	KUNIT_EXPECT_EQ(test, tipme_smp_full_every(U32_MAX / 2, 1U << 22, 1), U32_MAX);
}

static struct kunit_case sampler_cases[] = {
	KUNIT_CASE(sampler_word),
	KUNIT_CASE(sampler_rules),
	KUNIT_CASE(sampler_runtime_saturates),
	KUNIT_CASE(sampler_table),
	KUNIT_CASE(sampler_sweep_and_limit),
	KUNIT_CASE(sampler_grow),
	KUNIT_CASE(sampler_full_every),
	{}
};

static struct kunit_suite sampler_suite = {
	.name = "tipme_sampler",
	.test_cases = sampler_cases,
};

kunit_test_suite(sampler_suite);

MODULE_LICENSE("GPL");
