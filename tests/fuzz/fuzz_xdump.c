// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: an X dump through its reader, both printers (what
 * `tipme xrecords` and `tipme-xhook print` run on a dump from a bug report)
 * and the X server tables of `tipme report --x`.  The JSON outputs must be
 * well-formed (wellformed.h): a client's name is whatever the client's
 * process set.  The mutator fixes the checksums after each mutation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/xprof.h"
#include "dump_fix.h"
#include "print/xprof.h"
#include "wellformed.h"
#include "xdumpfile.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed)
{
	(void)seed;
	size = LLVMFuzzerMutate(data, size, max);
	fuzz_xdump_fix(data, size);
	return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	char *out = NULL;
	size_t len = 0;
	struct tm_xdump d;
	FILE *m;
	struct tm_err e = { "" };

	if (!null) {
		fuzz_wellformed_selftest();
		null = fopen("/dev/null", "w");
	}
	if (!null)
		abort();
	if (tm_xdump_parse(data, size, &d, &e))
		return 0;
	tm_xdump_print(null, &d, 0);
	m = open_memstream(&out, &len);
	if (!m)
		abort();
	tm_xdump_print(m, &d, 1);
	fclose(m);
	fuzz_require("json", "tm_xdump_print --json", out, len);
	free(out);
	/* tipme report --x over the whole dump, without a kernel dump */
	{
		struct pm_xprof xp;
		struct tm_jw w;

		if (!pm_xprof_analyse(&d, NULL, INT64_MIN, INT64_MAX, &xp)) {
			pm_xprof_text(null, &xp);
			m = open_memstream(&out, &len);
			if (!m)
				abort();
			tm_jw_init(&w, m, 0);
			pm_xprof_json(&w, &xp);
			tm_jw_finish(&w);
			fclose(m);
			fuzz_require("json", "pm_xprof_json", out, len);
			free(out);
			pm_xprof_free(&xp);
		}
	}
	return 0;
}
