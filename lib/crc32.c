// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32 (IEEE, reflected polynomial 0xEDB88320).
 *
 * Two ways, one result:
 *  - eight bytes at a time with tables ("slicing by 8"): table k holds the
 *    CRC of a byte followed by k zero bytes, so eight lookups fold eight
 *    input bytes at once.  Reading the words byte by byte keeps it
 *    independent of the machine's byte order; compilers turn it into one
 *    load on little-endian machines.
 *  - on x86-64 with PCLMULQDQ, by carry-less multiplication ("folding"),
 *    for long buffers (below): four 16-byte blocks in flight, 64 bytes a
 *    step, then sixteen bytes at a time.
 */
#include "crc32.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TM_CRC_CLMUL 1
#include <immintrin.h>
#endif

static uint32_t crc_tab[8][256];

#ifdef TM_CRC_CLMUL
static int have_clmul;
/* {x^(8D+63), x^(8D-1)} mod P: fold a block D = 16, 32, 48, 64 bytes on */
static uint64_t fold_k[4][2];
static void fold_init(void);
#endif

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
#ifdef TM_CRC_CLMUL
	fold_init();
#endif
}

static inline uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The CRC register without the inversions before and after. */
static uint32_t crc_raw(uint32_t crc, const unsigned char *p, size_t len)
{
	uint32_t hi;

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
	return crc;
}

uint32_t tm_crc32_tables(uint32_t crc, const void *buf, size_t len)
{
	return ~crc_raw(~crc, buf, len);
}

#ifdef TM_CRC_CLMUL
/*
 * Folding.  Read 16 bytes as a polynomial the way the CRC does: bit i of
 * the 128-bit little-endian value is the coefficient of x^(127 - i).  Its
 * first 8 bytes (lane 0) are then H(x) x^64 and the last 8 (lane 1) L(x),
 * with H and L read the same way in 64 bits.  A carry-less product of two
 * such 64-bit lanes, read as 128 bits, is x times the product of their
 * polynomials.  So with k_n = x^n mod P written into a lane,
 *
 *   clmul(lane 0, k_191) + clmul(lane 1, k_127)
 *     = x H (x^191 mod P) + x L (x^127 mod P)  ==  (H x^64 + L) x^128  (mod P)
 *
 * and it has fewer than 128 bits: the block, moved 16 bytes on, in 16
 * bytes again.  With x^(8D+63) and x^(8D-1) it moves D bytes on, so four
 * blocks 16 bytes apart each fold 64 bytes at a time, independently, and
 * are then moved onto the last of them by 48, 32 and 16 bytes.  Adding the next 16 bytes of input to it keeps the running
 * value congruent, mod P, to everything read so far.  The CRC register of
 * a message only depends on the message's polynomial mod P, so the tables
 * finish the job on the last 16 bytes folded and the tail.
 */

/* x^n mod P, written into a 64-bit lane (coefficient of x^d at bit 63 - d). */
static uint64_t xpow_lane(unsigned int n)
{
	uint64_t r = 1, lane = 0;	/* x^0, P's bits in the usual order */
	int d;

	while (n--) {
		r <<= 1;
		if (r >> 32)
			r ^= 0x104C11DB7ULL;
	}
	for (d = 0; d < 32; d++)
		if (r >> d & 1)
			lane |= 1ULL << (63 - d);
	return lane;
}

static void fold_init(void)
{
	__builtin_cpu_init();
	have_clmul = __builtin_cpu_supports("pclmul") &&
		     __builtin_cpu_supports("sse4.1");
	int d;

	for (d = 0; d < 4; d++) {
		fold_k[d][0] = xpow_lane(8 * 16 * (d + 1) + 63);
		fold_k[d][1] = xpow_lane(8 * 16 * (d + 1) - 1);
	}
}

/* The block @s moved on by the distance @k is for. */
__attribute__((target("pclmul,sse4.1")))
static inline __m128i fold(__m128i s, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(s, k, 0x00),
			     _mm_clmulepi64_si128(s, k, 0x11));
}

__attribute__((target("pclmul,sse4.1")))
static inline __m128i fold_key(int d)
{
	return _mm_set_epi64x((long long)fold_k[d][1], (long long)fold_k[d][0]);
}

__attribute__((target("pclmul,sse4.1")))
static uint32_t crc_fold(uint32_t crc, const unsigned char *p, size_t len)
{
	const __m128i *q = (const __m128i *)p;
	__m128i s = _mm_loadu_si128(q), s1, s2, s3, k;
	unsigned char last[16];

	/* The register goes into the first four bytes, as crc_raw() does. */
	s = _mm_xor_si128(s, _mm_cvtsi32_si128((int)crc));
	if (len >= 128) {
		s1 = _mm_loadu_si128(q + 1);
		s2 = _mm_loadu_si128(q + 2);
		s3 = _mm_loadu_si128(q + 3);
		k = fold_key(3);
		for (p += 64, len -= 64; len >= 64; p += 64, len -= 64) {
			q = (const __m128i *)p;
			s = _mm_xor_si128(fold(s, k), _mm_loadu_si128(q));
			s1 = _mm_xor_si128(fold(s1, k), _mm_loadu_si128(q + 1));
			s2 = _mm_xor_si128(fold(s2, k), _mm_loadu_si128(q + 2));
			s3 = _mm_xor_si128(fold(s3, k), _mm_loadu_si128(q + 3));
		}
		s = _mm_xor_si128(_mm_xor_si128(fold(s, fold_key(2)),
						fold(s1, fold_key(1))),
				  _mm_xor_si128(fold(s2, fold_key(0)), s3));
	} else {
		p += 16;
		len -= 16;
	}
	for (k = fold_key(0); len >= 16; p += 16, len -= 16)
		s = _mm_xor_si128(fold(s, k), _mm_loadu_si128((const __m128i *)p));
	_mm_storeu_si128((__m128i *)last, s);
	return crc_raw(crc_raw(0, last, sizeof(last)), p, len);
}

uint32_t tm_crc32_clmul(uint32_t crc, const void *buf, size_t len)
{
	if (!have_clmul || len < 32)
		return tm_crc32_tables(crc, buf, len);
	return ~crc_fold(~crc, buf, len);
}
#else
uint32_t tm_crc32_clmul(uint32_t crc, const void *buf, size_t len)
{
	return tm_crc32_tables(crc, buf, len);
}
#endif

int tm_crc32_has_clmul(void)
{
#ifdef TM_CRC_CLMUL
	return have_clmul;
#else
	return 0;
#endif
}

uint32_t tm_crc32(uint32_t crc, const void *buf, size_t len)
{
	/* Folding pays from a few blocks on. */
	if (len >= 256)
		return tm_crc32_clmul(crc, buf, len);
	return tm_crc32_tables(crc, buf, len);
}
