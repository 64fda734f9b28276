// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles by call chain: the on-CPU samples of the prof records, or the
 * off-CPU stretches of state/, gathered per thread into distinct stacks
 * and per-frame self and total time.  Every order is total (ties broken by
 * pid, then by frame names), so the same dump gives the same text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/decode.h"
#include "../dump/tables.h"
#include "../dump/usym.h"
#include "profile.h"

/* Kernel frames, user frames and, for some, functions inlined there. */
#define PROF_MAX_FRAMES	(PM_FRAMES_MAX + 2 * TIPME_USTACK_DEPTH_MAX)
#define NS_PER_S	1000000000LL

/* The tables a profile is built in, beside the result. */
struct prof_bld {
	struct pm_prof *p;
	const struct pm_dump *pm;
	size_t names_cap;
	uint32_t *name_hash;	/* open addressing: index + 1, 0 empty */
	size_t name_hash_cap;
	size_t stacks_cap;
	uint32_t *stack_hash;	/* likewise, into p->stacks */
	size_t stack_hash_cap;
	int hz_mixed;
};

static uint64_t hash_bytes(const void *b, size_t n, uint64_t h)
{
	const unsigned char *c = b;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ULL;
	return h;
}

/* Double an open-addressing table of @cap slots to hold @n + 1 keys. */
static int rehash(uint32_t **tab, size_t *cap, size_t n,
		  uint64_t (*key_hash)(const struct prof_bld *, uint32_t),
		  const struct prof_bld *b)
{
	size_t ncap = *cap ? *cap : 256, i, j;
	uint32_t *t;

	if ((n + 1) * 2 <= *cap)
		return 0;
	while ((n + 1) * 2 > ncap)
		ncap *= 2;
	t = calloc(ncap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		j = key_hash(b, (uint32_t)i) & (ncap - 1);
		while (t[j])
			j = (j + 1) & (ncap - 1);
		t[j] = (uint32_t)i + 1;
	}
	free(*tab);
	*tab = t;
	*cap = ncap;
	return 0;
}

static uint64_t name_hash_of(const struct prof_bld *b, uint32_t i)
{
	const char *s = b->p->names[i];

	return hash_bytes(s, strlen(s), 0xcbf29ce484222325ULL);
}

/* The index of frame name @s, added if new.  Return: it, or -ENOMEM. */
static int64_t name_id(struct prof_bld *b, const char *s)
{
	struct pm_prof *p = b->p;
	size_t j;
	char **nn;

	if (rehash(&b->name_hash, &b->name_hash_cap, p->nnames, name_hash_of, b))
		return -ENOMEM;
	j = hash_bytes(s, strlen(s), 0xcbf29ce484222325ULL) & (b->name_hash_cap - 1);
	for (; b->name_hash[j]; j = (j + 1) & (b->name_hash_cap - 1))
		if (!strcmp(p->names[b->name_hash[j] - 1], s))
			return b->name_hash[j] - 1;
	if (p->nnames == b->names_cap) {
		b->names_cap = b->names_cap ? 2 * b->names_cap : 64;
		nn = realloc(p->names, b->names_cap * sizeof(*nn));
		if (!nn)
			return -ENOMEM;
		p->names = nn;
	}
	p->names[p->nnames] = strdup(s);
	if (!p->names[p->nnames])
		return -ENOMEM;
	b->name_hash[j] = (uint32_t)++p->nnames;
	return p->nnames - 1;
}

static uint64_t stack_key(uint32_t pid, const uint32_t *fr, size_t n)
{
	uint64_t h = hash_bytes(&pid, sizeof(pid), 0xcbf29ce484222325ULL);

	return hash_bytes(fr, n * sizeof(*fr), h);
}

static uint64_t stack_hash_of(const struct prof_bld *b, uint32_t i)
{
	const struct pm_prof_stack *s = &b->p->stacks[i];

	return stack_key(s->pid, s->frames, s->nframes);
}

