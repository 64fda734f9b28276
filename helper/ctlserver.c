// SPDX-License-Identifier: GPL-2.0
/*
 * The server side of tipmed's control socket: see ctlserver.h.
 */
#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "ctlserver.h"
#include "incident_path.h"

#define TM_XSTR(x)	#x
#define TM_STR(x)	TM_XSTR(x)
/*
 * Limits for clients that are not root (a member of the tipme group must
 * not be able to starve the others or tipmed): connections per user, the
 * slots kept for root alone (`tipme trigger` always gets in), subscribers
 * per user (they are never idle), bytes of PUT data held at once in all
 * and per user, triggers per user and minute.  (How long a connection may
 * sit idle is the daemon's option, struct ctlserver's @idle_s.)
 */
#define UID_CLIENTS	8
#define ROOT_SLOTS	4
#define UID_SUBSCRIBERS	2
#define PUT_HELD_MAX	(1024ull << 20)
#define UID_PUT_HELD	(256ull << 20)	/* its message says so */
#define UID_TRIGGERS	12

__attribute__((format(printf, 3, 4)))
static void logmsg(struct ctlserver *s, int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s->ops->vlog(s->arg, prio, fmt, ap);
	va_end(ap);
}

static time_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static void send_line(int fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void send_line(int fd, const char *fmt, ...)
{
	char buf[TIPME_CTL_LINE_MAX + 64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (send(fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		return;	/* a subscriber that does not read loses lines */
}

static void reply_err(int fd, int err, const char *msg)
{
	send_line(fd, "ERR %s %s", tm_ctl_errno_name(err), msg);
}

void ctls_broadcast(struct ctlserver *s, const char *fmt, ...)
{
	char buf[TIPME_CTL_LINE_MAX];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; i < CTLS_MAX_CLIENTS; i++)
		if (s->clients[i].fd > 0 && s->clients[i].subscribed)
			send_line(s->clients[i].fd, "%s", buf);
}

/* Root, or a member of the socket's group (primary or supplementary). */
static int peer_allowed(struct ctlserver *s, int fd, uid_t *uid, pid_t *pid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	gid_t groups[256];
	size_t i;

	*uid = (uid_t)-1;
	*pid = 0;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return 0;
	*uid = cred.uid;
	*pid = cred.pid;
	if (cred.uid == 0)
		return 1;
	if (s->gid == (gid_t)-1)
		return 0;
	if (cred.gid == s->gid)
		return 1;
	len = sizeof(groups);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len))
		return 0;
	for (i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == s->gid)
			return 1;
	return 0;
}

int ctls_open(struct ctlserver *s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[sizeof(sa.sun_path)], *slash;
	struct group *gr;
	int fd;

	s->fd = -1;
	s->gid = (gid_t)-1;
	if (strlen(s->path) >= sizeof(sa.sun_path)) {
		logmsg(s, LOG_ERR, "%s: path too long", s->path);
		return -1;
	}
	strcpy(sa.sun_path, s->path);
	strcpy(dir, s->path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0755);
	}
	gr = getgrnam(s->group);
	if (gr)
		s->gid = gr->gr_gid;
	else
		logmsg(s, LOG_WARNING, "no group '%s': only root can use %s",
		       s->group, s->path);
	unlink(s->path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, 16)) {
		logmsg(s, LOG_ERR, "%s: %s", s->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (gr && chown(s->path, 0, s->gid) == 0)
		chmod(s->path, 0660);
	else
		chmod(s->path, 0600);
	s->fd = fd;
	return 0;
}

static void client_close(struct ctls_client *c)
{
	close(c->fd);
	free(c->put_data);
	memset(c, 0, sizeof(*c));
}

/* Bytes of PUT data the clients of @uid ((uid_t)-1: all) hold now. */
static uint64_t put_held(const struct ctlserver *s, uid_t uid)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < CTLS_MAX_CLIENTS; i++)
		if (s->clients[i].fd > 0 && s->clients[i].put_data &&
		    (uid == (uid_t)-1 || s->clients[i].uid == uid))
			n += s->clients[i].put_len;
	return n;
}

