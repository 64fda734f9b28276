// SPDX-License-Identifier: GPL-2.0
/*
 * The system side of the benchmarks: clocks, cgroup v2, swap and zram,
 * /proc readers, and the worker processes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

extern char **environ;

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

int sys_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / NS_PER_SEC),
			       .tv_nsec = (long)(ns % NS_PER_SEC) };
	int err;

	while ((err = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts)) == EINTR)
		;
	return -err;
}

int sys_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = sys_write_all(fd, val, strlen(val));
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* ---- cgroup v2 ---------------------------------------------------------- */

static int is_cgroup2(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return -errno;
	return sf.f_type == CGROUP2_SUPER_MAGIC;
}

/**
 * sys_cgroup2_root() - where the cgroup2 hierarchy is mounted
 * @out: its path
 * @len: size of @out
 * @e: error message
 *
 * /sys/fs/cgroup when that is cgroup2 (the unified layout), else the first
 * cgroup2 mount in /proc/self/mountinfo (e.g. /sys/fs/cgroup/unified).
 *
 * Return: 0 or a negative errno.
 */
int sys_cgroup2_root(char *out, size_t len, struct tm_err *e)
{
	char line[1024], mnt[512], fstype[64];
	FILE *f;
	int found = 0;

	if (is_cgroup2("/sys/fs/cgroup") == 1) {
		snprintf(out, len, "/sys/fs/cgroup");
		return 0;
	}
	f = fopen("/proc/self/mountinfo", "re");
	if (f) {
		while (!found && fgets(line, sizeof(line), f)) {
			char *sep = strstr(line, " - ");

			/* id parent maj:min root mountpoint ... - fstype ... */
			if (sep && sscanf(line, "%*s %*s %*s %*s %511s", mnt) == 1 &&
			    sscanf(sep + 3, "%63s", fstype) == 1 && !strcmp(fstype, "cgroup2")) {
				snprintf(out, len, "%s", mnt);
				found = 1;
			}
		}
		fclose(f);
	}
	if (!found)
		return tm_err_set(e, ENOENT,
				  "no cgroup2 file system is mounted (mount one with 'mount -t cgroup2 none /sys/fs/cgroup', or pass --no-cgroup)");
	return 0;
}

/**
 * sys_cgroup_prepare() - make sure children of @parent can have memory limits
 * @parent: an existing cgroup2 directory
 * @e: error message
 *
 * Enables "memory" in @parent's cgroup.subtree_control if it is not yet.
 *
 * Return: 0 or a negative errno.
 */
int sys_cgroup_prepare(const char *parent, struct tm_err *e)
{
	char file[512], buf[512];
	int err;

	err = is_cgroup2(parent);
	if (err < 0)
		return tm_err_set(e, -err, "cannot create a cgroup under %s: %s", parent,
				  strerror(-err));
	if (!err)
		return tm_err_set(e, ENOTDIR,
				  "cannot create a cgroup under %s: not in a cgroup2 file system",
				  parent);
	snprintf(file, sizeof(file), "%s/cgroup.controllers", parent);
	err = read_file(file, buf, sizeof(buf));
	if (err)
		return tm_err_set(e, -err, "cannot read %s: %s", file, strerror(-err));
	if (!strstr(buf, "memory"))
		return tm_err_set(e, EOPNOTSUPP,
				  "the memory controller is not available in %s (on a system with both cgroup versions it may be bound to cgroup v1: boot with systemd.unified_cgroup_hierarchy=1, or pass --no-cgroup)",
				  parent);
	snprintf(file, sizeof(file), "%s/cgroup.subtree_control", parent);
	err = read_file(file, buf, sizeof(buf));
	if (err)
		return tm_err_set(e, -err, "cannot read %s: %s", file, strerror(-err));
	if (strstr(buf, "memory"))
		return 0;
	err = write_file(file, "+memory");
	if (err == -EBUSY)
		return tm_err_set(e, EBUSY,
				  "cannot enable the memory controller in %s: %s (a cgroup with processes of its own cannot hand controllers down; pass --cgroup a cgroup without processes)",
				  file, strerror(-err));
	if (err)
		return tm_err_set(e, -err, "cannot enable the memory controller in %s: %s",
				  file, strerror(-err));
	return 0;
}

