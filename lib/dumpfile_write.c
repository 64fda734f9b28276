// SPDX-License-Identifier: GPL-2.0
/*
 * Dump file writer: temp file + rename, so a dump is either complete under
 * its final name or absent.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "crc32.h"
#include "dumpfile.h"

#define DUMPW_BUF_SIZE	(256 * 1024)
#define DUMPW_DIRECT	(32 * 1024)	/* appends this long skip the buffer */

enum { DUMPW_NONE, DUMPW_OPEN, DUMPW_DONE, DUMPW_FAILED };

static void release(struct tm_dumpw *w)
{
	if (w->fd >= 0)
		close(w->fd);
	if (w->dirfd >= 0)
		close(w->dirfd);
	w->fd = w->dirfd = -1;
	free(w->tmpname);
	free(w->finalname);
	free(w->buf);
	w->tmpname = w->finalname = NULL;
	w->buf = NULL;
}

/* Undo everything after an error; later calls return @err. */
static int fail(struct tm_dumpw *w, int err)
{
	if (w->state == DUMPW_OPEN && w->tmpname && w->dirfd >= 0)
		unlinkat(w->dirfd, w->tmpname, 0);
	release(w);
	w->state = DUMPW_FAILED;
	w->err = err;
	return err;
}

static int check_open(struct tm_dumpw *w, struct tm_err *e)
{
	if (w->state == DUMPW_OPEN)
		return 0;
	if (w->state == DUMPW_FAILED)
		return tm_err_set(e, -w->err, "dump writer already failed: %s",
				  strerror(-w->err));
	return tm_err_set(e, EINVAL, "dump writer is not open");
}

/* Write @iov[0..n) at @off, resuming after short writes. */
static int pwritev_all(int fd, const struct iovec *iov, int n, uint64_t off)
{
	struct iovec cur[64];
	size_t skip = 0;	/* bytes of iov[i] already written */
	int i = 0, k;
	ssize_t got;

	for (;;) {
		while (i < n && iov[i].iov_len == skip) {
			i++;
			skip = 0;
		}
		if (i == n)
			return 0;
		for (k = 0; k < 64 && i + k < n; k++)
			cur[k] = iov[i + k];
		cur[0].iov_base = (char *)cur[0].iov_base + skip;
		cur[0].iov_len -= skip;
		got = pwritev(fd, cur, k, (off_t)off);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (got == 0)
			return -ENOSPC;
		off += (uint64_t)got;
		while ((size_t)got >= iov[i].iov_len - skip) {
			got -= (ssize_t)(iov[i].iov_len - skip);
			skip = 0;
			if (++i == n)
				return 0;
		}
		skip += (size_t)got;
	}
}

static int pwrite_all(int fd, const void *data, size_t len, uint64_t off)
{
	struct iovec one = { (void *)data, len };

	return pwritev_all(fd, &one, 1, off);
}

static int io_error(struct tm_dumpw *w, int err, const char *what,
		    struct tm_err *e)
{
	tm_err_set(e, -err, "%s %s: %s", what,
		   w->tmpname ? w->tmpname : "dump", strerror(-err));
	return fail(w, err);
}

static int flush(struct tm_dumpw *w, struct tm_err *e)
{
	int err;

	if (!w->buf_len)
		return 0;
	err = pwrite_all(w->fd, w->buf, w->buf_len, w->buf_off);
	if (err)
		return io_error(w, err, "writing", e);
	w->buf_off += w->buf_len;
	w->buf_len = 0;
	return 0;
}

/* Append raw bytes (no CRC) at the end of the file. */
static int emit(struct tm_dumpw *w, const void *data, size_t len,
		struct tm_err *e)
{
	const unsigned char *p = data;
	size_t n;
	int err;

	if (len > UINT64_MAX - w->off) {
		tm_err_set(e, EFBIG, "dump too large");
		return fail(w, -EFBIG);
	}
	if (len >= DUMPW_DIRECT) {
		/* Large: straight from the caller's bytes, not copied first. */
		err = flush(w, e);
		if (err)
			return err;
		err = pwrite_all(w->fd, p, len, w->buf_off);
		if (err)
			return io_error(w, err, "writing", e);
		w->buf_off += len;
		w->off += len;
		return 0;
	}
	while (len) {
		if (w->buf_len == DUMPW_BUF_SIZE) {
			err = flush(w, e);
			if (err)
				return err;
		}
		n = DUMPW_BUF_SIZE - w->buf_len;
		if (n > len)
			n = len;
		memcpy(w->buf + w->buf_len, p, n);
		w->buf_len += n;
		w->off += n;
		p += n;
		len -= n;
	}
	return 0;
}

