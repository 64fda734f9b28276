// SPDX-License-Identifier: GPL-2.0
/*
 * tipmed: turns triggers into incidents.
 *
 * It listens on tipme's netlink multicast group; for every trigger (a
 * hotkey, a sysctl write, `tipme trigger`, the X hook, a benchmark) it
 * dumps the kernel's rings into a new incident directory and prunes old
 * ones.  A control socket lets desktop programs that are not root ask for
 * triggers and hand files in (see lib/ctlproto.h).  It survives the module
 * being unloaded and loaded again, and a full or read-only disk: errors go
 * to the log (the journal under systemd) and it goes on.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ctlproto.h"
#include "incident_path.h"
#include "incident.h"
#include "names.h"
#include "nl.h"
#include "sysinfo.h"

#define TM_XSTR(x)	#x
#define TM_STR(x)	TM_XSTR(x)
#define MAX_CLIENTS	32
/*
 * Limits for clients that are not root (a member of the tipme group must
 * not be able to starve the others or tipmed): connections per user, bytes
 * of PUT data held at once, triggers per user and minute, and how long a
 * connection may sit idle (subscribers excepted: they wait by design).
 */
#define UID_CLIENTS	8
#define PUT_HELD_MAX	(1024ull << 20)
#define UID_TRIGGERS	12
#define IDLE_S_DEFAULT	30
#define MAX_PENDING	16

struct env {
	struct incident_cfg cfg;
	const char *sock_path;
	const char *group;
	int once;
	const char *output;
	unsigned int idle_s;
	unsigned int auto_spacing_s;	/* at most one auto incident in this */
	unsigned int auto_per_day;	/* ... and this many in 24 hours */
};

/* Auto incidents (TRIGGER auto): the last one, the day's, the counts. */
static struct {
	time_t last, day_start;
	unsigned int today;
	uint64_t made, held;
} autos_seen;

struct client {
	int fd;
	int subscribed;
	int allowed;
	uid_t uid;
	time_t last;		/* CLOCK_MONOTONIC s of its last byte */
	char line[TIPME_CTL_LINE_MAX];
	size_t len;
	/* PUT in progress */
	char *put_data;
	size_t put_len, put_got;
	char put_inc[256], put_name[256];
};

static volatile sig_atomic_t quit;
static int journal;
static struct client clients[MAX_CLIENTS];
static struct tnl_trigger_event pending[MAX_PENDING];
static int npending;
static struct { uint32_t seq; char text[TIPME_CTL_LINE_MAX]; } reasons[8];
/* The presses that fired auto triggers, for their incidents' meta.json. */
static struct { uint32_t seq; struct incident_auto a; } autos[8];
static gid_t group_gid = (gid_t)-1;
/* The latest incident, for reasons that arrive with a coalesced trigger. */
static uint32_t last_seq;
static char last_name[128];

