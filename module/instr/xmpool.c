// SPDX-License-Identifier: GPL-2.0
/*
 * The pool of captured executable mappings (see xmpool.h): store, note
 * exits, drop and evict, and copy out for a dump.
 *
 * A process is noted exited when a store (once @gc_every_ns has passed,
 * or when it may evict) or a dump finds its pid gone (or taken by a newer
 * process), and dropped once its retention has passed
 * since; when room runs out, the process noted exited longest ago goes
 * first, then the one stored longest ago (counted as evicted).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "instr/xmpool.h"

static void list_del_slot(struct tipme_xmp *x, struct tipme_xm_list *l, s32 i)
{
	struct tipme_xm_proc *p = &x->procs[i];

	if (p->prev >= 0)
		x->procs[p->prev].next = p->next;
	else
		l->head = p->next;
	if (p->next >= 0)
		x->procs[p->next].prev = p->prev;
	else
		l->tail = p->prev;
	p->prev = -1;
	p->next = -1;
}

static void list_add_slot(struct tipme_xmp *x, struct tipme_xm_list *l, s32 i)
{
	struct tipme_xm_proc *p = &x->procs[i];

	p->prev = l->tail;
	p->next = -1;
	if (l->tail >= 0)
		x->procs[l->tail].next = i;
	else
		l->head = i;
	l->tail = i;
}

static s32 *proc_bucket(struct tipme_xmp *x, u32 pid)
{
	return &x->proc_hash[hash_32(pid, 31) & x->proc_hmask];
}

/* The slot of process (@pid, @start_ns), or -1. */
static s32 proc_find(struct tipme_xmp *x, u32 pid, u64 start_ns)
{
	s32 i;

	for (i = *proc_bucket(x, pid); i >= 0; i = x->procs[i].hnext)
		if (x->procs[i].pid == pid && x->procs[i].start_ns == start_ns)
			return i;
	return -1;
}

static bool file_same(const struct tipme_xm_file *a,
		      const struct tipme_xm_file *b)
{
	return a->hash == b->hash && a->ino == b->ino && a->dev == b->dev &&
	       a->root == b->root && a->len == b->len &&
	       !memcmp(a->s, b->s, a->len);
}

/* The used path slot naming @f, or -1. */
static s32 xmp_path_find(struct tipme_xmp *x, const struct tipme_xm_file *f)
{
	s32 i;

	for (i = x->path_hash[f->hash & x->path_hmask]; i >= 0;
	     i = x->paths[i].hnext)
		if (file_same(&x->paths[i].f, f))
			return i;
	return -1;
}

/* The path slot of @f, shared or taken; -1 if none is free. */
static s32 xmp_path_get(struct tipme_xmp *x, const struct tipme_xm_file *f)
{
	s32 *b, i = xmp_path_find(x, f);

	if (i >= 0) {
		x->paths[i].refs++;
		return i;
	}
	i = x->free_path;
	if (i < 0)
		return -1;
	x->free_path = x->paths[i].hnext;
	b = &x->path_hash[f->hash & x->path_hmask];
	x->paths[i].refs = 1;
	x->paths[i].f = *f;
	x->paths[i].hnext = *b;
	*b = i;
	return i;
}

/* Drop a mapping's reference on path slot @i. */
static void xmp_path_put(struct tipme_xmp *x, s32 i)
{
	struct tipme_xm_path *pa = &x->paths[i];
	s32 *b;

	if (--pa->refs)
		return;
	for (b = &x->path_hash[pa->f.hash & x->path_hmask]; *b != i;
	     b = &x->paths[*b].hnext)
		;
	*b = pa->hnext;
	pa->hnext = x->free_path;
	x->free_path = i;
}

/* Free process slot @i and its mappings. */
static void proc_release(struct tipme_xmp *x, s32 i)
{
	struct tipme_xm_proc *p = &x->procs[i];
	s32 m, next, *b;

	for (m = p->head; m >= 0; m = next) {
		next = x->maps[m].next;
		xmp_path_put(x, x->maps[m].path);
		x->maps[m].proc = -1;
		x->maps[m].next = x->free_map;
		x->free_map = m;
		x->nmaps_used--;
	}
	for (b = proc_bucket(x, p->pid); *b != i; b = &x->procs[*b].hnext)
		;
	*b = p->hnext;
	list_del_slot(x, p->exit_ns ? &x->gone : &x->live, i);
	memset(p, 0, sizeof(*p));
	p->head = -1;
	p->hnext = -1;
	list_add_slot(x, &x->free_procs, i);
	x->nprocs_used--;
}

/**
 * tipme_xmp_gc() - note the processes that exited, drop those past their
 *	retention
 * @x: the pool
 * @now: the time, CLOCK_MONOTONIC; never less than a @now given before
 *	and never 0
 *
 * Asks @x->alive only of the processes not yet noted exited.
 */
