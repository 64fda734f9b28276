// SPDX-License-Identifier: GPL-2.0
/* CRC-32 against known vectors (the values zlib's crc32() gives). */
#include <stdint.h>
#include <string.h>

#include "crc32.h"
#include "tap.h"

int main(void)
{
	static const struct { const char *s; uint32_t crc; } vec[] = {
		{ "", 0x00000000 },
		{ "a", 0xe8b7be43 },
		{ "abc", 0x352441c2 },
		{ "123456789", 0xcbf43926 },
		{ "The quick brown fox jumps over the lazy dog", 0x414fa339 },
	};
	unsigned char big[1024];
	uint32_t crc;
	size_t i, split;
	int ok;

	tap_plan(8);
	for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		crc = tm_crc32(0, vec[i].s, strlen(vec[i].s));
		tap_ok(crc == vec[i].crc, "crc32(\"%s\") = 0x%08x (got 0x%08x)",
		       vec[i].s, vec[i].crc, crc);
	}
	for (i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)i;
	crc = tm_crc32(0, big, sizeof(big));
	tap_ok(crc == 0xb70b4c26, "crc32 of bytes 0..255 x4 = 0xb70b4c26 (got 0x%08x)", crc);

	/* incremental == one shot, for every split point */
	ok = 1;
	for (split = 0; split <= sizeof(big); split++)
		if (tm_crc32(tm_crc32(0, big, split), big + split,
			     sizeof(big) - split) != crc)
			ok = 0;
	tap_ok(ok, "incremental crc equals one-shot crc at every split point");
	ok = 1;
	for (crc = 0, i = 0; i < sizeof(big); i++)
		crc = tm_crc32(crc, big + i, 1);
	tap_ok(crc == 0xb70b4c26, "byte-at-a-time crc matches");
	return tap_done();
}