__attribute__((format(printf, 2, 3)))
static void logmsg(int prio, const char *fmt, ...)
{
	va_list ap;

	if (journal)
		fprintf(stderr, "<%d>", prio);
	fprintf(stderr, "tipmed: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define LOG_ERR_	3
#define LOG_WARN_	4
#define LOG_INFO_	6

static void on_signal(int sig)
{
	(void)sig;
	quit = 1;
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

static void broadcast(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void broadcast(const char *fmt, ...)
{
	char buf[TIPME_CTL_LINE_MAX];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; i < MAX_CLIENTS; i++)
		if (clients[i].fd > 0 && clients[i].subscribed)
			send_line(clients[i].fd, "%s", buf);
}

static void reply_err(int fd, int err, const char *msg)
{
	send_line(fd, "ERR %s %s", ctl_errno_name(err), msg);
}

/* ---- connection to the module ---------------------------------------- */

static struct tnl cmd, events;
static int connected;

static void disconnect(void)
{
	tnl_close(&cmd);
	tnl_close(&events);
	connected = 0;
}

static void try_connect(int verbose)
{
	struct tm_err e = { "" };

	if (connected)
		return;
	if (tnl_open(&cmd, &e) || tnl_events_open(&events, &e)) {
		tnl_close(&cmd);
		if (verbose)
			logmsg(LOG_WARN_, "%s; waiting for it", e.msg);
		return;
	}
	connected = 1;
	logmsg(LOG_INFO_, "connected to tipme.ko");
}

static void on_trigger(const struct tnl_trigger_event *ev, void *arg)
{
	(void)arg;
	if (npending < MAX_PENDING)
		pending[npending++] = *ev;
	else
		logmsg(LOG_ERR_, "trigger %u lost: too many pending", ev->seq);
}

static const char *take_reason(uint32_t seq)
{
	size_t i;

	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (reasons[i].seq == seq && reasons[i].text[0]) {
			reasons[i].seq = 0;
			return reasons[i].text;
		}
	return NULL;
}

static const struct incident_auto *take_auto(uint32_t seq)
{
	size_t i;

	for (i = 0; i < sizeof(autos) / sizeof(autos[0]); i++)
		if (autos[i].seq == seq) {
			autos[i].seq = 0;
			return &autos[i].a;
		}
	return NULL;
}

static void remember_auto(uint32_t seq, const struct incident_auto *a)
{
	static unsigned int next;

	autos[next].seq = seq;
	autos[next].a = *a;
	next = (next + 1) % (sizeof(autos) / sizeof(autos[0]));
}

static int auto_allowed(const struct env *env);

static void handle_triggers(struct env *env)
{
	const struct incident_auto *au;
	struct incident_auto kau;
	struct tnl_dump_stats ds;
	struct tm_err e = { "" };
	unsigned int removed;
	const char *reason;
	char name[128];
	int i, err, made;

	for (i = 0; i < npending; i++) {
		const struct tnl_trigger_event *ev = &pending[i];

		broadcast("TRIGGERED seq=%u mono_ns=%" PRIu64, ev->seq,
			  ev->mono_ns);
		e.msg[0] = '\0';
		reason = take_reason(ev->seq);
		au = take_auto(ev->seq);
		/* The module's own auto trigger: tipmed's limits apply too. */
		if (!au && ev->has_press) {
			incident_auto_from_press(&ev->press, &kau);
			if (!auto_allowed(env)) {
				autos_seen.held++;
				logmsg(LOG_INFO_, "trigger %u (auto, tipme.ko) held back: a %s press to pid %u (%s) took %.0f ms",
				       ev->seq, kau.input, kau.pid, kau.comm,
				       kau.latency_ns / 1e6);
				continue;
			}
			au = &kau;
		}
		err = incident_create(&env->cfg, &cmd, ev, reason, au, name,
				      sizeof(name), &ds, &e);
		/*
		 * Disk full: the newest history matters most, so old incidents
		 * go, oldest first, until this one fits or none is left.
		 */
		for (made = 0; err == -ENOSPC || err == -EDQUOT; made++) {
			struct tm_err e2 = { "" };
			char gone[128];

			if (incident_make_room(&env->cfg, gone, &e2))
				break;
			logmsg(LOG_WARN_, "disk full: removed incident %s to make room for trigger %u",
			       gone, ev->seq);
			e.msg[0] = '\0';
			err = incident_create(&env->cfg, &cmd, ev, reason, au,
					      name, sizeof(name), &ds, &e);
		}
		if (made)
			logmsg(err ? LOG_ERR_ : LOG_INFO_,
			       "disk full: pruned %d incidents to make room; %s",
			       made, err ? "still no room" : "the new incident fits");
		if (err) {
			logmsg(LOG_ERR_, "trigger %u (%s): incident not saved: %s",
			       ev->seq, tm_trigger_source_name(ev->source, "unknown"),
			       e.msg);
			continue;
		}
		logmsg(LOG_INFO_, "trigger %u (%s): incident %s, %" PRIu64
		       " bytes of records in %.3f s%s", ev->seq,
		       tm_trigger_source_name(ev->source, "unknown"), name, ds.bytes,
		       ds.seconds, ds.discarded ? ", some overwritten while read" : "");
		last_seq = ev->seq;
		snprintf(last_name, sizeof(last_name), "%s", name);
		broadcast("INCIDENT seq=%u name=%s", ev->seq, name);
		if (incident_prune(&env->cfg, &removed, &e))
			logmsg(LOG_WARN_, "pruning: %s", e.msg);
		else if (removed)
			logmsg(LOG_INFO_, "pruned %u old incidents", removed);
	}
	npending = 0;
}

/* ---- control socket -------------------------------------------------- */

static time_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int peer_allowed(int fd, uid_t *uid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	gid_t groups[256];
	size_t i;

	*uid = (uid_t)-1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return 0;
	*uid = cred.uid;
	if (cred.uid == 0)
		return 1;
	if (group_gid == (gid_t)-1)
		return 0;
	if (cred.gid == group_gid)
		return 1;
	len = sizeof(groups);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len))
		return 0;
	for (i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == group_gid)
			return 1;
	return 0;
}

static int listen_socket(struct env *env)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[sizeof(sa.sun_path)], *slash;
	struct group *gr;
	int fd;

	if (strlen(env->sock_path) >= sizeof(sa.sun_path)) {
		logmsg(LOG_ERR_, "%s: path too long", env->sock_path);
		return -1;
	}
	strcpy(sa.sun_path, env->sock_path);
	strcpy(dir, env->sock_path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0755);
	}
	gr = getgrnam(env->group);
	if (gr)
		group_gid = gr->gr_gid;
	else
		logmsg(LOG_WARN_, "no group '%s': only root can use %s",
		       env->group, env->sock_path);
	unlink(env->sock_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, 16)) {
		logmsg(LOG_ERR_, "%s: %s", env->sock_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (gr && chown(env->sock_path, 0, group_gid) == 0)
		chmod(env->sock_path, 0660);
	else
		chmod(env->sock_path, 0600);
	return fd;
}

static void client_close(struct client *c)
{
	close(c->fd);
	free(c->put_data);
	memset(c, 0, sizeof(*c));
}

static void remember_reason(uint32_t seq, const char *text)
{
	static unsigned int next;

	reasons[next].seq = seq;
	snprintf(reasons[next].text, sizeof(reasons[next].text), "%s", text);
	next = (next + 1) % (sizeof(reasons) / sizeof(reasons[0]));
}

/* Bytes of PUT data all clients hold now. */
static uint64_t put_held(void)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < MAX_CLIENTS; i++)
		if (clients[i].fd > 0 && clients[i].put_data)
			n += clients[i].put_len;
	return n;
}

