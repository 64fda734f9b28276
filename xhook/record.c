// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: recording.  The RECORD context and the data thread that
 * reads it (nothing but reading, parsing and writing the ring, so the
 * server never waits for us), the PID queries on the control connection
 * and the fences that tell how far the stream has come.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include <xcb/xcb.h>
#include <xcb/record.h>
#include <xcb/res.h>

#include "app.h"

/* ---- PIDs --------------------------------------------------------------- */

static void read_comm(uint32_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		n = 0;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
}

/*
 * PIDs come from X-Resource QueryClientIds on the control connection.  The
 * parser binds each query to the clients that held the queried bases when
 * the server ran it (bind_query() in parse.c); a client that died or whose
 * base changed hands before then stays unknown.  New clients are queried by
 * the data thread the moment their ClientStarted is parsed (query_now), so
 * that short-lived clients are still there to answer; the main thread
 * queries the rest in batches and collects all the replies.
 */

/* Send one QueryClientIds for @n clients and register it.  st.lock held. */
static int query_send_locked(struct xh_app *app, const uint32_t *ids, uint32_t n)
{
	xcb_res_client_id_spec_t specs[XH_QUERY_MAX];
	xcb_res_query_client_ids_cookie_t ck;
	struct xh_query *q;
	uint32_t i;

	if (app->st.qhead - app->st.qtail >= XH_QUERIES || !n || n > XH_QUERY_MAX)
		return -EBUSY;
	q = &app->st.queries[app->st.qhead % XH_QUERIES];
	for (i = 0; i < n; i++) {
		q->ids[i] = ids[i];
		q->bases[i] = app->st.cl[ids[i]].xid_base;
		q->ok[i] = 0;
		specs[i].client = q->bases[i];
		specs[i].mask = XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID;
	}
	ck = xcb_res_query_client_ids(app->ctrl, n, specs);
	xcb_flush(app->ctrl);
	q->seq = ck.sequence;
	q->n = n;
	q->bound = 0;
	app->st.qhead++;
	app->st.want |= XH_WANT_COLLECT;
	return 0;
}

/* st.query_now: the parser (data thread, st.lock held) saw a new client. */
static int query_now(struct xh_state *s, uint32_t id)
{
	struct xh_app *app = (struct xh_app *)((char *)s - offsetof(struct xh_app, st));

	return query_send_locked(app, &id, 1);
}

/* Query new clients from the data thread the moment they start. */
void xh_pids_query_new_clients(struct xh_app *app)
{
	pthread_mutex_lock(&app->st.lock);
	app->st.query_now = query_now;	/* recording runs: query new clients at once */
	pthread_mutex_unlock(&app->st.lock);
}

/* Send queries for the pending clients (main thread). */
static void send_pending(struct xh_app *app)
{
	uint32_t ids[XH_QUERY_MAX], n, i;

	pthread_mutex_lock(&app->st.lock);
	while (app->st.npending) {
		n = 0;
		while (app->st.npending && n < XH_QUERY_MAX) {
			uint32_t id = app->st.pending[--app->st.npending];
			struct tipme_x11_client *c = &app->st.cl[id];

			if (c->flags & TIPME_X11_CL_DIED) {
				c->flags |= TIPME_X11_CL_PID_UNKNOWN;
				app->st.stats.pid_unknown++;
				continue;
			}
			ids[n++] = id;
		}
		if (n && query_send_locked(app, ids, n)) {
			for (i = 0; i < n; i++)	/* all queries busy: later */
				app->st.pending[app->st.npending++] = ids[i];
			break;
		}
	}
	pthread_mutex_unlock(&app->st.lock);
}

/* Wait until the oldest query is bound, up to @ms.  st.lock held. */
static int wait_bound(struct xh_app *app, struct xh_query *q, unsigned ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += (long)ms * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	while (!q->bound && !app->st.data_done)
		if (pthread_cond_timedwait(&app->st.cond, &app->st.lock, &ts) == ETIMEDOUT)
			break;
	return q->bound;
}

