// SPDX-License-Identifier: GPL-2.0
/*
 * Talking to tipme.ko over generic netlink: connect, simple commands,
 * status.  The dump lives in dumprx.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "nl.h"

/* libnl reports its own error codes; map the ones a user can act on. */
static int nle_to_errno(int nle)
{
	switch (nle < 0 ? -nle : nle) {
	case NLE_PERM:
		return EPERM;
	case NLE_NOMEM:
		return ENOMEM;
	case NLE_BUSY:
		return EBUSY;
	case NLE_OBJ_NOTFOUND:
		return ENOENT;
	case NLE_INVAL:
		return EINVAL;
	case NLE_MSGSIZE:
		return EMSGSIZE;
	case NLE_OPNOTSUPP:
		return EOPNOTSUPP;
	case NLE_AGAIN:
		return EAGAIN;
	case NLE_MSG_TRUNC:
	case NLE_MSG_OVERFLOW:
	case NLE_PARSE_ERR:
	case NLE_MSG_TOOSHORT:
		return EBADMSG;
	default:
		return EIO;
	}
}

static int nl_fail(struct tm_err *e, int nle, const char *what)
{
	int err = nle_to_errno(nle);

	if (err == EPERM)
		return tm_err_set(e, EPERM,
				  "%s: operation not permitted (tipme needs root or CAP_NET_ADMIN)",
				  what);
	return tm_err_set(e, err, "%s: %s", what, nl_geterror(nle));
}

/**
 * tnl_open() - connect to tipme.ko
 * @t: connection state
 * @e: error message
 *
 * Return: 0; -ENOENT if the module is not loaded; another negative errno.
 */
int tnl_open(struct tnl *t, struct tm_err *e)
{
	int err;

	memset(t, 0, sizeof(*t));
	t->sk = nl_socket_alloc();
	if (!t->sk)
		return tm_err_set(e, ENOMEM, "cannot allocate a netlink socket");
	err = genl_connect(t->sk);
	if (err < 0) {
		err = nl_fail(e, err, "netlink connect");
		goto fail;
	}
	/* Large reads let the kernel fill 32 KiB skbs during dumps. */
	nl_socket_set_msg_buf_size(t->sk, 64 * 1024);
	nl_socket_set_buffer_size(t->sk, 4 << 20, 0);
	/* A module that stops answering is an error, not a hang. */
	if (setsockopt(nl_socket_get_fd(t->sk), SOL_SOCKET, SO_RCVTIMEO,
		       &(struct timeval){ .tv_sec = TNL_REPLY_TIMEOUT_S },
		       sizeof(struct timeval)) < 0) {
		err = tm_err_set(e, errno, "netlink socket: %s", strerror(errno));
		goto fail;
	}
	t->family = genl_ctrl_resolve(t->sk, TIPME_GENL_NAME);
	if (t->family < 0) {
		err = tm_err_set(e, ENOENT,
				 "the tipme kernel module is not loaded (no \"%s\" netlink family): insmod tipme.ko first",
				 TIPME_GENL_NAME);
		goto fail;
	}
	return 0;
fail:
	nl_socket_free(t->sk);
	t->sk = NULL;
	return err;
}

/**
 * tnl_close() - disconnect
 * @t: connection (may be closed already)
 */
void tnl_close(struct tnl *t)
{
	if (t->sk)
		nl_socket_free(t->sk);
	t->sk = NULL;
}

static int ack_cb(struct nl_msg *msg, void *arg)
{
	(void)msg;
	*(int *)arg = 1;
	return NL_STOP;
}

/*
 * Read the reply to a request up to and including its ACK.  libnl reports
 * a receive timeout (SO_RCVTIMEO) as "nothing received", so a silent
 * module is told apart here.
 */
static int recv_reply(struct tnl *t, const char *what, struct tm_err *e)
{
	struct nl_cb *cb = nl_socket_get_cb(t->sk);
	int acked = 0, n;

	if (!cb)
		return tm_err_set(e, ENOMEM, "out of memory");
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ack_cb, &acked);
	do {
		n = nl_recvmsgs_report(t->sk, cb);
	} while (n > 0 && !acked);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_DEFAULT, NULL, NULL);
	nl_cb_put(cb);
	if (n < 0)
		return nl_fail(e, n, what);
	if (!acked)
		return tm_err_set(e, ETIMEDOUT,
				  "%s: no reply from tipme.ko within %d s",
				  what, TNL_REPLY_TIMEOUT_S);
	return 0;
}