/* A user's triggers in the current minute: 1 if one more is allowed. */
static int trigger_allowed(uid_t uid)
{
	static struct { uid_t uid; time_t minute; unsigned int n; } seen[16];
	static unsigned int next;
	time_t minute = now_s() / 60;
	unsigned int i;

	if (uid == 0)
		return 1;
	for (i = 0; i < sizeof(seen) / sizeof(seen[0]); i++)
		if (seen[i].n && seen[i].uid == uid)
			break;
	if (i == sizeof(seen) / sizeof(seen[0])) {
		i = next++ % (sizeof(seen) / sizeof(seen[0]));
		seen[i].uid = uid;
		seen[i].minute = minute;
		seen[i].n = 0;
	}
	if (seen[i].minute != minute) {
		seen[i].minute = minute;
		seen[i].n = 0;
	}
	return ++seen[i].n <= UID_TRIGGERS;
}

/*
 * Whether an auto trigger may make an incident now: at most one in
 * --auto-spacing seconds and --auto-per-day in 24 hours, whoever asks (a
 * tipme-xhook per X session limits itself too).  Counts the one allowed.
 */
static int auto_allowed(const struct env *env)
{
	time_t now = now_s();

	if (!autos_seen.day_start || now - autos_seen.day_start >= 86400) {
		autos_seen.day_start = now;
		autos_seen.today = 0;
	}
	if ((autos_seen.made && now - autos_seen.last < (time_t)env->auto_spacing_s) ||
	    autos_seen.today >= env->auto_per_day)
		return 0;
	autos_seen.last = now;
	autos_seen.today++;
	autos_seen.made++;
	return 1;
}

