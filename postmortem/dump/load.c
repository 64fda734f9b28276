// SPDX-License-Identifier: GPL-2.0
/*
 * Open a dump and check the sections the analyses depend on.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"
#include "tables.h"

static int sec_err(const struct tm_dump_sec *s, struct tm_err *e,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int sec_err(const struct tm_dump_sec *s, struct tm_err *e,
		   const char *fmt, ...)
{
	char desc[80], msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tm_err_set(e, EINVAL, "%s: %s",
			  tm_dump_sec_describe(s, desc, sizeof(desc)), msg);
}

static int valid_name(const char *name, size_t len)
{
	size_t i;

	if (!len || !name[0])
		return 0;
	for (i = 0; i < len && name[i]; i++)
		if (!isgraph((unsigned char)name[i]))
			return 0;
	return i < len;		/* NUL-terminated inside the field */
}

static int load_rectypes(struct pm_dump *pm, const struct tm_dump_sec *s,
			 struct tm_err *e)
{
	struct tipme_rectype r;
	uint64_t i, n;

	if (pm->have_rectypes)
		return sec_err(s, e, "second record-type table");
	if (s->h.size % sizeof(r))
		return sec_err(s, e, "size %" PRIu64 " is not a multiple of %zu",
			       (uint64_t)s->h.size, sizeof(r));
	n = s->h.size / sizeof(r);
	for (i = 0; i < n; i++) {
		struct pm_rectype *rt;

		memcpy(&r, s->data + i * sizeof(r), sizeof(r));
		if (r.type >= PM_NR_TYPES)
			return sec_err(s, e, "entry %" PRIu64 ": type %u is out of range",
				       i, r.type);
		if (r.type == TIPME_REC_PAD)
			continue;	/* padding needs no description */
		rt = &pm->rt[r.type];
		if (rt->present)
			return sec_err(s, e, "entry %" PRIu64 ": type %u listed twice",
				       i, r.type);
		if (r.flags & ~TIPME_RECTYPE_VARLEN)
			return sec_err(s, e, "entry %" PRIu64 ": unknown flags 0x%x",
				       i, r.flags);
		if (!(r.flags & TIPME_RECTYPE_VARLEN) && r.payload_size % 4)
			return sec_err(s, e, "entry %" PRIu64 ": payload size %u"
				       " is not a multiple of 4", i, r.payload_size);
		if (!valid_name(r.name, sizeof(r.name)))
			return sec_err(s, e, "entry %" PRIu64 ": invalid name (type %u)",
				       i, r.type);
		rt->present = 1;
		rt->type = r.type;
		rt->flags = r.flags;
		rt->payload_size = r.payload_size;
		memcpy(rt->name, r.name, sizeof(r.name));
		rt->name[sizeof(r.name)] = '\0';
		rt->our_size = pm_rectype_size(r.type, rt->name);
	}
	pm->have_rectypes = 1;
	return 0;
}

