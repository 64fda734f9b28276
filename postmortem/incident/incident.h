/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One incident, opened once (incident.c): the kernel dump (with its clock,
 * exec table and kernel symbols, dump/pm.h), tipme-xhook's X dump if the
 * incident has one, and meta.json if there is one.  The path a user gives
 * (a dump file or an incident directory) is resolved here and nowhere
 * else; state/, analysis/ and the printers take a const struct
 * pm_incident and never open a file.  A new source of records (another
 * recorder's dump beside these) is opened here too.
 */
#ifndef TIPME_PM_INCIDENT_H
#define TIPME_PM_INCIDENT_H

#include <stddef.h>
#include <stdint.h>

#include "../dump/pm.h"
#include "incident_meta.h"
#include "xdumpfile.h"

/* pm_incident_open() flags, beside DUMP_* for the kernel dump */
#define PM_INC_NEED_X	(1u << 16)	/* no X dump is an error */
#define PM_INC_NO_X	(1u << 17)	/* do not read the X dump */

/*
 * Which X dump an incident directory's analysis reads, and why
 * (struct pm_incident's @x_why).  tipmed keeps one per user who handed
 * one in (meta.json's "hand_ins"): the one read is that of the user whose
 * X session the incident is about, never another member's.
 */
enum pm_x_why {
	PM_X_NONE,		/* no X dump in the incident */
	PM_X_GIVEN,		/* the path given is the X dump (a file) */
	PM_X_OLD,		/* an old incident's xhook.dump: one per incident */
	PM_X_PRESS_UID,		/* the uid of the process the press went to */
	PM_X_CLAIMER,		/* the uid that claimed the press (its
				 * process's uid unknown) */
	PM_X_REQUESTER,		/* the uid that asked for the trigger */
	PM_X_ONLY,		/* the only X dump, nobody's session named */
	PM_X_PID,		/* the X dump whose clients include the
				 * interval's process */
	PM_X_UID_NONE,		/* the session's user handed in none: the
				 * others' are not read */
	PM_X_SEVERAL,		/* several, and nothing says whose */
};

/**
 * struct pm_incident - an incident's files, opened
 * @pm: the kernel dump
 * @x: the X dump, if @have_x
 * @xbuf: @x's bytes
 * @have_x: 1 with an X dump, else 0
 * @x_why: enum pm_x_why: which X dump and why
 * @x_uid: for PM_X_PRESS_UID, PM_X_CLAIMER, PM_X_REQUESTER and
 *	PM_X_UID_NONE, the session's user
 * @x_from: @meta.handins entry of the X dump read, or -1 (a file given, an
 *	old incident's xhook.dump)
 * @x_file: the X dump's name in the incident directory, or ""
 * @dir: the incident directory, or NULL (a file given)
 * @meta: meta.json, if @have_meta
 * @have_meta: 1 if the incident directory has a readable meta.json
 * @desc: the user's description of the incident, one line: the incident
 *	directory's description.txt (tipme note, tipmed), else the X dump's
 *	(tipme-xhook's prompt); NULL if neither has one
 */
struct pm_incident {
	struct pm_dump pm;
	struct tm_xdump x;
	uint8_t *xbuf;
	int have_x;
	int x_why;
	uint32_t x_uid;
	int x_from;
	char x_file[64];
	char *dir;
	struct tm_incident_meta_view meta;
	int have_meta;
	char *desc;
};

/**
 * pm_incident_open() - open a dump file or an incident directory
 * @inc: result; release with pm_incident_close() (also after a failure)
 * @path: a kernel dump file, or an incident directory (its kernel.dump,
 *	xhook.dump and meta.json)
 * @flags: DUMP_* for the kernel dump, PM_INC_*
 * @e: error message
 *
 * A directory's X dump is read if it is there (a dump file has none; with
 * PM_INC_NEED_X, @path itself is read as the X dump first, whatever it
 * is, and a missing or broken one is the error); a broken X dump is an
 * error.  A meta.json that cannot be read is left out, not an error.
 * Of a directory's X dumps the one of the user whose session the incident
 * is about is read (enum pm_x_why); when several are there and nothing
 * names the user, none is read until pm_incident_x_by_pid().
 *
 * Return: 0 or a negative errno.
 */
int pm_incident_open(struct pm_incident *inc, const char *path,
		     unsigned int flags, struct tm_err *e);

/**
 * pm_incident_open_mem() - an incident of a kernel dump in memory alone
 * @inc: result; release with pm_incident_close()
 * @buf: the dump's bytes, kept by reference
 * @size: number of bytes
 * @flags: DUMP_*
 * @e: error message
 *
 * For the fuzzers and unit tests: no X dump, no meta.json.
 *
 * Return: 0 or a negative errno.
 */
int pm_incident_open_mem(struct pm_incident *inc, const void *buf,
			 size_t size, unsigned int flags, struct tm_err *e);

/**
 * pm_incident_close() - release an incident; @inc may be zeroed or closed
 * @inc: the incident
 */
void pm_incident_close(struct pm_incident *inc);

/**
 * pm_incident_x() - the incident's X dump
 * @inc: the incident
 *
 * Return: the X dump, or NULL if the incident has none.
 */
static inline const struct tm_xdump *pm_incident_x(const struct pm_incident *inc)
{
	return inc->have_x ? &inc->x : NULL;
}

/**
 * pm_incident_x_by_pid() - choose among several X dumps by a process
 * @inc: an incident opened with @inc->x_why PM_X_SEVERAL
 * @pid: the process the analysis is about
 * @e: error message
 *
 * Reads the X dump whose clients include @pid (root's first if several
 * do); none if none does.  Does nothing for any other @inc->x_why.
 *
 * Return: 0, or a negative errno (a broken X dump).
 */
int pm_incident_x_by_pid(struct pm_incident *inc, uint32_t pid, struct tm_err *e);

/**
 * pm_incident_x_why() - which X dump was read and why, in words
 * @inc: the incident
 * @buf: the text ("xhook-1000.dump, handed in by uid 1000 (pid 42,
 *	/usr/bin/tipme-xhook): the session of uid 1000, ...")
 * @size: its size
 *
 * Return: the key of @inc->x_why ("press_uid", ...), for JSON.
 */
const char *pm_incident_x_why(const struct pm_incident *inc, char *buf, size_t size);

/**
 * pm_incident_auto_press() - the press that fired an auto incident
 * @inc: the incident
 *
 * Return: its CLOCK_MONOTONIC ns from meta.json, or 0 (a dump file, an
 * incident whose meta.json cannot be read or has no "auto").
 */
int64_t pm_incident_auto_press(const struct pm_incident *inc);

#endif
