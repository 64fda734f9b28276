// SPDX-License-Identifier: GPL-2.0
/*
 * The shared library of the symboliser's fixture (test_usym.c): a chain
 * through a function inlined into lib_store(), whose frames the program
 * walks itself.  Each "usym: NAME" comment marks the line the symboliser
 * must give for that function's frame (test_usym.c reads them).
 */
#include <stdint.h>

#include "fixlib.h"

/* The leaf: the chain's first address is this function's own. */
static __attribute__((noinline)) int usym_capture(uintptr_t *ip, int max)	/* usym: usym_capture */
{
	uintptr_t *fp = __builtin_frame_address(0);
	int n = 0;

	ip[n++] = (uintptr_t)&usym_capture;
	while (n < max && fp) {
		ip[n++] = fp[1];
		fp = (uintptr_t *)fp[0];
	}
	return n;
}

static inline __attribute__((always_inline)) int clamp_len(uintptr_t *ip, int max)
{
	int n = usym_capture(ip, max);	/* usym: clamp_len */

	return n < 0 ? 0 : n;
}

__attribute__((noinline)) int lib_store(uintptr_t *ip, int max)
{
	int n = clamp_len(ip, max);	/* usym: lib_store */

	__asm__ volatile("" ::: "memory");
	return n;
}
