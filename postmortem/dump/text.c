// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the dump's "key=value" text sections (params, system): its
 * loader (load.c) and the symbol table (symbols.c) both ask them.
 */
#include <errno.h>
#include <string.h>

#include "pm.h"

int pm_text_next(const struct pm_text *t, size_t *pos, const char **line,
		 size_t *len)
{
	const char *nl;

	while (t->text && *pos < t->len) {
		*line = t->text + *pos;
		nl = memchr(*line, '\n', t->len - *pos);
		*len = nl ? (size_t)(nl - *line) : t->len - *pos;
		*pos += *len + (nl ? 1 : 0);
		if (*len)
			return 1;
	}
	return 0;
}

int pm_text_get(const struct pm_text *t, const char *key, char *out,
		size_t size)
{
	size_t kl = strlen(key), pos = 0, n;
	const char *line;

	while (pm_text_next(t, &pos, &line, &n)) {
		if (n > kl && !memcmp(line, key, kl) && line[kl] == '=') {
			n -= kl + 1;
			if (n >= size)
				n = size - 1;
			memcpy(out, line + kl + 1, n);
			out[n] = '\0';
			return 0;
		}
	}
	return -ENOENT;
}