/**
 * sys_cgroup_create() - make a child cgroup with the memory controller
 * @parent: a cgroup2 directory
 * @name: the new cgroup's name
 * @path: the new cgroup's path
 * @len: size of @path
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int sys_cgroup_create(const char *parent, const char *name, char *path,
		      size_t len, struct tm_err *e)
{
	int err = sys_cgroup_prepare(parent, e);

	if (err)
		return err;
	if ((size_t)snprintf(path, len, "%s/%s", parent, name) >= len)
		return tm_err_set(e, ENAMETOOLONG, "%s/%s: path too long", parent, name);
	if (mkdir(path, 0755)) {
		err = errno;
		return tm_err_set(e, err, "cannot create the cgroup %s: %s", path,
				  strerror(err));
	}
	return 0;
}

int sys_cgroup_write(const char *cg, const char *file, const char *val,
		     struct tm_err *e)
{
	char path[512];
	int err;

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	err = write_file(path, val);
	if (err)
		return tm_err_set(e, -err, "cannot write '%s' to %s: %s", val, path,
				  strerror(-err));
	return 0;
}

/* "key value" files: memory.events, memory.stat */
int sys_cgroup_key(const char *cg, const char *file, const char *key,
		   uint64_t *v)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	return sys_proc_key(path, key, v);
}

/* One number ("max" reads as UINT64_MAX). */
int sys_cgroup_u64(const char *cg, const char *file, uint64_t *v)
{
	char path[512], buf[64];
	int err;

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	err = read_file(path, buf, sizeof(buf));
	if (err)
		return err;
	if (!strncmp(buf, "max", 3))
		*v = UINT64_MAX;
	else
		*v = strtoull(buf, NULL, 10);
	return 0;
}

/* Remove a cgroup whose processes have all been reaped. */
int sys_cgroup_remove(const char *cg, struct tm_err *e)
{
	int i, err = 0;

	/* The last exiting task leaves the cgroup asynchronously. */
	for (i = 0; i < 200; i++) {
		if (!rmdir(cg) || errno == ENOENT)
			return 0;
		err = errno;
		if (err != EBUSY)
			break;
		sys_sleep_ns(10 * NS_PER_MS);
	}
	return tm_err_set(e, err, "cannot remove the cgroup %s: %s", cg, strerror(err));
}

/* "key value" or "Key:   value kB" lines (/proc/vmstat, /proc/meminfo). */
int sys_proc_key(const char *path, const char *key, uint64_t *v)
{
	char line[256];
	size_t kl = strlen(key);
	FILE *f = fopen(path, "re");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, kl) && (line[kl] == ' ' || line[kl] == ':')) {
			*v = strtoull(line + kl + 1, NULL, 10);
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

/* The active swap devices as "NAME SIZE, ..." (0 if none, 1 if some). */
int sys_swap_active(char *desc, size_t len)
{
	char line[512], name[256], type[32];
	unsigned long long kb;
	size_t off = 0;
	FILE *f = fopen("/proc/swaps", "re");
	int any = 0;

	desc[0] = '\0';
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %31s %llu", name, type, &kb) != 3)
			continue;	/* the heading */
		off += (size_t)snprintf(desc + off, off < len ? len - off : 0, "%s%s (%llu MiB)",
					any ? ", " : "", name, kb >> 10);
		if (off >= len)
			off = len;
		any = 1;
	}
	fclose(f);
	return any;
}

/* ---- zram ---------------------------------------------------------------- */

/* Run a program (looked up in PATH) and wait: 0 if it exited with 0. */
static int run_cmd(char *const argv[])
{
	pid_t pid;
	int st;

	if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ))
		return -ENOENT;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

/* A swap signature ("SWAPSPACE2", version 1) in the device's first page. */
static int write_swap_header(const char *dev, uint64_t size, struct tm_err *e)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *hdr;
	uint32_t version = 1, last_page, bad = 0;
	int fd, err;

	if (page < 4096)
		page = 4096;
	last_page = (uint32_t)(size / (uint64_t)page - 1);
	hdr = calloc(1, (size_t)page);
	if (!hdr)
		return tm_err_set(e, ENOMEM, "out of memory");
	/* after 1024 boot bytes: version, last_page, nr_badpages, uuid... */
	memcpy(hdr + 1024, &version, 4);
	memcpy(hdr + 1028, &last_page, 4);
	memcpy(hdr + 1032, &bad, 4);
	memcpy(hdr + page - 10, "SWAPSPACE2", 10);
	fd = open(dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		free(hdr);
		return tm_err_set(e, err, "cannot open %s: %s", dev, strerror(err));
	}
	err = sys_write_all(fd, hdr, (size_t)page);
	if (!err && fsync(fd))
		err = -errno;
	close(fd);
	free(hdr);
	if (err)
		return tm_err_set(e, -err, "cannot write a swap header to %s: %s", dev,
				  strerror(-err));
	return 0;
}

/*
 * The /dev/dm-N node of device-mapper device @name: devtmpfs makes it
 * whether or not udev runs (/dev/mapper/NAME needs udev or dmsetup's own
 * node creation, which a system with udev support compiled in may skip).
 */
