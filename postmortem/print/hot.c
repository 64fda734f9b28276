// SPDX-License-Identifier: GPL-2.0
/* Hot functions as text and JSON (hot.h). */
#include <inttypes.h>
#include <string.h>

#include "../records/records.h"
#include "hot.h"

static const char *last_part(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static void text(FILE *f, const char *s)
{
	pm_print_text(f, s, strlen(s));
}

void pm_hot_print(FILE *f, const struct pm_hot *h, const char *comm, int indent)
{
	size_t i, k;

	fprintf(f, "%*s%" PRIu32 " (", indent, "", h->pid);
	text(f, comm);
	fprintf(f, ") computing: %" PRIu64 " profiler sample%s, by the function each was taken in:\n",
		h->samples, h->samples == 1 ? "" : "s");
	for (i = 0; i < h->nfns; i++) {
		const struct pm_hot_fn *fn = &h->fns[i];

		fprintf(f, "%*s%6" PRIu64 " %5.1f%%  ", indent + 2, "", fn->n,
			100.0 * (double)fn->n / (double)h->samples);
		text(f, fn->func);
		if (fn->kernel)
			fputs(" [kernel]", f);
		else if (fn->file || fn->module) {
			fputs(" (", f);
			text(f, fn->file ? last_part(fn->file) : fn->module);
			fputc(')', f);
		}
		for (k = 0; k < fn->ncallers; k++) {
			fputs(" <- ", f);
			text(f, fn->callers[k]);
		}
		if (fn->ncallers && fn->callers_n < fn->n)
			fprintf(f, " (%" PRIu64 " of its %" PRIu64 ")", fn->callers_n, fn->n);
		fputc('\n', f);
	}
	if (h->nleaves > h->nfns)
		fprintf(f, "%*sand %zu more function%s\n", indent + 2, "", h->nleaves - h->nfns,
			h->nleaves - h->nfns == 1 ? "" : "s");
	if (h->nochain)
		fprintf(f, "%*s%6" PRIu64 " %5.1f%%  (no chain kept)\n", indent + 2, "", h->nochain,
			100.0 * (double)h->nochain / (double)h->samples);
}

static void kstr_or_null(struct tm_jw *w, const char *key, const char *s)
{
	tm_jw_key(w, key);
	if (s)
		tm_jw_str(w, s);
	else
		tm_jw_null(w);
}

void pm_hot_json(struct tm_jw *w, const struct pm_hot *h, const char *comm)
{
	size_t i, k;

	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "pid", h->pid);
	tm_jw_kstr(w, "comm", comm);
	tm_jw_ku64(w, "samples", h->samples);
	tm_jw_ku64(w, "samples_without_chain", h->nochain);
	tm_jw_ku64(w, "functions_seen", h->nleaves);
	tm_jw_key(w, "functions");
	tm_jw_arr_begin(w);
	for (i = 0; i < h->nfns; i++) {
		const struct pm_hot_fn *fn = &h->fns[i];

		tm_jw_obj_begin(w);
		tm_jw_kstr(w, "func", fn->func);
		kstr_or_null(w, "file", fn->file);
		kstr_or_null(w, "module", fn->module);
		tm_jw_kbool(w, "kernel", fn->kernel);
		tm_jw_ku64(w, "samples", fn->n);
		tm_jw_kdouble(w, "pct", 100.0 * (double)fn->n / (double)h->samples);
		tm_jw_key(w, "callers");
		tm_jw_arr_begin(w);
		for (k = 0; k < fn->ncallers; k++)
			tm_jw_str(w, fn->callers[k]);
		tm_jw_arr_end(w);
		tm_jw_ku64(w, "callers_samples", fn->callers_n);
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
	tm_jw_obj_end(w);
}
