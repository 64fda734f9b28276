// SPDX-License-Identifier: GPL-2.0
/*
 * blockpipe: a child blocks reading an empty pipe; once it is seen asleep
 * (its /proc state is S), the parent sleeps MS milliseconds and writes one
 * byte.  Prints the ground truth a test checks the recording against:
 *
 *   reader=PID writer=PID blocked_seen_ns=T write_ns=T woke_ns=T
 *
 * (CLOCK_MONOTONIC ns: when the parent saw the child asleep, just before
 * its write, and when the child's read returned).
 *
 *   blockpipe [MS]     (default 300)
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* State letter of @pid from /proc/PID/stat, or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? strtol(argv[1], NULL, 10) : 300;
	int data[2], back[2], status;
	long long seen, wrote, woke;
	struct timespec d;
	pid_t child;
	char c = 'x';

	if (ms <= 0 || pipe(data) || pipe(back))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		close(data[1]);
		if (read(data[0], &c, 1) != 1)
			_exit(1);
		woke = mono_ns();
		if (write(back[1], &woke, sizeof(woke)) != sizeof(woke))
			_exit(1);
		_exit(0);
	}
	close(data[0]);
	/* Wait until the child sleeps in its read (it may fault first). */
	while (proc_state(child) != 'S')
		sched_yield();
	seen = mono_ns();
	d.tv_sec = ms / 1000;
	d.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&d, &d))
		;
	wrote = mono_ns();
	if (write(data[1], &c, 1) != 1)
		return 1;
	if (read(back[0], &woke, sizeof(woke)) != sizeof(woke))
		return 1;
	waitpid(child, &status, 0);
	printf("reader=%d writer=%d blocked_seen_ns=%lld write_ns=%lld woke_ns=%lld\n",
	       (int)child, (int)getpid(), seen, wrote, woke);
	return status ? 1 : 0;
}
