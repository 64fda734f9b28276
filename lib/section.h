/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The section container both dump formats share: after the file header,
 * sections one after another, each a struct tipme_section (<linux/tipme.h>)
 * followed by @size bytes of payload, zero-padded to a multiple of 8, and
 * checksummed with tm_crc32().  The kernel dump reader (dumpfile_read.c)
 * and the X dump reader (xdump_read.c) walk sections with these; each
 * checks its own fields and words its own messages.
 */
#ifndef TIPME_LIB_SECTION_H
#define TIPME_LIB_SECTION_H

#include <stddef.h>
#include <stdint.h>
#include <linux/tipme.h>

/* What does not fit in the buffer (0: everything does). */
enum tm_section_fault {
	TM_SECTION_OK = 0,
	TM_SECTION_HEADER_PAST_END,	/* the section header */
	TM_SECTION_SIZE_PAST_END,	/* the payload */
	TM_SECTION_PAD_PAST_END,	/* the padding after it */
};

/**
 * tm_section_header() - read the section header at *@off
 * @buf: the file
 * @size: its size
 * @off: offset of the header; advanced past it on success
 * @h: the header, copied
 *
 * Return: 0 or TM_SECTION_HEADER_PAST_END.
 */
int tm_section_header(const unsigned char *buf, size_t size, uint64_t *off,
		      struct tipme_section *h);

/**
 * tm_section_payload() - locate the payload that follows a header
 * @buf: the file
 * @size: its size
 * @off: offset just past the header (where the payload starts)
 * @h: the header
 * @data: set to the payload
 * @pad: set to the number of padding bytes after it (0..7)
 *
 * The next section starts at @off + @h->size + *@pad.
 *
 * Return: 0, TM_SECTION_SIZE_PAST_END or TM_SECTION_PAD_PAST_END.
 */
int tm_section_payload(const unsigned char *buf, size_t size, uint64_t off,
		       const struct tipme_section *h,
		       const unsigned char **data, uint64_t *pad);

/**
 * tm_section_crc() - the CRC-32 of a payload, to compare with @h->crc32
 * @h: the header
 * @data: the payload tm_section_payload() found
 *
 * Return: the computed CRC.
 */
uint32_t tm_section_crc(const struct tipme_section *h,
			const unsigned char *data);

#endif
