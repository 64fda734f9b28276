// SPDX-License-Identifier: GPL-2.0
/*
 * drmflip: the ground truth of the display records (t-drm.sh).
 *
 *   drmflip flip N     on the first KMS device with a connected output:
 *                      show a dumb buffer, then make N legacy page flips
 *                      between two buffers, each asking for its event
 *                      (DRM_MODE_PAGE_FLIP_EVENT) and reading it before
 *                      the next.  Prints
 *                        pid=P crtc=INDEX flips=N events=E seqs=S1,S2,...
 *                      (INDEX: the CRTC's position on its device, DRM's
 *                      pipe; seqs: the sequence each event carried)
 *   drmflip fence MS   on vgem: attach a write fence to a buffer, and
 *                      wait for it (DMA_BUF_IOCTL_SYNC) while a child
 *                      process signals it after MS milliseconds.  Prints
 *                        pid=P signaler=C wait_start_ns=T wait_end_ns=T
 *                      (CLOCK_MONOTONIC, around the wait)
 *
 * Exit status 0 when every flip's event came back, or the wait ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/dma-buf.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include "proglib.h"
#include "vgem.h"


struct fb {
	uint32_t handle, id;
};

static void make_fb(int fd, const drmModeModeInfo *m, struct fb *fb)
{
	struct drm_mode_create_dumb c = {
		.width = m->hdisplay, .height = m->vdisplay, .bpp = 32,
	};

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		die("create a dumb buffer");
	fb->handle = c.handle;
	if (drmModeAddFB(fd, m->hdisplay, m->vdisplay, 24, 32, c.pitch, c.handle, &fb->id))
		die("add a framebuffer");
}

static unsigned int events;
static unsigned int seqs[4096];

static void flip_done(int fd, unsigned int seq, unsigned int sec, unsigned int usec,
		      void *data)
{
	(void)fd;
	(void)sec;
	(void)usec;
	(void)data;
	if (events < sizeof(seqs) / sizeof(seqs[0]))
		seqs[events] = seq;
	events++;
}

static int flip(unsigned int n)
{
	drmEventContext ev = { .version = 2, .page_flip_handler = flip_done };
	drmModeConnectorPtr conn = NULL;
	drmModeEncoderPtr enc;
	drmModeResPtr res;
	struct fb fb[2];
	uint32_t crtc = 0;
	int fd, i, index = -1;
	unsigned int k;

	fd = open_card("vgem", 0);
	if (fd < 0)
		die("no KMS device in /dev/dri");
	res = drmModeGetResources(fd);
	if (!res)
		die("drmModeGetResources");
	for (i = 0; i < res->count_connectors && !conn; i++) {
		conn = drmModeGetConnector(fd, res->connectors[i]);
		if (conn && (conn->connection != DRM_MODE_CONNECTED || !conn->count_modes)) {
			drmModeFreeConnector(conn);
			conn = NULL;
		}
	}
	if (!conn)
		die("no connected output");
	enc = conn->encoder_id ? drmModeGetEncoder(fd, conn->encoder_id) : NULL;
	if (enc && enc->crtc_id)
		crtc = enc->crtc_id;
	for (i = 0; i < res->count_crtcs; i++)
		if (crtc ? res->crtcs[i] == crtc :
		    enc ? (enc->possible_crtcs & (1U << i)) : 1) {
			crtc = res->crtcs[i];
			index = i;
			break;
		}
	if (index < 0) {
		/* the connector has no encoder yet: the first of its encoders */
		drmModeEncoderPtr e = drmModeGetEncoder(fd, conn->encoders[0]);

		for (i = 0; e && i < res->count_crtcs; i++)
			if (e->possible_crtcs & (1U << i)) {
				crtc = res->crtcs[i];
				index = i;
				break;
			}
	}
	if (index < 0) {
		errno = ENODEV;
		die("no CRTC for the output");
	}
	make_fb(fd, &conn->modes[0], &fb[0]);
	make_fb(fd, &conn->modes[0], &fb[1]);
	if (drmModeSetCrtc(fd, crtc, fb[0].id, 0, 0, &conn->connector_id, 1,
			   &conn->modes[0]))
		die("drmModeSetCrtc");
	for (k = 0; k < n; k++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		unsigned int before = events;

		if (drmModePageFlip(fd, crtc, fb[(k + 1) % 2].id,
				    DRM_MODE_PAGE_FLIP_EVENT, NULL))
			die("drmModePageFlip");
		while (events == before) {
			if (poll(&p, 1, 5000) <= 0) {
				errno = ETIMEDOUT;
				die("waiting for the flip's event");
			}
			drmHandleEvent(fd, &ev);
		}
	}
	printf("pid=%d crtc=%d flips=%u events=%u seqs=", getpid(), index, n, events);
	for (k = 0; k < events && k < sizeof(seqs) / sizeof(seqs[0]); k++)
		printf("%s%u", k ? "," : "", seqs[k]);
	printf("\n");
	return events == n ? 0 : 1;
}

static int fence(unsigned int ms)
{
	struct drm_mode_create_dumb c = { .width = 64, .height = 64, .bpp = 32 };
	struct vgem_fence_attach at = { 0 };
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ };
	long long t0, t1;
	int fd, buf, st;
	pid_t child;

	fd = open_card("vgem", 1);
	if (fd < 0)
		die("no vgem device in /dev/dri (modprobe vgem)");
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		die("create a vgem buffer");
	if (drmPrimeHandleToFD(fd, c.handle, DRM_CLOEXEC | DRM_RDWR, &buf))
		die("export the buffer");
	at.handle = c.handle;
	at.flags = VGEM_FENCE_WRITE;
	if (drmIoctl(fd, VGEM_IOCTL_FENCE_ATTACH, &at))
		die("attach a fence");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		struct vgem_fence_signal sig = { .fence = at.out_fence };
		struct timespec d = { ms / 1000, (long)(ms % 1000) * 1000000L };

		nanosleep(&d, NULL);
		_exit(drmIoctl(fd, VGEM_IOCTL_FENCE_SIGNAL, &sig) ? 1 : 0);
	}
	t0 = mono_ns();
	if (ioctl(buf, DMA_BUF_IOCTL_SYNC, &sync))
		die("DMA_BUF_IOCTL_SYNC");
	t1 = mono_ns();
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		die("the signaler failed");
	printf("pid=%d signaler=%d wait_start_ns=%lld wait_end_ns=%lld\n", getpid(),
	       child, t0, t1);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "flip"))
		return flip((unsigned int)strtoul(argv[2], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "fence"))
		return fence((unsigned int)strtoul(argv[2], NULL, 10));
	fprintf(stderr, "usage: drmflip flip N | drmflip fence MS\n");
	return 2;
}
