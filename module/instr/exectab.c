// SPDX-License-Identifier: GPL-2.0
/*
 * The exec table's data structure (see exectab.h).
 *
 * Entries live in one array allocated at load.  Live entries are in a hash
 * by pid; exited ones in a list ordered by exit time, from which they are
 * freed when their retention runs out, or earlier, oldest first, when a new
 * entry finds no free slot (counted as evicted).  Processes, not threads,
 * also own a string slot from a second array.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "fault.h"
#include "instr/exectab.h"

/* Exited entries looked at for a string slot before giving up. */
#define XT_STR_SCAN	32

static u32 xt_bucket(struct tipme_xt *t, u32 pid)
{
	return hash_32(pid, 31) & t->hmask;
}

/**
 * tipme_xt_init() - allocate an empty table
 * @t: the table, zeroed by the caller
 * @cap: entries (processes and threads, live and recently exited)
 * @nstr: string slots (processes with an executable)
 * @exe_max: bytes of the executable's path kept
 * @argv_max: bytes of argv kept
 * @env_max: bytes of environment kept, 0 not to keep it
 * @retention: recorder ticks an entry stays after its exit
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL or -ENOMEM.
 */
int tipme_xt_init(struct tipme_xt *t, u32 cap, u32 nstr, u32 exe_max,
		  u32 argv_max, u32 env_max, u64 retention)
{
	u32 i, nb;

	if (!cap || cap > (1U << 24) || nstr > cap ||
	    exe_max > U16_MAX || argv_max > U16_MAX || env_max > U16_MAX)
		return -EINVAL;
	raw_spin_lock_init(&t->lock);
	t->cap = cap;
	t->nstr = nstr;
	t->exe_max = exe_max;
	t->argv_max = argv_max;
	t->env_max = env_max;
	t->str_size = ALIGN(exe_max + argv_max + env_max, 8);
	t->retention = retention;
	t->next_id = 1;
	nb = roundup_pow_of_two(cap);
	t->hmask = nb - 1;
	t->ents = tipme_fail_step("exec table") ? NULL :
		  vzalloc(array_size(cap, sizeof(*t->ents)));
	t->buckets = tipme_fail_step("exec table buckets") ? NULL :
		     vmalloc(array_size(nb, sizeof(*t->buckets)));
	t->str_next = tipme_fail_step("exec string slots") ? NULL :
		      vmalloc(array_size(max(nstr, 1U), sizeof(*t->str_next)));
	t->strs = !nstr || tipme_fail_step("exec strings") ? NULL :
		  vzalloc(array_size(nstr, t->str_size));
	if (!t->ents || !t->buckets || !t->str_next || (nstr && !t->strs)) {
		tipme_xt_free(t);
		return -ENOMEM;
	}
	for (i = 0; i < nb; i++)
		t->buckets[i] = -1;
	for (i = 0; i < cap; i++) {
		t->ents[i].lnext = i + 1 < cap ? (s32)i + 1 : -1;
		t->ents[i].hnext = -1;
		t->ents[i].lprev = -1;
		t->ents[i].str = -1;
	}
	t->free_head = 0;
	for (i = 0; i < nstr; i++)
		t->str_next[i] = i + 1 < nstr ? (s32)i + 1 : -1;
	t->str_free = nstr ? 0 : -1;
	t->old_head = -1;
	t->old_tail = -1;
	t->str_head = -1;
	return 0;
}

/**
 * tipme_xt_free() - free a table made by tipme_xt_init()
 * @t: the table
 *
 * Context: process context.
 */
void tipme_xt_free(struct tipme_xt *t)
{
	vfree(t->ents);
	vfree(t->buckets);
	vfree(t->str_next);
	vfree(t->strs);
	t->ents = NULL;
	t->buckets = NULL;
	t->str_next = NULL;
	t->strs = NULL;
}

/**
 * tipme_xt_lookup() - the live entry of thread @pid
 * @t: the table
 * @pid: thread id
 *
 * Context: @t->lock held.
 * Return: the entry or NULL.
 */
struct tipme_xt_ent *tipme_xt_lookup(struct tipme_xt *t, u32 pid)
{
	s32 i;

