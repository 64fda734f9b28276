// SPDX-License-Identifier: GPL-2.0
/*
 * tipme xrecords: print an X dump (tipme-xhook's xhook.dump) as text, one
 * line per record, or as one JSON object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../incident/incident.h"
#include "commands.h"
#include "run.h"
#include "xdumpfile.h"

static const char usage_text[] =
	"Usage: tipme xrecords [--json] DUMP\n"
	"Print an X dump written by tipme-xhook: one line per record\n"
	"(monotonic time in s, lateness in ms, client pid and command,\n"
	"kind, request or event name, sequence, length, XID, op-size).\n"
	"DUMP is an X dump or an incident directory (the X dump tipme report\n"
	"reads: of several users', the one whose session the incident is about).\n"
	"EXAMPLES\n"
	"  tipme xrecords /var/lib/tipme/incidents/INCIDENT | less\n"
	"  tipme xrecords --json xhook.dump > records.json\n";

int pm_cmd_xrecords(int argc, char **argv)
{
	const char *path = NULL;
	struct tm_err e = { "" };
	struct tm_xdump d;
	struct stat sb;
	uint8_t *buf;
	int json = 0, i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			json = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!path && argv[i][0] != '-') {
			path = argv[i];
		} else {
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (!path) {
		fputs(usage_text, stderr);
		return 2;
	}
	/* an incident: the X dump the report reads (one per user) */
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode)) {
		struct pm_incident inc;

		if (pm_incident_open(&inc, path, PM_INC_NEED_X, &e)) {
			fprintf(stderr, "tipme xrecords: %s\n", e.msg);
			pm_incident_close(&inc);
			return 1;
		}
		ret = tm_xdump_print(stdout, &inc.x, json);
		pm_incident_close(&inc);
		return ret ? 1 : pm_cmd_finish("xrecords");
	}
	if (tm_xdump_load(path, &d, &buf, &e)) {
		fprintf(stderr, "tipme xrecords: %s\n", e.msg);
		return 1;
	}
	ret = tm_xdump_print(stdout, &d, json);
	free(buf);
	return ret ? 1 : pm_cmd_finish("xrecords");
}
