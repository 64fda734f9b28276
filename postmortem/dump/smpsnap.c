// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler's table as a dump began (TIPME_SEC_SMPSNAP): every thread
 * the sampler knew, as it last looked at each.  Older dumps have none.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"
#include "tables.h"

static int snap_fail(const struct tm_dump_sec *s, struct tm_err *e,
		     const char *what)
{
	return tm_err_set(e, EINVAL, "section %" PRIu32 " (sampler snapshot): %s",
			  s->index, what);
}

int pm_smpsnap_load(struct pm_instr *in, const struct tm_dump_sec *s,
		    struct tm_err *e)
{
	const unsigned char *p = s->data;
	struct tipme_smpsnap_hdr h = { 0 };
	struct tipme_smpsnap_ent *ents;
	size_t i, esz;

	if (in->have_smpsnap)
		return snap_fail(s, e, "a second snapshot");
	if (s->h.size < 12)
		return snap_fail(s, e, "too short for its header");
	memcpy(&h, p, 12);
	if (h.hdr_size < 12 || h.hdr_size > s->h.size)
		return snap_fail(s, e, "header size past the section");
	memcpy(&h, p, h.hdr_size < sizeof(h) ? h.hdr_size : sizeof(h));
	if (h.reserved)
		return snap_fail(s, e, "its header's reserved field is not zero");
	/* a reader knows the fields up to @flags, a later module may add */
	if (h.ent_size < offsetof(struct tipme_smpsnap_ent, reserved))
		return snap_fail(s, e, "entries too short");
	esz = h.ent_size;
	if (h.count > (s->h.size - h.hdr_size) / esz)
		return snap_fail(s, e, "more entries than the section holds");
	ents = malloc((h.count ? h.count : 1) * sizeof(*ents));
	if (!ents)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (i = 0; i < h.count; i++) {
		memset(&ents[i], 0, sizeof(ents[i]));
		memcpy(&ents[i], p + h.hdr_size + i * esz,
		       esz < sizeof(ents[i]) ? esz : sizeof(ents[i]));
		if (ents[i].reserved) {
			free(ents);
			return snap_fail(s, e, "an entry's reserved field is not zero");
		}
	}
	in->snhdr = h;
	in->snap = ents;
	in->nr_snap = h.count;
	in->have_smpsnap = 1;
	return 0;
}