/* Returns 0 to keep the client, -1 to close it. */
static int handle_line(struct env *env, struct client *c, char *line)
{
	struct tm_err e = { "" };
	struct ctl_request r;

	if (ctl_parse_request(line, &r, &e)) {
		reply_err(c->fd, EINVAL, e.msg);
		return -1;
	}
	switch (r.kind) {
	case CTL_REQ_TRIGGER: {
		uint32_t seq;
		int coalesced;

		if (!trigger_allowed(c->uid)) {
			reply_err(c->fd, EBUSY, "at most " TM_STR(UID_TRIGGERS)
				  " triggers a minute per user: try again in a minute");
			return -1;
		}
		if (!connected) {
			reply_err(c->fd, ENODEV, "tipme.ko is not loaded");
			return -1;
		}
		if (r.source == TIPME_TRIG_AUTO && !auto_allowed(env)) {
			autos_seen.held++;
			logmsg(LOG_INFO_, "auto trigger from uid %u held back: a %s press to pid %u took %.0f ms",
			       (unsigned int)c->uid, r.autotrig.input, r.autotrig.pid,
			       r.autotrig.latency_ns / 1e6);
			reply_err(c->fd, EBUSY, "auto incidents: at most one in the spacing and the day's budget");
			return -1;
		}
		if (tnl_trigger(&cmd, r.source, &seq, &coalesced, &e)) {
			reply_err(c->fd, EIO, e.msg);
			return -1;
		}
		if (r.reason && coalesced && seq == last_seq) {
			char buf[TIPME_CTL_LINE_MAX + 2];

			snprintf(buf, sizeof(buf), "%s\n", r.reason);
			if (incident_put(&env->cfg, last_name, "description.txt",
					 buf, strlen(buf), 1, &e))
				logmsg(LOG_WARN_, "%s", e.msg);
		} else if (r.reason) {
			remember_reason(seq, r.reason);
		}
		/* a press joining a trigger already announced stays out of it */
		if (r.source == TIPME_TRIG_AUTO && !(coalesced && seq == last_seq))
			remember_auto(seq, &r.autotrig);
		send_line(c->fd, "OK seq=%u coalesced=%d", seq, coalesced);
		return -1;
	}
	case CTL_REQ_NOTE: {
		char buf[TIPME_CTL_LINE_MAX + 2];

		snprintf(buf, sizeof(buf), "%s\n", r.text);
		if (incident_put(&env->cfg, r.incident, "description.txt", buf,
				 strlen(buf), 1, &e))
			reply_err(c->fd, ENOENT, e.msg);
		else
			send_line(c->fd, "OK");
		return -1;
	}
	case CTL_REQ_PUT:
		/* the files a client may hand in; tipmed writes the others */
		if (strcmp(r.name, TIPME_INCIDENT_X_DUMP)) {
			reply_err(c->fd, EPERM, "only " TIPME_INCIDENT_X_DUMP
				  " can be handed in to an incident");
			return -1;
		}
		if (r.bytes > TIPME_CTL_PUT_MAX ||
		    (env->cfg.max_bytes && r.bytes > env->cfg.max_bytes)) {
			reply_err(c->fd, EFBIG, "file too large (larger than the incident budget or the protocol's limit)");
			return -1;
		}
		if (c->uid != 0 && put_held() + r.bytes > PUT_HELD_MAX) {
			reply_err(c->fd, ENOMEM, "tipmed holds too much data from other clients now: try again");
			return -1;
		}
		snprintf(c->put_inc, sizeof(c->put_inc), "%s", r.incident);
		snprintf(c->put_name, sizeof(c->put_name), "%s", r.name);
		c->put_data = malloc(r.bytes ? r.bytes : 1);
		if (!c->put_data) {
			reply_err(c->fd, ENOMEM, "out of memory");
			return -1;
		}
		c->put_len = r.bytes;
		c->put_got = 0;
		return 0;
	case CTL_REQ_LIST: {
		char **names;
		size_t n, i;

		if (incident_list(env->cfg.root, &names, &n, &e)) {
			reply_err(c->fd, EIO, e.msg);
			return -1;
		}
		send_line(c->fd, "OK n=%zu", n);
		for (i = 0; i < n; i++)
			send_line(c->fd, "%s", names[i]);
		incident_list_free(names, n);
		return -1;
	}
	case CTL_REQ_SUBSCRIBE:
		c->subscribed = 1;
		send_line(c->fd, "OK");
		return 0;
	case CTL_REQ_STATUS:
		send_line(c->fd, "OK auto_made=%" PRIu64 " auto_held=%" PRIu64
			  " auto_today=%u auto_per_day=%u auto_spacing_s=%u",
			  autos_seen.made, autos_seen.held, autos_seen.today,
			  env->auto_per_day, env->auto_spacing_s);
		return -1;
	}
	reply_err(c->fd, EINVAL, "unknown request");
	return -1;
}

