/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a whole file atomically: a temporary file next to it, fsync,
 * then a rename that never replaces an existing file.
 */
#ifndef TIPME_LIB_WRITEFILE_H
#define TIPME_LIB_WRITEFILE_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

/**
 * tm_write_file_new() - create @path with @len bytes, mode 0600
 * @path: the new file; an existing one is never replaced (-EEXIST)
 * @data: the bytes
 * @len: their number
 * @e: error message naming @path
 *
 * Return: 0 or a negative errno; on failure nothing is left behind.
 */
int tm_write_file_new(const char *path, const void *data, size_t len,
		      struct tm_err *e);

/**
 * struct tm_wfile - a file being written in place of another (see
 * tm_wfile_open())
 * @f: write the contents here
 * @tmp: the temporary file's name (next to the final one)
 * @path: the final name
 */
struct tm_wfile {
	FILE *f;
	char *tmp;
	char *path;
};

int tm_wfile_open(struct tm_wfile *w, const char *path, struct tm_err *e);
int tm_wfile_commit(struct tm_wfile *w, int replace, struct tm_err *e);
void tm_wfile_abort(struct tm_wfile *w);

#endif
