/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tipme: a flight recorder for interactive latency.
 *
 * The one interface shared by the kernel module (tipme.ko), the daemon
 * (tipmed), the X11 recorder (tipme-xhook) and the postmortem tools:
 *
 *  1. the record format written into the per-CPU rings,
 *  2. the dump file format,
 *  3. the generic netlink family.
 *
 * Rules (see Documentation/format.rst):
 *  - fixed-width __u8..__u64 only, explicit padding, no pointers;
 *  - every reserved field is written as zero and checked to be zero;
 *  - records and structures only grow at the end; readers take the size
 *    of each record type from the dump itself (the record-type table), so
 *    an older reader skips what it does not know and a newer reader zero-
 *    fills fields an older writer did not have;
 *  - numbers never change meaning: new record types, sections and
 *    attributes get new numbers.
 */
#ifndef _UAPI_LINUX_TIPME_H
#define _UAPI_LINUX_TIPME_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define TIPME_VERSION_STRING	"0.1.0"

/* ------------------------------------------------------------------ */
/* 1. Records                                                         */
/* ------------------------------------------------------------------ */

/*
 * Every record starts with one 32-bit little-endian-in-host-order word:
 *
 *   bits  0..6   type (enum tipme_rec_type)
 *   bit   7      TIPME_HDR_EXT: a full 64-bit timestamp follows the word
 *   bits  8..31  low 24 bits of the timestamp
 *
 * Records are a multiple of 4 bytes and 4-byte aligned.  The payload of a
 * record follows the header word (and the 8-byte extended timestamp when
 * TIPME_HDR_EXT is set).  A reader rebuilds the full timestamp of a
 * record from the previous one in the same ring: the writer guarantees
 * that two consecutive records are less than 2^24 ticks apart unless the
 * second one carries an extended timestamp, and that the first record of
 * every sub-buffer carries one.
 */
#define TIPME_HDR_TYPE_MASK	0x7fU
#define TIPME_HDR_EXT		0x80U
#define TIPME_HDR_TS_SHIFT	8
#define TIPME_HDR_TS_BITS	24
#define TIPME_HDR_TS_MASK	((1U << TIPME_HDR_TS_BITS) - 1)
#define TIPME_HDR_SIZE		4
#define TIPME_HDR_EXT_SIZE	8

static __inline__ __u32 tipme_hdr_make(__u32 type, int ext, __u64 ts)
{
	return (type & TIPME_HDR_TYPE_MASK) | (ext ? TIPME_HDR_EXT : 0) |
	       (((__u32)ts & TIPME_HDR_TS_MASK) << TIPME_HDR_TS_SHIFT);
}

static __inline__ __u32 tipme_hdr_type(__u32 hdr)
{
	return hdr & TIPME_HDR_TYPE_MASK;
}

static __inline__ int tipme_hdr_ext(__u32 hdr)
{
	return (hdr & TIPME_HDR_EXT) != 0;
}

static __inline__ __u32 tipme_hdr_ts(__u32 hdr)
{
	return hdr >> TIPME_HDR_TS_SHIFT;
}

/**
 * tipme_ts_extend() - rebuild a full timestamp from its low 24 bits
 * @prev: full timestamp of the previous record in the same ring
 * @low: low TIPME_HDR_TS_BITS bits of this record's timestamp
 *
 * Return: the smallest timestamp >= @prev whose low bits are @low.
 */
static __inline__ __u64 tipme_ts_extend(__u64 prev, __u32 low)
{
	__u64 ts = (prev & ~(__u64)TIPME_HDR_TS_MASK) | (low & TIPME_HDR_TS_MASK);

	if (ts < prev)
		ts += (__u64)1 << TIPME_HDR_TS_BITS;
	return ts;
}

/*
 * Record types: the one list of them.  Each line is
 *
 *   X(number, NAME, payload struct, "name", FIXED or VARLEN, family)
 *
 * in increasing number order, and makes TIPME_REC_<NAME> = number.  The
 * module's record-type table (the name, flags and payload size each dump
 * carries) and the reader's tables (postmortem/dump/rectypes.c: what it
 * decodes; postmortem/records/ops.c: the family, records/<family>.c, that
 * shows it) are expansions of this list.  "compact" records have no family
 * of their own: readers give them as the types they stand for.  Adding a
 * record type is a line here, its payload struct, the probe that writes it
 * and its family's decoder.
 *
 * Numbers are never reused.  TIPME_REC_PAD (0) means the rest of the
 * sub-buffer is padding: a writer whose record did not fit left it.
 * 1..15: triggers and input; 16..63: instrumentation; 64..126: later.
 */
#define TIPME_REC_TYPES(X) \
	X(1, SCHED_SWITCH, struct tipme_rec_switch, "sched_switch", FIXED, sched) \
	X(2, SCHED_WAKING, struct tipme_rec_waking, "sched_waking", FIXED, sched) \
	X(3, TRIGGER, struct tipme_rec_trigger, "trigger", FIXED, marks) \
	X(4, INPUT, struct tipme_rec_input, "input", FIXED, marks) \
	X(16, BLOCKED, struct tipme_rec_blocked, "blocked", VARLEN, sched) \
	X(17, FORK, struct tipme_rec_fork, "fork", FIXED, proc) \
	X(18, EXEC, struct tipme_rec_exec, "exec", FIXED, proc) \
	X(19, EXIT, struct tipme_rec_exit, "exit", FIXED, proc) \
	X(20, COMM, struct tipme_rec_comm, "comm", FIXED, proc) \
	X(21, BLK_ISSUE, struct tipme_rec_blk, "blk_issue", FIXED, blk) \
	X(22, BLK_COMPLETE, struct tipme_rec_blk, "blk_complete", FIXED, blk) \
	X(23, LOCK_BEGIN, struct tipme_rec_lock_begin, "lock_begin", FIXED, lock) \
	X(24, LOCK_END, struct tipme_rec_lock_end, "lock_end", FIXED, lock) \
	X(25, RECLAIM_BEGIN, struct tipme_rec_reclaim_begin, "reclaim_begin", VARLEN, mem) \
	X(26, RECLAIM_END, struct tipme_rec_reclaim_end, "reclaim_end", FIXED, mem) \
	X(27, KSWAPD, struct tipme_rec_kswapd, "kswapd", FIXED, mem) \
	X(28, THROTTLED, struct tipme_rec_throttled, "throttled", FIXED, mem) \
	X(29, SAMPLE, struct tipme_rec_sample, "sample", VARLEN, sample) \
	X(30, SAMPLE_END, struct tipme_rec_sample_end, "sample_end", FIXED, sample) \
	X(31, COST, struct tipme_rec_cost, "cost", VARLEN, cost) \
	X(32, BLK_INSERT, struct tipme_rec_blk, "blk_insert", FIXED, blk) \
	X(33, SWITCH_C, struct tipme_rec_switch_c, "sched_switch_c", FIXED, compact) \
	X(34, WAKING_C, struct tipme_rec_waking_c, "sched_waking_c", FIXED, compact) \
	X(35, SITE, struct tipme_rec_site, "site", FIXED, compact) \
	X(36, SWITCH_S, struct tipme_rec_switch_s, "sched_switch_s", FIXED, compact) \
	X(37, SWITCH_SITE_S, struct tipme_rec_switch_site_s, "sched_switch_site_s", FIXED, \
	  compact) \
	X(38, BIO_QUEUE, struct tipme_rec_bio, "bio_queue", FIXED, blk) \
	X(39, BIO_COMPLETE, struct tipme_rec_bio, "bio_complete", FIXED, blk) \
	X(40, BIO_SPLIT, struct tipme_rec_bio, "bio_split", FIXED, blk) \
	X(41, BIO_REMAP, struct tipme_rec_bio_remap, "bio_remap", FIXED, blk) \
	X(42, WORK_QUEUE, struct tipme_rec_work, "work_queue", FIXED, work) \
	X(43, WORK_START, struct tipme_rec_work, "work_start", FIXED, work) \
	X(44, WORK_END, struct tipme_rec_work_end, "work_end", FIXED, work) \
	X(45, INTR, struct tipme_rec_intr, "intr", FIXED, work) \
	X(46, CPU_THROTTLE, struct tipme_rec_cpu_throttle, "cpu_throttle", FIXED, sched) \
	X(47, BLK_FILE, struct tipme_rec_blk_file, "blk_file", FIXED, blk) \
	X(48, NET_RECV, struct tipme_rec_net, "net_recv", FIXED, net) \
	X(49, NET_SEND, struct tipme_rec_net, "net_send", FIXED, net) \
	X(52, VBLANK, struct tipme_rec_vblank, "vblank", FIXED, display) \
	X(53, VBLANK_QUEUED, struct tipme_rec_vblank_ev, "vblank_queued", FIXED, display) \
	X(54, VBLANK_DELIVERED, struct tipme_rec_vblank_ev, "vblank_delivered", FIXED, \
	  display) \
	X(55, FENCE, struct tipme_rec_fence, "fence", FIXED, display) \
	X(56, FENCE_NAME, struct tipme_rec_fence_name, "fence_name", FIXED, display) \
	X(58, USTACK, struct tipme_rec_ustack, "ustack", FIXED, sched) \
	X(59, USTACK_C, struct tipme_rec_ustack_c, "ustack_c", FIXED, compact) \
	X(60, PROF, struct tipme_rec_prof, "prof", FIXED, prof) \
	X(61, PROF_C, struct tipme_rec_prof_c, "prof_c", FIXED, compact) \
	X(62, PROF_U, struct tipme_rec_prof_u, "prof_u", FIXED, compact) \
	X(63, PROF_RATE, struct tipme_rec_prof_rate, "prof_rate", FIXED, prof)

/*
 * Types the module never writes, in the same form: numbers from 127 down
 * that only the readers' tests put in a dump (tests/unit), to show a record
 * type is added by its line, its writer and its family's decoder.
 */
#define TIPME_REC_TEST_TYPES(X) \
	X(127, TEST, struct tipme_rec_test, "test", FIXED, marks)

#define TIPME_REC_ENUM_ENTRY(nr, id, st, name, len, family) TIPME_REC_##id = (nr),

enum tipme_rec_type {
	TIPME_REC_PAD		= 0,
	TIPME_REC_TYPES(TIPME_REC_ENUM_ENTRY)
	TIPME_REC_NR,			/* one past the last type the module writes */
	TIPME_REC_TEST_TYPES(TIPME_REC_ENUM_ENTRY)
};

#define TIPME_REC_TYPE_LIMIT	128	/* the header word has 7 type bits */

/*
 * Task state, our own enum, independent of the kernel's TASK_* bits which
 * change between versions.  Recorded for the task a sched_switch takes out.
 */
enum tipme_task_state {
	TIPME_TS_RUNNABLE	= 0,	/* preempted or yielded: still runnable */
	TIPME_TS_SLEEPING	= 1,	/* TASK_INTERRUPTIBLE */
	TIPME_TS_DISK		= 2,	/* TASK_UNINTERRUPTIBLE ("D") */
	TIPME_TS_IDLE		= 3,	/* TASK_IDLE: D without load contribution */
	TIPME_TS_STOPPED	= 4,
	TIPME_TS_TRACED		= 5,
	TIPME_TS_PARKED		= 6,
	TIPME_TS_DEAD		= 7,
	TIPME_TS_ZOMBIE		= 8,
	TIPME_TS_RTLOCK		= 9,	/* PREEMPT_RT: waiting on a sleeping spinlock */
	TIPME_TS_OTHER		= 15,
};

/* struct tipme_rec_switch.flags */
#define TIPME_SWITCH_PREEMPT	0x01	/* prev was preempted (involuntary) */

/**
 * struct tipme_rec_switch - payload of TIPME_REC_SCHED_SWITCH (16 bytes with header)
 * @prev_pid: thread id leaving the CPU (0 = idle task of this CPU)
 * @next_pid: thread id entering the CPU
 * @prev_prio: kernel priority of prev (0..139; lower is more important)
 * @next_prio: kernel priority of next
 * @prev_state: enum tipme_task_state of prev
 * @flags: TIPME_SWITCH_*
 */
struct tipme_rec_switch {
	__u32 prev_pid;
	__u32 next_pid;
	__u8 prev_prio;
	__u8 next_prio;
	__u8 prev_state;
	__u8 flags;
};

/* Context the waker ran in (struct tipme_rec_waking, waker word bits 22..23). */
enum tipme_ctx {
	TIPME_CTX_TASK		= 0,
	TIPME_CTX_SOFTIRQ	= 1,
	TIPME_CTX_HARDIRQ	= 2,
	TIPME_CTX_NMI		= 3,
};

/*
 * Thread ids are below PID_MAX_LIMIT (2^22), which lets a wakeup fit in
 * 12 bytes:
 *   target: bits 0..21 target pid, bits 22..31 target cpu bits 0..9
 *   waker:  bits 0..21 waker pid (current; 0 in interrupt context on the
 *           idle task), bits 22..23 enum tipme_ctx, bits 24..31 target cpu
 *           bits 10..17
 * The target cpu is the CPU the woken task last ran on (task_cpu() at
 * sched_waking time, as ftrace reports it).
 */
