/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rebuilt state: for every thread, the stretches of time it spent running,
 * runnable (waiting for a CPU) or blocked, from the scheduler records, and
 * the gaps where records were lost.  The analyses (analysis/) take it as
 * input; it knows nothing of how results are shown.  Every time in it is
 * CLOCK_MONOTONIC ns, converted once when the records were decoded
 * (struct pm_event.ns): nothing above converts a recorder timestamp.
 */
#ifndef TIPME_PM_STATE_H
#define TIPME_PM_STATE_H

#include <stdint.h>

#include "../incident/incident.h"

enum pm_tstate {
	PM_T_UNKNOWN = 0,	/* before the first record that tells */
	PM_T_RUNNING,
	PM_T_RUNNABLE,		/* preempted, or woken and not yet on a CPU */
	PM_T_BLOCKED,		/* asleep: see @block_state */
};

#define PM_SITE_FRAMES	4

/**
 * struct pm_seg - one stretch of a thread's time
 * @start_ns: where it began, CLOCK_MONOTONIC ns
 * @end_ns: where it ended (the dump's end if it had not)
 * @site: where it blocked, innermost first (full addresses); @nsite of
 *	them, NULL when @nsite is 0.  A site is kept once in the state
 *	(struct pm_state's @site_chunks) for all the sleeps that began there
 * @waker: pid that woke it (blocked stretches ended by a wakeup), or -1.
 *	A waking record's pid has TIPME_PID_BITS bits, so it always fits
 * @ustack: the user-space call chain it blocked through, a number of the
 *	dump's user stack table (pm_ustack_get()); 0: none recorded
 * @cpu: CPU it ran on (running) or was queued for (runnable, if known)
 * @block_state: enum tipme_task_state when blocked
 * @prio: kernel priority (0..139) it ran at (running stretches)
 * @state: enum pm_tstate
 * @waker_ctx: enum tipme_ctx of that wakeup (tipme_waking_ctx(): 2 bits)
 * @woken: the runnable stretch began with a wakeup (not a preemption)
 * @nsite: frames in @site, at most PM_SITE_FRAMES
 *
 * There are millions of these in a big dump (they are most of the
 * postmortem's memory), so the small fields are bit-fields as wide as
 * the values they hold: 40 bytes in all.
 */
struct pm_seg {
	int64_t start_ns;
	int64_t end_ns;
	const uint64_t *site;
	int32_t waker;
	uint32_t ustack;
	uint32_t cpu;
	uint8_t block_state;
	uint8_t prio;
	unsigned int state : 2;
	unsigned int waker_ctx : 2;
	unsigned int woken : 1;
	unsigned int nsite : 3;
};

_Static_assert(sizeof(struct pm_seg) <= 40, "struct pm_seg grew: it is most of a big dump's memory");
_Static_assert(PM_T_BLOCKED < 4, "struct pm_seg's @state is 2 bits");
_Static_assert(PM_SITE_FRAMES < 8, "struct pm_seg's @nsite is 3 bits");
_Static_assert(TIPME_PID_MASK <= INT32_MAX, "struct pm_seg's @waker is an int32_t");

/**
 * struct pm_thread - one thread's stretches, in time order
 * @pid: thread id
 * @segs: stretches
 * @nsegs: how many
 * @cap: allocated
 * @pend: while the state is built: a wakeup came while the thread was
 *	still on its CPU (@pend_waker, @pend_ctx, @pend_cpu)
 * @dropped: while checkpoints are made (pm_ckpts_grid()): stretches
 *	forgotten before @segs[0]
 * @ev_last: by enum tipme_ckpt_ev (<linux/tipme.h>, the first
 *	TIPME_CKPT_THREAD_EVS): the time of the thread's last such event
 *	the builder read, 0 none (from the records it read: not what came
 *	before a checkpoint it was restored from); in a checkpoint read
 *	from a file, their order only (as bigger, smaller or equal: the
 *	times are not kept)
 * @ev_next: in a checkpoint only: the time of its first such event at or
 *	after the checkpoint, 0 none
 */
