/* SPDX-License-Identifier: GPL-2.0 */
/* The fixture library's one exported function (fixlib.c). */
#ifndef TIPME_USYM_FIXLIB_H
#define TIPME_USYM_FIXLIB_H

#include <stdint.h>

int lib_store(uintptr_t *ip, int max);

#endif
