// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: an X dump through its reader, both printers (what
 * `tipme xrecords` and `tipme-xhook print` run on a dump from a bug report)
 * and the X server tables of `tipme report --x`.
 * The mutator fixes the checksums after each mutation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/xprof.h"
#include "dump_fix.h"
#include "print/xprof.h"
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
	struct tm_xdump d;
	struct tm_err e = { "" };

	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		abort();
	if (tm_xdump_parse(data, size, &d, &e))
		return 0;
	tm_xdump_print(null, &d, 0);
	tm_xdump_print(null, &d, 1);
	/* tipme report --x over the whole dump, without a kernel dump */
	{
		struct pm_xprof xp;
		struct tm_jw w;

		if (!pm_xprof_analyse(&d, NULL, INT64_MIN, INT64_MAX, &xp)) {
			pm_xprof_text(null, &xp);
			tm_jw_init(&w, null, 0);
			pm_xprof_json(&w, &xp);
			tm_jw_finish(&w);
			pm_xprof_free(&xp);
		}
	}
	return 0;
}
