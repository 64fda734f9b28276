// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_intern: the table of numbered keys behind the blocking
 * sites, the user-space chains and the profiler's chains (instr/intern.c):
 * one number per key, meta bits part of the key, keys of every length up
 * to the table's, a full table refusing and counting, no table at all, and
 * the dump's walk over what was published.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include "instr/intern.h"

struct intern_fixture {
	struct tipme_intern t;
};

static struct tipme_intern *make(struct kunit *test, unsigned int cap,
				 unsigned int words)
{
	struct intern_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_EQ(test, tipme_intern_init(&f->t, cap, words, "test"), 0);
	test->priv = f;
	return &f->t;
}

static void intern_test_exit(struct kunit *test)
{
	struct intern_fixture *f = test->priv;

	if (f)
		tipme_intern_exit(&f->t);
}

static void intern_same_key_same_number(struct kunit *test)
{
	struct tipme_intern *t = make(test, 64, 8);
	u32 a[3] = { 1, 2, 3 }, b[3] = { 1, 2, 4 };
	u32 ia, ib;

	ia = tipme_intern(t, a, 3, 3);
	ib = tipme_intern(t, b, 3, 3);
	KUNIT_EXPECT_GE(test, ia, 1u);
	KUNIT_EXPECT_LE(test, ia, 64u);
	KUNIT_EXPECT_GE(test, ib, 1u);
	KUNIT_EXPECT_NE(test, ia, ib);
	KUNIT_EXPECT_EQ(test, tipme_intern(t, a, 3, 3), ia);
	KUNIT_EXPECT_EQ(test, tipme_intern(t, b, 3, 3), ib);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->used), 2);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->refused), 0ll);
	KUNIT_EXPECT_EQ(test, tipme_intern_capacity(t), 64u);
}

static void intern_meta_and_length_are_key(struct kunit *test)
{
	struct tipme_intern *t = make(test, 64, 8);
	u32 k[4] = { 7, 7, 7, 7 };
	u32 i1, i2, i3;

	i1 = tipme_intern(t, k, 4, 4);
	i2 = tipme_intern(t, k, 4, 4 | 1 << 8);
	i3 = tipme_intern(t, k, 3, 4);
	KUNIT_EXPECT_NE(test, i1, 0u);
	KUNIT_EXPECT_NE(test, i2, 0u);
	KUNIT_EXPECT_NE(test, i3, 0u);
	KUNIT_EXPECT_NE(test, i1, i2);
	KUNIT_EXPECT_NE(test, i1, i3);
	KUNIT_EXPECT_NE(test, i2, i3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->used), 3);
}

static void intern_lengths(struct kunit *test)
{
	struct tipme_intern *t = make(test, 16, 5);
	u32 k[6] = { 1, 2, 3, 4, 5, 6 };

	KUNIT_EXPECT_EQ(test, tipme_intern(t, k, 0, 0), 0u);
	KUNIT_EXPECT_NE(test, tipme_intern(t, k, 1, 0), 0u);
	KUNIT_EXPECT_NE(test, tipme_intern(t, k, 5, 0), 0u);
	/* longer than the table's keys: no number, and not counted as full */
	KUNIT_EXPECT_EQ(test, tipme_intern(t, k, 6, 0), 0u);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->refused), 0ll);
}

static void intern_full_table_refuses(struct kunit *test)
{
	struct tipme_intern *t = make(test, 8, 2);
	u32 k[2], i, got = 0, zero = 0;

	for (i = 0; i < 32; i++) {
		k[0] = i;
		k[1] = ~i;
		if (tipme_intern(t, k, 2, 2))
			got++;
		else
			zero++;
	}
	KUNIT_EXPECT_EQ(test, got, 8u);
	KUNIT_EXPECT_EQ(test, zero, 24u);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->used), 8);
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->refused), 24ll);
	/* what is in keeps its number */
	for (i = 0; i < 32; i++) {
		k[0] = i;
		k[1] = ~i;
		if (tipme_intern(t, k, 2, 2))
			got--;
	}
	KUNIT_EXPECT_EQ(test, got, 0u);
}

static void intern_no_table(struct kunit *test)
{
	struct tipme_intern *t = make(test, 0, 4);
	u32 k[1] = { 1 }, pos = 0;

	KUNIT_EXPECT_EQ(test, tipme_intern_capacity(t), 0u);
	KUNIT_EXPECT_EQ(test, tipme_intern(t, k, 1, 1), 0u);
	KUNIT_EXPECT_NULL(test, tipme_intern_next(t, &pos));
}

static void intern_capacity_rounds_down(struct kunit *test)
{
	struct tipme_intern *t = make(test, 100, 1);

	KUNIT_EXPECT_EQ(test, tipme_intern_capacity(t), 64u);
	KUNIT_EXPECT_EQ(test, t->stride % 8, 0u);
}

static void intern_walk_sees_every_key(struct kunit *test)
{
	struct tipme_intern *t = make(test, 256, 4);
	const struct tipme_intern_ent *e;
	u32 ids[20], k[4], i, pos = 0, seen = 0, j;

	for (i = 0; i < 20; i++) {
		for (j = 0; j < 4; j++)
			k[j] = i * 3;
		ids[i] = tipme_intern(t, k, 1 + i % 4, i);
		KUNIT_ASSERT_NE(test, ids[i], 0u);
	}
	while ((e = tipme_intern_next(t, &pos))) {
		i = e->meta;
		KUNIT_ASSERT_LT(test, i, 20u);
		KUNIT_EXPECT_EQ(test, pos + 1, ids[i]);
		KUNIT_EXPECT_EQ(test, (u32)e->words, 1 + i % 4);
		for (j = 0; j < e->words; j++)
			KUNIT_EXPECT_EQ(test, e->key[j], i * 3);
		seen++;
		pos++;
	}
	KUNIT_EXPECT_EQ(test, seen, 20u);
	KUNIT_EXPECT_GT(test, pos, 255u);
}

static struct kunit_case intern_cases[] = {
	KUNIT_CASE(intern_same_key_same_number),
	KUNIT_CASE(intern_meta_and_length_are_key),
	KUNIT_CASE(intern_lengths),
	KUNIT_CASE(intern_full_table_refuses),
	KUNIT_CASE(intern_no_table),
	KUNIT_CASE(intern_capacity_rounds_down),
	KUNIT_CASE(intern_walk_sees_every_key),
	{}
};

static struct kunit_suite intern_suite = {
	.name = "tipme_intern",
	.exit = intern_test_exit,
	.test_cases = intern_cases,
};
kunit_test_suite(intern_suite);

MODULE_LICENSE("GPL");
