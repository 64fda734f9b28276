// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers.  Whatever asks for a dump (sysctl, hotkey, netlink, the X hook,
 * a benchmark that measured a stall) goes through tipme_trigger(): the
 * request gets the current trigger's sequence number if it comes within
 * trigger_interval_ms of it (a held key, a storm of requests), else a new
 * one; either way a TIPME_REC_TRIGGER record marks the moment in the ring.
 * New triggers are announced, through the function tipme_trigger_init() was
 * given (the netlink family's multicast group), from a work item, so the
 * caller may be in interrupt context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "recorder.h"
#include "control/trigger.h"

unsigned int tipme_trigger_interval_ms = 2000;
int tipme_keylog;
bool tipme_keylog_used;

static DEFINE_SPINLOCK(trigger_lock);
static struct tipme_trigger_info last;
static u32 nr_triggers, nr_coalesced;
static tipme_trigger_announce_fn announce_fn;

static void notify_fn(struct work_struct *work)
{
	tipme_trigger_announce_fn announce = READ_ONCE(announce_fn);
	struct tipme_trigger_info t;
	unsigned long flags;

	if (!announce)
		return;
	spin_lock_irqsave(&trigger_lock, flags);
	t = last;
	spin_unlock_irqrestore(&trigger_lock, flags);
	announce(&t);
}

static DECLARE_WORK(notify_work, notify_fn);

static void write_record(u32 seq, u32 source, bool coalesced)
{
	struct tipme_rec_trigger *r;
	struct tipme_wslot ws;

	preempt_disable_notrace();
	r = tipme_reserve(TIPME_REC_TRIGGER, sizeof(*r), &ws);
	if (r) {
		r->seq = seq;
		r->source = source;
		r->coalesced = coalesced;
		r->reserved = 0;
		tipme_commit(&ws, TIPME_REC_TRIGGER);
	}
	preempt_enable_notrace();
}

/**
 * tipme_trigger() - request a dump
 * @source: who asks
 * @coalesced: if not NULL, set when the request joined the current trigger
 *
 * Context: any context but NMI; does not sleep.
 * Return: the sequence number of the trigger the request belongs to.
 */
u32 tipme_trigger(enum tipme_trigger_source source, bool *coalesced)
{
	u64 ts = tipme_clock_now(), mono = ktime_get_ns();
	unsigned long flags;
	bool joined;
	u32 seq;

	spin_lock_irqsave(&trigger_lock, flags);
	joined = last.seq &&
		 mono - last.mono_ns <
		 (u64)READ_ONCE(tipme_trigger_interval_ms) * NSEC_PER_MSEC;
	if (joined) {
		nr_coalesced++;
	} else {
		last.seq++;
		last.source = source;
		last.ts = ts;
		last.mono_ns = mono;
		last.real_ns = ktime_get_real_ns();
		nr_triggers++;
	}
	seq = last.seq;
	spin_unlock_irqrestore(&trigger_lock, flags);

	write_record(seq, source, joined);
	if (!joined)
		schedule_work(&notify_work);
	if (coalesced)
		*coalesced = joined;
	return seq;
}

/**
 * tipme_trigger_last() - the latest trigger and the counters
 * @out: the latest accepted trigger (seq 0 if none yet)
 * @triggers: triggers accepted since load, may be NULL
 * @coalesced: requests coalesced into earlier triggers, may be NULL
 *
 * Context: any but NMI.
 */
void tipme_trigger_last(struct tipme_trigger_info *out, u32 *triggers,
			u32 *coalesced)
{
	unsigned long flags;

	spin_lock_irqsave(&trigger_lock, flags);
	*out = last;
	if (triggers)
		*triggers = nr_triggers;
	if (coalesced)
		*coalesced = nr_coalesced;
	spin_unlock_irqrestore(&trigger_lock, flags);
}

/**
 * tipme_trigger_params_text() - "key=value\n" lines of the trigger settings
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_trigger_params_text(char *buf, size_t size)
{
	return scnprintf(buf, size,
			 "keylog=%d\nkeylog_used=%d\ntrigger_interval_ms=%u\n",
			 READ_ONCE(tipme_keylog), READ_ONCE(tipme_keylog_used),
			 READ_ONCE(tipme_trigger_interval_ms));
}

/**
 * tipme_set_keylog() - record key codes, or not
 * @on: true to record them
 *
 * Dumps say whether key codes were ever recorded since load.
 *
 * Context: any.
 */
void tipme_set_keylog(bool on)
{
	if (on)
		WRITE_ONCE(tipme_keylog_used, true);
	WRITE_ONCE(tipme_keylog, on);
}

/**
 * tipme_trigger_init() - start announcing triggers
 * @announce: tells listeners about each new trigger; it must cope with
 *	being called before its listeners can exist and after they are gone
 *
 * Triggers are accepted before this (they are numbered and recorded, not
 * announced).
 *
 * Context: module init, before any source of triggers is set up.
 */
void tipme_trigger_init(tipme_trigger_announce_fn announce)
{
	WRITE_ONCE(announce_fn, announce);
}

/**
 * tipme_trigger_exit() - stop announcing triggers
 *
 * Waits for an announcement in progress, so no work item outlives the
 * module.
 *
 * Context: module exit, after every source of triggers (sysctl, input,
 * netlink) is gone, so no new announcement can be queued.
 */
void tipme_trigger_exit(void)
{
	WRITE_ONCE(announce_fn, NULL);
	cancel_work_sync(&notify_work);
}
