/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Golden files: a unit test's output compared with a file under
 * tests/unit/golden/, or the file rewritten when TIPME_UPDATE_GOLDEN is
 * set (review the diff).  One definition for every test that has them.
 */
#ifndef TIPME_TEST_GOLDEN_H
#define TIPME_TEST_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "tap.h"

/* Compare @text (may be NULL: nothing) with the golden file @path. */
static inline int golden_file(const char *path, const char *text)
{
	char *want;
	FILE *f;
	int same;

	if (getenv("TIPME_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		if (!f)
			return 0;
		fputs(text ? text : "", f);
		fclose(f);
		tap_diag("rewrote %s", path);
		return 1;
	}
	want = capture_slurp(path);
	same = want && text && !strcmp(want, text);
	if (!same)
		tap_diag("%s differs; got:\n%s", path, text ? text : "(nothing)");
	free(want);
	return same;
}

#endif
