// SPDX-License-Identifier: GPL-2.0
/*
 * User-space call chains (TIPME_REC_USTACK, the user stack table) as text
 * and JSON: each frame as the file it lies in and its offset there, with
 * the file's build-id, from the mappings tipmed read at dump time.
 */
#include <inttypes.h>
#include <string.h>

#include "family.h"

void pm_print_ustack(FILE *f, const struct pm_dump *pm, uint32_t id, int64_t ns)
{
	const struct pm_ustack *u = id ? pm_ustack_get(pm, id) : NULL;
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	char buf[64];
	size_t n, i;
	int trunc;

	if (!u) {
		fputs(id ? "?" : "(not kept: the table was full)", f);
		return;
	}
	n = pm_ustack_resolve(pm, u, ns, fr, &trunc);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(" <- ", f);
		if (fr[i].map) {
			pm_print_text(f, fr[i].map->name, strlen(fr[i].map->name));
			fprintf(f, "+0x%" PRIx64, fr[i].off);
		} else {
			fputs(pm_fmt_uframe(&fr[i], buf, sizeof(buf)), f);
		}
	}
	if (trunc)
		fputs(" <- ...", f);
}

void pm_json_ustack(struct tm_jw *w, const struct pm_dump *pm, uint32_t id,
		    int64_t ns)
{
	const struct pm_ustack *u = id ? pm_ustack_get(pm, id) : NULL;
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	size_t n = 0, i;
	int trunc = 1;

	if (u)
		n = pm_ustack_resolve(pm, u, ns, fr, &trunc);
	tm_jw_key(w, "user_stack");
	tm_jw_arr_begin(w);
	for (i = 0; i < n; i++) {
		const struct pm_map *m = fr[i].map;

		tm_jw_obj_begin(w);
		if (m) {
			tm_jw_kstr(w, "module", m->name);
			tm_jw_kstr(w, "path", m->path);
			tm_jw_key(w, "build_id");
			if (m->build_id)
				tm_jw_str(w, m->build_id);
			else
				tm_jw_null(w);
			tm_jw_ku64(w, "offset", fr[i].off);
		} else {
			tm_jw_key(w, "module");
			tm_jw_null(w);
			tm_jw_ku64(w, "address", fr[i].addr);
		}
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
	tm_jw_kbool(w, "user_stack_truncated", trunc);
}
