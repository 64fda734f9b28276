// SPDX-License-Identifier: GPL-2.0
/* tipme why: where a thread's time went in an interval (analysis/why.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "../report/why.h"
#include "commands.h"
#include "run.h"

static const char usage_text[] =
	"usage: tipme why --pid PID [--window MS] [--from S --to S] [--min-ms MS]\n"
	"                 [--depth N] [--json] DUMP\n"
	"  Where PID's time went in an interval: running, waiting for a CPU (and\n"
	"  who held it), blocked (where, and who woke it, analysed in turn).\n"
	"  Default interval: the WINDOW ms (2000) before the dump's trigger, or\n"
	"  before its end if it has none.  Times are CLOCK_MONOTONIC seconds.\n"
	"  DUMP is a dump file or an incident directory (its kernel.dump).\n"
	"EXAMPLES\n"
	"  tipme why --pid 4242 /var/lib/tipme/incidents/20240501T123456Z-7\n"
	"  tipme why --pid 4242 --from 1203.5 --to 1204.3 --depth 2 kernel.dump\n";

int pm_cmd_why(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "window", required_argument, NULL, 'w' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "min-ms", required_argument, NULL, 'm' },
		{ "depth", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int64_t min_ns = 10000000;
	int depth = 1, json = 0;
	struct pm_why *why;
	struct jw w;
	double window_ms = 2000, from = -1, to = -1, v;
	struct tm_err e = { "" };
	struct pm_dump pm;
	struct pm_state st;
	long pid = -1;
	int64_t t0, t1, end;
	char *endp;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:w:f:t:m:d:jh", opts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage_text, stdout);
			return 0;
		}
		if (opt == 'j') {
			json = 1;
			continue;
		}
		if (opt == '?' || !optarg)
			goto usage;
		v = strtod(optarg, &endp);
		if (*endp || v < 0)
			goto bad;
		switch (opt) {
		case 'p':
			pid = (long)v;
			break;
		case 'w':
			window_ms = v;
			break;
		case 'f':
			from = v;
			break;
		case 't':
			to = v;
			break;
		case 'm':
			min_ns = (int64_t)(v * 1e6);
			break;
		case 'd':
			depth = (int)v;
			break;
		}
	}
	if (pid <= 0 || optind + 1 != argc || (from >= 0) != (to >= 0) ||
	    (from >= 0 && to <= from) || window_ms <= 0)
		goto usage;
	if (pm_cmd_open("why", argv[optind], &pm))
		return 1;
	if (pm_state_build(&st, &pm, &e)) {
		fprintf(stderr, "tipme why: %s: %s\n", argv[optind], e.msg);
		pm_close(&pm);
		return 1;
	}
	if (from >= 0) {
		t0 = (int64_t)(from * 1e9);
		t1 = (int64_t)(to * 1e9);
	} else {
		end = pm_clock_mono(&pm.clock, st.trigger_ts ? st.trigger_ts : st.last_ts);
		t1 = end;
		t0 = end - (int64_t)(window_ms * 1e6);
		if (t0 < pm_clock_mono(&pm.clock, st.first_ts))
			t0 = pm_clock_mono(&pm.clock, st.first_ts);
	}
	if (pm_why_analyse(&pm, &st, (uint32_t)pid, t0, t1, min_ns, depth, &why)) {
		fprintf(stderr, "tipme why: out of memory\n");
		pm_state_free(&st);
		pm_close(&pm);
		return 1;
	}
	if (json) {
		jw_init(&w, stdout, 0);
		pm_why_json(&w, &pm, &st, why, from < 0 && st.trigger_ts);
		jw_finish(&w);
	} else {
		pm_why_print(stdout, &pm, &st, why, from < 0 && st.trigger_ts);
	}
	pm_why_free(why);
	pm_state_free(&st);
	pm_close(&pm);
	return pm_cmd_finish("why");
bad:
	fprintf(stderr, "tipme why: invalid value '%s'\n", optarg);
usage:
	fputs(usage_text, stderr);
	return 2;
}
