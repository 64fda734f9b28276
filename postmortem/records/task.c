// SPDX-License-Identifier: GPL-2.0
/*
 * Fields the record printers share: threads by pid and name, escaped text
 * and argv, stack frames by symbol.
 */
#include <inttypes.h>
#include <string.h>

#include "../dump/tables.h"
#include "safetext.h"
#include "family.h"

const char *pm_task_name(const struct pm_dump *pm, uint32_t pid, uint64_t ts)
{
	const struct pm_exec *x = pid ? pm_exec_find(pm, pid, ts) : NULL;

	return x && x->name[0] ? x->name : NULL;	/* comm is NUL-padded */
}

char *pm_fmt_task(const struct pm_dump *pm, uint32_t pid, uint64_t ts,
		  char *buf, size_t len)
{
	const char *name = pm_task_name(pm, pid, ts);

	if (name)
		snprintf(buf, len, "%s:%" PRIu32, name, pid);
	else
		snprintf(buf, len, "%" PRIu32, pid);
	return buf;
}

void pm_rec_json_task(struct tm_jw *w, const struct pm_dump *pm, const char *key,
		      const char *name_key, uint32_t pid, uint64_t ts)
{
	const char *name = pm_task_name(pm, pid, ts);
	char k[48];

	tm_jw_ku64(w, key, pid);
	if (!name)
		return;
	if (!name_key) {
		snprintf(k, sizeof(k), "%s_comm", key);
		name_key = k;
	}
	tm_jw_kstr(w, name_key, name);
}

void pm_print_text(FILE *f, const char *s, size_t len)
{
	tm_text_put(f, s, len);
}

/* Arguments quoted on one line, NULs as spaces; at most @max bytes shown. */
void pm_print_argv(FILE *f, const char *a, size_t len, size_t max)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < len && i < max; i++) {
		unsigned char c = (unsigned char)a[i];

		if (!c) {
			if (i + 1 < len)
				fputc(' ', f);
		} else if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
			fprintf(f, "\\x%02x", c);
		} else {
			fputc(c, f);
		}
	}
	fputc('"', f);
	if (i < len)
		fputs("...", f);
}

void pm_rec_print_frames(FILE *f, const struct pm_dump *pm, const uint64_t *a,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t off;
		const char *name = pm_sym_name(pm, a[i], &off);

		if (i)
			fputs(" <- ", f);
		if (name && strchr(name, ' '))	/* "func [module]" */
			fprintf(f, "%.*s+0x%" PRIx64 "%s", (int)(strchr(name, ' ') - name),
				name, off, strchr(name, ' '));
		else if (name)
			fprintf(f, "%s+0x%" PRIx64, name, off);
		else
			fprintf(f, "0x%" PRIx64, a[i]);
	}
}

void pm_rec_json_frames(struct tm_jw *w, const struct pm_dump *pm,
			const char *key, const uint64_t *a, size_t n)
{
	char buf[32];
	size_t i;

	tm_jw_key(w, key);
	tm_jw_arr_begin(w);
	for (i = 0; i < n; i++) {
		const char *name = pm_sym_name(pm, a[i], NULL);

		if (name) {
			tm_jw_str(w, name);
		} else {
			snprintf(buf, sizeof(buf), "0x%" PRIx64, a[i]);
			tm_jw_str(w, buf);
		}
	}
	tm_jw_arr_end(w);
}