static struct nl_msg *new_cmd(struct tnl *t, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, t->family, 0, flags,
			 cmd, TIPME_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static const char *cmd_name(uint8_t cmd)
{
	switch (cmd) {
	case TIPME_CMD_STATUS:
		return "status";
	case TIPME_CMD_START:
		return "start";
	case TIPME_CMD_STOP:
		return "stop";
	case TIPME_CMD_DUMP:
		return "dump";
	case TIPME_CMD_RELEASE:
		return "release";
	default:
		return "command";
	}
}

/**
 * tnl_simple() - send a command without attributes and wait for its ack
 * @t: connection
 * @cmd: enum tipme_cmd
 * @e: error message
 *
 * Return: 0 or a negative errno (-EPERM for an unprivileged caller).
 */
int tnl_simple(struct tnl *t, uint8_t cmd, struct tm_err *e)
{
	struct nl_msg *msg = new_cmd(t, cmd, NLM_F_ACK);
	int err;

	if (!msg)
		return tm_err_set(e, ENOMEM, "out of memory");
	err = nl_send_auto(t->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return nl_fail(e, err, cmd_name(cmd));
	return recv_reply(t, cmd_name(cmd), e);
}

static struct nla_policy entry_policy[TIPME_ATTR_MAX + 1] = {
	[TIPME_ATTR_CPU] = { .type = NLA_U32 },
	[TIPME_ATTR_STAT_WRITTEN] = { .type = NLA_U64 },
	[TIPME_ATTR_STAT_OVERWRITTEN] = { .type = NLA_U64 },
	[TIPME_ATTR_STAT_DROPPED] = { .type = NLA_U64 },
	[TIPME_ATTR_STAT_BYTES] = { .type = NLA_U64 },
	[TIPME_ATTR_STAT_DISCARDED] = { .type = NLA_U32 },
	[TIPME_ATTR_STAT_FIRST_TS] = { .type = NLA_U64 },
	[TIPME_ATTR_STAT_LAST_TS] = { .type = NLA_U64 },
};

int tnl_parse_cpu_entry(struct nlattr *entry, struct tipme_cpu_stats *out,
			uint64_t *first_ts, uint64_t *last_ts)
{
	struct nlattr *a[TIPME_ATTR_MAX + 1];

	if (nla_parse_nested(a, TIPME_ATTR_MAX, entry, entry_policy) < 0)
		return -EBADMSG;
	if (!a[TIPME_ATTR_CPU] || !a[TIPME_ATTR_STAT_WRITTEN] ||
	    !a[TIPME_ATTR_STAT_OVERWRITTEN] || !a[TIPME_ATTR_STAT_DROPPED] ||
	    !a[TIPME_ATTR_STAT_BYTES])
		return -EBADMSG;
	memset(out, 0, sizeof(*out));
	out->cpu = nla_get_u32(a[TIPME_ATTR_CPU]);
	out->flags = TIPME_CPU_ONLINE;
	out->written = nla_get_u64(a[TIPME_ATTR_STAT_WRITTEN]);
	out->overwritten = nla_get_u64(a[TIPME_ATTR_STAT_OVERWRITTEN]);
	out->dropped = nla_get_u64(a[TIPME_ATTR_STAT_DROPPED]);
	out->bytes = nla_get_u64(a[TIPME_ATTR_STAT_BYTES]);
	if (a[TIPME_ATTR_STAT_DISCARDED])
		out->discarded_subbufs = nla_get_u32(a[TIPME_ATTR_STAT_DISCARDED]);
	if (first_ts)
		*first_ts = a[TIPME_ATTR_STAT_FIRST_TS] ?
			    nla_get_u64(a[TIPME_ATTR_STAT_FIRST_TS]) : 0;
	if (last_ts)
		*last_ts = a[TIPME_ATTR_STAT_LAST_TS] ?
			   nla_get_u64(a[TIPME_ATTR_STAT_LAST_TS]) : 0;
	return 0;
}

static struct nla_policy status_policy[TIPME_ATTR_MAX + 1] = {
	[TIPME_ATTR_VERSION] = { .type = NLA_STRING },
	[TIPME_ATTR_RECORDING] = { .type = NLA_U8 },
	[TIPME_ATTR_NR_CPUS] = { .type = NLA_U32 },
	[TIPME_ATTR_BUF_SIZE] = { .type = NLA_U64 },
	[TIPME_ATTR_SUBBUF_SIZE] = { .type = NLA_U32 },
	[TIPME_ATTR_SUBBUFS] = { .type = NLA_U32 },
	[TIPME_ATTR_CLOCK_SOURCE] = { .type = NLA_U32 },
	[TIPME_ATTR_TSC_KHZ] = { .type = NLA_U64 },
	[TIPME_ATTR_NOW_TS] = { .type = NLA_U64 },
	[TIPME_ATTR_CPU_STATS] = { .type = NLA_NESTED },
	[TIPME_ATTR_KEYLOG] = { .type = NLA_U8 },
	[TIPME_ATTR_TRIGGERS] = { .type = NLA_U32 },
	[TIPME_ATTR_TRIGGER_SEQ] = { .type = NLA_U32 },
	[TIPME_ATTR_TRIGGER_SOURCE] = { .type = NLA_U32 },
	[TIPME_ATTR_TRIGGER_TS] = { .type = NLA_U64 },
	[TIPME_ATTR_TRIGGER_MONO_NS] = { .type = NLA_U64 },
	[TIPME_ATTR_TRIGGER_REAL_NS] = { .type = NLA_U64 },
	[TIPME_ATTR_FREEZE_GEN] = { .type = NLA_U32 },
	[TIPME_ATTR_FREEZES] = { .type = NLA_U64 },
	[TIPME_ATTR_FREEZES_EXPIRED] = { .type = NLA_U64 },
	[TIPME_ATTR_FREEZES_RELEASED] = { .type = NLA_U64 },
	[TIPME_ATTR_PARAMS] = { .type = NLA_STRING },
	[TIPME_ATTR_CPU_COUNT] = { .type = NLA_U32 },
};

/**
 * struct status_rx - a STATUS reply being read
 * @st: the result
 * @err: negative errno of a malformed message
 * @have_head: the message with every attribute was read
 * @cap: entries @st's arrays have room for
 * @count: CPU entries the module says the reply carries (0: it does not say)
 * @done: the dump's NLMSG_DONE arrived
 * @done_err: the errno NLMSG_DONE carried (0: none)
 */
struct status_rx {
	struct tipme_status *st;
	int err;
	int have_head;
	size_t cap;
	uint32_t count;
	int done;
	int done_err;
};

/* Every attribute but the CPUs' entries, from the first message. */
static int status_head(struct tipme_status *st, struct nlattr **a)
{
	if (!a[TIPME_ATTR_VERSION] || !a[TIPME_ATTR_RECORDING] ||
	    !a[TIPME_ATTR_TSC_KHZ])
		return -EBADMSG;
	nla_strlcpy(st->version, a[TIPME_ATTR_VERSION], sizeof(st->version));
	st->recording = nla_get_u8(a[TIPME_ATTR_RECORDING]);
#define GET(attr, field, getter) \
	do { if (a[attr]) st->field = getter(a[attr]); } while (0)
	GET(TIPME_ATTR_NR_CPUS, nr_cpus, nla_get_u32);
	GET(TIPME_ATTR_BUF_SIZE, buf_size, nla_get_u64);
	GET(TIPME_ATTR_SUBBUF_SIZE, subbuf_size, nla_get_u32);
	GET(TIPME_ATTR_SUBBUFS, subbufs, nla_get_u32);
	GET(TIPME_ATTR_CLOCK_SOURCE, clock_source, nla_get_u32);
	GET(TIPME_ATTR_TSC_KHZ, tsc_khz, nla_get_u64);
	GET(TIPME_ATTR_NOW_TS, now_ts, nla_get_u64);
	GET(TIPME_ATTR_KEYLOG, keylog_used, nla_get_u8);
	GET(TIPME_ATTR_TRIGGERS, triggers, nla_get_u32);
	GET(TIPME_ATTR_TRIGGER_SEQ, last_trigger.seq, nla_get_u32);
	GET(TIPME_ATTR_TRIGGER_SOURCE, last_trigger.source, nla_get_u32);
	GET(TIPME_ATTR_TRIGGER_MONO_NS, last_trigger.mono_ns, nla_get_u64);
	GET(TIPME_ATTR_TRIGGER_REAL_NS, last_trigger.real_ns, nla_get_u64);
	GET(TIPME_ATTR_FREEZE_GEN, freeze.gen, nla_get_u32);
	GET(TIPME_ATTR_FREEZES, freeze.freezes, nla_get_u64);
	GET(TIPME_ATTR_FREEZES_EXPIRED, freeze.expired, nla_get_u64);
	GET(TIPME_ATTR_FREEZES_RELEASED, freeze.released, nla_get_u64);
	st->freeze.known = a[TIPME_ATTR_FREEZES] != NULL;
#undef GET
	if (a[TIPME_ATTR_PARAMS]) {
		st->params = strndup(nla_data(a[TIPME_ATTR_PARAMS]),
				     nla_len(a[TIPME_ATTR_PARAMS]));
		if (!st->params)
			return -ENOMEM;
	}
	return 0;
}

/* Make room for @n more CPU entries. */
static int status_grow(struct status_rx *rx, size_t n)
{
	struct tipme_status *st = rx->st;
	size_t cap = rx->cap ? rx->cap : 64;
	void *p;

	if (st->ncpus + n <= rx->cap)
		return 0;
	while (cap < st->ncpus + n)
		cap *= 2;
	p = realloc(st->cpus, cap * sizeof(*st->cpus));
	if (!p)
		return -ENOMEM;
	st->cpus = p;
	p = realloc(st->first_ts, cap * sizeof(*st->first_ts));
	if (!p)
		return -ENOMEM;
	st->first_ts = p;
	p = realloc(st->last_ts, cap * sizeof(*st->last_ts));
	if (!p)
		return -ENOMEM;
	st->last_ts = p;
	rx->cap = cap;
	return 0;
}

/* One message: the first has every attribute; each has a CPU_STATS nest. */
static int status_msg(struct status_rx *rx, struct nlattr **a)
{
	struct tipme_status *st = rx->st;
	struct nlattr *e;
	size_t n = 0;
	int rem, err;

	if (!rx->have_head) {
		err = status_head(st, a);
		if (err)
			return err;
		rx->have_head = 1;
		if (a[TIPME_ATTR_CPU_COUNT])
			rx->count = nla_get_u32(a[TIPME_ATTR_CPU_COUNT]);
	} else if (a[TIPME_ATTR_VERSION]) {
		return -EBADMSG;	/* a second first message */
	}
	if (!a[TIPME_ATTR_CPU_STATS])
		return 0;
	nla_for_each_nested(e, a[TIPME_ATTR_CPU_STATS], rem)
		n++;
	err = status_grow(rx, n);
	if (err)
		return err;
	nla_for_each_nested(e, a[TIPME_ATTR_CPU_STATS], rem) {
		if (tnl_parse_cpu_entry(e, &st->cpus[st->ncpus],
					&st->first_ts[st->ncpus],
					&st->last_ts[st->ncpus]))
			return -EBADMSG;
		/* CPUs come in increasing order, each once */
		if (st->ncpus && st->cpus[st->ncpus].cpu <= st->cpus[st->ncpus - 1].cpu)
			return -EBADMSG;
		st->ncpus++;
	}
	return 0;
}

static int status_cb(struct nl_msg *msg, void *arg)
{
	struct status_rx *rx = arg;
	struct nlattr *a[TIPME_ATTR_MAX + 1];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, a, TIPME_ATTR_MAX,
			  status_policy) < 0)
		rx->err = -EBADMSG;
	else
		rx->err = status_msg(rx, a);
	return rx->err ? NL_STOP : NL_OK;
}

