/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A table that gives a key (a call chain: a blocking site, a user-space
 * chain, a profiler sample's chain) a number once, so that the ring holds
 * the number instead of the key.  One implementation for every table of
 * chains (intern.c); each owner keeps its own struct tipme_intern.
 */
#ifndef TIPME_INTERN_H
#define TIPME_INTERN_H

#include <linux/atomic.h>
#include <linux/types.h>

/**
 * struct tipme_intern - one table
 * @tab: capacity slots of @stride bytes (NULL: no table)
 * @mask: capacity - 1
 * @stride: bytes per slot
 * @words: the longest key, in 32-bit words
 * @used: slots published
 * @refused: keys that found no room
 */
struct tipme_intern {
	char *tab;
	u32 mask;
	unsigned int stride;
	unsigned int words;
	atomic_t used;
	atomic64_t refused;
};

/**
 * struct tipme_intern_ent - one slot
 * @tag: 0 empty, 1 being filled, the key's hash with the top bit set once
 *       published
 * @words: the key's length in 32-bit words
 * @meta: the owner's 16 bits (a chain's length and flags), part of the key
 * @key: the key; 8-byte aligned
 */
struct tipme_intern_ent {
	u32 tag;
	u16 words;
	u16 meta;
	u32 key[];
};

#define TIPME_INTERN_MAX	65536

int tipme_intern_init(struct tipme_intern *t, unsigned int capacity,
		      unsigned int words, const char *what);
void tipme_intern_exit(struct tipme_intern *t);
u32 tipme_intern(struct tipme_intern *t, const u32 *key, unsigned int words,
		 u16 meta);
u32 tipme_intern_new(struct tipme_intern *t, const u32 *key,
		     unsigned int words, u16 meta, bool *fresh);
const struct tipme_intern_ent *tipme_intern_next(struct tipme_intern *t,
						 u32 *pos);

/**
 * tipme_intern_capacity() - slots of the table
 * @t: the table
 *
 * Context: any.
 * Return: its capacity, 0 if there is none.
 */
static inline u32 tipme_intern_capacity(const struct tipme_intern *t)
{
	return t->tab ? t->mask + 1 : 0;
}

#endif /* TIPME_INTERN_H */
