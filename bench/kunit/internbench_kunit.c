// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_internbench: numbering a call chain, timed on a real
 * CPU (User Mode Linux runs kernel code at the host's speed).
 *
 * CHAINS distinct chains of DEPTH addresses are numbered once, then looked
 * up LOOKUPS times in turn, as the sched_switch probe looks up a site or a
 * user chain seen before (the common case: a sleep through a known chain).
 * sitetab_hit goes through the site table's own entry point
 * (tipme_sitetab_intern(): 32-bit addresses); intern_ustack_hit keys the
 * generic table (instr/intern.c) as the user stack table and the profiler
 * do: a process and 64-bit addresses.  Each case prints "internbench: NAME
 * X ns/lookup" (hundredths); the test checks that every lookup found the
 * number its chain got first.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include "instr/intern.h"
#include "instr/sitetab.h"

#define CHAINS		1024u
#define DEPTH		8u
#define LOOKUPS		(4u << 20)
#define BATCH		4096u

static void report(struct kunit *test, const char *name, u64 ns, u32 n)
{
	u64 x100 = div_u64(ns * 100, n);

	kunit_info(test, "internbench: %s %llu.%02llu ns/lookup (%u lookups)\n",
		   name, x100 / 100, x100 % 100, n);
}

static void chain_of(u32 *ips, u32 c)
{
	u32 d;

	for (d = 0; d < DEPTH; d++)
		ips[d] = 0x81000000u + c * 0x40u + d * 0x1000u;
}

static void bench_sitetab_hit(struct kunit *test)
{
	u32 *ids = kunit_kcalloc(test, CHAINS, sizeof(u32), GFP_KERNEL);
	u32 ips[DEPTH], c, i, j, bad = 0;
	u64 t0, t1;

	KUNIT_ASSERT_NOT_NULL(test, ids);
	KUNIT_ASSERT_EQ(test, tipme_sitetab_init(8192, DEPTH), 0);
	for (c = 0; c < CHAINS; c++) {
		chain_of(ips, c);
		ids[c] = tipme_sitetab_intern(ips, DEPTH, false);
		KUNIT_EXPECT_NE(test, ids[c], 0u);
	}
	t0 = ktime_get_ns();
	for (i = 0; i < LOOKUPS; i += BATCH) {
		preempt_disable();
		for (j = 0; j < BATCH; j++) {
			c = (i + j) % CHAINS;
			chain_of(ips, c);
			bad += tipme_sitetab_intern(ips, DEPTH, false) != ids[c];
		}
		preempt_enable();
	}
	t1 = ktime_get_ns();
	tipme_sitetab_exit();
	KUNIT_EXPECT_EQ(test, bad, 0u);
	report(test, "sitetab_hit", t1 - t0, LOOKUPS);
}

/* A user chain's key: the process, then 64-bit addresses. */
struct ukey {
	u64 pid;
	u64 ip[DEPTH];
};

static void ukey_of(struct ukey *k, u32 c)
{
	u32 d;

	k->pid = 1000 + c % 7;
	for (d = 0; d < DEPTH; d++)
		k->ip[d] = 0x555500001000ull + c * 0x40u + d * 0x1000u;
}

static void bench_intern_ustack_hit(struct kunit *test)
{
	u32 *ids = kunit_kcalloc(test, CHAINS, sizeof(u32), GFP_KERNEL);
	struct tipme_intern *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	const unsigned int words = sizeof(struct ukey) / sizeof(u32);
	u32 c, i, j, bad = 0;
	struct ukey k;
	u64 t0, t1;

	KUNIT_ASSERT_NOT_NULL(test, ids);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, tipme_intern_init(t, 8192, words, "bench"), 0);
	for (c = 0; c < CHAINS; c++) {
		ukey_of(&k, c);
		ids[c] = tipme_intern(t, (const u32 *)&k, words, DEPTH);
		KUNIT_EXPECT_NE(test, ids[c], 0u);
	}
	t0 = ktime_get_ns();
	for (i = 0; i < LOOKUPS; i += BATCH) {
		preempt_disable();
		for (j = 0; j < BATCH; j++) {
			c = (i + j) % CHAINS;
			ukey_of(&k, c);
			bad += tipme_intern(t, (const u32 *)&k, words, DEPTH) != ids[c];
		}
		preempt_enable();
	}
	t1 = ktime_get_ns();
	tipme_intern_exit(t);
	KUNIT_EXPECT_EQ(test, bad, 0u);
	report(test, "intern_ustack_hit", t1 - t0, LOOKUPS);
}

static struct kunit_case internbench_cases[] = {
	KUNIT_CASE(bench_sitetab_hit),
	KUNIT_CASE(bench_intern_ustack_hit),
	{}
};

static struct kunit_suite internbench_suite = {
	.name = "tipme_internbench",
	.test_cases = internbench_cases,
};
kunit_test_suite(internbench_suite);

MODULE_LICENSE("GPL");