struct pm_thread {
	uint32_t pid;
	struct pm_seg *segs;
	size_t nsegs;
	size_t cap;
	uint64_t dropped;
	uint8_t pend, pend_ctx;
	uint8_t tent;	/* runnable since a kept wakeup ended its sleep at once */
	uint32_t pend_cpu;
	int64_t pend_waker;
	int64_t ev_last[TIPME_CKPT_THREAD_EVS];
	int64_t ev_next[TIPME_CKPT_THREAD_EVS];
};

/**
 * struct pm_loss - records of one CPU missing from the dump
 * @cpu: the CPU
 * @since_ns: time of its last record before the gap (CLOCK_MONOTONIC
 *	ns), 0 if none (the gap is before its first record)
 * @until_ns: time of its first record after the gap (or of the last
 *	before it, at the end of its stream)
 * @first_seq: first missing sub-buffer
 * @subbufs: how many sub-buffers are missing
 */
struct pm_loss {
	uint32_t cpu;
	int64_t since_ns;
	int64_t until_ns;
	uint64_t first_seq;
	uint64_t subbufs;
};

/**
 * struct pm_psample - one sample of the on-CPU profiler (a prof record)
 * @ns: when the timer interrupted the thread, CLOCK_MONOTONIC ns
 * @pid: the thread
 * @site: its kernel chain, a number of the dump's site table (0: none)
 * @ustack: its user chain, a number of the user stack table (0: none)
 */
struct pm_psample {
	int64_t ns;
	uint32_t pid;
	uint32_t site;
	uint32_t ustack;
};

/**
 * struct pm_state - every thread seen in a dump
 * @threads: sorted by pid after pm_state_build()
 * @nthreads: how many
 * @first_ns: earliest record, CLOCK_MONOTONIC ns (every time of the
 *	state is: converted once, when the records were decoded)
 * @last_ns: latest record
 * @lost: the dump has gaps (lost sub-buffers): @nlosses > 0
 * @trigger_ns: the latest trigger record (not a coalesced one), or 0
 * @losses: every gap, in time order (of @until_ns)
 * @nlosses: how many
 * @site_chunks: where the stretches' sites are kept (each site once)
 * @nsite_chunks: how many chunks
 * @samples: the on-CPU profiler's samples, by thread, then time
 * @nsamples: how many
 */
struct pm_state {
	struct pm_thread *threads;
	size_t nthreads;
	int64_t first_ns;
	int64_t last_ns;
	int lost;
	int64_t trigger_ns;
	struct pm_loss *losses;
	size_t nlosses;
	uint64_t **site_chunks;
	size_t nsite_chunks;
	struct pm_psample *samples;
	size_t nsamples;
};

/**
 * struct pm_span - a thread and a stretch of its time
 * @pid: the thread
 * @from_ns: start, CLOCK_MONOTONIC ns
 * @to_ns: end
 */
struct pm_span {
	uint32_t pid;
	int64_t from_ns;
	int64_t to_ns;
};

/**
 * pm_state_build() - rebuild every thread's stretches
 * @st: result; release with pm_state_free()
 * @inc: an open incident (its kernel dump)
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_state_build(struct pm_state *st, const struct pm_incident *inc,
		   struct tm_err *e);

/**
 * pm_state_build_range() - rebuild the stretches from a time range's
 *	records only
 * @st: result; release with pm_state_free()
 * @inc: an open incident (its kernel dump)
 * @from_ns: CLOCK_MONOTONIC ns of the first record read (INT64_MIN: the
 *	dump's first)
 * @to_ns: of the last (INT64_MAX: the dump's last)
 * @e: error message
 *
 * Reads the sub-buffers' headers (pm_index_scan()) and decodes only the
 * sub-buffers of the range (pm_merge_range()), so its cost is the
 * range's, not the dump's.  Not the whole dump's state: @st's first and
 * last record, trigger and @losses are the range's (@lost is the whole
 * dump's: a gap in a CPU's sub-buffer numbers); a thread's stretch
 * open at @from_ns starts at its first record in the range (a thread
 * first seen leaving a CPU ran there since that CPU's first record in
 * the range), and one open at @to_ns ends there.  Every other stretch
 * (begun and ended inside the range) is the whole dump's
 * (tests/unit/test_staterange.c).  The whole range is pm_state_build().
 *
 * Return: 0 or a negative errno.
 */
