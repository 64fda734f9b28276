// SPDX-License-Identifier: GPL-2.0
/*
 * The module's own auto trigger: an incident when a key or button press
 * takes longer than auto_trigger_ms to handle, without the X hook (on
 * Wayland, on a console).  Off (0) unless the parameter is set.
 *
 * A press is measured from its input event until each task it woke waits
 * for input again, and on a display with page flips until the first flip
 * after the answer of the client that task passed the press to:
 *
 *  1. A filter handler, which the input core calls before every other
 *     handler of the device and which never filters anything out, marks
 *     this CPU as delivering a press.  tipme's own input handler, attached
 *     after evdev, ends the delivery.  The input core delivers with the
 *     device's event lock held and interrupts off, so nothing else runs
 *     on this CPU in between.
 *  2. A user task woken on this CPU during the delivery was woken by evdev
 *     for the press: a display server, a compositor, a console program.
 *     The wait it was woken from is kept: its system call, user
 *     instruction and user stack pointer (the task is asleep in the
 *     kernel, so its saved registers hold still).
 *  2b. A reader that hands the press to another thread of its own process
 *     before it waits again (it wakes that thread from task context, and
 *     has woken no client yet) is not the one that handles it: Xorg's
 *     input thread reads the device and wakes the server's main thread
 *     through a pipe, and goes back to its poll at once.  The press moves
 *     to the thread it woke, once, with the wait that thread was woken
 *     from; the thread it left is no longer followed.
 *  3. The first user task of another process that this reader wakes from
 *     task context while it handles the press is its client (a compositor
 *     passing the key to the focused window); the wait the client was
 *     woken from is kept the same way.
 *  4. When the reader next goes to sleep in the very same wait, it is done
 *     with the press.  If that took at least auto_trigger_ms, the trigger
 *     fires with source TIPME_TRIG_AUTO and the press (end
 *     TIPME_PRESS_END_READER), which the announcement carries to tipmed
 *     (its own spacing and daily budget apply).  The probe holds the
 *     runqueue lock, so the trigger is raised from an irq_work.
 *  5. Otherwise, when the reader woke a client and DRM's event delivery is
 *     attached (drm.ko, trace_drm=1: probes/drm.c), the press goes on to
 *     the screen.  The client has answered once it wakes a task of the
 *     reader's process (its commit: a message to the compositor), even
 *     while the reader still handles the press: the first page flip's
 *     event delivered after that (drm_vblank_event_delivered, on any DRM
 *     file: the rule tipme report follows) ends the press.  A commit
 *     that finds the reader awake (runnable, running or stopped) wakes
 *     nobody: so a run of the client that ends (it sleeps or is
 *     preempted) while the reader is not asleep in its wait for work is a
 *     commit no wakeup shows, and a flip delivered after it, before the
 *     reader is next woken from its wait for work (it went from the
 *     client's message to the flip), ends the press too.  A wakeup from
 *     the wait for work forgets that candidate only when the reader went
 *     through the whole wait without its process committing since the
 *     candidate or its last such wakeup: a thread of it queued a work item
 *     (a nonblocking commit queues DRM's commit_work, and on virtio-gpu
 *     that work delivers the flip) or a vblank event, both in task
 *     context.  A wakeup by a timer while the commit's flip is pending
 *     (sway under load) does not.  If the press
 *     took auto_trigger_ms to the flip, the trigger fires, its end
 *     TIPME_PRESS_END_FLIP.  The flip is then in the history the trigger
 *     freezes.
 *  5b. That first flip (of a DRM file: an event nobody reads shows
 *     nothing) may only have started the compositor's repaint loop:
 *     weston, on an output that was idle and a device DRM counts no
 *     vblanks of, flips the picture already on the screen again to learn
 *     when the refresh is, and composes the client's answer only at its
 *     repaint window before the next.  So the press waits (AUTO_STARTED)
 *     for the next flip on the same file and CRTC within AUTO_LOOP_NS,
 *     which ends it; another client's or output's flip does not.  It ends
 *     at the first flip instead, the rule tipme report follows
 *     (postmortem/analysis/flip.c: repaint_after()), when another
 *     process's task wakes a thread of the reader's (news: a client's
 *     message; an input's delivery, a key's release written through
 *     uinput, is none), when the reader, having read that flip's event
 *     (it woke from its wait for work since), told a client something
 *     (woke a task of another process: a frame's news) and waits for work
 *     again without committing another flip, when a new press wakes the
 *     reader, or when AUTO_LOOP_NS pass with no such flip (a timer): the
 *     trigger fires then, the first flip in its history.
 *  5c. A reader that waits for work again after the client's answer,
 *     its process having committed nothing (queued no work item and no
 *     vblank event in task context) since the answer, may have drawn the
 *     answer without a flip (Xorg drawing a core client's answer into its
 *     front buffer) or wait for a flip committed before it (sway with a
 *     flip pending), or for its repaint window (weston).  The press waits
 *     (AUTO_DRAWN) for a flip as before, and goes back to waiting for one
 *     when the process commits or the client sends more; if no flip comes
 *     within AUTO_DRAWN_NS, it ends at that wait (a timer; a new press of
 *     the reader's), its end TIPME_PRESS_END_READER: the server executed
 *     the client's drawing then.
 *  6. A client the reader's process wakes from the wait it was woken from
 *     for the press (its next message: the key's release, say), that has
 *     neither answered nor run while the reader was awake since the
 *     reader last woke, nor passed work on since it was woken for the
 *     press, drew nothing: the press is dropped (counted), not ended at
 *     whatever flip comes next (a blinking cursor's).  Passing work on is
 *     waking another task from task context (a thread of its own or of
 *     another process, a kernel worker; not the reader's process: that is
 *     the answer) or queueing a work item: a terminal writing the key to
 *     its pty queues the tty's work, and then waits for the echo in the
 *     very wait the key's release finds it in.  tipme report keeps the
 *     same rules (postmortem/analysis/flip.c).
 *
 * A press still followed 10 s after it happened is forgotten, as
 * tipme-xhook forgets a press nobody answered, and so is one whose
 * reader a new press wakes once it is done with it.  What is not seen: a press
 * while its reader is busy (nobody is woken), a device grabbed by one
 * reader (EVIOCGRAB: the input core calls that reader's handler only),
 * and evdev attached after tipme (loaded later: it then runs after tipme's
 * handler, the delivery has ended when it wakes its reader).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/input.h>
#include <linux/irq_work.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <asm/syscall.h>
#include "compat.h"
#include "fault.h"
#include "control/autotrig.h"
#include "control/handle.h"
#include "control/keys.h"
#include "control/trigger.h"

/* Tasks followed at once: readers of one press, or of a few. */
#define AUTO_READERS		8
#define AUTO_FORGET_NS		(10 * NSEC_PER_SEC)
/*
 * A delivery that seems to last longer than this lost its end (a filter
 * after ours ate the event, so neither evdev nor tipme's handler ran).  A
 * real one takes microseconds, but the first press through code that QEMU
 * has not translated yet took over a millisecond under TCG.
 */
