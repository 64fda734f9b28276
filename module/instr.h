/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instrumentation beyond the scheduler probes: process lifecycle and the
 * exec table, block I/O, lock contention, memory pressure, the sampler,
 * blocking sites and the recorder's own cost.  main.c and genl.c call in
 * here; everything else stays in the files this one lists.
 */
#ifndef TIPME_INSTR_H
#define TIPME_INSTR_H

#include <linux/types.h>
#include <net/genetlink.h>
#include <linux/tipme.h>
#include "tracepoints.h"

/* Probe tables of probes/ beyond sched.c. */
extern struct tipme_probe tipme_task_probes[];
extern const size_t tipme_task_probes_count;
extern struct tipme_probe tipme_block_probes[];
extern const size_t tipme_block_probes_count;
extern struct tipme_probe tipme_lock_probes[];
extern const size_t tipme_lock_probes_count;
extern struct tipme_probe tipme_mm_probes[];
extern const size_t tipme_mm_probes_count;

int tipme_instr_init(void);
void tipme_instr_exit(void);
int tipme_instr_params_text(char *buf, size_t size);

/* Builds one message of a dump stream (genl.c's dump_msg()). */
typedef void *(*tipme_dump_msg_fn)(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   enum tipme_dump_part part);

/**
 * struct tipme_instr_dump - where a dump is in the instrumentation parts
 * @phase: exec table, its end, cost totals, done
 * @hdr_sent: the exec table's header was sent
 * @done: every exec table entry was sent
 * @pos: next exec table slot
 */
struct tipme_instr_dump {
	int phase;
	bool hdr_sent;
	bool done;
	u32 pos;
};

void tipme_instr_dump_start(struct netlink_callback *cb,
			    struct tipme_instr_dump *d);
int tipme_instr_dump(struct sk_buff *skb, struct netlink_callback *cb,
		     tipme_dump_msg_fn msg, struct tipme_instr_dump *d);
int tipme_instr_put_meta(struct sk_buff *skb);
int tipme_instr_put_status(struct sk_buff *skb);
size_t tipme_instr_status_size(void);

#endif /* TIPME_INSTR_H */
