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
 *   faulter hog KB          fill KB of anonymous memory, then fork a memory
 *                           hog that touches 3 x KB in the same memory
 *                           cgroup (the caller set its memory.max below
 *                           that), so that reclaim pushes the first pages
 *                           to swap, and exits; then read it all back as
 *                           "swap" does; prints the same, and hog=PID
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
#include <sys/wait.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "proglib.h"

static volatile unsigned char sink;

/* Reads of a page that took this long waited (for I/O): the truth summed. */
#define SLOW_NS	1000000LL

/* a read of a page from @t0 to @t1: count it in @slow if it waited */
static void waited(long *slow, long long t0, long long t1)
{
	if (t1 - t0 >= SLOW_NS)
		(*slow)++;
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
	long resident = 0, slow = 0;
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
		waited(&slow, a, b);
	}
	t1 = mono_ns();
	waits_end(&w, t0, t1);
	printf("pid=%d ino=%llu dev=%u:%u resident=%ld slow=%ld blocked_ns=%lld start_ns=%lld end_ns=%lld\n",
	       pl_tid(), (unsigned long long)st.st_ino, major(st.st_dev), minor(st.st_dev), resident,
	       slow, w.blocked, t0, t1);
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

static void *waiter(void *arg)
{
	struct shared *s = arg;
	int r;

	s->waiter = pl_tid();
	/* the reader's fault is waiting for its read: the page is locked for it */
	while (!atomic_load(&s->done) &&
	       (!(r = atomic_load(&s->reader)) || task_state(getpid(), r) != 'D'))
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
	r = pl_tid();
	atomic_store(&s.reader, r);
	sink = (unsigned char)s.m[0];
	atomic_store(&s.done, 1);	/* (the page was cached: the waiter waits for nothing) */
	pthread_join(w, NULL);
	printf("reader=%d waiter=%d ino=%llu dev=%u:%u blocked_ns=%lld wait_start_ns=%lld wait_end_ns=%lld\n",
	       r, s.waiter, (unsigned long long)st.st_ino, major(st.st_dev), minor(st.st_dev),
	       s.w.blocked, s.t0, s.t1);
	return 0;
}

/*
 * Read back the @n pages at @m, @out of them out of memory, checking every
 * byte; print the truth line (@hog: the memory hog's pid, or 0).
 */
static int read_back(char *m, long n, long out, pid_t hog)
{
	long i, slow = 0;
	struct waits w = { 0 };
	long long t0, t1, a, b;
	char extra[32] = "";

	waits_begin(&w);
	t0 = mono_ns();
	for (i = 0, a = t0; i < n; i++, a = b) {
		if (!swap_check(m, i)) {
			fprintf(stderr, "page %ld came back wrong\n", i);
			return 1;
		}
		b = mono_ns();
		waited(&slow, a, b);
	}
	t1 = mono_ns();
	waits_end(&w, t0, t1);
	if (hog)
		snprintf(extra, sizeof(extra), " hog=%d", (int)hog);
	printf("pid=%d%s pages=%ld out=%ld slow=%ld blocked_ns=%lld start_ns=%lld end_ns=%lld\n",
	       pl_tid(), extra, n, out, slow, w.blocked, t0, t1);
	return 0;
}

static int swap_faults(long kb, const char *reclaim)
{
	long n, out;
	char *m = swap_out(kb, reclaim, &n, &out);

	return read_back(m, n, out, 0);
}

/* Touch 3 x @kb of anonymous memory, a page at a time, and exit. */
static void hog(long kb)
{
	long page = sysconf(_SC_PAGESIZE), i, n = 3 * kb * 1024 / page;
	char *m = mmap(NULL, (size_t)n * (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		die("hog: mmap");
	for (i = 0; i < n; i++)
		m[i * page] = 1;
	_exit(0);
}

static int hog_faults(long kb)
{
	long n;
	char *m = swap_fill(kb, &n);
	int status;
	pid_t h = fork();

	if (h < 0)
		die("fork");
	if (!h)
		hog(kb);
	if (waitpid(h, &status, 0) != h || !WIFEXITED(status) || WEXITSTATUS(status))
		die("the hog failed");
	return read_back(m, n, swap_pages_out(m, n), h);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "file"))
		return file_faults(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "shared"))
		return shared_fault(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "swap") && atol(argv[2]) > 0)
		return swap_faults(atol(argv[2]), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "hog") && atol(argv[2]) > 0)
		return hog_faults(atol(argv[2]));
	fprintf(stderr, "usage: faulter file PATH | shared PATH | swap KB RECLAIM | hog KB\n");
	return 2;
}
