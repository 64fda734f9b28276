/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The on-CPU sampling profiler: a timer per CPU at profile_hz, off by
 * default (also /proc/sys/tipme/profile_hz).
 */
#ifndef TIPME_PROFILE_H
#define TIPME_PROFILE_H

#include <linux/types.h>

#define TIPME_PROFILE_HZ_MAX	1000

int tipme_profile_init(void);
void tipme_profile_exit(void);
unsigned int tipme_profile_hz(void);
int tipme_profile_set_hz(unsigned int hz);
int tipme_profile_params_text(char *buf, size_t size);

#endif /* TIPME_PROFILE_H */
