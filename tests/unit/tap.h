/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny TAP producer for the userspace unit tests.
 *
 *	tap_plan(3);
 *	tap_ok(x == 1, "x is one");
 *	tap_skip("needs root");
 *	tap_diag("value %d", v);
 *	return tap_done();
 *
 * Output is TAP version 13 ("1..N", "ok N - desc", "not ok N - desc",
 * "# diagnostics"); tap_done() returns the exit status: 0 only if every
 * test passed and the number of tests matched the plan.
 */
#ifndef TIPME_TAP_H
#define TIPME_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_planned = -1, tap_run, tap_failed;

static inline void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	char buf[8192], *line, *nl;
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	/* every line of a diagnostic starts with "# " */
	for (line = buf; line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		printf("# %s\n", line);
	}
	fflush(stdout);
}

static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	return cond;
}

static inline void tap_skip(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	printf("ok %d - skipped # SKIP ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static inline int tap_done(void)
{
	if (tap_planned < 0)
		printf("1..%d\n", tap_run);
	else if (tap_run != tap_planned) {
		printf("# planned %d tests but ran %d\n", tap_planned, tap_run);
		return 1;
	}
	if (tap_failed)
		printf("# failed %d of %d tests\n", tap_failed, tap_run);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif
