// SPDX-License-Identifier: GPL-2.0
/*
 * Everything a dump sends, in order: the META message (geometry, record
 * types, parameters), every CPU's ring, the exec table, the blocking-site
 * table (after the rings, so that it has every site they name), the user
 * stack table, the captured mappings, the sampler's table as it was when
 * the dump started (copied then: tipme_sampler_snapshot()), the self-cost
 * totals, and the trailer of clock pairs.  The STATUS reply shares the
 * geometry, per-CPU and self-cost attributes.  genl.c owns the family and
 * hands its dump callbacks here.
 *
 * A dump never stops the writers.  When it starts it notes each ring's
 * write position; it then sends, CPU by CPU and oldest first, every
 * sub-buffer up to that position in chunks that fit the reader's skbs, and
 * after the last chunk of a sub-buffer tells whether writers overwrote it
 * while it was being read (the reader then throws it away; its records are
 * counted as overwritten).  Records written after the dump started stay in
 * the ring for the next dump, except those that land in the sub-buffer the
 * dump reads last, which it includes.  Readers only read, so several dumps
 * may run at once.  A dump that starts while a trigger's window is frozen
 * (tipme_recorder_freeze()) starts each ring where the trigger found its
 * oldest data, and thaws the window once it has read every ring.
 *
 * With a pool (pool=1), a CPU's sub-buffers are wherever its takes found
 * them: the dump notes the pool's sub-buffers at its start, sorted by CPU
 * and sub-buffer number, and pins each while it reads it
 * (tipme_pool_pin()), so no writer takes it meanwhile; one taken before it
 * was pinned is missing from the stream, as an overwritten one is.  The
 * pool is not mapped: such a dump always sends copies.
 *
 * A mapped dump (TIPME_ATTR_DUMP_MAPPED) sends the same stream without the
 * rings' bytes: one SUBBUF_MAP per sub-buffer says what is committed in
 * it, and the reader copies it from /dev/tipme's mapping (ringdev.c),
 * checks the copy there and thaws the window there once it has copied
 * every ring.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <net/genetlink.h>
#include <linux/tipme.h>
#include "recorder.h"
#include "records.h"
#include "control/trigger.h"
#include "control/autotrig.h"
#include "instr/setup.h"
#include "instr/cost.h"
#include "instr/exec.h"
#include "instr/sampler.h"
#include "instr/sitetab.h"
#include "instr/ustack.h"
#include "instr/xmaps.h"
#include "control/dump.h"
#include "compat.h"

/*
 * Sub-buffers a mapped dump names per message buffer: the reader copies
 * them before it asks for the next buffer, so their views stay fresh.
 */
#define MAPS_PER_SKB	16

/* What an exec table message carries besides the entries. */
#define EXEC_MSG_OVERHEAD \
	(NLMSG_HDRLEN + GENL_HDRLEN + nla_total_size(4) + \
	 nla_total_size(sizeof(struct tipme_exectab_hdr)) + nla_total_size(0) + 16)

static int put_u64(struct sk_buff *skb, int attr, u64 v)
{
	return nla_put_u64_64bit(skb, attr, v, TIPME_ATTR_PAD);
}

/* The oldest of @cpu's sub-buffers in the pool: its index, or -1. */
static long pool_oldest(struct tipme_pool *p, int cpu)
{
	u64 s, best = U64_MAX;
	long idx = -1;
	unsigned long i;

	for (i = 0; i < tipme_pool_nsub(p); i++) {
		s = atomic64_read(&p->subs[i].state);
		if ((s & TIPME_POOL_OWNED) && tipme_pool_state_cpu(s) == cpu &&
		    tipme_pool_state_seq(s) < best) {
			best = tipme_pool_state_seq(s);
			idx = i;
		}
	}
	return idx;
}

static u64 ring_first_ts(struct tipme_ring *r)
{
	unsigned long pos = local_read(&r->reserve);
	u32 *hdr;
	long idx;

	if (!pos)
		return 0;
	if (r->pool) {
		/* Status only: a race with a take gives a wrong time at worst. */
		idx = pool_oldest(r->pool, r->cpu);
		if (idx < 0)
			return 0;
		hdr = (u32 *)tipme_pool_ptr(r->pool, idx);
		goto read;
	}
	hdr = (u32 *)(r->data + ((tipme_ring_oldest_seq(r, pos) <<
				  r->sub_shift) &
				 ((1UL << (r->sub_shift + r->nsub_shift)) - 1)));
read:
	if (!tipme_hdr_ext(READ_ONCE(hdr[0])))
		return 0;
	return READ_ONCE(hdr[1]) | (u64)READ_ONCE(hdr[2]) << 32;
}

