// SPDX-License-Identifier: GPL-2.0
/*
 * usymprog: the editor of t-usym.  Writes KB kilobytes to FILE and saves
 * it: main() -> save_document() -> doc_commit() (its own library,
 * libusymdoc.so) -> ... -> fsync(), on a slow disk.  Prints
 *
 *   pid=PID fsync_start_ns=T fsync_end_ns=T
 *
 * (CLOCK_MONOTONIC) and waits to be killed, so that its mappings are in
 * the dump.  Each "usym: NAME" comment marks the line of NAME's frame.
 *
 *   usymprog FILE [KB]     (default 512)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "usymdoc.h"

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static __attribute__((noinline)) int save_document(int fd)
{
	int r = doc_commit(fd);	/* usym: save_document */

	__asm__ volatile("" ::: "memory");
	return r;
}

int main(int argc, char **argv)
{
	long kb = argc > 2 ? strtol(argv[2], NULL, 10) : 512;
	static char buf[65536];
	long long t0, t1;
	int fd, r;
	long i;

	if (argc < 2)
		return 2;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < kb / 64; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return 1;
	t0 = mono_ns();
	r = save_document(fd);	/* usym: main */
	t1 = mono_ns();
	if (r)
		return 1;
	printf("pid=%d fsync_start_ns=%lld fsync_end_ns=%lld\n", getpid(), t0, t1);
	fflush(stdout);
	for (;;)
		pause();
}
