// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the DUMP stream tipme.ko sends, through the receiver
 * that turns it into a dump file (helper/dumprx.c, tnl_dump_from_buffer()).
 * The input is 8 bytes of what every TIPME_IOC_RING_CHECK answers, one
 * byte choosing a mapped stream (odd) or a copied one, then netlink
 * messages.  A mapped stream reads from a 1 MiB stand-in for the rings.
 * Whatever the stream, a dump the receiver says it wrote must be a valid
 * dump file, or the harness aborts; a refused one leaves no file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dumpfile.h"
#include "nl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAP_LEN	(1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char *map;
	struct tnl_dump_fake fake;
	struct tnl_dump_stats st;
	struct tm_err e = { "" };
	char path[64];
	struct tm_dump d;
	void *buf;
	size_t i;
	int err;

	if (size < 9 || size > 65536)
		return 0;
	if (!map) {
		map = malloc(MAP_LEN);
		if (!map)
			return 0;
		for (i = 0; i < MAP_LEN; i++)
			map[i] = (unsigned char)(i * 29 + 5);
	}
	memcpy(&fake.oldest_intact, data, 8);
	fake.map = map;
	fake.map_len = MAP_LEN;
	buf = malloc(size - 9 ? size - 9 : 1);	/* its own allocation: ASan sees overreads */
	if (!buf)
		return 0;
	memcpy(buf, data + 9, size - 9);
	snprintf(path, sizeof(path), "/dev/shm/fuzz_dumprx.%d", (int)getpid());
	err = tnl_dump_from_buffer(buf, size - 9, path, data[8] & 1 ? &fake : NULL,
				   &st, &e);
	free(buf);
	if (err) {
		if (!access(path, F_OK))
			abort();	/* a refused dump left a file */
		return 0;
	}
	if (tm_dump_load(&d, path, 0, &e))
		abort();	/* it wrote what the reader refuses */
	tm_dump_free(&d);
	unlink(path);
	return 0;
}
