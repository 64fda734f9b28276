/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/sys/tipme/: switches and triggers for the shell.
 */
#ifndef TIPME_SYSCTL_H
#define TIPME_SYSCTL_H

int tipme_sysctl_init(void);
void tipme_sysctl_exit(void);

#endif /* TIPME_SYSCTL_H */
