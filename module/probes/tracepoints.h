/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding tracepoints by name (they are not exported to modules) and
 * attaching our probes to them.
 */
#ifndef TIPME_TRACEPOINTS_H
#define TIPME_TRACEPOINTS_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/tracepoint.h>

/**
 * struct tipme_probe - one probe to attach
 * @name: tracepoint name, e.g. "sched_switch"
 * @func: the probe, cast to void *
 * @tp: the tracepoint once found
 * @attached: the probe is registered
 */
struct tipme_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
	bool attached;
};

/*
 * TIPME_PROBE(tp, fn) - a table entry attaching @fn to tracepoint @tp.
 * Tracepoints take their probes as void *, so a probe whose prototype does
 * not match compiles and corrupts at run time.  The kernel's own
 * register_trace_<tp>() (declared by <trace/events/...h>, never called)
 * carries the exact prototype: refuse to build if @fn differs.
 */
#define TIPME_PROBE(tp, fn)						\
	{								\
		.name = #tp,						\
		.func = (void *)(fn) +					\
			BUILD_BUG_ON_ZERO(!__same_type(&register_trace_##tp, \
				int (*)(typeof(&(fn)), void *))),	\
	}

int tipme_probes_attach(struct tipme_probe *probes, size_t n);
void tipme_probes_attach_found(struct tipme_probe *probes, size_t n);
void tipme_probes_detach(struct tipme_probe *probes, size_t n);

/* Probe tables, one per tracepoint family (probes/). */
extern struct tipme_probe tipme_sched_probes[];
extern const size_t tipme_sched_probes_count;
extern struct tipme_probe tipme_task_probes[];
extern const size_t tipme_task_probes_count;
extern struct tipme_probe tipme_block_probes[];
extern const size_t tipme_block_probes_count;
extern struct tipme_probe tipme_lock_probes[];
extern const size_t tipme_lock_probes_count;
extern struct tipme_probe tipme_mm_probes[];
extern const size_t tipme_mm_probes_count;
extern struct tipme_probe tipme_work_probes[];
extern const size_t tipme_work_probes_count;
extern struct tipme_probe tipme_net_probes[];
extern const size_t tipme_net_probes_count;

#endif /* TIPME_TRACEPOINTS_H */
