// SPDX-License-Identifier: GPL-2.0
/*
 * The block I/O records: a request queued, issued and completed; a bio of
 * a stacked device queued, split, remapped to the device below and
 * completed; whose pages a read fills (a file, swap, a block device).
 */
#include <inttypes.h>

#include "family.h"

/* TIPME_REC_BIO_QUEUE, _COMPLETE and _SPLIT: struct tipme_rec_bio. */
static int pm_rec_is_bio(unsigned int type)
{
	return type == TIPME_REC_BIO_QUEUE || type == TIPME_REC_BIO_COMPLETE ||
	       type == TIPME_REC_BIO_SPLIT;
}

static const char *blk_op_name(unsigned int op)
{
	static const char *const names[] = {
		"read", "write", "flush", "discard", "secure_erase",
		"write_zeroes", "drv", "other",
	};

	return op < sizeof(names) / sizeof(names[0]) ? names[op] : "?";
}

static void blk_flag_text(unsigned int fl, char *buf, size_t len)
{
	static const char *const names[] = { "sync", "meta", "fua", "preflush", "rahead" };
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (fl & (1U << i))
			o += snprintf(buf + o, o < len ? len - o : 0, "%s%s",
				      o ? "," : "", names[i]);
}

static unsigned int blk_pids(const struct pm_event *ev, uint32_t *pids)
{
	if (ev->type == TIPME_REC_BLK_FILE)	/* the read before it has the thread */
		return 0;
	if (ev->type == TIPME_REC_BIO_REMAP)
		pids[0] = ev->u.rec.BIO_REMAP.pid;
	else if (pm_rec_is_bio(ev->type))
		pids[0] = ev->u.rec.BIO_QUEUE.pid;
	else
		pids[0] = ev->u.bk.pid;
	return 1;
}

static void bio_text(FILE *f, const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_bio *b = &ev->u.rec.BIO_QUEUE;
	char a[48], fl[64];

	blk_flag_text(b->flags, fl, sizeof(fl));
	fprintf(f, " bio=%08" PRIx32 " dev=%u:%u %s%s%s sector=%" PRIu64
		" bytes=%" PRIu32 " pid=%s", b->bio, b->dev >> 20, b->dev & 0xfffff,
		blk_op_name(b->op), fl[0] ? "," : "", fl,
		b->sector_lo | (uint64_t)b->sector_hi << 32, b->bytes,
		pm_fmt_task(pm, b->pid, ev->ts, a, sizeof(a)));
	if (ev->type == TIPME_REC_BIO_COMPLETE)
		fprintf(f, " error=%d", b->error);
	fprintf(f, " in %s\n", pm_ctx_name(b->ctx));
}

static void remap_text(FILE *f, const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_bio_remap *m = &ev->u.rec.BIO_REMAP;
	char a[48], fl[64];

	blk_flag_text(m->flags, fl, sizeof(fl));
	fprintf(f, " bio=%08" PRIx32 " from=%u:%u sector=%" PRIu64 " to=%u:%u sector=%"
		PRIu64 " %s%s%s bytes=%" PRIu32 " pid=%s in %s\n", m->bio,
		m->from_dev >> 20, m->from_dev & 0xfffff,
		m->from_lo | (uint64_t)m->from_hi << 32, m->dev >> 20, m->dev & 0xfffff,
		m->sector_lo | (uint64_t)m->sector_hi << 32, blk_op_name(m->op),
		fl[0] ? "," : "", fl, m->bytes, pm_fmt_task(pm, m->pid, ev->ts, a, sizeof(a)),
		pm_ctx_name(m->ctx));
}

/* TIPME_REC_BLK_FILE.kind by name. */
static const char *blk_file_kind(unsigned int kind)
{
	switch (kind) {
	case TIPME_BLK_FILE_FILE:
		return "file";
	case TIPME_BLK_FILE_SWAP:
		return "swap";
	case TIPME_BLK_FILE_BDEV:
		return "bdev";
	default:
		return "?";
	}
}

static void file_text(FILE *f, const struct pm_event *ev)
{
	const struct tipme_rec_blk_file *x = &ev->u.rec.BLK_FILE;

	fprintf(f, " %s", blk_file_kind(x->kind));
	if (x->kind == TIPME_BLK_FILE_FILE)
		fprintf(f, " ino=%" PRIu64, x->ino_lo | (uint64_t)x->ino_hi << 32);
	if (x->kind != TIPME_BLK_FILE_SWAP)
		fprintf(f, " dev=%u:%u", x->dev >> 20, x->dev & 0xfffff);
	fprintf(f, " in %s\n", pm_ctx_name(x->ctx));
}

