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

#include <linux/cred.h>
#include <linux/printk.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/irqflags.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "recorder.h"
#include "control/trigger.h"

static bool keylog_lock;
module_param(keylog_lock, bool, 0444);
MODULE_PARM_DESC(keylog_lock, "Key logging stays off: neither Ctrl-Alt-1 nor /proc/sys/tipme/keylog can switch it on (default 0)");

static bool keylog_hotkey;

/* Every change of keylog_hotkey is a kernel log line, as key logging's. */
static int keylog_hotkey_set(const char *val, const struct kernel_param *kp)
{
	bool was = READ_ONCE(keylog_hotkey);
	int err;

	err = param_set_bool(val, kp);
	if (!err && READ_ONCE(keylog_hotkey) != was)
		pr_notice("Ctrl-Alt-1 %s switch key logging on (keylog_hotkey=%d, set by uid %u)\n",
			  was ? "can no longer" : "can now", !was,
			  from_kuid(&init_user_ns, current_uid()));
	return err;
}

static const struct kernel_param_ops keylog_hotkey_ops = {
	.set = keylog_hotkey_set,
	.get = param_get_bool,
};

module_param_cb(keylog_hotkey, &keylog_hotkey_ops, &keylog_hotkey, 0644);
MODULE_PARM_DESC(keylog_hotkey, "Ctrl-Alt-1 on a keyboard may switch key logging on (default 0: only root, through /proc/sys/tipme/keylog); Ctrl-Alt-0 always switches it off");

unsigned int tipme_trigger_interval_ms = 2000;
int tipme_keylog;
bool tipme_keylog_used;
/* Who last switched key logging on; under trigger_lock. */
static enum tipme_switch_by keylog_by = TIPME_BY_NONE;
/* Who last stopped recording (none: nobody, or it was started since). */
static enum tipme_switch_by recording_stopped_by = TIPME_BY_NONE;

/*
 * Raw: trigger() holds it with interrupts off, also on PREEMPT_RT, so that
 * the key press and its trigger record are written back to back.  Every
 * section under it only copies a few words.
 */
static DEFINE_RAW_SPINLOCK(trigger_lock);
static struct tipme_trigger_info last;
static u32 nr_triggers, nr_coalesced;
/* The last trigger announced, and triggers never announced on their own. */
static u32 announced_seq, nr_merged;
static tipme_trigger_announce_fn announce_fn;

static void notify_fn(struct work_struct *work)
{
	tipme_trigger_announce_fn announce = READ_ONCE(announce_fn);
	struct tipme_trigger_info t;
	unsigned long flags;

	if (!announce)
		return;
	raw_spin_lock_irqsave(&trigger_lock, flags);
	t = last;
	/*
	 * Triggers that came while the work item was pending are announced
	 * only through the newest one; count them so that a listener who
	 * sees a gap in the numbers knows it is not a lost message.
	 */
	if (t.seq > announced_seq + 1)
		nr_merged += t.seq - announced_seq - 1;
	announced_seq = t.seq;
	raw_spin_unlock_irqrestore(&trigger_lock, flags);
	announce(&t);
}

static DECLARE_WORK(notify_work, notify_fn);

static void write_record(u32 seq, u32 source, bool coalesced)
{
	struct tipme_rec_trigger *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_TRIGGER, sizeof(*r), &ws);
	if (r) {
		r->seq = seq;
		r->source = source;
		r->coalesced = coalesced;
		r->reserved = 0;
		tipme_commit(&ws, TIPME_REC_TRIGGER);
	}
}

