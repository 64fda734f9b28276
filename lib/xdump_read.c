// SPDX-License-Identifier: GPL-2.0
/*
 * Reading X dumps.  Every offset and size taken from the file
 * is checked against the buffer before use; entries are copied out with
 * the file's entry size and zero-filled, so older and newer writers both
 * read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "incident_path.h"
#include "readfile.h"
#include "section.h"
#include "xdumpfile.h"

#define XDUMP_MAX_SECTIONS	4096
#define XDUMP_MAX_ENTRY		4096

/* The first error of a parse, as "what is wrong"; -EINVAL. */
#define fail(e, ...) tm_err_set(e, EINVAL, __VA_ARGS__)

static int parse_array(const uint8_t *p, uint64_t size, uint32_t min_entry,
		       struct tm_xdump_array *a, const char *what, struct tm_err *e)
{
	struct tipme_x11_array h;

	if (size < sizeof(h))
		return fail(e, "%s section too short", what);
	memcpy(&h, p, sizeof(h));
	if (h.reserved)
		return fail(e, "%s section: reserved field not zero", what);
	if (h.entry_size < min_entry || h.entry_size > XDUMP_MAX_ENTRY)
		return fail(e, "%s section: bad entry size %u", what,
			    h.entry_size);
	if ((uint64_t)h.entry_size * h.count > size - sizeof(h))
		return fail(e, "%s section: %u entries of %u bytes do not fit in %" PRIu64,
			    what, h.count, h.entry_size, size - sizeof(h));
	a->data = p + sizeof(h);
	a->entry_size = h.entry_size;
	a->count = h.count;
	return 0;
}

/* Reserved fields must be zero (entries shorter than a field lack it). */
static int check_reserved(struct tm_xdump *d, struct tm_err *e)
{
	uint32_t i, k;

	for (i = 0; i < d->clients.count; i++) {
		struct tipme_x11_client c;

		tm_xdump_client_at(d, i, &c);
		if (c.reserved0 || c.reserved)
			return fail(e, "client %u: reserved field not zero", i);
	}
	for (i = 0; i < d->exts.count; i++) {
		struct tipme_x11_ext x;

		tm_xdump_ext_at(d, i, &x);
		if (x.reserved0)
			return fail(e, "extension %u: reserved field not zero", i);
	}
	for (i = 0; i < d->clocks.count; i++) {
		struct tipme_clock_pair c;

		tm_xdump_clock_at(d, i, &c);
		if (c.reserved)
			return fail(e, "clock pair %u: reserved field not zero", i);
	}
	for (k = 0; k < sizeof(d->stats.reserved) / sizeof(d->stats.reserved[0]); k++)
		if (d->stats.reserved[k])
			return fail(e, "stats: reserved field not zero");
	return 0;
}

/**
 * tm_xdump_parse() - check an X dump and index its sections
 * @buf: the whole file
 * @len: its size
 * @d: filled on success
 * @e: what is wrong, on failure
 *
 * Return: 0, or -EINVAL with @e saying what is wrong.
 */
int tm_xdump_parse(const void *buf, size_t len, struct tm_xdump *d,
		struct tm_err *e)
{
	const uint8_t *p = buf;
	uint64_t off;
	uint32_t i, hsize;
	int ret;

	memset(d, 0, sizeof(*d));
	d->buf = buf;
	d->len = len;
	if (len < 16)
		return fail(e, "file too short (%zu bytes) for an X dump", len);
	if (memcmp(p, TIPME_X11_MAGIC, 8))
		return fail(e, "not a tipme X dump (bad magic)");
	memcpy(&hsize, p + 12, 4);
	if (hsize < 48 || hsize > len || hsize > 65536)
		return fail(e, "bad header size %u", hsize);
	memcpy(&d->hdr, p, hsize < sizeof(d->hdr) ? hsize : sizeof(d->hdr));
	if (d->hdr.byte_order != TIPME_BYTE_ORDER_MARK)
		return fail(e, "written with another byte order (mark 0x%08x)",
			    d->hdr.byte_order);
	if (d->hdr.version == 0 || d->hdr.version > TIPME_X11_VERSION)
		return fail(e, "format version %u not supported (this reader knows %u)",
			    d->hdr.version, TIPME_X11_VERSION);
	if (d->hdr.file_size != len)
		return fail(e, "file is %zu bytes but its header says %" PRIu64
			    " (truncated?)", len, (uint64_t)d->hdr.file_size);
	if (d->hdr.reserved)
		return fail(e, "header: reserved field not zero");
	if (d->hdr.nr_sections > XDUMP_MAX_SECTIONS)
		return fail(e, "too many sections (%u)", d->hdr.nr_sections);