/* The subscribers of @uid. */
static int subscribers(const struct ctlserver *s, uid_t uid)
{
	int i, n = 0;

	for (i = 0; i < CTLS_MAX_CLIENTS; i++)
		if (s->clients[i].fd > 0 && s->clients[i].subscribed &&
		    s->clients[i].uid == uid)
			n++;
	return n;
}

/* The executable of @pid, as meta.json keeps it; "" if it cannot be read. */
static void exe_of(pid_t pid, char *out, size_t size)
{
	char path[64], buf[4096];
	ssize_t n;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = pid > 0 ? readlink(path, buf, sizeof(buf) - 1) : -1;
	if (n < 0)
		return;
	buf[n] = '\0';
	tm_incident_printable(out, size, buf);
}

/* A user's triggers in the current minute: 1 if one more is allowed. */
static int trigger_allowed(struct ctlserver *s, uid_t uid)
{
	const unsigned int slots = CTLS_UID_SLOTS;
	time_t minute = now_s() / 60;
	unsigned int i;

	if (uid == 0)
		return 1;
	for (i = 0; i < slots; i++)
		if (s->uid_triggers[i].n && s->uid_triggers[i].uid == uid)
			break;
	if (i == slots) {
		i = s->uid_triggers_next++ % slots;
		s->uid_triggers[i].uid = uid;
		s->uid_triggers[i].minute = minute;
		s->uid_triggers[i].n = 0;
	}
	if (s->uid_triggers[i].minute != minute) {
		s->uid_triggers[i].minute = minute;
		s->uid_triggers[i].n = 0;
	}
	return ++s->uid_triggers[i].n <= UID_TRIGGERS;
}

