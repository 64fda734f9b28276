/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder: the per-CPU rings, their geometry, the module parameters
 * that size them, and the switch that says whether probes write.  Every
 * file that writes records includes this one.
 */
#ifndef TIPME_RECORDER_H
#define TIPME_RECORDER_H

#include <linux/percpu.h>
#include <linux/types.h>
#include "ring.h"
#include "clock.h"

/**
 * struct tipme_state - the recorder
 * @rings: per-CPU rings
 * @pool: the sub-buffers every ring draws from (pool=1), or NULL
 * @recording: probes write records when true
 * @sub_shift: log2 of the sub-buffer size
 * @nsub_shift: log2 of the sub-buffers per CPU (with @pool: of its share)
 * @buf_size: bytes of all rings together
 */
struct tipme_state {
	struct tipme_ring __percpu *rings;
	struct tipme_pool *pool;
	bool recording;
	unsigned int sub_shift;
	unsigned int nsub_shift;
	u64 buf_size;
};

extern struct tipme_state tipme;

/**
 * struct tipme_freeze_counts - the frozen window and its counters
 * @gen: the window frozen now (0: none)
 * @freezes: windows frozen since load
 * @expired: thawed by freeze_timeout_s, no dump having read them
 * @released: thawed at once because the reader said no dump would come
 */
struct tipme_freeze_counts {
	u32 gen;
	unsigned long freezes;
	unsigned long expired;
	unsigned long released;
};

/* Writers: context as tipme_ring_reserve(). */
static __always_inline void *tipme_reserve(u32 type, u32 payload,
					   struct tipme_wslot *ws)
{
	if (!READ_ONCE(tipme.recording))
		return NULL;
	return tipme_ring_reserve(this_cpu_ptr(tipme.rings), type, payload,
				  tipme_clock_now, ws);
}

static __always_inline void tipme_commit(struct tipme_wslot *ws, u32 type)
{
	tipme_ring_commit(ws, type);
}

int tipme_recorder_init(void);
void tipme_recorder_exit(void);
bool tipme_recorder_autostart(void);
u32 tipme_recorder_freeze(u64 t0, u32 seq);
u32 tipme_recorder_frozen(void);
void tipme_recorder_thaw(u32 gen);
bool tipme_recorder_release(u32 seq);
void tipme_recorder_freeze_counts(struct tipme_freeze_counts *out);
void tipme_set_recording(bool on);
u64 tipme_recorder_type_total(int type);
int tipme_recorder_params_text(char *buf, size_t size);

#endif /* TIPME_RECORDER_H */
