/* SPDX-License-Identifier: GPL-2.0 */
/* Inside cmd/: what the subcommands share (run.c). */
#ifndef TIPME_PM_CMD_RUN_H
#define TIPME_PM_CMD_RUN_H

#include <getopt.h>	/* optind: where the operands start */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../incident/incident.h"

/* Prints a subcommand's usage to @f (@prog: the name it was called by). */
typedef void (*pm_usage_fn)(FILE *f, const char *prog);

/**
 * struct pm_cmd_opt - one option of a subcommand that takes a value
 * @name: its long name ("min-ms")
 * @letter: its short letter ('m')
 * @num: where a numeric value goes (a number >= 0), or NULL
 * @str: where a text value goes (left as given), or NULL
 * @flag: set to 1 when the option (which takes no value) is given, or NULL
 *
 * One of @num, @str and @flag is set.  Given options overwrite what the
 * command put there as the default.
 */
struct pm_cmd_opt {
	const char *name;
	int letter;
	double *num;
	const char **str;
	int *flag;
};

/**
 * pm_cmd_parse() - read a subcommand's options
 * @prog: the subcommand's name, for messages
 * @usage: prints its usage (for --help to stdout, on errors to stderr)
 * @argc: its argc
 * @argv: its argv (argv[0] = its name)
 * @opts: the options that take a value
 * @n: their number
 * @json: set to 1 by -j/--json, else 0; NULL if the command has no JSON
 *
 * Every command also takes -h/--help.  On return -1, the operands start
 * at argv[optind].
 *
 * Return: -1 to go on, or the exit status: 0 after --help, 2 after an
 * unknown option or a bad value (with a message and the usage).
 */
int pm_cmd_parse(const char *prog, pm_usage_fn usage, int argc, char **argv,
		 const struct pm_cmd_opt *opts, size_t n, int *json);

/**
 * pm_cmd_one_dump() - check that exactly one operand (the dump) follows
 * @prog: the subcommand's name, for the message
 * @usage: prints its usage
 * @argc: its argc (the operands start at optind)
 *
 * Return: -1 to go on, or 2 (the exit status) with a message and the usage.
 */
int pm_cmd_one_dump(const char *prog, pm_usage_fn usage, int argc);

/**
 * pm_cmd_open() - open a subcommand's incident, or say why not
 * @prog: the subcommand's name, for the message
 * @path: the dump file or incident directory
 * @flags: PM_INC_* (incident/incident.h)
 * @inc: the incident; closed again on failure
 *
 * Prints "tipme PROG: MESSAGE" to stderr on failure.
 *
 * Return: 0, or 1 (the exit status) on failure.
 */
int pm_cmd_open(const char *prog, const char *path, unsigned int flags,
		struct pm_incident *inc);

/**
 * pm_cmd_finish() - flush stdout and check that everything was written
 * @prog: the subcommand's name, for the message
 *
 * Prints "tipme PROG: error writing the output" to stderr if not.
 *
 * Return: the exit status: 0, or 1 if the output was not written.
 */
int pm_cmd_finish(const char *prog);

#endif
