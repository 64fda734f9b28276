/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the time of threads went by call chain: on the CPU, from the
 * profiler's samples (prof records: each stands for 1/hz seconds of its
 * CPU's rate); off the CPU, from the blocked stretches of state/ with the
 * user chain their sleep began with and their kernel site, each weighed by
 * the time it slept (as offcputime does).  Per thread: its stacks (frames
 * root first) and its functions, self (innermost frame) and total (on the
 * stack).  Frames are named as printed elsewhere: kernel functions by
 * symbol, user frames as file+offset (pm_fmt_uframe()).  Pure: incident
 * and state in, a struct pm_prof out; print/profile.h prints it.
 */
#ifndef TIPME_PM_ANALYSIS_PROFILE_H
#define TIPME_PM_ANALYSIS_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "../incident/incident.h"
#include "../state/state.h"

/**
 * struct pm_prof_stack - one distinct chain of one thread
 * @pid: the thread
 * @frames: indices into struct pm_prof.names, root (outermost user frame)
 *	first, the innermost (kernel) frame last
 * @nframes: how many (0: a sample with no chain kept)
 * @count: samples (on-CPU) or blocked stretches (off-CPU)
 * @ns: the time they stand for
 */
struct pm_prof_stack {
	uint32_t pid;
	uint32_t *frames;
	size_t nframes;
	uint64_t count;
	int64_t ns;
};

/**
 * struct pm_prof_func - one frame's share of a thread's time
 * @name: index into struct pm_prof.names
 * @self_ns: time it was the innermost frame
 * @total_ns: time it was on the stack (once per stack however often)
 * @self_n: samples (stretches) of @self_ns
 * @total_n: samples (stretches) of @total_ns
 */
struct pm_prof_func {
	uint32_t name;
	int64_t self_ns;
	int64_t total_ns;
	uint64_t self_n;
	uint64_t total_n;
};

/**
 * struct pm_prof_thread - one thread's profile
 * @pid: the thread
 * @tgid: its process (0: not known)
 * @comm: its name (the exec table's), or NULL
 * @count: samples (stretches)
 * @ns: the time they stand for
 * @funcs: its frames, by decreasing self time, then total, then name
 * @nfuncs: how many
 */
struct pm_prof_thread {
	uint32_t pid;
	uint32_t tgid;
	const char *comm;
	uint64_t count;
	int64_t ns;
	struct pm_prof_func *funcs;
	size_t nfuncs;
};

/**
 * struct pm_prof_filter - what to profile
 * @pid: a thread, or a process (every thread whose process it is); 0: all
 * @from_ns: start (CLOCK_MONOTONIC ns; INT64_MIN: the dump's start)
 * @to_ns: end (INT64_MAX: the dump's end)
 * @off_cpu: off-CPU time instead of on-CPU samples
 */
struct pm_prof_filter {
	uint32_t pid;
	int64_t from_ns;
	int64_t to_ns;
	int off_cpu;
};

/**
 * struct pm_prof - the profile
 * @f: the filter it was made with
 * @names: frame names, each once
 * @nnames: how many
 * @stacks: by thread (as @threads), then decreasing time, then frames
 * @nstacks: how many
 * @threads: by decreasing time, then pid
 * @nthreads: how many
 * @count: samples (stretches) in all
 * @ns: the time they stand for
 * @unweighed: samples before any rate was known (prof_rate, or the
 *	dump's profile_hz): counted, weighed 0
 * @hz: the sampling rate when one rate covered every sample, else 0
 */
struct pm_prof {
	struct pm_prof_filter f;
	char **names;
	size_t nnames;
	struct pm_prof_stack *stacks;
	size_t nstacks;
	struct pm_prof_thread *threads;
	size_t nthreads;
	uint64_t count;
	int64_t ns;
	uint64_t unweighed;
	uint32_t hz;
};

/**
 * pm_prof_compute() - profile an incident
 * @inc: the incident
 * @st: its rebuilt state (off-CPU mode reads its blocked stretches)
 * @f: what to profile
 * @p: result; release with pm_prof_free() (also after a failure)
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_prof_compute(const struct pm_incident *inc, const struct pm_state *st,
		    const struct pm_prof_filter *f, struct pm_prof *p,
		    struct tm_err *e);

/**
 * pm_prof_free() - release a profile
 * @p: the profile
 */
void pm_prof_free(struct pm_prof *p);

#endif
