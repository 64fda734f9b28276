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
 * struct pm_cmd_who - a thread named otherwise than by its pid
 * @comm: --comm NAME: its process's or thread's name, or NULL
 * @title: --window-title TEXT: the title of its X window, or NULL
 *
 * A command puts PM_CMD_WHO_OPTS() in its option table and resolves the
 * name with pm_cmd_who() once the incident is open.
 */
struct pm_cmd_who {
	const char *comm;
	const char *title;
};

/* The two table entries of struct pm_cmd_who @w (PM_CMD_WHO_NOPTS of them). */
#define PM_CMD_WHO_OPTS(w) \
	{ "comm", 'C', NULL, &(w).comm, NULL }, \
	{ "window-title", 'W', NULL, &(w).title, NULL }
#define PM_CMD_WHO_NOPTS	2

/* Their lines of a command's usage. */
#define PM_CMD_WHO_USAGE \
	"  --comm NAME          the process (or thread) of that name instead of a\n" \
	"                       pid: its exact name, else the one name containing\n" \
	"                       NAME; an error lists the matches when several do\n" \
	"  --window-title TEXT  the client owning a window of that title (needs an\n" \
	"                       X dump with window titles)\n"

/**
 * pm_cmd_who_given() - was a thread named by --comm or --window-title
 * @w: the options
 *
 * Return: 1 if so, else 0.
 */
static inline int pm_cmd_who_given(const struct pm_cmd_who *w)
{
	return w->comm || w->title;
}

/**
 * pm_cmd_who() - the thread --comm or --window-title names
 * @prog: the subcommand's name, for messages
 * @inc: the open incident (its exec table, its X dump)
 * @w: the options; at least one is given
 * @pid: set to the thread
 *
 * --comm: the threads whose name (the exec table's) is NAME, else those
 * whose name contains it; of one process, its main thread if it is one
 * of them, else the one thread.  Several processes, or none: an error
 * that lists the matches.  --window-title: the X dump's window titles
 * (an error when it has none: tipme-xhook does not record them).
 *
 * Return: 0 with *@pid set, or 1 (the exit status) after a message.
 */
int pm_cmd_who(const char *prog, const struct pm_incident *inc,
	       const struct pm_cmd_who *w, uint32_t *pid);

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
 * pm_cmd_parse_dump() - pm_cmd_parse(), and exactly one operand (the dump)
 * @prog: the subcommand's name, for messages
 * @usage: prints its usage
 * @argc: its argc
 * @argv: its argv; the dump is argv[optind] on return -1
 * @opts: the options that take a value
 * @n: their number
 * @json: as pm_cmd_parse()'s
 *
 * Return: -1 to go on, or the exit status: pm_cmd_parse()'s, or 2 with a
 * message and the usage when no dump or more than one is given.
 */
int pm_cmd_parse_dump(const char *prog, pm_usage_fn usage, int argc, char **argv,
		      const struct pm_cmd_opt *opts, size_t n, int *json);

/**
 * pm_cmd_open() - open a subcommand's incident, or say why not
 * @prog: the subcommand's name, for the message
 * @path: the dump file or incident directory
 * @flags: PM_INC_* (incident/incident.h)
 * @inc: the incident; closed again on failure
 *
 * Prints "tipme PROG: MESSAGE" to stderr on failure; once open, what the
 * dump's readers have to tell the user on the way (struct pm_dump's note:
 * a debuginfod server given up) goes there the same way, when it happens.
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
