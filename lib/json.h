/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer, used by every --json output.
 *
 * Values are written as they are produced; the writer only remembers, per
 * nesting level, whether a comma is due.  When a top-level value is
 * complete a newline is written, so a sequence of top-level objects is
 * JSON Lines.  Strings are escaped as RFC 8259 requires and invalid UTF-8
 * is replaced by U+FFFD, so the output is always valid JSON.
 *
 * Output reaches the stream when a top-level value is complete (or the
 * writer's buffer is full), so nothing else may be written to the stream
 * inside a value.  Misuse (a value where a key is due, unbalanced ends,
 * nesting deeper than TM_JW_MAX_DEPTH) and write errors are sticky: see
 * tm_jw_finish().
 */
#ifndef TIPME_LIB_JSON_H
#define TIPME_LIB_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TM_JW_MAX_DEPTH	32
#define TM_JW_PRETTY	0x01	/* indent with two spaces, one member per line */

/**
 * struct tm_jw - JSON writer state; initialise with tm_jw_init()
 * @f: output stream
 * @flags: JW_*
 * @depth: open objects and arrays
 * @count: values written so far at each level
 * @is_obj: whether each level is an object
 * @key_due: an object member's value follows a key just written
 * @err: first error (negative errno), sticky
 * @len: bytes in @buf not yet handed to @f
 * @buf: output gathered until a top-level value ends (or it fills)
 */
struct tm_jw {
	FILE *f;
	unsigned int flags;
	int depth;
	unsigned long count[TM_JW_MAX_DEPTH];
	unsigned char is_obj[TM_JW_MAX_DEPTH];
	int key_due;
	int in_str;
	int err;
	size_t len;
	char buf[8192];
};

void tm_jw_init(struct tm_jw *w, FILE *f, unsigned int flags);
void tm_jw_obj_begin(struct tm_jw *w);
void tm_jw_obj_end(struct tm_jw *w);
void tm_jw_arr_begin(struct tm_jw *w);
void tm_jw_arr_end(struct tm_jw *w);
void tm_jw_key(struct tm_jw *w, const char *key);
void tm_jw_str(struct tm_jw *w, const char *s);
void tm_jw_strn(struct tm_jw *w, const char *s, size_t len);

/*
 * One string value written in parts, for text too long to hold in memory:
 * tm_jw_str_begin(), any number of tm_jw_str_part() (each cut between
 * characters, never inside a UTF-8 sequence), tm_jw_str_end().  Nothing
 * else may be written in between.
 */
void tm_jw_str_begin(struct tm_jw *w);
void tm_jw_str_part(struct tm_jw *w, const char *s, size_t len);
void tm_jw_str_end(struct tm_jw *w);
void tm_jw_u64(struct tm_jw *w, uint64_t v);
void tm_jw_i64(struct tm_jw *w, int64_t v);
void tm_jw_double(struct tm_jw *w, double v);
/* @v / 10^@decimals (at most 18) exactly, trailing fraction zeros dropped */
void tm_jw_fixed(struct tm_jw *w, int64_t v, unsigned int decimals);
void tm_jw_bool(struct tm_jw *w, int v);
void tm_jw_null(struct tm_jw *w);

/* key + value shorthands for object members */
void tm_jw_kstr(struct tm_jw *w, const char *key, const char *s);
void tm_jw_ku64(struct tm_jw *w, const char *key, uint64_t v);
void tm_jw_ki64(struct tm_jw *w, const char *key, int64_t v);
void tm_jw_kdouble(struct tm_jw *w, const char *key, double v);
void tm_jw_kfixed(struct tm_jw *w, const char *key, int64_t v, unsigned int decimals);
void tm_jw_kbool(struct tm_jw *w, const char *key, int v);

/**
 * tm_jw_escape() - write @len bytes of @s as a quoted JSON string
 * @f: output stream
 * @s: bytes (any content: NULs, control characters, invalid UTF-8)
 * @len: number of bytes
 *
 * Return: 0, or -EIO if the stream reported an error.
 */
int tm_jw_escape(FILE *f, const char *s, size_t len);

/**
 * tm_jw_finish() - check that everything written was balanced and written
 * @w: the writer
 *
 * Return: 0, -EINVAL on misuse or unclosed values, -EIO on write error.
 */
int tm_jw_finish(struct tm_jw *w);

#endif
