/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The path of a press to the screen on a compositor's desktop (flip.c),
 * from kernel records alone: the input, the reader of the event device
 * (the compositor), the client it woke, the client waking the compositor
 * (its commit), the compositor's next page flip, the refresh that showed
 * it.  For the kernel input's interval (its end), tipme latency's legs
 * without an X dump, and the X server's own flips.
 */
#ifndef TIPME_PM_FLIP_H
#define TIPME_PM_FLIP_H

#include <stdint.h>

#include "../state/resources.h"
#include "../state/state.h"

/**
 * struct pm_flip_end - a compositor's page flip after a moment
 * @flip: the delivery of its completion (one of struct pm_res.flips)
 * @commit_ns: when the compositor committed it: its vblank_queued
 *	record; else the flip's delivery, when a thread of the compositor
 *	sent it (a device without vblanks completes the flip in the commit);
 *	else the end of @thread's last run before the delivery; else the
 *	moment given
 * @flip_ns: the refresh that showed it: the vblank's time as DRM gave it,
 *	else the delivery
 * @commit_from: enum pm_commit_from: how @commit_ns was told
 * @noutputs: the CRTCs the compositor flipped on from @after_ns to 100
 *	ms after @flip_ns (more than one: several outputs)
 * @started: the flip after @after_ns that only started the compositor's
 *	repaint loop, when @flip is the repaint that followed it (weston on
 *	a device without a vblank counter flips the old picture again to
 *	learn the refresh's time, then waits for its repaint window); NULL
 *	when @flip is the first flip after @after_ns
 * @repaint_ns: with @started, the compositor's wakeup by its timer that
 *	began the repaint (the end of its wait for the repaint window); 0
 *	if it never waited for it (busy past its repaint window)
 */
enum pm_commit_from {
	PM_COMMIT_QUEUED,	/* the vblank_queued record */
	PM_COMMIT_DELIVERY,	/* the delivery, by a compositor thread */
	PM_COMMIT_LAST_RUN,	/* the end of the compositor's last run before */
	PM_COMMIT_AFTER,	/* nothing says: the moment the search began */
	PM_COMMIT_WORK,		/* the queueing of the work item that delivered it */
	PM_COMMIT_NR,
};

struct pm_flip_end {
	const struct pm_flip *flip;
	int64_t commit_ns;
	int64_t flip_ns;
	int commit_from;
	uint32_t noutputs;
	const struct pm_flip *started;
	int64_t repaint_ns;
};

int pm_flip_after(const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_res *res, uint32_t compositor, uint32_t thread,
		  int64_t after_ns, struct pm_flip_end *out);

/*
 * How the reader of an input was found (struct pm_press_path.reader_by,
 * struct pm_input_read.by; kinput.c).
 */
enum pm_reader_by {
	PM_READER_NONE,		/* no reader found */
	PM_READER_WAKEUP,	/* the wakeup that delivered the input (evdev's) */
	/*
	 * none delivered it (a press): the thread the nearest other input's
	 * wakeup woke, already runnable or running at the press
	 */
	PM_READER_AWAKE,
	/*
	 * ... and no other input has a wakeup: the main thread of the
	 * process that reads the page flips' events, not asleep at the press
	 */
	PM_READER_FLIP_READER,
	PM_READER_NR,
};

/* Their names in the JSON of report and latency (a documented contract). */
extern const char *const pm_reader_by_key[PM_READER_NR];

/* How a press's commit was found (struct pm_press_path.commit_by). */
enum pm_commit_by {
	PM_COMMIT_BY_WAKEUP,	/* the client's wakeup of a compositor thread */
	/*
	 * none: the client ran while the reader was runnable or running, and
	 * the reader flipped before it waited for other work
	 */
	PM_COMMIT_BY_AWAKE,
	PM_COMMIT_BY_STOPPED,	/* ... while the reader was stopped */
	PM_COMMIT_BY_NR,
};

/* Their names in report's JSON ("commit_by"; a documented contract). */
extern const char *const pm_commit_by_key[PM_COMMIT_BY_NR];

