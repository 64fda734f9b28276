// SPDX-License-Identifier: GPL-2.0
/* JSON writer: escaping, numbers, structure, misuse detection. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tap.h"

static char out[4096];

/* Run @fn with a writer on a memory stream; the output lands in out[]. */
static int capture(void (*fn)(struct tm_jw *), unsigned int flags)
{
	struct tm_jw w;
	FILE *f = fmemopen(out, sizeof(out), "w");
	int err;

	memset(out, 0, sizeof(out));
	tm_jw_init(&w, f, flags);
	fn(&w);
	err = tm_jw_finish(&w);
	fclose(f);
	return err;
}

static void escapes(struct tm_jw *w)
{
	static const char raw[] = "q\"b\\s/ n\n t\t r\r b\b f\f nul\0 c\001 del\177 é €";

	tm_jw_strn(w, raw, sizeof(raw) - 1);
}

static void bad_utf8(struct tm_jw *w)
{
	tm_jw_str(w, "a\xff" "b\xc3(" "c\xed\xa0\x80" "d\xe2\x82");
}

/* One string value in parts, as the Perfetto export writes its ftrace text. */
static void parts(struct tm_jw *w)
{
	tm_jw_obj_begin(w);
	tm_jw_key(w, "text");
	tm_jw_str_begin(w);
	tm_jw_str_part(w, "a\"b\n", 4);
	tm_jw_str_part(w, "", 0);
	tm_jw_str_part(w, "\xe2\x82\xac\\", 4);
	tm_jw_str_end(w);
	tm_jw_ku64(w, "n", 1);
	tm_jw_obj_end(w);
}

/* A part outside a string value is misuse. */
static void part_outside(struct tm_jw *w)
{
	tm_jw_arr_begin(w);
	tm_jw_str_part(w, "x", 1);
	tm_jw_arr_end(w);
}

static void numbers(struct tm_jw *w)
{
	tm_jw_arr_begin(w);
	tm_jw_u64(w, UINT64_MAX);
	tm_jw_i64(w, INT64_MIN);
	tm_jw_i64(w, -1);
	tm_jw_double(w, 0.1);
	tm_jw_double(w, 16.0);
	tm_jw_double(w, 1.0 / 3.0);
	tm_jw_double(w, NAN);
	tm_jw_double(w, INFINITY);
	tm_jw_bool(w, 1);
	tm_jw_bool(w, 0);
	tm_jw_null(w);
	tm_jw_arr_end(w);
}

static void fixed(struct tm_jw *w)
{
	tm_jw_arr_begin(w);
	tm_jw_fixed(w, 18861, 3);	/* 18.861 us: as a double, 18.860999999567866 */
	tm_jw_fixed(w, 69411234150, 3);
	tm_jw_fixed(w, 5000, 3);
	tm_jw_fixed(w, 0, 3);
	tm_jw_fixed(w, -1, 3);
	tm_jw_fixed(w, -2500, 3);
	tm_jw_fixed(w, 299000000, 6);
	tm_jw_fixed(w, 735128, 6);
	tm_jw_fixed(w, INT64_MIN, 3);
	tm_jw_fixed(w, INT64_MAX, 18);
	tm_jw_fixed(w, 42, 0);
	tm_jw_arr_end(w);
}

static void nested(struct tm_jw *w)
{
	tm_jw_obj_begin(w);
	tm_jw_kstr(w, "name", "x");
	tm_jw_key(w, "list");
	tm_jw_arr_begin(w);
	tm_jw_obj_begin(w);
	tm_jw_obj_end(w);
	tm_jw_arr_begin(w);
	tm_jw_arr_end(w);
	tm_jw_u64(w, 1);
	tm_jw_arr_end(w);
	tm_jw_key(w, "k\"ey");
	tm_jw_null(w);
	tm_jw_obj_end(w);
}

static void lines(struct tm_jw *w)
{
	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "a", 1);
	tm_jw_obj_end(w);
	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "a", 2);
	tm_jw_obj_end(w);
}

static void value_without_key(struct tm_jw *w)
{
	tm_jw_obj_begin(w);
	tm_jw_u64(w, 1);
	tm_jw_obj_end(w);
}

static void unbalanced(struct tm_jw *w)
{
	tm_jw_arr_begin(w);
	tm_jw_obj_end(w);
}

static void unclosed(struct tm_jw *w)
{
	tm_jw_arr_begin(w);
}

static void too_deep(struct tm_jw *w)
{
	int i;

	for (i = 0; i < TM_JW_MAX_DEPTH + 1; i++)
		tm_jw_arr_begin(w);
}

