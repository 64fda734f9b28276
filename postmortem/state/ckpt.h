/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checkpoints' insides (state.h: pm_ckpts_grid()), for the two files
 * that make them: state.c, from a pass over the dump, and ckptfile.c,
 * from the file beside the dump that keeps them (TIPME_SEC_CKPT).
 * Include state.h first: this header adds to it (and does not include
 * it, so that state.c's own use of it is no circle).
 */
#ifndef TIPME_PM_CKPT_H
#define TIPME_PM_CKPT_H

/*
 * One checkpoint: the builder between two events of the whole merge
 * (every event before @ns read, none at or after it).  Each thread keeps
 * its last two stretches (all the builder reads: the current one, and
 * the sleep before a runnable one a wakeup began), their sites pointing
 * into the pass's own chunks (struct pm_ckpts' @whole).
 */
struct pm_ckpt {
	int64_t ns;
	int64_t at;		/* the moment it stands for (no event in [@at, @ns)) */
	struct pm_thread *threads;
	size_t nthreads;
	int64_t *first;		/* the builder's struct cpu_span */
	int64_t *last;
	int64_t first_ns;
	int64_t last_ns;
	int64_t trigger_ns;
	size_t nlosses;		/* @whole's first ones */
	int have;
	struct pm_seg *fin;	/* each thread's stretches as the whole dump ends them */
	size_t *fin_off;	/* where each thread's begin in @fin (a pass's only) */
	size_t nfin;		/* how many of them are final yet */
	size_t nsegs;		/* of all threads */
	int64_t ev_last[TIPME_CKPT_EVS];	/* the machine's (struct pm_ckpt_evs) */
	int64_t ev_next[TIPME_CKPT_EVS];
};

/*
 * @c: the checkpoints, in time order (@n of them)
 * @ncs: the builder's CPU numbers (struct cpu_span's @n)
 * @every: events between two of the even spread (pm_ckpts_grid()), 0 none
 * @whole: the whole dump's facts (pm_ckpts_whole()); its site chunks
 *	hold every checkpoint's sites
 * @presses: the time of every key or button press the dump's input
 *	records hold, in time order (pm_ckpts_presses())
 * @npresses: how many
 * @cap_presses: room for
 * @readers: the process that read each press (0: none found), which the
 *	caller works out and sets (pm_ckpts_set_readers()), or NULL
 */
struct pm_ckpts {
	struct pm_ckpt *c;
	size_t n;
	uint32_t ncs;
	uint64_t every;
	struct pm_state whole;
	int64_t *presses;
	size_t npresses, cap_presses;
	uint32_t *readers;
};

#endif
