// SPDX-License-Identifier: GPL-2.0
/*
 * Network probes: a TCP segment with data arriving at a socket someone
 * waits on (tcp_probe, at the start of the established socket's receive
 * path, in the softirq that then wakes the reader), and a TCP segment with
 * data queued to a network device by its socket (net_dev_queue, in the
 * sender's context, before a qdisc such as netem holds it).
 *
 * With the socket's addresses and ports a reader joins a reader's wakeup
 * to the receive just before it on that CPU, and the receive to the
 * latest send from the other end of the connection: a local peer that
 * sent late, or a link that held what it sent.  Segments without data
 * (acknowledgements) and receives nobody waits for are not written, so
 * bulk traffic to a busy reader costs a check per segment and no ring
 * space.  Nothing here runs on the context switch path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <linux/wait.h>
#include <net/sock.h>
#include <trace/events/net.h>
#include <trace/events/tcp.h>
#include "compat.h"
#include "recorder.h"
#include "instr/cost.h"
#include "probes/ctx.h"
#include "probes/tracepoints.h"
#include "probes/work.h"

/* Whether a task waits on @sk's queue (a reader, poll, epoll). */
static bool net_waited_on(struct sock *sk)
{
	struct socket_wq *wq;
	bool waited;

	rcu_read_lock();
	wq = rcu_dereference(sk->sk_wq);
	/*
	 * No barrier: a reader that queues itself after this look finds the
	 * data already there and does not sleep; one that is about to be
	 * woken has been queued since before the data arrived.
	 */
	waited = wq && waitqueue_active(&wq->wait);
	rcu_read_unlock();
	return waited;
}

/* A socket tipme names: a full TCP socket over IPv4 or IPv6. */
static bool net_tcp_sock(const struct sock *sk)
{
	return sk && sk_fullsock(sk) && sk->sk_protocol == IPPROTO_TCP &&
	       (sk->sk_family == AF_INET || sk->sk_family == AF_INET6);
}

static void net_record(u32 type, const struct sock *sk, u32 pid, u32 len,
		       u32 ctx)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_net *r;
	struct tipme_wslot ws;

	r = tipme_reserve(type, sizeof(*r), &ws);
	if (!r)
		return;
	memset(r->laddr, 0, sizeof(r->laddr));
	memset(r->raddr, 0, sizeof(r->raddr));
	memcpy(r->laddr, &sk->sk_rcv_saddr, sizeof(sk->sk_rcv_saddr));
	memcpy(r->raddr, &sk->sk_daddr, sizeof(sk->sk_daddr));
	r->family = TIPME_NET_INET;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		memcpy(r->laddr, &sk->sk_v6_rcv_saddr, sizeof(r->laddr));
		memcpy(r->raddr, &sk->sk_v6_daddr, sizeof(r->raddr));
		r->family = TIPME_NET_INET6;
	}
#endif
	r->lport = sk->sk_num;
	r->rport = ntohs(sk->sk_dport);
	r->pid = pid;
	r->len = len;
	r->proto = IPPROTO_TCP;
	r->ctx = (u8)ctx;
	r->reserved = 0;
	tipme_commit(&ws, type);
	tipme_cost_add(type, t0);
}

/*
 * The receive path of an established socket: the segment's data makes
 * the socket readable; its reader's wakeup follows in this context.
 */
static void probe_tcp_probe(void *data, TIPME_TCP_PROBE_ARGS(sk, skb))
{
	const struct tcphdr *th = (const struct tcphdr *)skb->data;
	u32 hlen = th->doff * 4;
	u32 ctx;

	if (skb->len <= hlen || !net_tcp_sock(sk) || !net_waited_on(sk))
		return;
	ctx = tipme_ctx_now();
	if (ctx != TIPME_CTX_TASK)
		tipme_intr_tell(ctx);
	net_record(TIPME_REC_NET_RECV, sk, current->pid, skb->len - hlen, ctx);
}

/* A segment queued to a device: sent, from the sender's context. */
static void probe_net_dev_queue(void *data, struct sk_buff *skb)
{
	const struct sock *sk = skb->sk;
	u32 ctx, hlen;

	if (!net_tcp_sock(sk) || !skb_transport_header_was_set(skb))
		return;
	hlen = skb_transport_offset(skb) + tcp_hdrlen(skb);
	if (skb->len <= hlen)
		return;
	ctx = tipme_ctx_now();
	net_record(TIPME_REC_NET_SEND, sk,
		   ctx == TIPME_CTX_TASK ? current->pid : 0, skb->len - hlen, ctx);
}

struct tipme_probe tipme_net_probes[] = {
	TIPME_PROBE(tcp_probe, probe_tcp_probe),
	TIPME_PROBE(net_dev_queue, probe_net_dev_queue),
};

const size_t tipme_net_probes_count = ARRAY_SIZE(tipme_net_probes);
