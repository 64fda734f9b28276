// SPDX-License-Identifier: GPL-2.0
/*
 * wlkey: a Wayland client whose answer to a key press reaches the screen
 * late by a known amount, for a reason the test chooses: the ground truth
 * of t-wayland.sh.
 *
 *   wlkey [-v] [--count N] KEY=MODE[:MS]...
 *   wlkey [-v] --blink MS
 *
 * KEY is a letter a-z (the key the compositor reports); on each press of
 * it the window is redrawn and a new buffer committed after MODE:
 *   none      at once
 *   sleep     sleeping MS ms (clock_nanosleep)
 *   compute   computing until the thread has used MS ms of CPU time
 *   fence     waiting in poll() on a dma-buf of vgem's that carries a
 *             write fence, which the helper process signals after MS ms
 *             (vgem's DRM_IOCTL_VGEM_FENCE_ATTACH/SIGNAL; modprobe vgem)
 *   stop      stopped: the client raises SIGSTOP, the helper continues
 *             it MS ms after it stopped
 *   compstop  the compositor stopped: the helper stops it (SIGSTOP) and,
 *             once it is stopped, the client commits; the helper
 *             continues it MS ms later
 *   silent    nothing: the key is handled without a word to the
 *             compositor, nothing is drawn (the press is printed at once)
 *   ask       the client passes the key to the helper (a write to its
 *             pipe, as a terminal writes a key to its pty) and goes back
 *             to its main loop; the helper answers MS ms later, and the
 *             client draws then; {"event": "asked", "n": N, "asked_ns": T}
 *             once it has asked (a test releases the key after that, so
 *             that the release finds the client waiting for the answer;
 *             an answer that comes first waits until the release is read)
 * Other keys are ignored; so is a press while the last one's answer is
 * not yet on the screen.  With --count N, wlkey exits after N answers;
 * -v tells each Wayland event it acts on on standard error.
 *
 * With --blink MS, wlkey is another window, app_id and title "wlblink",
 * that reads no key and redraws itself every MS ms, as a blinking cursor
 * does: {"event": "ready", ...} once its first frame is on the screen (it
 * does not wait for the focus), then {"event": "blink", "n": N,
 * "commit_ns": T} after each commit and {"event": "presented", "n": N,
 * "presented_ns": T} when wp_presentation says it is on the screen.
 *
 * wlkey runs as two processes: the helper (the process started, which
 * waits for the client's requests) and the client (its child).  The
 * window's app_id and title are "wlkey".  Standard output, one JSON
 * object a line, every time CLOCK_MONOTONIC ns:
 *   {"event": "ready", "pid": CLIENT, "helper": PID, "compositor": PID,
 *    "presentation": true|false, "clock_id": ID}
 *       the window is on the screen (its first frame callback came) and
 *       has the keyboard focus; "compositor" is the Wayland socket's peer
 *       (SO_PEERCRED); "clock_id" the clock of wp_presentation's times
 *   {"event": "press", "n": N, "key": EVDEV_CODE, "key_name": "a",
 *    "mode": M, "ms": MS, "pid": ..., "helper": ..., "compositor": ...,
 *    "key_time_ms": T,      the key event's own time (the compositor's,
 *                           in ms; libinput's: the kernel's input time)
 *    "key_ns": T,           the client's key handler ran
 *    "delay_start_ns": T, "delay_end_ns": T,  the induced delay
 *    "cpu_ns": N,           compute: the CPU time used
 *    "stopped_ns": T,       stop/compstop: the helper saw the stop
 *    "cont_lo_ns": T, "cont_hi_ns": T,  stop/compstop: around the
 *                           helper's kill(SIGCONT)
 *    "signal_lo_ns": T, "signal_hi_ns": T,  fence: around the helper's
 *                           signal ioctl
 *    "commit_ns": T,        wl_surface.commit has been written to the
 *                           socket (after wl_display_flush)
 *    "frame_done_ns": T, "frame_time_ms": T,  the frame callback came
 *                           (and its own time)
 *    "presented_ns": T,     wp_presentation_feedback.presented: the time
 *                           the compositor gives for the flip that showed
 *                           the buffer (null if not presented)
 *    "refresh_ns": N, "msc": N, "pres_flags": N, "presented_recv_ns": T,
 *    "released_ns": T,      ask: the client read the key's release (null:
 *                           not before the answer reached the screen)
 *    "discarded": true|false}
 *   (for none and sleep the delay's own times, for compute cpu_ns too;
 *   the fields a mode does not have are null: silent has no commit,
 *   frame or presentation)
 * Exit status 0 after --count answers or when the compositor goes away.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/input-event-codes.h>
#include <wayland-client.h>
#include <xf86drm.h>
#include "xdg-shell-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "proglib.h"
#include "vgem.h"

enum mode {
	M_NONE, M_SLEEP, M_COMPUTE, M_FENCE, M_STOP, M_COMPSTOP, M_SILENT, M_ASK, M_COUNT
};
static const char *const mode_names[M_COUNT] = {
	"none", "sleep", "compute", "fence", "stop", "compstop", "silent", "ask",
};

/* What the client asks of the helper, and its answers. */
struct request {
	int op;		/* enum mode: M_FENCE, M_STOP, M_COMPSTOP or M_ASK */
	int ms;
	int arg;	/* the fence (M_FENCE), the compositor's pid (M_COMPSTOP) */
};