#define AUTO_DELIVERY_NS	(20 * NSEC_PER_MSEC)
/*
 * A compositor flips again this soon after a flip that only started its
 * repaint loop (REPAINT_WITHIN_NS in postmortem/analysis/flip.c).
 */
#define AUTO_LOOP_NS		(100 * NSEC_PER_MSEC)
/*
 * A flip committed before the compositor waited after the answer (sway's
 * pending one) comes this soon; an X server that drew into its front
 * buffer has none.
 */
#define AUTO_DRAWN_NS		(200 * NSEC_PER_MSEC)

static unsigned int auto_trigger_ms;
module_param(auto_trigger_ms, uint, 0644);
MODULE_PARM_DESC(auto_trigger_ms, "Trigger a dump when a key or button press takes this long: until the task it woke waits for input again, or on a display with page flips until the flip after its client's answer (0: off, the default)");

DEFINE_PER_CPU(bool, tipme_auto_delivering);
/* This CPU delivers an input event, a press or not (the input core's lock). */
static DEFINE_PER_CPU(bool, delivering_input);
atomic_t tipme_auto_readers = ATOMIC_INIT(0);
atomic_t tipme_auto_flipwait = ATOMIC_INIT(0);

/* The press this CPU is delivering. */
struct auto_press {
	u64 press_ns;
	u16 input;
};

static DEFINE_PER_CPU(struct auto_press, delivery);

/**
 * struct auto_wait - where a sleeping task waits, from its saved registers
 * @uip: user instruction pointer
 * @usp: user stack pointer
 * @nr: system call
 */
struct auto_wait {
	unsigned long uip;
	unsigned long usp;
	int nr;
};

/**
 * enum auto_phase - how far a followed press has come
 * @AUTO_READING: the reader handles it
 * @AUTO_CLIENT: the reader is done; its client has not answered yet
 * @AUTO_ANSWERED: the client answered; the next flip ends the press
 * @AUTO_STARTED: a flip came after the answer; it may only have started
 *	the compositor's repaint loop, the next on its file and CRTC ends
 *	the press
 * @AUTO_DRAWN: the reader waited for work after the answer, its process
 *	having committed nothing since: a flip within AUTO_DRAWN_NS goes on
 *	as with AUTO_ANSWERED, else the press ends at that wait
 */
enum auto_phase {
	AUTO_READING,
	AUTO_CLIENT,
	AUTO_ANSWERED,
	AUTO_STARTED,
	AUTO_DRAWN,
};