int pm_state_build_range(struct pm_state *st, const struct pm_incident *inc,
			 int64_t from_ns, int64_t to_ns, struct tm_err *e);

struct pm_merge;

/**
 * pm_state_merge_open() - the merge pm_state_build_range() reads
 * @mg: result; read with pm_merge_next(), release with pm_merge_free()
 * @inc: an open incident
 * @from_ns: as pm_state_build_range()'s
 * @to_ns: as pm_state_build_range()'s
 * @gaps: set to 1 when a range is read and a CPU's stream misses
 *	sub-buffers anywhere in the dump (the builder sees only the range's)
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_state_merge_open(struct pm_merge *mg, const struct pm_incident *inc,
			int64_t from_ns, int64_t to_ns, int *gaps, struct tm_err *e);

/*
 * pm_state_build() in steps, for a reader that hands the same merged
 * records to other builders too (pm_state_res_build(), resources.h):
 * pm_state_bld_new(), pm_state_bld_event() for every event of
 * pm_merge_next() in its order, pm_state_bld_end() (also after a
 * failure, then with @failed set: @st is released).  Each returns 0 or
 * a negative errno with @e set (pm_state_bld_end(): -ENOMEM, @st released).
 */
struct pm_state_bld;
struct pm_event;

int pm_state_bld_new(struct pm_state_bld **b, struct pm_state *st,
		     const struct pm_incident *inc, struct tm_err *e);
int pm_state_bld_event(struct pm_state_bld *b, const struct pm_event *ev,
		       struct tm_err *e);
int pm_state_bld_end(struct pm_state_bld *b, int failed);

/*
 * Checkpoints: the builder's state at chosen moments, from one pass over
 * the whole dump that keeps no more than each thread's last two stretches
 * (its memory is the threads', not the dump's), so that a build of a
 * time range starts from the exact state there instead of from nothing.
 */
struct pm_ckpts;

void pm_ckpts_free(struct pm_ckpts *ck);

/**
 * pm_ckpts_presses() - every key or button press of the dump
 * @ck: checkpoints
 * @ns: set to their input records' times, CLOCK_MONOTONIC ns, in time
 *	order
 * @readers: set to the process that read each (0: none found), or NULL
 *	when not set yet (pm_ckpts_set_readers())
 *
 * What a bounded build leaves out and an analysis of the whole dump
 * still needs: who received input (analysis/rank.c).
 *
 * Return: how many.
 */
size_t pm_ckpts_presses(const struct pm_ckpts *ck, const int64_t **ns,
			const uint32_t **readers);

/**
 * pm_ckpts_set_readers() - who read each press, for the file to keep
 * @ck: checkpoints
 * @readers: one process per press (pm_ckpts_presses()), 0 for none;
 *	@ck owns it from now on (malloc()ed)
 *
 * The state layer cannot say who read a press (analysis/kinput.c can,
 * from a build around it): its caller does once, and the file
 * (pm_ckpts_save()) keeps the answer for every later command.
 */
void pm_ckpts_set_readers(struct pm_ckpts *ck, uint32_t *readers);

/* pm_ckpts_count(): how many checkpoints @ck holds (0 for NULL) */
size_t pm_ckpts_count(const struct pm_ckpts *ck);

/* pm_ckpts_every(): about this many checkpoints spread over a dump */
#define PM_CKPTS_SPREAD		64
/* and never closer than this many events */
#define PM_CKPTS_MIN_EVERY	256

/**
 * pm_ckpts_grid() - one pass over the dump, checkpoints spread evenly
 * @ck: result; release with pm_ckpts_free()
 * @inc: an open incident
 * @every: a checkpoint before every @every-th event (pm_ckpts_every())
 * @e: error message
 *
 * Every checkpoint is kept, each where the same dump always has it: a
 * build restored from one reads the same records, whether the
 * checkpoints were made now or read from a file (pm_ckpts_load()).
 * Also keeps the whole dump's facts (first and last record, latest
 * trigger, every loss: pm_ckpts_whole()).
 *
 * Return: 0 or a negative errno.
 */
