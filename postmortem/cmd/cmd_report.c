// SPDX-License-Identifier: GPL-2.0
/*
 * tipme report: choose the interval that matters (--pid or --comm, the
 * slowest press of the incident, or the stall most likely felt:
 * analysis/rank.c), run the verdict on it (analysis/verdict.c) and on
 * the other candidates, and print them (print/verdict.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/xprof.h"
#include "../print/verdict.h"
#include "commands.h"
#include "interval.h"
#include "run.h"

static const char usage_text[] =
	"usage: tipme report [--pid PID | --comm NAME | --window-title TEXT\n"
	"                    [--from S --to S [--margin S] | --window MS]]\n"
	"                    [--lookback S | --whole] [--x] [--json] INCIDENT|DUMP\n"
	"  One verdict for a slow moment: which thread waited, for what (the CPU,\n"
	"  block I/O, a lock, memory, a timer, a stopped task, the X server busy\n"
	"  for another client) and who to blame, with every millisecond of the\n"
	"  interval charged to one cause.\n"
	"  The interval: --pid's [--from, --to] (CLOCK_MONOTONIC seconds), or the\n"
	"  WINDOW ms (2000) before the trigger; without --pid, the slowest input\n"
	"  (key or button press, pointer motion) of the incident from the device\n"
	"  event to the screen: the client done with it and the X server done\n"
	"  drawing for it (it needs tipme-xhook's dump); else the slowest input\n"
	"  the kernel saw in the window (to its reader going back to sleep); else\n"
	"  the stall most likely felt in the 10 s (or the WINDOW given) before the\n"
	"  trigger, with the next two candidates and why each ranks there.\n"
	"  The state is built from a checkpoint: one pass over the dump keeps\n"
	"  each thread's state at checkpoints spread over it (kept in DUMP.ckpt\n"
	"  beside the dump for the next command: $TIPME_CKPT_FILE=0 neither\n"
	"  reads nor writes it), and only the records from the last one at least\n"
	"  LOOKBACK seconds (10) before the interval (or the window searched) to\n"
	"  the first one LOOKBACK after --to (or the dump's end) are read.  A\n"
	"  thread's stretch open there is the whole dump's,\n"
	"  however old; a lock, block request or wakeup begun before is not\n"
	"  seen, nor a stretch that ended before.  --whole builds from\n"
	"  every record instead (as does an incident with an X dump and no --pid:\n"
	"  its slowest press may be anywhere).\n"
	"  --margin S (with --pid, --from and --to) reads only the records from S\n"
	"  seconds before --from to S after --to, not the whole dump (as for\n"
	"  tipme why --margin): the same verdict when the history it reads lies\n"
	"  within the margin.\n"
	"  The incident's description (tipme note) is shown, and a process it\n"
	"  names ranks first among the stalls.\n"
	PM_CMD_WHO_USAGE
	"  --x adds the X server's tables for the interval (Xprof's question, from\n"
	"  the incident's X dump): per client its requests, bytes, the server time\n"
	"  they took and its share of the server's running time, and its round\n"
	"  trips; per request type the same.\n"
	"  A blocked step's user-space frames are named from the file each\n"
	"  mapping's build-id names: the mapped file, its debug info under\n"
	"  $TIPME_DEBUG_DIRS' .build-id trees (default /usr/lib/debug), or a\n"
	"  debuginfod server when $DEBUGINFOD_URLS is set.\n"
	"  With the on-CPU profiler's samples (profile_hz), each thread the chain\n"
	"  found computing gets its hot functions: samples per function, with the\n"
	"  callers most of them had.\n"
	"EXAMPLES\n"
	"  tipme report /var/lib/tipme/incidents/20240501T123456Z-7\n"
	"  tipme report --pid 4242 --from 1203.5 --to 1204.3 kernel.dump\n"
	"  tipme report --comm firefox INCIDENT\n"
	"  tipme report --json INCIDENT | jq .verdict\n"
	"  tipme report --x INCIDENT\n";

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fputs(usage_text, f);
}

int pm_cmd_report(int argc, char **argv)
{
	double from = -1, to = -1, window_ms = -1, pid_v = -1, margin = -1,
	       lookback = -1;
	int xtables = 0, whole = 0;
	struct pm_cmd_who who = { NULL, NULL };
	const struct pm_cmd_opt opts[] = {
		PM_CMD_WHO_OPTS(who),
		{ "pid", 'p', &pid_v, NULL, NULL },
		{ "from", 'f', &from, NULL, NULL },
		{ "to", 't', &to, NULL, NULL },
		{ "window", 'w', &window_ms, NULL, NULL },
		{ "x", 'x', NULL, NULL, &xtables },
		{ "margin", 'M', &margin, NULL, NULL },
		{ "whole", 'A', NULL, NULL, &whole },
		{ "lookback", 'L', &lookback, NULL, NULL },
	};
	struct pm_verdict_extra ex = { 0 };
	struct pm_xprof xp = { 0 };
	size_t i;
	struct pm_cmd_interval inc;
	struct pm_interval_ask ask = { 0 };
	int have_xp = 0, json, ret;
	long pid;

	ret = pm_cmd_parse("report", usage, argc, argv, opts, 8 + PM_CMD_WHO_NOPTS, &json);
	if (ret >= 0)
		return ret;
	pid = (long)pid_v;
	if (pm_cmd_who_given(&who) && pid >= 0) {
		fprintf(stderr, "tipme report: --pid, --comm and --window-title name the same thing: give one\n");
		return 2;
	}
	if (pm_cmd_who_given(&who))
		pid = 1;	/* named: stands for the pid until it is resolved */
	/* without a pid, a --window given bounds the search for stalls */
	if (window_ms >= 0)
		ask.search_ns = (int64_t)(window_ms * 1e6);
	else
		window_ms = 2000;
	if (optind + 1 != argc || (from >= 0) != (to >= 0) ||
	    (from >= 0 && (pid <= 0 || to <= from)) || window_ms <= 0 || !pid ||
	    (margin >= 0 && (from < 0 || margin <= 0)) ||
	    (lookback >= 0 && (whole || margin >= 0 || lookback > 1e6))) {
		usage(stderr, "report");
		return 2;
	}
	ask.pid = pid > 0 && !pm_cmd_who_given(&who) ? (uint32_t)pid : 0;
	ask.from_ns = from >= 0 ? (int64_t)(from * 1e9) : -1;
	ask.to_ns = (int64_t)(to * 1e9);
	ask.window_ns = (int64_t)(window_ms * 1e6);
	ask.margin_ns = margin > 0 ? (int64_t)(margin * 1e9) : 0;
	ask.bounded = !whole;
	ask.lookback_ns = lookback >= 0 ? (int64_t)(lookback * 1e9) : PM_CMD_LOOKBACK_NS;
	ret = 1;
	if (pm_cmd_interval_open("report", argv[optind], &ask, &who, &inc))
		goto out;
	if (xtables && !inc.in.have_x) {
		fprintf(stderr, "tipme report: --x needs an incident with tipme-xhook's dump: %s\n",
			argv[optind]);
		goto out;
	}
	if (!inc.found) {
		fprintf(stderr, "tipme report: %s: no stall in the %.0f ms before the %s; name a thread with --pid\n",
			argv[optind], (inc.iv.rank.to_ns - inc.iv.rank.from_ns) / 1e6,
			inc.st.trigger_ns ? "trigger" : "end of the dump");
		goto out;
	}
	if (xtables) {
		if (pm_xprof_analyse(&inc.in.x, &inc.st, inc.r.from_ns,
				      inc.r.to_ns, &xp)) {
			fprintf(stderr, "tipme report: out of memory\n");
			goto out;
		}
		have_xp = 1;
	}
	ex.desc = inc.in.desc;
	if (inc.iv.rank.n) {
		ex.rank = &inc.iv.rank;
		ex.cand[0] = &inc.r;
		for (i = 1; i < inc.iv.rank.n; i++)
			ex.cand[i] = &inc.cand[i];
	}
	pm_verdict_print(stdout, &inc.in, &inc.st, &inc.r, argv[optind],
			 have_xp ? &xp : NULL, &ex, json);
	ret = pm_cmd_finish("report");
out:
	pm_xprof_free(&xp);
	pm_cmd_interval_close(&inc);
	return ret;
}
