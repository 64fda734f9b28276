/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version drift, all in one place.  Every entry names the upstream
 * change and the version it appeared in.
 */
#ifndef TIPME_COMPAT_H
#define TIPME_COMPAT_H

#include <linux/version.h>

/*
 * Input handlers: 6.11 ("Input: make events() return the number of events
 * kept") turned the batched callback into a filter that returns a count.
 * tipme only uses the per-event .event callback, whose signature has not
 * changed; if it ever does, the adapter goes here.
 */

/*
 * sched_switch gained prev_state as its last argument in 5.18
 * ("sched/tracing: Don't re-read p->state when emitting sched_switch
 * event").  tipme needs 5.19+ anyway (lock:contention_begin), so there is
 * no fallback; TIPME_PROBE() fails the build on a mismatch.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 19, 0)
#error "tipme needs Linux 5.19 or later"
#endif

#endif /* TIPME_COMPAT_H */
