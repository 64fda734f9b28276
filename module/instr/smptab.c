// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler's per-thread memory (linear probing, deletion by backward
 * shift) and the rule deciding what a sample writes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "fault.h"
#include "instr/smptab.h"

static u32 slot_of(const struct tipme_smptab *t, u32 pid)
{
	return hash_32(pid, 31) & t->mask;
}

/**
 * tipme_smptab_init() - allocate a table for @threads threads
 * @t: the table
 * @threads: threads it must hold; it gets twice as many slots
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL or -ENOMEM.
 */
int tipme_smptab_init(struct tipme_smptab *t, u32 threads)
{
	u32 slots;

	if (!threads || threads > TIPME_SMPTAB_MAX)
		return -EINVAL;
	slots = roundup_pow_of_two(2 * threads);
	t->ents = tipme_fail_step("sample table") ? NULL :
		  vzalloc(array_size(slots, sizeof(*t->ents)));
	if (!t->ents)
		return -ENOMEM;
	t->mask = slots - 1;
	t->used = 0;
	t->limit = threads;
	return 0;
}

/**
 * tipme_smptab_grow() - make room for @threads threads, keeping every entry
 * @t: the table
 * @threads: threads it must hold from now on, more than @t->limit
 *
 * A new table of twice @threads slots replaces the old one; entries are
 * moved to their slots in it.  On failure @t is left as it was.
 *
 * Context: the sampler, process context (may sleep), outside a round.
 * Return: 0, -EINVAL (@threads too many or not more) or -ENOMEM.
 */
int tipme_smptab_grow(struct tipme_smptab *t, u32 threads)
{
	struct tipme_smptab n;
	u32 i;
	int err;

	if (threads <= t->limit)
		return -EINVAL;
	err = tipme_smptab_init(&n, threads);
	if (err)
		return err;
	for (i = 0; i <= t->mask; i++) {
		const struct tipme_smp_ent *e = &t->ents[i];

		if (e->pid)
			*tipme_smptab_get(&n, e->pid, true) = *e;
	}
	vfree(t->ents);
	*t = n;
	return 0;
}

/**
 * tipme_smptab_free() - free a table
 * @t: the table
 *
 * Context: process context.
 */
void tipme_smptab_free(struct tipme_smptab *t)
{
	vfree(t->ents);
	t->ents = NULL;
}

/**
 * tipme_smptab_get() - the entry of thread @pid
 * @t: the table
 * @pid: thread id, not 0
 * @create: make an empty entry (all but @pid zero) if there is none
 *
 * Context: the sampler.
 * Return: the entry, or NULL if there is none (and none was made: not
 * asked, or the table is full).
 */
struct tipme_smp_ent *tipme_smptab_get(struct tipme_smptab *t, u32 pid,
				       bool create)
{
	u32 i = slot_of(t, pid);

	for (;; i = (i + 1) & t->mask) {
		struct tipme_smp_ent *e = &t->ents[i];

		if (e->pid == pid)
			return e;
		if (e->pid)
			continue;
		if (!create || t->used >= t->limit)
			return NULL;
		memset(e, 0, sizeof(*e));
		e->pid = pid;
		t->used++;
		return e;
	}
}

/**
 * tipme_smptab_del() - remove an entry
 * @t: the table
 * @e: the entry; afterwards its slot may hold another thread's entry
 *
 * Context: the sampler.
 */