static void pretty(struct tm_jw *w)
{
	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "a", 1);
	tm_jw_key(w, "b");
	tm_jw_arr_begin(w);
	tm_jw_u64(w, 2);
	tm_jw_u64(w, 3);
	tm_jw_arr_end(w);
	tm_jw_key(w, "c");
	tm_jw_obj_begin(w);
	tm_jw_obj_end(w);
	tm_jw_obj_end(w);
}

/* Does python3's json module accept @text (as JSON Lines if @jsonl)? */
static int python_accepts(const char *text, int jsonl)
{
	char cmd[256];
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import sys,json\n"
		 "d=sys.stdin.read()\n"
		 "[json.loads(l) for l in d.splitlines()] if %d else json.loads(d)' 2>/dev/null",
		 jsonl);
	p = popen(cmd, "w");
	if (!p)
		return -1;
	fputs(text, p);
	st = pclose(p);
	return st == 0;
}

int main(void)
{
	int err, py;

	tap_plan(19);

	err = capture(escapes, 0);
	tap_ok(!err && !strcmp(out,
		"\"q\\\"b\\\\s/ n\\n t\\t r\\r b\\b f\\f nul\\u0000 c\\u0001 del\\u007f é €\"\n"),
	       "strings: quotes, backslash, control characters, NUL escaped; UTF-8 kept");
	tap_diag("%s", out);
	py = python_accepts(out, 0);
	tap_ok(py == 1, "python3 json parses the escaped string");

	err = capture(bad_utf8, 0);
	tap_ok(!err && !strcmp(out, "\"a\\ufffdb\\ufffd(c\\ufffd\\ufffd\\ufffdd\\ufffd\\ufffd\"\n"),
	       "invalid UTF-8 (stray byte, truncated, surrogate) becomes U+FFFD");
	tap_diag("%s", out);

	err = capture(parts, 0);
	tap_ok(!err && !strcmp(out, "{\"text\":\"a\\\"b\\n\xe2\x82\xac\\\\\",\"n\":1}\n"),
	       "a string in parts: escaped as one, then the object goes on");
	tap_diag("%s", out);
	tap_ok(python_accepts(out, 0) == 1, "python3 json parses the string written in parts");
	err = capture(part_outside, 0);
	tap_ok(err == -EINVAL, "a part outside a string value: EINVAL");

	err = capture(numbers, 0);
	tap_ok(!err && !strcmp(out, "[18446744073709551615,-9223372036854775808,-1,0.1,16,"
			       "0.33333333333333331,null,null,true,false,null]\n"),
	       "u64/i64 extremes, shortest round-trip doubles, NaN/inf as null");
	tap_diag("%s", out);
	tap_ok(python_accepts(out, 0) == 1, "python3 json parses the numbers");

	err = capture(fixed, 0);
	tap_ok(!err && !strcmp(out, "[18.861,69411234.15,5,0,-0.001,-2.5,299,0.735128,"
			       "-9223372036854775.808,9.223372036854775807,42]\n"),
	       "fixed point: exact decimals, trailing zeros and a whole number's point dropped");
	tap_diag("%s", out);
	tap_ok(python_accepts(out, 0) == 1, "python3 json parses the fixed-point numbers");

	err = capture(nested, 0);
	tap_ok(!err && !strcmp(out, "{\"name\":\"x\",\"list\":[{},[],1],\"k\\\"ey\":null}\n"),
	       "nested objects and arrays, escaped key");
	tap_diag("%s", out);

	err = capture(lines, 0);
	tap_ok(!err && !strcmp(out, "{\"a\":1}\n{\"a\":2}\n"),
	       "top-level values end with a newline (JSON Lines)");
	tap_ok(python_accepts(out, 1) == 1, "python3 reads them as JSON Lines");

	err = capture(pretty, TM_JW_PRETTY);
	tap_ok(!err && !strcmp(out, "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ],\n  \"c\": {}\n}\n"),
	       "pretty printing");
	tap_diag("%s", out);
	tap_ok(python_accepts(out, 0) == 1, "python3 parses the pretty output");

	tap_ok(capture(value_without_key, 0) == -EINVAL, "value without key is an error");
	tap_ok(capture(unbalanced, 0) == -EINVAL, "mismatched end is an error");
	tap_ok(capture(unclosed, 0) == -EINVAL, "unclosed array is an error");
	tap_ok(capture(too_deep, 0) == -EINVAL, "nesting deeper than TM_JW_MAX_DEPTH is an error");
	return tap_done();
}
