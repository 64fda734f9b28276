// SPDX-License-Identifier: GPL-2.0
/*
 * A key press on a compositor's desktop, to the page flip that showed
 * its answer, in scenario dumps whose truth the test wrote
 * (tests/unit/scen.h).  The compositor (sway, 500) reads the key at
 * 10 ms and wakes the client (foot, 600) over its socket; the client
 * answers and wakes the compositor (its commit); the compositor composes
 * and commits a flip that completes at the next refresh (vblanks every
 * 16 ms on CRTC 0, 8 ms after them on CRTC 1, delivered from the vblank
 * interrupt).  What the client does for 300 ms: sleeps (timer), computes
 * (running), waits on a fence another process (700) signals (gpu), is
 * stopped (stopped); or the compositor itself is stopped, or busy; a
 * dump without flips ends the press where the compositor waits again
 * (reader_idle); two clients woken and two outputs flipping (which one
 * was followed, and why); a commit that misses a refresh by 1 ms (the
 * refresh it missed is the client's, not the display's); a client that
 * handles the key without a word, whose answer to later news is no
 * commit of the key's (reader_idle); the module's
 * auto trigger naming the press; the client's sleep again, with the
 * records a real flip on virtio-gpu under seatd leaves (t-wayland): no
 * vblank or vblank_queued record, one delivery with sequence 0 sent by a
 * kworker in the commit's work, to a file seatd (450) opened, followed in
 * the same call by the kworker's wakeup of sway, and again with sway
 * runnable when the kworker delivers it (no wakeup: the work item sway
 * queued tells whose file it is); the compositor stopped
 * after it dispatched the key, so that the client's commit wakes nobody
 * (as in t-wayland's compstop); the same, but the client blocked in a
 * write (uninterruptibly) as the compositor answered after the flip, so
 * that no wakeup shows the answer, and a later message of the client's
 * is followed by a later flip (t-wayland's compstop under load, when
 * wlkey logged to 9p): the flip after the compositor was continued is
 * the press's, not the later one; the client's computing, with the key
 * and its wakeup of sway recorded on a CPU whose clock lags the others'
 * by 5 ms (local_clock() on a machine whose TSC is unstable: t-wayland's
 * first press), so that sway's run for a timer, and its wait after it,
 * seem to follow that wakeup, and its run for the key follows a sleep no
 * wakeup ended; the seat one with sway runnable at the flip's delivery
 * (the kworker that runs the commit's work preempted it): no delivery
 * wakes it, and the file seatd opened is sway's as the process that
 * queued that work; the client's sleep with sway runnable when the key
 * comes (a timer woke it 1.5 ms before): no wakeup for the key, and
 * sway's wakeup of the client next to it is not evdev's (sway was not on
 * the CPU at the record), the reader is sway, which read the press
 * before, and the same in a dump without flips; a desktop typed at 64
 * times (tests/unit/typing.c), where some presses find their reader
 * runnable, among many inputs read by two threads; the fence's wait again
 * with sway woken by a timer as foot commits (no wakeup shows the commit)
 * and asleep when foot, having read the answer, waits again (t-wayland's
 * fence under load); a client that handles the key without a word while
 * sway is awake, and a blink sway flips later (not the key's: the module's
 * auto trigger's false alarm);
 * the client's sleep
 * under weston (t-weston) on virtio-gpu: woken by the commit, weston
 * first flips the old picture again (the start of its repaint loop, to
 * learn the refresh's time), waits for its repaint window (a timer
 * 16.667 - 7 ms after that flip) and then flips the answer: the press
 * ends at the second flip, the wait for the timer is display (before,
 * the press ended at the first, 11 ms early); the same with weston
 * runnable from the commit to the repaint, its timer expiring as it ran
 * (t-weston's first press under TCG), both flips delivered by the
 * kworker that preempted it; an X client's sleep under an Xwayland that
 * never sleeps again once sway woke it for the key (t-xwayland under
 * TCG), and a second key later: the client's wait for that key is no
 * round trip for the first key's reply (before, the first press lasted
 * to the second one's flip), and the same with each reply sent in the
 * millisecond in which it was written and the client waits again; the
 * X client's sleep with Xwayland computing on for 350 ms between
 * executing the drawing and committing it (t-xwayland in a full check):
 * from the drawing on the chain follows Xwayland, not the X client's wait
 * for its next key (before, that wait was the verdict); a
 * client that writes the key to its pty (queues the tty's work, whose
 * kworker wakes the terminal's program) and waits in poll, where the
 * key's release finds it before the program, having stopped it 300 ms,
 * lets it answer (t-foot's race: before, the press ended at sway's wait,
 * "drew nothing"); the client's sleep with sway woken by a timer just
 * before foot commits (no wakeup shows the commit), sway committing the
 * flip (queueing commit_work) and waiting, woken by another timer before
 * the kworker delivers the flip (t-wlauto's sleep under load: before,
 * that wakeup made the commit sway's other work and the press "drew
 * nothing"; the module's auto trigger forgot it); under weston, the
 * loop's first flip delivered by the kworker that preempted weston, which
 * then sends foot its replies to the commit before it reads that flip's
 * event, and the key's release written through uinput waking weston
 * between the two flips (t-weston: before, each ended the press at the
 * loop's first flip, one refresh early); an X client of Xorg with
 * modesetting, which flips in the dispatch of the client's Present
 * request, the kworker completing the flip while Xorg still draws (t-xorg
 * on virtio-gpu: before, the press ended at the next press's flip); the
 * compositor stopped as the client commits, continued and never waiting
 * again until a flip 40 ms after the one that showed the commit, telling
 * the client of its frame in between (t-wayland's compstop: before, the
 * first flip was taken for a repaint loop's start and the press ended
 * 77 ms late).  Each:
 * `tipme report`
 * without --pid chooses the press, its interval from the input to the refresh of the
 * flip (the truth the scenario wrote), and names the cause and culprit;
 * `tipme latency` lists its legs.  Text and JSON against
 * tests/unit/golden/flip-NAME.{txt,json} (TIPME_UPDATE_GOLDEN=1 rewrites
 * them; review the diff).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture.h"
#include "cmd/commands.h"
#include "gen.h"
#include "golden.h"
#include "scen.h"
#include "stategold.h"
#include "tap.h"
#include "typing.h"
#include "writefile.h"
#include "xdumpfile.h"

static char dir[64];

static const char *const poll_site[] = { "do_sys_poll", NULL };
static const char *const sleep_site[] = { "hrtimer_nanosleep", "common_nsleep", NULL };
static const char *const stop_site[] = { "do_signal_stop", "get_signal", NULL };
static const char *const write_site[] = { "p9_client_rpc", "v9fs_file_write_iter", NULL };

enum variant {
	V_TIMER,	/* the client sleeps 300 ms before committing */
	V_RUNNING,	/* ... computes 300 ms */
	V_GPU,		/* ... waits 300 ms on a fence 700 signals */
	V_STOPPED,	/* ... is stopped 300 ms */
	V_COMP_STOPPED,	/* the compositor is stopped 300 ms before dispatching */
	V_COMP_BUSY,	/* the compositor computes 300 ms before dispatching */
	V_NOFLIP,	/* the timer's, in a dump without DRM events */
	V_TWO,		/* two clients woken, two outputs flipping */
	V_LATE,		/* a commit 1 ms after a vblank: the next one shows it */
	V_SILENT,	/* the client handles the key without a word; later news */
	V_SEAT,		/* the timer's, flipped as on virtio-gpu under seatd */
	V_UNSEEN,	/* the compositor stopped when the client commits */
	V_UNSEEN_BUSY,	/* ... and the client in a write as it answers; a later message */
	V_SKEW,		/* the running one's, the key on a CPU whose clock lags 5 ms */
	V_SEAT_RUNNABLE, /* the seat one's, sway runnable at every delivery */
	V_AWAKE,	/* the timer's, sway runnable when the key comes */
	V_AWAKE_ALONE,	/* ... and no other input in the dump */
	V_SEAT_BUSY,	/* as V_SEAT, the compositor runnable at the delivery */
	V_AWAKE_NOFLIP,	/* V_AWAKE in a dump without DRM events */
	V_XWL_TIMER,	/* an X client under Xwayland sleeps 300 ms (xwayland()) */
	V_XWL_RUNNING,	/* ... computes 300 ms */
	V_XWL_UNSEEN,	/* ... sleeps, sway runnable at Xwayland's commit */
	V_XWL_AWAKE,	/* ... sleeps, Xwayland runnable when sway sends the key */
	V_GPU_AWAKE,	/* V_GPU's, sway awake for a timer as foot commits */
	V_SILENT_AWAKE,	/* V_SILENT's, sway awake as foot waits again; a blink */
	V_WESTON,	/* the timer's under weston: a flip starts its repaint loop */
	V_WESTON_BUSY,	/* ... weston busy (runnable) from the commit to the repaint */
	V_AWAKE_LAG,	/* V_AWAKE_ALONE's, the key stamped on a CPU whose clock lags */
	V_WESTON_STOPPED, /* V_WESTON's, weston stopped when the client commits */
	V_XWL_BUSY,	/* V_XWL_TIMER's, Xwayland never asleep again; a second key */
	V_XWL_SAMEMS,	/* ... the reply sent in the millisecond it was written */
	V_XWL_LATE,	/* V_XWL_TIMER's, Xwayland's commit 350 ms after the drawing */
	V_PTY,		/* the client passes the key to a pty, its release comes first */
	V_UNSEEN_AGAIN,	/* V_UNSEEN's, sway's timer and another flip 40 ms later */
	V_XWL_FRAMED,	/* V_XWL_UNSEEN's, Xwayland busy until after the flip */
	V_TIMER_RACE,	/* the timer's, sway awake at the commit, a timer before the flip */
	V_WESTON_TOLD,	/* V_WESTON's, weston's replies to the commit after its first flip */
	V_WESTON_RELEASE, /* V_WESTON's, the key's release through uinput between its flips */
	V_AWAKE_OTHER,	/* V_AWAKE's, the press before "woke" another task (a softirq's) */
	V_XWL_SLOWX,	/* V_XWL_LATE's, and a later X press slower to its client's end */
	V_XORG,		/* an X client of Xorg, which flips for it (xorg_present()) */
	V_XWL_UINPUT,	/* V_XWL_TIMER's, the key from a uinput writer; a timer's wakeup */
	V_UNSEEN_RUN,	/* V_UNSEEN_AGAIN's, sway never waiting from its continue to a flip */
	V_XORG_KBD,	/* Xorg's input thread hands the key to its main thread; no flip */
	V_XORG_KBD_UNTRACED, /* ... DRM's flips not traced */
};

static const char *const names[] = {
	[V_TIMER] = "timer", [V_RUNNING] = "running", [V_GPU] = "gpu",
	[V_STOPPED] = "stopped", [V_COMP_STOPPED] = "comp-stopped",
	[V_COMP_BUSY] = "comp-busy", [V_NOFLIP] = "noflip", [V_TWO] = "two",
	[V_LATE] = "late", [V_SILENT] = "silent", [V_SEAT] = "seat",
	[V_UNSEEN] = "unseen", [V_UNSEEN_BUSY] = "unseen-busy", [V_SKEW] = "skew",
	[V_SEAT_RUNNABLE] = "seat-runnable", [V_AWAKE] = "awake",
	[V_AWAKE_ALONE] = "awake-alone",
	[V_SEAT_BUSY] = "seat-busy", [V_AWAKE_NOFLIP] = "awake-noflip",
	[V_XWL_TIMER] = "xwayland-timer", [V_XWL_RUNNING] = "xwayland-running",
	[V_XWL_UNSEEN] = "xwayland-unseen", [V_XWL_AWAKE] = "xwayland-awake",
	[V_GPU_AWAKE] = "gpu-awake", [V_SILENT_AWAKE] = "silent-awake",
	[V_WESTON] = "weston", [V_WESTON_BUSY] = "weston-busy",
	[V_AWAKE_LAG] = "awake-lag", [V_WESTON_STOPPED] = "weston-stopped",
	[V_XWL_BUSY] = "xwayland-busy", [V_XWL_SAMEMS] = "xwayland-samems",
	[V_XWL_LATE] = "xwayland-late",
	[V_PTY] = "pty", [V_UNSEEN_AGAIN] = "unseen-again",
	[V_XWL_FRAMED] = "xwayland-framed",
	[V_TIMER_RACE] = "timer-race",
	[V_WESTON_TOLD] = "weston-told", [V_WESTON_RELEASE] = "weston-release",
	[V_AWAKE_OTHER] = "awake-other", [V_XWL_SLOWX] = "xwayland-slowx",
	[V_XORG] = "xorg-present", [V_XWL_UINPUT] = "xwayland-uinput",
	[V_UNSEEN_RUN] = "unseen-run",
	[V_XORG_KBD] = "xorg-kbd", [V_XORG_KBD_UNTRACED] = "xorg-kbd-untraced",
};

/* @pid leaves @cpu at @ms in task state @state at @site; @next runs. */
static void leaves(struct scen *s, uint32_t cpu, double ms, uint32_t pid, uint8_t state,
		   uint32_t next, const char *const *site)
{
	scen_switch(s, cpu, MS(ms), pid, state, 120, next, 120);
	scen_blocked(s, cpu, MS(ms), pid, site);
}

/*
 * 700 (cpu 2), woken by an interrupt just before @ms, wakes @target (on
 * @cpu) at @ms (a signal's delivery) and sleeps again at @out.
 */
static void signal_from_700(struct scen *s, double ms, uint32_t target, uint32_t cpu,
			    double out)
{
	scen_wake(s, 2, MS(ms - 0.1), 700, 2, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 2, MS(ms - 0.05), 0, TIPME_TS_RUNNABLE, 120, 700, 120);
	scen_wake(s, 2, MS(ms), target, cpu, 700, TIPME_CTX_TASK);
	scen_switch(s, 2, MS(out), 700, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 2, MS(out), 700, sleep_site);
}

/*
 * @pid on @cpu, woken by an interrupt at @ms, runs from 0.1 ms later and
 * blocks at @out in task state @state at @site.
 */
static void woken_blocks(struct scen *s, uint32_t cpu, uint32_t pid, double ms, double out,
			 uint8_t state, const char *const *site)
{
	scen_wake(s, cpu, MS(ms), pid, cpu, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, cpu, MS(ms + 0.1), 0, TIPME_TS_RUNNABLE, 120, pid, 120);
	scen_switch(s, cpu, MS(out), pid, state, 120, 0, 120);
	scen_blocked(s, cpu, MS(out), pid, site);
}

/* @p0, @p1 and @p2, on CPUs 0, 1 and 2, run at 0.6 ms and wait in poll from 1 ms. */
static void asleep(struct scen *s, uint32_t p0, uint32_t p1, uint32_t p2)
{
	woken_blocks(s, 0, p0, 0.5, 1, TIPME_TS_SLEEPING, poll_site);
	woken_blocks(s, 1, p1, 0.5, 1, TIPME_TS_SLEEPING, poll_site);
	woken_blocks(s, 2, p2, 0.5, 1, TIPME_TS_SLEEPING, poll_site);
}