#define TIPME_PID_BITS		22
#define TIPME_PID_MASK		((1U << TIPME_PID_BITS) - 1)

/**
 * struct tipme_rec_waking - payload of TIPME_REC_SCHED_WAKING (12 bytes with header)
 * @target: target pid and low cpu bits, see above
 * @waker: waker pid, context and high cpu bits, see above
 */
struct tipme_rec_waking {
	__u32 target;
	__u32 waker;
};

static __inline__ void tipme_waking_pack(struct tipme_rec_waking *w,
					 __u32 pid, __u32 cpu, __u32 waker,
					 __u32 ctx)
{
	w->target = (pid & TIPME_PID_MASK) | ((cpu & 0x3ffU) << TIPME_PID_BITS);
	w->waker = (waker & TIPME_PID_MASK) | ((ctx & 3U) << 22) |
		   (((cpu >> 10) & 0xffU) << 24);
}

static __inline__ __u32 tipme_waking_pid(const struct tipme_rec_waking *w)
{
	return w->target & TIPME_PID_MASK;
}

static __inline__ __u32 tipme_waking_cpu(const struct tipme_rec_waking *w)
{
	return (w->target >> TIPME_PID_BITS) | ((w->waker >> 24) << 10);
}

static __inline__ __u32 tipme_waking_waker(const struct tipme_rec_waking *w)
{
	return w->waker & TIPME_PID_MASK;
}

static __inline__ __u32 tipme_waking_ctx(const struct tipme_rec_waking *w)
{
	return (w->waker >> 22) & 3U;
}

/*
 * Compact scheduler records.  The recorder writes these instead of the
 * records above whenever they can say the same thing; readers turn them
 * back into TIPME_REC_SCHED_WAKING, TIPME_REC_SCHED_SWITCH and
 * TIPME_REC_BLOCKED.  Most leave out what the reader can rebuild from the
 * same CPU's stream, in order:
 *  - the CPU's current task, and its priority, are the next pid and next
 *    priority of the latest switch record of that stream (of any form); a
 *    reader that has not seen one since the stream began or since a gap
 *    (missing sub-buffers) does not know them;
 *  - a TIPME_REC_WAKING_C is written only when the waker (current) is that
 *    task; a TIPME_REC_SWITCH_S or _SWITCH_SITE_S only when prev is that
 *    task with that priority; a TIPME_REC_SITE only right after the switch
 *    record that took the sleeping thread off the CPU.
 */

/* The 4-bit state of struct tipme_rec_switch_c: enum tipme_task_state, or */
#define TIPME_CSW_PREEMPTED	14	/* runnable, TIPME_SWITCH_PREEMPT */

/**
 * struct tipme_rec_switch_c - payload of TIPME_REC_SWITCH_C (12 bytes with header)
 * @prev: bits 0..21 prev pid, 22..29 prev prio, 30..31 state bits 0..1
 * @next: bits 0..21 next pid, 22..29 next prio, 30..31 state bits 2..3
 *
 * The state is prev's enum tipme_task_state, or TIPME_CSW_PREEMPTED.
 */
struct tipme_rec_switch_c {
	__u32 prev;
	__u32 next;
};

static __inline__ void tipme_switch_c_pack(struct tipme_rec_switch_c *c,
					   __u32 prev_pid, __u32 prev_prio,
					   __u32 next_pid, __u32 next_prio,
					   __u32 state)
{
	c->prev = (prev_pid & TIPME_PID_MASK) | ((prev_prio & 0xffU) << 22) |
		  ((state & 3U) << 30);
	c->next = (next_pid & TIPME_PID_MASK) | ((next_prio & 0xffU) << 22) |
		  (((state >> 2) & 3U) << 30);
}

/* The 16-byte form of a compact switch. */
static __inline__ void tipme_switch_c_unpack(const struct tipme_rec_switch_c *c,
					     struct tipme_rec_switch *sw)
{
	__u32 state = (c->prev >> 30) | ((c->next >> 30) << 2);

	sw->prev_pid = c->prev & TIPME_PID_MASK;
	sw->next_pid = c->next & TIPME_PID_MASK;
	sw->prev_prio = (__u8)(c->prev >> 22);
	sw->next_prio = (__u8)(c->next >> 22);
	sw->prev_state = state == TIPME_CSW_PREEMPTED ? TIPME_TS_RUNNABLE : (__u8)state;
	sw->flags = state == TIPME_CSW_PREEMPTED ? TIPME_SWITCH_PREEMPT : 0;
}

/**
 * struct tipme_rec_switch_s - payload of TIPME_REC_SWITCH_S (8 bytes with header)
 * @word: bits 0..21 next pid, 22..29 next prio, 30..31 how prev left the
 *        CPU: 0 preempted, 1 runnable (yielded), 2 sleeping, 3 disk
 *
 * A switch whose prev is the CPU's current task with the priority it was
 * switched in with (see above), and left the CPU in one of those ways.
 */
struct tipme_rec_switch_s {
	__u32 word;
};

/**
 * struct tipme_rec_switch_site_s - payload of TIPME_REC_SWITCH_SITE_S
 *                                  (12 bytes with header)
 * @word: as in struct tipme_rec_switch_s, but bits 30..31 are: 0 sleeping,
 *        1 disk, 2 idle (TASK_IDLE), 3 dead
 * @site: where prev went to sleep, as struct tipme_rec_site.id; 0 when the
 *        site table has no number for it (a TIPME_REC_BLOCKED with the call
 *        chain may follow)
 */
struct tipme_rec_switch_site_s {
	__u32 word;
	__u32 site;
};

/*
 * The two bits of a short switch for a state (as tipme_switch_c_pack()
 * takes it: enum tipme_task_state or TIPME_CSW_PREEMPTED), with a site
 * (@site, TIPME_REC_SWITCH_SITE_S) or without; -1 if the form has none.
 */
static __inline__ int tipme_switch_s_kind(__u32 state, int site)
{
	switch (state) {
	case TIPME_CSW_PREEMPTED:
		return site ? -1 : 0;
	case TIPME_TS_RUNNABLE:
		return site ? -1 : 1;
	case TIPME_TS_SLEEPING:
		return site ? 0 : 2;
	case TIPME_TS_DISK:
		return site ? 1 : 3;
	case TIPME_TS_IDLE:
		return site ? 2 : -1;
	case TIPME_TS_DEAD:
		return site ? 3 : -1;
	default:
		return -1;
	}
}

static __inline__ __u32 tipme_switch_s_word(__u32 next_pid, __u32 next_prio,
					    __u32 kind)
{
	return (next_pid & TIPME_PID_MASK) | ((next_prio & 0xffU) << 22) |
	       ((kind & 3U) << 30);
}

/* The 16-byte form of a short switch, given prev (the CPU's current). */
static __inline__ void tipme_switch_s_unpack(__u32 word, int site,
					     __u32 prev_pid, __u32 prev_prio,
					     struct tipme_rec_switch *sw)
{
	static const __u8 plain[4] = {
		TIPME_TS_RUNNABLE, TIPME_TS_RUNNABLE, TIPME_TS_SLEEPING,
		TIPME_TS_DISK,
	};
	static const __u8 sited[4] = {
		TIPME_TS_SLEEPING, TIPME_TS_DISK, TIPME_TS_IDLE, TIPME_TS_DEAD,
	};
	__u32 kind = word >> 30;

	sw->prev_pid = prev_pid;
	sw->next_pid = word & TIPME_PID_MASK;
	sw->prev_prio = (__u8)prev_prio;
	sw->next_prio = (__u8)(word >> 22);
	sw->prev_state = site ? sited[kind] : plain[kind];
	sw->flags = !site && kind == 0 ? TIPME_SWITCH_PREEMPT : 0;
}

/**
 * struct tipme_rec_waking_c - payload of TIPME_REC_WAKING_C (8 bytes with header)
 * @word: bits 0..21 target pid, 22..23 enum tipme_ctx, 24..31 target cpu
 *
 * A wakeup by the CPU's current task (see above), on a machine whose CPUs
 * are numbered below 256.
 */
struct tipme_rec_waking_c {
	__u32 word;
};

#define TIPME_WAKING_C_CPUS	256

static __inline__ __u32 tipme_waking_c_word(__u32 pid, __u32 cpu, __u32 ctx)
{
	return (pid & TIPME_PID_MASK) | ((ctx & 3U) << 22) | ((cpu & 0xffU) << 24);
}

/**
 * struct tipme_rec_site - payload of TIPME_REC_SITE (8 bytes with header)
 * @id: the blocking site, an entry of the dump's site table
 *      (TIPME_SEC_SITES, struct tipme_site)
 *
 * Where the thread the preceding switch record took off the CPU went to
 * sleep: a TIPME_REC_BLOCKED whose call chain was seen before.
 */
struct tipme_rec_site {
	__u32 id;
};

/**
 * struct tipme_rec_ustack - payload of TIPME_REC_USTACK (12 bytes with header)
 * @pid: the thread that went to sleep
 * @id: its user-space call chain, an entry of the dump's user stack table
 *      (TIPME_SEC_USTACKS, struct tipme_ustack); 0: the table was full
 *
 * The module writes the compact form, TIPME_REC_USTACK_C; readers give it
 * as this record.
 */
struct tipme_rec_ustack {
	__u32 pid;
	__u32 id;
};

/**
 * struct tipme_rec_ustack_c - payload of TIPME_REC_USTACK_C (8 bytes with header)
 * @id: as struct tipme_rec_ustack.id
 *
 * The user-space call chain of the thread the latest switch record of the
 * CPU took off it to sleep (after that switch's TIPME_REC_SITE or
 * TIPME_REC_BLOCKED, if any).  Written for user threads only, and only
 * while the user_stacks parameter is on.
 */
struct tipme_rec_ustack_c {
	__u32 id;
};

/**
 * struct tipme_rec_prof - payload of TIPME_REC_PROF (16 bytes with header)
 * @pid: the thread the profiler's timer interrupted
 * @site: its kernel call chain, an entry of the dump's site table
 *        (TIPME_SEC_SITES, struct tipme_site), innermost first from where
 *        the timer interrupted it; 0: interrupted in user mode, or not kept
 * @ustack: its user-space call chain, an entry of the dump's user stack
 *          table (TIPME_SEC_USTACKS); 0: a kernel thread, or not kept
 *
 * One sample of the on-CPU profiler (the profile_hz parameter): a per-CPU
 * timer at that rate interrupts whatever runs, and a thread other than the
 * idle task gets a sample.  The module writes the compact forms,
 * TIPME_REC_PROF_C and TIPME_REC_PROF_U; readers give them as this record.
 */
struct tipme_rec_prof {
	__u32 pid;
	__u32 site;
	__u32 ustack;
};

/**
 * struct tipme_rec_prof_c - payload of TIPME_REC_PROF_C (12 bytes with header)
 * @site: as struct tipme_rec_prof.site
 * @ustack: as struct tipme_rec_prof.ustack
 *
 * A sample of the thread the latest switch record of the CPU put on it,
 * interrupted in the kernel.
 */
struct tipme_rec_prof_c {
	__u32 site;
	__u32 ustack;
};

/**
 * struct tipme_rec_prof_u - payload of TIPME_REC_PROF_U (8 bytes with header)
 * @ustack: as struct tipme_rec_prof.ustack
 *
 * A sample of the thread the latest switch record of the CPU put on it,
 * interrupted in user mode (no kernel chain).
 */
struct tipme_rec_prof_u {
	__u32 ustack;
};

/**
 * struct tipme_rec_prof_rate - payload of TIPME_REC_PROF_RATE (12 bytes with header)
 * @hz: samples per second from now on on this CPU; 0: the profiler stopped
 * @reserved: zero
 *
 * Written on a CPU when its profiler timer starts, changes rate or stops,
 * so that a reader can weigh the samples that follow as time (1/@hz
 * seconds each) without the dump's parameters.
 */
struct tipme_rec_prof_rate {
	__u32 hz;
	__u32 reserved;
};

/* Where a trigger came from (struct tipme_rec_trigger, netlink). */
enum tipme_trigger_source {
	TIPME_TRIG_SYSCTL	= 1,	/* a write to /proc/sys/tipme/trigger */
	TIPME_TRIG_HOTKEY	= 2,	/* Ctrl-Alt-Minus on a keyboard */
	TIPME_TRIG_NETLINK	= 3,	/* TIPME_CMD_TRIGGER, e.g. tipme trigger */
	TIPME_TRIG_XHOOK	= 4,	/* the X11 recorder saw the hotkey */
	TIPME_TRIG_THRESHOLD	= 5,	/* a program measured a stall (bench) */
	TIPME_TRIG_AUTO		= 6,	/* a press measured too slow (xhook, or
					 * the module: auto_trigger_ms) */
	TIPME_TRIG_SOURCE_MAX	= 6,
};

