/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A debuginfod server for the tests (elfutils' debuginfod, package
 * debuginfod), serving the ELF files of one folder on a port of this
 * machine, and what the tests need around it: a port nobody listens on,
 * and one that takes connections and never answers.
 */
#ifndef TIPME_TEST_DINFOD_H
#define TIPME_TEST_DINFOD_H

#include <stddef.h>
#include <sys/types.h>

/**
 * struct dinfod_srv - a running server
 * @pid: debuginfod's
 * @reader: the process that reads its log (until it ends)
 * @port: the TCP port it listens on (every address of the machine)
 * @url: "http://127.0.0.1:PORT", for $DEBUGINFOD_URLS
 */
struct dinfod_srv {
	pid_t pid, reader;
	int port;
	char url[64];
};

/**
 * dinfod_start() - start debuginfod over @dir and wait until it serves
 * @s: the server, for dinfod_stop()
 * @dir: the folder it scans (-F), once
 * @work: a folder of the test's for its database and log (@work/debuginfod.log)
 * @bids: the build-ids (hex) it must have indexed as debug info before
 *	it counts as ready, NULL-terminated
 * @why: set to what went wrong (the log's last line) on failure
 * @len: @why's size
 *
 * Ready is said by the server itself: its log line that it recorded each
 * of @bids (debuginfod -vvv), read from a pipe as it comes, within 120 s;
 * a port found taken (debuginfod ends) is tried again with another.
 *
 * Return: 0 when it serves every one of @bids, -1 (nothing left running).
 */
int dinfod_start(struct dinfod_srv *s, const char *dir, const char *work,
		 const char *const *bids, char *why, size_t len);

/* Stop @s and wait for it and its reader. */
void dinfod_stop(struct dinfod_srv *s);

/* Whether debuginfod is on $PATH. */
int dinfod_installed(void);

/**
 * dinfod_free_port() - a TCP port of 127.0.0.1 nobody listens on
 *
 * Return: the port (the kernel's choice, closed again), or -1.
 */
int dinfod_free_port(void);

/**
 * dinfod_black_hole() - a socket of 127.0.0.1 that takes connections and
 *			 never answers (listening, never accepting: the
 *			 kernel completes each connection into its backlog)
 * @port: set to its port
 *
 * Return: the listening socket, or -1.
 */
int dinfod_black_hole(int *port);

/**
 * dinfod_connections() - how many connections @fd took since the last call
 * @fd: a socket of dinfod_black_hole()
 *
 * Return: the connections waiting in its backlog, each accepted and closed.
 */
int dinfod_connections(int fd);

#endif
