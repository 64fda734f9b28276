// SPDX-License-Identifier: GPL-2.0
/*
 * Opening an incident (incident.h): the one place that resolves the path
 * a user gives.  Once: is it a directory?  Then its members, each read by
 * its own reader from lib/ and dump/.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "incident.h"
#include "incident_path.h"

/* meta.json of an incident directory; any failure leaves it out */
static void read_meta(struct pm_incident *inc, const char *dir)
{
	struct tm_err e = { "" };
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return;
	inc->have_meta = !tm_incident_meta_read(fd, &inc->meta, &e);
	close(fd);
}

/* The longest description read (description.txt: tipme note's limit). */
#define DESC_MAX	4096

/*
 * The user's words: description.txt of an incident directory (@dir, or
 * NULL), else the X dump's; the first line, without trailing blanks.
 */
static void read_desc(struct pm_incident *inc, const char *dir)
{
	char *buf = malloc(DESC_MAX + 1);
	ssize_t n = -1;
	size_t len;
	int dfd, fd;

	if (!buf)
		return;
	if (dir) {
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		fd = dfd < 0 ? -1 : openat(dfd, "description.txt",
					   O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, buf, DESC_MAX);
			close(fd);
		}
		if (dfd >= 0)
			close(dfd);
	}
	if (n <= 0 && inc->have_x && inc->x.description_len) {
		n = (ssize_t)(inc->x.description_len < DESC_MAX ?
			      inc->x.description_len : DESC_MAX);
		memcpy(buf, inc->x.description, (size_t)n);
	}
	len = n > 0 ? (size_t)n : 0;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	len = strlen(buf);
	while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\t' || buf[len - 1] == '\r'))
		buf[--len] = '\0';
	if (!len) {
		free(buf);
		return;
	}
	inc->desc = buf;
}

/* The X dump in @xfile (resolved: a file); -ENOENT passes through. */
static int read_x(struct pm_incident *inc, const char *xfile, struct tm_err *e)
{
	int err = tm_xdump_load(xfile, &inc->x, &inc->xbuf, e);

	inc->have_x = !err;
	return err;
}

int pm_incident_open(struct pm_incident *inc, const char *path,
		     unsigned int flags, struct tm_err *e)
{
	unsigned int dflags = flags & ~(PM_INC_NEED_X | PM_INC_NO_X);
	char *kfile = NULL, *xfile = NULL;
	struct stat sb;
	int dir, err;

	memset(inc, 0, sizeof(*inc));
	dir = !stat(path, &sb) && S_ISDIR(sb.st_mode);
	if (flags & PM_INC_NEED_X) {
		/* a file named as an incident is read as its X dump too */
		err = tm_incident_member(path, TIPME_INCIDENT_X_DUMP,
				      "X dump (tipme-xhook was not running)", &xfile, e);
		if (!err)
			err = read_x(inc, xfile, e);
		if (err)
			goto out;
	}
	err = tm_incident_member(path, TIPME_INCIDENT_KERNEL_DUMP, "kernel dump",
			      &kfile, e);
	if (!err)
		err = pm_open(&inc->pm, kfile, dflags, e);
	if (err || !dir)
		goto out;
	if (!inc->have_x && !(flags & PM_INC_NO_X)) {
		err = tm_incident_member(path, TIPME_INCIDENT_X_DUMP,
				      "X dump (tipme-xhook was not running)", &xfile, e);
		if (!err)
			err = read_x(inc, xfile, e);
		if (err == -ENOENT)
			err = 0;
		if (err)
			goto out;
	}
	read_meta(inc, path);
	read_desc(inc, path);
out:
	free(kfile);
	free(xfile);
	return err;
}

int pm_incident_open_mem(struct pm_incident *inc, const void *buf,
			 size_t size, unsigned int flags, struct tm_err *e)
{
	memset(inc, 0, sizeof(*inc));
	return pm_open_mem(&inc->pm, buf, size, flags, e);
}

void pm_incident_close(struct pm_incident *inc)
{
	free(inc->xbuf);
	free(inc->desc);
	pm_close(&inc->pm);
	memset(inc, 0, sizeof(*inc));
}

int64_t pm_incident_auto_press(const struct pm_incident *inc)
{
	if (!inc->have_meta || !inc->meta.has_auto ||
	    inc->meta.auto_press_ns > INT64_MAX)
		return 0;
	return (int64_t)inc->meta.auto_press_ns;
}
