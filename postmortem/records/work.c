// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel work records: a work item queued, a worker calling its
 * function and the function's return; and the softirq vector or interrupt
 * that the records of an interrupt context on a CPU ran in.
 */
#include <inttypes.h>

#include "family.h"

static unsigned int work_pids(const struct pm_event *ev, uint32_t *pids)
{
	if (ev->type != TIPME_REC_WORK_QUEUE && ev->type != TIPME_REC_WORK_START)
		return 0;
	pids[0] = ev->u.rec.WORK_QUEUE.who & TIPME_PID_MASK;
	return 1;
}

static void work_text(FILE *f, const struct pm_dump *pm, const struct pm_event *ev)
{
	const struct tipme_rec_work *w = &ev->u.rec.WORK_QUEUE;
	const struct tipme_rec_intr *in = &ev->u.rec.INTR;
	char a[48], fn[96];

	switch (ev->type) {
	case TIPME_REC_WORK_QUEUE:
	case TIPME_REC_WORK_START:
		fprintf(f, " work=%08" PRIx32 " func=%s pid=%s in %s\n", w->work,
			pm_fmt_func(pm, pm_text_addr(pm, w->func), fn, sizeof(fn)),
			pm_fmt_task(pm, w->who & TIPME_PID_MASK, ev->ts, a, sizeof(a)),
			pm_ctx_name(w->who >> 22));
		break;
	case TIPME_REC_WORK_END:
		fprintf(f, " work=%08" PRIx32 "\n", ev->u.rec.WORK_END.work);
		break;
	case TIPME_REC_INTR:
		if (in->ctx == TIPME_CTX_SOFTIRQ)
			fprintf(f, " softirq %s (%u)\n", pm_softirq_name(in->vec), in->vec);
		else if (in->irq == TIPME_INTR_NO_IRQ)
			fprintf(f, " %s outside the device handlers\n", pm_ctx_name(in->ctx));
		else
			fprintf(f, " %s irq %u\n", pm_ctx_name(in->ctx), in->irq);
		break;
	}
}

static void work_json(struct tm_jw *w, const struct pm_dump *pm,
		      const struct pm_event *ev)
{
	const struct tipme_rec_work *x = &ev->u.rec.WORK_QUEUE;
	const struct tipme_rec_intr *in = &ev->u.rec.INTR;
	char id[12], fn[96];

	switch (ev->type) {
	case TIPME_REC_WORK_QUEUE:
	case TIPME_REC_WORK_START:
		snprintf(id, sizeof(id), "%08" PRIx32, x->work);
		tm_jw_kstr(w, "work", id);
		tm_jw_kstr(w, "func", pm_fmt_func(pm, pm_text_addr(pm, x->func), fn, sizeof(fn)));
		pm_rec_json_task(w, pm, "pid", NULL, x->who & TIPME_PID_MASK, ev->ts);
		tm_jw_kstr(w, "ctx", pm_ctx_name(x->who >> 22));
		break;
	case TIPME_REC_WORK_END:
		snprintf(id, sizeof(id), "%08" PRIx32, ev->u.rec.WORK_END.work);
		tm_jw_kstr(w, "work", id);
		break;
	case TIPME_REC_INTR:
		tm_jw_kstr(w, "ctx", pm_ctx_name(in->ctx));
		tm_jw_key(w, "softirq");
		if (in->ctx == TIPME_CTX_SOFTIRQ)
			tm_jw_str(w, pm_softirq_name(in->vec));
		else
			tm_jw_null(w);
		tm_jw_key(w, "irq");
		if (in->ctx == TIPME_CTX_HARDIRQ && in->irq != TIPME_INTR_NO_IRQ)
			tm_jw_u64(w, in->irq);
		else
			tm_jw_null(w);
		break;
	}
}

const struct pm_recops pm_rec_work = {
	.pids = work_pids,
	.text = work_text,
	.json = work_json,
};
