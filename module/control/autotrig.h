/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's own auto trigger: a press that took too long, measured
 * without X (control/autotrig.c).
 */
#ifndef TIPME_AUTOTRIG_H
#define TIPME_AUTOTRIG_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/sched.h>

/* This CPU is delivering a key or button press (the input core's lock). */
DECLARE_PER_CPU(bool, tipme_auto_delivering);
/* Tasks woken by a press that have not yet waited for input again. */
extern atomic_t tipme_auto_readers;
/*
 * Presses whose client has answered, or ran while the reader was awake:
 * the next flip ends them.
 */
extern atomic_t tipme_auto_flipwait;

void tipme_auto_woken(struct task_struct *p);
void tipme_auto_switched(struct task_struct *prev, unsigned int state);
void tipme_auto_wakes(struct task_struct *p);
void tipme_auto_flipped(u32 file, int crtc);
void tipme_auto_queued(void);
void tipme_auto_vblank_queued(void);
void tipme_auto_flips_seen(bool seen);
void tipme_auto_delivered(void);
int tipme_auto_params_text(char *buf, size_t size);
int tipme_auto_init(void);
void tipme_auto_exit(void);

/*
 * From the sched_waking probe: is @p woken by the press being delivered,
 * or is it a followed press's reader waking its client, or a client
 * waking its reader's process?
 */
static inline void tipme_auto_waking(struct task_struct *p)
{
	if (unlikely(this_cpu_read(tipme_auto_delivering)))
		tipme_auto_woken(p);
	else if (unlikely(atomic_read(&tipme_auto_readers)))
		tipme_auto_wakes(p);
}

/*
 * From the sched_switch probe: @prev leaves its CPU, going to sleep in
 * task state @state (0: still runnable, preempted).
 */
static inline void tipme_auto_switch(struct task_struct *prev,
				     unsigned int state)
{
	if (unlikely(atomic_read(&tipme_auto_readers)))
		tipme_auto_switched(prev, state);
}

/* From workqueue_queue_work's probe: current queues a work item. */
static inline void tipme_auto_queue(void)
{
	if (unlikely(atomic_read(&tipme_auto_readers)))
		tipme_auto_queued();
}

/*
 * From drm_vblank_event_queued's probe: current asks for a vblank event.
 * Candidates are counted in tipme_auto_flipwait.
 */
static inline void tipme_auto_vblank_queue(void)
{
	if (unlikely(atomic_read(&tipme_auto_flipwait)))
		tipme_auto_vblank_queued();
}

/*
 * From drm_vblank_event_delivered's probe: a page flip completed, its
 * event for DRM file @file (0: none) on CRTC @crtc.
 */
static inline void tipme_auto_flip(u32 file, int crtc)
{
	if (unlikely(atomic_read(&tipme_auto_flipwait)))
		tipme_auto_flipped(file, crtc);
}

#endif /* TIPME_AUTOTRIG_H */