/**
 * struct tipme_rec_trigger - payload of TIPME_REC_TRIGGER (12 bytes with header)
 * @seq: trigger sequence number (1, 2, ...; per module load)
 * @source: enum tipme_trigger_source
 * @coalesced: 1 if this request joined the trigger @seq instead of
 *             starting a new one (it came too soon after it)
 * @reserved: zero
 */
struct tipme_rec_trigger {
	__u32 seq;
	__u8 source;
	__u8 coalesced;
	__u16 reserved;
};

/* struct tipme_rec_input.kind */
enum tipme_input_kind {
	TIPME_INPUT_KEY		= 1,	/* keyboard key; code 0 unless key logging */
	TIPME_INPUT_BUTTON	= 2,	/* pointer button (BTN_*), code kept */
	TIPME_INPUT_MOTION	= 3,	/* one pointer motion frame (EV_SYN) */
	TIPME_INPUT_HOTKEY	= 4,	/* one of tipme's hotkeys; code = KEY_* */
};

/**
 * struct tipme_rec_input - payload of TIPME_REC_INPUT (12 bytes with header)
 * @kind: enum tipme_input_kind
 * @value: for keys and buttons 0 release, 1 press, 2 autorepeat; for
 *         motion the number of axis events in the frame
 * @device: small id of the input device (order of connection)
 * @code: evdev code (KEY_*, BTN_*); 0 for keys unless key logging is on
 * @reserved: zero
 */
struct tipme_rec_input {
	__u8 kind;
	__u8 value;
	__u16 device;
	__u16 code;
	__u16 reserved;
};

/*
 * Instrumentation records (types 16..63).
 *
 * Kernel text addresses (blocking sites, reclaim call sites) are stored as
 * their low 32 bits.  On x86-64 all kernel and module text lies in the top
 * 2 GiB of the address space, so the high 32 bits are the same for every
 * address; the dump's parameters give them as "text_addr_hi=0x...".
 * Variable-length records (TIPME_RECTYPE_VARLEN) start with __u16 payload
 * bytes; their fixed part is the struct, an array follows it.
 */

/* struct tipme_rec_blocked.flags */
#define TIPME_BLOCKED_FULL	0x01	/* all @nr slots used: outer frames may be cut */

/**
 * struct tipme_rec_blocked - payload of TIPME_REC_BLOCKED (varlen)
 * @len: payload bytes: 8 + 4 * @nr
 * @nr: return addresses that follow, as __u32 (see above)
 * @flags: TIPME_BLOCKED_*
 * @pid: thread that blocked
 *
 * Written on the same CPU right after the TIPME_REC_SCHED_SWITCH that took
 * @pid off the CPU to sleep (not when it was preempted): the innermost
 * kernel return addresses outside the scheduler and the locking primitives,
 * innermost first ("pipe_read, vfs_read, ksys_read, ...").
 */
struct tipme_rec_blocked {
	__u16 len;
	__u8 nr;
	__u8 flags;
	__u32 pid;
};

/**
 * struct tipme_rec_fork - payload of TIPME_REC_FORK (28 bytes with header)
 * @parent_pid: thread that called fork/clone
 * @parent_tgid: its process
 * @child_pid: new thread
 * @child_tgid: its process (== @parent_tgid for CLONE_THREAD)
 * @clone_flags_lo: clone flags (CLONE_*, <linux/sched.h>), bits 0..31
 * @clone_flags_hi: bits 32..63 (clone3)
 */
struct tipme_rec_fork {
	__u32 parent_pid;
	__u32 parent_tgid;
	__u32 child_pid;
	__u32 child_tgid;
	__u32 clone_flags_lo;
	__u32 clone_flags_hi;
};

#define TIPME_COMM_LEN		16

/**
 * struct tipme_rec_exec - payload of TIPME_REC_EXEC (32 bytes with header)
 * @pid: thread id after the exec (the process id)
 * @old_pid: thread id that called execve (differs when a thread other than
 *           the leader exec'd)
 * @exec_id: the entry of the exec table describing the new image
 *           (struct tipme_exec.id), 0 if the table had no room
 * @comm: new command name, NUL-padded
 */
struct tipme_rec_exec {
	__u32 pid;
	__u32 old_pid;
	__u32 exec_id;
	char comm[TIPME_COMM_LEN];
};

/* struct tipme_rec_exit.flags */
#define TIPME_EXIT_GROUP	0x01	/* the last thread of its process */

/**
 * struct tipme_rec_exit - payload of TIPME_REC_EXIT (20 bytes with header)
 * @pid: thread that exits
 * @tgid: its process
 * @code: exit code as wait(2) reports it (status << 8 | signal)
 * @flags: TIPME_EXIT_*
 */
struct tipme_rec_exit {
	__u32 pid;
	__u32 tgid;
	__s32 code;
	__u32 flags;
};

/**
 * struct tipme_rec_comm - payload of TIPME_REC_COMM (28 bytes with header)
 * @pid: thread renamed (prctl(PR_SET_NAME), /proc/PID/comm); renames done
 *       by execve are not recorded: TIPME_REC_EXEC carries the new name
 * @tgid: its process
 * @comm: new name, NUL-padded
 */
struct tipme_rec_comm {
	__u32 pid;
	__u32 tgid;
	char comm[TIPME_COMM_LEN];
};

/* struct tipme_rec_blk.op */
enum tipme_blk_op {
	TIPME_BLK_READ		= 0,
	TIPME_BLK_WRITE		= 1,
	TIPME_BLK_FLUSH		= 2,
	TIPME_BLK_DISCARD	= 3,
	TIPME_BLK_SECURE_ERASE	= 4,
	TIPME_BLK_WRITE_ZEROES	= 5,
	TIPME_BLK_DRV		= 6,	/* passthrough (driver private) */
	TIPME_BLK_OTHER		= 7,
};

/* struct tipme_rec_blk.flags */
#define TIPME_BLK_SYNC		0x01
#define TIPME_BLK_META		0x02
#define TIPME_BLK_FUA		0x04
#define TIPME_BLK_PREFLUSH	0x08
#define TIPME_BLK_RAHEAD	0x10

/**
 * struct tipme_rec_blk - payload of TIPME_REC_BLK_INSERT, TIPME_REC_BLK_ISSUE
 *                        and TIPME_REC_BLK_COMPLETE (32 bytes with header)
 * @dev: device (the kernel's dev_t: major << 20 | minor)
 * @sector_lo: first sector (512 bytes), bits 0..31
 * @sector_hi: bits 32..63
 * @bytes: bytes of the request (insert, issue) or completed (completion)
 * @pid: current thread: the one queueing (insert) or issuing it, or whoever
 *       the completion interrupted (0 for the idle task)
 * @tag: driver tag; with @dev it tells requests in flight apart
 * @op: enum tipme_blk_op
 * @flags: TIPME_BLK_*
 * @error: completion: 0 or a negative errno; insert, issue: 0
 * @ctx: enum tipme_ctx the record was written in
 * @reserved: zero
 */
struct tipme_rec_blk {
	__u32 dev;
	__u32 sector_lo;
	__u32 sector_hi;
	__u32 bytes;
	__u32 pid;
	__u16 tag;
	__u8 op;
	__u8 flags;
	__s16 error;
	__u8 ctx;
	__u8 reserved;
};

/**
 * struct tipme_rec_bio - payload of TIPME_REC_BIO_QUEUE, TIPME_REC_BIO_COMPLETE
 *                        and TIPME_REC_BIO_SPLIT (32 bytes with header)
 * @bio: the bio's identity: a 32-bit hash of its address, the same in every
 *       record of one bio while it lives (a freed bio's address is reused:
 *       pair its records in order)
 * @dev: device it was submitted to (the kernel's dev_t: major << 20 | minor)
 * @sector_lo: its first sector (512 bytes), bits 0..31; split: the part split
 *             off, which goes on as a bio of its own
 * @sector_hi: bits 32..63
 * @bytes: its size (queue), of the part split off (split), left to complete
 *         (completion: usually 0)
 * @pid: current thread: the one submitting it (queue, split), or whoever the
 *       completion ran in or interrupted (0 for the idle task)
 * @op: enum tipme_blk_op
 * @flags: TIPME_BLK_*
 * @ctx: enum tipme_ctx the record was written in
 * @error: completion: 0 or a negative errno (-128 for anything below);
 *         queue, split: 0
 *
 * Only bios of bio-based devices (device-mapper, md, any driver without a
 * request queue) are recorded: a request-based device's bios become
 * requests, which TIPME_REC_BLK_* records.  The kernel traces a bio's
 * completion only when its queueing was traced and no request completed it,
 * so TIPME_REC_BIO_COMPLETE comes from the top of a stack of devices.
 */
struct tipme_rec_bio {
	__u32 bio;
	__u32 dev;
	__u32 sector_lo;
	__u32 sector_hi;
	__u32 bytes;
	__u32 pid;
	__u8 op;
	__u8 flags;
	__u8 ctx;
	__s8 error;
};

/**
 * struct tipme_rec_bio_remap - payload of TIPME_REC_BIO_REMAP (44 bytes with header)
 * @bio: identity of the bio sent on (struct tipme_rec_bio.bio), often a
 *       clone of the one submitted to @from_dev
 * @dev: device it goes to now
 * @sector_lo: its first sector there, bits 0..31
 * @sector_hi: bits 32..63
 * @bytes: its size
 * @from_dev: the stacked device it was submitted to
 * @from_lo: the sector there it stands for, bits 0..31
 * @from_hi: bits 32..63
 * @pid: current thread: the one sending it on (a device-mapper target's
 *       worker, or the submitter), 0 for the idle task
 * @op: enum tipme_blk_op
 * @flags: TIPME_BLK_*
 * @ctx: enum tipme_ctx the record was written in
 * @reserved: zero
 *
 * Remaps within one device (a partition to its disk) are not recorded.
 */
struct tipme_rec_bio_remap {
	__u32 bio;
	__u32 dev;
	__u32 sector_lo;
	__u32 sector_hi;
	__u32 bytes;
	__u32 from_dev;
	__u32 from_lo;
	__u32 from_hi;
	__u32 pid;
	__u8 op;
	__u8 flags;
	__u8 ctx;
	__u8 reserved;
};

/**
 * struct tipme_rec_work - payload of TIPME_REC_WORK_QUEUE and
 *                         TIPME_REC_WORK_START (16 bytes with header)
 * @work: the work item's identity: a 32-bit hash of its address, the same
 *        in its queue, start and end records (an item is queued again and
 *        again: pair its records in order)
 * @func: its function, as the low 32 bits of a kernel text address (see
 *        above): 4 bytes, as an interned number would be, without a table
 * @who: bits 0..21 current thread (queue: the one queueing it, or whoever
 *       the interrupt that queued it interrupted, 0 for the idle task;
 *       start: the worker), bits 22..23 enum tipme_ctx the record was
 *       written in, bits 24..31 zero
 *
 * Queue: the item was put on a pool's list (workqueue_queue_work: a
 * delayed item when its timer fired); start: a worker calls its function
 * (workqueue_execute_start).
 */
struct tipme_rec_work {
	__u32 work;
	__u32 func;
	__u32 who;
};

static __inline__ __u32 tipme_work_who(__u32 pid, __u32 ctx)
{
	return (pid & TIPME_PID_MASK) | ((ctx & 3U) << 22);
}

/**
 * struct tipme_rec_work_end - payload of TIPME_REC_WORK_END (8 bytes with header)
 * @work: as struct tipme_rec_work.work: its function returned
 *
 * A work item runs on one worker at a time: the end is that of the
 * latest start of the same item.
 */
struct tipme_rec_work_end {
	__u32 work;
};

/* struct tipme_rec_intr.irq when no device's handler is running */
#define TIPME_INTR_NO_IRQ	0xffffU

/**
 * struct tipme_rec_intr - payload of TIPME_REC_INTR (8 bytes with header)
 * @irq: @ctx TIPME_CTX_HARDIRQ: the interrupt whose handler runs
 *       (irq_handler_entry), TIPME_INTR_NO_IRQ outside every handler (a
 *       timer or another of the CPU's own interrupts); else zero
 * @vec: @ctx TIPME_CTX_SOFTIRQ: the softirq vector that runs (the
 *       kernel's HI_SOFTIRQ 0 .. RCU_SOFTIRQ 9); else zero
 * @ctx: enum tipme_ctx: TIPME_CTX_SOFTIRQ or TIPME_CTX_HARDIRQ
 *
 * What the interrupt context of the records that follow on this CPU is:
 * every record written in context @ctx is in the interrupt or softirq
 * vector the latest TIPME_REC_INTR of that @ctx before it names.  Written
 * before the first wakeup or queued work item of a softirq or interrupt
 * handler, never when nothing is woken or queued.
 */
struct tipme_rec_intr {
	__u16 irq;
	__u8 vec;
	__u8 ctx;
};

