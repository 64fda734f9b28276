// SPDX-License-Identifier: GPL-2.0
/*
 * A debuginfod server for the tests (dinfod.h).  debuginfod's log goes
 * to a pipe that a reader process of ours drains to the end (so that the
 * server never blocks on it) into a file; the reader says "ready" on a
 * second pipe once the log said that each build-id the test needs was
 * recorded.  No port argument of 0 exists (debuginfod 0.188), so the
 * port is one the kernel just gave out and took back, tried again when
 * the server finds it taken.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dinfod.h"

#define DINFOD_READY_MS	120000	/* a busy machine's worst, not a wait */
#define DINFOD_TRIES	3
#define DINFOD_BIDS	8

int dinfod_installed(void)
{
	return system("command -v debuginfod >/dev/null 2>&1") == 0;
}

static int bound(int listen_too, int *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &al) ||
	    (listen_too && listen(fd, 64))) {
		close(fd);
		return -1;
	}
	*port = ntohs(a.sin_port);
	return fd;
}

int dinfod_free_port(void)
{
	int port, fd = bound(0, &port);

	if (fd < 0)
		return -1;
	close(fd);
	return port;
}

int dinfod_black_hole(int *port)
{
	int fd = bound(1, port);

	if (fd >= 0 && fcntl(fd, F_SETFL, O_NONBLOCK)) {	/* dinfod_connections() */
		close(fd);
		return -1;
	}
	return fd;
}

int dinfod_connections(int fd)
{
	int n = 0, c;

	while ((c = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0 ||
	       errno == EINTR) {
		if (c >= 0) {
			close(c);
			n++;
		}
	}
	return n;
}

/*
 * The reader: @in's lines into @log; "1" on @ready once each of @bids has
 * a line "recorded buildid=BID ... atype=...D"; then on to the end.
 */
static void __attribute__((noreturn))
reader(int in, int ready, const char *log, const char *const *bids)
{
	int seen[DINFOD_BIDS] = { 0 }, told = 0;
	FILE *f = fdopen(in, "r"), *out = fopen(log, "w");
	char *line = NULL;
	size_t cap = 0, i;

	while (f && getline(&line, &cap, f) > 0) {
		const char *r = strstr(line, "recorded buildid="), *at;

		if (out) {
			fputs(line, out);
			fflush(out);
		}
		at = r ? strstr(r, " atype=") : NULL;
		for (i = 0; at && bids[i] && i < DINFOD_BIDS; i++) {
			size_t n = strlen(bids[i]);

			if (!strncmp(r + 17, bids[i], n) && r[17 + n] == ' ' &&
			    strchr(at + 7, 'D'))
				seen[i] = 1;
		}
		for (i = 0; bids[i] && i < DINFOD_BIDS && seen[i]; i++)
			;
		if (!told && !bids[i]) {
			told = 1;
			if (write(ready, "1", 1) != 1)
				break;
			close(ready);
		}
	}
	_exit(0);
}

/* The log's last line, for a message. */
static void last_line(const char *log, char *why, size_t len)
{
	char line[512] = "";
	FILE *f = fopen(log, "r");

	while (f && fgets(line, sizeof(line), f))
		;
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = '\0';
	snprintf(why, len, "debuginfod did not get ready: %s", *line ? line : "(no log)");
}

static int start_once(struct dinfod_srv *s, const char *dir, const char *work,
		      const char *const *bids, char *why, size_t len)
{
	char port[16], db[4096], log[4096];
	int lp[2], rp[2], ok = 0;
	struct pollfd p;
	char c;

	s->port = dinfod_free_port();
	if (s->port < 0) {
		snprintf(why, len, "no free port: %s", strerror(errno));
		return -1;
	}
	snprintf(port, sizeof(port), "%d", s->port);
	snprintf(s->url, sizeof(s->url), "http://127.0.0.1:%d", s->port);
	snprintf(db, sizeof(db), "%s/debuginfod.sqlite", work);
	snprintf(log, sizeof(log), "%s/debuginfod.log", work);
	unlink(db);
	if (pipe2(lp, O_CLOEXEC))
		return -1;
	if (pipe2(rp, O_CLOEXEC)) {
		close(lp[0]);
		close(lp[1]);
		return -1;
	}
	fflush(NULL);
	s->pid = fork();
	if (s->pid == 0) {
		dup2(lp[1], 1);
		dup2(lp[1], 2);
		/* -F: scan @dir once (-t 0), no grooming, no source files */
		execlp("debuginfod", "debuginfod", "-p", port, "-d", db, "-F", "-t", "0", "-g",
		       "0", "-c", "1", "--disable-source-scan", "-vvv", dir, (char *)NULL);
		_exit(127);
	}
	if (s->pid > 0) {
		s->reader = fork();
		if (s->reader == 0) {
			close(lp[1]);
			close(rp[0]);
			reader(lp[0], rp[1], log, bids);
		}
	}
	close(lp[0]);
	close(lp[1]);
	close(rp[1]);
	if (s->pid > 0 && s->reader > 0) {
		int n;

		p = (struct pollfd){ .fd = rp[0], .events = POLLIN };
		while ((n = poll(&p, 1, DINFOD_READY_MS)) < 0 && errno == EINTR)
			;
		/* end of file: the server ended (a port found taken) */
		ok = n > 0 && read(rp[0], &c, 1) == 1;
	}
	close(rp[0]);
	if (!ok) {
		dinfod_stop(s);
		last_line(log, why, len);
		return -1;
	}
	return 0;
}

int dinfod_start(struct dinfod_srv *s, const char *dir, const char *work,
		 const char *const *bids, char *why, size_t len)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; bids[i]; i++)
		if (i == DINFOD_BIDS) {
			snprintf(why, len, "more than %d build-ids", DINFOD_BIDS);
			return -1;
		}
	for (i = 0; i < DINFOD_TRIES; i++)
		if (!start_once(s, dir, work, bids, why, len))
			return 0;
	return -1;
}

void dinfod_stop(struct dinfod_srv *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		waitpid(s->pid, NULL, 0);
	}
	if (s->reader > 0)
		waitpid(s->reader, NULL, 0);	/* it ends at the log's end */
	s->pid = s->reader = 0;
}
