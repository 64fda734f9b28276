// SPDX-License-Identifier: GPL-2.0
/*
 * Control subcommands of the tipme CLI: status, start, stop, dump.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "ctlproto.h"
#include "incident.h"
#include "incident_meta.h"
#include "incident_path.h"
#include "json.h"
#include "names.h"
#include "nl.h"

struct env {
	int json;
	const char *output;
	const char *socket;
};

#define OPT_OUTPUT	1	/* parse_opts(): the command takes -o FILE */
#define OPT_SOCKET	2	/* ... and --socket PATH */

static int parse_opts(int argc, char **argv, struct env *env, int want_output,
		      const char *usage)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "socket", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(env, 0, sizeof(*env));
	optind = 1;
	while ((c = getopt_long(argc, argv, "jo:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			env->json = 1;
			break;
		case 'o':
			if (!(want_output & OPT_OUTPUT))
				goto bad;
			env->output = optarg;
			break;
		case 's':
			if (!(want_output & OPT_SOCKET))
				goto bad;
			env->socket = optarg;
			break;
		case 'h':
			printf("%s", usage);
			exit(0);
		default:
			goto bad;
		}
	}
	if (optind != argc)
		goto bad;
	return 0;
bad:
	fprintf(stderr, "%s", usage);
	return -EINVAL;
}

static double history_s(const struct tipme_status *st, size_t i)
{
	if (!st->tsc_khz || !st->first_ts[i] || st->last_ts[i] < st->first_ts[i])
		return 0;
	return (double)(st->last_ts[i] - st->first_ts[i]) / (st->tsc_khz * 1e3);
}

/* tipmed's counts of auto incidents (STATUS), if it answers. */
struct tipmed_status {
	int up;
	char why[160];
	uint64_t made, held, today, per_day, spacing_s;
};

static void tipmed_status(const char *sock, struct tipmed_status *ts)
{
	struct tm_err e = { "" };
	char reply[TIPME_CTL_LINE_MAX];

	memset(ts, 0, sizeof(*ts));
	if (tm_ctlc_request(sock, "STATUS", NULL, 0, reply, sizeof(reply), &e)) {
		snprintf(ts->why, sizeof(ts->why), "%s", e.msg);
		return;
	}
	ts->up = !tm_ctlc_reply_u64(reply, "auto_made", &ts->made) &&
		 !tm_ctlc_reply_u64(reply, "auto_held", &ts->held) &&
		 !tm_ctlc_reply_u64(reply, "auto_today", &ts->today) &&
		 !tm_ctlc_reply_u64(reply, "auto_per_day", &ts->per_day) &&
		 !tm_ctlc_reply_u64(reply, "auto_spacing_s", &ts->spacing_s);
	if (!ts->up)
		snprintf(ts->why, sizeof(ts->why), "an answer without the counts (an older tipmed?)");
}

/*
 * The next "tp.NAME=STATE" line of the module's parameters at or after
 * *pos: NAME and STATE cut into @name and @state.  Return: 0 at the end.
 */
static int next_tracepoint(const char **pos, char *name, size_t nlen,
			   char *state, size_t slen)
{
	const char *p = *pos;

	while (p && *p) {
		const char *end = strchr(p, '\n'), *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p);

		*pos = end ? end + 1 : p + len;
		eq = memchr(p, '=', len);
		if (len > 3 && !strncmp(p, "tp.", 3) && eq) {
			snprintf(name, nlen, "%.*s", (int)(eq - p - 3), p + 3);
			snprintf(state, slen, "%.*s", (int)(p + len - eq - 1), eq + 1);
			return 1;
		}
		p = *pos;
	}
	return 0;
}

/*
 * The value of "KEY=N" in the module's parameters into *@v.
 * Return: 0, or -1 when the parameters have no such line.
 */
