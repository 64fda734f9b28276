// SPDX-License-Identifier: GPL-2.0
/*
 * fsyncer: write KB kilobytes to a new file and fsync it.  Prints
 *
 *   pid=PID fsync_start_ns=T fsync_end_ns=T
 *
 * (CLOCK_MONOTONIC), the ground truth for block I/O tests.
 *
 *   fsyncer FILE [KB]     (default 256)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long kb = argc > 2 ? strtol(argv[2], NULL, 10) : 256;
	static char buf[65536];
	long long t0, t1;
	long done = 0;
	int fd;

	if (argc < 2 || kb <= 0)
		return 2;
	memset(buf, 'y', sizeof(buf));
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	while (done < kb * 1024) {
		size_t n = sizeof(buf);

		if ((long)n > kb * 1024 - done)
			n = kb * 1024 - done;
		if (write(fd, buf, n) != (ssize_t)n)
			return 1;
		done += n;
	}
	t0 = mono_ns();
	if (fsync(fd))
		return 1;
	t1 = mono_ns();
	close(fd);
	printf("pid=%d fsync_start_ns=%lld fsync_end_ns=%lld\n", (int)getpid(), t0, t1);
	return 0;
}
