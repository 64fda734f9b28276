/* SPDX-License-Identifier: GPL-2.0 */
/* Inside cmd/: what the subcommands share (run.c). */
#ifndef TIPME_PM_CMD_RUN_H
#define TIPME_PM_CMD_RUN_H

struct pm_dump;

/**
 * pm_cmd_open() - open a subcommand's dump, or say why not
 * @prog: the subcommand's name, for the message
 * @path: the dump file or incident directory
 * @pm: the dump; closed again on failure
 *
 * Prints "tipme PROG: MESSAGE" to stderr on failure.
 *
 * Return: 0, or 1 (the exit status) on failure.
 */
int pm_cmd_open(const char *prog, const char *path, struct pm_dump *pm);

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
