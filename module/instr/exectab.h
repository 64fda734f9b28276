/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exec table: every process and thread seen, with its command name and,
 * for processes, the executable's path and argv; kept for a retention time
 * after it exits, in memory allocated at load and independent of the rings.
 *
 * This file is the table itself: no probes, no clocks, no workers (those
 * are in exec.c), so KUnit can drive it.  All functions except init/free
 * and the accessors are called with @lock held.
 */
#ifndef TIPME_EXECTAB_H
#define TIPME_EXECTAB_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/tipme.h>

/**
 * struct tipme_xt_ent - one entry
 * @id: serial number, 0 if the slot is free
 * @pid: thread id
 * @tgid: process id
 * @ppid: parent's process id
 * @flags: TIPME_EXEC_*
 * @exit_code: exit code once exited
 * @start_ts: recorder timestamp the entry begins at
 * @exit_ts: recorder timestamp of the end, 0 while live
 * @start_mono_ns: task creation time, CLOCK_MONOTONIC
 * @comm: command name
 * @exe_len: bytes of the executable's path in the string slot
 * @argv_len: bytes of argv in the string slot
 * @env_len: bytes of environment in the string slot
 * @hnext: next live entry in the same hash bucket, -1 for none
 * @lprev: previous entry in the exited list
 * @lnext: next entry in the exited list, or in the free list
 * @str: string slot, -1 for none
 */
struct tipme_xt_ent {
	u32 id;
	u32 pid;
	u32 tgid;
	u32 ppid;
	u32 flags;
	s32 exit_code;
	u64 start_ts;
	u64 exit_ts;
	u64 start_mono_ns;
	char comm[TIPME_COMM_LEN];
	u16 exe_len;
	u16 argv_len;
	u16 env_len;
	s32 hnext;
	s32 lprev;
	s32 lnext;
	s32 str;
};

/**
 * struct tipme_xt - the table
 * @lock: protects everything below; taken in probes, never in interrupts
 * @ents: @cap entries
 * @cap: entries
 * @buckets: hash of live entries by pid, @hmask + 1 chains
 * @hmask: buckets - 1
 * @free_head: free entries
 * @old_head: exited entries, oldest exit first
 * @old_tail: the most recently exited
 * @str_head: the oldest exited entry that may still hold a string slot
 *            (those before it have none), or -1
 * @strs: @nstr string slots of @str_size bytes (exe, argv, environment)
 * @str_next: free list links of the string slots
 * @str_free: first free string slot, -1 for none
 * @nstr: string slots
 * @str_size: bytes per slot: @exe_max + @argv_max + @env_max
 * @exe_max: bytes of path kept
 * @argv_max: bytes of argv kept
 * @env_max: bytes of environment kept (0: capture off)
 * @next_id: next serial number
 * @retention: recorder ticks an entry is kept after its exit
 * @evicted: entries evicted before their retention ran out
 * @dropped: entries not made: no room
 * @argv_lost: images whose strings could not be read
 * @strings_evicted: exited entries that gave their string slot up
 * @live: live entries
 * @exited: exited entries still kept
 */
struct tipme_xt {
	raw_spinlock_t lock;
	struct tipme_xt_ent *ents;
	u32 cap;
	s32 *buckets;
	u32 hmask;
	s32 free_head;
	s32 old_head;
	s32 old_tail;
	s32 str_head;
	char *strs;
	s32 *str_next;
	s32 str_free;
	u32 nstr;
	u32 str_size;
	u32 exe_max;
	u32 argv_max;
	u32 env_max;
	u32 next_id;
	u64 retention;
	u64 evicted;
	u64 dropped;
	u64 argv_lost;
	u64 strings_evicted;
	u32 live;
	u32 exited;
};

int tipme_xt_init(struct tipme_xt *t, u32 cap, u32 nstr, u32 exe_max,
		  u32 argv_max, u32 env_max, u64 retention);
void tipme_xt_free(struct tipme_xt *t);
struct tipme_xt_ent *tipme_xt_lookup(struct tipme_xt *t, u32 pid);
struct tipme_xt_ent *tipme_xt_new(struct tipme_xt *t, u32 pid, u32 tgid,
				  u64 now, bool strings);
void tipme_xt_retire(struct tipme_xt *t, struct tipme_xt_ent *e, u64 now,
		     u32 flags, s32 exit_code);
unsigned int tipme_xt_gc(struct tipme_xt *t, u64 now);
char *tipme_xt_str(struct tipme_xt *t, struct tipme_xt_ent *e);
void tipme_xt_set_strings(struct tipme_xt *t, struct tipme_xt_ent *e,
			  const char *exe, size_t exe_len,
			  const char *argv, size_t argv_len,
			  const char *env, size_t env_len);
void tipme_xt_copy_strings(struct tipme_xt *t, struct tipme_xt_ent *dst,
			   struct tipme_xt_ent *src);
size_t tipme_xt_entry_size(const struct tipme_xt_ent *e);
size_t tipme_xt_serialize(struct tipme_xt *t, struct tipme_xt_ent *e,
			  void *buf, size_t size);
void tipme_xt_header(struct tipme_xt *t, struct tipme_exectab_hdr *h,
		     u32 count, u64 retention_ns);

/* Index of @e in the table. */
static inline s32 tipme_xt_index(struct tipme_xt *t, struct tipme_xt_ent *e)
{
	return (s32)(e - t->ents);
}

#endif /* TIPME_EXECTAB_H */
