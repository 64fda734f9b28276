// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/sys/tipme/: enabled, trigger, keylog, trigger_interval_ms,
 * user_stacks, profile_hz, and read-only counters.  Writes are for root (mode 0644,
 * and CAP_SYS_ADMIN is checked); a bad value gets -EINVAL and changes
 * nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/sysctl.h>
#include "compat.h"
#include "fault.h"
#include "recorder.h"
#include "control/trigger.h"
#include "control/sysctl.h"
#include "instr/profile.h"
#include "instr/ustack.h"

static struct ctl_table_header *sysctl_hdr;
static int int_max = INT_MAX;
static int interval_max = 3600 * 1000;
static int profile_hz_max = TIPME_PROFILE_HZ_MAX;

/* Parse or print one int through a copy of @table pointing at @val. */
static int int_io(const struct ctl_table *table, int write, void *buf, size_t *lenp,
		  loff_t *ppos, int *val, int *min, int *max)
{
	struct ctl_table t = *table;

	if (write && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	t.data = val;
	t.maxlen = sizeof(*val);
	t.extra1 = min;
	t.extra2 = max;
	return proc_dointvec_minmax(&t, write, buf, lenp, ppos);
}

static int enabled_handler(tipme_ctl_table *table, int write, void *buf,
			   size_t *lenp, loff_t *ppos)
{
	int v = READ_ONCE(tipme.recording), err;

	err = int_io(table, write, buf, lenp, ppos, &v, SYSCTL_ZERO, SYSCTL_ONE);
	if (!err && write)
		tipme_switch_recording(v, TIPME_BY_SYSCTL);
	return err;
}

static int trigger_handler(tipme_ctl_table *table, int write, void *buf,
			   size_t *lenp, loff_t *ppos)
{
	struct tipme_trigger_info t;
	int v, err;

	tipme_trigger_last(&t, NULL, NULL);
	v = t.seq;
	err = int_io(table, write, buf, lenp, ppos, &v, SYSCTL_ONE, &int_max);
	if (!err && write)
		tipme_trigger(TIPME_TRIG_SYSCTL, NULL);
	return err;
}

static int keylog_handler(tipme_ctl_table *table, int write, void *buf,
			  size_t *lenp, loff_t *ppos)
{
	int v = READ_ONCE(tipme_keylog), err;

	err = int_io(table, write, buf, lenp, ppos, &v, SYSCTL_ZERO, SYSCTL_ONE);
	if (!err && write)
		err = tipme_set_keylog(v, TIPME_BY_SYSCTL);
	return err;
}

static int interval_handler(tipme_ctl_table *table, int write, void *buf,
			    size_t *lenp, loff_t *ppos)
{
	int v = READ_ONCE(tipme_trigger_interval_ms), err;

	err = int_io(table, write, buf, lenp, ppos, &v, SYSCTL_ZERO,
		     &interval_max);
	if (!err && write)
		WRITE_ONCE(tipme_trigger_interval_ms, v);
	return err;
}

static int ustacks_handler(tipme_ctl_table *table, int write, void *buf,
			   size_t *lenp, loff_t *ppos)
{
	int v = READ_ONCE(tipme_user_stacks), err;

	err = int_io(table, write, buf, lenp, ppos, &v, SYSCTL_ZERO, SYSCTL_ONE);
	if (!err && write)
		WRITE_ONCE(tipme_user_stacks, v);
	return err;
}

static int profile_hz_handler(tipme_ctl_table *table, int write, void *buf,
			      size_t *lenp, loff_t *ppos)
{
	int v = tipme_profile_hz(), err;

	err = int_io(table, write, buf, lenp, ppos, &v, SYSCTL_ZERO,
		     &profile_hz_max);
	if (!err && write)
		err = tipme_profile_set_hz(v);
	return err;
}

static int counter_handler(tipme_ctl_table *table, int write, void *buf,
			   size_t *lenp, loff_t *ppos)
{
	struct tipme_trigger_info t;
	u32 triggers, coalesced;
	int v;

	if (write)
		return -EPERM;
	tipme_trigger_last(&t, &triggers, &coalesced);
	v = (long)table->extra1 ? coalesced : triggers;
	return int_io(table, 0, buf, lenp, ppos, &v, SYSCTL_ZERO, &int_max);
}

static struct ctl_table tipme_sysctls[] = {
	{
		.procname = "enabled",
		.mode = 0644,
		.proc_handler = enabled_handler,
	},
	{
		.procname = "trigger",
		.mode = 0644,
		.proc_handler = trigger_handler,
	},
	{
		.procname = "keylog",
		.mode = 0644,
		.proc_handler = keylog_handler,
	},
	{
		.procname = "trigger_interval_ms",
		.mode = 0644,
		.proc_handler = interval_handler,
	},
	{
		.procname = "user_stacks",
		.mode = 0644,
		.proc_handler = ustacks_handler,
	},
	{
		.procname = "profile_hz",
		.mode = 0644,
		.proc_handler = profile_hz_handler,
	},
	{
		.procname = "triggers",
		.mode = 0444,
		.proc_handler = counter_handler,
		.extra1 = (void *)0L,
	},
	{
		.procname = "coalesced",
		.mode = 0444,
		.proc_handler = counter_handler,
		.extra1 = (void *)1L,
	},
	{ }	/* for kernels before 6.6 (tipme_register_sysctl()) */
};

/**
 * tipme_sysctl_init() - create /proc/sys/tipme/
 *
 * Context: module init.
 * Return: 0 or -ENOMEM.
 */
int tipme_sysctl_init(void)
{
	sysctl_hdr = tipme_fail_step("sysctl table") ? NULL :
		     tipme_register_sysctl("tipme", tipme_sysctls,
					   ARRAY_SIZE(tipme_sysctls));
	return sysctl_hdr ? 0 : -ENOMEM;
}

/**
 * tipme_sysctl_exit() - remove /proc/sys/tipme/
 *
 * Context: module exit; waits for handlers running.
 */
void tipme_sysctl_exit(void)
{
	unregister_sysctl_table(sysctl_hdr);
}
