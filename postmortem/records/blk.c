// SPDX-License-Identifier: GPL-2.0
/* The block I/O records: a request issued, and completed. */
#include <inttypes.h>

#include "family.h"

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
	pids[0] = ev->u.bk.pid;
	return 1;
}

static void blk_text(FILE *f, const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_blk *bk = &ev->u.bk;
	char a[48], fl[64];

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

static void blk_json(struct tm_jw *w, const struct pm_dump *pm,
		     const struct pm_event *ev)
{
	const struct tipme_rec_blk *bk = &ev->u.bk;
	char fl[64];

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