/**
 * struct auto_reader - a press followed from the task it woke to the screen
 * @press_ns: the press, CLOCK_MONOTONIC
 * @wait: the wait the reader was woken from
 * @cwait: the wait the client was woken from, if @client
 * @pid: the reader, 0 for a free slot
 * @tgid: its process
 * @client: the first task of another process the reader woke while it
 *	handled the press, 0 for none yet
 * @ctgid: the client's process
 * @input: TIPME_INPUT_KEY or TIPME_INPUT_BUTTON
 * @phase: enum auto_phase
 * @answered: the client woke the reader's process
 * @ridle: the reader is asleep in its wait for work (@wait)
 * @cand: a run of the client ended while the reader was not asleep in
 *	its wait for work, since the reader last woke from it without
 *	@committed (a commit no wakeup shows may have passed: the next flip
 *	ends the press)
 * @committed: with @cand, the reader's process committed (queued a work
 *	item or a vblank event in task context) since @cand was set or the
 *	reader last woke from its wait for work: a flip may be pending
 * @silent: the reader's process woke the client from its wait again
 *	while the reader still handled the press, without an answer
 * @hopped: the press moved from the thread evdev woke to a thread of its
 *	process that it woke (step 2b)
 * @acommit: with @answered, the reader's process committed (queued a work
 *	item or a vblank event in task context) since the answer
 * @passed: the client woke another task (not of the reader's process) or
 *	queued a work item since it was woken for the press: its answer
 *	may come after the reader's next message
 * @flipwait: counted in tipme_auto_flipwait
 * @loop_ns: with AUTO_STARTED, the first flip after the answer; with
 *	AUTO_DRAWN, the reader's wait after the answer
 * @loop_file: ... its DRM file (probes/drm.c's identity)
 * @loop_crtc: ... and CRTC
 * @read: with AUTO_STARTED, the reader woke from its wait for work since
 *	that flip (it read the flip's event: its messages from then on answer
 *	the flip)
 * @told: ... and its process then woke a task of another process
 * @recommit: ... and its process committed (queued a work item or a
 *	vblank event) since @read
 * @comm: the reader's command name, once it is done
 */
struct auto_reader {
	u64 press_ns;
	struct auto_wait wait;
	struct auto_wait cwait;
	pid_t pid;
	pid_t tgid;
	pid_t client;
	pid_t ctgid;
	u16 input;
	u8 phase;
	bool answered;
	bool ridle;
	bool cand;
	bool committed;
	bool silent;
	bool hopped;
	bool acommit;
	bool passed;
	bool flipwait;
	u64 loop_ns;
	u32 loop_file;
	int loop_crtc;
	bool read;
	bool told;
	bool recommit;
	char comm[TASK_COMM_LEN];
};

static DEFINE_RAW_SPINLOCK(auto_lock);
/* Under auto_lock: */
static struct auto_reader readers[AUTO_READERS];
static struct tipme_trigger_press fired;
static bool fired_pending, stopped;
static u32 nr_measured, nr_slow, nr_fired, nr_full, nr_forgotten, nr_cut;
static u32 nr_followed, nr_flipped, nr_undrawn, nr_repaint;
static u32 nr_handed, nr_drawn;

static struct irq_work fire_work;
/* Ends the presses whose loop's next flip did not come (AUTO_LOOP_NS). */
static struct hrtimer loop_timer;
/* Flips' completions are recorded (probes/drm.c says so). */
static bool flips_seen;

static void wait_of(struct task_struct *p, struct auto_wait *w)
{
	struct pt_regs *regs = task_pt_regs(p);

	w->nr = syscall_get_nr(p, regs);
	w->uip = instruction_pointer(regs);
	w->usp = user_stack_pointer(regs);
}

static bool same_wait(struct task_struct *p, const struct auto_wait *w)
{
	struct pt_regs *regs = task_pt_regs(p);

	return syscall_get_nr(p, regs) == w->nr &&
	       instruction_pointer(regs) == w->uip &&
	       user_stack_pointer(regs) == w->usp;
}

/*
 * Under auto_lock: does the next flip end the press?  Counted in
 * tipme_auto_flipwait, which the flip probe reads first.
 */
static void auto_sync(struct auto_reader *r)
{
	bool want = r->pid && (r->phase >= AUTO_ANSWERED ||
			       (r->client && !r->answered && r->cand));

	if (want == r->flipwait)
		return;
	r->flipwait = want;
	if (want)
		atomic_inc(&tipme_auto_flipwait);
	else
		atomic_dec(&tipme_auto_flipwait);
}

/* Under auto_lock: the slot is free again. */
static void auto_drop(struct auto_reader *r)
{
	if (r->flipwait)
		atomic_dec(&tipme_auto_flipwait);
	r->flipwait = false;
	WRITE_ONCE(r->cand, false);
	r->committed = false;
	WRITE_ONCE(r->phase, AUTO_READING);
	WRITE_ONCE(r->client, 0);
	WRITE_ONCE(r->pid, 0);
	atomic_dec(&tipme_auto_readers);
}

static void auto_set_phase(struct auto_reader *r, u8 phase)
{
	WRITE_ONCE(r->phase, phase);
	auto_sync(r);
}

/*
 * Under auto_lock: the client answered.  With flips seen the next flip
 * ends the press, even before the reader is done: a compositor busy
 * with the key as the client commits flips the answer in the same run
 * (sway under TCG did, then slept, and the flip was the one before).
 */
static void auto_answered(struct auto_reader *r)
{
	r->answered = true;
	r->acommit = false;
	if (r->phase == AUTO_CLIENT || READ_ONCE(flips_seen))
		auto_set_phase(r, AUTO_ANSWERED);
}

/* Under auto_lock: a press that took @lat to @end; raise it if slow. */
static void auto_measured(struct auto_reader *r, u64 lat, u16 end)
{
	u64 limit = (u64)READ_ONCE(auto_trigger_ms) * NSEC_PER_MSEC;

	if (!limit || lat < limit)
		return;
	nr_slow++;
	if (fired_pending || stopped)
		return;
	memset(&fired, 0, sizeof(fired));
	fired.press_mono_ns = r->press_ns;
	fired.latency_ns = lat;
	fired.pid = r->pid;
	fired.input = r->input;
	fired.end = end;
	memcpy(fired.comm, r->comm, min(sizeof(fired.comm), sizeof(r->comm)));
	fired.comm[sizeof(fired.comm) - 1] = '\0';
	fired_pending = true;
	irq_work_queue(&fire_work);
}

