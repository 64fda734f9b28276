// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: snapshot the ring and write an X dump.
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
#include "xdump_read.h"

/* the sizes tipme_x11.h promises */
_Static_assert(sizeof(struct tipme_x11_header) == 64, "tipme_x11_header");
_Static_assert(sizeof(struct tipme_x11_rec) == 48, "tipme_x11_rec");
_Static_assert(sizeof(struct tipme_x11_client) == 64, "tipme_x11_client");
_Static_assert(sizeof(struct tipme_x11_ext) == 32, "tipme_x11_ext");
_Static_assert(sizeof(struct tipme_x11_array) == 16, "tipme_x11_array");
_Static_assert(sizeof(struct tipme_x11_stats) % 8 == 0, "tipme_x11_stats");

/**
 * xh_snapshot_take() - copy the ring, the clients and the clocks
 * @st: state, lock NOT held (taken for the copy only)
 * @s: zeroed snapshot; on success free it with xh_snapshot_free()
 *
 * Return: 0 or -ENOMEM.
 */
int xh_snapshot_take(struct xh_state *st, struct xh_snapshot *s)
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

void xh_snapshot_free(struct xh_snapshot *s)
{
	free(s->recs);
	free(s->cl);
	free(s->clocks);
	s->recs = NULL;
	s->cl = NULL;
	s->clocks = NULL;
}

struct sec {
	uint32_t type;
	const void *head;	/* struct tipme_x11_array or NULL */
	size_t head_len;
	const void *data;
	size_t len;
};

/**
 * xh_dump_build() - lay out an X dump in memory
 * @s: what to write
 * @buf: set to a malloc'ed buffer
 * @len: set to its size
 *
 * Return: 0 or -ENOMEM.
 */
int xh_dump_build(const struct xh_snapshot *s, uint8_t **buf, size_t *len)
{
	struct tipme_x11_array arr[4];
	struct sec secs[8];
	struct tipme_x11_header h;
	unsigned ns = 0, i;
	size_t total, off;
	uint8_t *p;

	memset(arr, 0, sizeof(arr));
	arr[0].entry_size = sizeof(struct tipme_x11_rec);
	arr[0].count = (uint32_t)s->nrecs;
	secs[ns++] = (struct sec){ TIPME_X11_SEC_RECORDS, &arr[0], sizeof(arr[0]),
				   s->recs, s->nrecs * sizeof(*s->recs) };
	arr[1].entry_size = sizeof(struct tipme_x11_client);
	arr[1].count = s->ncl;
	secs[ns++] = (struct sec){ TIPME_X11_SEC_CLIENTS, &arr[1], sizeof(arr[1]),
				   s->cl, s->ncl * sizeof(*s->cl) };
	arr[2].entry_size = sizeof(struct tipme_clock_pair);
	arr[2].count = s->nclocks;
	secs[ns++] = (struct sec){ TIPME_X11_SEC_CLOCKS, &arr[2], sizeof(arr[2]),
				   s->clocks, s->nclocks * sizeof(*s->clocks) };
	secs[ns++] = (struct sec){ TIPME_X11_SEC_STATS, NULL, 0, &s->stats,
				   sizeof(s->stats) };
	arr[3].entry_size = sizeof(struct tipme_x11_ext);
	arr[3].count = s->nexts;
	secs[ns++] = (struct sec){ TIPME_X11_SEC_EXTENSIONS, &arr[3], sizeof(arr[3]),
				   s->exts, s->nexts * sizeof(struct tipme_x11_ext) };
	if (s->system)
		secs[ns++] = (struct sec){ TIPME_X11_SEC_SYSTEM, NULL, 0, s->system,
					   strlen(s->system) };
	if (s->description)
		secs[ns++] = (struct sec){ TIPME_X11_SEC_DESCRIPTION, NULL, 0,
					   s->description, strlen(s->description) };

	total = sizeof(h);
	for (i = 0; i < ns; i++)
		total += sizeof(struct tipme_section) +
			 ((secs[i].head_len + secs[i].len + 7) & ~(size_t)7);
	p = calloc(1, total);
	if (!p)
		return -ENOMEM;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, TIPME_X11_MAGIC, 8);
	h.version = TIPME_X11_VERSION;
	h.header_size = sizeof(h);
	h.byte_order = TIPME_BYTE_ORDER_MARK;
	h.flags = s->flags;
	h.nr_sections = ns;
	h.trigger = s->trigger;
	h.file_size = total;
	h.created_real_ns = s->real_ns;
	h.trigger_mono_ns = s->trigger_ns;
	memcpy(p, &h, sizeof(h));
	off = sizeof(h);
	for (i = 0; i < ns; i++) {
		struct tipme_section sh;
		size_t plen = secs[i].head_len + secs[i].len;

		memset(&sh, 0, sizeof(sh));
		sh.type = secs[i].type;
		sh.size = plen;
		if (secs[i].head_len)
			memcpy(p + off + sizeof(sh), secs[i].head, secs[i].head_len);
		if (secs[i].len)
			memcpy(p + off + sizeof(sh) + secs[i].head_len, secs[i].data,
			       secs[i].len);
		sh.crc32 = xdump_crc32(0, p + off + sizeof(sh), plen);
		memcpy(p + off, &sh, sizeof(sh));
		off += sizeof(sh) + ((plen + 7) & ~(size_t)7);
	}
	*buf = p;
	*len = total;
	return 0;
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
