// SPDX-License-Identifier: GPL-2.0
/*
 * contend: two threads pinned to CPU 0 rewrite 1 MiB of one file for
 * SECONDS; each write holds the inode's rw_semaphore for the whole copy,
 * and when the scheduler switches threads in the middle of one the other
 * must sleep on the semaphore (it cannot spin: the holder is not running).
 * Prints
 *
 *   tid1=TID tid2=TID writes=N start=MONO end=MONO
 *
 * (start and end: CLOCK_MONOTONIC seconds around the threads' work).
 *
 *   contend FILE [SECONDS]     (default 1)
 */
#include <fcntl.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fd;
static double seconds = 1;
static pid_t tids[2];
static long writes[2];

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *writer(void *arg)
{
	long i = (long)arg;
	static char buf[2][1 << 20];
	double end = mono() + seconds;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);

	tids[i] = (pid_t)syscall(SYS_gettid);
	memset(buf[i], 'a' + i, sizeof(buf[i]));
	while (mono() < end) {
		if (pwrite(fd, buf[i], sizeof(buf[i]), 0) != (ssize_t)sizeof(buf[i]))
			break;
		writes[i]++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	double t0, t1;
	long i;

	if (argc < 2)
		return 2;
	if (argc > 2)
		seconds = strtod(argv[2], NULL);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	t0 = mono();
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, writer, (void *)i))
			return 1;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	t1 = mono();
	printf("tid1=%d tid2=%d writes=%ld start=%.9f end=%.9f\n", (int)tids[0],
	       (int)tids[1], writes[0] + writes[1], t0, t1);
	return 0;
}
