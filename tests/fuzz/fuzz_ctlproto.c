// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: control-protocol lines from a hostile client or a
 * hostile tipmed, through every reader of them in lib/ctlproto.c and
 * lib/ctlclient.c.  The input is split into lines as the socket readers
 * split them (at most TIPME_CTL_LINE_MAX bytes); each line goes to the
 * request reader (tipmed's side), the reply reader and both subscription
 * readers (the clients' side).  What a reader accepts must hold its
 * promises, or the harness aborts: names that pass tm_ctl_name_ok(), a
 * known trigger source, sequence numbers in range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tipme.h>

#include "ctlproto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_request(const char *line)
{
	char buf[TIPME_CTL_LINE_MAX + 1];
	struct tm_err e = { "" };
	struct tm_ctl_request r;

	strcpy(buf, line);
	if (tm_ctl_parse_request(buf, &r, &e)) {
		if (!e.msg[0])
			abort();	/* an error always says why */
		return;
	}
	switch (r.kind) {
	case TM_CTL_REQ_TRIGGER:
		if (r.source != TIPME_TRIG_NETLINK &&
		    r.source != TIPME_TRIG_XHOOK &&
		    r.source != TIPME_TRIG_THRESHOLD &&
		    r.source != TIPME_TRIG_AUTO)
			abort();
		if (r.reason && strlen(r.reason) > TIPME_CTL_LINE_MAX)
			abort();
		if (r.source == TIPME_TRIG_AUTO) {
			/* what goes into meta.json: checked here, once */
			const char *c = r.autotrig.comm;

			if (r.reason || r.autotrig.pid > 0x400000 ||
			    (strcmp(r.autotrig.input, "key") &&
			     strcmp(r.autotrig.input, "button")) ||
			    strnlen(c, sizeof(r.autotrig.comm)) >= sizeof(r.autotrig.comm))
				abort();
			for (; *c; c++)
				if (*c < 0x20 || *c > 0x7e || *c == '"' || *c == '\\')
					abort();
		}
		break;
	case TM_CTL_REQ_NOTE:
		if (!tm_ctl_name_ok(r.incident) || !r.text)
			abort();
		break;
	case TM_CTL_REQ_PUT:
		if (!tm_ctl_name_ok(r.incident) || !tm_ctl_name_ok(r.name) ||
		    strchr(r.name, '/') || !strcmp(r.name, ".."))
			abort();
		break;
	case TM_CTL_REQ_LIST:
	case TM_CTL_REQ_SUBSCRIBE:
	case TM_CTL_REQ_STATUS:
		break;
	default:
		abort();
	}
}

static void check_client(const char *line)
{
	struct tm_err e = { "" };
	char name[64];
	uint64_t mono;
	uint32_t seq;
	int err;

	err = tm_ctlc_parse_reply(line, &e);
	if (err > 0 || (err && !e.msg[0]))
		abort();
	if (!tm_ctl_parse_triggered(line, &seq, &mono) && !seq)
		abort();
	if (!tm_ctl_parse_incident(line, &seq, name, sizeof(name)) &&
	    (!seq || !tm_ctl_name_ok(name) || strlen(name) >= sizeof(name)))
		abort();
	if (tm_ctl_errno_by_name(line) <= 0 || !tm_ctl_errno_name(tm_ctl_errno_by_name(line)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[TIPME_CTL_LINE_MAX + 1];
	size_t i = 0, n;

	while (i < size) {
		n = 0;
		while (i < size && data[i] != '\n') {
			/* the socket readers drop what exceeds a line */
			if (n < TIPME_CTL_LINE_MAX)
				line[n++] = (char)data[i];
			i++;
		}
		i++;
		line[n] = '\0';
		check_request(line);
		check_client(line);
	}
	return 0;
}
