// SPDX-License-Identifier: GPL-2.0
/* Text from a dump in one display form (safetext.h). */
#include <string.h>

#include "safetext.h"

size_t tm_utf8_len(const void *str, size_t len, uint32_t *cpp)
{
	const unsigned char *s = str;
	uint32_t cp;
	size_t n, i;

	if (s[0] < 0x80) {
		n = 1;
		cp = s[0];
		goto out;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
out:
	if (cpp)
		*cpp = cp;
	return n;
}

/*
 * The display form of the character at @s (@len bytes left, at least 1)
 * into @o (at least 4 * 4 bytes); *@used: the input bytes it stands for.
 * Return: the form's length.
 */
static size_t one(const unsigned char *s, size_t len, char *o, size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp = 0;
	size_t n = tm_utf8_len(s, len, &cp), i;

	if (n && cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp <= 0x9f)) {
		*used = n;
		if (cp == '\\') {
			o[0] = o[1] = '\\';
			return 2;
		}
		memcpy(o, s, n);
		return n;
	}
	/* a control character (each of its bytes) or an invalid byte */
	if (!n)
		n = 1;
	for (i = 0; i < n; i++) {
		o[4 * i] = '\\';
		o[4 * i + 1] = 'x';
		o[4 * i + 2] = hex[s[i] >> 4];
		o[4 * i + 3] = hex[s[i] & 15];
	}
	*used = n;
	return 4 * n;
}

void tm_text_put(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, used, m;
	char o[16];

	while (i < n) {
		m = one(s + i, n - i, o, &used);
		fwrite(o, 1, m, f);
		i += used;
	}
}

char *tm_text_fmt(const char *str, size_t n, char *out, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k = 0, used, m;
	char o[16];

	while (i < n) {
		m = one(s + i, n - i, o, &used);
		if (k + m >= len)
			break;
		memcpy(out + k, o, m);
		k += m;
		i += used;
	}
	out[k] = '\0';
	return out;
}