/* Under auto_lock: when @r, AUTO_STARTED or AUTO_DRAWN, ends without a flip. */
static u64 loop_end(const struct auto_reader *r)
{
	return r->loop_ns +
	       (r->phase == AUTO_DRAWN ? AUTO_DRAWN_NS : AUTO_LOOP_NS);
}

/*
 * Under auto_lock: a press in AUTO_STARTED ends at its first flip, one in
 * AUTO_DRAWN at its reader's wait after the answer.
 */
static void auto_loop_end(struct auto_reader *r)
{
	bool drawn = r->phase == AUTO_DRAWN;

	if (drawn)
		nr_drawn++;
	auto_measured(r, r->loop_ns - r->press_ns,
		      drawn ? TIPME_PRESS_END_READER : TIPME_PRESS_END_FLIP);
	auto_drop(r);
}

/*
 * Under auto_lock: end at their first flip the presses whose next flip
 * did not come in time, forget those followed for too long.
 */
static void auto_expire(u64 now)
{
	struct auto_reader *r;
	int i;

	for (i = 0; i < AUTO_READERS; i++) {
		r = &readers[i];
		if (r->pid && r->phase >= AUTO_STARTED &&
		    now > loop_end(r)) {
			auto_loop_end(r);
		} else if (r->pid && now - r->press_ns > AUTO_FORGET_NS) {
			auto_drop(r);
			nr_forgotten++;
		}
	}
}

/*
 * Under auto_lock: the timer fires by @when (CLOCK_MONOTONIC ns), or
 * earlier if it already would.  Every arming, the timer's own included,
 * goes through here under the lock, so an earlier end is never held up
 * by a later one queued first, and nothing changes the expiry of a timer
 * another CPU has just queued.
 */
static void auto_arm(u64 when)
{
	ktime_t t = ns_to_ktime(when + 1);

	if (!hrtimer_is_queued(&loop_timer) ||
	    ktime_before(t, hrtimer_get_expires(&loop_timer)))
		hrtimer_start(&loop_timer, t, HRTIMER_MODE_ABS);
}

/* Under auto_lock: the timer ends @r then. */
static void auto_loop_timer(struct auto_reader *r)
{
	auto_arm(loop_end(r));
}

/*
 * Under auto_lock: the flip that began AUTO_STARTED at @r->loop_ns; the
 * timer ends it if no next flip comes.
 */
static void auto_loop_start(struct auto_reader *r, u32 file, int crtc)
{
	r->loop_ns = ktime_get_ns();
	r->loop_file = file;
	r->loop_crtc = crtc;
	r->read = false;
	r->told = false;
	r->recommit = false;
	WRITE_ONCE(r->phase, AUTO_STARTED);
	auto_sync(r);
	nr_flipped++;
	auto_loop_timer(r);
}

/*
 * Under auto_lock: the reader of answered press @r waits for work at
 * @now, its process having committed nothing since the answer (step 5c).
 */
static void auto_drawn(struct auto_reader *r, u64 now)
{
	r->loop_ns = now;
	WRITE_ONCE(r->phase, AUTO_DRAWN);
	auto_loop_timer(r);
}

static enum hrtimer_restart loop_timer_fn(struct hrtimer *t)
{
	u64 next = 0, now;
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&auto_lock, flags);
	now = ktime_get_ns();
	auto_expire(now);
	for (i = 0; i < AUTO_READERS; i++)
		if (readers[i].pid && readers[i].phase >= AUTO_STARTED &&
		    (!next || loop_end(&readers[i]) < next))
			next = loop_end(&readers[i]);
	/* queued again here, under the lock, not by returning HRTIMER_RESTART */
	if (next)
		auto_arm(next);
	raw_spin_unlock_irqrestore(&auto_lock, flags);
	return HRTIMER_NORESTART;
}

/*
 * Under auto_lock: @p woken by current, while @r's first flip after the
 * answer may only have started the repaint loop; @woke: @p is the reader,
 * woken from its wait for work; @task: a user task woken from task
 * context by another process.  Return: the press ended (at that flip).
 */
static bool auto_loop_wakes(struct auto_reader *r, struct task_struct *p,
			    bool woke, bool task)
{
	if (task && p->tgid == r->tgid && !(current->flags & PF_KTHREAD) &&
	    !this_cpu_read(delivering_input)) {
		/* news from another process: the flip was not only the loop's */
		auto_loop_end(r);
		return true;
	}
	if (woke)
		r->read = true;
	else if (task && current->tgid == r->tgid && r->read)
		r->told = true;
	return false;
}

/**
 * tipme_auto_woken() - a task woken while this CPU delivers a press
 * @p: the task
 *
 * Context: the sched_waking probe (interrupts off, @p's pi_lock held).
 */
