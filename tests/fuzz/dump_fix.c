// SPDX-License-Identifier: GPL-2.0
/*
 * Recompute a dump's section checksums and file size (and the kernel
 * dump's header checksum) in place.  Both formats are a header followed by
 * struct tipme_section + payload + padding to 8 bytes; sections are walked
 * as far as their sizes allow, and one that runs past the end stops the
 * walk (the reader reports it).
 */
#include <stddef.h>
#include <string.h>

#include <linux/tipme.h>
#include <tipme/xdump.h>

#include "crc32.h"
#include "dump_fix.h"

static void fix_sections(uint8_t *buf, size_t size, uint64_t off, uint32_t n)
{
	struct tipme_section s;
	uint32_t i;

	for (i = 0; i < n && off <= size; i++) {
		if (size - off < sizeof(s))
			break;
		memcpy(&s, buf + off, sizeof(s));
		off += sizeof(s);
		if (s.size > size - off)
			break;
		s.crc32 = tm_crc32(0, buf + off, s.size);
		memcpy(buf + off - sizeof(s), &s, sizeof(s));
		off += s.size + (-s.size & 7);
	}
}

void fuzz_kdump_fix(uint8_t *buf, size_t size)
{
	struct tipme_file_header h;

	if (size < sizeof(h))
		return;
	memcpy(&h, buf, sizeof(h));
	h.file_size = size;
	fix_sections(buf, size, h.header_size, h.nr_sections);
	h.header_crc32 = 0;
	h.header_crc32 = tm_crc32(0, &h, sizeof(h));
	memcpy(buf, &h, sizeof(h));
}

void fuzz_xdump_fix(uint8_t *buf, size_t size)
{
	struct tipme_x11_header h;

	if (size < sizeof(h))
		return;
	memcpy(&h, buf, sizeof(h));
	h.file_size = size;
	memcpy(buf, &h, sizeof(h));
	fix_sections(buf, size, (h.header_size + 7ULL) & ~7ULL, h.nr_sections);
}