	for (i = t->buckets[xt_bucket(t, pid)]; i >= 0; i = t->ents[i].hnext)
		if (t->ents[i].pid == pid)
			return &t->ents[i];
	return NULL;
}

static void hash_del(struct tipme_xt *t, struct tipme_xt_ent *e)
{
	s32 *p = &t->buckets[xt_bucket(t, e->pid)];
	s32 idx = tipme_xt_index(t, e);

	while (*p >= 0) {
		if (*p == idx) {
			*p = e->hnext;
			e->hnext = -1;
			return;
		}
		p = &t->ents[*p].hnext;
	}
}

static void old_unlink(struct tipme_xt *t, struct tipme_xt_ent *e)
{
	if (t->str_head == tipme_xt_index(t, e))
		t->str_head = e->lnext;
	if (e->lprev >= 0)
		t->ents[e->lprev].lnext = e->lnext;
	else
		t->old_head = e->lnext;
	if (e->lnext >= 0)
		t->ents[e->lnext].lprev = e->lprev;
	else
		t->old_tail = e->lprev;
	e->lprev = -1;
	e->lnext = -1;
}

/* Free an exited entry and its string slot. */
static void xt_release(struct tipme_xt *t, struct tipme_xt_ent *e)
{
	old_unlink(t, e);
	t->exited--;
	if (e->str >= 0) {
		t->str_next[e->str] = t->str_free;
		t->str_free = e->str;
	}
	memset(e, 0, sizeof(*e));
	e->hnext = -1;
	e->lprev = -1;
	e->str = -1;
	e->lnext = t->free_head;
	t->free_head = tipme_xt_index(t, e);
}

/**
 * tipme_xt_gc() - free exited entries whose retention ran out
 * @t: the table
 * @now: recorder timestamp
 *
 * Context: @t->lock held.
 * Return: entries freed.
 */
unsigned int tipme_xt_gc(struct tipme_xt *t, u64 now)
{
	unsigned int n = 0;

	while (t->old_head >= 0) {
		struct tipme_xt_ent *e = &t->ents[t->old_head];

		if (now < e->exit_ts || now - e->exit_ts < t->retention)
			break;
		xt_release(t, e);
		n++;
	}
	return n;
}

/**
 * tipme_xt_retire() - mark a live entry exited and start its retention
 * @t: the table
 * @e: the entry
 * @now: recorder timestamp of the exit
 * @flags: TIPME_EXEC_* to add (TIPME_EXEC_EXITED is always added)
 * @exit_code: the exit code
 *
 * Context: @t->lock held.
 */
void tipme_xt_retire(struct tipme_xt *t, struct tipme_xt_ent *e, u64 now,
		     u32 flags, s32 exit_code)
{
	s32 idx = tipme_xt_index(t, e);

	if (e->flags & TIPME_EXEC_EXITED)
		return;
	hash_del(t, e);
	e->flags |= TIPME_EXEC_EXITED | flags;
	e->exit_code = exit_code;
	e->exit_ts = now ? now : 1;
	e->lnext = -1;
	e->lprev = t->old_tail;
	if (t->old_tail >= 0)
		t->ents[t->old_tail].lnext = idx;
	else
		t->old_head = idx;
	t->old_tail = idx;
	if (t->str_head < 0)
		t->str_head = idx;
	t->live--;
	t->exited++;
}

/*
 * A string slot: free, or taken from one of the oldest exited entries,
 * which stays in the table without its path and argv (its pid, name and
 * times still name it in a dump).  Slots are taken in exit order, so the
 * exited entries before @t->str_head have none left: the search starts
 * there, not at the oldest exited entry.
 */
static s32 str_alloc(struct tipme_xt *t)
{
	s32 i, s;
	int scan = 0;

	if (t->str_free >= 0) {
		s = t->str_free;
		t->str_free = t->str_next[s];
		return s;
	}
	for (i = t->str_head; i >= 0 && scan < XT_STR_SCAN;
	     i = t->ents[i].lnext, scan++) {
		struct tipme_xt_ent *o = &t->ents[i];

		if (o->str < 0) {
			if (i == t->str_head)	/* the prefix with none grows */
				t->str_head = o->lnext;
			continue;
		}
		t->str_head = o->lnext;
		s = o->str;
		o->str = -1;
		o->exe_len = 0;
		o->argv_len = 0;
		o->env_len = 0;
		o->flags &= ~(TIPME_EXEC_ARGV_TRUNC | TIPME_EXEC_ENV |
			      TIPME_EXEC_ENV_TRUNC);
		o->flags |= TIPME_EXEC_STRINGS_EVICTED;
		t->strings_evicted++;
		return s;
	}
	return -1;
}

