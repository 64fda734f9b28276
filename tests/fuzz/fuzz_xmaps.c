// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a dump's TIPME_SEC_XMAPS payload (the mappings
 * tipme.ko kept of processes with user-space chains), through its one
 * reader, tm_xmaps_parse(), and the walk tipmed and the postmortem make
 * over what it accepted.  What it accepts must walk as promised: as many
 * entries as it counted, each inside the payload with its path and
 * build-id inside the entry; what it refuses must say why.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "xmaps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tm_err e = { "" };
	struct tm_xmaps x;
	struct tm_xmap m;
	size_t off = 0, n = 0, last;
	volatile char sink = 0;
	uint16_t i;

	if (tm_xmaps_parse(data, size, &x, &e)) {
		if (!e.msg[0])
			abort();
		return 0;
	}
	for (last = 0; tm_xmaps_next(&x, &off, &m); last = off, n++) {
		if (m.m.size < sizeof(m.m) || off > x.len || off - last != m.m.size ||
		    m.m.end < m.m.start ||
		    (const unsigned char *)m.path + m.m.path_len > x.data + off ||
		    m.build_id != (const unsigned char *)m.path + m.m.path_len ||
		    m.build_id_len > TIPME_XMAP_BUILD_ID_MAX ||
		    m.build_id + m.build_id_len > x.data + off)
			abort();
		for (i = 0; i < m.m.path_len; i++)
			sink ^= m.path[i];
		for (i = 0; i < m.build_id_len; i++)
			sink ^= (char)m.build_id[i];
	}
	if (n != x.count || off != x.len)
		abort();
	(void)sink;
	return 0;
}
