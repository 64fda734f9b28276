/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgem's fence ioctls (the kernel's include/uapi/drm/vgem_drm.h; libdrm
 * does not ship that header) and the opening of a DRM device by its
 * driver's name, for the VM tests' programs that use DRM (drmflip, wlkey).
 * Include <xf86drm.h> first.  What every program shares otherwise is
 * proglib.h.
 */
#ifndef TIPME_VM_VGEM_H
#define TIPME_VM_VGEM_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
