// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook's link to tipmed (tipmed_link.h, lib/ctlproto.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "tipmed_link.h"

/* ---- the SUBSCRIBE connection ----------------------------------------- */

void tl_sub_init(struct tl_sub *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

void tl_sub_close(struct tl_sub *s)
{
	if (s->fd >= 0)
		close(s->fd);
	tl_sub_init(s);
}

int tl_sub_connect(struct tl_sub *s, const char *path, struct tm_err *e)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	static const char req[] = "SUBSCRIBE\n";
	ssize_t n;
	int err;

	tl_sub_close(s);
	if (strlen(path) >= sizeof(sa.sun_path))
		return tm_err_set(e, ENAMETOOLONG, "%s: path too long", path);
	strcpy(sa.sun_path, path);
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->fd < 0)
		return tm_err_set(e, errno, "socket: %s", strerror(errno));
	/* a Unix socket connects at once, or fails (EAGAIN: backlog full) */
	if (connect(s->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = errno;
		tl_sub_close(s);
		return tm_err_set(e, err, "%s: %s", path, strerror(err));
	}
	/* an empty socket buffer takes these few bytes whole */
	n = send(s->fd, req, sizeof(req) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n != (ssize_t)sizeof(req) - 1) {
		err = n < 0 ? errno : EIO;
		tl_sub_close(s);
		return tm_err_set(e, err, "%s: SUBSCRIBE: %s", path, strerror(err));
	}
	return 0;
}

/* tipmed's answer to SUBSCRIBE */
static int sub_answer(struct tl_sub *s, const char *line, struct tm_err *e)
{
	if (!strcmp(line, "OK") || !strncmp(line, "OK ", 3)) {
		s->subscribed = 1;
		return 0;
	}
	if (!strncmp(line, "ERR EPERM", 9) || !strncmp(line, "ERR EACCES", 10))
		return tm_err_set(e, EACCES, "tipmed refused SUBSCRIBE: %s (join the '%s' group)",
				  line + 4, TIPME_CTL_GROUP);
	return tm_err_set(e, EPROTO, "tipmed refused SUBSCRIBE: %s", line);
}

int tl_sub_read(struct tl_sub *s, void (*fn)(void *arg, const char *line),
		void *arg, struct tm_err *e)
{
	char buf[4096];

	if (s->fd < 0)
		return tm_err_set(e, ENOTCONN, "not connected");
	for (;;) {
		ssize_t n = recv(s->fd, buf, sizeof(buf), MSG_DONTWAIT);
		ssize_t i;
		int err;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0)
			return tm_err_set(e, errno, "tipmed: %s", strerror(errno));
		if (n == 0)
			return tm_err_set(e, EPIPE, "tipmed closed the connection");
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				/* an overlong line is cut, never overflows */
				if (s->len + 1 < sizeof(s->line))
					s->line[s->len++] = buf[i];
				continue;
			}
			s->line[s->len] = '\0';
			s->len = 0;
			if (!s->subscribed) {
				err = sub_answer(s, s->line, e);
				if (err)
					return err;
				continue;
			}
			fn(arg, s->line);
		}
	}
}

/* ---- the worker thread ------------------------------------------------- */

/*
 * One request as tm_ctlc_request() makes it (lib/ctlclient.c), but on a
 * non-blocking socket: it gives up after TL_REQUEST_MS, or at once when
 * tl_worker_stop() aborts (w->wake_fd), so a tipmed that hangs can neither
 * hold the queue forever nor keep tipme-xhook from exiting.
 */
static int wait_fd(struct tl_worker *w, int fd, short events, uint64_t deadline,
		   struct tm_err *e)
{
	struct pollfd p[2] = {
		{ .fd = fd, .events = events },
		{ .fd = w->wake_fd, .events = POLLIN },
	};
	uint64_t now = xh_now_ns();
	int n;

	if (now >= deadline)
		return tm_err_set(e, ETIMEDOUT, "tipmed did not answer in %u s",
				  TL_REQUEST_MS / 1000);
	n = poll(p, 2, (int)((deadline - now) / 1000000 + 1));
	if (n < 0 && errno != EINTR)
		return tm_err_set(e, errno, "poll: %s", strerror(errno));
	if (p[1].revents) {
		pthread_mutex_lock(&w->lock);
		n = w->abort;
		pthread_mutex_unlock(&w->lock);
		if (n)
			return tm_err_set(e, ECANCELED, "stopping before tipmed answered");
	}
	return 0;
}

