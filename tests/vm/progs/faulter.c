// SPDX-License-Identifier: GPL-2.0
/*
 * faulter: page faults that wait for I/O, the ground truth of t-pagefault.sh.
 *
 *   faulter file PATH       map PATH (cold: not in the page cache) and read
 *                           a byte of every page; prints
 *                           pid=PID ino=INO dev=MAJ:MIN resident=PAGES
 *                           slow=N blocked_ns=T start_ns=T end_ns=T
 *                           (PAGES: those in memory before; N: the reads of
 *                           a page that took 1 ms or more; T: the time the
 *                           thread was neither running nor runnable, by the
 *                           kernel's own count: CLOCK_THREAD_CPUTIME_ID and
 *                           /proc/thread-self/schedstat)
 *   faulter shared PATH     two threads: the reader faults on PATH's first
 *                           page; the waiter, once the reader sleeps
 *                           uninterruptibly (its fault's read is under way:
 *                           /proc's task state D), faults on it too and
 *                           waits for the reader's read; prints reader=TID
 *                           waiter=TID ino=INO dev=MAJ:MIN blocked_ns=T
 *                           wait_start_ns=T wait_end_ns=T (T: the waiter's)
 *   faulter swap KB RECLAIM fill KB of anonymous memory, page it out
 *                           (MADV_PAGEOUT: reclaim writes it to swap), and
 *                           until it has left memory (mincore; its swap cache
 *                           pages are freed once written) ask the memory
 *                           cgroup to reclaim by writing to RECLAIM (its
 *                           memory.reclaim: the reclaim a memory hog's
 *                           pressure would do), then read it back, checking
 *                           every byte; prints pid=PID pages=N out=N slow=N
 *                           blocked_ns=T start_ns=T end_ns=T
 *
 * Times are CLOCK_MONOTONIC ns.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "progs.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static int tid(void)
{
	return (int)syscall(SYS_gettid);
}

static volatile unsigned char sink;

/* Reads of a page that took this long waited (for I/O): the truth summed. */
#define SLOW_NS	1000000LL

struct waits {
	long slow;		/* page reads that took SLOW_NS or more */
	long long run0;		/* schedstat at the start: time running, */
	long long queued0;	/* runnable */
	long long blocked;	/* at the end: neither, from the start */
};

/* This thread's CPU time (ns), brought up to date by the kernel when read. */
static long long cputime(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)) {
		perror("CLOCK_THREAD_CPUTIME_ID");
		exit(1);
	}
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * This thread's time runnable (ns), schedstat's second field: current
 * while it runs.  (Its first, the CPU time, may lag by a tick.)
 */
static long long queued(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	long long run, q;

	if (!f || fscanf(f, "%lld %lld", &run, &q) != 2) {
		perror("/proc/thread-self/schedstat");
		exit(1);
	}
	fclose(f);
	return q;
}

/* Just before the interval: reading /proc is outside it. */
static void waits_begin(struct waits *w)
{
	memset(w, 0, sizeof(*w));
	w->queued0 = queued();
	w->run0 = cputime();
}

/* Just after it [@t0, @t1): the time neither running nor runnable. */
static void waits_end(struct waits *w, long long t0, long long t1)
{
	long long run = cputime();

	w->blocked = (t1 - t0) - (run - w->run0) - (queued() - w->queued0);
}

static void waited(struct waits *w, long long t0, long long t1)
{
	if (t1 - t0 >= SLOW_NS)
		w->slow++;
}

static char *map_file(const char *path, struct stat *st)
{
	char *m;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, st) || st->st_size <= 0) {
		perror(path);
		exit(1);
	}
	m = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	close(fd);
	return m;
}

static int file_faults(const char *path)
{
	long page = sysconf(_SC_PAGESIZE);
	long long t0, t1;
	struct stat st;
	char *m = map_file(path, &st);
	size_t npages = ((size_t)st.st_size + (size_t)page - 1) / (size_t)page;
	unsigned char *vec = calloc(npages, 1);
	struct waits w = { 0 };
	long resident = 0;
	long long a, b;
	off_t i;

	/* the truth is about a cold file: how much of it was in memory */
	if (!vec || mincore(m, (size_t)st.st_size, vec))
		return 1;
	for (i = 0; i < (off_t)npages; i++)
		resident += vec[i] & 1;
	waits_begin(&w);
	t0 = mono_ns();
	for (i = 0, a = t0; i < st.st_size; i += page, a = b) {
		sink = (unsigned char)m[i];
		b = mono_ns();
		waited(&w, a, b);
	}
	t1 = mono_ns();
	waits_end(&w, t0, t1);
	printf("pid=%d ino=%llu dev=%u:%u resident=%ld slow=%ld blocked_ns=%lld start_ns=%lld end_ns=%lld\n",
	       tid(), (unsigned long long)st.st_ino, major(st.st_dev), minor(st.st_dev), resident,
	       w.slow, w.blocked, t0, t1);
	return 0;
}

