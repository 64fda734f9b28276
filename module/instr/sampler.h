/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The periodic sampler of every thread's state.  The sched_switch probe
 * feeds it a per-CPU log of the threads that left a CPU, so a round only
 * looks at threads that ran; every sample_full_ms it looks at all of them.
 */
#ifndef TIPME_SAMPLER_H
#define TIPME_SAMPLER_H

#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/types.h>

#define TIPME_SWLOG_SIZE	1024	/* power of two */
#define TIPME_SWLOG_RECENT	64	/* power of two */

/**
 * struct tipme_swlog - one CPU's log of threads switched out
 * @prod: entries ever written; only this CPU's sched_switch writes it
 * @cur_pid: the thread this CPU switched to last
 * @round: the sampler round @recent belongs to
 * @recent: threads already logged this round (a lossy filter)
 * @pids: the log, a ring of TIPME_SWLOG_SIZE thread ids
 */
struct tipme_swlog {
	unsigned long prod;
	u32 cur_pid;
	u32 round;
	u32 recent[TIPME_SWLOG_RECENT];
	u32 pids[TIPME_SWLOG_SIZE];
};

extern struct tipme_swlog __percpu *tipme_swlog;
extern u32 tipme_sampler_round;

/**
 * tipme_sampler_switch() - note a context switch for the sampler
 * @prev_pid: thread leaving the CPU (0: idle)
 * @next_pid: thread entering it
 *
 * Context: the sched_switch probe (interrupts disabled, so no other
 * writer of this CPU's log can interleave).
 */
static __always_inline void tipme_sampler_switch(u32 prev_pid, u32 next_pid)
{
	struct tipme_swlog *l;
	u32 round, h;

	if (!tipme_swlog)
		return;
	l = this_cpu_ptr(tipme_swlog);
	WRITE_ONCE(l->cur_pid, next_pid);
	if (!prev_pid)
		return;
	round = READ_ONCE(tipme_sampler_round);
	if (unlikely(l->round != round)) {
		memset(l->recent, 0, sizeof(l->recent));
		l->round = round;
	}
	h = hash_32(prev_pid, ilog2(TIPME_SWLOG_RECENT));
	if (l->recent[h] == prev_pid)
		return;
	l->recent[h] = prev_pid;
	WRITE_ONCE(l->pids[l->prod & (TIPME_SWLOG_SIZE - 1)], prev_pid);
	/* Publish the entry: the sampler reads prod with acquire. */
	smp_store_release(&l->prod, l->prod + 1);
}

int tipme_sampler_init(unsigned int period_ms, unsigned int full_ms,
		       unsigned int full_threads, unsigned int threads);
void tipme_sampler_start(void);
void tipme_sampler_exit(void);
int tipme_sampler_params_text(char *buf, size_t size);
void *tipme_sampler_snapshot(size_t *len);

#endif /* TIPME_SAMPLER_H */
