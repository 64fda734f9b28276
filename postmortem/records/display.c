// SPDX-License-Identifier: GPL-2.0
/*
 * The display and GPU records: DRM's vblanks and the vblank and page flip
 * events it queued for and delivered to an open DRM file; dma_fence
 * emits, signals and waits, and the names of a fence context.
 */
#include <inttypes.h>
#include <string.h>

#include "family.h"

static uint64_t u64_of(uint32_t lo, uint32_t hi)
{
	return (uint64_t)hi << 32 | lo;
}

static const char *const fence_ops[TIPME_FENCE_OP_MAX + 1] = {
	[TIPME_FENCE_EMIT] = "emit",
	[TIPME_FENCE_SIGNALED] = "signaled",
	[TIPME_FENCE_WAIT_START] = "wait_start",
	[TIPME_FENCE_WAIT_END] = "wait_end",
};

static const char *fence_op_name(unsigned int op)
{
	return op <= TIPME_FENCE_OP_MAX && fence_ops[op] ? fence_ops[op] : "unknown";
}

/* A name field of a TIPME_REC_FENCE_NAME as a C string (cut at its size). */
static const char *name_of(char *buf, size_t size, const uint8_t *field, size_t len)
{
	size_t n = strnlen((const char *)field, len);

	if (n >= size)
		n = size - 1;
	memcpy(buf, field, n);
	buf[n] = '\0';
	return buf;
}

static unsigned int display_pids(const struct pm_event *ev, uint32_t *pids)
{
	const struct tipme_rec_vblank_ev *v = &ev->u.rec.VBLANK_QUEUED;
	unsigned int n = 0;

	switch (ev->type) {
	case TIPME_REC_VBLANK_QUEUED:
	case TIPME_REC_VBLANK_DELIVERED:
		pids[n++] = v->who & TIPME_PID_MASK;
		if (v->owner && (v->owner & TIPME_PID_MASK) != pids[0])
			pids[n++] = v->owner & TIPME_PID_MASK;
		break;
	case TIPME_REC_FENCE:
		pids[n++] = ev->u.rec.FENCE.who & TIPME_PID_MASK;
		break;
	}
	return n;
}

static void display_text(FILE *f, const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_vblank *vb = &ev->u.rec.VBLANK;
	const struct tipme_rec_vblank_ev *v = &ev->u.rec.VBLANK_QUEUED;
	const struct tipme_rec_fence *fe = &ev->u.rec.FENCE;
	const struct tipme_rec_fence_name *fn = &ev->u.rec.FENCE_NAME;
	char a[48], b[48], t[32], d[TIPME_FENCE_DRIVER_LEN + 1],
	     l[TIPME_FENCE_TIMELINE_LEN + 1];

	switch (ev->type) {
	case TIPME_REC_VBLANK:
		fprintf(f, " crtc=%u seq=%" PRIu32 " time=%s%s\n", vb->crtc, vb->seq,
			pm_fmt_ns((int64_t)u64_of(vb->time_lo, vb->time_hi), t, sizeof(t)),
			vb->flags & TIPME_VBLANK_HIGH_PREC ? " high_prec" : "");
		break;
	case TIPME_REC_VBLANK_QUEUED:
	case TIPME_REC_VBLANK_DELIVERED:
		fprintf(f, " crtc=%u seq=%" PRIu32 " file=%08" PRIx32 " owner=%s by %s in %s\n",
			v->crtc, v->seq, v->file,
			v->owner ? pm_fmt_task(pm, v->owner & TIPME_PID_MASK, ev->ts,
					       a, sizeof(a)) : "unknown",
			pm_fmt_task(pm, v->who & TIPME_PID_MASK, ev->ts, b, sizeof(b)),
			pm_ctx_name(v->who >> 22));
		break;
	case TIPME_REC_FENCE:
		fprintf(f, " %s ctx=%" PRIu64 " seqno=%" PRIu64 " pid=%s in %s\n",
			fence_op_name(fe->op), u64_of(fe->ctx_lo, fe->ctx_hi),
			u64_of(fe->seqno_lo, fe->seqno_hi),
			pm_fmt_task(pm, fe->who & TIPME_PID_MASK, ev->ts, a, sizeof(a)),
			pm_ctx_name(fe->who >> 22));
		break;
	case TIPME_REC_FENCE_NAME:
		name_of(d, sizeof(d), fn->driver, sizeof(fn->driver));
		name_of(l, sizeof(l), fn->timeline, sizeof(fn->timeline));
		fprintf(f, " ctx=%" PRIu64 " driver=", u64_of(fn->ctx_lo, fn->ctx_hi));
		pm_print_text(f, d, strlen(d));
		fputs(" timeline=", f);
		pm_print_text(f, l, strlen(l));
		fputc('\n', f);
		break;
	}
}

