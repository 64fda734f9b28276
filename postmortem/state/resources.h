/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tasks waited for, rebuilt from the instrumentation records beside
 * the scheduler's: lock waits, memory reclaim, block requests (issue to
 * completion), and every wakeup with the CPU and context it came from.
 * Part of the state layer (with state.h): analyses read it, nothing here
 * prints.
 */
#ifndef TIPME_PM_RESOURCES_H
#define TIPME_PM_RESOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "../incident/incident.h"

/**
 * struct pm_lockwait - a thread waiting for a lock (lock_begin..lock_end)
 * @lock: address of the lock
 * @pid: the waiter
 * @owner: the holder when the kernel told (0: not known)
 * @flags: TIPME_LOCK_*
 * @ret: 0 if it got the lock, else a negative errno
 * @start_ns: time of lock_begin, CLOCK_MONOTONIC ns
 * @end_ns: of lock_end (the dump's end if it never came)
 */
struct pm_lockwait {
	uint64_t lock;
	uint32_t pid;
	uint32_t owner;
	uint32_t flags;
	int32_t ret;
	int64_t start_ns;
	int64_t end_ns;
};

/**
 * struct pm_reclaim - a thread reclaiming memory (reclaim_begin..end)
 * @pid: the thread
 * @kind: enum tipme_reclaim_kind
 * @nr_reclaimed: pages it reclaimed
 * @high_cgroup: TIPME_RECLAIM_MEMCG: id of the memory cgroup most over its
 *	memory.high when it ended (0: none, or not recorded)
 * @high_kib: that cgroup's memory.high, KiB (when @high_cgroup is recorded)
 * @start_ns: CLOCK_MONOTONIC ns
 * @end_ns: CLOCK_MONOTONIC ns (the dump's end if it never came)
 */
struct pm_reclaim {
	uint32_t pid;
	uint32_t kind;
	uint32_t nr_reclaimed;
	uint32_t high_kib;
	uint64_t high_cgroup;
	int64_t start_ns;
	int64_t end_ns;
};

/**
 * struct pm_blkreq - one block request, insert (or issue) to completion
 * @dev: the kernel's dev_t (major << 20 | minor)
 * @sector: first sector
 * @bytes: size
 * @op: enum tipme_blk_op
 * @issuer: thread that queued it, or issued it if it was not queued (0:
 *          from interrupt or idle)
 * @insert_ns: CLOCK_MONOTONIC ns of its insert into a queue (0: issued
 *	directly, or queued before the dump; no record is stamped at 0)
 * @issue_ns: of the issue (0: issued before the dump)
 * @complete_ns: of the completion (0: not completed in the dump)
 * @complete_cpu: CPU the completion ran on
 * @complete_pid: the task it ran in, or interrupted
 * @complete_ctx: enum tipme_ctx it ran in
 * @file_kind: a read: whose pages it fills (enum tipme_blk_file_kind; 0:
 *	not recorded)
 * @file_dev: TIPME_BLK_FILE_FILE: the file's file system (dev_t);
 *	TIPME_BLK_FILE_BDEV: the block device
 * @file_ino: TIPME_BLK_FILE_FILE: the file's inode number
 */
struct pm_blkreq {
	uint32_t dev;
	uint64_t sector;
	uint32_t bytes;
	uint32_t op;
	uint32_t issuer;
	int64_t insert_ns;
	int64_t issue_ns;
	int64_t complete_ns;
	uint32_t complete_cpu;
	uint32_t complete_pid;
	uint32_t complete_ctx;
	uint8_t file_kind;
	uint32_t file_dev;
	uint64_t file_ino;
};

