// SPDX-License-Identifier: GPL-2.0
/*
 * The X server tables of `tipme report --x`, as text and as JSON.
 */
#include <inttypes.h>
#include <string.h>

#include "safetext.h"
#include "xprof.h"

/* Request types printed in the text table; JSON has them all. */
#define TEXT_REQS	15

/**
 * pm_xprof_text() - the tables as text
 * @f: output
 * @p: the tables
 */
void pm_xprof_text(FILE *f, const struct pm_xprof *p)
{
	size_t i;

	fprintf(f, "\nX server");
	if (p->server_pid)
		fprintf(f, " (pid %" PRIu32 ")", p->server_pid);
	if (p->server_run_ns >= 0)
		fprintf(f, ": ran %.1f ms of the %.1f ms interval", p->server_run_ns / 1e6,
			(p->to_ns - p->from_ns) / 1e6);
	fprintf(f, "\n  (server ms: each request until the server's next recorded element;\n"
		   "   X stamps whole milliseconds, so read sums, not single requests)\n");
	fprintf(f, "  %-24s %8s %10s %10s %10s %8s %10s %10s\n", "client", "requests",
		"bytes", "server ms", "run ms", "replies", "waited ms", "longest ms");
	for (i = 0; i < p->nclients; i++) {
		const struct pm_xprof_client *c = &p->clients[i];
		char who[96], name[sizeof(c->comm) * TM_TEXT_PER_BYTE + 1];

		if (c->pid)
			snprintf(who, sizeof(who), "%" PRIu32 " (%s)", c->pid,
				 c->comm[0] ? tm_text_fmt(c->comm, strnlen(c->comm, sizeof(c->comm)),
							  name, sizeof(name)) : "?");
		else
			snprintf(who, sizeof(who), "client %" PRIu32 " (pid unknown)", c->id);
		fprintf(f, "  %-24s %8" PRIu64 " %10" PRIu64 " %10.1f ", who, c->requests,
			c->bytes, c->server_ns / 1e6);
		if (p->server_run_ns >= 0)
			fprintf(f, "%10.1f", c->server_run_ns / 1e6);
		else
			fprintf(f, "%10s", "-");
		fprintf(f, " %8" PRIu64 " %10.1f %10.1f\n", c->round_trips, c->rt_ns / 1e6,
			c->rt_max_ns / 1e6);
	}
	if (!p->nclients)
		fprintf(f, "  no requests in the interval\n");
	if (!p->nreqs)
		return;
	fprintf(f, "\nrequests, by server time:\n");
	fprintf(f, "  %-28s %8s %10s %10s %10s\n", "request", "count", "bytes", "op size",
		"server ms");
	for (i = 0; i < p->nreqs && i < TEXT_REQS; i++) {
		const struct pm_xprof_req *q = &p->reqs[i];

		fprintf(f, "  %-28s %8" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10.1f\n", q->name,
			q->count, q->bytes, q->op_size, q->server_ns / 1e6);
	}
	if (p->nreqs > TEXT_REQS)
		fprintf(f, "  (%zu more in --json)\n", p->nreqs - TEXT_REQS);
}

/**
 * pm_xprof_json() - the tables as the value of a JSON key
 * @w: the writer, after the key
 * @p: the tables
 */
void pm_xprof_json(struct tm_jw *w, const struct pm_xprof *p)
{
	size_t i;

	tm_jw_obj_begin(w);
	tm_jw_ki64(w, "from_mono_ns", p->from_ns);
	tm_jw_ki64(w, "to_mono_ns", p->to_ns);
	tm_jw_key(w, "server_pid");
	if (p->server_pid)
		tm_jw_u64(w, p->server_pid);
	else
		tm_jw_null(w);
	tm_jw_key(w, "server_run_ms");
	if (p->server_run_ns >= 0)
		tm_jw_double(w, p->server_run_ns / 1e6);
	else
		tm_jw_null(w);
	tm_jw_key(w, "clients");
	tm_jw_arr_begin(w);
	for (i = 0; i < p->nclients; i++) {
		const struct pm_xprof_client *c = &p->clients[i];

		tm_jw_obj_begin(w);
		tm_jw_ku64(w, "client", c->id);
		tm_jw_key(w, "pid");
		if (c->pid)
			tm_jw_u64(w, c->pid);
		else
			tm_jw_null(w);
		tm_jw_kstr(w, "comm", c->comm);
		tm_jw_ku64(w, "requests", c->requests);
		tm_jw_ku64(w, "bytes", c->bytes);
		tm_jw_kdouble(w, "server_ms", c->server_ns / 1e6);
		tm_jw_key(w, "server_run_ms");
		if (p->server_run_ns >= 0)
			tm_jw_double(w, c->server_run_ns / 1e6);
		else
			tm_jw_null(w);
		tm_jw_ku64(w, "round_trips", c->round_trips);
		tm_jw_kdouble(w, "waited_ms", c->rt_ns / 1e6);
		tm_jw_kdouble(w, "longest_round_trip_ms", c->rt_max_ns / 1e6);
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
	tm_jw_key(w, "requests");
	tm_jw_arr_begin(w);
	for (i = 0; i < p->nreqs; i++) {
		const struct pm_xprof_req *q = &p->reqs[i];

		tm_jw_obj_begin(w);
		tm_jw_kstr(w, "request", q->name);
		tm_jw_ku64(w, "count", q->count);
		tm_jw_ku64(w, "bytes", q->bytes);
		tm_jw_ku64(w, "op_size", q->op_size);
		tm_jw_kdouble(w, "server_ms", q->server_ns / 1e6);
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
	tm_jw_obj_end(w);
}