static void finish_put(struct env *env, struct client *c)
{
	struct tm_err e = { "" };
	int err;

	err = incident_put(&env->cfg, c->put_inc, c->put_name, c->put_data,
			   c->put_len, 0, &e);
	if (err) {
		reply_err(c->fd, -err, e.msg);
		logmsg(LOG_ERR_, "PUT %s/%s: %s", c->put_inc, c->put_name, e.msg);
	} else {
		send_line(c->fd, "OK");
		logmsg(LOG_INFO_, "incident %s: stored %s (%zu bytes)",
		       c->put_inc, c->put_name, c->put_len);
	}
	free(c->put_data);
	c->put_data = NULL;
}

static void client_read(struct env *env, struct client *c)
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
				finish_put(env, c);
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
			if (handle_line(env, c, c->line)) {
				client_close(c);
				return;
			}
			if (c->put_data && c->put_len == 0) {
				finish_put(env, c);
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

static void accept_client(int lfd)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK), i, mine = 0;
	uid_t uid;
	int allowed;

	if (fd < 0)
		return;
	allowed = peer_allowed(fd, &uid);
	for (i = 0; i < MAX_CLIENTS; i++)
		if (clients[i].fd > 0 && clients[i].uid == uid)
			mine++;
	if (uid != 0 && mine >= UID_CLIENTS) {
		reply_err(fd, EBUSY, "too many connections from this user (at most "
			  TM_STR(UID_CLIENTS) ")");
		close(fd);
		return;
	}
	for (i = 0; i < MAX_CLIENTS; i++) {
		if (clients[i].fd <= 0) {
			memset(&clients[i], 0, sizeof(clients[i]));
			clients[i].fd = fd;
			clients[i].allowed = allowed;
			clients[i].uid = uid;
			clients[i].last = now_s();
			return;
		}
	}
	reply_err(fd, EBUSY, "too many clients");
	close(fd);
}

/* Close the connections that sent nothing for @idle_s (not subscribers). */
static void drop_idle(unsigned int idle_s)
{
	time_t now = now_s();
	int i;

	for (i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &clients[i];

		if (c->fd > 0 && !c->subscribed && now - c->last > (time_t)idle_s) {
			reply_err(c->fd, ETIMEDOUT, "idle for too long");
			client_close(c);
		}
	}
}

/* ---- main ------------------------------------------------------------ */

static const char usage[] =
	"usage: tipmed [options]\n"
	"       tipmed --once -o FILE\n"
	"  Wait for tipme triggers and save one incident directory per trigger.\n"
	"  -d, --incident-dir DIR  where incidents go (" TIPME_INCIDENT_DIR ")\n"
	"  -s, --socket PATH       control socket (" TIPME_CTL_SOCKET ")\n"
	"  -g, --group NAME        group allowed on the socket (" TIPME_CTL_GROUP ")\n"
	"  -k, --keep N            keep at most N incidents (50; 0 = no limit)\n"
	"  -m, --max-size MB       keep at most MB megabytes of incidents (2048)\n"
	"  -i, --idle-timeout S    close a connection silent for S seconds (30)\n"
	"      --auto-spacing S    at most one auto incident (a press measured too\n"
	"                          slow by tipme-xhook or tipme.ko) in S seconds\n"
	"                          (60)\n"
	"      --auto-per-day N    at most N auto incidents in 24 hours (24)\n"
	"  -1, --once              dump once into -o FILE and exit\n"
	"EXAMPLES\n"
	"  tipmed                                # as the systemd unit runs it\n"
	"  tipmed -d /tmp/incidents -k 5\n"
	"  tipmed --once -o /var/tmp/now.dump\n";

