/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a dump holds and what it lost: every stream decoded once, counts
 * per CPU and per type, the window all CPUs cover, and the recorder's own
 * cost over the whole dump.  print/info.h prints it.
 */
#ifndef TIPME_PM_ANALYSIS_INFO_H
#define TIPME_PM_ANALYSIS_INFO_H

#include <stdint.h>

#include "../dump/decode.h"
#include "cost.h"
#include "incident_meta.h"

/**
 * struct pm_info_cpu - one CPU, from its stream and its stats entry
 * @cpu: CPU number
 * @has_stream: the dump has a stream of it
 * @st: what decoding the stream found
 * @cs: its TIPME_SEC_CPU_STATS entry, or NULL
 */
struct pm_info_cpu {
	uint32_t cpu;
	int has_stream;
	struct pm_dec_stats st;
	const struct tipme_cpu_stats *cs;
};

/**
 * struct pm_info - the summary of a dump
 * @pm: the dump
 * @cpus: the CPUs of the streams and of the stats, by number
 * @nr: entries in @cpus
 * @tot: count, bytes, pad_bytes, records and subbufs summed over the CPUs
 * @have_window: @win_start and @win_end are set
 * @win_start: start of the common window, where no CPU lost records: the
 *	latest first record after a CPU's loss (the earliest record if no
 *	CPU lost any) (timestamp)
 * @win_end: its end: the last record, or the earliest last record of a
 *	CPU whose stream ends in a loss
 * @overwritten: records overwritten, summed from the CPU stats
 * @dropped: records dropped, summed
 * @discarded: sub-buffers discarded, summed
 * @missing: sub-buffers missing from the streams (seq gaps)
 * @have_instr: the dump has an exec table or self-cost records
 * @cost_err: computing @cost failed (negative errno; message in @cost_msg)
 * @cost_msg: its message
 * @cost: the recorder's own cost over the whole dump (@have_instr)
 * @meta: the incident's meta.json, or NULL (a dump file; set by the
 *	caller): who asked, who claimed the press, who handed X dumps in
 * @smp: the sampler's rounds, from the sample_end records: @smp.ends
 *	records, @smp.full of them full rounds, @smp.threads_max the most
 *	threads a round looked at, @smp.table_full rounds that found the
 *	table full and @smp.skipped the threads they could not look at
 */
struct pm_info {
	const struct pm_dump *pm;
	struct pm_info_cpu *cpus;
	uint32_t nr;
	struct pm_dec_stats tot;
	int have_window;
	uint64_t win_start, win_end;
	uint64_t overwritten, dropped, discarded, missing;
	int have_instr;
	int cost_err;
	struct tm_err cost_msg;
	struct pm_cost cost;
	const struct tm_incident_meta_view *meta;
	struct {
		uint64_t ends, full, threads_max, table_full, skipped;
	} smp;
};

/**
 * pm_info_collect() - decode every stream of @pm and sum up
 * @in: result; release with pm_info_free() (also after a failure)
 * @pm: the dump
 * @e: error message
 *
 * Return: 0 or a negative errno (a malformed stream).
 */
int pm_info_collect(struct pm_info *in, const struct pm_dump *pm,
		    struct tm_err *e);

/**
 * pm_info_free() - release a summary
 * @in: the summary
 */
void pm_info_free(struct pm_info *in);

#endif
