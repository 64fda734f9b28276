// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and printing X dumps.  Every offset and size taken from the file
 * is checked against the buffer before use; entries are copied out with
 * the file's entry size and zero-filled, so older and newer writers both
 * read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "incident_path.h"
#include "readfile.h"
#include "xdump_read.h"

#define XDUMP_MAX_SECTIONS	4096
#define XDUMP_MAX_ENTRY		4096

uint32_t xdump_crc32(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t table[256];
	static int ready;
	const uint8_t *p = buf;
	size_t i;

	if (!ready) {
		uint32_t n, c;
		int k;

		for (n = 0; n < 256; n++) {
			c = n;
			for (k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
			table[n] = c;
		}
		ready = 1;
	}
	crc = ~crc;
	for (i = 0; i < len; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int parse_array(const uint8_t *p, uint64_t size, uint32_t min_entry,
		       struct xdump_array *a, const char *what, char *err,
		       size_t errlen)
{
	struct tipme_x11_array h;

	if (size < sizeof(h))
		return fail(err, errlen, "%s section too short", what);
	memcpy(&h, p, sizeof(h));
	if (h.reserved)
		return fail(err, errlen, "%s section: reserved field not zero", what);
	if (h.entry_size < min_entry || h.entry_size > XDUMP_MAX_ENTRY)
		return fail(err, errlen, "%s section: bad entry size %u", what,
			    h.entry_size);
	if ((uint64_t)h.entry_size * h.count > size - sizeof(h))
		return fail(err, errlen, "%s section: %u entries of %u bytes do not fit in %" PRIu64,
			    what, h.count, h.entry_size, size - sizeof(h));
	a->data = p + sizeof(h);
	a->entry_size = h.entry_size;
	a->count = h.count;
	return 0;
}

/* Reserved fields must be zero (entries shorter than a field lack it). */
static int check_reserved(struct xdump *d, char *err, size_t errlen)
{
	uint32_t i, k;

	for (i = 0; i < d->clients.count; i++) {
		struct tipme_x11_client c;

		xdump_client_at(d, i, &c);
		if (c.reserved0 || c.reserved)
			return fail(err, errlen, "client %u: reserved field not zero", i);
	}
	for (i = 0; i < d->exts.count; i++) {
		struct tipme_x11_ext e;

		xdump_ext_at(d, i, &e);
		if (e.reserved0)
			return fail(err, errlen, "extension %u: reserved field not zero", i);
	}
	for (i = 0; i < d->clocks.count; i++) {
		struct tipme_clock_pair c;

		xdump_clock_at(d, i, &c);
		if (c.reserved)
			return fail(err, errlen, "clock pair %u: reserved field not zero", i);
	}
	for (k = 0; k < sizeof(d->stats.reserved) / sizeof(d->stats.reserved[0]); k++)
		if (d->stats.reserved[k])
			return fail(err, errlen, "stats: reserved field not zero");
	return 0;
}

/**
 * xdump_parse() - check an X dump and index its sections
 * @buf: the whole file
 * @len: its size
 * @d: filled on success
 * @err: message on failure
 * @errlen: size of @err
 *
 * Return: 0, or -EINVAL with @err saying what is wrong.
 */
int xdump_parse(const void *buf, size_t len, struct xdump *d, char *err,
		size_t errlen)
{
	const uint8_t *p = buf;
	uint64_t off;
	uint32_t i, hsize;
	int ret;

	memset(d, 0, sizeof(*d));
	d->buf = buf;
	d->len = len;
	if (len < 16)
		return fail(err, errlen, "file too short (%zu bytes) for an X dump", len);
	if (memcmp(p, TIPME_X11_MAGIC, 8))
		return fail(err, errlen, "not a tipme X dump (bad magic)");
	memcpy(&hsize, p + 12, 4);
	if (hsize < 48 || hsize > len || hsize > 65536)
		return fail(err, errlen, "bad header size %u", hsize);
	memcpy(&d->hdr, p, hsize < sizeof(d->hdr) ? hsize : sizeof(d->hdr));
	if (d->hdr.byte_order != TIPME_BYTE_ORDER_MARK)
		return fail(err, errlen, "written with another byte order (mark 0x%08x)",
			    d->hdr.byte_order);
	if (d->hdr.version == 0 || d->hdr.version > TIPME_X11_VERSION)
		return fail(err, errlen, "format version %u not supported (this reader knows %u)",
			    d->hdr.version, TIPME_X11_VERSION);
	if (d->hdr.file_size != len)
		return fail(err, errlen, "file is %zu bytes but its header says %" PRIu64
			    " (truncated?)", len, (uint64_t)d->hdr.file_size);
	if (d->hdr.reserved)
		return fail(err, errlen, "header: reserved field not zero");
	if (d->hdr.nr_sections > XDUMP_MAX_SECTIONS)
		return fail(err, errlen, "too many sections (%u)", d->hdr.nr_sections);

	off = (hsize + 7) & ~7U;
	for (i = 0; i < d->hdr.nr_sections; i++) {
		struct tipme_section s;
		const uint8_t *pl;
		uint64_t padded;

		if (off > len || len - off < sizeof(s))
			return fail(err, errlen, "section %u: header past the end of the file", i);
		memcpy(&s, p + off, sizeof(s));
		off += sizeof(s);
		if (s.reserved || s.cpu)
			return fail(err, errlen, "section %u: reserved field not zero", i);
		if (s.size > len - off)
			return fail(err, errlen, "section %u (type %u): %" PRIu64
				    " bytes past the end of the file", i, s.type,
				    (uint64_t)s.size);
		padded = (s.size + 7) & ~7ULL;
		if (padded > len - off)
			return fail(err, errlen, "section %u: padding past the end of the file", i);
		pl = p + off;
		if (xdump_crc32(0, pl, s.size) != s.crc32)
			return fail(err, errlen, "section %u (type %u): CRC mismatch", i, s.type);
		off += padded;
		ret = 0;
		switch (s.type) {
		case TIPME_X11_SEC_RECORDS:
			if (!d->recs.data)
				ret = parse_array(pl, s.size, 8, &d->recs, "records",
						  err, errlen);
			break;
		case TIPME_X11_SEC_CLIENTS:
			if (!d->clients.data)
				ret = parse_array(pl, s.size, 8, &d->clients, "clients",
						  err, errlen);
			break;
		case TIPME_X11_SEC_CLOCKS:
			if (!d->clocks.data)
				ret = parse_array(pl, s.size, 16, &d->clocks, "clocks",
						  err, errlen);
			break;
		case TIPME_X11_SEC_EXTENSIONS:
			if (!d->exts.data)
				ret = parse_array(pl, s.size, 4, &d->exts, "extensions",
						  err, errlen);
			break;
		case TIPME_X11_SEC_STATS:
			if (!d->have_stats) {
				memcpy(&d->stats, pl, s.size < sizeof(d->stats) ?
				       s.size : sizeof(d->stats));
				d->have_stats = 1;
			}
			break;
		case TIPME_X11_SEC_SYSTEM:
			d->system = (const char *)pl;
			d->system_len = s.size;
			break;
		case TIPME_X11_SEC_DESCRIPTION:
			d->description = (const char *)pl;
			d->description_len = s.size;
			break;
		default:
			break;	/* unknown: skipped */
		}
		if (ret)
			return ret;
	}
	return check_reserved(d, err, errlen);
}

static void entry_copy(const struct xdump_array *a, uint32_t i, void *out,
		       size_t size)
{
	memset(out, 0, size);
	if (i < a->count)
		memcpy(out, a->data + (size_t)i * a->entry_size,
		       a->entry_size < size ? a->entry_size : size);
}

void xdump_rec(const struct xdump *d, uint32_t i, struct tipme_x11_rec *out)
{
	entry_copy(&d->recs, i, out, sizeof(*out));
}

void xdump_client_at(const struct xdump *d, uint32_t i,
		     struct tipme_x11_client *out)
{
	entry_copy(&d->clients, i, out, sizeof(*out));
	out->comm[sizeof(out->comm) - 1] = 0;
}

int xdump_client_by_id(const struct xdump *d, uint32_t id,
		       struct tipme_x11_client *out)
{
	uint32_t i;

	/* the writer stores client i at index i: try that first */
	if (id < d->clients.count) {
		xdump_client_at(d, id, out);
		if (out->id == id)
			return 0;
	}
	for (i = 0; i < d->clients.count; i++) {
		xdump_client_at(d, i, out);
		if (out->id == id)
			return 0;
	}
	memset(out, 0, sizeof(*out));
	return -ENOENT;
}

void xdump_clock_at(const struct xdump *d, uint32_t i, struct tipme_clock_pair *out)
{
	entry_copy(&d->clocks, i, out, sizeof(*out));
}

void xdump_ext_at(const struct xdump *d, uint32_t i, struct tipme_x11_ext *out)
{
	entry_copy(&d->exts, i, out, sizeof(*out));
	out->name[sizeof(out->name) - 1] = 0;
}

static const char *const kind_names[] = {
	[TIPME_X11_REQUEST] = "request",
	[TIPME_X11_REPLY] = "reply",
	[TIPME_X11_EVENT] = "event",
	[TIPME_X11_DEVICE] = "device",
	[TIPME_X11_ERROR] = "error",
	[TIPME_X11_CLIENT_START] = "start",
	[TIPME_X11_CLIENT_DIED] = "died",
	[TIPME_X11_KEYLOG] = "keylog",
	[TIPME_X11_MARK] = "mark",
	[TIPME_X11_TRIGGER] = "trigger",
};

const char *xdump_kind_name(unsigned kind)
{
	if (kind < sizeof(kind_names) / sizeof(kind_names[0]) && kind_names[kind])
		return kind_names[kind];
	return "unknown";
}

static const char *const req_names[128] = {
	[1] = "CreateWindow", "ChangeWindowAttributes", "GetWindowAttributes",
	"DestroyWindow", "DestroySubwindows", "ChangeSaveSet", "ReparentWindow",
	"MapWindow", "MapSubwindows", "UnmapWindow", "UnmapSubwindows",
	"ConfigureWindow", "CirculateWindow", "GetGeometry", "QueryTree",
	"InternAtom", "GetAtomName", "ChangeProperty", "DeleteProperty",
	"GetProperty", "ListProperties", "SetSelectionOwner", "GetSelectionOwner",
	"ConvertSelection", "SendEvent", "GrabPointer", "UngrabPointer",
	"GrabButton", "UngrabButton", "ChangeActivePointerGrab", "GrabKeyboard",
	"UngrabKeyboard", "GrabKey", "UngrabKey", "AllowEvents", "GrabServer",
	"UngrabServer", "QueryPointer", "GetMotionEvents", "TranslateCoordinates",
	"WarpPointer", "SetInputFocus", "GetInputFocus", "QueryKeymap", "OpenFont",
	"CloseFont", "QueryFont", "QueryTextExtents", "ListFonts",
	"ListFontsWithInfo", "SetFontPath", "GetFontPath", "CreatePixmap",
	"FreePixmap", "CreateGC", "ChangeGC", "CopyGC", "SetDashes",
	"SetClipRectangles", "FreeGC", "ClearArea", "CopyArea", "CopyPlane",
	"PolyPoint", "PolyLine", "PolySegment", "PolyRectangle", "PolyArc",
	"FillPoly", "PolyFillRectangle", "PolyFillArc", "PutImage", "GetImage",
	"PolyText8", "PolyText16", "ImageText8", "ImageText16", "CreateColormap",
	"FreeColormap", "CopyColormapAndFree", "InstallColormap",
	"UninstallColormap", "ListInstalledColormaps", "AllocColor",
	"AllocNamedColor", "AllocColorCells", "AllocColorPlanes", "FreeColors",
	"StoreColors", "StoreNamedColor", "QueryColors", "LookupColor",
	"CreateCursor", "CreateGlyphCursor", "FreeCursor", "RecolorCursor",
	"QueryBestSize", "QueryExtension", "ListExtensions",
	"ChangeKeyboardMapping", "GetKeyboardMapping", "ChangeKeyboardControl",
	"GetKeyboardControl", "Bell", "ChangePointerControl", "GetPointerControl",
	"SetScreenSaver", "GetScreenSaver", "ChangeHosts", "ListHosts",
	"SetAccessControl", "SetCloseDownMode", "KillClient", "RotateProperties",
	"ForceScreenSaver", "SetPointerMapping", "GetPointerMapping",
	"SetModifierMapping", "GetModifierMapping",
	[127] = "NoOperation",
};

const char *xdump_request_name(unsigned major)
{
	return major < 128 && req_names[major] ? req_names[major] : NULL;
}

static const char *const ev_names[36] = {
	[2] = "KeyPress", "KeyRelease", "ButtonPress", "ButtonRelease",
	"MotionNotify", "EnterNotify", "LeaveNotify", "FocusIn", "FocusOut",
	"KeymapNotify", "Expose", "GraphicsExposure", "NoExposure",
	"VisibilityNotify", "CreateNotify", "DestroyNotify", "UnmapNotify",
	"MapNotify", "MapRequest", "ReparentNotify", "ConfigureNotify",
	"ConfigureRequest", "GravityNotify", "ResizeRequest", "CirculateNotify",
	"CirculateRequest", "PropertyNotify", "SelectionClear",
	"SelectionRequest", "SelectionNotify", "ColormapNotify", "ClientMessage",
	"MappingNotify", "GenericEvent",
};

const char *xdump_event_name(unsigned code)
{
	return code < 36 && ev_names[code] ? ev_names[code] : NULL;
}

static int ext_by_major(const struct xdump *d, unsigned major,
			struct tipme_x11_ext *e)
{
	uint32_t i;

	for (i = 0; i < d->exts.count; i++) {
		xdump_ext_at(d, i, e);
		if (e->major == major && e->name[0])
			return 0;
	}
	return -ENOENT;
}

static int ext_by_event(const struct xdump *d, unsigned code,
			struct tipme_x11_ext *e)
{
	struct tipme_x11_ext best = { 0 }, cur;
	uint32_t i;

	for (i = 0; i < d->exts.count; i++) {
		xdump_ext_at(d, i, &cur);
		if (cur.first_event && cur.first_event <= code &&
		    cur.first_event > best.first_event)
			best = cur;
	}
	if (!best.first_event || !best.name[0])
		return -ENOENT;
	*e = best;
	return 0;
}

const char *xdump_op_name(const struct xdump *d, const struct tipme_x11_rec *r,
			  char *buf, size_t len)
{
	struct tipme_x11_ext e;
	const char *n;

	switch (r->kind) {
	case TIPME_X11_REPLY:
		if (!(r->flags & TIPME_X11_REC_MATCHED)) {
			snprintf(buf, len, "?");
			return buf;
		}
		/* fall through */
	case TIPME_X11_REQUEST:
		n = xdump_request_name(r->major);
		if (n)
			snprintf(buf, len, "%s", n);
		else if (r->major >= 128 && ext_by_major(d, r->major, &e) == 0)
			snprintf(buf, len, "%s:%u", e.name, r->minor);
		else
			snprintf(buf, len, "%u:%u", r->major, r->minor);
		return buf;
	case TIPME_X11_EVENT:
	case TIPME_X11_DEVICE:
		if (r->major == 35) {
			if (ext_by_major(d, r->detail, &e) == 0)
				snprintf(buf, len, "GenericEvent(%s:%u)", e.name, r->minor);
			else
				snprintf(buf, len, "GenericEvent(%u:%u)", r->detail, r->minor);
			return buf;
		}
		n = xdump_event_name(r->major);
		if (n)
			snprintf(buf, len, "%s", n);
		else if (ext_by_event(d, r->major, &e) == 0)
			snprintf(buf, len, "%s+%u", e.name, r->major - e.first_event);
		else
			snprintf(buf, len, "event%u", r->major);
		return buf;
	case TIPME_X11_KEYLOG:
		snprintf(buf, len, "%s", r->detail ? "on" : "off");
		return buf;
	default:
		snprintf(buf, len, "-");
		return buf;
	}
}

static void json_str(FILE *out, const char *s, size_t max)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static const char *trigger_name(uint32_t t)
{
	switch (t) {
	case TIPME_X11_TRIGGER_HOTKEY: return "hotkey";
	case TIPME_X11_TRIGGER_SIGNAL: return "signal";
	case TIPME_X11_TRIGGER_REQUEST: return "request";
	}
	return "unknown";
}

#define STAT_FIELDS(X) X(written) X(overwritten) X(dropped) X(elements) \
	X(bytes) X(replies) X(fences) X(fence_max_ns) X(late_max_us) \
	X(late_over_10ms) X(redacted) X(keymap_dropped) X(pid_resolved) \
	X(pid_unknown) X(ring_capacity) X(start_mono_ns) X(ui_dropped)

static void print_text(FILE *out, const struct xdump *d)
{
	const struct tipme_x11_stats *s = &d->stats;
	struct tipme_x11_client c;
	struct tipme_x11_rec r;
	char op[64];
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
	if (d->description_len)
		fprintf(out, "# description: %.*s\n", (int)d->description_len,
			d->description);
	for (i = 0; i < d->clients.count; i++) {
		xdump_client_at(d, i, &c);
		fprintf(out, "# client %u base=0x%x gen=%u pid=%u%s comm=%s flags=0x%x start=%.6f end=%.6f\n",
			c.id, c.xid_base, c.generation, c.pid,
			c.flags & TIPME_X11_CL_PID_UNKNOWN ? "(unknown)" : "",
			c.comm[0] ? c.comm : "?", c.flags, c.start_ns / 1e9,
			c.end_ns / 1e9);
	}
	fprintf(out, "#%16s %9s %7s %-15s %-7s %-26s %10s %8s %10s %10s\n",
		"time_s", "late_ms", "pid", "comm", "kind", "op", "seq", "length",
		"xid", "size");
	for (i = 0; i < d->recs.count; i++) {
		const char *comm = "?";
		uint32_t pid = 0;

		xdump_rec(d, i, &r);
		if (xdump_client_by_id(d, r.client, &c) == 0) {
			pid = c.pid;
			comm = c.comm[0] ? c.comm : "?";
		}
		fprintf(out, "%17.6f %9.3f %7u %-15.15s %-7s %-26s %10u %8u 0x%08x %10" PRIu64,
			r.time_ns / 1e9, r.late_us / 1e3, pid, comm,
			xdump_kind_name(r.kind), xdump_op_name(d, &r, op, sizeof(op)),
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

static void print_json(FILE *out, const struct xdump *d)
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
		xdump_client_at(d, i, &c);
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
		xdump_ext_at(d, i, &e);
		fprintf(out, "%s{\"major\":%u,\"first_event\":%u,\"first_error\":%u,\"name\":",
			i ? "," : "", e.major, e.first_event, e.first_error);
		json_str(out, e.name, sizeof(e.name));
		fputc('}', out);
	}
	fprintf(out, "],\n\"clock_pairs\":[");
	for (i = 0; i < d->clocks.count; i++) {
		xdump_clock_at(d, i, &cp);
		fprintf(out, "%s\n{\"tsc\":%" PRIu64 ",\"mono_ns\":%" PRIu64 ",\"real_ns\":%" PRIu64
			",\"err_tsc\":%u}", i ? "," : "", (uint64_t)cp.ts,
			(uint64_t)cp.mono_ns, (uint64_t)cp.real_ns, cp.err_ts);
	}
	fprintf(out, "],\n\"records\":[");
	for (i = 0; i < d->recs.count; i++) {
		uint32_t pid = 0;

		xdump_rec(d, i, &r);
		fprintf(out, "%s\n{\"time_ns\":%" PRIu64 ",\"late_us\":%u,\"client\":%u,",
			i ? "," : "", (uint64_t)r.time_ns, r.late_us, r.client);
		if (xdump_client_by_id(d, r.client, &c) == 0) {
			pid = c.pid;
			fprintf(out, "\"comm\":");
			json_str(out, c.comm, sizeof(c.comm));
			fputc(',', out);
		}
		fprintf(out, "\"pid\":%u,\"kind\":\"%s\",\"op\":", pid,
			xdump_kind_name(r.kind));
		json_str(out, xdump_op_name(d, &r, op, sizeof(op)), sizeof(op));
		fprintf(out, ",\"major\":%u,\"minor\":%u,\"detail\":%u,\"state\":%u,"
			"\"flags\":%u,\"seq\":%u,\"length\":%u,\"xid\":%u,\"x_time\":%u,"
			"\"op_size\":%" PRIu64 "}", r.major, r.minor, r.detail, r.state,
			r.flags, r.seq, r.length, r.xid, r.x_time, (uint64_t)r.op_size);
	}
	fprintf(out, "]}\n");
}

int xdump_print(FILE *out, const struct xdump *d, int json)
{
	if (json)
		print_json(out, d);
	else
		print_text(out, d);
	return ferror(out) ? -EIO : 0;
}

int xdump_load(const char *path, struct xdump *d, uint8_t **bufp, FILE *errf)
{
	struct tm_err e;
	char err[256], *file;
	unsigned char *buf;
	size_t len;
	int ret;

	*bufp = NULL;
	ret = incident_member(path, TIPME_INCIDENT_X_DUMP,
			      "X dump (tipme-xhook was not running)", &file, &e);
	if (!ret)
		ret = tm_read_file(file, &buf, &len, &e);
	if (ret) {
		fprintf(errf, "%s\n", e.msg);
		free(file);
		return ret;
	}
	ret = xdump_parse(buf, len, d, err, sizeof(err));
	if (ret) {
		fprintf(errf, "%s: malformed X dump: %s\n", file, err);
		free(buf);
	} else {
		*bufp = buf;
	}
	free(file);
	return ret;
}

int xdump_print_file(const char *path, int json, FILE *out, FILE *errf)
{
	struct xdump d;
	uint8_t *buf;
	int ret;

	ret = xdump_load(path, &d, &buf, errf);
	if (ret)
		return ret;
	ret = xdump_print(out, &d, json);
	free(buf);
	return ret;
}

int xdump_main(int argc, char **argv)
{
	const char *path = NULL, *prog = argv[0];
	int json = 0, i;

	if (!strcmp(prog, "print"))
		prog = "tipme-xhook print";
	else if (!strcmp(prog, "xrecords"))
		prog = "tipme xrecords";
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			json = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("Usage: %s [--json] DUMP\n"
			       "Print an X dump written by tipme-xhook: one line per record\n"
			       "(monotonic time in s, lateness in ms, client pid and command,\n"
			       "kind, request or event name, sequence, length, XID, op-size).\n"
			       "DUMP is an X dump or an incident directory (its xhook.dump).\n"
			       "EXAMPLES\n"
			       "  tipme xrecords /var/lib/tipme/incidents/INCIDENT | less\n"
			       "  tipme xrecords --json xhook.dump > records.json\n",
			       prog);
			return 0;
		} else if (!path && argv[i][0] != '-') {
			path = argv[i];
		} else {
			path = NULL;
			break;
		}
	}
	if (!path || i < argc) {
		fprintf(stderr, "Usage: %s [--json] DUMP\n", prog);
		return 2;
	}
	return xdump_print_file(path, json, stdout, stderr) ? 1 : 0;
}
