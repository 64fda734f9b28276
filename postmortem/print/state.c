// SPDX-License-Identifier: GPL-2.0
/*
 * The state and the resource waits as text, field by field (print/state.h).
 */
#include <inttypes.h>
#include <string.h>

#include "../records/records.h"
#include "site.h"
#include "state.h"

static const char *const tstate_name[] = {
	[PM_T_UNKNOWN] = "unknown",
	[PM_T_RUNNING] = "running",
	[PM_T_RUNNABLE] = "runnable",
	[PM_T_BLOCKED] = "blocked",
};

static void print_seg(FILE *f, const struct pm_dump *pm,
		      const struct pm_seg *s)
{
	fprintf(f, "  %-8s %" PRId64 "..%" PRId64,
		tstate_name[s->state],	/* 2 bits: PM_T_BLOCKED is the last */
		s->start_ns, s->end_ns);
	fprintf(f, " cpu=%" PRIu32 " prio=%u", s->cpu, s->prio);
	if (s->state == PM_T_RUNNABLE)
		fprintf(f, " woken=%u", s->woken);
	if (s->state == PM_T_BLOCKED)
		fprintf(f, " block_state=%u", s->block_state);
	if (s->waker != -1 || s->waker_ctx)
		fprintf(f, " waker=%" PRId32 " waker_ctx=%u", s->waker,
			(unsigned int)s->waker_ctx);
	if (s->nsite) {
		fprintf(f, " nsite=%" PRIu32, (uint32_t)s->nsite);
		pm_print_seg_site(f, pm, s);
	} else if (s->ustack) {
		pm_print_seg_site(f, pm, s);
	}
	fputc('\n', f);
}

void pm_state_print(FILE *f, const struct pm_dump *pm,
		    const struct pm_state *st)
{
	size_t i, k;

	fprintf(f, "state first=%" PRId64 " last=%" PRId64 " trigger=%" PRId64
		" lost=%d threads=%zu losses=%zu\n", st->first_ns, st->last_ns,
		st->trigger_ns, st->lost, st->nthreads, st->nlosses);
	for (i = 0; i < st->nlosses; i++) {
		const struct pm_loss *l = &st->losses[i];

		fprintf(f, "loss cpu=%" PRIu32 " %" PRId64 "..%" PRId64
			" seq=%" PRIu64 " subbufs=%" PRIu64 "\n", l->cpu,
			l->since_ns, l->until_ns, l->first_seq, l->subbufs);
	}
	for (i = 0; i < st->nthreads; i++) {
		const struct pm_thread *t = &st->threads[i];

		fprintf(f, "thread %" PRIu32 " stretches=%zu\n", t->pid,
			t->nsegs);
		for (k = 0; k < t->nsegs; k++)
			print_seg(f, pm, &t->segs[k]);
	}
}

/* A read's pages, when a blk_file record said whose; and the line's end. */
static void file_print(FILE *f, uint8_t kind, uint32_t dev, uint64_t ino)
{
	if (kind)
		fprintf(f, " file=%u dev=%" PRIu32 ":%" PRIu32 " ino=%" PRIu64, kind,
			dev >> 20, dev & 0xfffff, ino);
	fputc('\n', f);
}

/* Network receives or sends, one a line (@what: "recv", "send"), numbered. */
static void net_print(FILE *f, const char *what, const struct pm_net *n, size_t count)
{
	char l[64], r[64];
	size_t i;

	for (i = 0; i < count; i++)
		fprintf(f, "%s %zu %" PRId64 " cpu=%" PRIu32 " pid=%" PRIu32 " ctx=%" PRIu32
			" %s %s -> %s len=%" PRIu32 "\n", what, i, n[i].ns, n[i].cpu, n[i].pid,
			n[i].ctx, pm_net_proto(n[i].proto),
			pm_net_addr(n[i].family, n[i].laddr, n[i].lport, l, sizeof(l)),
			pm_net_addr(n[i].family, n[i].raddr, n[i].rport, r, sizeof(r)), n[i].len);
}