/**
 * tipme_xt_new() - make a live entry for thread @pid
 * @t: the table
 * @pid: thread id
 * @tgid: process id
 * @now: recorder timestamp (start of the entry)
 * @strings: the entry is a process with an executable: give it a string
 *           slot if one can be had
 *
 * A live entry of the same pid is an exit we did not see (the pid was
 * reused): it is retired first, flagged TIPME_EXEC_EXIT_UNSEEN.  Expired
 * entries are freed; with no free slot the oldest exited entry is evicted.
 * The new entry has @pid, @tgid, @id and @start_ts set, everything else
 * zero; its string slot (if any) is empty.
 *
 * Context: @t->lock held.
 * Return: the entry, or NULL if every slot holds a live task.
 */
struct tipme_xt_ent *tipme_xt_new(struct tipme_xt *t, u32 pid, u32 tgid,
				  u64 now, bool strings)
{
	struct tipme_xt_ent *e, *old;
	s32 idx;
	u32 b;

	old = tipme_xt_lookup(t, pid);
	if (old)
		tipme_xt_retire(t, old, now, TIPME_EXEC_EXIT_UNSEEN, 0);
	tipme_xt_gc(t, now);
	if (t->free_head < 0) {
		if (t->old_head < 0) {
			t->dropped++;
			return NULL;
		}
		xt_release(t, &t->ents[t->old_head]);
		t->evicted++;
	}
	idx = t->free_head;
	e = &t->ents[idx];
	t->free_head = e->lnext;
	memset(e, 0, sizeof(*e));
	e->lnext = -1;
	e->lprev = -1;
	e->str = strings ? str_alloc(t) : -1;
	e->id = t->next_id++;
	if (!t->next_id)
		t->next_id = 1;
	e->pid = pid;
	e->tgid = tgid;
	e->start_ts = now;
	b = xt_bucket(t, pid);
	e->hnext = t->buckets[b];
	t->buckets[b] = idx;
	t->live++;
	return e;
}

/**
 * tipme_xt_str() - the string slot of an entry
 * @t: the table
 * @e: the entry
 *
 * Context: @t->lock held.
 * Return: the slot (path at 0, argv at exe_max, environment after argv
 * at exe_max + argv_max), or NULL if @e has none.
 */
char *tipme_xt_str(struct tipme_xt *t, struct tipme_xt_ent *e)
{
	if (e->str < 0)
		return NULL;
	return t->strs + (size_t)e->str * t->str_size;
}

/**
 * tipme_xt_set_strings() - store path, argv and environment, truncated
 * @t: the table
 * @e: an entry with a string slot (else only TIPME_EXEC_ARGV_LOST is set)
 * @exe: executable's path
 * @exe_len: its bytes
 * @argv: arguments, each NUL-terminated
 * @argv_len: their bytes
 * @env: environment, or NULL
 * @env_len: its bytes
 *
 * Context: @t->lock held.
 */
void tipme_xt_set_strings(struct tipme_xt *t, struct tipme_xt_ent *e,
			  const char *exe, size_t exe_len,
			  const char *argv, size_t argv_len,
			  const char *env, size_t env_len)
{
	char *s = tipme_xt_str(t, e);

	if (!s) {
		e->flags |= TIPME_EXEC_ARGV_LOST;
		return;
	}
	e->exe_len = min_t(size_t, exe_len, t->exe_max);
	memcpy(s, exe, e->exe_len);
	if (argv_len > t->argv_max)
		e->flags |= TIPME_EXEC_ARGV_TRUNC;
	e->argv_len = min_t(size_t, argv_len, t->argv_max);
	memcpy(s + t->exe_max, argv, e->argv_len);
	e->env_len = 0;
	if (env && t->env_max) {
		e->flags |= TIPME_EXEC_ENV;
		if (env_len > t->env_max)
			e->flags |= TIPME_EXEC_ENV_TRUNC;
		e->env_len = min_t(size_t, env_len, t->env_max);
		memcpy(s + t->exe_max + t->argv_max, env, e->env_len);
	}
}

