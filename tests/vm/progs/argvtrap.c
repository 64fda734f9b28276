// SPDX-License-Identifier: GPL-2.0
/*
 * argvtrap: a process whose argv cannot be read without waiting for ever.
 *
 *   argvtrap            re-executes itself with ~5 pages of arguments, then
 *                       drops the pages that hold only arguments and
 *                       registers them with userfaultfd, whose faults
 *                       nobody serves; prints "trapped PID LO HI" and
 *                       waits for SIGTERM
 *
 * Any kernel code that reads this process's argv and may fault (as a
 * FUSE-backed argv area would make it wait for its daemon) waits until
 * the process dies.  What comes before the first whole page of arguments
 * (argv[0], "trapped" and a little more, at most 2 KiB, so that a reader
 * keeping up to 4 KiB of argv runs into the trap) stays readable.
 */
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NARGS 10
#define ARGLEN 2000

/* Fields 48 and 49 of /proc/self/stat: where argv starts and ends. */
static int arg_area(unsigned long *start, unsigned long *end)
{
	char buf[4096], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n;
	int field;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* After ')' comes field 3. */
	for (field = 3, p += 2; field < 48 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%lu %lu", start, end) != 2)
		return -1;
	return 0;
}

/* Execute ourselves again with @pad bytes more of environment strings. */
static void reexec(char **argv, size_t pad)
{
	static char args[NARGS][ARGLEN + 1], padvar[4096];
	char *nargv[NARGS + 3], *nenv[] = { padvar, NULL };
	int i;

	nargv[0] = argv[0];
	nargv[1] = "trapped";
	for (i = 0; i < NARGS; i++) {
		memset(args[i], 'A' + i, ARGLEN);
		nargv[i + 2] = args[i];
	}
	nargv[NARGS + 2] = NULL;
	/* "P=xxx...": @pad bytes with its NUL; 2 bytes are the shortest. */
	memcpy(padvar, "P=", 2);
	memset(padvar + 2, 'x', pad - 3);
	padvar[pad - 1] = '\0';
	execve("/proc/self/exe", nargv, nenv);
	perror("argvtrap: execve");
	exit(1);
}

int main(int argc, char **argv, char **envp)
{
	struct uffdio_register reg = { 0 };
	struct uffdio_api api = { .api = UFFD_API };
	unsigned long as, ae, lo, hi, page = sysconf(_SC_PAGESIZE);
	sigset_t set;
	int uffd, sig;

	if (argc < 2 || strcmp(argv[1], "trapped"))
		reexec(argv, 16);
	if (arg_area(&as, &ae)) {
		fprintf(stderr, "argvtrap: cannot read /proc/self/stat\n");
		return 1;
	}
	lo = (as + page) & ~(page - 1);
	hi = ae & ~(page - 1);
	/*
	 * Strings are packed below the top of the stack, so 2 KiB more of
	 * environment moves argv down by exactly 2 KiB.
	 */
	if (lo - as > 2048) {
		if (strlen(envp[0] ? envp[0] : "") > 16) {
			fprintf(stderr, "argvtrap: padding did not move argv\n");
			return 1;
		}
		reexec(argv, 2048 + 16);
	}
	if (hi <= lo) {
		fprintf(stderr, "argvtrap: argv %#lx..%#lx spans no whole page\n",
			as, ae);
		return 1;
	}
	/* Block SIGTERM first: the wait below must not touch argv again. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (madvise((void *)lo, hi - lo, MADV_DONTNEED)) {
		perror("argvtrap: madvise");
		return 1;
	}
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api)) {
		perror("argvtrap: userfaultfd");
		return 1;
	}
	reg.range.start = lo;
	reg.range.len = hi - lo;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		perror("argvtrap: UFFDIO_REGISTER");
		return 1;
	}
	printf("trapped %d %#lx %#lx %#lx %#lx\n", getpid(), as, lo, hi, ae);
	fflush(stdout);
	sigwait(&set, &sig);
	return 0;
}
