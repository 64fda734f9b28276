/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict of tipme report (verdict.c): the analysis takes the
 * rebuilt state (state.h) and the resource waits (resources.h) of an
 * incident and the interval that matters (interval.h), follows who its
 * thread waited for down to the leaves, and charges every nanosecond of
 * the interval to one cause (segcause.h).  It returns a struct
 * pm_verdict; the printers print it as text or JSON.
 */
#ifndef TIPME_PM_VERDICT_H
#define TIPME_PM_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "../state/resources.h"
#include "../state/state.h"
#include "hot.h"
#include "interval.h"
#include "segcause.h"

#define PM_RES_LEN	128

/**
 * struct pm_cause_item - time charged to one (cause, culprit, resource)
 * @cause: enum pm_cause
 * @culprit: the task to blame, 0 if none
 * @resource: what was waited for ("cpu 1", "block device 254:0",
 *            "mutex 0xffff...", a sleep's site), "" if nothing
 * @ns: time charged
 * @nreq: block_io: requests; memory: reclaim stretches
 * @sleeps: memory: the penalty sleeps of a memory cgroup over memory.high
 *	(pm_seg_memhigh())
 * @req_ns: block_io: their summed issue-to-completion time (the device's)
 * @nqueued: block_io: how many of them were queued before issue (an
 *	insert record; the others went to the driver directly)
 * @queue_ns: block_io: their summed insert-to-issue time
 * @nbio: block_io on a stacked device: its bios whose completion at the
 *	top ended the waits (the requests above are those of the device
 *	below that served them)
 * @mapper_ns: block_io: the part of the waits charged while those bios
 *	were in the stacked device, from their queueing to the first part sent
 *	below (a target's delay, encryption, its queue)
 * @below_ns: the part from then to their completion at the top: in the
 *	devices below, and back up
 * @device: block_io: the device's name from the dump ("dm-0"), "" if not
 *	named
 * @dm_name: block_io: its device-mapper name ("vg-root"), "" if none
 * @below: block_io on a stacked device: the device the bios were sent to
 *	("sda2", else "MAJ:MIN"), "" if none was recorded; on a request-based
 *	stacked device (a loop device, @nbio 0), the device its worker sent
 *	the requests to, "" if none was found (then @mapper_ns and @below_ns
 *	split the waits at the first request sent below, and @nbelow and
 *	@below_req_ns are those requests')
 * @nbelow: block_io on a request-based stacked device: the requests below
 *	that served its requests
 * @below_req_ns: their summed issue-to-completion time
 * @via_fault: block_io: the waits were page faults (the thread blocked in
 *	the fault path: a mapped file's page, swap)
 * @file_kind: block_io: whose pages the reads filled
 *	(enum tipme_blk_file_kind: a file, swap), 0 if not recorded
 * @file_dev: TIPME_BLK_FILE_FILE: the file's file system (dev_t)
 * @file_ino: its inode number
 * @file_devname: the dump's name for @file_dev ("dm-0"), "" if none
 * @last_io: block_io: the bio or request counted last (a wait split around
 *	a worker charges one I/O twice; it counts once)
 * @pages: memory: pages reclaimed
 * @prio: cpu_contention: the culprit's kernel priority when it ran (-1:
 *        not recorded)
 * @policy: cpu_contention: the culprit's scheduling policy, as the
 *	sampler saw it (SCHED_NORMAL 0 .. SCHED_DEADLINE 6; -1: not seen)
 * @other: stopped: who continued it; lock: the waiter; x_server: the X
 *	server; 0 if none
 * @cgroup: cpu_throttled: the cgroup's path ("/tipme/limited"), "" if the
 *	dump does not name it (or it is longer than this holds); memory's
 *	penalty sleeps: the memory cgroup over its memory.high, likewise
 * @cgroup_id: cpu_throttled, memory: its id (0: not recorded)
 * @mem_high: memory's penalty sleeps: that cgroup's memory.high, bytes
 *	(recorded when @cgroup_id is)
 * @quota_us: cpu_throttled: its CPU quota per period, microseconds (-1:
 *	the dump does not say)
 * @period_us: cpu_throttled: the period (-1: the dump does not say)
 * @net_proto: network: the socket's protocol ("tcp"), "" if not network
 * @net_local: network: the waiting socket's own address and port
 *	("10.0.0.2:40312"; pm_net_addr())
 * @net_remote: network: its peer's ("10.0.0.1:5000")
 * @fence_ctx: gpu: the fence's context
 * @fence_driver: gpu: its driver's name, "" if the dump does not name it
 * @fence_timeline: gpu: its timeline's name, likewise
 * @crtc: display: the CRTC of the flip or vblank waited for (-1: none)
 *
 * display's @other is the compositor's thread when the item is its wait
 * for its repaint window before it composed the press's flip (resource
 * "crtc N repaint window"), else 0.
 *
 * gpu's @culprit is the task that emitted the fence's work, else the task
 * that signalled it (0: an interrupt did, and no emit is recorded); its
 * @other is the signalling task (0: an interrupt).
 */
