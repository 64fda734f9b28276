// SPDX-License-Identifier: GPL-2.0
/*
 * The one table from record type to the family that shows it, and what
 * the rest of postmortem/ calls for any record: its threads, its text line
 * and its JSON object (with the loss markers and the types no family
 * knows, shown as hex).
 */
#include <inttypes.h>

#include "family.h"

/* The family of each type of TIPME_REC_TYPES (<linux/tipme.h>). */
#define FAMILY(nr, id, st, n, len, family) [nr] = PM_FAMILY_##family,

static const struct pm_recops *const ops[PM_NR_TYPES] = {
	TIPME_REC_TYPES(FAMILY)
	TIPME_REC_TEST_TYPES(FAMILY)
};

const struct pm_recops *pm_rec_ops(unsigned int type)
{
	return type < PM_NR_TYPES ? ops[type] : NULL;
}

/* The operations for a decoded record, NULL for loss markers and others. */
static const struct pm_recops *ev_ops(const struct pm_event *ev)
{
	if (ev->kind != PM_EV_RECORD || !ev->rt->our_size)
		return NULL;
	return pm_rec_ops(ev->type);
}

unsigned int pm_rec_pids(const struct pm_event *ev, uint32_t *pids)
{
	const struct pm_recops *o = ev_ops(ev);

	return o && o->pids ? o->pids(ev, pids) : 0;
}

#define HEX_MAX	32	/* payload bytes shown for types we cannot decode */

static void print_hex(FILE *f, const unsigned char *p, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len && i < HEX_MAX; i++)
		fprintf(f, "%02x", p[i]);
	if (len > HEX_MAX)
		fputs("...", f);
}

static void print_lost(FILE *f, const struct pm_event *ev)
{
	char since[32];

	fprintf(f, "LOST %" PRIu64 " sub-buffer%s (seq %" PRIu64,
		ev->lost_count, ev->lost_count == 1 ? "" : "s", ev->lost_first);
	if (ev->lost_count > 1)
		fprintf(f, "..%" PRIu64, ev->lost_first + ev->lost_count - 1);
	if (ev->lost_since)
		fprintf(f, "): records of this CPU after %s are missing\n",
			pm_fmt_ns(ev->lost_since_ns, since, sizeof(since)));
	else
		fputs("): earlier records of this CPU are missing\n", f);
}

void pm_print_event(FILE *f, const struct pm_dump *pm,
		    const struct pm_event *ev)
{
	const struct pm_recops *o = ev_ops(ev);
	char t[32];

	pm_fmt_ns(ev->ns, t, sizeof(t));
	fprintf(f, "%16s [%03" PRIu32 "] ", t, ev->cpu);
	if (ev->kind == PM_EV_LOST) {
		print_lost(f, ev);
		return;
	}
	fputs(ev->rt->name, f);
	if (o) {
		o->text(f, pm, ev);
		return;
	}
	fprintf(f, " (type %u, %" PRIu32 " bytes) ", ev->type, ev->payload_len);
	print_hex(f, ev->payload, ev->payload_len);
	fputc('\n', f);
}

static void json_lost(struct tm_jw *w, const struct pm_event *ev)
{
	tm_jw_kstr(w, "type", "lost");
	tm_jw_ku64(w, "lost_subbufs", ev->lost_count);
	tm_jw_ku64(w, "seq_first", ev->lost_first);
	tm_jw_ku64(w, "seq_last", ev->lost_first + ev->lost_count - 1);
	tm_jw_key(w, "since_mono_ns");
	if (ev->lost_since)
		tm_jw_i64(w, ev->lost_since_ns);
	else
		tm_jw_null(w);
}

static void json_hex(struct tm_jw *w, const struct pm_event *ev)
{
	char hex[2 * HEX_MAX + 1];
	uint32_t i;

	tm_jw_ku64(w, "type_nr", ev->type);
	tm_jw_ku64(w, "payload_bytes", ev->payload_len);
	for (i = 0; i < ev->payload_len && i < HEX_MAX; i++)
		snprintf(hex + 2 * i, 3, "%02x", ev->payload[i]);
	hex[2 * i] = '\0';
	tm_jw_kstr(w, "payload_hex", hex);
	if (ev->payload_len > HEX_MAX)
		tm_jw_kbool(w, "payload_truncated", 1);
}

void pm_json_event(struct tm_jw *w, const struct pm_dump *pm,
		   const struct pm_event *ev)
{
	const struct pm_recops *o = ev_ops(ev);
	char t[32];

	tm_jw_obj_begin(w);
	tm_jw_kstr(w, "time", pm_fmt_ns(ev->ns, t, sizeof(t)));
	tm_jw_ki64(w, "mono_ns", ev->ns);
	tm_jw_ku64(w, "ts", ev->ts);
	tm_jw_ku64(w, "cpu", ev->cpu);
	if (ev->kind == PM_EV_LOST) {
		json_lost(w, ev);
	} else {
		tm_jw_kstr(w, "type", ev->rt->name);
		if (o)
			o->json(w, pm, ev);
		else
			json_hex(w, ev);
	}
	tm_jw_obj_end(w);
}
