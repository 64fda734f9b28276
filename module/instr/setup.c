// SPDX-License-Identifier: GPL-2.0
/*
 * Instrumentation: set-up, tear-down and parameters.
 *
 * Order at load: cost counters, blocking-site range, user stack table,
 * sampler, exec table,
 * lifecycle probes, snapshot of existing tasks, block/lock/mm probes,
 * sampler start, profiler (its timers use the site and user stack tables;
 * it stops first).  main.c calls tipme_instr_init() before attaching the
 * scheduler probes (which use the cost counters and the sampler's logs)
 * and tipme_instr_exit() after detaching them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include "recorder.h"
#include "instr/cost.h"
#include "instr/exec.h"
#include "instr/setup.h"
#include "probes/display.h"
#include "probes/tracepoints.h"
#include "instr/profile.h"
#include "instr/sampler.h"
#include "instr/site.h"
#include "instr/ustack.h"
#include "instr/xmaps.h"

static unsigned int stack_depth = 4;
module_param(stack_depth, uint, 0444);
MODULE_PARM_DESC(stack_depth, "Return addresses recorded where a task blocks (0-16, 0: off; default 4)");

static unsigned int sample_period_ms = 20;
module_param(sample_period_ms, uint, 0444);
MODULE_PARM_DESC(sample_period_ms, "Sampler period in ms (0: no sampler; default 20)");

static unsigned int sample_full_ms = 1000;
module_param(sample_full_ms, uint, 0444);
MODULE_PARM_DESC(sample_full_ms, "Interval of full samples (every thread) in ms (default 1000)");

static unsigned int sample_full_threads = 2048;
module_param(sample_full_threads, uint, 0444);
MODULE_PARM_DESC(sample_full_threads, "Threads full samples may write per sample_full_ms; with more, full samples come less often (0: no limit; default 2048)");

static unsigned int sample_threads = 16384;
module_param(sample_threads, uint, 0444);
MODULE_PARM_DESC(sample_threads, "Threads the sampler can follow (default 16384)");

static unsigned int cost_period_ms = 100;
module_param(cost_period_ms, uint, 0444);
MODULE_PARM_DESC(cost_period_ms, "How often each CPU writes its self-cost batch, in ms (default 100)");

static bool trace_block = true;
module_param(trace_block, bool, 0444);
MODULE_PARM_DESC(trace_block, "Record block I/O: requests, and bios of stacked devices (default 1)");

static bool trace_lock = true;
module_param(trace_lock, bool, 0444);
MODULE_PARM_DESC(trace_lock, "Record lock contention (default 1)");

static bool trace_mm = true;
module_param(trace_mm, bool, 0444);
MODULE_PARM_DESC(trace_mm, "Record reclaim and kswapd activity (default 1)");

static bool trace_work = true;
module_param(trace_work, bool, 0444);
MODULE_PARM_DESC(trace_work, "Record kernel work items, and the softirq or interrupt of a wakeup (default 1)");

static bool trace_drm = true;
module_param(trace_drm, bool, 0444);
MODULE_PARM_DESC(trace_drm, "Record DRM's vblank and page flip events, from drm.ko whenever it is loaded (default 1)");

static bool trace_fence = true;
module_param(trace_fence, bool, 0444);
MODULE_PARM_DESC(trace_fence, "Record dma_fence emits, signals and waits (default 1)");

static bool trace_net = true;
module_param(trace_net, bool, 0444);
MODULE_PARM_DESC(trace_net, "Record TCP data sent, and received by a socket someone waits on (default 1)");

/**
 * struct optional_table - a probe family that may be left out
 * @name: for messages
 * @probes: the table
 * @count: its entries
 * @enabled: the parameter asking for it
 * @attached: it is attached
 */
struct optional_table {
	const char *name;
	struct tipme_probe *probes;
	const size_t *count;
	bool *enabled;
	bool attached;
};

static struct optional_table optional[] = {
	{ "block", tipme_block_probes, &tipme_block_probes_count, &trace_block },
	{ "lock", tipme_lock_probes, &tipme_lock_probes_count, &trace_lock },
	{ "mm", tipme_mm_probes, &tipme_mm_probes_count, &trace_mm },
	{ "work", tipme_work_probes, &tipme_work_probes_count, &trace_work },
	{ "net", tipme_net_probes, &tipme_net_probes_count, &trace_net },
};

