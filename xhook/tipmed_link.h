/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipme-xhook's link to tipmed's control socket (lib/ctlproto.h).
 *
 *  - struct tl_sub: the SUBSCRIBE connection, non-blocking, read by the
 *    main thread from its poll loop ("TRIGGERED seq=N mono_ns=T" and
 *    "INCIDENT seq=N name=NAME" lines);
 *  - struct tl_worker: one thread for the requests that wait for tipmed's
 *    answer (TRIGGER, PUT, NOTE) and for building and writing dumps, so
 *    that neither the main thread (fences, PID queries) nor the data thread
 *    ever waits for tipmed or for the disk.
 */
#ifndef TIPME_XHOOK_TIPMED_LINK_H
#define TIPME_XHOOK_TIPMED_LINK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "ctlproto.h"
#include "incident_path.h"
#include "xhook.h"

#define TL_XDUMP_NAME	TIPME_INCIDENT_X_DUMP	/* the file's name in an incident */
#define TL_REQUEST_MS	60000		/* a request tipmed does not answer fails */

/* ---- the SUBSCRIBE connection (main thread only) ----------------------- */

struct tl_sub {
	int fd;			/* -1: not connected */
	int subscribed;		/* tipmed answered "OK" */
	size_t len;
	char line[TIPME_CTL_LINE_MAX];
};

void tl_sub_init(struct tl_sub *s);

/**
 * tl_sub_connect() - connect and send SUBSCRIBE, without blocking
 * @s: closed connection
 * @path: socket path
 * @e: why not
 *
 * tipmed's "OK" comes later, through tl_sub_read().
 *
 * Return: 0 or a negative errno.
 */
int tl_sub_connect(struct tl_sub *s, const char *path, struct tm_err *e);

/**
 * tl_sub_read() - read what arrived and hand over each complete line
 * @s: connection
 * @fn: called for every line (without newline) after tipmed's "OK"
 * @arg: for @fn
 * @e: why the connection ended
 *
 * Return: 0 (more later), or a negative errno once the connection is over
 * (-EPIPE: tipmed closed it; -EACCES etc.: tipmed refused SUBSCRIBE); the
 * caller then calls tl_sub_close().
 */
int tl_sub_read(struct tl_sub *s, void (*fn)(void *arg, const char *line),
		void *arg, struct tm_err *e);
void tl_sub_close(struct tl_sub *s);

/* The lines themselves: tm_ctl_parse_triggered(), tm_ctl_parse_incident(). */

/* ---- the worker thread ------------------------------------------------- */

enum tl_kind {
	TL_TRIGGER,	/* send @line, parse "OK seq=N coalesced=C"; back to main */
	TL_PUT,		/* build @snap, PUT it into @incident; else write @file */
	TL_NOTE,	/* send @line (NOTE incident text) */
	TL_LOCAL,	/* build @snap and write it to @dir/@file */
};

struct tl_job {
	struct tl_job *next;
	enum tl_kind kind;
	char line[TIPME_CTL_LINE_MAX];
	struct tm_xdump_content snap;	/* PUT, LOCAL: owned by the job */
	uint8_t *buf;			/* the dump built from it */
	size_t len;
	char incident[128];
	char file[128];			/* name in the output directory */
	/* TRIGGER: what the main thread needs to act on the answer */
	uint32_t cause;
	uint64_t t_ns;
	int err;			/* 0 or a negative errno */
	uint32_t seq;
	int coalesced;
	char msg[TM_ERR_LEN];
};

struct tl_worker {
	const char *sock;	/* tipmed's socket */
	const char *dir;	/* where dumps go when tipmed does not take them */
	int notify_fd;		/* eventfd: a TRIGGER job is done */
	int verbose;

	pthread_t thr;
	int wake_fd;		/* eventfd: abort the request in progress */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct tl_job *head, *tail;	/* to do */
	struct tl_job *done, *done_tail; /* finished TRIGGER jobs */
	struct tl_job *cur;		/* being run */
	unsigned queued;		/* to do + being run */
	int started, stop, exited, abort;
	unsigned aborted;	/* requests cut short by tl_worker_stop() */
};

/**
 * tl_worker_start() - start the thread
 * @w: sock, dir, notify_fd and verbose set, the rest zero
 *
 * Return: 0 or a negative errno.
 */
int tl_worker_start(struct tl_worker *w);

/* Queue @j (allocated with calloc; the worker frees it or hands it back). */
void tl_submit(struct tl_worker *w, struct tl_job *j);

/* Jobs queued or running. */
unsigned tl_queued(struct tl_worker *w);

/* A finished TRIGGER job, or NULL; the caller frees it. */
struct tl_job *tl_done(struct tl_worker *w);

/**
 * tl_worker_stop() - finish the queue, then stop the thread
 * @w: worker
 * @ms: how long to wait for tipmed; then the request in progress and those
 *      still queued fail at once (dumps are written to @dir instead)
 *
 * Return: the number of requests cut short.
 */
unsigned tl_worker_stop(struct tl_worker *w, unsigned ms);

#endif