/*
 * sway, woken by an interrupt just before @ms, sends foot a message at
 * @ms (wakes it from poll) and waits in poll again; foot runs.
 */
static void sway_sends(struct scen *s, double ms)
{
	scen_wake(s, 0, MS(ms - 0.1), 500, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(ms - 0.05), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_wake(s, 0, MS(ms), 600, 1, 500, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms + 0.2), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(ms + 0.2), 500, poll_site);
	scen_switch(s, 1, MS(ms + 0.1), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
}

/*
 * A flip as virtio-gpu records it: at @ms the kworker (90) running the
 * commit's work on CPU 0 delivers the event (sequence 0, no vblank,
 * nothing queued) to @file, opened by @owner: under seatd (sway) seatd
 * (450), which passed it to the compositor; weston (500) opens its own.
 * The kworker wakes the compositor (500, asleep in poll) in the same
 * call; the compositor reads it, with @answer first sends foot (600) its
 * frame callback (wakes it at @ms + 0.2), and waits in poll again at
 * @ms + 0.3.
 */
static void worker_flip(struct scen *s, double ms, uint32_t file, uint32_t owner, int answer)
{
	static const char *const worker_site[] = { "worker_thread", "kthread", NULL };
	struct tipme_rec_vblank_ev ev = { 0 };

	scen_switch(s, 0, MS(ms - 0.05), 0, TIPME_TS_RUNNABLE, 120, 90, 120);
	ev.file = file;
	ev.who = tipme_work_who(90, TIPME_CTX_TASK);
	ev.owner = owner;
	scen_rec(s, 0, TIPME_REC_VBLANK_DELIVERED, MS(ms), &ev, sizeof(ev));
	scen_wake(s, 0, MS(ms + 0.04), 500, 0, 90, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms + 0.1), 90, TIPME_TS_IDLE, 120, 500, 120);
	scen_blocked(s, 0, MS(ms + 0.1), 90, worker_site);
	if (answer)
		scen_wake(s, 0, MS(ms + 0.2), 600, 1, 500, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms + 0.3), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(ms + 0.3), 500, poll_site);
}

/* The seat's flip (sway under seatd, t-wayland). */
static void seat_flip(struct scen *s, double ms)
{
	worker_flip(s, ms, 0x5ea70000, 450, 0);
}

/*
 * The same flip with sway runnable at the delivery: sway, woken by a timer
 * just before @ms, commits (queues commit_work), the kworker preempts it
 * and delivers the event in that work at @ms; sway runs on, then sleeps.
 */
static void seat_flip_runnable(struct scen *s, double ms)
{
	static const char *const worker_site[] = { "worker_thread", "kthread", NULL };
	struct tipme_rec_vblank_ev ev = { 0 };

	scen_wake(s, 0, MS(ms - 0.4), 500, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(ms - 0.35), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_work(s, 0, TIPME_REC_WORK_QUEUE, MS(ms - 0.3), 0xc0, "commit_work", 500,
		  TIPME_CTX_TASK);
	scen_wake(s, 0, MS(ms - 0.25), 90, 0, 500, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms - 0.2), 500, TIPME_TS_RUNNABLE, 120, 90, 120);
	scen_work(s, 0, TIPME_REC_WORK_START, MS(ms - 0.1), 0xc0, "commit_work", 90,
		  TIPME_CTX_TASK);
	ev.file = 0x5ea70000;
	ev.who = tipme_work_who(90, TIPME_CTX_TASK);
	ev.owner = 450;
	scen_rec(s, 0, TIPME_REC_VBLANK_DELIVERED, MS(ms), &ev, sizeof(ev));
	scen_work(s, 0, TIPME_REC_WORK_END, MS(ms + 0.05), 0xc0, NULL, 0, 0);
	scen_switch(s, 0, MS(ms + 0.1), 90, TIPME_TS_IDLE, 120, 500, 120);
	scen_blocked(s, 0, MS(ms + 0.1), 90, worker_site);
	scen_switch(s, 0, MS(ms + 0.3), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(ms + 0.3), 500, poll_site);
}

/* weston's flip (t-weston): its own file, weston root; @answer as worker_flip()'s. */
static void weston_flip(struct scen *s, double ms, int answer)
{
	worker_flip(s, ms, 0x3e570000, 500, answer);
}

/*
 * foot commits at @ms (wakes weston, asleep on CPU 0) and waits in poll
 * @after ms later; weston runs from @ms + 0.1.
 */