struct reply {
	long long t[3];
};

#define W	160
#define H	100
#define NBUF	3

struct buf {
	struct wl_buffer *b;
	uint32_t *px;
	bool busy;
};

/* One press being answered. */
struct press {
	bool on;		/* waiting for its answer to reach the screen */
	int n, key, ms;
	enum mode mode;
	unsigned int key_time_ms;
	long long key_ns, d0, d1, cpu_ns, stopped, cont_lo, cont_hi;
	long long sig_lo, sig_hi, commit_ns, frame_ns, pres_ns, pres_recv, released_ns;
	unsigned int frame_ms;
	long long refresh_ns, msc;
	unsigned int pres_flags;
	bool framed, fed, discarded, want_reply, replied;
};

struct client {
	struct wl_display *d;
	struct wl_compositor *comp;
	struct wl_shm *shm;
	struct xdg_wm_base *wm;
	struct wl_seat *seat;
	struct wl_keyboard *kbd;
	struct wp_presentation *pres;
	struct wl_surface *surf;
	struct xdg_surface *xsurf;
	struct xdg_toplevel *top;
	struct buf bufs[NBUF];
	unsigned int clock_id;
	bool configured, focused, first_frame, ready;
	pid_t compositor, helper;
	int req, rep;		/* pipes to and from the helper */
	int vgem;		/* vgem's device, -1 without a fence mode */
	int mode_of[KEY_MAX + 1], ms_of[KEY_MAX + 1];
	char name_of[KEY_MAX + 1];
	int count, answered, presses;
	int blink_ms, blinks;	/* --blink: the period, commits so far */
	long long next_blink;
	struct press p;
};

static bool verbose;

/* -v: what happened, on standard error, with its CLOCK_MONOTONIC time */
static void say(const char *what, long long a, long long b)
{
	struct timespec ts;

	if (!verbose)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(stderr, "wlkey: %lld.%09ld %s %lld %lld\n", (long long)ts.tv_sec, ts.tv_nsec,
		what, a, b);
}

static void fail(const char *what)
{
	fprintf(stderr, "wlkey: %s\n", what);
	exit(1);
}

/* Sleeps until CLOCK_MONOTONIC reaches @ns. */
static void sleep_until(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void write_all(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) != (ssize_t)n)
		die("write to the other process");
}

static void read_all(int fd, void *p, size_t n)
{
	ssize_t r;

	do
		r = read(fd, p, n);
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)n)
		fail("the other process went away");
}

/* ---- the helper ---- */

static void helper_stop_client(pid_t client, int ms, int rep)
{
	struct reply r;
	int st;

	/* the client raised SIGSTOP after asking */
	if (waitpid(client, &st, WUNTRACED) != client || !WIFSTOPPED(st))
		fail("the client did not stop");
	r.t[0] = mono_ns();
	sleep_until(r.t[0] + ms * 1000000LL);
	r.t[1] = mono_ns();
	kill(client, SIGCONT);
	r.t[2] = mono_ns();
	write_all(rep, &r, sizeof(r));
}

static void helper_signal(int vgem, const struct request *q, int rep)
{
	struct vgem_fence_signal sig = { .fence = (uint32_t)q->arg };
	struct reply r;

	r.t[0] = mono_ns();
	sleep_until(r.t[0] + q->ms * 1000000LL);
	r.t[1] = mono_ns();
	if (drmIoctl(vgem, VGEM_IOCTL_FENCE_SIGNAL, &sig))
		die("signal the fence");
	r.t[2] = mono_ns();
	write_all(rep, &r, sizeof(r));
}