static int put_cpu_entry(struct sk_buff *skb, int cpu, u32 discarded)
{
	struct tipme_ring *r = per_cpu_ptr(tipme.rings, cpu);
	struct nlattr *e;

	e = nla_nest_start(skb, TIPME_ATTR_CPU_ENTRY);
	if (!e)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TIPME_ATTR_CPU, cpu) ||
	    put_u64(skb, TIPME_ATTR_STAT_WRITTEN, local_read(&r->written)) ||
	    put_u64(skb, TIPME_ATTR_STAT_OVERWRITTEN,
		    tipme_ring_overwritten(r)) ||
	    put_u64(skb, TIPME_ATTR_STAT_DROPPED, local_read(&r->dropped)) ||
	    put_u64(skb, TIPME_ATTR_STAT_BYTES, local_read(&r->reserve)) ||
	    nla_put_u32(skb, TIPME_ATTR_STAT_DISCARDED, discarded) ||
	    put_u64(skb, TIPME_ATTR_STAT_FIRST_TS, ring_first_ts(r)) ||
	    put_u64(skb, TIPME_ATTR_STAT_LAST_TS, READ_ONCE(r->last_ts))) {
		nla_nest_cancel(skb, e);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, e);
	return 0;
}

/**
 * tipme_dump_put_geometry() - the recorder's shape and state, as attributes
 * @skb: a STATUS reply or the dump's META message
 *
 * Context: process context.
 * Return: 0 or -EMSGSIZE.
 */
int tipme_dump_put_geometry(struct sk_buff *skb)
{
	if (nla_put_string(skb, TIPME_ATTR_VERSION, TIPME_VERSION_STRING) ||
	    nla_put_u8(skb, TIPME_ATTR_RECORDING, READ_ONCE(tipme.recording)) ||
	    nla_put_u32(skb, TIPME_ATTR_NR_CPUS, nr_cpu_ids) ||
	    put_u64(skb, TIPME_ATTR_BUF_SIZE, tipme.buf_size) ||
	    nla_put_u32(skb, TIPME_ATTR_SUBBUF_SIZE, 1U << tipme.sub_shift) ||
	    nla_put_u32(skb, TIPME_ATTR_SUBBUFS, 1U << tipme.nsub_shift) ||
	    nla_put_u32(skb, TIPME_ATTR_CLOCK_SOURCE, tipme_clock_source()) ||
	    put_u64(skb, TIPME_ATTR_TSC_KHZ, tipme_clock_khz()) ||
	    put_u64(skb, TIPME_ATTR_NOW_TS, tipme_clock_now()) ||
	    nla_put_u8(skb, TIPME_ATTR_KEYLOG, READ_ONCE(tipme_keylog_used)))
		return -EMSGSIZE;
	return 0;
}

/**
 * tipme_dump_put_cpu_stats() - the ring counters of the possible CPUs from
 *	*@cpu on, as one nest
 * @skb: a STATUS reply, or one message of a STATUS dump
 * @cpu: in: the first CPU to put (0 for all); out: the first possible CPU
 *	not put, nr_cpu_ids when every one from *@cpu on was
 *
 * Puts as many entries as fit both @skb and one attribute: a nest's length
 * is 16 bits, which about 700 entries fill, so a machine with more possible
 * CPUs needs several nests (the STATUS dump sends one per message).  An
 * entry that would make the nest longer than that is taken back.
 *
 * Context: process context.
 * Return: 0, or -EMSGSIZE if not one entry fit (*@cpu unchanged).
 */
int tipme_dump_put_cpu_stats(struct sk_buff *skb, int *cpu)
{
	struct nlattr *stats;
	unsigned char *mark;
	unsigned int n = 0;
	int c;

	stats = nla_nest_start(skb, TIPME_ATTR_CPU_STATS);
	if (!stats)
		return -EMSGSIZE;
	for (c = cpumask_next(*cpu - 1, cpu_possible_mask); c < nr_cpu_ids;
	     c = cpumask_next(c, cpu_possible_mask)) {
		mark = skb_tail_pointer(skb);
		if (put_cpu_entry(skb, c, 0))
			break;
		if (skb_tail_pointer(skb) - (unsigned char *)stats > U16_MAX) {
			nlmsg_trim(skb, mark);
			break;
		}
		n++;
	}
	if (!n && c < nr_cpu_ids) {
		nla_nest_cancel(skb, stats);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, stats);
	*cpu = c;
	return 0;
}

/**
 * tipme_dump_status_size() - room a STATUS reply needs
 * @cpus: the CPU entries it carries
 *
 * Context: any.
 * Return: bytes.
 */
size_t tipme_dump_status_size(unsigned int cpus)
{
	return 576 + 160 * cpus +
	       nla_total_size(TIPME_REC_NR * sizeof(struct tipme_cost_total)) +
	       nla_total_size(1) + nla_total_size(PAGE_SIZE);
}

/* The module's parameters as "key=value\n" lines. */
static void params_text(char *buf, size_t size)
{
	int n;

	n = tipme_recorder_params_text(buf, size);
	n += tipme_trigger_params_text(buf + n, size - n);
	n += tipme_auto_params_text(buf + n, size - n);
	tipme_instr_params_text(buf + n, size - n);
}

/**
 * tipme_dump_put_params() - the module's parameters, and what became of
 * its optional tracepoints, as TIPME_ATTR_PARAMS of a STATUS reply
 * @skb: the reply
 *
 * Context: process context.
 * Return: 0, -ENOMEM or -EMSGSIZE.
 */
int tipme_dump_put_params(struct sk_buff *skb)
{
	char *params;
	int err;

	params = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!params)
		return -ENOMEM;
	params_text(params, PAGE_SIZE);
	err = nla_put_string(skb, TIPME_ATTR_PARAMS, params);
	kfree(params);
	return err;
}

