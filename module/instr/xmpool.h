/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pool of captured executable mappings (xmaps.c): per process its
 * pid, start time and mappings, per mapping its range, file offset and a
 * path slot, per path slot (shared by every mapping of that file) the
 * path, device, inode and build-id.  Fixed arrays allocated at load.
 *
 * This file is the pool itself: no walks, no work items, no clock, so
 * KUnit can drive it.  Every function but init/free is called with the
 * owner's lock held (xmaps.c: a mutex); none sleeps.
 *
 * Nothing scans every slot on the paths a walk takes: processes are found
 * by a hash of their pid, files by a hash of their path, device and
 * inode, and each process is on one of three lists: the free slots, the
 * live ones by the time of their walk (the oldest first), the exited ones
 * by the time their exit was noted (the oldest first).  Noting exits asks
 * only the live ones, and a store does it only every @gc_every_ns or
 * when it may have to evict; dropping those past their retention looks
 * only at the exited list's head; eviction takes a list's head.
 */
#ifndef TIPME_XMPOOL_H
#define TIPME_XMPOOL_H

#include <linux/types.h>
#include <linux/tipme.h>

#define TIPME_XM_PATH_MAX	256	/* bytes of a path kept, NUL included */

struct file;

/**
 * struct tipme_xm_file - a mapped file as the pool names it
 * @hash: of @dev, @ino and the path
 * @ino: inode number
 * @dev: device, as stat(2) gives it
 * @len: bytes of @s
 * @root: @s is from the process's root (TIPME_XMAP_ROOT)
 * @bid_len: bytes of @bid (0: the file has no build-id the module read)
 * @bid: the file's build-id
 * @s: the path, no NUL
 */
struct tipme_xm_file {
	u32 hash;
	u64 ino;
	u32 dev;
	u16 len;
	bool root;
	u8 bid_len;
	u8 bid[TIPME_XMAP_BUILD_ID_MAX];
	char s[TIPME_XM_PATH_MAX - 1];
};

/**
 * struct tipme_xm_found - one mapping as a walk finds it
 * @start: its first address
 * @end: the address after it
 * @offset: file offset of @start
 * @file: the walker's reference on the file, until @f is filled in
 * @f: the file's names
 */
struct tipme_xm_found {
	u64 start;
	u64 end;
	u64 offset;
	struct file *file;
	struct tipme_xm_file f;
};

/**
 * struct tipme_xm_proc - one process whose mappings are kept
 * @used: the slot is taken
 * @partial: some of its mappings found no room
 * @pid: its pid (thread group id)
 * @start_ns: its start time, CLOCK_MONOTONIC
 * @walk_ns: when its mappings were stored
 * @exit_ns: when its exit was noted; 0 while alive
 * @gen: the pool's @stores once it was stored
 * @head: its first mapping, -1 for none
 * @hnext: next process in its hash bucket, -1 for none
 * @prev: previous process on its list, -1 for none
 * @next: next process on its list, -1 for none
 */
struct tipme_xm_proc {
	bool used;
	bool partial;
	u32 pid;
	u64 start_ns;
	u64 walk_ns;
	u64 exit_ns;
	u64 gen;
	s32 head;
	s32 hnext;
	s32 prev;
	s32 next;
};

/**
 * struct tipme_xm_map - one mapping
 * @start: its first address
 * @end: the address after it
 * @offset: file offset of @start
 * @proc: its process's slot, -1 when free
 * @next: the process's next mapping, or the next free slot
 * @path: its path slot
 */
struct tipme_xm_map {
	u64 start;
	u64 end;
	u64 offset;
	s32 proc;
	s32 next;
	s32 path;
};

/**
 * struct tipme_xm_path - one file the mappings name
 * @refs: mappings naming it (0: free)
 * @hnext: next path in its hash bucket, or the next free slot
 * @f: the file
 */
struct tipme_xm_path {
	u32 refs;
	s32 hnext;
	struct tipme_xm_file f;
};

/** struct tipme_xm_list - a list of process slots: @head first, -1 empty */
struct tipme_xm_list {
	s32 head;
	s32 tail;
};

/**
 * struct tipme_xmp - the pool
 * @procs: @nprocs process slots
 * @maps: @nmaps mapping slots
 * @paths: @npaths path slots
 * @proc_hash: process slots by pid, @proc_hmask + 1 chains
 * @path_hash: used path slots by their hash, @path_hmask + 1 chains
 * @proc_hmask: buckets of @proc_hash - 1
 * @path_hmask: buckets of @path_hash - 1
 * @nprocs: process slots
 * @nmaps: mapping slots
 * @npaths: path slots
 * @free_procs: process slots not used
 * @live: live processes, the one stored longest ago first
 * @gone: exited processes, the one noted exited longest ago first
 * @free_map: first free mapping slot, -1 for none
 * @free_path: first free path slot, -1 for none
 * @nmaps_used: mapping slots used
 * @nprocs_used: process slots used
 * @refused: mappings not kept: no room
 * @evicted: processes dropped before their retention ran out
 * @stores: stores so far
 * @gc_ns: when exits were last noted (tipme_xmp_gc())
 * @gc_every_ns: a store notes exits only when this long has passed since
 *	(0, the default: at every store), or when it may have to evict
 * @retention_ns: how long an exited process is kept
 * @alive: whether process (pid, start time) is still there
 */
struct tipme_xmp {
	struct tipme_xm_proc *procs;
	struct tipme_xm_map *maps;
	struct tipme_xm_path *paths;
	s32 *proc_hash;
	s32 *path_hash;
	u32 proc_hmask;
	u32 path_hmask;
	u32 nprocs;
	u32 nmaps;
	u32 npaths;
	struct tipme_xm_list free_procs;
	struct tipme_xm_list live;
	struct tipme_xm_list gone;
	s32 free_map;
	s32 free_path;
	u32 nmaps_used;
	u32 nprocs_used;
	u64 refused;
	u64 evicted;
	u64 stores;
	u64 gc_ns;
	u64 gc_every_ns;
	u64 retention_ns;
	bool (*alive)(u32 pid, u64 start_ns);
};

int tipme_xmp_init(struct tipme_xmp *x, u32 nprocs, u32 nmaps, u32 npaths,
		   u64 retention_ns, bool (*alive)(u32 pid, u64 start_ns));
void tipme_xmp_free(struct tipme_xmp *x);
void tipme_xmp_gc(struct tipme_xmp *x, u64 now);
bool tipme_xmp_bid(struct tipme_xmp *x, struct tipme_xm_file *f);
void tipme_xmp_store(struct tipme_xmp *x, u32 pid, u64 start_ns,
		     const struct tipme_xm_found *found, unsigned int n,
		     bool partial, u64 now);
size_t tipme_xmp_read(struct tipme_xmp *x, u32 *pos, u64 since, void *buf,
		      size_t room, bool *done);

#endif /* TIPME_XMPOOL_H */
