/* SPDX-License-Identifier: GPL-2.0 */
/* smpbench stand-in */
#define EINVAL 22
#define ENOMEM 12
