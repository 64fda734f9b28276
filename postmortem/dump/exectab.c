// SPDX-License-Identifier: GPL-2.0
/*
 * The exec table and self-cost sections of a dump, read at open time, and
 * the exec table's lookups by thread and time or by serial number.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"
#include "usym.h"

struct pm_instr *pm_instr_get(const struct pm_dump *pm)
{
	return pm->instr;
}

int pm_instr_alloc(struct pm_dump *pm, struct tm_err *e)
{
	if (!pm->instr)
		pm->instr = calloc(1, sizeof(*pm->instr));
	return pm->instr ? 0 : tm_err_set(e, ENOMEM, "out of memory");
}

void pm_instr_free(struct pm_dump *pm)
{
	struct pm_instr *in = pm->instr;

	if (!in)
		return;
	free(in->execs);
	pm_sites_free(in);
	pm_ustacks_free(in);
	pm_usym_free(in);
	free(in->costs);
	free(in->snap);
	free(in->sym_addr);
	free(in->sym_name);
	free(in->memo);
	free(in);
	pm->instr = NULL;
}

static int sec_fail(const struct tm_dump_sec *s, struct tm_err *e,
		    const char *what, uint64_t at)
{
	return tm_err_set(e, EINVAL, "section %" PRIu32 " (%s): %s at byte %" PRIu64,
			  s->index, s->h.type == TIPME_SEC_EXECTAB ? "exec table" :
			  "self-cost", what, at);
}

static int cmp_exec(const void *a, const void *b)
{
	const struct pm_exec *x = a, *y = b;

	if (x->x.pid != y->x.pid)
		return x->x.pid < y->x.pid ? -1 : 1;
	return (x->x.start_ts > y->x.start_ts) - (x->x.start_ts < y->x.start_ts);
}

static int load_exectab(struct pm_instr *in, const struct tm_dump_sec *s,
			struct tm_err *e)
{
	const unsigned char *p = s->data;
	uint64_t size = s->h.size, off;
	uint32_t hsize;
	size_t n = 0, cap = 0;

	if (in->have_exectab)
		return sec_fail(s, e, "second exec table", 0);
	if (size < sizeof(uint32_t))
		return sec_fail(s, e, "too short", 0);
	memcpy(&hsize, p, sizeof(hsize));
	if (hsize < TIPME_EXECTAB_HDR_SIZE_V1 || hsize > size || hsize % 8)
		return sec_fail(s, e, "bad header size", 0);
	/* an older header ends before the fields added since: they read 0 */
	memset(&in->xhdr, 0, sizeof(in->xhdr));
	memcpy(&in->xhdr, p, hsize < sizeof(in->xhdr) ? hsize : sizeof(in->xhdr));
	for (off = hsize; off < size;) {
		struct pm_exec x;
		uint64_t need;

		if (size - off < sizeof(x.x))
			return sec_fail(s, e, "entry header truncated", off);
		memcpy(&x.x, p + off, sizeof(x.x));
		need = sizeof(x.x) + (uint64_t)x.x.exe_len + x.x.argv_len +
		       x.x.env_len;
		if (x.x.size % 8 || x.x.size < need || x.x.size > size - off)
			return sec_fail(s, e, "bad entry size", off);
		x.x.comm[sizeof(x.x.comm) - 1] = '\0';
		tm_text_fmt(x.x.comm, strlen(x.x.comm), x.name, sizeof(x.name));
		x.exe = (const char *)p + off + sizeof(x.x);
		x.argv = x.exe + x.x.exe_len;
		x.env = x.argv + x.x.argv_len;
		if (n == cap) {
			struct pm_exec *ne;

			cap = cap ? 2 * cap : 256;
			ne = realloc(in->execs, cap * sizeof(*ne));
			if (!ne)
				return tm_err_set(e, ENOMEM, "out of memory");
			in->execs = ne;
		}
		in->execs[n++] = x;
		off += x.x.size;
	}
	in->nr_execs = n;
	if (n)
		qsort(in->execs, n, sizeof(*in->execs), cmp_exec);
	in->have_exectab = 1;
	return 0;
}

int pm_instr_load_section(struct pm_dump *pm, const struct tm_dump_sec *s,
			  struct tm_err *e)
{
	struct pm_instr *in;
	int err = pm_instr_alloc(pm, e);

