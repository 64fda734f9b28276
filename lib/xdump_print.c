// SPDX-License-Identifier: GPL-2.0
/*
 * X dumps as text (one line per record) or one JSON object: what
 * `tipme xrecords` and `tipme-xhook print` show.  Writes to the stream it
 * is given; errors are the caller's to report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "safetext.h"
#include "xdumpfile.h"

/* At most @max bytes of @s (it may end at a NUL first), as a JSON string. */
static void json_str(FILE *out, const char *s, size_t max)
{
	tm_jw_escape(out, s, strnlen(s, max));
}

static const char *trigger_name(uint32_t t)
{
	switch (t) {
	case TIPME_X11_TRIGGER_HOTKEY: return "hotkey";
	case TIPME_X11_TRIGGER_SIGNAL: return "signal";
	case TIPME_X11_TRIGGER_REQUEST: return "request";
	case TIPME_X11_TRIGGER_AUTO: return "auto";
	}
	return "unknown";
}

#define STAT_FIELDS(X) X(written) X(overwritten) X(dropped) X(elements) \
	X(bytes) X(replies) X(fences) X(fence_max_ns) X(late_max_us) \
	X(late_over_10ms) X(redacted) X(keymap_dropped) X(pid_resolved) \
	X(pid_unknown) X(ring_capacity) X(start_mono_ns) X(ui_dropped)

static void print_text(FILE *out, const struct tm_xdump *d)
{
	const struct tipme_x11_stats *s = &d->stats;
	struct tipme_x11_client c;
	struct tipme_x11_rec r;
	char op[64], name[sizeof(c.comm) * TM_TEXT_PER_BYTE + 1];
	uint32_t i;

	fprintf(out, "# tipme X11 dump v%u: %u records, %u clients, %u clock pairs, trigger %s at %.6f s, flags 0x%x\n",
		d->hdr.version, d->recs.count, d->clients.count, d->clocks.count,
		trigger_name(d->hdr.trigger), d->hdr.trigger_mono_ns / 1e9,
		d->hdr.flags);
	if (d->have_stats) {
		fprintf(out, "# stats:");
#define X(f) fprintf(out, " " #f "=%" PRIu64, (uint64_t)s->f);
		STAT_FIELDS(X)
#undef X
		fputc('\n', out);
		if (s->overwritten || s->dropped)
			fprintf(out, "# LOST: %" PRIu64 " records overwritten, %" PRIu64 " dropped\n",
				(uint64_t)s->overwritten, (uint64_t)s->dropped);
	}
	if (d->description_len) {
		/* one line, whatever the description holds (safetext.h) */
		fputs("# description: ", out);
		tm_text_put(out, d->description, d->description_len);
		fputc('\n', out);
	}
	for (i = 0; i < d->clients.count; i++) {
		tm_xdump_client_at(d, i, &c);
		fprintf(out, "# client %u base=0x%x gen=%u pid=%u%s comm=%s flags=0x%x start=%.6f end=%.6f\n",
			c.id, c.xid_base, c.generation, c.pid,
			c.flags & TIPME_X11_CL_PID_UNKNOWN ? "(unknown)" : "",
			c.comm[0] ? tm_text_fmt(c.comm, strnlen(c.comm, sizeof(c.comm)),
						name, sizeof(name)) : "?",
			c.flags, c.start_ns / 1e9, c.end_ns / 1e9);
	}
	fprintf(out, "#%16s %9s %7s %-15s %-7s %-26s %10s %8s %10s %10s\n",
		"time_s", "late_ms", "pid", "comm", "kind", "op", "seq", "length",
		"xid", "size");
	for (i = 0; i < d->recs.count; i++) {
		const char *comm = "?";
		uint32_t pid = 0;

		tm_xdump_rec(d, i, &r);
		if (tm_xdump_client_by_id(d, r.client, &c) == 0) {
			pid = c.pid;
			comm = c.comm[0] ? tm_text_fmt(c.comm, strnlen(c.comm, sizeof(c.comm)),
						       name, sizeof(name)) : "?";
		}
		fprintf(out, "%17.6f %9.3f %7u %-15s %-7s %-26s %10u %8u 0x%08x %10" PRIu64,
			r.time_ns / 1e9, r.late_us / 1e3, pid, comm,
			tm_xdump_kind_name(r.kind), tm_xdump_op_name(d, &r, op, sizeof(op)),
			r.seq, r.length, r.xid, (uint64_t)r.op_size);
		if (r.kind == TIPME_X11_EVENT || r.kind == TIPME_X11_DEVICE)
			fprintf(out, " detail=%u state=0x%x", r.detail, r.state);
		if (r.x_time)
			fprintf(out, " xtime=%u", r.x_time);
		if (r.flags)
			fprintf(out, " flags=0x%x", r.flags);
		fputc('\n', out);
	}
}