/**
 * struct tipme_rec_cpu_throttle - payload of TIPME_REC_CPU_THROTTLE (16 bytes with header)
 * @pid: the thread taken off the CPU still runnable, because the CPU
 *       quota of its cgroup (cgroup v2 cpu.max, v1 cpu.cfs_quota_us) ran
 *       out: it waits for the next period
 * @cgroup_lo: id of the cgroup whose quota ran out (the thread's own or
 *             an ancestor's, in the cpu controller's hierarchy; on
 *             cgroup v2 the inode number of its folder), bits 0..31;
 *             0 if not known
 * @cgroup_hi: bits 32..63
 *
 * Written by the sched_switch probe, just before the switch record that
 * takes @pid off the CPU, when a group scheduling entity above @pid is
 * not queued although @pid is: only a throttled group leaves its runnable
 * tasks queued below an entity that is not.  A thread woken while its
 * group is already throttled has no such record.
 */
struct tipme_rec_cpu_throttle {
	__u32 pid;
	__u32 cgroup_lo;
	__u32 cgroup_hi;
};

/* struct tipme_rec_blk_file.kind: whose pages a read fills */
enum tipme_blk_file_kind {
	TIPME_BLK_FILE_FILE	= 1,	/* a file's page cache (read(), a page fault, readahead) */
	TIPME_BLK_FILE_SWAP	= 2,	/* swap: anonymous or shmem memory coming back */
	TIPME_BLK_FILE_BDEV	= 3,	/* a block device's own page cache (a file
					 * system's metadata, a read of /dev/sdX) */
};

/**
 * struct tipme_rec_blk_file - payload of TIPME_REC_BLK_FILE (20 bytes with header)
 * @ino_lo: FILE: the file's inode number, bits 0..31; else 0
 * @ino_hi: bits 32..63
 * @dev: FILE: its file system's device (the super block's dev_t, major <<
 *       20 | minor); BDEV: the block device; SWAP: 0
 * @kind: enum tipme_blk_file_kind
 * @ctx: enum tipme_ctx the record was written in
 * @reserved: zero
 *
 * Whose pages a read fills: written right after the TIPME_REC_BIO_QUEUE
 * or TIPME_REC_BLK_ISSUE of a read, on the same CPU and in the same
 * context (records of interrupts of other kinds may come between), from
 * the I/O's first page, which a read keeps locked until it completes.  Not
 * written when that page is nobody's (a kernel buffer, anonymous memory
 * that direct I/O reads into).
 */
struct tipme_rec_blk_file {
	__u32 ino_lo;
	__u32 ino_hi;
	__u32 dev;
	__u8 kind;
	__u8 ctx;
	__u16 reserved;
};

/* struct tipme_rec_vblank.flags */
#define TIPME_VBLANK_HIGH_PREC	0x01	/* the driver's own timestamp of the vblank */

/**
 * struct tipme_rec_vblank - payload of TIPME_REC_VBLANK (20 bytes with header)
 * @seq: the CRTC's vblank counter (low 32 bits)
 * @time_lo: CLOCK_MONOTONIC ns of that vblank as DRM timed it, bits 0..31
 * @time_hi: bits 32..63
 * @crtc: the CRTC's index on its device (DRM's pipe)
 * @flags: TIPME_VBLANK_*
 * @reserved: zero
 *
 * A vblank on a CRTC that had events to send (drm.ko's drm_vblank_event:
 * written in the vblank interrupt, only while some client waits for one
 * of its vblanks).  Drivers without vblank interrupts (virtio-gpu, bochs)
 * never write it: their flips complete at once, in the commit.
 */
struct tipme_rec_vblank {
	__u32 seq;
	__u32 time_lo;
	__u32 time_hi;
	__u16 crtc;
	__u8 flags;
	__u8 reserved;
};

/**
 * struct tipme_rec_vblank_ev - payload of TIPME_REC_VBLANK_QUEUED and
 *                              TIPME_REC_VBLANK_DELIVERED (24 bytes with header)
 * @seq: queued: the vblank the event waits for; delivered: the vblank it
 *       was sent at (0 when the device counts no vblanks: a flip that
 *       completed without one)
 * @file: the DRM file the event goes to: a 32-bit hash of its address,
 *        the same in every record of that open file; 0 for an event no
 *        file reads (the atomic helpers' own completion event of a
 *        commit that asked for none)
 * @who: bits 0..21 current thread (queued: the one whose ioctl asked for
 *       the event; delivered: whoever sent it, often an interrupt's or a
 *       commit worker's), bits 22..23 enum tipme_ctx, bits 24..31 zero
 * @owner: the process (thread group id) that opened @file, the one its
 *         events are read by: for a page flip's event, the committer;
 *         0 if not known
 * @crtc: the CRTC's index on its device
 * @reserved: zero
 *
 * Queued: a client asked for an event at a vblank (drm_vblank_event_queued,
 * DRM_IOCTL_WAIT_VBLANK with an event, DRM_IOCTL_CRTC_QUEUE_SEQUENCE).
 * Delivered: an event reached @file's queue (drm_vblank_event_delivered):
 * a vblank event, or a page flip's or an atomic commit's completion.
 */
struct tipme_rec_vblank_ev {
	__u32 seq;
	__u32 file;
	__u32 who;
	__u32 owner;
	__u16 crtc;
	__u16 reserved;
};

/* struct tipme_rec_fence.op: which dma_fence tracepoint wrote it */
enum tipme_fence_op {
	TIPME_FENCE_EMIT	= 1,	/* dma_fence_emit: the work is sent to the device */
	TIPME_FENCE_SIGNALED	= 2,	/* dma_fence_signaled: the work is done */
	TIPME_FENCE_WAIT_START	= 3,	/* dma_fence_wait_start: @who waits for it */
	TIPME_FENCE_WAIT_END	= 4,	/* dma_fence_wait_end: @who's wait ended */
	TIPME_FENCE_OP_MAX	= 4,
};

/**
 * struct tipme_rec_fence - payload of TIPME_REC_FENCE (28 bytes with header)
 * @ctx_lo: the fence's context (its timeline, unique in the kernel), bits 0..31
 * @ctx_hi: bits 32..63
 * @seqno_lo: its sequence number on the timeline, bits 0..31
 * @seqno_hi: bits 32..63
 * @who: bits 0..21 current thread, bits 22..23 enum tipme_ctx, bits
 *       24..31 zero
 * @op: enum tipme_fence_op
 * @reserved: zero
 *
 * A dma_fence is (@ctx, @seqno): a wait on it is joined to its signal by
 * the pair.  Its driver and timeline are named by the latest
 * TIPME_REC_FENCE_NAME of the context.
 */
struct tipme_rec_fence {
	__u32 ctx_lo;
	__u32 ctx_hi;
	__u32 seqno_lo;
	__u32 seqno_hi;
	__u32 who;
	__u8 op;
	__u8 reserved[3];
};

#define TIPME_FENCE_DRIVER_LEN		24
#define TIPME_FENCE_TIMELINE_LEN	28

/**
 * struct tipme_rec_fence_name - payload of TIPME_REC_FENCE_NAME (64 bytes with header)
 * @ctx_lo: the fence context named, bits 0..31
 * @ctx_hi: bits 32..63
 * @driver: the driver's name (dma_fence_ops.get_driver_name), NUL-padded,
 *          cut at TIPME_FENCE_DRIVER_LEN - 1 bytes
 * @timeline: the timeline's name (get_timeline_name), likewise
 *
 * The names are interned per context: written on a CPU before that CPU's
 * first TIPME_REC_FENCE of the context, and again before the first one
 * more than a second after, so a window of a ring that holds a fence
 * record of the context holds its name unless the name was overwritten
 * less than a second before it.
 */
struct tipme_rec_fence_name {
	__u32 ctx_lo;
	__u32 ctx_hi;
	__u8 driver[TIPME_FENCE_DRIVER_LEN];
	__u8 timeline[TIPME_FENCE_TIMELINE_LEN];
};

/* struct tipme_rec_net.family: the socket's address family */
enum tipme_net_family {
	TIPME_NET_INET		= 4,	/* IPv4: the first 4 bytes of each address */
	TIPME_NET_INET6		= 6,	/* IPv6 (an IPv4-mapped one for IPv4 on an
					 * IPv6 socket) */
};

/**
 * struct tipme_rec_net - payload of TIPME_REC_NET_RECV and
 *                        TIPME_REC_NET_SEND (52 bytes with header)
 * @laddr: the socket's own address (struct sock_common: skc_rcv_saddr,
 *         skc_v6_rcv_saddr), network byte order; IPv4 in the first 4 bytes,
 *         the rest zero
 * @raddr: its peer's address (skc_daddr, skc_v6_daddr), the same way
 * @lport: its own port, host byte order
 * @rport: its peer's port, host byte order
 * @pid: send: the thread that sent, 0 when not sent from a task (a
 *       softirq, a timer); receive: current, whoever the receive ran in or
 *       interrupted (0 for the idle task)
 * @len: payload bytes the segment carries
 * @family: enum tipme_net_family
 * @proto: the IP protocol (6: TCP)
 * @ctx: enum tipme_ctx the record was written in
 * @reserved: zero
 *
 * Receive: a TCP segment with data reached an established socket that
 * someone waits on (tcp_probe, at the start of the receive path): the
 * wakeup of its reader follows on the same CPU and in the same context.
 * Send: a TCP segment with data was queued to a network device
 * (net_dev_queue: before a qdisc, netem's delay included, holds it), from
 * its socket.  A receive is joined to a send by the pair of addresses and
 * ports, mirrored.
 */
struct tipme_rec_net {
	__u8 laddr[16];
	__u8 raddr[16];
	__u16 lport;
	__u16 rport;
	__u32 pid;
	__u32 len;
	__u8 family;
	__u8 proto;
	__u8 ctx;
	__u8 reserved;
};

/* struct tipme_rec_lock_begin.flags (the kernel's LCB_F_* values) */
#define TIPME_LOCK_SPIN		0x01
#define TIPME_LOCK_READ		0x02
#define TIPME_LOCK_WRITE	0x04
#define TIPME_LOCK_RT		0x08
#define TIPME_LOCK_PERCPU	0x10
#define TIPME_LOCK_MUTEX	0x20

/**
 * struct tipme_rec_lock_begin - payload of TIPME_REC_LOCK_BEGIN (24 bytes with header)
 * @lock_lo: address of the lock, bits 0..31
 * @lock_hi: bits 32..63
 * @pid: thread that has to wait for it
 * @owner: thread holding it when that is cheaply known (mutex, rt_mutex,
 *         rw_semaphore held for writing), else 0
 * @flags: TIPME_LOCK_*
 */
struct tipme_rec_lock_begin {
	__u32 lock_lo;
	__u32 lock_hi;
	__u32 pid;
	__u32 owner;
	__u32 flags;
};

/**
 * struct tipme_rec_lock_end - payload of TIPME_REC_LOCK_END (20 bytes with header)
 * @lock_lo: address of the lock, bits 0..31
 * @lock_hi: bits 32..63
 * @pid: thread that waited
 * @ret: 0 if it got the lock, else a negative errno (-EINTR, -ETIMEDOUT)
 */
struct tipme_rec_lock_end {
	__u32 lock_lo;
	__u32 lock_hi;
	__u32 pid;
	__s32 ret;
};

/* struct tipme_rec_reclaim_begin.kind */
enum tipme_reclaim_kind {
	TIPME_RECLAIM_DIRECT	= 1,	/* an allocation reclaims itself */
	TIPME_RECLAIM_MEMCG	= 2,	/* a memory cgroup over its limit */
	TIPME_RECLAIM_MEMCG_SOFT = 3,	/* memcg soft limit (cgroup v1) */
};

/**
 * struct tipme_rec_reclaim_begin - payload of TIPME_REC_RECLAIM_BEGIN (varlen)
 * @len: payload bytes: 16 + 4 * @nr
 * @kind: enum tipme_reclaim_kind
 * @nr: return addresses that follow (call site of the allocation, as in
 *      struct tipme_rec_blocked: it shows e.g. a page fault)
 * @pid: thread that reclaims (and waits for it)
 * @order: allocation order
 * @gfp: gfp flags of the allocation
 */
struct tipme_rec_reclaim_begin {
	__u16 len;
	__u8 kind;
	__u8 nr;
	__u32 pid;
	__u32 order;
	__u32 gfp;
};

/**
 * struct tipme_rec_reclaim_end - payload of TIPME_REC_RECLAIM_END (28 bytes with header)
 * @pid: thread that reclaimed
 * @kind: enum tipme_reclaim_kind
 * @reserved: zero
 * @nr_reclaimed: pages reclaimed
 * @high_cgroup_lo: TIPME_RECLAIM_MEMCG: the memory cgroup, the thread's
 *                  own or an ancestor's, most over its memory.high when
 *                  the reclaim ended (the one whose overage the kernel's
 *                  penalty sleep follows; on cgroup v2 the inode number of
 *                  its folder, as struct tipme_rec_cpu_throttle's), bits
 *                  0..31; 0 if none was over it (a reclaim for
 *                  memory.max), for other kinds, or not recorded (a dump
 *                  of a module before this field: the record was 16 bytes)
 * @high_cgroup_hi: bits 32..63
 * @high_kib: that cgroup's memory.high then, KiB (0xffffffff: 4 TiB or
 *            more; 0 too with no cgroup)
 */
