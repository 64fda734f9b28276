// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a whole file into memory, for the dump readers (kernel and X).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readfile.h"

static int read_fd(int fd, unsigned char **bufp, size_t *sizep,
		   const char *path, struct tm_err *e)
{
	unsigned char *buf = NULL, *nbuf;
	size_t cap = 0, size = 0;
	struct stat st;
	ssize_t n;

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
