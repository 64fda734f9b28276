/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The causes time is charged to, and what one stretch of a thread was by
 * the verdict's rules (segcause.c).  The verdict's walk (verdict.h)
 * applies the same rules while it follows wakers; the timeline, legs and
 * the stall finder ask them of single stretches.
 */
#ifndef TIPME_PM_SEGCAUSE_H
#define TIPME_PM_SEGCAUSE_H

#include <stdint.h>

#include "../state/resources.h"
#include "../state/state.h"

enum pm_cause {
	PM_C_RUNNING,		/* a task on the chain computing */
	PM_C_CPU,		/* runnable while another task held the CPU */
	PM_C_BLOCK_IO,		/* waiting for a block device */
	PM_C_LOCK,		/* waiting for a lock's holder */
	PM_C_MEMORY,		/* reclaiming memory */
	PM_C_TIMER,		/* a sleep that a timer ended */
	PM_C_STOPPED,		/* stopped (SIGSTOP, ptrace, freezer) */
	PM_C_X_SERVER,		/* the X server busy for another client */
	PM_C_THROTTLED,		/* runnable, its cgroup out of CPU quota */
	PM_C_NETWORK,		/* data on its way over the network */
	PM_C_GPU,		/* a wait a dma_fence's signal ended */
	PM_C_DISPLAY,		/* a committed flip waiting for its refresh */
	PM_C_UNKNOWN,		/* what the dump cannot explain */
	PM_C_NR,
};

/* The verdict's JSON names, in enum pm_cause order (a documented contract). */
extern const char *const pm_cause_key[PM_C_NR];

int pm_seg_cause(const struct pm_incident *inc, const struct pm_res *res,
		 uint32_t pid, const struct pm_seg *s, uint32_t xserver);
int pm_seg_idle(const struct pm_incident *inc, const struct pm_seg *s);

const struct pm_fence *pm_seg_fence(const struct pm_res *res, uint32_t pid,
				    const struct pm_seg *s, const struct pm_wake *w);
const struct pm_flip *pm_seg_flip(const struct pm_dump *pm, const struct pm_res *res,
				  uint32_t pid, const struct pm_wake *w);
int pm_seg_input_wake(const struct pm_state *st, const struct pm_res *res,
		      const struct pm_wake *w);

/**
 * pm_seg_sleep_site() - the frame of a sleep only a timer ends
 * @pm: the dump (its symbols)
 * @s: a blocked stretch
 *
 * Return: the name of the first frame of @s that is a sleep call
 * (nanosleep, poll, a futex wait ...), or NULL.
 */
const char *pm_seg_sleep_site(const struct pm_dump *pm, const struct pm_seg *s);

/**
 * pm_seg_fault() - a wait in the page fault path
 * @pm: the dump (its symbols)
 * @s: a blocked stretch
 *
 * Return: 1 if a frame of @s is the kernel handling a page fault (a
 * mapped file's page, swap, the fault's entry), else 0.
 */
int pm_seg_fault(const struct pm_dump *pm, const struct pm_seg *s);

/**
 * pm_seg_memhigh() - the penalty sleep of a memory cgroup over memory.high
 * @pm: the dump (its symbols)
 * @s: a stretch
 *
 * A task whose memory cgroup stays over its memory.high after reclaim
 * (no swap, or reclaim slower than its growth) sleeps on its way back to
 * user space, in mem_cgroup_handle_over_high() itself (the kernel counts
 * it as a memory stall, PSI's): a wait for memory, not a timer it asked
 * for.
 *
 * Return: 1 if @s is blocked with that function its innermost frame, else 0.
 */
int pm_seg_memhigh(const struct pm_dump *pm, const struct pm_seg *s);

/**
 * pm_seg_site0() - the innermost frame a stretch slept in
 * @pm: the dump (its symbols)
 * @s: a blocked stretch
 *
 * Return: its name, "" if none.
 */
const char *pm_seg_site0(const struct pm_dump *pm, const struct pm_seg *s);

/**
 * pm_seg_lock_wait() - the recorded lock wait of a thread in an interval
 * @res: the resources
 * @pid: the thread
 * @a: start, CLOCK_MONOTONIC ns
 * @b: end
 *
 * Return: a lock wait of @pid overlapping [@a, @b), or NULL.
 */
const struct pm_lockwait *pm_seg_lock_wait(const struct pm_res *res,
					   uint32_t pid, int64_t a, int64_t b);

/**
 * pm_seg_throttle() - how much of a runnable interval a cgroup's CPU quota
 *		       held a thread off
 * @res: the resources
 * @pid: the thread
 * @cpu: the CPU it waited for
 * @a: start, CLOCK_MONOTONIC ns
 * @b: end
 * @th: set to the throttling that held it longest there, or NULL
 *
 * A throttling (struct pm_throttle) holds off its own thread, and on its
 * CPU every thread the dump lists in its cgroup (pm_res_member(): a thread
 * woken while its group was throttled waits with it).
 *
 * Return: ns of [@a, @b) inside such throttlings (each counted once).
 */
int64_t pm_seg_throttle(const struct pm_res *res, uint32_t pid, uint32_t cpu,
			int64_t a, int64_t b, const struct pm_throttle **th);

/**
 * pm_seg_blk_wake() - the block request whose completion made a wakeup
 * @res: the resources
 * @w: the wakeup, or NULL
 *
 * Return: the latest request completed on the waking CPU just before @w
 * (see BLK_WAKE_NS in segcause.c; by a task, only in that task: a worker
 * completing it), or NULL.
 */
const struct pm_blkreq *pm_seg_blk_wake(const struct pm_res *res,
					const struct pm_wake *w);

/**
 * pm_seg_bio_wake() - the stacked device's bio whose completion made a wakeup
 * @res: the resources
 * @w: the wakeup, or NULL
 *
 * The completion at the top of a stack runs the waiter's end_io, in
 * whatever context ended the last part below: an interrupt, a softirq, a
 * worker (a target that decrypts, a loop device's).  The same rules as
 * pm_seg_blk_wake().
 *
 * Return: the latest bio completed on the waking CPU just before @w, or
 * NULL.
 */
const struct pm_bio *pm_seg_bio_wake(const struct pm_res *res,
				     const struct pm_wake *w);

/**
 * pm_seg_bio_held() - the stacked device's bio a wait held in the mapper
 * @pm: the dump (its system section names the devices and their slaves)
 * @res: the resources
 * @pid: the waiter
 * @s: its blocked stretch
 * @q: the request whose completion ended the wait (pm_seg_blk_wake())
 *
 * A task submitting a bio to a stacked device may wait inside the
 * submission for I/O the device itself sends below: md marks its array
 * dirty and writes its superblock to the legs before it sends a write on
 * (md_write_start()).  Such a wait is the bio's time in that device, not
 * the device below's: it is the one when @q is a request on a slave of
 * the device of @pid's latest bio queued before @s began, and that bio was
 * neither sent below nor completed before @s ended.
 *
 * Return: that bio, or NULL.
 */
const struct pm_bio *pm_seg_bio_held(const struct pm_dump *pm,
				     const struct pm_res *res, uint32_t pid,
				     const struct pm_seg *s,
				     const struct pm_blkreq *q);

/**
 * pm_seg_net_wake() - the network receive that made a wakeup
 * @res: the resources
 * @w: the wakeup, or NULL
 *
 * Return: the TCP data received by a waited-on socket just before @w on
 * the waking CPU, in the same context (struct pm_wake.net), or NULL.
 */
const struct pm_net *pm_seg_net_wake(const struct pm_res *res,
				     const struct pm_wake *w);

#endif
