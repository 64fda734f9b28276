// SPDX-License-Identifier: GPL-2.0
/*
 * manythreads: start N threads that sleep until stdin closes (a desktop's
 * idle threads), print "ready N", and wait.
 *
 *   manythreads N < FIFO
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int done;

static void *sleeper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!done)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000, i;
	pthread_attr_t attr;
	pthread_t *t;
	char c;

	t = calloc(n, sizeof(*t));
	if (!t)
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		int err = pthread_create(&t[i], &attr, sleeper, NULL);

		if (err) {
			fprintf(stderr, "manythreads: thread %ld: %s\n", i, strerror(err));
			return 1;
		}
	}
	printf("ready %ld\n", n);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