/**
 * struct pm_bio - one bio of a stacked (bio-based) device, queued to it
 *		   until its completion there
 * @id: its identity in the records (struct tipme_rec_bio.bio)
 * @dev: the device it was submitted to (dev_t)
 * @sector: its first sector there
 * @bytes: its size
 * @op: enum tipme_blk_op
 * @submitter: thread that submitted it (0: not known, or not from a task)
 * @queue_ns: CLOCK_MONOTONIC ns of its queueing (0: before the dump)
 * @sent_ns: when the first part of it was sent on to the device below
 *	(a remap record; 0: none recorded)
 * @below_dev: that device (0: none recorded)
 * @below_sector: the part's first sector there
 * @below_bytes: its size
 * @nsent: parts sent below
 * @complete_ns: its completion at the top (0: not in the dump)
 * @complete_cpu: CPU the completion ran on
 * @complete_pid: the task it ran in, or interrupted
 * @complete_ctx: enum tipme_ctx it ran in
 * @file_kind: a read: whose pages it fills, as in struct pm_blkreq
 * @file_dev: as in struct pm_blkreq
 * @file_ino: as in struct pm_blkreq
 */
struct pm_bio {
	uint32_t id;
	uint32_t dev;
	uint64_t sector;
	uint32_t bytes;
	uint32_t op;
	uint32_t submitter;
	int64_t queue_ns;
	int64_t sent_ns;
	uint32_t below_dev;
	uint64_t below_sector;
	uint32_t below_bytes;
	uint32_t nsent;
	int64_t complete_ns;
	uint32_t complete_cpu;
	uint32_t complete_pid;
	uint32_t complete_ctx;
	uint8_t file_kind;
	uint32_t file_dev;
	uint64_t file_ino;
};

/**
 * struct pm_throttle - a thread its cgroup's CPU quota held off a CPU
 *			(a cpu_throttle record, to its next switch onto a CPU)
 * @pid: the thread
 * @cpu: the CPU it left
 * @cgroup: id of the cgroup whose quota ran out (0: not known)
 * @start_ns: the record's time, CLOCK_MONOTONIC ns
 * @end_ns: when it next ran (the dump's end if it did not)
 */
struct pm_throttle {
	uint32_t pid;
	uint32_t cpu;
	uint64_t cgroup;
	int64_t start_ns;
	int64_t end_ns;
};

/**
 * struct pm_member - a thread in a cgroup a CPU quota limits (the dump's
 *		      system section: cgroup.ID.threads, read at dump time)
 * @pid: the thread
 * @cgroup: the cgroup's id (the thread is in it or below it)
 */
struct pm_member {
	uint32_t pid;
	uint64_t cgroup;
};

/**
 * struct pm_wake - one sched_waking
 * @ns: its time, CLOCK_MONOTONIC ns
 * @cpu: CPU the waker ran on
 * @target: woken thread
 * @waker: waking thread (0: interrupt on an idle CPU; PM_WAKER_UNKNOWN:
 *         the dump does not say)
 * @ctx: enum tipme_ctx of the waker
 * @intr: @ctx softirq: the vector (TIPME_REC_INTR); hardirq: the
 *	interrupt whose handler ran, PM_INTR_NO_IRQ outside them; PM_INTR_UNKNOWN
 *	when the dump does not say (and for a task)
 * @net: 1 + the index in struct pm_res.recvs of the data received just
 *	before on that CPU, in that context and without a context switch
 *	between (see PM_NET_WAKE_NS), whose arrival made the wakeup; 0 if none
 * @flip: 1 + the index in struct pm_res.flips of the DRM event delivered
 *	just before by the same rule (its reader's wakeup); 0 if none
 * @fence: 1 + the index in struct pm_res.fences of the dma_fence signalled
 *	just before by the same rule (a waiter's wakeup); 0 if none
 */
#define PM_WAKER_UNKNOWN	UINT32_MAX
#define PM_INTR_UNKNOWN		(-1)
#define PM_INTR_NO_IRQ		((int32_t)TIPME_INTR_NO_IRQ)

struct pm_wake {
	int64_t ns;
	uint32_t cpu;
	uint32_t target;
	uint32_t waker;
	uint32_t ctx;
	int32_t intr;
	uint32_t net;
	uint32_t flip;
	uint32_t fence;
};

/*
 * A receive this close before a wakeup on the same CPU, in the same
 * context with no switch between, made it (the socket's reader is woken
 * at the end of the same receive path; an emulated machine stretches it).
 */