/* The dump's end, with the errno a failed dump leaves in it. */
static int status_done_cb(struct nl_msg *msg, void *arg)
{
	struct status_rx *rx = arg;
	struct nlmsghdr *h = nlmsg_hdr(msg);
	int v;

	rx->done = 1;
	if (nlmsg_datalen(h) >= (int)sizeof(v)) {
		memcpy(&v, nlmsg_data(h), sizeof(v));
		rx->done_err = v < 0 ? -v : 0;
	}
	return NL_STOP;
}

/* Ask for the status, as a dump (@dump) or as one message. */
static int status_ask(struct tnl *t, struct status_rx *rx, int dump,
		      struct tm_err *e)
{
	struct nl_msg *msg;
	struct nl_cb *cb;
	int err, n;

	msg = new_cmd(t, TIPME_CMD_STATUS, dump ? NLM_F_DUMP : 0);
	if (!msg)
		return tm_err_set(e, ENOMEM, "out of memory");
	err = nl_send_auto(t->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return nl_fail(e, err, "status");
	if (!dump) {
		nl_socket_modify_cb(t->sk, NL_CB_VALID, NL_CB_CUSTOM, status_cb, rx);
		return recv_reply(t, "status", e);
	}
	cb = nl_cb_clone(nl_socket_get_cb(t->sk));
	if (!cb)
		return tm_err_set(e, ENOMEM, "out of memory");
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, status_cb, rx);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, status_done_cb, rx);
	do {
		n = nl_recvmsgs_report(t->sk, cb);
	} while (n > 0 && !rx->done && !rx->err);
	nl_cb_put(cb);
	if (rx->err)
		return 0;	/* the caller reports it */
	if (n < 0)
		return nl_fail(e, n, "status");
	if (!rx->done)
		return tm_err_set(e, ETIMEDOUT,
				  "status: no reply from tipme.ko within %d s",
				  TNL_REPLY_TIMEOUT_S);
	if (rx->done_err)
		return tm_err_set(e, rx->done_err, "status: the module ended its reply early: %s",
				  strerror(rx->done_err));
	return 0;
}

