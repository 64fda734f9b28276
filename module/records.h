/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record-type table every dump carries.
 */
#ifndef TIPME_RECORDS_H
#define TIPME_RECORDS_H

#include <linux/types.h>
#include <linux/tipme.h>

const struct tipme_rectype *tipme_rectypes(size_t *count);

#endif /* TIPME_RECORDS_H */
