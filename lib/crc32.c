// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32 (IEEE, reflected polynomial 0xEDB88320), eight bytes at a time
 * ("slicing by 8"): table k holds the CRC of a byte followed by k zero
 * bytes, so eight lookups fold eight input bytes at once.  Reading the
 * words byte by byte keeps it independent of the machine's byte order;
 * compilers turn it into one load on little-endian machines.
 */
#include "crc32.h"

static uint32_t crc_tab[8][256];

__attribute__((constructor)) static void crc_init(void)
{
	uint32_t c;
	int n, k;

	for (n = 0; n < 256; n++) {
		c = (uint32_t)n;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320U ^ (c >> 1) : c >> 1;
		crc_tab[0][n] = c;
	}
	for (n = 0; n < 256; n++)
		for (k = 1; k < 8; k++)
			crc_tab[k][n] = (crc_tab[k - 1][n] >> 8) ^
					crc_tab[0][crc_tab[k - 1][n] & 0xff];
}

static inline uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint32_t tm_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t hi;

	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8) {
		crc ^= le32(p);
		hi = le32(p + 4);
		crc = crc_tab[7][crc & 0xff] ^ crc_tab[6][(crc >> 8) & 0xff] ^
		      crc_tab[5][(crc >> 16) & 0xff] ^ crc_tab[4][crc >> 24] ^
		      crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
		      crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
	}
	while (len--)
		crc = crc_tab[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
