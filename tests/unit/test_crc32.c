// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32 against known vectors (the values zlib's crc32() gives), and the
 * folding (PCLMULQDQ) way against the tables on every length and
 * alignment up to 600 bytes and on random buffers with random starting
 * CRCs.
 */
#include <stdint.h>
#include <stdlib.h>
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

	tap_plan(11);
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

	/* folding against the tables */
	if (!tm_crc32_has_clmul()) {
		tap_skip("this CPU has no PCLMULQDQ: folding not tested");
		tap_skip("no PCLMULQDQ");
		tap_skip("no PCLMULQDQ");
		return tap_done();
	}
	{
		static unsigned char buf[1 << 16];
		uint64_t st = 42;
		size_t len, off, bad = 0, n = 0;
		uint32_t seed;

		for (i = 0; i < sizeof(buf); i++) {
			st = st * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[i] = (unsigned char)(st >> 56);
		}
		for (len = 0; len <= 600; len++)
			for (off = 0; off < 16; off++, n++)
				if (tm_crc32_clmul(0x12345678, buf + off, len) !=
				    tm_crc32_tables(0x12345678, buf + off, len))
					bad++;
		tap_ok(!bad, "folding equals the tables at every length 0..600 and alignment 0..15 (%zu of %zu differ)",
		       bad, n);
		for (bad = 0, n = 0; n < 200; n++) {
			st = st * 6364136223846793005ULL + 1442695040888963407ULL;
			off = (size_t)(st >> 40) % 4096;
			len = (size_t)(st >> 20) % (sizeof(buf) - off);
			seed = (uint32_t)st;
			if (tm_crc32_clmul(seed, buf + off, len) !=
			    tm_crc32_tables(seed, buf + off, len))
				bad++;
		}
		tap_ok(!bad, "folding equals the tables on 200 random buffers up to 64 KiB, random starting CRCs (%zu differ)",
		       bad);
		tap_ok(tm_crc32_clmul(0, big, sizeof(big)) == 0xb70b4c26,
		       "folding: bytes 0..255 x4 = 0xb70b4c26");
	}
	return tap_done();
}
