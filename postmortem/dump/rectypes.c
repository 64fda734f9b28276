// SPDX-License-Identifier: GPL-2.0
/*
 * The record types this reader decodes: for each, the name a dump's
 * record-type table must give it and the size of its fixed payload.  The
 * decoder copies that many bytes into struct pm_event.u; the record
 * printers (records/) and the analyses read them from there.
 */
#include <string.h>

#include "pm.h"

static const struct {
	const char *name;	/* NULL: decoded whatever the table calls it */
	uint16_t size;
} known[TIPME_REC_NR] = {
	/* the first types have had these numbers since the first format */
	[TIPME_REC_SCHED_SWITCH] = { NULL, sizeof(struct tipme_rec_switch) },
	[TIPME_REC_SCHED_WAKING] = { NULL, sizeof(struct tipme_rec_waking) },
	[TIPME_REC_TRIGGER] = { NULL, sizeof(struct tipme_rec_trigger) },
	[TIPME_REC_INPUT] = { NULL, sizeof(struct tipme_rec_input) },
	/* a writer that numbers these differently is not decoded */
	[TIPME_REC_BLOCKED] = { "blocked", sizeof(struct tipme_rec_blocked) },
	[TIPME_REC_FORK] = { "fork", sizeof(struct tipme_rec_fork) },
	[TIPME_REC_EXEC] = { "exec", sizeof(struct tipme_rec_exec) },
	[TIPME_REC_EXIT] = { "exit", sizeof(struct tipme_rec_exit) },
	[TIPME_REC_COMM] = { "comm", sizeof(struct tipme_rec_comm) },
	[TIPME_REC_BLK_ISSUE] = { "blk_issue", sizeof(struct tipme_rec_blk) },
	[TIPME_REC_BLK_COMPLETE] = { "blk_complete", sizeof(struct tipme_rec_blk) },
	[TIPME_REC_BLK_INSERT] = { "blk_insert", sizeof(struct tipme_rec_blk) },
	[TIPME_REC_LOCK_BEGIN] = { "lock_begin", sizeof(struct tipme_rec_lock_begin) },
	[TIPME_REC_LOCK_END] = { "lock_end", sizeof(struct tipme_rec_lock_end) },
	[TIPME_REC_RECLAIM_BEGIN] = { "reclaim_begin", sizeof(struct tipme_rec_reclaim_begin) },
	[TIPME_REC_RECLAIM_END] = { "reclaim_end", sizeof(struct tipme_rec_reclaim_end) },
	[TIPME_REC_KSWAPD] = { "kswapd", sizeof(struct tipme_rec_kswapd) },
	[TIPME_REC_THROTTLED] = { "throttled", sizeof(struct tipme_rec_throttled) },
	[TIPME_REC_SAMPLE] = { "sample", sizeof(struct tipme_rec_sample) },
	[TIPME_REC_SAMPLE_END] = { "sample_end", sizeof(struct tipme_rec_sample_end) },
	[TIPME_REC_COST] = { "cost", sizeof(struct tipme_rec_cost) },
	[TIPME_REC_SWITCH_C] = { "sched_switch_c", sizeof(struct tipme_rec_switch_c) },
	[TIPME_REC_WAKING_C] = { "sched_waking_c", sizeof(struct tipme_rec_waking_c) },
	[TIPME_REC_SITE] = { "site", sizeof(struct tipme_rec_site) },
	[TIPME_REC_SWITCH_S] = { "sched_switch_s", sizeof(struct tipme_rec_switch_s) },
	[TIPME_REC_SWITCH_SITE_S] = { "sched_switch_site_s",
				      sizeof(struct tipme_rec_switch_site_s) },
};

/* What the compact records stand for, whatever a dump's table holds. */
static const struct pm_rectype canon[] = {
	{ 1, TIPME_REC_SCHED_SWITCH, 0, sizeof(struct tipme_rec_switch),
	  "sched_switch", sizeof(struct tipme_rec_switch) },
	{ 1, TIPME_REC_SCHED_WAKING, 0, sizeof(struct tipme_rec_waking),
	  "sched_waking", sizeof(struct tipme_rec_waking) },
	{ 1, TIPME_REC_BLOCKED, TIPME_RECTYPE_VARLEN,
	  sizeof(struct tipme_rec_blocked), "blocked",
	  sizeof(struct tipme_rec_blocked) },
};

const struct pm_rectype *pm_rectype_canon(unsigned int type)
{
	size_t i;

	for (i = 0; i < sizeof(canon) / sizeof(canon[0]); i++)
		if (canon[i].type == type)
			return &canon[i];
	return NULL;
}

uint16_t pm_rectype_size(unsigned int type, const char *name)
{
	if (type >= TIPME_REC_NR || !known[type].size)
		return 0;
	if (known[type].name && strcmp(known[type].name, name))
		return 0;
	return known[type].size;
}