/* The display and GPU resources (none in a dump without their records). */
static void display_print(FILE *f, const struct pm_res *r)
{
	size_t i;

	for (i = 0; i < r->nvblanks; i++)
		fprintf(f, "vblank crtc=%u seq=%" PRIu32 " time=%" PRIu64 "\n", r->vblanks[i].crtc,
			r->vblanks[i].seq,
			(uint64_t)r->vblanks[i].time_hi << 32 | r->vblanks[i].time_lo);
	for (i = 0; i < r->nqueued; i++)
		fprintf(f, "queued %" PRId64 " crtc=%" PRIu32 " seq=%" PRIu32 " file=%08" PRIx32
			" who=%" PRIu32 "\n", r->queued[i].ns, r->queued[i].crtc, r->queued[i].seq,
			r->queued[i].file, r->queued[i].who);
	for (i = 0; i < r->nflips; i++) {
		const struct pm_flip *fl = &r->flips[i];

		fprintf(f, "flip %zu %" PRId64 " cpu=%" PRIu32 " crtc=%" PRIu32 " seq=%" PRIu32
			" file=%08" PRIx32 " owner=%" PRIu32 " who=%" PRIu32 " ctx=%" PRIu32
			" vblank=%" PRId64 " queued=%" PRId64 " queuer=%" PRIu32 "\n", i, fl->ns,
			fl->cpu, fl->crtc, fl->seq, fl->file, fl->owner, fl->who, fl->ctx,
			fl->vblank_ns, fl->queued_ns, fl->queuer);
	}
	for (i = 0; i < r->nfences; i++) {
		const struct pm_fence *fe = &r->fences[i];

		fprintf(f, "fence %zu %" PRId64 " cpu=%" PRIu32 " ctx=%" PRIu64 " seqno=%" PRIu64
			" signaler=%" PRIu32 " sig_ctx=%" PRIu32 " emitter=%" PRIu32
			" emit=%" PRId64 " driver=", i, fe->ns, fe->cpu, fe->ctx, fe->seqno,
			fe->signaler, fe->sig_ctx, fe->emitter, fe->emit_ns);
		pm_print_text(f, fe->driver, strlen(fe->driver));
		fputs(" timeline=", f);
		pm_print_text(f, fe->timeline, strlen(fe->timeline));
		fputc('\n', f);
	}
	for (i = 0; i < r->nfwaits; i++)
		fprintf(f, "fence_wait pid=%" PRIu32 " ctx=%" PRIu64 " seqno=%" PRIu64
			" %" PRId64 "..%" PRId64 "\n", r->fwaits[i].pid, r->fwaits[i].ctx,
			r->fwaits[i].seqno, r->fwaits[i].start_ns, r->fwaits[i].end_ns);
}

