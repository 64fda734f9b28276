// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's self-cost record: per type, the records a CPU wrote since
 * its previous batch and the ticks they took.
 */
#include <string.h>

#include "family.h"

static void cost_text(FILE *f, const struct pm_dump *pm,
		      const struct pm_event *ev)
{
	const unsigned char *p;
	size_t i, n = pm_cost_entries(ev, &p);

	for (i = 0; i < n; i++) {
		struct tipme_cost_ent c;

		memcpy(&c, p + i * sizeof(c), sizeof(c));
		fprintf(f, "%s %s %u/%.1fus", i ? "," : "", pm_type_name(pm, c.type),
			c.count, pm_ticks_to_ns(&pm->clock, c.cycles) / 1e3);
	}
	fputc('\n', f);
}

static void cost_json(struct tm_jw *w, const struct pm_dump *pm,
		      const struct pm_event *ev)
{
	const unsigned char *p;
	size_t i, n = pm_cost_entries(ev, &p);

	tm_jw_key(w, "costs");
	tm_jw_arr_begin(w);
	for (i = 0; i < n; i++) {
		struct tipme_cost_ent c;

		memcpy(&c, p + i * sizeof(c), sizeof(c));
		tm_jw_obj_begin(w);
		tm_jw_ku64(w, "type_nr", c.type);
		tm_jw_kstr(w, "type", pm_type_name(pm, c.type));
		tm_jw_ku64(w, "count", c.count);
		tm_jw_ki64(w, "ns", pm_ticks_to_ns(&pm->clock, c.cycles));
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
}

/* no pids: selected by type only */
const struct pm_recops pm_rec_cost = {
	.text = cost_text,
	.json = cost_json,
};
