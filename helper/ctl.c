/* SPDX-License-Identifier: GPL-2.0 */
/* Placeholder until the netlink client lands. */
#include <stdio.h>
#include "ctl.h"

static int not_yet(const char *what)
{
	fprintf(stderr, "tipme %s: not implemented yet\n", what);
	return 1;
}

int ctl_status(int argc, char **argv) { (void)argc; return not_yet(argv[0]); }
int ctl_start(int argc, char **argv) { (void)argc; return not_yet(argv[0]); }
int ctl_stop(int argc, char **argv) { (void)argc; return not_yet(argv[0]); }
int ctl_dump(int argc, char **argv) { (void)argc; return not_yet(argv[0]); }
