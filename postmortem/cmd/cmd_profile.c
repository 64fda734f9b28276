// SPDX-License-Identifier: GPL-2.0
/*
 * tipme profile: where threads' time went by call chain, on the CPU (the
 * profiler's samples) or off it (--off-cpu: the blocked stretches, by the
 * time slept); analysis/profile.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../print/profile.h"
#include "commands.h"
#include "run.h"

static const char usage_text[] =
	"usage: tipme profile [--pid PID | --comm NAME] [--from S --to S] [--off-cpu]\n"
	"                     [--top N] [--json | --folded | --svg] DUMP\n"
	"  Where threads' time went by call chain: per thread, its frames by self\n"
	"  time (the innermost frame) and total time (anywhere on the stack).\n"
	"  On the CPU, from the on-CPU profiler's samples (tipme.ko's profile_hz\n"
	"  above 0 while recording); with --off-cpu, from the blocked stretches,\n"
	"  each chain weighed by the time slept.  Frames are named by function\n"
	"  (user frames by their file's build-id; file+offset where no symbol\n"
	"  covers them).  PID is a thread, or a process (all its threads).\n"
	"  Times are CLOCK_MONOTONIC seconds (default: the whole dump).  DUMP is\n"
	"  a dump file or an incident directory.\n"
	"\n"
	"  -p, --pid PID     a thread or process\n"
	"  -f, --from S      start of the interval\n"
	"  -t, --to S        end of the interval\n"
	"  -o, --off-cpu     off-CPU time instead of on-CPU samples\n"
	"  -n, --top N       frames shown per thread (default 20; 0: all)\n"
	"  -j, --json        one JSON object (Documentation/profile.md)\n"
	"  -F, --folded      folded stacks, \"thread;root;...;leaf COUNT\" per line\n"
	"                    (samples; off-CPU: microseconds), for flamegraph.pl,\n"
	"                    inferno or speedscope\n"
	"  -s, --svg         a flame graph as SVG\n"
	PM_CMD_WHO_USAGE
	"EXAMPLES\n"
	"  tipme profile --comm burn INCIDENT\n"
	"  tipme profile --pid 4242 --folded kernel.dump > out.folded\n"
	"  tipme profile --off-cpu --from 1203.5 --to 1204.3 --svg INCIDENT > off.svg\n";

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fputs(usage_text, f);
}

int pm_cmd_profile(int argc, char **argv)
{
	double pid_v = 0, from = -1, to = -1, top = 20;
	int off = 0, folded = 0, svg = 0, json, err;
	struct pm_cmd_who who = { NULL, NULL };
	const struct pm_cmd_opt opts[] = {
		PM_CMD_WHO_OPTS(who),
		{ "pid", 'p', &pid_v, NULL, NULL },
		{ "from", 'f', &from, NULL, NULL },
		{ "to", 't', &to, NULL, NULL },
		{ "top", 'n', &top, NULL, NULL },
		{ "off-cpu", 'o', NULL, NULL, &off },
		{ "folded", 'F', NULL, NULL, &folded },
		{ "svg", 's', NULL, NULL, &svg },
	};
	struct pm_prof_filter flt = { 0, INT64_MIN, INT64_MAX, 0 };
	struct tm_err e = { "" };
	struct pm_incident inc;
	struct pm_state st;
	struct pm_prof p;
	struct tm_jw w;
	char title[96];

	err = pm_cmd_parse("profile", usage, argc, argv, opts, 7 + PM_CMD_WHO_NOPTS, &json);
	if (err >= 0)
		return err;
	if ((pid_v > 0 && pm_cmd_who_given(&who)) || optind + 1 != argc ||
	    (from >= 0 && to >= 0 && to <= from) || json + folded + svg > 1 ||
	    pid_v > UINT32_MAX) {
		usage(stderr, "profile");
		return 2;
	}
	flt.pid = (uint32_t)pid_v;
	flt.off_cpu = off;
	if (from >= 0)
		flt.from_ns = (int64_t)(from * 1e9 + 0.5);
	if (to >= 0)
		flt.to_ns = (int64_t)(to * 1e9 + 0.5);
	if (pm_cmd_open("profile", argv[optind], who.title ? 0 : PM_INC_NO_X, &inc))
		return 1;
	if (pm_cmd_who_given(&who) && pm_cmd_who("profile", &inc, &who, &flt.pid)) {
		pm_incident_close(&inc);
		return 1;
	}
	if (off && pm_state_build(&st, &inc, &e)) {
		fprintf(stderr, "tipme profile: %s: %s\n", argv[optind], e.msg);
		pm_incident_close(&inc);
		return 1;
	}
	err = pm_prof_compute(&inc, off ? &st : NULL, &flt, &p, &e);
	if (off)
		pm_state_free(&st);
	if (err) {
		fprintf(stderr, "tipme profile: %s: %s\n", argv[optind], e.msg);
		pm_prof_free(&p);
		pm_incident_close(&inc);
		return 1;
	}
	if (json) {
		tm_jw_init(&w, stdout, 0);
		tm_jw_obj_begin(&w);
		pm_prof_json(&w, &p, (size_t)top);
		tm_jw_obj_end(&w);
		tm_jw_finish(&w);
	} else if (folded) {
		pm_prof_folded(stdout, &p);
	} else if (svg) {
		if (flt.pid)
			snprintf(title, sizeof(title), "tipme profile: %s of %u",
				 off ? "off-CPU" : "on-CPU", flt.pid);
		else
			snprintf(title, sizeof(title), "tipme profile: %s",
				 off ? "off-CPU" : "on-CPU");
		pm_prof_svg(stdout, &p, title);
	} else {
		pm_prof_print(stdout, &p, (size_t)top);
	}
	pm_prof_free(&p);
	pm_incident_close(&inc);
	return pm_cmd_finish("profile");
}
