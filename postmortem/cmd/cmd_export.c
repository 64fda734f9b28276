// SPDX-License-Identifier: GPL-2.0
/*
 * tipme export --perfetto: a dump or an incident as one trace file for
 * ui.perfetto.dev and chrome://tracing (print/perfetto.c), written
 * atomically (a temporary file, then a rename over FILE).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../print/perfetto.h"
#include "commands.h"
#include "gzwrite.h"
#include "interval.h"
#include "json.h"
#include "run.h"
#include "writefile.h"

static const char usage_text[] =
	"usage: tipme export --perfetto -o FILE [--pid PID | --comm NAME |\n"
	"                    --window-title TEXT [--from S --to S\n"
	"                    [--lookback S | --whole]]] [--uncompressed]\n"
	"                    [--json] INCIDENT|DUMP\n"
	"  Write the dump (and the incident's X dump) as one Chrome JSON trace\n"
	"  that ui.perfetto.dev and chrome://tracing open: CPU tracks and thread\n"
	"  states from the scheduler records, blocking sites, lock waits, reclaim,\n"
	"  block requests, input, the trigger, the X server's requests per client,\n"
	"  and tipme report's interval and chain of waits (its interval is chosen\n"
	"  as tipme report chooses it; --pid/--from/--to name it).  With --from\n"
	"  and --to the trace holds that interval only (its records, and the\n"
	"  slices that begin in it), read from the checkpoint LOOKBACK seconds\n"
	"  (default 10) before it to LOOKBACK after; --whole reads every record.\n"
	"  FILE is gzip-compressed (both viewers open it as it is; about a sixth\n"
	"  of the JSON), the JSON itself with --uncompressed.  FILE is replaced\n"
	"  atomically.  --json prints what was written.\n"
	PM_CMD_WHO_USAGE
	"EXAMPLES\n"
	"  tipme export --perfetto -o stall.json.gz /var/lib/tipme/incidents/20240501T123456Z-7\n"
	"  then open stall.json.gz at https://ui.perfetto.dev (Open trace file)\n"
	"  tipme export --perfetto --uncompressed -o stall.json INCIDENT; jq .metadata stall.json\n";

/*
 * A slice an interval's trace holds (begun in [@a, @b]) whose end a
 * bounded build may not have read: ended at or after the last time it
 * knows, or a block request it saw no completion of.
 */
static int cut_slices(const struct pm_cmd_interval *inc, int64_t a, int64_t b)
{
	const struct pm_res *r = &inc->res;
	size_t i;

	if (inc->known_to_ns == INT64_MAX)
		return 0;
	for (i = 0; i < r->nlocks; i++)
		if (r->locks[i].start_ns >= a && r->locks[i].start_ns <= b &&
		    r->locks[i].end_ns >= inc->known_to_ns)
			return 1;
	for (i = 0; i < r->nreclaims; i++)
		if (r->reclaims[i].start_ns >= a && r->reclaims[i].start_ns <= b &&
		    r->reclaims[i].end_ns >= inc->known_to_ns)
			return 1;
	for (i = 0; i < r->nblk; i++) {
		int64_t s = r->blk[i].insert_ns ? r->blk[i].insert_ns : r->blk[i].issue_ns;

		if (s >= a && s <= b && !r->blk[i].complete_ns)
			return 1;
	}
	return 0;
}

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fputs(usage_text, f);
}