void tipme_auto_woken(struct task_struct *p)
{
	struct auto_press *d = this_cpu_ptr(&delivery);
	struct auto_reader *r, *slot = NULL;
	u64 now = ktime_get_ns();
	bool same;
	int i;

	if (now - d->press_ns > AUTO_DELIVERY_NS) {
		this_cpu_write(tipme_auto_delivering, false);
		raw_spin_lock(&auto_lock);
		nr_cut++;
		raw_spin_unlock(&auto_lock);
		return;
	}
	if ((p->flags & PF_KTHREAD) || !p->mm)
		return;
	raw_spin_lock(&auto_lock);
	if (stopped)
		goto out;
	auto_expire(now);
	for (i = 0; i < AUTO_READERS; i++) {
		r = &readers[i];
		/* its reader, or the thread it handed a press to (step 2b) */
		same = r->pid && (r->pid == p->pid ||
				  (r->hopped && r->tgid == p->tgid));
		/* Still busy with an earlier press: that one is measured. */
		if (same && r->phase == AUTO_READING)
			goto out;
		/*
		 * Done with an earlier press whose answer is not on the
		 * screen yet: this press replaces it, as a flip now would
		 * end the earlier one at this press's answer (one that
		 * flipped ends at that flip).
		 */
		if (same && r->phase >= AUTO_STARTED) {
			auto_loop_end(r);
		} else if (same) {
			auto_drop(r);
			nr_forgotten++;
		}
		if (!r->pid && !slot)
			slot = r;
	}
	if (!slot) {
		nr_full++;
		goto out;
	}
	slot->press_ns = d->press_ns;
	slot->input = d->input;
	wait_of(p, &slot->wait);
	slot->tgid = p->tgid;
	slot->client = 0;
	slot->answered = false;
	slot->ridle = false;
	slot->cand = false;
	slot->committed = false;
	slot->silent = false;
	slot->hopped = false;
	slot->acommit = false;
	slot->passed = false;
	slot->flipwait = false;
	slot->phase = AUTO_READING;
	WRITE_ONCE(slot->pid, p->pid);
	atomic_inc(&tipme_auto_readers);
out:
	raw_spin_unlock(&auto_lock);
}

/* Does the wakeup of @p by current concern slot @r?  Without the lock. */
static bool wakes_for(const struct auto_reader *r, struct task_struct *p)
{
	pid_t pid = READ_ONCE(r->pid), client = READ_ONCE(r->client);

	if (!pid)
		return false;
	if (READ_ONCE(r->phase) == AUTO_READING && pid == current->pid &&
	    !client)
		return true;
	/* news for the reader's process, or its message to another */
	if (READ_ONCE(r->phase) == AUTO_STARTED &&
	    (p->tgid == READ_ONCE(r->tgid) ||
	     current->tgid == READ_ONCE(r->tgid)))
		return true;
	if (!client)
		return false;
	return (READ_ONCE(r->ctgid) == current->tgid &&
		p->tgid == READ_ONCE(r->tgid)) ||
	       (p->pid == client && current->tgid == READ_ONCE(r->tgid));
}

/*
 * Does current, a press's reader that has woken no client, hand the press
 * to @p, a thread of its own process (step 2b)?  Without the lock.
 */
static bool hands_off(const struct auto_reader *r, struct task_struct *p)
{
	return READ_ONCE(r->pid) == current->pid && p != current &&
	       p->tgid == current->tgid && !(p->flags & PF_KTHREAD) &&
	       READ_ONCE(r->phase) == AUTO_READING && !READ_ONCE(r->client) &&
	       !READ_ONCE(r->hopped);
}

/*
 * Does current, a followed press's client that has not answered, pass
 * work on to @p (NULL: a work item)?  Without the lock.
 */
static bool passes_on(const struct auto_reader *r, struct task_struct *p)
{
	return READ_ONCE(r->pid) && READ_ONCE(r->client) == current->pid &&
	       !READ_ONCE(r->passed) && !READ_ONCE(r->answered) &&
	       (!p || (p != current && p->tgid != READ_ONCE(r->tgid)));
}

/* Under auto_lock: the same, and if so the press may be answered late. */
static void auto_passes_on(struct auto_reader *r, struct task_struct *p)
{
	if (r->pid && r->client == current->pid && !r->answered &&
	    (!p || (p != current && p->tgid != r->tgid)))
		r->passed = true;
}

/**
 * tipme_auto_wakes() - @p is woken while presses are followed
 * @p: the task woken
 *
 * A reader woken from its wait for work (any context: a timer's
 * interrupt, a signal), a reader waking its client, a client waking its
 * reader's process (its answer) or another task (it passed work on), or
 * the reader's process waking the client from its wait again (its next
 * message), or a reader that has woken no client waking a thread of its
 * own process (it hands the press to that thread: step 2b).  Only task
 * context counts for all but the first: an interrupt's wakeup is not the
 * interrupted task's.
 *
 * Context: the sched_waking probe (interrupts off, @p's pi_lock held).
 */
