// SPDX-License-Identifier: GPL-2.0
/*
 * tipme index: the checkpoints of a dump made now and kept beside it
 * (DUMP.ckpt), so that the first report, why or timeline on it reads only
 * the interval it needs.  tipmed runs it after each incident, at idle
 * priority.
 */
#include <stdio.h>
#include <time.h>

#include "json.h"
#include "../state/state.h"
#include "commands.h"
#include "interval.h"
#include "run.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: tipme %s [--json] DUMP\n"
		"Make a dump's checkpoints (one pass over its records) and keep them in\n"
		"DUMP.ckpt beside it (kernel.dump.ckpt in an incident directory), where\n"
		"report, why and timeline read them; a file that already holds this\n"
		"dump's checkpoints is left as it is.  The commands make the file\n"
		"themselves for a dump of 16 MiB of records or more; index writes it\n"
		"for any dump, and says so when it cannot.  tipmed runs it after each\n"
		"incident it saves (at idle priority).\n"
		"\n"
		"  -j, --json   print one JSON object instead of text\n"
		"  -h, --help   show this help\n"
		"\n"
		"EXAMPLES\n"
		"  tipme %s /var/lib/tipme/incidents/20240501T123456Z-7\n"
		"  tipme %s --json dump.tipme\n",
		prog, prog, prog);
}

int pm_cmd_index(int argc, char **argv)
{
	const char *prog = argv[0];
	struct tm_err e = { "" };
	struct pm_incident inc;
	struct pm_ckpts *ck = NULL;
	struct timespec t0, t1;
	int json, err, made;
	double secs;

	err = pm_cmd_parse_dump(prog, usage, argc, argv, NULL, 0, &json);
	if (err >= 0)
		return err;
	if (pm_cmd_open(prog, argv[optind], PM_INC_NO_X, &inc))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = pm_cmd_ckpts_file(&inc, 1, &ck, &made, &e);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (err) {
		fprintf(stderr, "tipme %s: %s.ckpt: %s\n", prog, inc.pm.path, e.msg);
		pm_incident_close(&inc);
		return 1;
	}
	secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (json) {
		struct tm_jw w;

		tm_jw_init(&w, stdout, 0);
		tm_jw_obj_begin(&w);
		tm_jw_kstr(&w, "dump", inc.pm.path);
		tm_jw_ku64(&w, "checkpoints", pm_ckpts_count(ck));
		tm_jw_kbool(&w, "made", made);
		tm_jw_kdouble(&w, "seconds", secs);
		tm_jw_obj_end(&w);
		fputc('\n', stdout);
	} else {
		printf("%s.ckpt: %zu checkpoints, %s (%.2f s)\n", inc.pm.path,
		       pm_ckpts_count(ck), made ? "made and kept" : "already kept", secs);
	}
	pm_ckpts_free(ck);
	pm_incident_close(&inc);
	return pm_cmd_finish(prog);
}
