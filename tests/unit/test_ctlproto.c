// SPDX-License-Identifier: GPL-2.0
/*
 * The control protocol's request reader (tipmed's side): each request
 * with its fields, and the malformed lines it refuses before tipmed acts
 * on them (names that leave the incident, numbers that wrap, extra words).
 */
#include <errno.h>
#include <string.h>

#include <linux/tipme.h>

#include "ctlproto.h"
#include "tap.h"

static int parse(const char *text, struct ctl_request *r)
{
	static char line[TIPME_CTL_LINE_MAX + 1];
	struct tm_err e = { "" };

	strcpy(line, text);
	return ctl_parse_request(line, r, &e);
}

int main(void)
{
	static const char *const bad[] = {
		"", "TRIGGER", "TRIGGER root", "TRIGGER User",
		"NOTE", "NOTE 20261124-1", "NOTE ../etc hello", "NOTE .hidden x",
		"PUT inc xhook.dump", "PUT inc xhook.dump -1", "PUT inc xhook.dump +5",
		"PUT inc xhook.dump 5x", "PUT inc xhook.dump 18446744073709551616",
		"PUT inc ../kernel.dump 5", "PUT inc/.. xhook.dump 5",
		"PUT inc xhook.dump 5 extra", "LIST extra", "SUBSCRIBE me",
		"trigger user", "DELETE inc",
	};
	struct ctl_request r;
	size_t i;

	tap_plan(5 + (int)(sizeof(bad) / sizeof(bad[0])));
	tap_ok(!parse("TRIGGER xhook the mouse froze", &r) &&
	       r.kind == CTL_REQ_TRIGGER && r.source == TIPME_TRIG_XHOOK &&
	       !strcmp(r.reason, "the mouse froze"),
	       "TRIGGER with a source and a reason");
	tap_ok(!parse("TRIGGER user", &r) && r.source == TIPME_TRIG_NETLINK &&
	       !r.reason, "TRIGGER user without a reason");
	tap_ok(!parse("NOTE 20261124T101500Z-3 typing lagged", &r) &&
	       r.kind == CTL_REQ_NOTE && !strcmp(r.incident, "20261124T101500Z-3") &&
	       !strcmp(r.text, "typing lagged"), "NOTE: incident and text");
	tap_ok(!parse("PUT 20261124T101500Z-3 xhook.dump 18446744073709551615", &r) &&
	       r.kind == CTL_REQ_PUT && !strcmp(r.name, "xhook.dump") &&
	       r.bytes == UINT64_MAX, "PUT: names and the largest count");
	tap_ok(!parse("LIST", &r) && r.kind == CTL_REQ_LIST &&
	       !parse("SUBSCRIBE", &r) && r.kind == CTL_REQ_SUBSCRIBE,
	       "LIST and SUBSCRIBE");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(parse(bad[i], &r) == -EINVAL, "refused: \"%s\"", bad[i]);
	return tap_done();
}