/* Returns 0 to keep the client, -1 to close it. */
static int handle_line(struct ctlserver *s, struct ctls_client *c, char *line)
{
	const struct incident_cfg *inc = s->incidents;
	struct tm_err e = { "" };
	struct tm_ctl_request r;

	if (tm_ctl_parse_request(line, &r, &e)) {
		reply_err(c->fd, EINVAL, e.msg);
		return -1;
	}
	switch (r.kind) {
	case TM_CTL_REQ_TRIGGER: {
		uint32_t seq;
		int coalesced, err;

		if (!trigger_allowed(s, c->uid)) {
			reply_err(c->fd, EBUSY, "at most " TM_STR(UID_TRIGGERS)
				  " triggers a minute per user: try again in a minute");
			return -1;
		}
		err = s->ops->trigger(s->arg, c->uid, &r, &seq, &coalesced, &e);
		if (err) {
			reply_err(c->fd, -err, e.msg);
			return -1;
		}
		send_line(c->fd, "OK seq=%u coalesced=%d", seq, coalesced);
		return -1;
	}
	case TM_CTL_REQ_NOTE: {
		char buf[TIPME_CTL_LINE_MAX + 2];

		snprintf(buf, sizeof(buf), "%s\n", r.text);
		if (incident_put(inc, r.incident, "description.txt", buf,
				 strlen(buf), 1, &e))
			reply_err(c->fd, ENOENT, e.msg);
		else
			send_line(c->fd, "OK");
		return -1;
	}
	case TM_CTL_REQ_PUT:
		/* the files a client may hand in; tipmed writes the others */
		if (strcmp(r.name, TIPME_INCIDENT_X_DUMP)) {
			reply_err(c->fd, EPERM, "only " TIPME_INCIDENT_X_DUMP
				  " can be handed in to an incident");
			return -1;
		}
		if (r.bytes > TIPME_CTL_PUT_MAX ||
		    (inc->max_bytes && r.bytes > inc->max_bytes)) {
			reply_err(c->fd, EFBIG, "file too large (larger than the incident budget or the protocol's limit)");
			return -1;
		}
		if (c->uid != 0 &&
		    put_held(s, c->uid) + r.bytes > UID_PUT_HELD) {
			reply_err(c->fd, ENOMEM, "this user's PUTs in progress hold too much data (at most 256 MiB): try again");
			return -1;
		}
		if (c->uid != 0 &&
		    put_held(s, (uid_t)-1) + r.bytes > PUT_HELD_MAX) {
			reply_err(c->fd, ENOMEM, "tipmed holds too much data from other clients now: try again");
			return -1;
		}
		snprintf(c->put_inc, sizeof(c->put_inc), "%s", r.incident);
		/* one X dump per user: nobody's hand-in takes another's place */
		snprintf(c->put_name, sizeof(c->put_name), TIPME_INCIDENT_X_DUMP_UID,
			 (unsigned int)c->uid);
		exe_of(c->pid, c->put_exe, sizeof(c->put_exe));
		c->put_data = malloc(r.bytes ? r.bytes : 1);
		if (!c->put_data) {
			reply_err(c->fd, ENOMEM, "out of memory");
			return -1;
		}
		c->put_len = r.bytes;
		c->put_got = 0;
		return 0;
	case TM_CTL_REQ_LIST: {
		char **names;
		size_t n, i;

		if (incident_list(inc->root, &names, &n, &e)) {
			reply_err(c->fd, EIO, e.msg);
			return -1;
		}
		send_line(c->fd, "OK n=%zu", n);
		for (i = 0; i < n; i++)
			send_line(c->fd, "%s", names[i]);
		incident_list_free(names, n);
		return -1;
	}
	case TM_CTL_REQ_SUBSCRIBE:
		if (c->uid != 0 && !c->subscribed &&
		    subscribers(s, c->uid) >= UID_SUBSCRIBERS) {
			reply_err(c->fd, EBUSY, "at most " TM_STR(UID_SUBSCRIBERS)
				  " subscribers per user");
			return -1;
		}
		c->subscribed = 1;
		send_line(c->fd, "OK");
		return 0;
	case TM_CTL_REQ_STATUS: {
		char buf[TIPME_CTL_LINE_MAX];

		s->ops->status(s->arg, buf, sizeof(buf));
		send_line(c->fd, "OK %s", buf);
		return -1;
	}
	}
	reply_err(c->fd, EINVAL, "unknown request");
	return -1;
}

static void finish_put(struct ctlserver *s, struct ctls_client *c)
{
	struct tm_incident_handin h = { .uid = c->uid, .pid = (uint32_t)c->pid,
					.bytes = c->put_len };
	struct tm_err e = { "" };
	int err;

	snprintf(h.file, sizeof(h.file), "%s", c->put_name);
	snprintf(h.exe, sizeof(h.exe), "%s", c->put_exe);
	err = incident_hand_in(s->incidents, c->put_inc, &h, c->put_data,
			       c->put_len, &e);
	if (err) {
		reply_err(c->fd, -err, e.msg);
		logmsg(s, LOG_ERR, "PUT %s/%s from uid %u: %s", c->put_inc,
		       c->put_name, (unsigned int)c->uid, e.msg);
	} else {
		send_line(c->fd, "OK");
		logmsg(s, LOG_INFO, "incident %s: stored %s (%zu bytes) from uid %u, pid %d (%s)",
		       c->put_inc, c->put_name, c->put_len, (unsigned int)c->uid,
		       (int)c->pid, c->put_exe[0] ? c->put_exe : "executable unknown");
	}
	free(c->put_data);
	c->put_data = NULL;
}

