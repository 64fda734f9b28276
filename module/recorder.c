// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's state: the per-CPU rings, their geometry from the module
 * parameters, the record clock, whether probes write records, and the
 * window a trigger froze until a dump has read it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <linux/tipme.h>
#include "fault.h"
#include "recorder.h"

static char *buffer_size = "64M";
module_param(buffer_size, charp, 0444);
MODULE_PARM_DESC(buffer_size, "Bytes of all per-CPU rings together (K/M/G suffixes; default 64M)");

static unsigned int subbuf_size = 16384;
module_param(subbuf_size, uint, 0444);
MODULE_PARM_DESC(subbuf_size, "Sub-buffer size in bytes, a power of two from 4096 to 1048576 (default 16384)");

static bool pool;
module_param(pool, bool, 0444);
MODULE_PARM_DESC(pool, "Every CPU's ring draws sub-buffers from one pool: the history kept is the machine's newest buffer_size bytes, whatever CPU wrote them (default 0: a ring of buffer_size / CPUs per CPU)");

static char *clock = "auto";
module_param(clock, charp, 0444);
MODULE_PARM_DESC(clock, "Record clock: auto (TSC if constant and nonstop), tsc, or local");

static bool autostart = true;
module_param(autostart, bool, 0444);
MODULE_PARM_DESC(autostart, "Start recording at load (default 1)");

static bool freeze_on_trigger = true;
module_param(freeze_on_trigger, bool, 0644);
MODULE_PARM_DESC(freeze_on_trigger, "A trigger freezes every ring's history until a dump has read it; writers drop records rather than overwrite it (default 1)");

static unsigned int freeze_timeout_s = 30;
module_param(freeze_timeout_s, uint, 0644);
MODULE_PARM_DESC(freeze_timeout_s, "Thaw a frozen window no dump has read after this many seconds (default 30)");

struct tipme_state tipme;

/*
 * The frozen window: generation (0: none), the newest trigger that froze
 * it or found it frozen, how long freezing took, and how windows ended
 * without a dump: expired, or released because no dump would come.
 */
static DEFINE_SPINLOCK(freeze_lock);
static u32 freeze_gen, freeze_last_gen, freeze_seq;
static u64 freeze_ns_last;
static unsigned long freezes, freezes_expired, freezes_released;

static void thaw_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(thaw_work, thaw_fn);

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
 * tipme_recorder_freeze() - protect every ring's history from now on
 * @t0: the record clock when the trigger came
 * @seq: the trigger's sequence number (tipme_recorder_release())
 *
 * Notes each ring's oldest intact sub-buffer: from then on writers drop
 * records rather than overwrite it or any later one, so a dump reads the
 * history as it was when the trigger came, however long tipmed takes.  A
 * window already frozen stays as it is (@seq is noted as its newest
 * trigger).  Thawed by the dump that reads it (tipme_recorder_thaw()), at
 * once when the reader says no dump will come (tipme_recorder_release()),
 * or after freeze_timeout_s.
 *
 * Context: any but NMI.
 * Return: the frozen window's generation, 0 if freezing is off.
 */
u32 tipme_recorder_freeze(u64 t0, u32 seq)
{
	unsigned long flags;
	u64 khz = tipme_clock_khz();
	u32 gen;
	int cpu;

	if (!READ_ONCE(freeze_on_trigger))
		return 0;
	spin_lock_irqsave(&freeze_lock, flags);
	if (!freeze_gen) {
		if (tipme.pool)
			tipme_pool_freeze(tipme.pool, true);
		for_each_possible_cpu(cpu) {
			struct tipme_ring *r = per_cpu_ptr(tipme.rings, cpu);

			WRITE_ONCE(r->frozen, tipme_ring_oldest_seq(r,
						local_read(&r->reserve)));
		}
		/* generation 0 means "not frozen": skip it on wrapping */
		if (!++freeze_last_gen)
			++freeze_last_gen;
		freeze_gen = freeze_last_gen;
		freeze_ns_last = div64_u64((tipme_clock_now() - t0) * 1000000,
					   khz ? khz : 1);
		freezes++;
		freeze_seq = seq;
		mod_delayed_work(system_wq, &thaw_work,
				 READ_ONCE(freeze_timeout_s) * HZ);
	} else if ((s32)(seq - freeze_seq) > 0) {
		/* a later trigger's dump reads this window too */
		freeze_seq = seq;
	}
	gen = freeze_gen;
	spin_unlock_irqrestore(&freeze_lock, flags);
	return gen;
}

/**
 * tipme_recorder_frozen() - the frozen window's generation
 *
 * Context: any.
 * Return: it, or 0 if no window is frozen.
 */
u32 tipme_recorder_frozen(void)
{
	return READ_ONCE(freeze_gen);
}

/* Every ring writable again; the caller holds freeze_lock. */
static void thaw_locked(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(tipme.rings, cpu)->frozen,
			   TIPME_RING_THAWED);
	if (tipme.pool)
		tipme_pool_freeze(tipme.pool, false);
	freeze_gen = 0;
}

/**
 * tipme_recorder_thaw() - let writers overwrite the frozen window again
 * @gen: the generation read (a later window stays frozen); 0: any
 *
 * Context: any but NMI.
 */
void tipme_recorder_thaw(u32 gen)
{
	unsigned long flags;

	spin_lock_irqsave(&freeze_lock, flags);
	if (freeze_gen && (!gen || gen == freeze_gen))
		thaw_locked();
	spin_unlock_irqrestore(&freeze_lock, flags);
}

