// SPDX-License-Identifier: GPL-2.0
/*
 * The record-type table every dump carries: TIPME_REC_TYPES of
 * <linux/tipme.h>, the one list of record types, as struct tipme_rectype.
 */
#include <linux/kernel.h>
#include "records.h"

#define RECTYPE(nr, id, st, n, len, family) \
	{ .type = TIPME_REC_##id, .flags = TIPME_RECTYPE_##len, \
	  .payload_size = sizeof(st), .name = n },

static const struct tipme_rectype rectypes[] = {
	TIPME_REC_TYPES(RECTYPE)
};

/**
 * tipme_rectypes() - the record types this module writes
 * @count: set to the number of entries
 *
 * Context: any.
 * Return: the table, in increasing type order.
 */
const struct tipme_rectype *tipme_rectypes(size_t *count)
{
	*count = ARRAY_SIZE(rectypes);
	return rectypes;
}
