/* SPDX-License-Identifier: GPL-2.0 */
/* array_size() for smpbench. */
#define array_size(a, b)	((size_t)(a) * (size_t)(b))
