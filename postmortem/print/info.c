// SPDX-License-Identifier: GPL-2.0
/*
 * tipme info's output: the header, records and losses per CPU, the window
 * all CPUs cover, record types, the system and module parameters, and the
 * exec table and self-cost summaries.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../records/records.h"
#include "cost.h"
#include "exec.h"
#include "info.h"
#include "names.h"

static const char *const flag_names[] = { "clock_fallback", "env_captured", "keylog",
					  "redacted" };

static char *fmt_created(uint64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000u);
	struct tm tm;

	if (!gmtime_r(&sec, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm)) {
		snprintf(buf, len, "%" PRIu64 " ns", ns);
		return buf;
	}
	snprintf(buf + strlen(buf), len - strlen(buf), ".%09u UTC",
		 (unsigned int)(ns % 1000000000u));
	return buf;
}

static const char *byte_order_name(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "little-endian" : "big-endian";
}

static void text_section(FILE *f, const char *title, const struct pm_text *t)
{
	const char *line;
	size_t pos = 0, len;

	if (!t->text) {
		fprintf(f, "%s: (none)\n", title);
		return;
	}
	fprintf(f, "%s:\n", title);
	while (pm_text_next(t, &pos, &line, &len)) {
		fputs("  ", f);
		pm_print_text(f, line, len);
		fputc('\n', f);
	}
}

static void print_sections(FILE *f, const struct pm_dump *pm)
{
	uint32_t i, j, n;
	const char *name;
	char tmp[32];

	fputs("sections:", f);
	for (i = 0; i < pm->d.nr_secs; i++) {
		uint32_t type = pm->d.secs[i].h.type;

		/* print each type once, with its count, in first-seen order */
		for (j = 0; j < i; j++)
			if (pm->d.secs[j].h.type == type)
				break;
		if (j < i)
			continue;
		for (n = 0, j = i; j < pm->d.nr_secs; j++)
			n += pm->d.secs[j].h.type == type;
		name = tm_dump_sec_type_name(type);
		if (!name) {
			snprintf(tmp, sizeof(tmp), "type %" PRIu32 " (unknown)", type);
			name = tmp;
		}
		fprintf(f, "%s %s", i ? "," : "", name);
		if (n > 1)
			fprintf(f, " x%" PRIu32, n);
	}
	fputc('\n', f);
}

/*
 * The numbered tables a dump carries besides the exec table: entries,
 * room, and what did not fit (written whole in the records instead).
 */
static void tables_text(FILE *f, const struct pm_dump *pm)
{
	const struct pm_instr *in = pm->instr;

	if (in && in->have_sites)
		fprintf(f, "site table: %zu blocking sites, capacity %" PRIu32
			", %" PRIu64 " refused (table full: written whole in their records)\n",
			in->nr_sites, in->shdr.capacity, (uint64_t)in->shdr.refused);
	if (in && in->have_ustacks)
		fprintf(f, "user stack table: %zu chains, capacity %" PRIu32
			", %" PRIu64 " refused (table full: written whole in their records)\n",
			in->nr_ustacks, in->uhdr.capacity, (uint64_t)in->uhdr.refused);
	if (in && in->have_maps)
		fprintf(f, "mappings: %zu executable mappings of the processes with user chains"
			", %zu left out (overlapping another of their process)\n",
			in->nr_maps, in->nr_maps_dropped);
	if (in && in->have_xmaps)
		fprintf(f, "captured mappings: %zu of %" PRIu32 " processes' executable mappings kept"
			" (capacity %" PRIu32 "), %" PRIu64 " walks, %" PRIu64
			" lost walks, %" PRIu64 " refused mappings, %" PRIu64 " evicted processes\n",
			in->xmaps.count, in->xmaps.hdr.procs, in->xmaps.hdr.capacity,
			(uint64_t)in->xmaps.hdr.walks, (uint64_t)in->xmaps.hdr.lost,
			(uint64_t)in->xmaps.hdr.refused, (uint64_t)in->xmaps.hdr.evicted);
}