static int cmp_stats(const void *a, const void *b)
{
	const struct tipme_cpu_stats *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int load_stats(struct pm_dump *pm, const struct tm_dump_sec *s,
		      struct tm_err *e)
{
	struct tipme_cpu_stats *ns;
	uint64_t i, n;

	if (s->h.size % sizeof(*ns))
		return sec_err(s, e, "size %" PRIu64 " is not a multiple of %zu",
			       (uint64_t)s->h.size, sizeof(*ns));
	n = s->h.size / sizeof(*ns);
	if (!n)
		return 0;
	if (n > UINT32_MAX - pm->nr_stats)
		return sec_err(s, e, "too many entries");
	ns = realloc(pm->stats, (pm->nr_stats + n) * sizeof(*ns));
	if (!ns)
		return tm_err_set(e, ENOMEM, "out of memory");
	pm->stats = ns;
	memcpy(ns + pm->nr_stats, s->data, n * sizeof(*ns));
	for (i = 0; i < n; i++) {
		if (ns[pm->nr_stats + i].reserved)
			return sec_err(s, e, "entry %" PRIu64 ": reserved field is not zero", i);
	}
	pm->nr_stats += (uint32_t)n;
	return 0;
}

/*
 * A pair whose local_clock() did not move across the two clock reads
 * that bracket it (err_ts 0; a TSC always moves): the clock was held at
 * its ceiling, one tick past its CPU's last tick, because the next tick
 * came late (kernel/sched/clock.c, sched_clock_local(); a TCG guest on a
 * busy host), so its ts lags CLOCK_MONOTONIC by the tick's lateness and
 * would shift every record of the seconds around it.  Left out when
 * another pair was taken with the clock moving.
 */
static int held(const struct pm_dump *pm, const struct tipme_clock_pair *p, int moving)
{
	return pm->d.hdr.clock_source == TIPME_CLOCK_LOCAL && !p->err_ts && moving;
}

static int load_clocks(struct pm_dump *pm, const struct tm_dump_sec *s,
		       struct tm_err *e)
{
	struct tipme_clock_pair p;
	uint64_t i, n;
	int moving = 0;

	if (pm->pairs)
		return sec_err(s, e, "second clocks section");
	if (s->h.size % sizeof(p))
		return sec_err(s, e, "size %" PRIu64 " is not a multiple of %zu",
			       (uint64_t)s->h.size, sizeof(p));
	n = s->h.size / sizeof(p);
	pm->pairs = malloc(n ? n * sizeof(p) : 1);
	if (!pm->pairs)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		memcpy(&p, s->data + i * sizeof(p), sizeof(p));
		if (p.reserved)
			return sec_err(s, e, "pair %" PRIu64 ": reserved field is not zero", i);
		moving |= p.err_ts != 0;
	}
	for (i = 0; i < n; i++) {
		memcpy(&p, s->data + i * sizeof(p), sizeof(p));
		/* keep pairs increasing in ts and non-decreasing in mono */
		if (held(pm, &p, moving) || (pm->nr_pairs &&
		    (p.ts <= pm->pairs[pm->nr_pairs - 1].ts ||
		     p.mono_ns < pm->pairs[pm->nr_pairs - 1].mono_ns))) {
			pm->pairs_ignored++;
			continue;
		}
		pm->pairs[pm->nr_pairs++] = p;
	}
	return 0;
}

static int load_text(struct pm_text *t, const struct tm_dump_sec *s,
		     struct tm_err *e)
{
	if (t->text)
		return sec_err(s, e, "second section of this type");
	t->text = (const char *)s->data;
	t->len = s->h.size;
	return 0;
}

static int add_stream(struct pm_dump *pm, const struct tm_dump_sec *s,
		      struct tm_err *e)
{
	struct pm_cpu *pc = NULL, *ncpus;
	uint32_t *nsecs, i;

	if (s->h.cpu >= pm->d.hdr.nr_cpus)
		return sec_err(s, e, "CPU %" PRIu32 " is not below nr_cpus %" PRIu32,
			       s->h.cpu, pm->d.hdr.nr_cpus);
	for (i = 0; i < pm->nr_cpus; i++)
		if (pm->cpus[i].cpu == s->h.cpu)
			pc = &pm->cpus[i];
	if (!pc) {
		ncpus = realloc(pm->cpus, (pm->nr_cpus + 1) * sizeof(*ncpus));
		if (!ncpus)
			return tm_err_set(e, ENOMEM, "out of memory");
		pm->cpus = ncpus;
		/* keep sorted by CPU */
		for (i = pm->nr_cpus; i > 0 && ncpus[i - 1].cpu > s->h.cpu; i--)
			ncpus[i] = ncpus[i - 1];
		pc = &ncpus[i];
		memset(pc, 0, sizeof(*pc));
		pc->cpu = s->h.cpu;
		pm->nr_cpus++;
	}
	nsecs = realloc(pc->secs, (pc->nr_secs + 1) * sizeof(*nsecs));
	if (!nsecs)
		return tm_err_set(e, ENOMEM, "out of memory");
	pc->secs = nsecs;
	pc->secs[pc->nr_secs++] = s->index;
	return 0;
}

