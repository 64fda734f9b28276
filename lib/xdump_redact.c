// SPDX-License-Identifier: GPL-2.0
/*
 * An X dump for a public bug report (see xdumpfile.h: tm_xdump_redact()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xdumpfile.h"

/* Core protocol: KeyPress and KeyRelease. */
#define X_KEY_PRESS	2
#define X_KEY_RELEASE	3

/* Extensions whose requests' first word can carry key data. */
static int key_extension(const struct tm_xdump *d, unsigned int major)
{
	static const char *const names[] = { "XTEST", "XKEYBOARD", "XInputExtension" };
	struct tipme_x11_ext x;
	uint32_t i;
	size_t k;

	for (i = 0; i < d->exts.count; i++) {
		tm_xdump_ext_at(d, i, &x);
		if (x.major != major)
			continue;
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (!strncmp(x.name, names[k], sizeof(x.name)))
				return 1;
	}
	return 0;
}

/* The system text without a host in "display=" (host:0 -> :0). */
static char *system_redacted(const struct tm_xdump *d, unsigned int *changed)
{
	size_t pos = 0, end, n = 0;
	char *out = malloc(d->system_len + 1);

	if (!out)
		return NULL;
	while (pos < d->system_len) {
		const char *line = d->system + pos;
		const char *colon;

		for (end = pos; end < d->system_len && d->system[end] != '\n'; end++)
			;
		if (end - pos > 8 && !memcmp(line, "display=", 8) &&
		    (colon = memchr(line + 8, ':', end - pos - 8)) && colon > line + 8) {
			memcpy(out + n, "display=", 8);
			n += 8;
			memcpy(out + n, colon, (size_t)(line + (end - pos) - colon));
			n += (size_t)(line + (end - pos) - colon);
			(*changed)++;
		} else {
			memcpy(out + n, line, end - pos);
			n += end - pos;
		}
		out[n++] = '\n';
		pos = end + 1;
	}
	out[n] = '\0';
	return out;
}

int tm_xdump_redact(const struct tm_xdump *d, uint8_t **buf, size_t *len,
		 struct tm_xdump_redact_stats *st)
{
	struct tm_xdump_content c;
	char *sys = NULL, *desc = NULL;
	uint64_t i;
	int err = -ENOMEM;

	memset(&c, 0, sizeof(c));
	memset(st, 0, sizeof(*st));
	c.nrecs = d->recs.count;
	c.ncl = d->clients.count;
	c.nclocks = d->clocks.count;
	c.nexts = d->exts.count;
	c.recs = calloc(c.nrecs ? c.nrecs : 1, sizeof(*c.recs));
	c.cl = calloc(c.ncl ? c.ncl : 1, sizeof(*c.cl));
	c.clocks = calloc(c.nclocks ? c.nclocks : 1, sizeof(*c.clocks));
	c.exts = calloc(c.nexts ? c.nexts : 1, sizeof(*c.exts));
	if (d->system_len)
		sys = system_redacted(d, &st->system_lines);
	if (d->description_len) {
		desc = malloc(d->description_len + 1);
		if (desc) {
			memcpy(desc, d->description, d->description_len);
			desc[d->description_len] = '\0';
		}
	}
	if (!c.recs || !c.cl || !c.clocks || !c.exts ||
	    (d->system_len && !sys) || (d->description_len && !desc))
		goto out;
	for (i = 0; i < c.nrecs; i++) {
		struct tipme_x11_rec *r = &c.recs[i];

		tm_xdump_rec(d, (uint32_t)i, r);
		if ((r->kind == TIPME_X11_EVENT || r->kind == TIPME_X11_DEVICE) &&
		    (r->major == X_KEY_PRESS || r->major == X_KEY_RELEASE) &&
		    (r->detail || r->state)) {
			r->detail = 0;
			r->state = 0;
			r->flags |= TIPME_X11_REC_REDACTED;
			st->key_details++;
		}
		if (r->kind == TIPME_X11_REQUEST && r->major >= 128 && r->xid &&
		    key_extension(d, r->major)) {
			r->xid = 0;
			st->key_details++;
		}
	}
	for (i = 0; i < c.ncl; i++)
		tm_xdump_client_at(d, (uint32_t)i, &c.cl[i]);
	for (i = 0; i < c.nclocks; i++)
		tm_xdump_clock_at(d, (uint32_t)i, &c.clocks[i]);
	for (i = 0; i < c.nexts; i++)
		tm_xdump_ext_at(d, (uint32_t)i, &c.exts[i]);
	c.stats = d->stats;
	c.flags = (d->hdr.flags & ~TIPME_X11_FILE_KEYLOG) | TIPME_X11_FILE_REDACTED;
	c.trigger = d->hdr.trigger;
	c.trigger_ns = d->hdr.trigger_mono_ns;
	c.real_ns = d->hdr.created_real_ns;
	c.system = sys;
	c.description = desc;
	err = tm_xdump_build(&c, buf, len);
out:
	free(c.recs);
	free(c.cl);
	free(c.clocks);
	free(c.exts);
	free(sys);
	free(desc);
	return err;
}
