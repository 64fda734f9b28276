/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside records/: the families' operations, joined by ops.c, and the
 * helpers they share (stack frames, task fields).
 */
#ifndef TIPME_PM_RECORDS_FAMILY_H
#define TIPME_PM_RECORDS_FAMILY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../dump/tables.h"
#include "records.h"

extern const struct pm_recops pm_rec_sched;	/* sched.c: switch, waking, blocked */
extern const struct pm_recops pm_rec_marks;	/* marks.c: trigger, input */
extern const struct pm_recops pm_rec_proc;	/* proc.c: fork, exec, exit, comm */
extern const struct pm_recops pm_rec_blk;	/* blk.c: insert, issue, complete */
extern const struct pm_recops pm_rec_lock;	/* lock.c: begin, end */
extern const struct pm_recops pm_rec_mem;	/* mem.c: reclaim, kswapd, throttled */
extern const struct pm_recops pm_rec_sample;	/* sample.c: sample, sample_end */
extern const struct pm_recops pm_rec_cost;	/* cost.c: self-cost batches */
extern const struct pm_recops pm_rec_work;	/* work.c: work items, interrupt context */
extern const struct pm_recops pm_rec_display;	/* display.c: vblanks, flips, fences */
extern const struct pm_recops pm_rec_net;	/* net.c: TCP data received, sent */
extern const struct pm_recops pm_rec_prof;	/* prof.c: profiler samples, rates */

/*
 * The family column of TIPME_REC_TYPES (<linux/tipme.h>) as operations.
 * The compact forms have none: the decoder gives them as the types they
 * stand for.
 */
#define PM_FAMILY_sched		(&pm_rec_sched)
#define PM_FAMILY_marks		(&pm_rec_marks)
#define PM_FAMILY_proc		(&pm_rec_proc)
#define PM_FAMILY_blk		(&pm_rec_blk)
#define PM_FAMILY_lock		(&pm_rec_lock)
#define PM_FAMILY_mem		(&pm_rec_mem)
#define PM_FAMILY_sample	(&pm_rec_sample)
#define PM_FAMILY_cost		(&pm_rec_cost)
#define PM_FAMILY_work		(&pm_rec_work)
#define PM_FAMILY_display	(&pm_rec_display)
#define PM_FAMILY_net		(&pm_rec_net)
#define PM_FAMILY_prof		(&pm_rec_prof)
#define PM_FAMILY_compact	NULL

/**
 * pm_rec_print_frames() - "f+0x1a <- g+0x30 [mod]", unknown ones in hex
 * @f: output
 * @pm: the dump
 * @a: frames
 * @n: how many
 */
void pm_rec_print_frames(FILE *f, const struct pm_dump *pm, const uint64_t *a,
			 size_t n);

/**
 * pm_rec_json_frames() - frames as an array of names (hex when unknown)
 * @w: JSON writer, inside an object
 * @pm: the dump
 * @key: member name
 * @a: frames
 * @n: how many
 */
void pm_rec_json_frames(struct tm_jw *w, const struct pm_dump *pm,
			const char *key, const uint64_t *a, size_t n);

/**
 * pm_rec_json_task() - a thread as @key: pid, and @name_key: its name if known
 * @w: JSON writer, inside an object
 * @pm: the dump
 * @key: member for the pid
 * @name_key: member for the name; NULL for "<key>_comm"
 * @pid: thread id
 * @ts: time of the record
 */
void pm_rec_json_task(struct tm_jw *w, const struct pm_dump *pm, const char *key,
		      const char *name_key, uint32_t pid, uint64_t ts);

#endif