struct tipme_rec_reclaim_end {
	__u32 pid;
	__u8 kind;
	__u8 reserved[3];
	__u32 nr_reclaimed;
	__u32 high_cgroup_lo;
	__u32 high_cgroup_hi;
	__u32 high_kib;
};

/* struct tipme_rec_kswapd.kind */
enum tipme_kswapd_kind {
	TIPME_KSWAPD_RUN	= 1,	/* kswapd starts balancing a node (pid: kswapd) */
	TIPME_KSWAPD_WAKEUP	= 2,	/* an allocation woke kswapd (pid: the allocator) */
};

/**
 * struct tipme_rec_kswapd - payload of TIPME_REC_KSWAPD (20 bytes with header)
 * @pid: current thread
 * @nid: NUMA node
 * @zid: zone index
 * @kind: enum tipme_kswapd_kind
 * @order: order asked for
 * @gfp: gfp flags (TIPME_KSWAPD_WAKEUP), else 0
 */
struct tipme_rec_kswapd {
	__u32 pid;
	__u16 nid;
	__u8 zid;
	__u8 kind;
	__u32 order;
	__u32 gfp;
};

/**
 * struct tipme_rec_throttled - payload of TIPME_REC_THROTTLED (24 bytes with header)
 * @pid: thread that reclaim throttled (it slept)
 * @nid: NUMA node
 * @usec_timeout: the longest it would have slept
 * @usec_delayed: how long it slept
 * @reason: the kernel's VMSCAN_THROTTLE_* reason (0 writeback, 1 isolated,
 *          2 no progress, 3 congested)
 */
struct tipme_rec_throttled {
	__u32 pid;
	__u32 nid;
	__u32 usec_timeout;
	__u32 usec_delayed;
	__u32 reason;
};

/* struct tipme_rec_sample.flags */
#define TIPME_SAMPLE_FULL	0x01	/* part of a full sample (every thread) */

/**
 * struct tipme_rec_sample - payload of TIPME_REC_SAMPLE (varlen)
 * @len: payload bytes: 8 + 16 * @nr
 * @nr: struct tipme_sample_ent that follow
 * @flags: TIPME_SAMPLE_*
 * @seq: sample round (one every sample_period_ms); the round's records
 *       are followed by a TIPME_REC_SAMPLE_END with the same @seq
 *
 * The sampler sends a thread when something in its entry changed since
 * its previous entry, or it ran without switching out in that round (the
 * switch records say when a thread that switched ran), and every thread
 * in a full sample.
 */
struct tipme_rec_sample {
	__u16 len;
	__u8 nr;
	__u8 flags;
	__u32 seq;
};

/*
 * struct tipme_sample_ent.word:
 *   bits  0..21  thread id
 *   bits 22..25  enum tipme_task_state (TIPME_TS_RUNNABLE for running)
 *   bits 26..28  scheduling policy (SCHED_NORMAL 0 .. SCHED_DEADLINE 6)
 *   bit  29      on a CPU at the time of the sample
 */
#define TIPME_SMP_STATE_SHIFT	22
#define TIPME_SMP_POLICY_SHIFT	26
#define TIPME_SMP_ONCPU		(1U << 29)

/* struct tipme_sample_ent.flags */
#define TIPME_SMP_NEW		0x01	/* first entry of this thread since load */
#define TIPME_SMP_RUNTIME_SAT	0x02	/* @runtime saturated */

/**
 * struct tipme_sample_ent - one thread in a TIPME_REC_SAMPLE
 * @word: pid, state, policy and on-CPU bit, see above
 * @tgid: process
 * @runtime: ns of CPU time since the thread's previous entry
 * @cpu: CPU it runs or last ran on
 * @prio: kernel priority (0..139)
 * @flags: TIPME_SMP_*
 */
struct tipme_sample_ent {
	__u32 word;
	__u32 tgid;
	__u32 runtime;
	__u16 cpu;
	__u8 prio;
	__u8 flags;
};

static __inline__ __u32 tipme_smp_word(__u32 pid, __u32 state, __u32 policy,
				       int on_cpu)
{
	return (pid & TIPME_PID_MASK) | ((state & 0xfU) << TIPME_SMP_STATE_SHIFT) |
	       ((policy & 7U) << TIPME_SMP_POLICY_SHIFT) |
	       (on_cpu ? TIPME_SMP_ONCPU : 0);
}

static __inline__ __u32 tipme_smp_pid(__u32 word)
{
	return word & TIPME_PID_MASK;
}

static __inline__ __u32 tipme_smp_state(__u32 word)
{
	return (word >> TIPME_SMP_STATE_SHIFT) & 0xfU;
}

static __inline__ __u32 tipme_smp_policy(__u32 word)
{
	return (word >> TIPME_SMP_POLICY_SHIFT) & 7U;
}

static __inline__ int tipme_smp_oncpu(__u32 word)
{
	return (word & TIPME_SMP_ONCPU) != 0;
}

/* struct tipme_rec_sample_end.flags */
#define TIPME_SMPEND_FULL	0x01	/* the round was a full sample */
#define TIPME_SMPEND_OVERFLOW	0x02	/* a CPU's switch log overflowed: full sample */
#define TIPME_SMPEND_TABLE_FULL	0x04	/* more threads than the table had room for:
						 * @skipped of them were not looked at */

/**
 * struct tipme_rec_sample_end - payload of TIPME_REC_SAMPLE_END (28 bytes with header)
 * @seq: the round
 *
 * Written at the end of a round that wrote entries, was full or has a
 * flag; a quiet round writes none (earlier modules wrote one every
 * round), so the rounds up to one are the difference of its @seq and the
 * previous one's.
 *
 * @threads: threads looked at
 * @emitted: entries written
 * @flags: TIPME_SMPEND_*
 * @cycles: recorder ticks the round took (also in the self-cost records)
 * @skipped: threads the round could not look at: its table was full
 *	(TIPME_SMPEND_TABLE_FULL; the table then grows and the next round
 *	is full).  Earlier modules' records end before it (read as 0).
 */
struct tipme_rec_sample_end {
	__u32 seq;
	__u32 threads;
	__u32 emitted;
	__u32 flags;
	__u32 cycles;
	__u32 skipped;
};

/**
 * struct tipme_cost_ent - one record type in a TIPME_REC_COST
 * @type: enum tipme_rec_type
 * @reserved: zero
 * @count: records of @type this CPU wrote since its previous TIPME_REC_COST
 *         (may be 0 for work that writes no record, e.g. reading argv)
 * @cycles: recorder ticks spent creating them (probe entry to exit; for
 *          sched_switch and sched_waking from the record's timestamp to
 *          exit, leaving out the little they do before reserving it)
 */
struct tipme_cost_ent {
	__u8 type;
	__u8 reserved;
	__u16 count;
	__u32 cycles;
};

/**
 * struct tipme_rec_cost - payload of TIPME_REC_COST (varlen)
 * @len: payload bytes: 4 + 8 * @nr
 * @nr: struct tipme_cost_ent that follow
 * @flags: zero
 *
 * The recorder's own cost, in batches: each CPU writes one every
 * cost_period_ms (when it wrote anything), covering the records it wrote
 * since its previous one.  Ticks are TSC cycles, or ns when the dump's
 * clock is local_clock: the unit of the timestamps.
 */
struct tipme_rec_cost {
	__u16 len;
	__u8 nr;
	__u8 flags;
};

/**
 * struct tipme_rec_test - payload of TIPME_REC_TEST (12 bytes with header)
 * @seq: a number the test chose
 * @value: another
 *
 * Never written by the module: the readers' tests put it in their dumps.
 */
struct tipme_rec_test {
	__u32 seq;
	__u32 value;
};

/**
 * struct tipme_clock_pair - one sample of the three clocks, taken together
 * @ts: the recorder's timestamp (TSC ticks, or ns of local_clock() when the
 *      dump's clock source is TIPME_CLOCK_LOCAL)
 * @mono_ns: CLOCK_MONOTONIC in ns (the X side's clock)
 * @real_ns: CLOCK_REALTIME in ns
 * @err_ts: half the width of the window the three reads were taken in,
 *          in @ts units: the uncertainty of the pairing
 * @reserved: zero
 */
struct tipme_clock_pair {
	__u64 ts;
	__u64 mono_ns;
	__u64 real_ns;
	__u32 err_ts;
	__u32 reserved;
};

/* Clock sources (dump header, status). */
enum tipme_clock_source {
	TIPME_CLOCK_TSC		= 1,	/* rdtsc_ordered(), constant + nonstop TSC */
	TIPME_CLOCK_LOCAL	= 2,	/* local_clock() ns: fallback */
};

/*
 * The record-type table: the module describes every type it writes, and the
 * dump carries the table, so readers never depend on their own idea of a
 * record's size.
 */
#define TIPME_RECTYPE_FIXED	0x00	/* payload_size bytes */
#define TIPME_RECTYPE_VARLEN	0x01	/* payload starts with __u16 payload bytes */
#define TIPME_RECTYPE_NAME_LEN	24

/**
 * struct tipme_rectype - one entry of the record-type table
 * @type: enum tipme_rec_type
 * @flags: TIPME_RECTYPE_*
 * @payload_size: payload bytes after the header (and extended timestamp);
 *                for TIPME_RECTYPE_VARLEN the minimum
 * @name: NUL-terminated name, e.g. "sched_switch"
 */
struct tipme_rectype {
	__u8 type;
	__u8 flags;
	__u16 payload_size;
	char name[TIPME_RECTYPE_NAME_LEN];
};

/* ------------------------------------------------------------------ */
/* 2. Ring geometry and per-CPU accounting                            */
/* ------------------------------------------------------------------ */

/**
 * struct tipme_cpu_stats - a CPU ring's counters (dump section, status)
 * @cpu: CPU number
 * @flags: TIPME_CPU_*
 * @written: records committed since the module was loaded
 * @overwritten: committed records since lost because the ring wrapped
 * @dropped: records never written (recording nested too deep, the oldest
 *           sub-buffer still being written, a record larger than a
 *           sub-buffer, the ring full up to a window a trigger froze)
 * @bytes: bytes reserved since load (including padding)
 * @discarded_subbufs: sub-buffers this dump read but threw away because
 *                     writers overwrote them while they were being read
 *                     (their records are counted in @overwritten)
 * @reserved: zero
 */
struct tipme_cpu_stats {
	__u32 cpu;
	__u32 flags;
	__u64 written;
	__u64 overwritten;
	__u64 dropped;
	__u64 bytes;
	__u32 discarded_subbufs;
	__u32 reserved;
};

#define TIPME_CPU_ONLINE	0x01

/* ------------------------------------------------------------------ */
/* 3. Dump file                                                       */
/* ------------------------------------------------------------------ */

/*
 * A dump file is a struct tipme_file_header followed by sections.  Each
 * section is a struct tipme_section header and @size bytes of payload,
 * padded with zeros to a multiple of 8.  Sections of unknown type are
 * skipped by readers.  All integers are in the byte order of the machine
 * that wrote the file; @byte_order tells which.
 */
#define TIPME_FILE_MAGIC	"TIPMEDMP"
/*
 * Version 2 added @header_crc32 (version 1 had a zero there).  Readers
 * accept every version up to theirs.
 */
#define TIPME_FILE_VERSION	2
#define TIPME_BYTE_ORDER_MARK	0x01020304U

/* struct tipme_file_header.flags */
#define TIPME_FILE_CLOCK_FALLBACK	0x01	/* timestamps are local_clock() ns */
#define TIPME_FILE_ENV_CAPTURED		0x02	/* environment capture was on */
#define TIPME_FILE_KEYLOG		0x04	/* key codes were recorded */
#define TIPME_FILE_REDACTED		0x08	/* written by tipme redact */

/**
 * struct tipme_file_header - first 72 bytes of a dump file
 * @magic: TIPME_FILE_MAGIC, not NUL-terminated
 * @version: TIPME_FILE_VERSION; readers refuse a newer major version
 * @header_size: sizeof(struct tipme_file_header) when written
 * @byte_order: TIPME_BYTE_ORDER_MARK as written by the producer
 * @flags: TIPME_FILE_*
 * @tsc_khz: timestamp ticks per millisecond (1000000 for local_clock)
 * @clock_source: enum tipme_clock_source
 * @nr_cpus: number of possible CPUs on the recording machine
 * @nr_sections: sections that follow
 * @header_crc32: CRC-32 of the sizeof(struct tipme_file_header) bytes of
 *                the header with this field zero (version >= 2)
 * @file_size: total bytes of the file, to detect truncation
 * @created_real_ns: CLOCK_REALTIME when the dump was written
 * @reserved: zero
 */