static void display_json(struct tm_jw *w, const struct pm_dump *pm,
			 const struct pm_event *ev)
{
	const struct tipme_rec_vblank *vb = &ev->u.rec.VBLANK;
	const struct tipme_rec_vblank_ev *v = &ev->u.rec.VBLANK_QUEUED;
	const struct tipme_rec_fence *fe = &ev->u.rec.FENCE;
	const struct tipme_rec_fence_name *fn = &ev->u.rec.FENCE_NAME;
	char id[12], d[TIPME_FENCE_DRIVER_LEN + 1], l[TIPME_FENCE_TIMELINE_LEN + 1];

	switch (ev->type) {
	case TIPME_REC_VBLANK:
		tm_jw_ku64(w, "crtc", vb->crtc);
		tm_jw_ku64(w, "seq", vb->seq);
		tm_jw_ku64(w, "vblank_mono_ns", u64_of(vb->time_lo, vb->time_hi));
		tm_jw_kbool(w, "high_prec", (vb->flags & TIPME_VBLANK_HIGH_PREC) != 0);
		break;
	case TIPME_REC_VBLANK_QUEUED:
	case TIPME_REC_VBLANK_DELIVERED:
		tm_jw_ku64(w, "crtc", v->crtc);
		tm_jw_ku64(w, "seq", v->seq);
		snprintf(id, sizeof(id), "%08" PRIx32, v->file);
		tm_jw_kstr(w, "file", id);
		if (v->owner) {
			pm_rec_json_task(w, pm, "owner", NULL, v->owner & TIPME_PID_MASK, ev->ts);
		} else {
			tm_jw_key(w, "owner");
			tm_jw_null(w);
		}
		pm_rec_json_task(w, pm, "pid", NULL, v->who & TIPME_PID_MASK, ev->ts);
		tm_jw_kstr(w, "ctx", pm_ctx_name(v->who >> 22));
		break;
	case TIPME_REC_FENCE:
		tm_jw_kstr(w, "op", fence_op_name(fe->op));
		tm_jw_ku64(w, "fence_ctx", u64_of(fe->ctx_lo, fe->ctx_hi));
		tm_jw_ku64(w, "seqno", u64_of(fe->seqno_lo, fe->seqno_hi));
		pm_rec_json_task(w, pm, "pid", NULL, fe->who & TIPME_PID_MASK, ev->ts);
		tm_jw_kstr(w, "ctx", pm_ctx_name(fe->who >> 22));
		break;
	case TIPME_REC_FENCE_NAME:
		tm_jw_ku64(w, "fence_ctx", u64_of(fn->ctx_lo, fn->ctx_hi));
		tm_jw_kstr(w, "driver", name_of(d, sizeof(d), fn->driver, sizeof(fn->driver)));
		tm_jw_kstr(w, "timeline",
			   name_of(l, sizeof(l), fn->timeline, sizeof(fn->timeline)));
		break;
	}
}

const struct pm_recops pm_rec_display = {
	.pids = display_pids,
	.text = display_text,
	.json = display_json,
};