static int param_u64(const char *params, const char *key, uint64_t *v)
{
	size_t klen = strlen(key);
	const char *p = params;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			*v = strtoull(p + klen + 1, NULL, 10);
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static void profiler_text(const struct tipme_status *st)
{
	uint64_t hz;

	if (param_u64(st->params, "profile_hz", &hz))
		return;
	if (hz)
		printf("profile: on-CPU profiler at %" PRIu64 " Hz per CPU\n", hz);
	else
		printf("profile: on-CPU profiler off (profile_hz=0)\n");
}

static void tracepoints_text(const struct tipme_status *st)
{
	const char *pos = st->params;
	char name[64], state[32];
	int n = 0;

	if (!st->params)
		return;
	while (next_tracepoint(&pos, name, sizeof(name), state, sizeof(state))) {
		printf("%s%s %s", n ? ", " : "optional tracepoints: ", name, state);
		n++;
	}
	if (n)
		putchar('\n');
}

static void status_text(const struct tipme_status *st)
{
	uint64_t lost = 0;
	size_t i;

	printf("tipme.ko %s: %s\n", st->version,
	       st->recording ? "recording" : "stopped");
	printf("clock:   %s, %" PRIu64 " kHz\n", tm_clock_source_name(st->clock_source, "unknown"),
	       st->tsc_khz);
	printf("keys:    %s\n", st->keylog_used ?
	       "key codes were recorded since load (key logging turned on)" :
	       "no key codes recorded (key logging off)");
	if (st->last_trigger.seq) {
		char when[64];
		time_t secs = (time_t)(st->last_trigger.real_ns / 1000000000ull);
		struct tm tm;

		gmtime_r(&secs, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		printf("trigger: last #%u (%s) at %s; %u since load\n",
		       st->last_trigger.seq,
		       tm_trigger_source_name(st->last_trigger.source, "unknown"), when,
		       st->triggers);
	} else {
		printf("trigger: none yet\n");
	}
	if (st->freeze.known)
		printf("freeze:  %s; %" PRIu64 " windows frozen since load, %" PRIu64
		       " released at once (no dump came), %" PRIu64 " thawed after the timeout\n",
		       st->freeze.gen ? "a trigger's window is frozen now" : "nothing frozen",
		       st->freeze.freezes, st->freeze.released, st->freeze.expired);
	printf("rings:   %" PRIu64 " KiB in all, %u sub-buffers of %u KiB per CPU\n",
	       st->buf_size >> 10, st->subbufs, st->subbuf_size >> 10);
	printf("%4s %14s %14s %10s %14s %9s %10s\n", "cpu", "written",
	       "overwritten", "dropped", "bytes", "history", "fill");
	for (i = 0; i < st->ncpus; i++) {
		const struct tipme_cpu_stats *c = &st->cpus[i];
		uint64_t ring = (uint64_t)st->subbufs * st->subbuf_size;
		double fill = ring ? 100.0 * (double)(c->bytes < ring ? c->bytes : ring) / ring : 0;

		printf("%4u %14llu %14llu %10llu %14llu %8.1fs %9.1f%%\n",
		       c->cpu, (unsigned long long)c->written,
		       (unsigned long long)c->overwritten,
		       (unsigned long long)c->dropped,
		       (unsigned long long)c->bytes, history_s(st, i), fill);
		lost += c->dropped;
	}
	if (lost)
		printf("LOST: %" PRIu64 " records dropped (see Documentation/format.rst)\n",
		       lost);
	profiler_text(st);
	tracepoints_text(st);
}

static void tipmed_text(const struct tipmed_status *ts)
{
	if (!ts->up) {
		printf("tipmed:  no answer (%s)\n", ts->why);
		return;
	}
	printf("tipmed:  auto incidents: %" PRIu64 " made, %" PRIu64
	       " held back; today %" PRIu64 " of %" PRIu64 ", at most one in %" PRIu64 " s\n",
	       ts->made, ts->held, ts->today, ts->per_day, ts->spacing_s);
}

static void status_json(const struct tipme_status *st,
			const struct tipmed_status *ts)
{
	struct tm_jw w;
	uint64_t hz;
	size_t i;

	tm_jw_init(&w, stdout, 0);
	tm_jw_obj_begin(&w);
	tm_jw_kstr(&w, "version", st->version);
	tm_jw_kbool(&w, "recording", st->recording);
	tm_jw_kstr(&w, "clock", tm_clock_source_name(st->clock_source, "unknown"));
	tm_jw_ku64(&w, "tsc_khz", st->tsc_khz);
	tm_jw_ku64(&w, "buffer_bytes", st->buf_size);
	tm_jw_ku64(&w, "subbuf_bytes", st->subbuf_size);
	tm_jw_ku64(&w, "subbufs_per_cpu", st->subbufs);
	tm_jw_kbool(&w, "keylog_used", st->keylog_used);
	tm_jw_ku64(&w, "triggers", st->triggers);
	tm_jw_key(&w, "last_trigger");
	if (st->last_trigger.seq) {
		tm_jw_obj_begin(&w);
		tm_jw_ku64(&w, "seq", st->last_trigger.seq);
		tm_jw_kstr(&w, "source", tm_trigger_source_name(st->last_trigger.source, "unknown"));
		tm_jw_ku64(&w, "mono_ns", st->last_trigger.mono_ns);
		tm_jw_ku64(&w, "real_ns", st->last_trigger.real_ns);
		tm_jw_obj_end(&w);
	} else {
		tm_jw_null(&w);
	}
	tm_jw_key(&w, "freeze");
	if (st->freeze.known) {
		tm_jw_obj_begin(&w);
		tm_jw_kbool(&w, "frozen", st->freeze.gen != 0);
		tm_jw_ku64(&w, "freezes", st->freeze.freezes);
		tm_jw_ku64(&w, "released", st->freeze.released);
		tm_jw_ku64(&w, "expired", st->freeze.expired);
		tm_jw_obj_end(&w);
	} else {
		tm_jw_null(&w);
	}
	tm_jw_key(&w, "cpus");
	tm_jw_arr_begin(&w);
	for (i = 0; i < st->ncpus; i++) {
		const struct tipme_cpu_stats *c = &st->cpus[i];

		tm_jw_obj_begin(&w);
		tm_jw_ku64(&w, "cpu", c->cpu);
		tm_jw_ku64(&w, "written", c->written);
		tm_jw_ku64(&w, "overwritten", c->overwritten);
		tm_jw_ku64(&w, "dropped", c->dropped);
		tm_jw_ku64(&w, "bytes", c->bytes);
		tm_jw_kdouble(&w, "history_s", history_s(st, i));
		tm_jw_obj_end(&w);
	}
	tm_jw_arr_end(&w);
	tm_jw_key(&w, "tracepoints");
	if (st->params) {
		const char *pos = st->params;
		char name[64], state[32];

		tm_jw_obj_begin(&w);
		while (next_tracepoint(&pos, name, sizeof(name), state, sizeof(state)))
			tm_jw_kstr(&w, name, state);
		tm_jw_obj_end(&w);
	} else {
		tm_jw_null(&w);
	}
	tm_jw_key(&w, "profile_hz");
	if (!param_u64(st->params, "profile_hz", &hz))
		tm_jw_u64(&w, hz);
	else
		tm_jw_null(&w);
	tm_jw_key(&w, "tipmed");
	if (ts->up) {
		tm_jw_obj_begin(&w);
		tm_jw_ku64(&w, "auto_made", ts->made);
		tm_jw_ku64(&w, "auto_held", ts->held);
		tm_jw_ku64(&w, "auto_today", ts->today);
		tm_jw_ku64(&w, "auto_per_day", ts->per_day);
		tm_jw_ku64(&w, "auto_spacing_s", ts->spacing_s);
		tm_jw_obj_end(&w);
	} else {
		tm_jw_null(&w);
	}
	tm_jw_obj_end(&w);
	tm_jw_finish(&w);
}

int cmd_status(int argc, char **argv)
{
	struct tipmed_status ts;
	struct tipme_status st;
	struct tm_err e = { "" };
	struct env env;
	struct tnl t;
	int err;

	if (parse_opts(argc, argv, &env, OPT_SOCKET,
		       "usage: tipme status [--json] [--socket PATH]\n"
		       "  Recording state, ring sizes and per-CPU counters of tipme.ko,\n"
		       "  and tipmed's counts of auto incidents (its control socket,\n"
		       "  " TIPME_CTL_SOCKET " unless --socket).\n"))
		return 2;
	err = tnl_open(&t, &e);
	if (!err)
		err = tnl_status(&t, &st, &e);
	tnl_close(&t);
	if (err) {
		fprintf(stderr, "tipme status: %s\n", e.msg);
		return 1;
	}
	tipmed_status(env.socket, &ts);
	if (env.json) {
		status_json(&st, &ts);
	} else {
		status_text(&st);
		tipmed_text(&ts);
	}
	tipme_status_free(&st);
	return 0;
}

static int simple(int argc, char **argv, uint8_t cmd, const char *usage)
{
	struct tm_err e = { "" };
	struct env env;
	struct tnl t;
	int err;

	if (parse_opts(argc, argv, &env, 0, usage))
		return 2;
	err = tnl_open(&t, &e);
	if (!err)
		err = tnl_simple(&t, cmd, &e);
	tnl_close(&t);
	if (err) {
		fprintf(stderr, "tipme %s: %s\n", argv[0], e.msg);
		return 1;
	}
	if (env.json)
		printf("{\"recording\":%s}\n", cmd == TIPME_CMD_START ? "true" : "false");
	return 0;
}

int cmd_start(int argc, char **argv)
{
	return simple(argc, argv, TIPME_CMD_START,
		      "usage: tipme start [--json]\n  Start recording.\n");
}

int cmd_stop(int argc, char **argv)
{
	return simple(argc, argv, TIPME_CMD_STOP,
		      "usage: tipme stop [--json]\n"
		      "  Stop recording; the rings keep what they hold.\n");
}

int cmd_dump(int argc, char **argv)
{
	struct tnl_dump_stats ds;
	struct tm_err e = { "" };
	char name[64];
	struct env env;
	struct tnl t;
	int err;

	if (parse_opts(argc, argv, &env, OPT_OUTPUT,
		       "usage: tipme dump [--json] [-o FILE]\n"
		       "  Write what the rings hold to a dump file (mode 0600).\n"
		       "  Default FILE: tipme-<UTC time>.dump in this directory.\n"
		       "EXAMPLES\n"
		       "  tipme dump -o /tmp/now.dump && tipme info /tmp/now.dump\n"))
		return 2;
	if (!env.output) {
		time_t now = time(NULL);
		struct tm tm;

		gmtime_r(&now, &tm);
		strftime(name, sizeof(name), "tipme-%Y%m%dT%H%M%SZ.dump", &tm);
		env.output = name;
	}
	err = tnl_open(&t, &e);
	if (!err)
		err = tnl_dump_to_file(&t, env.output, NULL, &ds, &e);
	tnl_close(&t);
	if (err) {
		fprintf(stderr, "tipme dump: %s\n", e.msg);
		return 1;
	}
	if (env.json) {
		struct tm_jw w;

		tm_jw_init(&w, stdout, 0);
		tm_jw_obj_begin(&w);
		tm_jw_kstr(&w, "file", env.output);
		tm_jw_ku64(&w, "bytes", ds.bytes);
		tm_jw_ku64(&w, "subbufs", ds.subbufs);
		tm_jw_ku64(&w, "discarded_subbufs", ds.discarded);
		tm_jw_ku64(&w, "cpus", ds.cpus);
		tm_jw_kstr(&w, "read", ds.mapped ? "mapped" : "copied");
		tm_jw_kdouble(&w, "seconds", ds.seconds);
		tm_jw_obj_end(&w);
		tm_jw_finish(&w);
	} else {
		printf("%s: %" PRIu64 " bytes of records from %u CPUs in %.3f s (%s)",
		       env.output, ds.bytes, ds.cpus, ds.seconds,
		       ds.mapped ? "mapped" : "copied");
		if (ds.discarded)
			printf(", %" PRIu64 " sub-buffers lost while reading (overwritten or still written)",
			       ds.discarded);
		printf("\n");
	}
	return 0;
}

/* ---- triggers and incidents ------------------------------------------ */

int cmd_trigger(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reason", required_argument, NULL, 'r' },
		{ "socket", required_argument, NULL, 's' },
		{ "direct", no_argument, NULL, 'D' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"usage: tipme trigger [--reason TEXT] [--json] [--socket PATH | --direct]\n"
		"  Ask for a dump now: tipmed saves an incident with the last minute.\n"
		"  Goes through tipmed's control socket (root or the 'tipme' group);\n"
		"  without tipmed, or with --direct, root triggers tipme.ko over netlink.\n"
		"EXAMPLES\n"
		"  tipme trigger --reason 'typing in the editor froze'\n";
	const char *reason = NULL, *sock = NULL;
	char req[TIPME_CTL_LINE_MAX], reply[256];
	struct tm_err e = { "" };
	uint64_t seq = 0, coal = 0;
	int c, json = 0, err = -ENOENT, via = 0, direct = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "r:s:Djh", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			reason = optarg;
			break;
		case 's':
			sock = optarg;
			break;
		case 'D':
			direct = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc || (reason && strchr(reason, '\n')) || (direct && sock)) {
		fputs(usage, stderr);
		return 2;
	}
	snprintf(req, sizeof(req), "TRIGGER user%s%s", reason ? " " : "",
		 reason ? reason : "");
	if (!direct)
		err = tm_ctlc_request(sock, req, NULL, 0, reply, sizeof(reply), &e);
	if (!err) {
		tm_ctlc_reply_u64(reply, "seq", &seq);
		tm_ctlc_reply_u64(reply, "coalesced", &coal);
		via = 1;
	} else if (direct || ((err == -ENOENT || err == -ECONNREFUSED) && !sock)) {
		struct tnl t;
		uint32_t s;
		int co;

		e.msg[0] = '\0';
		err = tnl_open(&t, &e);
		if (!err)
			err = tnl_trigger(&t, TIPME_TRIG_NETLINK, &s, &co, &e);
		tnl_close(&t);
		seq = s;
		coal = co;
		if (!err && reason)
			fprintf(stderr, "tipme trigger: tipmed is not running: nothing will save the incident or the reason\n");
	}
	if (err) {
		fprintf(stderr, "tipme trigger: %s\n", e.msg);
		return 1;
	}
	if (json)
		printf("{\"seq\":%" PRIu64 ",\"coalesced\":%s,\"via\":\"%s\"}\n",
		       seq, coal ? "true" : "false", via ? "tipmed" : "netlink");
	else if (coal)
		printf("joined trigger %" PRIu64 " (requests within the coalescing interval make one incident)\n",
		       seq);
	else
		printf("trigger %" PRIu64 "\n", seq);
	return 0;
}

int cmd_note(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"usage: tipme note [--socket PATH] INCIDENT TEXT...\n"
		"  Set the one-line description of an incident (what felt slow),\n"
		"  through tipmed's control socket (root or the 'tipme' group).\n"
		"  Options come before INCIDENT: the words after it are the text.\n"
		"  --socket PATH  tipmed's control socket (tipmed -s), if not\n"
		"                 " TIPME_CTL_SOCKET "\n"
		"EXAMPLES\n"
		"  tipme note 20261122T101500Z-3 scrolling the browser stuttered\n"
		"  tipme note --socket /tmp/tipmed.sock 20261122T101500Z-3 make -j8 froze it\n";
	char req[TIPME_CTL_LINE_MAX], reply[256], text[TIPME_CTL_LINE_MAX] = "";
	struct tm_err e = { "" };
	const char *sock = NULL;
	size_t len = 0;
	int c, i;

	optind = 1;
	/* "+": stop at INCIDENT, so that the text may hold words like "-v" */
	while ((c = getopt_long(argc, argv, "+s:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			sock = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (argc - optind < 2 || !tm_ctl_name_ok(argv[optind])) {
		fputs(usage, stderr);
		return 2;
	}
	for (i = optind + 1; i < argc; i++) {
		int n = snprintf(text + len, sizeof(text) - len, "%s%s",
				 i > optind + 1 ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= sizeof(text) - len) {
			fprintf(stderr, "tipme note: text too long\n");
			return 2;
		}
		len += n;
	}
	if (strchr(text, '\n')) {
		fprintf(stderr, "tipme note: the description is one line\n");
		return 2;
	}
	snprintf(req, sizeof(req), "NOTE %s %s", argv[optind], text);
	if (tm_ctlc_request(sock, req, NULL, 0, reply, sizeof(reply), &e)) {
		fprintf(stderr, "tipme note: %s\n", e.msg);
		return 1;
	}
	return 0;
}

/* At most @max bytes of @name in @dirfd, NUL-terminated; never follows a
 * symlink; NULL if unreadable. */
static char *read_member(int dirfd, const char *name, size_t max)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char *buf;
	ssize_t n;

	if (fd < 0)
		return NULL;
	buf = malloc(max + 1);
	n = buf ? read(fd, buf, max) : -1;
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

int cmd_incidents(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "incident-dir", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"usage: tipme incidents [--json] [--incident-dir DIR]\n"
		"  List the saved incidents, oldest first: name, time (UTC), source,\n"
		"  and for an auto incident how long the press that fired it took,\n"
		"  then the description.\n";
	const char *root = TIPME_INCIDENT_DIR;
	struct tm_err e = { "" };
	char **names, path[4096], src[32], utc[32];
	size_t n, i;
	struct tm_jw w;
	int c, json = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			root = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fputs(usage, stderr);
		return 2;
	}
	if (incident_list(root, &names, &n, &e)) {
		fprintf(stderr, "tipme incidents: %s\n", e.msg);
		return 1;
	}
	if (json) {
		tm_jw_init(&w, stdout, 0);
		tm_jw_arr_begin(&w);
	} else if (!n) {
		printf("no incidents in %s\n", root);
	}
	for (i = 0; i < n; i++) {
		struct tm_incident_meta_view mv = { 0 };
		struct tm_err me = { "" };
		char *desc = NULL;
		int dfd, old_x = 0;
		struct stat xst;

		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd >= 0) {
			if (tm_incident_meta_read(dfd, &mv, &me))
				fprintf(stderr, "tipme incidents: %s: %s\n",
					names[i], me.msg);
			desc = read_member(dfd, "description.txt", 4096);
			old_x = !fstatat(dfd, TIPME_INCIDENT_X_DUMP, &xst,
					 AT_SYMLINK_NOFOLLOW) && S_ISREG(xst.st_mode);
			close(dfd);
		}
		if (desc)
			desc[strcspn(desc, "\n")] = '\0';
		snprintf(src, sizeof(src), "%s", mv.source);
		snprintf(utc, sizeof(utc), "%s", mv.utc);
		if (json) {
			tm_jw_obj_begin(&w);
			tm_jw_kstr(&w, "name", names[i]);
			tm_jw_kstr(&w, "utc", utc);
			tm_jw_kstr(&w, "source", src);
			tm_jw_kstr(&w, "description", desc ? desc : "");
			if (mv.has_auto) {
				tm_jw_ku64(&w, "auto_press_mono_ns", mv.auto_press_ns);
				tm_jw_ku64(&w, "auto_latency_ns", mv.auto_latency_ns);
			}
			tm_jw_kbool(&w, "old_x_dump", old_x);
			tm_incident_meta_json_who(&w, &mv);
			snprintf(path, sizeof(path), "%s/%s", root, names[i]);
			tm_jw_kstr(&w, "path", path);
			tm_jw_obj_end(&w);
		} else {
			char lat[64] = "";

			char who[400];
			unsigned int k;

			if (mv.has_auto && mv.auto_claimed)
				snprintf(lat, sizeof(lat), "a press took %.0f ms (claimed by uid %u)%s",
					 mv.auto_latency_ns / 1e6,
					 (unsigned int)mv.auto_claimed_by, desc ? "; " : "");
			else if (mv.has_auto)
				snprintf(lat, sizeof(lat), "a press took %.0f ms%s",
					 mv.auto_latency_ns / 1e6, desc ? "; " : "");
			printf("%-28s %-20s %-9s %s%s\n", names[i], utc, src, lat,
			       desc ? desc : "");
			if (mv.has_requester)
				printf("%-28s asked for by uid %u\n", "",
				       (unsigned int)mv.requester_uid);
			for (k = 0; k < mv.nhandins; k++) {
				tm_incident_handin_text(&mv.handins[k], who, sizeof(who));
				printf("%-28s X dump from %s\n", "", who);
			}
			if (old_x)
				printf("%-28s X dump: %s (who handed it in is not recorded)\n",
				       "", TIPME_INCIDENT_X_DUMP);
		}
		free(desc);
	}
	if (json) {
		tm_jw_arr_end(&w);
		tm_jw_finish(&w);
	}
	incident_list_free(names, n);
	return 0;
}
