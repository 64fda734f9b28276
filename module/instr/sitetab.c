// SPDX-License-Identifier: GPL-2.0
/*
 * The blocking-site table: every kernel call chain a task went to sleep
 * through gets a number in a table of numbered keys (intern.c), the key
 * being the chain's addresses and the meta bits its length and flags.
 * When the table has no room the caller writes the whole chain
 * (TIPME_REC_BLOCKED) instead.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/tipme.h>
#include "instr/intern.h"
#include "instr/sitetab.h"

static struct tipme_intern sites;
static unsigned int tab_depth;

/**
 * tipme_sitetab_init() - allocate the table
 * @capacity: sites it can hold (rounded down to a power of two, at most
 *            65536; 0: no table, every site is written whole)
 * @depth: return addresses per site, at most
 *
 * Context: process context (module init).
 * Return: 0 or -ENOMEM.
 */
int tipme_sitetab_init(unsigned int capacity, unsigned int depth)
{
	tab_depth = depth;
	return tipme_intern_init(&sites, capacity, depth, "site table");
}

/**
 * tipme_sitetab_exit() - free the table
 *
 * Context: process context; the sched_switch probe is detached.
 */
void tipme_sitetab_exit(void)
{
	tipme_intern_exit(&sites);
}

/**
 * tipme_sitetab_enabled() - is there a site table
 *
 * Context: any.
 * Return: true if sites can get numbers (site_table is not 0).
 */
bool tipme_sitetab_enabled(void)
{
	return sites.tab;
}

/**
 * tipme_sitetab_intern() - the number of a call chain
 * @ips: low 32 bits of the return addresses, innermost first
 * @n: how many (at most the table's depth)
 * @full: the capture filled every slot (TIPME_BLOCKED_FULL)
 *
 * Context: any, never sleeps; called with preemption disabled.
 * Return: the site's number (1 or more), or 0 if the table has none for
 * it and no room (or there is no table).
 */
u32 tipme_sitetab_intern(const u32 *ips, unsigned int n, bool full)
{
	return tipme_intern(&sites, ips, n,
			    n | (full ? TIPME_BLOCKED_FULL : 0) << 8);
}

/**
 * tipme_sitetab_read() - copy published sites for a dump
 * @pos: the first slot to look at; advanced past what was copied
 * @buf: destination: struct tipme_site entries, each followed by its
 *       addresses
 * @room: bytes available
 * @done: set when every slot has been looked at
 *
 * Context: process context (the dump), concurrently with writers.
 * Return: bytes copied.
 */
size_t tipme_sitetab_read(u32 *pos, void *buf, size_t room, bool *done)
{
	const struct tipme_intern_ent *e;
	size_t off = 0, need;
	struct tipme_site *out;

	while ((e = tipme_intern_next(&sites, pos))) {
		need = sizeof(*out) + e->words * sizeof(u32);
		if (off + need > room)
			break;
		out = buf + off;
		out->id = *pos + 1;
		out->nr = e->words;
		out->flags = e->meta >> 8;
		out->reserved = 0;
		memcpy(out + 1, e->key, e->words * sizeof(u32));
		off += need;
		(*pos)++;
	}
	*done = !e;
	return off;
}

/**
 * tipme_sitetab_hdr() - the header of the dump's site table
 * @h: filled in
 *
 * Context: any.
 */
void tipme_sitetab_hdr(struct tipme_sitetab_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->hdr_size = sizeof(*h);
	h->count = atomic_read(&sites.used);
	h->capacity = tipme_intern_capacity(&sites);
	h->depth = tab_depth;
	h->refused = atomic64_read(&sites.refused);
}

/**
 * tipme_sitetab_params_text() - "key=value\n" lines for the dump's parameters
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_sitetab_params_text(char *buf, size_t size)
{
	return scnprintf(buf, size, "site_table=%u\nsites=%d\nsites_refused=%lld\n",
			 tipme_intern_capacity(&sites), atomic_read(&sites.used),
			 (long long)atomic64_read(&sites.refused));
}
