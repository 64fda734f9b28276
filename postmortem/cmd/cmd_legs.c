// SPDX-License-Identifier: GPL-2.0
/*
 * tipme legs: the time between two kinds of event, per owner, with a
 * histogram (analysis/legs.c, print/legs.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../print/legs.h"
#include "commands.h"
#include "interval.h"
#include "run.h"
#include "writefile.h"
#include "xdumpfile.h"

static const char usage_text[] =
	"usage: tipme legs --from EVENT --to EVENT [--by pid|client|comm|all]\n"
	"                  [--hist lin:MS|log2] [--top N] [--from-s S --to-s S\n"
	"                  [--whole]] [--svg FILE] [--json] INCIDENT|DUMP\n"
	"  The time from each EVENT of one kind to the next of the other for the\n"
	"  same thread (or block request, or the whole machine): count, total,\n"
	"  mean, p50, p99 and max per owner, and a histogram with an overflow\n"
	"  bucket (lin:MS: 20 buckets of MS ms; log2: powers of two from 1 ns).\n"
	"  EVENT: waking, switch-in, switch-out, sleep, blk-insert, blk-issue,\n"
	"  blk-complete, lock-begin, lock-end, reclaim-begin, reclaim-end, input,\n"
	"  x-press, x-idle (the last two from the incident's X dump; an X press\n"
	"  belongs to the client it was delivered to: --by client).\n"
	"  --from-s/--to-s: the legs that begin in that interval only; for the\n"
	"  scheduler's events, input and x-press, read from the checkpoints around\n"
	"  it (DUMP.ckpt, as tipme report's) and its records only; --whole reads\n"
	"  every record (the same legs).\n"
	"EXAMPLES\n"
	"  tipme legs --from waking --to switch-in INCIDENT     # scheduling delay\n"
	"  tipme legs --from blk-issue --to blk-complete --hist log2 INCIDENT\n"
	"  tipme legs --from x-press --to x-idle --by all INCIDENT\n";

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fputs(usage_text, f);
}

int pm_cmd_legs(int argc, char **argv)
{
	const char *from_s = NULL, *to_s = NULL, *by_s = "pid", *hist_s = "lin:1",
		   *svg = NULL;
	double top_v = 20, t0 = -1, t1 = -1;
	int whole = 0;
	const struct pm_cmd_opt opts[] = {
		{ "from", 'f', NULL, &from_s, NULL },
		{ "to", 't', NULL, &to_s, NULL },
		{ "by", 'b', NULL, &by_s, NULL },
		{ "hist", 'H', NULL, &hist_s, NULL },
		{ "top", 'n', &top_v, NULL, NULL },
		{ "from-s", 'F', &t0, NULL, NULL },
		{ "to-s", 'T', &t1, NULL, NULL },
		{ "svg", 's', NULL, &svg, NULL },
		{ "whole", 'A', NULL, NULL, &whole },
	};
	struct pm_legs_view v = { .buckets = 20 };
	struct pm_state st = { 0 };
	struct pm_res res = { 0 };
	struct tm_err e = { "" };
	struct pm_legs l = { 0 };
	struct pm_ckpts *ck = NULL;
	struct pm_incident inc;
	int json, ret, err;

	ret = pm_cmd_parse("legs", usage, argc, argv, opts, 9, &json);
	if (ret >= 0)
		return ret;
	v.from = from_s ? pm_leg_event_parse(from_s) : -1;
	v.to = to_s ? pm_leg_event_parse(to_s) : -1;
	v.by = !strcmp(by_s, "pid") || !strcmp(by_s, "client") ? PM_LEGS_BY_PID :
	       !strcmp(by_s, "comm") ?
	       PM_LEGS_BY_COMM : !strcmp(by_s, "all") ? PM_LEGS_BY_ALL : -1;
	v.top = (size_t)top_v;
	if (!strcmp(hist_s, "log2")) {
		v.log2 = 1;
		v.buckets = 40;
	} else if (!strncmp(hist_s, "lin:", 4) && atof(hist_s + 4) > 0) {
		v.width_ns = (uint64_t)(atof(hist_s + 4) * 1e6);
	} else {
		v.by = -1;
	}
	if (v.from < 0 || v.to < 0 || v.from == v.to || v.by < 0 || (!v.log2 && !v.width_ns) ||
	    optind + 1 != argc || (t0 >= 0) != (t1 >= 0) || (t0 >= 0 && t1 < t0) || !v.top ||
	    (whole && t0 < 0)) {
		usage(stderr, "legs");
		return 2;
	}
	if (pm_cmd_open("legs", argv[optind], 0, &inc))
		return 1;
	ret = 1;
	if ((v.from >= PM_LEG_X_PRESS || v.to >= PM_LEG_X_PRESS) && !inc.have_x) {
		fprintf(stderr, "tipme legs: x-press and x-idle need an incident with tipme-xhook's dump\n");
		goto out;
	}
	if (t0 >= 0 && !whole && pm_legs_bounded(v.from, v.to)) {
		/* an interval's legs: its records, and what the checkpoints around it know */
		err = pm_cmd_ckpts(&inc, &ck, &e);
		if (!err)
			err = pm_legs_find_ckpt(&inc, ck, v.from, v.to, (int64_t)(t0 * 1e9),
						(int64_t)(t1 * 1e9), &l, &e);
		if (!err)	/* all the printer reads of the state (a name's time) */
			st.last_ns = pm_ckpts_whole(ck)->last_ns;
	} else {
		err = pm_state_res_build(&st, &res, &inc, &e);
		if (!err)
			err = pm_legs_find(&inc, &st, &res, v.from, v.to,
					   t0 >= 0 ? (int64_t)(t0 * 1e9) : INT64_MIN,
					   t1 >= 0 ? (int64_t)(t1 * 1e9) : INT64_MAX, &l, &e);
	}
	if (err) {
		fprintf(stderr, "tipme legs: %s: %s\n", argv[optind], e.msg);
		goto out;
	}
	if (svg) {
		struct tm_wfile wf;

		if (tm_wfile_open(&wf, svg, &e)) {
			fprintf(stderr, "tipme legs: %s\n", e.msg);
			goto out;
		}
		if (pm_legs_svg(wf.f, &l, &v, argv[optind])) {
			tm_wfile_abort(&wf);
			fprintf(stderr, "tipme legs: out of memory\n");
			goto out;
		}
		if (tm_wfile_commit(&wf, 1, &e)) {
			fprintf(stderr, "tipme legs: %s\n", e.msg);
			goto out;
		}
	}
	if (pm_legs_print(stdout, &inc, &st, &l, &v, json)) {
		fprintf(stderr, "tipme legs: out of memory\n");
		goto out;
	}
	ret = pm_cmd_finish("legs");
out:
	pm_ckpts_free(ck);
	pm_legs_free(&l);
	pm_res_free(&res);
	pm_state_free(&st);
	pm_incident_close(&inc);
	return ret;
}
