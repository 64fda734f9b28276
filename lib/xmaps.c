// SPDX-License-Identifier: GPL-2.0
/*
 * The reader of TIPME_SEC_XMAPS (see xmaps.h).
 */
#include <errno.h>
#include <string.h>

#include "xmaps.h"

int tm_xmaps_parse(const void *buf, size_t len, struct tm_xmaps *x,
		   struct tm_err *e)
{
	const unsigned char *p = buf;
	struct tipme_xmap m;
	uint32_t hsize;
	unsigned int bid;
	size_t off;

	memset(x, 0, sizeof(*x));
	if (len < sizeof(hsize))
		return tm_err_set(e, EINVAL, "%zu bytes, no header", len);
	memcpy(&hsize, p, sizeof(hsize));
	if (hsize < 8 || hsize % 8 || hsize > len)
		return tm_err_set(e, EINVAL,
				  "header of %u bytes in a section of %zu",
				  hsize, len);
	memcpy(&x->hdr, p, hsize < sizeof(x->hdr) ? hsize : sizeof(x->hdr));
	x->data = p + hsize;
	x->len = len - hsize;
	for (off = 0; off < x->len; off += m.size) {
		if (x->len - off < sizeof(m))
			return tm_err_set(e, EINVAL,
					  "entry %zu cut short (%zu bytes left)",
					  x->count, x->len - off);
		memcpy(&m, x->data + off, sizeof(m));
		if (m.size < sizeof(m) || m.size % 8 || m.size > x->len - off)
			return tm_err_set(e, EINVAL,
					  "entry %zu has size %u (%zu bytes left)",
					  x->count, m.size, x->len - off);
		if (m.path_len > m.size - sizeof(m))
			return tm_err_set(e, EINVAL,
					  "entry %zu's path of %u bytes overruns its %u",
					  x->count, m.path_len, m.size);
		bid = TIPME_XMAP_BUILD_ID_LEN(m.flags);
		if (bid > TIPME_XMAP_BUILD_ID_MAX)
			return tm_err_set(e, EINVAL,
					  "entry %zu has a build-id of %u bytes (at most %u)",
					  x->count, bid, TIPME_XMAP_BUILD_ID_MAX);
		if (bid > m.size - sizeof(m) - m.path_len)
			return tm_err_set(e, EINVAL,
					  "entry %zu's build-id of %u bytes overruns its %u",
					  x->count, bid, m.size);
		if (m.end < m.start)
			return tm_err_set(e, EINVAL,
					  "entry %zu ends before it starts",
					  x->count);
		x->count++;
	}
	return 0;
}

int tm_xmaps_next(const struct tm_xmaps *x, size_t *off, struct tm_xmap *out)
{
	if (*off >= x->len)
		return 0;
	memcpy(&out->m, x->data + *off, sizeof(out->m));
	out->path = (const char *)x->data + *off + sizeof(out->m);
	out->build_id = (const unsigned char *)out->path + out->m.path_len;
	out->build_id_len = TIPME_XMAP_BUILD_ID_LEN(out->m.flags);
	*off += out->m.size;
	return 1;
}