static void helper_stop_compositor(const struct request *q, int rep)
{
	pid_t pid = q->arg;
	struct reply r = { { 0 } };
	int i;

	if (kill(pid, SIGSTOP))
		die("stop the compositor");
	/* it stops when the signal is delivered: see it stopped */
	for (i = 0; i < 5000 && task_state((int)pid, (int)pid) != 'T'; i++)
		sleep_until(mono_ns() + 1000000LL);
	if (task_state((int)pid, (int)pid) != 'T')
		fail("the compositor did not stop");
	r.t[0] = mono_ns();
	write_all(rep, &r, sizeof(r));	/* the client may commit */
	sleep_until(r.t[0] + q->ms * 1000000LL);
	r.t[1] = mono_ns();
	kill(pid, SIGCONT);
	r.t[2] = mono_ns();
	write_all(rep, &r, sizeof(r));
}

static void helper_answer(const struct request *q, int rep)
{
	struct reply r = { { 0 } };

	r.t[0] = mono_ns();
	sleep_until(r.t[0] + q->ms * 1000000LL);
	r.t[1] = mono_ns();
	write_all(rep, &r, sizeof(r));
}

/* Serves the client's requests until it closes its pipe; its exit status. */
static int helper(pid_t client, int vgem, int req, int rep)
{
	struct request q;
	int st;

	while (read(req, &q, sizeof(q)) == (ssize_t)sizeof(q)) {
		if (q.op == M_STOP)
			helper_stop_client(client, q.ms, rep);
		else if (q.op == M_FENCE)
			helper_signal(vgem, &q, rep);
		else if (q.op == M_COMPSTOP)
			helper_stop_compositor(&q, rep);
		else if (q.op == M_ASK)
			helper_answer(&q, rep);
	}
	if (waitpid(client, &st, 0) != client)
		die("waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* ---- the client ---- */

static void buffer_release(void *data, struct wl_buffer *b)
{
	struct buf *buf = data;

	(void)b;
	buf->busy = false;
}

static const struct wl_buffer_listener buffer_listener = { buffer_release };

static void make_buffers(struct client *c)
{
	size_t size = (size_t)W * H * 4 * NBUF;
	struct wl_shm_pool *pool;
	uint8_t *mem;
	int fd, i;

	fd = memfd_create("wlkey", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size))
		die("memfd");
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	pool = wl_shm_create_pool(c->shm, fd, (int32_t)size);
	for (i = 0; i < NBUF; i++) {
		c->bufs[i].b = wl_shm_pool_create_buffer(pool, i * W * H * 4, W, H,
							 W * 4, WL_SHM_FORMAT_XRGB8888);
		c->bufs[i].px = (uint32_t *)(void *)(mem + (size_t)i * W * H * 4);
		wl_buffer_add_listener(c->bufs[i].b, &buffer_listener, &c->bufs[i]);
	}
	wl_shm_pool_destroy(pool);
	close(fd);
}

static void frame_done(void *data, struct wl_callback *cb, uint32_t t);
static void maybe_answer(struct client *c);
static const struct wl_callback_listener frame_listener = { frame_done };

static void fb_sync_output(void *data, struct wp_presentation_feedback *f,
			   struct wl_output *o)
{
	(void)data;
	(void)f;
	(void)o;
}

static void fb_presented(void *data, struct wp_presentation_feedback *f,
			 uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec,
			 uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo,
			 uint32_t flags)
{
	struct client *c = data;

	c->p.pres_recv = mono_ns();
	c->p.pres_ns = (long long)(((uint64_t)sec_hi << 32) | sec_lo) * 1000000000LL + nsec;
	c->p.refresh_ns = refresh;
	c->p.msc = (long long)(((uint64_t)seq_hi << 32) | seq_lo);
	c->p.pres_flags = flags;
	c->p.fed = true;
	say("presented", c->p.pres_ns, refresh);
	wp_presentation_feedback_destroy(f);
	if (c->blink_ms) {
		printf("{\"event\": \"presented\", \"n\": %d, \"presented_ns\": %lld}\n",
		       c->blinks, c->p.pres_ns);
		fflush(stdout);
	}
	maybe_answer(c);
}

static void fb_discarded(void *data, struct wp_presentation_feedback *f)
{
	struct client *c = data;

	c->p.pres_recv = mono_ns();
	c->p.discarded = true;
	c->p.fed = true;
	say("discarded", 0, 0);
	wp_presentation_feedback_destroy(f);
	maybe_answer(c);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
	fb_sync_output, fb_presented, fb_discarded,
};

/*
 * Draws the next picture and commits it, with a frame callback, and with
 * @feedback a wp_presentation feedback: only a press's commit asks for
 * one, so that every feedback that comes is the current press's (the
 * first buffer's came after the first press's key event when it asked).
 */
/* Is a buffer free to draw in? */
static bool free_buffer(const struct client *c)
{
	int i;

	for (i = 0; i < NBUF; i++)
		if (!c->bufs[i].busy)
			return true;
	return false;
}

static void draw_commit(struct client *c, uint32_t color, bool feedback)
{
	struct buf *b = NULL;
	int i;

	for (i = 0; i < NBUF && !b; i++)
		if (!c->bufs[i].busy)
			b = &c->bufs[i];
	if (!b)
		fail("no free buffer");
	for (i = 0; i < W * H; i++)
		b->px[i] = color;
	b->busy = true;
	wl_surface_attach(c->surf, b->b, 0, 0);
	wl_surface_damage_buffer(c->surf, 0, 0, W, H);
	wl_callback_add_listener(wl_surface_frame(c->surf), &frame_listener, c);
	if (c->pres && feedback)
		wp_presentation_feedback_add_listener(
			wp_presentation_feedback(c->pres, c->surf), &feedback_listener, c);
	wl_surface_commit(c->surf);
	if (wl_display_flush(c->d) < 0)
		die("wl_display_flush");
}

static void print_ns(const char *key, long long v, bool have)
{
	if (have)
		printf(", \"%s\": %lld", key, v);
	else
		printf(", \"%s\": null", key);
}

static void check_ready(struct client *c)
{
	if (c->ready || !c->first_frame || (!c->focused && !c->blink_ms))
		return;
	c->ready = true;
	printf("{\"event\": \"ready\", \"pid\": %d, \"helper\": %d, \"compositor\": %d, "
	       "\"presentation\": %s, \"clock_id\": %u}\n", (int)getpid(), (int)c->helper,
	       (int)c->compositor, c->pres ? "true" : "false", c->clock_id);
	fflush(stdout);
}

/* Prints the press once everything about it is known. */
static void maybe_answer(struct client *c)
{
	struct press *p = &c->p;
	enum mode m = p->mode;

	if (!p->on || !p->framed || (c->pres && !p->fed) || (p->want_reply && !p->replied))
		return;
	printf("{\"event\": \"press\", \"n\": %d, \"key\": %d, \"key_name\": \"%c\", "
	       "\"mode\": \"%s\", \"ms\": %d, \"pid\": %d, \"helper\": %d, \"compositor\": %d, "
	       "\"key_time_ms\": %u, \"key_ns\": %lld, \"delay_start_ns\": %lld, "
	       "\"delay_end_ns\": %lld",
	       p->n, p->key, c->name_of[p->key], mode_names[m], p->ms,
	       (int)getpid(), (int)c->helper, (int)c->compositor, p->key_time_ms,
	       p->key_ns, p->d0, p->d1);
	print_ns("cpu_ns", p->cpu_ns, m == M_COMPUTE);
	print_ns("stopped_ns", p->stopped, m == M_STOP || m == M_COMPSTOP);
	print_ns("cont_lo_ns", p->cont_lo, m == M_STOP || m == M_COMPSTOP);
	print_ns("cont_hi_ns", p->cont_hi, m == M_STOP || m == M_COMPSTOP);
	print_ns("signal_lo_ns", p->sig_lo, m == M_FENCE);
	print_ns("signal_hi_ns", p->sig_hi, m == M_FENCE);
	print_ns("commit_ns", p->commit_ns, m != M_SILENT);
	print_ns("frame_done_ns", p->frame_ns, m != M_SILENT);
	print_ns("frame_time_ms", p->frame_ms, m != M_SILENT);
	print_ns("presented_ns", p->pres_ns, p->fed && !p->discarded && m != M_SILENT);
	print_ns("refresh_ns", p->refresh_ns, p->fed && !p->discarded && m != M_SILENT);
	print_ns("msc", p->msc, p->fed && !p->discarded && m != M_SILENT);
	print_ns("pres_flags", p->pres_flags, p->fed && !p->discarded && m != M_SILENT);
	print_ns("presented_recv_ns", p->pres_recv, p->fed && m != M_SILENT);
	print_ns("released_ns", p->released_ns, m == M_ASK && p->released_ns);
	printf(", \"discarded\": %s}\n", p->discarded ? "true" : "false");
	fflush(stdout);
	p->on = false;
	c->answered++;
}

static void frame_done(void *data, struct wl_callback *cb, uint32_t t)
{
	struct client *c = data;

	wl_callback_destroy(cb);
	say("frame done", t, c->p.on);
	if (!c->first_frame) {
		c->first_frame = true;
		check_ready(c);
		return;
	}
	c->p.frame_ns = mono_ns();
	c->p.frame_ms = t;
	c->p.framed = true;
	maybe_answer(c);
}

/* The fence mode: a vgem buffer with a write fence, as a dma-buf to poll. */
static void wait_fence(struct client *c, struct press *p)
{
	struct drm_mode_create_dumb cd = { .width = 16, .height = 16, .bpp = 32 };
	struct vgem_fence_attach at = { 0 };
	struct request q = { M_FENCE, p->ms, 0 };
	struct drm_mode_destroy_dumb dd;
	struct reply r;
	struct pollfd pf;
	int buf;

	if (drmIoctl(c->vgem, DRM_IOCTL_MODE_CREATE_DUMB, &cd))
		die("create a vgem buffer");
	if (drmPrimeHandleToFD(c->vgem, cd.handle, DRM_CLOEXEC | DRM_RDWR, &buf))
		die("export the vgem buffer");
	at.handle = cd.handle;
	at.flags = VGEM_FENCE_WRITE;
	if (drmIoctl(c->vgem, VGEM_IOCTL_FENCE_ATTACH, &at))
		die("attach a fence");
	q.arg = (int)at.out_fence;
	p->d0 = mono_ns();
	write_all(c->req, &q, sizeof(q));
	pf.fd = buf;
	pf.events = POLLIN;	/* readable once the write fence is signaled */
	while (poll(&pf, 1, -1) < 0)
		if (errno != EINTR)
			die("poll the dma-buf");
	p->d1 = mono_ns();
	read_all(c->rep, &r, sizeof(r));
	p->sig_lo = r.t[1];
	p->sig_hi = r.t[2];
	close(buf);
	dd.handle = cd.handle;
	drmIoctl(c->vgem, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
}

static void induce(struct client *c, struct press *p)
{
	struct request q = { (int)p->mode, p->ms, 0 };
	struct reply r;
	long long c0;

	switch (p->mode) {
	case M_NONE:
		p->d0 = p->d1 = mono_ns();
		break;
	case M_SLEEP:
		p->d0 = mono_ns();
		sleep_until(p->d0 + p->ms * 1000000LL);
		p->d1 = mono_ns();
		break;
	case M_COMPUTE:
		p->d0 = mono_ns();
		c0 = cputime();
		while (cputime() - c0 < p->ms * 1000000LL)
			;
		p->d1 = mono_ns();
		p->cpu_ns = cputime() - c0;
		break;
	case M_FENCE:
		wait_fence(c, p);
		break;
	case M_STOP:
		write_all(c->req, &q, sizeof(q));
		p->d0 = mono_ns();
		raise(SIGSTOP);		/* until the helper continues us */
		p->d1 = mono_ns();
		read_all(c->rep, &r, sizeof(r));
		p->stopped = r.t[0];
		p->cont_lo = r.t[1];
		p->cont_hi = r.t[2];
		break;
	case M_SILENT:
		p->d0 = p->d1 = mono_ns();
		break;
	case M_ASK:
		p->d0 = mono_ns();
		write_all(c->req, &q, sizeof(q));
		p->want_reply = true;	/* the answer comes to the main loop */
		printf("{\"event\": \"asked\", \"n\": %d, \"asked_ns\": %lld}\n", p->n, p->d0);
		fflush(stdout);
		break;
	case M_COMPSTOP:
		q.arg = (int)c->compositor;
		p->d0 = mono_ns();
		write_all(c->req, &q, sizeof(q));
		read_all(c->rep, &r, sizeof(r));	/* it is stopped */
		p->stopped = r.t[0];
		p->d1 = mono_ns();
		p->want_reply = true;	/* the continue comes to the main loop */
		break;
	case M_COUNT:
		break;
	}
}

static void kb_keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd,
		      uint32_t size)
{
	(void)data;
	(void)k;
	(void)format;
	(void)size;
	close(fd);
}

static void kb_enter(void *data, struct wl_keyboard *k, uint32_t serial,
		     struct wl_surface *s, struct wl_array *keys)
{
	struct client *c = data;

	(void)k;
	(void)serial;
	(void)keys;
	say("enter", s == c->surf, 0);
	if (s == c->surf) {
		c->focused = true;
		check_ready(c);
	}
}

static void kb_leave(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
	struct client *c = data;

	(void)k;
	(void)serial;
	if (s == c->surf)
		c->focused = false;
}

static void kb_key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time,
		   uint32_t key, uint32_t state)
{
	struct client *c = data;
	long long now = mono_ns();
	struct press *p = &c->p;

	(void)k;
	(void)serial;
	say("key", key, state);
	/* the key's release, before the answer (ask) */
	if (state == WL_KEYBOARD_KEY_STATE_RELEASED && p->on && (int)key == p->key &&
	    !p->released_ns)
		p->released_ns = now;
	if (state != WL_KEYBOARD_KEY_STATE_PRESSED || key > KEY_MAX || c->mode_of[key] < 0 ||
	    p->on || !c->ready)
		return;
	memset(p, 0, sizeof(*p));
	p->on = true;
	p->n = ++c->presses;
	p->key = (int)key;
	p->mode = (enum mode)c->mode_of[key];
	p->ms = c->ms_of[key];
	p->key_time_ms = time;
	p->key_ns = now;
	induce(c, p);
	if (p->mode == M_SILENT) {
		/* nothing drawn, nothing said: the press is done */
		p->framed = p->fed = true;
		say("silent", p->n, 0);
		maybe_answer(c);
		return;
	}
	if (p->mode == M_ASK)
		return;		/* drawn when the helper answers */
	draw_commit(c, 0xff000000u | (uint32_t)(p->n * 0x3f1d27), true);
	p->commit_ns = mono_ns();
	say("committed", p->n, p->commit_ns - p->key_ns);
}

