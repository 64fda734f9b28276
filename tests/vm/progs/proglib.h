/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proglib: what the VM tests' workload programs share (linked into every
 * one of them, tests/vm/vm.mk): clocks, computing for a given CPU time,
 * pinning, one-byte pipe signals between a program's children, a
 * thread's scheduler state and its blocked time by the kernel's own
 * count, a mapped file, anonymous memory pushed out to swap, and the TCP
 * server of the network tests.  Every function exits with a message on a
 * failure it cannot report otherwise (these are test programs).
 */
#ifndef TIPME_TESTS_VM_PROGLIB_H
#define TIPME_TESTS_VM_PROGLIB_H

#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

/* Clock @c in ns; mono_ns() is CLOCK_MONOTONIC, cputime() this thread's CPU time. */
long long clock_ns(clockid_t c);
long long mono_ns(void);
long long cputime(void);
/* This thread's id. */
int pl_tid(void);
/* perror(@what) and exit(1). */
void die(const char *what);
/* Compute until this thread has used @ms more of CPU time. */
void spin_cpu(long ms);
/* Sleep @ms (nanosleep, restarted after a signal). */
void sleep_ms(long ms);
/* Pin the calling thread to @cpu (0 on success). */
int pin(int cpu);
/*
 * A pipe @p and a child that runs @fn(@arg) and exits 0: the child keeps
 * end @child_end (0: it reads, 1: it writes) and closes the other, this
 * process the reverse.  Returns the child's PID.
 */
int fork_piped(int p[2], int child_end, void (*fn)(void *), void *arg);
/* One byte through a pipe: exit on a short read or write. */
void xwrite(int fd, char c);
char xread(int fd);
/*
 * The state letter (R, S, D, T ...) of thread @tid of process @pid, from
 * /proc, or 0 when it is gone; wait_state() polls until it is @want
 * (bounded: exits after 20 s).
 */
char task_state(int pid, int tid);
void wait_state(int pid, int tid, char want);

/*
 * The time a thread was neither running nor runnable over an interval,
 * by the kernel's own count (CLOCK_THREAD_CPUTIME_ID and
 * /proc/thread-self/schedstat): waits_begin() just before the interval,
 * waits_end() just after it [@t0, @t1).  queued is the time runnable.
 */
struct waits {
	long long run0, queued0;	/* at the start */
	long long run, queued, blocked;	/* over the interval */
};
void waits_begin(struct waits *w);
void waits_end(struct waits *w, long long t0, long long t1);

/* Map @path read-only and shared (its size in @st). */
char *map_file(const char *path, struct stat *st);
/*
 * Fill @kb of anonymous memory, page it out (MADV_PAGEOUT) and ask its
 * memory cgroup's @reclaim (memory.reclaim) to reclaim until at least 90%
 * of it has left memory (mincore); its pages in @npages, those out in
 * @out.  Page i holds the byte i * 7 + 1 (swap_check() reads it back).
 */
char *swap_out(long kb, const char *reclaim, long *npages, long *out);
/* Fill @kb of anonymous memory as swap_out() does, nothing paged out. */
char *swap_fill(long kb, long *npages);
/* How many of the @n pages at @m are out of memory (mincore). */
long swap_pages_out(char *m, long n);
int swap_check(const char *m, long i);

/*
 * The network tests' server: enter network namespace @netns (a file
 * /run/netns/NAME), listen on @addr:@port, write a byte to @ready, accept
 * one connection, read its one-byte request, then sleep (@mode "sleep"),
 * compute ("spin") @ms or nothing ("now"), answer one byte, write the
 * CLOCK_MONOTONIC ns it answered at to @ready, and exit once the client
 * closed.
 */
void net_server(const char *netns, const char *addr, int port, const char *mode, long ms,
		int ready);

#endif
