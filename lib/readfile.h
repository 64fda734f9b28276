/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TIPME_LIB_READFILE_H
#define TIPME_LIB_READFILE_H

#include <stddef.h>

#include "err.h"

/**
 * tm_read_file() - read a whole file into memory
 * @path: the file: a regular one (a FIFO, a device or a socket is refused
 *	at once with a clear error, never waited on or read without end)
 * @bufp: set to a malloc'ed copy of its bytes (free() it)
 * @sizep: set to their number
 * @e: error message naming @path ("is a directory", "No such file ...")
 *
 * Return: 0 or a negative errno.
 */
int tm_read_file(const char *path, unsigned char **bufp, size_t *sizep,
		 struct tm_err *e);

#endif
