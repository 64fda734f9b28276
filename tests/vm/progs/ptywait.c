// SPDX-License-Identifier: GPL-2.0
/*
 * ptywait: a reader waits for a byte on a pseudo-terminal that a writer
 * process writes after sleeping MS milliseconds.  The kernel hands what a
 * pty's master writes to the reader from a work item (flush_to_ldisc, run
 * by a kernel worker), which the writer queued.  Prints
 *
 *   pid=TID reader=PID writer=PID sleep_start_ns=T sleep_end_ns=T wait_start_ns=T wait_end_ns=T
 *
 * (CLOCK_MONOTONIC): pid is the thread whose wait to analyse, from just
 * before it began to wait until it was done; the writer's sleep inside it
 * is the ground truth of the stall.  With "chain", that thread is a second
 * thread of the reader's process, waiting on a pipe for the reader to pass
 * the byte on: the wait leads to the reader, to the worker, to the writer.
 *
 *   ptywait [MS [chain]]     (default 300)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int relay[2];
static pid_t waiter_tid;
static long long wait_start, wait_end;

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* chain: waits on the pipe for the reader to pass the byte on */
static void *waiter(void *arg)
{
	char c;

	(void)arg;
	waiter_tid = (pid_t)syscall(SYS_gettid);
	wait_start = mono_ns();
	if (read(relay[0], &c, 1) != 1)
		return (void *)1;
	wait_end = mono_ns();
	return NULL;
}

static int writer(int master, long ms, int out)
{
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
	long long a, b;
	char line[128];
	int n;

	a = mono_ns();
	nanosleep(&d, NULL);
	b = mono_ns();
	if (write(master, "x", 1) != 1)
		return 1;
	n = snprintf(line, sizeof(line), "writer=%d sleep_start_ns=%lld sleep_end_ns=%lld",
		     (int)getpid(), a, b);
	return write(out, line, (size_t)n) == n ? 0 : 1;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 300;
	int chain = argc > 2 && !strcmp(argv[2], "chain");
	int master, slave, res[2], status;
	struct termios tio;
	char c, wline[128];
	pthread_t th;
	void *thr = NULL;
	long long a, b;
	ssize_t n;
	pid_t pid;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		perror("posix_openpt");
		return 1;
	}
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (slave < 0 || tcgetattr(slave, &tio)) {
		perror("pty slave");
		return 1;
	}
	cfmakeraw(&tio);		/* a read returns with the first byte */
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	if (tcsetattr(slave, TCSANOW, &tio) || pipe(res) || pipe(relay)) {
		perror("setup");
		return 1;
	}
	if (chain && pthread_create(&th, NULL, waiter, NULL)) {
		perror("pthread_create");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid)
		_exit(writer(master, ms, res[1]));
	close(res[1]);
	a = mono_ns();
	if (read(slave, &c, 1) != 1) {
		perror("read pty");
		return 1;
	}
	b = mono_ns();
	if (chain && (write(relay[1], &c, 1) != 1 || pthread_join(th, &thr) || thr)) {
		fprintf(stderr, "ptywait: the waiter thread failed\n");
		return 1;
	}
	n = read(res[0], wline, sizeof(wline) - 1);
	if (n <= 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "ptywait: the writer failed\n");
		return 1;
	}
	wline[n] = '\0';
	if (chain)
		printf("pid=%d reader=%d %s wait_start_ns=%lld wait_end_ns=%lld\n",
		       (int)waiter_tid, (int)getpid(), wline, wait_start, wait_end);
	else
		printf("pid=%d reader=%d %s wait_start_ns=%lld wait_end_ns=%lld\n",
		       (int)getpid(), (int)getpid(), wline, a, b);
	return 0;
}