/* Count one sample (stretch) of @ns on thread @pid's stack @fr. */
static int add_stack(struct prof_bld *b, uint32_t pid, const uint32_t *fr,
		     size_t n, int64_t ns)
{
	struct pm_prof *p = b->p;
	struct pm_prof_stack *s;
	size_t j;

	if (rehash(&b->stack_hash, &b->stack_hash_cap, p->nstacks, stack_hash_of, b))
		return -ENOMEM;
	j = stack_key(pid, fr, n) & (b->stack_hash_cap - 1);
	for (; b->stack_hash[j]; j = (j + 1) & (b->stack_hash_cap - 1)) {
		s = &p->stacks[b->stack_hash[j] - 1];
		if (s->pid == pid && s->nframes == n &&
		    !memcmp(s->frames, fr, n * sizeof(*fr)))
			goto found;
	}
	if (p->nstacks == b->stacks_cap) {
		size_t cap = b->stacks_cap ? 2 * b->stacks_cap : 64;

		s = realloc(p->stacks, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		p->stacks = s;
		b->stacks_cap = cap;
	}
	s = &p->stacks[p->nstacks];
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->nframes = n;
	s->frames = malloc((n ? n : 1) * sizeof(*fr));
	if (!s->frames)
		return -ENOMEM;
	memcpy(s->frames, fr, n * sizeof(*fr));
	b->stack_hash[j] = (uint32_t)++p->nstacks;
found:
	s->count++;
	s->ns += ns;
	p->count++;
	p->ns += ns;
	return 0;
}

/*
 * A user frame @f (@caller: a return address) as names into @fr (room for
 * @room), outermost first: its function, then those inlined at the
 * address, each "NAME (inlined)"; as file+offset when no symbol covers it.
 * Return: names written, or -ENOMEM.
 */
static int64_t user_frame(struct prof_bld *b, const struct pm_uframe *f,
			  int caller, uint32_t *fr, size_t room)
{
	struct pm_usym sym[PM_USYM_MAX];
	size_t nsym = pm_usym_frame(b->pm, f, caller, sym), k, n = 0;
	char buf[256];
	int64_t id;

	for (k = nsym; k-- > 0 && n < room;) {
		if (sym[k].inlined)
			snprintf(buf, sizeof(buf), "%s (inlined)", sym[k].func);
		else
			snprintf(buf, sizeof(buf), "%s", sym[k].func);
		id = name_id(b, buf);
		if (id < 0)
			return id;
		fr[n++] = (uint32_t)id;
	}
	if (!nsym && room) {
		id = name_id(b, pm_fmt_uframe(f, buf, sizeof(buf)));
		if (id < 0)
			return id;
		fr[n++] = (uint32_t)id;
	}
	return (int64_t)n;
}

/*
 * Thread @pid's frames, root first, into @fr: the user chain @ustack
 * (outermost first), then the kernel frames @k (given innermost first).
 * Return: how many, or -ENOMEM.
 */
static int64_t chain_frames(struct prof_bld *b, uint32_t ustack, int64_t ns,
			    const uint64_t *k, size_t nk, uint32_t *fr)
{
	const struct pm_ustack *u = ustack ? pm_ustack_get(b->pm, ustack) : NULL;
	struct pm_uframe uf[TIPME_USTACK_DEPTH_MAX];
	size_t nu = 0, n = 0, i;
	char buf[256];
	int64_t id;
	int trunc;

	if (u)
		nu = pm_ustack_resolve(b->pm, u, ns, uf, &trunc);
	for (i = nu; i-- > 0;) {
		id = user_frame(b, &uf[i], i > 0, fr + n, PROF_MAX_FRAMES - n);
		if (id < 0)
			return id;
		n += (size_t)id;
	}
	for (i = nk; i-- > 0 && n < PROF_MAX_FRAMES;) {
		const char *name = pm_sym_name(b->pm, k[i], NULL);

		if (!name) {
			snprintf(buf, sizeof(buf), "0x%" PRIx64, k[i]);
			name = buf;
		}
		id = name_id(b, name);
		if (id < 0)
			return id;
		fr[n++] = (uint32_t)id;
	}
	return (int64_t)n;
}

/* Is @pid (at @ns) one the filter asks for? */
static int wanted(const struct prof_bld *b, uint32_t pid, int64_t ns)
{
	const struct pm_exec *x;

	if (!b->p->f.pid || pid == b->p->f.pid)
		return 1;
	x = pm_exec_at(b->pm, pid, ns);
	return x && x->x.tgid == b->p->f.pid;
}

static int on_cpu(struct prof_bld *b, struct tm_err *e)
{
	uint32_t *rate = calloc(b->pm->nr_cpus ? b->pm->nr_cpus : 1, sizeof(*rate));
	const struct pm_prof_filter *f = &b->p->f;
	uint64_t kfr[PM_FRAMES_MAX];
	uint32_t fr[PROF_MAX_FRAMES], hz0 = 0;
	struct pm_merge m;
	struct pm_event ev;
	char v[32];
	int64_t n;
	size_t nk;
	int ret, cut;

	if (!rate)
		return tm_err_set(e, ENOMEM, "out of memory");
	if (!pm_text_get(&b->pm->params, "profile_hz", v, sizeof(v)))
		hz0 = (uint32_t)strtoul(v, NULL, 10);
	for (size_t i = 0; i < b->pm->nr_cpus; i++)
		rate[i] = hz0;
	ret = pm_merge_init(&m, b->pm, NULL, e);
	while (ret >= 0 && (ret = pm_merge_next(&m, &ev, e)) > 0) {
		const struct tipme_rec_prof *s = &ev.u.rec.PROF;
		uint32_t hz;

		if (ev.kind != PM_EV_RECORD)
			continue;
		if (ev.type == TIPME_REC_PROF_RATE && ev.cpu < b->pm->nr_cpus) {
			rate[ev.cpu] = ev.u.rec.PROF_RATE.hz;
			continue;
		}
		if (ev.type != TIPME_REC_PROF || ev.ns < f->from_ns ||
		    ev.ns >= f->to_ns || !wanted(b, s->pid, ev.ns))
			continue;
		hz = ev.cpu < b->pm->nr_cpus ? rate[ev.cpu] : 0;
		if (!hz)
			b->p->unweighed++;
		else if (b->p->hz && b->p->hz != hz)
			b->hz_mixed = 1;
		else
			b->p->hz = hz;
		nk = pm_site_chain(b->pm, s->site, kfr, PM_FRAMES_MAX, &cut);
		n = chain_frames(b, s->ustack, ev.ns, kfr, nk, fr);
		if (n < 0 || add_stack(b, s->pid, fr, (size_t)n,
				       hz ? NS_PER_S / hz : 0) < 0) {
			ret = tm_err_set(e, ENOMEM, "out of memory");
			break;
		}
	}
	pm_merge_free(&m);
	free(rate);
	if (b->hz_mixed)
		b->p->hz = 0;
	return ret < 0 ? ret : 0;
}

static int off_cpu(struct prof_bld *b, const struct pm_state *st, struct tm_err *e)
{
	const struct pm_prof_filter *f = &b->p->f;
	uint32_t fr[PROF_MAX_FRAMES];
	size_t i, j;
	int64_t n, ns;

	for (i = 0; i < st->nthreads; i++) {
		const struct pm_thread *t = &st->threads[i];

		if (!t->pid)
			continue;
		for (j = pm_seg_first(t, f->from_ns); j < t->nsegs; j++) {
			const struct pm_seg *s = &t->segs[j];

			if (s->start_ns >= f->to_ns)
				break;
			if (s->state != PM_T_BLOCKED || !wanted(b, t->pid, s->start_ns))
				continue;
			ns = pm_seg_overlap(s, f->from_ns, f->to_ns);
			if (ns <= 0)
				continue;
			n = chain_frames(b, s->ustack, s->start_ns, s->site, s->nsite, fr);
			if (n < 0 || add_stack(b, t->pid, fr, (size_t)n, ns) < 0)
				return tm_err_set(e, ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* The order of threads, for stacks and threads alike. */
static const struct pm_prof *sort_p;

static int cmp_thread(const void *a, const void *b)
{
	const struct pm_prof_thread *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int cmp_frames(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i;
	int c;

	for (i = 0; i < na && i < nb; i++) {
		c = strcmp(sort_p->names[a[i]], sort_p->names[b[i]]);
		if (c)
			return c;
	}
	return (na > nb) - (na < nb);
}

static size_t thread_rank(uint32_t pid)
{
	size_t i;

	for (i = 0; i < sort_p->nthreads; i++)
		if (sort_p->threads[i].pid == pid)
			return i;
	return i;
}

static int cmp_stack(const void *a, const void *b)
{
	const struct pm_prof_stack *x = a, *y = b;
	size_t rx = thread_rank(x->pid), ry = thread_rank(y->pid);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return cmp_frames(x->frames, x->nframes, y->frames, y->nframes);
}

static int cmp_func(const void *a, const void *b)
{
	const struct pm_prof_func *x = a, *y = b;

	if (x->self_ns != y->self_ns)
		return x->self_ns > y->self_ns ? -1 : 1;
	if (x->self_n != y->self_n)
		return x->self_n > y->self_n ? -1 : 1;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	if (x->total_n != y->total_n)
		return x->total_n > y->total_n ? -1 : 1;
	return strcmp(sort_p->names[x->name], sort_p->names[y->name]);
}

/* The threads of the stacks, and each one's frames. */
static int make_threads(struct pm_prof *p, const struct pm_dump *pm)
{
	struct pm_prof_func *acc = calloc(p->nnames ? p->nnames : 1, sizeof(*acc));
	size_t *seen = calloc(p->nnames ? p->nnames : 1, sizeof(*seen));
	size_t i, j, k, stamp = 0;
	int ret = -ENOMEM;

	if (!acc || !seen)
		goto out;
	p->threads = calloc(p->nstacks ? p->nstacks : 1, sizeof(*p->threads));
	if (!p->threads)
		goto out;
	for (i = 0; i < p->nstacks; i++) {
		const struct pm_prof_stack *s = &p->stacks[i];

		for (j = 0; j < p->nthreads && p->threads[j].pid != s->pid; j++)
			;
		if (j == p->nthreads) {
			const struct pm_exec *x = pm_exec_at(pm, s->pid, p->f.from_ns);

			p->threads[j].pid = s->pid;
			p->threads[j].tgid = x ? x->x.tgid : 0;
			p->threads[j].comm = x ? x->name : NULL;
			p->nthreads++;
		}
		p->threads[j].count += s->count;
		p->threads[j].ns += s->ns;
	}
	sort_p = p;
	if (p->nstacks) {	/* qsort() of no array at all is undefined */
		qsort(p->threads, p->nthreads, sizeof(*p->threads), cmp_thread);
		qsort(p->stacks, p->nstacks, sizeof(*p->stacks), cmp_stack);
	}
	for (i = 0, k = 0; i < p->nthreads; i++) {
		struct pm_prof_thread *t = &p->threads[i];
		size_t nf = 0;

		memset(acc, 0, (p->nnames ? p->nnames : 1) * sizeof(*acc));
		for (; k < p->nstacks && p->stacks[k].pid == t->pid; k++) {
			const struct pm_prof_stack *s = &p->stacks[k];

			stamp++;
			for (j = 0; j < s->nframes; j++) {
				struct pm_prof_func *a = &acc[s->frames[j]];

				if (seen[s->frames[j]] == stamp)
					continue;
				seen[s->frames[j]] = stamp;
				a->total_ns += s->ns;
				a->total_n += s->count;
			}
			if (s->nframes) {
				acc[s->frames[s->nframes - 1]].self_ns += s->ns;
				acc[s->frames[s->nframes - 1]].self_n += s->count;
			}
		}
		for (j = 0; j < p->nnames; j++)
			nf += acc[j].total_n > 0;
		t->funcs = calloc(nf ? nf : 1, sizeof(*t->funcs));
		if (!t->funcs)
			goto out;
		for (j = 0; j < p->nnames; j++)
			if (acc[j].total_n) {
				t->funcs[t->nfuncs] = acc[j];
				t->funcs[t->nfuncs++].name = (uint32_t)j;
			}
		qsort(t->funcs, t->nfuncs, sizeof(*t->funcs), cmp_func);
	}
	ret = 0;
out:
	sort_p = NULL;
	free(acc);
	free(seen);
	return ret;
}

int pm_prof_compute(const struct pm_incident *inc, const struct pm_state *st,
		    const struct pm_prof_filter *f, struct pm_prof *p,
		    struct tm_err *e)
{
	struct prof_bld b = { .p = p, .pm = &inc->pm };
	int ret;

	memset(p, 0, sizeof(*p));
	p->f = *f;
	ret = f->off_cpu ? off_cpu(&b, st, e) : on_cpu(&b, e);
	if (!ret && make_threads(p, &inc->pm))
		ret = tm_err_set(e, ENOMEM, "out of memory");
	free(b.name_hash);
	free(b.stack_hash);
	return ret;
}

void pm_prof_free(struct pm_prof *p)
{
	size_t i;

	for (i = 0; i < p->nnames; i++)
		free(p->names[i]);
	for (i = 0; i < p->nstacks; i++)
		free(p->stacks[i].frames);
	for (i = 0; i < p->nthreads; i++)
		free(p->threads[i].funcs);
	free(p->names);
	free(p->stacks);
	free(p->threads);
	memset(p, 0, sizeof(*p));
}
