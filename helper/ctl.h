/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Control subcommands of the tipme CLI (they talk to tipme.ko over generic
 * netlink, or to tipmed).  cmd_<name> runs `tipme <name>`: it takes the
 * subcommand's argv (argv[0] = subcommand name) and returns a process exit
 * status.  (ctl_* is the control protocol in lib/ctlproto.h.)
 */
#ifndef TIPME_HELPER_CTL_H
#define TIPME_HELPER_CTL_H

int cmd_status(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_trigger(int argc, char **argv);
int cmd_note(int argc, char **argv);
int cmd_incidents(int argc, char **argv);

#endif
