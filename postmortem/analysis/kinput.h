/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-input reader (kinput.c): the slowest input the kernel
 * recorded and the thread that read it, for pm_interval_choose() when
 * the incident has no X dump.
 */
#ifndef TIPME_PM_KINPUT_H
#define TIPME_PM_KINPUT_H

#include <stddef.h>
#include <stdint.h>

#include "../state/resources.h"
#include "../state/state.h"
#include "flip.h"

/**
 * struct pm_input_read - how one input the kernel saw was read
 *			  (pm_input_readers())
 * @wake: the wakeup that delivered it; not woken (@by PM_READER_AWAKE or
 *	PM_READER_FLIP_READER): one made up at the input's record, on its
 *	CPU, of the reader
 * @by: enum pm_reader_by (PM_READER_NONE: no reader, @wake unset)
 */
struct pm_input_read {
	struct pm_wake wake;
	int by;
};

/* The trigger's chord (Ctrl-Alt-Minus) is pressed within this before it. */
#define PM_CHORD_NS	1000000000LL

const struct pm_wake *pm_input_reader(const struct pm_incident *inc,
				      const struct pm_state *st,
				      const struct pm_res *res,
				      const struct pm_input *in, size_t *lo);
int pm_input_readers(const struct pm_incident *inc, const struct pm_state *st,
		     const struct pm_res *res, struct pm_input_read **out);
int pm_press_readers(const struct pm_incident *inc, const struct pm_state *st,
		     const struct pm_res *res, int64_t from_ns, int64_t to_ns,
		     int (*add)(void *arg, int64_t press_ns, uint32_t tgid), void *arg);
int pm_kernel_input(const struct pm_incident *inc, const struct pm_state *st,
		    const struct pm_res *res, int64_t from_ns, int64_t to_ns,
		    int64_t press_ns, struct pm_span *out,
		    struct pm_press_path *path);

int pm_kernel_press_via(const struct pm_incident *inc, const struct pm_state *st,
			const struct pm_res *res, const struct pm_input_read *rd,
			uint32_t server, int64_t x_ns, int64_t drawn_ns,
			struct pm_press_path *out);
int pm_kernel_presses(const struct pm_incident *inc, const struct pm_state *st,
		      const struct pm_res *res, struct pm_press_path **out, size_t *n);

#endif
