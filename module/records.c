// SPDX-License-Identifier: GPL-2.0
/*
 * The record-type table every dump carries (see <linux/tipme.h>).
 */
#include <linux/kernel.h>
#include "records.h"

#define RECTYPE(t, payload, n) \
	{ .type = (t), .payload_size = sizeof(payload), .name = (n) }
/* Variable length: @payload is the fixed part, an array follows. */
#define RECTYPE_VAR(t, payload, n) \
	{ .type = (t), .flags = TIPME_RECTYPE_VARLEN, \
	  .payload_size = sizeof(payload), .name = (n) }

static const struct tipme_rectype rectypes[] = {
	RECTYPE(TIPME_REC_SCHED_SWITCH, struct tipme_rec_switch, "sched_switch"),
	RECTYPE(TIPME_REC_SCHED_WAKING, struct tipme_rec_waking, "sched_waking"),
	RECTYPE(TIPME_REC_TRIGGER, struct tipme_rec_trigger, "trigger"),
	RECTYPE(TIPME_REC_INPUT, struct tipme_rec_input, "input"),
	/* Instrumentation (instr/) */
	RECTYPE_VAR(TIPME_REC_BLOCKED, struct tipme_rec_blocked, "blocked"),
	RECTYPE(TIPME_REC_FORK, struct tipme_rec_fork, "fork"),
	RECTYPE(TIPME_REC_EXEC, struct tipme_rec_exec, "exec"),
	RECTYPE(TIPME_REC_EXIT, struct tipme_rec_exit, "exit"),
	RECTYPE(TIPME_REC_COMM, struct tipme_rec_comm, "comm"),
	RECTYPE(TIPME_REC_BLK_ISSUE, struct tipme_rec_blk, "blk_issue"),
	RECTYPE(TIPME_REC_BLK_COMPLETE, struct tipme_rec_blk, "blk_complete"),
	RECTYPE(TIPME_REC_BLK_INSERT, struct tipme_rec_blk, "blk_insert"),
	RECTYPE(TIPME_REC_LOCK_BEGIN, struct tipme_rec_lock_begin, "lock_begin"),
	RECTYPE(TIPME_REC_LOCK_END, struct tipme_rec_lock_end, "lock_end"),
	RECTYPE_VAR(TIPME_REC_RECLAIM_BEGIN, struct tipme_rec_reclaim_begin,
		    "reclaim_begin"),
	RECTYPE(TIPME_REC_RECLAIM_END, struct tipme_rec_reclaim_end, "reclaim_end"),
	RECTYPE(TIPME_REC_KSWAPD, struct tipme_rec_kswapd, "kswapd"),
	RECTYPE(TIPME_REC_THROTTLED, struct tipme_rec_throttled, "throttled"),
	RECTYPE_VAR(TIPME_REC_SAMPLE, struct tipme_rec_sample, "sample"),
	RECTYPE(TIPME_REC_SAMPLE_END, struct tipme_rec_sample_end, "sample_end"),
	RECTYPE_VAR(TIPME_REC_COST, struct tipme_rec_cost, "cost"),
	/* The compact forms of sched_switch, sched_waking and blocked */
	RECTYPE(TIPME_REC_SWITCH_C, struct tipme_rec_switch_c, "sched_switch_c"),
	RECTYPE(TIPME_REC_WAKING_C, struct tipme_rec_waking_c, "sched_waking_c"),
	RECTYPE(TIPME_REC_SITE, struct tipme_rec_site, "site"),
	RECTYPE(TIPME_REC_SWITCH_S, struct tipme_rec_switch_s, "sched_switch_s"),
	RECTYPE(TIPME_REC_SWITCH_SITE_S, struct tipme_rec_switch_site_s,
		"sched_switch_site_s"),
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
