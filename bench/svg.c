// SPDX-License-Identifier: GPL-2.0
/*
 * The histogram figure as SVG, in the manner of TIPME's figures 4 and 6:
 * latency on x in 10 ms buckets, number of samples on a logarithmic y axis
 * (so that single stalls stay visible next to thousands of quick samples),
 * one bar per series in each bucket.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "bench.h"
#include "xmltext.h"

#define W	860
#define H	420
#define ML	70	/* margins */
#define MR	20
#define MT	50
#define MB	60

static const char *const colours[] = {
	"#1f5fa8", "#c8461e", "#2e8b3a", "#8a3fa0", "#b08a12", "#16888a",
	"#a01e5a", "#555555",
};

/* A tick step (ms) from 1-2-5 steps giving at most about 10 ticks. */
static uint64_t tick_step(uint64_t range_ms)
{
	static const uint64_t m[] = { 1, 2, 5 };
	uint64_t p = 1;
	size_t i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (range_ms / (m[i] * p) <= 10)
				return m[i] * p;
		p *= 10;
	}
}

/**
 * bench_svg() - write a histogram figure
 * @f: output
 * @title: figure title
 * @xlabel: x axis label
 * @s: series (bucket counts)
 * @n: number of series
 * @width_ns: bucket width
 *
 * Return: 0, -EINVAL if there is nothing to draw, -EIO on a write error.
 */
int bench_svg(FILE *f, const char *title, const char *xlabel,
	      const struct svg_series *s, size_t n, uint64_t width_ns)
{
	double pw = W - ML - MR, ph = H - MT - MB, lmin = log10(0.5), lmax;
	uint64_t maxc = 1, range_ms, step, t, decade;
	size_t nr = 1, i, k;
	double slot, bw;

	if (!n || !width_ns)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (s[i].nr > nr)
			nr = s[i].nr;
		for (k = 0; k < s[i].nr; k++)
			if (s[i].counts[k] > maxc)
				maxc = s[i].counts[k];
	}
	lmax = ceil(log10((double)maxc) + 1e-9);
	if (lmax < 1)
		lmax = 1;
	nr++;		/* an empty bucket of margin on the right */
	range_ms = nr * width_ns / NS_PER_MS;
	slot = pw / (double)nr;
	bw = slot * 0.9 / (double)n;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H, W, H);
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">", W / 2);
	tm_xml_text(f, title);
	fputs("</text>\n", f);

	/* y axis: decades */
	for (decade = 1, k = 0; k <= (size_t)lmax; k++, decade *= 10) {
		double y = MT + ph - (log10((double)decade) - lmin) / (lmax - lmin) * ph;

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%llu</text>\n",
			ML, y, W - MR, y, ML - 6, y + 4, (unsigned long long)decade);
	}
	/* x axis: ticks every step ms */
	step = tick_step(range_ms);
	for (t = 0; t <= range_ms; t += step) {
		double x = ML + (double)t / (double)range_ms * pw;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>\n"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%llu</text>\n",
			x, MT + (int)ph, x, MT + (int)ph + 5, x, MT + (int)ph + 19,
			(unsigned long long)t);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n",
		ML, MT, ML, MT + (int)ph, ML, MT + (int)ph, W - MR, MT + (int)ph);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + (int)pw / 2, H - 18);
	tm_xml_text(f, xlabel);
	fprintf(f, " (%llu ms buckets)</text>\n", (unsigned long long)(width_ns / NS_PER_MS));
	fprintf(f, "<text transform=\"translate(18 %d) rotate(-90)\" text-anchor=\"middle\">"
		"samples (log scale)</text>\n", MT + (int)ph / 2);

	/* bars */
	for (i = 0; i < n; i++) {
		const char *col = colours[i % (sizeof(colours) / sizeof(colours[0]))];

		fprintf(f, "<g fill=\"%s\">\n", col);
		for (k = 0; k < s[i].nr; k++) {
			double h, x;

			if (!s[i].counts[k])
				continue;
			h = (log10((double)s[i].counts[k]) - lmin) / (lmax - lmin) * ph;
			x = ML + slot * (double)k + slot * 0.05 + bw * (double)i;
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\">"
				"<title>", x, MT + ph - h, bw, h);
			tm_xml_text(f, s[i].label);
			fprintf(f, ": %llu in [%llu, %llu) ms</title></rect>\n",
				(unsigned long long)s[i].counts[k],
				(unsigned long long)(k * width_ns / NS_PER_MS),
				(unsigned long long)((k + 1) * width_ns / NS_PER_MS));
		}
		fputs("</g>\n", f);
		/* legend */
		fprintf(f, "<rect x=\"%d\" y=\"%zu\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%zu\">", W - MR - 170, (size_t)MT + 4 + i * 18, col,
			W - MR - 152, (size_t)MT + 14 + i * 18);
		tm_xml_text(f, s[i].label);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
