// SPDX-License-Identifier: GPL-2.0
/*
 * Printing a profile: text (per thread, frames by self time), JSON, folded
 * stacks and a flame graph of our own in SVG (boxes as wide as their
 * time, callers below callees, one tower per thread; text through
 * lib/xmltext.c as the timeline's).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "xmltext.h"

#define NS_PER_S	1e9

static const char *mode_name(const struct pm_prof *p)
{
	return p->f.off_cpu ? "off-CPU" : "on-CPU";
}

/* A thread's label: "comm-pid", or "pid" without a name. */
static void thread_label(const struct pm_prof *p, uint32_t pid, char *buf,
			 size_t len)
{
	size_t i;

	for (i = 0; i < p->nthreads; i++)
		if (p->threads[i].pid == pid && p->threads[i].comm) {
			snprintf(buf, len, "%s-%" PRIu32, p->threads[i].comm, pid);
			return;
		}
	snprintf(buf, len, "%" PRIu32, pid);
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

void pm_prof_print(FILE *f, const struct pm_prof *p, size_t top)
{
	size_t i, j, n;

	if (p->f.off_cpu)
		fprintf(f, "off-CPU profile: %" PRIu64 " blocked stretch%s, %.3f s asleep\n",
			p->count, p->count == 1 ? "" : "es", (double)p->ns / NS_PER_S);
	else if (p->hz)
		fprintf(f, "on-CPU profile: %" PRIu64 " sample%s at %" PRIu32 " Hz, %.3f s\n",
			p->count, p->count == 1 ? "" : "s", p->hz, (double)p->ns / NS_PER_S);
	else
		fprintf(f, "on-CPU profile: %" PRIu64 " sample%s, %.3f s\n",
			p->count, p->count == 1 ? "" : "s", (double)p->ns / NS_PER_S);
	if (p->unweighed)
		fprintf(f, "%" PRIu64 " sample%s before any rate was known: counted, not timed\n",
			p->unweighed, p->unweighed == 1 ? "" : "s");
	if (!p->count) {
		fprintf(f, "no %s\n", p->f.off_cpu ? "blocked stretches in the interval" :
			"profiler samples in the interval (was profile_hz above 0?)");
		return;
	}
	for (i = 0; i < p->nthreads; i++) {
		const struct pm_prof_thread *t = &p->threads[i];

		fprintf(f, "\nthread %" PRIu32 " (%s)", t->pid, t->comm ? t->comm : "?");
		if (t->tgid && t->tgid != t->pid)
			fprintf(f, " of process %" PRIu32, t->tgid);
		fprintf(f, ": %" PRIu64 " %s, %.3f s (%.1f%%)\n", t->count,
			p->f.off_cpu ? (t->count == 1 ? "stretch" : "stretches") :
			(t->count == 1 ? "sample" : "samples"),
			(double)t->ns / NS_PER_S, pct(t->ns, p->ns));
		fprintf(f, "  %10s %6s %10s %6s  frame\n", "self", "%", "total", "%");
		n = top && top < t->nfuncs ? top : t->nfuncs;
		for (j = 0; j < n; j++) {
			const struct pm_prof_func *fn = &t->funcs[j];

			fprintf(f, "  %8.3f s %5.1f%% %8.3f s %5.1f%%  %s\n",
				(double)fn->self_ns / NS_PER_S, pct(fn->self_ns, t->ns),
				(double)fn->total_ns / NS_PER_S, pct(fn->total_ns, t->ns),
				p->names[fn->name]);
		}
		if (n < t->nfuncs)
			fprintf(f, "  ... %zu more frame%s\n", t->nfuncs - n,
				t->nfuncs - n == 1 ? "" : "s");
	}
}

void pm_prof_json(struct tm_jw *w, const struct pm_prof *p, size_t top)
{
	size_t i, j, n;

	tm_jw_kstr(w, "mode", p->f.off_cpu ? "off-cpu" : "on-cpu");
	tm_jw_key(w, "from_ns");
	if (p->f.from_ns == INT64_MIN)
		tm_jw_null(w);
	else
		tm_jw_i64(w, p->f.from_ns);
	tm_jw_key(w, "to_ns");
	if (p->f.to_ns == INT64_MAX)
		tm_jw_null(w);
	else
		tm_jw_i64(w, p->f.to_ns);
	tm_jw_key(w, "hz");
	if (p->hz)
		tm_jw_u64(w, p->hz);
	else
		tm_jw_null(w);
	tm_jw_ku64(w, "count", p->count);
	tm_jw_ki64(w, "ns", p->ns);
	tm_jw_ku64(w, "unweighed", p->unweighed);
	tm_jw_key(w, "threads");
	tm_jw_arr_begin(w);
	for (i = 0; i < p->nthreads; i++) {
		const struct pm_prof_thread *t = &p->threads[i];

		tm_jw_obj_begin(w);
		tm_jw_ku64(w, "pid", t->pid);
		tm_jw_key(w, "tgid");
		if (t->tgid)
			tm_jw_u64(w, t->tgid);
		else
			tm_jw_null(w);
		tm_jw_key(w, "comm");
		if (t->comm)
			tm_jw_str(w, t->comm);
		else
			tm_jw_null(w);
		tm_jw_ku64(w, "count", t->count);
		tm_jw_ki64(w, "ns", t->ns);
		tm_jw_key(w, "frames");
		tm_jw_arr_begin(w);
		n = top && top < t->nfuncs ? top : t->nfuncs;
		for (j = 0; j < n; j++) {
			const struct pm_prof_func *fn = &t->funcs[j];

			tm_jw_obj_begin(w);
			tm_jw_kstr(w, "frame", p->names[fn->name]);
			tm_jw_ki64(w, "self_ns", fn->self_ns);
			tm_jw_ku64(w, "self_count", fn->self_n);
			tm_jw_ki64(w, "total_ns", fn->total_ns);
			tm_jw_ku64(w, "total_count", fn->total_n);
			tm_jw_obj_end(w);
		}
		tm_jw_arr_end(w);
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
	tm_jw_key(w, "stacks");
	tm_jw_arr_begin(w);
	for (i = 0; i < p->nstacks; i++) {
		const struct pm_prof_stack *s = &p->stacks[i];

		tm_jw_obj_begin(w);
		tm_jw_ku64(w, "pid", s->pid);
		tm_jw_key(w, "frames");
		tm_jw_arr_begin(w);
		for (j = 0; j < s->nframes; j++)
			tm_jw_str(w, p->names[s->frames[j]]);
		tm_jw_arr_end(w);
		tm_jw_ku64(w, "count", s->count);
		tm_jw_ki64(w, "ns", s->ns);
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
}

/* @s with the folded format's separators (';', and white space) as '_'. */
static void folded_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == ' ' || *s == '\n' || *s == '\t' ? '_' : *s, f);
}

void pm_prof_folded(FILE *f, const struct pm_prof *p)
{
	char label[64];
	size_t i, j;

	for (i = 0; i < p->nstacks; i++) {
		const struct pm_prof_stack *s = &p->stacks[i];

		thread_label(p, s->pid, label, sizeof(label));
		folded_name(f, label);
		for (j = 0; j < s->nframes; j++) {
			fputc(';', f);
			folded_name(f, p->names[s->frames[j]]);
		}
		if (p->f.off_cpu)
			fprintf(f, " %" PRId64 "\n", s->ns / 1000);
		else
			fprintf(f, " %" PRIu64 "\n", s->count);
	}
}

/* The flame graph's tree: a node per (caller path, frame). */
struct fnode {
	const char *name;
	int64_t w;
	size_t child, next;	/* first child, next sibling: index + 1, 0 none */
};

struct ftree {
	struct fnode *n;
	size_t len, cap;
	int depth;
};

/* The child of @parent named @name, added (in name order) if new. */
static size_t fchild(struct ftree *t, size_t parent, const char *name)
{
	size_t *link = &t->n[parent].child, k;
	struct fnode *nn;

	while (*link && strcmp(t->n[*link - 1].name, name) < 0)
		link = &t->n[*link - 1].next;
	if (*link && !strcmp(t->n[*link - 1].name, name))
		return *link - 1;
	if (t->len == t->cap) {
		/* @link lies in the table, which moves */
		size_t off = (size_t)((char *)link - (char *)t->n);

		nn = realloc(t->n, 2 * t->cap * sizeof(*nn));
		if (!nn)
			return SIZE_MAX;
		t->n = nn;
		t->cap *= 2;
		link = (size_t *)((char *)t->n + off);
	}
	k = t->len++;
	t->n[k].name = name;
	t->n[k].w = 0;
	t->n[k].child = 0;
	t->n[k].next = *link;
	*link = k + 1;
	return k;
}

#define SVG_W		1200
#define SVG_ROW		16
#define SVG_TOP		40
#define SVG_CHAR_W	7.0

static void svg_node(FILE *f, const struct ftree *t, size_t k, double x,
		     int depth, int64_t whole, int height, int off_cpu)
{
	const struct fnode *n = &t->n[k];
	double w = whole > 0 ? (double)SVG_W * (double)n->w / (double)whole : 0;
	int y = height - (depth + 1) * SVG_ROW;
	size_t c, fit;
	unsigned int hue;

	if (w < 0.1)
		return;
	hue = 0;
	for (const char *s = n->name; *s; s++)
		hue = hue * 31 + (unsigned char)*s;
	fprintf(f, "<g><title>");
	tm_xml_text(f, n->name);
	fprintf(f, " (%.3f s, %.1f%%)</title>", (double)n->w / NS_PER_S,
		100.0 * (double)n->w / (double)whole);
	if (off_cpu)
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"rgb(%u,%u,%u)\" rx=\"2\"/>",
			x, y, w, SVG_ROW - 1, 60 + hue % 60, 110 + hue % 70, 190 + hue % 60);
	else
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"rgb(%u,%u,%u)\" rx=\"2\"/>",
			x, y, w, SVG_ROW - 1, 205 + hue % 50, 80 + hue % 120, 40 + hue % 40);
	fit = (size_t)((w - 6) / SVG_CHAR_W);
	if (fit >= 3) {
		char buf[256];
		size_t len = strlen(n->name);

		if (len > fit) {
			snprintf(buf, sizeof(buf), "%.*s..", (int)(fit - 2), n->name);
		} else {
			snprintf(buf, sizeof(buf), "%s", n->name);
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">", x + 3, y + SVG_ROW - 4);
		tm_xml_text(f, buf);
		fputs("</text>", f);
	}
	fputs("</g>\n", f);
	for (c = n->child; c; c = t->n[c - 1].next) {
		svg_node(f, t, c - 1, x, depth + 1, whole, height, off_cpu);
		x += (double)SVG_W * (double)t->n[c - 1].w / (double)whole;
	}
}

