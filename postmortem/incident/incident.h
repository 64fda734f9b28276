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

/**
 * struct pm_incident - an incident's files, opened
 * @pm: the kernel dump
 * @x: the X dump, if @have_x
 * @xbuf: @x's bytes
 * @have_x: 1 with an X dump, else 0
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
 * pm_incident_auto_press() - the press that fired an auto incident
 * @inc: the incident
 *
 * Return: its CLOCK_MONOTONIC ns from meta.json, or 0 (a dump file, an
 * incident whose meta.json cannot be read or has no "auto").
 */
int64_t pm_incident_auto_press(const struct pm_incident *inc);

#endif
