// SPDX-License-Identifier: GPL-2.0
/*
 * The control-byte filter under tipme's and tipme-xhook's output: what it
 * escapes, what it leaves alone (text, UTF-8), a C1 control split
 * across two writes, and long text with plain runs of every length (the
 * stream writes long runs straight through) cut at arbitrary points.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "termsafe.h"

/*
 * @n bytes of text: plain runs from 1 to 1500 bytes long, between them a
 * control byte, a C1 control, a lone 0xc2 or UTF-8; the same for a seed.
 */
static void mixed(char *buf, size_t n, unsigned int seed)
{
	static const char *const between[] = { "\x1b", "\xc2\x85", "\xc2", "\xc3\xa9", "\n" };
	size_t i = 0, run, k;

	while (i < n) {
		seed = seed * 1103515245u + 12345u;
		run = 1 + (seed >> 8) % 1500;
		for (k = 0; k < run && i < n; k++, i++)
			buf[i] = (char)('a' + (i + seed) % 26);
		for (k = 0; between[seed % 5][k] && i < n; k++, i++)
			buf[i] = between[seed % 5][k];
	}
}

/* Write the pieces through a filter stream into a pipe; read it back. */
static void through(const char *const *pieces, size_t n, char *out, size_t len)
{
	int fd[2];
	FILE *f;
	size_t i;
	ssize_t got;

	out[0] = '\0';
	if (pipe(fd))
		return;
	f = tm_termsafe_open(fd[1]);
	for (i = 0; f && i < n; i++) {
		fputs(pieces[i], f);
		fflush(f);
	}
	if (f)
		fclose(f);
	close(fd[1]);
	got = read(fd[0], out, len - 1);
	out[got > 0 ? got : 0] = '\0';
	close(fd[0]);
}

int main(void)
{
	static const struct { const char *in, *out, *what; } vec[] = {
		{ "plain text\tand a tab\n", "plain text\tand a tab\n", "text, tab and newline pass" },
		{ "\x1b]0;owned\x07", "\\x1b]0;owned\\x07", "an OSC title sequence is made visible" },
		{ "a\rb\bc\x7f", "a\\x0db\\x08c\\x7f", "CR, BS and DEL are made visible" },
		{ "\xc2\x9b" "31m", "\\u009b31m", "the 8-bit CSI (UTF-8 C1) is made visible" },
		{ "caf\xc3\xa9 \xc2\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xc2\xa9 \xe2\x82\xac",
		  "UTF-8 text (é, ©, €) passes unchanged" },
	};
	static const char *const split[] = { "x\xc2", "\x85y\xc2", "z" };
	char out[256];
	size_t i;

	static char big[12000], cut[8][12000], want[65536], got[65536];
	const char *pieces[8];
	size_t at;

	tap_plan((int)(2 * sizeof(vec) / sizeof(vec[0]) + 3));
	for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		const char *one[] = { vec[i].in };

		through(one, 1, out, sizeof(out));
		tap_ok(!strcmp(out, vec[i].out), "stream: %s", vec[i].what);
		tm_termsafe_escape(vec[i].in, strlen(vec[i].in), out, sizeof(out));
		tap_ok(!strcmp(out, vec[i].out), "buffer: %s", vec[i].what);
	}
	through(split, 3, out, sizeof(out));
	tap_ok(!strcmp(out, "x\\u0085y\xc2z"),
	       "a C1 control split across writes is caught; a lone 0xc2 is kept");
	tm_termsafe_escape("\x1b\x1b\x1b\x1b", 4, out, 9);
	tap_ok(!strcmp(out, "\\x1b\\x1b"), "the buffer form truncates whole escapes only");
	/* long mixed text, cut in 8 pieces at odd places (a 0xc2 may end one) */
	mixed(big, sizeof(big) - 1, 7);
	tm_termsafe_escape(big, sizeof(big) - 1, want, sizeof(want));
	for (i = 0, at = 0; i < 8; i++) {
		size_t len = i < 7 ? 37 + i * 1499 % 2900 : sizeof(big) - 1 - at;

		memcpy(cut[i], big + at, len);
		cut[i][len] = '\0';
		pieces[i] = cut[i];
		at += len;
	}
	through(pieces, 8, got, sizeof(got));
	tap_ok(at == sizeof(big) - 1 && !strcmp(got, want),
	       "long text in pieces: the stream gives what the buffer form gives (%zu bytes)",
	       strlen(want));
	return tap_done();
}
