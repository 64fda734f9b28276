// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "safetext.h"

/*
 * Output is gathered in the writer's buffer and handed to the stream at
 * the end of every top-level value (so a caller may print between
 * values) or when the buffer fills: one stdio call per line instead of
 * one per character and number, most of what `tipme records --json` cost.
 */
static void flush_buf(struct tm_jw *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len && !w->err)
		w->err = -EIO;
	w->len = 0;
}

static void out_n(struct tm_jw *w, const void *p, size_t n)
{
	if (n > sizeof(w->buf) - w->len) {
		flush_buf(w);
		if (n > sizeof(w->buf)) {
			if (fwrite(p, 1, n, w->f) != n && !w->err)
				w->err = -EIO;
			return;
		}
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void out_c(struct tm_jw *w, char c)
{
	if (w->len == sizeof(w->buf))
		flush_buf(w);
	w->buf[w->len++] = c;
}

static void out_s(struct tm_jw *w, const char *s)
{
	out_n(w, s, strlen(s));
}

/* @v in decimal at the end of @buf (24 bytes); returns where it starts */
static char *u64_dec(uint64_t v, char *buf)
{
	char *p = buf + 24;

	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p;
}

void tm_jw_init(struct tm_jw *w, FILE *f, unsigned int flags)
{
	/* the buffer's bytes count only up to @len: not cleared */
	memset(w, 0, offsetof(struct tm_jw, buf));
	w->f = f;
	w->flags = flags;
}

static void indent(struct tm_jw *w)
{
	int i;

	if (!(w->flags & TM_JW_PRETTY))
		return;
	out_c(w, '\n');
	for (i = 0; i < w->depth; i++)
		out_s(w, "  ");
}

/* Called before every value: writes the separator a value needs. */
static int before_value(struct tm_jw *w)
{
	if (w->err)
		return -1;
	if (w->depth > 0 && w->is_obj[w->depth - 1]) {
		if (!w->key_due) {
			w->err = -EINVAL;	/* value without a key */
			return -1;
		}
		w->key_due = 0;
		return 0;
	}
	if (w->depth > 0) {
		if (w->count[w->depth - 1]++)
			out_c(w, ',');
		indent(w);
	}
	return 0;
}

/* Called after every complete value. */
static void after_value(struct tm_jw *w)
{
	if (w->depth == 0) {
		out_c(w, '\n');
		flush_buf(w);
		if (ferror(w->f) && !w->err)
			w->err = -EIO;
	}
}

static void begin(struct tm_jw *w, int obj)
{
	if (before_value(w))
		return;
	if (w->depth >= TM_JW_MAX_DEPTH) {
		w->err = -EINVAL;
		return;
	}
	out_c(w, obj ? '{' : '[');
	w->is_obj[w->depth] = (unsigned char)obj;
	w->count[w->depth] = 0;
	w->depth++;
}

static void end(struct tm_jw *w, int obj)
{
	if (w->err)
		return;
	if (w->depth == 0 || w->is_obj[w->depth - 1] != obj || w->key_due) {
		w->err = -EINVAL;
		return;
	}
	w->depth--;
	if (w->count[w->depth])
		indent(w);
	out_c(w, obj ? '}' : ']');
	after_value(w);
}

void tm_jw_obj_begin(struct tm_jw *w) { begin(w, 1); }
void tm_jw_obj_end(struct tm_jw *w) { end(w, 1); }
void tm_jw_arr_begin(struct tm_jw *w) { begin(w, 0); }
void tm_jw_arr_end(struct tm_jw *w) { end(w, 0); }

/* The inside of a JSON string: @len bytes of @str escaped. */
static void escape_body(struct tm_jw *w, const char *str, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = s[i];
		size_t j = i;

		/* a run of plain ASCII goes out in one copy */
		while (j < len && s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' && s[j] != '\\')
			j++;
		if (j > i) {
			out_n(w, s + i, j - i);
			i = j;
			continue;
		}
		switch (c) {
		case '"':  out_s(w, "\\\""); i++; continue;
		case '\\': out_s(w, "\\\\"); i++; continue;
		case '\b': out_s(w, "\\b"); i++; continue;
		case '\f': out_s(w, "\\f"); i++; continue;
		case '\n': out_s(w, "\\n"); i++; continue;
		case '\r': out_s(w, "\\r"); i++; continue;
		case '\t': out_s(w, "\\t"); i++; continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			out_n(w, u, sizeof(u));
			i++;
			continue;
		}
		n = tm_utf8_len(s + i, len - i, NULL);
		if (n == 0) {
			out_s(w, "\\ufffd");
			i++;
			continue;
		}
		out_n(w, s + i, n);
		i += n;
	}
}

static void escape_quoted(struct tm_jw *w, const char *str, size_t len)
{
	out_c(w, '"');
	escape_body(w, str, len);
	out_c(w, '"');
}

int tm_jw_escape(FILE *f, const char *str, size_t len)
{
	struct tm_jw w;

	tm_jw_init(&w, f, 0);
	escape_quoted(&w, str, len);
	flush_buf(&w);
	return w.err || ferror(f) ? -EIO : 0;
}

void tm_jw_key(struct tm_jw *w, const char *key)
{
	if (w->err)
		return;
	if (w->depth == 0 || !w->is_obj[w->depth - 1] || w->key_due) {
		w->err = -EINVAL;
		return;
	}
	if (w->count[w->depth - 1]++)
		out_c(w, ',');
	indent(w);
	escape_quoted(w, key, strlen(key));
	out_s(w, (w->flags & TM_JW_PRETTY) ? ": " : ":");
	w->key_due = 1;
}

void tm_jw_strn(struct tm_jw *w, const char *s, size_t len)
{
	if (before_value(w))
		return;
	escape_quoted(w, s, len);
	after_value(w);
}

void tm_jw_str_begin(struct tm_jw *w)
{
	if (before_value(w))
		return;
	out_c(w, '"');
	w->in_str = 1;
}

void tm_jw_str_part(struct tm_jw *w, const char *s, size_t len)
{
	if (w->err || !w->in_str) {
		w->err = w->err ? w->err : -EINVAL;
		return;
	}
	escape_body(w, s, len);
}

void tm_jw_str_end(struct tm_jw *w)
{
	if (w->err || !w->in_str) {
		w->err = w->err ? w->err : -EINVAL;
		return;
	}
	out_c(w, '"');
	w->in_str = 0;
	after_value(w);
}

void tm_jw_str(struct tm_jw *w, const char *s)
{
	if (!s) {
		tm_jw_null(w);
		return;
	}
	tm_jw_strn(w, s, strlen(s));
}

void tm_jw_u64(struct tm_jw *w, uint64_t v)
{
	char buf[24];

	if (before_value(w))
		return;
	out_s(w, u64_dec(v, buf));
	after_value(w);
}

void tm_jw_i64(struct tm_jw *w, int64_t v)
{
	char buf[24];

	if (before_value(w))
		return;
	if (v < 0)
		out_c(w, '-');
	out_s(w, u64_dec(v < 0 ? -(uint64_t)v : (uint64_t)v, buf));
	after_value(w);
}

/*
 * @v / 10^@decimals, exactly: the integer part, then the fraction digits
 * without trailing zeros (none, and no point, for a whole number).  A
 * time in ns written as us (3 decimals) or ms (6) this way carries no
 * binary rounding ("18.861", never "18.860999999567866").
 */
void tm_jw_fixed(struct tm_jw *w, int64_t v, unsigned int decimals)
{
	uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v, scale = 1, frac;
	char buf[24];
	unsigned int n;

	for (n = 0; n < decimals && n < 18; n++)
		scale *= 10;
	if (before_value(w))
		return;
	frac = mag % scale;
	while (frac && frac % 10 == 0) {
		frac /= 10;
		n--;
	}
	if (!frac)
		n = 0;
	if (v < 0)
		out_c(w, '-');
	out_s(w, u64_dec(mag / scale, buf));
	if (n) {
		char *d = u64_dec(frac, buf);
		unsigned int len = (unsigned int)(buf + 23 - d);

		out_c(w, '.');
		for (; len < n; len++)	/* leading zeros of the fraction */
			out_c(w, '0');
		out_s(w, d);
	}
	after_value(w);
}

/* Shortest of %.15g and %.17g that reads back as the same double. */
void tm_jw_double(struct tm_jw *w, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		tm_jw_null(w);		/* JSON has no NaN or infinity */
		return;
	}
	if (before_value(w))
		return;
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	out_s(w, buf);
	after_value(w);
}

void tm_jw_bool(struct tm_jw *w, int v)
{
	if (before_value(w))
		return;
	out_s(w, v ? "true" : "false");
	after_value(w);
}

void tm_jw_null(struct tm_jw *w)
{
	if (before_value(w))
		return;
	out_s(w, "null");
	after_value(w);
}

void tm_jw_kstr(struct tm_jw *w, const char *key, const char *s)
{
	tm_jw_key(w, key);
	tm_jw_str(w, s);
}

void tm_jw_ku64(struct tm_jw *w, const char *key, uint64_t v)
{
	tm_jw_key(w, key);
	tm_jw_u64(w, v);
}

void tm_jw_ki64(struct tm_jw *w, const char *key, int64_t v)
{
	tm_jw_key(w, key);
	tm_jw_i64(w, v);
}

void tm_jw_kdouble(struct tm_jw *w, const char *key, double v)
{
	tm_jw_key(w, key);
	tm_jw_double(w, v);
}

void tm_jw_kfixed(struct tm_jw *w, const char *key, int64_t v, unsigned int decimals)
{
	tm_jw_key(w, key);
	tm_jw_fixed(w, v, decimals);
}

void tm_jw_kbool(struct tm_jw *w, const char *key, int v)
{
	tm_jw_key(w, key);
	tm_jw_bool(w, v);
}

int tm_jw_finish(struct tm_jw *w)
{
	if (w->err)
		return w->err;
	if (w->depth || w->key_due)
		return -EINVAL;
	flush_buf(w);
	if (w->err)
		return w->err;
	if (fflush(w->f) || ferror(w->f))
		return -EIO;
	return 0;
}