static int load_sections(struct pm_dump *pm, struct tm_err *e)
{
	const struct tipme_file_header *h = &pm->d.hdr;
	uint32_t i;
	int err = 0;

	if (!h->tsc_khz)
		return tm_err_set(e, EINVAL, "tsc_khz is 0 in the header");
	for (i = 0; i < pm->d.nr_secs && !err; i++) {
		const struct tm_dump_sec *s = &pm->d.secs[i];

		switch (s->h.type) {
		case TIPME_SEC_RECTYPES:
		case TIPME_SEC_CLOCKS:
		case TIPME_SEC_PARAMS:
		case TIPME_SEC_SYSTEM:
		case TIPME_SEC_SYMBOLS:
			if (s->h.cpu)
				return sec_err(s, e, "cpu field is %" PRIu32
					       " in a section that is not per CPU",
					       s->h.cpu);
			break;
		}
		switch (s->h.type) {
		case TIPME_SEC_RECTYPES:
			err = load_rectypes(pm, s, e);
			break;
		case TIPME_SEC_CPU_STREAM:
			err = add_stream(pm, s, e);
			break;
		case TIPME_SEC_CPU_STATS:
			err = load_stats(pm, s, e);
			break;
		case TIPME_SEC_CLOCKS:
			err = load_clocks(pm, s, e);
			break;
		case TIPME_SEC_PARAMS:
			err = load_text(&pm->params, s, e);
			break;
		case TIPME_SEC_SYSTEM:
			err = load_text(&pm->system, s, e);
			break;
		case TIPME_SEC_EXECTAB:
		case TIPME_SEC_SITES:
		case TIPME_SEC_USTACKS:
		case TIPME_SEC_MAPS:
		case TIPME_SEC_VDSO:
		case TIPME_SEC_XMAPS:
		case TIPME_SEC_SMPSNAP:
		case TIPME_SEC_COST:
			err = pm_instr_load_section(pm, s, e);
			break;
		default:
			break;	/* symbols and unknown sections: kept, not needed */
		}
	}
	if (err)
		return err;
	if (pm->nr_cpus && !pm->have_rectypes)
		return tm_err_set(e, EINVAL,
				  "the dump has CPU streams but no record-type table");
	if (pm->nr_stats) {
		qsort(pm->stats, pm->nr_stats, sizeof(*pm->stats), cmp_stats);
		for (i = 1; i < pm->nr_stats; i++)
			if (pm->stats[i].cpu == pm->stats[i - 1].cpu)
				return tm_err_set(e, EINVAL,
						  "cpu_stats: CPU %" PRIu32 " listed twice",
						  pm->stats[i].cpu);
	}
	pm_clock_init(&pm->clock, pm->pairs, pm->nr_pairs, h->tsc_khz);
	err = pm_instr_alloc(pm, e);
	if (!err) {
		pm_exec_clock(pm);
		pm_syms_load(pm);
	}
	return err;
}

/* What tm_dump_parse() checked: all but the streams (all with NO_CRC). */
static int mark_checked(struct pm_dump *pm, unsigned int flags, struct tm_err *e)
{
	uint32_t i;

	pm->sec_ok = calloc(pm->d.nr_secs ? pm->d.nr_secs : 1, 1);
	if (!pm->sec_ok)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (i = 0; i < pm->d.nr_secs; i++)
		pm->sec_ok[i] = (flags & TM_DUMP_NO_CRC) ||
				pm->d.secs[i].h.type != TIPME_SEC_CPU_STREAM;
	return 0;
}

int pm_sec_check(const struct pm_dump *pm, uint32_t i, struct tm_err *e)
{
	int err;

	if (i >= pm->d.nr_secs || pm->sec_ok[i])
		return 0;
	err = tm_dump_sec_check(&pm->d, &pm->d.secs[i], e);
	if (!err)
		pm->sec_ok[i] = 1;
	return err;
}

int pm_check_all(const struct pm_dump *pm, struct tm_err *e)
{
	uint32_t i;
	int err;

	for (i = 0; i < pm->d.nr_secs; i++) {
		err = pm_sec_check(pm, i, e);
		if (err)
			return err;
	}
	return 0;
}

