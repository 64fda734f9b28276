// SPDX-License-Identifier: GPL-2.0
/*
 * GPU and sync probes: a dma_fence emitted (its work sent to a device),
 * signaled (the work done), and a thread's wait on one (dma_fence_emit,
 * dma_fence_signaled, dma_fence_wait_start, dma_fence_wait_end, in the
 * core kernel's drivers/dma-buf).
 *
 * A fence is its (context, seqno): a wait is joined to the signal that
 * ended it by the pair.  The driver and timeline names of a context are
 * interned: a TIPME_REC_FENCE_NAME is written on a CPU before that CPU's
 * first fence record of the context, and again before the first one more
 * than a second later (a small per-CPU cache of the contexts seen), so
 * the names cost ring space once a second per context and CPU, not per
 * fence.  Each tracepoint is attached if this kernel has it; one it lacks
 * is reported in the parameters, never a load failure.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-fence.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <trace/events/dma_fence.h>
#include "compat.h"
#include "recorder.h"
#include "instr/cost.h"
#include "probes/ctx.h"
#include "probes/display.h"
#include "probes/tracepoints.h"
#include "probes/work.h"

/* Contexts whose names a CPU remembers writing (a power of two). */
#define NAME_SLOTS_BITS	6
/* How long a name written stays good for its CPU. */
#define NAME_REFRESH	HZ

/**
 * struct name_slot - a context whose name this CPU wrote
 * @ctx: the fence context, 0 for an empty slot (contexts start at 1)
 * @when: jiffies of the TIPME_REC_FENCE_NAME
 */
struct name_slot {
	u64 ctx;
	unsigned long when;
};

/*
 * Per CPU, touched by its probes only; a probe that interrupts another
 * between its read and write of a slot makes at worst a second name record.
 */
static DEFINE_PER_CPU(struct name_slot[1 << NAME_SLOTS_BITS], name_cache);

static void name_copy(u8 *dst, size_t size, const char *src)
{
	size_t n = src ? strnlen(src, size - 1) : 0;

	if (n)
		memcpy(dst, src, n);
	memset(dst + n, 0, size - n);
}

/* Write the names of @f's context if this CPU has not lately. */
static void name_tell(struct dma_fence *f)
{
	struct name_slot *s = this_cpu_ptr(&name_cache[hash_64(f->context,
							NAME_SLOTS_BITS)]);
	u64 t0 = tipme_cost_now();
	struct tipme_rec_fence_name *r;
	struct tipme_wslot ws;

	if (s->ctx == f->context && time_before(jiffies, s->when + NAME_REFRESH))
		return;
	r = tipme_reserve(TIPME_REC_FENCE_NAME, sizeof(*r), &ws);
	if (!r)
		return;
	r->ctx_lo = (u32)f->context;
	r->ctx_hi = (u32)(f->context >> 32);
	rcu_read_lock();
	name_copy(r->driver, sizeof(r->driver), tipme_fence_driver_name(f));
	name_copy(r->timeline, sizeof(r->timeline),
		  tipme_fence_timeline_name(f));
	rcu_read_unlock();
	tipme_commit(&ws, TIPME_REC_FENCE_NAME);
	tipme_cost_add(TIPME_REC_FENCE_NAME, t0);
	s->ctx = f->context;
	s->when = jiffies;
}

static void fence_record(struct dma_fence *f, u32 op)
{
	u64 t0 = tipme_cost_now();
	u32 ctx = tipme_ctx_now();
	struct tipme_rec_fence *r;
	struct tipme_wslot ws;

	if (ctx != TIPME_CTX_TASK)
		tipme_intr_tell(ctx);
	name_tell(f);
	r = tipme_reserve(TIPME_REC_FENCE, sizeof(*r), &ws);
	if (!r)
		return;
	r->ctx_lo = (u32)f->context;
	r->ctx_hi = (u32)(f->context >> 32);
	r->seqno_lo = (u32)f->seqno;
	r->seqno_hi = (u32)((u64)f->seqno >> 32);
	r->who = tipme_work_who(current->pid, ctx);
	r->op = (u8)op;
	memset(r->reserved, 0, sizeof(r->reserved));
	tipme_commit(&ws, TIPME_REC_FENCE);
	tipme_cost_add(TIPME_REC_FENCE, t0);
}

static void probe_dma_fence_emit(void *data, struct dma_fence *f)
{
	fence_record(f, TIPME_FENCE_EMIT);
}

static void probe_dma_fence_signaled(void *data, struct dma_fence *f)
{
	fence_record(f, TIPME_FENCE_SIGNALED);
}

static void probe_dma_fence_wait_start(void *data, struct dma_fence *f)
{
	fence_record(f, TIPME_FENCE_WAIT_START);
}

static void probe_dma_fence_wait_end(void *data, struct dma_fence *f)
{
	fence_record(f, TIPME_FENCE_WAIT_END);
}

static struct tipme_probe fence_probes[] = {
	TIPME_PROBE(dma_fence_emit, probe_dma_fence_emit),
	TIPME_PROBE(dma_fence_signaled, probe_dma_fence_signaled),
	TIPME_PROBE(dma_fence_wait_start, probe_dma_fence_wait_start),
	TIPME_PROBE(dma_fence_wait_end, probe_dma_fence_wait_end),
};

static bool fence_enabled;

/**
 * tipme_fence_init() - attach to the dma_fence tracepoints this kernel has
 * @enabled: the module parameter asking for them
 *
 * Context: process context (module init).
 */
void tipme_fence_init(bool enabled)
{
	size_t i;

	fence_enabled = enabled;
	if (!enabled)
		return;
	tipme_probes_attach_found(fence_probes, ARRAY_SIZE(fence_probes));
	for (i = 0; i < ARRAY_SIZE(fence_probes); i++)
		if (!fence_probes[i].attached)
			pr_info("%s not attached: no records of it\n",
				fence_probes[i].name);
}

/**
 * tipme_fence_exit() - undo tipme_fence_init()
 *
 * Context: process context (module exit).
 */
void tipme_fence_exit(void)
{
	if (fence_enabled)
		tipme_probes_detach(fence_probes, ARRAY_SIZE(fence_probes));
	fence_enabled = false;
}

/**
 * tipme_fence_params_text() - "tp.NAME=STATE\n" lines of the fence probes
 * @buf: destination
 * @size: its size
 *
 * Context: any; between tipme_fence_init() and tipme_fence_exit().
 * Return: length written, as scnprintf().
 */
int tipme_fence_params_text(char *buf, size_t size)
{
	int n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fence_probes); i++) {
		const struct tipme_probe *p = &fence_probes[i];
		int state = !fence_enabled ? TIPME_TP_OFF :
			    p->attached ? TIPME_TP_ATTACHED :
			    p->tp ? TIPME_TP_FAILED : TIPME_TP_ABSENT;

		n += scnprintf(buf + n, size - n, "tp.%s=%s\n", p->name,
			       tipme_tp_state_name(state));
	}
	return n;
}
