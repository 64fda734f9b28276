/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Blocking sites: the kernel return addresses of a task that goes to
 * sleep, outside the scheduler and the locking primitives.
 */
#ifndef TIPME_SITE_H
#define TIPME_SITE_H

#include <linux/types.h>

#define TIPME_SITE_DEPTH_MAX	16

extern unsigned int tipme_site_depth;

int tipme_site_init(unsigned int depth);
void tipme_site_exit(void);
u32 tipme_site_number(unsigned int depth, unsigned long sp);
unsigned int tipme_site_capture(u32 *ips, unsigned int depth, bool *full,
				u32 *id, unsigned long sp);
unsigned int tipme_stack_capture(u32 *ips, unsigned int depth);
bool tipme_site_in_sched(unsigned long ip);
u32 tipme_site_text_hi(void);
int tipme_site_params_text(char *buf, size_t size);

#endif /* TIPME_SITE_H */