void tipme_xmp_gc(struct tipme_xmp *x, u64 now)
{
	struct tipme_xm_proc *p;
	s32 i, next;

	x->gc_ns = now;
	for (i = x->live.head; i >= 0; i = next) {
		p = &x->procs[i];
		next = p->next;
		if (x->alive(p->pid, p->start_ns))
			continue;
		list_del_slot(x, &x->live, i);
		p->exit_ns = now;
		list_add_slot(x, &x->gone, i);
	}
	while ((i = x->gone.head) >= 0 &&
	       now - x->procs[i].exit_ns >= x->retention_ns)
		proc_release(x, i);
}

/*
 * Make room by evicting a process other than @keep: the one noted exited
 * longest ago, else the one stored longest ago.  Return: false if there
 * is none.
 */
static bool pool_evict(struct tipme_xmp *x, s32 keep)
{
	s32 i = x->gone.head;

	if (i >= 0 && i == keep)
		i = x->procs[i].next;
	if (i < 0) {
		i = x->live.head;
		if (i >= 0 && i == keep)
			i = x->procs[i].next;
	}
	if (i < 0)
		return false;
	proc_release(x, i);
	x->evicted++;
	return true;
}

/* The slot of process (@pid, @start_ns), emptied, or a new one; or -1. */
static s32 proc_slot(struct tipme_xmp *x, u32 pid, u64 start_ns)
{
	struct tipme_xm_proc *p;
	s32 i = proc_find(x, pid, start_ns), *b;

	if (i >= 0)
		proc_release(x, i);
	if (x->free_procs.head < 0 && !pool_evict(x, -1))
		return -1;
	i = x->free_procs.head;
	list_del_slot(x, &x->free_procs, i);
	p = &x->procs[i];
	p->used = true;
	p->pid = pid;
	p->start_ns = start_ns;
	p->head = -1;
	b = proc_bucket(x, pid);
	p->hnext = *b;
	*b = i;
	list_add_slot(x, &x->live, i);
	x->nprocs_used++;
	return i;
}

/**
 * tipme_xmp_bid() - the build-id of a file the pool knows
 * @x: the pool
 * @f: a file; its build-id is filled in from the pool's when it has one
 *	with the same path, device and inode
 *
 * Return: whether it has.
 */
bool tipme_xmp_bid(struct tipme_xmp *x, struct tipme_xm_file *f)
{
	s32 i = xmp_path_find(x, f);

	if (i < 0)
		return false;
	f->bid_len = x->paths[i].f.bid_len;
	memcpy(f->bid, x->paths[i].f.bid, f->bid_len);
	return true;
}

/**
 * tipme_xmp_store() - keep the mappings a walk of a process found
 * @x: the pool
 * @pid: the process's pid
 * @start_ns: its start time (with @pid, what names the process)
 * @found: its mappings
 * @n: entries of @found
 * @partial: the walk did not see all of them
 * @now: the time, as for tipme_xmp_gc()
 *
 * Notes exits first (tipme_xmp_gc()) when @x->gc_every_ns has passed
 * since they were last noted, or when the store may have to evict (so
 * that a process that exited goes before one that lives, as if exits
 * were noted at every store), then replaces what was kept of the process,
 * evicting others when room runs out.
 */
void tipme_xmp_store(struct tipme_xmp *x, u32 pid, u64 start_ns,
		     const struct tipme_xm_found *found, unsigned int n,
		     bool partial, u64 now)
{
	struct tipme_xm_proc *p;
	s32 *tail, m, pi, i;
	unsigned int k;

	if (now - x->gc_ns >= x->gc_every_ns || x->free_procs.head < 0 ||
	    x->nmaps - x->nmaps_used < n)
		tipme_xmp_gc(x, now);
	i = proc_slot(x, pid, start_ns);
	if (i < 0) {
		x->refused += n;
		return;
	}
	p = &x->procs[i];
	p->walk_ns = now;
	p->gen = ++x->stores;
	p->partial = partial;
	tail = &p->head;
	for (k = 0; k < n; k++) {
		const struct tipme_xm_found *f = &found[k];

		while (x->free_map < 0 && pool_evict(x, i))
			;
		pi = x->free_map >= 0 ? xmp_path_get(x, &f->f) : -1;
		if (pi < 0) {
			x->refused += n - k;
			p->partial = true;
			break;
		}
		m = x->free_map;
		x->free_map = x->maps[m].next;
		x->maps[m] = (struct tipme_xm_map){
			.start = f->start, .end = f->end, .offset = f->offset,
			.proc = i, .next = -1, .path = pi,
		};
		*tail = m;
		tail = &x->maps[m].next;
		x->nmaps_used++;
	}
}

/**
 * tipme_xmp_read() - copy kept mappings for a dump
 * @x: the pool
 * @pos: the first mapping slot to look at; advanced past what was copied
 * @since: copy only the processes stored by then (@x->stores when the
 *	dump began)
 * @buf: destination: struct tipme_xmap entries, each followed by its path
 *	 and its file's build-id
 * @room: bytes available
 * @done: set when every slot has been looked at
 *
 * A dump copies the pool in parts, the owner's lock let go between them,
 * and a process stored again meanwhile (a new chain of it, or a new
 * image) has its mappings in other slots: some maybe behind @pos, some
 * after it.  Copying those after it too would give the dump the same
 * mapping twice or two images' mappings for one process, which overlap.
 * With @since, a dump has of each process at most the mappings of the
 * one walk it found at its start.
 *
 * Return: bytes copied.
 */
