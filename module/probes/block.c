// SPDX-License-Identifier: GPL-2.0
/*
 * Block I/O probes: a request queued in the block layer (block_rq_insert:
 * into the scheduler's or a software queue; a request issued directly has
 * none), handed to the driver (block_rq_issue) and its completion
 * (block_rq_complete).  With the device and sector a reader pairs them:
 * insert to issue is queue time, issue to completion the device's; and a
 * task's wakeup with the completion that caused it: the completion runs on
 * the CPU that then wakes the waiter, without a context switch in between.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/sched.h>
#include <trace/events/block.h>
#include "recorder.h"
#include "instr/cost.h"
#include "probes/tracepoints.h"
#include "probes/ctx.h"

static u8 blk_op(const struct request *rq)
{
	switch (req_op(rq)) {
	case REQ_OP_READ:		return TIPME_BLK_READ;
	case REQ_OP_WRITE:		return TIPME_BLK_WRITE;
	case REQ_OP_FLUSH:		return TIPME_BLK_FLUSH;
	case REQ_OP_DISCARD:		return TIPME_BLK_DISCARD;
	case REQ_OP_SECURE_ERASE:	return TIPME_BLK_SECURE_ERASE;
	case REQ_OP_WRITE_ZEROES:	return TIPME_BLK_WRITE_ZEROES;
	case REQ_OP_DRV_IN:
	case REQ_OP_DRV_OUT:		return TIPME_BLK_DRV;
	default:			return TIPME_BLK_OTHER;
	}
}

static u8 blk_flags(const struct request *rq)
{
	blk_opf_t f = rq->cmd_flags;

	return (f & REQ_SYNC ? TIPME_BLK_SYNC : 0) |
	       (f & REQ_META ? TIPME_BLK_META : 0) |
	       (f & REQ_FUA ? TIPME_BLK_FUA : 0) |
	       (f & REQ_PREFLUSH ? TIPME_BLK_PREFLUSH : 0) |
	       (f & REQ_RAHEAD ? TIPME_BLK_RAHEAD : 0);
}

static void blk_record(u32 type, struct request *rq, u32 bytes, int error)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_blk *r;
	struct tipme_wslot ws;
	sector_t sector;

	r = tipme_reserve(type, sizeof(*r), &ws);
	if (!r)
		return;
	sector = blk_rq_is_passthrough(rq) ? 0 : blk_rq_pos(rq);
	r->dev = rq->q->disk ? disk_devt(rq->q->disk) : 0;
	r->sector_lo = (u32)sector;
	r->sector_hi = (u32)((u64)sector >> 32);
	r->bytes = bytes;
	r->pid = current->pid;
	r->tag = (u16)rq->tag;
	r->op = blk_op(rq);
	r->flags = blk_flags(rq);
	r->error = error;
	r->ctx = tipme_ctx_now();
	r->reserved = 0;
	tipme_commit(&ws, type);
	tipme_cost_add(type, t0);
}

static void probe_block_rq_insert(void *data, struct request *rq)
{
	blk_record(TIPME_REC_BLK_INSERT, rq, blk_rq_bytes(rq), 0);
}

static void probe_block_rq_issue(void *data, struct request *rq)
{
	blk_record(TIPME_REC_BLK_ISSUE, rq, blk_rq_bytes(rq), 0);
}

static void probe_block_rq_complete(void *data, struct request *rq,
				    blk_status_t error, unsigned int nr_bytes)
{
	blk_record(TIPME_REC_BLK_COMPLETE, rq, nr_bytes,
		   blk_status_to_errno(error));
}

struct tipme_probe tipme_block_probes[] = {
	TIPME_PROBE(block_rq_insert, probe_block_rq_insert),
	TIPME_PROBE(block_rq_issue, probe_block_rq_issue),
	TIPME_PROBE(block_rq_complete, probe_block_rq_complete),
};

const size_t tipme_block_probes_count = ARRAY_SIZE(tipme_block_probes);
