// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a whole file into memory, for the dump readers (kernel and X),
 * or mapping it (the kernel dump: its pages are read as the decoder
 * reaches them, and stay the page cache's, not the reader's heap).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readfile.h"

/* Only a regular file: its size, or an error. */
static int regular(int fd, const char *path, struct stat *stp,
		   struct tm_err *e)
{
	struct stat st;

	if (fstat(fd, &st))
		return tm_err_set(e, errno, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return tm_err_set(e, EISDIR, "%s: is a directory", path);
	/*
	 * A FIFO would block until a writer comes, a character device
	 * (/dev/zero) never ends: only a file has an end known beforehand.
	 */
	if (!S_ISREG(st.st_mode))
		return tm_err_set(e, EINVAL, "%s: is a %s, not a regular file", path,
				  S_ISFIFO(st.st_mode) ? "FIFO" :
				  S_ISCHR(st.st_mode) ? "character device" :
				  S_ISBLK(st.st_mode) ? "block device" :
				  S_ISSOCK(st.st_mode) ? "socket" : "special file");
	if ((uint64_t)st.st_size >= SIZE_MAX)
		return tm_err_set(e, EFBIG, "%s: too large to load (%lld bytes)",
				  path, (long long)st.st_size);
	*stp = st;
	return 0;
}

static int read_fd(int fd, unsigned char **bufp, size_t *sizep,
		   const char *path, struct tm_err *e)
{
	unsigned char *buf = NULL, *nbuf;
	size_t cap = 0, size = 0;
	struct stat st;
	ssize_t n;
	int err;

	err = regular(fd, path, &st, e);
	if (err)
		return err;
	cap = (size_t)st.st_size + 1;	/* +1: see EOF in one read */
	for (;;) {
		if (size == cap) {
			size_t ncap = cap ? cap * 2 : 65536;

			if (ncap < cap) {
				free(buf);
				return tm_err_set(e, EFBIG, "%s: too large to load", path);
			}
			nbuf = realloc(buf, ncap);
			if (!nbuf) {
				free(buf);
				return tm_err_set(e, ENOMEM,
						  "%s: not enough memory to load %zu bytes",
						  path, ncap);
			}
			buf = nbuf;
			cap = ncap;
		} else if (!buf) {
			buf = malloc(cap);
			if (!buf)
				return tm_err_set(e, ENOMEM,
						  "%s: not enough memory to load %zu bytes",
						  path, cap - 1);
		}
		n = read(fd, buf + size, cap - size);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return tm_err_set(e, errno, "%s: %s", path, strerror(errno));
		}
		if (n == 0)
			break;
		size += (size_t)n;
	}
	*bufp = buf;
	*sizep = size;
	return 0;
}

int tm_read_file(const char *path, unsigned char **bufp, size_t *sizep,
		 struct tm_err *e)
{
	int fd, err;

	*bufp = NULL;
	*sizep = 0;
	/* O_NONBLOCK: opening a FIFO must not wait for its writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return tm_err_set(e, errno, "%s: %s", path, strerror(errno));
	err = read_fd(fd, bufp, sizep, path, e);
	close(fd);
	return err;
}

int tm_map_file(const char *path, unsigned char **bufp, size_t *sizep,
		int *mapped, struct tm_err *e)
{
	struct stat st;
	void *p;
	int fd, err;

	*bufp = NULL;
	*sizep = 0;
	*mapped = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return tm_err_set(e, errno, "%s: %s", path, strerror(errno));
	err = regular(fd, path, &st, e);
	if (!err && st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			*bufp = p;
			*sizep = (size_t)st.st_size;
			*mapped = 1;
		}
	}
	/* empty, or a file system that cannot map it: read it */
	if (!err && !*mapped)
		err = read_fd(fd, bufp, sizep, path, e);
	close(fd);
	return err;
}

void tm_unmap_file(unsigned char *buf, size_t size, int mapped)
{
	if (mapped)
		munmap(buf, size);
	else
		free(buf);
}

void tm_drop_file_pages(unsigned char *buf, size_t size, int mapped)
{
	if (mapped && size)
		madvise(buf, size, MADV_DONTNEED);
}
