// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

int tm_err_set(struct tm_err *e, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (e) {
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return -errnum;
}

void tm_err_prefix(struct tm_err *e, const char *fmt, ...)
{
	char old[TM_ERR_LEN];
	size_t n;
	va_list ap;

	if (!e)
		return;
	memcpy(old, e->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	n = strlen(e->msg);
	if (old[0] && n < sizeof(e->msg))
		snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", old);
}
