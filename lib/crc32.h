/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum of
 * struct tipme_section.  Same result as zlib's crc32().
 */
#ifndef TIPME_LIB_CRC32_H
#define TIPME_LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/**
 * tm_crc32() - update a CRC-32 with more bytes
 * @crc: CRC of the bytes so far (0 to start)
 * @buf: next bytes
 * @len: number of bytes
 *
 * tm_crc32(tm_crc32(0, a, n), b, m) equals the CRC of a followed by b, so a
 * section can be checksummed as it is streamed.
 *
 * Return: the updated CRC.
 */
uint32_t tm_crc32(uint32_t crc, const void *buf, size_t len);

/*
 * The two ways tm_crc32() computes it, for tests and benchmarks: with
 * tables, and by carry-less multiplication (PCLMULQDQ on x86-64; the
 * tables where the CPU lacks it, see tm_crc32_has_clmul()).
 */
uint32_t tm_crc32_tables(uint32_t crc, const void *buf, size_t len);
uint32_t tm_crc32_clmul(uint32_t crc, const void *buf, size_t len);
int tm_crc32_has_clmul(void);

#endif
