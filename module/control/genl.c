// SPDX-License-Identifier: GPL-2.0
/*
 * The "tipme" generic netlink family: status (one message, or a dump for
 * machines with many possible CPUs), start, stop, trigger, the
 * trigger announcements on its multicast group, the release of triggers
 * the reader will not dump, and the dump, whose messages dump.c builds.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include "compat.h"
#include "fault.h"
#include "recorder.h"
#include "control/trigger.h"
#include "control/dump.h"
#include "control/genl.h"

static struct genl_family tipme_family;

/* The family is registered; announcements may use it.  Under notify_lock. */
static bool registered;
static DEFINE_MUTEX(notify_lock);

/*
 * The family leaves .resv_start_op at 0, so the core checks every command
 * as a new one: the header's reserved byte must be 0, only the request,
 * ack, echo and dump flags are accepted, and strict validation rejects
 * every attribute whose policy entry is left NLA_UNSPEC: a command accepts
 * exactly what its policy lists.
 */
static const struct nla_policy tipme_noattr_policy[TIPME_ATTR_MAX + 1] = {};

static const struct nla_policy tipme_dump_policy[TIPME_ATTR_MAX + 1] = {
	[TIPME_ATTR_DUMP_MAPPED] = { .type = NLA_FLAG },
};

static const struct nla_policy tipme_trigger_policy[TIPME_ATTR_MAX + 1] = {
	[TIPME_ATTR_TRIGGER_SOURCE] = NLA_POLICY_RANGE(NLA_U32, TIPME_TRIG_NETLINK,
						       TIPME_TRIG_SOURCE_MAX),
};

/* The newest trigger the reader gives up: a number it was told, so not 0. */
static const struct nla_policy tipme_release_policy[TIPME_ATTR_MAX + 1] = {
	[TIPME_ATTR_TRIGGER_SEQ] = NLA_POLICY_MIN(NLA_U32, 1),
};

static int put_u64(struct sk_buff *skb, int attr, u64 v)
{
	return nla_put_u64_64bit(skb, attr, v, TIPME_ATTR_PAD);
}

static int put_trigger(struct sk_buff *skb, const struct tipme_trigger_info *t)
{
	if (nla_put_u32(skb, TIPME_ATTR_TRIGGER_SEQ, t->seq) ||
	    nla_put_u32(skb, TIPME_ATTR_TRIGGER_SOURCE, t->source) ||
	    put_u64(skb, TIPME_ATTR_TRIGGER_TS, t->ts) ||
	    put_u64(skb, TIPME_ATTR_TRIGGER_MONO_NS, t->mono_ns) ||
	    put_u64(skb, TIPME_ATTR_TRIGGER_REAL_NS, t->real_ns) ||
	    (t->has_press && nla_put(skb, TIPME_ATTR_TRIGGER_PRESS,
				     sizeof(t->press), &t->press)))
		return -EMSGSIZE;
	return 0;
}

/* Everything a STATUS reply says but the CPUs' entries. */
static int put_status(struct sk_buff *skb)
{
	struct tipme_freeze_counts fc;
	struct tipme_trigger_info t;
	u32 triggers;

	tipme_trigger_last(&t, &triggers, NULL);
	tipme_recorder_freeze_counts(&fc);
	if (tipme_dump_put_geometry(skb) ||
	    nla_put_u32(skb, TIPME_ATTR_CPU_COUNT, num_possible_cpus()) ||
	    nla_put_u32(skb, TIPME_ATTR_TRIGGERS, triggers) ||
	    (fc.gen && nla_put_u32(skb, TIPME_ATTR_FREEZE_GEN, fc.gen)) ||
	    put_u64(skb, TIPME_ATTR_FREEZES, fc.freezes) ||
	    put_u64(skb, TIPME_ATTR_FREEZES_EXPIRED, fc.expired) ||
	    put_u64(skb, TIPME_ATTR_FREEZES_RELEASED, fc.released) ||
	    (t.seq && put_trigger(skb, &t)) || tipme_dump_put_cost(skb) ||
	    tipme_dump_put_params(skb))
		return -EMSGSIZE;
	return 0;
}

/*
 * The one-message STATUS reply, for readers that ask without NLM_F_DUMP:
 * every CPU in one nest, which holds about 700.  With more possible CPUs
 * it is refused (EMSGSIZE, with a message): a nest that long would wrap
 * its 16-bit length.
 */
static int tipme_cmd_status(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	int cpu = 0, err;
	void *hdr;

	msg = genlmsg_new(tipme_dump_status_size(num_possible_cpus()),
			  GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &tipme_family, 0, TIPME_CMD_STATUS);
	err = !hdr ? -EMSGSIZE : put_status(msg);
	if (!err)
		err = tipme_dump_put_cpu_stats(msg, &cpu);
	if (!err && cpu < nr_cpu_ids) {
		GENL_SET_ERR_MSG(info,
				 "too many possible CPUs for one STATUS reply: ask with NLM_F_DUMP");
		err = -EMSGSIZE;
	}
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * The STATUS dump: the first message says what the one-message reply
 * says, with as many CPUs as fit, and each further one carries the next
 * CPUs' nest, until every possible CPU was sent.  cb->args[0]: the next
 * CPU; cb->args[1]: the first message was sent.
 */
static int tipme_status_start(struct netlink_callback *cb)
{
	/* the first message, and a few CPUs with it */
	cb->min_dump_alloc = max_t(u32, cb->min_dump_alloc,
				   tipme_dump_status_size(4));
	return 0;
}

static int tipme_status_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	bool first = !cb->args[1];
	int cpu = cb->args[0];
	void *hdr;

	if (!first && cpu >= nr_cpu_ids)
		return 0;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &tipme_family, NLM_F_MULTI, TIPME_CMD_STATUS);
	if (!hdr || (first && put_status(skb)))
		goto full;
	/* The first message may hold no CPU: the next ones carry them. */
	if (cpu < nr_cpu_ids && tipme_dump_put_cpu_stats(skb, &cpu) && !first)
		goto full;
	genlmsg_end(skb, hdr);
	cb->args[0] = cpu;
	cb->args[1] = 1;
	return skb->len;

