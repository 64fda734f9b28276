// SPDX-License-Identifier: GPL-2.0
/* What the VM tests' workload programs share: see proglib.h. */
#include "proglib.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

long long clock_ns(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts))
		die("clock_gettime");
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

long long mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

long long cputime(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int pl_tid(void)
{
	return (int)syscall(SYS_gettid);
}

void die(const char *what)
{
	perror(what);
	exit(1);
}

void spin_cpu(long ms)
{
	long long end = cputime() + ms * 1000000LL;
	volatile unsigned long x = 0;

	while (cputime() < end)
		x++;
}

void sleep_ms(long ms)
{
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&d, &d) && errno == EINTR)
		;
}

int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int fork_piped(int p[2], int child_end, void (*fn)(void *), void *arg)
{
	int pid;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(p[!child_end]);
		fn(arg);
		_exit(0);
	}
	close(p[child_end]);
	return pid;
}

void xwrite(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		die("pipe write");
}

char xread(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1) {
		fprintf(stderr, "pipe read: the other end went away\n");
		exit(1);
	}
	return c;
}

char task_state(int pid, int tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

void wait_state(int pid, int tid, char want)
{
	long long end = mono_ns() + 20000000000LL;

	while (task_state(pid, tid) != want) {
		if (mono_ns() > end) {
			fprintf(stderr, "task %d/%d never reached state %c\n", pid, tid, want);
			exit(1);
		}
		sched_yield();
	}
}

/* This thread's time runnable (ns), from /proc/thread-self/schedstat. */
static long long queued(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	long long run, q;

	if (!f || fscanf(f, "%lld %lld", &run, &q) != 2)
		die("/proc/thread-self/schedstat");
	fclose(f);
	return q;
}

/* (reading /proc is outside the interval) */
void waits_begin(struct waits *w)
{
	memset(w, 0, sizeof(*w));
	w->queued0 = queued();
	w->run0 = cputime();
}

void waits_end(struct waits *w, long long t0, long long t1)
{
	w->run = cputime() - w->run0;
	w->queued = queued() - w->queued0;
	w->blocked = (t1 - t0) - w->run - w->queued;
}

char *map_file(const char *path, struct stat *st)
{
	char *m;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, st) || st->st_size <= 0)
		die(path);
	m = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		die("mmap");
	close(fd);
	return m;
}

/* Pages of [@m, @m + @n pages) not in memory (not even in the swap cache). */
static long pages_out(char *m, long n, long page, unsigned char *vec)
{
	long i, out = 0;

	if (mincore(m, (size_t)n * (size_t)page, vec))
		die("mincore");
	for (i = 0; i < n; i++)
		out += !(vec[i] & 1);
	return out;
}

char *swap_fill(long kb, long *npages)
{
	long page = sysconf(_SC_PAGESIZE), i, n = kb * 1024 / page;
	size_t size = (size_t)n * (size_t)page;
	char *m;

	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || n <= 0)
		die("swap_fill: mmap");
	for (i = 0; i < n; i++)
		memset(m + i * page, (int)(i * 7 + 1), (size_t)page);
	*npages = n;
	return m;
}

long swap_pages_out(char *m, long n)
{
	unsigned char *vec = calloc((size_t)n, 1);
	long out;

	if (!vec)
		die("calloc");
	out = pages_out(m, n, sysconf(_SC_PAGESIZE), vec);
	free(vec);
	return out;
}

char *swap_out(long kb, const char *reclaim, long *npages, long *out)
{
	long page = sysconf(_SC_PAGESIZE), n, tries;
	char *m = swap_fill(kb, &n);
	size_t size = (size_t)n * (size_t)page;
	unsigned char *vec = calloc((size_t)n, 1);

	if (!vec)
		die("calloc");
	if (madvise(m, size, MADV_PAGEOUT))
		die("madvise(MADV_PAGEOUT)");
	/*
	 * Written to swap, a page stays in the swap cache until reclaim finds
	 * it clean: reclaim until the pages are out (every write is a pass).
	 */
	for (tries = 0; tries < 10000 && (*out = pages_out(m, n, page, vec)) < n * 9 / 10;
	     tries++) {
		int fd = open(reclaim, O_WRONLY);

		if (fd < 0)
			die(reclaim);
		if (write(fd, "16M", 3) < 0 && errno != EAGAIN)
			die(reclaim);
		close(fd);
	}
	free(vec);
	*npages = n;
	return m;
}

int swap_check(const char *m, long i)
{
	long page = sysconf(_SC_PAGESIZE);

	return m[i * page] == (char)(i * 7 + 1) && m[i * page + page - 1] == (char)(i * 7 + 1);
}

void net_server(const char *netns, const char *addr, int port, const char *mode, long ms,
		int ready)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd, c, one = 1;
	long long sent;
	char b;

	fd = open(netns, O_RDONLY);
	if (fd < 0 || setns(fd, CLONE_NEWNET))
		die(netns);
	close(fd);
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
		die("server address");
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1))
		die("listen");
	xwrite(ready, 'r');
	c = accept(fd, NULL, NULL);
	if (c < 0 || setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		die("accept");
	if (read(c, &b, 1) != 1)
		die("server read");
	if (!strcmp(mode, "sleep"))
		sleep_ms(ms);
	else if (!strcmp(mode, "spin"))
		spin_cpu(ms);
	sent = mono_ns();
	if (write(c, "a", 1) != 1)
		die("server write");
	if (write(ready, &sent, sizeof(sent)) != sizeof(sent))
		die("server time");
	/* until the client is done: its end closes first */
	if (read(c, &b, 1) < 0)
		die("server drain");
	exit(0);
}