struct tipme_file_header {
	char magic[8];
	__u32 version;
	__u32 header_size;
	__u32 byte_order;
	__u32 flags;
	__u64 tsc_khz;
	__u32 clock_source;
	__u32 nr_cpus;
	__u32 nr_sections;
	__u32 header_crc32;
	__u64 file_size;
	__u64 created_real_ns;
	__u64 reserved;
};

/* Section types.  Numbers are never reused. */
enum tipme_section_type {
	TIPME_SEC_RECTYPES	= 1,	/* struct tipme_rectype[] */
	TIPME_SEC_CPU_STREAM	= 2,	/* one CPU: (struct tipme_subbuf, data)* */
	TIPME_SEC_CPU_STATS	= 3,	/* struct tipme_cpu_stats[] */
	TIPME_SEC_CLOCKS	= 4,	/* struct tipme_clock_pair[], oldest first */
	TIPME_SEC_PARAMS	= 5,	/* "key=value\n" text: module parameters */
	TIPME_SEC_SYSTEM	= 6,	/* "key=value\n" text: uname, boot id, ... */
	TIPME_SEC_SYMBOLS	= 7,	/* struct tipme_sym[] then a string table */
	/* 8..15: instrumentation (exec table, self-cost, ...); 16..: later */
	TIPME_SEC_EXECTAB	= 8,	/* struct tipme_exectab_hdr, then struct tipme_exec* */
	TIPME_SEC_COST		= 9,	/* struct tipme_cost_total[] */
	TIPME_SEC_SITES		= 10,	/* struct tipme_sitetab_hdr, then struct tipme_site* */
	/* 20..23: user space (issue 29) */
	TIPME_SEC_USTACKS	= 20,	/* struct tipme_sitetab_hdr, then struct tipme_ustack* */
	TIPME_SEC_MAPS		= 21,	/* tipmed: "maps" text, see struct tipme_ustack */
	TIPME_SEC_VDSO		= 22,	/* tipmed: a vDSO's ELF image, see struct tipme_ustack */
	TIPME_SEC_XMAPS		= 23,	/* struct tipme_xmaps_hdr, then struct tipme_xmap* */
	/* 24: the postmortem's own, in a file beside the dump */
	TIPME_SEC_CKPT		= 24,	/* struct tipme_ckpt_hdr, ...: see there */
	/* 25: the sampler's table at the dump (issue 31) */
	TIPME_SEC_SMPSNAP	= 25,	/* struct tipme_smpsnap_hdr, then struct tipme_smpsnap_ent[] */
	__TIPME_SEC_MAX,
};

/**
 * struct tipme_section - header of one section
 * @type: enum tipme_section_type
 * @cpu: CPU for per-CPU sections, else 0
 * @size: payload bytes (not counting the padding to 8)
 * @crc32: CRC-32 (IEEE 802.3, as zlib's crc32()) of the payload
 * @reserved: zero
 */
struct tipme_section {
	__u32 type;
	__u32 cpu;
	__u64 size;
	__u32 crc32;
	__u32 reserved;
};

/* struct tipme_subbuf.flags */
#define TIPME_SUBBUF_PARTIAL	0x01	/* the sub-buffer being written at dump time */

/**
 * struct tipme_subbuf - one sub-buffer inside a TIPME_SEC_CPU_STREAM
 * @seq: global sequence number of the sub-buffer in its ring (increasing;
 *       a gap means sub-buffers were overwritten or discarded)
 * @len: data bytes that follow (a multiple of 4)
 * @flags: TIPME_SUBBUF_*
 *
 * The first record of the data carries an extended timestamp.
 */
struct tipme_subbuf {
	__u64 seq;
	__u32 len;
	__u32 flags;
};

/**
 * struct tipme_sym - one kernel text symbol (TIPME_SEC_SYMBOLS)
 * @addr: address
 * @name_off: offset of the NUL-terminated name in the string table, which
 *            follows the @count entries of the array
 * @reserved: zero
 *
 * The section starts with a __u64 entry count; entries are sorted by @addr.
 */
struct tipme_sym {
	__u64 addr;
	__u32 name_off;
	__u32 reserved;
};

/* struct tipme_exectab_hdr.flags */
#define TIPME_EXECTAB_ENV	0x01	/* environment capture was on */

/**
 * struct tipme_exectab_hdr - start of TIPME_SEC_EXECTAB
 * @hdr_size: sizeof(struct tipme_exectab_hdr) when written
 * @count: entries in use when the dump began; the entries that follow are
 *         those found while it was read: walk them by size to the end
 * @capacity: entries the module's table holds
 * @flags: TIPME_EXECTAB_*
 * @retention_ns: how long entries are kept after their process exited
 * @evicted: entries evicted before their retention ran out (table full)
 * @dropped: processes or threads never entered (table full of live ones)
 * @argv_lost: images whose argv could not be read (queue full, fault)
 * @argv_max: bytes of argv kept per entry
 * @env_max: bytes of environment kept per entry (0: capture off)
 * @strings_evicted: exited entries that gave their path and argv up for a
 *                   newer process's (string slots full), the entry kept
 *                   (TIPME_EXEC_STRINGS_EVICTED); absent from dumps whose
 *                   @hdr_size ends before it (read as 0)
 */
struct tipme_exectab_hdr {
	__u32 hdr_size;
	__u32 count;
	__u32 capacity;
	__u32 flags;
	__u64 retention_ns;
	__u64 evicted;
	__u64 dropped;
	__u64 argv_lost;
	__u32 argv_max;
	__u32 env_max;
	__u64 strings_evicted;
};

/* struct tipme_exectab_hdr's size before @strings_evicted */
#define TIPME_EXECTAB_HDR_SIZE_V1	56

/* struct tipme_exec.flags */
#define TIPME_EXEC_THREAD	0x0001	/* a thread (pid != tgid): only comm is kept */
#define TIPME_EXEC_SNAPSHOT	0x0002	/* existed when the table was built */
#define TIPME_EXEC_FORKED	0x0004	/* created by fork: image inherited */
#define TIPME_EXEC_EXECED	0x0008	/* created by execve at @exec_ts */
#define TIPME_EXEC_EXITED	0x0010	/* @exit_ts is set */
#define TIPME_EXEC_REPLACED	0x0020	/* the image ended by a later execve */
#define TIPME_EXEC_KTHREAD	0x0040	/* kernel thread */
#define TIPME_EXEC_ARGV_TRUNC	0x0080	/* argv longer than argv_max */
#define TIPME_EXEC_ARGV_LOST	0x0100	/* argv could not be read */
#define TIPME_EXEC_ENV		0x0200	/* environment captured */
#define TIPME_EXEC_ENV_TRUNC	0x0400	/* environment longer than env_max */
#define TIPME_EXEC_EXIT_UNSEEN	0x0800	/* exit not observed (pid reused): @exit_ts approximate */
#define TIPME_EXEC_PENDING	0x1000	/* argv not read yet */
#define TIPME_EXEC_STRINGS_EVICTED 0x2000 /* exited; path and argv given up for a newer process's */

/**
 * struct tipme_exec - one entry of the exec table (TIPME_SEC_EXECTAB)
 * @size: bytes of the entry with its strings, a multiple of 8
 * @id: serial number (TIPME_REC_EXEC.exec_id refers to it)
 * @pid: thread id (the process id for a process)
 * @tgid: process id
 * @ppid: parent process id when the entry was made
 * @flags: TIPME_EXEC_*
 * @exit_code: TIPME_EXEC_EXITED: as wait(2) reports it
 * @reserved: zero
 * @start_ts: recorder timestamp the entry begins at: the fork, the exec, or
 *            the snapshot
 * @exit_ts: recorder timestamp of the exit (or of the exec that replaced
 *           the image); 0 while alive
 * @start_mono_ns: CLOCK_MONOTONIC the task was created (task start time)
 * @comm: command name, NUL-padded
 * @exe_len: bytes of the executable's path that follow (no NUL)
 * @argv_len: bytes of argv after it: the arguments, each NUL-terminated
 * @env_len: bytes of environment after argv, as argv
 * @reserved2: zero
 *
 * Strings follow the structure, then zeros up to @size.
 */
struct tipme_exec {
	__u32 size;
	__u32 id;
	__u32 pid;
	__u32 tgid;
	__u32 ppid;
	__u32 flags;
	__s32 exit_code;
	__u32 reserved;
	__u64 start_ts;
	__u64 exit_ts;
	__u64 start_mono_ns;
	char comm[TIPME_COMM_LEN];
	__u16 exe_len;
	__u16 argv_len;
	__u16 env_len;
	__u16 reserved2;
};

/**
 * struct tipme_sitetab_hdr - start of TIPME_SEC_SITES
 * @hdr_size: sizeof(struct tipme_sitetab_hdr) when written
 * @count: entries in the table when the dump began to read it; entries
 *         added meanwhile follow too: walk them by size to the section's end
 * @capacity: entries the module's table holds
 * @depth: return addresses kept per site, at most
 * @refused: blocking sites written as full TIPME_REC_BLOCKED records
 *           because the table was full
 * @reserved: zero
 */
struct tipme_sitetab_hdr {
	__u32 hdr_size;
	__u32 count;
	__u32 capacity;
	__u32 depth;
	__u64 refused;
	__u64 reserved;
};

/**
 * struct tipme_site - one blocking site (TIPME_SEC_SITES)
 * @id: its number (struct tipme_rec_site.id), 1 or more
 * @nr: return addresses that follow, as __u32 (as in TIPME_REC_BLOCKED)
 * @flags: TIPME_BLOCKED_*
 * @reserved: zero
 *
 * An entry is 8 + 4 * @nr bytes.  Entries are never changed or reused
 * while the module is loaded, so every id a dump's records name is in the
 * table the same dump carries (it is read after the rings).
 */
struct tipme_site {
	__u32 id;
	__u8 nr;
	__u8 flags;
	__u16 reserved;
};

/* struct tipme_ustack.flags */
#define TIPME_USTACK_FULL	0x01	/* every slot filled: outer frames cut */
#define TIPME_USTACK_TRUNC	0x02	/* the frame walk stopped before the chain's end */
#define TIPME_USTACK_DEPTH_MAX	16

/**
 * struct tipme_ustack - one user-space call chain (TIPME_SEC_USTACKS)
 * @id: its number (struct tipme_rec_ustack.id), 1 or more
 * @pid: the process (thread group) whose addresses they are
 * @nr: addresses that follow, as __u64: the user instruction pointer at
 *      the system call (or fault, or interrupt) that led to the sleep,
 *      then the return addresses of the frame-pointer chain, innermost
 *      first
 * @flags: TIPME_USTACK_*
 * @reserved: zero
 * @reserved2: zero
 *
 * An entry is 16 + 8 * @nr bytes; the section's header is a struct
 * tipme_sitetab_hdr (@refused: chains not numbered because the table was
 * full).  The module reads nothing of user memory but the frame chain's
 * (saved frame pointer, return address) pairs, with page faults disabled;
 * a walk that faults, leaves the stack (a frame pointer below the stack
 * pointer or below the frame before, or more than 8 MiB above the stack
 * pointer), or finds no frame beyond the first is marked
 * TIPME_USTACK_TRUNC.  Whether an address lies in an executable
 * mapping is for the reader to check, with TIPME_SEC_MAPS.
 *
 * TIPME_SEC_MAPS is written by tipmed at dump time, for every process
 * with a chain in TIPME_SEC_USTACKS (those alive then from /proc, those
 * that exited from the module's capture, TIPME_SEC_XMAPS, after a line
 * "# PID: exited: captured by the module"): text lines
 * "pid START END OFFSET BUILD_ID PATH\n" (hexadecimal START, END and file
 * OFFSET of each executable file mapping as /proc/PID/maps gives it,
 * BUILD_ID in hexadecimal or "-" when the file has none or cannot be
 * read, PATH the rest of the line, as /proc/PID/maps escapes it).
 * The vDSO, which has no file, is the line whose PATH is "[vdso]" (its
 * OFFSET 0, its BUILD_ID read from the process's memory); each vDSO
 * those lines name whose image tipmed could read is in a TIPME_SEC_VDSO
 * section: the ELF image as the kernel maps it (a shared object with
 * its dynamic symbols: the whole of its mapping), one image
 * per section, whose build-id names it.
 */
struct tipme_ustack {
	__u32 id;
	__u32 pid;
	__u8 nr;
	__u8 flags;
	__u16 reserved;
	__u32 reserved2;
};

/**
 * struct tipme_xmaps_hdr - start of TIPME_SEC_XMAPS
 * @hdr_size: sizeof(struct tipme_xmaps_hdr) when written
 * @count: mappings kept when the dump began to read them
 * @capacity: mappings the module can keep
 * @procs: processes whose mappings are kept
 * @walks: walks of a process's mappings since load
 * @lost: walks not made (the request queue was full, the address space
 *        stayed locked) since load
 * @refused: mappings not kept for want of room since load
 * @evicted: processes whose mappings were dropped for room before their
 *           retention ran out, since load
 * @retention_ns: how long a process's mappings are kept after it exits
 */