static int request_fd(struct tl_worker *w, int fd, const char *line,
		      const void *data, size_t len, char *reply, size_t rlen,
		      struct tm_err *e)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	uint64_t deadline = xh_now_ns() + TL_REQUEST_MS * 1000000ULL;
	const char *parts[3] = { line, "\n", data };
	size_t sizes[3] = { strlen(line), 1, data ? len : 0 }, got = 0, i;
	uint64_t now;
	int err;

	if (strlen(w->sock) >= sizeof(sa.sun_path))
		return tm_err_set(e, ENAMETOOLONG, "%s: path too long", w->sock);
	strcpy(sa.sun_path, w->sock);
	/* a Unix socket connects at once, or EAGAIN while the backlog is full */
	while (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = errno;
		if (err == ENOENT || err == ECONNREFUSED)
			return tm_err_set(e, err, "%s: tipmed is not running (%s)",
					  w->sock, strerror(err));
		if (err == EACCES)
			return tm_err_set(e, err, "%s: permission denied (join the '%s' group)",
					  w->sock, TIPME_CTL_GROUP);
		if (err != EAGAIN && err != EINTR)
			return tm_err_set(e, err, "%s: %s", w->sock, strerror(err));
		/* a full backlog wakes no poll: try again every 100 ms */
		now = xh_now_ns();
		if (now >= deadline)
			return tm_err_set(e, ETIMEDOUT, "%s: tipmed accepts no connection",
					  w->sock);
		err = wait_fd(w, -1, 0, now + 100000000ULL < deadline ?
			      now + 100000000ULL : deadline, e);
		if (err)
			return err;
	}
	for (i = 0; i < 3; i++) {
		const char *p = parts[i];
		size_t left = sizes[i];

		while (left) {
			ssize_t n = send(fd, p, left, MSG_NOSIGNAL);

			if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
				err = wait_fd(w, fd, POLLOUT, deadline, e);
				if (err)
					return err;
				continue;
			}
			if (n < 0)
				return tm_err_set(e, errno, "%s: write: %s", w->sock,
						  strerror(errno));
			p += n;
			left -= (size_t)n;
		}
	}
	for (;;) {
		ssize_t n = recv(fd, reply + got, 1, 0);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			err = wait_fd(w, fd, POLLIN, deadline, e);
			if (err)
				return err;
			continue;
		}
		if (n <= 0 || reply[got] == '\n' || got + 2 >= rlen)
			break;
		got++;
	}
	reply[got] = '\0';
	return tm_ctlc_parse_reply(reply, e);
}

static int request(struct tl_worker *w, const char *line, const void *data,
		   size_t len, char *reply, size_t rlen, struct tm_err *e)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int err;

	if (fd < 0)
		return tm_err_set(e, errno, "socket: %s", strerror(errno));
	err = request_fd(w, fd, line, data, len, reply, rlen, e);
	close(fd);
	if (err == -ECANCELED) {
		pthread_mutex_lock(&w->lock);
		w->aborted++;
		pthread_mutex_unlock(&w->lock);
	}
	return err;
}

static void write_local(struct tl_worker *w, const void *buf, size_t len,
			const char *file)
{
	int err = xh_write_atomic(w->dir, file, buf, len);

	if (err)
		fprintf(stderr, "tipme-xhook: cannot write %s/%s: %s\n", w->dir,
			file, strerror(-err));
	else
		fprintf(stderr, "tipme-xhook: wrote %s/%s\n", w->dir, file);
}