#define PM_NET_WAKE_NS	20000000

/**
 * struct pm_net - TCP data a socket received while someone waited on it,
 *		   or sent (TIPME_REC_NET_RECV, TIPME_REC_NET_SEND)
 * @ns: CLOCK_MONOTONIC ns
 * @cpu: CPU it was recorded on
 * @pid: send: the sending thread (0: not sent from a task); receive:
 *	whoever the receive ran in or interrupted
 * @ctx: enum tipme_ctx
 * @len: payload bytes
 * @family: enum tipme_net_family
 * @proto: IP protocol (6: TCP)
 * @lport: the socket's own port
 * @rport: its peer's
 * @laddr: its own address (struct tipme_rec_net.laddr)
 * @raddr: its peer's
 */
struct pm_net {
	int64_t ns;
	uint32_t cpu;
	uint32_t pid;
	uint32_t ctx;
	uint32_t len;
	uint8_t family;
	uint8_t proto;
	uint16_t lport;
	uint16_t rport;
	uint8_t laddr[16];
	uint8_t raddr[16];
};

/**
 * struct pm_work - one kernel work item, queued until its function returned
 * @work: its identity in the records (struct tipme_rec_work.work)
 * @func: its function, a full kernel address
 * @queue_ns: CLOCK_MONOTONIC ns it was queued (0: before the dump)
 * @queuer: the thread that queued it, or that the interrupt queueing it
 *	interrupted (0: the idle task, or not known)
 * @queue_ctx: enum tipme_ctx it was queued in
 * @queue_intr: as struct pm_wake.intr, for the queueing
 * @queue_cpu: CPU it was queued on
 * @start_ns: when a worker called its function (0: not in the dump)
 * @end_ns: when the function returned (0: not in the dump)
 * @worker: the worker that ran it (0: not known)
 */
struct pm_work {
	uint32_t work;
	uint64_t func;
	int64_t queue_ns;
	uint32_t queuer;
	uint32_t queue_ctx;
	int32_t queue_intr;
	uint32_t queue_cpu;
	int64_t start_ns;
	int64_t end_ns;
	uint32_t worker;
};

/**
 * struct pm_input - one input event the kernel saw (TIPME_REC_INPUT)
 * @ns: its time, CLOCK_MONOTONIC ns
 * @cpu: CPU it was recorded on
 * @kind: enum tipme_input_kind
 * @value: 0 release, 1 press, 2 repeat; motion: axis events in the frame
 */
struct pm_input {
	int64_t ns;
	uint32_t cpu;
	uint8_t kind;
	uint8_t value;
};

/**
 * struct pm_flip - a DRM event delivered to an open DRM file
 *		    (TIPME_REC_VBLANK_DELIVERED with a file): a page flip's
 *		    or a commit's completion, or a vblank event
 * @ns: the delivery, CLOCK_MONOTONIC ns (first, as in struct pm_fence)
 * @cpu: CPU it was recorded on
 * @crtc: the CRTC
 * @seq: the vblank it was sent at (0: a device that counts none)
 * @file: the DRM file (its hash)
 * @owner: the process that opened the file (0: not known); the
 *	committer, unless another process opened it and passed it on (on
 *	6.1 seatd opens the DRM device for the compositor)
 * @who: the thread that sent it (or that the interrupt interrupted)
 * @ctx: enum tipme_ctx it was sent in
 * @vblank_ns: the time DRM gave the vblank @seq of @crtc (a vblank record
 *	before it), 0 if none
 * @queued_ns: the vblank_queued record of the same file, CRTC and
 *	sequence before it, 0 if none
 * @queuer: the thread that queued it (0: none)
 * @reader: the process that reads the file's events: the one whose
 *	thread a delivery to the file woke right after, in the same call
 *	(struct pm_wake.flip), on any delivery to the file in the dump; if
 *	no delivery woke anyone, the process that committed its flips (the
 *	user thread that queued the work item a kernel worker delivered one
 *	from: a nonblocking commit's); else 0
 */