static u32 trigger(enum tipme_trigger_source source,
		   const struct tipme_trigger_press *press,
		   void (*first)(const void *arg), const void *arg,
		   bool *coalesced)
{
	unsigned long flags;
	bool joined;
	u64 ts, mono;
	u32 seq;

	/*
	 * The record first: its time is the request's, just after the input
	 * record of a hotkey, not after the freeze (which walks every CPU's
	 * ring).  It is the newest record, so the frozen window keeps it.
	 * Interrupts stay off from @first's record to ours, so that nothing
	 * else on this CPU comes between them, also where the caller itself
	 * is preemptible (the input handlers of a PREEMPT_RT kernel).
	 */
	local_irq_save(flags);
	if (first)
		first(arg);
	ts = tipme_clock_now();
	mono = ktime_get_ns();
	raw_spin_lock(&trigger_lock);
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
		last.has_press = press;
		if (press)
			last.press = *press;
		nr_triggers++;
	}
	seq = last.seq;
	raw_spin_unlock(&trigger_lock);
	write_record(seq, source, joined);
	local_irq_restore(flags);

	if (!joined)
		tipme_recorder_freeze(ts, seq);
	if (!joined)
		schedule_work(&notify_work);
	if (coalesced)
		*coalesced = joined;
	return seq;
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
	return trigger(source, NULL, NULL, NULL, coalesced);
}

/**
 * tipme_trigger_after() - request a dump, right after writing a record
 * @source: who asks
 * @first: writes the record that caused the request (a hotkey's press)
 * @arg: its argument
 *
 * @first and the trigger record are written with interrupts off, one after
 * the other: nothing else on this CPU comes between them.  @first must not
 * sleep.
 *
 * Context: any context but NMI; does not sleep.
 * Return: the sequence number of the trigger the request belongs to.
 */
u32 tipme_trigger_after(enum tipme_trigger_source source,
			void (*first)(const void *arg), const void *arg)
{
	return trigger(source, NULL, first, arg, NULL);
}

/**
 * tipme_trigger_auto() - request a dump for a press measured too slow
 * @press: the press; its announcement carries it to listeners
 *
 * A press that joins a recent trigger is not announced on its own.
 *
 * Context: any context but NMI; does not sleep.
 * Return: the sequence number of the trigger the request belongs to.
 */
u32 tipme_trigger_auto(const struct tipme_trigger_press *press)
{
	return trigger(TIPME_TRIG_AUTO, press, NULL, NULL, NULL);
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

	raw_spin_lock_irqsave(&trigger_lock, flags);
	*out = last;
	if (triggers)
		*triggers = nr_triggers;
	if (coalesced)
		*coalesced = nr_coalesced;
	raw_spin_unlock_irqrestore(&trigger_lock, flags);
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
	static const char * const by_names[] = {
		[TIPME_BY_NONE] = "none",
		[TIPME_BY_KEYBOARD] = "keyboard",
		[TIPME_BY_SYSCTL] = "sysctl",
		[TIPME_BY_NETLINK] = "netlink",
	};
	enum tipme_switch_by by;
	unsigned long flags;
	u32 merged;

	raw_spin_lock_irqsave(&trigger_lock, flags);
	by = keylog_by;
	merged = nr_merged;
	raw_spin_unlock_irqrestore(&trigger_lock, flags);
	return scnprintf(buf, size,
			 "keylog=%d\nkeylog_used=%d\nkeylog_lock=%d\nkeylog_hotkey=%d\nkeylog_on_by=%s\ntrigger_interval_ms=%u\nannouncements_merged=%u\n",
			 READ_ONCE(tipme_keylog), READ_ONCE(tipme_keylog_used),
			 keylog_lock, READ_ONCE(keylog_hotkey), by_names[by],
			 READ_ONCE(tipme_trigger_interval_ms), merged);
}

/* The uid of the task asking (a sysctl write, a netlink command). */
static unsigned int caller_uid(void)
{
	return from_kuid(&init_user_ns, current_uid());
}

/**
 * tipme_set_keylog() - record key codes, or not
 * @on: true to record them
 * @by: who asks: TIPME_BY_KEYBOARD or TIPME_BY_SYSCTL
 *
 * Dumps say whether key codes were ever recorded since load, and who last
 * switched key logging on.  The keyboard (Ctrl-Alt-1) may switch it on
 * only with the keylog_hotkey parameter set; with keylog_lock set, nothing
 * can.  Switching it off is always allowed.  Every switch and every
 * refusal is a kernel log line; those from the keyboard are ratelimited
 * (a key can repeat).
 *
 * Context: any but NMI; does not sleep.
 * Return: 0, or -EPERM if @on is refused.
 */
