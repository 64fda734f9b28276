// SPDX-License-Identifier: GPL-2.0
/*
 * The "tipme" generic netlink family: status, start, stop and the dump that
 * streams every CPU's ring.
 *
 * A dump never stops the writers.  When it starts it notes each ring's
 * write position; it then sends, CPU by CPU and oldest first, every
 * sub-buffer up to that position in chunks that fit the reader's skbs, and
 * after the last chunk of a sub-buffer tells whether writers overwrote it
 * while it was being read (the reader then throws it away; its records are
 * counted as overwritten).  Records written after the dump started stay in
 * the ring for the next dump, except those that land in the sub-buffer the
 * dump reads last, which it includes.  Readers only read, so several dumps
 * may run at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include "compat.h"
#include "recorder.h"
#include "trigger.h"
#include "instr.h"
#include "genl.h"

static struct genl_family tipme_family;

/*
 * Strict validation (resv_start_op) rejects every attribute whose policy
 * entry is left NLA_UNSPEC: a command accepts exactly what its policy lists.
 */
static const struct nla_policy tipme_noattr_policy[TIPME_ATTR_MAX + 1] = {};

static const struct nla_policy tipme_trigger_policy[TIPME_ATTR_MAX + 1] = {
	[TIPME_ATTR_TRIGGER_SOURCE] = NLA_POLICY_RANGE(NLA_U32, TIPME_TRIG_NETLINK,
						       TIPME_TRIG_SOURCE_MAX),
};

static int put_u64(struct sk_buff *skb, int attr, u64 v)
{
	return nla_put_u64_64bit(skb, attr, v, TIPME_ATTR_PAD);
}

static u64 ring_first_ts(struct tipme_ring *r)
{
	unsigned long pos = local_read(&r->reserve);
	u32 *hdr;

	if (!pos)
		return 0;
	hdr = (u32 *)(r->data + ((tipme_ring_oldest_seq(r, pos) <<
				  r->sub_shift) &
				 ((1UL << (r->sub_shift + r->nsub_shift)) - 1)));
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
		    local_read(&r->overwritten)) ||
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

static int put_geometry(struct sk_buff *skb)
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

static int put_trigger(struct sk_buff *skb, const struct tipme_trigger_info *t)
{
	if (nla_put_u32(skb, TIPME_ATTR_TRIGGER_SEQ, t->seq) ||
	    nla_put_u32(skb, TIPME_ATTR_TRIGGER_SOURCE, t->source) ||
	    put_u64(skb, TIPME_ATTR_TRIGGER_TS, t->ts) ||
	    put_u64(skb, TIPME_ATTR_TRIGGER_MONO_NS, t->mono_ns) ||
	    put_u64(skb, TIPME_ATTR_TRIGGER_REAL_NS, t->real_ns))
		return -EMSGSIZE;
	return 0;
}