void tipme_auto_wakes(struct task_struct *p)
{
	bool intask = in_task();
	bool task = intask && !(p->flags & PF_KTHREAD) && p->mm &&
		    p->tgid != current->tgid;
	struct auto_reader *r;
	bool woke;
	pid_t pid;
	int i;

	for (i = 0; i < AUTO_READERS; i++) {
		pid = READ_ONCE(readers[i].pid);
		if (pid && (p->pid == pid || (task && wakes_for(&readers[i], p)) ||
			    (intask && (passes_on(&readers[i], p) ||
					hands_off(&readers[i], p)))))
			break;
	}
	if (i == AUTO_READERS)
		return;
	raw_spin_lock(&auto_lock);
	for (i = 0; i < AUTO_READERS; i++) {
		r = &readers[i];
		if (!r->pid)
			continue;
		/*
		 * woken from its wait for work: on to other work, unless its
		 * process committed during the wait's run up (the flip of the
		 * candidate's commit may be pending)
		 */
		woke = p->pid == r->pid && r->ridle;
		if (woke) {
			r->ridle = false;
			if (!r->committed)
				WRITE_ONCE(r->cand, false);
			r->committed = false;
		}
		if (r->phase == AUTO_STARTED) {
			auto_loop_wakes(r, p, woke, task);
			continue;
		}
		if (intask && r->phase == AUTO_READING &&
		    r->pid == current->pid && !r->client && !r->hopped &&
		    p != current && p->tgid == r->tgid &&
		    !(p->flags & PF_KTHREAD)) {
			/* the press goes on in the thread it woke */
			wait_of(p, &r->wait);
			r->hopped = true;
			nr_handed++;
			WRITE_ONCE(r->pid, p->pid);
			continue;
		}
		if (intask)
			auto_passes_on(r, p);
		if (!task) {
			auto_sync(r);
			continue;
		}
		if (r->phase == AUTO_READING && r->pid == current->pid &&
		    !r->client) {
			wait_of(p, &r->cwait);
			r->ctgid = p->tgid;
			WRITE_ONCE(r->client, p->pid);
		} else if (r->client && !r->answered &&
			   r->ctgid == current->tgid && p->tgid == r->tgid) {
			auto_answered(r);
		} else if (r->phase == AUTO_DRAWN &&
			   r->ctgid == current->tgid && p->tgid == r->tgid) {
			/* more of the answer */
			WRITE_ONCE(r->phase, AUTO_ANSWERED);
		} else if (r->client == p->pid && !r->answered && !r->cand &&
			   !r->passed && current->tgid == r->tgid &&
			   same_wait(p, &r->cwait)) {
			/* the next message finds the client waiting: no answer */
			if (r->phase == AUTO_READING) {
				r->silent = true;
			} else {
				nr_undrawn++;
				auto_drop(r);
				continue;
			}
		}
		auto_sync(r);
	}
	raw_spin_unlock(&auto_lock);
}

/*
 * Does current, a thread of a candidate's reader's process, commit (a
 * flip may follow)?  Without the lock.
 */
static bool commits(const struct auto_reader *r)
{
	return READ_ONCE(r->pid) && READ_ONCE(r->tgid) == current->tgid &&
	       (READ_ONCE(r->cand) || READ_ONCE(r->phase) == AUTO_STARTED ||
		READ_ONCE(r->answered));
}

/*
 * Under auto_lock: the same, and if so keep the candidate, or with
 * AUTO_STARTED note a flip after the one the reader read.
 */
static void auto_commits(struct auto_reader *r)
{
	if (!r->pid || r->tgid != current->tgid)
		return;
	if (r->cand)
		r->committed = true;
	if (r->answered)
		r->acommit = true;
	/* a flip may follow */
	if (r->phase == AUTO_DRAWN)
		WRITE_ONCE(r->phase, AUTO_ANSWERED);
	if (r->phase == AUTO_STARTED && r->read)
		r->recommit = true;
}

/**
 * tipme_auto_queued() - current queues a work item while presses are followed
 *
 * A client that has not answered passes work on (a terminal writing the
 * key to its pty queues the tty's work, whose worker may be awake); the
 * reader's process commits (a nonblocking commit queues DRM's
 * commit_work).
 *
 * Context: the workqueue_queue_work probe (any context; only task
 * context counts).
 */
void tipme_auto_queued(void)
{
	unsigned long flags;
	int i;

	if (!in_task())
		return;
	for (i = 0; i < AUTO_READERS; i++)
		if (passes_on(&readers[i], NULL) || commits(&readers[i]))
			break;
	if (i == AUTO_READERS)
		return;
	raw_spin_lock_irqsave(&auto_lock, flags);
	for (i = 0; i < AUTO_READERS; i++) {
		auto_passes_on(&readers[i], NULL);
		auto_commits(&readers[i]);
	}
	raw_spin_unlock_irqrestore(&auto_lock, flags);
}

/**
 * tipme_auto_vblank_queued() - current queues a vblank event
 *
 * The reader's process asks for an event at a vblank (a flip may follow,
 * as in tipme_auto_queued()).
 *
 * Context: drm_vblank_event_queued's probe (DRM's event lock held;
 * only task context counts).
 */
void tipme_auto_vblank_queued(void)
{
	unsigned long flags;
	int i;

	if (!in_task())
		return;
	for (i = 0; i < AUTO_READERS; i++)
		if (commits(&readers[i]))
			break;
	if (i == AUTO_READERS)
		return;
	raw_spin_lock_irqsave(&auto_lock, flags);
	for (i = 0; i < AUTO_READERS; i++)
		auto_commits(&readers[i]);
	raw_spin_unlock_irqrestore(&auto_lock, flags);
}

