// SPDX-License-Identifier: GPL-2.0
/*
 * The network records: TCP data received by a socket someone waited on,
 * and TCP data queued to a device by its socket; and the one form of a
 * socket's address every output uses ("10.0.0.1:5000", "[::1]:5000").
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>

#include "family.h"

char *pm_net_addr(uint8_t family, const uint8_t addr[16], uint16_t port,
		  char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];
	static const uint8_t v4mapped[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
	};

	if (family == TIPME_NET_INET6 && !memcmp(addr, v4mapped, sizeof(v4mapped)))
		family = TIPME_NET_INET, addr += 12;
	if (family == TIPME_NET_INET && inet_ntop(AF_INET, addr, a, sizeof(a)))
		snprintf(buf, size, "%s:%u", a, port);
	else if (family == TIPME_NET_INET6 && inet_ntop(AF_INET6, addr, a, sizeof(a)))
		snprintf(buf, size, "[%s]:%u", a, port);
	else
		snprintf(buf, size, "?:%u", port);
	return buf;
}

const char *pm_net_proto(uint8_t proto)
{
	return proto == 6 ? "tcp" : proto == 17 ? "udp" : "ip";
}

static unsigned int net_pids(const struct pm_event *ev, uint32_t *pids)
{
	const struct tipme_rec_net *n = &ev->u.rec.NET_RECV;

	if (!n->pid)
		return 0;
	pids[0] = n->pid;
	return 1;
}

static void net_text(FILE *f, const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_net *n = &ev->u.rec.NET_RECV;
	char l[64], r[64], t[48];

	fprintf(f, " %s %s -> %s len=%" PRIu32 " pid=%s in %s\n", pm_net_proto(n->proto),
		pm_net_addr(n->family, n->laddr, n->lport, l, sizeof(l)),
		pm_net_addr(n->family, n->raddr, n->rport, r, sizeof(r)), n->len,
		pm_fmt_task(pm, n->pid, ev->ts, t, sizeof(t)), pm_ctx_name(n->ctx));
}

static void net_json(struct tm_jw *w, const struct pm_dump *pm,
		     const struct pm_event *ev)
{
	const struct tipme_rec_net *n = &ev->u.rec.NET_RECV;
	char a[64];

	tm_jw_kstr(w, "proto", pm_net_proto(n->proto));
	tm_jw_kstr(w, "local", pm_net_addr(n->family, n->laddr, n->lport, a, sizeof(a)));
	tm_jw_kstr(w, "remote", pm_net_addr(n->family, n->raddr, n->rport, a, sizeof(a)));
	tm_jw_key(w, "len");
	tm_jw_u64(w, n->len);
	pm_rec_json_task(w, pm, "pid", NULL, n->pid, ev->ts);
	tm_jw_kstr(w, "ctx", pm_ctx_name(n->ctx));
}

const struct pm_recops pm_rec_net = {
	.pids = net_pids,
	.text = net_text,
	.json = net_json,
};
