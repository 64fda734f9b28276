// SPDX-License-Identifier: GPL-2.0
/*
 * Clock source selection and the table of clock pairs.  A delayed work
 * item samples (ts, CLOCK_MONOTONIC, CLOCK_REALTIME) once a second; the
 * dump adds one more taken when it starts.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <linux/workqueue.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>
#include "clock.h"

DEFINE_STATIC_KEY_TRUE(tipme_clock_is_tsc);

static DEFINE_SPINLOCK(pairs_lock);
static struct tipme_clock_pair pairs[TIPME_CLOCK_PAIRS];
static unsigned int pairs_next;	/* slot of the next sample */
static unsigned int pairs_count;
static void clock_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(clock_work, clock_work_fn);

/**
 * tipme_clock_source() - the clock records are stamped with
 *
 * Context: any.
 * Return: TIPME_CLOCK_TSC or TIPME_CLOCK_LOCAL.
 */
enum tipme_clock_source tipme_clock_source(void)
{
	return static_branch_likely(&tipme_clock_is_tsc) ? TIPME_CLOCK_TSC :
							  TIPME_CLOCK_LOCAL;
}

/**
 * tipme_clock_khz() - ticks of the record clock per millisecond
 *
 * Context: any.
 * Return: tsc_khz for the TSC, 1000000 for local_clock().
 */
u64 tipme_clock_khz(void)
{
	return tipme_clock_source() == TIPME_CLOCK_TSC ? tsc_khz : 1000000;
}

/**
 * tipme_clock_sample() - read the three clocks as close together as we can
 * @p: filled in; @p->ts is the middle of the bracketing reads
 *
 * Context: any context that may take a few microseconds with interrupts off.
 */
void tipme_clock_sample(struct tipme_clock_pair *p)
{
	unsigned long flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = tipme_clock_now();
	p->mono_ns = ktime_get_ns();
	p->real_ns = ktime_get_real_ns();
	t1 = tipme_clock_now();
	local_irq_restore(flags);
	p->ts = t0 + (t1 - t0) / 2;
	p->err_ts = (u32)min_t(u64, (t1 - t0 + 1) / 2, U32_MAX);
	p->reserved = 0;
}

/**
 * tipme_clock_record() - add a sample to the table of pairs
 *
 * Context: process or softirq context.
 */
void tipme_clock_record(void)
{
	struct tipme_clock_pair p;

	tipme_clock_sample(&p);
	spin_lock_bh(&pairs_lock);
	pairs[pairs_next] = p;
	pairs_next = (pairs_next + 1) % TIPME_CLOCK_PAIRS;
	if (pairs_count < TIPME_CLOCK_PAIRS)
		pairs_count++;
	spin_unlock_bh(&pairs_lock);
}

/**
 * tipme_clock_pairs() - copy the table of pairs, oldest first
 * @out: destination
 * @max: entries @out can hold
 *
 * Context: process context.
 * Return: entries copied.
 */
size_t tipme_clock_pairs(struct tipme_clock_pair *out, size_t max)
{
	size_t n, i, first;

	spin_lock_bh(&pairs_lock);
	n = min_t(size_t, pairs_count, max);
	first = (pairs_next + TIPME_CLOCK_PAIRS - n) % TIPME_CLOCK_PAIRS;
	for (i = 0; i < n; i++)
		out[i] = pairs[(first + i) % TIPME_CLOCK_PAIRS];
	spin_unlock_bh(&pairs_lock);
	return n;
}

static void clock_work_fn(struct work_struct *work)
{
	tipme_clock_record();
	schedule_delayed_work(&clock_work, HZ);
}

static bool tsc_usable(void)
{
	return boot_cpu_has(X86_FEATURE_TSC) &&
	       boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
	       boot_cpu_has(X86_FEATURE_NONSTOP_TSC) && tsc_khz;
}

/**
 * tipme_clock_init() - choose the clock and start sampling pairs
 * @mode: "auto", "tsc" or "local"
 *
 * Context: module init.
 * "auto" takes the TSC only if it is constant and nonstop; "tsc" insists
 * on it as long as it is constant (virtual machines often lack the nonstop
 * flag although their TSC never stops).
 *
 * Return: 0, -EINVAL for an unknown @mode, -ENODEV if "tsc" was asked for
 * and the TSC is not constant.
 */
int tipme_clock_init(const char *mode)
{
	bool tsc;

	if (!strcmp(mode, "auto")) {
		tsc = tsc_usable();
	} else if (!strcmp(mode, "tsc")) {
		if (!boot_cpu_has(X86_FEATURE_TSC) ||
		    !boot_cpu_has(X86_FEATURE_CONSTANT_TSC) || !tsc_khz) {
			pr_err("clock=tsc: this CPU's TSC does not tick at a constant rate\n");
			return -ENODEV;
		}
		if (!boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
			pr_warn("clock=tsc: the TSC may stop in deep idle states; timestamps across them may be off\n");
		tsc = true;
	} else if (!strcmp(mode, "local")) {
		tsc = false;
	} else {
		pr_err("clock=%s: expected auto, tsc or local\n", mode);
		return -EINVAL;
	}
	if (!tsc)
		static_branch_disable(&tipme_clock_is_tsc);
	pr_info("clock: %s (%llu kHz)\n", tsc ? "tsc" : "local_clock",
		tipme_clock_khz());
	tipme_clock_record();
	schedule_delayed_work(&clock_work, HZ);
	return 0;
}

/**
 * tipme_clock_exit() - stop sampling
 *
 * Context: module exit.
 */
void tipme_clock_exit(void)
{
	cancel_delayed_work_sync(&clock_work);
}
