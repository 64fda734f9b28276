// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a TIPME_SEC_CKPT payload (the checkpoints the
 * postmortem keeps beside a dump, DUMP.ckpt), through its one reader,
 * pm_ckpts_parse().  What it accepts must hold what the restore reads:
 * checkpoints in time order, each thread's stretches at most
 * TIPME_CKPT_SEGS with their final forms, every site pointing into the
 * table read, the events tipme legs reads (pm_ckpts_evs()) in range, the
 * presses in time order;
 * what it refuses must say why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state/state.h"
#include "state/ckpt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_seg(const struct pm_ckpts *ck, const struct pm_seg *s, uint32_t nsites)
{
	const uint64_t *sites = ck->whole.nsite_chunks ? ck->whole.site_chunks[0] : NULL;
	volatile uint64_t sink = 0;
	uint32_t i;

	if (!s->nsite) {
		if (s->site)
			abort();
		return;
	}
	if (!s->site || s->site < sites || s->nsite > PM_SITE_FRAMES ||
	    (size_t)(s->site - sites) >= (size_t)nsites * PM_SITE_FRAMES ||
	    (s->site - sites) % PM_SITE_FRAMES)
		abort();
	for (i = 0; i < PM_SITE_FRAMES; i++)
		sink ^= s->site[i];
	(void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tm_err e = { "" };
	struct tipme_ckpt_hdr h;
	struct pm_ckpts *ck;
	volatile uint64_t sink = 0;
	size_t i, j, k;

	if (pm_ckpts_parse(&ck, data, size, &e)) {
		if (!e.msg[0] || ck)
			abort();
		return 0;
	}
	memcpy(&h, data, sizeof(h));
	if (ck->n != h.nckpts || ck->whole.nlosses != h.nlosses || ck->npresses != h.npresses)
		abort();
	for (i = 1; i < ck->npresses; i++)
		if (ck->presses[i] < ck->presses[i - 1])
			abort();
	for (i = 0; i < ck->n; i++) {
		const struct pm_ckpt *c = &ck->c[i];
		size_t at = 0;

		if ((i && (c->ns <= c[-1].ns || c->at <= c[-1].at)) || c->at > c->ns ||
		    c->nlosses > ck->whole.nlosses || c->nfin != c->nsegs)
			abort();
		for (j = 0; j < ck->ncs; j++)	/* each CPU's, inside what was read */
			sink ^= (uint64_t)c->first[j] ^ (uint64_t)c->last[j];
		for (j = 0; j < c->nthreads; j++) {
			const struct pm_thread *t = &c->threads[j];

			if (t->nsegs > TIPME_CKPT_SEGS || (j && t->pid <= c->threads[j - 1].pid))
				abort();
			for (k = 0; k < TIPME_CKPT_THREAD_EVS; k++)
				if (t->ev_last[k] < 0 || t->ev_last[k] > TIPME_CKPT_THREAD_EVS ||
				    t->ev_next[k] < 0)
					abort();
			for (k = 0; k < t->nsegs; k++) {
				check_seg(ck, &t->segs[k], h.nsites);
				check_seg(ck, &c->fin[at + k], h.nsites);
			}
			at += t->nsegs;
		}
		if (at != c->nsegs)
			abort();
		for (k = 0; k < TIPME_CKPT_EVS; k++)
			if (c->ev_last[k] < 0 || c->ev_next[k] < 0)
				abort();
	}
	/* what tipme legs reads around a range: the checkpoints' own */
	for (i = 0; i < ck->n; i++) {
		struct pm_ckpt_evs b, a;

		pm_ckpts_evs(ck, ck->c[i].at, ck->c[i].ns, &b, &a);
		if (b.ns != ck->c[i].ns || (a.ns != INT64_MAX && a.ns <= ck->c[i].ns) ||
		    b.nthreads != ck->c[i].nthreads || (a.ns != INT64_MAX && !a.next))
			abort();
		for (j = 0; j < a.nthreads; j++)
			sink ^= (uint64_t)a.threads[j].ev_next[0] ^ (uint64_t)a.last[0];
	}
	(void)sink;
	pm_ckpts_free(ck);
	return 0;
}
