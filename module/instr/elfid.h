/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GNU build-id note of an ELF file, from bytes a callback reads: the
 * module reads it from a mapped file (xmaps.c), the fuzzer from its input
 * (tests/fuzz/fuzz_elfid.c builds this same file in user space).
 */
#ifndef TIPME_ELFID_H
#define TIPME_ELFID_H

#include <linux/types.h>

#define TIPME_ELFID_CHUNK	4096	/* bytes of program headers, of a note segment */
#define TIPME_ELFID_SCRATCH	(2 * TIPME_ELFID_CHUNK)

/**
 * typedef tipme_elfid_read_fn - read bytes of the file
 * @ctx: the caller's argument
 * @off: file offset
 * @buf: destination
 * @len: bytes wanted, at most TIPME_ELFID_CHUNK
 *
 * Return: 0 when all @len bytes were read, else a negative errno.
 */
typedef int (*tipme_elfid_read_fn)(void *ctx, __u64 off, void *buf, __u32 len);

int tipme_elf_build_id(tipme_elfid_read_fn rd, void *ctx, __u8 *scratch,
		       __u8 *id, unsigned int max);

#endif /* TIPME_ELFID_H */