static void blk_text(FILE *f, const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_blk *bk = &ev->u.bk;
	char a[48], fl[64];

	if (ev->type == TIPME_REC_BLK_FILE) {
		file_text(f, ev);
		return;
	}
	if (ev->type == TIPME_REC_BIO_REMAP) {
		remap_text(f, pm, ev);
		return;
	}
	if (pm_rec_is_bio(ev->type)) {
		bio_text(f, pm, ev);
		return;
	}

	blk_flag_text(bk->flags, fl, sizeof(fl));
	fprintf(f, " dev=%u:%u %s%s%s sector=%" PRIu64 " bytes=%" PRIu32
		" tag=%u pid=%s", bk->dev >> 20, bk->dev & 0xfffff,
		blk_op_name(bk->op), fl[0] ? "," : "", fl,
		bk->sector_lo | (uint64_t)bk->sector_hi << 32, bk->bytes,
		bk->tag, pm_fmt_task(pm, bk->pid, ev->ts, a, sizeof(a)));
	if (ev->type == TIPME_REC_BLK_COMPLETE)
		fprintf(f, " error=%d in %s", bk->error, pm_ctx_name(bk->ctx));
	fputc('\n', f);
}

static void dev_json(struct tm_jw *w, const char *key, const char *maj,
		     const char *min, uint32_t dev)
{
	tm_jw_ku64(w, key, dev);
	tm_jw_ku64(w, maj, dev >> 20);
	tm_jw_ku64(w, min, dev & 0xfffff);
}

static void bio_json(struct tm_jw *w, const struct pm_dump *pm,
		     const struct pm_event *ev)
{
	const struct tipme_rec_bio *b = &ev->u.rec.BIO_QUEUE;
	char fl[64], id[12];

	blk_flag_text(b->flags, fl, sizeof(fl));
	snprintf(id, sizeof(id), "%08" PRIx32, b->bio);
	tm_jw_kstr(w, "bio", id);
	dev_json(w, "dev", "major", "minor", b->dev);
	tm_jw_ku64(w, "sector", b->sector_lo | (uint64_t)b->sector_hi << 32);
	tm_jw_ku64(w, "bytes", b->bytes);
	tm_jw_kstr(w, "op", blk_op_name(b->op));
	tm_jw_kstr(w, "flags", fl);
	pm_rec_json_task(w, pm, "pid", NULL, b->pid, ev->ts);
	tm_jw_ki64(w, "error", b->error);
	tm_jw_kstr(w, "ctx", pm_ctx_name(b->ctx));
}

static void remap_json(struct tm_jw *w, const struct pm_dump *pm,
		       const struct pm_event *ev)
{
	const struct tipme_rec_bio_remap *m = &ev->u.rec.BIO_REMAP;
	char fl[64], id[12];

	blk_flag_text(m->flags, fl, sizeof(fl));
	snprintf(id, sizeof(id), "%08" PRIx32, m->bio);
	tm_jw_kstr(w, "bio", id);
	dev_json(w, "dev", "major", "minor", m->dev);
	tm_jw_ku64(w, "sector", m->sector_lo | (uint64_t)m->sector_hi << 32);
	dev_json(w, "from_dev", "from_major", "from_minor", m->from_dev);
	tm_jw_ku64(w, "from_sector", m->from_lo | (uint64_t)m->from_hi << 32);
	tm_jw_ku64(w, "bytes", m->bytes);
	tm_jw_kstr(w, "op", blk_op_name(m->op));
	tm_jw_kstr(w, "flags", fl);
	pm_rec_json_task(w, pm, "pid", NULL, m->pid, ev->ts);
	tm_jw_kstr(w, "ctx", pm_ctx_name(m->ctx));
}

static void file_json(struct tm_jw *w, const struct pm_event *ev)
{
	const struct tipme_rec_blk_file *x = &ev->u.rec.BLK_FILE;

	tm_jw_kstr(w, "kind", blk_file_kind(x->kind));
	tm_jw_ku64(w, "ino", x->ino_lo | (uint64_t)x->ino_hi << 32);
	dev_json(w, "dev", "major", "minor", x->dev);
	tm_jw_kstr(w, "ctx", pm_ctx_name(x->ctx));
}

static void blk_json(struct tm_jw *w, const struct pm_dump *pm,
		     const struct pm_event *ev)
{
	const struct tipme_rec_blk *bk = &ev->u.bk;
	char fl[64];

	if (ev->type == TIPME_REC_BLK_FILE) {
		file_json(w, ev);
		return;
	}
	if (ev->type == TIPME_REC_BIO_REMAP) {
		remap_json(w, pm, ev);
		return;
	}
	if (pm_rec_is_bio(ev->type)) {
		bio_json(w, pm, ev);
		return;
	}

	blk_flag_text(bk->flags, fl, sizeof(fl));
	tm_jw_ku64(w, "dev", bk->dev);
	tm_jw_ku64(w, "major", bk->dev >> 20);
	tm_jw_ku64(w, "minor", bk->dev & 0xfffff);
	tm_jw_ku64(w, "sector", bk->sector_lo | (uint64_t)bk->sector_hi << 32);
	tm_jw_ku64(w, "bytes", bk->bytes);
	tm_jw_kstr(w, "op", blk_op_name(bk->op));
	tm_jw_kstr(w, "flags", fl);
	tm_jw_ku64(w, "tag", bk->tag);
	pm_rec_json_task(w, pm, "pid", NULL, bk->pid, ev->ts);
	tm_jw_ki64(w, "error", bk->error);
	tm_jw_kstr(w, "ctx", pm_ctx_name(bk->ctx));
}

const struct pm_recops pm_rec_blk = {
	.pids = blk_pids,
	.text = blk_text,
	.json = blk_json,
};
