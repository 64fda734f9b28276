/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The blocking-site table: every call chain a task went to sleep through
 * gets a number once, and the ring holds the number (TIPME_REC_SITE)
 * instead of the chain.  Dumps carry the table (TIPME_SEC_SITES).
 */
#ifndef TIPME_SITETAB_H
#define TIPME_SITETAB_H

#include <linux/types.h>
#include <linux/tipme.h>

int tipme_sitetab_init(unsigned int capacity, unsigned int depth);
void tipme_sitetab_exit(void);
bool tipme_sitetab_enabled(void);
u32 tipme_sitetab_intern(const u32 *ips, unsigned int n, bool full);
size_t tipme_sitetab_read(u32 *pos, void *buf, size_t room, bool *done);
void tipme_sitetab_hdr(struct tipme_sitetab_hdr *h);
int tipme_sitetab_params_text(char *buf, size_t size);

#endif /* TIPME_SITETAB_H */
