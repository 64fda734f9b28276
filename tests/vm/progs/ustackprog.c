// SPDX-License-Identifier: GPL-2.0
/*
 * ustackprog: a known user-space call chain into a sleep.  Built with
 * frame pointers (-fno-omit-frame-pointer -O1, tests/vm/vm.mk): main()
 * calls wait_for_peer(), which reads a pipe through read_byte(); a child
 * writes the pipe once it sees the parent asleep (its /proc state S) and
 * MS milliseconds more have passed.  Prints the ground truth:
 *
 *   pid=PID read_start_ns=T woke_ns=T
 *
 * (CLOCK_MONOTONIC ns, just before and after the read), then waits in
 * pause() until it is killed, so that its mappings are there for a dump.
 *
 * The sleep's user chain, as a frame-pointer walk sees it: the leaf in
 * libc's read(), then return addresses into wait_for_peer() (from
 * read_byte()) and into main() (from wait_for_peer()).  The return into
 * read_byte() is on the stack but not in a frame: read() has none.
 *
 *   ustackprog [MS]     (default 300)
 */
#include <sched.h>
#include <signal.h>
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

static void sleep_ms(long ms)
{
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&d, &d))
		;
}

/* The result is used after the call, so that no call here is a jump. */
static __attribute__((noinline)) int read_byte(int fd)
{
	char c = 0;
	ssize_t n = read(fd, &c, 1);

	return n == 1 ? c : -1;
}

static __attribute__((noinline)) int wait_for_peer(int fd)
{
	int c = read_byte(fd);

	return c < 0 ? c : c + 1;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? strtol(argv[1], NULL, 10) : 300;
	long long start, woke;
	pid_t parent = getpid(), child;
	int fds[2], c;

	if (ms <= 0 || pipe(fds))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		close(fds[0]);
		while (proc_state(parent) != 'S')
			sched_yield();
		sleep_ms(ms);
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	start = mono_ns();
	c = wait_for_peer(fds[0]);
	woke = mono_ns();
	waitpid(child, NULL, 0);
	if (c != 'x' + 1)
		return 1;
	printf("pid=%d read_start_ns=%lld woke_ns=%lld\n", (int)parent, start, woke);
	fflush(stdout);
	for (;;)
		pause();
}