/**
 * tipme_auto_switched() - a task leaves its CPU while presses are followed
 * @prev: the task (current)
 * @state: its state if it goes to sleep, 0 if it stays runnable
 *
 * A run of a client that ends while its reader is not asleep in its wait
 * for work (a commit no wakeup shows may have passed), a reader going to
 * sleep in its wait for work, done with its press.
 *
 * Context: the sched_switch probe (interrupts off, runqueue locked).
 */
void tipme_auto_switched(struct task_struct *prev, unsigned int state)
{
	struct auto_reader *r;
	bool flips, idle;
	u64 lat, now;
	int i;

	/* Most tasks that leave a CPU are neither: look before locking. */
	for (i = 0; i < AUTO_READERS; i++) {
		r = &readers[i];
		if (READ_ONCE(r->pid) == prev->pid)
			break;
		if (READ_ONCE(r->pid) && READ_ONCE(r->client) == prev->pid)
			break;
	}
	if (i == AUTO_READERS)
		return;
	flips = READ_ONCE(flips_seen);
	/* a stopped task waits in the system call it stopped in: not idle */
	idle = state && !(state & (__TASK_STOPPED | __TASK_TRACED));
	raw_spin_lock(&auto_lock);
	now = ktime_get_ns();
	for (i = 0; i < AUTO_READERS; i++) {
		r = &readers[i];
		if (!r->pid)
			continue;
		if (r->client == prev->pid && !r->answered && !r->ridle) {
			WRITE_ONCE(r->cand, true);
			auto_sync(r);
			continue;
		}
		if (r->pid != prev->pid || !idle || !same_wait(prev, &r->wait))
			continue;
		r->ridle = true;
		/* it told a client of the flip it read, and flips no more */
		if (r->phase == AUTO_STARTED && r->told && !r->recommit) {
			auto_loop_end(r);
			continue;
		}
		lat = now - r->press_ns;
		if (r->phase == AUTO_READING) {
			nr_measured++;
			memcpy(r->comm, prev->comm, sizeof(r->comm));
			if (!r->client || !flips || r->silent ||
			    lat >= (u64)READ_ONCE(auto_trigger_ms) * NSEC_PER_MSEC) {
				if (r->silent)
					nr_undrawn++;
				auto_measured(r, lat, TIPME_PRESS_END_READER);
				auto_drop(r);
				continue;
			}
			nr_followed++;
			auto_set_phase(r, r->answered ? AUTO_ANSWERED :
					  AUTO_CLIENT);
		}
		/* the answer drawn without a commit, maybe without a flip */
		if (r->phase == AUTO_ANSWERED && !r->acommit)
			auto_drawn(r, now);
	}
	raw_spin_unlock(&auto_lock);
}

/**
 * tipme_auto_flips_seen() - whether flips' completions reach tipme_auto_flip()
 * @seen: drm_vblank_event_delivered's probe is attached
 *
 * Without them a press ends where its reader waits for input again.
 *
 * Context: process context (drm.ko coming or going).
 */
void tipme_auto_flips_seen(bool seen)
{
	WRITE_ONCE(flips_seen, seen);
}

/**
 * tipme_auto_flipped() - a page flip's event was delivered
 * @file: the DRM file it goes to (probes/drm.c's identity), 0 for none
 * @crtc: its CRTC
 *
 * For every press whose client has answered, or ran while its reader was
 * awake since the reader last woke from its wait for work: the first
 * flip of a file, which may only have started the compositor's repaint
 * loop (AUTO_STARTED); for a press past that flip, the next on the same
 * file and CRTC, which ends it: its latency runs to now.
 *
 * Context: drm_vblank_event_delivered's probe (any context).
 */
void tipme_auto_flipped(u32 file, int crtc)
{
	struct auto_reader *r;
	unsigned long flags;
	u64 now;
	int i;

	raw_spin_lock_irqsave(&auto_lock, flags);
	now = ktime_get_ns();
	auto_expire(now);
	for (i = 0; i < AUTO_READERS; i++) {
		r = &readers[i];
		if (!r->pid || !r->flipwait || !file)
			continue;
		if (r->phase != AUTO_STARTED) {
			auto_loop_start(r, file, crtc);
			continue;
		}
		/* another client's or output's flip */
		if (file != r->loop_file || crtc != r->loop_crtc)
			continue;
		nr_repaint++;
		auto_measured(r, now - r->press_ns, TIPME_PRESS_END_FLIP);
		auto_drop(r);
	}
	raw_spin_unlock_irqrestore(&auto_lock, flags);
}

static void fire_fn(struct irq_work *work)
{
	struct tipme_trigger_press press;
	unsigned long flags;

	raw_spin_lock_irqsave(&auto_lock, flags);
	press = fired;
	fired_pending = false;
	nr_fired++;
	raw_spin_unlock_irqrestore(&auto_lock, flags);
	tipme_trigger_auto(&press);
}

/**
 * tipme_auto_delivered() - this CPU's delivery of an input event is over
 *
 * Context: tipme's input handler (the device's event lock held).
 */
void tipme_auto_delivered(void)
{
	this_cpu_write(tipme_auto_delivering, false);
	this_cpu_write(delivering_input, false);
}

