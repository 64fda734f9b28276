// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: what tipmed reads from its netlink event socket, through
 * tnl_event_parse() (helper/nl.c).  The input is a stream of netlink
 * messages, walked as libnl's receive loop walks what recvmsg() returned:
 * only messages whose length fits what is left are handed on.  The first
 * two bytes pick the family id the parser takes as tipme's, so the harness
 * reaches the trigger attributes and the controller's messages alike.
 * What the parser accepts must hold its promises, or the harness aborts: a
 * press only with source auto and with a NUL-terminated command name, and
 * tm_incident_auto_from_press() then giving meta.json printable text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/msg.h>
#include <linux/tipme.h>

#include "incident_meta.h"
#include "nl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct tnl_trigger_event *ev)
{
	struct tm_incident_auto a;
	size_t i;

	if (!ev->has_press)
		return;
	if (ev->source != TIPME_TRIG_AUTO ||
	    !memchr(ev->press.comm, '\0', sizeof(ev->press.comm)))
		abort();
	tm_incident_auto_from_press(&ev->press, &a);
	if (strcmp(a.input, "key") && strcmp(a.input, "button"))
		abort();
	for (i = 0; a.comm[i]; i++)
		if (a.comm[i] < 0x20 || a.comm[i] > 0x7e || a.comm[i] == '"' || a.comm[i] == '\\')
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tnl_trigger_event ev;
	struct nlmsghdr *nlh;
	int family, gone = 0, left;
	void *buf;

	if (size < 2 || size > 65536)
		return 0;
	family = data[0] | data[1] << 8;
	data += 2;
	size -= 2;
	buf = malloc(size ? size : 1);	/* its own allocation: ASan sees overreads */
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	left = (int)size;
	for (nlh = buf; nlmsg_ok(nlh, left); nlh = nlmsg_next(nlh, &left))
		if (tnl_event_parse(nlh, family, &ev, &gone))
			check(&ev);
	free(buf);
	return 0;
}
