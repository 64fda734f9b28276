/* SPDX-License-Identifier: GPL-2.0 */
/* smpbench stand-in */
#include <string.h>