/**
 * struct auto_dev - the filter's handle on one device
 * @handle: the input core's handle
 * @mods: modifiers held (TIPME_MOD_*)
 */
struct auto_dev {
	struct input_handle handle;
	u8 mods;
};

/* Freed through its handle (control/handle.c). */
static_assert(offsetof(struct auto_dev, handle) == 0);

static bool auto_filter(struct input_handle *handle, unsigned int type,
			unsigned int code, int value)
{
	struct auto_dev *d = container_of(handle, struct auto_dev, handle);
	struct auto_press *p;
	u8 mod;

	this_cpu_write(delivering_input, true);
	if (type != EV_KEY)
		return false;
	mod = tipme_input_modifier(code);
	if (mod) {
		if (value)
			d->mods |= mod;
		else
			d->mods &= ~mod;
		return false;
	}
	/* Presses only, and never one of tipme's hotkeys (Ctrl-Alt-...). */
	if (value != 1 || !READ_ONCE(auto_trigger_ms) ||
	    (d->mods & (TIPME_MOD_CTRL | TIPME_MOD_ALT)) ==
	    (TIPME_MOD_CTRL | TIPME_MOD_ALT))
		return false;
	p = this_cpu_ptr(&delivery);
	p->press_ns = ktime_get_ns();
	p->input = tipme_input_is_button(code) ? TIPME_INPUT_BUTTON :
						 TIPME_INPUT_KEY;
	this_cpu_write(tipme_auto_delivering, true);
	return false;
}

static int auto_connect(struct input_handler *handler, struct input_dev *dev,
			const struct input_device_id *id)
{
	return tipme_handle_connect(handler, dev, sizeof(struct auto_dev),
				    "tipme-auto", "auto trigger handle", NULL);
}

static const struct input_device_id auto_ids[] = {
	{ .flags = INPUT_DEVICE_ID_MATCH_EVBIT, .evbit = { BIT_MASK(EV_KEY) } },
	{ },
};

static struct input_handler auto_handler = {
	.filter = auto_filter,
	.connect = auto_connect,
	.disconnect = tipme_handle_disconnect,
	.name = "tipme-auto",
	.id_table = auto_ids,
};

/**
 * tipme_auto_params_text() - "key=value\n" lines of the auto trigger
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_auto_params_text(char *buf, size_t size)
{
	u32 measured, slow, nfired, full, forgotten, cut, followed, flipped;
	u32 undrawn, repaint, handed, drawn;
	unsigned long flags;

	raw_spin_lock_irqsave(&auto_lock, flags);
	measured = nr_measured;
	slow = nr_slow;
	nfired = nr_fired;
	full = nr_full;
	forgotten = nr_forgotten;
	cut = nr_cut;
	followed = nr_followed;
	flipped = nr_flipped;
	undrawn = nr_undrawn;
	repaint = nr_repaint;
	handed = nr_handed;
	drawn = nr_drawn;
	raw_spin_unlock_irqrestore(&auto_lock, flags);
	return scnprintf(buf, size,
			 "auto_trigger_ms=%u\nauto_presses_measured=%u\nauto_presses_slow=%u\nauto_triggers=%u\nauto_readers_missed=%u\nauto_readers_forgotten=%u\nauto_deliveries_cut=%u\nauto_presses_followed=%u\nauto_presses_to_flip=%u\nauto_presses_undrawn=%u\nauto_presses_to_repaint=%u\nauto_presses_handed=%u\nauto_presses_drawn=%u\n",
			 READ_ONCE(auto_trigger_ms), measured, slow, nfired,
			 full, forgotten, cut, followed, flipped, undrawn,
			 repaint, handed, drawn);
}

/**
 * tipme_auto_init() - attach the press filter to every keyboard and pointer
 *
 * Context: module init, after tipme's input handler (so that, on devices
 * that appear later, it is still the filter that runs first).
 * Return: 0 or the error of input_register_handler().
 */
int tipme_auto_init(void)
{
	init_irq_work(&fire_work, fire_fn);
	tipme_hrtimer_setup(&loop_timer, loop_timer_fn, CLOCK_MONOTONIC,
			    HRTIMER_MODE_ABS);
	stopped = false;
	if (tipme_fail_step("auto trigger handler"))
		return -ENOMEM;
	return input_register_handler(&auto_handler);
}

/**
 * tipme_auto_exit() - stop measuring presses
 *
 * Afterwards no trigger comes from here: the tasks followed are dropped
 * and a trigger in flight has been raised.
 *
 * Context: module exit, before the trigger's own exit.
 */
void tipme_auto_exit(void)
{
	unsigned long flags;
	int i;

	input_unregister_handler(&auto_handler);
	raw_spin_lock_irqsave(&auto_lock, flags);
	stopped = true;
	for (i = 0; i < AUTO_READERS; i++) {
		WRITE_ONCE(readers[i].pid, 0);
		readers[i].flipwait = false;
	}
	atomic_set(&tipme_auto_readers, 0);
	atomic_set(&tipme_auto_flipwait, 0);
	raw_spin_unlock_irqrestore(&auto_lock, flags);
	hrtimer_cancel(&loop_timer);
	irq_work_sync(&fire_work);
}