/* Collect the replies of the queries in flight, oldest first (main thread). */
static void collect_queries(struct xh_app *app)
{
	for (;;) {
		uint32_t pids[XH_QUERY_MAX] = { 0 }, seq, n, i;
		xcb_res_query_client_ids_cookie_t ck;
		xcb_res_query_client_ids_reply_t *rep;
		struct xh_query *q;
		uint32_t bases[XH_QUERY_MAX], ids[XH_QUERY_MAX];

		pthread_mutex_lock(&app->st.lock);
		if (app->st.qtail == app->st.qhead) {
			pthread_mutex_unlock(&app->st.lock);
			return;
		}
		q = &app->st.queries[app->st.qtail % XH_QUERIES];	/* only we move qtail */
		seq = q->seq;
		n = q->n;
		memcpy(bases, q->bases, n * sizeof(bases[0]));
		memcpy(ids, q->ids, n * sizeof(ids[0]));
		pthread_mutex_unlock(&app->st.lock);

		ck.sequence = seq;
		rep = xcb_res_query_client_ids_reply(app->ctrl, ck, NULL);
		if (rep) {
			xcb_res_client_id_value_iterator_t it =
				xcb_res_query_client_ids_ids_iterator(rep);

			for (; it.rem; xcb_res_client_id_value_next(&it)) {
				xcb_res_client_id_value_t *v = it.data;

				if (!(v->spec.mask & XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID) ||
				    xcb_res_client_id_value_value_length(v) < 1)
					continue;
				for (i = 0; i < n; i++)
					if (bases[i] == v->spec.client)
						pids[i] = xcb_res_client_id_value_value(v)[0];
			}
			free(rep);
		}

		pthread_mutex_lock(&app->st.lock);
		if (!wait_bound(app, q, 20)) {
			/* its record waits in the server's buffer: fence */
			pthread_mutex_unlock(&app->st.lock);
			xh_fence_send(app);
			pthread_mutex_lock(&app->st.lock);
			wait_bound(app, q, 2000);
		}
		for (i = 0; i < n; i++) {
			struct tipme_x11_client *c = &app->st.cl[ids[i]];

			if (q->bound && q->ok[i] && pids[i]) {
				c->pid = pids[i];
				c->flags &= ~TIPME_X11_CL_PID_UNKNOWN;
				app->st.stats.pid_resolved++;
			} else {
				pids[i] = 0;
				c->pid = 0;
				c->flags |= TIPME_X11_CL_PID_UNKNOWN;
				app->st.stats.pid_unknown++;
			}
		}
		app->st.qtail++;
		pthread_mutex_unlock(&app->st.lock);

		for (i = 0; i < n; i++) {
			char comm[16];

			xh_logv(app, "client 0x%x (id %u): pid %u\n", bases[i], ids[i], pids[i]);
			if (!pids[i])
				continue;
			read_comm(pids[i], comm, sizeof(comm));
			pthread_mutex_lock(&app->st.lock);
			memcpy(app->st.cl[ids[i]].comm, comm, sizeof(comm));
			pthread_mutex_unlock(&app->st.lock);
		}
	}
}

/* Learn the PIDs of the clients waiting for one (main thread). */
void xh_resolve_pids(struct xh_app *app)
{
	int rounds = 0;
	uint32_t left;

	do {
		send_pending(app);
		collect_queries(app);
		pthread_mutex_lock(&app->st.lock);
		left = app->st.npending;
		pthread_mutex_unlock(&app->st.lock);
	} while (left && ++rounds < 64);
}

/* ---- fences ------------------------------------------------------------ */

/*
 * Send a fence: a NoOperation (the marker the parser waits for) and a
 * GetInputFocus whose reply makes the server flush the RECORD buffer.
 * Return: the NoOperation's sequence number, for xh_fence_wait().
 */
