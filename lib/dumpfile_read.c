// SPDX-License-Identifier: GPL-2.0
/*
 * Dump file reader: load the whole file and validate its structure.  Every
 * offset is checked against the size before it is used, so a malformed
 * file produces an error message, never an out-of-bounds read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "dumpfile.h"
#include "readfile.h"
#include "section.h"

static const char *const sec_names[] = {
	[TIPME_SEC_RECTYPES]	= "rectypes",
	[TIPME_SEC_CPU_STREAM]	= "cpu_stream",
	[TIPME_SEC_CPU_STATS]	= "cpu_stats",
	[TIPME_SEC_CLOCKS]	= "clocks",
	[TIPME_SEC_PARAMS]	= "params",
	[TIPME_SEC_SYSTEM]	= "system",
	[TIPME_SEC_SYMBOLS]	= "symbols",
	[TIPME_SEC_EXECTAB]	= "exectab",
	[TIPME_SEC_COST]	= "cost",
	[TIPME_SEC_SITES]	= "sites",
	[TIPME_SEC_USTACKS]	= "ustacks",
	[TIPME_SEC_MAPS]	= "maps",
	[TIPME_SEC_VDSO]	= "vdso",
	[TIPME_SEC_XMAPS]	= "xmaps",
	[TIPME_SEC_CKPT]	= "ckpt",
	[TIPME_SEC_SMPSNAP]	= "smpsnap",
};

const char *tm_dump_sec_type_name(uint32_t type)
{
	if (type < sizeof(sec_names) / sizeof(sec_names[0]))
		return sec_names[type];
	return NULL;
}

char *tm_dump_sec_describe(const struct tm_dump_sec *s, char *buf, size_t len)
{
	const char *name = tm_dump_sec_type_name(s->h.type);
	char tname[24];

	if (!name) {
		snprintf(tname, sizeof(tname), "type %" PRIu32, s->h.type);
		name = tname;
	}
	if (s->h.type == TIPME_SEC_CPU_STREAM || s->h.cpu)
		snprintf(buf, len, "section %" PRIu32 " (%s cpu %" PRIu32 ")",
			 s->index, name, s->h.cpu);
	else
		snprintf(buf, len, "section %" PRIu32 " (%s)", s->index, name);
	return buf;
}

int tm_dump_load(struct tm_dump *d, const char *path, unsigned int flags,
	      struct tm_err *e)
{
	unsigned char *buf = NULL;
	size_t size = 0;
	int err, mapped;

	memset(d, 0, sizeof(*d));
	err = tm_map_file(path, &buf, &size, &mapped, e);
	if (err)
		return err;
	err = tm_dump_parse(d, buf, size,
			    flags | (mapped ? TM_DUMP_MAPPED_BUF : 0), e);
	/* tm_dump_parse() always keeps buf in d->buf */
	d->owned = mapped ? TM_DUMP_MAPPED : TM_DUMP_MALLOCED;
	return err;
}

