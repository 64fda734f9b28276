// SPDX-License-Identifier: GPL-2.0
/*
 * Writing X dumps: the header, then one section per part of struct
 * xdump_content, each with its checksum, padded to 8 bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "xdumpfile.h"

/* the sizes <tipme/xdump.h> promises */
_Static_assert(sizeof(struct tipme_x11_header) == 64, "tipme_x11_header");
_Static_assert(sizeof(struct tipme_x11_rec) == 48, "tipme_x11_rec");
_Static_assert(sizeof(struct tipme_x11_client) == 64, "tipme_x11_client");
_Static_assert(sizeof(struct tipme_x11_ext) == 32, "tipme_x11_ext");
_Static_assert(sizeof(struct tipme_x11_array) == 16, "tipme_x11_array");
_Static_assert(sizeof(struct tipme_x11_stats) % 8 == 0, "tipme_x11_stats");

struct sec {
	uint32_t type;
	const void *head;	/* struct tipme_x11_array or NULL */
	size_t head_len;
	const void *data;
	size_t len;
};

/**
 * tm_xdump_build() - lay out an X dump in memory
 * @s: what to write
 * @buf: set to a malloc'ed buffer
 * @len: set to its size
 *
 * Return: 0 or -ENOMEM.
 */
int tm_xdump_build(const struct tm_xdump_content *s, uint8_t **buf, size_t *len)
{
	struct tipme_x11_array arr[4];
	struct sec secs[8];
	struct tipme_x11_header h;
	unsigned ns = 0, i;
	size_t total, off;
	uint8_t *p;

	memset(arr, 0, sizeof(arr));
	arr[0].entry_size = sizeof(struct tipme_x11_rec);
	arr[0].count = (uint32_t)s->nrecs;
	secs[ns++] = (struct sec){ TIPME_X11_SEC_RECORDS, &arr[0], sizeof(arr[0]),
				   s->recs, s->nrecs * sizeof(*s->recs) };
	arr[1].entry_size = sizeof(struct tipme_x11_client);
	arr[1].count = s->ncl;
	secs[ns++] = (struct sec){ TIPME_X11_SEC_CLIENTS, &arr[1], sizeof(arr[1]),
				   s->cl, s->ncl * sizeof(*s->cl) };
	arr[2].entry_size = sizeof(struct tipme_clock_pair);
	arr[2].count = s->nclocks;
	secs[ns++] = (struct sec){ TIPME_X11_SEC_CLOCKS, &arr[2], sizeof(arr[2]),
				   s->clocks, s->nclocks * sizeof(*s->clocks) };
	secs[ns++] = (struct sec){ TIPME_X11_SEC_STATS, NULL, 0, &s->stats,
				   sizeof(s->stats) };
	arr[3].entry_size = sizeof(struct tipme_x11_ext);
	arr[3].count = s->nexts;
	secs[ns++] = (struct sec){ TIPME_X11_SEC_EXTENSIONS, &arr[3], sizeof(arr[3]),
				   s->exts, s->nexts * sizeof(struct tipme_x11_ext) };
	if (s->system)
		secs[ns++] = (struct sec){ TIPME_X11_SEC_SYSTEM, NULL, 0, s->system,
					   strlen(s->system) };
	if (s->description)
		secs[ns++] = (struct sec){ TIPME_X11_SEC_DESCRIPTION, NULL, 0,
					   s->description, strlen(s->description) };

	total = sizeof(h);
	for (i = 0; i < ns; i++)
		total += sizeof(struct tipme_section) +
			 ((secs[i].head_len + secs[i].len + 7) & ~(size_t)7);
	p = calloc(1, total);
	if (!p)
		return -ENOMEM;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, TIPME_X11_MAGIC, 8);
	h.version = TIPME_X11_VERSION;
	h.header_size = sizeof(h);
	h.byte_order = TIPME_BYTE_ORDER_MARK;
	h.flags = s->flags;
	h.nr_sections = ns;
	h.trigger = s->trigger;
	h.file_size = total;
	h.created_real_ns = s->real_ns;
	h.trigger_mono_ns = s->trigger_ns;
	memcpy(p, &h, sizeof(h));
	off = sizeof(h);
	for (i = 0; i < ns; i++) {
		struct tipme_section sh;
		size_t plen = secs[i].head_len + secs[i].len;

		memset(&sh, 0, sizeof(sh));
		sh.type = secs[i].type;
		sh.size = plen;
		if (secs[i].head_len)
			memcpy(p + off + sizeof(sh), secs[i].head, secs[i].head_len);
		if (secs[i].len)
			memcpy(p + off + sizeof(sh) + secs[i].head_len, secs[i].data,
			       secs[i].len);
		sh.crc32 = tm_crc32(0, p + off + sizeof(sh), plen);
		memcpy(p + off, &sh, sizeof(sh));
		off += sizeof(sh) + ((plen + 7) & ~(size_t)7);
	}
	*buf = p;
	*len = total;
	return 0;
}

