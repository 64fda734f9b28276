// SPDX-License-Identifier: GPL-2.0
/*
 * tipme.ko: a flight recorder for interactive latency.
 *
 * Probes on scheduler tracepoints write compact records into per-CPU
 * rings that always hold the last stretch of history; tipmed dumps them
 * over generic netlink when the user says something felt slow.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/tipme.h>
#include "fault.h"
#include "recorder.h"
#include "probes/tracepoints.h"
#include "instr/setup.h"
#include "control/trigger.h"
#include "control/sysctl.h"
#include "control/input.h"
#include "control/autotrig.h"
#include "control/genl.h"
#include "control/ringdev.h"

/*
 * Bottom up: the recorder, the instrumentation and the probes that write
 * into it, then the sources of triggers, and the netlink family last, so no
 * command arrives into a half-initialised module.
 */
static int __init tipme_init(void)
{
	bool autostart = tipme_recorder_autostart();
	int err;

	err = tipme_recorder_init();
	if (err)
		return err;
	err = tipme_instr_init();
	if (err)
		goto out_recorder;
	err = tipme_probes_attach(tipme_sched_probes, tipme_sched_probes_count);
	if (err)
		goto out_instr;
	tipme_trigger_init(tipme_genl_notify_trigger);
	err = tipme_sysctl_init();
	if (err)
		goto out_trigger;
	err = tipme_input_init();
	if (err)
		goto out_sysctl;
	err = tipme_auto_init();
	if (err)
		goto out_input;
	tipme_set_recording(autostart);
	err = tipme_ringdev_init();
	if (err)
		goto out_recording;
	err = tipme_genl_init();
	if (err)
		goto out_ringdev;
	tipme_fail_steps_done();
	if (tipme.pool)
		pr_info("loaded: %llu KiB of rings, one pool of %llu x %u KiB sub-buffers for every CPU%s\n",
			tipme.buf_size >> 10, tipme.buf_size >> tipme.sub_shift,
			(1U << tipme.sub_shift) >> 10,
			autostart ? ", recording" : "");
	else
		pr_info("loaded: %llu KiB of rings, %u x %u KiB sub-buffers per CPU%s\n",
			tipme.buf_size >> 10, 1U << tipme.nsub_shift,
			(1U << tipme.sub_shift) >> 10,
			autostart ? ", recording" : "");
	return 0;

out_ringdev:
	tipme_ringdev_exit();
out_recording:
	tipme_set_recording(false);
	tipme_auto_exit();
out_input:
	tipme_input_exit();
out_sysctl:
	tipme_sysctl_exit();
out_trigger:
	tipme_trigger_exit();
	tipme_probes_detach(tipme_sched_probes, tipme_sched_probes_count);
out_instr:
	tipme_instr_exit();
out_recorder:
	tipme_recorder_exit();
	return err;
}

/* tipme_init() in reverse. */
static void __exit tipme_exit(void)
{
	tipme_genl_exit();
	tipme_ringdev_exit();
	tipme_set_recording(false);
	tipme_auto_exit();
	tipme_input_exit();
	tipme_sysctl_exit();
	tipme_trigger_exit();
	tipme_probes_detach(tipme_sched_probes, tipme_sched_probes_count);
	/* every form each comes in */
	pr_info("sched_switch records: %llu, sched_waking records: %llu\n",
		tipme_recorder_type_total(TIPME_REC_SCHED_SWITCH) +
		tipme_recorder_type_total(TIPME_REC_SWITCH_C) +
		tipme_recorder_type_total(TIPME_REC_SWITCH_S) +
		tipme_recorder_type_total(TIPME_REC_SWITCH_SITE_S),
		tipme_recorder_type_total(TIPME_REC_SCHED_WAKING) +
		tipme_recorder_type_total(TIPME_REC_WAKING_C));
	tipme_instr_exit();
	tipme_recorder_exit();
	pr_info("unloaded\n");
}

module_init(tipme_init);
module_exit(tipme_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The tipme developers");
MODULE_DESCRIPTION("tipme: flight recorder for interactive latency");
MODULE_VERSION(TIPME_VERSION_STRING);
