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

/**
 * tm_map_file() - a whole file's bytes, mapped read-only
 * @path: the file: a regular one, as tm_read_file()'s
 * @bufp: set to its bytes, valid until tm_unmap_file()
 * @sizep: set to their number
 * @mapped: set to 1 if they are mapped, 0 if they were read (an empty
 *	file, or one mmap() refuses)
 * @e: error message naming @path
 *
 * The pages are read when they are first touched, and belong to the page
 * cache: a reader that looks at part of a large file reads only that
 * part.  The file must not be truncated while it is mapped (tipme writes
 * its files under a temporary name and renames them: they never change).
 *
 * Return: 0 or a negative errno.
 */
int tm_map_file(const char *path, unsigned char **bufp, size_t *sizep,
		int *mapped, struct tm_err *e);

/**
 * tm_unmap_file() - release what tm_map_file() gave
 * @buf: the bytes
 * @size: their number
 * @mapped: what tm_map_file() said
 */
void tm_unmap_file(unsigned char *buf, size_t size, int mapped);

/**
 * tm_drop_file_pages() - give a mapped file's touched pages back
 * @buf: the bytes
 * @size: their number
 * @mapped: what tm_map_file() said; nothing is done for bytes read
 *
 * The pages leave the reader's resident set (they stay in the page
 * cache, and are mapped again, unchanged, when next touched): a reader
 * that goes through a large file once need not keep all of it resident.
 */
void tm_drop_file_pages(unsigned char *buf, size_t size, int mapped);

#endif
