/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one reader of ELF files: a file's GNU build-id note, which names the
 * exact build of an executable or shared library (what debuginfo is found
 * by).  64-bit little-endian ELF only, the files of x86-64.
 */
#ifndef TIPME_LIB_ELFNOTE_H
#define TIPME_LIB_ELFNOTE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define TM_BUILD_ID_MAX	64	/* bytes; GNU ld writes 20 (SHA-1) */

/**
 * struct tm_elf_src - where an ELF file's bytes come from
 * @read: copy @len bytes at @off into @buf; return 0, or a negative errno
 *	(-EINVAL for bytes past the end)
 * @ctx: its argument
 */
struct tm_elf_src {
	int (*read)(void *ctx, uint64_t off, void *buf, size_t len);
	void *ctx;
};

/**
 * tm_elf_build_id() - the build-id of an ELF file
 * @src: the file's bytes
 * @id: set to the build-id
 * @idlen: set to its length in bytes (1 to TM_BUILD_ID_MAX)
 * @e: error message
 *
 * Reads the ELF header, the program headers and the PT_NOTE segments
 * (at most 64 KiB of notes), every count and offset checked against what
 * @src holds.
 *
 * Return: 0, -ENOENT if the file has no build-id note, -EINVAL if it is
 * not a 64-bit little-endian ELF file or is malformed, or @src's error.
 */
int tm_elf_build_id(const struct tm_elf_src *src,
		    unsigned char id[TM_BUILD_ID_MAX], size_t *idlen,
		    struct tm_err *e);

/**
 * tm_elf_mem_read() - a struct tm_elf_src read of a memory buffer
 * @ctx: a struct tm_elf_mem
 * @off: offset
 * @buf: destination
 * @len: bytes
 *
 * Return: 0 or -EINVAL past the end.
 */
int tm_elf_mem_read(void *ctx, uint64_t off, void *buf, size_t len);

/**
 * struct tm_elf_mem - a file's bytes in memory, for tm_elf_mem_read()
 * @data: the bytes
 * @size: their number
 */
struct tm_elf_mem {
	const unsigned char *data;
	size_t size;
};

/**
 * tm_elf_fd_read() - a struct tm_elf_src read of an open file
 * @ctx: pointer to the int file descriptor
 * @off: offset
 * @buf: destination
 * @len: bytes
 *
 * Return: 0, -EINVAL past the end, or -errno of pread().
 */
int tm_elf_fd_read(void *ctx, uint64_t off, void *buf, size_t len);

#endif
