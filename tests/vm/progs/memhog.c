// SPDX-License-Identifier: GPL-2.0
/*
 * memhog: touch MB megabytes of anonymous memory PASSES times, a byte per
 * page, so that a memory cgroup smaller than MB must reclaim (swap) while
 * the program page-faults.  Prints
 *
 *   pid=PID start_ns=T end_ns=T
 *
 *   memhog MB [PASSES]     (default 2 passes)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
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
	long mb = argc > 1 ? strtol(argv[1], NULL, 10) : 64;
	long passes = argc > 2 ? strtol(argv[2], NULL, 10) : 2;
	long page = sysconf(_SC_PAGESIZE), i, p;
	long long t0, t1;
	size_t size;
	char *m;

	if (mb <= 0 || passes <= 0)
		return 2;
	size = (size_t)mb << 20;
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	t0 = mono_ns();
	for (p = 0; p < passes; p++)
		for (i = 0; i < (long)size; i += page)
			m[i] = (char)(i + p);
	t1 = mono_ns();
	printf("pid=%d start_ns=%lld end_ns=%lld\n", (int)getpid(), t0, t1);
	return 0;
}
