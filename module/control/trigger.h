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
 * @has_press: @press is set (the module's own auto trigger)
 * @press: the press that fired it
 */
struct tipme_trigger_info {
	u32 seq;
	u32 source;
	u64 ts;
	u64 mono_ns;
	u64 real_ns;
	bool has_press;
	struct tipme_trigger_press press;
};

/*
 * Tells listeners about a new trigger.  Context: process context (a work
 * item).  Return: 0 or a negative errno.
 */
typedef int (*tipme_trigger_announce_fn)(const struct tipme_trigger_info *t);

/*
 * Who switches key logging or recording (dump parameters: keylog_on_by;
 * the kernel log line of every switch).
 */
enum tipme_switch_by {
	TIPME_BY_NONE,
	TIPME_BY_KEYBOARD,
	TIPME_BY_SYSCTL,
	TIPME_BY_NETLINK,
};

extern unsigned int tipme_trigger_interval_ms;
extern int tipme_keylog;
extern bool tipme_keylog_used;

u32 tipme_trigger(enum tipme_trigger_source source, bool *coalesced);
u32 tipme_trigger_after(enum tipme_trigger_source source,
			void (*first)(const void *arg), const void *arg);
u32 tipme_trigger_auto(const struct tipme_trigger_press *press);
void tipme_trigger_last(struct tipme_trigger_info *out, u32 *triggers,
			u32 *coalesced);
int tipme_set_keylog(bool on, enum tipme_switch_by by);
int tipme_switch_recording(bool on, enum tipme_switch_by by);
int tipme_trigger_params_text(char *buf, size_t size);
void tipme_trigger_init(tipme_trigger_announce_fn announce);
void tipme_trigger_exit(void);

#endif /* TIPME_TRIGGER_H */
