// SPDX-License-Identifier: GPL-2.0
/*
 * Well-formedness of JSON and XML outputs (wellformed.h): small recursive
 * checkers, strict where a reader would be (UTF-8, escapes, numbers,
 * nesting, matching tags), nothing more.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safetext.h"
#include "wellformed.h"

#define MAX_DEPTH	256

/*
 * The checkers walk every byte of every output: without the fuzzer's
 * coverage and comparison hooks on each of them (which made the X dump
 * harness 4.5 times slower), as they guide no mutation.
 */
#ifdef __clang__
#pragma clang attribute push(__attribute__((no_sanitize("coverage"))), apply_to = function)
#endif

struct in {
	const unsigned char *s;
	size_t n, i;
};

static int more(const struct in *p)
{
	return p->i < p->n;
}

static int peek(const struct in *p)
{
	return more(p) ? p->s[p->i] : -1;
}

static void ws(struct in *p)
{
	while (more(p) && (peek(p) == ' ' || peek(p) == '\t' || peek(p) == '\n' ||
			   peek(p) == '\r'))
		p->i++;
}

static int lit(struct in *p, const char *w)
{
	size_t l = strlen(w);

	if (p->n - p->i < l || memcmp(p->s + p->i, w, l))
		return 0;
	p->i += l;
	return 1;
}

static int hex4(struct in *p)
{
	int k;

	for (k = 0; k < 4; k++, p->i++)
		if (!more(p) || !strchr("0123456789abcdefABCDEF", peek(p)) || !peek(p))
			return 0;
	return 1;
}

/* A JSON string: valid UTF-8, no control character, known escapes. */
static int jstring(struct in *p)
{
	size_t l;

	if (peek(p) != '"')
		return 0;
	p->i++;
	while (more(p)) {
		int c = peek(p);

		/* the common case first: plain ASCII */
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			p->i++;
			continue;
		}
		if (c == '"') {
			p->i++;
			return 1;
		}
		if (c < 0x20)
			return 0;
		if (c == '\\') {
			p->i++;
			c = peek(p);
			if (c == 'u') {
				p->i++;
				if (!hex4(p))
					return 0;
			} else if (c >= 0 && strchr("\"\\/bfnrt", c) && c) {
				p->i++;
			} else {
				return 0;
			}
			continue;
		}
		l = tm_utf8_len(p->s + p->i, p->n - p->i, NULL);
		if (!l)
			return 0;
		p->i += l;
	}
	return 0;
}

static int digits(struct in *p)
{
	size_t st = p->i;

	while (more(p) && peek(p) >= '0' && peek(p) <= '9')
		p->i++;
	return p->i > st;
}

static int jnumber(struct in *p)
{
	if (peek(p) == '-')
		p->i++;
	if (peek(p) == '0')
		p->i++;
	else if (!digits(p))
		return 0;
	if (peek(p) == '.') {
		p->i++;
		if (!digits(p))
			return 0;
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		p->i++;
		if (peek(p) == '+' || peek(p) == '-')
			p->i++;
		if (!digits(p))
			return 0;
	}
	return 1;
}

