// SPDX-License-Identifier: GPL-2.0
/*
 * A stdio stream (fopencookie) that makes control bytes visible on their
 * way to a file descriptor.  A 0xc2 at the end of one write waits for the
 * next byte, so a C1 control split across writes is still caught.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "termsafe.h"

struct ts {
	int fd;
	int held_c2;	/* the last byte written was 0xc2 */
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * One input byte (with the 0xc2 state) to its output form in @o; returns
 * the output length.  @prev_c2: the byte before was a held 0xc2.
 */
static size_t one(unsigned char c, int prev_c2, char *o)
{
	static const char hex[] = "0123456789abcdef";

	if (prev_c2 && c >= 0x80 && c <= 0x9f) {	/* C1 control */
		memcpy(o, "\\u00", 4);
		o[4] = hex[c >> 4];
		o[5] = hex[c & 15];
		return 6;
	}
	if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
		o[0] = '\\';
		o[1] = 'x';
		o[2] = hex[c >> 4];
		o[3] = hex[c & 15];
		return 4;
	}
	o[0] = (char)c;
	return 1;
}

/*
 * A byte one() passes as it is, outside a held 0xc2: 1 in the table.
 * Built once (tm_termsafe_open()); a table look-up per byte is what makes
 * the filter cheap beside the formatting of what it filters.
 */
static unsigned char plain_tab[256];

static void plain_init(void)
{
	unsigned int c;

	if (plain_tab['a'])
		return;
	for (c = 0; c < 256; c++)
		plain_tab[c] = (c >= 0x20 && c != 0x7f && c != 0xc2) || c == '\n' || c == '\t';
}

/*
 * Long runs of plain bytes go to the file descriptor straight from @buf;
 * short ones and what needs escaping are gathered in a buffer first, so
 * text full of control bytes costs no more system calls than plain text.
 */
#define TS_DIRECT	512	/* a plain run this long is written as it is */

static ssize_t ts_write(void *cookie, const char *buf, size_t size)
{
	struct ts *t = cookie;
	const unsigned char *s = (const unsigned char *)buf;
	char out[4096];
	size_t i = 0, j, n = 0;

	while (i < size) {
		unsigned char c;

		if (!t->held_c2 && plain_tab[s[i]]) {
			for (j = i + 1; j < size && plain_tab[s[j]]; j++)
				;
			if (j - i >= TS_DIRECT || j - i > sizeof(out) - n) {
				if (n && write_all(t->fd, out, n))
					return -1;
				n = 0;
			}
			if (j - i >= TS_DIRECT) {
				if (write_all(t->fd, buf + i, j - i))
					return -1;
			} else {
				memcpy(out + n, buf + i, j - i);
				n += j - i;
			}
			i = j;
			continue;
		}
		if (n + 16 > sizeof(out)) {
			if (write_all(t->fd, out, n))
				return -1;
			n = 0;
		}
		c = s[i++];
		if (t->held_c2) {
			t->held_c2 = 0;
			if (c >= 0x80 && c <= 0x9f) {
				n += one(c, 1, out + n);
				continue;
			}
			out[n++] = (char)0xc2;
		}
		if (c == 0xc2)
			t->held_c2 = 1;
		else
			n += one(c, 0, out + n);
	}
	if (n && write_all(t->fd, out, n))
		return -1;
	return (ssize_t)size;
}

static int ts_close(void *cookie)
{
	struct ts *t = cookie;
	char c2 = (char)0xc2;
	int ret = 0;

	if (t->held_c2 && write_all(t->fd, &c2, 1))
		ret = -1;
	free(t);
	return ret;
}

FILE *tm_termsafe_open(int fd)
{
	cookie_io_functions_t io = { .write = ts_write, .close = ts_close };
	struct ts *t = calloc(1, sizeof(*t));
	FILE *f;

	if (!t)
		return NULL;
	plain_init();
	t->fd = fd;
	f = fopencookie(t, "w", io);
	if (!f)
		free(t);
	return f;
}

static FILE *orig_out, *orig_err, *safe_out, *safe_err;

/* At exit: flush and close the filters, and give stdio its own streams back. */
static void termsafe_restore(void)
{
	if (safe_out) {
		fflush(safe_out);
		stdout = orig_out;
		fclose(safe_out);
		safe_out = NULL;
	}
	if (safe_err) {
		fflush(safe_err);
		stderr = orig_err;
		fclose(safe_err);
		safe_err = NULL;
	}
}

int tm_termsafe_stdio(void)
{
	FILE *o, *e;

	if (safe_out)
		return 0;
	fflush(stdout);
	fflush(stderr);
	o = tm_termsafe_open(STDOUT_FILENO);
	e = o ? tm_termsafe_open(STDERR_FILENO) : NULL;
	if (!e || atexit(termsafe_restore)) {
		int err = errno ? errno : ENOMEM;

		if (e)
			fclose(e);
		if (o)
			fclose(o);
		return -err;
	}
	setvbuf(e, NULL, _IOLBF, 0);
	/* a terminal sees lines as they come; a file or pipe big writes */
	if (isatty(STDOUT_FILENO))
		setvbuf(o, NULL, _IOLBF, 0);
	else
		setvbuf(o, NULL, _IOFBF, 1 << 16);
	orig_out = stdout;
	orig_err = stderr;
	safe_out = o;
	safe_err = e;
	stdout = o;
	stderr = e;
	return 0;
}

char *tm_termsafe_escape(const char *in, size_t n, char *out, size_t len)
{
	size_t i, k = 0;
	char o[8];

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];
		int c1 = c == 0xc2 && i + 1 < n &&
			 (unsigned char)in[i + 1] >= 0x80 && (unsigned char)in[i + 1] <= 0x9f;
		size_t m;

		if (c1)
			m = one((unsigned char)in[++i], 1, o);
		else
			m = one(c, 0, o);
		if (k + m >= len)
			break;
		memcpy(out + k, o, m);
		k += m;
	}
	out[k] = '\0';
	return out;
}
