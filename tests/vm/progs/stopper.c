// SPDX-License-Identifier: GPL-2.0
/*
 * stopper: a parent waits on a pipe for its child's answer while the child
 * is stopped (SIGSTOP) for MS milliseconds; a third process continues it
 * (SIGCONT).  The ground truth a report is checked against:
 *
 *   parent=PID child=PID continuer=PID ms=MS from_ns=T to_ns=T
 *   sent_lo_ns=T sent_hi_ns=T
 *
 * from_ns: CLOCK_MONOTONIC just before the parent blocks on the pipe (the
 * child is already stopped); to_ns: when its read returned; sent_lo_ns and
 * sent_hi_ns: just before and just after the continuer's kill(2), so the
 * child was stopped until a moment between the two (the continuer's sleep
 * of MS can last longer on a loaded machine).
 *
 *   stopper [MS]     (default 300)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? strtol(argv[1], NULL, 10) : 300;
	pid_t child, cont;
	long long t0, t1, sent[2];
	int fd[2], sp[2], st;
	char c = 'a';

	if (ms <= 0 || ms > 5000 || pipe(fd) || pipe(sp))
		return 2;
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		close(fd[0]);
		raise(SIGSTOP);		/* until the continuer says */
		_exit(write(fd[1], &c, 1) == 1 ? 0 : 1);
	}
	close(fd[1]);
	if (waitpid(child, &st, WUNTRACED) != child || !WIFSTOPPED(st))
		return 1;
	cont = fork();
	if (cont < 0)
		return 1;
	if (!cont) {
		struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };

		while (nanosleep(&d, &d))
			;
		sent[0] = mono_ns();
		kill(child, SIGCONT);
		sent[1] = mono_ns();
		_exit(write(sp[1], sent, sizeof(sent)) == sizeof(sent) ? 0 : 1);
	}
	close(sp[1]);
	t0 = mono_ns();
	if (read(fd[0], &c, 1) != 1)
		return 1;
	t1 = mono_ns();
	if (read(sp[0], sent, sizeof(sent)) != sizeof(sent))
		return 1;
	waitpid(cont, NULL, 0);
	waitpid(child, NULL, 0);
	printf("parent=%d child=%d continuer=%d ms=%ld from_ns=%lld to_ns=%lld "
	       "sent_lo_ns=%lld sent_hi_ns=%lld\n",
	       (int)getpid(), (int)child, (int)cont, ms, t0, t1, sent[0], sent[1]);
	return 0;
}
