// SPDX-License-Identifier: GPL-2.0
/*
 * The record types this reader decodes, from TIPME_REC_TYPES (and the
 * tests' TIPME_REC_TEST_TYPES) of <linux/tipme.h>: for each, the name a
 * dump's record-type table must give it and the size of its fixed payload.
 * The decoder copies that many bytes into struct pm_event.u; the record
 * families (records/) and the analyses read them from there.
 */
#include <string.h>

#include "pm.h"

#define OURS(nr, id, st, n, len, family) \
	[nr] = { 1, nr, TIPME_RECTYPE_##len, sizeof(st), n, sizeof(st) },

static const struct pm_rectype ours[PM_NR_TYPES] = {
	TIPME_REC_TYPES(OURS)
	TIPME_REC_TEST_TYPES(OURS)
};

const struct pm_rectype *pm_rectype_canon(unsigned int type)
{
	switch (type) {
	case TIPME_REC_SCHED_SWITCH:
	case TIPME_REC_SCHED_WAKING:
	case TIPME_REC_BLOCKED:
	case TIPME_REC_USTACK:
	case TIPME_REC_PROF:
		return &ours[type];
	default:
		return NULL;
	}
}

uint16_t pm_rectype_size(unsigned int type, const char *name)
{
	if (type >= PM_NR_TYPES || !ours[type].present)
		return 0;
	/*
	 * The first types have had their numbers since the first format and
	 * are decoded whatever the table calls them; a writer that numbers a
	 * later type differently is not decoded.
	 */
	if (type > TIPME_REC_INPUT && strcmp(ours[type].name, name))
		return 0;
	return ours[type].our_size;
}
