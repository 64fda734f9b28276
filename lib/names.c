// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the kernel interface's values (see names.h).
 */
#include <linux/tipme.h>

#include "names.h"

static const char *const trigger_sources[] = {
	[TIPME_TRIG_SYSCTL] = "sysctl",
	[TIPME_TRIG_HOTKEY] = "hotkey",
	[TIPME_TRIG_NETLINK] = "netlink",
	[TIPME_TRIG_XHOOK] = "xhook",
	[TIPME_TRIG_THRESHOLD] = "threshold",
	[TIPME_TRIG_AUTO] = "auto",
};

static const char *const clock_sources[] = {
	[TIPME_CLOCK_TSC] = "tsc",
	[TIPME_CLOCK_LOCAL] = "local_clock",
};

const char *tm_trigger_source_name(uint32_t source, const char *unknown)
{
	if (source < sizeof(trigger_sources) / sizeof(trigger_sources[0]) &&
	    trigger_sources[source])
		return trigger_sources[source];
	return unknown;
}

const char *tm_clock_source_name(uint32_t source, const char *unknown)
{
	if (source < sizeof(clock_sources) / sizeof(clock_sources[0]) &&
	    clock_sources[source])
		return clock_sources[source];
	return unknown;
}