static void kb_modifiers(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t d,
			 uint32_t l, uint32_t lk, uint32_t g)
{
	(void)data;
	(void)k;
	(void)serial;
	(void)d;
	(void)l;
	(void)lk;
	(void)g;
}

static void kb_repeat(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay)
{
	(void)data;
	(void)k;
	(void)rate;
	(void)delay;
}

static const struct wl_keyboard_listener kb_listener = {
	kb_keymap, kb_enter, kb_leave, kb_key, kb_modifiers, kb_repeat,
};

static void seat_caps(void *data, struct wl_seat *s, uint32_t caps)
{
	struct client *c = data;

	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && !c->kbd) {
		c->kbd = wl_seat_get_keyboard(s);
		wl_keyboard_add_listener(c->kbd, &kb_listener, c);
	}
}

static void seat_name(void *data, struct wl_seat *s, const char *name)
{
	(void)data;
	(void)s;
	(void)name;
}

static const struct wl_seat_listener seat_listener = { seat_caps, seat_name };

static void wm_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void pres_clock(void *data, struct wp_presentation *p, uint32_t id)
{
	struct client *c = data;

	(void)p;
	c->clock_id = id;
}

static const struct wp_presentation_listener pres_listener = { pres_clock };

static void xsurf_configure(void *data, struct xdg_surface *x, uint32_t serial)
{
	struct client *c = data;

	xdg_surface_ack_configure(x, serial);
	if (!c->configured) {
		c->configured = true;
		draw_commit(c, 0xff204060u, false);
	}
}

