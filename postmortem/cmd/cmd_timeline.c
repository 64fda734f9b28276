// SPDX-License-Identifier: GPL-2.0
/*
 * tipme timeline: TIPME's picture of an interval as SVG (print/timeline.c),
 * written atomically (a temporary file, then a rename over FILE).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../print/timeline.h"
#include "commands.h"
#include "interval.h"
#include "json.h"
#include "run.h"
#include "writefile.h"

#define MAX_LANES	32

static const char usage_text[] =
	"usage: tipme timeline -o FILE.svg [--pid P[,P...] | --comm NAME |\n"
	"                      --window-title TEXT] [--from S --to S]\n"
	"                      [--lookback S | --whole] [--json] INCIDENT|DUMP\n"
	"  TIPME's timeline as SVG: one lane per CPU (who ran there), one lane per\n"
	"  thread (running, waiting for a CPU, or blocked, coloured by what it\n"
	"  waited for as tipme report names it), priorities, fork/exec/exit,\n"
	"  wakeups as arrows, input on top, tipme report's interval highlighted.\n"
	"  Without --pid: the threads on tipme report's chain and those that held\n"
	"  its CPU.  Without --from/--to: its interval with a margin (S are\n"
	"  CLOCK_MONOTONIC seconds).  FILE is replaced atomically; --json prints\n"
	"  what was drawn.\n"
	"  As tipme report, the state is built from a checkpoint (DUMP.ckpt):\n"
	"  only the records from LOOKBACK seconds (10) before the picture to\n"
	"  LOOKBACK after it are read; --whole reads every record.\n"
	PM_CMD_WHO_USAGE
	"EXAMPLES\n"
	"  tipme timeline -o stall.svg /var/lib/tipme/incidents/20240501T123456Z-7\n"
	"  tipme timeline -o t.svg --pid 4242,4243 --from 1203.5 --to 1204.3 kernel.dump\n";

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fputs(usage_text, f);
}

/* "4242,4243" into @pids; 0 on a bad list. */
static size_t parse_pids(const char *s, uint32_t *pids, size_t max)
{
	size_t n = 0;
	char *end;

	while (*s && n < max) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || !v || v > 0x3fffff || (*end && *end != ','))
			return 0;
		pids[n++] = (uint32_t)v;
		s = *end ? end + 1 : end;
	}
	return *s ? 0 : n;
}

/*
 * What the picture shows: --from/--to, else the verdict's interval with a
 * margin of a tenth of it (5 ms at least).  0, or -1 when there is none.
 */
static int picture(const struct pm_cmd_interval *inc, double from, double to,
		   int64_t *from_ns, int64_t *to_ns)
{
	int64_t margin;

	if (from >= 0) {
		*from_ns = (int64_t)(from * 1e9);
		*to_ns = (int64_t)(to * 1e9);
		return 0;
	}
	if (!inc->found)
		return -1;
	/* from <= to: their distance fits in 64 bits unsigned */
	margin = (int64_t)(((uint64_t)inc->r.to_ns - (uint64_t)inc->r.from_ns) / 10);
	if (margin < 5000000)
		margin = 5000000;
	/* an interval at the end of time keeps its end there */
	*from_ns = pm_cmd_add_sat(inc->r.from_ns, -margin);
	*to_ns = pm_cmd_add_sat(inc->r.to_ns, margin);
	return 0;
}

