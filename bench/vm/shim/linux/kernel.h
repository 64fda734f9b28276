/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the parts of <linux/kernel.h> smptab.c uses. */
#ifndef SHIM_LINUX_KERNEL_H
#define SHIM_LINUX_KERNEL_H
#include <linux/types.h>
#define U32_MAX		0xffffffffU
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#endif
