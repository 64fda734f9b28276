/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The context a probe runs in, as enum tipme_ctx.
 */
#ifndef TIPME_PROBES_CTX_H
#define TIPME_PROBES_CTX_H

#include <linux/preempt.h>
#include <linux/tipme.h>

/* Context: any. */
static inline u32 tipme_ctx_now(void)
{
	if (in_nmi())
		return TIPME_CTX_NMI;
	if (in_hardirq())
		return TIPME_CTX_HARDIRQ;
	if (in_serving_softirq())
		return TIPME_CTX_SOFTIRQ;
	return TIPME_CTX_TASK;
}

#endif /* TIPME_PROBES_CTX_H */
