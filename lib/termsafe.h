/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output that cannot drive a terminal: dumps, incident descriptions and X
 * client names carry bytes chosen by whoever made them (a process name, a
 * NOTE line), and printing them raw would hand that person the user's
 * terminal (escape sequences that retitle, recolour, move the cursor or
 * answer back).  The filter turns every control byte but newline and tab
 * into visible text as it is written.
 */
#ifndef TIPME_LIB_TERMSAFE_H
#define TIPME_LIB_TERMSAFE_H

#include <stddef.h>
#include <stdio.h>

/**
 * tm_termsafe_open() - a stream that writes to a file descriptor with
 *                      control bytes made visible
 * @fd: where the text goes (not closed with the stream)
 *
 * C0 controls other than '\n' and '\t', DEL, and the C1 controls in their
 * UTF-8 form (0xc2 0x80..0x9f) become "\xNN" or "\u00NN"; every other byte,
 * valid UTF-8 text included, passes unchanged.
 *
 * Return: the stream, or NULL with errno set.
 */
FILE *tm_termsafe_open(int fd);

/**
 * tm_termsafe_stdio() - put the filter under stdout and stderr
 *
 * For a program's main(), before it prints anything.  At exit the
 * filters are flushed and closed and stdio gets its own streams back.
 *
 * Return: 0 or a negative errno (the streams are unchanged then).
 */
int tm_termsafe_stdio(void);

/**
 * tm_termsafe_escape() - the filter over a buffer, for a caller that
 *                        formats into memory
 * @in: bytes
 * @n: how many
 * @out: result, NUL-terminated, truncated to fit
 * @len: size of @out (at least 1)
 *
 * Return: @out.
 */
char *tm_termsafe_escape(const char *in, size_t n, char *out, size_t len);

#endif
