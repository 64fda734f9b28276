// SPDX-License-Identifier: GPL-2.0
/*
 * The blocking-site table.
 *
 * An open-addressing hash table of call chains, filled from the
 * sched_switch probe on any CPU at once and never emptied while the module
 * is loaded, so a number stays valid for every record that holds it.  A
 * slot's @tag is 0 while empty, SITETAB_BUSY while the CPU that claimed it
 * (with a cmpxchg) fills it in, and the chain's hash with the top bit set
 * once it is published (a release store: readers that see the tag see the
 * chain).  Lookups probe SITETAB_PROBES slots from the hash; two CPUs
 * adding the same chain at once may give it two numbers, which is
 * harmless.  When no slot is free the caller writes the whole chain
 * (TIPME_REC_BLOCKED) instead, and @refused counts it.
 *
 * The dump reads the table after the rings: a number in a record was
 * published before the record was written, so it is in the table read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/tipme.h>
#include "fault.h"
#include "instr/sitetab.h"

#define SITETAB_BUSY		1U
#define SITETAB_READY		0x80000000U
#define SITETAB_PROBES		16
#define SITETAB_MAX		65536

struct sitetab_ent {
	u32 tag;
	u8 nr;
	u8 flags;
	u16 reserved;
	u32 ip[];
};

static char *tab;		/* capacity slots of @stride bytes */
static u32 mask;		/* capacity - 1 */
static unsigned int stride;
static unsigned int tab_depth;
static atomic_t used;
static atomic64_t refused;

static inline struct sitetab_ent *slot(u32 i)
{
	return (struct sitetab_ent *)(tab + (size_t)i * stride);
}

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
	atomic_set(&used, 0);
	atomic64_set(&refused, 0);
	tab_depth = depth;
	if (!capacity || !depth)
		return 0;
	capacity = rounddown_pow_of_two(min_t(unsigned int, capacity,
					      SITETAB_MAX));
	stride = sizeof(struct sitetab_ent) + depth * sizeof(u32);
	tab = tipme_fail_step("site table") ? NULL :
	      vzalloc(array_size(capacity, stride));
	if (!tab)
		return -ENOMEM;
	mask = capacity - 1;
	return 0;
}

/**
 * tipme_sitetab_exit() - free the table
 *
 * Context: process context; the sched_switch probe is detached.
 */
void tipme_sitetab_exit(void)
{
	vfree(tab);
	tab = NULL;
}

/**
 * tipme_sitetab_enabled() - is there a site table
 *
 * Context: any.
 * Return: true if sites can get numbers (site_table is not 0).
 */
bool tipme_sitetab_enabled(void)
{
	return tab;
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
	u8 flags = full ? TIPME_BLOCKED_FULL : 0;
	u32 h, tag, t, i, s;
	struct sitetab_ent *e;

	if (!tab || !n || n > tab_depth)
		return 0;
	h = jhash2(ips, n, n | (u32)flags << 8);
	tag = h | SITETAB_READY;
	for (i = 0; i < SITETAB_PROBES; i++) {
		s = (h + i) & mask;
		e = slot(s);
		/* The tag before the chain it publishes. */
		t = smp_load_acquire(&e->tag);
		if (!t) {
			if (cmpxchg(&e->tag, 0, SITETAB_BUSY) != 0)
				continue;	/* another CPU took it */
			e->nr = n;
			e->flags = flags;
			memcpy(e->ip, ips, n * sizeof(u32));
			/* The chain before the tag that publishes it. */
			smp_store_release(&e->tag, tag);
			atomic_inc(&used);
			return s + 1;
		}
		if (t == tag && e->nr == n && e->flags == flags &&
		    !memcmp(e->ip, ips, n * sizeof(u32)))
			return s + 1;
	}
	atomic64_inc(&refused);
	return 0;
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
	size_t off = 0, need;
	struct tipme_site *out;
	struct sitetab_ent *e;
	u32 t;

	if (!tab) {
		*done = true;
		return 0;
	}
	for (; *pos <= mask; (*pos)++) {
		e = slot(*pos);
		/* The tag before the chain it publishes. */
		t = smp_load_acquire(&e->tag);
		if (!(t & SITETAB_READY))
			continue;
		need = sizeof(*out) + e->nr * sizeof(u32);
		if (off + need > room)
			break;
		out = buf + off;
		out->id = *pos + 1;
		out->nr = e->nr;
		out->flags = e->flags;
		out->reserved = 0;
		memcpy(out + 1, e->ip, e->nr * sizeof(u32));
		off += need;
	}
	*done = *pos > mask;
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
	h->count = atomic_read(&used);
	h->capacity = tab ? mask + 1 : 0;
	h->depth = tab_depth;
	h->refused = atomic64_read(&refused);
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
			 tab ? mask + 1 : 0, atomic_read(&used),
			 (long long)atomic64_read(&refused));
}