static void table_json(struct tm_jw *w, const char *key, int have, size_t count,
		       const struct tipme_sitetab_hdr *h)
{
	tm_jw_key(w, key);
	if (!have) {
		tm_jw_null(w);
		return;
	}
	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "count", count);
	tm_jw_ku64(w, "capacity", h->capacity);
	tm_jw_ku64(w, "refused", h->refused);
	tm_jw_obj_end(w);
}

static void tables_json(struct tm_jw *w, const struct pm_dump *pm)
{
	const struct pm_instr *in = pm->instr;

	table_json(w, "site_table", in && in->have_sites, in ? in->nr_sites : 0,
		   in ? &in->shdr : NULL);
	table_json(w, "ustack_table", in && in->have_ustacks, in ? in->nr_ustacks : 0,
		   in ? &in->uhdr : NULL);
	tm_jw_key(w, "maps");
	if (in && in->have_maps) {
		tm_jw_obj_begin(w);
		tm_jw_ku64(w, "count", in->nr_maps);
		tm_jw_ku64(w, "dropped", in->nr_maps_dropped);
		tm_jw_obj_end(w);
	} else {
		tm_jw_null(w);
	}
	tm_jw_key(w, "xmaps");
	if (!in || !in->have_xmaps) {
		tm_jw_null(w);
		return;
	}
	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "count", in->xmaps.count);
	tm_jw_ku64(w, "capacity", in->xmaps.hdr.capacity);
	tm_jw_ku64(w, "procs", in->xmaps.hdr.procs);
	tm_jw_ku64(w, "walks", in->xmaps.hdr.walks);
	tm_jw_ku64(w, "lost", in->xmaps.hdr.lost);
	tm_jw_ku64(w, "refused", in->xmaps.hdr.refused);
	tm_jw_ku64(w, "evicted", in->xmaps.hdr.evicted);
	tm_jw_obj_end(w);
}

/* The sampler's rounds, and the threads it could not look at: never hidden. */
static void sampler_text(FILE *f, const struct pm_info *in)
{
	if (!in->smp.ends)
		return;
	fprintf(f, "sampler:  %" PRIu64 " rounds wrote a sample_end (%" PRIu64
		" full), at most %" PRIu64 " threads looked at in one\n",
		in->smp.ends, in->smp.full, in->smp.threads_max);
	if (in->smp.table_full)
		fprintf(f, "LOST: the sampler skipped %" PRIu64 " threads in %" PRIu64
			" round%s: its table was full (it grows after such a round)\n",
			in->smp.skipped, in->smp.table_full,
			in->smp.table_full == 1 ? "" : "s");
}

static void sampler_json(struct tm_jw *w, const struct pm_info *in)
{
	tm_jw_key(w, "sampler");
	if (!in->smp.ends) {
		tm_jw_null(w);
		return;
	}
	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "rounds", in->smp.ends);
	tm_jw_ku64(w, "full_rounds", in->smp.full);
	tm_jw_ku64(w, "threads_max", in->smp.threads_max);
	tm_jw_ku64(w, "table_full_rounds", in->smp.table_full);
	tm_jw_ku64(w, "threads_skipped", in->smp.skipped);
	tm_jw_obj_end(w);
}

/* The sampler's table at the dump (TIPME_SEC_SMPSNAP): how many threads. */
static size_t snap_gone(const struct pm_instr *ins)
{
	size_t i, n = 0;

	for (i = 0; i < ins->nr_snap; i++)
		n += !!(ins->snap[i].flags & TIPME_SMPSNAP_GONE);
	return n;
}

static void snapshot_text(FILE *f, const struct pm_info *in)
{
	const struct pm_instr *ins = in->pm->instr;

	if (!ins || !ins->have_smpsnap)
		return;
	fprintf(f, "sampler snapshot:  %zu threads at the dump, %zu of them exited since the sampler saw them\n",
		ins->nr_snap, snap_gone(ins));
}

