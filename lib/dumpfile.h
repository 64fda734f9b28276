/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dump files (struct tipme_file_header + sections, see <linux/tipme.h> and
 * Documentation/format.rst): an atomic, streaming writer and a validating
 * reader.  Both return 0 or a negative errno and describe errors in a
 * struct tm_err; neither prints or exits.
 */
#ifndef TIPME_LIB_DUMPFILE_H
#define TIPME_LIB_DUMPFILE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/tipme.h>

#include "err.h"

/* ------------------------------------------------------------------ */
/* Writer                                                             */
/* ------------------------------------------------------------------ */

#define TM_DUMPW_NOREPLACE	0x01	/* fail with EEXIST if the final name exists */

/**
 * struct tm_dumpw - a dump file being written; fields are private
 *
 * Lifetime: tm_dumpw_open(), then any number of sections, each either
 * tm_dumpw_section() or tm_dumpw_section_begin() + tm_dumpw_section_append()* +
 * tm_dumpw_section_end(), then tm_dumpw_commit().  The data goes to a temporary
 * file in the target directory; only tm_dumpw_commit() gives it the final
 * name.  If any call fails, the temporary file has already been removed
 * and every later call fails too; tm_dumpw_abort() may always be called and
 * does nothing once the writer is finished or failed.
 */
struct tm_dumpw {
	int fd;
	int dirfd;
	int state;
	int err;
	unsigned int flags;
	char *tmpname;
	char *finalname;
	struct tipme_file_header hdr;
	uint64_t off;
	unsigned char *buf;
	size_t buf_len;
	uint64_t buf_off;
	int in_section;
	uint64_t sec_hdr_off;
	struct tipme_section sec;
	uint32_t nr_sections;
};

/*
 * A writer of CPU streams ends a CPU's section at the first sub-buffer's
 * end past this many bytes and goes on in a new section of the same CPU:
 * each section has its checksum, which the reader checks when it first
 * reads the section (TM_DUMP_LAZY_STREAMS), so a command that reads a
 * part of a large dump checks only that part, and a corrupt section it
 * does not read does not fail it.
 */
#define TM_DUMP_STREAM_SECTION	(4U << 20)

/**
 * tm_dumpw_open() - start writing a dump file
 * @w: writer state
 * @path: final name of the file; its directory must exist
 * @hdr: flags, tsc_khz, clock_source, nr_cpus and created_real_ns to put in
 *       the header (created_real_ns 0 means "now"); the other fields are
 *       filled in by the writer
 * @flags: DUMPW_*
 * @e: error message
 *
 * Creates a temporary file next to @path (O_CREAT | O_EXCL, mode 0600).
 *
 * Return: 0 or a negative errno.
 */
int tm_dumpw_open(struct tm_dumpw *w, const char *path,
	       const struct tipme_file_header *hdr, unsigned int flags,
	       struct tm_err *e);

/**
 * tm_dumpw_section_begin() - start a section whose payload comes in pieces
 * @w: writer
 * @type: enum tipme_section_type (or a newer number)
 * @cpu: CPU of a per-CPU section, else 0
 * @e: error message
 *
 * Return: 0 or a negative errno (-EINVAL if a section is already open).
 */
int tm_dumpw_section_begin(struct tm_dumpw *w, uint32_t type, uint32_t cpu,
			struct tm_err *e);

/**
 * tm_dumpw_section_append() - add payload bytes to the open section
 * @w: writer
 * @data: bytes
 * @len: number of bytes (0 is allowed)
 * @e: error message
 *
 * The CRC is computed as the bytes pass.
 *
 * Return: 0 or a negative errno.
 */
int tm_dumpw_section_append(struct tm_dumpw *w, const void *data, size_t len,
			 struct tm_err *e);

/**
 * tm_dumpw_section_end() - pad the open section to 8 bytes and fix its header
 * @w: writer
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int tm_dumpw_section_end(struct tm_dumpw *w, struct tm_err *e);

struct iovec;

/**
 * tm_dumpw_section_appendv() - add payload bytes from several places
 * @w: writer
 * @iov: the pieces, in order
 * @n: number of pieces
 * @e: error message
 *
 * As tm_dumpw_section_append() of each piece, but the pieces go to the file
 * in one system call, straight from where they are (a mapped ring, say),
 * without being copied first.
 *
 * Return: 0 or a negative errno.
 */
int tm_dumpw_section_appendv(struct tm_dumpw *w, const struct iovec *iov, int n,
			  struct tm_err *e);

/**
 * struct tm_dumpw_mark - a point in the open section to go back to
 * @off: file offset
 * @size: payload bytes of the section so far
 * @crc32: the section's CRC so far
 */
struct tm_dumpw_mark {
	uint64_t off;
	uint64_t size;
	uint32_t crc32;
};

/**
 * tm_dumpw_section_mark() - remember the end of the open section's payload
 * @w: writer, with a section open
 * @m: filled in
 */
void tm_dumpw_section_mark(const struct tm_dumpw *w, struct tm_dumpw_mark *m);

/**
 * tm_dumpw_section_rewind() - take back what was appended since a mark
 * @w: writer
 * @m: a mark of the section still open
 * @e: error message
 *
 * The file is cut back to the mark, as if nothing had been appended since.
 *
 * Return: 0 or a negative errno (-EINVAL for a mark outside the section).
 */
int tm_dumpw_section_rewind(struct tm_dumpw *w, const struct tm_dumpw_mark *m,
			 struct tm_err *e);