struct pm_flip {
	int64_t ns;
	uint32_t cpu;
	uint32_t crtc;
	uint32_t seq;
	uint32_t file;
	uint32_t owner;
	uint32_t who;
	uint32_t ctx;
	int64_t vblank_ns;
	int64_t queued_ns;
	uint32_t queuer;
	uint32_t reader;
};

/**
 * struct pm_queued - a DRM event a thread asked for (TIPME_REC_VBLANK_QUEUED)
 * @ns: CLOCK_MONOTONIC ns
 * @crtc: the CRTC
 * @seq: the vblank it waits for
 * @file: the DRM file (its hash)
 * @who: the thread whose ioctl queued it
 */
struct pm_queued {
	int64_t ns;
	uint32_t crtc;
	uint32_t seq;
	uint32_t file;
	uint32_t who;
};

/**
 * struct pm_fence - a dma_fence signalled (TIPME_REC_FENCE, signaled)
 * @ns: the signal, CLOCK_MONOTONIC ns (first: disp_woke() reads it so)
 * @ctx: its context
 * @seqno: its number on the context
 * @cpu: CPU it was recorded on
 * @signaler: the thread that signalled it, or that the interrupt
 *	interrupted
 * @sig_ctx: enum tipme_ctx of the signal
 * @emitter: the thread that emitted its work to the device (the latest
 *	emit record of the same fence before), 0 if none
 * @emit_ns: that emit's time, 0 if none
 * @driver: the context's driver ("" if no fence_name record named it)
 * @timeline: its timeline's name
 */
struct pm_fence {
	int64_t ns;
	uint64_t ctx;
	uint64_t seqno;
	uint32_t cpu;
	uint32_t signaler;
	uint32_t sig_ctx;
	uint32_t emitter;
	int64_t emit_ns;
	char driver[TIPME_FENCE_DRIVER_LEN];
	char timeline[TIPME_FENCE_TIMELINE_LEN];
};

/**
 * struct pm_fence_wait - a thread waiting on a dma_fence
 *			  (dma_fence_wait_start .. _end)
 * @pid: the waiter
 * @ctx: the fence's context
 * @seqno: its number
 * @start_ns: CLOCK_MONOTONIC ns
 * @end_ns: (the dump's end if it never came)
 */
struct pm_fence_wait {
	uint32_t pid;
	uint64_t ctx;
	uint64_t seqno;
	int64_t start_ns;
	int64_t end_ns;
};

/**
 * struct pm_policy - a thread's scheduling policy, as the sampler saw it
 * @pid: the thread
 * @policy: SCHED_NORMAL (0) .. SCHED_DEADLINE (6), its last sample's
 * @seq: the order it was seen in (while the table is built)
 */
struct pm_policy {
	uint32_t pid;
	uint32_t policy;
	uint64_t seq;
};

/**
 * struct pm_res - every resource wait of a dump, each array in time order
 * @locks: lock waits, by start
 * @nlocks: how many
 * @reclaims: reclaim stretches, by start
 * @nreclaims: how many
 * @blk: block requests, by issue (completion for those issued before)
 * @nblk: how many
 * @bios: bios of stacked devices, by queueing (completion for those
 *	  queued before)
 * @nbios: how many
 * @wakes: wakeups, by time
 * @nwakes: how many
 * @works: kernel work items, by queueing (start for those queued before)
 * @nworks: how many
 * @by_worker: the items a worker started, by worker, then start
 * @nby_worker: how many
 * @inputs: input events, by time
 * @ninputs: how many
 * @policies: the threads the sampler saw, by pid (not in time order)
 * @npolicies: how many
 * @throttles: threads held off by a cgroup's CPU quota, by start
 * @nthrottles: how many
 * @members: the threads of the cgroups with a CPU limit, by pid and cgroup
 * @nmembers: how many
 * @recvs: TCP data received by a socket someone waited on, by time
 * @nrecvs: how many
 * @sends: TCP data sent, by time
 * @nsends: how many
 * @flips: DRM events delivered to a file, by time
 * @nflips: how many
 * @queued: DRM events queued, by time
 * @nqueued: how many
 * @vblanks: the vblank records (crtc, seq, DRM's time), by record time
 * @nvblanks: how many
 * @fences: dma_fence signals, by time
 * @nfences: how many
 * @fwaits: dma_fence waits, by start
 * @nfwaits: how many
 * @locks_by_pid: @locks' indices by pid, then index (pm_res_index());
 *	NULL: not built, the lookups scan @locks
 * @blk_by_done: @blk's indices by completion time, then index
 * @bios_by_done: @bios' indices by completion time, then index
 */