/**
 * tipme_recorder_release() - no dump will come for the triggers up to @seq
 * @seq: the newest trigger the reader gives up (not dumped: held back by
 *	its limits, lost, or its dump failed)
 *
 * Thaws the frozen window at once, and counts it, unless a trigger after
 * @seq froze it or came while it was frozen: that trigger's dump reads it.
 *
 * Context: any but NMI.
 * Return: true if a window was thawed.
 */
bool tipme_recorder_release(u32 seq)
{
	unsigned long flags;
	bool thawed = false;

	spin_lock_irqsave(&freeze_lock, flags);
	if (freeze_gen && (s32)(freeze_seq - seq) <= 0) {
		thaw_locked();
		freezes_released++;
		thawed = true;
	}
	spin_unlock_irqrestore(&freeze_lock, flags);
	return thawed;
}

/**
 * tipme_recorder_freeze_counts() - how windows were frozen and ended
 * @out: filled in
 *
 * Context: any.
 */
void tipme_recorder_freeze_counts(struct tipme_freeze_counts *out)
{
	unsigned long flags;

	spin_lock_irqsave(&freeze_lock, flags);
	out->gen = freeze_gen;
	out->freezes = freezes;
	out->expired = freezes_expired;
	out->released = freezes_released;
	spin_unlock_irqrestore(&freeze_lock, flags);
}

static void thaw_fn(struct work_struct *work)
{
	if (tipme_recorder_frozen()) {
		tipme_recorder_thaw(0);
		freezes_expired++;
		pr_info("no dump read the frozen window for %us: thawed\n",
			READ_ONCE(freeze_timeout_s));
	}
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
			 "version=%s\nbuffer_size=%llu\nsubbuf_size=%u\nsubbufs_per_cpu=%u\npool=%d\nclock=%s\nautostart=%d\nfreeze_on_trigger=%d\nfreeze_timeout_s=%u\nfrozen=%d\nfreezes=%lu\nfreezes_expired=%lu\nfreezes_released=%lu\nfreeze_ns_last=%llu\n",
			 TIPME_VERSION_STRING, tipme.buf_size,
			 1U << tipme.sub_shift, 1U << tipme.nsub_shift,
			 !!tipme.pool, tipme_clock_source() == TIPME_CLOCK_TSC ? "tsc" : "local",
			 autostart, READ_ONCE(freeze_on_trigger),
			 READ_ONCE(freeze_timeout_s), !!tipme_recorder_frozen(),
			 READ_ONCE(freezes), READ_ONCE(freezes_expired),
			 READ_ONCE(freezes_released), READ_ONCE(freeze_ns_last));
}

/* log2 of the sub-buffers in the pool (pool=1). */
static unsigned int pool_shift;

/*
 * fit_subbuf() - lower subbuf_size so that each of @cpus possible CPUs has
 * @min sub-buffers of its @per_cpu bytes, down to 4096 bytes.
 *
 * The default buffer (64M in 16 KiB sub-buffers) leaves fewer than two per
 * CPU above 2048 possible CPUs; a machine that big should still load the
 * module with its defaults rather than refuse.  The parameter shows the
 * size in use, so dumps and `tipme status` say what the rings really are.
 */
static void fit_subbuf(u64 per_cpu, unsigned int min, unsigned int cpus)
{
	unsigned int want = subbuf_size;

	while (want > 4096 && per_cpu < (u64)min * want)
		want >>= 1;
	if (want == subbuf_size)
		return;
	pr_info("subbuf_size=%u leaves fewer than %u sub-buffers per CPU for %u CPUs: using %u\n",
		subbuf_size, min, cpus, want);
	subbuf_size = want;
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
	fit_subbuf(per_cpu, pool ? 4 : 2, cpus);
	if (pool) {
		if (per_cpu < 4ULL * subbuf_size || total > (1ULL << 40)) {
			pr_err("buffer_size=%s: pool=1 needs at least four sub-buffers (%u bytes) per CPU for %u CPUs, and 1T at most\n",
			       buffer_size, 4 * subbuf_size, cpus);
			return -EINVAL;
		}
		tipme.sub_shift = ilog2(subbuf_size);
		/* The pool: a power of two of sub-buffers; each CPU's share. */
		pool_shift = ilog2(total >> tipme.sub_shift);
		tipme.nsub_shift = ilog2(per_cpu >> tipme.sub_shift);
		tipme.buf_size = 1ULL << (tipme.sub_shift + pool_shift);
		return 0;
	}
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

static struct tipme_pool the_pool;

static void rings_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		tipme_ring_free(per_cpu_ptr(tipme.rings, cpu));
	free_percpu(tipme.rings);
	if (tipme.pool)
		tipme_pool_free(tipme.pool);
	tipme.pool = NULL;
}

static int rings_alloc(void)
{
	int cpu, err;

	tipme.rings = tipme_fail_step("rings") ? NULL :
		      alloc_percpu(struct tipme_ring);
	if (!tipme.rings)
		return -ENOMEM;
	if (pool) {
		err = tipme_pool_init(&the_pool, tipme.sub_shift, pool_shift,
				      NUMA_NO_NODE);
		if (err) {
			pr_err("cannot allocate the pool's %llu KiB; load with a smaller buffer_size=\n",
			       tipme.buf_size >> 10);
			free_percpu(tipme.rings);
			return err;
		}
		tipme.pool = &the_pool;
	}
	for_each_possible_cpu(cpu) {
		struct tipme_ring *r = per_cpu_ptr(tipme.rings, cpu);

		err = tipme.pool ? tipme_ring_init_pool(r, cpu, tipme.pool) :
		      tipme_ring_init(r, cpu, tipme.sub_shift, tipme.nsub_shift);
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
	cancel_delayed_work_sync(&thaw_work);
	rings_free();
	tipme_clock_exit();
}
