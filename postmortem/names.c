// SPDX-License-Identifier: GPL-2.0
/*
 * Names: of tasks (from the exec table), of the dump format's values
 * (clock sources, trigger sources, input kinds), and bytes from a dump as
 * printable text.  Every printer uses these; they use no printer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "instr.h"
#include "names.h"

const char *pm_task_name(const struct pm_dump *pm, uint32_t pid, uint64_t ts)
{
	const struct pm_exec *x = pid ? pm_exec_find(pm, pid, ts) : NULL;

	return x && x->x.comm[0] ? x->x.comm : NULL;	/* comm is NUL-padded */
}

char *pm_fmt_task(const struct pm_dump *pm, uint32_t pid, uint64_t ts,
		  char *buf, size_t len)
{
	const char *name = pm_task_name(pm, pid, ts);

	if (name)
		snprintf(buf, len, "%s:%" PRIu32, name, pid);
	else
		snprintf(buf, len, "%" PRIu32, pid);
	return buf;
}

const char *pm_clock_source_name(uint32_t src)
{
	switch (src) {
	case TIPME_CLOCK_TSC:	return "tsc";
	case TIPME_CLOCK_LOCAL:	return "local_clock";
	default:		return NULL;
	}
}

const char *pm_trigger_source_name(unsigned int src)
{
	switch (src) {
	case TIPME_TRIG_SYSCTL:		return "sysctl";
	case TIPME_TRIG_HOTKEY:		return "hotkey";
	case TIPME_TRIG_NETLINK:	return "netlink";
	case TIPME_TRIG_XHOOK:		return "xhook";
	case TIPME_TRIG_THRESHOLD:	return "threshold";
	default:			return "?";
	}
}

const char *pm_input_kind_name(unsigned int kind)
{
	switch (kind) {
	case TIPME_INPUT_KEY:		return "key";
	case TIPME_INPUT_BUTTON:	return "button";
	case TIPME_INPUT_MOTION:	return "motion";
	case TIPME_INPUT_HOTKEY:	return "hotkey";
	default:			return "?";
	}
}

void pm_print_text(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, f);
		else if (c == '\\')
			fputs("\\\\", f);
		else
			fprintf(f, "\\x%02x", c);
	}
}
