// SPDX-License-Identifier: GPL-2.0
/*
 * tipme legs' tables and histogram (legs.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/tables.h"
#include "../records/records.h"
#include "legs.h"

struct group {
	char name[40];
	uint32_t pid;
	uint64_t *v;
	size_t n, cap;
	struct tm_summary s;
};

static const char *owner_name(const struct pm_dump *pm, const struct pm_state *st,
			      uint32_t pid, char *buf, size_t len)
{
	const char *n = pm_comm_at(pm, pid, st->last_ns);

	snprintf(buf, len, "%s", pid ? (n ? n : "?") : "(machine)");
	return buf;
}

static int group_cmp(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	int c;

	if (x->s.total != y->s.total)
		return x->s.total < y->s.total ? 1 : -1;
	c = strcmp(x->name, y->name);
	/* and by pid: the same order whatever order the legs came in */
	return c ? c : (x->pid > y->pid) - (x->pid < y->pid);
}

/* The legs by owner (pid, comm, or one group), each summarised, largest total first. */
static struct group *groups(const struct pm_dump *pm, const struct pm_state *st,
			    const struct pm_legs *l, int by, size_t *ng)
{
	struct group *g = NULL, *n;
	size_t i, k, cap = 0;
	char name[40];

	*ng = 0;
	for (i = 0; i < l->n; i++) {
		uint32_t pid = by == PM_LEGS_BY_PID ? l->legs[i].owner : 0;

		if (by == PM_LEGS_BY_COMM)
			owner_name(pm, st, l->legs[i].owner, name, sizeof(name));
		else if (by == PM_LEGS_BY_ALL)
			snprintf(name, sizeof(name), "all");
		else
			owner_name(pm, st, pid, name, sizeof(name));
		for (k = 0; k < *ng; k++)
			if (g[k].pid == pid && !strcmp(g[k].name, name))
				break;
		if (k == *ng) {
			if (*ng == cap) {
				cap = cap ? cap * 2 : 16;
				n = realloc(g, cap * sizeof(*g));
				if (!n)
					goto oom;
				g = n;
			}
			memset(&g[k], 0, sizeof(g[k]));
			g[k].pid = pid;
			snprintf(g[k].name, sizeof(g[k].name), "%s", name);
			(*ng)++;
		}
		if (g[k].n == g[k].cap) {
			size_t c = g[k].cap ? g[k].cap * 2 : 16;
			uint64_t *v = realloc(g[k].v, c * sizeof(*v));

			if (!v)
				goto oom;
			g[k].v = v;
			g[k].cap = c;
		}
		g[k].v[g[k].n++] = l->legs[i].ns;
	}
	for (k = 0; k < *ng; k++)
		if (tm_summarise(g[k].v, g[k].n, &g[k].s))
			goto oom;
	if (*ng)
		qsort(g, *ng, sizeof(*g), group_cmp);
	return g;
oom:
	for (k = 0; k < *ng; k++)
		free(g[k].v);
	free(g);
	*ng = (size_t)-1;
	return NULL;
}

static void free_groups(struct group *g, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		free(g[k].v);
	free(g);
}

static int hist_of(const struct pm_legs *l, const struct pm_legs_view *v,
		   struct tm_hist *h, struct tm_summary *all)
{
	uint64_t *vals = malloc((l->n ? l->n : 1) * sizeof(*vals));
	size_t i;
	int err;

	if (!vals)
		return -ENOMEM;
	for (i = 0; i < l->n; i++)
		vals[i] = l->legs[i].ns;
	err = tm_hist_build(vals, l->n, v->log2, v->width_ns, v->buckets, h);
	memset(all, 0, sizeof(*all));
	if (!err && l->n)
		err = tm_summarise(vals, l->n, all);
	free(vals);
	return err;
}

static void json_summary(struct tm_jw *w, const struct tm_summary *s)
{
	tm_jw_ku64(w, "count", s->n);
	tm_jw_kdouble(w, "total_ms", s->total / 1e6);
	tm_jw_kdouble(w, "mean_ms", s->mean / 1e6);
	tm_jw_kdouble(w, "p50_ms", s->p50 / 1e6);
	tm_jw_kdouble(w, "p99_ms", s->p99 / 1e6);
	tm_jw_kdouble(w, "max_ms", s->max / 1e6);
}

