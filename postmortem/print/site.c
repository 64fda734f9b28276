// SPDX-License-Identifier: GPL-2.0
/* Blocking sites of thread stretches, and their user chains, for why and latency. */
#include "../dump/tables.h"
#include "../records/records.h"
#include "site.h"

void pm_print_seg_site(FILE *f, const struct pm_dump *pm,
		       const struct pm_seg *s)
{
	uint32_t i;

	for (i = 0; i < s->nsite; i++) {
		const char *n = pm_sym_name(pm, s->site[i], NULL);

		fprintf(f, "%s%s", i ? " <- " : " in ", n ? n : "?");
	}
	if (s->ustack) {
		fputs(" [user: ", f);
		pm_print_ustack(f, pm, s->ustack, s->start_ns);
		fputc(']', f);
	}
}

void pm_json_seg_site(struct tm_jw *w, const struct pm_dump *pm,
		      const struct pm_seg *s)
{
	uint32_t i;

	tm_jw_key(w, "site");
	tm_jw_arr_begin(w);
	for (i = 0; i < s->nsite; i++) {
		const char *n = pm_sym_name(pm, s->site[i], NULL);

		tm_jw_str(w, n ? n : "?");
	}
	tm_jw_arr_end(w);
	if (s->ustack)
		pm_json_ustack(w, pm, s->ustack, s->start_ns);
}
