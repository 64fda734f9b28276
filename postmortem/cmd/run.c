// SPDX-License-Identifier: GPL-2.0
/* What the subcommands share: opening the dump they were given. */
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
