/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What several of the VM tests' programs (tests/vm/progs/) share: the
 * clocks their ground truth is written in, a task's state from /proc,
 * and, with <xf86drm.h> included first, vgem's fence ioctls (the kernel's
 * include/uapi/drm/vgem_drm.h; libdrm does not ship that header) and the
 * opening of a DRM device by its driver's name.
 */
#ifndef TIPME_VM_PROGS_H
#define TIPME_VM_PROGS_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* CLOCK_MONOTONIC in ns, the clock of the records and of every truth. */
static inline long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The calling thread's CPU time in ns. */
static inline long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The state letter (R, S, D, T ...) in the stat file @path of /proc, or 0. */
static inline char proc_stat_state(const char *path)
{
	char buf[512], *p;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

#ifdef DRM_COMMAND_BASE
#define VGEM_FENCE_WRITE	0x1
struct vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;
	uint32_t out_fence;
	uint32_t pad;
};

struct vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define VGEM_IOCTL_FENCE_ATTACH	DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct vgem_fence_attach)
#define VGEM_IOCTL_FENCE_SIGNAL	DRM_IOW(DRM_COMMAND_BASE + 0x2, struct vgem_fence_signal)

/* Open the first /dev/dri/cardN whose driver is (or, with !@want, is not) @name. */
static inline int open_card(const char *name, int want)
{
	char path[32];
	int i, fd;

	for (i = 0; i < 16; i++) {
		drmVersionPtr v;
		int match;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		match = v && !strcmp(v->name, name);
		drmFreeVersion(v);
		if (match == want)
			return fd;
		close(fd);
	}
	errno = ENODEV;
	return -1;
}
#endif

#endif
