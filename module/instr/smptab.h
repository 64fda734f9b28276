/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampler's memory of what it last wrote for each thread, and the
 * encoding of one thread's entry.  No kernel state is read here (that is
 * sampler.c), so KUnit can drive it.  Only the sampler's work item uses a
 * table: no locking.
 */
#ifndef TIPME_SMPTAB_H
#define TIPME_SMPTAB_H

#include <linux/types.h>
#include <linux/tipme.h>

/**
 * struct tipme_smp_task - what the sampler read of one thread
 * @pid: thread id
 * @tgid: process id
 * @state: enum tipme_task_state
 * @policy: scheduling policy
 * @prio: kernel priority
 * @on_cpu: running right now
 * @cpu: CPU it runs or last ran on
 * @runtime: CPU time consumed since it started, ns
 * @start_ns: when it started (tells a reused pid apart)
 */
struct tipme_smp_task {
	u32 pid;
	u32 tgid;
	u8 state;
	u8 policy;
	u8 prio;
	bool on_cpu;
	u16 cpu;
	u64 runtime;
	u64 start_ns;
};

/**
 * struct tipme_smp_ent - the last entry written for one thread
 * @pid: thread id, 0 for an empty slot
 * @tgid: process id
 * @word: struct tipme_sample_ent.word last written
 * @round: the last round that looked at the thread
 * @cpu: CPU last written
 * @prio: priority last written
 * @runtime: CPU time at the last entry
 * @start_ns: start time of the thread
 * @seen_ts: recorder timestamp of @round (sampler.c sets it)
 */
struct tipme_smp_ent {
	u32 pid;
	u32 tgid;
	u32 word;
	u32 round;
	u16 cpu;
	u8 prio;
	u64 runtime;
	u64 start_ns;
	u64 seen_ts;
};

/**
 * struct tipme_smptab - open-addressing hash of struct tipme_smp_ent by pid
 * @ents: @mask + 1 slots
 * @mask: slots - 1
 * @used: slots in use
 * @limit: most slots that may be used (keeps probe sequences short)
 */
struct tipme_smptab {
	struct tipme_smp_ent *ents;
	u32 mask;
	u32 used;
	u32 limit;
};

/* Most threads a table may be made or grown for: the pid space's limit */
#define TIPME_SMPTAB_MAX	(1U << 22)

int tipme_smptab_init(struct tipme_smptab *t, u32 threads);
int tipme_smptab_grow(struct tipme_smptab *t, u32 threads);
void tipme_smptab_free(struct tipme_smptab *t);
struct tipme_smp_ent *tipme_smptab_get(struct tipme_smptab *t, u32 pid,
				       bool create);
void tipme_smptab_del(struct tipme_smptab *t, struct tipme_smp_ent *e);
u32 tipme_smptab_sweep(struct tipme_smptab *t, u32 round);
/* tipme_smp_update()'s @how */
#define TIPME_SMPU_FULL		1	/* a full sample: write it whatever changed */
#define TIPME_SMPU_SWITCHED	2	/* it switched this round: records cover it */

bool tipme_smp_update(struct tipme_smp_ent *e, const struct tipme_smp_task *s,
		      unsigned int how, u32 round, struct tipme_sample_ent *out);
u32 tipme_smp_full_every(u32 full_ms, u32 threads, u32 budget);

#endif /* TIPME_SMPTAB_H */
