// SPDX-License-Identifier: GPL-2.0
/*
 * The module's own auto trigger: an incident when a key or button press
 * takes longer than auto_trigger_ms to handle, without the X hook (on
 * Wayland, on a console).  Off (0) unless the parameter is set.
 *
 * A press is measured from its input event until each task it woke waits
 * for input again:
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
 *  3. When that task next goes to sleep in the very same wait, it is done
 *     with the press and waits for the next one.  If that took at least
 *     auto_trigger_ms, the trigger fires with source TIPME_TRIG_AUTO and
 *     the press, which the announcement carries to tipmed (its own
 *     spacing and daily budget apply).  The probe holds the runqueue
 *     lock, so the trigger is raised from an irq_work.
 *
 * A task still busy 10 s after a press is forgotten, as tipme-xhook
 * forgets a press nobody answered.  What is not seen: a press while its
 * reader is busy (nobody is woken), a device grabbed by one reader
 * (EVIOCGRAB: the input core calls that reader's handler only), and evdev
 * attached after tipme (loaded later: it then runs after tipme's handler,
 * the delivery has ended when it wakes its reader).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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

static unsigned int auto_trigger_ms;
module_param(auto_trigger_ms, uint, 0644);
MODULE_PARM_DESC(auto_trigger_ms, "Trigger a dump when a task woken by a key or button press takes this long to wait for input again (0: off, the default)");

DEFINE_PER_CPU(bool, tipme_auto_delivering);
atomic_t tipme_auto_readers = ATOMIC_INIT(0);

/* The press this CPU is delivering. */
struct auto_press {
	u64 press_ns;
	u16 input;
};

static DEFINE_PER_CPU(struct auto_press, delivery);

/**
 * struct auto_reader - a task a press woke, until it waits for input again
 * @press_ns: the press, CLOCK_MONOTONIC
 * @uip: user instruction pointer of the wait it was woken from
 * @usp: user stack pointer of that wait
 * @nr: system call of that wait
 * @pid: the task, 0 for a free slot
 * @input: TIPME_INPUT_KEY or TIPME_INPUT_BUTTON
 */
struct auto_reader {
	u64 press_ns;
	unsigned long uip;
	unsigned long usp;
	int nr;
	pid_t pid;
	u16 input;
};

static DEFINE_RAW_SPINLOCK(auto_lock);
/* Under auto_lock: */
static struct auto_reader readers[AUTO_READERS];
static struct tipme_trigger_press fired;
static bool fired_pending, stopped;
static u32 nr_measured, nr_slow, nr_fired, nr_full, nr_forgotten, nr_cut;

static struct irq_work fire_work;

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
	struct pt_regs *regs;
	u64 now = ktime_get_ns();
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
	regs = task_pt_regs(p);
	raw_spin_lock(&auto_lock);
	if (stopped)
		goto out;
	for (i = 0; i < AUTO_READERS; i++) {
		r = &readers[i];
		if (r->pid && now - r->press_ns > AUTO_FORGET_NS) {
			WRITE_ONCE(r->pid, 0);
			nr_forgotten++;
			atomic_dec(&tipme_auto_readers);
		}
		/* Still busy with an earlier press: that one is measured. */
		if (r->pid == p->pid)
			goto out;
		if (!r->pid && !slot)
			slot = r;
	}
	if (!slot) {
		nr_full++;
		goto out;
	}
	slot->press_ns = d->press_ns;
	slot->input = d->input;
	slot->nr = syscall_get_nr(p, regs);
	slot->uip = instruction_pointer(regs);
	slot->usp = user_stack_pointer(regs);
	WRITE_ONCE(slot->pid, p->pid);
	atomic_inc(&tipme_auto_readers);
out:
	raw_spin_unlock(&auto_lock);
}

/**
 * tipme_auto_sleeps() - a task goes to sleep: is it waiting for input again?
 * @prev: the task (current)
 *
 * Context: the sched_switch probe (interrupts off, runqueue locked).
 */
void tipme_auto_sleeps(struct task_struct *prev)
{
	struct pt_regs *regs = task_pt_regs(prev);
	u64 limit, lat, now;
	struct auto_reader *r;
	int i;

	/* Most tasks that sleep are no reader: look before locking. */
	for (i = 0; i < AUTO_READERS; i++)
		if (READ_ONCE(readers[i].pid) == prev->pid)
			break;
	if (i == AUTO_READERS)
		return;
	raw_spin_lock(&auto_lock);
	r = &readers[i];
	if (r->pid != prev->pid || syscall_get_nr(prev, regs) != r->nr ||
	    instruction_pointer(regs) != r->uip ||
	    user_stack_pointer(regs) != r->usp)
		goto out;
	now = ktime_get_ns();
	lat = now - r->press_ns;
	limit = (u64)READ_ONCE(auto_trigger_ms) * NSEC_PER_MSEC;
	nr_measured++;
	if (limit && lat >= limit) {
		nr_slow++;
		if (!fired_pending && !stopped) {
			memset(&fired, 0, sizeof(fired));
			fired.press_mono_ns = r->press_ns;
			fired.latency_ns = lat;
			fired.pid = prev->pid;
			fired.input = r->input;
			memcpy(fired.comm, prev->comm,
			       min(sizeof(fired.comm), sizeof(prev->comm)));
			fired.comm[sizeof(fired.comm) - 1] = '\0';
			fired_pending = true;
			irq_work_queue(&fire_work);
		}
	}
	WRITE_ONCE(r->pid, 0);
	atomic_dec(&tipme_auto_readers);
out:
	raw_spin_unlock(&auto_lock);
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
	u32 measured, slow, nfired, full, forgotten, cut;
	unsigned long flags;

	raw_spin_lock_irqsave(&auto_lock, flags);
	measured = nr_measured;
	slow = nr_slow;
	nfired = nr_fired;
	full = nr_full;
	forgotten = nr_forgotten;
	cut = nr_cut;
	raw_spin_unlock_irqrestore(&auto_lock, flags);
	return scnprintf(buf, size,
			 "auto_trigger_ms=%u\nauto_presses_measured=%u\nauto_presses_slow=%u\nauto_triggers=%u\nauto_readers_missed=%u\nauto_readers_forgotten=%u\nauto_deliveries_cut=%u\n",
			 READ_ONCE(auto_trigger_ms), measured, slow, nfired,
			 full, forgotten, cut);
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
	for (i = 0; i < AUTO_READERS; i++)
		WRITE_ONCE(readers[i].pid, 0);
	atomic_set(&tipme_auto_readers, 0);
	raw_spin_unlock_irqrestore(&auto_lock, flags);
	irq_work_sync(&fire_work);
}
