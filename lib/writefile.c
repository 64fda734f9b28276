// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a whole file atomically (see writefile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "writefile.h"

int tm_write_file_new(const char *path, const void *data, size_t len,
		      struct tm_err *e)
{
	const char *p = data, *slash = strrchr(path, '/');
	char *tmp;
	size_t n = strlen(path);
	int fd, err = 0;

	tmp = malloc(n + 32);
	if (!tmp)
		return tm_err_set(e, ENOMEM, "out of memory");
	snprintf(tmp, n + 32, "%.*s.tmp-%s-%d", (int)(slash ? slash - path + 1 : 0),
		 path, slash ? slash + 1 : path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = tm_err_set(e, errno, "%s: %s", path, strerror(errno));
		free(tmp);
		return err;
	}
	while (len && !err) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			err = w < 0 ? -errno : -EIO;
		else {
			p += w;
			len -= (size_t)w;
		}
	}
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	/* link() never replaces what is there */
	if (!err && link(tmp, path))
		err = -errno;
	unlink(tmp);
	free(tmp);
	if (err)
		return tm_err_set(e, -err, "%s: %s", path, strerror(-err));
	return 0;
}