uint32_t xh_fence_send(struct xh_app *app)
{
	xcb_void_cookie_t c = xcb_no_operation(app->ctrl);
	xcb_get_input_focus_cookie_t g = xcb_get_input_focus(app->ctrl);
	uint64_t now = xh_now_ns();

	xcb_discard_reply(app->ctrl, g.sequence);
	pthread_mutex_lock(&app->st.lock);
	if (!app->st.fence_pending || now - app->st.fence_sent_ns > 1000000000ULL) {
		app->st.fence_seq = c.sequence;
		app->st.fence_sent_ns = now;
		app->st.fence_pending = 1;
	}
	app->st.stats.fences++;
	pthread_mutex_unlock(&app->st.lock);
	xcb_flush(app->ctrl);
	return c.sequence;
}

/* Wait until the parser saw the control connection's NoOperation @seq. */
int xh_fence_wait(struct xh_app *app, uint32_t seq, unsigned ms)
{
	struct timespec ts;
	int ret = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&app->st.lock);
	while (!(app->st.marker_valid && (int32_t)(app->st.marker_seq - seq) >= 0)) {
		if (app->st.data_done) {
			ret = -EPIPE;
			break;
		}
		if (pthread_cond_timedwait(&app->st.cond, &app->st.lock, &ts) == ETIMEDOUT) {
			ret = -ETIMEDOUT;
			break;
		}
	}
	pthread_mutex_unlock(&app->st.lock);
	return ret;
}

/* ---- the data thread ---------------------------------------------------- */

static void *data_main(void *arg)
{
	struct xh_app *app = arg;

	for (;;) {
		xcb_generic_error_t *e = NULL;
		xcb_record_enable_context_reply_t *r;
		struct xh_reply h;
		uint64_t now;

		r = xcb_record_enable_context_reply(app->dconn, app->enable_cookie, &e);
		if (!r) {
			if (e) {
				fprintf(stderr, "tipme-xhook: RECORD error %u\n", e->error_code);
				free(e);
			}
			break;
		}
		now = xh_now_ns();
		if (r->category == XH_CAT_END_OF_DATA) {
			free(r);
			break;
		}
		h.category = r->category;
		h.element_header = r->element_header;
		h.client_swapped = r->client_swapped;
		h.xid_base = r->xid_base;
		h.server_time = r->server_time;
		xh_parse_reply(&app->st, &h, xcb_record_enable_context_data(r),
			       (size_t)xcb_record_enable_context_data_length(r), now);
		free(r);
	}
	pthread_mutex_lock(&app->st.lock);
	app->st.data_done = 1;
	if (!app->st.stopping)
		app->st.x_dead = 1;
	pthread_cond_broadcast(&app->st.cond);
	xh_notify(&app->st, 0);
	pthread_mutex_unlock(&app->st.lock);
	return NULL;
}

/* Create and enable the RECORD context on the data connection. */
int xh_record_create(struct xh_app *app)
{
	xcb_record_client_spec_t spec = XCB_RECORD_CS_ALL_CLIENTS;
	xcb_record_range_t range;
	xcb_generic_error_t *e;

	memset(&range, 0, sizeof(range));
	range.core_requests.first = 1;
	range.core_requests.last = 127;
	range.core_replies.first = 1;
	range.core_replies.last = 127;
	range.ext_requests.major.first = 128;
	range.ext_requests.major.last = 255;
	range.ext_requests.minor.first = 0;
	range.ext_requests.minor.last = 0xffff;
	range.ext_replies.major.first = 128;
	range.ext_replies.major.last = 255;
	range.ext_replies.minor.first = 0;
	range.ext_replies.minor.last = 0xffff;
	range.delivered_events.first = 2;
	range.delivered_events.last = 255;
	range.device_events.first = 2;		/* KeyPress .. MotionNotify */
	range.device_events.last = 6;
	/* no errors: a range with errors drops delivered events (x11.md) */
	range.client_started = 1;
	range.client_died = 1;

	app->rctx = xcb_generate_id(app->dconn);
	e = xcb_request_check(app->dconn, xcb_record_create_context_checked(app->dconn, app->rctx,
		XH_EH_SERVER_TIME | XH_EH_CLIENT_TIME | XH_EH_CLIENT_SEQ,
		1, 1, &spec, &range));
	if (e) {
		fprintf(stderr, "tipme-xhook: RECORD CreateContext failed (error %u)\n",
			e->error_code);
		free(e);
		return -EIO;
	}
	app->enable_cookie = xcb_record_enable_context(app->dconn, app->rctx);
	xcb_flush(app->dconn);
	return 0;
}

