// SPDX-License-Identifier: GPL-2.0
/*
 * The records that mark moments: a trigger (why the dump was taken) and
 * an input event seen by the kernel.
 */
#include <inttypes.h>

#include "family.h"
#include "names.h"

/* "release", "press", "repeat" for keys and buttons */
static const char *input_value_name(unsigned int v)
{
	static const char *const names[] = { "release", "press", "repeat" };

	return v < 3 ? names[v] : "?";
}

static void marks_text(FILE *f, const struct pm_dump *pm,
		       const struct pm_event *ev)
{
	(void)pm;
	switch (ev->type) {
	case TIPME_REC_TRIGGER:
		fprintf(f, " seq=%" PRIu32 " source=%s%s\n", ev->u.trig.seq,
			tm_trigger_source_name(ev->u.trig.source, "?"),
			ev->u.trig.coalesced ? " (coalesced)" : "");
		break;
	case TIPME_REC_INPUT:
		fprintf(f, " %s", tm_input_kind_name(ev->u.in.kind, "?"));
		if (ev->u.in.kind == TIPME_INPUT_MOTION)
			fprintf(f, " events=%u", ev->u.in.value);
		else
			fprintf(f, " %s", input_value_name(ev->u.in.value));
		fprintf(f, " device=%u code=%u\n", ev->u.in.device, ev->u.in.code);
		break;
	case TIPME_REC_TEST:
		fprintf(f, " seq=%" PRIu32 " value=%" PRIu32 "\n", ev->u.rec.TEST.seq,
			ev->u.rec.TEST.value);
		break;
	}
}

static void marks_json(struct tm_jw *w, const struct pm_dump *pm,
		       const struct pm_event *ev)
{
	(void)pm;
	switch (ev->type) {
	case TIPME_REC_TRIGGER:
		tm_jw_ku64(w, "seq", ev->u.trig.seq);
		tm_jw_kstr(w, "source", tm_trigger_source_name(ev->u.trig.source, "?"));
		tm_jw_kbool(w, "coalesced", ev->u.trig.coalesced);
		break;
	case TIPME_REC_INPUT:
		tm_jw_kstr(w, "kind", tm_input_kind_name(ev->u.in.kind, "?"));
		tm_jw_ku64(w, "value", ev->u.in.value);
		tm_jw_ku64(w, "device", ev->u.in.device);
		tm_jw_ku64(w, "code", ev->u.in.code);
		break;
	case TIPME_REC_TEST:
		tm_jw_ku64(w, "seq", ev->u.rec.TEST.seq);
		tm_jw_ku64(w, "value", ev->u.rec.TEST.value);
		break;
	}
}

/* no pids: --pid never selects them */
const struct pm_recops pm_rec_marks = {
	.text = marks_text,
	.json = marks_json,
};
