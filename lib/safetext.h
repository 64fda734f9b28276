/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text from a dump in tipme's outputs, in one form everywhere: a command
 * name, a client name or a path is chosen by whoever ran the program
 * (prctl(PR_SET_NAME) takes any byte but NUL), and printed raw a newline
 * in it forges lines of a text output, an invalid UTF-8 byte makes an SVG
 * or a JSON document ill-formed.  The text printers write such fields in
 * their display form (tm_text_put(), tm_text_fmt()); the JSON writer
 * (json.h) and the XML text writer (xmltext.h) take the same UTF-8 rule
 * from tm_utf8_len().
 *
 * The display form: valid UTF-8 but the control characters passes
 * unchanged; a backslash becomes "\\"; every control character (C0
 * including newline and tab, DEL, the C1 controls U+0080..U+009F) and
 * every byte that is not part of a valid UTF-8 sequence becomes "\xNN",
 * byte by byte.  It is one line of valid UTF-8, and it tells the bytes
 * apart (no two names have the same form).
 */
#ifndef TIPME_LIB_SAFETEXT_H
#define TIPME_LIB_SAFETEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest display form of one byte ("\xNN"). */
#define TM_TEXT_PER_BYTE	4

/**
 * tm_utf8_len() - the valid UTF-8 sequence at the start of some bytes
 * @s: the bytes
 * @len: how many there are (at least 1)
 * @cp: set to the code point, if not NULL
 *
 * Overlong forms, surrogates, values above U+10FFFF and sequences cut by
 * @len are not valid.
 *
 * Return: the sequence's length (1..4), 0 if @s does not start one.
 */
size_t tm_utf8_len(const void *s, size_t len, uint32_t *cp);

/**
 * tm_text_put() - write a field's display form
 * @f: the output
 * @s: the field's bytes (a NUL among them is "\x00": give a NUL-padded
 *	name's strnlen())
 * @n: how many
 */
void tm_text_put(FILE *f, const char *s, size_t n);

/**
 * tm_text_fmt() - a field's display form in a buffer
 * @s: the field's bytes, as for tm_text_put()
 * @n: how many
 * @out: the display form, NUL-terminated; cut before the first character
 *	or escape that does not fit whole
 * @len: size of @out (at least 1); 4 * @n + 1 always holds it whole
 *
 * Return: @out, for use as a printf argument.
 */
char *tm_text_fmt(const char *s, size_t n, char *out, size_t len);

#endif
