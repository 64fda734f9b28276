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

/* A byte one() passes as it is, outside a held 0xc2. */
static int plain(unsigned char c)
{
	return (c >= 0x20 && c != 0x7f && c != 0xc2) || c == '\n' || c == '\t';
}

static ssize_t ts_write(void *cookie, const char *buf, size_t size)
{
	struct ts *t = cookie;
	char out[4096 + 16];
	size_t i, n = 0;

	for (i = 0; i < size; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (!t->held_c2 && plain(c)) {
			/* a run of such bytes is copied as it is */
			size_t j = i, k;

			while (j < size && plain((unsigned char)buf[j]))
				j++;
			while (i < j) {
				k = j - i < sizeof(out) - n ? j - i : sizeof(out) - n;
				memcpy(out + n, buf + i, k);
				n += k;
				i += k;
				if (n >= 4096) {
					if (write_all(t->fd, out, n))
						return -1;
					n = 0;
				}
			}
			i--;	/* the loop's step: on at j */
			continue;
		}

		if (t->held_c2) {
			t->held_c2 = 0;
			if (!(c >= 0x80 && c <= 0x9f))
				out[n++] = (char)0xc2;
			else {
				n += one(c, 1, out + n);
				goto flush;
			}
		}
		if (c == 0xc2) {
			t->held_c2 = 1;
			goto flush;
		}
		n += one(c, 0, out + n);
flush:
		if (n >= 4096) {
			if (write_all(t->fd, out, n))
				return i ? (ssize_t)i : -1;
			n = 0;
		}
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
