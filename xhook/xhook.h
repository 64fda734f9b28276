/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipme-xhook internals: the state shared by the RECORD data thread (which
 * parses and writes the ring) and the main thread (control connection:
 * grabs, X-Resource queries, fences, dumps).  Everything in struct xh_state
 * below "protected by lock" is read or written with @lock held.
 */
#ifndef TIPME_XHOOK_H
#define TIPME_XHOOK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <tipme/xdump.h>

#include "xdumpfile.h"
#include "autotrig.h"

/* RECORD categories (xcb names none of them) */
enum {
	XH_CAT_FROM_SERVER	= 0,
	XH_CAT_FROM_CLIENT	= 1,
	XH_CAT_CLIENT_STARTED	= 2,
	XH_CAT_CLIENT_DIED	= 3,
	XH_CAT_START_OF_DATA	= 4,
	XH_CAT_END_OF_DATA	= 5,
};

/* RECORD element header bits */
#define XH_EH_SERVER_TIME	0x01
#define XH_EH_CLIENT_TIME	0x02
#define XH_EH_CLIENT_SEQ	0x04

/* The fixed part of one RECORD EnableContext reply that the parser needs. */
struct xh_reply {
	uint8_t category;
	uint8_t element_header;
	uint8_t client_swapped;
	uint32_t xid_base;
	uint32_t server_time;
};

#define XH_REQSLOTS	32	/* recent requests kept per client to match replies */

struct xh_reqslot {
	uint32_t seq;
	uint8_t major;
	uint8_t valid;
	uint16_t minor;
};

/* One resource-id base: the client that holds it now (or held it last). */
struct xh_base {
	uint32_t base;
	uint32_t id;		/* client table index of its latest client */
	uint32_t gen;		/* that client's generation */
	uint32_t last_seq;	/* that client's last request sequence */
	int alive;
	struct xh_reqslot *slots;	/* NULL once dead */
};

/* The hotkeys, as keycodes and modifier masks (set by main, read by parser). */
#define XH_MAX_KC	8
struct xh_keys {
	uint8_t minus[XH_MAX_KC], n_minus;
	uint8_t plus[XH_MAX_KC], n_plus;	/* equal and plus keys */
	uint8_t zero[XH_MAX_KC], n_zero;
	uint8_t one[XH_MAX_KC], n_one;
	uint16_t ctrl, alt, shift, lock, numlock;
	uint16_t modkey[256];	/* keycode -> non-locking modifier bits it sets */
};

/* Actions the parser asks the main thread to do (bits of want). */
#define XH_WANT_TRIGGER		0x01
#define XH_WANT_RESOLVE		0x02	/* clients wait in the pending queue */
#define XH_WANT_COLLECT		0x04	/* PID queries wait for their replies */

#define XH_MAX_BASES		4096
#define XH_QUERY_MAX		64
#define XH_CLOCK_PAIRS		512
#define XH_QUERIES		64

/*
 * One X-Resource QueryClientIds request of the control connection.  The
 * parser binds it when the request shows up in the RECORD stream: @ok[i]
 * says whether client @ids[i] still held @bases[i] at that point, i.e.
 * whether the answer the server computed there is that client's.
 */
struct xh_query {
	uint32_t seq;		/* its sequence number on the control connection */
	uint32_t n;
	int bound;
	uint32_t ids[XH_QUERY_MAX];
	uint32_t bases[XH_QUERY_MAX];
	uint8_t ok[XH_QUERY_MAX];
};

struct xh_state {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int notify_fd;		/* eventfd: the parser pokes the main thread */

	/* protected by lock */
	struct tipme_x11_rec *ring;
	uint64_t cap;		/* records */
	uint64_t head;		/* records ever written */
	int ring_locked;	/* mlock succeeded */

	struct tipme_x11_client *cl;
	uint32_t ncl, cl_alloc, cl_max;
	struct xh_base *bases;
	uint32_t nbases;
	uint32_t *pending;	/* client ids waiting for a PID */
	uint32_t npending, pending_alloc;

	/* X-Resource QueryClientIds requests in flight, oldest at qtail */
	struct xh_query queries[XH_QUERIES];
	uint32_t qhead, qtail;
	/* send a PID query for a new client now (record.c); NULL: queue it */
	int (*query_now)(struct xh_state *st, uint32_t id);

	uint32_t marker_seq;	/* last NoOperation of the control connection seen */
	int marker_valid;
	uint32_t fence_seq;	/* periodic fence in flight */
	uint64_t fence_sent_ns;
	int fence_pending;
	int dispatch_due;	/* a request of another client recorded since our last */

	uint32_t ctrl_base, data_base, ui_base;
	int ui_focused;		/* our description window has the focus (stream order) */
	uint8_t xres_major, xtest_major, xkb_major, xi_major, xi_first_event;

	int keylog, keylog_ever;
	struct xh_keys keys;
	uint16_t held_mods;	/* modifiers held, tracked from device events */
	uint64_t last_trigger_ns;	/* last press of the trigger key */

	struct xh_auto autotrig;	/* the press being measured (autotrig.c) */

	unsigned want;
	uint64_t trigger_ns;
	int started, data_done, x_dead, stopping;

	struct tipme_x11_stats stats;

	struct tipme_clock_pair clocks[XH_CLOCK_PAIRS];
	uint64_t nclocks;	/* pairs ever taken */
};

/* state.c */
int xh_state_init(struct xh_state *st, uint64_t ring_bytes, uint32_t max_clients);
void xh_state_free(struct xh_state *st);
uint64_t xh_now_ns(void);
uint64_t xh_real_ns(void);
uint64_t xh_unwrap_ms(uint32_t ms32, uint64_t ref_ns);
struct tipme_x11_rec *xh_ring_next(struct xh_state *st);
struct xh_base *xh_base_find(struct xh_state *st, uint32_t base);
uint32_t xh_client_new(struct xh_state *st, uint32_t base, uint32_t flags,
		       uint64_t start_ns);
int xh_pending_push(struct xh_state *st, uint32_t id);
void xh_client_died(struct xh_state *st, struct xh_base *b, uint64_t t_ns);
uint32_t xh_clients_compact(struct xh_state *st);
void xh_clock_pair(struct xh_state *st);
void xh_notify(struct xh_state *st, unsigned want);

/* parse.c */
void xh_parse_reply(struct xh_state *st, const struct xh_reply *r,
		    const uint8_t *data, size_t len, uint64_t recv_ns);
uint64_t xh_request_size(const uint8_t *req, size_t len, int off, int swapped);

/* snapshot.c */
int xh_snapshot_take(struct xh_state *st, struct tm_xdump_content *s);
void xh_snapshot_free(struct tm_xdump_content *s);
int xh_write_atomic(const char *dir, const char *name, const void *buf,
		    size_t len);

#endif
