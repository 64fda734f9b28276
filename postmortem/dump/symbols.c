// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel symbol table a dump carries (read when the dump is opened): addresses
 * to names, and the frames of a blocking site or stack worth showing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"

static uint64_t param_u64(const struct pm_dump *pm, const char *key,
			  uint64_t def)
{
	char buf[40];

	/* a value of 32 characters or more is no number of ours */
	if (pm_text_get(&pm->params, key, buf, sizeof(buf)) || strlen(buf) >= 32)
		return def;
	return strtoull(buf, NULL, 0);
}

static uint64_t sym_by_name(const struct pm_instr *in, const char *name)
{
	size_t i;

	for (i = 0; i < in->nr_syms; i++)
		if (!strcmp(in->strs + in->sym_name[i], name))
			return in->sym_addr[i];
	return 0;
}

void pm_syms_load(struct pm_dump *pm)
{
	struct pm_instr *in = pm->instr;
	const struct tm_dump_sec *s = NULL;
	uint64_t count, i;
	size_t tab;
	uint32_t k;

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

/* The index of @addr's symbol, UINT32_MAX if none. */
static uint32_t sym_index(const struct pm_instr *in, uint64_t addr)
{
	size_t lo = 0, hi = in->nr_syms;

	if (!hi || addr < in->sym_addr[0] || hi >= UINT32_MAX)
		return UINT32_MAX;
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
	return (uint32_t)lo;
}

/* @addr's entry in the memo (filled in), or NULL without memory. */
static struct pm_sym_memo *memo_of(struct pm_instr *in, uint64_t addr)
{
	struct pm_sym_memo *m;
	uint64_t h = addr * 0x9e3779b97f4a7c15ULL;

	if (!in->memo) {
		in->memo = calloc(PM_SYM_MEMO, sizeof(*in->memo));
		if (!in->memo)
			return NULL;
	}
	m = &in->memo[(h >> 40) & (PM_SYM_MEMO - 1)];
	if (m->addr != addr || !addr) {
		m->addr = addr;
		m->idx = sym_index(in, addr);
		m->skip = -1;
	}
	return m;
}

const char *pm_sym_name(const struct pm_dump *pm, uint64_t addr, uint64_t *off)
{
	struct pm_instr *in = pm_instr_get(pm);
	struct pm_sym_memo *m;
	uint32_t i;

	if (!in)
		return NULL;
	m = memo_of(in, addr);
	i = m ? m->idx : sym_index(in, addr);
	if (i == UINT32_MAX)
		return NULL;
	if (off)
		*off = addr - in->sym_addr[i];
	return in->strs + in->sym_name[i];
}

static int skip_frame_uncached(const struct pm_dump *pm, const struct pm_instr *in,
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

static int skip_frame(const struct pm_dump *pm, struct pm_instr *in, uint64_t addr)
{
	struct pm_sym_memo *m = memo_of(in, addr);

	if (!m)
		return skip_frame_uncached(pm, in, addr);
	if (m->skip < 0)
		m->skip = (int8_t)skip_frame_uncached(pm, in, addr);
	return m->skip;
}

uint64_t pm_text_addr(const struct pm_dump *pm, uint32_t lo)
{
	struct pm_instr *in = pm_instr_get(pm);

	if (!lo)
		return 0;
	return (in ? in->text_hi : 0xffffffffULL << 32) | lo;
}

char *pm_fmt_func(const struct pm_dump *pm, uint64_t addr, char *buf, size_t len)
{
	uint64_t off = 0;
	const char *n = pm_sym_name(pm, addr, &off);

	if (!n)
		snprintf(buf, len, "0x%" PRIx64, addr);
	else if (off)
		snprintf(buf, len, "%s+0x%" PRIx64, n, off);
	else
		snprintf(buf, len, "%s", n);
	return buf;
}

size_t pm_site_frames(const struct pm_dump *pm, const uint32_t *ips,
		      size_t n, uint64_t *out, size_t max)
{
	struct pm_instr *in = pm_instr_get(pm);
	size_t i, k = 0;

	if (!in)
		return 0;
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

size_t pm_site_chain(const struct pm_dump *pm, uint32_t id, uint64_t *out,
		     size_t max, int *cut)
{
	const unsigned char *b;
	struct tipme_rec_blocked h;
	uint32_t len, ip;
	size_t i, n;

	*cut = 0;
	if (!id)
		return 0;
	b = pm_site_blob(pm, id, &len);
	memcpy(&h, b, sizeof(h));
	n = (len - sizeof(h)) / sizeof(uint32_t);
	if (n > h.nr)
		n = h.nr;
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		memcpy(&ip, b + sizeof(h) + 4 * i, sizeof(ip));
		out[i] = pm_text_addr(pm, ip);
	}
	*cut = !!(h.flags & TIPME_BLOCKED_FULL);
	return n;
}
