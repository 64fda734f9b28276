// SPDX-License-Identifier: GPL-2.0
/*
 * netpeer: a client (this process) asks a server over TCP and waits for
 * its answer.  The server is a child that enters network namespace NETNS
 * (a file /run/netns/NAME: `ip netns add` made it, with a veth pair
 * between it and ours) and listens on SERVER_ADDR:5000; the client
 * connects from our namespace.  Once connected, the client writes a one
 * byte request and reads the one byte answer; the server, having read the
 * request, first
 *
 *   sleep MS   sleeps MS ms (a slow local peer: the wait is its sleep);
 *   spin MS    computes MS ms of CPU time (a slow peer computing);
 *   now        nothing: it answers at once (the test delays the link
 *              with netem: the wait is the network's).
 *
 * Prints the ground truth, CLOCK_MONOTONIC ns:
 *
 *   client=PID server=PID start_ns=T woke_ns=T sent_ns=T
 *   lport=P rport=5000
 *
 * (when the client's request was written; when its read returned; when
 * the server had its answer ready to write; the client's port).  The
 * client's address is not printed: the test gave it.
 *
 *   netpeer NETNS SERVER_ADDR sleep|spin|now [MS]
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proglib.h"

#define PORT	5000

static char **srv_args;
static long srv_ms;

/* the child: the server, answering through end 1 of pipe @arg */
static void server(void *arg)
{
	net_server(srv_args[1], srv_args[2], PORT, srv_args[3], srv_ms, ((int *)arg)[1]);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	struct sockaddr_in me;
	socklen_t len = sizeof(me);
	long long start, woke, sent;
	int p[2], fd, one = 1, st;
	long ms = argc > 4 ? atol(argv[4]) : 0;
	pid_t child;
	char b;

	if (argc < 4 || (strcmp(argv[3], "now") && ms <= 0)) {
		fprintf(stderr, "usage: netpeer NETNS SERVER_ADDR sleep|spin|now [MS]\n");
		return 2;
	}
	if (inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1)
		die("server address");
	srv_args = argv;
	srv_ms = ms;
	child = fork_piped(p, 1, server, p);
	if (read(p[0], &b, 1) != 1)
		die("server not ready");
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    getsockname(fd, (struct sockaddr *)&me, &len))
		die("connect");
	if (write(fd, "q", 1) != 1)
		die("client write");
	start = mono_ns();
	if (read(fd, &b, 1) != 1)
		die("client read");
	woke = mono_ns();
	if (read(p[0], &sent, sizeof(sent)) != sizeof(sent))
		die("server time");
	close(fd);
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		die("server failed");
	printf("client=%d server=%d start_ns=%lld woke_ns=%lld sent_ns=%lld lport=%u rport=%d\n",
	       (int)getpid(), (int)child, start, woke, sent, ntohs(me.sin_port), PORT);
	return 0;
}
