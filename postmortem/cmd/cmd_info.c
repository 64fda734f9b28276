// SPDX-License-Identifier: GPL-2.0
/*
 * tipme info: what a dump holds, what it lost, and the window all CPUs
 * cover.
 */
#include <stdio.h>

#include "../print/info.h"
#include "commands.h"
#include "run.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: tipme %s [--json] DUMP\n"
		"Summarise a dump file: header, records and losses per CPU, the time\n"
		"window all CPUs cover, record types, system and module parameters.\n"
		"Times are CLOCK_MONOTONIC seconds.  DUMP is a dump file or an incident\n"
		"directory (its kernel.dump is read).\n"
		"\n"
		"  -j, --json   print one JSON object instead of text\n"
		"  -h, --help   show this help\n"
		"\n"
		"EXAMPLES\n"
		"  tipme %s /var/lib/tipme/incidents/20240501T123456Z-7\n"
		"  tipme %s --json dump.tipme | python3 -m json.tool\n",
		prog, prog, prog);
}

int pm_info_print(FILE *f, struct pm_dump *pm,
		  const struct tm_incident_meta_view *meta, int json,
		  struct tm_err *e)
{
	struct pm_info in;
	int err;

	err = pm_info_collect(&in, pm, e);
	in.meta = meta;
	if (!err) {
		if (json)
			pm_info_json(f, &in);
		else
			pm_info_text(f, &in);
	}
	pm_info_free(&in);
	return err;
}

int pm_cmd_info(int argc, char **argv)
{
	const char *prog = argv[0];
	struct pm_incident inc;
	struct tm_err e = { "" };
	int json, err;

	err = pm_cmd_parse_dump(prog, usage, argc, argv, NULL, 0, &json);
	if (err >= 0)
		return err;
	if (pm_cmd_open(prog, argv[optind], PM_INC_NO_X, &inc))
		return 1;
	err = pm_info_print(stdout, &inc.pm, inc.have_meta ? &inc.meta : NULL,
			    json, &e);
	pm_incident_close(&inc);
	if (err) {
		fflush(stdout);
		fprintf(stderr, "tipme %s: %s\n", prog, e.msg);
		return 1;
	}
	return pm_cmd_finish(prog);
}