static int jvalue(struct in *p, int depth)
{
	int c, first;

	if (depth > MAX_DEPTH)
		return 0;
	ws(p);
	c = peek(p);
	if (c == '"')
		return jstring(p);
	if (c == '{' || c == '[') {
		int obj = c == '{';

		p->i++;
		ws(p);
		if (peek(p) == (obj ? '}' : ']')) {
			p->i++;
			return 1;
		}
		for (first = 1;; first = 0) {
			if (!first) {
				ws(p);
				c = peek(p);
				if (c == (obj ? '}' : ']')) {
					p->i++;
					return 1;
				}
				if (c != ',')
					return 0;
				p->i++;
			}
			if (obj) {
				ws(p);
				if (!jstring(p))
					return 0;
				ws(p);
				if (peek(p) != ':')
					return 0;
				p->i++;
			}
			if (!jvalue(p, depth + 1))
				return 0;
		}
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return jnumber(p);
	return lit(p, "true") || lit(p, "false") || lit(p, "null");
}

int fuzz_json_ok(const char *s, size_t n)
{
	struct in p = { (const unsigned char *)s, n, 0 };

	if (!jvalue(&p, 0))
		return 0;
	ws(&p);
	return !more(&p);
}

int fuzz_jsonl_ok(const char *s, size_t n)
{
	size_t a = 0, b;

	while (a < n) {
		const char *nl = memchr(s + a, '\n', n - a);

		b = nl ? (size_t)(nl - s) : n;
		if (b > a && !fuzz_json_ok(s + a, b - a))
			return 0;
		a = b + 1;
	}
	return 1;
}

/* An XML 1.0 character (one UTF-8 sequence) at the cursor; 0 if not. */
static int xchar(struct in *p)
{
	uint32_t cp;
	size_t l;

	if (p->s[p->i] >= 0x20 && p->s[p->i] < 0x80) {
		p->i++;
		return 1;
	}
	l = tm_utf8_len(p->s + p->i, p->n - p->i, &cp);

	if (!l || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	p->i += l;
	return 1;
}

static int name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static int xname(struct in *p)
{
	if (!name_start(peek(p)))
		return 0;
	while (more(p) && (name_start(peek(p)) || peek(p) == '-' || peek(p) == '.' ||
			   (peek(p) >= '0' && peek(p) <= '9')))
		p->i++;
	return 1;
}

/* An entity or character reference after its '&'. */
static int xref(struct in *p)
{
	static const char *const ents[] = { "lt;", "gt;", "amp;", "quot;", "apos;" };
	size_t k;

	p->i++;
	for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++)
		if (lit(p, ents[k]))
			return 1;
	if (!lit(p, "#"))
		return 0;
	if (lit(p, "x")) {
		size_t st = p->i;

		while (more(p) && peek(p) && strchr("0123456789abcdefABCDEF", peek(p)))
			p->i++;
		return p->i > st && lit(p, ";");
	}
	return digits(p) && lit(p, ";");
}

/* Character data up to the next '<' (or the end). */
static int xtext(struct in *p)
{
	while (more(p) && peek(p) != '<') {
		if (peek(p) == '&') {
			if (!xref(p))
				return 0;
		} else if (!xchar(p)) {
			return 0;
		}
	}
	return 1;
}

static int xattrs(struct in *p)
{
	for (;;) {
		size_t st = p->i;

		ws(p);
		if (peek(p) == '>' || peek(p) == '/' || peek(p) == '?')
			return 1;
		if (p->i == st || !xname(p))
			return 0;
		ws(p);
		if (!lit(p, "="))
			return 0;
		ws(p);
		if (!lit(p, "\""))
			return 0;
		while (more(p) && peek(p) != '"') {
			if (peek(p) == '<')
				return 0;
			if (peek(p) == '&') {
				if (!xref(p))
					return 0;
			} else if (!xchar(p)) {
				return 0;
			}
		}
		if (!lit(p, "\""))
			return 0;
	}
}

/* Comments and white space between the parts of the prolog and epilogue. */
static int xmisc(struct in *p)
{
	for (;;) {
		ws(p);
		if (!lit(p, "<!--"))
			return 1;
		while (more(p) && !lit(p, "-->"))
			if (!xchar(p))
				return 0;
	}
}

int fuzz_xml_ok(const char *s, size_t n)
{
	struct in p = { (const unsigned char *)s, n, 0 };
	size_t stack[MAX_DEPTH], len[MAX_DEPTH], st;
	int depth = 0, roots = 0;

	if (lit(&p, "<?xml")) {
		if (!xattrs(&p) || !lit(&p, "?>"))
			return 0;
	}
	if (!xmisc(&p))
		return 0;
	while (more(&p)) {
		if (depth == 0) {
			if (roots || peek(&p) != '<')
				return 0;
		} else if (!xtext(&p)) {
			return 0;
		}
		if (!more(&p))
			break;
		if (lit(&p, "<!--")) {
			while (more(&p) && !lit(&p, "-->"))
				if (!xchar(&p))
					return 0;
			continue;
		}
		if (lit(&p, "</")) {
			st = p.i;
			if (!depth || !xname(&p) || p.i - st != len[depth - 1] ||
			    memcmp(p.s + st, p.s + stack[depth - 1], p.i - st))
				return 0;
			ws(&p);
			if (!lit(&p, ">"))
				return 0;
			if (--depth == 0) {
				roots++;
				if (!xmisc(&p))
					return 0;
			}
			continue;
		}
		if (!lit(&p, "<"))
			return 0;
		st = p.i;
		if (!xname(&p))
			return 0;
		if (depth == MAX_DEPTH)
			return 0;
		stack[depth] = st;
		len[depth] = p.i - st;
		if (!xattrs(&p))
			return 0;
		if (lit(&p, "/>")) {
			if (depth == 0) {
				roots++;
				if (!xmisc(&p))
					return 0;
			}
			continue;
		}
		if (!lit(&p, ">"))
			return 0;
		depth++;
	}
	return depth == 0 && roots == 1;
}

void fuzz_require(const char *kind, const char *what, const char *s, size_t n)
{
	int ok = !strcmp(kind, "json") ? fuzz_json_ok(s, n) :
		 !strcmp(kind, "jsonl") ? fuzz_jsonl_ok(s, n) : fuzz_xml_ok(s, n);

	if (ok)
		return;
	fprintf(stderr, "fuzz: %s: not well-formed %s (%zu bytes):\n%.*s\n", what, kind, n,
		n > 4000 ? 4000 : (int)n, s);
	abort();
}

void fuzz_wellformed_selftest(void)
{
	static const char *const good_json[] = {
		"{\"a\":[1,-2.5e3,0.0,true,null,\"x\\u00e9\\n\xc3\xa9\"],\"b\":{}}\n",
		"[]", " \"\" ",
	};
	static const char *const bad_json[] = {
		"{\"a\":1,}", "\"\xff\"", "{\"a\":\"b\nc\"}", "[1 2]", "01", "{} {}",
		"\"\\x\"", "[1.]", "",
	};
	static const char *const good_xml[] = {
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg a=\"1 &quot;\">"
		"<title>x &amp; y &#233;\xc3\xa9</title><g/><!-- c --></svg>\n",
		"<a/>",
	};
	static const char *const bad_xml[] = {
		"<svg><title>\xff</title></svg>", "<svg><a></svg>", "<svg>a & b</svg>",
		"<svg>\x01</svg>", "<a/><b/>", "<svg a=\"<\"/>", "<svg", "text",
		"<svg>\xef\xbf\xbe</svg>", "<svg a=1/>",
	};
	size_t i;

	for (i = 0; i < sizeof(good_json) / sizeof(good_json[0]); i++)
		if (!fuzz_json_ok(good_json[i], strlen(good_json[i])))
			fuzz_require("json", "self-test: good JSON refused", good_json[i],
				     strlen(good_json[i]));
	for (i = 0; i < sizeof(bad_json) / sizeof(bad_json[0]); i++)
		if (fuzz_json_ok(bad_json[i], strlen(bad_json[i]))) {
			fprintf(stderr, "fuzz: self-test: bad JSON %zu accepted\n", i);
			abort();
		}
	for (i = 0; i < sizeof(good_xml) / sizeof(good_xml[0]); i++)
		if (!fuzz_xml_ok(good_xml[i], strlen(good_xml[i])))
			fuzz_require("xml", "self-test: good XML refused", good_xml[i],
				     strlen(good_xml[i]));
	for (i = 0; i < sizeof(bad_xml) / sizeof(bad_xml[0]); i++)
		if (fuzz_xml_ok(bad_xml[i], strlen(bad_xml[i]))) {
			fprintf(stderr, "fuzz: self-test: bad XML %zu accepted\n", i);
			abort();
		}
}

#ifdef __clang__
#pragma clang attribute pop
#endif