struct shared {
	char *m;
	atomic_int reader;
	atomic_int done;
	long long t0, t1;
	struct waits w;
	int waiter;
};

/* The state letter of thread @t of this process (R, S, D ...), or 0. */
static char task_state(int t)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", t);
	return proc_stat_state(path);
}

static void *waiter(void *arg)
{
	struct shared *s = arg;
	int r;

	s->waiter = tid();
	/* the reader's fault is waiting for its read: the page is locked for it */
	while (!atomic_load(&s->done) &&
	       (!(r = atomic_load(&s->reader)) || task_state(r) != 'D'))
		;
	waits_begin(&s->w);
	s->t0 = mono_ns();
	sink = (unsigned char)s->m[0];
	s->t1 = mono_ns();
	waits_end(&s->w, s->t0, s->t1);
	return NULL;
}

static int shared_fault(const char *path)
{
	struct shared s = { 0 };
	struct stat st;
	pthread_t w;
	int r;

	s.m = map_file(path, &st);
	if (pthread_create(&w, NULL, waiter, &s))
		return 1;
	r = tid();
	atomic_store(&s.reader, r);
	sink = (unsigned char)s.m[0];
	atomic_store(&s.done, 1);	/* (the page was cached: the waiter waits for nothing) */
	pthread_join(w, NULL);
	printf("reader=%d waiter=%d ino=%llu dev=%u:%u blocked_ns=%lld wait_start_ns=%lld wait_end_ns=%lld\n",
	       r, s.waiter, (unsigned long long)st.st_ino, major(st.st_dev), minor(st.st_dev),
	       s.w.blocked, s.t0, s.t1);
	return 0;
}

/* Pages of [@m, @m + @n pages) not in memory (not even in the swap cache). */
static long pages_out(char *m, long n, long page, unsigned char *vec)
{
	long i, out = 0;

	if (mincore(m, (size_t)n * (size_t)page, vec))
		return -1;
	for (i = 0; i < n; i++)
		out += !(vec[i] & 1);
	return out;
}

static int swap_faults(long kb, const char *reclaim)
{
	long page = sysconf(_SC_PAGESIZE), i, n = kb * 1024 / page, out = 0, tries;
	size_t size = (size_t)n * (size_t)page;
	unsigned char *vec = calloc((size_t)n, 1);
	struct waits w = { 0 };
	long long t0, t1, a, b;
	char *m;

	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || !vec || n <= 0)
		return 1;
	for (i = 0; i < n; i++)
		memset(m + i * page, (int)(i * 7 + 1), (size_t)page);
	if (madvise(m, size, MADV_PAGEOUT)) {
		perror("madvise(MADV_PAGEOUT)");
		return 1;
	}
	/*
	 * Written to swap, a page stays in the swap cache until reclaim finds
	 * it clean: reclaim until the pages are out (every write is a pass).
	 */
	for (tries = 0; tries < 10000 && (out = pages_out(m, n, page, vec)) >= 0 &&
	     out < n * 9 / 10; tries++) {
		int fd = open(reclaim, O_WRONLY);

		if (fd < 0) {
			perror(reclaim);
			return 1;
		}
		if (write(fd, "16M", 3) < 0 && errno != EAGAIN) {
			perror(reclaim);
			return 1;
		}
		close(fd);
	}
	if (out < 0)
		return 1;
	waits_begin(&w);
	t0 = mono_ns();
	for (i = 0, a = t0; i < n; i++, a = b) {
		if (m[i * page] != (char)(i * 7 + 1) ||
		    m[i * page + page - 1] != (char)(i * 7 + 1)) {
			fprintf(stderr, "page %ld came back wrong\n", i);
			return 1;
		}
		b = mono_ns();
		waited(&w, a, b);
	}
	t1 = mono_ns();
	waits_end(&w, t0, t1);
	printf("pid=%d pages=%ld out=%ld slow=%ld blocked_ns=%lld start_ns=%lld end_ns=%lld\n",
	       tid(), n, out, w.slow, w.blocked, t0, t1);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "file"))
		return file_faults(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "shared"))
		return shared_fault(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "swap") && atol(argv[2]) > 0)
		return swap_faults(atol(argv[2]), argv[3]);
	fprintf(stderr, "usage: faulter file PATH | shared PATH | swap KB RECLAIM\n");
	return 2;
}