/**
 * tipme_xt_copy_strings() - give a forked process its parent's strings
 * @t: the table
 * @dst: the child's entry
 * @src: the parent's entry
 *
 * Context: @t->lock held.
 */
void tipme_xt_copy_strings(struct tipme_xt *t, struct tipme_xt_ent *dst,
			   struct tipme_xt_ent *src)
{
	char *d = tipme_xt_str(t, dst), *s = tipme_xt_str(t, src);
	const u32 keep = TIPME_EXEC_ARGV_TRUNC | TIPME_EXEC_ARGV_LOST |
			 TIPME_EXEC_ENV | TIPME_EXEC_ENV_TRUNC;

	if (!d || !s || (src->flags & TIPME_EXEC_PENDING)) {
		dst->flags |= TIPME_EXEC_ARGV_LOST;
		return;
	}
	memcpy(d, s, t->str_size);
	dst->exe_len = src->exe_len;
	dst->argv_len = src->argv_len;
	dst->env_len = src->env_len;
	dst->flags |= src->flags & keep;
}

/**
 * tipme_xt_entry_size() - bytes of an entry in the dump
 * @e: the entry
 *
 * Context: any (the caller keeps @e stable).
 * Return: sizeof(struct tipme_exec) plus its strings, rounded up to 8.
 */
size_t tipme_xt_entry_size(const struct tipme_xt_ent *e)
{
	return ALIGN(sizeof(struct tipme_exec) + e->exe_len + e->argv_len +
		     e->env_len, 8);
}

/**
 * tipme_xt_serialize() - an entry as the dump carries it
 * @t: the table
 * @e: the entry (in use)
 * @buf: destination
 * @size: its bytes
 *
 * Context: @t->lock held.
 * Return: bytes written, 0 if @size is too small.
 */
size_t tipme_xt_serialize(struct tipme_xt *t, struct tipme_xt_ent *e,
			  void *buf, size_t size)
{
	size_t len = tipme_xt_entry_size(e);
	struct tipme_exec *x = buf;
	char *s = tipme_xt_str(t, e), *p;

	if (len > size)
		return 0;
	memset(buf, 0, len);
	x->size = len;
	x->id = e->id;
	x->pid = e->pid;
	x->tgid = e->tgid;
	x->ppid = e->ppid;
	x->flags = e->flags;
	x->exit_code = e->exit_code;
	x->start_ts = e->start_ts;
	x->exit_ts = e->exit_ts;
	x->start_mono_ns = e->start_mono_ns;
	memcpy(x->comm, e->comm, sizeof(x->comm));
	if (s) {
		x->exe_len = e->exe_len;
		x->argv_len = e->argv_len;
		x->env_len = e->env_len;
		p = (char *)(x + 1);
		memcpy(p, s, e->exe_len);
		p += e->exe_len;
		memcpy(p, s + t->exe_max, e->argv_len);
		p += e->argv_len;
		memcpy(p, s + t->exe_max + t->argv_max, e->env_len);
	}
	return len;
}

/**
 * tipme_xt_header() - the section header describing @t
 * @t: the table
 * @h: filled in
 * @count: entries in use now
 * @retention_ns: the retention, in ns
 *
 * Context: @t->lock held.
 */
void tipme_xt_header(struct tipme_xt *t, struct tipme_exectab_hdr *h,
		     u32 count, u64 retention_ns)
{
	memset(h, 0, sizeof(*h));
	h->hdr_size = sizeof(*h);
	h->count = count;
	h->capacity = t->cap;
	h->flags = t->env_max ? TIPME_EXECTAB_ENV : 0;
	h->retention_ns = retention_ns;
	h->evicted = t->evicted;
	h->dropped = t->dropped;
	h->argv_lost = t->argv_lost;
	h->argv_max = t->argv_max;
	h->env_max = t->env_max;
	h->strings_evicted = t->strings_evicted;
}