	if (err)
		return err;
	in = pm->instr;
	switch (s->h.type) {
	case TIPME_SEC_EXECTAB:
		return load_exectab(in, s, e);
	case TIPME_SEC_SITES:
		return pm_sites_load(in, s, e);
	case TIPME_SEC_USTACKS:
		return pm_ustacks_load(in, s, e);
	case TIPME_SEC_MAPS:
		return pm_maps_load(in, s, e);
	case TIPME_SEC_VDSO:
		return pm_vdso_load(in, s, e);
	case TIPME_SEC_XMAPS:
		return pm_xmaps_load(in, s, e);
	case TIPME_SEC_SMPSNAP:
		return pm_smpsnap_load(in, s, e);
	case TIPME_SEC_COST:
		if (s->h.size % sizeof(struct tipme_cost_total))
			return sec_fail(s, e, "size not a multiple of the entry", 0);
		free(in->costs);
		in->nr_costs = s->h.size / sizeof(struct tipme_cost_total);
		in->costs = malloc(s->h.size ? s->h.size : 1);
		if (!in->costs)
			return tm_err_set(e, ENOMEM, "out of memory");
		memcpy(in->costs, s->data, s->h.size);
		return 0;
	default:
		return 0;
	}
}

const struct pm_exec *pm_exec_find(const struct pm_dump *pm, uint32_t pid,
				   uint64_t ts)
{
	const struct pm_instr *in = pm->instr;
	const struct pm_exec *best = NULL;
	size_t lo = 0, hi;

	if (!in || !in->nr_execs)
		return NULL;
	hi = in->nr_execs;
	while (lo < hi) {		/* first entry of @pid */
		size_t mid = lo + (hi - lo) / 2;

		if (in->execs[mid].x.pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < in->nr_execs && in->execs[lo].x.pid == pid; lo++) {
		const struct pm_exec *x = &in->execs[lo];

		/* Entries are by start: the last one started by @ts wins. */
		if (x->x.start_ts <= ts || !best)
			best = x;
		if (x->x.start_ts <= ts && (!x->x.exit_ts || ts <= x->x.exit_ts))
			best = x;
	}
	return best;
}

void pm_exec_clock(struct pm_dump *pm)
{
	struct pm_instr *in = pm->instr;
	size_t i;

	for (i = 0; in && i < in->nr_execs; i++) {
		struct pm_exec *x = &in->execs[i];

		x->start_ns = pm_clock_mono(&pm->clock, x->x.start_ts);
		x->exit_ns = x->x.exit_ts ? pm_clock_mono(&pm->clock, x->x.exit_ts) : 0;
	}
}

/* The first entry of @pid (entries are by pid, then start), or nr_execs. */
static size_t first_of(const struct pm_instr *in, uint32_t pid)
{
	size_t lo = 0, hi = in->nr_execs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->execs[mid].x.pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct pm_exec *pm_exec_at(const struct pm_dump *pm, uint32_t pid,
				 int64_t ns)
{
	const struct pm_instr *in = pm->instr;
	const struct pm_exec *best = NULL;
	size_t lo;

	if (!in || !in->nr_execs)
		return NULL;
	for (lo = first_of(in, pid); lo < in->nr_execs && in->execs[lo].x.pid == pid; lo++) {
		const struct pm_exec *x = &in->execs[lo];

		/* Entries are by start: the last one started by @ns wins. */
		if (x->start_ns <= ns || !best)
			best = x;
		if (x->start_ns <= ns && (!x->x.exit_ts || ns <= x->exit_ns))
			best = x;
	}
	return best;
}

const char *pm_comm_at(const struct pm_dump *pm, uint32_t pid, int64_t ns)
{
	const struct pm_exec *x = pid ? pm_exec_at(pm, pid, ns) : NULL;

	return x && x->name[0] ? x->name : NULL;	/* comm is NUL-padded */
}

const struct pm_exec *pm_exec_by_id(const struct pm_dump *pm, uint32_t id)
{
	const struct pm_instr *in = pm->instr;
	size_t i;

	if (!in || !id)
		return NULL;
	for (i = 0; i < in->nr_execs; i++)
		if (in->execs[i].x.id == id)
			return &in->execs[i];
	return NULL;
}

/* Value of "key=0x..." in the params text, or @def. */
