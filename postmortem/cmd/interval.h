/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside cmd/: from the options to the interval and its verdict
 * (interval.c), for the subcommands that present tipme report's answer
 * (report, export, timeline): the incident (incident/incident.h), its
 * state and resources, the interval the options ask for (or the dump
 * offers) and the verdict on it.
 */
#ifndef TIPME_PM_CMD_INTERVAL_H
#define TIPME_PM_CMD_INTERVAL_H

#include <stdint.h>

#include "../analysis/interval.h"
#include "../analysis/verdict.h"
#include "../incident/incident.h"
#include "../state/resources.h"
#include "../state/state.h"
#include "run.h"

/**
 * struct pm_cmd_interval - an incident opened to its verdict
 * @in: the incident: its kernel dump, X dump and meta.json
 * @st: its state (threads and their stretches)
 * @res: its resources (devices, locks, reclaim)
 * @iv: the interval chosen, if @found
 * @r: the verdict on @iv (r.chosen_by set), if @found
 * @cand: chosen by a stall, the verdict on each of @iv.rank's candidates
 *	after the first (cand[0] is unused: @r is its verdict)
 * @found: 1 if the dump has an interval that matters, else 0
 * @known_from_ns: @st and @res hold what the whole dump's hold from here
 *	(the start of the range a bounded build was asked to know;
 *	INT64_MIN when built from every record)
 * @known_to_ns: to here (INT64_MAX: the dump's end)
 */
struct pm_cmd_interval {
	struct pm_incident in;
	struct pm_state st;
	struct pm_res res;
	struct pm_interval iv;
	struct pm_verdict r;
	struct pm_verdict cand[PM_RANK_MAX];
	int found;
	int64_t known_from_ns;
	int64_t known_to_ns;
	struct pm_rank_known readers;
};

/**
 * pm_cmd_interval_open() - open a dump or incident and find its verdict
 * @prog: the subcommand's name, for messages
 * @path: the dump file or incident directory
 * @ask: the interval the user asked for (see pm_interval_choose()); for
 *	an auto incident without --pid, the press in its meta.json
 * @who: the thread named by --comm or --window-title instead of
 *	@ask->pid (pm_cmd_who()), or NULL
 * @inc: filled in; pm_cmd_interval_close() it whatever this returns
 *
 * A dump without an interval that matters is not an error: @inc->found
 * says so and the caller decides.  Prints "tipme PROG: MESSAGE" to stderr
 * on failure.
 *
 * Return: 0, or 1 (the exit status) when the dump cannot be opened or
 * analysed, the X dump is broken, @who names no one thread, or memory
 * ran out.
 */
int pm_cmd_interval_open(const char *prog, const char *path,
			 const struct pm_interval_ask *ask,
			 const struct pm_cmd_who *who,
			 struct pm_cmd_interval *inc);

/* How far before (and after) an interval a bounded build reads by default. */
#define PM_CMD_LOOKBACK_NS	10000000000LL
/* A dump's checkpoints are kept in DUMP.ckpt when its streams hold this many bytes. */
#define PM_CMD_CKPT_FILE_MIN	(16u << 20)

/**
 * pm_cmd_ckpts() - the checkpoints a bounded build of an interval starts from
 * @in: the incident
 * @ck: result; release with pm_ckpts_free()
 * @e: error message
 *
 * Those spread evenly over the dump (pm_ckpts_grid()): read from the file
 * beside the dump (its path + ".ckpt") when it holds this dump's, else
 * made by one pass over the dump and, for a dump whose streams hold
 * PM_CMD_CKPT_FILE_MIN bytes or more, kept in that file for the next
 * command (when its folder is writable; nothing is said when it is not).
 * $TIPME_CKPT_FILE=0 neither reads nor writes the file, =1 writes it
 * whatever the dump's size.
 *
 * Return: 0 or a negative errno.
 */
int pm_cmd_ckpts(const struct pm_incident *in, struct pm_ckpts **ck,
		 struct tm_err *e);

/**
 * pm_cmd_ckpts_file() - pm_cmd_ckpts(), and whether the file was there
 * @in: the incident
 * @save: 1: the file is written whatever the dump's size and
 *	$TIPME_CKPT_FILE say, and failing to write it is an error
 *	(tipme index); 0: as pm_cmd_ckpts()
 * @ck: result; release with pm_ckpts_free()
 * @made: set to 1 when they were made by a pass over the dump, 0 when
 *	read from the file
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_cmd_ckpts_file(const struct pm_incident *in, int save, struct pm_ckpts **ck,
		      int *made, struct tm_err *e);

/**
 * pm_cmd_interval_knows() - whether a state built holds a time range whole
 * @inc: opened by pm_cmd_interval_open()
 * @from_ns: CLOCK_MONOTONIC ns
 * @to_ns: CLOCK_MONOTONIC ns
 *
 * Return: 1 if @inc's state and resources were built from every record,
 * or from a checkpoint whose range includes [@from_ns, @to_ns]; else 0
 * (open it again with the range in pm_interval_ask.cover_from_ns).
 */
int pm_cmd_interval_knows(const struct pm_cmd_interval *inc, int64_t from_ns,
			  int64_t to_ns);

/**
 * pm_cmd_add_sat() - a sum of times that stays at the ends of int64_t
 * @a: CLOCK_MONOTONIC ns
 * @b: ns to add (or, negative, to take away)
 *
 * Return: @a + @b, or INT64_MAX / INT64_MIN where it would overflow.
 */
int64_t pm_cmd_add_sat(int64_t a, int64_t b);

/**
 * pm_cmd_interval_close() - free what pm_cmd_interval_open() built
 * @inc: the incident
 */
void pm_cmd_interval_close(struct pm_cmd_interval *inc);

#endif
