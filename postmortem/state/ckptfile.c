// SPDX-License-Identifier: GPL-2.0
/*
 * The checkpoints kept in a file beside the dump (state.h:
 * pm_ckpts_save(), pm_ckpts_load()): a dump file of one section,
 * TIPME_SEC_CKPT (<linux/tipme.h>: struct tipme_ckpt_hdr), that names the
 * dump it describes by its size and the CRC of its section headers.  The
 * sites the stretches point to are written once each, as an index.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "dumpfile.h"
#include "state.h"
#include "ckpt.h"

/* Which dump: its size, and the CRC of its section headers. */
static void dump_key(const struct pm_incident *inc, uint64_t *size, uint32_t *crc)
{
	const struct tm_dump *d = &inc->pm.d;
	uint32_t i, c = 0;

	for (i = 0; i < d->nr_secs; i++) {
		const struct tipme_section *h = &d->secs[i].h;

		c = tm_crc32(c, &h->type, sizeof(h->type));
		c = tm_crc32(c, &h->cpu, sizeof(h->cpu));
		c = tm_crc32(c, &h->size, sizeof(h->size));
		c = tm_crc32(c, &h->crc32, sizeof(h->crc32));
	}
	*size = d->size;
	*crc = c;
}

/* The builder's CPU numbers for this dump (pm_state_bld_new()'s). */
static uint32_t dump_ncs(const struct pm_incident *inc)
{
	uint32_t i, n = 0;

	for (i = 0; i < inc->pm.nr_cpus; i++)
		if (inc->pm.cpus[i].cpu >= n)
			n = inc->pm.cpus[i].cpu + 1;
	return n;
}

uint64_t pm_ckpts_every(const struct pm_incident *inc)
{
	const struct tm_dump *d = &inc->pm.d;
	uint64_t bytes = 0, every;
	uint32_t i;

	for (i = 0; i < d->nr_secs; i++)
		if (d->secs[i].h.type == TIPME_SEC_CPU_STREAM)
			bytes += d->secs[i].h.size;
	/* about PM_CKPTS_SPREAD of them over the records (~10 bytes each) */
	every = bytes / 10 / PM_CKPTS_SPREAD;
	return every < PM_CKPTS_MIN_EVERY ? PM_CKPTS_MIN_EVERY : every;
}

/* Sites by address, each written once. */
static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const uint64_t *const *)a;
	uintptr_t y = (uintptr_t)*(const uint64_t *const *)b;

	return (x > y) - (x < y);
}

static uint32_t site_index(const uint64_t **sites, size_t n, const uint64_t *p)
{
	size_t lo = 0, hi = n;

	if (!p)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)sites[mid] < (uintptr_t)p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo + 1;
}

struct out {
	unsigned char *buf;
	size_t len, cap;
};

static int put(struct out *o, const void *p, size_t n)
{
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 65536;
		unsigned char *b;

		while (cap < o->len + n)
			cap *= 2;
		b = realloc(o->buf, cap);
		if (!b)
			return -ENOMEM;
		o->buf = b;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	return 0;
}

static int put_seg(struct out *o, const struct pm_seg *s, const uint64_t **sites,
		   size_t nsites)
{
	struct tipme_ckpt_seg w = {
		.start_ns = s->start_ns,
		.end_ns = s->end_ns,
		.waker = s->waker,
		.ustack = s->ustack,
		.cpu = s->cpu,
		.site = s->nsite ? site_index(sites, nsites, s->site) : 0,
		.block_state = s->block_state,
		.prio = s->prio,
		.state = (uint8_t)s->state,
		.waker_ctx = (uint8_t)s->waker_ctx,
		.woken = (uint8_t)s->woken,
		.nsite = w.site ? (uint8_t)s->nsite : 0,
	};

	return put(o, &w, sizeof(w));
}

/* A thread's last events as their order (struct tipme_ckpt_thread's @ev_order). */
static uint16_t ev_order(const struct pm_thread *t)
{
	uint16_t o = 0;
	int k, j;

	for (k = 0; k < TIPME_CKPT_THREAD_EVS; k++) {
		unsigned int r = 0;

		if (!t->ev_last[k])
			continue;
		/* 1 + how many different earlier times */
		for (j = 0; j < TIPME_CKPT_THREAD_EVS; j++) {
			int dup = 0, m;

			for (m = 0; m < j; m++)
				dup |= t->ev_last[m] == t->ev_last[j];
			if (t->ev_last[j] && t->ev_last[j] < t->ev_last[k] && !dup)
				r++;
		}
		o |= (uint16_t)((r + 1) << (4 * k));
	}
	return o;
}