void tipme_smptab_del(struct tipme_smptab *t, struct tipme_smp_ent *e)
{
	u32 i = e - t->ents, j = i, k;

	for (;;) {
		j = (j + 1) & t->mask;
		if (!t->ents[j].pid)
			break;
		k = slot_of(t, t->ents[j].pid);
		/* Leave it if its home is cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		t->ents[i] = t->ents[j];
		i = j;
	}
	memset(&t->ents[i], 0, sizeof(t->ents[i]));
	t->used--;
}

/**
 * tipme_smptab_sweep() - forget threads a round did not see
 * @t: the table
 * @round: the round (a full one: every live thread was looked at)
 *
 * Context: the sampler.
 * Return: entries removed.
 */
u32 tipme_smptab_sweep(struct tipme_smptab *t, u32 round)
{
	u32 i = 0, n = 0;

	while (i <= t->mask) {
		struct tipme_smp_ent *e = &t->ents[i];

		if (e->pid && e->round != round) {
			tipme_smptab_del(t, e);
			n++;
			continue;	/* the slot may hold a moved entry */
		}
		i++;
	}
	return n;
}

/**
 * tipme_smp_update() - compare a thread with its last entry
 * @e: its entry (fresh from tipme_smptab_get(): round 0)
 * @s: what was read of it now
 * @how: TIPME_SMPU_*: a full sample (write it whatever changed); the
 *       thread switched this round
 * @round: this round, not 0
 * @out: the entry to write
 *
 * A thread is written when it is new (or its pid was reused), when its
 * state, policy, on-CPU bit, CPU, priority or process changed, when it ran
 * (CPU time grew) without switching (the switch records of one that did
 * say when it ran), and in every full sample.  @out's runtime is the CPU
 * time since the previous entry, or since the thread started for a new
 * one (TIPME_SMP_NEW), so what a thread ran between its entries adds up
 * whatever rounds it was left out of.
 *
 * Context: the sampler.
 * Return: true if @out should be written.
 */
bool tipme_smp_update(struct tipme_smp_ent *e, const struct tipme_smp_task *s,
		      unsigned int how, u32 round, struct tipme_sample_ent *out)
{
	bool full = how & TIPME_SMPU_FULL;
	bool switched = how & TIPME_SMPU_SWITCHED;
	u32 word = tipme_smp_word(s->pid, s->state, s->policy, s->on_cpu);
	bool fresh = !e->round || e->start_ns != s->start_ns ||
		     s->runtime < e->runtime;
	u64 delta = fresh ? s->runtime : s->runtime - e->runtime;
	bool changed;

	changed = fresh || full || (delta && !switched) || word != e->word ||
		  s->cpu != e->cpu || s->prio != e->prio || s->tgid != e->tgid;
	e->round = round;
	if (!changed)
		return false;
	out->word = word;
	out->tgid = s->tgid;
	out->runtime = min_t(u64, delta, U32_MAX);
	out->cpu = s->cpu;
	out->prio = s->prio;
	out->flags = (fresh ? TIPME_SMP_NEW : 0) |
		     (delta > U32_MAX ? TIPME_SMP_RUNTIME_SAT : 0);
	e->tgid = s->tgid;
	e->word = word;
	e->cpu = s->cpu;
	e->prio = s->prio;
	e->runtime = s->runtime;
	e->start_ns = s->start_ns;
	return true;
}

/**
 * tipme_smp_full_every() - the time between full rounds
 * @full_ms: sample_full_ms
 * @threads: threads the last full round looked at
 * @budget: threads full rounds may write per @full_ms (0: no limit)
 *
 * A full round writes every thread, so its cost and its bytes grow with
 * the threads.  Past @budget threads, full rounds come once every whole
 * multiple of @full_ms that brings them back to @budget threads per
 * @full_ms: with 20,000 threads and a budget of 2,048, every 10 @full_ms.
 * A thread that does not run is then in a sample that much less often;
 * one that runs is in the switch records and the rounds between.
 *
 * Context: any.
 * Return: ms, at least @full_ms, at most U32_MAX.
 */
u32 tipme_smp_full_every(u32 full_ms, u32 threads, u32 budget)
{
	u64 every;

	if (!budget || threads <= budget)
		return full_ms;
	every = (u64)full_ms * ((threads + (u64)budget - 1) / budget);
	return every > U32_MAX ? U32_MAX : (u32)every;
}
