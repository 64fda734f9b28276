/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipmed's control socket: how desktop programs that are not root (the X
 * hook, benchmarks, the CLI of a user in the "tipme" group) ask for a
 * dump and hand files in for an incident.
 *
 * A stream socket, TIPME_CTL_SOCKET, mode 0660, group TIPME_CTL_GROUP.
 * Requests are one line each; every request gets one reply line:
 *   "OK[ key=value...]" or "ERR <ERRNO-NAME> <message>".
 *
 *   TRIGGER <source> [reason]   source: user | xhook | threshold
 *   TRIGGER auto input=key|button pid=N press_ns=T latency_ns=L comm=TEXT
 *                               a press measured too slow (tipme-xhook):
 *                               what goes into meta.json's "auto"
 *                               -> OK seq=N coalesced=0|1
 *   NOTE <incident> <text>      set (or replace) the incident's description
 *   PUT <incident> <name> <n>   then exactly n bytes: store file <name>;
 *                               only xhook.dump (EPERM for others), and
 *                               only once (EEXIST if it is there)
 *   LIST                        -> OK n=N, then N lines "<incident>"
 *   SUBSCRIBE                   -> OK, then lines for every trigger:
 *                                 "TRIGGERED seq=N mono_ns=T" when the
 *                                 kernel announces it, and
 *                                 "INCIDENT seq=N name=NAME" once its
 *                                 directory exists
 *   STATUS                      -> OK auto_made=N auto_held=N auto_today=N
 *                                  auto_per_day=N auto_spacing_s=N
 *
 * Incident and file names are [A-Za-z0-9._-], not starting with '.'.
 */
#ifndef TIPME_LIB_CTLPROTO_H
#define TIPME_LIB_CTLPROTO_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "incident_meta.h"

#define TIPME_CTL_SOCKET	"/run/tipme/tipmed.sock"
#define TIPME_CTL_GROUP		"tipme"
#define TIPME_INCIDENT_DIR	"/var/lib/tipme/incidents"
#define TIPME_CTL_LINE_MAX	4096
#define TIPME_CTL_PUT_MAX	(512u << 20)

int tm_ctl_name_ok(const char *name);

/* The requests of the protocol (the first word of a request line). */
enum tm_ctl_req_kind {
	TM_CTL_REQ_TRIGGER,
	TM_CTL_REQ_NOTE,
	TM_CTL_REQ_PUT,
	TM_CTL_REQ_LIST,
	TM_CTL_REQ_SUBSCRIBE,
	TM_CTL_REQ_STATUS,
};

/**
 * struct tm_ctl_request - one request line, checked
 * @kind: the request
 * @source: TRIGGER: the TIPME_TRIG_* its source word stands for
 * @reason: TRIGGER: the text after the source, or NULL (auto: NULL)
 * @autotrig: TRIGGER auto: the press
 * @incident: NOTE, PUT: the incident's name (tm_ctl_name_ok())
 * @text: NOTE: the description
 * @name: PUT: the file's name (tm_ctl_name_ok())
 * @bytes: PUT: how many bytes follow the line
 *
 * The strings point into the line that was parsed.
 */
struct tm_ctl_request {
	enum tm_ctl_req_kind kind;
	uint32_t source;
	const char *reason;
	struct tm_incident_auto autotrig;
	const char *incident;
	const char *text;
	const char *name;
	uint64_t bytes;
};

/**
 * tm_ctl_parse_request() - read a request line (tipmed)
 * @line: the line, without newline; cut into fields in place
 * @r: the request
 * @e: the usage message of a malformed request
 *
 * Checks the syntax and every name and number; what a client may do
 * (limits, which files it may PUT) is tipmed's decision.
 *
 * Return: 0 or -EINVAL.
 */
int tm_ctl_parse_request(char *line, struct tm_ctl_request *r, struct tm_err *e);

/**
 * tm_ctl_parse_triggered() - read "TRIGGERED seq=N mono_ns=T" (subscriber)
 * @line: the line, without newline
 * @seq: the trigger's number, 1..UINT32_MAX
 * @mono_ns: CLOCK_MONOTONIC of the trigger
 *
 * Return: 0 or -EINVAL.
 */
int tm_ctl_parse_triggered(const char *line, uint32_t *seq, uint64_t *mono_ns);

/**
 * tm_ctl_parse_incident() - read "INCIDENT seq=N name=NAME" (subscriber)
 * @line: the line, without newline
 * @seq: the trigger's number, 1..UINT32_MAX
 * @name: the incident's name (tm_ctl_name_ok())
 * @size: size of @name
 *
 * Return: 0 or -EINVAL.
 */
int tm_ctl_parse_incident(const char *line, uint32_t *seq, char *name,
		       size_t size);

/**
 * tm_ctlc_request() - connect, send one request line, read the reply line
 * @path: socket path (NULL: TIPME_CTL_SOCKET)
 * @req: request, without newline
 * @data: bytes to send after the line (PUT), or NULL
 * @len: their number
 * @reply: the reply line, without newline
 * @rlen: size of @reply
 * @e: error message; an "ERR" reply becomes its errno and message
 *
 * Return: 0 or a negative errno.
 */
int tm_ctlc_request(const char *path, const char *req, const void *data,
		 size_t len, char *reply, size_t rlen, struct tm_err *e);

/**
 * tm_ctlc_parse_reply() - turn a reply line into 0 or a negative errno
 * @reply: the line, without newline
 * @e: error message for "ERR <ERRNO-NAME> <message>" and unexpected lines
 *
 * Return: 0 for "OK...", else the errno the reply names (EPROTO if none).
 */
int tm_ctlc_parse_reply(const char *reply, struct tm_err *e);

/**
 * tm_ctl_errno_name() - the protocol's name of an errno ("EBUSY")
 * @err: positive errno
 *
 * Return: its name, "EIO" for one the protocol does not name.
 */
const char *tm_ctl_errno_name(int err);

/**
 * tm_ctl_errno_by_name() - the errno a reply's name stands for
 * @word: the name, ended by a space or NUL
 *
 * Return: the positive errno, EIO for a name the protocol does not use.
 */
int tm_ctl_errno_by_name(const char *word);

/**
 * tm_ctlc_reply_u64() - the value of "key=" in a reply line
 * @reply: the line
 * @key: key without '='
 * @v: result
 *
 * Return: 0 or -ENOENT.
 */
int tm_ctlc_reply_u64(const char *reply, const char *key, uint64_t *v);

#endif
