// SPDX-License-Identifier: GPL-2.0
/*
 * Numbered keys: the one table behind the blocking sites (sitetab.c), the
 * user-space chains (ustack.c) and the profiler's chains (profile.c).
 *
 * An open-addressing hash table, filled from probes on any CPU at once and
 * never emptied while the module is loaded, so a number stays valid for
 * every record that holds it.  A slot's @tag is 0 while empty,
 * INTERN_BUSY while the CPU that claimed it (with a cmpxchg) fills it in,
 * and the key's hash with the top bit set once it is published (a release
 * store: readers that see the tag see the key).  Lookups probe
 * INTERN_PROBES slots from the hash; two CPUs adding the same key at once
 * may give it two numbers, which is harmless.  When no slot is free the
 * caller records the key whole, and @refused counts it.
 *
 * A dump reads a table after the rings: a number in a record was
 * published before the record was written, so it is in the table read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "fault.h"
#include "instr/intern.h"

#define INTERN_BUSY		1U
#define INTERN_READY		0x80000000U
#define INTERN_PROBES		16

static inline struct tipme_intern_ent *slot(const struct tipme_intern *t,
					    u32 i)
{
	return (struct tipme_intern_ent *)(t->tab + (size_t)i * t->stride);
}

/**
 * tipme_intern_init() - allocate a table
 * @t: the table
 * @capacity: keys it can hold (rounded down to a power of two, at most
 *            TIPME_INTERN_MAX; 0: no table, tipme_intern() always says 0)
 * @words: the longest key, in 32-bit words
 * @what: its name for failure injection (fail_load_step)
 *
 * Context: process context (module init).
 * Return: 0 or -ENOMEM.
 */
int tipme_intern_init(struct tipme_intern *t, unsigned int capacity,
		      unsigned int words, const char *what)
{
	t->tab = NULL;
	t->mask = 0;
	t->words = words;
	atomic_set(&t->used, 0);
	atomic64_set(&t->refused, 0);
	if (!capacity || !words)
		return 0;
	capacity = rounddown_pow_of_two(min_t(unsigned int, capacity,
					      TIPME_INTERN_MAX));
	t->stride = ALIGN(sizeof(struct tipme_intern_ent) + words * sizeof(u32),
			  sizeof(u64));
	t->tab = tipme_fail_step(what) ? NULL :
		 vzalloc(array_size(capacity, t->stride));
	if (!t->tab)
		return -ENOMEM;
	t->mask = capacity - 1;
	return 0;
}

/**
 * tipme_intern_exit() - free a table
 * @t: the table
 *
 * Context: process context; nothing calls tipme_intern() on it any more.
 */
void tipme_intern_exit(struct tipme_intern *t)
{
	vfree(t->tab);
	t->tab = NULL;
}

/**
 * tipme_intern_new() - the number of a key, and whether it is new
 * @t: the table
 * @key: the key
 * @words: its length in 32-bit words (1 to the table's @words)
 * @meta: 16 more bits of key, kept apart (a chain's length and flags)
 * @fresh: set if this call gave the key its number
 *
 * Context: any, never sleeps; called with preemption disabled.
 * Return: the key's number (1 or more), or 0 if the table has none for it
 * and no room (or there is no table).
 */
u32 tipme_intern_new(struct tipme_intern *t, const u32 *key,
		     unsigned int words, u16 meta, bool *fresh)
{
	struct tipme_intern_ent *e;
	u32 h, tag, v, i, s;

	*fresh = false;
	if (!t->tab || !words || words > t->words)
		return 0;
	h = jhash2(key, words, words | (u32)meta << 8);
	tag = h | INTERN_READY;
	for (i = 0; i < INTERN_PROBES; i++) {
		s = (h + i) & t->mask;
		e = slot(t, s);
		/* The tag before the key it publishes. */
		v = smp_load_acquire(&e->tag);
		if (!v) {
			if (cmpxchg(&e->tag, 0, INTERN_BUSY) != 0)
				continue;	/* another CPU took it */
			e->words = words;
			e->meta = meta;
			memcpy(e->key, key, words * sizeof(u32));
			/* The key before the tag that publishes it. */
			smp_store_release(&e->tag, tag);
			atomic_inc(&t->used);
			*fresh = true;
			return s + 1;
		}
		if (v == tag && e->words == words && e->meta == meta &&
		    !memcmp(e->key, key, words * sizeof(u32)))
			return s + 1;
	}
	atomic64_inc(&t->refused);
	return 0;
}

/**
 * tipme_intern() - the number of a key
 * @t: the table
 * @key: the key
 * @words: its length in 32-bit words (1 to the table's @words)
 * @meta: 16 more bits of key, kept apart (a chain's length and flags)
 *
 * Context: any, never sleeps; called with preemption disabled.
 * Return: as tipme_intern_new().
 */
u32 tipme_intern(struct tipme_intern *t, const u32 *key, unsigned int words,
		 u16 meta)
{
	bool fresh;

	return tipme_intern_new(t, key, words, meta, &fresh);
}

/**
 * tipme_intern_next() - the next published slot, for a dump
 * @t: the table
 * @pos: the first slot to look at (0-based; the slot's number is @pos + 1);
 *       left at the slot returned, so the caller advances it once it has
 *       copied the slot
 *
 * Context: process context (a dump), concurrently with writers.
 * Return: the slot at *@pos, or NULL when no slot from *@pos on is
 * published (then *@pos is past the last slot).
 */
const struct tipme_intern_ent *tipme_intern_next(struct tipme_intern *t,
						 u32 *pos)
{
	struct tipme_intern_ent *e;

	if (!t->tab) {
		*pos = 1;
		return NULL;
	}
	for (; *pos <= t->mask; (*pos)++) {
		e = slot(t, *pos);
		/* The tag before the key it publishes. */
		if (smp_load_acquire(&e->tag) & INTERN_READY)
			return e;
	}
	return NULL;
}
