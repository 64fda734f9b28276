// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's state: the per-CPU rings, their geometry from the module
 * parameters, the record clock, and whether probes write records.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/tipme.h>
#include "fault.h"
#include "recorder.h"

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
 * tipme_recorder_autostart() - whether recording starts at load
 *
 * Context: any.
 * Return: the autostart parameter.
 */
bool tipme_recorder_autostart(void)
{
	return autostart;
}

/**
 * tipme_recorder_params_text() - the recorder's parameters as "key=value\n"
 * @buf: destination
 * @size: its size
 *
 * Context: any, after tipme_recorder_init().
 * Return: length written, as scnprintf().
 */
int tipme_recorder_params_text(char *buf, size_t size)
{
	return scnprintf(buf, size,
			 "version=%s\nbuffer_size=%llu\nsubbuf_size=%u\nsubbufs_per_cpu=%u\nclock=%s\nautostart=%d\n",
			 TIPME_VERSION_STRING, tipme.buf_size,
			 1U << tipme.sub_shift, 1U << tipme.nsub_shift,
			 tipme_clock_source() == TIPME_CLOCK_TSC ? "tsc" : "local",
			 autostart);
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

	tipme.rings = tipme_fail_step("rings") ? NULL :
		      alloc_percpu(struct tipme_ring);
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

/**
 * tipme_recorder_type_total() - records of one type written on all CPUs
 * @type: enum tipme_rec_type
 *
 * Context: any, between tipme_recorder_init() and tipme_recorder_exit().
 * Return: the count.
 */
u64 tipme_recorder_type_total(int type)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += local_read(&per_cpu_ptr(tipme.rings, cpu)->type_count[type]);
	return n;
}

/**
 * tipme_recorder_init() - size and allocate the rings, set up the clock
 *
 * Recording stays off until tipme_set_recording().
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int tipme_recorder_init(void)
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
	return 0;

out_clock:
	tipme_clock_exit();
	return err;
}

/**
 * tipme_recorder_exit() - free the rings, stop the clock
 *
 * Context: module exit; no probe is attached and nothing writes any more.
 */
void tipme_recorder_exit(void)
{
	rings_free();
	tipme_clock_exit();
}
