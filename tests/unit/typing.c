// SPDX-License-Identifier: GPL-2.0
/*
 * A compositor's desktop typed at (typing.h).  CPU 0 records the keys
 * and runs the compositor (sway, 500, with a second input thread 501);
 * CPU 1 runs the client (foot, 600).  Press i, at t:
 *
 *   t        the key's input record (CPU 0); evdev wakes its reader R
 *            (500 for presses 0..7, 501 for 8..15, 500 again ...)
 *   t+0.1    R runs, wakes foot at t+0.4, waits in poll at t+0.9
 *   t+2      foot's commit wakes R, which composes until t+2.6
 *   t+8      the refresh of CRTC 0 shows it: the flip's event, delivered
 *            from the interrupt, wakes 500 (whose file it is)
 *   t+12     the key's release (t+26 for the last press of each block of
 *            eight), which evdev delivers to R
 *
 * Every fourth press from the third on (i % 4 == 2) finds R runnable: a
 * timer woke it at t-1.5, and no wakeup delivers the key; the nearest
 * other input with a wakeup is its own release, read by R.  The first
 * press of every block but the first (i % 8 == 0) finds the previous
 * block's reader runnable the same way and reads the key there: the
 * nearest other input is the previous press's release (4 ms before, read
 * by that thread), not its own (12 ms after, by the thread now asleep).
 * One press is slower than the others: the first of the last block of
 * sixteen (typing_slow()), one of those, read by 501, whose flip comes at
 * t+24 (TYPING_SLOW_MS), after its release.  The records are written in
 * time order on each CPU, a new sub-buffer started when one is nearly
 * full; the dump ends with a trigger.
 */
#include <string.h>

#include "typing.h"

static const char *const poll_site[] = { "do_sys_poll", NULL };

/* Start @cpu's next sub-buffer when its current one is nearly full. */
static void room(struct scen *s, uint32_t cpu)
{
	const struct scen_sb *b = &s->sb[cpu][s->nsb[cpu] - 1];

	if (b->len + 1024 > SCEN_SB_BYTES)
		scen_subbuf(s, cpu, b->seq + 1);
}

static void input(struct scen *s, uint64_t ns, uint8_t value)
{
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = value, .device = 3 };

	scen_rec(s, 0, TIPME_REC_INPUT, ns, &in, sizeof(in));
}

/* @pid runs on CPU 0 from @ns to @out, then waits in poll. */
static void runs(struct scen *s, uint32_t pid, double ns, double out)
{
	scen_switch(s, 0, MS(ns), 0, TIPME_TS_RUNNABLE, 120, pid, 120);
	scen_switch(s, 0, MS(out), pid, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(out), pid, poll_site);
}

/**
 * typing_flip() - the vblank @seq of @crtc at @ms, its event delivered to
 *		   sway's (500) file from the interrupt on CPU 0 0.03 ms
 *		   after; no wakeup (typing_refresh() adds sway's)
 * @s: the scenario
 * @ms: the vblank's time
 * @crtc: its CRTC
 * @seq: its sequence
 */
void typing_flip(struct scen *s, double ms, uint16_t crtc, uint32_t seq)
{
	struct tipme_rec_vblank vb = { 0 };
	struct tipme_rec_vblank_ev ev = { 0 };

	vb.seq = seq;
	vb.time_lo = (uint32_t)MS(ms);
	vb.time_hi = (uint32_t)(MS(ms) >> 32);
	vb.crtc = crtc;
	vb.flags = TIPME_VBLANK_HIGH_PREC;
	scen_rec(s, 0, TIPME_REC_VBLANK, MS(ms + 0.02), &vb, sizeof(vb));
	ev.seq = seq;
	ev.file = 0x5a1e0000 | crtc;
	ev.who = tipme_work_who(0, TIPME_CTX_HARDIRQ);
	ev.owner = TYPING_SWAY;
	ev.crtc = crtc;
	scen_rec(s, 0, TIPME_REC_VBLANK_DELIVERED, MS(ms + 0.03), &ev, sizeof(ev));
}

/**
 * typing_refresh() - a refresh showing sway's flip
 * @s: the scenario
 * @ms: the vblank's time
 * @crtc: its CRTC
 * @seq: its sequence
 *
 * The vblank @seq of @crtc at @ms, its event delivered to sway's (500)
 * file from the interrupt on CPU 0, which wakes sway (asleep in poll); it
 * runs 0.2 ms and waits in poll again.  Also test_flip.c's.
 */
void typing_refresh(struct scen *s, double ms, uint16_t crtc, uint32_t seq)
{
	typing_refresh_tell(s, ms, crtc, seq, 0);
}

/**
 * typing_refresh_tell() - typing_refresh(), sway telling a client of it
 * @s: the scenario
 * @ms: the vblank's time
 * @crtc: its CRTC
 * @seq: its sequence
 * @client: the thread sway wakes on CPU 1 (a frame's done) 0.05 ms into
 *	its run, 0 for none
 */
