// SPDX-License-Identifier: GPL-2.0
/* tipme ps: the exec table of a dump. */
#include <stdio.h>

#include "../print/exec.h"
#include "commands.h"
#include "run.h"

static void ps_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: tipme %s [--json] DUMP\n"
		"List the exec table of a dump: every process and thread seen while\n"
		"recording (and those that existed when tipme.ko loaded), with the\n"
		"executable, argv, and start and exit times (CLOCK_MONOTONIC s), like\n"
		"ps but including processes that already exited.  DUMP is a dump file\n"
		"or an incident directory (its kernel.dump).\n"
		"\n"
		"  -t, --threads  also list threads (pid != tgid)\n"
		"  -j, --json     one JSON object with every entry\n"
		"  -h, --help     show this help\n"
		"\n"
		"EXAMPLES\n"
		"  tipme %s dump.tipme | grep firefox\n"
		"  tipme %s --json dump.tipme | jq '.exec_table.entries[] | select(.pid == 207)'\n",
		prog, prog, prog);
}

int pm_cmd_ps(int argc, char **argv)
{
	const char *prog = argv[0];
	int json, threads = 0, err;
	const struct pm_cmd_opt opts[] = {
		{ "threads", 't', NULL, NULL, &threads },
	};
	const struct pm_instr *in;
	struct pm_incident inc;

	err = pm_cmd_parse_dump(prog, ps_usage, argc, argv, opts, 1, &json);
	if (err >= 0)
		return err;
	if (pm_cmd_open(prog, argv[optind], PM_INC_NO_X, &inc))
		return 1;
	in = inc.pm.instr;
	if (json) {
		struct tm_jw w;

		tm_jw_init(&w, stdout, 0);
		tm_jw_obj_begin(&w);
		pm_exec_table_json(&w, &inc.pm, 1);
		tm_jw_obj_end(&w);
		fputc('\n', stdout);
	} else if (!in || !in->have_exectab) {
		fprintf(stderr, "tipme %s: %s has no exec table\n", prog, argv[optind]);
		pm_incident_close(&inc);
		return 1;
	} else {
		pm_exec_list_print(stdout, &inc.pm, threads);
	}
	pm_incident_close(&inc);
	return pm_cmd_finish(prog);
}
