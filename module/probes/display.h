/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Display and GPU probes (probes/drm.c: DRM's vblank events, from drm.ko;
 * probes/fence.c: dma_fence), which attach to what the running kernel has
 * and say what they could not.
 */
#ifndef TIPME_PROBES_DISPLAY_H
#define TIPME_PROBES_DISPLAY_H

#include <linux/types.h>

/**
 * enum tipme_tp_state - what became of one optional tracepoint
 * @TIPME_TP_OFF: its module parameter left it out
 * @TIPME_TP_NO_MODULE: the module that holds it is not loaded (yet)
 * @TIPME_TP_ABSENT: this kernel has no such tracepoint
 * @TIPME_TP_FAILED: it exists but attaching to it failed
 * @TIPME_TP_ATTACHED: its probe is attached
 */
enum tipme_tp_state {
	TIPME_TP_OFF,
	TIPME_TP_NO_MODULE,
	TIPME_TP_ABSENT,
	TIPME_TP_FAILED,
	TIPME_TP_ATTACHED,
};

/* The parameter text's word for a state ("attached", "absent", ...). */
static inline const char *tipme_tp_state_name(int state)
{
	switch (state) {
	case TIPME_TP_OFF:
		return "off";
	case TIPME_TP_NO_MODULE:
		return "no_module";
	case TIPME_TP_ABSENT:
		return "absent";
	case TIPME_TP_FAILED:
		return "failed";
	case TIPME_TP_ATTACHED:
		return "attached";
	}
	return "unknown";
}

void tipme_drm_init(bool enabled);
void tipme_drm_exit(void);
int tipme_drm_params_text(char *buf, size_t size);

void tipme_fence_init(bool enabled);
void tipme_fence_exit(void);
int tipme_fence_params_text(char *buf, size_t size);

#endif /* TIPME_PROBES_DISPLAY_H */
