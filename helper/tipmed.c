// SPDX-License-Identifier: GPL-2.0
/*
 * tipmed: writes the kernel's rings to dump files.
 *
 * This version dumps once (--once): the daemon that waits for triggers and
 * files incidents builds on the same tnl_dump_to_file().
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nl.h"

struct env {
	int once;
	const char *output;
};

static const char usage[] =
	"usage: tipmed --once -o FILE\n"
	"  Dump tipme.ko's rings into FILE (written atomically, mode 0600).\n"
	"EXAMPLES\n"
	"  tipmed --once -o /var/tmp/stall.dump\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "once", no_argument, NULL, '1' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tnl_dump_stats ds;
	struct tm_err e = { "" };
	struct env env = { 0 };
	struct tnl t;
	int c, err;

	while ((c = getopt_long(argc, argv, "1o:h", opts, NULL)) != -1) {
		switch (c) {
		case '1':
			env.once = 1;
			break;
		case 'o':
			env.output = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!env.once || !env.output || optind != argc) {
		fputs(usage, stderr);
		return 2;
	}
	err = tnl_open(&t, &e);
	if (!err)
		err = tnl_dump_to_file(&t, env.output, &ds, &e);
	tnl_close(&t);
	if (err) {
		fprintf(stderr, "tipmed: %s\n", e.msg);
		return 1;
	}
	printf("tipmed: %s: %" PRIu64 " bytes from %u CPUs in %.3f s\n",
	       env.output, ds.bytes, ds.cpus, ds.seconds);
	return 0;
}
