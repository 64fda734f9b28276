/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Failure injection for the load: the fail_load_step parameter makes one
 * allocation or registration of the load fail, so a test can walk every
 * error path of tipme_init() and check that each one unwinds cleanly.
 */
#ifndef TIPME_FAULT_H
#define TIPME_FAULT_H

#include <linux/types.h>

bool tipme_fail_step(const char *what);
void tipme_fail_steps_done(void);

#endif /* TIPME_FAULT_H */
