// SPDX-License-Identifier: GPL-2.0
/*
 * Hot functions: a thread's profiler samples inside some stretches,
 * gathered by the function each was taken in (hot.h).  Every order is
 * total (by samples, then names), so the same dump gives the same text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/tables.h"
#include "../dump/usym.h"
#include "hot.h"

#define HOT_NAMES	(1 + PM_HOT_CALLERS)

/* One sample: its function, the callers above it, where the function is. */
struct tup {
	char *name[HOT_NAMES];
	size_t nn;
	char *file;
	char *module;
	int kernel;
};

static int push(struct tup *t, const char *s)
{
	if (t->nn == HOT_NAMES)
		return 0;
	t->name[t->nn] = strdup(s);
	return t->name[t->nn++] ? 0 : -ENOMEM;
}

static int dup_or_null(char **to, const char *s)
{
	*to = s ? strdup(s) : NULL;
	return s && !*to ? -ENOMEM : 0;
}

/*
 * The user chain's functions, innermost first: each frame's function whose
 * code it is (code inlined into a function counts as that function's, as
 * a profiler's self time does: one function's copies of an inlined helper
 * are its own work, not the helper's across all its callers).
 */
static int user_names(const struct pm_dump *pm, const struct pm_psample *s, struct tup *t)
{
	const struct pm_ustack *u = s->ustack ? pm_ustack_get(pm, s->ustack) : NULL;
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	struct pm_usym sym[PM_USYM_MAX];
	size_t n, i, nsym;
	char buf[256];
	int trunc, err = 0;

	if (!u)
		return 0;
	n = pm_ustack_resolve(pm, u, s->ns, fr, &trunc);
	for (i = 0; i < n && t->nn < HOT_NAMES && !err; i++) {
		nsym = pm_usym_frame(pm, &fr[i], i > 0, sym);
		if (!i) {
			err = dup_or_null(&t->file, nsym ? sym[nsym - 1].file : NULL);
			if (!err)
				err = dup_or_null(&t->module, fr[0].map ? fr[0].map->name : NULL);
		}
		if (nsym && !err)
			err = push(t, sym[nsym - 1].func);
		else if (!err)
			err = push(t, pm_fmt_uframe(&fr[i], buf, sizeof(buf)));
	}
	return err;
}

/* No user chain: the kernel's, innermost first. */
static int kernel_names(const struct pm_dump *pm, const struct pm_psample *s, struct tup *t)
{
	uint64_t k[PM_FRAMES_MAX];
	size_t n = s->site ? pm_site_chain(pm, s->site, k, PM_FRAMES_MAX, &(int){ 0 }) : 0, i;
	char buf[32];
	int err = 0;

	t->kernel = n > 0;
	for (i = 0; i < n && !err; i++) {
		const char *name = pm_sym_name(pm, k[i], NULL);

		if (!name) {
			snprintf(buf, sizeof(buf), "0x%" PRIx64, k[i]);
			name = buf;
		}
		err = push(t, name);
	}
	return err;
}

static void tup_free(struct tup *t)
{
	size_t i;

	for (i = 0; i < t->nn; i++)
		free(t->name[i]);
	free(t->file);
	free(t->module);
}

static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int tup_cmp(const void *a, const void *b)
{
	const struct tup *x = a, *y = b;
	size_t i;
	int c;

	c = strcmp(x->name[0], y->name[0]);
	if (c || (c = x->kernel - y->kernel))
		return c;
	for (i = 1; i < HOT_NAMES; i++) {
		c = strcmp_null(i < x->nn ? x->name[i] : NULL, i < y->nn ? y->name[i] : NULL);
		if (c)
			return c;
	}
	c = strcmp_null(x->file, y->file);
	return c ? c : strcmp_null(x->module, y->module);
}

static int same_fn(const struct tup *x, const struct tup *y)
{
	return !strcmp(x->name[0], y->name[0]) && x->kernel == y->kernel;
}

static int same_callers(const struct tup *x, const struct tup *y)
{
	size_t i;

	if (x->nn != y->nn)
		return 0;
	for (i = 1; i < x->nn; i++)
		if (strcmp(x->name[i], y->name[i]))
			return 0;
	return 1;
}

