// SPDX-License-Identifier: GPL-2.0
/*
 * tipme xrecords: print an X dump (tipme-xhook's xhook.dump) as text, one
 * line per record, or as one JSON object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "run.h"
#include "xdumpfile.h"

static const char usage_text[] =
	"Usage: tipme xrecords [--json] DUMP\n"
	"Print an X dump written by tipme-xhook: one line per record\n"
	"(monotonic time in s, lateness in ms, client pid and command,\n"
	"kind, request or event name, sequence, length, XID, op-size).\n"
	"DUMP is an X dump or an incident directory (its xhook.dump).\n"
	"EXAMPLES\n"
	"  tipme xrecords /var/lib/tipme/incidents/INCIDENT | less\n"
	"  tipme xrecords --json xhook.dump > records.json\n";

int pm_cmd_xrecords(int argc, char **argv)
{
	const char *path = NULL;
	struct tm_err e = { "" };
	struct tm_xdump d;
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
	if (tm_xdump_load(path, &d, &buf, &e)) {
		fprintf(stderr, "tipme xrecords: %s\n", e.msg);
		return 1;
	}
	ret = tm_xdump_print(stdout, &d, json);
	free(buf);
	return ret ? 1 : pm_cmd_finish("xrecords");
}
