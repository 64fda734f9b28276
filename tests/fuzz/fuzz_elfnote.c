// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a file tipmed finds mapped into a process, through
 * the one ELF reader, tm_elf_build_id().  What it accepts must be what it
 * promises: a build-id of 1 to TM_BUILD_ID_MAX bytes; what it refuses
 * must say why.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "elfnote.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tm_elf_mem m = { data, size };
	struct tm_elf_src src = { tm_elf_mem_read, &m };
	unsigned char id[TM_BUILD_ID_MAX];
	struct tm_err e = { "" };
	size_t len = 0;
	int ret = tm_elf_build_id(&src, id, &len, &e);

	if (ret) {
		if (!e.msg[0] || (ret != -EINVAL && ret != -ENOENT && ret != -ENOMEM))
			abort();
		return 0;
	}
	if (!len || len > TM_BUILD_ID_MAX)
		abort();
	return 0;
}
