// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: the ring, the client table and the clocks.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "xhook.h"

/**
 * xh_state_init() - allocate and lock the ring, set up the client table
 * @st: zeroed state
 * @ring_bytes: ring size in bytes (rounded down to whole records)
 * @max_clients: client table limit
 *
 * The ring is touched and mlock'ed here so that recording never faults.
 * An mlock failure (RLIMIT_MEMLOCK) is not fatal: @ring_locked says.
 *
 * Return: 0 or a negative errno.
 */
int xh_state_init(struct xh_state *st, uint64_t ring_bytes, uint32_t max_clients)
{
	uint64_t cap = ring_bytes / sizeof(struct tipme_x11_rec);

	if (cap < 16)
		return -EINVAL;
	pthread_mutex_init(&st->lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&st->cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	st->notify_fd = -1;
	st->ring = mmap(NULL, cap * sizeof(*st->ring), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->ring == MAP_FAILED) {
		st->ring = NULL;
		return -ENOMEM;
	}
	memset(st->ring, 0, cap * sizeof(*st->ring));
	st->ring_locked = mlock(st->ring, cap * sizeof(*st->ring)) == 0;
	st->cap = cap;
	st->cl_max = max_clients ? max_clients : 1;
	st->stats.ring_capacity = cap;
	st->stats.start_mono_ns = xh_now_ns();
	return 0;
}

void xh_state_free(struct xh_state *st)
{
	uint32_t i;

	if (st->ring)
		munmap(st->ring, st->cap * sizeof(*st->ring));
	for (i = 0; i < st->nbases; i++)
		free(st->bases[i].slots);
	free(st->bases);
	free(st->cl);
	free(st->pending);
	st->ring = NULL;
	st->bases = NULL;
	st->cl = NULL;
	st->pending = NULL;
}

uint64_t xh_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t xh_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/**
 * xh_unwrap_ms() - full CLOCK_MONOTONIC ns of a 32-bit X server ms stamp
 * @ms32: the X server's time (low 32 bits of CLOCK_MONOTONIC in ms)
 * @ref_ns: a CLOCK_MONOTONIC time within 24 days of it (the receive time)
 *
 * Return: the ns value whose ms is congruent to @ms32 modulo 2^32 and
 * nearest to @ref_ns.
 */
uint64_t xh_unwrap_ms(uint32_t ms32, uint64_t ref_ns)
{
	const uint64_t wrap = 1ULL << 32, half = 1ULL << 31;
	uint64_t ref = ref_ns / 1000000ULL;
	uint64_t t = (ref & ~(wrap - 1)) | ms32;

	if (t > ref + half && t >= wrap)
		t -= wrap;
	else if (t + half < ref)
		t += wrap;
	return t * 1000000ULL;
}

/**
 * xh_ring_next() - the next ring slot, zeroed; overwrites the oldest
 * @st: state, lock held
 */
struct tipme_x11_rec *xh_ring_next(struct xh_state *st)
{
	struct tipme_x11_rec *r = &st->ring[st->head % st->cap];

	if (st->head >= st->cap)
		st->stats.overwritten++;
	st->head++;
	st->stats.written++;
	memset(r, 0, sizeof(*r));
	return r;
}

/**
 * xh_base_find() - the entry of a resource-id base, or NULL
 * @st: state, lock held
 * @base: resource-id base
 */
struct xh_base *xh_base_find(struct xh_state *st, uint32_t base)
{
	uint32_t i;

	for (i = 0; i < st->nbases; i++)
		if (st->bases[i].base == base)
			return &st->bases[i];
	return NULL;
}

/**
 * xh_pending_push() - queue client @id for PID resolution
 * @st: state, lock held
 * @id: client id
 *
 * Return: 0 or -ENOMEM.
 */
int xh_pending_push(struct xh_state *st, uint32_t id)
{
	if (st->npending == st->pending_alloc) {
		uint32_t n = st->pending_alloc ? 2 * st->pending_alloc : 64;
		uint32_t *p = realloc(st->pending, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		st->pending = p;
		st->pending_alloc = n;
	}
	st->pending[st->npending++] = id;
	return 0;
}

/**
 * xh_client_new() - add a client holding @base from now on
 * @st: state, lock held
 * @base: its resource-id base
 * @flags: TIPME_X11_CL_*
 * @start_ns: its ClientStarted time, 0 if it connected before us
 *
 * A previous client on @base is marked dead.  The new client is queued
 * for PID resolution unless it is the X server.
 *
 * Return: its id, or TIPME_X11_CLIENT_NONE when a table is full.
 */
uint32_t xh_client_new(struct xh_state *st, uint32_t base, uint32_t flags,
		       uint64_t start_ns)
{
	struct xh_base *b = xh_base_find(st, base);
	struct tipme_x11_client *c;
	uint32_t gen = 0;

	if (b) {
		if (b->alive)
			xh_client_died(st, b, start_ns);
		gen = b->gen + 1;
	} else if (start_ns) {
		gen = 1;
	}
	if (st->ncl >= st->cl_max) {
		st->stats.dropped++;
		return TIPME_X11_CLIENT_NONE;
	}
	if (!b) {
		if (st->nbases >= XH_MAX_BASES)
			return TIPME_X11_CLIENT_NONE;
		if (!(st->nbases & 63)) {
			struct xh_base *nb = realloc(st->bases,
					(st->nbases + 64) * sizeof(*nb));

			if (!nb)
				return TIPME_X11_CLIENT_NONE;
			st->bases = nb;
		}
		b = &st->bases[st->nbases++];
		memset(b, 0, sizeof(*b));
		b->base = base;
	}
	if (st->ncl == st->cl_alloc) {
		uint32_t n = st->cl_alloc ? 2 * st->cl_alloc : 256;
		struct tipme_x11_client *nc;

		if (n > st->cl_max)
			n = st->cl_max;
		nc = realloc(st->cl, n * sizeof(*nc));
		if (!nc)
			return TIPME_X11_CLIENT_NONE;
		st->cl = nc;
		st->cl_alloc = n;
	}
	c = &st->cl[st->ncl];
	memset(c, 0, sizeof(*c));
	c->id = st->ncl++;
	c->xid_base = base;
	c->generation = gen;
	c->flags = flags;
	c->start_ns = start_ns;
	b->id = c->id;
	b->gen = gen;
	b->alive = 1;
	b->last_seq = 0;
	free(b->slots);
	b->slots = calloc(XH_REQSLOTS, sizeof(*b->slots));
	if (!(flags & TIPME_X11_CL_SERVER) &&
	    !(st->query_now && st->query_now(st, c->id) == 0)) {
		if (xh_pending_push(st, c->id) == 0)
			st->want |= XH_WANT_RESOLVE;
		else
			c->flags |= TIPME_X11_CL_PID_UNKNOWN;
	}
	return c->id;
}

/**
 * xh_client_died() - the client holding @b's base is gone
 * @st: state, lock held
 * @b: its base entry
 * @t_ns: when
 */
void xh_client_died(struct xh_state *st, struct xh_base *b, uint64_t t_ns)
{
	if (!b->alive)
		return;
	b->alive = 0;
	free(b->slots);
	b->slots = NULL;
	if (b->id < st->ncl) {
		st->cl[b->id].flags |= TIPME_X11_CL_DIED;
		st->cl[b->id].end_ns = t_ns;
	}
}

/**
 * xh_clients_compact() - forget clients no record in the ring refers to
 * @st: state, lock held; no PID query in flight
 *
 * A client that died (more than a second) before the oldest record in the
 * ring can have no record there.  Such clients are removed and the others
 * renumbered, in the ring, the base table and the pending queue.  Called
 * when the table fills up, so that a long session with many short-lived
 * clients keeps its memory bounded.
 *
 * Return: clients removed.
 */
uint32_t xh_clients_compact(struct xh_state *st)
{
	uint64_t n = st->head < st->cap ? st->head : st->cap, i, oldest;
	uint32_t *map, id, kept = 0, removed;

	if (st->qhead != st->qtail || !st->ncl)
		return 0;
	oldest = n ? st->ring[(st->head - n) % st->cap].time_ns : UINT64_MAX;
	map = malloc(st->ncl * sizeof(*map));
	if (!map)
		return 0;
	for (id = 0; id < st->ncl; id++) {
		const struct tipme_x11_client *c = &st->cl[id];

		if (id && (c->flags & TIPME_X11_CL_DIED) &&
		    c->end_ns + 1000000000ULL < oldest) {
			map[id] = TIPME_X11_CLIENT_NONE;
			continue;
		}
		map[id] = kept;
		if (kept != id) {
			st->cl[kept] = *c;
			st->cl[kept].id = kept;
		}
		kept++;
	}
	removed = st->ncl - kept;
	if (removed) {
		for (i = 0; i < n; i++) {
			struct tipme_x11_rec *r = &st->ring[(st->head - n + i) % st->cap];

			if (r->client < st->ncl)
				r->client = map[r->client];
		}
		for (i = 0; i < st->nbases; i++)
			if (st->bases[i].id < st->ncl)
				st->bases[i].id = map[st->bases[i].id];
		for (i = id = 0; i < st->npending; i++)
			if (st->pending[i] < st->ncl &&
			    map[st->pending[i]] != TIPME_X11_CLIENT_NONE)
				st->pending[id++] = map[st->pending[i]];
		st->npending = id;
		st->ncl = kept;
	}
	free(map);
	return removed;
}

static inline uint64_t tsc_read(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_lfence();
	return __builtin_ia32_rdtsc();
#else
	return 0;
#endif
}

/**
 * xh_clock_pair() - log one (TSC, CLOCK_MONOTONIC, CLOCK_REALTIME) sample
 * @st: state, lock NOT held (taken briefly)
 *
 * Reads rdtsc, clock_gettime(CLOCK_MONOTONIC), rdtsc three times and keeps
 * the tightest bracket; the TSC value is the bracket's middle and err_ts
 * its half width.
 */
void xh_clock_pair(struct xh_state *st)
{
	struct tipme_clock_pair best = { 0 };
	uint64_t best_w = UINT64_MAX;
	int i;

	for (i = 0; i < 3; i++) {
		uint64_t t1 = tsc_read();
		uint64_t mono = xh_now_ns();
		uint64_t t2 = tsc_read();

		if (t2 - t1 < best_w) {
			best_w = t2 - t1;
			best.ts = t1 + (t2 - t1) / 2;
			best.mono_ns = mono;
			best.err_ts = (uint32_t)((t2 - t1 + 1) / 2);
		}
	}
	best.real_ns = xh_real_ns();
	pthread_mutex_lock(&st->lock);
	st->clocks[st->nclocks % XH_CLOCK_PAIRS] = best;
	st->nclocks++;
	pthread_mutex_unlock(&st->lock);
}

/**
 * xh_notify() - ask the main thread to act
 * @st: state, lock held
 * @want: XH_WANT_* bits
 */
void xh_notify(struct xh_state *st, unsigned want)
{
	uint64_t one = 1;

	st->want |= want;
	if (st->notify_fd >= 0 && write(st->notify_fd, &one, sizeof(one)) < 0)
		(void)0;	/* the counter is full: the main thread is awake */
}
