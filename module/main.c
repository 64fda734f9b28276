// SPDX-License-Identifier: GPL-2.0
/*
 * tipme.ko: a flight recorder for interactive latency.
 *
 * Probes on scheduler tracepoints write compact records into per-CPU
 * rings that always hold the last stretch of history; tipmed dumps them
 * over generic netlink when the user says something felt slow.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include "tipme.h"
#include "tracepoints.h"
#include "instr.h"
#include "trigger.h"

static char *buffer_size = "64M";
module_param(buffer_size, charp, 0444);
MODULE_PARM_DESC(buffer_size, "Bytes of all per-CPU rings together (K/M/G suffixes; default 64M)");

static unsigned int subbuf_size = 16384;
module_param(subbuf_size, uint, 0444);
MODULE_PARM_DESC(subbuf_size, "Sub-buffer size in bytes, a power of two from 4096 to 1048576 (default 16384)");

static char *clock = "auto";
module_param(clock, charp, 0444);
MODULE_PARM_DESC(clock, "Record clock: auto (TSC if constant and nonstop), tsc, or local");

static bool autostart = true;
module_param(autostart, bool, 0444);
MODULE_PARM_DESC(autostart, "Start recording at load (default 1)");

struct tipme_state tipme;

/**
 * tipme_set_recording() - start or stop writing records
 * @on: true to record
 *
 * The rings keep their contents either way.
 *
 * Context: any.
 */
void tipme_set_recording(bool on)
{
	WRITE_ONCE(tipme.recording, on);
}

/**
 * tipme_params_text() - the module's parameters as "key=value\n" lines
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_params_text(char *buf, size_t size)
{
	int n;

	n = scnprintf(buf, size,
		      "version=%s\nbuffer_size=%llu\nsubbuf_size=%u\nsubbufs_per_cpu=%u\nclock=%s\nautostart=%d\nkeylog=%d\nkeylog_used=%d\ntrigger_interval_ms=%u\n",
		      TIPME_VERSION_STRING, tipme.buf_size,
		      1U << tipme.sub_shift, 1U << tipme.nsub_shift,
		      tipme_clock_source() == TIPME_CLOCK_TSC ? "tsc" : "local",
		      autostart, READ_ONCE(tipme_keylog),
		      READ_ONCE(tipme_keylog_used),
		      READ_ONCE(tipme_trigger_interval_ms));
	return n + tipme_instr_params_text(buf + n, size - n);
}

static int geometry_init(void)
{
	unsigned long long total = memparse(buffer_size, NULL);
	unsigned int cpus = num_possible_cpus();
	u64 per_cpu;

	if (subbuf_size < 4096 || subbuf_size > (1U << 20) ||
	    !is_power_of_2(subbuf_size)) {
		pr_err("subbuf_size=%u: must be a power of two from 4096 to 1048576\n",
		       subbuf_size);
		return -EINVAL;
	}
	per_cpu = div_u64(total, cpus);
	if (per_cpu < 2ULL * subbuf_size) {
		pr_err("buffer_size=%s: need at least two sub-buffers (%u bytes) per CPU for %u CPUs\n",
		       buffer_size, 2 * subbuf_size, cpus);
		return -EINVAL;
	}
	if (per_cpu > (1ULL << 34)) {
		pr_err("buffer_size=%s: at most 16G per CPU\n", buffer_size);
		return -EINVAL;
	}
	tipme.sub_shift = ilog2(subbuf_size);
	tipme.nsub_shift = ilog2(per_cpu >> tipme.sub_shift);
	tipme.buf_size = (u64)cpus << (tipme.sub_shift + tipme.nsub_shift);
	return 0;
}

static void rings_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		tipme_ring_free(per_cpu_ptr(tipme.rings, cpu));
	free_percpu(tipme.rings);
}

static int rings_alloc(void)
{
	int cpu, err;

	tipme.rings = alloc_percpu(struct tipme_ring);
	if (!tipme.rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		err = tipme_ring_init(per_cpu_ptr(tipme.rings, cpu), cpu,
				      tipme.sub_shift, tipme.nsub_shift);
		if (err) {
			pr_err("cannot allocate %lu KiB for the ring of CPU %d; load with a smaller buffer_size=\n",
			       (1UL << (tipme.sub_shift + tipme.nsub_shift)) >> 10,
			       cpu);
			rings_free();
			return err;
		}
	}
	return 0;
}

static u64 type_total(int type)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += local_read(&per_cpu_ptr(tipme.rings, cpu)->type_count[type]);
	return n;
}

static int __init tipme_init(void)
{
	int err;

	err = geometry_init();
	if (err)
		return err;
	err = tipme_clock_init(clock);
	if (err)
		return err;
	err = rings_alloc();
	if (err)
		goto out_clock;
	err = tipme_instr_init();
	if (err)
		goto out_rings;
	err = tipme_probes_attach(tipme_sched_probes, tipme_sched_probes_count);
	if (err)
		goto out_instr;
	err = tipme_genl_init();
	if (err)
		goto out_probes;
	tipme_trigger_init();
	err = tipme_sysctl_init();
	if (err)
		goto out_genl;
	err = tipme_input_init();
	if (err)
		goto out_sysctl;
	tipme_set_recording(autostart);
	pr_info("loaded: %llu KiB of rings, %u x %u KiB sub-buffers per CPU%s\n",
		tipme.buf_size >> 10, 1U << tipme.nsub_shift,
		(1U << tipme.sub_shift) >> 10, autostart ? ", recording" : "");
	return 0;

out_sysctl:
	tipme_sysctl_exit();
out_genl:
	tipme_trigger_exit();
	tipme_genl_exit();
	tipme_trigger_exit();
out_probes:
	tipme_probes_detach(tipme_sched_probes, tipme_sched_probes_count);
out_instr:
	tipme_instr_exit();
out_rings:
	rings_free();
out_clock:
	tipme_clock_exit();
	return err;
}

static void __exit tipme_exit(void)
{
	tipme_set_recording(false);
	tipme_input_exit();
	tipme_sysctl_exit();
	tipme_trigger_exit();
	tipme_genl_exit();
	tipme_trigger_exit();
	tipme_probes_detach(tipme_sched_probes, tipme_sched_probes_count);
	pr_info("sched_switch records: %llu, sched_waking records: %llu\n",
		type_total(TIPME_REC_SCHED_SWITCH),
		type_total(TIPME_REC_SCHED_WAKING));
	tipme_instr_exit();
	rings_free();
	tipme_clock_exit();
	pr_info("unloaded\n");
}

module_init(tipme_init);
module_exit(tipme_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The tipme developers");
MODULE_DESCRIPTION("tipme: flight recorder for interactive latency");
MODULE_VERSION(TIPME_VERSION_STRING);