int pm_ckpts_grid(struct pm_ckpts **ck, const struct pm_incident *inc,
		  uint64_t every, struct tm_err *e);

/**
 * pm_ckpts_every() - the events between two checkpoints of a dump
 * @inc: an open incident
 *
 * Return: about PM_CKPTS_SPREAD checkpoints over the dump's records, as
 * its streams' bytes tell before they are read, and at least
 * PM_CKPTS_MIN_EVERY events apart.
 */
uint64_t pm_ckpts_every(const struct pm_incident *inc);

/**
 * pm_ckpts_save() - keep checkpoints in a file (TIPME_SEC_CKPT)
 * @ck: checkpoints of @inc, all final (pm_ckpts_grid()'s)
 * @inc: the incident they are of
 * @path: the file, written whole under another name, then renamed
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_ckpts_save(const struct pm_ckpts *ck, const struct pm_incident *inc,
		  const char *path, struct tm_err *e);

/**
 * pm_ckpts_load() - checkpoints pm_ckpts_save() kept
 * @ck: result; release with pm_ckpts_free()
 * @inc: the incident they must be of
 * @path: the file
 * @e: error message
 *
 * Return: 0; -ENOENT without the file; -ESTALE when it is of another
 * dump (its size or its sections' CRCs differ); another negative errno
 * when it is not a valid file (pm_ckpts_parse()).
 */
int pm_ckpts_load(struct pm_ckpts **ck, const struct pm_incident *inc,
		  const char *path, struct tm_err *e);

/**
 * pm_ckpts_parse() - read a TIPME_SEC_CKPT section's payload
 * @ck: result; release with pm_ckpts_free()
 * @buf: the payload (any bytes: every count is checked against its size)
 * @len: its size
 * @e: error message
 *
 * Return: 0 or a negative errno (-EINVAL for malformed bytes, -EPROTO
 * for another version).
 */
int pm_ckpts_parse(struct pm_ckpts **ck, const void *buf, size_t len,
		   struct tm_err *e);

/**
 * pm_ckpts_whole() - the whole dump's facts a checkpoint pass kept
 * @ck: checkpoints
 *
 * Return: a state whose first_ns, last_ns, trigger_ns, lost and losses
 * are the whole dump's (pm_state_build()'s); its threads keep only
 * their last two stretches.
 */
const struct pm_state *pm_ckpts_whole(const struct pm_ckpts *ck);

/**
 * pm_ckpts_end() - where the default window ends: the dump's latest
 *	trigger, else its last record
 * @ck: checkpoints
 *
 * Return: CLOCK_MONOTONIC ns.
 */
int64_t pm_ckpts_end(const struct pm_ckpts *ck);

/**
 * struct pm_ckpt_evs - what a checkpoint knows of the events tipme legs
 *	pairs (enum tipme_ckpt_ev, <linux/tipme.h>)
 * @ns: where it stands: every record before it is summed up in it, none
 *	at or after it (CLOCK_MONOTONIC ns)
 * @threads: every thread seen before it (@nthreads), with their
 *	@ev_last (compare a thread's only with its own) and @ev_next
 * @nthreads: how many
 * @last: by enum tipme_ckpt_ev, the machine's last such event before @ns,
 *	0 none
 * @next: its first at or after @ns, 0 none
 */
struct pm_ckpt_evs {
	int64_t ns;
	const struct pm_thread *threads;
	size_t nthreads;
	const int64_t *last;
	const int64_t *next;
};

/**
 * pm_ckpts_evs() - the checkpoints around a time range, for a reader of
 *	its records that must know what came before and after them
 * @ck: checkpoints
 * @from_ns: CLOCK_MONOTONIC ns
 * @to_ns: CLOCK_MONOTONIC ns, not before @from_ns
 * @before: set to the last checkpoint at or before @from_ns; @ns
 *	INT64_MIN and nothing else set when there is none (read from the
 *	dump's start)
 * @after: set to the first checkpoint after @to_ns; @ns INT64_MAX and
 *	nothing else set when there is none (read to the dump's end)
 *
 * Reading the records of [@before->ns, @after->ns) then reads every
 * record of [@from_ns, @to_ns].
 */
