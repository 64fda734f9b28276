/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Control subcommands of the tipme CLI (they talk to tipme.ko over generic
 * netlink).  Each takes the subcommand's argv (argv[0] = subcommand name)
 * and returns a process exit status.
 */
#ifndef TIPME_HELPER_CTL_H
#define TIPME_HELPER_CTL_H

int ctl_status(int argc, char **argv);
int ctl_start(int argc, char **argv);
int ctl_stop(int argc, char **argv);
int ctl_dump(int argc, char **argv);
int ctl_trigger(int argc, char **argv);
int ctl_note(int argc, char **argv);
int ctl_incidents(int argc, char **argv);

#endif
