// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "safetext.h"

void tm_jw_init(struct tm_jw *w, FILE *f, unsigned int flags)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->flags = flags;
}

static void indent(struct tm_jw *w)
{
	int i;

	if (!(w->flags & TM_JW_PRETTY))
		return;
	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
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
			fputc(',', w->f);
		indent(w);
	}
	return 0;
}

/* Called after every complete value. */
static void after_value(struct tm_jw *w)
{
	if (w->depth == 0) {
		fputc('\n', w->f);
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
	fputc(obj ? '{' : '[', w->f);
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
	fputc(obj ? '}' : ']', w->f);
	after_value(w);
}

void tm_jw_obj_begin(struct tm_jw *w) { begin(w, 1); }
void tm_jw_obj_end(struct tm_jw *w) { end(w, 1); }
void tm_jw_arr_begin(struct tm_jw *w) { begin(w, 0); }
void tm_jw_arr_end(struct tm_jw *w) { end(w, 0); }

/* The inside of a JSON string: @len bytes of @str escaped. */
static void escape_body(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = s[i];
		size_t j = i;

		/* a run of plain ASCII goes out in one write */
		while (j < len && s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' && s[j] != '\\')
			j++;
		if (j > i) {
			fwrite(s + i, 1, j - i, f);
			i = j;
			continue;
		}
		switch (c) {
		case '"':  fputs("\\\"", f); i++; continue;
		case '\\': fputs("\\\\", f); i++; continue;
		case '\b': fputs("\\b", f); i++; continue;
		case '\f': fputs("\\f", f); i++; continue;
		case '\n': fputs("\\n", f); i++; continue;
		case '\r': fputs("\\r", f); i++; continue;
		case '\t': fputs("\\t", f); i++; continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
			continue;
		}
		n = tm_utf8_len(s + i, len - i, NULL);
		if (n == 0) {
			fputs("\\ufffd", f);
			i++;
			continue;
		}
		fwrite(s + i, 1, n, f);
		i += n;
	}
}

int tm_jw_escape(FILE *f, const char *str, size_t len)
{
	fputc('"', f);
	escape_body(f, str, len);
	fputc('"', f);
	return ferror(f) ? -EIO : 0;
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
		fputc(',', w->f);
	indent(w);
	tm_jw_escape(w->f, key, strlen(key));
	fputs((w->flags & TM_JW_PRETTY) ? ": " : ":", w->f);
	w->key_due = 1;
}

void tm_jw_strn(struct tm_jw *w, const char *s, size_t len)
{
	if (before_value(w))
		return;
	tm_jw_escape(w->f, s, len);
	after_value(w);
}

void tm_jw_str_begin(struct tm_jw *w)
{
	if (before_value(w))
		return;
	fputc('"', w->f);
	w->in_str = 1;
}

void tm_jw_str_part(struct tm_jw *w, const char *s, size_t len)
{
	if (w->err || !w->in_str) {
		w->err = w->err ? w->err : -EINVAL;
		return;
	}
	escape_body(w->f, s, len);
}

void tm_jw_str_end(struct tm_jw *w)
{
	if (w->err || !w->in_str) {
		w->err = w->err ? w->err : -EINVAL;
		return;
	}
	fputc('"', w->f);
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
	if (before_value(w))
		return;
	fprintf(w->f, "%" PRIu64, v);
	after_value(w);
}

void tm_jw_i64(struct tm_jw *w, int64_t v)
{
	if (before_value(w))
		return;
	fprintf(w->f, "%" PRId64, v);
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
	fprintf(w->f, "%s%" PRIu64, v < 0 ? "-" : "", mag / scale);
	if (n) {
		snprintf(buf, sizeof(buf), "%0*" PRIu64, (int)n, frac);
		fprintf(w->f, ".%s", buf);
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
	fputs(buf, w->f);
	after_value(w);
}

void tm_jw_bool(struct tm_jw *w, int v)
{
	if (before_value(w))
		return;
	fputs(v ? "true" : "false", w->f);
	after_value(w);
}

void tm_jw_null(struct tm_jw *w)
{
	if (before_value(w))
		return;
	fputs("null", w->f);
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
	if (fflush(w->f) || ferror(w->f))
		return -EIO;
	return 0;
}