size_t tipme_xmp_read(struct tipme_xmp *x, u32 *pos, u64 since, void *buf,
		      size_t room, bool *done)
{
	struct tipme_xmap *out;
	size_t off = 0, need;

	*done = true;
	for (; *pos < x->nmaps; (*pos)++) {
		const struct tipme_xm_map *m = &x->maps[*pos];
		const struct tipme_xm_proc *p;
		const struct tipme_xm_file *f;

		if (m->proc < 0 || x->procs[m->proc].gen > since)
			continue;
		p = &x->procs[m->proc];
		f = &x->paths[m->path].f;
		need = ALIGN(sizeof(*out) + f->len + f->bid_len, 8);
		if (off + need > room) {
			*done = false;
			break;
		}
		out = buf + off;
		memset(out, 0, need);
		out->size = need;
		out->path_len = f->len;
		out->pid = p->pid;
		out->start_mono_ns = p->start_ns;
		out->start = m->start;
		out->end = m->end;
		out->offset = m->offset;
		out->ino = f->ino;
		out->dev = f->dev;
		out->flags = (p->exit_ns ? TIPME_XMAP_EXITED : 0) |
			     (p->partial ? TIPME_XMAP_PARTIAL : 0) |
			     (f->root ? TIPME_XMAP_ROOT : 0) |
			     (u32)f->bid_len << 8;
		memcpy(out + 1, f->s, f->len);
		memcpy((char *)(out + 1) + f->len, f->bid, f->bid_len);
		off += need;
	}
	return off;
}

/**
 * tipme_xmp_init() - allocate an empty pool
 * @x: the pool
 * @nprocs: process slots (1 to 65536)
 * @nmaps: mapping slots (1 to 1048576)
 * @npaths: path slots (1 to 65536)
 * @retention_ns: how long an exited process is kept
 * @alive: whether process (pid, start time) is still there; called by
 *	tipme_xmp_gc() with the owner's lock held
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int tipme_xmp_init(struct tipme_xmp *x, u32 nprocs, u32 nmaps, u32 npaths,
		   u64 retention_ns, bool (*alive)(u32 pid, u64 start_ns))
{
	u32 i, pb = roundup_pow_of_two(nprocs), fb = roundup_pow_of_two(npaths);

	memset(x, 0, sizeof(*x));
	x->procs = kvcalloc(nprocs, sizeof(*x->procs), GFP_KERNEL);
	x->maps = kvmalloc_array(nmaps, sizeof(*x->maps), GFP_KERNEL);
	x->paths = kvcalloc(npaths, sizeof(*x->paths), GFP_KERNEL);
	x->proc_hash = kvmalloc_array(pb, sizeof(s32), GFP_KERNEL);
	x->path_hash = kvmalloc_array(fb, sizeof(s32), GFP_KERNEL);
	if (!x->procs || !x->maps || !x->paths || !x->proc_hash ||
	    !x->path_hash) {
		tipme_xmp_free(x);
		return -ENOMEM;
	}
	x->nprocs = nprocs;
	x->nmaps = nmaps;
	x->npaths = npaths;
	x->proc_hmask = pb - 1;
	x->path_hmask = fb - 1;
	x->retention_ns = retention_ns;
	x->alive = alive;
	x->free_procs = (struct tipme_xm_list){ -1, -1 };
	x->live = (struct tipme_xm_list){ -1, -1 };
	x->gone = (struct tipme_xm_list){ -1, -1 };
	for (i = 0; i < pb; i++)
		x->proc_hash[i] = -1;
	for (i = 0; i < fb; i++)
		x->path_hash[i] = -1;
	for (i = 0; i < nprocs; i++) {
		x->procs[i].head = -1;
		x->procs[i].hnext = -1;
		list_add_slot(x, &x->free_procs, i);
	}
	for (i = 0; i < nmaps; i++)
		x->maps[i] = (struct tipme_xm_map){
			.proc = -1, .next = i + 1 < nmaps ? (s32)i + 1 : -1,
		};
	for (i = 0; i < npaths; i++)
		x->paths[i].hnext = i + 1 < npaths ? (s32)i + 1 : -1;
	x->free_map = 0;
	x->free_path = 0;
	return 0;
}

/**
 * tipme_xmp_free() - free a pool's memory
 * @x: the pool (initialised, or zeroed)
 *
 * Context: process context.
 */
void tipme_xmp_free(struct tipme_xmp *x)
{
	kvfree(x->procs);
	kvfree(x->maps);
	kvfree(x->paths);
	kvfree(x->proc_hash);
	kvfree(x->path_hash);
	memset(x, 0, sizeof(*x));
}
