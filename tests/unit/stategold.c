// SPDX-License-Identifier: GPL-2.0
/* A scenario's rebuilt state and resource waits as golden (stategold.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "golden.h"
#include "incident/incident.h"
#include "print/state.h"
#include "stategold.h"
#include "tap.h"

static char *state_text(const struct pm_incident *inc, int one_pass, struct tm_err *e)
{
	struct pm_state st = { 0 };
	struct pm_res res = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ok;

	ok = one_pass ? !pm_state_res_build(&st, &res, inc, e) :
	     !pm_state_build(&st, inc, e) && !pm_res_build(&res, inc, e);
	f = ok ? open_memstream(&text, &len) : NULL;
	if (f) {
		pm_state_print(f, &inc->pm, &st);
		pm_res_print(f, &res);
		fclose(f);
	}
	pm_res_free(&res);
	pm_state_free(&st);
	return text;
}

int state_golden(const char *dir, const char *name, char *msg, size_t len)
{
	struct pm_incident inc = { 0 };
	struct tm_err e = { "" };
	char path[160], *text = NULL, *one = NULL;
	struct stat sb;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);	/* an incident */
	if (stat(path, &sb) || !S_ISDIR(sb.st_mode))
		snprintf(path, sizeof(path), "%s/%s.dump", dir, name);
	ok = !pm_incident_open(&inc, path, 0, &e) &&
	     (text = state_text(&inc, 0, &e)) && (one = state_text(&inc, 1, &e));
	snprintf(path, sizeof(path), "tests/unit/golden/state-%s.txt", name);
	snprintf(msg, len, "%s", ok ? "" : e.msg);
	ok = ok && golden_file(path, text) && !strcmp(text, one);
	free(text);
	free(one);
	pm_incident_close(&inc);
	return ok;
}
