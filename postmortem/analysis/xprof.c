// SPDX-License-Identifier: GPL-2.0
/*
 * What the X server did for whom in an interval (see xprof.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xdumpfile.h"
#include "../dump/clock.h"
#include "xprof.h"

/* One request's server time is cut here: longer is the server idle. */
#define REQ_CAP_NS	100000000LL
/* Requests a client may have outstanding that we remember. */
#define PENDING		64

struct pending {
	uint32_t seq;
	int64_t t;
};

struct cl_acc {
	struct pm_xprof_client c;
	struct pending pend[PENDING];
	unsigned int npend;
};

static struct cl_acc *client_of(struct cl_acc **v, size_t *n, size_t *cap,
				const struct tm_xdump *x, uint32_t id)
{
	struct tipme_x11_client cl;
	struct cl_acc *nv;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*v)[i].c.id == id)
			return &(*v)[i];
	if (*n == *cap) {
		nv = realloc(*v, (*cap ? 2 * *cap : 16) * sizeof(*nv));
		if (!nv)
			return NULL;
		*v = nv;
		*cap = *cap ? 2 * *cap : 16;
	}
	memset(&(*v)[*n], 0, sizeof((*v)[*n]));
	(*v)[*n].c.id = id;
	if (!tm_xdump_client_by_id(x, id, &cl)) {
		(*v)[*n].c.pid = cl.flags & TIPME_X11_CL_PID_UNKNOWN ? 0 : cl.pid;
		memcpy((*v)[*n].c.comm, cl.comm, sizeof(cl.comm));
		(*v)[*n].c.comm[sizeof((*v)[*n].c.comm) - 1] = '\0';
	}
	return &(*v)[(*n)++];
}

static struct pm_xprof_req *req_of(struct pm_xprof *p, size_t *cap,
				   const char *name)
{
	struct pm_xprof_req *nv;
	size_t i;

	for (i = 0; i < p->nreqs; i++)
		if (!strcmp(p->reqs[i].name, name))
			return &p->reqs[i];
	if (p->nreqs == *cap) {
		nv = realloc(p->reqs, (*cap ? 2 * *cap : 32) * sizeof(*nv));
		if (!nv)
			return NULL;
		p->reqs = nv;
		*cap = *cap ? 2 * *cap : 32;
	}
	memset(&p->reqs[p->nreqs], 0, sizeof(p->reqs[0]));
	snprintf(p->reqs[p->nreqs].name, sizeof(p->reqs[0].name), "%s", name);
	return &p->reqs[p->nreqs++];
}