struct pm_cause_item {
	int cause;
	uint32_t culprit;
	char resource[PM_RES_LEN];
	int64_t ns;
	uint32_t nreq;
	int64_t req_ns;
	uint32_t nqueued;
	int64_t queue_ns;
	uint32_t nbio;
	int64_t mapper_ns;
	int64_t below_ns;
	char device[32];
	char dm_name[64];
	char below[32];
	uint32_t nbelow;
	int64_t below_req_ns;
	int via_fault;
	int file_kind;
	uint32_t file_dev;
	uint64_t file_ino;
	char file_devname[32];
	const void *last_io;
	uint64_t pages;
	uint32_t sleeps;
	int prio;
	int policy;
	uint32_t other;
	char cgroup[PM_RES_LEN - 16];
	uint64_t cgroup_id;
	uint64_t mem_high;
	int64_t quota_us;
	int64_t period_us;
	char net_proto[8];
	char net_local[64];
	char net_remote[64];
	uint64_t fence_ctx;
	char fence_driver[TIPME_FENCE_DRIVER_LEN];
	char fence_timeline[TIPME_FENCE_TIMELINE_LEN];
	int32_t crtc;
};

/**
 * struct pm_chain_step - one wait on the chain, and what it waited for
 * @parent: index of the step whose waker this is, -1 for the interval's
 *          own thread
 * @pid: the waiting thread
 * @from_ns: start of the wait inside its interval (CLOCK_MONOTONIC)
 * @to_ns: its end
 * @cause: the cause it was charged to, or what led on (the waker's
 *         causes are its children)
 * @seg: the stretch (its site)
 * @waker: who ended it (-1: not woken in the interval)
 * @waker_ctx: enum tipme_ctx of that wakeup
 * @followed: the waker's time was analysed in turn (it has children)
 * @waker_intr: @waker_ctx softirq or hardirq: the vector or interrupt
 *	(struct pm_wake.intr; PM_INTR_UNKNOWN if the dump does not say)
 * @waker_work: the work item the waker (a kernel worker) was running when
 *	it ended the wait, or NULL
 * @for_work: NULL, or the step is a kernel worker waiting for work until
 *	this item was queued: @waker is then who queued it (when a task did)
 * @net: NULL, or the step is a wait for data over the network that this
 *	receive brought: @waker is then the local peer that sent it (the step
 *	ends when it sent), or -1 for the data on its way
 * @handed: the step (no stretch of its own) is a press's compositor having
 *	handed the input to its client, @waker, until the client's commit
 */
struct pm_chain_step {
	int parent;
	uint32_t pid;
	int64_t from_ns;
	int64_t to_ns;
	int cause;
	const struct pm_seg *seg;
	int64_t waker;
	int waker_ctx;
	int followed;
	int32_t waker_intr;
	const struct pm_work *waker_work;
	const struct pm_work *for_work;
	const struct pm_net *net;
	int handed;
};

/**
 * struct pm_verdict - the analysis of one interval
 * @pid: the thread the interval belongs to
 * @from_ns: its start, CLOCK_MONOTONIC ns
 * @to_ns: its end
 * @chosen_by: enum pm_chosen_by
 * @items: causes, by time charged, largest first
 * @nitems: how many
 * @unknown_ns: time charged to nothing known (also an item)
 * @chain: the waits followed, in the order found
 * @nchain: how many
 * @lost: the dump has gaps (lost sub-buffers)
 * @display_ns: 0, or where the client's part ended and the X server's
 *	drawing for it began (the rest of the interval, to the end or to
 *	the server's commit or flip, is the server's): interval.h
 * @end: enum pm_end (interval.h): where an interval an input chose ends
 * @path: with PM_END_FLIP, the press's path to the flip (flip.h)
 * @reader_by: chosen by an input the kernel saw: how its reader (@pid)
 *	was found, enum pm_reader_by (flip.h); else PM_READER_NONE
 * @flip_commit_ns: with PM_END_FLIP, when the flip was committed: from
 *	then to the end, the display's pace (PM_C_DISPLAY); else 0
 * @via_xserver: with PM_END_FLIP, 1 if the path's client is the X dump's
 *	X server (Xwayland, the compositor's client) and @pid its X client:
 *	the commit is the server's first message to the compositor after it
 *	executed the client's drawing (interval.h)
 * @hot: the hot functions of each thread the walk found computing, by
 *	the step it computed under (struct pm_hot.parent; -1: the interval's
 *	own walk), from the profiler's samples in its running stretches;
 *	only threads with samples there, in the order of @chain's steps
 * @nhot: how many
 */
struct pm_verdict {
	uint32_t pid;
	int64_t from_ns;
	int64_t to_ns;
	int chosen_by;
	struct pm_cause_item *items;
	size_t nitems;
	int64_t unknown_ns;
	struct pm_chain_step *chain;
	size_t nchain;
	int lost;
	int64_t display_ns;
	int end;
	struct pm_press_path path;
	int reader_by;
	int64_t flip_commit_ns;
	int via_xserver;
	struct pm_hot *hot;
	size_t nhot;
};

int pm_verdict_analyse(struct pm_verdict *r, const struct pm_incident *inc,
		       const struct pm_state *st, const struct pm_res *res,
		       const struct pm_interval *iv, struct tm_err *e);
void pm_verdict_free(struct pm_verdict *r);

#endif
