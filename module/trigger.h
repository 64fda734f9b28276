/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers: requests for a dump, from any source, numbered and coalesced.
 */
#ifndef TIPME_TRIGGER_H
#define TIPME_TRIGGER_H

#include <linux/types.h>
#include <linux/tipme.h>

/**
 * struct tipme_trigger_info - one accepted trigger
 * @seq: sequence number, from 1
 * @source: enum tipme_trigger_source
 * @ts: recorder timestamp
 * @mono_ns: CLOCK_MONOTONIC
 * @real_ns: CLOCK_REALTIME
 */
struct tipme_trigger_info {
	u32 seq;
	u32 source;
	u64 ts;
	u64 mono_ns;
	u64 real_ns;
};

extern unsigned int tipme_trigger_interval_ms;
extern int tipme_keylog;
extern bool tipme_keylog_used;

typedef int (*tipme_announce_fn)(const struct tipme_trigger_info *t);

u32 tipme_trigger(enum tipme_trigger_source source, bool *coalesced);
void tipme_trigger_last(struct tipme_trigger_info *out, u32 *triggers,
			u32 *coalesced);
void tipme_set_keylog(bool on);
void tipme_trigger_announce(tipme_announce_fn fn);
int tipme_trigger_params_text(char *buf, size_t size);
void tipme_trigger_init(void);
void tipme_trigger_exit(void);

int tipme_sysctl_init(void);
void tipme_sysctl_exit(void);
int tipme_input_init(void);
void tipme_input_exit(void);

#endif /* TIPME_TRIGGER_H */
