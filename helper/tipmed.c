// SPDX-License-Identifier: GPL-2.0
/*
 * tipmed: turns triggers into incidents.
 *
 * It listens on tipme's netlink multicast group; for every trigger (a
 * hotkey, a sysctl write, `tipme trigger`, the X hook, a benchmark) it
 * dumps the kernel's rings into a new incident directory and prunes old
 * ones.  A control socket (ctlserver.c) lets desktop programs that are not
 * root ask for triggers and hand files in (see lib/ctlproto.h).  It
 * survives the module being unloaded and loaded again, and a full or
 * read-only disk: errors go to the log (the journal under systemd) and it
 * goes on.  Its state is one struct tipmed (tipmed.h).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "ctlproto.h"
#include "ctlserver.h"
#include "incident.h"
#include "names.h"
#include "nl.h"
#include "sysinfo.h"
#include "tipmed.h"

#define IDLE_S_DEFAULT	30

/* Set by SIGTERM and SIGINT: a signal handler has no struct tipmed. */
static volatile sig_atomic_t quit;

static void on_signal(int sig)
{
	(void)sig;
	quit = 1;
}

__attribute__((format(printf, 3, 0)))
static void tipmed_vlog(void *arg, int prio, const char *fmt, va_list ap)
{
	const struct tipmed *td = arg;

	if (td->journal)
		fprintf(stderr, "<%d>", prio);
	fprintf(stderr, "tipmed: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

__attribute__((format(printf, 3, 4)))
static void logmsg(struct tipmed *td, int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tipmed_vlog(td, prio, fmt, ap);
	va_end(ap);
}

static time_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* ---- connection to the module ---------------------------------------- */

static void disconnect(struct tipmed *td)
{
	tnl_close(&td->cmd);
	tnl_close(&td->events);
	td->connected = 0;
}

static void try_connect(struct tipmed *td, int verbose)
{
	struct tm_err e = { "" };

	if (td->connected)
		return;
	if (tnl_open(&td->cmd, &e) || tnl_events_open(&td->events, &e)) {
		tnl_close(&td->cmd);
		if (verbose)
			logmsg(td, LOG_WARNING, "%s; waiting for it", e.msg);
		return;
	}
	td->connected = 1;
	logmsg(td, LOG_INFO, "connected to tipme.ko");
}

/* ---- what a TRIGGER request leaves for its incident ------------------- */

static void remember_reason(struct tipmed *td, uint32_t seq, uid_t uid,
			    const char *text)
{
	unsigned int i = td->reasons_next;

	td->reasons[i].seq = seq;
	td->reasons[i].uid = uid;
	snprintf(td->reasons[i].text, sizeof(td->reasons[i].text), "%s",
		 text ? text : "");
	td->reasons_next = (i + 1) % TIPMED_HANDOFFS;
}

/* The request behind trigger @seq: its reason (NULL: none), *@uid who
 * asked (-1: no request; the first one's when several joined). */
static const char *take_reason(struct tipmed *td, uint32_t seq, int64_t *uid)
{
	size_t i;

	*uid = -1;
	for (i = 0; seq && i < TIPMED_HANDOFFS; i++)
		if (td->reasons[i].seq == seq) {
			td->reasons[i].seq = 0;
			*uid = td->reasons[i].uid;
			return td->reasons[i].text[0] ? td->reasons[i].text : NULL;
		}
	return NULL;
}

/* The real uid of @pid now (/proc/PID/status): 0 on success. */
static int uid_of(uint32_t pid, uint32_t *uid)
{
	char path[64], line[256];
	unsigned int u;
	FILE *f;
	int err = -1;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	f = pid ? fopen(path, "re") : NULL;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u", &u) == 1) {
			*uid = u;
			err = 0;
			break;
		}
	fclose(f);
	return err;
}

/* The presses that fired auto triggers, for their incidents' meta.json. */
static void remember_press(struct tipmed *td, uint32_t seq,
			   const struct tm_incident_auto *a)
{
	unsigned int i = td->presses_next;

	td->presses[i].seq = seq;
	td->presses[i].a = *a;
	td->presses_next = (i + 1) % TIPMED_HANDOFFS;
}

static const struct tm_incident_auto *take_press(struct tipmed *td, uint32_t seq)
{
	size_t i;

	for (i = 0; i < TIPMED_HANDOFFS; i++)
		if (td->presses[i].seq == seq) {
			td->presses[i].seq = 0;
			return &td->presses[i].a;
		}
	return NULL;
}

/*
 * Whether an auto trigger may make an incident now: at most one in
 * --auto-spacing seconds and --auto-per-day in 24 hours, in budget @b
 * (tipme.ko's own, or one user's).  Counts the one allowed.
 */
static int auto_allowed(struct tipmed *td, struct tipmed_budget *b)
{
	time_t now = now_s();

	if (!b->day_start || now - b->day_start >= 86400) {
		b->day_start = now;
		b->today = 0;
	}
	if ((b->used && now - b->last < (time_t)td->env.auto_spacing_s) ||
	    b->today >= td->env.auto_per_day)
		return 0;
	b->last = now;
	b->used = 1;
	b->today++;
	td->autos.made++;
	return 1;
}

/* The auto budget of @uid's TRIGGER auto requests. */
static struct tipmed_budget *uid_budget(struct tipmed *td, uid_t uid)
{
	struct tipmed_autos *au = &td->autos;
	unsigned int i;

	for (i = 0; i < TIPMED_AUTO_UIDS; i++)
		if (au->uids[i].used && au->uids[i].uid == uid)
			return &au->uids[i].b;
	i = au->uids_next++ % TIPMED_AUTO_UIDS;
	au->uids[i].used = 1;
	au->uids[i].uid = uid;
	memset(&au->uids[i].b, 0, sizeof(au->uids[i].b));
	return &au->uids[i].b;
}

/* ---- triggers -> incidents -------------------------------------------- */

/* No dump will come for trigger @seq: note it for release_given_up(). */
static void give_up(struct tipmed *td, uint32_t seq)
{
	if (!td->given_up || (int32_t)(seq - td->given_up) > 0)
		td->given_up = seq;
}

static void on_trigger(const struct tnl_trigger_event *ev, void *arg)
{
	struct tipmed *td = arg;

	if (td->npending < TIPMED_PENDING) {
		td->pending[td->npending++] = *ev;
	} else {
		logmsg(td, LOG_ERR, "trigger %u lost: too many pending", ev->seq);
		give_up(td, ev->seq);
	}
}

/*
 * The triggers up to the newest given up will get no dump: the window they
 * froze is released at once, not after the module's freeze_timeout_s, so
 * that recording goes on and the next trigger freezes its own moment.  The
 * module keeps the window if a later trigger shares it.
 */
static void release_given_up(struct tipmed *td)
{
	struct tm_err e = { "" };

	if (!td->given_up)
		return;
	if (tnl_release(&td->cmd, td->given_up, &e))
		logmsg(td, LOG_WARNING, "%s", e.msg);
	else
		logmsg(td, LOG_INFO, "released the window frozen for triggers up to %u: no dump comes for them",
		       td->given_up);
	td->given_up = 0;
}

static void index_log(void *arg, int failed, const char *msg)
{
	logmsg(arg, failed ? LOG_WARNING : LOG_INFO, "%s", msg);
}

/* A large dump's checkpoints made now, at idle priority (indexer.h). */
static void index_incident(struct tipmed *td, const char *name, uint64_t bytes)
{
	char dir[PATH_MAX];
	int err;

	if (td->env.index_min_mib < 0 || bytes < (uint64_t)td->env.index_min_mib << 20)
		return;
	if (snprintf(dir, sizeof(dir), "%s/%s", td->env.cfg.root, name) >= (int)sizeof(dir))
		return;
	err = indexer_add(&td->ix, dir);
	if (err)
		logmsg(td, LOG_WARNING, "index %s: fork: %s", dir, strerror(-err));
}

static void handle_triggers(struct tipmed *td)
{
	struct incident_cfg *cfg = &td->env.cfg;
	const struct tm_incident_auto *au;
	struct tm_incident_auto kau;
	struct tnl_dump_stats ds;
	struct tm_err e = { "" };
	unsigned int removed;
	const char *reason;
	int64_t requester;
	char name[128];
	int i, err, made;

	for (i = 0; i < td->npending; i++) {
		const struct tnl_trigger_event *ev = &td->pending[i];

		ctls_broadcast(&td->srv, "TRIGGERED seq=%u mono_ns=%" PRIu64,
			       ev->seq, ev->mono_ns);
		e.msg[0] = '\0';
		reason = take_reason(td, ev->seq, &requester);
		au = take_press(td, ev->seq);
		if (au)
			kau = *au;
		/* The module's own auto trigger: tipmed's limits apply too. */
		if (!au && ev->has_press) {
			tm_incident_auto_from_press(&ev->press, &kau);
			if (!auto_allowed(td, &td->autos.kernel)) {
				td->autos.held++;
				logmsg(td, LOG_INFO, "trigger %u (auto, tipme.ko) held back: a %s press to pid %u (%s) took %.0f ms",
				       ev->seq, kau.input, kau.pid, kau.comm,
				       kau.latency_ns / 1e6);
				give_up(td, ev->seq);
				continue;
			}
			au = &kau;
		}
		/* whose session the press is about: its process's owner now */
		if (au) {
			kau.has_uid = !uid_of(kau.pid, &kau.uid);
			au = &kau;
		}
		err = incident_create(cfg, &td->cmd, ev, reason, au, requester,
				      name, sizeof(name), &ds, &e);
		/*
		 * Disk full: the newest history matters most, so old incidents
		 * go, oldest first, until this one fits or none is left.
		 */
		for (made = 0; err == -ENOSPC || err == -EDQUOT; made++) {
			struct tm_err e2 = { "" };
			char gone[128];

			if (incident_make_room(cfg, gone, &e2))
				break;
			logmsg(td, LOG_WARNING, "disk full: removed incident %s to make room for trigger %u",
			       gone, ev->seq);
			e.msg[0] = '\0';
			err = incident_create(cfg, &td->cmd, ev, reason, au,
					      requester, name, sizeof(name), &ds, &e);
		}
		if (made)
			logmsg(td, err ? LOG_ERR : LOG_INFO,
			       "disk full: pruned %d incidents to make room; %s",
			       made, err ? "still no room" : "the new incident fits");
		if (err) {
			logmsg(td, LOG_ERR, "trigger %u (%s): incident not saved: %s",
			       ev->seq, tm_trigger_source_name(ev->source, "unknown"),
			       e.msg);
			give_up(td, ev->seq);
			continue;
		}
		logmsg(td, LOG_INFO, "trigger %u (%s): incident %s, %" PRIu64
		       " bytes of records in %.3f s%s", ev->seq,
		       tm_trigger_source_name(ev->source, "unknown"), name, ds.bytes,
		       ds.seconds, ds.discarded ? ", some lost while read (overwritten or still written)" : "");
		td->last_seq = ev->seq;
		snprintf(td->last_name, sizeof(td->last_name), "%s", name);
		index_incident(td, name, ds.bytes);
		ctls_broadcast(&td->srv, "INCIDENT seq=%u name=%s", ev->seq, name);
		if (incident_prune(cfg, &removed, &e))
			logmsg(td, LOG_WARNING, "pruning: %s", e.msg);
		else if (removed)
			logmsg(td, LOG_INFO, "pruned %u old incidents", removed);
	}
	td->npending = 0;
	release_given_up(td);
}

/* ---- the control socket's requests of the daemon (struct ctls_ops) ---- */

static int srv_trigger(void *arg, uid_t uid, const struct tm_ctl_request *r,
		       uint32_t *seq, int *coalesced, struct tm_err *e)
{
	struct tipmed *td = arg;
	struct tm_incident_auto claim;
	int joined;

	if (!td->connected)
		return tm_err_set(e, ENODEV, "tipme.ko is not loaded");
	/* a client's press is its word: it spends its user's budget only */
	if (r->source == TIPME_TRIG_AUTO && !auto_allowed(td, uid_budget(td, uid))) {
		td->autos.held++;
		logmsg(td, LOG_INFO, "auto trigger from uid %u held back: a %s press to pid %u took %.0f ms (claimed)",
		       (unsigned int)uid, r->autotrig.input, r->autotrig.pid,
		       r->autotrig.latency_ns / 1e6);
		return tm_err_set(e, EBUSY, "auto incidents: at most one in the spacing and the day's budget, per user");
	}
	if (tnl_trigger(&td->cmd, r->source, seq, coalesced, e))
		return -EIO;
	/* coalesced into the latest incident: it is already there */
	joined = *coalesced && *seq == td->last_seq;
	if (r->reason && joined) {
		char buf[TIPME_CTL_LINE_MAX + 2];
		struct tm_err pe = { "" };

		snprintf(buf, sizeof(buf), "%s\n", r->reason);
		if (incident_put(&td->env.cfg, td->last_name, "description.txt",
				 buf, strlen(buf), 1, &pe))
			logmsg(td, LOG_WARNING, "%s", pe.msg);
	} else if (!joined) {
		remember_reason(td, *seq, uid, r->reason);
	}
	/* a press joining a trigger already announced stays out of it */
	if (r->source == TIPME_TRIG_AUTO && !joined) {
		claim = r->autotrig;
		claim.claimed = 1;
		claim.claimed_by = uid;
		remember_press(td, *seq, &claim);
	}
	return 0;
}

static void srv_status(void *arg, char *buf, size_t size)
{
	const struct tipmed *td = arg;
	unsigned int i, today = td->autos.kernel.today;

	/* let through in the current 24 hours of each budget */
	for (i = 0; i < TIPMED_AUTO_UIDS; i++)
		if (td->autos.uids[i].used)
			today += td->autos.uids[i].b.today;
	snprintf(buf, size, "auto_made=%" PRIu64 " auto_held=%" PRIu64
		 " auto_today=%u auto_per_day=%u auto_spacing_s=%u",
		 td->autos.made, td->autos.held, today,
		 td->env.auto_per_day, td->env.auto_spacing_s);
}

static const struct ctls_ops srv_ops = {
	.trigger = srv_trigger,
	.status = srv_status,
	.vlog = tipmed_vlog,
};

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
	"      --index-min-mib N   after an incident whose dump holds N MiB of\n"
	"                          records or more, run `tipme index` on it at idle\n"
	"                          priority, for fast first commands (16)\n"
	"      --no-index          never run it\n"
	"  -1, --once              dump once into -o FILE and exit\n"
	"EXAMPLES\n"
	"  tipmed                                # as the systemd unit runs it\n"
	"  tipmed -d /tmp/incidents -k 5\n"
	"  tipmed --once -o /var/tmp/now.dump\n";

/* Returns 0 to run, 1 after --help, -1 on a bad command line. */
static int parse_options(struct tipmed *td, int argc, char **argv)
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
		{ "index-min-mib", required_argument, NULL, 'I' },
		{ "no-index", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tipmed_env *env = &td->env;
	char *end;
	int c;

	*env = (struct tipmed_env){
		.cfg = { .root = TIPME_INCIDENT_DIR, .keep = 50,
			 .max_bytes = 2048ull << 20 },
		.sock_path = TIPME_CTL_SOCKET,
		.group = TIPME_CTL_GROUP,
		.idle_s = IDLE_S_DEFAULT,
		.auto_spacing_s = 60,
		.auto_per_day = 24,
		.index_min_mib = 16,
	};
	while ((c = getopt_long(argc, argv, "d:s:g:k:m:i:1o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			env->cfg.root = optarg;
			break;
		case 'i':
			env->idle_s = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !env->idle_s || env->idle_s > 86400)
				return -1;
			break;
		case 's':
			env->sock_path = optarg;
			break;
		case 'g':
			env->group = optarg;
			break;
		case 'S':
			env->auto_spacing_s = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || *optarg == '-' || !*optarg || env->auto_spacing_s > 86400)
				return -1;
			break;
		case 'D':
			env->auto_per_day = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || *optarg == '-' || !env->auto_per_day || env->auto_per_day > 10000)
				return -1;
			break;
		case 'k':
			env->cfg.keep = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || *optarg == '-')
				return -1;
			break;
		case 'm':
			env->cfg.max_bytes = strtoull(optarg, &end, 10) << 20;
			if (*end || *optarg == '-')
				return -1;
			break;
		case '1':
			env->once = 1;
			break;
		case 'I':
			env->index_min_mib = strtol(optarg, &end, 10);
			if (*end || !*optarg || env->index_min_mib < 0 ||
			    env->index_min_mib > 1L << 20)
				return -1;
			break;
		case 'N':
			env->index_min_mib = -1;
			break;
		case 'o':
			env->output = optarg;
			break;
		case 'h':
			return 1;
		default:
			return -1;
		}
	}
	if (optind != argc || env->once != !!env->output)
		return -1;
	return 0;
}

