/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space call chains of tasks that go to sleep, numbered in a table
 * (TIPME_REC_USTACK_C holds the number; dumps carry TIPME_SEC_USTACKS).
 */
#ifndef TIPME_USTACK_H
#define TIPME_USTACK_H

#include <linux/types.h>
#include <linux/tipme.h>

extern bool tipme_user_stacks;

int tipme_ustack_init(void);
void tipme_ustack_exit(void);
bool tipme_ustack_on(void);
u32 tipme_ustack_capture(void);
u32 tipme_ustack_capture_irq(void);
size_t tipme_ustack_read(u32 *pos, void *buf, size_t room, bool *done);
void tipme_ustack_hdr(struct tipme_sitetab_hdr *h);
int tipme_ustack_params_text(char *buf, size_t size);

#endif /* TIPME_USTACK_H */