void pm_prof_svg(FILE *f, const struct pm_prof *p, const char *title)
{
	struct ftree t = { 0 };
	char (*labels)[64] = calloc(p->nthreads ? p->nthreads : 1, sizeof(*labels));
	int use_ns = p->ns > 0, height;
	size_t i, j, k;

	t.cap = 64;
	t.n = calloc(t.cap, sizeof(*t.n));
	if (!labels || !t.n)
		goto out;
	t.n[0].name = "all";
	t.len = 1;
	for (i = 0; i < p->nthreads; i++)
		thread_label(p, p->threads[i].pid, labels[i], sizeof(labels[i]));
	for (i = 0; i < p->nstacks; i++) {
		const struct pm_prof_stack *s = &p->stacks[i];
		int64_t w = use_ns ? s->ns : (int64_t)s->count;

		for (j = 0; j < p->nthreads && p->threads[j].pid != s->pid; j++)
			;
		if (j == p->nthreads)
			continue;
		t.n[0].w += w;
		k = fchild(&t, 0, labels[j]);
		if (k == SIZE_MAX)
			goto out;
		t.n[k].w += w;
		for (size_t d = 0; d < s->nframes; d++) {
			k = fchild(&t, k, p->names[s->frames[d]]);
			if (k == SIZE_MAX)
				goto out;
			t.n[k].w += w;
			if ((int)d + 2 > t.depth)
				t.depth = (int)d + 2;
		}
		if (t.depth < 1)
			t.depth = 1;
	}
	height = SVG_TOP + (t.depth + 1) * SVG_ROW + 10;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
		"<text x=\"%d\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">",
		SVG_W, height, SVG_W, height, SVG_W / 2);
	tm_xml_text(f, title);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"34\" text-anchor=\"middle\">%s, %" PRIu64 " %s, %.3f s</text>\n",
		SVG_W / 2, mode_name(p), p->count,
		p->f.off_cpu ? "stretches" : "samples", (double)p->ns / NS_PER_S);
	if (t.n[0].w > 0)
		svg_node(f, &t, 0, 0, 0, t.n[0].w, height - 10, p->f.off_cpu);
	fputs("</svg>\n", f);
out:
	free(labels);
	free(t.n);
}