full:
	if (hdr)
		genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int tipme_cmd_start(struct sk_buff *skb, struct genl_info *info)
{
	return tipme_switch_recording(true, TIPME_BY_NETLINK);
}

static int tipme_cmd_stop(struct sk_buff *skb, struct genl_info *info)
{
	return tipme_switch_recording(false, TIPME_BY_NETLINK);
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

/*
 * The reader will not dump the triggers up to TRIGGER_SEQ (held back by
 * its limits, lost, or a dump that failed): their frozen window is thawed
 * now rather than after freeze_timeout_s, unless a later trigger shares it.
 */
static int tipme_cmd_release(struct sk_buff *skb, struct genl_info *info)
{
	if (!info->attrs[TIPME_ATTR_TRIGGER_SEQ])
		return -EINVAL;
	tipme_recorder_release(nla_get_u32(info->attrs[TIPME_ATTR_TRIGGER_SEQ]));
	return 0;
}

/**
 * tipme_genl_notify_trigger() - announce a trigger on the multicast group
 * @t: the trigger
 *
 * Only in the initial network namespace, where the family lives: an
 * announcement names the process an auto trigger's slow press went to,
 * which no container (nor anyone without CAP_NET_ADMIN, where the kernel
 * checks the group's flags) may learn.  Does nothing while the family is
 * not registered.
 *
 * Context: process context.
 * Return: 0, or a negative errno (-ESRCH: nobody listens or no family).
 */
int tipme_genl_notify_trigger(const struct tipme_trigger_info *t)
{
	struct sk_buff *msg;
	void *hdr;
	int err = -ESRCH;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put(msg, 0, 0, &tipme_family, 0, TIPME_CMD_TRIGGER_EVENT);
	if (!hdr || put_trigger(msg, t)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	mutex_lock(&notify_lock);
	if (registered)
		err = genlmsg_multicast_netns(&tipme_family, &init_net, msg,
					      0, 0, GFP_KERNEL);
	else
		nlmsg_free(msg);
	mutex_unlock(&notify_lock);
	return err;
}

static int tipme_dump_start_cb(struct netlink_callback *cb)
{
	return tipme_dump_start(cb, &tipme_family);
}

static const struct genl_ops tipme_ops[] = {
	{
		.cmd = TIPME_CMD_STATUS,
		.flags = GENL_ADMIN_PERM,
		.doit = tipme_cmd_status,
		.start = tipme_status_start,
		.dumpit = tipme_status_dump,
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
		.cmd = TIPME_CMD_RELEASE,
		.flags = GENL_ADMIN_PERM,
		.doit = tipme_cmd_release,
		.policy = tipme_release_policy,
		.maxattr = TIPME_ATTR_MAX,
	},
	{
		.cmd = TIPME_CMD_DUMP,
		.flags = GENL_ADMIN_PERM,
		.start = tipme_dump_start_cb,
		.dumpit = tipme_dump,
		.done = tipme_dump_done,
		.policy = tipme_dump_policy,
		.maxattr = TIPME_ATTR_MAX,
	},
};

/* tipmed listens here as root; nobody else may (TIPME_GENL_MCGRP_FLAGS) */
static const struct genl_multicast_group tipme_mcgrps[] = {
	{ .name = TIPME_GENL_MCGRP, .flags = TIPME_GENL_MCGRP_FLAGS },
};

static struct genl_family tipme_family = {
	.name = TIPME_GENL_NAME,
	.version = TIPME_GENL_VERSION,
	.maxattr = TIPME_ATTR_MAX,
	.module = THIS_MODULE,
	.ops = tipme_ops,
	.n_ops = ARRAY_SIZE(tipme_ops),
	.mcgrps = tipme_mcgrps,
	.n_mcgrps = ARRAY_SIZE(tipme_mcgrps),
};

/**
 * tipme_genl_init() - register the generic netlink family
 *
 * Commands can arrive as soon as this returns: call it when everything
 * they use is set up.
 *
 * Context: module init.
 * Return: 0 or the error of genl_register_family().
 */
int tipme_genl_init(void)
{
	int err;

	err = tipme_fail_step("netlink family") ? -ENOMEM :
	      genl_register_family(&tipme_family);
	if (err)
		return err;
	mutex_lock(&notify_lock);
	registered = true;
	mutex_unlock(&notify_lock);
	return 0;
}

/**
 * tipme_genl_exit() - unregister the family
 *
 * Waits for an announcement in progress; no command runs afterwards.
 *
 * Context: module exit; no dump can be running (a dump holds a reference
 * on the module).
 */
void tipme_genl_exit(void)
{
	mutex_lock(&notify_lock);
	registered = false;
	mutex_unlock(&notify_lock);
	genl_unregister_family(&tipme_family);
}
