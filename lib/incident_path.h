/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files of an incident directory, and finding one of them when a user
 * names the directory instead of the file.
 */
#ifndef TIPME_LIB_INCIDENT_PATH_H
#define TIPME_LIB_INCIDENT_PATH_H

#include "err.h"

#define TIPME_INCIDENT_KERNEL_DUMP	"kernel.dump"	/* tipmed */
#define TIPME_INCIDENT_X_DUMP		"xhook.dump"	/* tipme-xhook: the name it
							 * PUTs, and an old incident's */
#define TIPME_INCIDENT_X_DUMP_UID	"xhook-%u.dump"	/* as tipmed keeps the
							 * X dump of user %u */
#define TIPME_INCIDENT_META		"meta.json"	/* tipmed */

/**
 * tm_incident_member() - the file to read for a path that may be an incident
 * @path: a file, or an incident directory
 * @member: the file wanted when @path is a directory (TIPME_INCIDENT_*)
 * @what: what that file is, for the error message ("kernel dump")
 * @file: set to a malloc'ed path: a copy of @path when it is not a
 *        directory (its reader reports what is wrong with it), else
 *        @path/@member; NULL on failure
 * @e: error message
 *
 * Return: 0, or a negative errno: out of memory, or a directory without
 * @member (-ENOENT).
 */
int tm_incident_member(const char *path, const char *member, const char *what,
		    char **file, struct tm_err *e);

#endif
