// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a file the module finds mapped into a process,
 * through the module's own reader of its build-id note,
 * module/instr/elfid.c, built here unchanged.  What it finds must be what
 * it promises (1 to TIPME_XMAP_BUILD_ID_MAX bytes, no read past its
 * scratch bounds) and what lib/elfnote.c finds in the same bytes: the
 * postmortem names a file by the build-id tipmed reads, the module's
 * must not differ.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tipme.h>

#include "elfnote.h"
#include "../../module/instr/elfid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int mem_read(void *ctx, __u64 off, void *buf, __u32 len)
{
	if (len > TIPME_ELFID_CHUNK)
		abort();
	return tm_elf_mem_read(ctx, off, buf, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tm_elf_mem m = { data, size };
	struct tm_elf_src src = { tm_elf_mem_read, &m };
	unsigned char want[TM_BUILD_ID_MAX];
	__u8 id[TIPME_XMAP_BUILD_ID_MAX];
	struct tm_err e = { "" };
	size_t wlen = 0;
	__u8 *scratch = malloc(TIPME_ELFID_SCRATCH);
	int got;

	if (!scratch)
		return 0;
	got = tipme_elf_build_id(mem_read, &m, scratch, id, sizeof(id));
	free(scratch);
	if (got <= 0) {
		if (got != -EINVAL && got != -ENOENT)
			abort();
		return 0;
	}
	if (got > TIPME_XMAP_BUILD_ID_MAX)
		abort();
	if (tm_elf_build_id(&src, want, &wlen, &e) || wlen != (size_t)got ||
	    memcmp(want, id, wlen))
		abort();
	return 0;
}
