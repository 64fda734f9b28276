// SPDX-License-Identifier: GPL-2.0
/* tipme cost: the recorder's own cost inside an interval. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../print/cost.h"
#include "commands.h"
#include "run.h"

static void cost_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: tipme %s [--from S] [--to S] [--json] DUMP\n"
		"The recorder's own cost inside an interval (default: the whole dump):\n"
		"elapsed, elapsed less recorder, recorder total, records, average per\n"
		"record and percent, and the same per record type.  S is CLOCK_MONOTONIC\n"
		"seconds as tipme records prints them.  DUMP is a dump file or an\n"
		"incident directory (its kernel.dump).\n"
		"\n"
		"  -f, --from S   start of the interval\n"
		"  -t, --to S     end of the interval\n"
		"  -j, --json     one JSON object\n"
		"  -h, --help     show this help\n"
		"\n"
		"EXAMPLES\n"
		"  tipme %s dump.tipme\n"
		"  tipme %s --from 1234.5 --to 1235.0 dump.tipme\n",
		prog, prog, prog);
}

int pm_cmd_cost(int argc, char **argv)
{
	double from_s = -1, to_s = -1;
	const struct pm_cmd_opt opts[] = {
		{ "from", 'f', &from_s, NULL, NULL },
		{ "to", 't', &to_s, NULL, NULL },
	};
	int64_t from = INT64_MIN, to = INT64_MAX;
	const char *prog = argv[0];
	struct tm_err e = { "" };
	struct pm_incident inc;
	struct pm_cost c;
	int json, err;

	err = pm_cmd_parse_dump(prog, cost_usage, argc, argv, opts, 2, &json);
	if (err >= 0)
		return err;
	if (from_s >= 0)
		from = (int64_t)(from_s * 1e9 + 0.5);
	if (to_s >= 0)
		to = (int64_t)(to_s * 1e9 + 0.5);
	if (pm_cmd_open(prog, argv[optind], PM_INC_NO_X, &inc))
		return 1;
	if (pm_cost_compute(&inc.pm, from, to, &c, &e)) {
		fprintf(stderr, "tipme %s: %s: %s\n", prog, argv[optind], e.msg);
		pm_incident_close(&inc);
		return 1;
	}
	if (json) {
		struct tm_jw w;

		tm_jw_init(&w, stdout, 0);
		tm_jw_obj_begin(&w);
		pm_cost_json(&w, &inc.pm, &c);
		tm_jw_obj_end(&w);
		fputc('\n', stdout);
	} else {
		pm_cost_print(stdout, &inc.pm, &c, 0);
	}
	pm_incident_close(&inc);
	return pm_cmd_finish(prog);
}
