/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's hash_32(), for smpbench. */
#ifndef SHIM_LINUX_HASH_H
#define SHIM_LINUX_HASH_H
#include <linux/types.h>
static inline u32 hash_32(u32 val, unsigned int bits)
{
	return (val * 0x61C88647U) >> (32 - bits);
}
#endif