static void run(struct tl_worker *w, struct tl_job *j)
{
	struct tm_err e = { "" };
	char reply[256] = "", line[512];
	uint64_t v;
	int err;

	switch (j->kind) {
	case TL_TRIGGER:
		j->err = request(w, j->line, NULL, 0, reply, sizeof(reply), &e);
		if (!j->err) {
			if (tm_ctlc_reply_u64(reply, "seq", &v) || !v || v > UINT32_MAX) {
				j->err = tm_err_set(&e, EPROTO,
						    "tipmed: unexpected reply '%s'", reply);
			} else {
				j->seq = (uint32_t)v;
				j->coalesced = !tm_ctlc_reply_u64(reply, "coalesced", &v) && v;
			}
		}
		snprintf(j->msg, sizeof(j->msg), "%s", e.msg);
		break;
	case TL_PUT:
	case TL_LOCAL:
		err = tm_xdump_build(&j->snap, &j->buf, &j->len);
		xh_snapshot_free(&j->snap);
		if (err) {
			fprintf(stderr, "tipme-xhook: dump: %s\n", strerror(-err));
			break;
		}
		if (j->kind == TL_LOCAL) {
			write_local(w, j->buf, j->len, j->file);
			break;
		}
		snprintf(line, sizeof(line), "PUT %s %s %zu", j->incident,
			 TL_XDUMP_NAME, j->len);
		err = request(w, line, j->buf, j->len, reply, sizeof(reply), &e);
		if (err) {
			fprintf(stderr, "tipme-xhook: incident %s: tipmed did not take %s (%s); writing it here instead\n",
				j->incident, TL_XDUMP_NAME, e.msg);
			write_local(w, j->buf, j->len, j->file);
		} else {
			fprintf(stderr, "tipme-xhook: incident %s: stored %s (%zu bytes)\n",
				j->incident, TL_XDUMP_NAME, j->len);
		}
		break;
	case TL_NOTE:
		err = request(w, j->line, NULL, 0, reply, sizeof(reply), &e);
		if (err)
			fprintf(stderr, "tipme-xhook: incident %s: the description was not saved (%s): %s\n",
				j->incident, e.msg, strchr(j->line + 5, ' ') + 1);
		else
			fprintf(stderr, "tipme-xhook: incident %s: description saved\n",
				j->incident);
		break;
	}
	free(j->buf);
	j->buf = NULL;
}

static void *worker_main(void *arg)
{
	struct tl_worker *w = arg;
	uint64_t one = 1;
	struct tl_job *j;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->head && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->head)
			break;
		j = w->head;
		w->head = j->next;
		if (!w->head)
			w->tail = NULL;
		j->next = NULL;
		w->cur = j;
		pthread_mutex_unlock(&w->lock);

		run(w, j);

		pthread_mutex_lock(&w->lock);
		w->cur = NULL;
		w->queued--;
		if (j->kind == TL_TRIGGER) {
			if (w->done_tail)
				w->done_tail->next = j;
			else
				w->done = j;
			w->done_tail = j;
			if (w->notify_fd >= 0 &&
			    write(w->notify_fd, &one, sizeof(one)) < 0)
				(void)0;	/* the counter is full: main is awake */
		} else {
			free(j);
		}
		pthread_cond_broadcast(&w->cond);
	}
	w->exited = 1;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int tl_worker_start(struct tl_worker *w)
{
	int err;

	w->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->wake_fd < 0)
		return -errno;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	err = pthread_create(&w->thr, NULL, worker_main, w);
	if (err) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		close(w->wake_fd);
		return -err;
	}
	w->started = 1;
	return 0;
}

void tl_submit(struct tl_worker *w, struct tl_job *j)
{
	j->next = NULL;
	pthread_mutex_lock(&w->lock);
	if (w->tail)
		w->tail->next = j;
	else
		w->head = j;
	w->tail = j;
	w->queued++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

unsigned tl_queued(struct tl_worker *w)
{
	unsigned n;

	pthread_mutex_lock(&w->lock);
	n = w->queued;
	pthread_mutex_unlock(&w->lock);
	return n;
}

struct tl_job *tl_done(struct tl_worker *w)
{
	struct tl_job *j;

	pthread_mutex_lock(&w->lock);
	j = w->done;
	if (j) {
		w->done = j->next;
		if (!w->done)
			w->done_tail = NULL;
		j->next = NULL;
	}
	pthread_mutex_unlock(&w->lock);
	return j;
}

unsigned tl_worker_stop(struct tl_worker *w, unsigned ms)
{
	struct tl_job *j, *next;
	struct timespec ts;
	uint64_t one = 1;
	unsigned aborted;

	if (!w->started)
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_broadcast(&w->cond);
	while (!w->exited)
		if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) == ETIMEDOUT)
			break;
	if (!w->exited) {
		/* stuck in tipmed: the rest of the queue runs without it */
		w->abort = 1;
		if (write(w->wake_fd, &one, sizeof(one)) < 0)
			(void)0;
	}
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thr, NULL);
	for (j = w->done; j; j = next) {
		next = j->next;
		free(j);
	}
	w->done = w->done_tail = NULL;
	aborted = w->aborted;
	close(w->wake_fd);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	w->started = 0;
	return aborted;
}
