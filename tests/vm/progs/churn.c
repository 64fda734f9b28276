// SPDX-License-Identifier: GPL-2.0
/*
 * churn: more processes, user-space chains and blocking sites than the
 * module's tables hold (t-churn.sh, issue 31).
 *
 *   churn N         the parent: N children, one after the other
 *   churn child I   a child (exec'd by the parent): one sleep, I % 16 calls
 *                   deep, then exit
 *   churn storm N SECS PROG
 *                   a fork/exec storm (bench/vm/measure-storm.sh): N
 *                   children exec PROG one after the other, none
 *                   sleeping, for at most SECS seconds; prints
 *                   "storm=N done=M first=PID last=PID secs=S"
 *
 * The parent first sleeps once at each of SITES different kernel blocking
 * sites (nanosleep, a pipe's read, poll, select, wait4, a futex, epoll,
 * sigtimedwait), then forks and execs itself as "churn child I" for I = 0
 * .. N-1, each waited for before the next.  Every child's sleep is a user
 * chain of its own (chains are keyed by process), and every child an exec
 * table entry with a path and argv.  Prints the ground truth on one line:
 *
 *   parent=PID children=N sites=SITES first=PID last=PID
 *
 * Built with frame pointers so that a child's chain grows with I.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SITES	8
#define SLEEP_NS	1000000L	/* each sleep: 1 ms */

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void nap(void)
{
	struct timespec ts = { 0, SLEEP_NS };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* @depth more frames on the stack, then a sleep. */
static __attribute__((noinline)) int deeper(int depth)
{
	int r;

	if (depth <= 0) {
		nap();
		return 0;
	}
	r = deeper(depth - 1);
	__asm__ volatile("" : : "r"(r) : "memory");	/* not a tail call */
	return r + 1;
}

/* A child that writes a pipe's byte after 1 ms, so that the parent's read sleeps. */
static pid_t later_write(int fd)
{
	pid_t p = fork();

	if (p < 0)
		die("fork");
	if (!p) {
		nap();
		if (write(fd, "x", 1) != 1)
			_exit(2);
		_exit(0);
	}
	return p;
}

/* One sleep at each of SITES blocking sites of the kernel. */
static void sites(void)
{
	struct timeval tv = { 0, SLEEP_NS / 1000 };
	struct timespec ts = { 0, SLEEP_NS };
	struct epoll_event ev;
	uint32_t futex_word = 0;
	int fds[2], ep, st;
	sigset_t set;
	fd_set rd;
	char c;
	pid_t p;

	nap();					/* 1: nanosleep */
	if (pipe(fds))
		die("pipe");
	p = later_write(fds[1]);
	if (read(fds[0], &c, 1) != 1)		/* 2: a pipe's read */
		die("read");
	if (waitpid(p, &st, 0) != p)		/* (a wait, maybe no sleep) */
		die("waitpid");
	poll(NULL, 0, 1);			/* 3: poll */
	FD_ZERO(&rd);
	FD_SET(fds[0], &rd);
	select(fds[0] + 1, &rd, NULL, NULL, &tv);	/* 4: select */
	p = later_write(fds[1]);
	if (waitpid(p, &st, 0) != p)		/* 5: wait4 */
		die("waitpid");
	if (read(fds[0], &c, 1) != 1)
		die("read");
	syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);	/* 6 */
	ep = epoll_create1(0);
	if (ep < 0)
		die("epoll_create1");
	ev.events = EPOLLIN;
	ev.data.fd = fds[0];
	if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], &ev))
		die("epoll_ctl");
	epoll_wait(ep, &ev, 1, 1);		/* 7: epoll */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigtimedwait(&set, NULL, &ts);		/* 8: sigtimedwait */
	close(ep);
	close(fds[0]);
	close(fds[1]);
}

/*
 * Fork, exec @path as @arg0 with up to two arguments (NULL ends them),
 * wait for it; it must exit with 0.  Return: its pid.
 */
static pid_t run_child(const char *path, const char *arg0, const char *a1,
		       const char *a2)
{
	pid_t p = fork();
	int st;

	if (p < 0)
		die("fork");
	if (!p) {
		execl(path, arg0, a1, a2, (char *)NULL);
		_exit(127);
	}
	if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st))
		die("child");
	return p;
}

/* Fork and exec @prog up to @n times, for at most @secs seconds. */
static int storm(long n, long secs, const char *prog)
{
	struct timespec t0, t;
	pid_t first = 0, last = 0;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	t = t0;
	for (i = 0; i < n && t.tv_sec - t0.tv_sec < secs; i++) {
		last = run_child(prog, prog, NULL, NULL);
		if (!first)
			first = last;
		clock_gettime(CLOCK_MONOTONIC, &t);
	}
	printf("storm=%ld done=%ld first=%d last=%d secs=%.1f\n", n, i, (int)first,
	       (int)last, (double)(t.tv_sec - t0.tv_sec) +
	       (t.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}

int main(int argc, char **argv)
{
	pid_t first = 0, last = 0;
	char num[24];
	long i, n;

	if (argc == 3 && !strcmp(argv[1], "child"))
		return deeper(atoi(argv[2]) % 16) < 0;
	if (argc == 5 && !strcmp(argv[1], "storm") && atol(argv[2]) > 0)
		return storm(atol(argv[2]), atol(argv[3]), argv[4]);
	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: churn N | churn storm N SECS PROG\n");
		return 2;
	}
	sites();
	for (i = 0; i < n; i++) {
		snprintf(num, sizeof(num), "%ld", i);
		last = run_child("/proc/self/exe", "churn", "child", num);
		if (!first)
			first = last;
	}
	printf("parent=%d children=%ld sites=%d first=%d last=%d\n", (int)getpid(), n,
	       SITES, (int)first, (int)last);
	return 0;
}
