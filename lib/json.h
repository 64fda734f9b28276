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
 * Misuse (a value where a key is due, unbalanced ends, nesting deeper than
 * JW_MAX_DEPTH) and write errors are sticky: see jw_finish().
 */
#ifndef TIPME_LIB_JSON_H
#define TIPME_LIB_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH	32
#define JW_PRETTY	0x01	/* indent with two spaces, one member per line */

/**
 * struct jw - JSON writer state; initialise with jw_init()
 * @f: output stream
 * @flags: JW_*
 * @depth: open objects and arrays
 * @count: values written so far at each level
 * @is_obj: whether each level is an object
 * @key_due: an object member's value follows a key just written
 * @err: first error (negative errno), sticky
 */
struct jw {
	FILE *f;
	unsigned int flags;
	int depth;
	unsigned long count[JW_MAX_DEPTH];
	unsigned char is_obj[JW_MAX_DEPTH];
	int key_due;
	int err;
};

void jw_init(struct jw *w, FILE *f, unsigned int flags);
void jw_obj_begin(struct jw *w);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w);
void jw_arr_end(struct jw *w);
void jw_key(struct jw *w, const char *key);
void jw_str(struct jw *w, const char *s);
void jw_strn(struct jw *w, const char *s, size_t len);
void jw_u64(struct jw *w, uint64_t v);
void jw_i64(struct jw *w, int64_t v);
void jw_double(struct jw *w, double v);
void jw_bool(struct jw *w, int v);
void jw_null(struct jw *w);

/* key + value shorthands for object members */
void jw_kstr(struct jw *w, const char *key, const char *s);
void jw_ku64(struct jw *w, const char *key, uint64_t v);
void jw_ki64(struct jw *w, const char *key, int64_t v);
void jw_kdouble(struct jw *w, const char *key, double v);
void jw_kbool(struct jw *w, const char *key, int v);

/**
 * jw_escape() - write @len bytes of @s as a quoted JSON string
 * @f: output stream
 * @s: bytes (any content: NULs, control characters, invalid UTF-8)
 * @len: number of bytes
 *
 * Return: 0, or -EIO if the stream reported an error.
 */
int jw_escape(FILE *f, const char *s, size_t len);

/**
 * jw_finish() - check that everything written was balanced and written
 * @w: the writer
 *
 * Return: 0, -EINVAL on misuse or unclosed values, -EIO on write error.
 */
int jw_finish(struct jw *w);

#endif