	off = (hsize + 7) & ~7U;
	for (i = 0; i < d->hdr.nr_sections; i++) {
		struct tipme_section s;
		const uint8_t *pl;
		uint64_t pad;

		if (tm_section_header(p, len, &off, &s))
			return tm_err_set(e, EINVAL, "section %u: header past the end of the file", i);
		if (s.reserved || s.cpu)
			return tm_err_set(e, EINVAL, "section %u: reserved field not zero", i);
		switch (tm_section_payload(p, len, off, &s, &pl, &pad)) {
		case TM_SECTION_SIZE_PAST_END:
			return tm_err_set(e, EINVAL, "section %u (type %u): %" PRIu64
					  " bytes past the end of the file", i, s.type,
					  (uint64_t)s.size);
		case TM_SECTION_PAD_PAST_END:
			return tm_err_set(e, EINVAL, "section %u: padding past the end of the file", i);
		}
		if (tm_section_crc(&s, pl) != s.crc32)
			return tm_err_set(e, EINVAL, "section %u (type %u): CRC mismatch", i, s.type);
		off += s.size + pad;
		ret = 0;
		switch (s.type) {
		case TIPME_X11_SEC_RECORDS:
			if (!d->recs.data)
				ret = parse_array(pl, s.size, 8, &d->recs, "records",
						  e);
			break;
		case TIPME_X11_SEC_CLIENTS:
			if (!d->clients.data)
				ret = parse_array(pl, s.size, 8, &d->clients, "clients",
						  e);
			break;
		case TIPME_X11_SEC_CLOCKS:
			if (!d->clocks.data)
				ret = parse_array(pl, s.size, 16, &d->clocks, "clocks",
						  e);
			break;
		case TIPME_X11_SEC_EXTENSIONS:
			if (!d->exts.data)
				ret = parse_array(pl, s.size, 4, &d->exts, "extensions",
						  e);
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
	return check_reserved(d, e);
}

static void entry_copy(const struct tm_xdump_array *a, uint32_t i, void *out,
		       size_t size)
{
	memset(out, 0, size);
	if (i < a->count)
		memcpy(out, a->data + (size_t)i * a->entry_size,
		       a->entry_size < size ? a->entry_size : size);
}

void tm_xdump_rec(const struct tm_xdump *d, uint32_t i, struct tipme_x11_rec *out)
{
	entry_copy(&d->recs, i, out, sizeof(*out));
}

void tm_xdump_client_at(const struct tm_xdump *d, uint32_t i,
		     struct tipme_x11_client *out)
{
	entry_copy(&d->clients, i, out, sizeof(*out));
	out->comm[sizeof(out->comm) - 1] = 0;
}

int tm_xdump_client_by_id(const struct tm_xdump *d, uint32_t id,
		       struct tipme_x11_client *out)
{
	uint32_t i;

	/* the writer stores client i at index i: try that first */
	if (id < d->clients.count) {
		tm_xdump_client_at(d, id, out);
		if (out->id == id)
			return 0;
	}
	for (i = 0; i < d->clients.count; i++) {
		tm_xdump_client_at(d, i, out);
		if (out->id == id)
			return 0;
	}
	memset(out, 0, sizeof(*out));
	return -ENOENT;
}

void tm_xdump_clock_at(const struct tm_xdump *d, uint32_t i, struct tipme_clock_pair *out)
{
	entry_copy(&d->clocks, i, out, sizeof(*out));
}

void tm_xdump_ext_at(const struct tm_xdump *d, uint32_t i, struct tipme_x11_ext *out)
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
	[TIPME_X11_DISPATCH] = "dispatch",
};

const char *tm_xdump_kind_name(unsigned kind)
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

const char *tm_xdump_request_name(unsigned major)
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

const char *tm_xdump_event_name(unsigned code)
{
	return code < 36 && ev_names[code] ? ev_names[code] : NULL;
}

static int ext_by_major(const struct tm_xdump *d, unsigned major,
			struct tipme_x11_ext *e)
{
	uint32_t i;

	for (i = 0; i < d->exts.count; i++) {
		tm_xdump_ext_at(d, i, e);
		if (e->major == major && e->name[0])
			return 0;
	}
	return -ENOENT;
}

static int ext_by_event(const struct tm_xdump *d, unsigned code,
			struct tipme_x11_ext *e)
{
	struct tipme_x11_ext best = { 0 }, cur;
	uint32_t i;

	for (i = 0; i < d->exts.count; i++) {
		tm_xdump_ext_at(d, i, &cur);
		if (cur.first_event && cur.first_event <= code &&
		    cur.first_event > best.first_event)
			best = cur;
	}
	if (!best.first_event || !best.name[0])
		return -ENOENT;
	*e = best;
	return 0;
}

const char *tm_xdump_op_name(const struct tm_xdump *d, const struct tipme_x11_rec *r,
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
		n = tm_xdump_request_name(r->major);
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
		n = tm_xdump_event_name(r->major);
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

int tm_xdump_load(const char *path, struct tm_xdump *d, uint8_t **bufp,
	       struct tm_err *e)
{
	unsigned char *buf;
	char *file;
	size_t len;
	int ret;

	*bufp = NULL;
	ret = tm_incident_member(path, TIPME_INCIDENT_X_DUMP,
			      "X dump (tipme-xhook was not running)", &file, e);
	if (ret)
		return ret;
	ret = tm_read_file(file, &buf, &len, e);
	if (!ret) {
		ret = tm_xdump_parse(buf, len, d, e);
		if (ret) {
			tm_err_prefix(e, "%s: malformed X dump", file);
			free(buf);
		} else {
			*bufp = buf;
		}
	}
	free(file);
	return ret;
}
