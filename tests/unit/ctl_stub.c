// SPDX-License-Identifier: GPL-2.0
/* Control subcommands for the CLI tests: no kernel, no netlink. */
#include <stdio.h>

#include "ctl.h"

static int stub(int argc, char **argv)
{
	(void)argc;
	printf("stub %s\n", argv[0]);
	return 0;
}

int cmd_status(int argc, char **argv) { return stub(argc, argv); }
int cmd_start(int argc, char **argv) { return stub(argc, argv); }
int cmd_stop(int argc, char **argv) { return stub(argc, argv); }
int cmd_dump(int argc, char **argv) { return stub(argc, argv); }
int cmd_trigger(int argc, char **argv) { return stub(argc, argv); }
int cmd_note(int argc, char **argv) { return stub(argc, argv); }
int cmd_incidents(int argc, char **argv) { return stub(argc, argv); }
