// SPDX-License-Identifier: GPL-2.0
/*
 * faulter: page faults that wait for I/O, the ground truth of t-fault.sh.
 *
 *   faulter file PATH       map PATH (cold: not in the page cache) and read
 *                           a byte of every page; prints
 *                           pid=PID ino=INO dev=MAJ:MIN resident=PAGES
 *                           start_ns=T end_ns=T (PAGES: those in memory
 *                           before)
 *   faulter shared PATH     two threads: the reader faults on PATH's first
 *                           page; the waiter, once that page is in the page
 *                           cache (mincore: the reader's read of it began),
 *                           faults on it too and waits for the reader's
 *                           I/O; prints reader=TID waiter=TID ino=INO
 *                           dev=MAJ:MIN wait_start_ns=T wait_end_ns=T
 *   faulter swap KB         fill KB of anonymous memory, page it out
 *                           (MADV_PAGEOUT: reclaim writes it to swap), check
 *                           that it left memory, then read it back, checking
 *                           every byte; prints pid=PID pages=N out=N
 *                           start_ns=T end_ns=T
 *
 * Times are CLOCK_MONOTONIC ns.
 */
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

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int tid(void)
{
	return (int)syscall(SYS_gettid);
}

static volatile unsigned char sink;

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
	long resident = 0;
	off_t i;

	/* the truth is about a cold file: how much of it was in memory */
	if (!vec || mincore(m, (size_t)st.st_size, vec))
		return 1;
	for (i = 0; i < (off_t)npages; i++)
		resident += vec[i] & 1;
	t0 = mono_ns();
	for (i = 0; i < st.st_size; i += page)
		sink = (unsigned char)m[i];
	t1 = mono_ns();
	printf("pid=%d ino=%llu dev=%u:%u resident=%ld start_ns=%lld end_ns=%lld\n", tid(),
	       (unsigned long long)st.st_ino, major(st.st_dev), minor(st.st_dev), resident,
	       t0, t1);
	return 0;
}

struct shared {
	char *m;
	atomic_int reader;
	long long t0, t1;
	int waiter;
};

static void *waiter(void *arg)
{
	struct shared *s = arg;
	unsigned char v = 0;

	s->waiter = tid();
	/* the reader's fault put the page in the page cache, locked for its read */
	while (!atomic_load(&s->reader) || mincore(s->m, 1, &v) || !(v & 1))
		;
	s->t0 = mono_ns();
	sink = (unsigned char)s->m[0];
	s->t1 = mono_ns();
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
	pthread_join(w, NULL);
	printf("reader=%d waiter=%d ino=%llu dev=%u:%u wait_start_ns=%lld wait_end_ns=%lld\n",
	       r, s.waiter, (unsigned long long)st.st_ino, major(st.st_dev), minor(st.st_dev),
	       s.t0, s.t1);
	return 0;
}

static int swap_faults(long kb)
{
	long page = sysconf(_SC_PAGESIZE), i, n = kb * 1024 / page, out = 0;
	size_t size = (size_t)n * (size_t)page;
	unsigned char *vec = calloc((size_t)n, 1);
	long long t0, t1;
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
	if (mincore(m, size, vec))
		return 1;
	for (i = 0; i < n; i++)
		out += !(vec[i] & 1);
	t0 = mono_ns();
	for (i = 0; i < n; i++)
		if (m[i * page] != (char)(i * 7 + 1) ||
		    m[i * page + page - 1] != (char)(i * 7 + 1)) {
			fprintf(stderr, "page %ld came back wrong\n", i);
			return 1;
		}
	t1 = mono_ns();
	printf("pid=%d pages=%ld out=%ld start_ns=%lld end_ns=%lld\n", tid(), n, out, t0, t1);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "file"))
		return file_faults(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "shared"))
		return shared_fault(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "swap") && atol(argv[2]) > 0)
		return swap_faults(atol(argv[2]));
	fprintf(stderr, "usage: faulter file PATH | shared PATH | swap KB\n");
	return 2;
}