struct pm_res {
	struct pm_lockwait *locks;
	size_t nlocks;
	struct pm_reclaim *reclaims;
	size_t nreclaims;
	struct pm_blkreq *blk;
	size_t nblk;
	struct pm_bio *bios;
	size_t nbios;
	struct pm_wake *wakes;
	size_t nwakes;
	struct pm_work *works;
	size_t nworks;
	const struct pm_work **by_worker;
	size_t nby_worker;
	struct pm_input *inputs;
	size_t ninputs;
	struct pm_policy *policies;
	size_t npolicies;
	struct pm_throttle *throttles;
	size_t nthrottles;
	struct pm_member *members;
	size_t nmembers;
	struct pm_net *recvs;
	size_t nrecvs;
	struct pm_net *sends;
	size_t nsends;
	struct pm_flip *flips;
	size_t nflips;
	struct pm_queued *queued;
	size_t nqueued;
	struct tipme_rec_vblank *vblanks;
	size_t nvblanks;
	struct pm_fence *fences;
	size_t nfences;
	struct pm_fence_wait *fwaits;
	size_t nfwaits;
	uint32_t *locks_by_pid;
	uint32_t *blk_by_done;
	uint32_t *bios_by_done;
};

/**
 * pm_res_index() - the indices of @r's lock waits by thread and of its
 * block requests and bios by completion, for the lookups of one stretch's
 * cause (analysis/segcause.c), which scanned every lock wait and request
 * of the dump per stretch asked about (millions in a 1 GiB dump)
 * @r: resources; the builder calls it once they are complete
 *
 * A lookup through the indices finds what the scan found (the same entry
 * among several that fit).  Arrays past 2^32 entries are not indexed.
 *
 * Return: 0 or -ENOMEM.
 */
int pm_res_index(struct pm_res *r);

int pm_res_build(struct pm_res *r, const struct pm_incident *inc,
		 struct tm_err *e);
int pm_flip_read_by(const struct pm_dump *pm, const struct pm_flip *f, uint32_t proc);

struct pm_state;

/**
 * pm_state_res_build() - pm_state_build() and pm_res_build() in one pass
 *	over the records
 * @st: the state; release with pm_state_free()
 * @r: the resources; release with pm_res_free()
 * @inc: an open incident
 * @e: error message
 *
 * The same results as the two calls, for half the decoding.  After a
 * failure neither holds anything.
 *
 * Return: 0 or a negative errno.
 */
int pm_state_res_build(struct pm_state *st, struct pm_res *r,
		       const struct pm_incident *inc, struct tm_err *e);

/**
 * pm_state_res_build_range() - pm_state_res_build() from a time range's
 *	records only
 * @st: the state; release with pm_state_free()
 * @r: the resources; release with pm_res_free()
 * @inc: an open incident
 * @from_ns: as pm_state_build_range()'s
 * @to_ns: as pm_state_build_range()'s
 * @e: error message
 *
 * The state of pm_state_build_range() and the resources of the range's
 * records (a request or wait begun before it is not in them).
 *
 * Return: 0 or a negative errno.
 */
int pm_state_res_build_range(struct pm_state *st, struct pm_res *r,
			     const struct pm_incident *inc, int64_t from_ns,
			     int64_t to_ns, struct tm_err *e);

struct pm_ckpts;

