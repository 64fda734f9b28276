// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_exectab: the exec table's retention and eviction, pid
 * reuse, string slots and the dump encoding of an entry.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "instr/exectab.h"

struct xt_fixture {
	struct tipme_xt t;
};

/* A table of @cap entries, @nstr string slots, 8-byte path, 16-byte argv. */
static struct tipme_xt *make(struct kunit *test, u32 cap, u32 nstr,
			     u64 retention)
{
	struct xt_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_EQ(test, tipme_xt_init(&f->t, cap, nstr, 8, 16, 0,
					    retention), 0);
	test->priv = f;
	return &f->t;
}

static void xt_test_exit(struct kunit *test)
{
	struct xt_fixture *f = test->priv;

	if (f)
		tipme_xt_free(&f->t);
}

/* The entry (live or exited) with this pid and id, or NULL. */
static struct tipme_xt_ent *find(struct tipme_xt *t, u32 pid, u32 id)
{
	u32 i;

	for (i = 0; i < t->cap; i++)
		if (t->ents[i].id && t->ents[i].pid == pid &&
		    (!id || t->ents[i].id == id))
			return &t->ents[i];
	return NULL;
}

static u32 in_use(struct tipme_xt *t)
{
	u32 i, n = 0;

	for (i = 0; i < t->cap; i++)
		n += !!t->ents[i].id;
	return n;
}

static void exectab_new_lookup(struct kunit *test)
{
	struct tipme_xt *t = make(test, 8, 4, 100);
	struct tipme_xt_ent *a, *b;

	raw_spin_lock(&t->lock);
	a = tipme_xt_new(t, 10, 10, 1, true);
	b = tipme_xt_new(t, 11, 10, 2, false);
	raw_spin_unlock(&t->lock);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, a->id, 1U);
	KUNIT_EXPECT_EQ(test, b->id, 2U);
	KUNIT_EXPECT_GE(test, a->str, 0);
	KUNIT_EXPECT_EQ(test, b->str, -1);
	KUNIT_EXPECT_PTR_EQ(test, tipme_xt_lookup(t, 10), a);
	KUNIT_EXPECT_PTR_EQ(test, tipme_xt_lookup(t, 11), b);
	KUNIT_EXPECT_NULL(test, tipme_xt_lookup(t, 12));
	KUNIT_EXPECT_EQ(test, t->live, 2U);
	KUNIT_EXPECT_EQ(test, a->start_ts, 1ULL);
}

/* Exited entries stay exactly until their retention runs out. */
static void exectab_retention(struct kunit *test)
{
	struct tipme_xt *t = make(test, 8, 4, 100);
	struct tipme_xt_ent *e;
	u32 id;

	raw_spin_lock(&t->lock);
	e = tipme_xt_new(t, 10, 10, 0, true);
	KUNIT_ASSERT_NOT_NULL(test, e);
	id = e->id;
	tipme_xt_retire(t, e, 50, 0, 256);
	KUNIT_EXPECT_NULL(test, tipme_xt_lookup(t, 10));
	KUNIT_EXPECT_EQ(test, tipme_xt_gc(t, 149), 0U);
	e = find(t, 10, id);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_TRUE(test, e->flags & TIPME_EXEC_EXITED);
	KUNIT_EXPECT_EQ(test, e->exit_ts, 50ULL);
	KUNIT_EXPECT_EQ(test, e->exit_code, 256);
	KUNIT_EXPECT_EQ(test, tipme_xt_gc(t, 150), 1U);
	raw_spin_unlock(&t->lock);
	KUNIT_EXPECT_NULL(test, find(t, 10, id));
	KUNIT_EXPECT_EQ(test, in_use(t), 0U);
	KUNIT_EXPECT_EQ(test, t->exited, 0U);
	KUNIT_EXPECT_EQ(test, t->str_free >= 0, true);	/* slot given back */
	KUNIT_EXPECT_EQ(test, t->evicted, 0ULL);
}