int tipme_set_keylog(bool on, enum tipme_switch_by by)
{
	bool kbd = by == TIPME_BY_KEYBOARD;
	unsigned long flags;
	bool was;

	if (on && keylog_lock) {
		pr_notice_ratelimited("key logging is locked off (keylog_lock=1); request from %s refused\n",
				      kbd ? "the keyboard" : "sysctl");
		return -EPERM;
	}
	if (on && kbd && !READ_ONCE(keylog_hotkey)) {
		pr_notice_ratelimited("key logging from the keyboard is not allowed (keylog_hotkey=0); Ctrl-Alt-1 refused\n");
		return -EPERM;
	}
	raw_spin_lock_irqsave(&trigger_lock, flags);
	was = tipme_keylog;
	if (on) {
		WRITE_ONCE(tipme_keylog_used, true);
		keylog_by = by;
	}
	WRITE_ONCE(tipme_keylog, on);
	raw_spin_unlock_irqrestore(&trigger_lock, flags);
	if (on == was)
		return 0;
	if (on && kbd)
		pr_notice_ratelimited("key logging switched on from the keyboard (Ctrl-Alt-1): key codes are recorded until Ctrl-Alt-0 or /proc/sys/tipme/keylog=0\n");
	else if (on)
		pr_notice("key logging switched on through /proc/sys/tipme/keylog by uid %u\n",
			  caller_uid());
	else if (kbd)
		pr_notice_ratelimited("key logging switched off from the keyboard (Ctrl-Alt-0)\n");
	else
		pr_notice("key logging switched off through /proc/sys/tipme/keylog by uid %u\n",
			  caller_uid());
	return 0;
}

/**
 * tipme_switch_recording() - start or stop recording on request
 * @on: true to record
 * @by: who asks: TIPME_BY_KEYBOARD (Ctrl-Alt-=, only ever starts),
 *	TIPME_BY_SYSCTL or TIPME_BY_NETLINK (root)
 *
 * The keyboard may start recording that is off since load (autostart=0)
 * or since a stop it did not make, never recording that root stopped
 * (through /proc/sys/tipme/enabled or netlink): root starts that again.
 * Every switch and every refusal is a kernel log line; those from the
 * keyboard are ratelimited.
 *
 * Context: any but NMI; does not sleep.
 * Return: 0, or -EPERM if the keyboard is refused.
 */
int tipme_switch_recording(bool on, enum tipme_switch_by by)
{
	static const char * const via[] = {
		[TIPME_BY_NONE] = "?",
		[TIPME_BY_KEYBOARD] = "the keyboard",
		[TIPME_BY_SYSCTL] = "/proc/sys/tipme/enabled",
		[TIPME_BY_NETLINK] = "netlink",
	};
	enum tipme_switch_by stopped;
	unsigned long flags;
	bool was;

	raw_spin_lock_irqsave(&trigger_lock, flags);
	stopped = recording_stopped_by;
	if (by == TIPME_BY_KEYBOARD && stopped != TIPME_BY_NONE) {
		raw_spin_unlock_irqrestore(&trigger_lock, flags);
		pr_notice_ratelimited("recording was stopped through %s; Ctrl-Alt-= refused (root starts it again)\n",
				      via[stopped]);
		return -EPERM;
	}
	was = READ_ONCE(tipme.recording);
	recording_stopped_by = on ? TIPME_BY_NONE : by;
	tipme_set_recording(on);
	raw_spin_unlock_irqrestore(&trigger_lock, flags);
	if (on == was)
		return 0;
	if (by == TIPME_BY_KEYBOARD)
		pr_notice_ratelimited("recording started from the keyboard (Ctrl-Alt-=)\n");
	else
		pr_notice("recording %s through %s by uid %u\n",
			  on ? "started" : "stopped", via[by], caller_uid());
	return 0;
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
