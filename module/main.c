// SPDX-License-Identifier: GPL-2.0
/*
 * tipme.ko: a flight recorder for interactive latency.
 *
 * Probes on scheduler tracepoints write compact records into per-CPU
 * rings that always hold the last stretch of history; tipmed dumps them
 * over generic netlink when the user says something felt slow.
 *
 * This file only wires the parts together: the recorder at the bottom,
 * then the instrumentation and the probes, then the trigger sources, and
 * the netlink interface last, so that no command arrives into a half
 * initialised module.  Exit undoes init in exactly the reverse order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include "recorder.h"
#include "tracepoints.h"
#include "instr.h"
#include "trigger.h"
#include "genl.h"

static int __init tipme_init(void)
{
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
	tipme_trigger_init();
	err = tipme_sysctl_init();
	if (err)
		goto out_trigger;
	err = tipme_input_init();
	if (err)
		goto out_sysctl;
	tipme_recorder_start();
	err = tipme_genl_init();
	if (err)
		goto out_input;
	tipme_trigger_announce(tipme_genl_notify_trigger);
	return 0;

out_input:
	tipme_set_recording(false);
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

static void __exit tipme_exit(void)
{
	tipme_trigger_announce(NULL);
	tipme_genl_exit();
	tipme_set_recording(false);
	tipme_input_exit();
	tipme_sysctl_exit();
	tipme_trigger_exit();
	tipme_probes_detach(tipme_sched_probes, tipme_sched_probes_count);
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