int pm_cmd_timeline(int argc, char **argv)
{
	double from = -1, to = -1, lookback = -1;
	int whole = 0;
	const char *outp = NULL, *pidlist = NULL;
	struct pm_cmd_who who = { NULL, NULL };
	const struct pm_cmd_opt opts[] = {
		PM_CMD_WHO_OPTS(who),
		{ "output", 'o', NULL, &outp, NULL },
		{ "pid", 'p', NULL, &pidlist, NULL },
		{ "from", 'f', &from, NULL, NULL },
		{ "to", 't', &to, NULL, NULL },
		{ "whole", 'A', NULL, NULL, &whole },
		{ "lookback", 'L', &lookback, NULL, NULL },
	};
	struct pm_timeline_stats stats;
	struct pm_cmd_interval inc;
	struct pm_interval_ask ask = { 0 };
	struct pm_timeline_in in;
	struct tm_err e = { "" };
	uint32_t pids[MAX_LANES];
	struct tm_wfile wf;
	size_t len = 0, npids = 0;
	int json, ret;
	int64_t a, b;

	ret = pm_cmd_parse("timeline", usage, argc, argv, opts, 6 + PM_CMD_WHO_NOPTS, &json);
	if (ret >= 0)
		return ret;
	if (pidlist && !(npids = parse_pids(pidlist, pids, MAX_LANES))) {
		fprintf(stderr, "tipme timeline: --pid takes PIDs separated by commas (at most %d)\n",
			MAX_LANES);
		return 2;
	}
	if (!outp || !*outp || optind + 1 != argc || (from >= 0) != (to >= 0) ||
	    (from >= 0 && to <= from) || (pidlist && pm_cmd_who_given(&who)) ||
	    (lookback >= 0 && (whole || lookback > 1e6))) {
		usage(stderr, "timeline");
		return 2;
	}
	/* the verdict of the interval that matters: one pid named, or the dump's choice */
	ask.pid = npids == 1 ? pids[0] : 0;
	ask.from_ns = from >= 0 && (npids == 1 || pm_cmd_who_given(&who)) ?
		      (int64_t)(from * 1e9) : -1;
	ask.to_ns = (int64_t)(to * 1e9);
	ask.window_ns = 2000000000LL;
	ask.bounded = !whole;
	ask.lookback_ns = lookback >= 0 ? (int64_t)(lookback * 1e9) : PM_CMD_LOOKBACK_NS;
	if (from >= 0) {
		ask.cover_from_ns = (int64_t)(from * 1e9);
		ask.cover_to_ns = (int64_t)(to * 1e9);
	}
	ret = 1;
	if (pm_cmd_interval_open("timeline", argv[optind], &ask, &who, &inc))
		goto out;
	/*
	 * Built from a checkpoint for the verdict's interval: a picture
	 * wider than what the build knows (a stall begun long before) is
	 * drawn from a build that knows it, as --whole would draw it.
	 */
	if (!picture(&inc, from, to, &a, &b) &&
	    !pm_cmd_interval_knows(&inc, pm_cmd_add_sat(a, -ask.lookback_ns),
				   pm_cmd_add_sat(b, ask.lookback_ns))) {
		pm_cmd_interval_close(&inc);
		ask.cover_from_ns = a;
		ask.cover_to_ns = b;
		if (pm_cmd_interval_open("timeline", argv[optind], &ask, &who, &inc))
			goto out;
	}
	if (pm_cmd_who_given(&who)) {	/* the named thread's lane, as one --pid */
		pids[0] = inc.iv.pid;
		npids = 1;
	}
	if (!npids)
		npids = pm_timeline_default_pids(inc.found ? &inc.r : NULL, pids, MAX_LANES);
	in = (struct pm_timeline_in){ .inc = &inc.in, .st = &inc.st, .res = &inc.res,
				      .verdict = inc.found ? &inc.r : NULL, .pids = pids,
				      .npids = npids, .title = argv[optind] };
	if (picture(&inc, from, to, &in.from_ns, &in.to_ns)) {
		fprintf(stderr, "tipme timeline: %s: nothing to show by itself (no input, no stall); give --from and --to\n",
			argv[optind]);
		goto out;
	}
	if (tm_wfile_open(&wf, outp, &e)) {
		fprintf(stderr, "tipme timeline: %s\n", e.msg);
		goto out;
	}
	if (pm_timeline_svg(wf.f, &in, &stats)) {
		tm_wfile_abort(&wf);
		fprintf(stderr, "tipme timeline: out of memory\n");
		goto out;
	}
	len = (size_t)ftello(wf.f);
	if (tm_wfile_commit(&wf, 1, &e)) {
		fprintf(stderr, "tipme timeline: %s\n", e.msg);
		goto out;
	}
	if (json) {
		struct tm_jw w;

		tm_jw_init(&w, stdout, 0);
		tm_jw_obj_begin(&w);
		tm_jw_kstr(&w, "file", outp);
		tm_jw_ku64(&w, "bytes", len);
		tm_jw_ki64(&w, "from_mono_ns", in.from_ns);
		tm_jw_ki64(&w, "to_mono_ns", in.to_ns);
		tm_jw_ku64(&w, "cpu_lanes", stats.cpus);
		tm_jw_key(&w, "thread_lanes");
		tm_jw_arr_begin(&w);
		for (size_t i = 0; i < npids; i++)
			tm_jw_u64(&w, pids[i]);
		tm_jw_arr_end(&w);
		tm_jw_ku64(&w, "stretches", stats.stretches);
		tm_jw_ku64(&w, "wakeups", stats.wakeups);
		tm_jw_ku64(&w, "marks", stats.marks);
		tm_jw_obj_end(&w);
		tm_jw_finish(&w);
		putchar('\n');
	} else {
		printf("%s: %zu CPU lanes, %zu thread lanes, %.3f .. %.3f s\n", outp,
		       stats.cpus, stats.lanes, in.from_ns / 1e9, in.to_ns / 1e9);
	}
	ret = pm_cmd_finish("timeline");
out:
	pm_cmd_interval_close(&inc);
	return ret;
}
