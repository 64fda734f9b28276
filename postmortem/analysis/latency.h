/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long each key or button press and pointer motion of an incident
 * took to reach the screen, and where that time went: the X dump and the rebuilt kernel state in, one
 * struct pm_lat_event per press out; print/latency.h prints them.
 */
#ifndef TIPME_PM_ANALYSIS_LATENCY_H
#define TIPME_PM_ANALYSIS_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "../state/resources.h"
#include "../state/state.h"
#include "flip.h"

struct tm_xdump;

#define PM_X_KEY_PRESS		2
#define PM_X_BUTTON_PRESS	4
#define PM_X_MOTION		6

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
 * @done_ns: when the client waited for input again (or the dump's end)
 * @drawing: the client's drawing requests the server executed for it
 * @draw_ns: the X dump's stamp of the last of them (whole ms, never after
 *	its dispatch), 0 if none
 * @display_ns: when the X server had executed the last of them: it went
 *	back to waiting, or dispatched the next request (of any client),
 *	whichever came first (0: no drawing, or the server's thread is not
 *	in the kernel dump)
 * @via: the kernel's press this input came from when the X server is a
 *	compositor's client (Xwayland): the path from its input record
 *	through the compositor to the server, and from the server's commit
 *	of the drawing to the compositor's flip (pm_kernel_press_via());
 *	via.end.flip is NULL when there is none
 * @xflip: when the X server drives the display itself (Xorg with
 *	modesetting): its flip that showed the drawing (pm_latency_analyse()
 *	says which); xflip.flip is NULL when there is none (and with @via)
 * @handed_ns: with @via or @xflip, when the X server woke @pid with the
 *	input
 * @end_ns: the later of @done_ns and @display_ns: the input on the screen
 * @time: running, runnable, blocked and unknown ns of the client between
 *	the press and @done_ns
 * @longest: the longest blocked stretch in that time, or NULL
 * @longest_ns: its part in it
 */
struct pm_lat_event {
	int64_t press_ns;
	int code;
	int result;
	uint32_t pid;
	char comm[16];
	int64_t delivered_ns;
	int64_t done_ns;
	uint32_t drawing;
	int64_t draw_ns;
	int64_t display_ns;
	struct pm_press_path via;
	struct pm_flip_end xflip;
	int64_t handed_ns;
	int64_t end_ns;
	int64_t time[4];
	const struct pm_seg *longest;
	int64_t longest_ns;
};

/**
 * struct pm_latency - every input of an incident
 * @events: in time order
 * @n: how many
 * @slowest: the slowest handled or unfinished input (pm_lat_to_screen_ns()),
 *	     or NULL
 * @server: the X server's PID (the X dump's), 0 if unknown
 */
struct pm_latency {
	struct pm_lat_event *events;
	size_t n;
	const struct pm_lat_event *slowest;
	uint32_t server;
};

/**
 * pm_lat_to_screen_ns() - how long an input took to reach the screen
 * @ev: a handled or unfinished input
 *
 * Return: from the kernel's input record to the flip when the kernel's
 * dump follows the input there (@ev->via), from the device event to the
 * X server's own flip for it (@ev->xflip), else from the device event to
 * its end in the X dump (@ev->end_ns).  The slowest input is the one with
 * the most.
 */
int64_t pm_lat_to_screen_ns(const struct pm_lat_event *ev);

/**
 * pm_latency_analyse() - follow every press and pointer motion of the X dump
 * @inc: the incident
 * @st: its rebuilt state
 * @res: its resources (the work items the answer to a press may go through)
 * @out: the result; release with pm_latency_free()
 *
 * A handled press whose drawing an X server that reads page flips' events
 * executed (Xorg with modesetting) ends on the screen at the server's
 * flip that showed it (@xflip): the first flip the server committed at
 * or after the X dump's stamp of the client's last drawing request, when
 * the records show that commit (its vblank_queued, the queueing of the
 * work item that delivered it, or its delivery by the server): a
 * Present request flips in its own dispatch, and the flip may complete
 * before the server is done with the round (Xorg on virtio-gpu under
 * TCG); else the first flip delivered to the server's file once it had
 * executed the drawing (a compositor's frame the server flips for it,
 * or a flip the records do not tie to a commit).
 *
 * Return: 0 or -ENOMEM.
 */
int pm_latency_analyse(const struct pm_incident *inc, const struct pm_state *st,
		       const struct pm_res *res, struct pm_latency *out);

/**
 * pm_latency_only() - keep the presses one process received
 * @l: the result of pm_latency_analyse()
 * @pm: the dump (the receiving threads' processes)
 * @pid: a thread of that process
 *
 * The others are dropped and the slowest is found again among these.
 */
void pm_latency_only(struct pm_latency *l, const struct pm_dump *pm, uint32_t pid);

/**
 * pm_latency_free() - release a result
 * @l: the result
 */
void pm_latency_free(struct pm_latency *l);

#endif
