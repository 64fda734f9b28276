// SPDX-License-Identifier: GPL-2.0
/*
 * Block I/O probes: a request queued in the block layer (block_rq_insert:
 * into the scheduler's or a software queue; a request issued directly has
 * none), handed to the driver (block_rq_issue) and its completion
 * (block_rq_complete).  With the device and sector a reader pairs them:
 * insert to issue is queue time, issue to completion the device's; and a
 * task's wakeup with the completion that caused it: the completion runs on
 * the CPU that then wakes the waiter, without a context switch in between.
 *
 * A stacked device (device-mapper, md: bio-based, without requests of its
 * own) is seen through its bios: queued to it (block_bio_queue), split
 * (block_split), sent on to the device below (block_bio_remap: often a
 * clone, often from a worker, after a target's delay or encryption) and
 * completed at the top (block_bio_complete, in whatever context ended the
 * last piece below), whose end_io wakes the waiter.  Bios of request-based
 * devices are left to the request records, and remaps inside one disk (a
 * partition) are not written: nothing is added to a plain disk's I/O.
 *
 * A read's record (a request issued, a stacked device's bio queued) is
 * followed by whose pages it fills, when its first page says so: a file's
 * page cache (its inode and file system), swap, or a block device's own
 * page cache.  A read keeps its pages locked until it completes, so a
 * page cache page cannot leave its file meanwhile, nor the file be freed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <trace/events/block.h>
#include "compat.h"
#include "recorder.h"
#include "instr/cost.h"
#include "probes/tracepoints.h"
#include "probes/ctx.h"

static u8 blk_op_of(enum req_op op)
{
	switch (op) {
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

static u8 blk_op(const struct request *rq)
{
	return blk_op_of(req_op(rq));
}

static u8 blk_opf_flags(blk_opf_t f)
{
	return (f & REQ_SYNC ? TIPME_BLK_SYNC : 0) |
	       (f & REQ_META ? TIPME_BLK_META : 0) |
	       (f & REQ_FUA ? TIPME_BLK_FUA : 0) |
	       (f & REQ_PREFLUSH ? TIPME_BLK_PREFLUSH : 0) |
	       (f & REQ_RAHEAD ? TIPME_BLK_RAHEAD : 0);
}

static u8 blk_flags(const struct request *rq)
{
	return blk_opf_flags(rq->cmd_flags);
}

/*
 * Whose pages the read @bio fills, from its first page: 0 if nobody's (not
 * a read, a kernel buffer, anonymous memory read into directly).
 */
static u8 blk_file_of(struct bio *bio, struct tipme_rec_blk_file *f)
{
	struct address_space *mapping;
	struct folio *folio;
	struct inode *inode;

	if (!bio || bio_op(bio) != REQ_OP_READ || !bio_has_data(bio))
		return 0;
	folio = page_folio(bio_page(bio));
	/* a slab page's mapping field is its cache; unlocked: no read of ours */
	if (folio_test_slab(folio) || !folio_test_locked(folio))
		return 0;
	if (folio_test_swapcache(folio))
		return TIPME_BLK_FILE_SWAP;
	mapping = READ_ONCE(folio->mapping);
	/* a swap-in that skips the swap cache (zram: SWP_SYNCHRONOUS_IO) */
	if (!mapping && folio_test_swapbacked(folio))
		return TIPME_BLK_FILE_SWAP;
	if (!mapping || ((unsigned long)mapping & TIPME_MAPPING_FLAGS))
		return 0;
	inode = READ_ONCE(mapping->host);
	if (!inode)
		return 0;
	if (S_ISBLK(inode->i_mode)) {
		f->dev = inode->i_rdev;
		return TIPME_BLK_FILE_BDEV;
	}
	f->ino_lo = (u32)inode->i_ino;
	f->ino_hi = (u32)((u64)inode->i_ino >> 32);
	f->dev = inode->i_sb->s_dev;
	return TIPME_BLK_FILE_FILE;
}

/*
 * After the record of the read @bio, on the same CPU in the same context
 * (preemption is off in a probe): whose pages it fills.
 */
static void blk_file_record(struct bio *bio, u32 ctx)
{
	struct tipme_rec_blk_file f = { 0 }, *r;
	u64 t0 = tipme_cost_now();
	struct tipme_wslot ws;

	f.kind = blk_file_of(bio, &f);
	if (!f.kind)
		return;
	r = tipme_reserve(TIPME_REC_BLK_FILE, sizeof(*r), &ws);
	if (!r)
		return;
	f.ctx = ctx;
	*r = f;
	tipme_commit(&ws, TIPME_REC_BLK_FILE);
	tipme_cost_add(TIPME_REC_BLK_FILE, t0);
}

/* Return: whether the record was written (a full ring drops it). */
static bool blk_record(u32 type, struct request *rq, u32 bytes, int error)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_blk *r;
	struct tipme_wslot ws;
	sector_t sector;

	r = tipme_reserve(type, sizeof(*r), &ws);
	if (!r)
		return false;
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
	return true;
}

