// SPDX-License-Identifier: GPL-2.0
/*
 * usymprog's shared library: doc_commit() -> commit_range(), inlined ->
 * doc_flush() -> fsync().  Built with frame pointers; doc_flush's own
 * frame is the one the kernel's frame walk cannot see (fsync in libc keeps
 * no frame pointer, so the walk starts at doc_flush's caller).  Each
 * "usym: NAME" comment marks the line t-usym expects for NAME's frame.
 */
#include <unistd.h>

#include "usymdoc.h"

static __attribute__((noinline)) int doc_flush(int fd)
{
	int r = fsync(fd);

	__asm__ volatile("" ::: "memory");
	return r;
}

static inline __attribute__((always_inline)) int commit_range(int fd)
{
	int r = doc_flush(fd);	/* usym: commit_range */

	return r < 0 ? -1 : 0;
}

int doc_commit(int fd)
{
	int r = commit_range(fd);	/* usym: doc_commit */

	__asm__ volatile("" ::: "memory");
	return r;
}