void pm_res_print(FILE *f, const struct pm_res *r)
{
	size_t i;

	fprintf(f, "resources locks=%zu reclaims=%zu blk=%zu wakes=%zu"
		" inputs=%zu policies=%zu\n", r->nlocks, r->nreclaims, r->nblk,
		r->nwakes, r->ninputs, r->npolicies);
	for (i = 0; i < r->nlocks; i++) {
		const struct pm_lockwait *l = &r->locks[i];

		fprintf(f, "lock %#" PRIx64 " pid=%" PRIu32 " owner=%" PRIu32
			" flags=%#" PRIx32 " ret=%" PRId32 " %" PRId64 "..%"
			PRId64 "\n", l->lock, l->pid, l->owner, l->flags,
			l->ret, l->start_ns, l->end_ns);
	}
	for (i = 0; i < r->nreclaims; i++) {
		const struct pm_reclaim *m = &r->reclaims[i];

		fprintf(f, "reclaim pid=%" PRIu32 " kind=%" PRIu32
			" reclaimed=%" PRIu32 " %" PRId64 "..%" PRId64,
			m->pid, m->kind, m->nr_reclaimed, m->start_ns,
			m->end_ns);
		if (m->high_cgroup)
			fprintf(f, " over_high=%" PRIu64 " high_kib=%" PRIu32,
				m->high_cgroup, m->high_kib);
		fputc('\n', f);
	}
	for (i = 0; i < r->nblk; i++) {
		const struct pm_blkreq *b = &r->blk[i];

		fprintf(f, "blk dev=%" PRIu32 ":%" PRIu32 " sector=%" PRIu64
			" bytes=%" PRIu32 " op=%" PRIu32 " issuer=%" PRIu32
			" insert=%" PRId64 " issue=%" PRId64 " complete=%" PRId64
			" on cpu=%" PRIu32 " pid=%" PRIu32 " ctx=%" PRIu32,
			b->dev >> 20, b->dev & 0xfffff, b->sector, b->bytes,
			b->op, b->issuer, b->insert_ns, b->issue_ns,
			b->complete_ns, b->complete_cpu, b->complete_pid,
			b->complete_ctx);
		file_print(f, b->file_kind, b->file_dev, b->file_ino);
	}
	for (i = 0; i < r->nbios; i++) {
		const struct pm_bio *b = &r->bios[i];

		fprintf(f, "bio %08" PRIx32 " dev=%" PRIu32 ":%" PRIu32 " sector=%" PRIu64
			" bytes=%" PRIu32 " op=%" PRIu32 " submitter=%" PRIu32
			" queue=%" PRId64 " sent=%" PRId64 " below=%" PRIu32 ":%" PRIu32
			" sector=%" PRIu64 " bytes=%" PRIu32 " parts=%" PRIu32
			" complete=%" PRId64 " on cpu=%" PRIu32 " pid=%" PRIu32 " ctx=%" PRIu32,
			b->id, b->dev >> 20, b->dev & 0xfffff, b->sector, b->bytes, b->op,
			b->submitter, b->queue_ns, b->sent_ns, b->below_dev >> 20,
			b->below_dev & 0xfffff, b->below_sector, b->below_bytes, b->nsent,
			b->complete_ns, b->complete_cpu, b->complete_pid, b->complete_ctx);
		file_print(f, b->file_kind, b->file_dev, b->file_ino);
	}
	for (i = 0; i < r->nthrottles; i++) {
		const struct pm_throttle *t = &r->throttles[i];

		fprintf(f, "throttle pid=%" PRIu32 " cpu=%" PRIu32 " cgroup=%" PRIu64
			" start=%" PRId64 " end=%" PRId64 "\n", t->pid, t->cpu, t->cgroup,
			t->start_ns, t->end_ns);
	}
	for (i = 0; i < r->nmembers; i++)
		fprintf(f, "member pid=%" PRIu32 " cgroup=%" PRIu64 "\n", r->members[i].pid,
			r->members[i].cgroup);
	for (i = 0; i < r->nwakes; i++) {
		const struct pm_wake *w = &r->wakes[i];

		fprintf(f, "wake %" PRId64 " cpu=%" PRIu32 " target=%" PRIu32,
			w->ns, w->cpu, w->target);
		if (w->waker == PM_WAKER_UNKNOWN)
			fputs(" waker=?", f);
		else
			fprintf(f, " waker=%" PRIu32, w->waker);
		fprintf(f, " ctx=%" PRIu32, w->ctx);
		if (w->intr != PM_INTR_UNKNOWN)
			fprintf(f, " intr=%" PRId32, w->intr);
		if (w->net)
			fprintf(f, " net=%" PRIu32, w->net - 1);
		if (w->flip)
			fprintf(f, " flip=%" PRIu32, w->flip - 1);
		if (w->fence)
			fprintf(f, " fence=%" PRIu32, w->fence - 1);
		fputc('\n', f);
	}
	net_print(f, "recv", r->recvs, r->nrecvs);
	net_print(f, "send", r->sends, r->nsends);
	for (i = 0; i < r->nworks; i++) {
		const struct pm_work *w = &r->works[i];

		fprintf(f, "work %08" PRIx32 " func=%#" PRIx64 " queue=%" PRId64
			" queuer=%" PRIu32 " ctx=%" PRIu32 " intr=%" PRId32 " cpu=%" PRIu32
			" start=%" PRId64 " end=%" PRId64 " worker=%" PRIu32 "\n",
			w->work, w->func, w->queue_ns, w->queuer, w->queue_ctx,
			w->queue_intr, w->queue_cpu, w->start_ns, w->end_ns, w->worker);
	}
	for (i = 0; i < r->ninputs; i++) {
		const struct pm_input *in = &r->inputs[i];

		fprintf(f, "input %" PRId64 " cpu=%" PRIu32 " kind=%u value=%u\n",
			in->ns, in->cpu, in->kind, in->value);
	}
	for (i = 0; i < r->npolicies; i++)
		fprintf(f, "policy pid=%" PRIu32 " policy=%" PRIu32 "\n",
			r->policies[i].pid, r->policies[i].policy);
	display_print(f, r);
}
