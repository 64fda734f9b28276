/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An index of a dump's sub-buffers by time, and the records of a time
 * range decoded from it on demand: only the sub-buffers the range needs
 * are read, and what they give is what a scan of the whole dump gives
 * there (each sub-buffer's entry keeps the decoder's state where it
 * begins: the CPU's current task, a gap not yet reported, the previous
 * timestamp).
 */
#ifndef TIPME_PM_INDEX_H
#define TIPME_PM_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"

/**
 * struct pm_sbx - one sub-buffer of a CPU stream
 * @snap: the decoder's state where it begins
 * @seq: its sequence number
 * @first_ns: CLOCK_MONOTONIC ns of the first event it gives (a
 *	      sub-buffer that gives none: the previous one's @last_ns)
 * @last_ns: of the last (the same rule)
 * @events: events it gives (records and loss markers)
 */
struct pm_sbx {
	struct pm_dec_snap snap;
	uint64_t seq;
	int64_t first_ns;
	int64_t last_ns;
	uint32_t events;
};

/**
 * struct pm_index - every sub-buffer of a dump, per CPU in stream order
 * @sb: the sub-buffers, CPU after CPU (the order of pm->cpus)
 * @n: how many
 * @cpu_first: the first of each CPU's in @sb (nr_cpus + 1 entries)
 * @nr_cpus: CPUs (pm->nr_cpus)
 * @lazy: made by pm_index_scan(): each entry's @snap has only where the
 *	sub-buffer is (sec_i, sec_pos), @last_ns is a bound (no event of
 *	the sub-buffer is later), @events is 1 if it has records, else 0
 */
struct pm_index {
	struct pm_sbx *sb;
	size_t n;
	size_t *cpu_first;
	uint32_t nr_cpus;
	int lazy;
};

/**
 * pm_index_build() - index the sub-buffers of every CPU stream
 * @ix: result; release with pm_index_free() (also after a failure)
 * @pm: the dump
 * @e: error message (a malformed stream: as pm_dec_next() says it)
 *
 * Reads each stream once.
 *
 * Return: 0 or a negative errno.
 */
int pm_index_build(struct pm_index *ix, const struct pm_dump *pm,
		   struct tm_err *e);

/**
 * pm_index_scan() - index the sub-buffers of every CPU stream from their
 * headers alone
 * @ix: result; release with pm_index_free() (also after a failure)
 * @pm: the dump
 * @e: error message (a sub-buffer header that does not fit its section)
 *
 * Reads each sub-buffer's header and its first record's timestamp (the
 * first record of a sub-buffer always carries the full one), not its
 * records: pm_merge_range() then decodes only the sub-buffers a range
 * needs, and learns the decoder's state where the range begins by
 * decoding from a few sub-buffers before it until that state is known
 * (struct pm_dec's @known), so the events it gives are still a whole
 * merge's.
 *
 * Return: 0 or a negative errno.
 */
int pm_index_scan(struct pm_index *ix, const struct pm_dump *pm,
		  struct tm_err *e);

/**
 * pm_index_free() - release an index
 * @ix: the index
 */
void pm_index_free(struct pm_index *ix);

/**
 * pm_index_find() - where a CPU's events from a moment on begin
 * @ix: the index
 * @cpu_i: the CPU (its index in pm->cpus)
 * @ns: CLOCK_MONOTONIC ns
 *
 * Return: the first of the CPU's sub-buffers (an index into @ix->sb)
 * whose last event is at or after @ns; @ix->cpu_first[@cpu_i + 1] if none.
 */
size_t pm_index_find(const struct pm_index *ix, uint32_t cpu_i, int64_t ns);

/**
 * pm_merge_range() - merge the events of [@from_ns, @to_ns] only
 * @m: merge state; read with pm_merge_next(), release with pm_merge_free()
 * @pm: the dump
 * @ix: its index
 * @cpu_mask: as pm_merge_init()'s
 * @from_ns: CLOCK_MONOTONIC ns (INT64_MIN: from the start)
 * @to_ns: the end, included (INT64_MAX: to the end)
 * @e: error message
 *
 * pm_merge_next() then gives the events of a whole merge whose @ns is in
 * the range, in the same order, each decoder started at the first
 * sub-buffer the range needs (of a pm_index_scan() index, at the state
 * decoded from the sub-buffers before it that tell it).
 *
 * Return: 0 or a negative errno.
 */
int pm_merge_range(struct pm_merge *m, const struct pm_dump *pm,
		   const struct pm_index *ix, const unsigned char *cpu_mask,
		   int64_t from_ns, int64_t to_ns, struct tm_err *e);

#endif