/**
 * pm_legs_print() - the legs as text or JSON
 * @f: output
 * @inc: the incident
 * @st: its state
 * @l: the legs
 * @v: how to show them
 * @json: one JSON object instead of text
 *
 * Return: 0 or -ENOMEM.
 */
int pm_legs_print(FILE *f, const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_legs *l, const struct pm_legs_view *v, int json)
{
	const struct pm_dump *pm = &inc->pm;
	static const char *const by_key[] = { "pid", "comm", "all" };
	struct tm_summary all;
	struct tm_hist h;
	struct group *g;
	uint64_t most = 1;
	size_t ng, k;
	struct tm_jw w;

	g = groups(pm, st, l, v->by, &ng);
	if (ng == (size_t)-1)
		return -ENOMEM;
	if (hist_of(l, v, &h, &all)) {
		free_groups(g, ng);
		return -ENOMEM;
	}
	if (json) {
		tm_jw_init(&w, f, 0);
		tm_jw_obj_begin(&w);
		tm_jw_kstr(&w, "from", pm_leg_event_name[v->from]);
		tm_jw_kstr(&w, "to", pm_leg_event_name[v->to]);
		tm_jw_kstr(&w, "by", by_key[v->by]);
		tm_jw_ku64(&w, "unclosed", l->unclosed);
		tm_jw_key(&w, "all");
		tm_jw_obj_begin(&w);
		json_summary(&w, &all);
		tm_jw_obj_end(&w);
		tm_jw_key(&w, "owners");
		tm_jw_arr_begin(&w);
		for (k = 0; k < ng && k < v->top; k++) {
			tm_jw_obj_begin(&w);
			if (v->by == PM_LEGS_BY_PID)
				tm_jw_ku64(&w, "pid", g[k].pid);
			tm_jw_kstr(&w, "comm", g[k].name);
			json_summary(&w, &g[k].s);
			tm_jw_obj_end(&w);
		}
		tm_jw_arr_end(&w);
		tm_jw_key(&w, "histogram");
		tm_jw_obj_begin(&w);
		tm_jw_kstr(&w, "buckets", v->log2 ? "log2" : "linear");
		if (!v->log2)
			tm_jw_kdouble(&w, "width_ms", v->width_ns / 1e6);
		tm_jw_key(&w, "lo_ms");
		tm_jw_arr_begin(&w);
		for (k = 0; k < h.nb; k++)
			tm_jw_double(&w, tm_hist_lo(&h, k) / 1e6);
		tm_jw_arr_end(&w);
		tm_jw_key(&w, "counts");
		tm_jw_arr_begin(&w);
		for (k = 0; k < h.nb; k++)
			tm_jw_u64(&w, h.counts[k]);
		tm_jw_arr_end(&w);
		tm_jw_kdouble(&w, "overflow_from_ms", tm_hist_lo(&h, h.nb) / 1e6);
		tm_jw_ku64(&w, "overflow", h.overflow);
		tm_jw_obj_end(&w);
		tm_jw_obj_end(&w);
		tm_jw_finish(&w);
		fputc('\n', f);
	} else {
		fprintf(f, "legs from %s to %s: %zu, %zu still open at the dump's end\n\n",
			pm_leg_event_name[v->from], pm_leg_event_name[v->to], l->n, l->unclosed);
		fprintf(f, "%-24s %8s %11s %9s %9s %9s %9s\n", v->by == PM_LEGS_BY_PID ? "PID" :
			"COMM", "COUNT", "TOTAL ms", "MEAN ms", "P50 ms", "P99 ms", "MAX ms");
		for (k = 0; k < ng && k < v->top; k++) {
			char who[40];

			if (v->by == PM_LEGS_BY_PID)
				snprintf(who, sizeof(who), "%" PRIu32 " %s", g[k].pid, g[k].name);
			else
				snprintf(who, sizeof(who), "%s", g[k].name);
			fprintf(f, "%-24.24s %8zu %11.3f %9.3f %9.3f %9.3f %9.3f\n", who, g[k].s.n,
				g[k].s.total / 1e6, g[k].s.mean / 1e6, g[k].s.p50 / 1e6,
				g[k].s.p99 / 1e6, g[k].s.max / 1e6);
		}
		if (ng > v->top)
			fprintf(f, "(%zu more; --top N shows more)\n", ng - v->top);
		if (all.n)
			fprintf(f, "%-24s %8zu %11.3f %9.3f %9.3f %9.3f %9.3f\n\n", "all", all.n,
				all.total / 1e6, all.mean / 1e6, all.p50 / 1e6, all.p99 / 1e6,
				all.max / 1e6);
		for (k = 0; k < h.nb; k++)
			if (h.counts[k] > most)
				most = h.counts[k];
		if (h.overflow > most)
			most = h.overflow;
		for (k = 0; k <= h.nb && all.n; k++) {
			uint64_t c = k < h.nb ? h.counts[k] : h.overflow;
			char lo[24];
			int bar = (int)(50 * c / most);

			snprintf(lo, sizeof(lo), "%s%.3f ms", k < h.nb ? "" : ">= ",
				 tm_hist_lo(&h, k) / 1e6);
			fprintf(f, "%16s %8" PRIu64 "%s%.*s\n", lo, c, c ? " " : "",
				c && !bar ? 1 : bar,
				"##################################################");
		}
	}
	tm_hist_free(&h);
	free_groups(g, ng);
	return 0;
}