static void optional_detach(void)
{
	size_t i;

	for (i = ARRAY_SIZE(optional); i-- > 0;) {
		if (!optional[i].attached)
			continue;
		tipme_probes_detach(optional[i].probes, *optional[i].count);
		optional[i].attached = false;
	}
}

/**
 * tipme_instr_init() - set up all instrumentation and start it
 *
 * A family of optional probes (block, lock, mm, work, net) this kernel lacks is left
 * out with a warning; so is each display or fence tracepoint it lacks (and
 * drm.ko's are attached whenever it loads); any other failure fails the
 * load.
 *
 * Context: process context (module init), before the scheduler probes are
 * attached.
 * Return: 0 or a negative errno.
 */
int tipme_instr_init(void)
{
	size_t i;
	int err;

	if (stack_depth > TIPME_SITE_DEPTH_MAX) {
		pr_err("stack_depth=%u: at most %d\n", stack_depth,
		       TIPME_SITE_DEPTH_MAX);
		return -EINVAL;
	}
	err = tipme_cost_init(cost_period_ms);
	if (err)
		return err;
	err = tipme_site_init(stack_depth);
	if (err)
		goto out_cost;
	err = tipme_ustack_init();
	if (err)
		goto out_site;
	err = tipme_xmaps_init();
	if (err)
		goto out_ustack;
	err = tipme_sampler_init(sample_period_ms, sample_full_ms,
				 sample_full_threads, sample_threads);
	if (err)
		goto out_xmaps;
	err = tipme_exec_init();
	if (err)
		goto out_sampler;
	err = tipme_probes_attach(tipme_task_probes, tipme_task_probes_count);
	if (err)
		goto out_exec;
	tipme_exec_snapshot();
	for (i = 0; i < ARRAY_SIZE(optional); i++) {
		if (!*optional[i].enabled)
			continue;
		if (tipme_probes_attach(optional[i].probes, *optional[i].count))
			pr_warn("%s probes not attached: no %s records\n",
				optional[i].name, optional[i].name);
		else
			optional[i].attached = true;
	}
	tipme_fence_init(trace_fence);
	tipme_drm_init(trace_drm);
	tipme_sampler_start();
	err = tipme_profile_init();
	if (err)
		goto out_task_probes;
	return 0;

out_task_probes:
	tipme_drm_exit();
	tipme_fence_exit();
	optional_detach();
	tipme_probes_detach(tipme_task_probes, tipme_task_probes_count);
out_exec:
	tipme_exec_exit();
out_sampler:
	tipme_sampler_exit();
out_xmaps:
	tipme_xmaps_exit();
out_ustack:
	tipme_ustack_exit();
out_site:
	tipme_site_exit();
out_cost:
	tipme_cost_exit();
	return err;
}

/**
 * tipme_instr_exit() - undo tipme_instr_init()
 *
 * Context: process context, after the scheduler probes are detached.
 */
void tipme_instr_exit(void)
{
	tipme_profile_exit();
	tipme_drm_exit();
	tipme_fence_exit();
	optional_detach();
	tipme_probes_detach(tipme_task_probes, tipme_task_probes_count);
	tipme_sampler_exit();
	tipme_exec_exit();
	tipme_xmaps_exit();
	tipme_ustack_exit();
	tipme_site_exit();
	tipme_cost_exit();
}

/**
 * tipme_instr_params_text() - "key=value\n" lines of the instrumentation
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_instr_params_text(char *buf, size_t size)
{
	int n;

	n = tipme_site_params_text(buf, size);
	n += tipme_ustack_params_text(buf + n, size - n);
	n += tipme_xmaps_params_text(buf + n, size - n);
	n += tipme_profile_params_text(buf + n, size - n);
	n += tipme_sampler_params_text(buf + n, size - n);
	n += tipme_exec_params_text(buf + n, size - n);
	n += scnprintf(buf + n, size - n,
		       "cost_period_ms=%u\ntrace_block=%d\ntrace_lock=%d\ntrace_mm=%d\n",
		       cost_period_ms, optional[0].attached,
		       optional[1].attached, optional[2].attached);
	n += scnprintf(buf + n, size - n, "trace_work=%d\n", optional[3].attached);
	n += scnprintf(buf + n, size - n, "trace_drm=%d\ntrace_fence=%d\n",
		       trace_drm, trace_fence);
	n += tipme_drm_params_text(buf + n, size - n);
	n += tipme_fence_params_text(buf + n, size - n);
	return n;
}
