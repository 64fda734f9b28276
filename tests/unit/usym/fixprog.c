// SPDX-License-Identifier: GPL-2.0
/*
 * The symboliser's fixture program (test_usym.c): walks its own frame
 * chain from inside its library, called from save_document() called from
 * main(), and prints the chain and its executable mappings:
 *   ip ADDR		(innermost first)
 *   map START END OFFSET PATH
 * Each "usym: NAME" comment marks the line of that function's frame.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fixlib.h"

static __attribute__((noinline)) int save_document(uintptr_t *ip, int max)
{
	int n = lib_store(ip, max);	/* usym: save_document */

	__asm__ volatile("" ::: "memory");
	return n;
}

int main(void)
{
	uintptr_t ip[4];
	char line[4096];
	FILE *f;
	int n = save_document(ip, 4), i;	/* usym: main */

	for (i = 0; i < n; i++)
		printf("ip %" PRIxPTR "\n", ip[i]);
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perm[8], path[4096];

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perm, &off,
			   path) == 5 && perm[2] == 'x' && strstr(path, "usymfix"))
			printf("map %llx %llx %llx %s\n", s, e, off, path);
	}
	fclose(f);
	return 0;
}