/**
 * pm_legs_svg() - the histogram as SVG (log scale of counts)
 * @f: output
 * @l: the legs
 * @v: how to bucket them
 * @title: the figure's title
 *
 * Return: 0 or -ENOMEM.
 */
int pm_legs_svg(FILE *f, const struct pm_legs *l, const struct pm_legs_view *v,
		const char *title)
{
	struct tm_summary all;
	struct tm_hist h;
	uint64_t most = 1;
	double bw, top;
	size_t k;
	const char *p;

	if (hist_of(l, v, &h, &all))
		return -ENOMEM;
	for (k = 0; k < h.nb; k++)
		if (h.counts[k] > most)
			most = h.counts[k];
	if (h.overflow > most)
		most = h.overflow;
	top = log10((double)most + 1);
	bw = 1000.0 / (double)(h.nb + 1);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1100\" height=\"420\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n<text x=\"20\" y=\"26\" font-size=\"15\">");
	for (p = title; *p; p++) {
		if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '&')
			fputs("&amp;", f);
		else if ((unsigned char)*p >= ' ' && *p != '"' && *p != '>')
			fputc(*p, f);
		else
			fputc('?', f);
	}
	fprintf(f, ": %s to %s, %zu legs, p50 %.3f ms, p99 %.3f ms, max %.3f ms</text>\n",
		pm_leg_event_name[v->from], pm_leg_event_name[v->to], all.n, all.p50 / 1e6,
		all.p99 / 1e6, all.max / 1e6);
	fputs("<line x1=\"70\" y1=\"340\" x2=\"1070\" y2=\"340\" stroke=\"#555\"/>\n"
	      "<text x=\"20\" y=\"200\" font-size=\"12\" transform=\"rotate(-90 20 200)\">legs (log scale)</text>\n", f);
	for (k = 0; k <= h.nb; k++) {
		uint64_t c = k < h.nb ? h.counts[k] : h.overflow;
		double hh = c ? 280.0 * log10((double)c + 1) / top : 0;
		double x = 70 + bw * (double)k;

		if (c)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%" PRIu64 "</title></rect>\n",
				x + 1, 340 - hh, bw - 2, hh, k < h.nb ? "#1f5fa8" : "#c8461e", c);
		if (k % ((h.nb + 1) / 10 + 1) == 0 || k == h.nb)
			fprintf(f, "<text x=\"%.1f\" y=\"356\" font-size=\"10\" text-anchor=\"middle\">%s%.3g</text>\n",
				x + bw / 2, k < h.nb ? "" : "&#8805;", tm_hist_lo(&h, k) / 1e6);
	}
	fputs("<text x=\"570\" y=\"385\" font-size=\"12\" text-anchor=\"middle\">ms (bucket start; the red bar holds everything beyond)</text>\n</svg>\n", f);
	tm_hist_free(&h);
	return 0;
}