static int is_zero(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/*
 * Bytes checked between two drops of a mapped dump's pages: the resident
 * set stays a few MiB whatever the dump's size.
 */
#define CRC_DROP_EVERY	(4U << 20)

/* The checksum of section @s; a mapped file's pages given back as it goes. */
static uint32_t section_crc(const struct tm_dump *d, const struct tm_dump_sec *s,
			    unsigned int flags)
{
	uint64_t pos = 0, n;
	uint32_t crc = 0;

	if (!(flags & TM_DUMP_MAPPED_BUF))
		return tm_section_crc(&s->h, s->data);
	while (pos < s->h.size) {
		n = s->h.size - pos < CRC_DROP_EVERY ? s->h.size - pos : CRC_DROP_EVERY;
		crc = tm_crc32(crc, s->data + pos, n);
		pos += n;
		tm_drop_file_pages(d->buf, d->size, 1);
	}
	return crc;
}

/* Stream sections whose checksum is left for later between two drops. */
#define LAZY_DROP_EVERY	16

/* Compare section @s's checksum with the stored one. */
static int check_crc(const struct tm_dump *d, const struct tm_dump_sec *s,
		     unsigned int flags, struct tm_err *e)
{
	uint32_t crc = section_crc(d, s, flags);
	char desc[80];

	if (crc == s->h.crc32)
		return 0;
	tm_dump_sec_describe(s, desc, sizeof(desc));
	return tm_err_set(e, EINVAL,
			  "%s: checksum mismatch (stored 0x%08" PRIx32
			  ", computed 0x%08" PRIx32 ") in its %" PRIu64
			  " bytes at file offset %" PRIu64,
			  desc, s->h.crc32, crc, (uint64_t)s->h.size,
			  s->hdr_off + sizeof(struct tipme_section));
}

int tm_dump_sec_check(const struct tm_dump *d, const struct tm_dump_sec *s,
		      struct tm_err *e)
{
	return check_crc(d, s, d->owned == TM_DUMP_MAPPED ? TM_DUMP_MAPPED_BUF : 0, e);
}

static int parse_sections(struct tm_dump *d, unsigned int flags,
			  struct tm_err *e)
{
	const struct tipme_file_header *h = &d->hdr;
	uint64_t off = h->header_size, pad;
	struct tm_dump_sec *s;
	char desc[80];
	uint32_t i, lazy = 0;
	int err;

	if (h->nr_sections > (d->size - off) / sizeof(struct tipme_section))
		return tm_err_set(e, EINVAL,
				  "nr_sections %" PRIu32 " cannot fit in a file of %zu bytes",
				  h->nr_sections, d->size);
	if (h->nr_sections) {
		d->secs = calloc(h->nr_sections, sizeof(*d->secs));
		if (!d->secs)
			return tm_err_set(e, ENOMEM, "out of memory");
	}
	for (i = 0; i < h->nr_sections; i++) {
		s = &d->secs[i];
		s->index = i;
		s->hdr_off = off;
		if (tm_section_header(d->buf, d->size, &off, &s->h))
			return tm_err_set(e, EINVAL,
					  "section %" PRIu32 " at offset %" PRIu64
					  ": header extends past the end of the file",
					  i, off);
		tm_dump_sec_describe(s, desc, sizeof(desc));
		if (s->h.type == 0)
			return tm_err_set(e, EINVAL, "%s at offset %" PRIu64
					  ": invalid section type 0", desc, s->hdr_off);
		if (s->h.reserved)
			return tm_err_set(e, EINVAL, "%s at offset %" PRIu64
					  ": reserved field is not zero", desc,
					  s->hdr_off);
		switch (tm_section_payload(d->buf, d->size, off, &s->h,
					   &s->data, &pad)) {
		case TM_SECTION_SIZE_PAST_END:
			return tm_err_set(e, EINVAL, "%s at offset %" PRIu64
					  ": size %" PRIu64 " extends past the end of the file (%" PRIu64 " bytes left)",
					  desc, s->hdr_off, (uint64_t)s->h.size,
					  (uint64_t)(d->size - off));
		case TM_SECTION_PAD_PAST_END:
			return tm_err_set(e, EINVAL, "%s at offset %" PRIu64
					  ": padding extends past the end of the file",
					  desc, s->hdr_off);
		}
		if (!is_zero(s->data + s->h.size, pad))
			return tm_err_set(e, EINVAL, "%s at offset %" PRIu64
					  ": padding is not zero", desc, s->hdr_off);
		if ((flags & TM_DUMP_LAZY_STREAMS) &&
		    s->h.type == TIPME_SEC_CPU_STREAM) {
			/*
			 * Only its header was read, but a mapped file's page
			 * cache maps a large folio around it (52 MB for the
			 * 240 sections of a 1 GiB dump): given back every
			 * LAZY_DROP_EVERY sections.
			 */
			if ((flags & TM_DUMP_MAPPED_BUF) && ++lazy % LAZY_DROP_EVERY == 0)
				tm_drop_file_pages(d->buf, d->size, 1);
		} else if (!(flags & TM_DUMP_NO_CRC)) {
			err = check_crc(d, s, flags, e);
			if (err)
				return err;
		}
		off += s->h.size + pad;
	}
	if (lazy % LAZY_DROP_EVERY)
		tm_drop_file_pages(d->buf, d->size, 1);
	if (off != d->size)
		return tm_err_set(e, EINVAL,
				  "nr_sections says %" PRIu32 " but %" PRIu64
				  " bytes follow the last of them",
				  h->nr_sections, d->size - off);
	d->nr_secs = h->nr_sections;
	return 0;
}

int tm_dump_parse(struct tm_dump *d, const void *buf, size_t size,
	       unsigned int flags, struct tm_err *e)
{
	struct tipme_file_header *h = &d->hdr;
	int err;

	memset(d, 0, sizeof(*d));
	d->buf = (unsigned char *)buf;
	d->size = size;
	if (size == 0)
		return tm_err_set(e, EINVAL, "empty file: not a tipme dump");
	if (size < sizeof(h->magic) || memcmp(buf, TIPME_FILE_MAGIC, sizeof(h->magic)))
		return tm_err_set(e, EINVAL, "not a tipme dump (bad magic)");
	if (size < sizeof(*h))
		return tm_err_set(e, EINVAL,
				  "truncated: file has %zu bytes, less than a header (%zu)",
				  size, sizeof(*h));
	memcpy(h, buf, sizeof(*h));
	if (h->byte_order != TIPME_BYTE_ORDER_MARK) {
		if (h->byte_order == __builtin_bswap32(TIPME_BYTE_ORDER_MARK))
			return tm_err_set(e, EPROTO,
					  "the dump was written on a machine of the other byte order (%s-endian); this reader does not convert it",
					  __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "big" : "little");
		return tm_err_set(e, EINVAL, "bad byte-order mark 0x%08" PRIx32,
				  h->byte_order);
	}
	if (h->version == 0)
		return tm_err_set(e, EINVAL, "invalid format version 0");
	if (h->version > TIPME_FILE_VERSION)
		return tm_err_set(e, EPROTO,
				  "format version %" PRIu32 " is newer than this reader understands (%d): update tipme",
				  h->version, TIPME_FILE_VERSION);
	if (h->version >= 2 && !(flags & TM_DUMP_NO_CRC)) {
		struct tipme_file_header c = *h;

		c.header_crc32 = 0;
		if (tm_crc32(0, &c, sizeof(c)) != h->header_crc32)
			return tm_err_set(e, EINVAL,
					  "header checksum mismatch: the file header (sizes, clock rate, flags) is corrupt");
	} else if (h->version == 1 && h->header_crc32) {
		return tm_err_set(e, EINVAL,
				  "reserved header field is not zero (a version 1 dump has no header checksum)");
	}
	if (h->file_size > size)
		return tm_err_set(e, EINVAL,
				  "truncated: header says %" PRIu64 " bytes, file has %zu",
				  (uint64_t)h->file_size, size);
	if (h->file_size < size)
		return tm_err_set(e, EINVAL,
				  "trailing data: header says %" PRIu64 " bytes, file has %zu",
				  (uint64_t)h->file_size, size);
	if (h->header_size < sizeof(*h) || h->header_size % 8 ||
	    h->header_size > size)
		return tm_err_set(e, EINVAL, "invalid header_size %" PRIu32,
				  h->header_size);
	if (h->reserved)
		return tm_err_set(e, EINVAL, "reserved header field is not zero");
	/* header bytes of a newer (longer) header are ignored */
	err = parse_sections(d, flags, e);
	return err;
}

void tm_dump_free(struct tm_dump *d)
{
	if (d->owned)
		tm_unmap_file(d->buf, d->size, d->owned == TM_DUMP_MAPPED);
	free(d->secs);
	memset(d, 0, sizeof(*d));
}