/* @a + @b for non-negative values, stopping at INT64_MAX. */
static int64_t sat_add(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static int by_client_time(const void *a, const void *b)
{
	const struct pm_xprof_client *x = a, *y = b;

	if (x->server_ns != y->server_ns)
		return x->server_ns < y->server_ns ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_req_time(const void *a, const void *b)
{
	const struct pm_xprof_req *x = a, *y = b;

	if (x->server_ns != y->server_ns)
		return x->server_ns < y->server_ns ? 1 : -1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* How long @pid ran inside [a, b), or -1 if the state has no such thread. */
static int64_t ran(const struct pm_state *st, uint32_t pid, int64_t a,
		   int64_t b)
{
	const struct pm_thread *t = pm_state_thread(st, pid);
	int64_t sum = 0;
	size_t i;

	if (!t)
		return -1;
	for (i = 0; i < t->nsegs; i++) {
		const struct pm_seg *s = &t->segs[i];
		int64_t s0 = s->start_ns;
		int64_t s1 = s->end_ns;

		if (s->state != PM_T_RUNNING)
			continue;
		s0 = s0 > a ? s0 : a;
		s1 = s1 < b ? s1 : b;
		if (s1 > s0)
			sum += s1 - s0;
	}
	return sum;
}

/**
 * pm_xserver_pid() - the X server's PID, as the X dump knows it
 * @x: the X dump
 *
 * Return: the PID, or 0 if the dump does not know it.
 */
uint32_t pm_xserver_pid(const struct tm_xdump *x)
{
	struct tipme_x11_client cl;
	uint32_t k, pid = 0;

	for (k = 0; k < x->clients.count; k++) {
		tm_xdump_client_at(x, k, &cl);
		if ((cl.flags & TIPME_X11_CL_SERVER) &&
		    !(cl.flags & TIPME_X11_CL_PID_UNKNOWN))
			pid = cl.pid;
	}
	return pid;
}

/**
 * pm_xprof_analyse() - the X server's work for each client in an interval
 * @x: the X dump
 * @st: the state of the same incident's kernel dump, or NULL
 * @from_ns: start of the interval (CLOCK_MONOTONIC)
 * @to_ns: its end
 * @out: the tables; release with pm_xprof_free()
 *
 * Return: 0 or -ENOMEM.
 */
int pm_xprof_analyse(const struct tm_xdump *x,
		     const struct pm_state *st, int64_t from_ns, int64_t to_ns,
		     struct pm_xprof *out)
{
	struct tipme_x11_rec r, nx;
	struct cl_acc *acc = NULL;
	size_t nacc = 0, capacc = 0, capreq = 0, i;
	char name[64];
	uint32_t k;
	int64_t total = 0;

	memset(out, 0, sizeof(*out));
	out->from_ns = from_ns;
	out->to_ns = to_ns;
	out->server_run_ns = -1;
	out->server_pid = pm_xserver_pid(x);
	for (k = 0; k < x->recs.count; k++) {
		struct cl_acc *a;
		int64_t t, gap;

		tm_xdump_rec(x, k, &r);
		/* a time beyond int64 is not one the X server can have stamped */
		if (r.time_ns > INT64_MAX)
			continue;
		t = (int64_t)r.time_ns;
		if (t < from_ns || t >= to_ns)
			continue;
		if (r.kind == TIPME_X11_REPLY && (r.flags & TIPME_X11_REC_MATCHED)) {
			a = client_of(&acc, &nacc, &capacc, x, r.client);
			if (!a)
				goto oom;
			for (i = a->npend; i-- > 0;) {
				if (a->pend[i].seq != r.seq)
					continue;
				gap = t > a->pend[i].t ? t - a->pend[i].t : 0;
				a->c.round_trips++;
				a->c.rt_ns = sat_add(a->c.rt_ns, gap);
				if (gap > a->c.rt_max_ns)
					a->c.rt_max_ns = gap;
				a->pend[i] = a->pend[--a->npend];
				break;
			}
			continue;
		}
		if (r.kind != TIPME_X11_REQUEST)
			continue;
		a = client_of(&acc, &nacc, &capacc, x, r.client);
		if (!a)
			goto oom;
		/* the server's time for it: until its next recorded element */
		gap = 0;
		if (k + 1 < x->recs.count) {
			tm_xdump_rec(x, k + 1, &nx);
			if (nx.time_ns > r.time_ns)
				gap = nx.time_ns - r.time_ns > (uint64_t)REQ_CAP_NS ?
				      REQ_CAP_NS : (int64_t)(nx.time_ns - r.time_ns);
			if (gap > to_ns - t)
				gap = to_ns - t;
		}
		a->c.requests++;
		a->c.bytes += r.length;
		a->c.server_ns = sat_add(a->c.server_ns, gap);
		total = sat_add(total, gap);
		if (a->npend == PENDING)
			memmove(a->pend, a->pend + 1, (PENDING - 1) * sizeof(a->pend[0]));
		else
			a->npend++;
		a->pend[a->npend - 1] = (struct pending){ .seq = r.seq, .t = t };
		tm_xdump_op_name(x, &r, name, sizeof(name));
		{
			struct pm_xprof_req *q = req_of(out, &capreq, name);

			if (!q)
				goto oom;
			q->count++;
			q->bytes += r.length;
			q->op_size += r.op_size;
			q->server_ns = sat_add(q->server_ns, gap);
		}
	}
	if (st && out->server_pid)
		out->server_run_ns = ran(st, out->server_pid, from_ns, to_ns);
	out->clients = calloc(nacc ? nacc : 1, sizeof(*out->clients));
	if (!out->clients)
		goto oom;
	for (i = 0; i < nacc; i++) {
		out->clients[i] = acc[i].c;
		if (out->server_run_ns > 0 && total > 0)
			out->clients[i].server_run_ns = (int64_t)((double)out->server_run_ns *
				(double)acc[i].c.server_ns / (double)total);
	}
	out->nclients = nacc;
	free(acc);
	qsort(out->clients, out->nclients, sizeof(*out->clients), by_client_time);
	if (out->nreqs)
		qsort(out->reqs, out->nreqs, sizeof(*out->reqs), by_req_time);
	return 0;
oom:
	free(acc);
	pm_xprof_free(out);
	return -ENOMEM;
}

/**
 * pm_xprof_free() - release what pm_xprof_analyse() allocated
 * @p: the tables
 */
void pm_xprof_free(struct pm_xprof *p)
{
	free(p->clients);
	free(p->reqs);
	p->clients = NULL;
	p->reqs = NULL;
	p->nclients = p->nreqs = 0;
}
