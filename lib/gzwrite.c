// SPDX-License-Identifier: GPL-2.0
/*
 * A gzip-compressing stream (see gzwrite.h): the caller's writes fill one
 * of two buffers while a thread deflates the other into the output, so
 * that on two CPUs the compression costs little more wall time than the
 * writing.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gzwrite.h"

#define GZ_BUF	(1u << 20)	/* what the caller fills before handing it over */
#define GZ_OUT	(256u << 10)	/* compressed bytes written to the output at once */

struct gz {
	FILE *out;
	z_stream z;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned char *buf[2];
	size_t len[2];
	int full[2];		/* handed to the thread, not yet compressed */
	int cur;		/* the buffer the caller fills */
	int done;		/* the caller closed the stream */
	int err;		/* an errno: compressing or writing failed */
	unsigned char *zout;
};

/* Deflate @len bytes of @p (@flush: Z_NO_FLUSH or Z_FINISH) into the output. */
static int squeeze(struct gz *g, unsigned char *p, size_t len, int flush)
{
	int r;

	g->z.next_in = p;
	g->z.avail_in = (uInt)len;
	do {
		size_t have;

		g->z.next_out = g->zout;
		g->z.avail_out = GZ_OUT;
		r = deflate(&g->z, flush);
		if (r == Z_STREAM_ERROR)
			return EINVAL;
		have = GZ_OUT - g->z.avail_out;
		if (have && fwrite(g->zout, 1, have, g->out) != have)
			return errno ? errno : EIO;
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
	return 0;
}

/* The thread: each buffer in the order they were handed over, then the trailer. */
static void *compressor(void *arg)
{
	struct gz *g = arg;
	int i = 0, err = 0;

	for (;;) {
		pthread_mutex_lock(&g->mu);
		while (!g->full[i] && !g->done)
			pthread_cond_wait(&g->cv, &g->mu);
		if (!g->full[i]) {	/* done, and every buffer handed over compressed */
			pthread_mutex_unlock(&g->mu);
			break;
		}
		pthread_mutex_unlock(&g->mu);
		if (!err)
			err = squeeze(g, g->buf[i], g->len[i], Z_NO_FLUSH);
		pthread_mutex_lock(&g->mu);
		g->full[i] = 0;
		g->len[i] = 0;
		if (err)
			g->err = err;
		pthread_cond_broadcast(&g->cv);
		pthread_mutex_unlock(&g->mu);
		i ^= 1;
	}
	if (!err)
		err = squeeze(g, NULL, 0, Z_FINISH);
	pthread_mutex_lock(&g->mu);
	if (err)
		g->err = err;
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

/* Hand the caller's buffer to the thread and wait for the other to be free. */
static int hand_over(struct gz *g)
{
	int err;

	pthread_mutex_lock(&g->mu);
	g->full[g->cur] = 1;
	pthread_cond_broadcast(&g->cv);
	g->cur ^= 1;
	while (g->full[g->cur])
		pthread_cond_wait(&g->cv, &g->mu);
	err = g->err;
	pthread_mutex_unlock(&g->mu);
	return err;
}

static ssize_t gz_write(void *cookie, const char *p, size_t n)
{
	struct gz *g = cookie;
	size_t done = 0;

	while (done < n) {
		size_t k = GZ_BUF - g->len[g->cur];

		if (k > n - done)
			k = n - done;
		memcpy(g->buf[g->cur] + g->len[g->cur], p + done, k);
		g->len[g->cur] += k;
		done += k;
		if (g->len[g->cur] == GZ_BUF) {
			int err = hand_over(g);

			if (err) {
				errno = err;
				return 0;
			}
		}
	}
	return (ssize_t)n;
}

static void gz_free(struct gz *g)
{
	free(g->buf[0]);
	free(g->buf[1]);
	free(g->zout);
	free(g);
}

static int gz_close(void *cookie)
{
	struct gz *g = cookie;
	int err;

	pthread_mutex_lock(&g->mu);
	if (g->len[g->cur])
		g->full[g->cur] = 1;
	g->done = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	pthread_join(g->th, NULL);
	err = g->err;
	deflateEnd(&g->z);
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	gz_free(g);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

FILE *tm_gz_open(FILE *out, int level)
{
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	struct gz *g = calloc(1, sizeof(*g));
	FILE *f;
	int err;

	if (!g)
		return NULL;
	g->out = out;
	g->buf[0] = malloc(GZ_BUF);
	g->buf[1] = malloc(GZ_BUF);
	g->zout = malloc(GZ_OUT);
	/* 15 + 16: a window of 32 KiB, written as gzip (header and trailer) */
	if (!g->buf[0] || !g->buf[1] || !g->zout ||
	    deflateInit2(&g->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		gz_free(g);
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	err = pthread_create(&g->th, NULL, compressor, g);
	if (err) {
		deflateEnd(&g->z);
		pthread_cond_destroy(&g->cv);
		pthread_mutex_destroy(&g->mu);
		gz_free(g);
		errno = err;
		return NULL;
	}
	f = fopencookie(g, "w", io);
	if (!f) {
		gz_close(g);
		errno = ENOMEM;
	}
	return f;
}
