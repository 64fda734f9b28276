/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder's clock: the TSC where it is constant and nonstop, else
 * local_clock() in ns.  Dumps carry the choice and (ts, CLOCK_MONOTONIC,
 * CLOCK_REALTIME) pairs so every record maps to both.
 */
#ifndef TIPME_CLOCK_H
#define TIPME_CLOCK_H

#include <linux/jump_label.h>
#include <linux/sched/clock.h>
/*
 * rdtsc(), rdtsc_ordered(): in <asm/tsc.h> after 6.12 ("x86/msr: Move
 * rdtsc{,_ordered}() to <asm/tsc.h>"); before, it has them from <asm/msr.h>
 */
#include <asm/tsc.h>
#include <linux/tipme.h>

DECLARE_STATIC_KEY_TRUE(tipme_clock_is_tsc);

/* Context: any; used inside the ring's reservation loop. */
static __always_inline u64 tipme_clock_now(void)
{
	if (static_branch_likely(&tipme_clock_is_tsc))
		return rdtsc_ordered();
	return local_clock();
}

#define TIPME_CLOCK_PAIRS	64	/* one a second: a minute of history */

int tipme_clock_init(const char *mode);
void tipme_clock_exit(void);
enum tipme_clock_source tipme_clock_source(void);
u64 tipme_clock_khz(void);
void tipme_clock_sample(struct tipme_clock_pair *p);
void tipme_clock_record(void);
size_t tipme_clock_pairs(struct tipme_clock_pair *out, size_t max);

#endif /* TIPME_CLOCK_H */