static int fn_cmp(const void *a, const void *b)
{
	const struct pm_hot_fn *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if (x->kernel != y->kernel)
		return x->kernel - y->kernel;
	return strcmp(x->func, y->func);
}

/* One function of the sorted samples [@t, @t + @n): its most common callers. */
static int make_fn(const struct tup *t, size_t n, struct pm_hot_fn *f)
{
	size_t i, j, best = 0, best_n = 0;
	int err;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same_callers(&t[i], &t[j]); j++)
			;
		if (j - i > best_n) {
			best = i;
			best_n = j - i;
		}
	}
	f->n = n;
	f->kernel = t[0].kernel;
	f->callers_n = best_n;
	f->ncallers = t[best].nn - 1;
	err = dup_or_null(&f->func, t[0].name[0]);
	if (!err)
		err = dup_or_null(&f->file, t[best].file);
	if (!err)
		err = dup_or_null(&f->module, t[best].module);
	for (i = 0; i < f->ncallers && !err; i++)
		err = dup_or_null(&f->callers[i], t[best].name[i + 1]);
	return err;
}

static void fn_free(struct pm_hot_fn *f)
{
	size_t k;

	free(f->func);
	free(f->file);
	free(f->module);
	for (k = 0; k < f->ncallers; k++)
		free(f->callers[k]);
}

int pm_hot_compute(const struct pm_incident *inc, const struct pm_state *st,
		   uint32_t pid, const struct pm_span *spans, size_t nspans,
		   struct pm_hot *h)
{
	struct tup *t = NULL, *nt;
	struct pm_hot_fn *fns = NULL;
	size_t nt_len = 0, cap = 0, i, j, k, nfn = 0;
	int err = 0;

	memset(h, 0, sizeof(*h));
	h->parent = -1;
	h->pid = pid;
	for (i = 0; i < nspans && !err; i++) {
		const struct pm_psample *s;
		size_t n;

		s = pm_state_samples(st, pid, spans[i].from_ns, &n);
		for (k = 0; k < n && s[k].ns < spans[i].to_ns && !err; k++) {
			if (nt_len == cap) {
				cap = cap ? 2 * cap : 64;
				nt = realloc(t, cap * sizeof(*t));
				if (!nt) {
					err = -ENOMEM;
					break;
				}
				t = nt;
			}
			h->samples++;
			memset(&t[nt_len], 0, sizeof(*t));
			err = user_names(&inc->pm, &s[k], &t[nt_len]);
			if (!err && !t[nt_len].nn)
				err = kernel_names(&inc->pm, &s[k], &t[nt_len]);
			if (t[nt_len].nn) {
				nt_len++;
				continue;
			}
			h->nochain += !err;
			tup_free(&t[nt_len]);
		}
	}
	if (!err && nt_len) {
		qsort(t, nt_len, sizeof(*t), tup_cmp);
		fns = calloc(nt_len, sizeof(*fns));
		if (!fns)
			err = -ENOMEM;
		for (i = 0; i < nt_len && !err; i = j) {
			for (j = i + 1; j < nt_len && same_fn(&t[i], &t[j]); j++)
				;
			err = make_fn(&t[i], j - i, &fns[nfn++]);
		}
	}
	for (i = 0; i < nt_len; i++)
		tup_free(&t[i]);
	free(t);
	if (nfn)
		qsort(fns, nfn, sizeof(*fns), fn_cmp);
	h->fns = fns;
	h->nleaves = nfn;
	h->nfns = nfn < PM_HOT_TOP ? nfn : PM_HOT_TOP;
	for (i = h->nfns; i < nfn; i++)	/* beyond the top: counted, not kept */
		fn_free(&fns[i]);
	if (err)
		pm_hot_free(h);
	return err;
}

void pm_hot_free(struct pm_hot *h)
{
	size_t i;

	for (i = 0; i < h->nfns; i++)
		fn_free(&h->fns[i]);
	free(h->fns);
	memset(h, 0, sizeof(*h));
}
