// SPDX-License-Identifier: GPL-2.0
/*
 * What every subcommand does the same way: open the dump it was given and,
 * once it has printed, make sure the output was written.  The option
 * parsing, the analysis and the printer are each subcommand's own
 * (cmd/cmd_<name>.c).
 */
#include <stdio.h>

#include "../dump/pm.h"
#include "run.h"

int pm_cmd_open(const char *prog, const char *path, struct pm_dump *pm)
{
	struct tm_err e = { "" };

	if (pm_open(pm, path, 0, &e)) {
		fprintf(stderr, "tipme %s: %s\n", prog, e.msg);
		pm_close(pm);
		return 1;
	}
	return 0;
}

int pm_cmd_finish(const char *prog)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "tipme %s: error writing the output\n", prog);
		return 1;
	}
	return 0;
}