static void print_json(FILE *out, const struct tm_xdump *d)
{
	const struct tipme_x11_stats *s = &d->stats;
	struct tipme_x11_client c;
	struct tipme_clock_pair cp;
	struct tipme_x11_ext e;
	struct tipme_x11_rec r;
	char op[64];
	uint32_t i;

	fprintf(out, "{\"version\":%u,\"flags\":%u,\"trigger\":\"%s\",\"trigger_mono_ns\":%" PRIu64
		",\"created_real_ns\":%" PRIu64 ",\n", d->hdr.version, d->hdr.flags,
		trigger_name(d->hdr.trigger), (uint64_t)d->hdr.trigger_mono_ns,
		(uint64_t)d->hdr.created_real_ns);
	fprintf(out, "\"stats\":{");
#define X(f) fprintf(out, "\"" #f "\":%" PRIu64 ",", (uint64_t)s->f);
	STAT_FIELDS(X)
#undef X
	fprintf(out, "\"present\":%d},\n", d->have_stats);
	fprintf(out, "\"system\":");
	json_str(out, d->system ? d->system : "", d->system_len);
	fprintf(out, ",\n\"description\":");
	json_str(out, d->description ? d->description : "", d->description_len);
	fprintf(out, ",\n\"clients\":[");
	for (i = 0; i < d->clients.count; i++) {
		tm_xdump_client_at(d, i, &c);
		fprintf(out, "%s\n{\"id\":%u,\"xid_base\":%u,\"generation\":%u,\"pid\":%u,"
			"\"pid_unknown\":%s,\"flags\":%u,\"start_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64
			",\"comm\":", i ? "," : "", c.id, c.xid_base, c.generation, c.pid,
			c.flags & TIPME_X11_CL_PID_UNKNOWN ? "true" : "false", c.flags,
			(uint64_t)c.start_ns, (uint64_t)c.end_ns);
		json_str(out, c.comm, sizeof(c.comm));
		fputc('}', out);
	}
	fprintf(out, "],\n\"extensions\":[");
	for (i = 0; i < d->exts.count; i++) {
		tm_xdump_ext_at(d, i, &e);
		fprintf(out, "%s{\"major\":%u,\"first_event\":%u,\"first_error\":%u,\"name\":",
			i ? "," : "", e.major, e.first_event, e.first_error);
		json_str(out, e.name, sizeof(e.name));
		fputc('}', out);
	}
	fprintf(out, "],\n\"clock_pairs\":[");
	for (i = 0; i < d->clocks.count; i++) {
		tm_xdump_clock_at(d, i, &cp);
		fprintf(out, "%s\n{\"tsc\":%" PRIu64 ",\"mono_ns\":%" PRIu64 ",\"real_ns\":%" PRIu64
			",\"err_tsc\":%u}", i ? "," : "", (uint64_t)cp.ts,
			(uint64_t)cp.mono_ns, (uint64_t)cp.real_ns, cp.err_ts);
	}
	fprintf(out, "],\n\"records\":[");
	for (i = 0; i < d->recs.count; i++) {
		uint32_t pid = 0;

		tm_xdump_rec(d, i, &r);
		fprintf(out, "%s\n{\"time_ns\":%" PRIu64 ",\"late_us\":%u,\"client\":%u,",
			i ? "," : "", (uint64_t)r.time_ns, r.late_us, r.client);
		if (tm_xdump_client_by_id(d, r.client, &c) == 0) {
			pid = c.pid;
			fprintf(out, "\"comm\":");
			json_str(out, c.comm, sizeof(c.comm));
			fputc(',', out);
		}
		fprintf(out, "\"pid\":%u,\"kind\":\"%s\",\"op\":", pid,
			tm_xdump_kind_name(r.kind));
		json_str(out, tm_xdump_op_name(d, &r, op, sizeof(op)), sizeof(op));
		fprintf(out, ",\"major\":%u,\"minor\":%u,\"detail\":%u,\"state\":%u,"
			"\"flags\":%u,\"seq\":%u,\"length\":%u,\"xid\":%u,\"x_time\":%u,"
			"\"op_size\":%" PRIu64 "}", r.major, r.minor, r.detail, r.state,
			r.flags, r.seq, r.length, r.xid, r.x_time, (uint64_t)r.op_size);
	}
	fprintf(out, "]}\n");
}


int tm_xdump_print(FILE *out, const struct tm_xdump *d, int json)
{
	if (json)
		print_json(out, d);
	else
		print_text(out, d);
	return ferror(out) ? -EIO : 0;
}
