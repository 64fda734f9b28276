// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <string.h>

#include "format.h"
#include "../dump/instr.h"
#include "../state/state.h"

const char *pm_task_name(const struct pm_dump *pm, uint32_t pid, uint64_t ts)
{
	const struct pm_exec *x = pid ? pm_exec_find(pm, pid, ts) : NULL;

	return x && x->x.comm[0] ? x->x.comm : NULL;	/* comm is NUL-padded */
}

char *pm_fmt_task(const struct pm_dump *pm, uint32_t pid, uint64_t ts,
		  char *buf, size_t len)
{
	const char *name = pm_task_name(pm, pid, ts);

	if (name)
		snprintf(buf, len, "%s:%" PRIu32, name, pid);
	else
		snprintf(buf, len, "%" PRIu32, pid);
	return buf;
}

const char *pm_clock_source_name(uint32_t src)
{
	switch (src) {
	case TIPME_CLOCK_TSC:	return "tsc";
	case TIPME_CLOCK_LOCAL:	return "local_clock";
	default:		return NULL;
	}
}

const char *pm_trigger_source_name(unsigned int src)
{
	switch (src) {
	case TIPME_TRIG_SYSCTL:		return "sysctl";
	case TIPME_TRIG_HOTKEY:		return "hotkey";
	case TIPME_TRIG_NETLINK:	return "netlink";
	case TIPME_TRIG_XHOOK:		return "xhook";
	case TIPME_TRIG_THRESHOLD:	return "threshold";
	default:			return "?";
	}
}

const char *pm_input_kind_name(unsigned int kind)
{
	switch (kind) {
	case TIPME_INPUT_KEY:		return "key";
	case TIPME_INPUT_BUTTON:	return "button";
	case TIPME_INPUT_MOTION:	return "motion";
	case TIPME_INPUT_HOTKEY:	return "hotkey";
	default:			return "?";
	}
}

/* "release", "press", "repeat" for keys and buttons */
static const char *input_value_name(unsigned int v)
{
	static const char *const names[] = { "release", "press", "repeat" };

	return v < 3 ? names[v] : "?";
}

void pm_print_text(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, f);
		else if (c == '\\')
			fputs("\\\\", f);
		else
			fprintf(f, "\\x%02x", c);
	}
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

void pm_print_event(FILE *f, const struct pm_dump *pm,
		    const struct pm_event *ev)
{
	char t[32], a[48], b[48], since[32];
	const struct tipme_rec_switch *sw = &ev->u.sw;
	const struct tipme_rec_waking *wk = &ev->u.wk;

	pm_fmt_ns(pm_clock_mono(&pm->clock, ev->ts), t, sizeof(t));
	fprintf(f, "%16s [%03" PRIu32 "] ", t, ev->cpu);
	if (ev->kind == PM_EV_LOST) {
		fprintf(f, "LOST %" PRIu64 " sub-buffer%s (seq %" PRIu64,
			ev->lost_count, ev->lost_count == 1 ? "" : "s",
			ev->lost_first);
		if (ev->lost_count > 1)
			fprintf(f, "..%" PRIu64, ev->lost_first + ev->lost_count - 1);
		if (ev->lost_since)
			fprintf(f, "): records of this CPU after %s are missing\n",
				pm_fmt_ns(pm_clock_mono(&pm->clock, ev->lost_since),
					  since, sizeof(since)));
		else
			fputs("): earlier records of this CPU are missing\n", f);
		return;
	}
	fputs(ev->rt->name, f);
	switch (ev->rt->our_size ? ev->type : TIPME_REC_PAD) {
	case TIPME_REC_SCHED_SWITCH:
		fprintf(f, " prev=%s (%s, prio %u) -> next=%s (prio %u)\n",
			pm_fmt_task(pm, sw->prev_pid, ev->ts, a, sizeof(a)),
			pm_state_name(sw->prev_state, sw->flags & TIPME_SWITCH_PREEMPT),
			sw->prev_prio,
			pm_fmt_task(pm, sw->next_pid, ev->ts, b, sizeof(b)),
			sw->next_prio);
		break;
	case TIPME_REC_SCHED_WAKING:
		fprintf(f, " pid=%s cpu=%" PRIu32 " by %s (%s)\n",
			pm_fmt_task(pm, tipme_waking_pid(wk), ev->ts, a, sizeof(a)),
			tipme_waking_cpu(wk),
			pm_fmt_task(pm, tipme_waking_waker(wk), ev->ts, b, sizeof(b)),
			pm_ctx_name(tipme_waking_ctx(wk)));
		break;
	case TIPME_REC_TRIGGER:
		fprintf(f, " seq=%" PRIu32 " source=%s%s\n", ev->u.trig.seq,
			pm_trigger_source_name(ev->u.trig.source),
			ev->u.trig.coalesced ? " (coalesced)" : "");
		break;
	case TIPME_REC_INPUT:
		fprintf(f, " %s", pm_input_kind_name(ev->u.in.kind));
		if (ev->u.in.kind == TIPME_INPUT_MOTION)
			fprintf(f, " events=%u", ev->u.in.value);
		else
			fprintf(f, " %s", input_value_name(ev->u.in.value));
		fprintf(f, " device=%u code=%u\n", ev->u.in.device, ev->u.in.code);
		break;
	default:
		if (pm_instr_print(f, pm, ev))
			break;
		fprintf(f, " (type %u, %" PRIu32 " bytes) ", ev->type,
			ev->payload_len);
		print_hex(f, ev->payload, ev->payload_len);
		fputc('\n', f);
		break;
	}
}