/* What a reply read into @rx makes, after the request's own error @err. */
static int status_result(struct status_rx *rx, int err, struct tm_err *e)
{
	struct tipme_status *st = rx->st;

	if (rx->err) {
		tipme_status_free(st);
		if (rx->err == -ENOMEM)
			return tm_err_set(e, ENOMEM, "out of memory");
		return tm_err_set(e, EBADMSG,
				  "status: malformed reply from the module");
	}
	if (err) {
		tipme_status_free(st);
		return err;
	}
	if (!rx->have_head || !st->ncpus) {
		tipme_status_free(st);
		return tm_err_set(e, EBADMSG, "status: the module sent no reply");
	}
	if (rx->count && st->ncpus != rx->count) {
		err = tm_err_set(e, EBADMSG,
				 "status: the module announced %u CPUs, its reply held %zu",
				 (unsigned int)rx->count, st->ncpus);
		tipme_status_free(st);
		return err;
	}
	return 0;
}

/**
 * tnl_status() - ask the module for its state
 * @t: connection
 * @st: result, release with tipme_status_free()
 * @e: error message
 *
 * Asks with a dump, which holds any number of possible CPUs; a module
 * that answers STATUS only in one message (older ones) is asked again so.
 *
 * Return: 0 or a negative errno.
 */