static const struct xdg_surface_listener xsurf_listener = { xsurf_configure };

static void top_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
			  struct wl_array *states)
{
	(void)data;
	(void)t;
	(void)w;
	(void)h;
	(void)states;
}

static void top_close(void *data, struct xdg_toplevel *t)
{
	(void)data;
	(void)t;
	exit(0);
}

static const struct xdg_toplevel_listener top_listener = {
	.configure = top_configure, .close = top_close,
};

static void reg_global(void *data, struct wl_registry *r, uint32_t name, const char *iface,
		       uint32_t version)
{
	struct client *c = data;

	if (!strcmp(iface, wl_compositor_interface.name)) {
		c->comp = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	} else if (!strcmp(iface, wl_shm_interface.name)) {
		c->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	} else if (!strcmp(iface, xdg_wm_base_interface.name)) {
		c->wm = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(c->wm, &wm_listener, c);
	} else if (!strcmp(iface, wl_seat_interface.name) && !c->seat) {
		c->seat = wl_registry_bind(r, name, &wl_seat_interface,
					   version < 5 ? version : 5);
		wl_seat_add_listener(c->seat, &seat_listener, c);
	} else if (!strcmp(iface, wp_presentation_interface.name)) {
		c->pres = wl_registry_bind(r, name, &wp_presentation_interface, 1);
		wp_presentation_add_listener(c->pres, &pres_listener, c);
	}
}

