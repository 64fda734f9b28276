// SPDX-License-Identifier: GPL-2.0
/*
 * The on-CPU sampling profiler.
 *
 * Off by default: profile_hz (a module parameter, and /proc/sys/tipme/
 * profile_hz at run time) sets samples per second per CPU, 0 to
 * TIPME_PROFILE_HZ_MAX; 0 is off.  Each online CPU has a pinned hrtimer at
 * that period, expiring in hard interrupt context (also on PREEMPT_RT),
 * whose callback writes one sample of the task it interrupted
 * (probes/prof.c).  The 20 ms state sampler (sampler.c) is another thing
 * and stays as it is.
 *
 * The timers follow CPU hotplug through a dynamic hotplug state: its
 * online callback starts the CPU's timer on that CPU, its offline callback
 * cancels it; removing the state (a rate change, or the profiler off, or
 * the module unloading) cancels every timer and waits for running
 * callbacks, so nothing runs once tipme_profile_exit() returns (before the
 * rings and tables go).  A rate change stops the timers and starts them
 * again at the new rate, under a mutex; each CPU writes a
 * TIPME_REC_PROF_RATE when its timer starts and stops, so that a reader
 * knows the weight of the samples that follow.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include "compat.h"
#include "fault.h"
#include "instr/cost.h"
#include "instr/profile.h"
#include "probes/prof.h"

static unsigned int profile_hz;
module_param(profile_hz, uint, 0444);
MODULE_PARM_DESC(profile_hz, "On-CPU profiler: samples per second per CPU of the running task's kernel and user call chains (0-1000, 0: off; also /proc/sys/tipme/profile_hz; default 0)");

static DEFINE_PER_CPU(struct hrtimer, prof_timer);
static DEFINE_MUTEX(prof_lock);
static unsigned int prof_hz;		/* the rate the timers run at */
static u64 prof_period_ns;
static int prof_state = -1;		/* the hotplug state, while running */

static enum hrtimer_restart prof_tick(struct hrtimer *t)
{
	u64 t0 = tipme_cost_now();

	tipme_prof_record(t0);
	hrtimer_forward_now(t, ns_to_ktime(READ_ONCE(prof_period_ns)));
	return HRTIMER_RESTART;
}

/* Hotplug: start the timer of @cpu, on @cpu. */
static int prof_cpu_online(unsigned int cpu)
{
	struct hrtimer *t = this_cpu_ptr(&prof_timer);

	tipme_hrtimer_setup(t, prof_tick, CLOCK_MONOTONIC,
			    HRTIMER_MODE_REL_PINNED_HARD);
	preempt_disable();
	tipme_prof_rate(prof_hz);
	preempt_enable();
	hrtimer_start(t, ns_to_ktime(prof_period_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

/* Hotplug: stop the timer of @cpu, on @cpu; waits for a running callback. */
static int prof_cpu_offline(unsigned int cpu)
{
	hrtimer_cancel(this_cpu_ptr(&prof_timer));
	preempt_disable();
	tipme_prof_rate(0);
	preempt_enable();
	return 0;
}

/* Start the timers at @hz (not 0).  Called with prof_lock held. */
static int prof_start(unsigned int hz)
{
	int ret;

	prof_hz = hz;
	WRITE_ONCE(prof_period_ns, div_u64(NSEC_PER_SEC, hz));
	ret = tipme_fail_step("profiler timers") ? -ENOMEM :
	      cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "tipme/profile:online",
				prof_cpu_online, prof_cpu_offline);
	if (ret < 0) {
		prof_hz = 0;
		return ret;
	}
	prof_state = ret;
	return 0;
}

/* Stop every timer, if running.  Called with prof_lock held. */
static void prof_stop(void)
{
	if (prof_state < 0)
		return;
	cpuhp_remove_state(prof_state);
	prof_state = -1;
	prof_hz = 0;
}

/**
 * tipme_profile_set_hz() - change the profiler's rate
 * @hz: samples per second per CPU, 0 (off) to TIPME_PROFILE_HZ_MAX
 *
 * Context: process context, may sleep (CPU hotplug lock, timers cancelled).
 * Return: 0, -EINVAL for a rate out of range, or the error of starting the
 * timers (then the profiler is off).
 */
int tipme_profile_set_hz(unsigned int hz)
{
	int ret = 0;

	if (hz > TIPME_PROFILE_HZ_MAX)
		return -EINVAL;
	mutex_lock(&prof_lock);
	if (hz != prof_hz) {
		prof_stop();
		if (hz)
			ret = prof_start(hz);
	}
	mutex_unlock(&prof_lock);
	return ret;
}

/**
 * tipme_profile_hz() - the profiler's rate
 *
 * Context: any.
 * Return: samples per second per CPU, 0 when off.
 */
unsigned int tipme_profile_hz(void)
{
	return READ_ONCE(prof_hz);
}

/**
 * tipme_profile_init() - start the profiler if profile_hz asks for it
 *
 * Context: process context (module init), once the rings and the site and
 * user stack tables exist.
 * Return: 0 or a negative errno.
 */
int tipme_profile_init(void)
{
	if (profile_hz > TIPME_PROFILE_HZ_MAX) {
		pr_err("profile_hz=%u: at most %d\n", profile_hz,
		       TIPME_PROFILE_HZ_MAX);
		return -EINVAL;
	}
	return tipme_profile_set_hz(profile_hz);
}

/**
 * tipme_profile_exit() - stop the profiler
 *
 * Context: process context; once it returns no timer runs or will run.
 */
void tipme_profile_exit(void)
{
	mutex_lock(&prof_lock);
	prof_stop();
	mutex_unlock(&prof_lock);
}

/**
 * tipme_profile_params_text() - "key=value\n" lines for the dump's parameters
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_profile_params_text(char *buf, size_t size)
{
	return scnprintf(buf, size, "profile_hz=%u\n", tipme_profile_hz());
}
