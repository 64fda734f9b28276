// SPDX-License-Identifier: GPL-2.0
/*
 * lockfsync: a holder thread takes a mutex, writes KB kilobytes to a new
 * file and fsyncs it, then lets the mutex go; a waiter thread, told the
 * holder has the mutex, asks for it and waits.  Prints
 *
 *   waiter=TID holder=TID wait_start_ns=T wait_end_ns=T fsync_start_ns=T fsync_end_ns=T
 *
 * (CLOCK_MONOTONIC): the waiter's wait, from just before it asked for the
 * mutex until it had it, and the holder's fsync inside it: the ground truth
 * of a wait for a lock whose holder waits for the disk.
 *
 *   lockfsync FILE [KB]     (default 256)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t held_cv = PTHREAD_COND_INITIALIZER;
static int held;
static const char *path;
static long kb = 256;
static pid_t waiter_tid, holder_tid;
static long long wait_start, wait_end, fsync_start, fsync_end;
static int failed;

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *holder(void *arg)
{
	static char buf[65536];
	long done = 0;
	int fd;

	(void)arg;
	holder_tid = (pid_t)syscall(SYS_gettid);
	memset(buf, 'z', sizeof(buf));
	pthread_mutex_lock(&lock);
	pthread_mutex_lock(&gate);
	held = 1;
	pthread_cond_broadcast(&held_cv);
	pthread_mutex_unlock(&gate);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		failed = 1;
		goto out;
	}
	while (done < kb * 1024) {
		size_t n = sizeof(buf);

		if ((long)n > kb * 1024 - done)
			n = kb * 1024 - done;
		if (write(fd, buf, n) != (ssize_t)n) {
			failed = 1;
			break;
		}
		done += n;
	}
	fsync_start = mono_ns();
	if (fsync(fd))
		failed = 1;
	fsync_end = mono_ns();
	close(fd);
out:
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	waiter_tid = (pid_t)syscall(SYS_gettid);
	pthread_mutex_lock(&gate);
	while (!held)
		pthread_cond_wait(&held_cv, &gate);
	pthread_mutex_unlock(&gate);
	wait_start = mono_ns();
	pthread_mutex_lock(&lock);
	wait_end = mono_ns();
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t h, w;

	if (argc < 2)
		return 2;
	path = argv[1];
	if (argc > 2)
		kb = strtol(argv[2], NULL, 10);
	if (kb <= 0)
		return 2;
	if (pthread_create(&w, NULL, waiter, NULL) || pthread_create(&h, NULL, holder, NULL))
		return 1;
	pthread_join(h, NULL);
	pthread_join(w, NULL);
	if (failed)
		return 1;
	printf("waiter=%d holder=%d wait_start_ns=%lld wait_end_ns=%lld fsync_start_ns=%lld "
	       "fsync_end_ns=%lld\n", (int)waiter_tid, (int)holder_tid, wait_start, wait_end,
	       fsync_start, fsync_end);
	return 0;
}
