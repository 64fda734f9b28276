// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: an incident's meta.json (a file in a directory that
 * travels in bug reports) through its one reader, tm_incident_meta_parse().
 * What it accepts must be what it promises: short printable strings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "incident_meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void plain(const char *s, size_t size)
{
	size_t n = strnlen(s, size);

	if (n == size)
		abort();	/* not terminated inside its field */
	while (n--)
		if (s[n] < 0x20 || s[n] > 0x7e || s[n] == '\\')
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tm_incident_meta_view v;
	struct tm_err e = { "" };

	if (tm_incident_meta_parse((const char *)data, size, &v, &e)) {
		if (!e.msg[0])
			abort();
		return 0;
	}
	plain(v.source, sizeof(v.source));
	plain(v.utc, sizeof(v.utc));
	return 0;
}