static void snapshot_json(struct tm_jw *w, const struct pm_info *in)
{
	const struct pm_instr *ins = in->pm->instr;

	tm_jw_key(w, "sampler_snapshot");
	if (!ins || !ins->have_smpsnap) {
		tm_jw_null(w);
		return;
	}
	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "threads", ins->nr_snap);
	tm_jw_ku64(w, "exited", snap_gone(ins));
	tm_jw_obj_end(w);
}

/* What the exec table and self-cost records add, as text (@f) or JSON (@w). */
static void instr_info(FILE *f, struct tm_jw *w, const struct pm_info *in)
{
	const struct pm_dump *pm = in->pm;

	if (!in->have_instr)
		return;
	if (in->cost_err) {
		if (w)
			tm_jw_kstr(w, "self_cost_error", in->cost_msg.msg);
		else
			fprintf(f, "self-cost: %s\n", in->cost_msg.msg);
		return;
	}
	if (w) {
		pm_exec_table_json(w, pm, 0);
		tables_json(w, pm);
		tm_jw_key(w, "self_cost");
		tm_jw_obj_begin(w);
		pm_cost_json(w, pm, &in->cost);
		tm_jw_obj_end(w);
		return;
	}
	fputc('\n', f);
	pm_exec_summary_print(f, pm);
	tables_text(f, pm);
	fputs("\nrecorder's own cost (whole dump; tipme cost --from/--to for an interval):\n", f);
	pm_cost_print(f, pm, &in->cost, 2);
}

/* An incident's meta.json: who asked, who claimed, who handed in. */
static void incident_text(FILE *f, const struct tm_incident_meta_view *m)
{
	char who[400];
	unsigned int i;

	if (!m)
		return;
	fprintf(f, "\nincident: %s trigger at %s", m->source, m->utc);
	if (m->has_requester)
		fprintf(f, ", asked for by uid %u", (unsigned int)m->requester_uid);
	fputc('\n', f);
	if (m->has_auto) {
		fprintf(f, "  press:  %.0f ms", m->auto_latency_ns / 1e6);
		if (m->auto_has_uid)
			fprintf(f, ", to a process of uid %u", (unsigned int)m->auto_uid);
		if (m->auto_claimed)
			fprintf(f, ", claimed by uid %u (its word, not measured by tipme.ko)\n",
				(unsigned int)m->auto_claimed_by);
		else
			fprintf(f, ", measured by tipme.ko\n");
	}
	for (i = 0; i < m->nhandins; i++) {
		tm_incident_handin_text(&m->handins[i], who, sizeof(who));
		fprintf(f, "  X dump: from %s\n", who);
	}
}