int pm_cmd_export(int argc, char **argv)
{
	double pid_v = 0, from = -1, to = -1, lookback = -1;
	const char *outp = NULL;
	int perfetto = 0, plain = 0, whole = 0;
	struct pm_cmd_who who = { NULL, NULL };
	const struct pm_cmd_opt opts[] = {
		PM_CMD_WHO_OPTS(who),
		{ "perfetto", 'P', NULL, NULL, &perfetto },
		{ "output", 'o', NULL, &outp, NULL },
		{ "pid", 'p', &pid_v, NULL, NULL },
		{ "from", 'f', &from, NULL, NULL },
		{ "to", 't', &to, NULL, NULL },
		{ "uncompressed", 'U', NULL, NULL, &plain },
		{ "lookback", 'L', &lookback, NULL, NULL },
		{ "whole", 'A', NULL, NULL, &whole },
	};
	struct pm_perfetto_stats stats;
	struct pm_cmd_interval inc;
	struct pm_interval_ask ask = { 0 };
	struct pm_perfetto_in in;
	struct tm_err e = { "" };
	struct tm_wfile wf;
	size_t len = 0;
	int json, ret, err;
	FILE *f;

	ret = pm_cmd_parse("export", usage, argc, argv, opts, 8 + PM_CMD_WHO_NOPTS, &json);
	if (ret >= 0)
		return ret;
	if (!perfetto || !outp || !*outp || optind + 1 != argc ||
	    (pid_v > 0 && pm_cmd_who_given(&who)) || (from >= 0) != (to >= 0) ||
	    (from >= 0 && ((pid_v <= 0 && !pm_cmd_who_given(&who)) || to <= from)) ||
	    ((lookback >= 0 || whole) && from < 0) ||
	    (lookback >= 0 && (whole || lookback > 1e6))) {
		usage(stderr, "export");
		return 2;
	}
	ask.pid = pid_v > 0 ? (uint32_t)pid_v : 0;
	ask.from_ns = from >= 0 ? (int64_t)(from * 1e9) : -1;
	ask.to_ns = (int64_t)(to * 1e9);
	ask.window_ns = 2000000000LL;
	/* an interval's trace: its state from a checkpoint before it */
	ask.bounded = from >= 0 && !whole;
	ask.lookback_ns = lookback >= 0 ? (int64_t)(lookback * 1e9) : PM_CMD_LOOKBACK_NS;
	ret = 1;
	if (pm_cmd_interval_open("export", argv[optind], &ask, &who, &inc))
		goto out;
	/* a slice begun in the interval outlasts what was read: every record, as --whole */
	if (ask.bounded && cut_slices(&inc, ask.from_ns, ask.to_ns)) {
		pm_cmd_interval_close(&inc);
		ask.bounded = 0;
		if (pm_cmd_interval_open("export", argv[optind], &ask, &who, &inc))
			goto out;
	}
	in = (struct pm_perfetto_in){ .inc = &inc.in, .st = &inc.st, .res = &inc.res,
				      .verdict = inc.found ? &inc.r : NULL,
				      .range = from >= 0, .from_ns = ask.from_ns,
				      .to_ns = ask.to_ns };
	/* a new file next to FILE, then a rename that replaces FILE at once */
	if (tm_wfile_open(&wf, outp, &e)) {
		fprintf(stderr, "tipme export: %s\n", e.msg);
		goto out;
	}
	/* compressed on a thread of its own while the trace is written */
	f = plain ? wf.f : tm_gz_open(wf.f, 1);
	if (!f) {
		tm_wfile_abort(&wf);
		fprintf(stderr, "tipme export: %s\n", strerror(errno));
		goto out;
	}
	err = pm_perfetto_write(f, &in, &stats, &e);
	if (!plain && fclose(f) && !err)
		err = tm_err_set(&e, errno, "writing the compressed trace: %s", strerror(errno));
	if (err) {
		tm_wfile_abort(&wf);
		fprintf(stderr, "tipme export: %s: %s\n", argv[optind], e.msg);
		goto out;
	}
	len = (size_t)ftello(wf.f);
	if (tm_wfile_commit(&wf, 1, &e)) {
		fprintf(stderr, "tipme export: %s\n", e.msg);
		goto out;
	}
	if (json) {
		struct tm_jw w;

		tm_jw_init(&w, stdout, 0);
		tm_jw_obj_begin(&w);
		tm_jw_kstr(&w, "file", outp);
		tm_jw_ku64(&w, "bytes", len);
		tm_jw_kbool(&w, "compressed", !plain);
		tm_jw_ku64(&w, "ftrace_lines", stats.ftrace_lines);
		tm_jw_ku64(&w, "trace_events", stats.events);
		tm_jw_kbool(&w, "verdict", inc.found);
		tm_jw_kbool(&w, "x_dump", inc.in.have_x);
		tm_jw_obj_end(&w);
		tm_jw_finish(&w);
		putchar('\n');
	} else {
		printf("%s: %zu bytes%s, %llu scheduler lines, %llu trace events%s%s\n"
		       "open it at https://ui.perfetto.dev (Open trace file) or chrome://tracing\n",
		       outp, len, plain ? "" : " (gzip)", (unsigned long long)stats.ftrace_lines,
		       (unsigned long long)stats.events,
		       inc.found ? ", the verdict's interval" : "",
		       inc.in.have_x ? ", the X server's requests" : "");
	}
	ret = pm_cmd_finish("export");
out:
	pm_cmd_interval_close(&inc);
	return ret;
}
