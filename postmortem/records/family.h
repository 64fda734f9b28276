/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside records/: the families' operations, joined by ops.c, and the
 * helpers they share (payload arrays, stack frames, task fields).
 */
#ifndef TIPME_PM_RECORDS_FAMILY_H
#define TIPME_PM_RECORDS_FAMILY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "records.h"

#define PM_REC_MAX_FRAMES	TIPME_REC_TYPE_LIMIT	/* more than any record holds */

extern const struct pm_recops pm_rec_sched;	/* sched.c: switch, waking, blocked */
extern const struct pm_recops pm_rec_marks;	/* marks.c: trigger, input */
extern const struct pm_recops pm_rec_proc;	/* proc.c: fork, exec, exit, comm */
extern const struct pm_recops pm_rec_blk;	/* blk.c: insert, issue, complete */
extern const struct pm_recops pm_rec_lock;	/* lock.c: begin, end */
extern const struct pm_recops pm_rec_mem;	/* mem.c: reclaim, kswapd, throttled */
extern const struct pm_recops pm_rec_sample;	/* sample.c: sample, sample_end */
extern const struct pm_recops pm_rec_cost;	/* cost.c: self-cost batches */

/**
 * pm_rec_tail() - the array after a varlen record's fixed part
 * @ev: a decoded record
 * @rest: set to the bytes that follow the fixed part
 *
 * Return: where they start.
 */
const unsigned char *pm_rec_tail(const struct pm_event *ev, size_t *rest);

/**
 * pm_rec_frames() - a record's 32-bit addresses as full, cleaned frames
 * @pm: the dump
 * @p: the addresses (any alignment)
 * @avail: bytes at @p
 * @nr: how many the record says there are
 * @out: frames worth showing (pm_site_frames()); room for PM_REC_MAX_FRAMES
 *
 * Return: frames in @out.
 */
size_t pm_rec_frames(const struct pm_dump *pm, const unsigned char *p,
		     size_t avail, size_t nr, uint64_t *out);

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
void pm_rec_json_frames(struct jw *w, const struct pm_dump *pm,
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
void pm_rec_json_task(struct jw *w, const struct pm_dump *pm, const char *key,
		      const char *name_key, uint32_t pid, uint64_t ts);

#endif