static void reg_remove(void *data, struct wl_registry *r, uint32_t name)
{
	(void)data;
	(void)r;
	(void)name;
}

static const struct wl_registry_listener reg_listener = { reg_global, reg_remove };

static pid_t peer_pid(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len))
		die("SO_PEERCRED on the Wayland socket");
	return cr.pid;
}

/* The helper answered an ask: the client draws and commits now. */
static void ask_answered(struct client *c)
{
	struct press *p = &c->p;

	p->d1 = mono_ns();
	draw_commit(c, 0xff000000u | (uint32_t)(p->n * 0x3f1d27), true);
	p->commit_ns = mono_ns();
	say("committed", p->n, p->commit_ns - p->key_ns);
}

/* The main loop: Wayland events and the helper's late answers. */
static int run(struct client *c)
{
	struct pollfd pf[2];
	struct reply r;
	long long now;
	int timeout;

	while (!c->count || c->answered < c->count) {
		while (wl_display_prepare_read(c->d))
			if (wl_display_dispatch_pending(c->d) < 0)
				return 1;
		if (wl_display_flush(c->d) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(c->d);
			return 0;	/* the compositor went away */
		}
		pf[0].fd = wl_display_get_fd(c->d);
		pf[0].events = POLLIN;
		pf[1].fd = c->rep;
		/*
		 * (ask: the answer is taken once the key's release was read,
		 * which a host that starves the guest can deliver after the
		 * helper's MS ms: the scenario is a release that finds the
		 * client waiting for the answer)
		 */
		pf[1].events = c->p.want_reply && !c->p.replied &&
			       (c->p.mode != M_ASK || c->p.released_ns) ? POLLIN : 0;
		timeout = -1;	/* without a free buffer: until one is released */
		if (c->blink_ms && c->ready && free_buffer(c)) {
			now = mono_ns();
			if (!c->next_blink)
				c->next_blink = now + c->blink_ms * 1000000LL;
			timeout = now >= c->next_blink ? 0 :
				  (int)((c->next_blink - now + 999999) / 1000000);
		}
		if (poll(pf, 2, timeout) < 0) {
			wl_display_cancel_read(c->d);
			if (errno == EINTR)
				continue;
			die("poll");
		}
		if (pf[0].revents & POLLIN) {
			if (wl_display_read_events(c->d) < 0)
				return 0;
		} else {
			wl_display_cancel_read(c->d);
		}
		if (wl_display_dispatch_pending(c->d) < 0)
			return 0;
		now = mono_ns();
		if (c->blink_ms && c->ready && now >= c->next_blink && free_buffer(c)) {
			draw_commit(c, c->blinks % 2 ? 0xff204060u : 0xffe0e0e0u, true);
			printf("{\"event\": \"blink\", \"n\": %d, \"commit_ns\": %lld}\n",
			       ++c->blinks, mono_ns());
			fflush(stdout);
			/* late (the compositor kept the buffers): no burst */
			c->next_blink += c->blink_ms * 1000000LL;
			if (c->next_blink < now)
				c->next_blink = now + c->blink_ms * 1000000LL;
		}
		if (pf[1].revents & POLLIN) {
			read_all(c->rep, &r, sizeof(r));
			c->p.replied = true;
			if (c->p.mode == M_ASK) {
				ask_answered(c);
				continue;
			}
			c->p.cont_lo = r.t[1];
			c->p.cont_hi = r.t[2];
			maybe_answer(c);
		}
	}
	return 0;
}