struct tipme_xmaps_hdr {
	__u32 hdr_size;
	__u32 count;
	__u32 capacity;
	__u32 procs;
	__u64 walks;
	__u64 lost;
	__u64 refused;
	__u64 evicted;
	__u64 retention_ns;
};

/**
 * struct tipme_smpsnap_hdr - start of TIPME_SEC_SMPSNAP: every thread the
 *	sampler knows, as it last looked at each, taken when a dump begins
 * @hdr_size: bytes of this header (readers skip what they do not know)
 * @ent_size: bytes of one entry (the same)
 * @count: entries that follow
 * @seq: the sampler's last round
 * @full_seq: its last full round; the table's threads not seen since
 *	(they exited) are left out
 * @reserved: zero
 * @ts: recorder timestamp of the last round
 *
 * With more threads than sample_full_threads, full rounds come seconds
 * apart, and a thread that does not run is in no sample record between
 * them; the snapshot still says what it was doing at the window's end.
 * Between the round that last looked at a thread (@seen_ts) and the
 * snapshot the thread did not leave a CPU (the sampler would have looked
 * at it again), so a blocked thread stayed blocked unless a wakeup says
 * otherwise.
 */
struct tipme_smpsnap_hdr {
	__u32 hdr_size;
	__u32 ent_size;
	__u32 count;
	__u32 seq;
	__u32 full_seq;
	__u32 reserved;
	__u64 ts;
};

/* struct tipme_smpsnap_ent.flags */
#define TIPME_SMPSNAP_GONE	0x01	/* no such thread when the snapshot was taken */

/**
 * struct tipme_smpsnap_ent - one thread in TIPME_SEC_SMPSNAP
 * @word: pid, state, policy and on-CPU bit, as struct tipme_sample_ent's
 * @tgid: process
 * @seen_ts: recorder timestamp of the round that last looked at it
 * @runtime: its CPU time then, ns since it started
 * @cpu: CPU it ran or last ran on
 * @prio: kernel priority
 * @flags: TIPME_SMPSNAP_*
 * @reserved: zero
 */
struct tipme_smpsnap_ent {
	__u32 word;
	__u32 tgid;
	__u64 seen_ts;
	__u64 runtime;
	__u16 cpu;
	__u8 prio;
	__u8 flags;
	__u32 reserved;
};

/*
 * struct tipme_ckpt_hdr.version (1: without the legs' events, 2: without
 * the presses; both refused, and made again)
 */
#define TIPME_CKPT_VERSION	3
/* At most this many stretches per thread in a checkpoint */
#define TIPME_CKPT_SEGS		2

/*
 * The events tipme legs pairs that a checkpoint keeps the last before it
 * and the first at or after it of (struct tipme_ckpt's @ev_last and
 * @ev_next: the machine's; struct tipme_ckpt_thread's: the thread's,
 * the first four only)
 */
enum tipme_ckpt_ev {
	TIPME_CKPT_EV_WAKING,		/* a sched_waking of the thread */
	TIPME_CKPT_EV_SWITCH_IN,	/* it was put on a CPU */
	TIPME_CKPT_EV_SWITCH_OUT,	/* it was taken off one */
	TIPME_CKPT_EV_SLEEP,		/* ... not runnable (not preempted) */
	TIPME_CKPT_EV_PRESS,		/* an input record of a key or button pressed */
	TIPME_CKPT_EV_WAKING0,		/* a sched_waking of pid 0 */
	TIPME_CKPT_EVS,
};

/* Of a thread's: enum tipme_ckpt_ev below this */
#define TIPME_CKPT_THREAD_EVS	4

/**
 * struct tipme_ckpt_hdr - start of TIPME_SEC_CKPT
 * @version: TIPME_CKPT_VERSION; readers refuse any other
 * @ncpus: CPU numbers of the dump's streams (the highest + 1): the size
 *         of each checkpoint's @first and @last arrays
 * @nckpts: checkpoints that follow, in time order
 * @nsites: blocking sites that follow the losses, 4 addresses each
 *          (innermost first, zero after the last frame)
 * @every: events of the dump between two checkpoints
 * @dump_size: the dump's file size
 * @dump_crc: CRC-32 of the dump's section headers (type, cpu, size and
 *            CRC of each, in file order): which dump these describe
 * @nlosses: struct tipme_ckpt_loss entries that follow
 * @lost: the dump misses sub-buffers (a gap in a CPU's sequence)
 * @npresses: key or button presses in the dump's input records: their
 *            times (__s64, CLOCK_MONOTONIC ns, in time order) follow the
 *            losses, then the process that read each (__u32 tgid, 0 for
 *            none found: the postmortem's answer, kept)
 * @first_ns: the dump's first record, CLOCK_MONOTONIC ns
 * @last_ns: its last record
 * @trigger_ns: its latest trigger record, or 0
 *
 * The postmortem's checkpoints of a dump (tipme why, tipme report): the
 * state of its rebuilder (Documentation/report.md) at moments spread
 * evenly over the dump's records, kept in a file beside the dump
 * (DUMP.ckpt, a dump file whose one section is this) so that later
 * analyses of a time range decode only its records.  After the header:
 * the losses, the presses, the sites, then each checkpoint: a struct tipme_ckpt, its
 * @ncpus first then @ncpus last record times (__s64 each), then its
 * threads, each a struct tipme_ckpt_thread, @nsegs struct
 * tipme_ckpt_seg (the stretches as the checkpoint found them), then the
 * final form of each (as the whole dump's rebuild ends it) whose bit in
 * @same is clear.
 */
struct tipme_ckpt_hdr {
	__u32 version;
	__u32 ncpus;
	__u32 nckpts;
	__u32 nsites;
	__u64 every;
	__u64 dump_size;
	__u32 dump_crc;
	__u32 nlosses;
	__u32 lost;
	__u32 npresses;
	__s64 first_ns;
	__s64 last_ns;
	__s64 trigger_ns;
};

/**
 * struct tipme_ckpt_loss - a gap in a CPU's stream (TIPME_SEC_CKPT)
 * @cpu: the CPU
 * @reserved: zero
 * @since_ns: its last record before the gap, 0 if none
 * @until_ns: its first record after the gap
 * @first_seq: the first missing sub-buffer
 * @subbufs: how many are missing
 */
struct tipme_ckpt_loss {
	__u32 cpu;
	__u32 reserved;
	__s64 since_ns;
	__s64 until_ns;
	__u64 first_seq;
	__u64 subbufs;
};

/**
 * struct tipme_ckpt - one checkpoint (TIPME_SEC_CKPT)
 * @ns: every event before it was read, none at or after it
 * @at: the moment it stands for (no event in [@at, @ns))
 * @first_ns: the first record read by then
 * @last_ns: the last one
 * @trigger_ns: the latest trigger by then, or 0
 * @nlosses: the dump's first @nlosses losses were read by then
 * @nthreads: struct tipme_ckpt_thread entries that follow, by pid
 * @have: a record was read by then
 * @reserved: zero
 * @ev_last: by enum tipme_ckpt_ev, the machine's last such event before
 *           @ns (CLOCK_MONOTONIC ns), 0 none
 * @ev_next: its first at or after @ns, 0 none
 */
struct tipme_ckpt {
	__s64 ns;
	__s64 at;
	__s64 first_ns;
	__s64 last_ns;
	__s64 trigger_ns;
	__u32 nlosses;
	__u32 nthreads;
	__u32 have;
	__u32 reserved;
	__s64 ev_last[TIPME_CKPT_EVS];
	__s64 ev_next[TIPME_CKPT_EVS];
};

/**
 * struct tipme_ckpt_thread - a thread at a checkpoint (TIPME_SEC_CKPT)
 * @pid: the thread, ascending within a checkpoint
 * @nsegs: its last stretches kept, at most TIPME_CKPT_SEGS
 * @dropped: its stretches before them
 * @pend_waker: a wakeup came while it was on its CPU: by whom
 * @pend_cpu: for which CPU
 * @pend: that wakeup is pending
 * @pend_ctx: its enum tipme_ctx
 * @tent: runnable since a pending wakeup ended its sleep at once
 * @same: bit k set: the final form of stretch k is the stretch as it is
 *        (not written again)
 * @ev_order: the order of the thread's last events before the
 *            checkpoint of the first TIPME_CKPT_THREAD_EVS kinds: 4 bits
 *            per enum tipme_ckpt_ev (kind k in bits 4k to 4k+3), 0 none
 *            of that kind, else 1 for the earliest, a larger number for a
 *            later one, the same number for the same time
 * @reserved: zero
 * @ev_next: by enum tipme_ckpt_ev, the thread's first such event at or
 *           after the checkpoint (CLOCK_MONOTONIC ns), 0 none
 */
struct tipme_ckpt_thread {
	__u32 pid;
	__u32 nsegs;
	__u64 dropped;
	__s64 pend_waker;
	__u32 pend_cpu;
	__u8 pend;
	__u8 pend_ctx;
	__u8 tent;
	__u8 same;
	__u16 ev_order;
	__u16 reserved[3];
	__s64 ev_next[TIPME_CKPT_THREAD_EVS];
};

/**
 * struct tipme_ckpt_seg - one stretch of a thread (TIPME_SEC_CKPT)
 * @start_ns: its start, CLOCK_MONOTONIC ns
 * @end_ns: its end (INT64_MAX: still open)
 * @waker: who woke it, or -1
 * @ustack: its user chain's number, 0 none
 * @cpu: its CPU
 * @site: 1 + the index of its blocking site, 0 none
 * @block_state: enum tipme_task_state when blocked
 * @prio: the priority it ran at
 * @state: 0 unknown, 1 running, 2 runnable, 3 blocked
 * @waker_ctx: enum tipme_ctx of the wakeup
 * @woken: the runnable stretch began with a wakeup
 * @nsite: frames of @site, 1 to 4 (0 when @site is 0)
 * @reserved: zero
 */
struct tipme_ckpt_seg {
	__s64 start_ns;
	__s64 end_ns;
	__s32 waker;
	__u32 ustack;
	__u32 cpu;
	__u32 site;
	__u8 block_state;
	__u8 prio;
	__u8 state;
	__u8 waker_ctx;
	__u8 woken;
	__u8 nsite;
	__u8 reserved[2];
};

/* struct tipme_xmap.flags */
#define TIPME_XMAP_EXITED	0x01	/* the process had exited at the dump */
#define TIPME_XMAP_PARTIAL	0x02	/* some of its mappings found no room */
#define TIPME_XMAP_ROOT		0x04	/* @path is from the process's own root */
/* bits 8-15: bytes of the file's build-id, which follow the path (0: none) */
#define TIPME_XMAP_BUILD_ID_LEN(flags)	(((flags) >> 8) & 0xff)
#define TIPME_XMAP_BUILD_ID_MAX	32

/**
 * struct tipme_xmap - one executable file mapping the module captured
 *                     (TIPME_SEC_XMAPS)
 * @size: bytes of the entry with its path, a multiple of 8
 * @path_len: bytes of the path that follows (no NUL), at most 255
 * @pid: the process (thread group)
 * @start_mono_ns: the process's start time (struct tipme_exec's), which
 *                 tells a reused pid apart
 * @start: first address of the mapping
 * @end: the address after it
 * @offset: file offset of @start
 * @ino: the file's inode number
 * @dev: the file's device, as stat(2)'s st_dev
 * @flags: TIPME_XMAP_*, and in bits 8-15 the length of the build-id
 *         that follows the path (TIPME_XMAP_BUILD_ID_LEN(), at most
 *         TIPME_XMAP_BUILD_ID_MAX; 0: none)
 *
 * The module walks a process's executable file mappings (as
 * /proc/PID/maps lists them) when a user-space chain of it is first
 * numbered (TIPME_SEC_USTACKS), from a work item that holds a reference
 * on its address space, so a process that exits right away is still
 * walked; a new chain walks it again (a library it loaded since).  They
 * are kept for the exec table's retention after the process exits, so a
 * dump has them for processes /proc no longer shows: tipmed writes their
 * lines into TIPME_SEC_MAPS with the build-id the module read from the
 * mapped file when it walked the mapping (the GNU build-id note of a
 * 64-bit ELF file), else with that of the file at @path when its device
 * and inode are still @dev and @ino.  @path is the file's path as the
 * process saw it (from its root directory: TIPME_XMAP_ROOT) when the
 * walk found the process still alive, else from the root of the module's
 * work item (the initial root).  Entries written before the build-id
 * (bits 8-15 zero) read the same.
 */
struct tipme_xmap {
	__u16 size;
	__u16 path_len;
	__u32 pid;
	__u64 start_mono_ns;
	__u64 start;
	__u64 end;
	__u64 offset;
	__u64 ino;
	__u32 dev;
	__u32 flags;
};

/**
 * struct tipme_cost_total - one record type's cost since the module loaded
 *                           (TIPME_SEC_COST, TIPME_ATTR_COST_TOTALS)
 * @type: enum tipme_rec_type
 * @reserved: zero
 * @count: records written
 * @cycles: recorder ticks spent writing them (see struct tipme_rec_cost)
 */
