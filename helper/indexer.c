// SPDX-License-Identifier: GPL-2.0
/* tipmed's indexer (indexer.h): `tipme index` in an idle-priority child. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "indexer.h"

/* linux/ioprio.h's, which the C library does not export */
#define IOPRIO_CLASS_IDLE	3
#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_WHO_PROCESS	1

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void indexer_init(struct indexer *ix, const char *self_exe)
{
	char path[PATH_MAX], *dir;
	ssize_t n;

	memset(ix, 0, sizeof(*ix));
	snprintf(ix->tipme, sizeof(ix->tipme), "tipme");
	n = readlink(self_exe, path, sizeof(path) - 1);
	if (n <= 0)
		return;
	path[n] = 0;
	dir = dirname(path);
	if (strlen(dir) + sizeof("/tipme") > sizeof(ix->tipme))
		return;
	snprintf(ix->tipme, sizeof(ix->tipme), "%s/tipme", dir);
	if (access(ix->tipme, X_OK))
		snprintf(ix->tipme, sizeof(ix->tipme), "tipme");
}

/* In the child: idle CPU and I/O priority, no descriptor of tipmed's. */
static void child(const struct indexer *ix)
{
	struct sched_param sp = { 0 };
	int fd;

	sched_setscheduler(0, SCHED_IDLE, &sp);
	setpriority(PRIO_PROCESS, 0, 19);
	syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
	}
	/* stderr stays: tipmed's, the journal */
	for (fd = 3; fd < 1024; fd++)
		close(fd);
	execlp(ix->tipme, "tipme", "index", ix->dir, (char *)NULL);
	dprintf(2, "tipmed: index: %s: %s\n", ix->tipme, strerror(errno));
	_exit(127);
}

static int start(struct indexer *ix, const char *dir)
{
	pid_t pid;

	snprintf(ix->dir, sizeof(ix->dir), "%s", dir);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		child(ix);
	ix->pid = pid;
	ix->started = mono_s();
	return 0;
}

int indexer_add(struct indexer *ix, const char *dir)
{
	if (ix->pid) {
		snprintf(ix->next, sizeof(ix->next), "%s", dir);
		return 0;
	}
	return start(ix, dir);
}

void indexer_reap(struct indexer *ix, void (*log)(void *arg, int failed, const char *msg),
		  void *arg)
{
	char msg[PATH_MAX + 128];
	int status, err;
	pid_t pid;

	if (!ix->pid)
		return;
	pid = waitpid(ix->pid, &status, WNOHANG);
	if (pid == 0 || (pid < 0 && errno == EINTR))
		return;
	if (pid < 0)
		snprintf(msg, sizeof(msg), "index %s: %s", ix->dir, strerror(errno));
	else if (WIFEXITED(status) && !WEXITSTATUS(status))
		snprintf(msg, sizeof(msg), "indexed %s in %.1f s", ix->dir,
			 mono_s() - ix->started);
	else if (WIFEXITED(status))
		snprintf(msg, sizeof(msg), "index %s: tipme index exited with %d", ix->dir,
			 WEXITSTATUS(status));
	else
		snprintf(msg, sizeof(msg), "index %s: tipme index killed by signal %d", ix->dir,
			 WTERMSIG(status));
	log(arg, pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status), msg);
	ix->pid = 0;
	if (!ix->next[0])
		return;
	err = start(ix, ix->next);
	if (err) {
		snprintf(msg, sizeof(msg), "index %s: fork: %s", ix->next, strerror(-err));
		log(arg, 1, msg);
	}
	ix->next[0] = 0;
}
