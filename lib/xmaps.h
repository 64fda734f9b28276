/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader of TIPME_SEC_XMAPS: the executable file mappings tipme.ko
 * captured for processes with user-space chains, kept after they exit.
 */
#ifndef TIPME_LIB_XMAPS_H
#define TIPME_LIB_XMAPS_H

#include <stddef.h>
#include <stdint.h>

#include <linux/tipme.h>

#include "err.h"

/**
 * struct tm_xmaps - a TIPME_SEC_XMAPS payload, checked
 * @hdr: its header (fields a shorter header lacks are zero)
 * @data: the entries
 * @len: their bytes
 * @count: entries
 */
struct tm_xmaps {
	struct tipme_xmaps_hdr hdr;
	const unsigned char *data;
	size_t len;
	size_t count;
};

/**
 * struct tm_xmap - one entry
 * @m: the entry's fixed part
 * @path: its path, @m.path_len bytes (not NUL-terminated)
 * @build_id: its file's build-id as the module read it, @build_id_len
 *	bytes
 * @build_id_len: 0 when the entry has none (also every entry of a dump
 *	made before the module read build-ids)
 */
struct tm_xmap {
	struct tipme_xmap m;
	const char *path;
	const unsigned char *build_id;
	unsigned int build_id_len;
};

/**
 * tm_xmaps_parse() - check a TIPME_SEC_XMAPS payload
 * @buf: the payload
 * @len: its bytes
 * @x: set up for tm_xmaps_next()
 * @e: error message
 *
 * Every entry's size is checked against the payload, its path and
 * build-id against the entry.  @x points into @buf.
 *
 * Return: 0, or -EINVAL with a message naming the entry.
 */
int tm_xmaps_parse(const void *buf, size_t len, struct tm_xmaps *x,
		   struct tm_err *e);

/**
 * tm_xmaps_next() - the entry at *@off, and *@off past it
 * @x: a payload tm_xmaps_parse() accepted
 * @off: 0 for the first entry
 * @out: set to the entry
 *
 * Return: 1 with an entry, 0 at the end.
 */
int tm_xmaps_next(const struct tm_xmaps *x, size_t *off, struct tm_xmap *out);

#endif /* TIPME_LIB_XMAPS_H */
