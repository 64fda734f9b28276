/* SPDX-License-Identifier: GPL-2.0 */
/* roundup_pow_of_two() for smpbench. */
#ifndef SHIM_LINUX_LOG2_H
#define SHIM_LINUX_LOG2_H
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	unsigned long p = 1;

	while (p < n)
		p <<= 1;
	return p;
}
#endif
