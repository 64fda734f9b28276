/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stream that writes what it is given gzip-compressed (RFC 1952, one
 * member) into another stream, compressed on a thread of its own while
 * the caller goes on writing.
 */
#ifndef TIPME_LIB_GZWRITE_H
#define TIPME_LIB_GZWRITE_H

#include <stdio.h>

/**
 * tm_gz_open() - a stream whose bytes go gzip-compressed into @out
 * @out: where the compressed bytes go (left open)
 * @level: zlib's level, 1 (fastest) to 9 (smallest)
 *
 * Write to the stream returned as to any; fclose() it to end the gzip
 * member (its trailer written to @out, not flushed): fclose() returns
 * EOF, errno set, if a write to @out or the compression failed.
 *
 * Return: the stream, or NULL (errno set) when out of memory.
 */
FILE *tm_gz_open(FILE *out, int level);

#endif