static int client(struct client *c)
{
	struct wl_registry *reg;

	c->d = wl_display_connect(NULL);
	if (!c->d)
		die("wl_display_connect");
	c->compositor = peer_pid(wl_display_get_fd(c->d));
	reg = wl_display_get_registry(c->d);
	wl_registry_add_listener(reg, &reg_listener, c);
	if (wl_display_roundtrip(c->d) < 0 || wl_display_roundtrip(c->d) < 0)
		die("roundtrip");
	if (!c->comp || !c->shm || !c->wm || !c->seat)
		fail("the compositor lacks wl_compositor, wl_shm, xdg_wm_base or wl_seat");
	make_buffers(c);
	c->surf = wl_compositor_create_surface(c->comp);
	c->xsurf = xdg_wm_base_get_xdg_surface(c->wm, c->surf);
	xdg_surface_add_listener(c->xsurf, &xsurf_listener, c);
	c->top = xdg_surface_get_toplevel(c->xsurf);
	xdg_toplevel_add_listener(c->top, &top_listener, c);
	xdg_toplevel_set_title(c->top, c->blink_ms ? "wlblink" : "wlkey");
	xdg_toplevel_set_app_id(c->top, c->blink_ms ? "wlblink" : "wlkey");
	wl_surface_commit(c->surf);
	return run(c);
}