static void client_read(struct ctlserver *s, struct ctls_client *c)
{
	char buf[65536];
	ssize_t n = read(c->fd, buf, sizeof(buf));
	size_t i = 0, take;

	c->last = now_s();
	if (n <= 0) {
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		client_close(c);
		return;
	}
	while (i < (size_t)n) {
		if (c->put_data) {
			take = c->put_len - c->put_got;
			if (take > (size_t)n - i)
				take = (size_t)n - i;
			memcpy(c->put_data + c->put_got, buf + i, take);
			c->put_got += take;
			i += take;
			if (c->put_got == c->put_len) {
				finish_put(s, c);
				client_close(c);
				return;
			}
			continue;
		}
		if (buf[i] == '\n') {
			c->line[c->len] = '\0';
			c->len = 0;
			i++;
			if (!c->allowed) {
				reply_err(c->fd, EPERM, "permission denied: not root and not in the tipme group");
				client_close(c);
				return;
			}
			if (handle_line(s, c, c->line)) {
				client_close(c);
				return;
			}
			if (c->put_data && c->put_len == 0) {
				finish_put(s, c);
				client_close(c);
				return;
			}
			continue;
		}
		if (c->len + 1 >= sizeof(c->line)) {
			reply_err(c->fd, EINVAL, "line too long");
			client_close(c);
			return;
		}
		c->line[c->len++] = buf[i++];
	}
}

static void accept_client(struct ctlserver *s)
{
	int fd = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK), i;
	int mine = 0, members = 0, allowed;
	uid_t uid;
	pid_t pid;

	if (fd < 0)
		return;
	allowed = peer_allowed(s, fd, &uid, &pid);
	for (i = 0; i < CTLS_MAX_CLIENTS; i++) {
		if (s->clients[i].fd <= 0)
			continue;
		mine += s->clients[i].uid == uid;
		members += s->clients[i].uid != 0;
	}
	if (uid != 0 && mine >= UID_CLIENTS) {
		reply_err(fd, EBUSY, "too many connections from this user (at most "
			  TM_STR(UID_CLIENTS) ")");
		close(fd);
		return;
	}
	/* the last slots are root's: `tipme trigger` always gets in */
	if (uid != 0 && members >= CTLS_MAX_CLIENTS - ROOT_SLOTS) {
		reply_err(fd, EBUSY, "too many clients (the last " TM_STR(ROOT_SLOTS)
			  " connections are root's)");
		close(fd);
		return;
	}
	for (i = 0; i < CTLS_MAX_CLIENTS; i++) {
		struct ctls_client *c = &s->clients[i];

		if (c->fd <= 0) {
			memset(c, 0, sizeof(*c));
			c->fd = fd;
			c->allowed = allowed;
			c->uid = uid;
			c->pid = pid;
			c->last = now_s();
			return;
		}
	}
	reply_err(fd, EBUSY, "too many clients");
	close(fd);
}

/* Close the connections that sent nothing for @s->idle_s (not subscribers). */
static void drop_idle(struct ctlserver *s)
{
	time_t now = now_s();
	int i;

	for (i = 0; i < CTLS_MAX_CLIENTS; i++) {
		struct ctls_client *c = &s->clients[i];

		if (c->fd > 0 && !c->subscribed &&
		    now - c->last > (time_t)s->idle_s) {
			reply_err(c->fd, ETIMEDOUT, "idle for too long");
			client_close(c);
		}
	}
}

int ctls_pollfds(const struct ctlserver *s, struct pollfd *pfd)
{
	int i, n = 0;

	pfd[n++] = (struct pollfd){ .fd = s->fd, .events = POLLIN };
	for (i = 0; i < CTLS_MAX_CLIENTS; i++)
		pfd[n++] = (struct pollfd){ .fd = s->clients[i].fd > 0 ?
						  s->clients[i].fd : -1,
					    .events = POLLIN };
	return n;
}

void ctls_serve(struct ctlserver *s, const struct pollfd *pfd)
{
	int i;

	if (pfd[0].revents)
		accept_client(s);
	for (i = 0; i < CTLS_MAX_CLIENTS; i++)
		if (s->clients[i].fd > 0 && pfd[1 + i].revents)
			client_read(s, &s->clients[i]);
	drop_idle(s);
}

void ctls_close(struct ctlserver *s)
{
	int i;

	for (i = 0; i < CTLS_MAX_CLIENTS; i++)
		if (s->clients[i].fd > 0)
			client_close(&s->clients[i]);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	unlink(s->path);
}
