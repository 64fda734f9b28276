/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The executable file mappings of processes with user-space chains,
 * captured by the module and kept after they exit (TIPME_SEC_XMAPS).
 */
#ifndef TIPME_XMAPS_H
#define TIPME_XMAPS_H

#include <linux/types.h>
#include <linux/tipme.h>

int tipme_xmaps_init(void);
void tipme_xmaps_exit(void);
void tipme_xmaps_request(void);
void tipme_xmaps_hdr(struct tipme_xmaps_hdr *h);
size_t tipme_xmaps_read(u32 *pos, u64 *since, void *buf, size_t room,
			bool *done);
int tipme_xmaps_params_text(char *buf, size_t size);

#endif /* TIPME_XMAPS_H */
