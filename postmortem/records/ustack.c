// SPDX-License-Identifier: GPL-2.0
/*
 * User-space call chains (TIPME_REC_USTACK, the user stack table) as text
 * and JSON: each frame as its function, source line and the functions
 * inlined there when the file the dump's build-id names is found
 * (dump/usym.h), else as the file it lies in and its offset there, from
 * the mappings tipmed read at dump time.
 */
#include <inttypes.h>
#include <string.h>

#include "../dump/usym.h"
#include "family.h"

static const char *last_part(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* "f", "f (app.c:88)", "f (inlined, util.h:12)" into @buf */
static const char *sym_text(const struct pm_usym *s, char *buf, size_t len)
{
	const char *file = s->file ? last_part(s->file) : NULL;

	if (!s->inlined && !file)
		snprintf(buf, len, "%s", s->func);
	else if (!file)
		snprintf(buf, len, "%s (inlined)", s->func);
	else
		snprintf(buf, len, "%s (%s%s:%" PRIu32 ")", s->func, s->inlined ? "inlined, " : "",
			 file, s->line);
	return buf;
}

static void print_sym(FILE *f, const struct pm_usym *s)
{
	char buf[1024];

	sym_text(s, buf, sizeof(buf));
	pm_print_text(f, buf, strlen(buf));
}

void pm_print_ustack(FILE *f, const struct pm_dump *pm, uint32_t id, int64_t ns)
{
	const struct pm_ustack *u = id ? pm_ustack_get(pm, id) : NULL;
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	struct pm_usym sym[PM_USYM_MAX];
	char buf[64];
	size_t n, i, k, nsym;
	int trunc;

	if (!u) {
		fputs(id ? "?" : "(not kept: the table was full)", f);
		return;
	}
	n = pm_ustack_resolve(pm, u, ns, fr, &trunc);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(" <- ", f);
		nsym = pm_usym_frame(pm, &fr[i], i > 0, sym);
		for (k = 0; k < nsym; k++) {
			if (k)
				fputs(" <- ", f);
			print_sym(f, &sym[k]);
		}
		if (nsym)
			continue;
		if (fr[i].map) {
			pm_print_text(f, fr[i].map->name, strlen(fr[i].map->name));
			fprintf(f, "+0x%" PRIx64, fr[i].off);
		} else {
			fputs(pm_fmt_uframe(&fr[i], buf, sizeof(buf)), f);
		}
	}
	if (trunc)
		fputs(n ? " <- ..." : "...", f);
}

static void json_kstr_or_null(struct tm_jw *w, const char *key, const char *s)
{
	tm_jw_key(w, key);
	if (s)
		tm_jw_str(w, s);
	else
		tm_jw_null(w);
}

/* One object of "user_stack": @s NULL for a frame no symbol covers. */
static void json_frame(struct tm_jw *w, const struct pm_uframe *fr,
		       const struct pm_usym *s)
{
	const struct pm_map *m = fr->map;

	tm_jw_obj_begin(w);
	json_kstr_or_null(w, "func", s ? s->func : NULL);
	json_kstr_or_null(w, "file", s ? s->file : NULL);
	tm_jw_key(w, "line");
	if (s && s->file)
		tm_jw_u64(w, s->line);
	else
		tm_jw_null(w);
	tm_jw_kbool(w, "inlined", s && s->inlined);
	if (m) {
		tm_jw_kstr(w, "module", m->name);
		tm_jw_kstr(w, "path", m->path);
		json_kstr_or_null(w, "build_id", m->build_id);
		tm_jw_ku64(w, "offset", fr->off);
	} else {
		tm_jw_key(w, "module");
		tm_jw_null(w);
		tm_jw_ku64(w, "address", fr->addr);
	}
	tm_jw_obj_end(w);
}

/* Chain @id's frames (none, truncated, for a number the table lacks). */
static size_t frames_of(const struct pm_dump *pm, uint32_t id, int64_t ns,
			struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX], int *trunc)
{
	const struct pm_ustack *u = id ? pm_ustack_get(pm, id) : NULL;

	*trunc = 1;
	return u ? pm_ustack_resolve(pm, u, ns, fr, trunc) : 0;
}

void pm_json_ustack(struct tm_jw *w, const struct pm_dump *pm, uint32_t id,
		    int64_t ns)
{
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	struct pm_usym sym[PM_USYM_MAX];
	size_t n, i, k, nsym;
	int trunc;

	n = frames_of(pm, id, ns, fr, &trunc);
	tm_jw_key(w, "user_stack");
	tm_jw_arr_begin(w);
	for (i = 0; i < n; i++) {
		nsym = pm_usym_frame(pm, &fr[i], i > 0, sym);
		for (k = 0; k < nsym; k++)
			json_frame(w, &fr[i], &sym[k]);
		if (!nsym)
			json_frame(w, &fr[i], NULL);
	}
	tm_jw_arr_end(w);
	tm_jw_kbool(w, "user_stack_truncated", trunc);
}

int pm_json_ustack_names(struct tm_jw *w, const struct pm_dump *pm, uint32_t id,
			 int64_t ns)
{
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	struct pm_usym sym[PM_USYM_MAX];
	size_t n, i, k, nsym;
	char buf[1024];
	int trunc;

	n = frames_of(pm, id, ns, fr, &trunc);
	tm_jw_arr_begin(w);
	for (i = 0; i < n; i++) {
		nsym = pm_usym_frame(pm, &fr[i], i > 0, sym);
		for (k = 0; k < nsym; k++)
			tm_jw_str(w, sym_text(&sym[k], buf, sizeof(buf)));
		if (nsym)
			continue;
		if (fr[i].map)
			snprintf(buf, sizeof(buf), "%s+0x%" PRIx64, fr[i].map->name, fr[i].off);
		else
			pm_fmt_uframe(&fr[i], buf, sizeof(buf));
		tm_jw_str(w, buf);
	}
	tm_jw_arr_end(w);
	return trunc;
}