/**
 * struct pm_press_path - one press from the input to the screen
 * @press_ns: the input record
 * @reader: the compositor's thread that read the input (@reader_by says
 *	how it was found), or the one it handed the input to (@handed_from)
 * @reader_by: enum pm_reader_by; PM_READER_WAKEUP: the input woke @reader
 * @compositor: its process
 * @read_ns: that wakeup (not woken: the press)
 * @idle_ns: when the reader next waited for work (poll, epoll ...): the
 *	end of the press when the dump has no flip; 0 if never
 * @handed_from: the thread the input woke, when it handed the input to
 *	another thread of its process (@reader) before it waited for work
 *	again, having woken no client (Xorg's input thread waking the main
 *	thread); 0 if it did not
 * @handed_ns: that wakeup
 * @client: the client's thread the compositor woke while dispatching the
 *	input (0: none)
 * @client_proc: its process
 * @client_waker: the compositor's thread that woke it
 * @client_ns: that wakeup
 * @nclients: processes the compositor woke while dispatching it
 * @commit_ns: the client's last wakeup of the compositor before the
 *	compositor committed the flip (its commit; 0: none)
 * @committer: the client's thread that made it
 * @commit_to: the compositor's thread it woke
 * @commit_by: enum pm_commit_by: how the commit was found; not
 *	PM_COMMIT_BY_WAKEUP: no wakeup shows it, the reader was not asleep
 *	for it (running, runnable or stopped), @commit_ns is the end of a run
 *	of the client's, @commit_to the reader
 * @composit_ns: when that thread ran after it (0: not before the dump's end)
 * @end: the flip (end.flip NULL: none)
 */
struct pm_press_path {
	int64_t press_ns;
	uint32_t reader;
	int reader_by;
	uint32_t compositor;
	int64_t read_ns;
	int64_t idle_ns;
	uint32_t handed_from;
	int64_t handed_ns;
	uint32_t client;
	uint32_t client_proc;
	uint32_t client_waker;
	int64_t client_ns;
	uint32_t nclients;
	int64_t commit_ns;
	uint32_t committer;
	uint32_t commit_to;
	int commit_by;
	int64_t composit_ns;
	struct pm_flip_end end;
};

int pm_press_path(const struct pm_incident *inc, const struct pm_state *st,
		  const struct pm_res *res, const struct pm_wake *reader,
		  int64_t press_ns, struct pm_press_path *out);
int64_t pm_press_reader_end(const struct pm_incident *inc, const struct pm_state *st,
			    const struct pm_press_path *p);
int pm_press_commit_from(const struct pm_incident *inc, const struct pm_state *st,
			 const struct pm_res *res, struct pm_press_path *p, int64_t from_ns);

/* The stages of a press's path, in order (struct pm_press_leg.stage). */
enum pm_press_stage {
	PM_STAGE_DISPATCH,	/* the input to the compositor waking its client */
	PM_STAGE_CLIENT,	/* the client woken to its commit */
	PM_STAGE_COMMIT,	/* the commit to the compositor running again */
	PM_STAGE_COMPOSE,	/* the compositor running to the flip's commit */
	PM_STAGE_REFRESH,	/* the flip's commit to the refresh that showed it */
	PM_STAGE_IDLE,		/* no client: the input to the reader's next wait */
	/* the client is an X server (Xwayland): pm_press_legs_x(); Xorg: pm_xorg_legs() */
	PM_STAGE_X_SERVER,	/* it woken (Xorg: its device event) to its wakeup of its X client */
	PM_STAGE_X_CLIENT,	/* the X client to its last drawing request (Xorg: done) */
	PM_STAGE_X_DRAW,	/* the X server drawing, to its commit (Xorg: its flip's) */
	PM_STAGE_NR,
};

/* The stages' names in tipme latency's JSON (a documented contract). */
extern const char *const pm_stage_key[PM_STAGE_NR];

/**
 * struct pm_press_leg - one stage of a press's path
 * @stage: enum pm_press_stage
 * @pid: the thread it is the time of (the refresh's: 0, the display's)
 * @from_ns: its start, CLOCK_MONOTONIC ns
 * @to_ns: its end
 */
struct pm_press_leg {
	int stage;
	uint32_t pid;
	int64_t from_ns;
	int64_t to_ns;
};

#define PM_PRESS_LEGS	5
#define PM_PRESS_LEGS_X	7	/* pm_press_legs_x()'s */
#define PM_XORG_LEGS	4	/* pm_xorg_legs()'s */

int pm_press_legs(const struct pm_press_path *p, struct pm_press_leg *legs);
int pm_press_legs_x(const struct pm_press_path *p, uint32_t xclient, int64_t handed_ns,
		    int64_t draw_ns, struct pm_press_leg *legs);
int pm_xorg_legs(const struct pm_flip_end *e, uint32_t server, uint32_t xclient,
		 int64_t press_ns, int64_t handed_ns, int64_t client_ns, struct pm_press_leg *legs);

#endif
