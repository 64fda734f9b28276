// SPDX-License-Identifier: GPL-2.0
/*
 * Layer (a) for the instrumentation: the exec table and self-cost sections,
 * and the kernel symbol table (read on first use).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instr.h"

struct pm_instr *pm_instr_get(const struct pm_dump *pm)
{
	struct pm_dump *m = (struct pm_dump *)pm;	/* lazily filled cache */

	if (!m->instr)
		m->instr = calloc(1, sizeof(*m->instr));
	return m->instr;
}

void pm_instr_free(struct pm_dump *pm)
{
	struct pm_instr *in = pm->instr;

	if (!in)
		return;
	free(in->execs);
	free(in->costs);
	free(in->sym_addr);
	free(in->sym_name);
	free(in);
	pm->instr = NULL;
}

static int sec_fail(const struct dump_sec *s, struct tm_err *e,
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

static int load_exectab(struct pm_instr *in, const struct dump_sec *s,
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
	if (hsize < sizeof(in->xhdr) || hsize > size || hsize % 8)
		return sec_fail(s, e, "bad header size", 0);
	memcpy(&in->xhdr, p, sizeof(in->xhdr));
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

int pm_instr_load_section(struct pm_dump *pm, const struct dump_sec *s,
			  struct tm_err *e)
{
	struct pm_instr *in = pm_instr_get(pm);

	if (!in)
		return tm_err_set(e, ENOMEM, "out of memory");
	switch (s->h.type) {
	case TIPME_SEC_EXECTAB:
		return load_exectab(in, s, e);
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
static uint64_t param_u64(const struct pm_dump *pm, const char *key,
			  uint64_t def)
{
	const char *t = pm->params.text, *end = t + pm->params.len;
	size_t kl = strlen(key);
	char buf[32];

	while (t && t < end) {
		const char *nl = memchr(t, '\n', end - t);
		size_t len = nl ? (size_t)(nl - t) : (size_t)(end - t);

		if (len > kl && !memcmp(t, key, kl) && t[kl] == '=' &&
		    len - kl - 1 < sizeof(buf)) {
			memcpy(buf, t + kl + 1, len - kl - 1);
			buf[len - kl - 1] = '\0';
			return strtoull(buf, NULL, 0);
		}
		t = nl ? nl + 1 : end;
	}
	return def;
}

static uint64_t sym_by_name(const struct pm_instr *in, const char *name)
{
	size_t i;

	for (i = 0; i < in->nr_syms; i++)
		if (!strcmp(in->strs + in->sym_name[i], name))
			return in->sym_addr[i];
	return 0;
}

static void load_symbols(const struct pm_dump *pm, struct pm_instr *in)
{
	const struct dump_sec *s = NULL;
	uint64_t count, i;
	size_t tab;
	uint32_t k;

	in->syms_loaded = 1;
	in->text_hi = param_u64(pm, "text_addr_hi", 0xffffffffULL) << 32;
	for (k = 0; k < pm->d.nr_secs; k++)
		if (pm->d.secs[k].h.type == TIPME_SEC_SYMBOLS)
			s = &pm->d.secs[k];
	if (!s || s->h.size < sizeof(count))
		return;
	memcpy(&count, s->data, sizeof(count));
	if (count > (s->h.size - sizeof(count)) / sizeof(struct tipme_sym))
		return;
	tab = sizeof(count) + count * sizeof(struct tipme_sym);
	in->sym_addr = malloc((count + 1) * sizeof(*in->sym_addr));
	in->sym_name = malloc((count + 1) * sizeof(*in->sym_name));
	if (!in->sym_addr || !in->sym_name)
		return;
	in->strs = (const char *)s->data + tab;
	in->strs_len = s->h.size - tab;
	for (i = 0; i < count; i++) {
		struct tipme_sym y;

		memcpy(&y, s->data + sizeof(count) + i * sizeof(y), sizeof(y));
		if (y.name_off >= in->strs_len ||
		    !memchr(in->strs + y.name_off, '\0', in->strs_len - y.name_off))
			continue;
		if (in->nr_syms && y.addr < in->sym_addr[in->nr_syms - 1])
			continue;	/* must be sorted */
		in->sym_addr[in->nr_syms] = y.addr;
		in->sym_name[in->nr_syms] = y.name_off;
		in->nr_syms++;
	}
	in->sched_lo = sym_by_name(in, "__sched_text_start");
	in->sched_hi = sym_by_name(in, "__sched_text_end");
	in->lock_lo = sym_by_name(in, "__lock_text_start");
	in->lock_hi = sym_by_name(in, "__lock_text_end");
}

const char *pm_sym_name(const struct pm_dump *pm, uint64_t addr, uint64_t *off)
{
	struct pm_instr *in = pm_instr_get(pm);
	size_t lo = 0, hi;

	if (!in)
		return NULL;
	if (!in->syms_loaded)
		load_symbols(pm, in);
	hi = in->nr_syms;
	if (!hi || addr < in->sym_addr[0])
		return NULL;
	while (hi - lo > 1) {		/* last symbol at or below @addr */
		size_t mid = lo + (hi - lo) / 2;

		if (in->sym_addr[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* Aliases share an address: prefer the first name, as kallsyms does. */
	while (lo > 0 && in->sym_addr[lo - 1] == in->sym_addr[lo])
		lo--;
	if (off)
		*off = addr - in->sym_addr[lo];
	return in->strs + in->sym_name[lo];
}

static int skip_frame(const struct pm_dump *pm, const struct pm_instr *in,
		      uint64_t addr)
{
	const char *name;
	size_t len;

	if (in->sched_lo && addr >= in->sched_lo && addr < in->sched_hi)
		return 1;
	if (in->lock_lo && addr >= in->lock_lo && addr < in->lock_hi)
		return 1;
	name = pm_sym_name(pm, addr, NULL);
	if (!name)
		return 0;
	len = strlen(name);
	return !strncmp(name, "__traceiter_", 12) ||
	       (len > 8 && !strcmp(name + len - 8, " [tipme]"));
}

size_t pm_site_frames(const struct pm_dump *pm, const uint32_t *ips,
		      size_t n, uint64_t *out, size_t max)
{
	struct pm_instr *in = pm_instr_get(pm);
	size_t i, k = 0;

	if (!in)
		return 0;
	if (!in->syms_loaded)
		load_symbols(pm, in);
	for (i = 0; i < n && k < max; i++) {
		uint64_t a;

		if (!ips[i])
			continue;
		a = in->text_hi | ips[i];
		if (skip_frame(pm, in, a))
			continue;
		out[k++] = a;
	}
	return k;
}
