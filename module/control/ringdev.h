/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /dev/tipme: the rings mapped read-only for mapped dumps (ringdev.c).
 */
#ifndef TIPME_RINGDEV_H
#define TIPME_RINGDEV_H

int tipme_ringdev_init(void);
void tipme_ringdev_exit(void);

#endif /* TIPME_RINGDEV_H */
