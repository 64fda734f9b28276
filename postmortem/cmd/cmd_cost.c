// SPDX-License-Identifier: GPL-2.0
/* tipme cost: the recorder's own cost inside an interval. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../report/cost.h"
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

static int parse_sec(const char *s, int64_t *ns)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end)
		return -1;
	*ns = (int64_t)(v * 1e9 + (v < 0 ? -0.5 : 0.5));
	return 0;
}

int pm_cmd_cost(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int64_t from = INT64_MIN, to = INT64_MAX;
	const char *prog = argv[0];
	struct tm_err e = { "" };
	struct pm_dump pm;
	struct pm_cost c;
	int json = 0, ch;

	optind = 0;
	while ((ch = getopt_long(argc, argv, "f:t:jh", opts, NULL)) != -1) {
		switch (ch) {
		case 'f':
		case 't':
			if (parse_sec(optarg, ch == 'f' ? &from : &to)) {
				fprintf(stderr, "tipme %s: invalid time '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			cost_usage(stdout, prog);
			return 0;
		default:
			cost_usage(stderr, prog);
			return 2;
		}
	}
	if (argc - optind != 1) {
		cost_usage(stderr, prog);
		return 2;
	}
	if (pm_cmd_open(prog, argv[optind], &pm))
		return 1;
	if (pm_cost_compute(&pm, from, to, &c, &e)) {
		fprintf(stderr, "tipme %s: %s: %s\n", prog, argv[optind], e.msg);
		pm_close(&pm);
		return 1;
	}
	if (json) {
		struct jw w;

		jw_init(&w, stdout, 0);
		jw_obj_begin(&w);
		pm_cost_json(&w, &pm, &c);
		jw_obj_end(&w);
		fputc('\n', stdout);
	} else {
		pm_cost_print(stdout, &pm, &c, 0);
	}
	pm_close(&pm);
	return pm_cmd_finish(prog);
}
