// SPDX-License-Identifier: GPL-2.0
/*
 * The record-type table every dump carries (see <linux/tipme.h>).
 */
#include <linux/kernel.h>
#include "tipme.h"

#define RECTYPE(t, payload, n) \
	{ .type = (t), .payload_size = sizeof(payload), .name = (n) }

static const struct tipme_rectype rectypes[] = {
	RECTYPE(TIPME_REC_SCHED_SWITCH, struct tipme_rec_switch, "sched_switch"),
	RECTYPE(TIPME_REC_SCHED_WAKING, struct tipme_rec_waking, "sched_waking"),
	RECTYPE(TIPME_REC_TRIGGER, struct tipme_rec_trigger, "trigger"),
	RECTYPE(TIPME_REC_INPUT, struct tipme_rec_input, "input"),
};

/**
 * tipme_rectypes() - the record types this module writes
 * @count: set to the number of entries
 *
 * Context: any.
 * Return: the table.
 */
const struct tipme_rectype *tipme_rectypes(size_t *count)
{
	*count = ARRAY_SIZE(rectypes);
	return rectypes;
}
