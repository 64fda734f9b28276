// SPDX-License-Identifier: GPL-2.0
/*
 * tipme: the command-line front end, the program's main() (named cli.c,
 * not after the program, so that it is not taken for the UAPI header
 * linux/tipme.h).
 *
 *   tipme <subcommand> [options]
 *
 * Control subcommands talk to tipme.ko (helper/ctl.c); analysis
 * subcommands read dump files (postmortem/).  Adding a subcommand is one
 * line in the table below.
 */
#include <stdio.h>
#include <string.h>
#include <linux/tipme.h>

#include "ctl.h"
#include "cmd/commands.h"
#include "termsafe.h"

struct subcmd {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv[0] = name; exit status */
	const char *summary;
};

static const struct subcmd subcmds[] = {
	{ "status",  cmd_status,     "show whether tipme.ko is recording, ring sizes, losses" },
	{ "start",   cmd_start,      "start recording" },
	{ "stop",    cmd_stop,       "stop recording (the rings are kept)" },
	{ "dump",    cmd_dump,       "write the rings to a dump file" },
	{ "trigger", cmd_trigger,    "ask for an incident now (as Ctrl-Alt-Minus does)" },
	{ "incidents", cmd_incidents, "list the saved incidents" },
	{ "note",    cmd_note,       "describe an incident in one line" },
	{ "info",    pm_cmd_info,    "summarise a dump: CPUs, losses, common window, types" },
	{ "records", pm_cmd_records, "print a dump's records in time order" },
	{ "ps",      pm_cmd_ps,      "list a dump's exec table: processes seen, argv, exits" },
	{ "cost",    pm_cmd_cost,    "the recorder's own cost in an interval of a dump" },
	{ "why",     pm_cmd_why,     "where a thread's time went, and whom it waited for" },
	{ "latency", pm_cmd_latency, "how long each input took to reach the screen, and why" },
	{ "report",  pm_cmd_report,  "one verdict for a slow moment: cause, culprit, resource" },
	{ "timeline", pm_cmd_timeline, "draw an interval as TIPME's timeline (SVG): CPUs, threads, causes" },
	{ "profile", pm_cmd_profile, "where threads' time went by call chain, on or off the CPU; flame graphs" },
	{ "legs",    pm_cmd_legs,    "the time between two kinds of event per thread, with a histogram" },
	{ "export",  pm_cmd_export,  "write a dump as a trace for ui.perfetto.dev and chrome://tracing" },
	{ "index",   pm_cmd_index,   "keep a dump's checkpoints beside it, for fast first commands" },
	{ "xrecords", pm_cmd_xrecords,   "print an X dump (tipme-xhook's xhook.dump) as text or JSON" },
	{ "redact",   pm_cmd_redact,     "copy a dump without host, argv, KASLR and lock addresses, for a bug report" },
};

#define NR_SUBCMDS (sizeof(subcmds) / sizeof(subcmds[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: tipme <subcommand> [options]\n"
		"       tipme <subcommand> --help\n"
		"       tipme --help | --version\n"
		"\n"
		"tipme is a flight recorder for interactive latency: tipme.ko keeps the\n"
		"last moments of scheduler activity in per-CPU rings, a dump saves them,\n"
		"and the analysis subcommands explain them.\n"
		"\n"
		"Subcommands:\n");
	for (i = 0; i < NR_SUBCMDS; i++)
		fprintf(f, "  %-10s %s\n", subcmds[i].name, subcmds[i].summary);
	fprintf(f,
		"\n"
		"EXAMPLES\n"
		"  tipme status\n"
		"  tipme start\n"
		"  tipme dump                      # after something felt slow\n"
		"  tipme info dump.tipme\n"
		"  tipme records --pid 207 dump.tipme | less\n"
		"  tipme records --json dump.tipme > records.jsonl\n");
}

int main(int argc, char **argv)
{
	const char *cmd;
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		if (argc > 2 && strcmp(cmd, "help") == 0) {
			/* "tipme help records" = "tipme records --help" */
			for (i = 0; i < NR_SUBCMDS; i++) {
				if (!strcmp(argv[2], subcmds[i].name)) {
					char *sub_argv[] = { argv[2], "--help", NULL };

					return subcmds[i].run(2, sub_argv);
				}
			}
			fprintf(stderr, "tipme: unknown subcommand '%s' (see tipme --help)\n",
				argv[2]);
			return 2;
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("tipme %s\n", TIPME_VERSION_STRING);
		return 0;
	}
	if (cmd[0] == '-') {
		fprintf(stderr, "tipme: unknown option '%s' (see tipme --help)\n", cmd);
		return 2;
	}
	/*
	 * What the subcommands print comes partly from dumps and incidents
	 * (process names, argv, descriptions): no control byte in it may
	 * reach the terminal.
	 */
	if (tm_termsafe_stdio())
		fprintf(stderr, "tipme: warning: output is not filtered for control bytes\n");
	for (i = 0; i < NR_SUBCMDS; i++)
		if (!strcmp(cmd, subcmds[i].name))
			return subcmds[i].run(argc - 1, argv + 1);
	fprintf(stderr, "tipme: unknown subcommand '%s' (see tipme --help)\n", cmd);
	return 2;
}
