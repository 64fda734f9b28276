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

static int parse(const char *text, struct tm_ctl_request *r)
{
	static char line[TIPME_CTL_LINE_MAX + 1];
	struct tm_err e = { "" };

	strcpy(line, text);
	return tm_ctl_parse_request(line, r, &e);
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
		/* TRIGGER auto: every field, in order, each checked */
		"TRIGGER auto", "TRIGGER auto the key was slow",
		"TRIGGER auto input=key pid=1 press_ns=2 latency_ns=3",
		"TRIGGER auto input=foot pid=1 press_ns=2 latency_ns=3 comm=x",
		"TRIGGER auto pid=1 input=key press_ns=2 latency_ns=3 comm=x",
		"TRIGGER auto input=key pid=4194305 press_ns=2 latency_ns=3 comm=x",
		"TRIGGER auto input=key pid=1 press_ns=-2 latency_ns=3 comm=x",
		"TRIGGER auto input=key pid=1 press_ns=2 latency_ns=18446744073709551616 comm=x",
		"TRIGGER auto input=key pid=1 press_ns=2 latency_ns=3 comm=sixteen-chars-xx",
		"TRIGGER auto input=key pid=1 press_ns=2 latency_ns=3 comm=a\"b",
		"TRIGGER auto input=key pid=1 press_ns=2 latency_ns=3 comm=a\\b",
		"TRIGGER auto input=key pid=1 press_ns=2 latency_ns=3 comm=a\tb",
		"TRIGGER auto input=key pid= press_ns=2 latency_ns=3 comm=x",
		"STATUS now",
	};
	struct tm_ctl_request r;
	size_t i;

	tap_plan(7 + (int)(sizeof(bad) / sizeof(bad[0])));
	tap_ok(!parse("TRIGGER xhook the mouse froze", &r) &&
	       r.kind == TM_CTL_REQ_TRIGGER && r.source == TIPME_TRIG_XHOOK &&
	       !strcmp(r.reason, "the mouse froze"),
	       "TRIGGER with a source and a reason");
	tap_ok(!parse("TRIGGER user", &r) && r.source == TIPME_TRIG_NETLINK &&
	       !r.reason, "TRIGGER user without a reason");
	tap_ok(!parse("NOTE 20261124T101500Z-3 typing lagged", &r) &&
	       r.kind == TM_CTL_REQ_NOTE && !strcmp(r.incident, "20261124T101500Z-3") &&
	       !strcmp(r.text, "typing lagged"), "NOTE: incident and text");
	tap_ok(!parse("PUT 20261124T101500Z-3 xhook.dump 18446744073709551615", &r) &&
	       r.kind == TM_CTL_REQ_PUT && !strcmp(r.name, "xhook.dump") &&
	       r.bytes == UINT64_MAX, "PUT: names and the largest count");
	tap_ok(!parse("TRIGGER auto input=button pid=4242 press_ns=1203500000000 latency_ns=812000000 comm=gnome text ed", &r) &&
	       r.source == TIPME_TRIG_AUTO && !r.reason &&
	       !strcmp(r.autotrig.input, "button") && r.autotrig.pid == 4242 &&
	       r.autotrig.press_ns == 1203500000000ULL &&
	       r.autotrig.latency_ns == 812000000ULL &&
	       !strcmp(r.autotrig.comm, "gnome text ed"),
	       "TRIGGER auto: the press's fields, comm with spaces");
	tap_ok(!parse("TRIGGER auto input=key pid=0 press_ns=0 latency_ns=0 comm=", &r) &&
	       r.autotrig.pid == 0 && !r.autotrig.comm[0],
	       "TRIGGER auto: an unknown PID and an empty name");
	tap_ok(!parse("LIST", &r) && r.kind == TM_CTL_REQ_LIST &&
	       !parse("SUBSCRIBE", &r) && r.kind == TM_CTL_REQ_SUBSCRIBE &&
	       !parse("STATUS", &r) && r.kind == TM_CTL_REQ_STATUS,
	       "LIST, SUBSCRIBE and STATUS");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(parse(bad[i], &r) == -EINVAL, "refused: \"%s\"", bad[i]);
	return tap_done();
}