void typing_refresh_tell(struct scen *s, double ms, uint16_t crtc, uint32_t seq,
			 uint32_t client)
{
	typing_flip(s, ms, crtc, seq);
	scen_wake(s, 0, MS(ms + 0.04), TYPING_SWAY, 0, 0, TIPME_CTX_HARDIRQ);
	if (!client) {
		runs(s, TYPING_SWAY, ms + 0.1, ms + 0.3);
		return;
	}
	scen_switch(s, 0, MS(ms + 0.1), 0, TIPME_TS_RUNNABLE, 120, TYPING_SWAY, 120);
	scen_wake(s, 0, MS(ms + 0.15), client, 1, TYPING_SWAY, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(ms + 0.3), TYPING_SWAY, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(ms + 0.3), TYPING_SWAY, poll_site);
}

static uint32_t reader_of(uint32_t i)
{
	return (i / 8) % 2 ? TYPING_SWAY2 : TYPING_SWAY;
}

static double release_after(uint32_t i)
{
	return i % 8 == 7 ? 26.0 : 12.0;
}

/**
 * typing_slow() - the press whose flip comes late
 * @presses: how many presses the scenario has
 *
 * Return: its index (a multiple of 16), or @presses if they are fewer
 * than 16.
 */
uint32_t typing_slow(uint32_t presses)
{
	return presses < 16 ? presses : (presses - 1) / 16 * 16;
}

/**
 * typing_write() - write the typed-at desktop into a scenario
 * @s: a scenario scen_init() set up with 2 CPUs or more (its options,
 *	e.g. compact records, as the caller wants them)
 * @presses: how many key presses
 * @truth: NULL, or set to each press's time and reader (@presses of them)
 *
 * Return: 0, or -1 if the scenario's buffers are too small (s->overflow).
 */
int typing_write(struct scen *s, uint32_t presses, struct typing_press *truth)
{
	uint32_t i, r, slow = typing_slow(presses);
	double t, end = 0, rel;

	scen_task(s, TYPING_SWAY, TYPING_SWAY, "sway", "/usr/bin/sway", "sway", 5);
	scen_task(s, TYPING_SWAY2, TYPING_SWAY, "sway:input", "/usr/bin/sway", "sway", 5);
	scen_task(s, TYPING_FOOT, TYPING_FOOT, "foot", "/usr/bin/foot", "foot", 5);
	runs(s, TYPING_SWAY, 0.5, 1);
	runs(s, TYPING_SWAY2, 1.1, 1.2);
	scen_switch(s, 1, MS(0.5), 0, TIPME_TS_RUNNABLE, 120, TYPING_FOOT, 120);
	scen_switch(s, 1, MS(1), TYPING_FOOT, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(1), TYPING_FOOT, poll_site);
	for (i = 0; i < presses; i++) {
		int awake = i % 4 == 2 || (i % 8 == 0 && i);

		t = TYPING_FIRST_MS + i * TYPING_EVERY_MS;
		r = i % 8 == 0 && i ? reader_of(i - 1) : reader_of(i);
		room(s, 0);
		room(s, 1);
		if (awake)
			scen_wake(s, 0, MS(t - 1.5), r, 0, 0, TIPME_CTX_HARDIRQ);
		input(s, MS(t), 1);
		if (!awake)
			scen_wake(s, 0, MS(t + 0.02), r, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(t + 0.1), 0, TIPME_TS_RUNNABLE, 120, r, 120);
		scen_wake(s, 0, MS(t + 0.4), TYPING_FOOT, 1, r, TIPME_CTX_TASK);
		scen_switch(s, 0, MS(t + 0.9), r, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(t + 0.9), r, poll_site);
		/* foot answers: its commit wakes r */
		scen_switch(s, 1, MS(t + 0.5), 0, TIPME_TS_RUNNABLE, 120, TYPING_FOOT, 120);
		scen_wake(s, 1, MS(t + 2), r, 0, TYPING_FOOT, TIPME_CTX_TASK);
		scen_switch(s, 1, MS(t + 2.5), TYPING_FOOT, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(t + 2.5), TYPING_FOOT, poll_site);
		runs(s, r, t + 2.1, t + 2.6);
		if (i != slow)
			typing_refresh(s, t + TYPING_FLIP_MS, 0, i + 1);
		/* the release, to this press's own reader */
		rel = t + release_after(i);
		input(s, MS(rel), 0);
		scen_wake(s, 0, MS(rel + 0.02), reader_of(i), 0, 0, TIPME_CTX_HARDIRQ);
		runs(s, reader_of(i), rel + 0.1, rel + 0.3);
		end = rel + 0.3;
		if (i == slow) {
			typing_refresh(s, t + TYPING_SLOW_MS, 0, i + 1);
			end = t + TYPING_SLOW_MS + 0.3;
		}
		if (truth)
			truth[i] = (struct typing_press){ MS(t), r, awake };
	}
	room(s, 0);
	scen_trigger(s, MS(end + 10));
	return s->overflow ? -1 : 0;
}
