// SPDX-License-Identifier: GPL-2.0
/* tipme why: where a thread's time went in an interval (analysis/why.h). */
#include <stdio.h>
#include <stdlib.h>

#include "../print/why.h"
#include "commands.h"
#include "interval.h"
#include "run.h"

static const char usage_text[] =
	"usage: tipme why --pid PID | --comm NAME | --window-title TEXT [--window MS]\n"
	"                 [--from S --to S [--margin S]] [--min-ms MS] [--depth N]\n"
	"                 [--lookback S | --whole] [--json] DUMP\n"
	"  Where PID's time went in an interval: running, waiting for a CPU (and\n"
	"  who held it), blocked (where, and who woke it, analysed in turn).\n"
	"  Default interval: the WINDOW ms (2000) before the dump's trigger, or\n"
	"  before its end if it has none.  Times are CLOCK_MONOTONIC seconds.\n"
	"  DUMP is a dump file or an incident directory (its kernel.dump).\n"
	"  With the on-CPU profiler's samples (profile_hz), each thread's hot\n"
	"  functions while it ran.\n"
	"  The state is built from a checkpoint: one pass over the dump keeps\n"
	"  each thread's state at checkpoints spread over it (kept in DUMP.ckpt\n"
	"  beside the dump for the next command: $TIPME_CKPT_FILE=0 neither\n"
	"  reads nor writes it), and only the records from the last one at least\n"
	"  LOOKBACK seconds (10) before the interval to the first one LOOKBACK\n"
	"  after it (or the dump's end) are read: a thread's stretch open there\n"
	"  is the whole dump's, however old; a stretch that ended before is not\n"
	"  seen.  --whole builds from every record instead.\n"
	"  --margin S reads only the records from S seconds before --from to S\n"
	"  after --to (the sub-buffers' headers say where they are), not the whole\n"
	"  dump: its cost is the interval's.  The answer is the whole dump's when\n"
	"  every thread it walks switched within the margin before --from and\n"
	"  its sleep open at --to ended within the margin after; else a stretch\n"
	"  begins where the records read begin, and the dump's gaps outside them\n"
	"  are not counted.\n"
	PM_CMD_WHO_USAGE
	"EXAMPLES\n"
	"  tipme why --pid 4242 /var/lib/tipme/incidents/20240501T123456Z-7\n"
	"  tipme why --pid 4242 --from 1203.5 --to 1204.3 --depth 2 kernel.dump\n"
	"  tipme why --comm Xorg INCIDENT\n";

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fputs(usage_text, f);
}

/*
 * The state from a checkpoint @back ns before the interval:
 * [@from, @to] given (seconds, or -1), else the window before the
 * dump's trigger or end, which the checkpoint pass finds.
 */
static int bounded(struct pm_state *st, const struct pm_incident *inc, double from,
		   double to, double window_ms, int64_t back, struct tm_err *e)
{
	int64_t need = INT64_MIN, end = INT64_MAX;
	struct pm_ckpts *ck;
	int err;

	if (from >= 0) {
		need = (int64_t)(from * 1e9) - back;
		end = (int64_t)(to * 1e9) + back;
	}
	err = pm_cmd_ckpts(inc, &ck, e);
	if (err)
		return err;
	if (from < 0)
		need = pm_ckpts_end(ck) - (int64_t)(window_ms * 1e6) - back;
	err = pm_state_build_ckpt(st, inc, ck, need, end, e);
	pm_ckpts_free(ck);
	return err;
}

int pm_cmd_why(int argc, char **argv)
{
	double pid_v = 0, window_ms = 2000, from = -1, to = -1, min_ms = 10,
	       depth_v = 1, margin = -1, lookback = -1;
	struct pm_cmd_who who = { NULL, NULL };
	int whole = 0;
	const struct pm_cmd_opt opts[] = {
		PM_CMD_WHO_OPTS(who),
		{ "pid", 'p', &pid_v, NULL, NULL },
		{ "window", 'w', &window_ms, NULL, NULL },
		{ "from", 'f', &from, NULL, NULL },
		{ "to", 't', &to, NULL, NULL },
		{ "min-ms", 'm', &min_ms, NULL, NULL },
		{ "depth", 'd', &depth_v, NULL, NULL },
		{ "margin", 'M', &margin, NULL, NULL },
		{ "whole", 'A', NULL, NULL, &whole },
		{ "lookback", 'L', &lookback, NULL, NULL },
	};
	int64_t min_ns;
	int depth, json, err;
	struct pm_why *why;
	struct tm_jw w;
	struct tm_err e = { "" };
	struct pm_incident inc;
	struct pm_state st;
	long pid;
	int64_t t0, t1, end;

	err = pm_cmd_parse("why", usage, argc, argv, opts, 9 + PM_CMD_WHO_NOPTS, &json);
	if (err >= 0)
		return err;
	pid = (long)pid_v;
	min_ns = (int64_t)(min_ms * 1e6);
	depth = (int)depth_v;
	if ((pid <= 0) == !pm_cmd_who_given(&who) || optind + 1 != argc ||
	    (from >= 0) != (to >= 0) ||
	    (from >= 0 && to <= from) || window_ms <= 0 || (margin >= 0 && from < 0) ||
	    (lookback >= 0 && (whole || margin >= 0 || lookback > 1e6))) {
		usage(stderr, "why");
		return 2;
	}
	if (pm_cmd_open("why", argv[optind], who.title ? 0 : PM_INC_NO_X, &inc))
		return 1;
	if (pm_cmd_who_given(&who)) {
		uint32_t named;

		if (pm_cmd_who("why", &inc, &who, &named)) {
			pm_incident_close(&inc);
			return 1;
		}
		pid = named;
	}
	if (margin >= 0)
		err = pm_state_build_range(&st, &inc, (int64_t)((from - margin) * 1e9),
					   (int64_t)((to + margin) * 1e9), &e);
	else if (whole)
		err = pm_state_build(&st, &inc, &e);
	else
		err = bounded(&st, &inc, from, to, window_ms,
			      lookback >= 0 ? (int64_t)(lookback * 1e9) : PM_CMD_LOOKBACK_NS, &e);
	if (err) {
		fprintf(stderr, "tipme why: %s: %s\n", argv[optind], e.msg);
		pm_incident_close(&inc);
		return 1;
	}
	if (from >= 0) {
		t0 = (int64_t)(from * 1e9);
		t1 = (int64_t)(to * 1e9);
	} else {
		end = st.trigger_ns ? st.trigger_ns : st.last_ns;
		t1 = end;
		t0 = end - (int64_t)(window_ms * 1e6);
		if (t0 < st.first_ns)
			t0 = st.first_ns;
	}
	if (pm_why_analyse(&inc, &st, (uint32_t)pid, t0, t1, min_ns, depth, &why)) {
		fprintf(stderr, "tipme why: out of memory\n");
		pm_state_free(&st);
		pm_incident_close(&inc);
		return 1;
	}
	if (json) {
		tm_jw_init(&w, stdout, 0);
		pm_why_json(&w, &inc, &st, why, from < 0 && st.trigger_ns);
		tm_jw_finish(&w);
	} else {
		pm_why_print(stdout, &inc, &st, why, from < 0 && st.trigger_ns);
	}
	pm_why_free(why);
	pm_state_free(&st);
	pm_incident_close(&inc);
	return pm_cmd_finish("why");
}
