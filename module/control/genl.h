/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "tipme" generic netlink family.
 */
#ifndef TIPME_GENL_H
#define TIPME_GENL_H

#include "control/trigger.h"

int tipme_genl_init(void);
void tipme_genl_exit(void);
int tipme_genl_notify_trigger(const struct tipme_trigger_info *t);

#endif /* TIPME_GENL_H */
