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

/**
 * tm_wfile_open() - start writing @path through a temporary file, mode 0600
 * @w: the file; write to @w->f, then tm_wfile_commit() or tm_wfile_abort()
 * @path: the final name
 * @e: error message naming @path
 *
 * The temporary file is created next to @path (same directory: the final
 * rename cannot cross file systems), exclusively, never through a link.
 *
 * Return: 0 or a negative errno.
 */
int tm_wfile_open(struct tm_wfile *w, const char *path, struct tm_err *e)
{
	const char *slash = strrchr(path, '/');
	size_t n = strlen(path);
	int fd, err;

	memset(w, 0, sizeof(*w));
	w->tmp = malloc(n + 32);
	w->path = strdup(path);
	if (!w->tmp || !w->path) {
		tm_wfile_abort(w);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	snprintf(w->tmp, n + 32, "%.*s.tmp-%s-%d", (int)(slash ? slash - path + 1 : 0),
		 path, slash ? slash + 1 : path, (int)getpid());
	fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = tm_err_set(e, errno, "%s: %s", path, strerror(errno));
		free(w->tmp);
		w->tmp = NULL;
		tm_wfile_abort(w);
		return err;
	}
	w->f = fdopen(fd, "w");
	if (!w->f) {
		err = tm_err_set(e, errno, "%s: %s", path, strerror(errno));
		close(fd);
		tm_wfile_abort(w);
		return err;
	}
	return 0;
}

/**
 * tm_wfile_commit() - finish the file: flush, fsync, and give it its name
 * @w: the file (released, also on failure)
 * @replace: replace a file of that name (rename), else never (link: -EEXIST)
 * @e: error message naming the file
 *
 * Return: 0 or a negative errno; on failure nothing is left behind.
 */
int tm_wfile_commit(struct tm_wfile *w, int replace, struct tm_err *e)
{
	int err = 0;

	if (fflush(w->f) || ferror(w->f))
		err = errno ? -errno : -EIO;
	if (!err && fsync(fileno(w->f)))
		err = -errno;
	if (fclose(w->f) && !err)
		err = -errno;
	w->f = NULL;
	if (!err && (replace ? rename(w->tmp, w->path) : link(w->tmp, w->path)))
		err = -errno;
	if (err)
		tm_err_set(e, -err, "%s: %s", w->path, strerror(-err));
	if (err || !replace)
		unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	w->tmp = w->path = NULL;
	return err;
}

/**
 * tm_wfile_abort() - give up: remove the temporary file
 * @w: the file (released)
 */
void tm_wfile_abort(struct tm_wfile *w)
{
	if (w->f)
		fclose(w->f);
	if (w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	memset(w, 0, sizeof(*w));
}

int tm_write_file_new(const char *path, const void *data, size_t len,
		      struct tm_err *e)
{
	struct tm_wfile w;
	int err = tm_wfile_open(&w, path, e);

	if (err)
		return err;
	if (len && fwrite(data, 1, len, w.f) != len) {
		err = tm_err_set(e, errno ? errno : EIO, "%s: %s", path,
				 strerror(errno ? errno : EIO));
		tm_wfile_abort(&w);
		return err;
	}
	return tm_wfile_commit(&w, 0, e);
}