/* gc frees in exit order, not in the order entries were made. */
static void exectab_gc_order(struct kunit *test)
{
	struct tipme_xt *t = make(test, 8, 0, 100);
	struct tipme_xt_ent *e[3];
	int i;

	raw_spin_lock(&t->lock);
	for (i = 0; i < 3; i++) {
		e[i] = tipme_xt_new(t, 20 + i, 20 + i, i, false);
		KUNIT_ASSERT_NOT_NULL(test, e[i]);
	}
	tipme_xt_retire(t, e[2], 10, 0, 0);
	tipme_xt_retire(t, e[0], 20, 0, 0);
	tipme_xt_retire(t, e[1], 30, 0, 0);
	KUNIT_EXPECT_EQ(test, tipme_xt_gc(t, 115), 1U);
	KUNIT_EXPECT_NULL(test, find(t, 22, 0));
	KUNIT_EXPECT_NOT_NULL(test, find(t, 20, 0));
	KUNIT_EXPECT_EQ(test, tipme_xt_gc(t, 125), 1U);
	KUNIT_EXPECT_NULL(test, find(t, 20, 0));
	KUNIT_EXPECT_NOT_NULL(test, find(t, 21, 0));
	KUNIT_EXPECT_EQ(test, tipme_xt_gc(t, 1000), 1U);
	raw_spin_unlock(&t->lock);
	KUNIT_EXPECT_EQ(test, in_use(t), 0U);
}

/*
 * A full table evicts the entry that exited first, before its retention
 * ran out, and counts it; with only live entries a new one is dropped.
 */
static void exectab_eviction(struct kunit *test)
{
	struct tipme_xt *t = make(test, 4, 0, 1000000);
	struct tipme_xt_ent *e;
	int i;

	raw_spin_lock(&t->lock);
	for (i = 1; i <= 4; i++)
		KUNIT_ASSERT_NOT_NULL(test, tipme_xt_new(t, i, i, i, false));
	KUNIT_EXPECT_NULL(test, tipme_xt_new(t, 5, 5, 5, false));
	KUNIT_EXPECT_EQ(test, t->dropped, 1ULL);
	tipme_xt_retire(t, tipme_xt_lookup(t, 2), 10, 0, 0);
	tipme_xt_retire(t, tipme_xt_lookup(t, 1), 20, 0, 0);
	e = tipme_xt_new(t, 6, 6, 30, false);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, t->evicted, 1ULL);
	KUNIT_EXPECT_NULL(test, find(t, 2, 0));		/* exited first */
	KUNIT_EXPECT_NOT_NULL(test, find(t, 1, 0));
	KUNIT_EXPECT_NOT_NULL(test, tipme_xt_new(t, 7, 7, 40, false));
	KUNIT_EXPECT_EQ(test, t->evicted, 2ULL);
	KUNIT_EXPECT_NULL(test, find(t, 1, 0));
	/* Live entries are never evicted. */
	KUNIT_EXPECT_NULL(test, tipme_xt_new(t, 8, 8, 50, false));
	KUNIT_EXPECT_EQ(test, t->dropped, 2ULL);
	for (i = 3; i <= 7; i++)
		if (i != 5)
			KUNIT_EXPECT_NOT_NULL(test, tipme_xt_lookup(t, i));
	raw_spin_unlock(&t->lock);
}

/* A live entry whose pid comes again was an exit we missed. */
static void exectab_pid_reuse(struct kunit *test)
{
	struct tipme_xt *t = make(test, 8, 0, 100);
	struct tipme_xt_ent *a, *b;
	u32 aid;

	raw_spin_lock(&t->lock);
	a = tipme_xt_new(t, 7, 7, 1, false);
	KUNIT_ASSERT_NOT_NULL(test, a);
	aid = a->id;
	b = tipme_xt_new(t, 7, 7, 5, false);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_PTR_EQ(test, tipme_xt_lookup(t, 7), b);
	a = find(t, 7, aid);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_TRUE(test, a->flags & TIPME_EXEC_EXIT_UNSEEN);
	KUNIT_EXPECT_TRUE(test, a->flags & TIPME_EXEC_EXITED);
	KUNIT_EXPECT_EQ(test, a->exit_ts, 5ULL);
	raw_spin_unlock(&t->lock);
}