int pm_open_mem(struct pm_dump *pm, const void *buf, size_t size,
		unsigned int flags, struct tm_err *e)
{
	int err;

	memset(pm, 0, sizeof(*pm));
	pm->path = "";
	err = tm_dump_parse(&pm->d, buf, size, flags | TM_DUMP_LAZY_STREAMS, e);
	if (!err)
		err = mark_checked(pm, flags, e);
	if (!err)
		err = load_sections(pm, e);
	return err;
}

int pm_open(struct pm_dump *pm, const char *path, unsigned int flags,
	    struct tm_err *e)
{
	int err;

	memset(pm, 0, sizeof(*pm));
	pm->path_buf = strdup(path);
	if (!pm->path_buf)
		return tm_err_set(e, ENOMEM, "out of memory");
	pm->path = pm->path_buf;
	err = tm_dump_load(&pm->d, pm->path, flags | TM_DUMP_LAZY_STREAMS, e);
	if (!err)
		err = mark_checked(pm, flags, e);
	if (!err)
		err = load_sections(pm, e);
	if (err)
		tm_err_prefix(e, "%s", pm->path);
	return err;
}

void pm_close(struct pm_dump *pm)
{
	uint32_t i;

	tm_dump_free(&pm->d);
	free(pm->stats);
	free(pm->pairs);
	for (i = 0; i < pm->nr_cpus; i++)
		free(pm->cpus[i].secs);
	free(pm->cpus);
	pm_instr_free(pm);
	free(pm->sec_ok);
	free(pm->path_buf);
	memset(pm, 0, sizeof(*pm));
}

const struct tipme_cpu_stats *pm_cpu_stats(const struct pm_dump *pm,
					   uint32_t cpu)
{
	uint32_t i;

	for (i = 0; i < pm->nr_stats; i++)
		if (pm->stats[i].cpu == cpu)
			return &pm->stats[i];
	return NULL;
}

const char *pm_type_name(const struct pm_dump *pm, unsigned int type)
{
	if (type >= PM_NR_TYPES || !pm->rt[type].present)
		return "?";
	return pm->rt[type].name;
}

int pm_type_by_name(const struct pm_dump *pm, const char *name)
{
	char *end;
	unsigned long v;
	int t;

	for (t = 1; t < PM_NR_TYPES; t++)
		if (pm->rt[t].present && !strcmp(pm->rt[t].name, name))
			return t;
	/* a type only compact records stand for (they are given as it) */
	for (t = 1; t < PM_NR_TYPES; t++) {
		const struct pm_rectype *c = pm_rectype_canon((unsigned int)t);

		if (c && !strcmp(c->name, name))
			return t;
	}
	v = strtoul(name, &end, 0);
	if (*name && !*end && v > 0 && v < PM_NR_TYPES && pm->rt[v].present)
		return (int)v;
	return -1;
}

const char *pm_state_name(unsigned int state, int preempt)
{
	switch (state) {
	case TIPME_TS_RUNNABLE:	return preempt ? "R+" : "R";
	case TIPME_TS_SLEEPING:	return "S";
	case TIPME_TS_DISK:	return "D";
	case TIPME_TS_IDLE:	return "I";
	case TIPME_TS_STOPPED:	return "T";
	case TIPME_TS_TRACED:	return "t";
	case TIPME_TS_PARKED:	return "P";
	case TIPME_TS_DEAD:	return "X";
	case TIPME_TS_ZOMBIE:	return "Z";
	case TIPME_TS_RTLOCK:	return "L";
	default:		return "?";
	}
}

const char *pm_ctx_name(unsigned int ctx)
{
	static const char *const names[] = { "task", "softirq", "hardirq", "nmi" };

	return names[ctx & 3];
}

const char *pm_softirq_name(unsigned int vec)
{
	static const char *const names[] = {
		"hi", "timer", "net_tx", "net_rx", "block", "irq_poll",
		"tasklet", "sched", "hrtimer", "rcu",
	};

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : "?";
}
