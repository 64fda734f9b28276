/* SPDX-License-Identifier: GPL-2.0 */
/* vzalloc()/vfree() for smpbench. */
#include <stdlib.h>
#define vzalloc(n)	calloc(1, (n))
#define vfree(p)	free(p)