int tnl_status(struct tnl *t, struct tipme_status *st, struct tm_err *e)
{
	struct status_rx rx = { .st = st };
	int err;

	memset(st, 0, sizeof(*st));
	err = status_ask(t, &rx, 1, e);
	if (err == -EOPNOTSUPP && !rx.have_head)
		err = status_ask(t, &rx, 0, e);
	return status_result(&rx, err, e);
}

/**
 * tnl_status_parse() - read a STATUS reply from messages already received
 * @msgs: its messages, in order (the first with every attribute)
 * @n: how many
 * @st: result, release with tipme_status_free()
 * @e: error message
 *
 * What tnl_status() does with the messages the module sends, for tests.
 *
 * Return: 0 or a negative errno (-EBADMSG: malformed or incomplete).
 */
int tnl_status_parse(struct nl_msg *const *msgs, size_t n,
		     struct tipme_status *st, struct tm_err *e)
{
	struct status_rx rx = { .st = st };
	size_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < n && !rx.err; i++)
		status_cb(msgs[i], &rx);
	return status_result(&rx, 0, e);
}

/**
 * tipme_status_free() - release a status
 * @st: the status
 */
void tipme_status_free(struct tipme_status *st)
{
	free(st->cpus);
	free(st->first_ts);
	free(st->last_ts);
	free(st->params);
	memset(st, 0, sizeof(*st));
}

static struct nla_policy trigger_policy[TIPME_ATTR_MAX + 1] = {
	[TIPME_ATTR_TRIGGER_SEQ] = { .type = NLA_U32 },
	[TIPME_ATTR_TRIGGER_COALESCED] = { .type = NLA_U8 },
	[TIPME_ATTR_TRIGGER_SOURCE] = { .type = NLA_U32 },
	[TIPME_ATTR_TRIGGER_TS] = { .type = NLA_U64 },
	[TIPME_ATTR_TRIGGER_MONO_NS] = { .type = NLA_U64 },
	[TIPME_ATTR_TRIGGER_REAL_NS] = { .type = NLA_U64 },
	[TIPME_ATTR_TRIGGER_PRESS] = { .type = NLA_UNSPEC,
				       .minlen = sizeof(struct tipme_trigger_press) },
};