void pm_ckpts_evs(const struct pm_ckpts *ck, int64_t from_ns, int64_t to_ns,
		  struct pm_ckpt_evs *before, struct pm_ckpt_evs *after);

/**
 * pm_state_bld_restore() - start a builder from a checkpoint
 * @b: a builder just made by pm_state_bld_new()
 * @ck: checkpoints of the same incident
 * @from_ns: the builder must know the state from here on
 * @to_ns: and up to here (INT64_MAX: the dump's end)
 * @start_ns: set to where the records to hand it begin: the last
 *	checkpoint at or before @from_ns, or INT64_MIN (none: the dump's
 *	start)
 * @end_ns: set to where they end: before the first checkpoint after
 *	@to_ns, or INT64_MAX (none: the dump's end)
 * @e: error message
 *
 * Fed the events of [@start_ns, @end_ns] (pm_state_merge_open()),
 * pm_state_bld_end() then gives a state whose stretches from @start_ns
 * to @end_ns are the whole dump's: every thread's open stretch at
 * @start_ns included, however long before it began, and the stretch
 * before that one; each thread's stretch open at @end_ns (and the one
 * before it) as the whole dump's build ends it, later; first and last
 * record, trigger and losses the whole dump's.  It has no stretch that
 * ended before @start_ns or began after @end_ns, and no profiler sample
 * outside them.
 *
 * Return: 0 or a negative errno.
 */
int pm_state_bld_restore(struct pm_state_bld *b, const struct pm_ckpts *ck,
			 int64_t from_ns, int64_t to_ns, int64_t *start_ns,
			 int64_t *end_ns, struct tm_err *e);

/**
 * pm_state_build_ckpt() - the state of a time range, from a checkpoint
 * @st: result; release with pm_state_free()
 * @inc: an open incident
 * @ck: its checkpoints
 * @from_ns: as pm_state_bld_restore()'s
 * @to_ns: as pm_state_bld_restore()'s
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_state_build_ckpt(struct pm_state *st, const struct pm_incident *inc,
			const struct pm_ckpts *ck, int64_t from_ns, int64_t to_ns,
			struct tm_err *e);
void pm_state_free(struct pm_state *st);
const struct pm_thread *pm_state_thread(const struct pm_state *st,
					uint32_t pid);

/**
 * pm_state_samples() - a thread's profiler samples from a moment on
 * @st: the state
 * @pid: the thread
 * @ns: CLOCK_MONOTONIC ns
 * @n: set to how many samples of @pid follow, in time order
 *
 * Return: the first sample of @pid at or after @ns (@n of them), or NULL
 * (@n 0) when it has none.
 */
const struct pm_psample *pm_state_samples(const struct pm_state *st, uint32_t pid,
					  int64_t ns, size_t *n);

/**
 * pm_seg_first() - where a walk over a thread's stretches from a moment on
 *	starts
 * @t: the thread, or NULL
 * @ns: CLOCK_MONOTONIC ns
 *
 * A thread's stretches follow one another: both their starts and their
 * ends never go back, so every stretch before the one returned ended by
 * @ns and has nothing in an interval that begins there.
 *
 * Return: the index of the first stretch of @t that ends after @ns
 * (@t->nsegs if none, 0 for NULL).
 */
size_t pm_seg_first(const struct pm_thread *t, int64_t ns);

/**
 * pm_ran_through() - whether a thread ran on a CPU without a break over a time
 * @st: the state
 * @pid: the thread
 * @cpu: the CPU
 * @t0: from, CLOCK_MONOTONIC ns
 * @t1: to (either order)
 *
 * Return: 1 if one running stretch of @pid on @cpu covers both moments.
 */
int pm_ran_through(const struct pm_state *st, uint32_t pid, uint32_t cpu, int64_t t0,
		   int64_t t1);

/**
 * pm_seg_overlap() - how much of a stretch lies inside an interval
 * @s: the stretch
 * @t0: start of the interval, CLOCK_MONOTONIC ns
 * @t1: its end
 *
 * Return: ns of @s inside [@t0, @t1], 0 if none.
 */
int64_t pm_seg_overlap(const struct pm_seg *s, int64_t t0, int64_t t1);

#endif