void pm_info_text(FILE *f, const struct pm_info *in)
{
	const struct pm_dump *pm = in->pm;
	const struct tipme_file_header *h = &pm->d.hdr;
	const char *src = tm_clock_source_name(h->clock_source, NULL);
	char b1[32], b2[32], b3[32], created[64];
	uint32_t k, t, fl;
	int first;

	fprintf(f, "file:     %s\n", pm->path);
	fprintf(f, "format:   version %" PRIu32 ", %s, %" PRIu32 " sections, %" PRIu64 " bytes\n",
		h->version, byte_order_name(), h->nr_sections, (uint64_t)h->file_size);
	fprintf(f, "created:  %s\n", fmt_created(h->created_real_ns, created, sizeof(created)));
	if (src)
		fprintf(f, "clock:    %s, %" PRIu64 " kHz", src, (uint64_t)h->tsc_khz);
	else
		fprintf(f, "clock:    unknown source %" PRIu32 ", %" PRIu64 " kHz",
			h->clock_source, (uint64_t)h->tsc_khz);
	fprintf(f, ", %" PRIu32 " clock pair%s", pm->nr_pairs, pm->nr_pairs == 1 ? "" : "s");
	if (pm->pairs_ignored)
		fprintf(f, " (%" PRIu32 " ignored: out of order, or taken while local_clock() stood still)",
			pm->pairs_ignored);
	if (!pm->nr_pairs)
		fputs(" -- times are raw ticks/tsc_khz, not CLOCK_MONOTONIC", f);
	fputc('\n', f);
	fprintf(f, "flags:    0x%" PRIx32, h->flags);
	for (fl = 0, first = 1; fl < 32; fl++) {
		if (!(h->flags & (1U << fl)))
			continue;
		if (fl < sizeof(flag_names) / sizeof(flag_names[0]))
			fprintf(f, "%s%s", first ? " (" : ", ", flag_names[fl]);
		else
			fprintf(f, "%sbit%" PRIu32, first ? " (" : ", ", fl);
		first = 0;
	}
	fputs(first ? "\n" : ")\n", f);
	fprintf(f, "cpus:     %" PRIu32 " possible, %" PRIu32 " with a stream\n",
		h->nr_cpus, pm->nr_cpus);
	print_sections(f, pm);

	fprintf(f, "\n%4s %10s %16s %16s %14s %8s %10s %11s %8s %9s %12s\n",
		"cpu", "records", "first (s)", "last (s)", "span (s)", "subbufs",
		"written", "overwritten", "dropped", "discarded", "bytes");
	for (k = 0; k < in->nr; k++) {
		const struct pm_info_cpu *ic = &in->cpus[k];
		int64_t m0, m1;

		fprintf(f, "%4" PRIu32 " %10" PRIu64, ic->cpu, ic->st.records);
		if (ic->st.have_ts) {
			m0 = pm_clock_mono(&pm->clock, ic->st.first_ts);
			m1 = pm_clock_mono(&pm->clock, ic->st.last_ts);
			fprintf(f, " %16s %16s %14s", pm_fmt_ns(m0, b1, sizeof(b1)),
				pm_fmt_ns(m1, b2, sizeof(b2)),
				pm_fmt_ns(m1 - m0, b3, sizeof(b3)));
		} else {
			fprintf(f, " %16s %16s %14s", "-", "-", "-");
		}
		fprintf(f, " %8" PRIu64, ic->st.subbufs);
		if (ic->cs)
			fprintf(f, " %10" PRIu64 " %11" PRIu64 " %8" PRIu64 " %9" PRIu32 " %12" PRIu64 "\n",
				(uint64_t)ic->cs->written, (uint64_t)ic->cs->overwritten,
				(uint64_t)ic->cs->dropped, ic->cs->discarded_subbufs,
				(uint64_t)ic->cs->bytes);
		else
			fprintf(f, " %10s %11s %8s %9s %12s\n", "-", "-", "-", "-", "-");
	}
	/* losses: never hidden */
	for (k = 0; k < in->nr; k++) {
		const struct pm_info_cpu *ic = &in->cpus[k];
		const char *sep = "";

		if (!(ic->cs && (ic->cs->overwritten || ic->cs->dropped ||
				 ic->cs->discarded_subbufs)) &&
		    !ic->st.missing_subbufs)
			continue;
		fprintf(f, "LOST: cpu %" PRIu32 ":", ic->cpu);
		if (ic->cs && ic->cs->overwritten) {
			fprintf(f, " %" PRIu64 " records overwritten", (uint64_t)ic->cs->overwritten);
			sep = ",";
		}
		if (ic->cs && ic->cs->dropped) {
			fprintf(f, "%s %" PRIu64 " records dropped", sep, (uint64_t)ic->cs->dropped);
			sep = ",";
		}
		if (ic->cs && ic->cs->discarded_subbufs) {
			fprintf(f, "%s %" PRIu32 " sub-buffers discarded by the dump", sep,
				ic->cs->discarded_subbufs);
			sep = ",";
		}
		if (ic->st.missing_subbufs)
			fprintf(f, "%s %" PRIu64 " sub-buffers missing from the stream (%" PRIu64 " gap%s)",
				sep, ic->st.missing_subbufs, ic->st.gaps,
				ic->st.gaps == 1 ? "" : "s");
		fputc('\n', f);
	}
	if (!pm->nr_stats && pm->nr_cpus)
		fputs("LOST: unknown -- the dump has no cpu_stats section\n", f);
	for (k = 0; k < in->nr; k++)
		if (in->cpus[k].has_stream && !in->cpus[k].cs && pm->nr_stats)
			fprintf(f, "LOST: unknown for cpu %" PRIu32 " -- no cpu_stats entry\n",
				in->cpus[k].cpu);

	if (!in->have_window) {
		fputs("common window: none (no records)\n", f);
	} else if (in->win_start > in->win_end) {
		fputs("common window: none (the CPUs' streams do not overlap)\n", f);
	} else {
		int64_t m0 = pm_clock_mono(&pm->clock, in->win_start);
		int64_t m1 = pm_clock_mono(&pm->clock, in->win_end);

		fprintf(f, "common window: %s .. %s (%s s)\n",
			pm_fmt_ns(m0, b1, sizeof(b1)), pm_fmt_ns(m1, b2, sizeof(b2)),
			pm_fmt_ns(m1 - m0, b3, sizeof(b3)));
	}
	sampler_text(f, in);
	snapshot_text(f, in);

	fprintf(f, "\nrecord types:\n%6s  %-24s %12s %14s %10s\n",
		"type", "name", "count", "bytes", "bytes/rec");
	for (t = 1; t < PM_NR_TYPES; t++) {
		const struct pm_rectype *rt = &pm->rt[t];

		if (!rt->present)
			continue;
		fprintf(f, "%6" PRIu32 "  %-24s %12" PRIu64 " %14" PRIu64, t, rt->name,
			in->tot.count[t], in->tot.bytes[t]);
		if (in->tot.count[t])
			fprintf(f, " %10.1f", (double)in->tot.bytes[t] / (double)in->tot.count[t]);
		else
			fprintf(f, " %10s", "-");
		if (!rt->our_size)
			fputs("  (not decoded by this reader)", f);
		else if (rt->payload_size != rt->our_size || (rt->flags & TIPME_RECTYPE_VARLEN))
			fprintf(f, "  (payload %u bytes, this reader knows %u)",
				rt->payload_size, rt->our_size);
		fputc('\n', f);
	}
	fprintf(f, "%6s  %-24s %12s %14" PRIu64 "\n", "", "(padding)", "", in->tot.pad_bytes);
	fprintf(f, "%6s  %-24s %12" PRIu64 "\n\n", "", "total", in->tot.records);

	text_section(f, "system", &pm->system);
	text_section(f, "params", &pm->params);
	instr_info(f, NULL, in);
	incident_text(f, in->meta);
}