/**
 * tipme_dump_put_cost() - the self-cost totals and whether environments
 * are kept, as attributes of a STATUS reply
 * @skb: the reply
 *
 * Context: process context.
 * Return: 0, -ENOMEM or -EMSGSIZE.
 */
int tipme_dump_put_cost(struct sk_buff *skb)
{
	struct tipme_cost_total *t;
	size_t n;
	int err;

	t = kcalloc(TIPME_REC_NR, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	n = tipme_cost_totals(t, TIPME_REC_NR);
	err = nla_put(skb, TIPME_ATTR_COST_TOTALS, n * sizeof(*t), t) ||
	      nla_put_u8(skb, TIPME_ATTR_ENV_CAPTURE, tipme_exec_env_capture()) ?
	      -EMSGSIZE : 0;
	kfree(t);
	return err;
}

/**
 * struct table_pos - how far a table (exec, site, user stack) was sent
 * @hdr_sent: its header was sent
 * @done: every entry was sent
 * @pos: next slot
 * @since: the table's own mark of what it had when the dump began (the
 *	captured mappings: tipme_xmaps_read())
 * @copy: a copy the dump took when it began (the sampler's table:
 *	tipme_sampler_snapshot()), or NULL
 * @copy_len: its bytes
 */
struct table_pos {
	bool hdr_sent;
	bool done;
	u32 pos;
	u64 since;
	void *copy;
	size_t copy_len;
};

/**
 * struct pool_ent - a pool sub-buffer as a dump found it at its start
 * @seq: its owner's number for it
 * @cpu: its owner
 * @idx: its index in the pool
 */
struct pool_ent {
	u64 seq;
	u32 cpu;
	u32 idx;
};

enum dump_phase {
	PHASE_META, PHASE_CPUS, PHASE_EXECTAB, PHASE_SITES, PHASE_USTACKS,
	PHASE_XMAPS, PHASE_SMPSNAP, PHASE_COST,
	PHASE_TRAILER, PHASE_DONE
};

/**
 * struct dump_ctx - where a dump is
 * @family: the family its messages belong to
 * @phase: enum dump_phase
 * @cpu: CPU being sent
 * @seq: sub-buffer being sent
 * @last: last sub-buffer of @cpu to send
 * @off: bytes of @seq already sent
 * @have_view: @view describes @seq
 * @view: what may be copied of @seq
 * @discarded: sub-buffers of @cpu overwritten while being read
 * @exec: how far the exec table was sent
 * @sites: how far the blocking-site table was sent
 * @ustacks: how far the user stack table was sent
 * @xmaps: how far the captured mappings were sent
 * @smpsnap: how far the sampler's table, copied at the start, was sent
 * @freeze_gen: the frozen window this dump reads (0: none was frozen)
 * @mapped: the reader copies the rings from /dev/tipme (SUBBUF_MAP parts)
 * @maps: SUBBUF_MAP parts in the message buffer being filled
 * @pool: with a pool: its sub-buffers owned when the dump started, by CPU
 *	and sub-buffer number
 * @npool: entries of @pool
 * @pi: the entry being sent (with @pool)
 * @pmin: the lowest sub-buffer number still to send (with @pool)
 * @pinned: @pool[@pi] is pinned
 * @end: each CPU's write position when the dump started
 */
struct dump_ctx {
	const struct genl_family *family;
	enum dump_phase phase;
	int cpu;
	u64 seq;
	u64 last;
	u32 off;
	bool have_view;
	struct tipme_sub_view view;
	u32 discarded;
	struct table_pos exec;
	struct table_pos sites;
	struct table_pos ustacks;
	struct table_pos xmaps;
	struct table_pos smpsnap;
	u32 freeze_gen;
	bool mapped;
	u32 maps;
	struct pool_ent *pool;
	unsigned long npool;
	unsigned long pi;
	u64 pmin;
	bool pinned;
	unsigned long end[];
};

struct dump_cb {
	struct dump_ctx *ctx;
};

static struct dump_ctx *dump_ctx(struct netlink_callback *cb)
{
	return ((struct dump_cb *)cb->ctx)->ctx;
}

/*
 * Move @d->pi to the next entry to send of the current CPU, one numbered
 * @d->pmin or later, and @d->seq to its number.  Return: false when none.
 */
static bool pool_next(struct dump_ctx *d)
{
	struct pool_ent *pe;

	for (; d->pi < d->npool; d->pi++) {
		pe = &d->pool[d->pi];
		if (pe->cpu != d->cpu || pe->seq > d->last)
			return false;
		if (pe->seq >= d->pmin) {
			d->seq = pe->seq;
			return true;
		}
	}
	return false;
}

static int pool_ent_cmp(const void *a, const void *b)
{
	const struct pool_ent *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Note the pool's owned sub-buffers, sorted by CPU, then by sub-buffer
 * number (the order of the key's bits).  Return: 0 or -ENOMEM.
 */
static int pool_snapshot(struct dump_ctx *d, struct tipme_pool *p)
{
	unsigned long i;
	u64 s;

	d->pool = kvmalloc_array(tipme_pool_nsub(p), sizeof(*d->pool),
				 GFP_KERNEL);
	if (!d->pool)
		return -ENOMEM;
	for (i = 0; i < tipme_pool_nsub(p); i++) {
		s = atomic64_read(&p->subs[i].state);
		if (!(s & TIPME_POOL_OWNED))
			continue;
		d->pool[d->npool].seq = tipme_pool_state_seq(s);
		d->pool[d->npool].cpu = tipme_pool_state_cpu(s);
		d->pool[d->npool].idx = i;
		d->npool++;
	}
	sort(d->pool, d->npool, sizeof(*d->pool), pool_ent_cmp, NULL);
	return 0;
}

static void dump_begin_cpu(struct dump_ctx *d)
{
	struct tipme_ring *r = per_cpu_ptr(tipme.rings, d->cpu);
	unsigned long end = d->end[d->cpu];

	if (r->pool) {
		d->last = end ? (end - 1) >> r->sub_shift : 0;
		while (d->pi < d->npool && d->pool[d->pi].cpu < d->cpu)
			d->pi++;
		d->pmin = 0;
		d->off = 0;
		d->have_view = false;
		d->discarded = 0;
		if (!end || !pool_next(d))
			d->seq = d->last + 1;	/* nothing to send */
		return;
	}

	d->seq = tipme_ring_oldest_seq(r, end);
	d->last = end ? (end - 1) >> r->sub_shift : 0;
	/* A frozen window starts where the trigger found the oldest data. */
	if (d->freeze_gen) {
		u64 f = READ_ONCE(r->frozen);

		if (f != TIPME_RING_THAWED && f > d->seq && f <= d->last)
			d->seq = f;
	}
	if (!end)
		d->seq = 1;	/* nothing to send: seq > last */
	d->off = 0;
	d->have_view = false;
	d->discarded = 0;
}

/**
 * tipme_dump_start() - a dump begins
 * @cb: its callback state
 * @family: the family its messages belong to
 *
 * Writes every CPU's pending self-cost batch, so the rings hold the cost
 * of everything before the dump, makes sure the dump's messages can hold
 * the largest exec table entry, and notes each ring's write position.
 *
 * Context: process context (the dump's start callback).
 * Return: 0 or -ENOMEM.
 */
int tipme_dump_start(struct netlink_callback *cb,
		     const struct genl_family *family)
{
	u32 need = tipme_exec_entry_max() + EXEC_MSG_OVERHEAD;
	struct dump_ctx *d;
	int cpu;

	BUILD_BUG_ON(sizeof(struct dump_cb) > sizeof(cb->ctx));
	/* 8 bytes a possible CPU: 32 KiB with 4096, so not one kmalloc */
	d = kvzalloc(struct_size(d, end, nr_cpu_ids), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->family = family;
	/* The pool is not mapped: its dumps send copies. */
	d->mapped = !!tipme_genl_dump_attrs(cb)[TIPME_ATTR_DUMP_MAPPED] &&
		    !tipme.pool;
	tipme_cost_flush_all();
	if (cb->min_dump_alloc < need)
		cb->min_dump_alloc = need;
	tipme_clock_record();
	d->freeze_gen = tipme_recorder_frozen();
	for_each_possible_cpu(cpu)
		d->end[cpu] = local_read(&per_cpu_ptr(tipme.rings, cpu)->reserve);
	/* Positions before contents; pairs with smp_wmb() in the writers. */
	smp_rmb();
	if (tipme.pool && pool_snapshot(d, tipme.pool)) {
		kvfree(d);
		return -ENOMEM;
	}
	/*
	 * The sampler's table where the rings end (noted above); without
	 * the memory for it the dump goes without it, as an older one.
	 */
	d->smpsnap.copy = tipme_sampler_snapshot(&d->smpsnap.copy_len);
	if (IS_ERR(d->smpsnap.copy))
		d->smpsnap.copy = NULL;
	d->phase = PHASE_META;
	((struct dump_cb *)cb->ctx)->ctx = d;
	return 0;
}

/**
 * tipme_dump_done() - a dump ends
 * @cb: its callback state
 *
 * Context: process context (the dump's done callback).
 * Return: 0.
 */
int tipme_dump_done(struct netlink_callback *cb)
{
	struct dump_ctx *d = dump_ctx(cb);

	if (d && d->pinned)
		tipme_pool_unpin(tipme.pool, d->pool[d->pi].idx);
	if (d) {
		kvfree(d->pool);
		kvfree(d->smpsnap.copy);
	}
	kvfree(d);
	((struct dump_cb *)cb->ctx)->ctx = NULL;
	return 0;
}

static void *dump_msg(struct sk_buff *skb, struct netlink_callback *cb,
		      enum tipme_dump_part part)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, dump_ctx(cb)->family,
				NLM_F_MULTI, TIPME_CMD_DUMP);

	if (hdr && nla_put_u32(skb, TIPME_ATTR_DUMP_PART, part)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}


static int dump_meta(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct tipme_rectype *types;
	size_t ntypes;
	char *params;
	void *hdr;
	int err = -EMSGSIZE;

	params = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!params)
		return -ENOMEM;
	params_text(params, PAGE_SIZE);
	types = tipme_rectypes(&ntypes);
	hdr = dump_msg(skb, cb, TIPME_PART_META);
	if (!hdr)
		goto out;
	if (tipme_dump_put_geometry(skb) ||
	    (dump_ctx(cb)->freeze_gen &&
	     nla_put_u32(skb, TIPME_ATTR_FREEZE_GEN, dump_ctx(cb)->freeze_gen)) ||
	    nla_put(skb, TIPME_ATTR_REC_TYPES, ntypes * sizeof(*types), types) ||
	    nla_put_string(skb, TIPME_ATTR_PARAMS, params) ||
	    nla_put_u8(skb, TIPME_ATTR_ENV_CAPTURE, tipme_exec_env_capture())) {
		genlmsg_cancel(skb, hdr);
		goto out;
	}
	genlmsg_end(skb, hdr);
	err = 0;
out:
	kfree(params);
	return err;
}

/* Bytes of ring data one more chunk message can carry in @skb. */
static int chunk_room(struct sk_buff *skb)
{
	int overhead = NLMSG_HDRLEN + GENL_HDRLEN + 3 * nla_total_size(4) +
		       nla_total_size_64bit(8) + nla_total_size(0) + 8;

	return ((int)skb_tailroom(skb) - overhead) & ~3;
}

/*
 * A sub-buffer with a writer between reserving and committing (-EBUSY) is
 * retried: a few microseconds spinning, as a writer on a running CPU is
 * done by then, then sleeping, DUMP_VIEW_SLEEPS times at most.  Only the
 * newest sub-buffer of a CPU, the one its writers are in, can be busy.
 * The writer's CPU may be one the host is not running: under TCG's
 * single-threaded round robin it does not run while this CPU spins, for
 * up to a 100 ms time slice.  Only sleeping lets it finish; spinning
 * alone lost that newest sub-buffer, with the trigger's key press in it
 * (t-autokernel on a busy host).
 */
#define DUMP_VIEW_SPINS		100
#define DUMP_VIEW_SLEEPS	800	/* of 250-500 us: 0.2-0.4 s */

static int dump_view(struct tipme_ring *r, struct dump_ctx *d)
{
	int tries, err = 0;

	for (tries = 0; tries < DUMP_VIEW_SPINS + DUMP_VIEW_SLEEPS; tries++) {
		err = tipme_ring_view(r, d->seq, &d->view);
		if (err != -EBUSY)
			return err;
		if (tries < DUMP_VIEW_SPINS)
			udelay(1);
		else
			usleep_range(250, 500);
	}
	return err;
}

/*
 * The part that describes the sub-buffer in @d->view: SUBBUF_MAP in a
 * mapped dump (the reader copies it from /dev/tipme), SUBBUF_END with @ok
 * after its chunks in a copied one.  Return: 0, or 1 if @skb is full.
 */
static int dump_subbuf(struct sk_buff *skb, struct netlink_callback *cb,
		       struct dump_ctx *d, enum tipme_dump_part part, bool ok)
{
	void *hdr = dump_msg(skb, cb, part);

	if (!hdr)
		return 1;
	if (nla_put_u32(skb, TIPME_ATTR_CPU, d->cpu) ||
	    put_u64(skb, TIPME_ATTR_SUBBUF_SEQ, d->seq) ||
	    nla_put_u32(skb, TIPME_ATTR_SUBBUF_LEN, d->view.len) ||
	    nla_put_u32(skb, TIPME_ATTR_SUBBUF_FLAGS,
			d->view.partial ? TIPME_SUBBUF_PARTIAL : 0) ||
	    (part == TIPME_PART_SUBBUF_END &&
	     nla_put_u8(skb, TIPME_ATTR_SUBBUF_OK, ok))) {
		genlmsg_cancel(skb, hdr);
		return 1;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * After the sub-buffer @d->seq: the next one.  @sent: it was sent (or
 * discarded after it was read), not passed over.
 */
static void dump_advance(struct dump_ctx *d, bool sent)
{
	u64 seq = d->seq;

	d->have_view = false;
	if (!tipme.pool) {
		d->seq++;
		return;
	}
	if (d->pinned) {
		tipme_pool_unpin(tipme.pool, d->pool[d->pi].idx);
		d->pinned = false;
	}
	if (sent)
		d->pmin = seq + 1;
	d->pi++;
	if (!pool_next(d))
		d->seq = d->last + 1;
	/* Taken before the dump could pin it, unless noted twice. */
	if (!sent && d->seq != seq)
		d->discarded++;
}

/*
 * Pin the pool sub-buffer @d->pool[@d->pi], check that it still holds
 * sub-buffer @d->seq of its CPU, and find what may be copied of it.
 * Return: as dump_view(), -ESTALE if it holds another one now.
 */
static int pool_view(struct tipme_ring *r, struct dump_ctx *d)
{
	struct tipme_pool *p = r->pool;
	unsigned long idx = d->pool[d->pi].idx, e;
	u64 slot = d->seq & (tipme_ring_nsub(r) - 1);
	int err;

	if (!tipme_pool_pin(p, idx, d->cpu, d->seq))
		return -ESTALE;
	d->pinned = true;
	/*
	 * Retired, or still in the CPU's slot: not a sub-buffer a nested
	 * writer took and gave back.
	 */
	e = READ_ONCE(r->map[slot]);
	if (!(atomic64_read(&p->subs[idx].state) & TIPME_POOL_RETIRED) &&
	    ((e & ~TIPME_MAP_TAG) != (unsigned long)tipme_pool_ptr(p, idx) ||
	     (e & TIPME_MAP_TAG) !=
	     ((d->seq >> r->nsub_shift) & TIPME_MAP_TAG)))
		return -ESTALE;
	err = dump_view(r, d);
	return err;
}

/* Send the current CPU's sub-buffers.  Return: 0 when done, 1 if @skb is full. */
static int dump_cpu(struct sk_buff *skb, struct netlink_callback *cb,
		    struct dump_ctx *d)
{
	struct tipme_ring *r = per_cpu_ptr(tipme.rings, d->cpu);
	const char *src;
	struct nlattr *a;
	void *hdr;
	int err, room;
	u32 n;
	bool ok;

	while (d->seq <= d->last) {
		if (!d->have_view) {
			err = r->pool ? pool_view(r, d) : dump_view(r, d);
			if (err == -ENODATA)
				break;
			if (err) {	/* overwritten, or a writer stuck in it */
				if (r->pool && err == -ESTALE) {
					dump_advance(d, false);
					continue;
				}
				d->discarded++;
				dump_advance(d, true);
				continue;
			}
			d->have_view = true;
			d->off = 0;
		}
		if (d->mapped) {
			if (d->view.len &&
			    (d->maps == MAPS_PER_SKB ||
			     dump_subbuf(skb, cb, d, TIPME_PART_SUBBUF_MAP, true)))
				return 1;
			d->maps += !!d->view.len;
			dump_advance(d, true);
			continue;
		}
		src = r->pool ? tipme_pool_ptr(r->pool, d->pool[d->pi].idx) :
		      tipme_ring_ptr(r, d->seq << r->sub_shift);
		while (d->off < d->view.len) {
			room = chunk_room(skb);
			if (room < 256 && skb->len)
				return 1;
			if (room < 4)
				return -EMSGSIZE;
			n = min_t(u32, d->view.len - d->off, room);
			hdr = dump_msg(skb, cb, TIPME_PART_CHUNK);
			if (!hdr)
				return skb->len ? 1 : -EMSGSIZE;
			a = NULL;
			if (!nla_put_u32(skb, TIPME_ATTR_CPU, d->cpu) &&
			    !put_u64(skb, TIPME_ATTR_SUBBUF_SEQ, d->seq) &&
			    !nla_put_u32(skb, TIPME_ATTR_OFFSET, d->off))
				a = nla_reserve(skb, TIPME_ATTR_DATA, n);
			if (!a) {
				genlmsg_cancel(skb, hdr);
				return skb->len ? 1 : -EMSGSIZE;
			}
			memcpy(nla_data(a), src + d->off, n);
			genlmsg_end(skb, hdr);
			d->off += n;
		}
		/* A pinned sub-buffer cannot have been taken meanwhile. */
		ok = r->pool || tipme_ring_still_valid(r, d->seq);
		if (dump_subbuf(skb, cb, d, TIPME_PART_SUBBUF_END, ok))
			return 1;
		if (!ok)
			d->discarded++;
		dump_advance(d, true);
		cond_resched();
	}
	if (d->pinned) {
		tipme_pool_unpin(tipme.pool, d->pool[d->pi].idx);
		d->pinned = false;
	}

	hdr = dump_msg(skb, cb, TIPME_PART_CPU_END);
	if (!hdr)
		return 1;
	a = nla_nest_start(skb, TIPME_ATTR_CPU_STATS);
	if (!a || put_cpu_entry(skb, d->cpu, d->discarded)) {
		genlmsg_cancel(skb, hdr);
		return 1;
	}
	nla_nest_end(skb, a);
	genlmsg_end(skb, hdr);
	return 0;
}

static int dump_trailer(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct tipme_clock_pair *pairs;
	size_t n;
	void *hdr;
	int err = -EMSGSIZE;

	pairs = kmalloc_array(TIPME_CLOCK_PAIRS, sizeof(*pairs), GFP_KERNEL);
	if (!pairs)
		return -ENOMEM;
	n = tipme_clock_pairs(pairs, TIPME_CLOCK_PAIRS);
	hdr = dump_msg(skb, cb, TIPME_PART_TRAILER);
	if (!hdr)
		goto out;
	if (nla_put(skb, TIPME_ATTR_CLOCK_PAIRS, n * sizeof(*pairs), pairs)) {
		genlmsg_cancel(skb, hdr);
		goto out;
	}
	genlmsg_end(skb, hdr);
	err = 0;
out:
	kfree(pairs);
	return err;
}

/**
 * struct table_src - a table a dump sends in parts: a header, then entries
 *	over as many messages as they need, then an END part
 * @part: enum tipme_dump_part of its messages
 * @end_part: the part that says it is complete (0: none, its header
 *	counts its entries)
 * @hdr_attr: attribute of its header (first message only)
 * @ent_attr: attribute of whole entries
 * @hdr_size: bytes of its header
 * @header: fills in its header
 * @read: copies whole entries from slot @tp->pos (see tipme_exec_read());
 *	the table may keep a mark in @tp->since from its first part (slot 0)
 *	on
 */
struct table_src {
	u32 part;
	u32 end_part;
	int hdr_attr;
	int ent_attr;
	size_t hdr_size;
	void (*header)(const struct table_pos *tp, void *h);
	size_t (*read)(struct table_pos *tp, void *buf, size_t size,
		       bool *done);
};

/* The tables whose slots never move between parts keep no mark. */
static size_t exec_read(struct table_pos *tp, void *buf, size_t size,
			bool *done)
{
	return tipme_exec_read(&tp->pos, buf, size, done);
}

static size_t sites_read(struct table_pos *tp, void *buf, size_t size,
			 bool *done)
{
	return tipme_sitetab_read(&tp->pos, buf, size, done);
}

static size_t ustacks_read(struct table_pos *tp, void *buf, size_t size,
			   bool *done)
{
	return tipme_ustack_read(&tp->pos, buf, size, done);
}

static size_t xmaps_read(struct table_pos *tp, void *buf, size_t size,
			 bool *done)
{
	return tipme_xmaps_read(&tp->pos, &tp->since, buf, size, done);
}

static void exec_header(const struct table_pos *tp, void *h)
{
	tipme_exec_header(h);
}

static void sites_header(const struct table_pos *tp, void *h)
{
	tipme_sitetab_hdr(h);
}

static const struct table_src exec_src = {
	TIPME_PART_EXECTAB, TIPME_PART_EXECTAB_END, TIPME_ATTR_EXEC_HDR,
	TIPME_ATTR_EXEC_ENTRIES, sizeof(struct tipme_exectab_hdr),
	exec_header, exec_read,
};

static const struct table_src sites_src = {
	TIPME_PART_SITES, TIPME_PART_SITES_END, TIPME_ATTR_SITE_HDR,
	TIPME_ATTR_SITE_ENTRIES, sizeof(struct tipme_sitetab_hdr),
	sites_header, sites_read,
};

static void ustacks_header(const struct table_pos *tp, void *h)
{
	tipme_ustack_hdr(h);
}

static const struct table_src ustacks_src = {
	TIPME_PART_USTACKS, TIPME_PART_USTACKS_END, TIPME_ATTR_USTACK_HDR,
	TIPME_ATTR_USTACK_ENTRIES, sizeof(struct tipme_sitetab_hdr),
	ustacks_header, ustacks_read,
};

static void xmaps_header(const struct table_pos *tp, void *h)
{
	tipme_xmaps_hdr(h);
}

static const struct table_src xmaps_src = {
	TIPME_PART_XMAPS, TIPME_PART_XMAPS_END, TIPME_ATTR_XMAP_HDR,
	TIPME_ATTR_XMAP_ENTRIES, sizeof(struct tipme_xmaps_hdr),
	xmaps_header, xmaps_read,
};

/* The sampler's table: the copy taken when the dump began. */
static void smpsnap_header(const struct table_pos *tp, void *h)
{
	memcpy(h, tp->copy, sizeof(struct tipme_smpsnap_hdr));
}

static size_t smpsnap_read(struct table_pos *tp, void *buf, size_t size,
			   bool *done)
{
	const struct tipme_smpsnap_hdr *h = tp->copy;
	u32 n = min_t(size_t, h->count - tp->pos,
		      size / sizeof(struct tipme_smpsnap_ent));

	memcpy(buf, (const struct tipme_smpsnap_ent *)(h + 1) + tp->pos,
	       (size_t)n * sizeof(struct tipme_smpsnap_ent));
	tp->pos += n;
	*done = tp->pos == h->count;
	return (size_t)n * sizeof(struct tipme_smpsnap_ent);
}

static const struct table_src smpsnap_src = {
	TIPME_PART_SMPSNAP, 0, TIPME_ATTR_SMPSNAP_HDR,
	TIPME_ATTR_SMPSNAP_ENTRIES, sizeof(struct tipme_smpsnap_hdr),
	smpsnap_header, smpsnap_read,
};

static const struct table_src *table_of(const struct dump_ctx *d)
{
	switch (d->phase) {
	case PHASE_EXECTAB:
		return &exec_src;
	case PHASE_SITES:
		return &sites_src;
	case PHASE_XMAPS:
		return &xmaps_src;
	case PHASE_SMPSNAP:
		return &smpsnap_src;
	default:
		return &ustacks_src;
	}
}

static struct table_pos *table_pos_of(struct dump_ctx *d)
{
	switch (d->phase) {
	case PHASE_EXECTAB:
		return &d->exec;
	case PHASE_SITES:
		return &d->sites;
	case PHASE_XMAPS:
		return &d->xmaps;
	case PHASE_SMPSNAP:
		return &d->smpsnap;
	default:
		return &d->ustacks;
	}
}

/* Return: 0 when the table is sent, 1 if @skb is full, or -errno. */
static int dump_table(struct sk_buff *skb, struct netlink_callback *cb,
		      const struct table_src *src, struct table_pos *tp)
{
	union {
		struct tipme_exectab_hdr exec;
		struct tipme_sitetab_hdr sites;
		struct tipme_xmaps_hdr xmaps;
		struct tipme_smpsnap_hdr smpsnap;
	} h;
	bool done = false;
	void *buf, *hdr;
	u32 pos;
	size_t n;
	int room;

	BUILD_BUG_ON(sizeof(h) < sizeof(struct tipme_exectab_hdr) ||
		     sizeof(h) < sizeof(struct tipme_sitetab_hdr) ||
		     sizeof(h) < sizeof(struct tipme_xmaps_hdr) ||
		     sizeof(h) < sizeof(struct tipme_smpsnap_hdr));
	while (!tp->done || !tp->hdr_sent) {
		room = (int)skb_tailroom(skb) - (int)EXEC_MSG_OVERHEAD;
		if (room < 256)
			return skb->len ? 1 : -EMSGSIZE;
		buf = kvmalloc(room, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		pos = tp->pos;
		n = src->read(tp, buf, room, &done);
		if (!n && !done) {
			/* The next entry needs an emptier message. */
			kvfree(buf);
			return skb->len ? 1 : -EMSGSIZE;
		}
		hdr = dump_msg(skb, cb, src->part);
		if (!hdr)
			goto full;
		if (!tp->hdr_sent) {
			src->header(tp, &h);
			if (nla_put(skb, src->hdr_attr, src->hdr_size, &h))
				goto cancel;
		}
		if (n && nla_put(skb, src->ent_attr, n, buf))
			goto cancel;
		genlmsg_end(skb, hdr);
		kvfree(buf);
		tp->hdr_sent = true;
		tp->done = done;
	}
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
full:
	kvfree(buf);
	tp->pos = pos;
	return skb->len ? 1 : -EMSGSIZE;
}

/*
 * A table and then its END part, if it has one.  Return: 0 when both are
 * sent, 1 if @skb is full, or -errno.
 */
static int dump_table_all(struct sk_buff *skb, struct netlink_callback *cb,
			  const struct table_src *src, struct table_pos *tp)
{
	void *hdr;
	int err;

	if (!tp->done || !tp->hdr_sent) {
		err = dump_table(skb, cb, src, tp);
		if (err)
			return err;
	}
	if (!src->end_part)
		return 0;
	hdr = dump_msg(skb, cb, src->end_part);
	if (!hdr)
		return skb->len ? 1 : -EMSGSIZE;
	genlmsg_end(skb, hdr);
	return 0;
}

static int dump_cost(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct tipme_cost_total *t;
	void *hdr;
	size_t n;
	int err = 0;

	t = kcalloc(TIPME_REC_NR, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	n = tipme_cost_totals(t, TIPME_REC_NR);
	hdr = dump_msg(skb, cb, TIPME_PART_COST);
	if (!hdr || nla_put(skb, TIPME_ATTR_COST_TOTALS, n * sizeof(*t), t)) {
		if (hdr)
			genlmsg_cancel(skb, hdr);
		err = skb->len ? 1 : -EMSGSIZE;
	} else {
		genlmsg_end(skb, hdr);
	}
	kfree(t);
	return err;
}

/**
 * tipme_dump() - send the next part of a dump
 * @skb: the message buffer to fill
 * @cb: the dump's callback state
 *
 * Called again with a fresh @skb while it returns a positive length.
 *
 * Context: process context (the dump callback).
 * Return: bytes put into @skb, 0 when the dump is complete, or a negative
 * errno.
 */
int tipme_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct dump_ctx *d = dump_ctx(cb);
	int err;

	d->maps = 0;
	for (;;) {
		switch (d->phase) {
		case PHASE_META:
			err = dump_meta(skb, cb);
			if (err)
				return skb->len ? skb->len : err;
			d->cpu = cpumask_first(cpu_possible_mask);
			dump_begin_cpu(d);
			d->phase = PHASE_CPUS;
			break;
		case PHASE_CPUS:
			err = dump_cpu(skb, cb, d);
			if (err < 0)
				return skb->len ? skb->len : err;
			if (err > 0)
				return skb->len;
			d->cpu = cpumask_next(d->cpu, cpu_possible_mask);
			if (d->cpu >= nr_cpu_ids) {
				/*
				 * Every ring read: the frozen window may go
				 * (a mapped dump's reader thaws it).
				 */
				if (d->freeze_gen && !d->mapped)
					tipme_recorder_thaw(d->freeze_gen);
				d->phase = PHASE_EXECTAB;
			} else {
				dump_begin_cpu(d);
			}
			break;
		case PHASE_EXECTAB:
		case PHASE_SITES:
		case PHASE_USTACKS:
		case PHASE_XMAPS:
		case PHASE_SMPSNAP:
			/* no sampler (sample_period_ms=0): no copy, no part */
			if (d->phase == PHASE_SMPSNAP && !d->smpsnap.copy) {
				d->phase++;
				break;
			}
			err = dump_table_all(skb, cb, table_of(d),
					     table_pos_of(d));
			if (err < 0)
				return skb->len ? skb->len : err;
			if (err > 0)
				return skb->len;
			d->phase++;
			break;
		case PHASE_COST:
			err = dump_cost(skb, cb);
			if (err < 0)
				return skb->len ? skb->len : err;
			if (err > 0)
				return skb->len;
			d->phase = PHASE_TRAILER;
			break;
		case PHASE_TRAILER:
			err = dump_trailer(skb, cb);
			if (err)
				return skb->len ? skb->len : err;
			d->phase = PHASE_DONE;
			break;
		case PHASE_DONE:
			return skb->len;
		}
	}
}
