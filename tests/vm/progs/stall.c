// SPDX-License-Identifier: GPL-2.0
/*
 * stall: reproduce a latency stall whose cause is known.
 *
 * A "victim" (think: the editor a user types into) asks a "server" (think:
 * the display server) for a reply over a pipe.  At the same moment a
 * real-time "hog" pinned to the server's CPU spins for MS milliseconds, so
 * the server, woken, cannot run: the victim waits ~MS ms in its pipe read.
 * The three are siblings, children of this program, which only waits for
 * them: a server is no child of the app that asks it (and a wait for one's
 * own child is not a stall, Documentation/report.md).  The victim prints
 * the ground truth a test checks a diagnosis against:
 *
 *   victim=PID server=PID hog=PID ms=MS latency_ms=L start=MONO end=MONO
 *
 *   stall [MS] (default 300)
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("stall: sched_setaffinity");
		exit(1);
	}
}

static void xread(int fd, char *c)
{
	if (read(fd, c, 1) != 1)
		exit(1);
}

static void xwrite(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		exit(1);
}

int main(int argc, char **argv)
{
	int ms = argc > 1 ? atoi(argv[1]) : 300;
	int req[2], rep[2], go[2], ready[2];
	struct sched_param sp = { .sched_priority = 10 };
	pid_t server, hog, victim;
	double t0, t1;
	int status;
	char c;

	if (ms <= 0 || ms > 900 || pipe(req) || pipe(rep) || pipe(go) ||
	    pipe(ready)) {
		fprintf(stderr, "usage: stall [MS] (1..900)\n");
		return 2;
	}
	server = fork();
	if (!server) {
		pin(1);
		xwrite(ready[1], 's');
		xread(req[0], &c);
		xwrite(rep[1], 'r');
		_exit(0);
	}
	hog = fork();
	if (!hog) {
		pin(1);
		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			perror("stall: SCHED_FIFO");
			_exit(1);
		}
		xwrite(ready[1], 'h');
		xread(go[0], &c);
		for (t0 = mono(); mono() - t0 < ms / 1e3;)
			;
		_exit(0);
	}
	victim = fork();
	if (!victim) {
		pin(0);
		xread(ready[0], &c);
		xread(ready[0], &c);
		t0 = mono();
		xwrite(go[1], 'g');	/* the hog takes CPU 1 ... */
		xwrite(req[1], 'q');	/* ... just as the server is asked */
		xread(rep[0], &c);
		t1 = mono();
		printf("victim=%d server=%d hog=%d ms=%d latency_ms=%.3f start=%.9f end=%.9f\n",
		       (int)getpid(), (int)server, (int)hog, ms, (t1 - t0) * 1e3, t0, t1);
		_exit(fflush(stdout) ? 1 : 0);
	}
	if (server < 0 || hog < 0 || victim < 0) {
		perror("stall: fork");
		return 1;
	}
	waitpid(server, NULL, 0);
	waitpid(hog, NULL, 0);
	if (waitpid(victim, &status, 0) != victim || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}