static void json_text_section(struct tm_jw *w, const char *key, const struct pm_text *t)
{
	const char *line, *eq;
	size_t pos = 0, len;

	tm_jw_key(w, key);
	if (!t->text) {
		tm_jw_null(w);
		return;
	}
	tm_jw_obj_begin(w);
	while (pm_text_next(t, &pos, &line, &len)) {
		char k[128];
		size_t kl;

		eq = memchr(line, '=', len);
		kl = eq ? (size_t)(eq - line) : len;
		if (kl >= sizeof(k))
			kl = sizeof(k) - 1;
		memcpy(k, line, kl);
		k[kl] = '\0';
		tm_jw_key(w, k);
		if (eq)
			tm_jw_strn(w, eq + 1, len - (size_t)(eq + 1 - line));
		else
			tm_jw_null(w);
	}
	tm_jw_obj_end(w);
}

void pm_info_json(FILE *f, const struct pm_info *in)
{
	const struct pm_dump *pm = in->pm;
	const struct tipme_file_header *h = &pm->d.hdr;
	const char *src = tm_clock_source_name(h->clock_source, NULL);
	char created[64];
	struct tm_jw w;
	uint32_t k, t, fl;

	tm_jw_init(&w, f, TM_JW_PRETTY);
	tm_jw_obj_begin(&w);
	tm_jw_kstr(&w, "file", pm->path);
	tm_jw_ku64(&w, "version", h->version);
	tm_jw_kstr(&w, "byte_order", byte_order_name());
	tm_jw_ku64(&w, "file_size", h->file_size);
	tm_jw_ku64(&w, "nr_sections", h->nr_sections);
	tm_jw_ku64(&w, "created_real_ns", h->created_real_ns);
	tm_jw_kstr(&w, "created", fmt_created(h->created_real_ns, created, sizeof(created)));
	tm_jw_ku64(&w, "clock_source", h->clock_source);
	tm_jw_kstr(&w, "clock_source_name", src);
	tm_jw_ku64(&w, "tsc_khz", h->tsc_khz);
	tm_jw_ku64(&w, "clock_pairs", pm->nr_pairs);
	tm_jw_ku64(&w, "clock_pairs_ignored", pm->pairs_ignored);
	tm_jw_ku64(&w, "flags", h->flags);
	tm_jw_key(&w, "flag_names");
	tm_jw_arr_begin(&w);
	for (fl = 0; fl < sizeof(flag_names) / sizeof(flag_names[0]); fl++)
		if (h->flags & (1U << fl))
			tm_jw_str(&w, flag_names[fl]);
	tm_jw_arr_end(&w);
	tm_jw_ku64(&w, "nr_cpus", h->nr_cpus);

	tm_jw_key(&w, "sections");
	tm_jw_arr_begin(&w);
	for (k = 0; k < pm->d.nr_secs; k++) {
		const struct tm_dump_sec *s = &pm->d.secs[k];

		tm_jw_obj_begin(&w);
		tm_jw_ku64(&w, "index", s->index);
		tm_jw_ku64(&w, "type", s->h.type);
		tm_jw_kstr(&w, "name", tm_dump_sec_type_name(s->h.type));
		tm_jw_ku64(&w, "cpu", s->h.cpu);
		tm_jw_ku64(&w, "size", s->h.size);
		tm_jw_obj_end(&w);
	}
	tm_jw_arr_end(&w);

	tm_jw_key(&w, "cpus");
	tm_jw_arr_begin(&w);
	for (k = 0; k < in->nr; k++) {
		const struct pm_info_cpu *ic = &in->cpus[k];

		tm_jw_obj_begin(&w);
		tm_jw_ku64(&w, "cpu", ic->cpu);
		tm_jw_kbool(&w, "stream", ic->has_stream);
		tm_jw_ku64(&w, "records", ic->st.records);
		if (ic->st.have_ts) {
			int64_t m0 = pm_clock_mono(&pm->clock, ic->st.first_ts);
			int64_t m1 = pm_clock_mono(&pm->clock, ic->st.last_ts);

			tm_jw_ku64(&w, "first_ts", ic->st.first_ts);
			tm_jw_ku64(&w, "last_ts", ic->st.last_ts);
			tm_jw_ki64(&w, "first_mono_ns", m0);
			tm_jw_ki64(&w, "last_mono_ns", m1);
			tm_jw_ki64(&w, "span_ns", m1 - m0);
		}
		tm_jw_ku64(&w, "subbufs", ic->st.subbufs);
		tm_jw_ku64(&w, "partial_subbufs", ic->st.partial_subbufs);
		tm_jw_ku64(&w, "missing_subbufs", ic->st.missing_subbufs);
		tm_jw_ku64(&w, "ext_records", ic->st.ext_records);
		tm_jw_ku64(&w, "pad_bytes", ic->st.pad_bytes);
		tm_jw_key(&w, "stats");
		if (ic->cs) {
			tm_jw_obj_begin(&w);
			tm_jw_ku64(&w, "flags", ic->cs->flags);
			tm_jw_ku64(&w, "written", ic->cs->written);
			tm_jw_ku64(&w, "overwritten", ic->cs->overwritten);
			tm_jw_ku64(&w, "dropped", ic->cs->dropped);
			tm_jw_ku64(&w, "bytes", ic->cs->bytes);
			tm_jw_ku64(&w, "discarded_subbufs", ic->cs->discarded_subbufs);
			tm_jw_obj_end(&w);
		} else {
			tm_jw_null(&w);
		}
		tm_jw_obj_end(&w);
	}
	tm_jw_arr_end(&w);

	tm_jw_key(&w, "lost");
	tm_jw_obj_begin(&w);
	tm_jw_kbool(&w, "stats_known", pm->nr_stats > 0 || !pm->nr_cpus);
	tm_jw_ku64(&w, "overwritten", in->overwritten);
	tm_jw_ku64(&w, "dropped", in->dropped);
	tm_jw_ku64(&w, "discarded_subbufs", in->discarded);
	tm_jw_ku64(&w, "missing_subbufs", in->missing);
	tm_jw_obj_end(&w);
	sampler_json(&w, in);
	snapshot_json(&w, in);

	tm_jw_key(&w, "common_window");
	if (in->have_window && in->win_start <= in->win_end) {
		int64_t m0 = pm_clock_mono(&pm->clock, in->win_start);
		int64_t m1 = pm_clock_mono(&pm->clock, in->win_end);

		tm_jw_obj_begin(&w);
		tm_jw_ku64(&w, "start_ts", in->win_start);
		tm_jw_ku64(&w, "end_ts", in->win_end);
		tm_jw_ki64(&w, "start_mono_ns", m0);
		tm_jw_ki64(&w, "end_mono_ns", m1);
		tm_jw_ki64(&w, "span_ns", m1 - m0);
		tm_jw_obj_end(&w);
	} else {
		tm_jw_null(&w);
	}

	tm_jw_key(&w, "types");
	tm_jw_arr_begin(&w);
	for (t = 1; t < PM_NR_TYPES; t++) {
		const struct pm_rectype *rt = &pm->rt[t];

		if (!rt->present)
			continue;
		tm_jw_obj_begin(&w);
		tm_jw_ku64(&w, "type", t);
		tm_jw_kstr(&w, "name", rt->name);
		tm_jw_ku64(&w, "payload_size", rt->payload_size);
		tm_jw_kbool(&w, "varlen", rt->flags & TIPME_RECTYPE_VARLEN);
		tm_jw_kbool(&w, "decoded", rt->our_size != 0);
		tm_jw_ku64(&w, "count", in->tot.count[t]);
		tm_jw_ku64(&w, "bytes", in->tot.bytes[t]);
		tm_jw_key(&w, "bytes_per_record");
		if (in->tot.count[t])
			tm_jw_double(&w, (double)in->tot.bytes[t] / (double)in->tot.count[t]);
		else
			tm_jw_null(&w);
		tm_jw_obj_end(&w);
	}
	tm_jw_arr_end(&w);
	tm_jw_ku64(&w, "records", in->tot.records);
	tm_jw_ku64(&w, "pad_bytes", in->tot.pad_bytes);
	json_text_section(&w, "system", &pm->system);
	json_text_section(&w, "params", &pm->params);
	instr_info(NULL, &w, in);
	if (in->meta) {
		tm_jw_key(&w, "incident");
		tm_jw_obj_begin(&w);
		tm_jw_kstr(&w, "source", in->meta->source);
		tm_jw_kstr(&w, "utc", in->meta->utc);
		tm_incident_meta_json_who(&w, in->meta);
		tm_jw_obj_end(&w);
	}
	tm_jw_obj_end(&w);
}
