// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: snapshot the ring for an X dump (lib/xdump_write.c lays it
 * out), and write files atomically.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "xhook.h"

/**
 * xh_snapshot_take() - copy the ring, the clients and the clocks
 * @st: state, lock NOT held (taken for the copy only)
 * @s: zeroed snapshot; on success free it with xh_snapshot_free()
 *
 * Return: 0 or -ENOMEM.
 */
int xh_snapshot_take(struct xh_state *st, struct tm_xdump_content *s)
{
	uint64_t n, first, i;
	uint32_t nc;

	/* allocate at the largest size first: no allocation under the lock */
	s->recs = malloc(st->cap * sizeof(*s->recs));
	s->clocks = malloc(XH_CLOCK_PAIRS * sizeof(*s->clocks));
	if (!s->recs || !s->clocks)
		goto nomem;
	pthread_mutex_lock(&st->lock);
	s->cl = malloc((st->ncl ? st->ncl : 1) * sizeof(*s->cl));
	if (!s->cl) {
		pthread_mutex_unlock(&st->lock);
		goto nomem;
	}
	n = st->head < st->cap ? st->head : st->cap;
	first = st->head - n;
	i = first % st->cap;
	if (i + n <= st->cap) {
		memcpy(s->recs, &st->ring[i], n * sizeof(*s->recs));
	} else {
		memcpy(s->recs, &st->ring[i], (st->cap - i) * sizeof(*s->recs));
		memcpy(s->recs + (st->cap - i), st->ring,
		       (n - (st->cap - i)) * sizeof(*s->recs));
	}
	s->nrecs = n;
	memcpy(s->cl, st->cl, st->ncl * sizeof(*s->cl));
	s->ncl = st->ncl;
	nc = st->nclocks < XH_CLOCK_PAIRS ? (uint32_t)st->nclocks : XH_CLOCK_PAIRS;
	for (i = 0; i < nc; i++)
		s->clocks[i] = st->clocks[(st->nclocks - nc + i) % XH_CLOCK_PAIRS];
	s->nclocks = nc;
	s->stats = st->stats;
	if (st->keylog_ever)
		s->flags |= TIPME_X11_FILE_KEYLOG;
	if (st->head > st->cap)
		s->flags |= TIPME_X11_FILE_WRAPPED;
	pthread_mutex_unlock(&st->lock);
#if !defined(__x86_64__) && !defined(__i386__)
	s->flags |= TIPME_X11_FILE_NO_TSC;
#endif
	return 0;
nomem:
	xh_snapshot_free(s);
	return -ENOMEM;
}

void xh_snapshot_free(struct tm_xdump_content *s)
{
	free(s->recs);
	free(s->cl);
	free(s->clocks);
	s->recs = NULL;
	s->cl = NULL;
	s->clocks = NULL;
}

/**
 * xh_write_atomic() - write a file so that readers see all of it or nothing
 * @dir: target directory
 * @name: file name in @dir
 * @buf: contents
 * @len: bytes
 *
 * Writes a mode-0600 temporary file in @dir, fsyncs it, renames it over
 * @name and fsyncs the directory.
 *
 * Return: 0 or a negative errno.
 */
int xh_write_atomic(const char *dir, const char *name, const void *buf,
		    size_t len)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	const uint8_t *p = buf;
	size_t done = 0;
	int fd, dfd, err = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >= sizeof(tmp) ||
	    (size_t)snprintf(dst, sizeof(dst), "%s/%s", dir, name) >= sizeof(dst))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);	/* mode 0600 */
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) < 0)
		err = -errno;
	while (!err && done < len) {
		ssize_t n = write(fd, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		else
			done += (size_t)n;
	}
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, dst) < 0)
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (fsync(dfd) < 0)
			err = -errno;
		close(dfd);
	}
	return err;
}