struct tipme_cost_total {
	__u32 type;
	__u32 reserved;
	__u64 count;
	__u64 cycles;
};

/* ------------------------------------------------------------------ */
/* 4. Generic netlink family                                          */
/* ------------------------------------------------------------------ */

#define TIPME_GENL_NAME		"tipme"
#define TIPME_GENL_VERSION	1
#define TIPME_GENL_MCGRP	"events"

/*
 * Commands.  All need CAP_NET_ADMIN in the caller's user namespace
 * (GENL_ADMIN_PERM), STATUS included: it discloses scheduling activity.
 */
enum tipme_cmd {
	TIPME_CMD_UNSPEC,
	TIPME_CMD_STATUS,	/* doit: reply with the STATUS attributes, every
				 * CPU in one CPU_STATS nest (EMSGSIZE when the
				 * possible CPUs do not fit one: about 700);
				 * dumpit (NLM_F_DUMP): the same as several
				 * messages, the first with every attribute,
				 * each with one CPU_STATS nest of the next
				 * CPUs, CPU_COUNT entries in all */
	TIPME_CMD_START,	/* doit: start recording */
	TIPME_CMD_STOP,		/* doit: stop recording (rings are kept) */
	TIPME_CMD_DUMP,		/* dumpit: stream rings and metadata */
	TIPME_CMD_TRIGGER,	/* doit: request a dump; replies TRIGGER_SEQ */
	TIPME_CMD_TRIGGER_EVENT,	/* multicast notification of a trigger */
	TIPME_CMD_RELEASE,	/* doit: no dump comes for triggers up to
				 * TRIGGER_SEQ (required, > 0): thaw their
				 * frozen window now */
	__TIPME_CMD_MAX,
	TIPME_CMD_MAX = __TIPME_CMD_MAX - 1
};

/**
 * struct tipme_trigger_press - TIPME_ATTR_TRIGGER_PRESS: the press the
 *	module's own auto trigger fired on (TIPME_TRIG_AUTO announcements)
 * @press_mono_ns: the key or button press, CLOCK_MONOTONIC
 * @latency_ns: from the press to its @end
 * @pid: the task it woke (the reader of the input device: a display
 *	server, a compositor, a console program)
 * @input: TIPME_INPUT_KEY or TIPME_INPUT_BUTTON
 * @end: where the latency ends: TIPME_PRESS_END_READER, the reader waited
 *	for input again (0, all a module before this field sent), or
 *	TIPME_PRESS_END_FLIP, the first page flip after the answer of the
 *	client the reader passed the press to (Documentation/recorder.md)
 * @comm: the task's command name, NUL-terminated
 */
struct tipme_trigger_press {
	__u64 press_mono_ns;
	__u64 latency_ns;
	__u32 pid;
	__u16 input;
	__u16 end;
	char comm[16];
};

#define TIPME_PRESS_END_READER	0
#define TIPME_PRESS_END_FLIP	1

/* TIPME_ATTR_DUMP_PART: what one message of a DUMP stream carries. */
enum tipme_dump_part {
	TIPME_PART_META		= 1,	/* first: geometry, clock, record types, params */
	TIPME_PART_CHUNK	= 2,	/* CPU, SUBBUF_SEQ, OFFSET, DATA */
	TIPME_PART_SUBBUF_END	= 3,	/* CPU, SUBBUF_SEQ, SUBBUF_LEN, SUBBUF_FLAGS, SUBBUF_OK */
	TIPME_PART_TRAILER	= 4,	/* last: CLOCK_PAIRS */
	TIPME_PART_CPU_END	= 5,	/* after a CPU's sub-buffers: CPU_STATS with its entry */
	TIPME_PART_SUBBUF_MAP	= 6,	/* mapped dumps, instead of CHUNKs and SUBBUF_END:
					 * CPU, SUBBUF_SEQ, SUBBUF_LEN, SUBBUF_FLAGS */
	/* 8..15: instrumentation */
	TIPME_PART_EXECTAB	= 8,	/* EXEC_HDR (first one only), EXEC_ENTRIES */
	TIPME_PART_EXECTAB_END	= 9,	/* the exec table is complete */
	TIPME_PART_COST		= 10,	/* COST_TOTALS */
	TIPME_PART_SITES	= 11,	/* SITE_HDR (first one only), SITE_ENTRIES */
	TIPME_PART_SITES_END	= 12,	/* the site table is complete */
	TIPME_PART_USTACKS	= 14,	/* USTACK_HDR (first one only), USTACK_ENTRIES */
	TIPME_PART_USTACKS_END	= 15,	/* the user stack table is complete */
	TIPME_PART_XMAPS	= 23,	/* XMAP_HDR (first one only), XMAP_ENTRIES */
	TIPME_PART_XMAPS_END	= 24,	/* the captured mappings are complete */
	TIPME_PART_SMPSNAP	= 25,	/* SMPSNAP_HDR (first one only), SMPSNAP_ENTRIES;
					 * complete with the header's count of
					 * entries (no END part; the COST part
					 * follows) */
};

enum tipme_attr {
	TIPME_ATTR_UNSPEC,
	TIPME_ATTR_PAD,			/* alignment of u64 attributes */
	TIPME_ATTR_VERSION,		/* string: module version */
	TIPME_ATTR_RECORDING,		/* u8: 1 when recording */
	TIPME_ATTR_NR_CPUS,		/* u32 */
	TIPME_ATTR_BUF_SIZE,		/* u64: bytes of all rings */
	TIPME_ATTR_SUBBUF_SIZE,		/* u32 */
	TIPME_ATTR_SUBBUFS,		/* u32: sub-buffers per CPU */
	TIPME_ATTR_CLOCK_SOURCE,	/* u32: enum tipme_clock_source */
	TIPME_ATTR_TSC_KHZ,		/* u64 */
	TIPME_ATTR_CPU_STATS,		/* nested: one TIPME_ATTR_CPU_ENTRY per CPU */
	TIPME_ATTR_CPU_ENTRY,		/* nested: TIPME_ATTR_CPU and TIPME_ATTR_STAT_* */
	TIPME_ATTR_CPU,			/* u32: CPU number */
	TIPME_ATTR_STAT_WRITTEN,	/* u64 */
	TIPME_ATTR_STAT_OVERWRITTEN,	/* u64 */
	TIPME_ATTR_STAT_DROPPED,	/* u64 */
	TIPME_ATTR_STAT_BYTES,		/* u64 */
	TIPME_ATTR_STAT_DISCARDED,	/* u32: sub-buffers discarded by this dump */
	TIPME_ATTR_STAT_FIRST_TS,	/* u64: oldest timestamp held (status) */
	TIPME_ATTR_STAT_LAST_TS,	/* u64: newest timestamp held (status) */
	TIPME_ATTR_DUMP_PART,		/* u32: enum tipme_dump_part */
	TIPME_ATTR_SUBBUF_SEQ,		/* u64 */
	TIPME_ATTR_OFFSET,		/* u32: byte offset of DATA in the sub-buffer */
	TIPME_ATTR_DATA,		/* binary: records */
	TIPME_ATTR_SUBBUF_LEN,		/* u32 */
	TIPME_ATTR_SUBBUF_FLAGS,	/* u32: TIPME_SUBBUF_* */
	TIPME_ATTR_SUBBUF_OK,		/* u8: 0 = overwritten while read: discard */
	TIPME_ATTR_CLOCK_PAIRS,		/* binary: struct tipme_clock_pair[] */
	TIPME_ATTR_REC_TYPES,		/* binary: struct tipme_rectype[] */
	TIPME_ATTR_PARAMS,		/* string: "key=value\n" module parameters (META,
					 * STATUS): tp.NAME=STATE lines for the
					 * optional tracepoints */
	TIPME_ATTR_NOW_TS,		/* u64: recorder timestamp at the reply */
	TIPME_ATTR_TRIGGER_SEQ,		/* u32: trigger sequence number */
	TIPME_ATTR_TRIGGER_SOURCE,	/* u32: enum tipme_trigger_source */
	TIPME_ATTR_TRIGGER_TS,		/* u64: recorder timestamp of the trigger */
	TIPME_ATTR_TRIGGER_MONO_NS,	/* u64: CLOCK_MONOTONIC of the trigger */
	TIPME_ATTR_TRIGGER_REAL_NS,	/* u64: CLOCK_REALTIME of the trigger */
	TIPME_ATTR_TRIGGER_COALESCED,	/* u8: joined an earlier trigger */
	TIPME_ATTR_KEYLOG,		/* u8: key codes are recorded */
	TIPME_ATTR_TRIGGERS,		/* u32: triggers since load */
	TIPME_ATTR_TRIGGER_PRESS,	/* binary: struct tipme_trigger_press */
	/* 40..79: instrumentation attributes; 80..: later */
	TIPME_ATTR_EXEC_HDR = 40,	/* binary: struct tipme_exectab_hdr */
	TIPME_ATTR_EXEC_ENTRIES,	/* binary: whole struct tipme_exec entries */
	TIPME_ATTR_COST_TOTALS,		/* binary: struct tipme_cost_total[] */
	TIPME_ATTR_ENV_CAPTURE,		/* u8: the exec table captures environments */
	TIPME_ATTR_SITE_HDR,		/* binary: struct tipme_sitetab_hdr */
	TIPME_ATTR_SITE_ENTRIES,	/* binary: whole struct tipme_site entries */
	TIPME_ATTR_DUMP_MAPPED,		/* flag, DUMP request: a mapped dump */
	TIPME_ATTR_FREEZE_GEN,		/* u32, META: the frozen window this dump reads;
					 * STATUS: the window frozen now */
	TIPME_ATTR_FREEZES,		/* u64, STATUS: windows frozen since load */
	TIPME_ATTR_FREEZES_EXPIRED,	/* u64, STATUS: thawed by freeze_timeout_s */
	TIPME_ATTR_FREEZES_RELEASED,	/* u64, STATUS: thawed by TIPME_CMD_RELEASE */
	TIPME_ATTR_USTACK_HDR = 70,	/* binary: struct tipme_sitetab_hdr */
	TIPME_ATTR_USTACK_ENTRIES,	/* binary: whole struct tipme_ustack entries */
	TIPME_ATTR_XMAP_HDR = 74,	/* binary: struct tipme_xmaps_hdr */
	TIPME_ATTR_XMAP_ENTRIES,	/* binary: whole struct tipme_xmap entries */
	TIPME_ATTR_CPU_COUNT = 80,	/* u32, STATUS: CPU entries the reply carries
					 * in all (the possible CPUs) */
	TIPME_ATTR_SMPSNAP_HDR = 81,	/* binary: struct tipme_smpsnap_hdr */
	TIPME_ATTR_SMPSNAP_ENTRIES,	/* binary: struct tipme_smpsnap_ent[] */
	__TIPME_ATTR_MAX,
	TIPME_ATTR_MAX = __TIPME_ATTR_MAX - 1
};

/* ------------------------------------------------------------------ */
/* 5. The ring device: mapped dumps                                   */
/* ------------------------------------------------------------------ */

/*
 * /dev/tipme (root only; opening it needs CAP_NET_ADMIN, as the netlink
 * family does) maps the rings read-only: CPU c's ring, SUBBUF_SIZE *
 * SUBBUFS bytes (the META message's geometry), starts at offset c times
 * that, and sub-buffer number seq lies at (seq mod SUBBUFS) * SUBBUF_SIZE
 * within it.  Only possible CPUs have rings: a mapping that reaches
 * another is refused.  A DUMP request with TIPME_ATTR_DUMP_MAPPED streams, instead
 * of the rings' bytes, one TIPME_PART_SUBBUF_MAP per sub-buffer: its first
 * SUBBUF_LEN bytes are committed.  The reader copies them out of the
 * mapping and then asks TIPME_IOC_RING_CHECK for the CPU: the copy is
 * intact if seq >= oldest_intact (writers only ever overtake the oldest
 * sub-buffers, so the check may follow a batch of copies).  A mapped dump
 * does not thaw the window it read (TIPME_ATTR_FREEZE_GEN in META): the
 * reader does, with TIPME_IOC_THAW, once it has copied every ring (or
 * freeze_timeout_s does).
 */
#define TIPME_DEV_NAME		"tipme"

/**
 * struct tipme_ring_check - TIPME_IOC_RING_CHECK
 * @cpu: the ring's CPU (in)
 * @reserved: zero
 * @oldest_intact: the oldest sub-buffer writers have not overtaken (out)
 */
struct tipme_ring_check {
	__u32 cpu;
	__u32 reserved;
	__u64 oldest_intact;
};

#define TIPME_IOC_MAGIC		0xB7
#define TIPME_IOC_RING_CHECK	_IOWR(TIPME_IOC_MAGIC, 1, struct tipme_ring_check)
#define TIPME_IOC_THAW		_IOW(TIPME_IOC_MAGIC, 2, __u32)

#endif /* _UAPI_LINUX_TIPME_H */