static void probe_block_rq_insert(void *data, struct request *rq)
{
	blk_record(TIPME_REC_BLK_INSERT, rq, blk_rq_bytes(rq), 0);
}

static void probe_block_rq_issue(void *data, struct request *rq)
{
	/* a read's pages, after its record (a reader pairs the two) */
	if (blk_record(TIPME_REC_BLK_ISSUE, rq, blk_rq_bytes(rq), 0) &&
	    req_op(rq) == REQ_OP_READ)
		blk_file_record(rq->bio, tipme_ctx_now());
}

static void probe_block_rq_complete(void *data, struct request *rq,
				    blk_status_t error, unsigned int nr_bytes)
{
	blk_record(TIPME_REC_BLK_COMPLETE, rq, nr_bytes,
		   blk_status_to_errno(error));
}

/* A bio's identity in the records: a hash of its address. */
static u32 bio_id(const struct bio *bio)
{
	return hash_ptr(bio, 32);
}

/* A device that turns bios into requests: its bios are not recorded. */
static bool bio_on_mq(const struct bio *bio)
{
	return bio->bi_bdev && queue_is_mq(bdev_get_queue(bio->bi_bdev));
}

/* Return: whether the record was written (a full ring drops it). */
static bool bio_record(u32 type, struct bio *bio, sector_t sector, u32 bytes,
		       int error)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_bio *r;
	struct tipme_wslot ws;

	r = tipme_reserve(type, sizeof(*r), &ws);
	if (!r)
		return false;
	r->bio = bio_id(bio);
	r->dev = bio->bi_bdev ? bio_dev(bio) : 0;
	r->sector_lo = (u32)sector;
	r->sector_hi = (u32)((u64)sector >> 32);
	r->bytes = bytes;
	r->pid = current->pid;
	r->op = blk_op_of(bio_op(bio));
	r->flags = blk_opf_flags(bio->bi_opf);
	r->ctx = tipme_ctx_now();
	r->error = error < -128 ? -128 : error;
	tipme_commit(&ws, type);
	tipme_cost_add(type, t0);
	return true;
}

static void probe_block_bio_queue(void *data, struct bio *bio)
{
	if (bio_on_mq(bio))
		return;
	if (bio_record(TIPME_REC_BIO_QUEUE, bio, bio->bi_iter.bi_sector,
		       bio->bi_iter.bi_size, 0) && bio_op(bio) == REQ_OP_READ)
		blk_file_record(bio, tipme_ctx_now());
}

static void probe_block_bio_complete(void *data, struct request_queue *q,
				     struct bio *bio)
{
	bio_record(TIPME_REC_BIO_COMPLETE, bio, bio->bi_iter.bi_sector,
		   bio->bi_iter.bi_size, blk_status_to_errno(bio->bi_status));
}

/*
 * @bio is the part split off (it starts where the original did); the
 * original goes on from @new_sector, under its own identity.
 */
static void probe_block_split(void *data, struct bio *bio,
			      unsigned int new_sector)
{
	if (bio_on_mq(bio))
		return;
	bio_record(TIPME_REC_BIO_SPLIT, bio, bio->bi_iter.bi_sector,
		   bio->bi_iter.bi_size, 0);
}

static void probe_block_bio_remap(void *data, struct bio *bio, dev_t dev,
				  sector_t from)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_bio_remap *r;
	struct tipme_wslot ws;
	sector_t sector = bio->bi_iter.bi_sector;
	u32 to = bio->bi_bdev ? bio_dev(bio) : 0;

	if (to == dev)		/* a partition to its disk */
		return;
	r = tipme_reserve(TIPME_REC_BIO_REMAP, sizeof(*r), &ws);
	if (!r)
		return;
	r->bio = bio_id(bio);
	r->dev = to;
	r->sector_lo = (u32)sector;
	r->sector_hi = (u32)((u64)sector >> 32);
	r->bytes = bio->bi_iter.bi_size;
	r->from_dev = dev;
	r->from_lo = (u32)from;
	r->from_hi = (u32)((u64)from >> 32);
	r->pid = current->pid;
	r->op = blk_op_of(bio_op(bio));
	r->flags = blk_opf_flags(bio->bi_opf);
	r->ctx = tipme_ctx_now();
	r->reserved = 0;
	tipme_commit(&ws, TIPME_REC_BIO_REMAP);
	tipme_cost_add(TIPME_REC_BIO_REMAP, t0);
}

struct tipme_probe tipme_block_probes[] = {
	TIPME_PROBE(block_rq_insert, probe_block_rq_insert),
	TIPME_PROBE(block_rq_issue, probe_block_rq_issue),
	TIPME_PROBE(block_rq_complete, probe_block_rq_complete),
	TIPME_PROBE(block_bio_queue, probe_block_bio_queue),
	TIPME_PROBE(block_bio_complete, probe_block_bio_complete),
	TIPME_PROBE(block_split, probe_block_split),
	TIPME_PROBE(block_bio_remap, probe_block_bio_remap),
};

const size_t tipme_block_probes_count = ARRAY_SIZE(tipme_block_probes);
