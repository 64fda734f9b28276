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

#define DUMPW_NOREPLACE	0x01	/* fail with EEXIST if the final name exists */

/**
 * struct dumpw - a dump file being written; fields are private
 *
 * Lifetime: dumpw_open(), then any number of sections, each either
 * dumpw_section() or dumpw_section_begin() + dumpw_section_append()* +
 * dumpw_section_end(), then dumpw_commit().  The data goes to a temporary
 * file in the target directory; only dumpw_commit() gives it the final
 * name.  If any call fails, the temporary file has already been removed
 * and every later call fails too; dumpw_abort() may always be called and
 * does nothing once the writer is finished or failed.
 */
struct dumpw {
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

/**
 * dumpw_open() - start writing a dump file
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
int dumpw_open(struct dumpw *w, const char *path,
	       const struct tipme_file_header *hdr, unsigned int flags,
	       struct tm_err *e);

/**
 * dumpw_section_begin() - start a section whose payload comes in pieces
 * @w: writer
 * @type: enum tipme_section_type (or a newer number)
 * @cpu: CPU of a per-CPU section, else 0
 * @e: error message
 *
 * Return: 0 or a negative errno (-EINVAL if a section is already open).
 */
int dumpw_section_begin(struct dumpw *w, uint32_t type, uint32_t cpu,
			struct tm_err *e);

/**
 * dumpw_section_append() - add payload bytes to the open section
 * @w: writer
 * @data: bytes
 * @len: number of bytes (0 is allowed)
 * @e: error message
 *
 * The CRC is computed as the bytes pass.
 *
 * Return: 0 or a negative errno.
 */
int dumpw_section_append(struct dumpw *w, const void *data, size_t len,
			 struct tm_err *e);

/**
 * dumpw_section_end() - pad the open section to 8 bytes and fix its header
 * @w: writer
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int dumpw_section_end(struct dumpw *w, struct tm_err *e);

struct iovec;

/**
 * dumpw_section_appendv() - add payload bytes from several places
 * @w: writer
 * @iov: the pieces, in order
 * @n: number of pieces
 * @e: error message
 *
 * As dumpw_section_append() of each piece, but the pieces go to the file
 * in one system call, straight from where they are (a mapped ring, say),
 * without being copied first.
 *
 * Return: 0 or a negative errno.
 */
int dumpw_section_appendv(struct dumpw *w, const struct iovec *iov, int n,
			  struct tm_err *e);

/**
 * struct dumpw_mark - a point in the open section to go back to
 * @off: file offset
 * @size: payload bytes of the section so far
 * @crc32: the section's CRC so far
 */
struct dumpw_mark {
	uint64_t off;
	uint64_t size;
	uint32_t crc32;
};

/**
 * dumpw_section_mark() - remember the end of the open section's payload
 * @w: writer, with a section open
 * @m: filled in
 */
void dumpw_section_mark(const struct dumpw *w, struct dumpw_mark *m);

/**
 * dumpw_section_rewind() - take back what was appended since a mark
 * @w: writer
 * @m: a mark of the section still open
 * @e: error message
 *
 * The file is cut back to the mark, as if nothing had been appended since.
 *
 * Return: 0 or a negative errno (-EINVAL for a mark outside the section).
 */
int dumpw_section_rewind(struct dumpw *w, const struct dumpw_mark *m,
			 struct tm_err *e);

/**
 * dumpw_section() - write a whole section at once
 * @w: writer
 * @type: section type
 * @cpu: CPU or 0
 * @data: payload
 * @len: payload bytes
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int dumpw_section(struct dumpw *w, uint32_t type, uint32_t cpu,
		  const void *data, size_t len, struct tm_err *e);

/**
 * dumpw_commit() - finish the file and give it its final name
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
int dumpw_commit(struct dumpw *w, struct tm_err *e);

/**
 * dumpw_abort() - give up: remove the temporary file, free everything
 * @w: writer (any state)
 */
void dumpw_abort(struct dumpw *w);

/* ------------------------------------------------------------------ */
/* Reader                                                             */
/* ------------------------------------------------------------------ */

#define DUMP_NO_CRC	0x01	/* do not verify checksums (fuzzing the decoders) */

/**
 * struct dump_sec - one validated section
 * @h: its header, copied
 * @index: position among the sections, from 0
 * @hdr_off: file offset of the section header
 * @data: the payload, inside struct dump.buf (read it with memcpy: a
 *        buffer given to dump_parse() may have any alignment)
 */
struct dump_sec {
	struct tipme_section h;
	uint32_t index;
	uint64_t hdr_off;
	const unsigned char *data;
};

/**
 * struct dump - a loaded and validated dump file
 * @buf: the whole file
 * @size: its size
 * @owned: @buf was allocated by dump_load() and is freed by dump_free()
 * @hdr: the file header, copied
 * @secs: the sections, in file order, unknown types included
 * @nr_secs: number of sections
 */
struct dump {
	unsigned char *buf;
	size_t size;
	int owned;
	struct tipme_file_header hdr;
	struct dump_sec *secs;
	uint32_t nr_secs;
};

/**
 * dump_load() - read a dump file completely and validate it
 * @d: result; release with dump_free() (also after a failure)
 * @path: file name
 * @flags: DUMP_*
 * @e: error message, e.g. "truncated: header says N bytes, file has M"
 *
 * Return: 0, or a negative errno (-EINVAL for a malformed file, -EPROTO for
 * a newer version or the other byte order).
 */
int dump_load(struct dump *d, const char *path, unsigned int flags,
	      struct tm_err *e);

/**
 * dump_parse() - validate a dump already in memory
 * @d: result; release with dump_free()
 * @buf: the file's bytes; must stay valid and unchanged while @d is used.
 *       Any alignment is accepted.
 * @size: number of bytes
 * @flags: DUMP_*
 * @e: error message
 *
 * Return: as dump_load().
 */
int dump_parse(struct dump *d, const void *buf, size_t size,
	       unsigned int flags, struct tm_err *e);

/**
 * dump_free() - release a dump; @d may be zeroed or already freed
 * @d: the dump
 */
void dump_free(struct dump *d);

/**
 * dump_sec_type_name() - the name of a section type
 * @type: enum tipme_section_type
 *
 * Return: "rectypes", "cpu_stream", ... or NULL for an unknown type.
 */
const char *dump_sec_type_name(uint32_t type);

/**
 * dump_sec_describe() - "section 3 (cpu_stream cpu 1)" for messages
 * @s: the section
 * @buf: output
 * @len: size of @buf
 *
 * Return: @buf.
 */
char *dump_sec_describe(const struct dump_sec *s, char *buf, size_t len);

#endif