/* The server and the clients already connected, before recording starts. */
void xh_record_initial_clients(struct xh_app *app)
{
	xcb_res_query_clients_reply_t *r;
	xcb_res_client_iterator_t it;

	pthread_mutex_lock(&app->st.lock);
	xh_client_new(&app->st, 0, TIPME_X11_CL_SERVER | TIPME_X11_CL_PREEXISTING, 0);
	/* the server's PID comes from the same query as everyone's */
	xh_pending_push(&app->st, TIPME_X11_CLIENT_SERVER);
	pthread_mutex_unlock(&app->st.lock);
	r = xcb_res_query_clients_reply(app->ctrl, xcb_res_query_clients(app->ctrl), NULL);
	if (!r)
		return;
	pthread_mutex_lock(&app->st.lock);
	for (it = xcb_res_query_clients_clients_iterator(r); it.rem;
	     xcb_res_client_next(&it)) {
		uint32_t base = it.data->resource_base;

		if (base && base != app->st.ctrl_base && base != app->st.data_base &&
		    base != app->st.ui_base)
			xh_client_new(&app->st, base, TIPME_X11_CL_PREEXISTING, 0);
	}
	pthread_mutex_unlock(&app->st.lock);
	free(r);
}


/**
 * xh_record_thread_start() - start the data thread and wait for StartOfData
 * @app: context enabled (xh_record_create()), st.notify_fd set
 *
 * Requests the server runs before StartOfData are not recorded.
 *
 * Return: 0, -EAGAIN (no thread) or -ETIMEDOUT; said on stderr.
 * xh_record_join() either way.
 */
int xh_record_thread_start(struct xh_app *app)
{
	struct timespec ts;
	int err;

	if (pthread_create(&app->data_thread, NULL, data_main, app)) {
		fprintf(stderr, "tipme-xhook: cannot start the data thread\n");
		return -EAGAIN;
	}
	app->data_thread_started = 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += 5;
	pthread_mutex_lock(&app->st.lock);
	while (!app->st.started && !app->st.data_done &&
	       pthread_cond_timedwait(&app->st.cond, &app->st.lock, &ts) != ETIMEDOUT)
		;
	err = app->st.started ? 0 : -ETIMEDOUT;
	pthread_mutex_unlock(&app->st.lock);
	if (err)
		fprintf(stderr, "tipme-xhook: RECORD did not start\n");
	return err;
}

/* Disable the context, let the data thread read to its end (2 s at most). */
void xh_record_stop(struct xh_app *app)
{
	struct timespec ts;

	pthread_mutex_lock(&app->st.lock);
	app->st.stopping = 1;
	pthread_mutex_unlock(&app->st.lock);
	xcb_record_disable_context(app->ctrl, app->rctx);
	xcb_flush(app->ctrl);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += 2;
	pthread_mutex_lock(&app->st.lock);
	while (!app->st.data_done &&
	       pthread_cond_timedwait(&app->st.cond, &app->st.lock, &ts) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&app->st.lock);
	xcb_record_free_context(app->ctrl, app->rctx);
	xcb_flush(app->ctrl);
}

/* Wait for the data thread to end, if it was started. */
void xh_record_join(struct xh_app *app)
{
	if (app->data_thread_started) {
		/* wake the data thread if it still waits for a reply */
		shutdown(xcb_get_file_descriptor(app->dconn), SHUT_RDWR);
		pthread_join(app->data_thread, NULL);
	}
}
