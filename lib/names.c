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

static const struct {
	const char *name;
	const char *title;
} input_kinds[] = {
	[TIPME_INPUT_KEY] = { "key", "key" },
	[TIPME_INPUT_BUTTON] = { "button", "button" },
	[TIPME_INPUT_MOTION] = { "motion", "pointer motion" },
	[TIPME_INPUT_HOTKEY] = { "hotkey", "tipme hotkey" },
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

const char *tm_input_kind_name(uint32_t kind, const char *unknown)
{
	if (kind < sizeof(input_kinds) / sizeof(input_kinds[0]) &&
	    input_kinds[kind].name)
		return input_kinds[kind].name;
	return unknown;
}

const char *tm_input_kind_title(uint32_t kind, const char *unknown)
{
	if (kind < sizeof(input_kinds) / sizeof(input_kinds[0]) &&
	    input_kinds[kind].title)
		return input_kinds[kind].title;
	return unknown;
}
