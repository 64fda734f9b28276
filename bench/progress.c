// SPDX-License-Identifier: GPL-2.0
/*
 * Progress lines on stderr, and the flag SIGINT/SIGTERM set: shared by the
 * benchmarks and the unit tests (which link everything but main.c).
 */
#include <stdarg.h>
#include <stdio.h>

#include "bench.h"

volatile int bench_interrupted;

void bench_progress(const struct bench_env *env, const char *fmt, ...)
{
	va_list ap;

	if (env->quiet)
		return;
	fputs("tipme-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