/**
 * pm_state_res_build_ckpt() - pm_state_res_build() from a checkpoint
 * @st: the state; release with pm_state_free()
 * @r: the resources; release with pm_res_free()
 * @inc: an open incident
 * @ck: its checkpoints (pm_ckpts_grid(), pm_ckpts_load())
 * @from_ns: as pm_state_bld_restore()'s
 * @to_ns: as pm_state_bld_restore()'s
 * @e: error message
 *
 * The state of pm_state_build_ckpt() and the resources of the records
 * read (from the checkpoint before @from_ns to the one after @to_ns: a
 * request or wait begun before is not in them, one open at the end ends
 * there).
 *
 * Return: 0 or a negative errno.
 */
int pm_state_res_build_ckpt(struct pm_state *st, struct pm_res *r,
			    const struct pm_incident *inc, const struct pm_ckpts *ck,
			    int64_t from_ns, int64_t to_ns, struct tm_err *e);
void pm_res_free(struct pm_res *r);

/**
 * pm_res_wake_at() - the wakeup of @pid recorded at @ns
 * @r: resources
 * @pid: the woken thread
 * @ns: CLOCK_MONOTONIC ns (a blocked stretch's end)
 *
 * Return: the wakeup, or NULL.
 */
const struct pm_wake *pm_res_wake_at(const struct pm_res *r, uint32_t pid,
				     int64_t ns);

/**
 * pm_res_wake_from() - where the wakeups from a moment on begin
 * @r: resources
 * @ns: CLOCK_MONOTONIC ns
 *
 * Return: the index in @r->wakes of the first wakeup at or after @ns
 * (@r->nwakes if none).
 */
size_t pm_res_wake_from(const struct pm_res *r, int64_t ns);

/**
 * pm_res_work_running() - the work item a thread ran at a moment
 * @r: resources
 * @pid: the thread (a kernel worker)
 * @ns: CLOCK_MONOTONIC ns
 *
 * Return: the work item @pid started at or before @ns whose function had
 * not returned by then, or NULL.
 */
const struct pm_work *pm_res_work_running(const struct pm_res *r, uint32_t pid,
					  int64_t ns);

/**
 * pm_res_works_of() - the work items a worker ran from a moment on
 * @r: resources
 * @pid: the worker
 * @from: CLOCK_MONOTONIC ns
 * @items: set to the first: the last item @pid started at or before
 *	@from, else its first after (NULL when the dump has none)
 *
 * Return: how many of @pid's items follow from *@items on, by start.
 */
size_t pm_res_works_of(const struct pm_res *r, uint32_t pid, int64_t from,
		       const struct pm_work *const **items);

/**
 * pm_res_work_next() - the next work item a worker ran after a moment
 * @r: resources
 * @pid: the worker
 * @from: CLOCK_MONOTONIC ns
 * @to: ... before this
 *
 * Return: the first work item @pid started in [@from, @to), or NULL.
 */
const struct pm_work *pm_res_work_next(const struct pm_res *r, uint32_t pid,
				       int64_t from, int64_t to);

/**
 * pm_res_member() - is a thread in (or below) a cgroup, as the dump says
 * @r: resources
 * @pid: the thread
 * @cgroup: the cgroup's id
 *
 * Return: 1 if the dump lists @pid among @cgroup's threads, else 0.
 */
int pm_res_member(const struct pm_res *r, uint32_t pid, uint64_t cgroup);

/**
 * pm_res_net_sent() - the data that a receive came from, as far as the
 *		       dump has it
 * @r: resources
 * @recv: a receive (an element of @r->recvs)
 *
 * Return: the latest send at or before @recv from the other end of its
 * connection (its addresses and ports mirrored), or NULL.
 */
const struct pm_net *pm_res_net_sent(const struct pm_res *r,
				     const struct pm_net *recv);

/**
 * pm_res_policy() - the scheduling policy of @pid, if the sampler saw it
 * @r: resources
 * @pid: the thread
 *
 * Return: SCHED_NORMAL (0) .. SCHED_DEADLINE (6), or -1.
 */
int pm_res_policy(const struct pm_res *r, uint32_t pid);

#endif