static void foot_commits(struct scen *s, double ms, double after)
{
	scen_wake(s, 1, MS(ms), 500, 0, 600, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(ms + after), 600, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(ms + after), 600, poll_site);
	scen_switch(s, 0, MS(ms + 0.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
}

/*
 * weston's repaint after its loop's first flip at @ms + 0.7 (weston_answers()): its
 * timer at @ms + 10.4 (that flip's time + one refresh - 7 ms), the
 * answer's flip at @ms + 11.7 and the frame callback to foot, which
 * waits again.
 */
static void weston_repaints(struct scen *s, double ms)
{
	/* the repaint timer: the flip's time + one refresh - 7 ms */
	scen_wake(s, 0, MS(ms + 10.4), 500, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(ms + 10.5), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_switch(s, 0, MS(ms + 11.5), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(ms + 11.5), 500, poll_site);
	weston_flip(s, ms + 11.7, 1);
	/* foot, woken by the frame callback, waits again */
	scen_switch(s, 1, MS(ms + 12), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
	scen_switch(s, 1, MS(ms + 12.2), 600, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(ms + 12.2), 600, poll_site);
}

/*
 * weston's answer to foot's commit at @ms on an idle output of a device
 * without a vblank counter: woken by the commit, it flips the picture on
 * the screen again to learn when the refresh is (delivered at @ms + 0.7;
 * foot waits in poll again at @ms + 0.5),
 * waits for its repaint window (its timer, 16.667 - 7 ms after that
 * flip), composes and flips the answer (delivered at @ms + 11.7), and
 * sends foot its frame callback; with @release, the key's release
 * through uinput wakes weston between the two flips (t-weston's none,
 * 28 Nov: before, that wakeup was news from another process and the
 * press ended at the loop's first flip).
 */
static void weston_answers(struct scen *s, double ms, int release)
{
	struct tipme_rec_input rel = { .kind = TIPME_INPUT_KEY, .value = 0, .device = 3 };

	foot_commits(s, ms, 0.5);
	scen_switch(s, 0, MS(ms + 0.5), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(ms + 0.5), 500, poll_site);
	weston_flip(s, ms + 0.7, 0);
	if (release) {
		/*
		 * vkbd (710, CPU 2), woken by its timer, writes the key's
		 * release to uinput at @ms + 4.5: evdev wakes weston from
		 * vkbd's task, in the call that wrote the input's record;
		 * weston reads it and waits again without a word to anyone
		 */
		scen_wake(s, 2, MS(ms + 4.35), 710, 2, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 2, MS(ms + 4.4), 0, TIPME_TS_RUNNABLE, 120, 710, 120);
		scen_rec(s, 2, TIPME_REC_INPUT, MS(ms + 4.5), &rel, sizeof(rel));
		scen_wake(s, 2, MS(ms + 4.5), 500, 0, 710, TIPME_CTX_TASK);
		leaves(s, 2, ms + 4.6, 710, TIPME_TS_SLEEPING, 0, sleep_site);
		scen_switch(s, 0, MS(ms + 4.6), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		leaves(s, 0, ms + 4.9, 500, TIPME_TS_SLEEPING, 0, poll_site);
	}
	weston_repaints(s, ms);
}

/*
 * A nonblocking commit of weston's at @ms (commit_work @work queued), run
 * by the kworker (90) that preempts weston, still runnable, and delivers
 * the flip's event at @ms + 0.2 (no wakeup: weston is not asleep); weston
 * runs again at @ms + 0.4.
 */
static void weston_commit_busy(struct scen *s, double ms, uint64_t work)
{
	static const char *const worker_site[] = { "worker_thread", "kthread", NULL };
	struct tipme_rec_vblank_ev ev = { 0 };

	scen_work(s, 0, TIPME_REC_WORK_QUEUE, MS(ms), work, "commit_work", 500, TIPME_CTX_TASK);
	scen_wake(s, 0, MS(ms + 0.05), 90, 0, 500, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms + 0.1), 500, TIPME_TS_RUNNABLE, 120, 90, 120);
	scen_work(s, 0, TIPME_REC_WORK_START, MS(ms + 0.15), work, "commit_work", 90,
		  TIPME_CTX_TASK);
	ev.file = 0x3e570000;
	ev.who = tipme_work_who(90, TIPME_CTX_TASK);
	ev.owner = 500;
	scen_rec(s, 0, TIPME_REC_VBLANK_DELIVERED, MS(ms + 0.2), &ev, sizeof(ev));
	scen_work(s, 0, TIPME_REC_WORK_END, MS(ms + 0.25), work, NULL, 0, 0);
	scen_switch(s, 0, MS(ms + 0.4), 90, TIPME_TS_IDLE, 120, 500, 120);
	scen_blocked(s, 0, MS(ms + 0.4), 90, worker_site);
}

/*
 * weston_answers() as t-weston left it under TCG (compstop and none, 28
 * Nov): weston, woken by foot's commit at @ms, queues its loop's first
 * flip at @ms + 0.5 and is preempted, still runnable, by the kworker that
 * delivers it at @ms + 0.7 (weston_commit_busy()); it runs again and
 * sends foot its replies to the commit (a buffer's release) at @ms + 1.1,
 * before it reads the flip's event: that wakes foot, asleep in poll since
 * @ms + 0.3.  weston waits in poll, and repaints (weston_repaints()).
 * Before, that wakeup was taken for news of a frame the first flip showed.
 */
static void weston_replies(struct scen *s, double ms)
{
	foot_commits(s, ms, 0.3);
	weston_commit_busy(s, ms + 0.5, 0xc0);
	scen_wake(s, 0, MS(ms + 1.1), 600, 1, 500, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(ms + 1.15), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
	leaves(s, 1, ms + 1.4, 600, TIPME_TS_SLEEPING, 0, poll_site);
	leaves(s, 0, ms + 1.3, 500, TIPME_TS_SLEEPING, 0, poll_site);
	weston_repaints(s, ms);
}

/*
 * weston's answer to foot's commit at @ms as t-weston's first press left
 * it under TCG: weston, woken by the commit, never waits again until the
 * answer is on the screen: its loop's first flip (delivered at @ms + 0.6)
 * and the repaint's (at @ms + 11.2) come while it is runnable, its repaint
 * timer expires while it runs; then it sends foot its frame callback.
 */
static void weston_busy_answers(struct scen *s, double ms)
{
	foot_commits(s, ms, 0.5);
	weston_commit_busy(s, ms + 0.4, 0xc0);
	weston_commit_busy(s, ms + 11, 0xc1);
	scen_wake(s, 0, MS(ms + 11.5), 600, 1, 500, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms + 11.6), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(ms + 11.6), 500, poll_site);
	scen_switch(s, 1, MS(ms + 11.6), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
	scen_switch(s, 1, MS(ms + 11.8), 600, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(ms + 11.8), 600, poll_site);
}

/*
 * The same flip, as make demo-wayland's sway (no debug log) left it: woken
 * by foot's commit at @ms, sway queues the nonblocking commit's work at
 * @ms + 0.8 and is preempted, still runnable, by the kworker (90) that
 * runs the work and delivers the event (file seatd opened) at @ms + 0.9:
 * no wakeup follows it, the work's queuer tells whose file it is.  sway
 * runs again and sleeps at @ms + 1.3.
 */
static void seat_flip_busy(struct scen *s, double ms)
{
	static const char *const worker_site[] = { "worker_thread", "kthread", NULL };
	struct tipme_rec_vblank_ev ev = { 0 };

	scen_wake(s, 1, MS(ms), 500, 0, 600, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms + 0.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_work(s, 0, TIPME_REC_WORK_QUEUE, MS(ms + 0.8), 0xc0, "commit_work", 500,
		  TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms + 0.85), 500, TIPME_TS_RUNNABLE, 120, 90, 120);
	scen_work(s, 0, TIPME_REC_WORK_START, MS(ms + 0.86), 0xc0, "commit_work", 90,
		  TIPME_CTX_TASK);
	ev.file = 0x5ea70000;
	ev.who = tipme_work_who(90, TIPME_CTX_TASK);
	ev.owner = 450;
	scen_rec(s, 0, TIPME_REC_VBLANK_DELIVERED, MS(ms + 0.9), &ev, sizeof(ev));
	scen_work(s, 0, TIPME_REC_WORK_END, MS(ms + 0.95), 0xc0, NULL, 0, 0);
	scen_switch(s, 0, MS(ms + 1), 90, TIPME_TS_IDLE, 120, 500, 120);
	scen_blocked(s, 0, MS(ms + 1), 90, worker_site);
	scen_switch(s, 0, MS(ms + 1.3), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(ms + 1.3), 500, poll_site);
}

/*
 * sway (cpu 0), woken by @waker at @ms, composes until @until and sleeps;
 * @queue: it queues an event for the vblank @queue 0.1 ms before (0: none).
 */
static void compose(struct scen *s, double ms, uint32_t waker, uint32_t cpu, double until,
		    uint32_t queue)
{
	struct tipme_rec_vblank_ev q = { 0 };

	scen_wake(s, cpu, MS(ms), 500, 0, waker, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms + 0.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	if (queue) {
		q.seq = queue;
		q.file = 0x5a1e0000;
		q.who = tipme_work_who(500, TIPME_CTX_TASK);
		q.owner = 500;
		scen_rec(s, 0, TIPME_REC_VBLANK_QUEUED, MS(until - 0.1), &q, sizeof(q));
	}
	scen_switch(s, 0, MS(until), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(until), 500, poll_site);
}

/* foot (cpu 1) commits at @ms (wakes sway) and waits in poll again. */
static void commit(struct scen *s, double ms)
{
	scen_switch(s, 1, MS(ms + 0.5), 600, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(ms + 0.5), 600, poll_site);
}

/*
 * An Xwayland scenario's start: sway (500), Xwayland (800) and the X
 * client (900) each woken at 0.5 ms and waiting in poll from 1 ms; @cl
 * the X dump's clients (the server, the X client).
 */
static void xwl_start(struct scen *s, struct tipme_x11_client cl[2])
{
	memset(cl, 0, 2 * sizeof(*cl));
	cl[0] = (struct tipme_x11_client){ .id = 0, .pid = 800, .flags = TIPME_X11_CL_SERVER,
					    .comm = "Xwayland" };
	cl[1] = (struct tipme_x11_client){ .id = 1, .pid = 900, .xid_base = 0x400000,
					    .comm = "xclient" };
	scen_init(s, 3);
	scen_task(s, 500, 500, "sway", "/usr/bin/sway", "sway", 5);
	scen_task(s, 800, 800, "Xwayland", "/usr/bin/Xwayland", "Xwayland", 5);
	scen_task(s, 900, 900, "xclient", "/usr/bin/xclient", "xclient", 5);
	asleep(s, 500, 800, 900);
}

/* Scenario @v's kernel dump (@s) and X dump (@c), in its own directory. */
static int write_xwl(struct scen *s, enum variant v, const struct tm_xdump_content *c)
{
	struct tm_err e = { "" };
	char path[200];
	uint8_t *buf;
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, names[v]);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/kernel.dump", dir, names[v]);
	ret = scen_write(s, path);
	snprintf(path, sizeof(path), "%s/%s/xhook.dump", dir, names[v]);
	if (ret || tm_xdump_build(c, &buf, &len))
		return 1;
	ret = tm_write_file_new(path, buf, len, &e);
	free(buf);
	return ret;
}

/*
 * An X client under Xwayland (t-xwayland): sway (500) reads the key at
 * 10 ms and wakes Xwayland (800, its client) at 10.4 ms, which sends the
 * X client (900) the key at 10.8 ms and sway a message of its own at
 * 11 ms (not the answer: sway composes nothing for it); the X client
 * sleeps (or computes) 300 ms, draws at 311.5 ms (a PolyFillRectangle
 * and a round trip: it wakes Xwayland), Xwayland replies at 312 ms and
 * commits its window to sway at 312.2 ms (wakes it), sway composes until
 * 313 ms, the flip completes at the refresh at 320 ms (V_XWL_UNSEEN: a
 * timer wakes sway at 312.1 ms, runnable until 312.3 ms: Xwayland's
 * commit wakes nobody, and Xwayland waits again at 312.4 ms; V_XWL_AWAKE:
 * an interrupt wakes Xwayland at 10.3 ms, so that sway's key wakes
 * nobody; V_XWL_LATE: Xwayland, having replied, computes on until
 * 662.2 ms before it commits, sway composes until 663 ms and the flip
 * completes at the refresh at 672 ms, while the X client waits for the
 * next key from 312.3 ms: t-xwayland's sleep press in a full check, where
 * Xwayland sent the drawing 350 ms after it had executed it; V_XWL_FRAMED:
 * as V_XWL_UNSEEN, but Xwayland, preempted at 312.25 ms by a kworker
 * (95) while sway is runnable, runs on from 312.5 ms and waits again only
 * at 340 ms, after the flip, the last in the dump: t-xwayland's sleep
 * press in the full check of 5db596e, Xwayland busy 150 ms after the
 * drawing under TCG, sway woken by its frame timer).  The X dump
 * (its stamps in whole ms): the device event and its delivery at 10 ms,
 * the drawing and the round trip at 311 ms, the reply at 312 ms
 * (V_XWL_LATE: and tipme-xhook's first fence dispatched after them at
 * 662 ms, as the busy Xwayland got to it only then).  V_XWL_SLOWX:
 * V_XWL_LATE's, and a second key that the kernel's dump has no input
 * record of, given to the X client at 700 ms (an interrupt wakes
 * Xwayland at 700.3 ms, which wakes the client at 700.8 ms): the client
 * sleeps 400 ms and waits for input again at 1101.6 ms without drawing.
 * From device event to client done it is the slower press (401.6 ms
 * against the first's 302.3), but the first reached the screen 662 ms
 * after its input record: that is the slowest press (t-xwayland's
 * compute press in a check with the host overloaded, whose flip came
 * 925 ms after the key while the sleep press before it, 854 ms to its
 * flip, was the slower to its client's end: the report chose the sleep
 * press).  V_XWL_UINPUT: V_XWL_TIMER's, the key written by a uinput
 * program (vkbd, 460, running on CPU 0 from 9.5 ms), which wakes sway at
 * 9.86 ms (evdev's wakeup, in the writer's context, before our record at
 * 10 ms), and a timer interrupt during its run wakes another user thread
 * (a poller, 950, on CPU 1) at 10.08 ms; vkbd then sleeps and sway runs
 * at 10.1 ms (t-xwayland's compute press in a check with the host
 * overloaded: the nearest wakeup either side of the record was the
 * timer's, its sleeper taken for the key's reader, and the press was not
 * followed to the flip).
 */
static int xwayland(struct scen *s, enum variant v)
{
	struct tipme_x11_client cl[2];
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 3 };
	bool late = v == V_XWL_LATE || v == V_XWL_SLOWX;
	bool uinput = v == V_XWL_UINPUT;
	struct tipme_x11_rec rec[8];
	struct tm_xdump_content c = { .recs = rec, .nrecs = late ? 6 : 5, .cl = cl, .ncl = 2 };
	double commit = late ? 662.2 : 312.2;

	xwl_start(s, cl);
	/* the key: evdev wakes sway, which hands it to Xwayland */
	if (uinput) {
		scen_task(s, 460, 460, "vkbd", "/usr/bin/vkbd", "vkbd", 5);
		scen_task(s, 950, 950, "poller", "/usr/bin/poller", "poller", 7);
		scen_switch(s, 0, MS(9.5), 0, TIPME_TS_RUNNABLE, 120, 460, 120);
		scen_wake(s, 0, MS(9.86), 500, 0, 460, TIPME_CTX_TASK);
		scen_rec(s, 0, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
		scen_wake(s, 0, MS(10.08), 950, 1, 460, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(10.1), 460, TIPME_TS_SLEEPING, 120, 500, 120);
		scen_blocked(s, 0, MS(10.1), 460, poll_site);
		scen_switch(s, 1, MS(10.15), 0, TIPME_TS_RUNNABLE, 120, 950, 120);
		scen_switch(s, 1, MS(10.25), 950, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(10.25), 950, poll_site);
	} else {
		scen_rec(s, 0, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
		scen_wake(s, 0, MS(10.02), 500, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(10.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	}
	if (v == V_XWL_AWAKE)	/* Xwayland already runnable: no wakeup */
		scen_wake(s, 1, MS(10.3), 800, 1, 0, TIPME_CTX_HARDIRQ);
	else
		scen_wake(s, 0, MS(10.4), 800, 1, 500, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(10.9), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10.9), 500, poll_site);
	/* Xwayland: the key to the X client, a message of its own to sway */
	scen_switch(s, 1, MS(10.5), 0, TIPME_TS_RUNNABLE, 120, 800, 120);
	scen_wake(s, 1, MS(10.8), 900, 2, 800, TIPME_CTX_TASK);
	scen_wake(s, 1, MS(11), 500, 0, 800, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(11.2), 800, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(11.2), 800, poll_site);
	scen_switch(s, 0, MS(11.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_switch(s, 0, MS(11.3), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(11.3), 500, poll_site);
	/* the X client */
	scen_switch(s, 2, MS(10.9), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	if (v != V_XWL_RUNNING) {
		scen_switch(s, 2, MS(11.3), 900, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 2, MS(11.3), 900, sleep_site);
		scen_wake(s, 2, MS(311.3), 900, 2, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 2, MS(311.35), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	}
	/* its drawing and round trip; Xwayland replies and commits */
	scen_wake(s, 2, MS(311.5), 800, 1, 900, TIPME_CTX_TASK);
	scen_switch(s, 2, MS(311.6), 900, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 2, MS(311.6), 900, poll_site);
	scen_switch(s, 1, MS(311.6), 0, TIPME_TS_RUNNABLE, 120, 800, 120);
	scen_wake(s, 1, MS(312), 900, 2, 800, TIPME_CTX_TASK);
	scen_switch(s, 2, MS(312.05), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	scen_switch(s, 2, MS(312.3), 900, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 2, MS(312.3), 900, poll_site);
	if (v == V_XWL_UNSEEN || v == V_XWL_FRAMED) {
		scen_wake(s, 0, MS(312.1), 500, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(312.3), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		scen_switch(s, 0, MS(313), 500, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(313), 500, poll_site);
	} else {
		compose(s, commit, 800, 1, commit + 0.8, 0);
	}
	if (v == V_XWL_FRAMED) {
		scen_task(s, 95, 95, "kworker/1:1", "", "", 0);
		scen_switch(s, 1, MS(312.25), 800, TIPME_TS_RUNNABLE, 120, 95, 120);
		scen_switch(s, 1, MS(312.5), 95, TIPME_TS_IDLE, 120, 800, 120);
		scen_switch(s, 1, MS(340), 800, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(340), 800, poll_site);
	} else {
		scen_switch(s, 1, MS(commit + 0.2), 800, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(commit + 0.2), 800, poll_site);
	}
	if (late)
		typing_refresh(s, 672, 0, 42);
	else
		typing_refresh(s, 320, 0, 20);
	if (v == V_XWL_SLOWX) {
		/* the second key: no input record; the client sleeps 400 ms */
		scen_wake(s, 1, MS(700.3), 800, 1, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 1, MS(700.5), 0, TIPME_TS_RUNNABLE, 120, 800, 120);
		scen_wake(s, 1, MS(700.8), 900, 2, 800, TIPME_CTX_TASK);
		scen_switch(s, 1, MS(701.2), 800, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(701.2), 800, poll_site);
		scen_switch(s, 2, MS(700.9), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
		scen_switch(s, 2, MS(701.3), 900, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 2, MS(701.3), 900, sleep_site);
		scen_wake(s, 2, MS(1101.3), 900, 2, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 2, MS(1101.35), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
		scen_switch(s, 2, MS(1101.6), 900, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 2, MS(1101.6), 900, poll_site);
	}
	scen_trigger(s, MS(v == V_XWL_SLOWX ? 1200 : late ? 750 : 400));

	memset(rec, 0, sizeof(rec));
	rec[0] = (struct tipme_x11_rec){ .time_ns = MS(10), .kind = TIPME_X11_DEVICE,
		.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32 };
	rec[1] = (struct tipme_x11_rec){ .time_ns = MS(10), .client = 1, .kind = TIPME_X11_EVENT,
		.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32, .xid = 0x400001 };
	rec[2] = (struct tipme_x11_rec){ .time_ns = MS(311), .client = 1,
		.kind = TIPME_X11_REQUEST, .major = 70, .seq = 9, .length = 20,
		.xid = 0x400001, .op_size = 1 };
	rec[3] = (struct tipme_x11_rec){ .time_ns = MS(311), .client = 1,
		.kind = TIPME_X11_REQUEST, .major = 43, .seq = 10, .length = 4 };
	rec[4] = (struct tipme_x11_rec){ .time_ns = MS(312), .client = 1,
		.kind = TIPME_X11_REPLY, .seq = 10, .length = 32 };
	rec[5] = (struct tipme_x11_rec){ .time_ns = MS(662), .kind = TIPME_X11_DISPATCH,
		.client = TIPME_X11_CLIENT_NONE, .major = 127 };
	if (v == V_XWL_SLOWX) {
		rec[6] = rec[0];
		rec[6].time_ns = MS(700);
		rec[7] = rec[1];
		rec[7].time_ns = MS(700);
		c.nrecs = 8;
	}
	return write_xwl(s, v, &c);
}

/*
 * An X client of Xorg with modesetting, which drives the display itself
 * (t-xorg: Present flips on virtio-gpu): a key at 10 ms (the X dump's
 * device event; Xorg, 800, woken on CPU 1) reaches the client (900, on
 * CPU 2) at 10.5 ms; it sleeps 300 ms, fills its pixmap and presents it
 * (stamped 311 ms; it wakes Xorg at 311 ms) and waits in poll at
 * 311.2 ms.  Xorg executes the fill until 316 ms (the Present request is
 * stamped then), commits the flip in the request's dispatch (queues
 * commit_work at 316.2 ms, which a kworker, 90, runs on CPU 0 and
 * delivers the flip's event in at 316.9 ms, sequence 0: no vblanks) and
 * draws on until it waits again at 340 ms.  A second key at 500 ms, which
 * the client answers at once: stamped 501 ms, commit_work queued at
 * 501.5 ms, delivered at 502 ms, Xorg waiting again at 505 ms.  The X
 * dump: the device events and key events, the fills and the Present
 * requests (Present's major 148).
 */
static int xorg_present(struct scen *s)
{
	static const char *const worker_site[] = { "worker_thread", "kthread", NULL };
	struct tipme_x11_client cl[2] = {
		{ .id = 0, .pid = 800, .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = 900, .xid_base = 0x400000, .comm = "xclient" },
	};
	struct tipme_x11_ext ext = { .major = 148, .name = "Present" };
	struct tipme_x11_rec rec[8];
	struct tm_xdump_content c = { .recs = rec, .nrecs = 8, .cl = cl, .ncl = 2,
				      .exts = &ext, .nexts = 1 };
	struct tipme_rec_vblank_ev ev = { .file = 0x0c0ffee0, .owner = 800 };
	const double key[2] = { 10, 500 }, drawn[2] = { 311, 501 }, commit[2] = { 316.2, 501.5 };
	const double waits[2] = { 340, 505 }, flip[2] = { 316.9, 502 };
	int k;

	scen_init(s, 3);
	scen_task(s, 800, 800, "Xorg", "/usr/lib/xorg/Xorg", "Xorg", 5);
	scen_task(s, 900, 900, "xclient", "/usr/bin/xclient", "xclient", 8);
	scen_task(s, 90, 90, "kworker/u4:1", "", "", 0);
	woken_blocks(s, 1, 800, 0.5, 1, TIPME_TS_SLEEPING, poll_site);
	woken_blocks(s, 2, 900, 0.5, 1, TIPME_TS_SLEEPING, poll_site);
	ev.who = tipme_work_who(90, TIPME_CTX_TASK);
	for (k = 0; k < 2; k++) {
		/* Xorg hands the client the key */
		scen_wake(s, 1, MS(key[k]), 800, 1, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 1, MS(key[k] + 0.05), 0, TIPME_TS_RUNNABLE, 120, 800, 120);
		scen_wake(s, 1, MS(key[k] + 0.5), 900, 2, 800, TIPME_CTX_TASK);
		scen_switch(s, 1, MS(key[k] + 0.7), 800, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(key[k] + 0.7), 800, poll_site);
		/* the client: the first key after a 300 ms sleep */
		scen_switch(s, 2, MS(key[k] + 0.55), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
		if (!k) {
			scen_switch(s, 2, MS(10.8), 900, TIPME_TS_SLEEPING, 120, 0, 120);
			scen_blocked(s, 2, MS(10.8), 900, sleep_site);
			scen_wake(s, 2, MS(310.8), 900, 2, 0, TIPME_CTX_HARDIRQ);
			scen_switch(s, 2, MS(310.85), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
		}
		scen_wake(s, 2, MS(drawn[k]), 800, 1, 900, TIPME_CTX_TASK);
		scen_switch(s, 2, MS(drawn[k] + 0.2), 900, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 2, MS(drawn[k] + 0.2), 900, poll_site);
		/* Xorg draws, commits the flip in the Present request, draws on */
		scen_switch(s, 1, MS(drawn[k] + 0.05), 0, TIPME_TS_RUNNABLE, 120, 800, 120);
		scen_work(s, 1, TIPME_REC_WORK_QUEUE, MS(commit[k]), 0xc0 + k, "commit_work", 800,
			  TIPME_CTX_TASK);
		scen_wake(s, 1, MS(commit[k] + 0.02), 90, 0, 800, TIPME_CTX_TASK);
		scen_switch(s, 1, MS(waits[k]), 800, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(waits[k]), 800, poll_site);
		/* the kworker completes it while Xorg runs */
		scen_switch(s, 0, MS(commit[k] + 0.1), 0, TIPME_TS_RUNNABLE, 120, 90, 120);
		scen_work(s, 0, TIPME_REC_WORK_START, MS(commit[k] + 0.2), 0xc0 + k, "commit_work",
			  90, TIPME_CTX_TASK);
		scen_rec(s, 0, TIPME_REC_VBLANK_DELIVERED, MS(flip[k]), &ev, sizeof(ev));
		scen_work(s, 0, TIPME_REC_WORK_END, MS(flip[k] + 0.05), 0xc0 + k, NULL, 0, 0);
		scen_switch(s, 0, MS(flip[k] + 0.1), 90, TIPME_TS_IDLE, 120, 0, 120);
		scen_blocked(s, 0, MS(flip[k] + 0.1), 90, worker_site);
	}
	scen_trigger(s, MS(600));

	memset(rec, 0, sizeof(rec));
	for (k = 0; k < 2; k++) {
		struct tipme_x11_rec *r = rec + 4 * k;

		r[0] = (struct tipme_x11_rec){ .time_ns = MS(key[k]), .kind = TIPME_X11_DEVICE,
			.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32 };
		r[1] = (struct tipme_x11_rec){ .time_ns = MS(key[k]), .client = 1,
			.kind = TIPME_X11_EVENT, .major = 2, .flags = TIPME_X11_REC_REDACTED,
			.length = 32, .xid = 0x400001 };
		r[2] = (struct tipme_x11_rec){ .time_ns = MS(drawn[k]), .client = 1,
			.kind = TIPME_X11_REQUEST, .major = 70, .seq = (uint16_t)(9 + 2 * k),
			.length = 20, .xid = 0x400002, .op_size = 307200 };
		r[3] = (struct tipme_x11_rec){ .time_ns = MS(k ? drawn[k] : 316), .client = 1,
			.kind = TIPME_X11_REQUEST, .major = 148, .minor = 1,
			.seq = (uint16_t)(10 + 2 * k), .length = 72, .xid = 0x400001 };
	}
	return write_xwl(s, V_XORG, &c);
}

/*
 * @pid runs on @cpu from @run, wakes @target (on @target_cpu) at @at in
 * task context (none if @target is 0) and sleeps at @out at @site.
 */
static void runs_wakes(struct scen *s, uint32_t cpu, uint32_t pid, double run, double at,
		       uint32_t target, uint32_t target_cpu, double out, const char *const *site)
{
	scen_switch(s, cpu, MS(run), 0, TIPME_TS_RUNNABLE, 120, pid, 120);
	if (target)
		scen_wake(s, cpu, MS(at), target, target_cpu, pid, TIPME_CTX_TASK);
	leaves(s, cpu, out, pid, TIPME_TS_SLEEPING, 0, site);
}

/*
 * V_XORG_KBD: Xorg 21 reading a keyboard itself (t-xorg's kbd).  Its input
 * thread (801) reads the key at 10 ms and wakes the main thread (800)
 * through a pipe at 10.3 ms, then polls again at 10.4 ms; the main thread
 * hands the X client (900) the key at 10.6 ms and waits at 10.9 ms.  The
 * client sleeps 300 ms, sends its drawing at 311 ms (wakes Xorg), Xorg
 * draws and replies at 312.4 ms, and waits again at 312.5 ms: no flip, the
 * answer drawn into the front buffer.  The dump's parameters say DRM's
 * flip completions were traced; V_XORG_KBD_UNTRACED's do not.
 */
static int xorg_kbd(struct scen *s, enum variant v)
{
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 3 };
	char path[200];

	scen_init(s, 3);
	if (v == V_XORG_KBD)
		s->params = "tp.drm_vblank_event_delivered=attached\n";
	scen_task(s, 800, 800, "Xorg", "/usr/lib/xorg/Xorg", "Xorg", 5);
	scen_task(s, 801, 800, "InputThread", "/usr/lib/xorg/Xorg", "Xorg", 5);
	scen_task(s, 900, 900, "xclient", "/usr/bin/xclient", "xclient", 8);
	asleep(s, 801, 800, 900);
	/* the input thread reads the key and wakes the main thread */
	scen_rec(s, 0, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
	scen_wake(s, 0, MS(10.02), 801, 0, 0, TIPME_CTX_HARDIRQ);
	runs_wakes(s, 0, 801, 10.1, 10.3, 800, 1, 10.4, poll_site);
	/* the main thread hands the client the key */
	runs_wakes(s, 1, 800, 10.35, 10.6, 900, 2, 10.9, poll_site);
	/* the client sleeps 300 ms and draws */
	runs_wakes(s, 2, 900, 10.65, 0, 0, 0, 10.8, sleep_site);
	scen_wake(s, 2, MS(310.8), 900, 2, 0, TIPME_CTX_HARDIRQ);
	runs_wakes(s, 2, 900, 310.85, 311, 800, 1, 311.2, poll_site);
	/* Xorg draws it, replies, and waits again */
	runs_wakes(s, 1, 800, 311.05, 312.4, 900, 2, 312.5, poll_site);
	runs_wakes(s, 2, 900, 312.45, 0, 0, 0, 312.6, poll_site);
	scen_trigger(s, MS(400));
	snprintf(path, sizeof(path), "%s/%s", dir, names[v]);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/kernel.dump", dir, names[v]);
	return scen_write(s, path);
}

/*
 * The X client's sleep under an Xwayland that never sleeps again once
 * sway woke it for the key (t-xwayland under TCG: its own work and
 * tipme-xhook's fences keep it running): sway (500) reads the key at
 * 10 ms and wakes Xwayland (800), which gives the X client (900) the key
 * at 10.8 ms; the client sleeps 300 ms, draws and asks for a reply
 * (waits in poll at 311.6 ms); Xwayland runs both requests and writes
 * the reply at 311 ms (its stamp), commits the window to sway at
 * 312.6 ms and sends the client the reply at the end of that round, at
 * 313 ms; the client waits for input at 313.3 ms; the flip at 320 ms.  A
 * second key at 500 ms finds Xwayland awake (sway's message wakes
 * nobody); Xwayland sends the client the key at 500.8 ms, and the client
 * answers at once: its drawing and reply stamped 502 ms, the reply sent
 * at 504 ms, the flip at 512 ms.  Xwayland slept last before 10.4 ms, so
 * the round of its loop that woke the client for the second key seems to
 * have begun then, and the first key's reply in it: the client's wait for
 * that key was taken for a round trip, the first press lasted until the
 * client's wait after the second one (before, 10 ms to the second press's
 * flip at 512 ms).  The X dump: the device events, the key events, the
 * drawings, the round trips, the replies, and tipme-xhook's dispatches of
 * its fences after them.  V_XWL_SAMEMS: each reply is written, and sent,
 * in the millisecond of the round's end (stamped 313 and 504 ms, sent at
 * 313.2 and 504.2 ms, the client waiting again 0.3 ms later: t-xwayland's
 * second and third runs): a reply stamped within X's millisecond of the
 * client's next wait, which the wakeup before it sent.
 */
static int xwayland_busy(struct scen *s, enum variant v)
{
	struct tipme_x11_client cl[2];
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 3 };
	struct tipme_x11_rec rec[12];
	struct tm_xdump_content c = { .recs = rec, .cl = cl, .ncl = 2 };
	double key[2] = { 10, 500 }, drew[2] = { 311, 502 };
	double sent = v == V_XWL_SAMEMS ? 2.2 : 2;
	size_t n = 0;
	int i;

	xwl_start(s, cl);
	for (i = 0; i < 2; i++) {
		double k = key[i], d = drew[i];

		/* the key: evdev wakes sway, which hands it to Xwayland */
		scen_rec(s, 0, TIPME_REC_INPUT, MS(k), &in, sizeof(in));
		scen_wake(s, 0, MS(k + 0.02), 500, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(k + 0.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		if (!i)
			scen_wake(s, 0, MS(k + 0.4), 800, 1, 500, TIPME_CTX_TASK);
		scen_switch(s, 0, MS(k + 0.9), 500, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(k + 0.9), 500, poll_site);
		/* Xwayland runs from now on; it sends the X client the key */
		if (!i)
			scen_switch(s, 1, MS(k + 0.5), 0, TIPME_TS_RUNNABLE, 120, 800, 120);
		scen_wake(s, 1, MS(k + 0.8), 900, 2, 800, TIPME_CTX_TASK);
		scen_switch(s, 2, MS(k + 0.9), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
		if (!i) {
			/* the first key: the client sleeps 300 ms */
			scen_switch(s, 2, MS(11.3), 900, TIPME_TS_SLEEPING, 120, 0, 120);
			scen_blocked(s, 2, MS(11.3), 900, sleep_site);
			scen_wake(s, 2, MS(311.3), 900, 2, 0, TIPME_CTX_HARDIRQ);
			scen_switch(s, 2, MS(311.35), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
		}
		/* its drawing and round trip: Xwayland, awake, is woken by nobody */
		scen_switch(s, 2, MS(d + 0.6), 900, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 2, MS(d + 0.6), 900, poll_site);
		/* Xwayland commits, then sends the reply as its round ends */
		compose(s, d + 1.6, 800, 1, d + 2.4, 0);
		scen_wake(s, 1, MS(d + sent), 900, 2, 800, TIPME_CTX_TASK);
		scen_switch(s, 2, MS(d + sent + 0.05), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
		scen_switch(s, 2, MS(d + sent + 0.3), 900, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 2, MS(d + sent + 0.3), 900, poll_site);
		typing_refresh(s, i ? 512 : 320, 0, i ? 31 : 20);

		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(k), .kind = TIPME_X11_DEVICE,
			.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32 };
		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(k), .client = 1,
			.kind = TIPME_X11_EVENT, .major = 2, .flags = TIPME_X11_REC_REDACTED,
			.length = 32, .xid = 0x400001 };
		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(d), .client = 1,
			.kind = TIPME_X11_REQUEST, .major = 70, .seq = 9 + 2 * i, .length = 20,
			.xid = 0x400001, .op_size = 1 };
		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(d), .client = 1,
			.kind = TIPME_X11_REQUEST, .major = 43, .seq = 10 + 2 * i, .length = 4 };
		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(v == V_XWL_SAMEMS ? d + 2 : d),
			.client = 1, .kind = TIPME_X11_REPLY, .seq = 10 + 2 * i, .length = 32 };
		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(d), .kind = TIPME_X11_DISPATCH,
			.client = TIPME_X11_CLIENT_NONE, .major = 127 };
	}
	scen_trigger(s, MS(600));
	c.nrecs = n;
	return write_xwl(s, v, &c);
}

/*
 * V_PTY, as t-foot left it when the key's release came early: foot (600)
 * writes the key to its pty (queues the tty's work, wakes the kworker 91)
 * and waits in poll at 11.5 ms, sway asleep since 11 ms; the kworker
 * wakes the terminal's program (700: ttystop) at 11.35 ms.  The key's
 * release comes at 12.88 ms: sway sends it to foot at 13 ms, which finds
 * foot in the same poll; foot reads it without a word and waits again.
 * 700 stops foot (SIGSTOP) at 14 ms and continues it at 311 ms.
 */
static void pty(struct scen *s)
{
	static const char *const worker_site[] = { "worker_thread", "kthread", NULL };
	struct tipme_rec_input rel = { .kind = TIPME_INPUT_KEY, .value = 0, .device = 3 };

	/* foot writes the key: the tty's work, its kworker wakes 700 */
	scen_work(s, 1, TIPME_REC_WORK_QUEUE, MS(11.2), 0xd0, "flush_to_ldisc", 600,
		  TIPME_CTX_TASK);
	scen_wake(s, 1, MS(11.25), 91, 2, 600, TIPME_CTX_TASK);
	leaves(s, 1, 11.5, 600, TIPME_TS_SLEEPING, 0, poll_site);
	scen_switch(s, 2, MS(11.3), 0, TIPME_TS_RUNNABLE, 120, 91, 120);
	scen_work(s, 2, TIPME_REC_WORK_START, MS(11.32), 0xd0, "flush_to_ldisc", 91,
		  TIPME_CTX_TASK);
	scen_wake(s, 2, MS(11.35), 700, 2, 91, TIPME_CTX_TASK);
	scen_work(s, 2, TIPME_REC_WORK_END, MS(11.4), 0xd0, NULL, 0, 0);
	leaves(s, 2, 11.45, 91, TIPME_TS_IDLE, 700, worker_site);
	/* the release, read without a word */
	scen_rec(s, 0, TIPME_REC_INPUT, MS(12.88), &rel, sizeof(rel));
	sway_sends(s, 13);
	leaves(s, 1, 13.4, 600, TIPME_TS_SLEEPING, 0, poll_site);
	/* 700 stops foot, and continues it at 311 ms */
	scen_wake(s, 2, MS(14), 600, 1, 700, TIPME_CTX_TASK);
	leaves(s, 2, 14.05, 700, TIPME_TS_SLEEPING, 0, sleep_site);
	scen_switch(s, 1, MS(14.1), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
	leaves(s, 1, 14.2, 600, TIPME_TS_STOPPED, 0, stop_site);
	signal_from_700(s, 311, 600, 1, 311.1);
	scen_switch(s, 1, MS(311.05), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
}

static int build(struct scen *s, enum variant v)
{
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 3 };
	struct tipme_rec_fence fe = { 0 };
	struct tipme_rec_fence_name fn = { 0 };
	char path[200];
	double go = 10.1;	/* when sway dispatches the key */

	if ((v >= V_XWL_TIMER && v <= V_XWL_AWAKE) || v == V_XWL_UINPUT)
		return xwayland(s, v);
	if (v == V_XWL_BUSY || v == V_XWL_SAMEMS)
		return xwayland_busy(s, v);
	if (v == V_XWL_LATE || v == V_XWL_FRAMED || v == V_XWL_SLOWX)
		return xwayland(s, v);
	if (v == V_XORG)
		return xorg_present(s);
	if (v == V_XORG_KBD || v == V_XORG_KBD_UNTRACED)
		return xorg_kbd(s, v);
	scen_init(s, 3);
	if (v == V_WESTON || v == V_WESTON_BUSY || v == V_WESTON_STOPPED ||
	    v == V_WESTON_TOLD || v == V_WESTON_RELEASE)
		scen_task(s, 500, 500, "weston", "/usr/bin/weston", "weston", 5);
	else
		scen_task(s, 500, 500, "sway", "/usr/bin/sway", "sway", 5);
	scen_task(s, 600, 600, "foot", "/usr/bin/foot", "foot", 5);
	scen_task(s, 610, 610, "waybar", "/usr/bin/waybar", "waybar", 7);
	scen_task(s, 700, 700, "signaler", "/t/signaler", "signaler", 9);
	if (v == V_SEAT || v == V_SEAT_RUNNABLE || v == V_SEAT_BUSY)
		scen_task(s, 450, 450, "seatd", "/usr/bin/seatd", "seatd", 6);
	if (v == V_SEAT || v == V_SEAT_RUNNABLE || v == V_SEAT_BUSY || v == V_WESTON ||
	    v == V_WESTON_BUSY || v == V_WESTON_STOPPED || v == V_TIMER_RACE ||
	    v == V_WESTON_TOLD || v == V_WESTON_RELEASE)
		scen_task(s, 90, 90, "kworker/u4:0", "", "", 0);
	if (v == V_WESTON_RELEASE)
		scen_task(s, 710, 710, "vkbd", "/t/vkbd", "vkbd", 5);
	if (v == V_PTY)
		scen_task(s, 91, 91, "kworker/u4:2", "", "", 0);
	scen_switch(s, 0, MS(0.5), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_switch(s, 0, MS(1), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(1), 500, poll_site);
	scen_switch(s, 1, MS(0.5), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
	scen_switch(s, 1, MS(1), 600, TIPME_TS_SLEEPING, 120, 610, 120);
	scen_blocked(s, 1, MS(1), 600, poll_site);
	scen_switch(s, 1, MS(1.2), 610, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(1.2), 610, poll_site);
	scen_switch(s, 2, MS(0.5), 0, TIPME_TS_RUNNABLE, 120, 700, 120);
	scen_switch(s, 2, MS(1), 700, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 2, MS(1), 700, sleep_site);
	if (v == V_WESTON_RELEASE) {
		/* vkbd sleeps until it releases the key (weston_answers()) */
		scen_switch(s, 2, MS(1.2), 0, TIPME_TS_RUNNABLE, 120, 710, 120);
		scen_switch(s, 2, MS(1.4), 710, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 2, MS(1.4), 710, sleep_site);
	}
	/* the key: evdev wakes sway */
	if (v == V_AWAKE || v == V_AWAKE_ALONE || v == V_AWAKE_NOFLIP || v == V_AWAKE_LAG ||
	    v == V_AWAKE_OTHER) {
		/*
		 * a press at 3 ms sway reads without a word (V_AWAKE); a
		 * timer wakes sway at 8.5 ms, and the key at 10 ms finds it
		 * runnable (V_AWAKE_LAG: the timer's wakeup comes at 10.05 ms
		 * on CPU 0, and the key is stamped 10 ms on CPU 2, whose clock
		 * lags: sway seems asleep at the stamp).  V_AWAKE_OTHER: the
		 * press at 3 ms comes as a softirq wakes 800, which is taken
		 * for its delivery, and sway reads it at its timer's wakeup
		 * (t-wayland under make check's load)
		 */
		if (v == V_AWAKE_OTHER) {
			scen_rec(s, 0, TIPME_REC_INPUT, MS(3), &in, sizeof(in));
			scen_wake(s, 0, MS(3.02), 800, 2, 0, TIPME_CTX_SOFTIRQ);
			scen_switch(s, 2, MS(3.1), 0, TIPME_TS_RUNNABLE, 120, 800, 120);
			scen_switch(s, 2, MS(3.3), 800, TIPME_TS_SLEEPING, 120, 0, 120);
			scen_blocked(s, 2, MS(3.3), 800, sleep_site);
		}
		if (v == V_AWAKE || v == V_AWAKE_NOFLIP) {
			scen_rec(s, 0, TIPME_REC_INPUT, MS(3), &in, sizeof(in));
			scen_wake(s, 0, MS(3.02), 500, 0, 0, TIPME_CTX_HARDIRQ);
			scen_switch(s, 0, MS(3.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
			scen_switch(s, 0, MS(3.3), 500, TIPME_TS_SLEEPING, 120, 0, 120);
			scen_blocked(s, 0, MS(3.3), 500, poll_site);
		}
		if (v == V_AWAKE_LAG) {
			scen_rec(s, 2, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
			scen_wake(s, 0, MS(10.05), 500, 0, 0, TIPME_CTX_HARDIRQ);
		} else {
			scen_wake(s, 0, MS(8.5), 500, 0, 0, TIPME_CTX_HARDIRQ);
			scen_rec(s, 0, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
		}
		scen_switch(s, 0, MS(10.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	} else if (v == V_SKEW) {
		/*
		 * on CPU 2, whose 10 ms is the others' 15 ms; sway (CPU 0),
		 * woken by a timer at 12 ms, waits again at 12.5 ms, and runs
		 * for the key at 15.1 ms
		 */
		scen_rec(s, 2, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
		scen_wake(s, 2, MS(10.02), 500, 0, 0, TIPME_CTX_HARDIRQ);
		woken_blocks(s, 0, 500, 12, 12.5, TIPME_TS_SLEEPING, poll_site);
		scen_switch(s, 0, MS(15.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		go = 15.1;
	} else {
		scen_rec(s, 0, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
		scen_wake(s, 0, MS(10.02), 500, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(10.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	}
	if (v == V_COMP_STOPPED) {
		/* SIGSTOP at 10.2 ms, SIGCONT from 700 at 310 ms */
		scen_switch(s, 0, MS(10.2), 500, TIPME_TS_STOPPED, 120, 0, 120);
		scen_blocked(s, 0, MS(10.2), 500, stop_site);
		signal_from_700(s, 310, 500, 0, 310.05);
		scen_switch(s, 0, MS(310.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		go = 310.1;
	} else if (v == V_COMP_BUSY) {
		go = 310.1;
	}
	/* sway hands the key to foot, and goes back to poll() */
	scen_wake(s, 0, MS(go + 0.4), 600, 1, 500, TIPME_CTX_TASK);
	if (v == V_TWO)
		scen_wake(s, 0, MS(go + 0.6), 610, 1, 500, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(go + 0.9), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(go + 0.9), 500, poll_site);
	scen_switch(s, 1, MS(go + 0.5), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
	switch (v) {
	case V_TIMER:
	case V_NOFLIP:
	case V_SEAT:
	case V_SEAT_RUNNABLE:
	case V_AWAKE:
	case V_AWAKE_NOFLIP:
	case V_AWAKE_ALONE:
	case V_AWAKE_LAG:
	case V_AWAKE_OTHER:
	case V_SEAT_BUSY:
	case V_WESTON:
	case V_WESTON_BUSY:
	case V_WESTON_STOPPED:
	case V_TIMER_RACE:
	case V_WESTON_TOLD:
	case V_WESTON_RELEASE:
		scen_switch(s, 1, MS(11), 600, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(11), 600, sleep_site);
		scen_wake(s, 1, MS(311), 600, 1, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 1, MS(311.05), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
		break;
	case V_GPU:
	case V_GPU_AWAKE:
		/* foot waits in poll on the fence; 700 signals it at 311 ms */
		fn.ctx_lo = 77;
		memcpy(fn.driver, "vgem", 4);
		memcpy(fn.timeline, "vgem-timeline", 13);
		scen_rec(s, 1, TIPME_REC_FENCE_NAME, MS(10.9), &fn, sizeof(fn));
		fe.ctx_lo = 77;
		fe.seqno_lo = 5;
		scen_switch(s, 1, MS(11), 600, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(11), 600, poll_site);
		scen_wake(s, 2, MS(310.9), 700, 2, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 2, MS(310.95), 0, TIPME_TS_RUNNABLE, 120, 700, 120);
		fe.who = tipme_work_who(700, TIPME_CTX_TASK);
		fe.op = TIPME_FENCE_SIGNALED;
		scen_rec(s, 2, TIPME_REC_FENCE, MS(311), &fe, sizeof(fe));
		scen_wake(s, 2, MS(311.01), 600, 1, 700, TIPME_CTX_TASK);
		scen_switch(s, 2, MS(311.1), 700, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 2, MS(311.1), 700, sleep_site);
		scen_switch(s, 1, MS(311.05), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
		break;
	case V_STOPPED:
		scen_switch(s, 1, MS(11), 600, TIPME_TS_STOPPED, 120, 0, 120);
		scen_blocked(s, 1, MS(11), 600, stop_site);
		signal_from_700(s, 311, 600, 1, 311.1);
		scen_switch(s, 1, MS(311.05), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
		break;
	case V_PTY:
		pty(s);
		break;
	default:	/* computes until it commits */
		break;
	}
	if (v == V_TWO) {
		/* waybar answers at once: sway composes, flips crtc 1 at 24 ms */
		scen_switch(s, 1, MS(11.5), 600, TIPME_TS_RUNNABLE, 120, 610, 120);
		compose(s, 11.6, 610, 1, 12.5, 0);
		scen_switch(s, 1, MS(11.7), 610, TIPME_TS_SLEEPING, 120, 600, 120);
		scen_blocked(s, 1, MS(11.7), 610, poll_site);
		typing_refresh(s, 24, 1, 1);
		/* foot computes until 110.5 ms; both outputs flip after */
		compose(s, 110.5, 600, 1, 111, 0);
		commit(s, 110.5);
		typing_refresh(s, 112, 0, 7);
		typing_refresh(s, 120, 1, 7);
	} else if (v == V_LATE) {
		/* a commit at 33 ms, 1 ms after a vblank; sway queues an event */
		compose(s, 33, 600, 1, 34, 3);
		commit(s, 33);
		typing_refresh(s, 48, 0, 3);
	} else if (v == V_SILENT) {
		/*
		 * foot goes back to poll() at 11 ms without a word; at 200 ms
		 * sway (woken by a timer) sends it something else, which it
		 * answers with a commit flipped at 208 ms: not the key's
		 */
		commit(s, 10.5);
		sway_sends(s, 200);
		compose(s, 201, 600, 1, 202, 0);
		commit(s, 201);
		typing_refresh(s, 208, 0, 13);
	} else if (v == V_COMP_STOPPED || v == V_COMP_BUSY) {
		/* foot answers at once; the flip at 320 ms */
		compose(s, 311.5, 600, 1, 312.4, 0);
		commit(s, 311.5);
		typing_refresh(s, 320, 0, 20);
	} else if (v == V_UNSEEN_RUN) {
		/*
		 * (t-wayland's compstop, 29 November 2026) V_UNSEEN's stop and
		 * commit; continued at 312 ms, sway runs without a wait until
		 * 361 ms: its flip at 320 ms is delivered while it runs (no
		 * wakeup), it tells foot of the frame at 320.15 and 322 ms,
		 * and flips again at 360 ms, within the 100 ms of a repaint
		 * loop's start, no process having woken it, no timer: the flip
		 * at 320 ms showed a frame, it did not start a loop
		 */
		signal_from_700(s, 12, 500, 0, 12.05);
		scen_switch(s, 0, MS(12.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		leaves(s, 0, 12.2, 500, TIPME_TS_STOPPED, 0, stop_site);
		commit(s, 15);
		scen_wake(s, 2, MS(311.9), 700, 2, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 2, MS(311.95), 0, TIPME_TS_RUNNABLE, 120, 700, 120);
		scen_wake(s, 2, MS(312), 500, 0, 700, TIPME_CTX_TASK);
		scen_switch(s, 0, MS(312.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		leaves(s, 2, 312.05, 700, TIPME_TS_SLEEPING, 0, sleep_site);
		typing_flip(s, 320, 0, 20);
		scen_wake(s, 0, MS(320.15), 600, 1, 500, TIPME_CTX_TASK);
		scen_switch(s, 1, MS(320.2), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
		leaves(s, 1, 320.5, 600, TIPME_TS_SLEEPING, 0, poll_site);
		scen_wake(s, 0, MS(322), 600, 1, 500, TIPME_CTX_TASK);
		scen_switch(s, 1, MS(322.05), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
		leaves(s, 1, 322.3, 600, TIPME_TS_SLEEPING, 0, poll_site);
		typing_flip(s, 360, 0, 21);
		leaves(s, 0, 361, 500, TIPME_TS_SLEEPING, 0, poll_site);
	} else if (v == V_UNSEEN || v == V_UNSEEN_BUSY || v == V_UNSEEN_AGAIN) {
		/*
		 * 700 stops sway at 12 ms (its signal wakes sway, which stops);
		 * foot computes, commits at 15 ms (no wakeup: sway is stopped)
		 * and waits in poll; 700 continues sway at 312 ms, which
		 * composes and flips at 320 ms; at 321.1 ms it wakes foot (the
		 * frame's answer)
		 */
		signal_from_700(s, 12, 500, 0, 12.05);
		scen_switch(s, 0, MS(12.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		scen_switch(s, 0, MS(12.2), 500, TIPME_TS_STOPPED, 120, 0, 120);
		scen_blocked(s, 0, MS(12.2), 500, stop_site);
		commit(s, 15);
		scen_wake(s, 2, MS(311.9), 700, 2, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 2, MS(311.95), 0, TIPME_TS_RUNNABLE, 120, 700, 120);
		compose(s, 312, 700, 2, 313, 0);
		scen_switch(s, 2, MS(312.05), 700, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 2, MS(312.05), 700, sleep_site);
		typing_refresh_tell(s, 320, 0, 20, v == V_UNSEEN_AGAIN ? 600 : 0);
		if (v == V_UNSEEN) {
			sway_sends(s, 321.1);
			scen_switch(s, 1, MS(321.4), 600, TIPME_TS_SLEEPING, 120, 0, 120);
			scen_blocked(s, 1, MS(321.4), 600, poll_site);
		} else if (v == V_UNSEEN_AGAIN) {
			/*
			 * (t-wayland's compstop under TCG) sway, reading the
			 * flip's event, tells foot of the frame at 320.15 ms
			 * (foot answers while sway is awake: no wakeup); a
			 * timer wakes sway at 345 ms, which flips again at 360
			 * ms, within the 100 ms of a repaint loop's start, no
			 * process having woken it: the flip at 320 ms showed a
			 * frame, it did not start a loop
			 */
			scen_switch(s, 1, MS(320.2), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
			scen_switch(s, 1, MS(320.5), 600, TIPME_TS_SLEEPING, 120, 0, 120);
			scen_blocked(s, 1, MS(320.5), 600, poll_site);
			woken_blocks(s, 0, 500, 345, 346, TIPME_TS_SLEEPING, poll_site);
			typing_refresh(s, 360, 0, 21);
		} else {
			/*
			 * foot, woken by an interrupt at 319 ms, blocks in a
			 * write (D) from 319.5 to 330 ms: sway's answer at
			 * 321.1 ms wakes nobody; at 420 ms foot sends another
			 * message (wakes sway), composed and flipped at 432 ms
			 */
			woken_blocks(s, 1, 600, 319, 319.5, TIPME_TS_DISK, write_site);
			sway_sends(s, 321.1);
			woken_blocks(s, 1, 600, 330, 330.5, TIPME_TS_SLEEPING, poll_site);
			scen_wake(s, 1, MS(419.9), 600, 1, 0, TIPME_CTX_HARDIRQ);
			scen_switch(s, 1, MS(419.95), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
			compose(s, 420, 600, 1, 421, 0);
			commit(s, 420);
			typing_refresh(s, 432, 0, 26);
		}
	} else if (v == V_GPU_AWAKE) {
		/*
		 * a timer wakes sway at 311.02 ms: it runs (cpu 0) as foot,
		 * woken by the fence's signal, commits at 311.5 ms (no wakeup);
		 * waybar, woken by an interrupt, preempts foot at 311.6 ms;
		 * sway composes until 312.4 ms and waits; foot runs again from
		 * 312.5 ms (it reads the answer) and waits in poll at 312.8 ms,
		 * sway asleep then (t-wayland's fence under load); the flip at
		 * 320 ms
		 */
		woken_blocks(s, 0, 500, 311.02, 312.4, TIPME_TS_SLEEPING, poll_site);
		scen_wake(s, 1, MS(311.55), 610, 1, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 1, MS(311.6), 600, TIPME_TS_RUNNABLE, 120, 610, 120);
		scen_switch(s, 1, MS(312.5), 610, TIPME_TS_SLEEPING, 120, 600, 120);
		scen_blocked(s, 1, MS(312.5), 610, poll_site);
		scen_switch(s, 1, MS(312.8), 600, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(312.8), 600, poll_site);
		typing_refresh(s, 320, 0, 20);
	} else if (v == V_SILENT_AWAKE) {
		/*
		 * foot handles the key without a word and waits in poll at
		 * 10.8 ms, sway still dispatching it (awake); at 100 ms sway
		 * sends foot the key's release, which it reads without a word;
		 * at 200 ms a timer wakes sway, which redraws something else (a
		 * cursor's blink), flipped at 208 ms: not the key's
		 */
		scen_switch(s, 1, MS(10.8), 600, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(10.8), 600, poll_site);
		sway_sends(s, 100);
		scen_switch(s, 1, MS(100.4), 600, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(100.4), 600, poll_site);
		woken_blocks(s, 0, 500, 200, 201, TIPME_TS_SLEEPING, poll_site);
		typing_refresh(s, 208, 0, 13);
	} else if (v == V_TIMER_RACE) {
		static const char *const worker_site[] = { "worker_thread", "kthread", NULL };
		static const char *const fence_site[] = { "dma_fence_default_wait",
							  "commit_tail", NULL };
		struct tipme_rec_vblank_ev ev = { 0 };

		/*
		 * a timer wakes sway at 311.02 ms; foot commits at 311.5 ms
		 * (no wakeup: sway runs) and waits in poll at 312 ms; sway
		 * composes, queues the nonblocking commit's work at 312.3 ms
		 * (the kworker, 90 on cpu 2, waits for the device from 312.5
		 * ms) and waits in poll at 312.4 ms; another timer wakes it at
		 * 313 ms, it waits again at 313.3 ms; the device's interrupt
		 * wakes the kworker, which delivers the flip at 315 ms and
		 * wakes sway
		 */
		scen_wake(s, 0, MS(311.02), 500, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(311.12), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		commit(s, 311.5);
		scen_work(s, 0, TIPME_REC_WORK_QUEUE, MS(312.3), 0xc0, "commit_work", 500,
			  TIPME_CTX_TASK);
		scen_wake(s, 0, MS(312.32), 90, 2, 500, TIPME_CTX_TASK);
		scen_switch(s, 0, MS(312.4), 500, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(312.4), 500, poll_site);
		scen_switch(s, 2, MS(312.4), 0, TIPME_TS_RUNNABLE, 120, 90, 120);
		scen_work(s, 2, TIPME_REC_WORK_START, MS(312.45), 0xc0, "commit_work", 90,
			  TIPME_CTX_TASK);
		scen_switch(s, 2, MS(312.5), 90, TIPME_TS_DISK, 120, 0, 120);
		scen_blocked(s, 2, MS(312.5), 90, fence_site);
		woken_blocks(s, 0, 500, 313, 313.3, TIPME_TS_SLEEPING, poll_site);
		scen_wake(s, 2, MS(314.9), 90, 2, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 2, MS(314.95), 0, TIPME_TS_RUNNABLE, 120, 90, 120);
		ev.file = 0x5a1e0000;
		ev.who = tipme_work_who(90, TIPME_CTX_TASK);
		ev.owner = 500;
		scen_rec(s, 2, TIPME_REC_VBLANK_DELIVERED, MS(315), &ev, sizeof(ev));
		scen_wake(s, 2, MS(315.02), 500, 0, 90, TIPME_CTX_TASK);
		scen_work(s, 2, TIPME_REC_WORK_END, MS(315.05), 0xc0, NULL, 0, 0);
		scen_switch(s, 2, MS(315.1), 90, TIPME_TS_IDLE, 120, 0, 120);
		scen_blocked(s, 2, MS(315.1), 90, worker_site);
		scen_switch(s, 0, MS(315.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		scen_switch(s, 0, MS(315.3), 500, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(315.3), 500, poll_site);
	} else if (v == V_SEAT) {
		/* the commit's work completes the flip at 313 ms */
		compose(s, 311.5, 600, 1, 312.4, 0);
		commit(s, 311.5);
		seat_flip(s, 313);
	} else if (v == V_SEAT_RUNNABLE) {
		compose(s, 311.5, 600, 1, 312.4, 0);
		commit(s, 311.5);
		seat_flip_runnable(s, 313);
	} else if (v == V_SEAT_BUSY) {
		seat_flip_busy(s, 311.5);
		commit(s, 311.5);
	} else if (v == V_WESTON) {
		weston_answers(s, 311.5, 0);
	} else if (v == V_WESTON_BUSY) {
		weston_busy_answers(s, 311.5);
	} else if (v == V_WESTON_TOLD) {
		weston_replies(s, 311.5);
	} else if (v == V_WESTON_RELEASE) {
		weston_answers(s, 311.5, 1);
	} else if (v == V_WESTON_STOPPED) {
		/*
		 * 700 stops weston at 12 ms; foot commits at 311.5 ms (no
		 * wakeup: weston is stopped) and waits in poll at 312 ms; 700
		 * continues weston at 312.3 ms, which answers as weston does: the repaint
		 * loop's first flip at 312.7 ms, its wait for the repaint
		 * window until its timer at 322.4 ms, the answer's flip at
		 * 323.7 ms (t-weston's compstop: before, that wait for the
		 * timer was taken for other work and the press drew nothing)
		 */
		signal_from_700(s, 12, 500, 0, 12.05);
		scen_switch(s, 0, MS(12.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		scen_switch(s, 0, MS(12.2), 500, TIPME_TS_STOPPED, 120, 0, 120);
		scen_blocked(s, 0, MS(12.2), 500, stop_site);
		commit(s, 311.5);
		signal_from_700(s, 312.3, 500, 0, 312.35);
		scen_switch(s, 0, MS(312.4), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		scen_switch(s, 0, MS(312.6), 500, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(312.6), 500, poll_site);
		weston_flip(s, 312.7, 0);
		scen_wake(s, 0, MS(322.4), 500, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(322.5), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
		scen_switch(s, 0, MS(323.5), 500, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(323.5), 500, poll_site);
		weston_flip(s, 323.7, 1);
		scen_switch(s, 1, MS(324), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
		scen_switch(s, 1, MS(324.2), 600, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(324.2), 600, poll_site);
	} else {
		compose(s, 311.5, 600, 1, 312.4, 0);
		commit(s, 311.5);
		if (v != V_NOFLIP && v != V_AWAKE_NOFLIP)
			typing_refresh(s, 320, 0, 20);
	}
	scen_trigger(s, MS(v == V_UNSEEN_BUSY ? 500 : 400));
	snprintf(path, sizeof(path), "%s/%s", dir, names[v]);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/kernel.dump", dir, names[v]);
	return scen_write(s, path);
}

/*
 * The meta.json of an auto incident of the module's on scenario @v: a key
 * press at @press_ns read by @pid (@comm), @lat_ns long.  Return: 0, or
 * -1 if it could not be written.
 */
static int auto_meta(enum variant v, int pid, const char *comm, long press_ns, long lat_ns)
{
	char path[200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/meta.json", dir, names[v]);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "{\"trigger\": {\"source\": \"auto\", \"utc\": \"2026-11-27T10:00:00Z\"},\n"
		" \"auto\": {\"input\": \"key\", \"pid\": %d, \"comm\": \"%s\",\n"
		"  \"press_mono_ns\": %ld, \"latency_ns\": %ld}}\n", pid, comm, press_ns, lat_ns);
	fclose(f);
	return 0;
}

/* tipme @cmd [--json] on scenario @name, with the directory as "DIR". */
static char *run(int (*cmd)(int, char **), const char *word, const char *name,
		 int json, int *ret)
{
	char inc[160], *argv[5];
	int argc = 0;

	snprintf(inc, sizeof(inc), "%s/%s", dir, name);
	argv[argc++] = (char *)word;
	if (json)
		argv[argc++] = "--json";
	argv[argc++] = inc;
	argv[argc] = NULL;
	return capture_in(cmd, argc, argv, dir, ret);
}

static int golden(const char *name, const char *ext, const char *text)
{
	char path[160];

	snprintf(path, sizeof(path), "tests/unit/golden/flip-%s.%s", name, ext);
	return golden_file(path, text);
}

/* The value of the first "@key": after @from in @json, or @dflt. */
static double num(const char *json, const char *from, const char *key, double dflt)
{
	char want[64];
	const char *p = from ? strstr(json, from) : json;

	snprintf(want, sizeof(want), "\"%s\":", key);
	p = p ? strstr(p, want) : NULL;
	return p ? strtod(p + strlen(want), NULL) : dflt;
}

/*
 * tipme report without --pid on scenario @v: the interval from the key
 * (10 ms) to @to_ms, ending at "@end"; the verdict @cause with culprit
 * @culprit (0: none) of at least @min_pct; every string of @must in the
 * JSON; text and JSON as golden.
 */
static void check(enum variant v, double to_ms, const char *end, const char *cause,
		  int culprit, double min_pct, const char *const *must, const char *what)
{
	const char *name = names[v];
	char want[200], *json, *text, *vd;
	double pct;
	int ret, ok, i;

	json = run(pm_cmd_report, "report", name, 1, &ret);
	snprintf(want, sizeof(want), "\"from_mono_ns\":10000000,\"to_mono_ns\":%.0f,",
		 to_ms * 1e6);
	ok = !ret && strstr(json, want);
	snprintf(want, sizeof(want), "\"end\":\"%s\"", end);
	ok = ok && strstr(json, want);
	vd = strstr(json, "\"verdict\":");
	if (culprit)
		snprintf(want, sizeof(want), "\"verdict\":{\"cause\":\"%s\",\"culprit\":{\"pid\":%d,",
			 cause, culprit);
	else
		snprintf(want, sizeof(want), "\"verdict\":{\"cause\":\"%s\",\"culprit\":null,", cause);
	ok = ok && vd && !strncmp(vd, want, strlen(want));
	pct = vd ? num(vd, NULL, "pct", -1) : -1;
	for (i = 0; must && must[i]; i++)
		if (!strstr(json, must[i])) {
			tap_diag("missing: %s", must[i]);
			ok = 0;
		}
	tap_ok(ok && pct >= min_pct, "%s: to %.1f ms (%s), %s, culprit %d, %.1f%% (at least %.0f%%)",
	       what, to_ms, end, cause, culprit, pct, min_pct);
	if (!ok || pct < min_pct)
		tap_diag("%s", json);
	tap_ok(golden(name, "json", json), "%s: JSON as golden", name);
	text = run(pm_cmd_report, "report", name, 0, &ret);
	tap_ok(!ret && golden(name, "txt", text), "%s: text as golden", name);
	free(json);
	free(text);
}

/*
 * tipme latency on scenario @v: one press of @lat_ms, ending at "@end",
 * its legs adding up to it, the client's leg (or the only one) at least
 * @leg_ms; text and JSON as golden.
 */
static void latency(enum variant v, double lat_ms, const char *end, double leg_ms,
		    const char *what)
{
	char name[64], want[96], *json, *text, *p;
	double sum = 0, client = 0;
	int ret, ok;

	snprintf(name, sizeof(name), "latency-%s", names[v]);
	json = run(pm_cmd_latency, "latency", names[v], 1, &ret);
	snprintf(want, sizeof(want), "\"end\": \"%s\",", end);
	ok = !ret && strstr(json, want);
	snprintf(want, sizeof(want), "\"latency_ns\": %.0f,", lat_ms * 1e6);
	ok = ok && strstr(json, want);
	for (p = strstr(json, "\"legs\""); p && (p = strstr(p, "\"ns\": ")); p++)
		sum += strtod(p + 6, NULL);
	p = strstr(json, "\"stage\": \"client\"");
	if (!p)
		p = strstr(json, "\"stage\": \"reader_to_idle\"");
	if (p && (p = strstr(p, "\"ns\": ")))
		client = strtod(p + 6, NULL);
	tap_ok(ok && sum == lat_ms * 1e6 && client >= leg_ms * 1e6,
	       "%s: %.1f ms to %s, the legs add up to it (%.0f ns), the client's %.1f ms",
	       what, lat_ms, end, sum, client / 1e6);
	if (!ok || sum != lat_ms * 1e6)
		tap_diag("%s", json);
	tap_ok(golden(name, "json", json), "%s: JSON as golden", name);
	text = run(pm_cmd_latency, "latency", names[v], 0, &ret);
	tap_ok(!ret && golden(name, "txt", text), "%s: text as golden", name);
	free(json);
	free(text);
}

/* The joined press's input, flip and legs in an Xwayland scenario's tipme latency --json. */
static const char *const xwl_latency_must[] = {
	"\"kernel_press_mono_ns\": 10000000,", "\"end\": \"flip\",",
	"\"flip_mono_ns\": 320000000,", "\"to_flip_ns\": 310000000,",
	"\"stage\": \"x_server\"", "\"stage\": \"x_drawing\"", NULL,
};

/* ... and xorg-present's: each press to Xorg's own flip after the drawing */
static const char *const xorg_latency_must[] = {
	"\"end\": \"flip\",", "\"flip_mono_ns\": 316900000,",
	"\"flip_commit_mono_ns\": 316200000,", "\"to_flip_ns\": 306900000,",
	"\"x_server\": 800,", "\"flip_mono_ns\": 502000000,",
	"\"to_flip_ns\": 2000000,", NULL,
};

/*
 * tipme latency on an X scenario: every string of @must in the JSON (an
 * Xwayland scenario's press joined to the kernel's input at 10 ms, to
 * the flip at 320 ms; xorg-present's presses to Xorg's flips), the first
 * press's legs (the X hop among them) adding up to @sum_ms, the X
 * client's at least @client_ms (and at most @client_max_ms, unless 0);
 * text and JSON as golden.
 */
static void xlatency(enum variant v, const char *const *must, double sum_ms, double client_ms,
		     double client_max_ms, const char *what)
{
	char name[64], *json, *text, *p, *end;
	double sum = 0, client = 0;
	int ret, ok, i;

	snprintf(name, sizeof(name), "latency-%s", names[v]);
	json = run(pm_cmd_latency, "latency", names[v], 1, &ret);
	ok = !ret;
	for (i = 0; must[i]; i++)
		if (!strstr(json, must[i])) {
			tap_diag("missing: %s", must[i]);
			ok = 0;
		}
	p = strstr(json, "\"legs\"");
	end = p ? strchr(p, ']') : NULL;
	for (; p && (p = strstr(p, "\"ns\": ")) && p < end; p++)
		sum += strtod(p + 6, NULL);
	p = strstr(json, "\"stage\": \"x_client\"");
	if (p && (p = strstr(p, "\"ns\": ")))
		client = strtod(p + 6, NULL);
	tap_ok(ok && sum == sum_ms * 1e6 && client >= client_ms * 1e6 &&
	       (!client_max_ms || client <= client_max_ms * 1e6),
	       "%s: %.1f ms to the flip, the legs add up to it (%.0f ns), the X client's %.1f ms",
	       what, sum_ms, sum, client / 1e6);
	if (!ok)
		tap_diag("%s", json);
	tap_ok(golden(name, "json", json), "%s: JSON as golden", name);
	text = run(pm_cmd_latency, "latency", names[v], 0, &ret);
	tap_ok(!ret && golden(name, "txt", text), "%s: text as golden", name);
	free(json);
	free(text);
}

#define TYPED	64	/* presses in the typed-at scenario */

/*
 * tipme latency on a desktop typed at TYPED times (tests/unit/typing.c):
 * every press's reader is the thread the scenario made read it, and so is
 * that of every press that found it runnable (the nearest other input
 * with a wakeup: the key's own release, or for the first press of a block
 * the previous press's release, read by the other thread, which is the
 * one runnable); tipme report chooses the slow press, read by 501 so.
 */
static void typed(struct scen *s)
{
	struct typing_press truth[TYPED];
	char path[200], want[240], *json, *p;
	uint32_t slow = typing_slow(TYPED), reader;
	size_t i, bad = 0, n = 0;
	const char *by;
	long long ns;
	int ret, ok, awake;

	scen_init(s, 2);
	snprintf(path, sizeof(path), "%s/typing", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/typing/kernel.dump", dir);
	ok = !typing_write(s, TYPED, truth) && !scen_write(s, path);
	json = ok ? run(pm_cmd_latency, "latency", "typing", 1, &ret) : NULL;
	for (p = json; p && (p = strstr(p, "\"press_mono_ns\": ")); n++) {
		ns = strtoll(p + 17, NULL, 10);
		p = strstr(p, "\"reader\": ");
		reader = p ? (uint32_t)strtoul(p + 10, NULL, 10) : 0;
		by = p ? strstr(p, "\"reader_by\": ") : NULL;
		awake = by && !strncmp(by + 13, "\"awake\",", 8);
		if (n < TYPED && ns == (long long)truth[n].ns && reader == truth[n].reader &&
		    by && (awake || !strncmp(by + 13, "\"wakeup\",", 9)) &&
		    awake == truth[n].awake)
			continue;
		if (!bad++)
			tap_diag("press %zu at %lld: reader %u (%.14s), not %u", n, ns, reader,
				 by ? by + 13 : "", n < TYPED ? truth[n].reader : 0);
	}
	tap_ok(ok && !ret && n == TYPED && !bad,
	       "typed at %d times: every press's reader is the thread the scenario made read "
	       "it, those found runnable too, and how it was found (%zu presses, %zu wrong)",
	       TYPED, n, bad);
	free(json);
	json = ok ? run(pm_cmd_report, "report", "typing", 1, &ret) : NULL;
	snprintf(want, sizeof(want), "\"interval\":{\"pid\":%u,\"comm\":\"sway:input\","
		 "\"from_mono_ns\":%llu,\"to_mono_ns\":%llu,\"chosen_by\":\"kernel_input\","
		 "\"end\":\"flip\",\"reader_by\":\"awake\",", truth[slow].reader,
		 (unsigned long long)truth[slow].ns,
		 (unsigned long long)(truth[slow].ns + MS(TYPING_SLOW_MS)));
	tap_ok(json && !ret && truth[slow].awake && truth[slow].reader == TYPING_SWAY2 &&
	       strstr(json, want),
	       "typed at: report chooses the slow press, read by the thread already runnable");
	if (!json || !strstr(json, want))
		tap_diag("want %s in %s", want, json ? json : "");
	free(json);
	for (i = 0; i < TYPED; i++)
		if (truth[i].awake && i % 8 == 0 && truth[i].reader == truth[i + 1].reader)
			tap_diag("typing.c: press %zu's reader is not the previous block's", i);
}

int main(void)
{
	static const char *const timer_must[] = {
		"\"flip_mono_ns\":320000000,",
		"\"flip\":{\"crtc\":0,\"seq\":20,",
		"\"client\":600,\"client_comm\":\"foot\",",
		"\"clients_woken\":1,",
		"\"committer\":600,\"commit_woke\":500,\"commit_mono_ns\":311500000}",
		"{\"cause\":\"display\",\"culprit\":null,\"resource\":\"crtc 0\",\"ms\":7.6,",
		NULL,
	};
	static const char *const gpu_must[] = {
		"\"fence\":{\"context\":77,\"driver\":\"vgem\",\"timeline\":\"vgem-timeline\","
		"\"signaled_by\":700}",
		NULL,
	};
	static const char *const stopped_must[] = { "\"continued_by\":700", NULL };
	static const char *const noflip_must[] = {
		"\"chosen_by\":\"kernel_input\",\"end\":\"reader_idle\",\"reader_by\":\"wakeup\"}",
		NULL,
	};
	/* how the reader was found: awake (to the flip), flip_reader, awake (reader_idle) */
	static const char *const by_must[] = {
		"\"end\":\"flip\",\"reader_by\":\"awake\",", NULL,
		"\"end\":\"flip\",\"reader_by\":\"flip_reader\",", NULL,
		"\"chosen_by\":\"kernel_input\",\"end\":\"reader_idle\",\"reader_by\":\"awake\"}", NULL,
	};
	static const char *const two_must[] = {
		"\"flip_mono_ns\":112000000,",
		"\"flip\":{\"crtc\":0,\"seq\":7,",
		"\"outputs\":2,",
		"\"client\":600,",
		"\"clients_woken\":2,",
		NULL,
	};
	static const char *const late_must[] = {
		"\"commit_from\":\"vblank_queued\"",
		"\"flip_commit_mono_ns\":33900000,",
		"{\"cause\":\"display\",\"culprit\":null,\"resource\":\"crtc 0\",\"ms\":14.1,",
		NULL,
	};
	static const char *const seat_must[] = {
		"\"flip\":{\"crtc\":0,\"seq\":0,\"file\":\"5ea70000\",\"owner\":450,",
		"\"vblank_mono_ns\":null,",
		"\"client\":600,",
		"\"commit_seen\":true,\"committer\":600,\"commit_woke\":500,",
		NULL,
	};
	static const char *const seat_busy_must[] = {
		"\"flip\":{\"crtc\":0,\"seq\":0,\"file\":\"5ea70000\",\"owner\":450,",
		"\"commit_from\":\"work_queued\",\"outputs\":1",
		"\"committer\":600,\"commit_woke\":500,\"commit_mono_ns\":311500000}",
		NULL,
	};
	static const char *const unseen_must[] = {
		"\"commit_by\":\"stopped\",\"commit_seen\":false,\"committer\":600,"
		"\"commit_woke\":500,\"commit_mono_ns\":15500000}",
		"\"continued_by\":700",
		NULL,
	};
	static const char *const xorg_must[] = {
		"\"interval\":{\"pid\":900,\"comm\":\"xclient\",",
		"\"chosen_by\":\"input\",\"client_done_mono_ns\":311200000,\"end\":\"flip\",",
		"\"flip_mono_ns\":316900000,\"flip_commit_mono_ns\":316200000,",
		"\"flip\":{\"crtc\":0,\"seq\":0,\"file\":\"0c0ffee0\",\"owner\":800,",
		"\"commit_from\":\"work_queued\",",
		NULL,
	};
	static const char *const xwl_must[] = {
		"\"interval\":{\"pid\":900,\"comm\":\"xclient\",",
		"\"chosen_by\":\"input\",",
		"\"end\":\"flip\",\"reader_by\":\"wakeup\",",
		"\"client_is_x_server\":true,",
		"\"flip_mono_ns\":320000000,",
		"\"client\":800,\"client_comm\":\"Xwayland\",",
		"\"committer\":800,\"commit_woke\":500,\"commit_mono_ns\":312200000}",
		NULL,
	};
	static const char *const xwl_awake_must[] = {
		"\"client\":800,\"client_comm\":\"Xwayland\",\"client_woken_by\":0,"
		"\"client_woken_mono_ns\":10020000,",
		NULL,
	};
	static const char *const xwl_busy_must[] = {
		"\"interval\":{\"pid\":900,\"comm\":\"xclient\",",
		"\"chosen_by\":\"input\",",
		"\"client_is_x_server\":true,",
		"\"flip_mono_ns\":320000000,",
		"\"committer\":800,\"commit_woke\":500,\"commit_mono_ns\":312600000}",
		NULL,
	};
	static const char *const xwl_unseen_must[] = {
		"\"client_is_x_server\":true,\"commit_by\":\"awake\",\"commit_seen\":false,\"committer\":800,"
		"\"commit_woke\":500,\"commit_mono_ns\":312400000}",
		NULL,
	};
	static const char *const xwl_framed_must[] = {
		"\"client_is_x_server\":true,\"commit_by\":\"awake\",\"commit_seen\":false,\"committer\":800,"
		"\"commit_woke\":500,\"commit_mono_ns\":312250000}",
		NULL,
	};
	static const char *const xwl_late_must[] = {
		"\"client_done_mono_ns\":312000000,",
		"\"flip_mono_ns\":672000000,",
		"\"committer\":800,\"commit_woke\":500,\"commit_mono_ns\":662200000}",
		"{\"cause\":\"timer\",\"culprit\":{\"pid\":900,\"comm\":\"xclient\"},"
		"\"resource\":\"hrtimer_nanosleep\",\"ms\":300,",
		NULL,
	};
	static const char *const gpu_awake_must[] = {
		"\"commit_by\":\"awake\",\"commit_seen\":false,\"committer\":600,"
		"\"commit_woke\":500,\"commit_mono_ns\":311600000}",
		"\"fence\":{\"context\":77,\"driver\":\"vgem\",\"timeline\":\"vgem-timeline\","
		"\"signaled_by\":700}",
		NULL,
	};
	static const char *const weston_must[] = {
		"\"flip_mono_ns\":323200000,",
		"\"owner\":500,\"delivered_mono_ns\":323200000,",
		"\"loop_start_delivered_mono_ns\":312200000,\"repaint_timer_mono_ns\":321900000}",
		"\"committer\":600,\"commit_woke\":500,\"commit_mono_ns\":311500000}",
		"{\"cause\":\"display\",\"culprit\":null,\"resource\":\"crtc 0 repaint window\","
		"\"ms\":9.4,",
		"\"repaint_window_of\":500}",
		NULL,
	};
	static const char *const weston_stopped_must[] = {
		"\"commit_by\":\"stopped\",",
		"\"loop_start_delivered_mono_ns\":312700000,",
		NULL,
	};
	static const char *const weston_busy_must[] = {
		"\"flip_mono_ns\":322700000,",
		"\"loop_start_delivered_mono_ns\":312099999,\"repaint_timer_mono_ns\":null}",
		"\"committer\":600,\"commit_woke\":500,\"commit_mono_ns\":311500000}",
		NULL,
	};
	static const char *const weston_told_must[] = {
		"\"flip_mono_ns\":323200000,",
		"\"loop_start_delivered_mono_ns\":312200000,\"repaint_timer_mono_ns\":321900000}",
		"\"committer\":600,\"commit_woke\":500,\"commit_mono_ns\":311500000}",
		NULL,
	};
	/* the repaint wait the release woke: the display's, both parts of it */
	static const char *const weston_release_must[] = {
		"\"flip_mono_ns\":323200000,",
		"\"loop_start_delivered_mono_ns\":312200000,\"repaint_timer_mono_ns\":321900000}",
		"{\"cause\":\"display\",\"culprit\":null,\"resource\":\"crtc 0 repaint window\","
		"\"ms\":9,",
		"\"woken_by\":710,\"woken_by_comm\":\"vkbd\",\"waker_ctx\":\"task\","
		"\"cause\":\"display\"}",
		NULL,
	};
	static const char *const timer_race_must[] = {
		"\"commit_by\":\"awake\",\"commit_seen\":false,\"committer\":600,"
		"\"commit_woke\":500,\"commit_mono_ns\":312000000}",
		"\"flip_mono_ns\":315000000,\"flip_commit_mono_ns\":312300000,",
		"\"commit_from\":\"work_queued\"",
		NULL,
	};
	static const char *const xorg_kbd_must[] = {
		"\"chosen_by\":\"auto_press\"", NULL,
		"\"interval\":{\"pid\":800,\"comm\":\"Xorg\",", NULL,
	};
	static const char poll900[] =
		"\"culprit\":{\"pid\":900,\"comm\":\"xclient\"},\"resource\":\"do_sys_poll\"";
	struct scen *s = malloc(sizeof(*s));
	char *out, msg[256];
	int ret;
	size_t i;

	scen_compact = getenv("TIPME_SCEN_COMPACT") != NULL;
	tap_plan(178);
	snprintf(dir, sizeof(dir), "/tmp/tipme-flip-XXXXXX");
	if (!s || !mkdtemp(dir))
		return 1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (build(s, (enum variant)i))
			return 1;
	check(V_TIMER, 320, "flip", "timer", 600, 90, timer_must,
	      "the client sleeps 300 ms before committing");
	check(V_RUNNING, 320, "flip", "running", 600, 90, timer_must + 1,
	      "the client computes 300 ms");
	check(V_GPU, 320, "flip", "gpu", 700, 90, gpu_must,
	      "the client waits 300 ms on a fence another process signals");
	check(V_STOPPED, 320, "flip", "stopped", 600, 90, stopped_must,
	      "the client is stopped 300 ms");
	check(V_COMP_STOPPED, 320, "flip", "stopped", 500, 90, stopped_must,
	      "the compositor is stopped 300 ms before it dispatches the key");
	check(V_COMP_BUSY, 320, "flip", "running", 500, 90, NULL,
	      "the compositor computes 300 ms before it dispatches the key");
	check(V_NOFLIP, 11, "reader_idle", "running", 500, 50, noflip_must,
	      "no flip in the dump: to the compositor's next wait for work");
	check(V_TWO, 112, "flip", "running", 600, 90, two_must,
	      "two clients woken, two outputs: the first client, the first flip after its commit");
	check(V_LATE, 48, "flip", "running", 600, 55, late_must,
	      "a commit 1 ms after a refresh: the client's, the display only from the commit");
	check(V_SILENT, 11, "reader_idle", "running", 500, 50, noflip_must,
	      "a client that handled the key without a word: no flip of a later message's");
	check(V_SEAT, 313, "flip", "timer", 600, 90, seat_must,
	      "the client's sleep, flipped by a kworker to a file seatd opened: the delivery that "
	      "woke sway makes the file sway's");
	check(V_SEAT_RUNNABLE, 313, "flip", "timer", 600, 90, seat_must,
	      "the same, sway runnable at the delivery: the file is sway's as the queuer of the "
	      "commit's work the kworker delivered it in");
	check(V_AWAKE, 320, "flip", "timer", 600, 90, by_must,
	      "sway runnable when the key comes: no wakeup for it, the reader is the thread "
	      "the press before woke, not the client sway woke next to the key");
	check(V_AWAKE_ALONE, 320, "flip", "timer", 600, 90, by_must + 2,
	      "the same with no other input in the dump: the reader is the main thread of the "
	      "process that reads the page flips' events");
	check(V_AWAKE_LAG, 320, "flip", "timer", 600, 90, by_must + 2,
	      "the same, the key stamped on a CPU whose clock lags, just before the timer's "
	      "wakeup of sway on another: sway awake for it still (t-wayland's compstop, loaded)");
	check(V_AWAKE_OTHER, 320, "flip", "timer", 600, 90, by_must + 2,
	      "the same, the press before delivered as another task woke: the reader is the "
	      "flip reader, awake (t-wayland's sleep press under make check)");
	check(V_AWAKE_NOFLIP, 11, "reader_idle", "running", 500, 50, by_must + 4,
	      "the same in a dump without flips: to the reader's next wait, the reader "
	      "already awake");
	check(V_SEAT_BUSY, 312.4, "flip", "timer", 600, 90, seat_busy_must,
	      "the same, sway runnable when the kworker delivers the flip: the commit's work, "
	      "queued by sway, makes the file sway's");
	check(V_UNSEEN, 320, "flip", "stopped", 500, 90, unseen_must,
	      "the compositor stopped when the client commits: no wakeup shows the commit, "
	      "the client's last run before the compositor was continued ends it");
	check(V_SKEW, 320, "flip", "running", 600, 90, timer_must + 2,
	      "the key on a CPU whose clock lags 5 ms: sway's wait before its run for the key "
	      "does not end the dispatch");
	check(V_UNSEEN_BUSY, 320, "flip", "stopped", 500, 90, unseen_must,
	      "the same, the client in a write as the compositor answered, a later message: "
	      "the flip after the compositor was continued, not the later message's");
	check(V_UNSEEN_AGAIN, 320, "flip", "stopped", 500, 90, unseen_must,
	      "the same, sway's timer and another flip 40 ms later, no process having woken "
	      "it: the flip after it was continued had a frame it told the client of, no "
	      "repaint loop's start");
	check(V_UNSEEN_RUN, 320.03, "flip", "stopped", 500, 90, unseen_must,
	      "the same, sway never waiting from its continue to a flip 40 ms later: the "
	      "flip after it was continued had a frame it told the client of (no timer to "
	      "bound the telling: to the next flip), no repaint loop's start");
	check(V_TIMER_RACE, 315, "flip", "timer", 600, 90, timer_race_must,
	      "the client's sleep, sway woken by a timer as the client commits (no wakeup), "
	      "committing the flip and woken by another timer before its delivery: the timer "
	      "is no other work, the flip is the press's (t-wlauto under load), committed when "
	      "sway queued the work that completed it (312.3 ms), not at its later run's end");
	check(V_XWL_TIMER, 320, "flip", "timer", 900, 90, xwl_must,
	      "an X client under Xwayland sleeps 300 ms: from the kernel's input through sway "
	      "and Xwayland to the X client, Xwayland's commit after its drawing, the flip");
	check(V_XWL_UINPUT, 320, "flip", "timer", 900, 90, xwl_must,
	      "the same, the key from a uinput writer that woke sway before the input record, "
	      "and a timer interrupt's wakeup of another thread after it: sway is the reader "
	      "(before, the timer's sleeper was, and the press was not followed to the flip)");
	check(V_XWL_RUNNING, 320, "flip", "running", 900, 90, xwl_must,
	      "an X client under Xwayland computes 300 ms");
	check(V_XWL_AWAKE, 320, "flip", "timer", 900, 90, xwl_awake_must,
	      "the same sleep, Xwayland runnable when sway sends the key: no wakeup shows "
	      "the hand-off: the press whose compositor woke no client, before the X dump's device event");
	check(V_XWL_UNSEEN, 320, "flip", "timer", 900, 90, xwl_unseen_must,
	      "the same sleep, sway runnable at Xwayland's commit: no wakeup shows it, "
	      "Xwayland's next wait for work after the drawing is the commit");
	check(V_XWL_FRAMED, 320, "flip", "timer", 900, 90, xwl_framed_must,
	      "the same, Xwayland busy until after the flip: its commit is its run that "
	      "ended with sway awake (preempted at 312.25 ms), not its next wait for work "
	      "(340 ms), after which no flip came (before, the X press was not joined to the "
	      "kernel's input)");
	check(V_XWL_BUSY, 320, "flip", "timer", 900, 90, xwl_busy_must,
	      "the same sleep, Xwayland never asleep again after sway woke it for the key, and "
	      "a second key later: the client's wait for that key is no round trip (Xwayland "
	      "sent the first key's reply when it last woke the client), the first key ends "
	      "at its own flip");
	check(V_XWL_SAMEMS, 320, "flip", "timer", 900, 90, xwl_busy_must,
	      "the same, each reply sent in the millisecond it was written, 0.3 ms before the "
	      "client waits again: the wakeup sent it (it sent at least the first output the "
	      "client had not had), the client's wait for the next key is no round trip");
	check(V_XWL_LATE, 672, "flip", "running", 800, 50, xwl_late_must,
	      "the same sleep, Xwayland computing on for 350 ms after it executed the drawing "
	      "before it commits: from the drawing on the chain follows Xwayland (running), not "
	      "the X client's wait for the next key");
	check(V_XWL_SLOWX, 672, "flip", "running", 800, 50, xwl_late_must,
	      "the same, and a later X press slower from its device event to the client's end "
	      "(401.6 ms) that the kernel's dump has no input record of: the slowest press is "
	      "the first, 662 ms from its input record to its flip (before, the later one)");
	out = run(pm_cmd_report, "report", names[V_XWL_LATE], 1, &ret);
	tap_ok(!ret && !strstr(out, poll900) &&
	       num(out, "{\"cause\":\"running\",\"culprit\":{\"pid\":800,", "ms", 99) >= 350,
	       "xwayland-late: nothing charged to a wait in poll (the X client's for the next key), "
	       "Xwayland's 350 ms from the drawing (312 ms) to its commit (662.2 ms) its running");
	if (ret || strstr(out, poll900))
		tap_diag("%s", out);
	free(out);
	check(V_GPU_AWAKE, 320, "flip", "gpu", 700, 90, gpu_awake_must,
	      "the fence's wait, sway awake for a timer as the client commits (no wakeup) and "
	      "asleep when the client next waits: the commit is the client's run that found sway "
	      "awake, the flip the one sway committed before it waited for other work");
	check(V_SILENT_AWAKE, 11, "reader_idle", "running", 500, 50, noflip_must,
	      "a client that handled the key without a word while sway was awake: not the flip "
	      "of a blink sway woke for later");
	check(V_WESTON, 323.2, "flip", "timer", 600, 90, weston_must,
	      "the client's sleep under weston: the flip right after the commit only starts its "
	      "repaint loop, the repaint after its timer shows the answer, the wait for that "
	      "timer the display's pace");
	check(V_WESTON_STOPPED, 323.7, "flip", "timer", 600, 80, weston_stopped_must,
	      "the client's sleep under weston, weston stopped when the client commits: the "
	      "repaint after the loop's first flip, not nothing (its wait for the repaint "
	      "window is the flip's own, not other work)");
	check(V_PTY, 320, "flip", "stopped", 600, 90, stopped_must,
	      "the client passes the key to its pty and waits; the key's release finds it in "
	      "the same wait before the answer (stopped 300 ms): no proof that nothing was "
	      "drawn, the flip after its commit (t-foot)");
	check(V_WESTON_TOLD, 323.2, "flip", "timer", 600, 90, weston_told_must,
	      "the client's sleep under weston, weston preempted by the kworker that delivers "
	      "its loop's first flip, "
	      "then sending foot its replies to the commit (a wakeup) before it reads that "
	      "flip's event: no frame's news, the repaint's flip (t-weston's compstop)");
	check(V_WESTON_RELEASE, 323.2, "flip", "timer", 600, 90, weston_release_must,
	      "the client's sleep under weston, the key's release written through uinput "
	      "waking weston between its "
	      "loop's first flip and the repaint: an input, no process's news, the repaint's "
	      "flip (t-weston's none); weston's repaint wait the release woke is the display's "
	      "(9 ms), not vkbd's");
	out = run(pm_cmd_report, "report", "weston-release", 1, &ret);
	tap_ok(!strstr(out, "\"culprit\":{\"pid\":710,"),
	       "weston-release: nothing charged to vkbd, whose write woke weston's repaint wait");
	free(out);
	check(V_WESTON_BUSY, 322.7, "flip", "timer", 600, 90, weston_busy_must,
	      "the same, weston runnable from the commit to the repaint (its timer expired as it "
	      "ran): the repaint's flip still, no wait for the timer");
	/* the module's auto trigger named the press of Xorg's keyboard */
	auto_meta(V_XORG_KBD, 800, "Xorg", 10000000, 302500000);
	check(V_XORG_KBD, 312.5, "reader_idle", "timer", 900, 90, xorg_kbd_must,
	      "Xorg reading the key on its input thread, which hands it to the main thread: "
	      "the press the auto trigger named, the main thread's, to its wait after the "
	      "client's drawing (no flip; before, it ended at the input thread's poll, "
	      "10.4 ms)");
	check(V_XORG_KBD_UNTRACED, 10.9, "reader_idle", "running", 800, 10,
	      xorg_kbd_must + 2,
	      "the same with DRM's flips not traced: to the main thread's wait after it handed "
	      "the client the key, as the module's auto trigger measures it then");
	check(V_XORG, 316.9, "flip", "timer", 900, 90, xorg_must,
	      "an X client of Xorg, which flips in the dispatch of its Present request and "
	      "draws on: to that flip (316.9 ms), completed before Xorg waited again (340 ms), "
	      "not the next press's (502 ms)");
	out = run(pm_cmd_report, "report", "late", 1, &ret);
	tap_ok(num(out, "{\"cause\":\"display\"", "ms", 99) < 16.0,
	       "late: the display's share is less than one refresh (16 ms)");
	free(out);
	latency(V_TIMER, 310, "flip", 300, "tipme latency, the client's sleep");
	latency(V_TWO, 102, "flip", 99, "tipme latency, two clients and outputs");
	latency(V_NOFLIP, 1, "reader_idle", 1, "tipme latency, no flip");
	latency(V_WESTON, 313.2, "flip", 300,
		"tipme latency under weston: to the repaint's flip, not the loop's start");
	latency(V_PTY, 310, "flip", 300,
		"tipme latency, the key passed to a pty, its release before the answer");
	latency(V_AWAKE_ALONE, 310, "flip", 300,
		"tipme latency, a press no wakeup delivered: read by the flips' reader, already awake");
	xlatency(V_XWL_TIMER, xwl_latency_must, 310, 300, 0,
		 "tipme latency, an X client under Xwayland sleeps: joined to the kernel's input");
	xlatency(V_XWL_BUSY, xwl_latency_must, 310, 300, 0,
		 "tipme latency, the same under an Xwayland never asleep again");
	xlatency(V_XWL_FRAMED, xwl_latency_must, 310, 300, 0,
		 "tipme latency, the same with Xwayland busy until after the flip");
	xlatency(V_XWL_SAMEMS, xwl_latency_must, 310, 300, 0,
		 "tipme latency, the same, each reply sent in its millisecond");
	xlatency(V_XORG, xorg_latency_must, 306.9, 300.7, 300.7,
		 "tipme latency, an X client of Xorg: each press to Xorg's flip in its Present "
		 "request (306.9 ms, 2 ms), the X client's leg to its wait in poll, not to the "
		 "Present request Xorg dispatched 5 ms later");
	/* the layer below: the flips, fences and wakeups joined to them */
	for (i = V_GPU; i <= V_LATE; i += V_LATE - V_GPU) {
		ret = state_golden(dir, names[i], msg, sizeof(msg));
		tap_ok(ret, "%s: state and resources as golden, in two passes and in one",
		       names[i]);
		if (*msg)
			tap_diag("%s: %s", names[i], msg);
	}
	/* the module's auto trigger named the press: auto_press, to the flip */
	ret = auto_meta(V_TIMER, 500, "sway", 10000000, 310000000);
	out = !ret ? run(pm_cmd_report, "report", "timer", 1, &ret) : NULL;
	tap_ok(out && strstr(out, "\"from_mono_ns\":10000000,\"to_mono_ns\":320000000,"
			   "\"chosen_by\":\"auto_press\",\"press_claimed\":false,\"end\":\"flip\","
			   "\"reader_by\":\"wakeup\",\"flip_mono_ns\":320000000,"),
	       "an auto incident: the press it names, to the flip");
	if (!out || !strstr(out, "\"auto_press\""))
		tap_diag("%s", out ? out : "");
	free(out);
	/*
	 * the stamp 2.4 ms after the record (a loaded t-autokernel: the
	 * record's CPU lagging, local_clock()): still the press named; 12.4
	 * ms after, beyond 2 ms and a CPU's skew, it names none
	 */
	for (i = 0; i < 2; i++) {
		if (auto_meta(V_TIMER, 500, "sway", i ? 22400000 : 12400000, 310000000))
			break;
		out = run(pm_cmd_report, "report", "timer", 1, &ret);
		tap_ok(out && strstr(out, i ? "\"chosen_by\":\"kernel_input\"" :
					       "\"chosen_by\":\"auto_press\""),
		       i ? "the stamp 12.4 ms after the record (local_clock()): not that press" :
			   "the stamp 2.4 ms after the record (local_clock(): the record's CPU lags): "
			   "the press it names");
		free(out);
	}
	typed(s);
	free(s);
	/* TIPME_KEEP_TMP=1 keeps the scenarios' incidents (fuzz seeds) */
	if (!getenv("TIPME_KEEP_TMP"))
		gen_rmtree(dir);
	return tap_done();
}
