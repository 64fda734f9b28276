/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The server side of tipmed's control socket (lib/ctlproto.h; the client
 * side is lib/ctlclient.c): the listening socket and who may use it, one
 * request line at a time, PUT data, the subscribers, and the limits that
 * keep a member of the socket's group from starving the others or tipmed.
 *
 * NOTE, PUT and LIST work on the incident directories (helper/incident.c);
 * what TRIGGER asks of tipme.ko, the STATUS counts and the log belong to
 * the daemon, which hands them in as struct ctls_ops.  One struct
 * ctlserver per socket; every function runs on the daemon's poll loop.
 */
#ifndef TIPME_HELPER_CTLSERVER_H
#define TIPME_HELPER_CTLSERVER_H

#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "ctlproto.h"
#include "err.h"
#include "incident.h"

#define CTLS_MAX_CLIENTS	32
/* the pollfds ctls_pollfds() fills: the listening socket, then each client */
#define CTLS_POLLFDS		(1 + CTLS_MAX_CLIENTS)
#define CTLS_UID_SLOTS		16

/**
 * struct ctls_client - one connection
 * @fd: its socket; <= 0 for a free slot
 * @subscribed: it sent SUBSCRIBE: it gets every TRIGGERED and INCIDENT
 *	line, and is never closed for being idle (a user has few of these)
 * @allowed: root or in the socket's group; otherwise its first line gets
 *	EPERM
 * @uid: its peer's user (SO_PEERCRED)
 * @pid: its peer's process when it connected (SO_PEERCRED)
 * @last: CLOCK_MONOTONIC seconds of its last byte
 * @line: the request line read so far
 * @len: bytes in @line
 * @put_data: the data of a PUT in progress, or NULL
 * @put_len: the bytes the PUT announced
 * @put_got: ... and the bytes received so far
 * @put_inc: the PUT's incident
 * @put_name: the PUT's file name in the incident: the X dump of @uid
 *	("xhook-UID.dump"), whatever name the client gave
 * @put_exe: /proc/@pid/exe when the PUT began, as meta.json keeps it
 */
struct ctls_client {
	int fd;
	int subscribed;
	int allowed;
	uid_t uid;
	pid_t pid;
	time_t last;
	char line[TIPME_CTL_LINE_MAX];
	size_t len;
	char *put_data;
	size_t put_len, put_got;
	char put_inc[256], put_name[64];
	char put_exe[256];
};

/**
 * struct ctls_ops - the daemon's part of the requests
 * @trigger: a TRIGGER request its user's per-minute budget lets through:
 *	ask tipme.ko for a trigger, fill @seq and @coalesced; 0, or a
 *	negative errno with @e set (the reply's error and message)
 * @status: the fields of the STATUS reply after "OK ", into @buf
 * @vlog: a line for the log at a syslog priority (LOG_ERR, LOG_WARNING,
 *	LOG_INFO), without its newline
 *
 * Each gets struct ctlserver's @arg.
 */
struct ctls_ops {
	int (*trigger)(void *arg, uid_t uid, const struct tm_ctl_request *r,
		       uint32_t *seq, int *coalesced, struct tm_err *e);
	void (*status)(void *arg, char *buf, size_t size);
	void (*vlog)(void *arg, int prio, const char *fmt, va_list ap)
		__attribute__((format(printf, 3, 0)));
};

/**
 * struct ctlserver - the control socket and its clients
 * @path: the socket's path (set before ctls_open())
 * @group: the group allowed on it besides root (set before ctls_open())
 * @idle_s: close a connection silent for this many seconds, subscribers
 *	excepted (set before ctls_open())
 * @incidents: where NOTE, PUT and LIST go; @incidents->max_bytes also
 *	bounds a PUT (set before ctls_open())
 * @ops: the daemon's part (set before ctls_open())
 * @arg: handed to each of @ops
 * @fd: the listening socket, -1 when closed
 * @gid: @group's id, or (gid_t)-1 when there is no such group: root only
 * @clients: the connections
 * @uid_triggers: triggers per user in the current minute; when full, the
 *	entries are reused in turn
 * @uid_triggers_next: the entry reused next
 */
struct ctlserver {
	const char *path;
	const char *group;
	unsigned int idle_s;
	const struct incident_cfg *incidents;
	const struct ctls_ops *ops;
	void *arg;

	int fd;
	gid_t gid;
	struct ctls_client clients[CTLS_MAX_CLIENTS];
	struct {
		uid_t uid;
		time_t minute;
		unsigned int n;
	} uid_triggers[CTLS_UID_SLOTS];
	unsigned int uid_triggers_next;
};

/**
 * ctls_open() - create the socket and listen
 * @s: the server, its caller's fields set, the others zero
 *
 * Makes @s->path's directory if it is missing, replaces a socket left
 * there, and gives the socket to @s->group (mode 0660; 0600 and root only
 * when there is no such group, which is logged).
 *
 * Return: 0, or -1 with the reason logged.
 */
int ctls_open(struct ctlserver *s);

/**
 * ctls_pollfds() - what the poll loop waits on for the server
 * @s: the server
 * @pfd: CTLS_POLLFDS entries to fill (free client slots: fd -1)
 *
 * Return: the number of entries filled, CTLS_POLLFDS.
 */
int ctls_pollfds(const struct ctlserver *s, struct pollfd *pfd);

/**
 * ctls_serve() - after poll(): accept, read and answer, drop idle clients
 * @s: the server
 * @pfd: the entries ctls_pollfds() filled, with their revents
 */
void ctls_serve(struct ctlserver *s, const struct pollfd *pfd);

/**
 * ctls_broadcast() - send a line to every subscriber
 * @s: the server
 * @fmt: printf format of the line, without its newline
 *
 * A subscriber that does not read loses lines: nothing here blocks.
 */
void ctls_broadcast(struct ctlserver *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * ctls_close() - close every connection and the socket, and remove it
 * @s: the server (ctls_open() succeeded)
 */
void ctls_close(struct ctlserver *s);

#endif
