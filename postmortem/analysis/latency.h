/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long each key or button press of an incident took to handle, and
 * where that time went: the X dump and the rebuilt kernel state in, one
 * struct pm_lat_event per press out; report/latency.h prints them.
 */
#ifndef TIPME_PM_ANALYSIS_LATENCY_H
#define TIPME_PM_ANALYSIS_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "../state/state.h"

struct xdump;

#define PM_X_KEY_PRESS		2
#define PM_X_BUTTON_PRESS	4

enum pm_lat_result {
	PM_LAT_HANDLED,		/* the client waited for input again */
	PM_LAT_UNFINISHED,		/* still handling when the dump ends */
	PM_LAT_NOT_DELIVERED,	/* no client got the event */
	PM_LAT_PID_UNKNOWN,	/* the client's PID could not be learnt */
	PM_LAT_NO_THREAD,		/* the kernel dump has nothing of that PID */
};

/**
 * struct pm_lat_event - one press and what became of it
 * @press_ns: the device event (CLOCK_MONOTONIC)
 * @code: PM_X_KEY_PRESS or PM_X_BUTTON_PRESS
 * @result: enum pm_lat_result
 * @pid: the receiving client's PID (0 if none or unknown)
 * @comm: its command name
 * @delivered_ns: when the server queued the event to it
 * @end_ns: when it waited for input again (or the dump's end)
 * @time: running, runnable, blocked and unknown ns inside the handling
 * @longest: the longest blocked stretch inside the handling, or NULL
 * @longest_ns: its part inside the handling
 */
struct pm_lat_event {
	int64_t press_ns;
	int code;
	int result;
	uint32_t pid;
	char comm[16];
	int64_t delivered_ns;
	int64_t end_ns;
	int64_t time[4];
	const struct pm_seg *longest;
	int64_t longest_ns;
};

/**
 * struct pm_latency - every press of an incident
 * @events: in time order
 * @n: how many
 * @slowest: the slowest handled or unfinished press, or NULL
 */
struct pm_latency {
	struct pm_lat_event *events;
	size_t n;
	const struct pm_lat_event *slowest;
};

/**
 * pm_latency_analyse() - follow every key and button press of @x
 * @pm: the kernel dump
 * @st: its rebuilt state
 * @x: the X dump of the same incident
 * @out: the result; release with pm_latency_free()
 *
 * Return: 0 or -ENOMEM.
 */
int pm_latency_analyse(const struct pm_dump *pm, const struct pm_state *st,
		       const struct xdump *x, struct pm_latency *out);

/**
 * pm_latency_free() - release a result
 * @l: the result
 */
void pm_latency_free(struct pm_latency *l);

#endif