static int dm_node(const char *name, char *dev, size_t len)
{
	char path[300], buf[128];
	struct dirent *d;
	DIR *dir = opendir("/sys/block");
	int err = -ENOENT;

	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "dm-", 3))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dm/name", d->d_name);
		if (read_file(path, buf, sizeof(buf)))
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		if (!strcmp(buf, name)) {
			snprintf(dev, len, "/dev/%.40s", d->d_name);
			err = access(dev, F_OK) ? -errno : 0;
			break;
		}
	}
	closedir(dir);
	return err;
}

/**
 * sys_zram_create() - a zram swap device for this run
 * @size: its disksize (uncompressed capacity)
 * @delay_ms: if not 0, swap through a device-mapper "delay" target on top
 *	of the zram device that holds every read this long (the access time
 *	of a disk), made with dmsetup
 * @write_delay_ms: ... and every write this long
 * @z: the device, for sys_zram_remove()
 * @e: error message
 *
 * Loads the zram module if needed, adds a device through
 * /sys/class/zram-control/hot_add, writes a swap signature and turns it on
 * with a high priority, so it is used before any other swap.
 *
 * Return: 0 or a negative errno.
 */
int sys_zram_create(uint64_t size, unsigned int delay_ms,
		    unsigned int write_delay_ms, struct zram_swap *z, struct tm_err *e)
{
	char path[128], buf[64];
	int err;

	memset(z, 0, sizeof(*z));
	z->id = -1;
	if (access("/sys/class/zram-control/hot_add", F_OK)) {
		char *argv[] = { "modprobe", "zram", NULL };

		err = run_cmd(argv);
		if (err || access("/sys/class/zram-control/hot_add", F_OK))
			return tm_err_set(e, ENODEV,
					  "zram is not available ('modprobe zram' failed): set up swap yourself and pass --zram no");
	}
	err = read_file("/sys/class/zram-control/hot_add", buf, sizeof(buf));
	if (err)
		return tm_err_set(e, -err, "cannot add a zram device: %s", strerror(-err));
	z->id = atoi(buf);
	z->size = size;
	snprintf(z->dev, sizeof(z->dev), "/dev/zram%d", z->id);
	snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", z->id);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)size);
	err = write_file(path, buf);
	if (err) {
		tm_err_set(e, -err, "cannot write %s: %s", path, strerror(-err));
		goto fail;
	}
	if (delay_ms) {
		char table[256], zdev[64];
		char *argv[] = { "dmsetup", "create", z->dm_name, "--table", table, NULL };

		char *mp[] = { "modprobe", "dm_delay", NULL };

		snprintf(zdev, sizeof(zdev), "%s", z->dev);
		snprintf(z->dm_name, sizeof(z->dm_name), "tipme-bench-zram%d", z->id);
		snprintf(table, sizeof(table), "0 %llu delay %s 0 %u %s 0 %u",
			 (unsigned long long)(size / 512), zdev, delay_ms, zdev,
			 write_delay_ms);
		run_cmd(mp);	/* dm-mod and dm-delay, if they are modules */
		err = run_cmd(argv);
		if (err) {
			tm_err_set(e, ENODEV,
				   "cannot make the delay device ('dmsetup create %s --table \"%s\"' failed: is dmsetup installed, and dm-delay available?)",
				   z->dm_name, table);
			z->dm_name[0] = '\0';
			goto fail;
		}
		err = dm_node(z->dm_name, z->dev, sizeof(z->dev));
		if (err) {
			tm_err_set(e, -err, "cannot find the block device of %s in /sys/block",
				   z->dm_name);
			goto fail;
		}
	}
	err = write_swap_header(z->dev, size, e);
	if (err)
		goto fail;
	if (swapon(z->dev, SWAP_FLAG_PREFER |
		   ((100 << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK))) {
		err = -errno;
		tm_err_set(e, -err, "swapon %s: %s", z->dev, strerror(-err));
		goto fail;
	}
	z->swapped_on = 1;
	return 0;
fail:
	sys_zram_remove(z);
	return err;
}

void sys_zram_remove(struct zram_swap *z)
{
	char path[128], buf[32];

	if (z->id < 0)
		return;
	if (z->swapped_on && swapoff(z->dev))
		fprintf(stderr, "tipme-bench: warning: swapoff %s: %s\n", z->dev,
			strerror(errno));
	z->swapped_on = 0;
	if (z->dm_name[0]) {
		char *argv[] = { "dmsetup", "remove", z->dm_name, NULL };

		if (run_cmd(argv))
			fprintf(stderr, "tipme-bench: warning: dmsetup remove %s failed\n",
				z->dm_name);
		z->dm_name[0] = '\0';
	}
	snprintf(path, sizeof(path), "/sys/block/zram%d/reset", z->id);
	write_file(path, "1");
	snprintf(buf, sizeof(buf), "%d", z->id);
	if (write_file("/sys/class/zram-control/hot_remove", buf))
		fprintf(stderr, "tipme-bench: warning: could not remove zram%d\n", z->id);
	z->id = -1;
}

/* ---- processes ----------------------------------------------------------- */

static int worker_go_fd = -1;

/* In a worker: wait for the next byte from sys_start(); 0 if it came. */
int sys_wait_go(void)
{
	char c;
	ssize_t n;

	do
		n = read(worker_go_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Close every fd from 3 up except those in @keep. */
static void close_except(int *keep, size_t n)
{
	long max = sysconf(_SC_OPEN_MAX);
	int lo = 3, fd;
	size_t i;

	if (max < 0 || max > 65536)
		max = 65536;
	qsort(keep, n, sizeof(*keep), cmp_int);
	for (i = 0; i <= n; i++) {
		int hi = i < n ? keep[i] : (int)max;

		for (fd = lo; fd < hi; fd++)
			close(fd);
		if (i < n && keep[i] + 1 > lo)
			lo = keep[i] + 1;
	}
}

/**
 * sys_spawn() - fork a worker that waits for sys_start()
 * @w: the worker
 * @name: its name, for messages and /proc/PID/comm
 * @fn: what it runs once started (it exits when @fn returns)
 * @arg: @fn's argument
 * @cgroup: cgroup to move it into before it starts, or NULL
 * @cpu: CPU to pin it to, or CPU_NONE
 * @keep: fds the worker needs (every other fd above 2 is closed in it)
 * @nkeep: how many
 * @e: error message
 *
 * The worker dies with the benchmark (PR_SET_PDEATHSIG), and has the
 * default signal dispositions.
 *
 * Return: 0 or a negative errno.
 */
int sys_spawn(struct worker *w, const char *name, worker_fn fn, void *arg,
	      const char *cgroup, int cpu, const int *keep, size_t nkeep,
	      struct tm_err *e)
{
	pid_t parent = getpid();
	int go[2], err;
	char buf[32];

	memset(w, 0, sizeof(*w));
	w->pidfd = -1;
	w->go = -1;
	snprintf(w->name, sizeof(w->name), "%s", name);
	if (pipe2(go, O_CLOEXEC))
		return tm_err_set(e, errno, "pipe: %s", strerror(errno));
	w->pid = fork();
	if (w->pid < 0) {
		err = errno;
		close(go[0]);
		close(go[1]);
		w->pid = 0;
		return tm_err_set(e, err, "fork: %s", strerror(err));
	}
	if (!w->pid) {
		int k[16];
		size_t i, n = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		prctl(PR_SET_NAME, name);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		for (i = 0; i < nkeep && n < 15; i++)
			k[n++] = keep[i];
		k[n++] = go[0];
		close_except(k, n);
		worker_go_fd = go[0];
		if (sys_wait_go())
			_exit(0);
		fn(arg);
		_exit(0);
	}
	close(go[0]);
	w->go = go[1];
	w->pidfd = (int)syscall(SYS_pidfd_open, w->pid, 0);
	if (cgroup) {
		snprintf(buf, sizeof(buf), "%d", (int)w->pid);
		err = sys_cgroup_write(cgroup, "cgroup.procs", buf, e);
		if (err)
			goto fail;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(w->pid, sizeof(set), &set)) {
			err = tm_err_set(e, errno, "cannot pin %s to CPU %d: %s", name, cpu,
					 strerror(errno));
			goto fail;
		}
	}
	return 0;
fail:
	sys_stop(w, SIGKILL);
	return err;
}

/* Let the worker go (or, later, send it the next go byte). */
int sys_start(struct worker *w, struct tm_err *e)
{
	int err = sys_write_all(w->go, "g", 1);

	if (err)
		return tm_err_set(e, -err, "cannot start %s: %s", w->name, strerror(-err));
	return 0;
}

/* Kill (with @sig, 0: none) and reap a worker. */
void sys_stop(struct worker *w, int sig)
{
	int st;

	if (w->pid > 0) {
		if (sig)
			kill(w->pid, sig);
		while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	if (w->pidfd >= 0)
		close(w->pidfd);
	if (w->go >= 0)
		close(w->go);
	w->pid = 0;
	w->pidfd = w->go = -1;
}

void sys_status_str(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "stopped");
}

int sys_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/* The lowest-numbered CPU this process may run on. */
int sys_first_cpu(void)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			return i;
	return 0;
}