static int split_path(struct tm_dumpw *w, const char *path, char **dir,
		      struct tm_err *e)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return tm_err_set(e, EISDIR, "%s: not a file name", path);
	if (!slash)
		*dir = strdup(".");
	else if (slash == path)
		*dir = strdup("/");
	else
		*dir = strndup(path, (size_t)(slash - path));
	w->finalname = strdup(base);
	if (!*dir || !w->finalname)
		return tm_err_set(e, ENOMEM, "out of memory");
	return 0;
}

int tm_dumpw_open(struct tm_dumpw *w, const char *path,
	       const struct tipme_file_header *hdr, unsigned int flags,
	       struct tm_err *e)
{
	static const unsigned char zero_hdr[sizeof(struct tipme_file_header)];
	static unsigned int counter;
	struct timespec now;
	char *dir = NULL;
	size_t tlen;
	int err, i;

	memset(w, 0, sizeof(*w));
	w->fd = w->dirfd = -1;
	w->state = DUMPW_FAILED;
	w->flags = flags;
	w->err = -EINVAL;

	err = split_path(w, path, &dir, e);
	if (err)
		goto out_fail;
	w->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->dirfd < 0) {
		err = tm_err_set(e, errno, "%s: %s", dir, strerror(errno));
		goto out_fail;
	}
	w->buf = malloc(DUMPW_BUF_SIZE);
	tlen = strlen(w->finalname) + 40;
	w->tmpname = malloc(tlen);
	if (!w->buf || !w->tmpname) {
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out_fail;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	for (i = 0; i < 100; i++) {
		snprintf(w->tmpname, tlen, ".%s.tmp-%d-%x%lx", w->finalname,
			 (int)getpid(), counter++, (unsigned long)now.tv_nsec + (unsigned long)i);
		w->fd = openat(w->dirfd, w->tmpname,
			       O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (w->fd >= 0 || errno != EEXIST)
			break;
	}
	if (w->fd < 0) {
		err = tm_err_set(e, errno, "creating a temporary file in %s: %s",
				 dir, strerror(errno));
		goto out_fail;
	}
	free(dir);
	dir = NULL;
	w->state = DUMPW_OPEN;
	w->err = 0;

	w->hdr = *hdr;
	memcpy(w->hdr.magic, TIPME_FILE_MAGIC, sizeof(w->hdr.magic));
	w->hdr.version = TIPME_FILE_VERSION;
	w->hdr.header_size = sizeof(struct tipme_file_header);
	w->hdr.byte_order = TIPME_BYTE_ORDER_MARK;
	w->hdr.nr_sections = 0;
	w->hdr.header_crc32 = 0;
	w->hdr.file_size = 0;
	w->hdr.reserved = 0;
	if (!w->hdr.created_real_ns) {
		clock_gettime(CLOCK_REALTIME, &now);
		w->hdr.created_real_ns = (uint64_t)now.tv_sec * 1000000000ULL +
					 (uint64_t)now.tv_nsec;
	}
	/* The real header is written last, by tm_dumpw_commit(). */
	return emit(w, zero_hdr, sizeof(zero_hdr), e);

out_fail:
	free(dir);
	return fail(w, err);
}

int tm_dumpw_section_begin(struct tm_dumpw *w, uint32_t type, uint32_t cpu,
			struct tm_err *e)
{
	static const struct tipme_section zero_sec;
	int err = check_open(w, e);

	if (err)
		return err;
	if (w->in_section)
		return fail(w, tm_err_set(e, EINVAL, "section %u still open",
					  w->nr_sections));
	memset(&w->sec, 0, sizeof(w->sec));
	w->sec.type = type;
	w->sec.cpu = cpu;
	w->sec_hdr_off = w->off;
	w->in_section = 1;
	return emit(w, &zero_sec, sizeof(zero_sec), e);
}

int tm_dumpw_section_append(struct tm_dumpw *w, const void *data, size_t len,
			 struct tm_err *e)
{
	int err = check_open(w, e);

	if (err)
		return err;
	if (!w->in_section)
		return fail(w, tm_err_set(e, EINVAL, "no section open"));
	w->sec.crc32 = tm_crc32(w->sec.crc32, data, len);
	w->sec.size += len;
	return emit(w, data, len, e);
}

int tm_dumpw_section_appendv(struct tm_dumpw *w, const struct iovec *iov, int n,
			  struct tm_err *e)
{
	uint64_t len = 0;
	int err = check_open(w, e);
	int i;

	if (err)
		return err;
	if (!w->in_section)
		return fail(w, tm_err_set(e, EINVAL, "no section open"));
	for (i = 0; i < n; i++) {
		if (iov[i].iov_len > UINT64_MAX - w->off - len) {
			tm_err_set(e, EFBIG, "dump too large");
			return fail(w, -EFBIG);
		}
		len += iov[i].iov_len;
	}
	err = flush(w, e);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		w->sec.crc32 = tm_crc32(w->sec.crc32, iov[i].iov_base,
					iov[i].iov_len);
	err = pwritev_all(w->fd, iov, n, w->buf_off);
	if (err)
		return io_error(w, err, "writing", e);
	w->sec.size += len;
	w->buf_off += len;
	w->off += len;
	return 0;
}

void tm_dumpw_section_mark(const struct tm_dumpw *w, struct tm_dumpw_mark *m)
{
	m->off = w->off;
	m->size = w->sec.size;
	m->crc32 = w->sec.crc32;
}

int tm_dumpw_section_rewind(struct tm_dumpw *w, const struct tm_dumpw_mark *m,
			 struct tm_err *e)
{
	int err = check_open(w, e);

	if (err)
		return err;
	if (!w->in_section || m->off > w->off ||
	    m->off < w->sec_hdr_off + sizeof(w->sec) ||
	    m->size > w->sec.size ||
	    m->off - m->size != w->sec_hdr_off + sizeof(w->sec))
		return fail(w, tm_err_set(e, EINVAL, "rewinding to a mark outside the open section"));
	if (m->off >= w->buf_off) {
		/* only buffered bytes follow the mark */
		w->buf_len = (size_t)(m->off - w->buf_off);
	} else {
		w->buf_len = 0;
		w->buf_off = m->off;
		if (ftruncate(w->fd, (off_t)m->off))
			return io_error(w, -errno, "truncating", e);
	}
	w->off = m->off;
	w->sec.size = m->size;
	w->sec.crc32 = m->crc32;
	return 0;
}

int tm_dumpw_section_end(struct tm_dumpw *w, struct tm_err *e)
{
	static const unsigned char zeros[8];
	size_t pad;
	int err = check_open(w, e);

	if (err)
		return err;
	if (!w->in_section)
		return fail(w, tm_err_set(e, EINVAL, "no section open"));
	pad = (size_t)(-w->sec.size & 7);
	err = emit(w, zeros, pad, e);
	if (err)
		return err;
	if (w->sec_hdr_off >= w->buf_off) {
		/* header still in the buffer: patch it there */
		memcpy(w->buf + (w->sec_hdr_off - w->buf_off), &w->sec,
		       sizeof(w->sec));
	} else {
		err = pwrite_all(w->fd, &w->sec, sizeof(w->sec), w->sec_hdr_off);
		if (err)
			return io_error(w, err, "writing", e);
	}
	w->in_section = 0;
	w->nr_sections++;
	return 0;
}

int tm_dumpw_section(struct tm_dumpw *w, uint32_t type, uint32_t cpu,
		  const void *data, size_t len, struct tm_err *e)
{
	int err;

	err = tm_dumpw_section_begin(w, type, cpu, e);
	if (!err)
		err = tm_dumpw_section_append(w, data, len, e);
	if (!err)
		err = tm_dumpw_section_end(w, e);
	return err;
}

static int rename_final(struct tm_dumpw *w)
{
	if (!(w->flags & TM_DUMPW_NOREPLACE))
		return renameat(w->dirfd, w->tmpname, w->dirfd, w->finalname);
	if (!renameat2(w->dirfd, w->tmpname, w->dirfd, w->finalname,
		       RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* file system without RENAME_NOREPLACE: link() never replaces */
	if (linkat(w->dirfd, w->tmpname, w->dirfd, w->finalname, 0))
		return -1;
	unlinkat(w->dirfd, w->tmpname, 0);
	return 0;
}

int tm_dumpw_commit(struct tm_dumpw *w, struct tm_err *e)
{
	int err = check_open(w, e);

	if (err)
		return err;
	if (w->in_section) {
		err = tm_dumpw_section_end(w, e);
		if (err)
			return err;
	}
	err = flush(w, e);
	if (err)
		return err;
	w->hdr.file_size = w->off;
	w->hdr.nr_sections = w->nr_sections;
	w->hdr.header_crc32 = 0;
	w->hdr.header_crc32 = tm_crc32(0, &w->hdr, sizeof(w->hdr));
	err = pwrite_all(w->fd, &w->hdr, sizeof(w->hdr), 0);
	if (err)
		return io_error(w, err, "writing", e);
	if (fsync(w->fd))
		return io_error(w, -errno, "fsync", e);
	err = close(w->fd);
	w->fd = -1;
	if (err)
		return io_error(w, -errno, "closing", e);
	if (rename_final(w)) {
		err = -errno;
		tm_err_set(e, errno, "renaming %s to %s: %s", w->tmpname,
			   w->finalname, strerror(errno));
		return fail(w, err);
	}
	/* From here on the file is complete under its final name. */
	w->state = DUMPW_DONE;
	if (fsync(w->dirfd)) {
		err = tm_err_set(e, errno, "fsync of the directory of %s: %s",
				 w->finalname, strerror(errno));
		release(w);
		w->err = err;
		return err;
	}
	release(w);
	return 0;
}

void tm_dumpw_abort(struct tm_dumpw *w)
{
	if (w->state == DUMPW_OPEN)
		fail(w, -ECANCELED);
}