/* Strings are truncated and flagged, and a fork copies them. */
static void exectab_strings(struct kunit *test)
{
	static const char argv[] = "ls\0-l\0--color=auto\0/tmp";	/* 25 bytes */
	struct tipme_xt *t = make(test, 8, 4, 100);
	struct tipme_xt_ent *e, *c;
	struct tipme_exec *x;
	char *buf, *p;
	size_t n;

	buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	raw_spin_lock(&t->lock);
	e = tipme_xt_new(t, 30, 30, 1, true);
	KUNIT_ASSERT_NOT_NULL(test, e);
	strscpy(e->comm, "ls", sizeof(e->comm));
	tipme_xt_set_strings(t, e, "/usr/bin/ls", 11, argv, sizeof(argv), NULL, 0);
	KUNIT_EXPECT_EQ(test, e->exe_len, 8);		/* exe_max */
	KUNIT_EXPECT_EQ(test, e->argv_len, 16);		/* argv_max */
	KUNIT_EXPECT_TRUE(test, e->flags & TIPME_EXEC_ARGV_TRUNC);
	KUNIT_EXPECT_FALSE(test, e->flags & TIPME_EXEC_ENV);
	n = tipme_xt_serialize(t, e, buf, 512);
	KUNIT_EXPECT_EQ(test, n, tipme_xt_entry_size(e));
	KUNIT_EXPECT_EQ(test, n % 8, 0UL);
	KUNIT_EXPECT_EQ(test, n, ALIGN(sizeof(*x) + 8 + 16, 8));
	KUNIT_EXPECT_EQ(test, tipme_xt_serialize(t, e, buf, n - 1), 0UL);
	x = (struct tipme_exec *)buf;
	KUNIT_EXPECT_EQ(test, x->size, (u32)n);
	KUNIT_EXPECT_EQ(test, x->pid, 30U);
	KUNIT_EXPECT_STREQ(test, x->comm, "ls");
	p = (char *)(x + 1);
	KUNIT_EXPECT_EQ(test, memcmp(p, "/usr/bin", 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(p + 8, argv, 16), 0);
	c = tipme_xt_new(t, 31, 31, 2, true);
	KUNIT_ASSERT_NOT_NULL(test, c);
	tipme_xt_copy_strings(t, c, e);
	KUNIT_EXPECT_EQ(test, c->argv_len, e->argv_len);
	KUNIT_EXPECT_TRUE(test, c->flags & TIPME_EXEC_ARGV_TRUNC);
	KUNIT_EXPECT_EQ(test, memcmp(tipme_xt_str(t, c), tipme_xt_str(t, e),
				     t->str_size), 0);
	raw_spin_unlock(&t->lock);
}

/*
 * With no free string slot, the oldest exited process gives up its own and
 * stays in the table without its strings.
 */
static void exectab_string_slots(struct kunit *test)
{
	struct tipme_xt *t = make(test, 8, 2, 1000000);
	struct tipme_xt_ent *a, *b, *c, *d;

	raw_spin_lock(&t->lock);
	a = tipme_xt_new(t, 1, 1, 1, true);
	b = tipme_xt_new(t, 2, 2, 2, true);
	c = tipme_xt_new(t, 3, 3, 3, true);
	KUNIT_ASSERT_TRUE(test, a && b && c);
	KUNIT_EXPECT_GE(test, a->str, 0);
	KUNIT_EXPECT_GE(test, b->str, 0);
	KUNIT_EXPECT_EQ(test, c->str, -1);		/* none left */
	tipme_xt_set_strings(t, c, "x", 1, "x", 2, NULL, 0);
	KUNIT_EXPECT_TRUE(test, c->flags & TIPME_EXEC_ARGV_LOST);
	tipme_xt_retire(t, a, 10, 0, 0);
	d = tipme_xt_new(t, 4, 4, 20, true);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_EXPECT_GE(test, d->str, 0);
	KUNIT_EXPECT_EQ(test, t->evicted, 0ULL);
	KUNIT_EXPECT_EQ(test, t->strings_evicted, 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, find(t, 1, 0), a);
	KUNIT_EXPECT_EQ(test, a->str, -1);
	KUNIT_EXPECT_EQ(test, (u32)a->argv_len, 0U);
	KUNIT_EXPECT_TRUE(test, a->flags & TIPME_EXEC_STRINGS_EVICTED);
	raw_spin_unlock(&t->lock);
}

/*
 * A storm of short processes, each retired before the next, with threads
 * between them: with 4 string slots for 64 entries, every new process
 * still gets a slot (taken from the oldest exited process that has one,
 * however many without one exited before it), and the table fills up
 * with entries instead of being emptied for their slots.
 */
static void exectab_string_storm(struct kunit *test)
{
	struct tipme_xt *t = make(test, 64, 4, 1000000);
	struct tipme_xt_ent *e;
	u32 i, used;

	raw_spin_lock(&t->lock);
	for (i = 0; i < 300; i++) {
		e = tipme_xt_new(t, 1000 + i, 1000 + i, 10 + i, !(i % 3 == 2));
		KUNIT_ASSERT_NOT_NULL(test, e);
		if (i % 3 != 2)
			KUNIT_EXPECT_GE_MSG(test, e->str, 0, "process %u", i);
		tipme_xt_retire(t, e, 10 + i, 0, 0);
	}
	used = in_use(t);
	KUNIT_EXPECT_EQ(test, used, 64U);
	KUNIT_EXPECT_EQ(test, t->strings_evicted, 200ULL - 4);
	KUNIT_EXPECT_EQ(test, t->evicted, 300ULL - 64);
	raw_spin_unlock(&t->lock);
}

/* Retiring twice (exit seen after an exec retired it) changes nothing. */
static void exectab_retire_once(struct kunit *test)
{
	struct tipme_xt *t = make(test, 4, 0, 100);
	struct tipme_xt_ent *e;

	raw_spin_lock(&t->lock);
	e = tipme_xt_new(t, 9, 9, 1, false);
	KUNIT_ASSERT_NOT_NULL(test, e);
	tipme_xt_retire(t, e, 5, TIPME_EXEC_REPLACED, 0);
	tipme_xt_retire(t, e, 7, 0, 3);
	KUNIT_EXPECT_EQ(test, e->exit_ts, 5ULL);
	KUNIT_EXPECT_EQ(test, e->exit_code, 0);
	KUNIT_EXPECT_EQ(test, t->exited, 1U);
	KUNIT_EXPECT_EQ(test, t->live, 0U);
	raw_spin_unlock(&t->lock);
}

static struct kunit_case exectab_cases[] = {
	KUNIT_CASE(exectab_new_lookup),
	KUNIT_CASE(exectab_retention),
	KUNIT_CASE(exectab_gc_order),
	KUNIT_CASE(exectab_eviction),
	KUNIT_CASE(exectab_pid_reuse),
	KUNIT_CASE(exectab_strings),
	KUNIT_CASE(exectab_string_slots),
	KUNIT_CASE(exectab_string_storm),
	KUNIT_CASE(exectab_retire_once),
	{}
};

static struct kunit_suite exectab_suite = {
	.name = "tipme_exectab",
	.exit = xt_test_exit,
	.test_cases = exectab_cases,
};

kunit_test_suite(exectab_suite);

MODULE_LICENSE("GPL");
