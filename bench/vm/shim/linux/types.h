/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/types.h> (smpbench only). */
#ifndef SHIM_LINUX_TYPES_H
#define SHIM_LINUX_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t __u8, u8;
typedef uint16_t __u16, u16;
typedef uint32_t __u32, u32;
typedef uint64_t __u64, u64;
typedef int8_t __s8, s8;
typedef int16_t __s16, s16;
typedef int32_t __s32, s32;
typedef int64_t __s64, s64;
#endif