static int run_once(struct env *env)
{
	struct tnl_dump_stats ds;
	struct tm_err e = { "" };
	struct tnl t;
	int err;

	err = tnl_open(&t, &e);
	if (!err)
		err = tnl_dump_to_file(&t, env->output, NULL, &ds, &e);
	tnl_close(&t);
	if (err) {
		fprintf(stderr, "tipmed: %s\n", e.msg);
		return 1;
	}
	printf("tipmed: %s: %" PRIu64 " bytes from %u CPUs in %.3f s\n",
	       env->output, ds.bytes, ds.cpus, ds.seconds);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "incident-dir", required_argument, NULL, 'd' },
		{ "socket", required_argument, NULL, 's' },
		{ "group", required_argument, NULL, 'g' },
		{ "keep", required_argument, NULL, 'k' },
		{ "max-size", required_argument, NULL, 'm' },
		{ "once", no_argument, NULL, '1' },
		{ "idle-timeout", required_argument, NULL, 'i' },
		{ "auto-spacing", required_argument, NULL, 'S' },
		{ "auto-per-day", required_argument, NULL, 'D' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct env env = {
		.cfg = { .root = TIPME_INCIDENT_DIR, .keep = 50,
			 .max_bytes = 2048ull << 20 },
		.sock_path = TIPME_CTL_SOCKET,
		.group = TIPME_CTL_GROUP,
		.idle_s = IDLE_S_DEFAULT,
		.auto_spacing_s = 60,
		.auto_per_day = 24,
	};
	static struct symcache syms;
	struct pollfd pfd[2 + MAX_CLIENTS];
	struct sigaction sa = { .sa_handler = on_signal };
	struct tm_err e = { "" };
	char *end;
	int c, lfd, i, n, gone;

	while ((c = getopt_long(argc, argv, "d:s:g:k:m:i:1o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			env.cfg.root = optarg;
			break;
		case 'i':
			env.idle_s = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !env.idle_s || env.idle_s > 86400)
				goto bad;
			break;
		case 's':
			env.sock_path = optarg;
			break;
		case 'g':
			env.group = optarg;
			break;
		case 'S':
			env.auto_spacing_s = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || *optarg == '-' || !*optarg || env.auto_spacing_s > 86400)
				goto bad;
			break;
		case 'D':
			env.auto_per_day = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || *optarg == '-' || !env.auto_per_day || env.auto_per_day > 10000)
				goto bad;
			break;
		case 'k':
			env.cfg.keep = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || *optarg == '-')
				goto bad;
			break;
		case 'm':
			env.cfg.max_bytes = strtoull(optarg, &end, 10) << 20;
			if (*end || *optarg == '-')
				goto bad;
			break;
		case '1':
			env.once = 1;
			break;
		case 'o':
			env.output = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind != argc || env.once != !!env.output)
		goto bad;
	if (env.once)
		return run_once(&env);

	journal = getenv("JOURNAL_STREAM") != NULL;
	setvbuf(stderr, NULL, _IOLBF, 0);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	umask(077);
	if (incident_root_init(&env.cfg, &e)) {
		logmsg(LOG_ERR_, "%s", e.msg);
		return 1;
	}
	lfd = listen_socket(&env);
	if (lfd < 0)
		return 1;
	logmsg(LOG_INFO_, "incidents in %s, control socket %s", env.cfg.root,
	       env.sock_path);
	env.cfg.syms = &syms;
	if (symcache_refresh(&syms))
		logmsg(LOG_WARN_, "out of memory reading /proc/kallsyms");
	try_connect(1);
	while (!quit) {
		n = 0;
		pfd[n++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = connected ? tnl_events_fd(&events) : -1,
					    .events = POLLIN };
		for (i = 0; i < MAX_CLIENTS; i++)
			pfd[n++] = (struct pollfd){ .fd = clients[i].fd > 0 ?
						    clients[i].fd : -1,
						    .events = POLLIN };
		if (poll(pfd, n, 1000) < 0) {
			if (errno == EINTR)
				continue;
			logmsg(LOG_ERR_, "poll: %s", strerror(errno));
			break;
		}
		/* without the module the socket is still served (ENODEV) */
		if (!connected) {
			try_connect(0);
		} else if (pfd[1].revents) {
			gone = 0;
			if (tnl_events_read(&events, on_trigger, NULL, &gone, &e))
				logmsg(LOG_WARN_, "%s", e.msg);
			handle_triggers(&env);
			if (gone) {
				logmsg(LOG_WARN_, "tipme.ko was unloaded; waiting for it");
				disconnect();
			}
		}
		if (pfd[0].revents)
			accept_client(lfd);
		for (i = 0; i < MAX_CLIENTS; i++)
			if (clients[i].fd > 0 && pfd[2 + i].revents)
				client_read(&env, &clients[i]);
		drop_idle(env.idle_s);
	}
	logmsg(LOG_INFO_, "exiting");
	for (i = 0; i < MAX_CLIENTS; i++)
		if (clients[i].fd > 0)
			client_close(&clients[i]);
	close(lfd);
	unlink(env.sock_path);
	disconnect();
	symcache_free(&syms);
	return 0;
bad:
	fputs(usage, stderr);
	return 2;
}