static int run_once(struct tipmed *td)
{
	struct tnl_dump_stats ds;
	struct tm_err e = { "" };
	struct tnl t;
	int err;

	err = tnl_open(&t, &e);
	if (!err)
		err = tnl_dump_to_file(&t, td->env.output, NULL, &ds, &e);
	tnl_close(&t);
	if (err) {
		fprintf(stderr, "tipmed: %s\n", e.msg);
		return 1;
	}
	printf("tipmed: %s: %" PRIu64 " bytes from %u CPUs in %.3f s\n",
	       td->env.output, ds.bytes, ds.cpus, ds.seconds);
	return 0;
}

/* The log, signals, the incident root, the socket, the module: 0 or -1. */
static int start(struct tipmed *td)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct ctlserver *srv = &td->srv;
	struct tm_err e = { "" };

	td->journal = getenv("JOURNAL_STREAM") != NULL;
	setvbuf(stderr, NULL, _IOLBF, 0);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	umask(077);
	indexer_init(&td->ix, "/proc/self/exe");
	if (incident_root_init(&td->env.cfg, &e)) {
		logmsg(td, LOG_ERR, "%s", e.msg);
		return -1;
	}
	srv->path = td->env.sock_path;
	srv->group = td->env.group;
	srv->idle_s = td->env.idle_s;
	srv->incidents = &td->env.cfg;
	srv->ops = &srv_ops;
	srv->arg = td;
	if (ctls_open(srv))
		return -1;
	logmsg(td, LOG_INFO, "incidents in %s, control socket %s",
	       td->env.cfg.root, td->env.sock_path);
	td->env.cfg.syms = &td->syms;
	if (symcache_refresh(&td->syms))
		logmsg(td, LOG_WARNING, "out of memory reading /proc/kallsyms");
	try_connect(td, 1);
	return 0;
}

