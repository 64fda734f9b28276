/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot functions of a thread's computing (hot.c): from the on-CPU
 * profiler's samples the state keeps (struct pm_psample), those inside
 * the stretches an analysis found it running, gathered by the innermost
 * frame they were taken in: the user-space function (named as
 * dump/usym.h names it, else the file and offset), or the kernel's when
 * the sample has no user chain (a kernel thread).  Each with its samples,
 * and the callers above it that most of its samples had.  Pure: state in,
 * a struct pm_hot out; the verdict (report) and why use it.
 */
#ifndef TIPME_PM_ANALYSIS_HOT_H
#define TIPME_PM_ANALYSIS_HOT_H

#include <stddef.h>
#include <stdint.h>

#include "../incident/incident.h"
#include "../state/state.h"

/* Functions kept per thread, and callers shown per function. */
#define PM_HOT_TOP	5
#define PM_HOT_CALLERS	2

/**
 * struct pm_hot_fn - one function samples were taken in
 * @func: its name: the function whose code the address is (code inlined
 *	into it counts as its own), else "module+0xOFFSET" (no symbol covers
 *	it), else the address; a kernel function's name for a sample without
 *	a user chain
 * @file: its source file as DWARF names it, or NULL
 * @module: the mapped file's last component ("app", "libc.so.6"), or NULL
 *	(no mapping, or @kernel)
 * @kernel: the sample had no user chain: @func is the kernel's
 * @n: samples taken in it
 * @callers: the frames above it in most of those samples, the nearest
 *	first, as @func names them
 * @ncallers: how many (at most PM_HOT_CALLERS; fewer when the chain ends)
 * @callers_n: samples of @n with exactly those callers
 */
struct pm_hot_fn {
	char *func;
	char *file;
	char *module;
	int kernel;
	uint64_t n;
	char *callers[PM_HOT_CALLERS];
	size_t ncallers;
	uint64_t callers_n;
};

/**
 * struct pm_hot - where one thread's samples were taken
 * @parent: for the verdict, the chain step under which it computed (-1:
 *	the interval's own walk); why leaves it -1
 * @pid: the thread
 * @samples: its samples in the stretches asked for
 * @nochain: of them, samples with neither chain kept (in no function)
 * @fns: the functions with the most samples, most first (ties by name),
 *	at most PM_HOT_TOP
 * @nfns: how many
 * @nleaves: distinct functions in all (beyond @nfns: not listed)
 */
struct pm_hot {
	int parent;
	uint32_t pid;
	uint64_t samples;
	uint64_t nochain;
	struct pm_hot_fn *fns;
	size_t nfns;
	size_t nleaves;
};

/**
 * pm_hot_compute() - the hot functions of a thread in some stretches
 * @inc: the incident (its dump's chains, mappings and symbols)
 * @st: its state (the samples)
 * @pid: the thread
 * @spans: the stretches, of @pid, in time order, not overlapping
 * @nspans: how many
 * @h: result (@h->samples 0: none there); release with pm_hot_free()
 *
 * Return: 0 or -ENOMEM (@h released).
 */
int pm_hot_compute(const struct pm_incident *inc, const struct pm_state *st,
		   uint32_t pid, const struct pm_span *spans, size_t nspans,
		   struct pm_hot *h);

/**
 * pm_hot_free() - release a result of pm_hot_compute()
 * @h: the result
 */
void pm_hot_free(struct pm_hot *h);

#endif