struct by_pid {
	uint32_t pid;
	size_t i, at;	/* index in the checkpoint, first stretch in its @fin */
};

static int by_pid_cmp(const void *a, const void *b)
{
	const struct by_pid *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Checkpoint @c: its threads by pid. */
static int put_ckpt(struct out *o, const struct pm_ckpt *c, uint32_t ncs,
		    const uint64_t **sites, size_t nsites)
{
	struct tipme_ckpt w = {
		.ns = c->ns, .at = c->at, .first_ns = c->first_ns,
		.last_ns = c->last_ns, .trigger_ns = c->trigger_ns,
		.nlosses = (uint32_t)c->nlosses, .nthreads = (uint32_t)c->nthreads,
		.have = (uint32_t)c->have,
	};
	struct by_pid *order = malloc((c->nthreads ? c->nthreads : 1) * sizeof(*order));
	size_t i, j, at = 0;
	int err;

	if (!order)
		return -ENOMEM;
	for (i = 0; i < c->nthreads; at += c->threads[i++].nsegs)
		order[i] = (struct by_pid){ c->threads[i].pid, i, at };
	qsort(order, c->nthreads, sizeof(*order), by_pid_cmp);
	memcpy(w.ev_last, c->ev_last, sizeof(w.ev_last));
	memcpy(w.ev_next, c->ev_next, sizeof(w.ev_next));
	err = put(o, &w, sizeof(w));
	if (!err)
		err = put(o, c->first, ncs * sizeof(*c->first));
	if (!err)
		err = put(o, c->last, ncs * sizeof(*c->last));
	for (i = 0; !err && i < c->nthreads; i++) {
		const struct pm_thread *t = &c->threads[order[i].i];
		struct tipme_ckpt_thread tw = {
			.pid = t->pid, .nsegs = (uint32_t)t->nsegs,
			.dropped = t->dropped, .pend_waker = t->pend_waker,
			.pend_cpu = t->pend_cpu, .pend = t->pend,
			.pend_ctx = t->pend_ctx, .tent = t->tent,
			.ev_order = ev_order(t),
		};

		memcpy(tw.ev_next, t->ev_next, sizeof(tw.ev_next));
		for (j = 0; j < t->nsegs; j++)
			if (!memcmp(&t->segs[j], &c->fin[order[i].at + j], sizeof(*t->segs)))
				tw.same |= (uint8_t)(1u << j);
		err = put(o, &tw, sizeof(tw));
		for (j = 0; !err && j < t->nsegs; j++)
			err = put_seg(o, &t->segs[j], sites, nsites);
		for (j = 0; !err && j < t->nsegs; j++)
			if (!(tw.same & (1u << j)))
				err = put_seg(o, &c->fin[order[i].at + j], sites, nsites);
	}
	free(order);
	return err;
}

int pm_ckpts_save(const struct pm_ckpts *ck, const struct pm_incident *inc,
		  const char *path, struct tm_err *e)
{
	const struct pm_state *w = &ck->whole;
	struct tipme_ckpt_hdr h = {
		.version = TIPME_CKPT_VERSION, .ncpus = ck->ncs,
		.nckpts = (uint32_t)ck->n, .every = ck->every,
		.nlosses = (uint32_t)w->nlosses, .lost = (uint32_t)w->lost,
		.npresses = (uint32_t)ck->npresses, .first_ns = w->first_ns, .last_ns = w->last_ns,
		.trigger_ns = w->trigger_ns,
	};
	struct tipme_file_header fh = inc->pm.d.hdr;
	const uint64_t **sites = NULL;
	struct out o = { NULL, 0, 0 };
	size_t i, j, n = 0, nsites = 0;
	struct tm_dumpw dw;
	uint64_t key_size;
	int err = 0;

	for (i = 0; i < ck->n; i++) {
		if (ck->c[i].nfin != ck->c[i].nsegs)
			return tm_err_set(e, EINVAL, "a checkpoint is not final");
		n += 2 * ck->c[i].nsegs;
	}
	dump_key(inc, &key_size, &h.dump_crc);
	h.dump_size = key_size;
	sites = malloc((n ? n : 1) * sizeof(*sites));
	if (!sites)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (i = 0; i < ck->n; i++) {
		const struct pm_ckpt *c = &ck->c[i];
		size_t at = 0;

		for (j = 0; j < c->nthreads; at += c->threads[j++].nsegs) {
			const struct pm_thread *t = &c->threads[j];
			size_t k;

			for (k = 0; k < t->nsegs; k++) {
				if (t->segs[k].nsite)
					sites[nsites++] = t->segs[k].site;
				if (c->fin[at + k].nsite)
					sites[nsites++] = c->fin[at + k].site;
			}
		}
	}
	qsort(sites, nsites, sizeof(*sites), ptr_cmp);
	for (i = j = 0; i < nsites; i++)
		if (!j || sites[i] != sites[j - 1])
			sites[j++] = sites[i];
	nsites = j;
	h.nsites = (uint32_t)nsites;
	err = put(&o, &h, sizeof(h));
	for (i = 0; !err && i < w->nlosses; i++) {
		struct tipme_ckpt_loss l = {
			.cpu = w->losses[i].cpu, .since_ns = w->losses[i].since_ns,
			.until_ns = w->losses[i].until_ns,
			.first_seq = w->losses[i].first_seq,
			.subbufs = w->losses[i].subbufs,
		};

		err = put(&o, &l, sizeof(l));
	}
	if (!err && ck->npresses)
		err = put(&o, ck->presses, ck->npresses * sizeof(*ck->presses));
	for (i = 0; !err && i < ck->npresses; i++) {
		uint32_t r = ck->readers ? ck->readers[i] : 0;

		err = put(&o, &r, sizeof(r));
	}
	for (i = 0; !err && i < nsites; i++)
		err = put(&o, sites[i], PM_SITE_FRAMES * sizeof(*sites[i]));
	for (i = 0; !err && i < ck->n; i++)
		err = put_ckpt(&o, &ck->c[i], ck->ncs, sites, nsites);
	free(sites);
	if (err) {
		free(o.buf);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	fh.created_real_ns = 0;
	fh.flags &= ~TIPME_FILE_KEYLOG;
	err = tm_dumpw_open(&dw, path, &fh, 0, e);
	if (!err)
		err = tm_dumpw_section(&dw, TIPME_SEC_CKPT, 0, o.buf, o.len, e);
	if (!err)
		err = tm_dumpw_commit(&dw, e);
	else
		tm_dumpw_abort(&dw);
	free(o.buf);
	return err;
}

/* Reading: every count is checked against the bytes left before use. */
struct in {
	const unsigned char *p;
	size_t left;
};

static int get(struct in *in, void *to, size_t n)
{
	if (n > in->left)
		return -1;
	memcpy(to, in->p, n);
	in->p += n;
	in->left -= n;
	return 0;
}

static int bad(struct tm_err *e, const char *what)
{
	return tm_err_set(e, EINVAL, "checkpoints: %s", what);
}

static int get_seg(struct in *in, struct pm_seg *s, uint64_t *sites, uint32_t nsites,
		   struct tm_err *e)
{
	struct tipme_ckpt_seg r;

	if (get(in, &r, sizeof(r)))
		return bad(e, "a stretch past the end");
	if (r.site > nsites || (r.site && (!r.nsite || r.nsite > PM_SITE_FRAMES)) ||
	    (!r.site && r.nsite) || r.state > PM_T_BLOCKED || r.waker_ctx > 3 ||
	    r.woken > 1)
		return bad(e, "a stretch out of range");
	*s = (struct pm_seg){
		.start_ns = r.start_ns, .end_ns = r.end_ns,
		.site = r.site ? sites + (size_t)(r.site - 1) * PM_SITE_FRAMES : NULL,
		.waker = r.waker, .ustack = r.ustack, .cpu = r.cpu,
		.block_state = r.block_state, .prio = r.prio, .state = r.state,
		.waker_ctx = r.waker_ctx, .woken = r.woken, .nsite = r.nsite,
	};
	return 0;
}

static int get_ckpt(struct in *in, struct pm_ckpt *c, const struct tipme_ckpt_hdr *h,
		    uint64_t *sites, struct tm_err *e)
{
	struct tipme_ckpt r;
	size_t i, j, at = 0;
	uint32_t prev = 0;

	if (get(in, &r, sizeof(r)))
		return bad(e, "a checkpoint past the end");
	if (r.at > r.ns || r.nlosses > h->nlosses || r.have > 1 || r.reserved ||
	    (uint64_t)r.nthreads * sizeof(struct tipme_ckpt_thread) > in->left ||
	    (uint64_t)h->ncpus * 2 * sizeof(int64_t) > in->left)
		return bad(e, "a checkpoint out of range");
	for (i = 0; i < TIPME_CKPT_EVS; i++)
		if (r.ev_last[i] < 0 || r.ev_next[i] < 0)
			return bad(e, "a checkpoint's event out of range");
	*c = (struct pm_ckpt){
		.ns = r.ns, .at = r.at, .first_ns = r.first_ns, .last_ns = r.last_ns,
		.trigger_ns = r.trigger_ns, .nlosses = r.nlosses, .have = (int)r.have,
	};
	memcpy(c->ev_last, r.ev_last, sizeof(c->ev_last));
	memcpy(c->ev_next, r.ev_next, sizeof(c->ev_next));
	c->first = calloc(h->ncpus ? h->ncpus : 1, sizeof(*c->first));
	c->last = calloc(h->ncpus ? h->ncpus : 1, sizeof(*c->last));
	c->threads = calloc(r.nthreads ? r.nthreads : 1, sizeof(*c->threads));
	c->fin = malloc((r.nthreads ? r.nthreads : 1) * TIPME_CKPT_SEGS * sizeof(*c->fin));
	if (!c->first || !c->last || !c->threads || !c->fin)
		return tm_err_set(e, ENOMEM, "out of memory");
	get(in, c->first, h->ncpus * sizeof(*c->first));
	get(in, c->last, h->ncpus * sizeof(*c->last));
	for (i = 0; i < r.nthreads; i++) {
		struct pm_thread *t = &c->threads[i];
		struct tipme_ckpt_thread tr;

		if (get(in, &tr, sizeof(tr)))
			return bad(e, "a thread past the end");
		if ((i && tr.pid <= prev) || !tr.pid || tr.nsegs > TIPME_CKPT_SEGS ||
		    tr.pend > 1 || tr.tent > 1 || tr.same >> tr.nsegs ||
		    tr.reserved[0] || tr.reserved[1] || tr.reserved[2])
			return bad(e, "a thread out of range");
		prev = tr.pid;
		c->nthreads++;
		*t = (struct pm_thread){
			.pid = tr.pid, .dropped = tr.dropped, .pend_waker = tr.pend_waker,
			.pend_cpu = tr.pend_cpu, .pend = tr.pend, .pend_ctx = tr.pend_ctx,
			.tent = tr.tent,
		};
		for (j = 0; j < TIPME_CKPT_THREAD_EVS; j++) {
			/* the order stands for the times: only compared */
			t->ev_last[j] = (tr.ev_order >> (4 * j)) & 0xf;
			t->ev_next[j] = tr.ev_next[j];
			if (t->ev_last[j] > TIPME_CKPT_THREAD_EVS || t->ev_next[j] < 0)
				return bad(e, "a thread's event out of range");
		}
		if (!tr.nsegs)
			continue;
		t->segs = malloc(tr.nsegs * sizeof(*t->segs));
		if (!t->segs)
			return tm_err_set(e, ENOMEM, "out of memory");
		t->nsegs = t->cap = tr.nsegs;
		for (j = 0; j < tr.nsegs; j++)
			if (get_seg(in, &t->segs[j], sites, h->nsites, e))
				return -EINVAL;
		for (j = 0; j < tr.nsegs; j++)
			if (tr.same & (1u << j))
				c->fin[at + j] = t->segs[j];
			else if (get_seg(in, &c->fin[at + j], sites, h->nsites, e))
				return -EINVAL;
		at += tr.nsegs;
	}
	c->nsegs = c->nfin = at;
	return 0;
}

int pm_ckpts_parse(struct pm_ckpts **out, const void *buf, size_t len,
		   struct tm_err *e)
{
	struct in in = { buf, len };
	struct tipme_ckpt_hdr h;
	struct pm_ckpts *ck;
	struct pm_state *w;
	uint64_t *sites;
	size_t i;
	int err;

	*out = NULL;
	if (get(&in, &h, sizeof(h)))
		return bad(e, "shorter than its header");
	if (h.version != TIPME_CKPT_VERSION)
		return tm_err_set(e, EPROTO, "checkpoints: version %u, not %u",
				  h.version, TIPME_CKPT_VERSION);
	if ((uint64_t)h.nlosses * sizeof(struct tipme_ckpt_loss) > in.left ||
	    (uint64_t)h.npresses * (sizeof(int64_t) + sizeof(uint32_t)) > in.left ||
	    (uint64_t)h.nsites * PM_SITE_FRAMES * sizeof(uint64_t) > in.left ||
	    (uint64_t)h.nckpts * sizeof(struct tipme_ckpt) > in.left ||
	    h.lost > 1 || (h.nlosses && !h.lost))
		return bad(e, "counts past the end");
	ck = calloc(1, sizeof(*ck));
	if (!ck)
		return tm_err_set(e, ENOMEM, "out of memory");
	ck->ncs = h.ncpus;
	ck->every = h.every;
	w = &ck->whole;
	w->first_ns = h.first_ns;
	w->last_ns = h.last_ns;
	w->trigger_ns = h.trigger_ns;
	w->lost = (int)h.lost;
	w->losses = calloc(h.nlosses ? h.nlosses : 1, sizeof(*w->losses));
	w->site_chunks = malloc(sizeof(*w->site_chunks));
	sites = malloc((h.nsites ? h.nsites : 1) * PM_SITE_FRAMES * sizeof(*sites));
	ck->c = calloc(h.nckpts ? h.nckpts : 1, sizeof(*ck->c));
	ck->presses = malloc((h.npresses ? h.npresses : 1) * sizeof(*ck->presses));
	ck->readers = malloc((h.npresses ? h.npresses : 1) * sizeof(*ck->readers));
	if (w->site_chunks) {
		w->site_chunks[0] = sites;
		w->nsite_chunks = 1;
	} else {
		free(sites);
	}
	if (!w->losses || !w->site_chunks || !sites || !ck->c || !ck->presses ||
	    !ck->readers) {
		pm_ckpts_free(ck);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	for (i = 0; i < h.nlosses; i++) {
		struct tipme_ckpt_loss l;

		get(&in, &l, sizeof(l));
		w->losses[i] = (struct pm_loss){ l.cpu, l.since_ns, l.until_ns,
						 l.first_seq, l.subbufs };
	}
	w->nlosses = h.nlosses;
	for (i = 0; i < h.npresses; i++) {
		get(&in, &ck->presses[i], sizeof(*ck->presses));
		if (i && ck->presses[i] < ck->presses[i - 1]) {
			pm_ckpts_free(ck);
			return bad(e, "presses out of order");
		}
	}
	ck->npresses = ck->cap_presses = h.npresses;
	get(&in, ck->readers, (size_t)h.npresses * sizeof(*ck->readers));
	get(&in, sites, (size_t)h.nsites * PM_SITE_FRAMES * sizeof(*sites));
	for (i = 0; i < h.nckpts; i++) {
		struct pm_ckpt *c = &ck->c[i];

		ck->n++;
		err = get_ckpt(&in, c, &h, sites, e);
		if (!err && i && (c->ns <= c[-1].ns || c->at <= c[-1].at ||
				  c->nlosses < c[-1].nlosses))
			err = bad(e, "checkpoints out of order");
		if (err) {
			pm_ckpts_free(ck);
			return err;
		}
	}
	if (in.left) {
		pm_ckpts_free(ck);
		return bad(e, "bytes after the last checkpoint");
	}
	*out = ck;
	return 0;
}

int pm_ckpts_load(struct pm_ckpts **out, const struct pm_incident *inc,
		  const char *path, struct tm_err *e)
{
	struct tipme_ckpt_hdr h;
	struct tm_dump d;
	uint64_t size;
	uint32_t crc, i;
	int err;

	*out = NULL;
	err = tm_dump_load(&d, path, 0, e);
	for (i = 0; !err && i < d.nr_secs; i++)
		if (d.secs[i].h.type == TIPME_SEC_CKPT)
			break;
	if (!err && i == d.nr_secs)
		err = tm_err_set(e, ENOENT, "%s: no checkpoints in it", path);
	if (!err && d.secs[i].h.size >= sizeof(h)) {
		memcpy(&h, d.secs[i].data, sizeof(h));
		dump_key(inc, &size, &crc);
		if (h.dump_size != size || h.dump_crc != crc || h.ncpus != dump_ncs(inc))
			err = tm_err_set(e, ESTALE, "%s: the checkpoints of another dump", path);
	}
	if (!err)
		err = pm_ckpts_parse(out, d.secs[i].data, d.secs[i].h.size, e);
	tm_dump_free(&d);
	return err;
}