static int tipme_cmd_status(struct sk_buff *skb, struct genl_info *info)
{
	struct tipme_trigger_info t;
	struct sk_buff *msg;
	struct nlattr *stats;
	u32 triggers;
	void *hdr;
	int cpu;

	msg = genlmsg_new(512 + 160 * num_possible_cpus() +
			  tipme_instr_status_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &tipme_family, 0, TIPME_CMD_STATUS);
	if (!hdr)
		goto out_free;
	tipme_trigger_last(&t, &triggers, NULL);
	if (put_geometry(msg) || nla_put_u32(msg, TIPME_ATTR_TRIGGERS, triggers) ||
	    (t.seq && put_trigger(msg, &t)) || tipme_instr_put_status(msg))
		goto out_free;
	stats = nla_nest_start(msg, TIPME_ATTR_CPU_STATS);
	if (!stats)
		goto out_free;
	for_each_possible_cpu(cpu)
		if (put_cpu_entry(msg, cpu, 0))
			goto out_free;
	nla_nest_end(msg, stats);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

out_free:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int tipme_cmd_start(struct sk_buff *skb, struct genl_info *info)
{
	tipme_set_recording(true);
	return 0;
}

static int tipme_cmd_stop(struct sk_buff *skb, struct genl_info *info)
{
	tipme_set_recording(false);
	return 0;
}

static int tipme_cmd_trigger(struct sk_buff *skb, struct genl_info *info)
{
	u32 source = TIPME_TRIG_NETLINK, seq;
	struct sk_buff *msg;
	bool coalesced;
	void *hdr;

	if (info->attrs[TIPME_ATTR_TRIGGER_SOURCE])
		source = nla_get_u32(info->attrs[TIPME_ATTR_TRIGGER_SOURCE]);
	seq = tipme_trigger(source, &coalesced);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &tipme_family, 0, TIPME_CMD_TRIGGER);
	if (!hdr || nla_put_u32(msg, TIPME_ATTR_TRIGGER_SEQ, seq) ||
	    nla_put_u8(msg, TIPME_ATTR_TRIGGER_COALESCED, coalesced)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/**
 * tipme_genl_notify_trigger() - announce a trigger on the multicast group
 * @t: the trigger
 *
 * Context: process context.
 * Return: 0, or a negative errno (-ESRCH: nobody listens).
 */
int tipme_genl_notify_trigger(const struct tipme_trigger_info *t)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put(msg, 0, 0, &tipme_family, 0, TIPME_CMD_TRIGGER_EVENT);
	if (!hdr || put_trigger(msg, t)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_multicast_allns(&tipme_family, msg, 0, 0);
}

enum dump_phase { PHASE_META, PHASE_CPUS, PHASE_INSTR, PHASE_TRAILER, PHASE_DONE };

/**
 * struct dump_ctx - where a dump is
 * @phase: enum dump_phase
 * @cpu: CPU being sent
 * @seq: sub-buffer being sent
 * @last: last sub-buffer of @cpu to send
 * @off: bytes of @seq already sent
 * @have_view: @view describes @seq
 * @view: what may be copied of @seq
 * @discarded: sub-buffers of @cpu overwritten while being read
 * @instr: where the instrumentation parts are (instr.h)
 * @end: each CPU's write position when the dump started
 */
struct dump_ctx {
	enum dump_phase phase;
	int cpu;
	u64 seq;
	u64 last;
	u32 off;
	bool have_view;
	struct tipme_sub_view view;
	u32 discarded;
	struct tipme_instr_dump instr;
	unsigned long end[];
};

struct dump_cb {
	struct dump_ctx *ctx;
};

static struct dump_ctx *dump_ctx(struct netlink_callback *cb)
{
	return ((struct dump_cb *)cb->ctx)->ctx;
}

static void dump_begin_cpu(struct dump_ctx *d)
{
	struct tipme_ring *r = per_cpu_ptr(tipme.rings, d->cpu);
	unsigned long end = d->end[d->cpu];

	d->seq = tipme_ring_oldest_seq(r, end);
	d->last = end ? (end - 1) >> r->sub_shift : 0;
	if (!end)
		d->seq = 1;	/* nothing to send: seq > last */
	d->off = 0;
	d->have_view = false;
	d->discarded = 0;
}

static int tipme_dump_start(struct netlink_callback *cb)
{
	struct dump_ctx *d;
	int cpu;

	BUILD_BUG_ON(sizeof(struct dump_cb) > sizeof(cb->ctx));
	d = kzalloc(struct_size(d, end, nr_cpu_ids), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	tipme_instr_dump_start(cb, &d->instr);
	tipme_clock_record();
	for_each_possible_cpu(cpu)
		d->end[cpu] = local_read(&per_cpu_ptr(tipme.rings, cpu)->reserve);
	/* Positions before contents; pairs with smp_wmb() in the writers. */
	smp_rmb();
	d->phase = PHASE_META;
	((struct dump_cb *)cb->ctx)->ctx = d;
	return 0;
}

static int tipme_dump_done(struct netlink_callback *cb)
{
	kfree(dump_ctx(cb));
	((struct dump_cb *)cb->ctx)->ctx = NULL;
	return 0;
}

static void *dump_msg(struct sk_buff *skb, struct netlink_callback *cb,
		      enum tipme_dump_part part)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, &tipme_family, NLM_F_MULTI,
				TIPME_CMD_DUMP);

	if (hdr && nla_put_u32(skb, TIPME_ATTR_DUMP_PART, part)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

/* Every part's parameters, as the dump's "key=value\n" params section. */
static int params_text(char *buf, size_t size)
{
	int n = tipme_recorder_params_text(buf, size);

	n += tipme_trigger_params_text(buf + n, size - n);
	return n + tipme_instr_params_text(buf + n, size - n);
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
	if (put_geometry(skb) ||
	    nla_put(skb, TIPME_ATTR_REC_TYPES, ntypes * sizeof(*types), types) ||
	    nla_put_string(skb, TIPME_ATTR_PARAMS, params) ||
	    tipme_instr_put_meta(skb)) {
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

static int dump_view(struct tipme_ring *r, struct dump_ctx *d)
{
	int tries, err = 0;

	for (tries = 0; tries < 1000; tries++) {
		err = tipme_ring_view(r, d->seq, &d->view);
		if (err != -EBUSY)
			return err;
		udelay(1);
	}
	return err;
}

/* Send the current CPU's sub-buffers.  Return: 0 when done, 1 if @skb is full. */
static int dump_cpu(struct sk_buff *skb, struct netlink_callback *cb,
		    struct dump_ctx *d)
{
	struct tipme_ring *r = per_cpu_ptr(tipme.rings, d->cpu);
	unsigned long base;
	struct nlattr *a;
	void *hdr;
	int err, room;
	u32 n;
	bool ok;

	while (d->seq <= d->last) {
		if (!d->have_view) {
			err = dump_view(r, d);
			if (err == -ENODATA)
				break;
			if (err) {	/* overwritten, or a writer stuck in it */
				d->discarded++;
				d->seq++;
				continue;
			}
			d->have_view = true;
			d->off = 0;
		}
		base = d->seq << r->sub_shift;
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
			memcpy(nla_data(a), tipme_ring_ptr(r, base + d->off), n);
			genlmsg_end(skb, hdr);
			d->off += n;
		}
		ok = tipme_ring_still_valid(r, d->seq);
		hdr = dump_msg(skb, cb, TIPME_PART_SUBBUF_END);
		if (!hdr)
			return 1;
		if (nla_put_u32(skb, TIPME_ATTR_CPU, d->cpu) ||
		    put_u64(skb, TIPME_ATTR_SUBBUF_SEQ, d->seq) ||
		    nla_put_u32(skb, TIPME_ATTR_SUBBUF_LEN, d->view.len) ||
		    nla_put_u32(skb, TIPME_ATTR_SUBBUF_FLAGS,
				d->view.partial ? TIPME_SUBBUF_PARTIAL : 0) ||
		    nla_put_u8(skb, TIPME_ATTR_SUBBUF_OK, ok)) {
			genlmsg_cancel(skb, hdr);
			return 1;
		}
		genlmsg_end(skb, hdr);
		if (!ok)
			d->discarded++;
		d->have_view = false;
		d->seq++;
		cond_resched();
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

static int tipme_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct dump_ctx *d = dump_ctx(cb);
	int err;

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
			if (d->cpu >= nr_cpu_ids)
				d->phase = PHASE_INSTR;
			else
				dump_begin_cpu(d);
			break;
		case PHASE_INSTR:	/* exec table, self-cost totals */
			err = tipme_instr_dump(skb, cb, dump_msg, &d->instr);
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

static const struct genl_ops tipme_ops[] = {
	{
		.cmd = TIPME_CMD_STATUS,
		.flags = GENL_ADMIN_PERM,
		.doit = tipme_cmd_status,
		.policy = tipme_noattr_policy,
		.maxattr = TIPME_ATTR_MAX,
	},
	{
		.cmd = TIPME_CMD_START,
		.flags = GENL_ADMIN_PERM,
		.doit = tipme_cmd_start,
		.policy = tipme_noattr_policy,
		.maxattr = TIPME_ATTR_MAX,
	},
	{
		.cmd = TIPME_CMD_STOP,
		.flags = GENL_ADMIN_PERM,
		.doit = tipme_cmd_stop,
		.policy = tipme_noattr_policy,
		.maxattr = TIPME_ATTR_MAX,
	},
	{
		.cmd = TIPME_CMD_TRIGGER,
		.flags = GENL_ADMIN_PERM,
		.doit = tipme_cmd_trigger,
		.policy = tipme_trigger_policy,
		.maxattr = TIPME_ATTR_MAX,
	},
	{
		.cmd = TIPME_CMD_DUMP,
		.flags = GENL_ADMIN_PERM,
		.start = tipme_dump_start,
		.dumpit = tipme_dump,
		.done = tipme_dump_done,
		.policy = tipme_noattr_policy,
		.maxattr = TIPME_ATTR_MAX,
	},
};

static const struct genl_multicast_group tipme_mcgrps[] = {
	{ .name = TIPME_GENL_MCGRP },
};

static struct genl_family tipme_family = {
	.name = TIPME_GENL_NAME,
	.version = TIPME_GENL_VERSION,
	.maxattr = TIPME_ATTR_MAX,
	.module = THIS_MODULE,
	.ops = tipme_ops,
	.n_ops = ARRAY_SIZE(tipme_ops),
	TIPME_GENL_STRICT_FROM(__TIPME_CMD_MAX)
	.mcgrps = tipme_mcgrps,
	.n_mcgrps = ARRAY_SIZE(tipme_mcgrps),
};

/**
 * tipme_genl_init() - register the generic netlink family
 *
 * Context: module init.
 * Return: 0 or the error of genl_register_family().
 */
int tipme_genl_init(void)
{
	return genl_register_family(&tipme_family);
}

/**
 * tipme_genl_exit() - unregister the family
 *
 * Context: module exit; no dump can be running (a dump holds a reference
 * on the module).
 */
void tipme_genl_exit(void)
{
	genl_unregister_family(&tipme_family);
}
