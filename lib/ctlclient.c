// SPDX-License-Identifier: GPL-2.0
/*
 * Client side of tipmed's control socket (see ctlproto.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ctlproto.h"

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The errno names the protocol uses, both ways: the one table. */
static const struct { const char *name; int err; } errnames[] = {
	{ "EPERM", EPERM }, { "EACCES", EACCES }, { "ENOENT", ENOENT },
	{ "EINVAL", EINVAL }, { "ENOSPC", ENOSPC }, { "EBUSY", EBUSY },
	{ "EEXIST", EEXIST }, { "EIO", EIO }, { "ENOMEM", ENOMEM },
	{ "EFBIG", EFBIG }, { "ENODEV", ENODEV }, { "ETIMEDOUT", ETIMEDOUT },
};

const char *tm_ctl_errno_name(int err)
{
	size_t i;

	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	return "EIO";
}

int tm_ctl_errno_by_name(const char *word)
{
	size_t i, n = strcspn(word, " ");

	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (strlen(errnames[i].name) == n && !strncmp(word, errnames[i].name, n))
			return errnames[i].err;
	return EIO;
}

int tm_ctlc_request(const char *path, const char *req, const void *data,
		 size_t len, char *reply, size_t rlen, struct tm_err *e)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t got = 0;
	int fd, err;
	char c;

	if (!path)
		path = TIPME_CTL_SOCKET;
	if (strlen(path) >= sizeof(sa.sun_path))
		return tm_err_set(e, ENAMETOOLONG, "%s: path too long", path);
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return tm_err_set(e, errno, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = errno;
		close(fd);
		if (err == ENOENT || err == ECONNREFUSED)
			return tm_err_set(e, err, "%s: tipmed is not running (%s)",
					  path, strerror(err));
		if (err == EACCES)
			return tm_err_set(e, err,
					  "%s: permission denied (join the '%s' group)",
					  path, TIPME_CTL_GROUP);
		return tm_err_set(e, err, "%s: %s", path, strerror(err));
	}
	err = write_all(fd, req, strlen(req));
	if (!err)
		err = write_all(fd, "\n", 1);
	if (!err && data && len)
		err = write_all(fd, data, len);
	if (err) {
		close(fd);
		return tm_err_set(e, -err, "%s: write: %s", path, strerror(-err));
	}
	while (got + 1 < rlen) {
		ssize_t n = read(fd, &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || c == '\n')
			break;
		reply[got++] = c;
	}
	reply[got] = '\0';
	close(fd);
	return tm_ctlc_parse_reply(reply, e);
}

int tm_ctlc_parse_reply(const char *reply, struct tm_err *e)
{
	if (!strncmp(reply, "OK", 2))
		return 0;
	if (!strncmp(reply, "ERR ", 4)) {
		const char *name = reply + 4, *msg = strchr(name, ' ');

		return tm_err_set(e, tm_ctl_errno_by_name(name), "tipmed: %s",
				  msg ? msg + 1 : name);
	}
	return tm_err_set(e, EPROTO, "tipmed: unexpected reply '%s'", reply);
}

int tm_ctlc_reply_u64(const char *reply, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);
	const char *p = reply;

	while ((p = strstr(p, key))) {
		if ((p == reply || p[-1] == ' ') && p[kl] == '=') {
			*v = strtoull(p + kl + 1, NULL, 10);
			return 0;
		}
		p += kl;
	}
	return -ENOENT;
}