/**
 * tm_dumpw_section() - write a whole section at once
 * @w: writer
 * @type: section type
 * @cpu: CPU or 0
 * @data: payload
 * @len: payload bytes
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int tm_dumpw_section(struct tm_dumpw *w, uint32_t type, uint32_t cpu,
		  const void *data, size_t len, struct tm_err *e);

/**
 * tm_dumpw_commit() - finish the file and give it its final name
 * @w: writer; a section still open is ended first
 * @e: error message
 *
 * Writes the header (file_size, nr_sections), fsyncs the file, renames it
 * to the final name and fsyncs the directory.  On failure before the
 * rename, nothing is left behind.  If only the final fsync of the
 * directory fails, the complete file exists under its final name and the
 * error is still returned.
 *
 * Return: 0 or a negative errno.
 */
int tm_dumpw_commit(struct tm_dumpw *w, struct tm_err *e);

/**
 * tm_dumpw_abort() - give up: remove the temporary file, free everything
 * @w: writer (any state)
 */
void tm_dumpw_abort(struct tm_dumpw *w);

/* ------------------------------------------------------------------ */
/* Reader                                                             */
/* ------------------------------------------------------------------ */

#define TM_DUMP_NO_CRC	0x01	/* do not verify checksums (fuzzing the decoders) */
/*
 * The bytes are a mapped file (tm_dump_load() sets it): the checksums are
 * computed a few MiB at a time and the pages read are given back after
 * each (tm_drop_file_pages()), so that checking a 1 GiB dump does not
 * leave all of it in the resident set.
 */
#define TM_DUMP_MAPPED_BUF	0x02
/*
 * The CPU stream sections' checksums are not checked here: the reader
 * checks each with tm_dump_sec_check() when it first reads the section
 * (the postmortem's decoder, when it enters it), so that a command that
 * reads a part of the dump neither reads the whole file nor fails for a
 * corrupt section it never reads.
 */
#define TM_DUMP_LAZY_STREAMS	0x04

/**
 * struct tm_dump_sec - one validated section
 * @h: its header, copied
 * @index: position among the sections, from 0
 * @hdr_off: file offset of the section header
 * @data: the payload, inside struct dump.buf (read it with memcpy: a
 *        buffer given to tm_dump_parse() may have any alignment)
 */
struct tm_dump_sec {
	struct tipme_section h;
	uint32_t index;
	uint64_t hdr_off;
	const unsigned char *data;
};

#define TM_DUMP_MALLOCED	1
#define TM_DUMP_MAPPED		2

/**
 * struct tm_dump - a loaded and validated dump file
 * @buf: the whole file
 * @size: its size
 * @owned: 0, or how tm_dump_load() got @buf, which tm_dump_free() releases:
 *	TM_DUMP_MAPPED (the file mapped: its pages are read as they are
 *	touched) or TM_DUMP_MALLOCED (read whole)
 * @hdr: the file header, copied
 * @secs: the sections, in file order, unknown types included
 * @nr_secs: number of sections
 */
struct tm_dump {
	unsigned char *buf;
	size_t size;
	int owned;
	struct tipme_file_header hdr;
	struct tm_dump_sec *secs;
	uint32_t nr_secs;
};

/**
 * tm_dump_load() - map a dump file and validate it
 * @d: result; release with tm_dump_free() (also after a failure)
 * @path: file name
 * @flags: DUMP_*
 * @e: error message, e.g. "truncated: header says N bytes, file has M"
 *
 * Return: 0, or a negative errno (-EINVAL for a malformed file, -EPROTO for
 * a newer version or the other byte order).
 */
int tm_dump_load(struct tm_dump *d, const char *path, unsigned int flags,
	      struct tm_err *e);

/**
 * tm_dump_parse() - validate a dump already in memory
 * @d: result; release with tm_dump_free()
 * @buf: the file's bytes; must stay valid and unchanged while @d is used.
 *       Any alignment is accepted.
 * @size: number of bytes
 * @flags: DUMP_*
 * @e: error message
 *
 * Return: as tm_dump_load().
 */
int tm_dump_parse(struct tm_dump *d, const void *buf, size_t size,
	       unsigned int flags, struct tm_err *e);

/**
 * tm_dump_sec_check() - check one section's checksum
 * @d: a dump loaded or parsed with TM_DUMP_LAZY_STREAMS
 * @s: one of its sections
 * @e: error message, as tm_dump_load()'s for a mismatch found there, with
 *     the place of the bytes: "section 5 (cpu_stream cpu 1): checksum
 *     mismatch (stored 0x..., computed 0x...) in its N bytes at file
 *     offset M"
 *
 * A mapped file's pages are given back as it goes (TM_DUMP_MAPPED_BUF).
 *
 * Return: 0, or -EINVAL for a mismatch.
 */
int tm_dump_sec_check(const struct tm_dump *d, const struct tm_dump_sec *s,
		      struct tm_err *e);

/**
 * tm_dump_free() - release a dump; @d may be zeroed or already freed
 * @d: the dump
 */
void tm_dump_free(struct tm_dump *d);

/**
 * tm_dump_sec_type_name() - the name of a section type
 * @type: enum tipme_section_type
 *
 * Return: "rectypes", "cpu_stream", ... or NULL for an unknown type.
 */
const char *tm_dump_sec_type_name(uint32_t type);

/**
 * tm_dump_sec_describe() - "section 3 (cpu_stream cpu 1)" for messages
 * @s: the section
 * @buf: output
 * @len: size of @buf
 *
 * Return: @buf.
 */
char *tm_dump_sec_describe(const struct tm_dump_sec *s, char *buf, size_t len);

#endif