static void json_task(struct jw *w, const struct pm_dump *pm,
		      const char *key, const char *name_key, uint32_t pid,
		      uint64_t ts)
{
	const char *name = pm_task_name(pm, pid, ts);

	jw_ku64(w, key, pid);
	if (name)
		jw_kstr(w, name_key, name);
}

void pm_json_event(struct jw *w, const struct pm_dump *pm,
		   const struct pm_event *ev)
{
	const struct tipme_rec_switch *sw = &ev->u.sw;
	const struct tipme_rec_waking *wk = &ev->u.wk;
	int64_t mono = pm_clock_mono(&pm->clock, ev->ts);
	char t[32], hex[2 * HEX_MAX + 1];
	uint32_t i;

	jw_obj_begin(w);
	jw_kstr(w, "time", pm_fmt_ns(mono, t, sizeof(t)));
	jw_ki64(w, "mono_ns", mono);
	jw_ku64(w, "ts", ev->ts);
	jw_ku64(w, "cpu", ev->cpu);
	if (ev->kind == PM_EV_LOST) {
		jw_kstr(w, "type", "lost");
		jw_ku64(w, "lost_subbufs", ev->lost_count);
		jw_ku64(w, "seq_first", ev->lost_first);
		jw_ku64(w, "seq_last", ev->lost_first + ev->lost_count - 1);
		jw_key(w, "since_mono_ns");
		if (ev->lost_since)
			jw_i64(w, pm_clock_mono(&pm->clock, ev->lost_since));
		else
			jw_null(w);
		jw_obj_end(w);
		return;
	}
	jw_kstr(w, "type", ev->rt->name);
	switch (ev->rt->our_size ? ev->type : TIPME_REC_PAD) {
	case TIPME_REC_SCHED_SWITCH:
		json_task(w, pm, "prev_pid", "prev_comm", sw->prev_pid, ev->ts);
		jw_kstr(w, "prev_state", pm_state_name(sw->prev_state, 0));
		jw_ku64(w, "prev_prio", sw->prev_prio);
		jw_kbool(w, "preempt", sw->flags & TIPME_SWITCH_PREEMPT);
		json_task(w, pm, "next_pid", "next_comm", sw->next_pid, ev->ts);
		jw_ku64(w, "next_prio", sw->next_prio);
		break;
	case TIPME_REC_SCHED_WAKING:
		json_task(w, pm, "pid", "comm", tipme_waking_pid(wk), ev->ts);
		jw_ku64(w, "target_cpu", tipme_waking_cpu(wk));
		json_task(w, pm, "waker", "waker_comm", tipme_waking_waker(wk), ev->ts);
		jw_kstr(w, "waker_ctx", pm_ctx_name(tipme_waking_ctx(wk)));
		break;
	case TIPME_REC_TRIGGER:
		jw_ku64(w, "seq", ev->u.trig.seq);
		jw_kstr(w, "source", pm_trigger_source_name(ev->u.trig.source));
		jw_kbool(w, "coalesced", ev->u.trig.coalesced);
		break;
	case TIPME_REC_INPUT:
		jw_kstr(w, "kind", pm_input_kind_name(ev->u.in.kind));
		jw_ku64(w, "value", ev->u.in.value);
		jw_ku64(w, "device", ev->u.in.device);
		jw_ku64(w, "code", ev->u.in.code);
		break;
	default:
		if (pm_instr_json(w, pm, ev))
			break;
		jw_ku64(w, "type_nr", ev->type);
		jw_ku64(w, "payload_bytes", ev->payload_len);
		for (i = 0; i < ev->payload_len && i < HEX_MAX; i++)
			snprintf(hex + 2 * i, 3, "%02x", ev->payload[i]);
		hex[2 * i] = '\0';
		jw_kstr(w, "payload_hex", hex);
		if (ev->payload_len > HEX_MAX)
			jw_kbool(w, "payload_truncated", 1);
		break;
	}
	jw_obj_end(w);
}

void pm_print_seg_site(FILE *f, const struct pm_dump *pm,
		       const struct pm_seg *s)
{
	uint32_t i;

	for (i = 0; i < s->nsite; i++) {
		const char *n = pm_sym_name(pm, s->site[i], NULL);

		fprintf(f, "%s%s", i ? " <- " : " in ", n ? n : "?");
	}
}

void pm_json_seg_site(struct jw *w, const struct pm_dump *pm,
		      const struct pm_seg *s)
{
	uint32_t i;

	jw_key(w, "site");
	jw_arr_begin(w);
	for (i = 0; i < s->nsite; i++) {
		const char *n = pm_sym_name(pm, s->site[i], NULL);

		jw_str(w, n ? n : "?");
	}
	jw_arr_end(w);
}
