// SPDX-License-Identifier: GPL-2.0
/*
 * Walking the sections of a dump file (section.h).  Every size is
 * compared with what is left of the buffer before it is used, without
 * overflow.
 */
#include <string.h>

#include "crc32.h"
#include "section.h"

int tm_section_header(const unsigned char *buf, size_t size, uint64_t *off,
		      struct tipme_section *h)
{
	if (*off > size || size - *off < sizeof(*h))
		return TM_SECTION_HEADER_PAST_END;
	memcpy(h, buf + *off, sizeof(*h));
	*off += sizeof(*h);
	return TM_SECTION_OK;
}

int tm_section_payload(const unsigned char *buf, size_t size, uint64_t off,
		       const struct tipme_section *h,
		       const unsigned char **data, uint64_t *pad)
{
	uint64_t left = size - off;	/* off <= size: a header ended there */

	if (h->size > left)
		return TM_SECTION_SIZE_PAST_END;
	*pad = -h->size & 7;
	if (*pad > left - h->size)
		return TM_SECTION_PAD_PAST_END;
	*data = buf + off;
	return TM_SECTION_OK;
}

uint32_t tm_section_crc(const struct tipme_section *h,
			const unsigned char *data)
{
	return tm_crc32(0, data, h->size);
}