/* The poll loop, until SIGTERM or SIGINT. */
static void run(struct tipmed *td)
{
	struct pollfd pfd[1 + CTLS_POLLFDS];
	struct tm_err e = { "" };
	int n, gone;

	while (!quit) {
		pfd[0] = (struct pollfd){ .fd = td->connected ?
					  tnl_events_fd(&td->events) : -1,
					  .events = POLLIN };
		n = 1 + ctls_pollfds(&td->srv, pfd + 1);
		if (poll(pfd, n, 1000) < 0) {
			if (errno == EINTR)
				continue;
			logmsg(td, LOG_ERR, "poll: %s", strerror(errno));
			break;
		}
		/* without the module the socket is still served (ENODEV) */
		if (!td->connected) {
			try_connect(td, 0);
		} else if (pfd[0].revents) {
			gone = 0;
			if (tnl_events_read(&td->events, on_trigger, td, &gone, &e))
				logmsg(td, LOG_WARNING, "%s", e.msg);
			handle_triggers(td);
			if (gone) {
				logmsg(td, LOG_WARNING, "tipme.ko was unloaded; waiting for it");
				disconnect(td);
			}
		}
		ctls_serve(&td->srv, pfd + 1);
		indexer_reap(&td->ix, index_log, td);
	}
}

static void stop(struct tipmed *td)
{
	logmsg(td, LOG_INFO, "exiting");
	ctls_close(&td->srv);
	disconnect(td);
	symcache_free(&td->syms);
}

int main(int argc, char **argv)
{
	static struct tipmed td;	/* zero; some 200 KB of buffers */

	switch (parse_options(&td, argc, argv)) {
	case 1:
		fputs(usage, stdout);
		return 0;
	case -1:
		fputs(usage, stderr);
		return 2;
	}
	if (td.env.once)
		return run_once(&td);
	if (start(&td))
		return 1;
	run(&td);
	stop(&td);
	return 0;
}