/* "a=sleep:300" into the tables; false if it is not one. */
static bool parse_key(struct client *c, const char *arg)
{
	static const int letters[26] = {
		KEY_A, KEY_B, KEY_C, KEY_D, KEY_E, KEY_F, KEY_G, KEY_H, KEY_I,
		KEY_J, KEY_K, KEY_L, KEY_M, KEY_N, KEY_O, KEY_P, KEY_Q, KEY_R,
		KEY_S, KEY_T, KEY_U, KEY_V, KEY_W, KEY_X, KEY_Y, KEY_Z,
	};
	const char *colon;
	char *end;
	size_t len;
	long ms = 0;
	int m;

	if (arg[0] < 'a' || arg[0] > 'z' || arg[1] != '=')
		return false;
	colon = strchr(arg + 2, ':');
	len = colon ? (size_t)(colon - (arg + 2)) : strlen(arg + 2);
	for (m = 0; m < M_COUNT; m++)
		if (strlen(mode_names[m]) == len && !strncmp(arg + 2, mode_names[m], len))
			break;
	if (m == M_COUNT)
		return false;
	if (colon) {
		errno = 0;
		ms = strtol(colon + 1, &end, 10);
		if (errno || *end || ms < 0 || ms > 10000)
			return false;
	}
	c->mode_of[letters[arg[0] - 'a']] = m;
	c->ms_of[letters[arg[0] - 'a']] = (int)ms;
	c->name_of[letters[arg[0] - 'a']] = arg[0];
	return true;
}

int main(int argc, char **argv)
{
	static struct client c;
	int req[2], rep[2], i, a = 1;
	bool fence = false;
	pid_t pid;

	for (i = 0; i <= KEY_MAX; i++)
		c.mode_of[i] = -1;
	if (argc > 1 && !strcmp(argv[1], "-v")) {
		verbose = true;
		argv++;
		argc--;
	}
	if (argc > 2 && !strcmp(argv[1], "--count")) {
		c.count = atoi(argv[2]);
		a = 3;
	} else if (argc == 3 && !strcmp(argv[1], "--blink")) {
		c.blink_ms = atoi(argv[2]);
		if (c.blink_ms <= 0 || c.blink_ms > 10000)
			fail("--blink MS: 1 to 10000");
		a = 3;
	}
	if (a >= argc && !c.blink_ms) {
		fprintf(stderr, "usage: wlkey [-v] [--count N] KEY=MODE[:MS]...\n"
			"       wlkey [-v] --blink MS\n"
			"  MODE: none sleep compute fence stop compstop silent ask\n"
			"example: wlkey --count 2 a=sleep:300 b=fence:300\n");
		return 2;
	}
	for (i = a; i < argc; i++) {
		if (!parse_key(&c, argv[i])) {
			fprintf(stderr, "wlkey: not KEY=MODE[:MS]: '%s'\n", argv[i]);
			return 2;
		}
		fence |= strstr(argv[i], "=fence") != NULL;
	}
	c.vgem = -1;
	if (fence) {
		c.vgem = open_card("vgem", 1);
		if (c.vgem < 0)
			fail("a fence mode needs vgem (modprobe vgem)");
	}
	if (pipe2(req, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		die("pipe");
	c.helper = getpid();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid) {
		close(req[1]);
		close(rep[0]);
		return helper(pid, c.vgem, req[0], rep[1]);
	}
	close(req[0]);
	close(rep[1]);
	c.req = req[1];
	c.rep = rep[0];
	return client(&c);
}