struct trigger_rx {
	uint32_t seq;
	int coalesced;
	int got;
};

static int trigger_cb(struct nl_msg *msg, void *arg)
{
	struct trigger_rx *rx = arg;
	struct nlattr *a[TIPME_ATTR_MAX + 1];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, a, TIPME_ATTR_MAX,
			  trigger_policy) < 0 || !a[TIPME_ATTR_TRIGGER_SEQ])
		return NL_SKIP;
	rx->seq = nla_get_u32(a[TIPME_ATTR_TRIGGER_SEQ]);
	rx->coalesced = a[TIPME_ATTR_TRIGGER_COALESCED] &&
			nla_get_u8(a[TIPME_ATTR_TRIGGER_COALESCED]);
	rx->got = 1;
	return NL_OK;
}

/**
 * tnl_release() - tell the module no dump comes for triggers up to @seq
 * @t: connection
 * @seq: the newest trigger given up (held back, lost, or its dump failed)
 * @e: error message
 *
 * The module thaws their frozen window at once (and counts it) unless a
 * later trigger shares it.
 *
 * Return: 0 or a negative errno.
 */
int tnl_release(struct tnl *t, uint32_t seq, struct tm_err *e)
{
	struct nl_msg *msg = new_cmd(t, TIPME_CMD_RELEASE, NLM_F_ACK);
	int err;

	if (!msg)
		return tm_err_set(e, ENOMEM, "out of memory");
	if (nla_put_u32(msg, TIPME_ATTR_TRIGGER_SEQ, seq) < 0) {
		nlmsg_free(msg);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	err = nl_send_auto(t->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return nl_fail(e, err, "release");
	return recv_reply(t, "release", e);
}

/**
 * tnl_trigger() - ask the module for a dump
 * @t: connection
 * @source: enum tipme_trigger_source (NETLINK, XHOOK or THRESHOLD)
 * @seq: the trigger's sequence number
 * @coalesced: set to 1 if the request joined a recent trigger
 * @e: error message
 *
 * Return: 0 or a negative errno (-EPERM for an unprivileged caller).
 */
int tnl_trigger(struct tnl *t, uint32_t source, uint32_t *seq, int *coalesced,
		struct tm_err *e)
{
	struct trigger_rx rx = { 0 };
	struct nl_msg *msg = new_cmd(t, TIPME_CMD_TRIGGER, 0);
	int err;

	if (!msg)
		return tm_err_set(e, ENOMEM, "out of memory");
	if (nla_put_u32(msg, TIPME_ATTR_TRIGGER_SOURCE, source) < 0) {
		nlmsg_free(msg);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	err = nl_send_auto(t->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return nl_fail(e, err, "trigger");
	nl_socket_modify_cb(t->sk, NL_CB_VALID, NL_CB_CUSTOM, trigger_cb, &rx);
	err = recv_reply(t, "trigger", e);
	if (err)
		return err;
	if (!rx.got)
		return tm_err_set(e, EBADMSG, "trigger: no reply from the module");
	*seq = rx.seq;
	*coalesced = rx.coalesced;
	return 0;
}

int tnl_events_open(struct tnl *t, struct tm_err *e)
{
	int grp, ctrl, err;

	err = tnl_open(t, e);
	if (err)
		return err;
	nl_socket_disable_seq_check(t->sk);
	grp = genl_ctrl_resolve_grp(t->sk, TIPME_GENL_NAME, TIPME_GENL_MCGRP);
	ctrl = genl_ctrl_resolve_grp(t->sk, "nlctrl", "notify");
	if (grp < 0 || ctrl < 0) {
		tnl_close(t);
		return tm_err_set(e, ENOENT, "cannot find the multicast groups");
	}
	err = nl_socket_add_memberships(t->sk, grp, ctrl, 0);
	if (err < 0) {
		tnl_close(t);
		return nl_fail(e, err, "join multicast group");
	}
	nl_socket_set_nonblocking(t->sk);
	return 0;
}

int tnl_events_fd(struct tnl *t)
{
	return nl_socket_get_fd(t->sk);
}

struct events_rx {
	struct tnl *t;
	tnl_trigger_cb cb;
	void *arg;
	int gone;
};

/**
 * tnl_event_parse() - one message read from the event socket
 * @nlh: the message (its length already checked against what was read)
 * @family: the tipme family's id
 * @ev: set to the trigger announced, when there is one
 * @gone: set to 1 when the message says the tipme family went away
 *
 * The module is trusted no more than any other source of bytes: a
 * missing attribute leaves its field zero, a press comes only with source
 * auto and only at its full size, and its command name is cut to end
 * with a NUL.
 *
 * Return: 1 with a trigger in @ev, else 0.
 */
int tnl_event_parse(struct nlmsghdr *nlh, int family, struct tnl_trigger_event *ev,
		    int *gone)
{
	struct nlattr *a[TIPME_ATTR_MAX + 1];
	struct genlmsghdr *gh;

	if (!genlmsg_valid_hdr(nlh, 0))
		return 0;
	gh = nlmsg_data(nlh);
	if (nlh->nlmsg_type == GENL_ID_CTRL) {
		struct nlattr *c[CTRL_ATTR_MAX + 1];

		if (gh->cmd == CTRL_CMD_DELFAMILY &&
		    genlmsg_parse(nlh, 0, c, CTRL_ATTR_MAX, NULL) >= 0 &&
		    c[CTRL_ATTR_FAMILY_NAME] &&
		    nla_len(c[CTRL_ATTR_FAMILY_NAME]) == (int)sizeof(TIPME_GENL_NAME) &&
		    !memcmp(nla_data(c[CTRL_ATTR_FAMILY_NAME]), TIPME_GENL_NAME,
			    sizeof(TIPME_GENL_NAME)))
			*gone = 1;
		return 0;
	}
	if (nlh->nlmsg_type != family || gh->cmd != TIPME_CMD_TRIGGER_EVENT)
		return 0;
	if (genlmsg_parse(nlh, 0, a, TIPME_ATTR_MAX, trigger_policy) < 0 ||
	    !a[TIPME_ATTR_TRIGGER_SEQ])
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->seq = nla_get_u32(a[TIPME_ATTR_TRIGGER_SEQ]);
	if (a[TIPME_ATTR_TRIGGER_SOURCE])
		ev->source = nla_get_u32(a[TIPME_ATTR_TRIGGER_SOURCE]);
	if (a[TIPME_ATTR_TRIGGER_TS])
		ev->ts = nla_get_u64(a[TIPME_ATTR_TRIGGER_TS]);
	if (a[TIPME_ATTR_TRIGGER_MONO_NS])
		ev->mono_ns = nla_get_u64(a[TIPME_ATTR_TRIGGER_MONO_NS]);
	if (a[TIPME_ATTR_TRIGGER_REAL_NS])
		ev->real_ns = nla_get_u64(a[TIPME_ATTR_TRIGGER_REAL_NS]);
	/* Only the module's own auto trigger carries a press. */
	if (a[TIPME_ATTR_TRIGGER_PRESS] && ev->source == TIPME_TRIG_AUTO &&
	    nla_len(a[TIPME_ATTR_TRIGGER_PRESS]) >= (int)sizeof(ev->press)) {
		memcpy(&ev->press, nla_data(a[TIPME_ATTR_TRIGGER_PRESS]),
		       sizeof(ev->press));
		ev->press.comm[sizeof(ev->press.comm) - 1] = '\0';
		ev->has_press = 1;
	}
	return 1;
}

static int events_cb(struct nl_msg *msg, void *arg)
{
	struct events_rx *rx = arg;
	struct tnl_trigger_event ev;

	if (tnl_event_parse(nlmsg_hdr(msg), rx->t->family, &ev, &rx->gone))
		rx->cb(&ev, rx->arg);
	return NL_OK;
}

int tnl_events_read(struct tnl *t, tnl_trigger_cb cb, void *arg, int *gone,
		    struct tm_err *e)
{
	struct events_rx rx = { .t = t, .cb = cb, .arg = arg };
	int err;

	nl_socket_modify_cb(t->sk, NL_CB_VALID, NL_CB_CUSTOM, events_cb, &rx);
	err = nl_recvmsgs_default(t->sk);
	*gone = rx.gone;
	if (err < 0 && err != -NLE_AGAIN)
		return nl_fail(e, err, "read events");
	return 0;
}
