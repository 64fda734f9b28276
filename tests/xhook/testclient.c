// SPDX-License-Identifier: GPL-2.0
/*
 * A tiny X client for the xhook tests.
 *
 *   xhook-testclient hello            one round trip, then print "hello base
 *                                     BASE connect T0 T1" (its resource base;
 *                                     CLOCK_MONOTONIC ns before connecting and
 *                                     after the round trip: the server stamps
 *                                     the client's start in between, maybe
 *                                     after the client got its setup)
 *   xhook-testclient hold             one round trip, print "ready base BASE",
 *                                     stay connected until stdin closes
 *   xhook-testclient putimage W H     one W*H ZPixmap PutImage (BIG-REQUESTS
 *                                     when large), then a round trip
 *   xhook-testclient draw N MS        N PolyFillRectangles MS ms apart, each
 *                                     flushed; prints "sent SEQ MONO_NS"
 *   xhook-testclient grab             grab Ctrl-Alt-Minus (all lock variants),
 *                                     print "grabbed", hold until stdin closes
 *   xhook-testclient bench N          N PolyPoint + NoOperation pairs with a
 *                                     round trip every 1000; prints "ns TOTAL"
 *   xhook-testclient rtt N            N GetInputFocus round trips; "ns TOTAL"
 *   xhook-testclient slow MS N        a window taking key and button presses:
 *                                     prints "window WID", then for each of N
 *                                     presses "press T0" (CLOCK_MONOTONIC ns on
 *                                     receipt), does a round trip that a
 *                                     server grab (a second connection, let
 *                                     go by a thread) holds up 200 ms, sleeps
 *                                     MS ms (nanosleep) and draws; "done T1"
 *                                     just before it waits for the next event;
 *                                     before it, "sleep T" and "slept T": the
 *                                     clock just before and after nanosleep()
 *   xhook-testclient slow MS N motion:K  as above, but while it handles the
 *                                     K-th event it selects pointer motion
 *                                     too: a motion event after that is
 *                                     handled the same way (and counts in N),
 *                                     sleeping 3 * MS ms
 *   xhook-testclient victim ACTION...  a window taking key presses: prints
 *                                     "window WID", then for press i "press T0",
 *                                     does ACTION i, draws a rectangle, does a
 *                                     round trip (the server has drawn it
 *                                     when the reply comes) and prints
 *                                     "done T1".  ACTION: "plain"
 *                                     (nothing more), "x" (round trips asking
 *                                     for a property of the window until the
 *                                     flooder has set it; the last one's time:
 *                                     "round_trip_ns NS"), "read:PATH:N" (N
 *                                     O_DIRECT 4 KiB reads of PATH, 1 MiB
 *                                     apart: "read_ns NS"), "sleep:MS" (a
 *                                     nanosleep of MS ms: the time it took,
 *                                     "slept_ns NS"), "compute:MS"
 *                                     (computing until the thread has used
 *                                     MS ms of CPU time: "cpu_ns NS");
 *                                     later presses: plain.
 *                                     It runs until killed.
 *   xhook-testclient present MS       a window covering the screen, shown
 *                                     through the Present extension: prints
 *                                     "window WID", then for each key press
 *                                     "press T0", sleeps MS ms (nanosleep:
 *                                     "slept_ns NS"), fills the next of two
 *                                     screen-sized pixmaps with a new colour
 *                                     and presents it (PresentPixmap, a
 *                                     vsynced flip when the server can):
 *                                     "presented SERIAL T1" once sent, then
 *                                     waits for events again.  The server's
 *                                     PresentCompleteNotify for it: "complete
 *                                     SERIAL MODE UST_US" (MODE 0 copy, 1
 *                                     flip, 2 skip, 3 suboptimal copy; UST
 *                                     the flip's time in CLOCK_MONOTONIC us,
 *                                     as DRM's event gave it).  Runs until
 *                                     killed.
 *   xhook-testclient flood WID MS     on a key press in window WID: grab the
 *                                     server, change a property of WID (so its
 *                                     owner knows), print "grabbed T0", fill a
 *                                     1024x1024 pixmap again and again for MS
 *                                     ms, let go: "released T1"
 *
 * Every mode prints "pid PID" first.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/uio.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Computes until the thread has used @ms ms of CPU time; returns what it used. */
static uint64_t compute(long ms)
{
	uint64_t t0 = cpu_ns(), t;
	volatile uint64_t x = 1;

	do {
		for (int k = 0; k < 10000; k++)
			x = x * 6364136223846793005ULL + 1;
		t = cpu_ns();
	} while (t - t0 < (uint64_t)ms * 1000000ULL);
	return t - t0;
}

static void round_trip(xcb_connection_t *c)
{
	free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
}

/* Release @arg's (a connection's) server grab 200 ms from now. */
static void *ungrab_later(void *arg)
{
	xcb_connection_t *g = arg;
	struct timespec d = { 0, 200 * 1000000L };

	nanosleep(&d, NULL);
	xcb_ungrab_server(g);
	xcb_flush(g);
	return NULL;
}

static xcb_window_t make_window(xcb_connection_t *c, xcb_screen_t *s,
				xcb_gcontext_t *gc, int map)
{
	xcb_window_t w = xcb_generate_id(c);
	uint32_t v[] = { s->white_pixel };

	xcb_create_window(c, XCB_COPY_FROM_PARENT, w, s->root, 0, 0, 400, 400, 0,
			  XCB_WINDOW_CLASS_INPUT_OUTPUT, s->root_visual,
			  XCB_CW_BACK_PIXEL, v);
	if (map)
		xcb_map_window(c, w);
	*gc = xcb_generate_id(c);
	v[0] = s->black_pixel;
	xcb_create_gc(c, *gc, w, XCB_GC_FOREGROUND, v);
	return w;
}

static int do_grab(xcb_connection_t *c, xcb_screen_t *s)
{
	const xcb_setup_t *setup = xcb_get_setup(c);
	xcb_get_keyboard_mapping_reply_t *kr;
	xcb_keysym_t *syms;
	uint16_t locks[] = { 0, XCB_MOD_MASK_LOCK, XCB_MOD_MASK_2,
			     XCB_MOD_MASK_LOCK | XCB_MOD_MASK_2 };
	int kc, minus = 0, i, per, fails = 0;
	char buf[64];

	kr = xcb_get_keyboard_mapping_reply(c, xcb_get_keyboard_mapping(c,
		setup->min_keycode, setup->max_keycode - setup->min_keycode + 1), NULL);
	if (!kr)
		return 1;
	per = kr->keysyms_per_keycode;
	syms = xcb_get_keyboard_mapping_keysyms(kr);
	for (kc = setup->min_keycode; kc <= setup->max_keycode && !minus; kc++)
		if (syms[(kc - setup->min_keycode) * per] == 0x2d)
			minus = kc;
	free(kr);
	if (!minus)
		return 1;
	for (i = 0; i < 4; i++) {
		xcb_generic_error_t *e = xcb_request_check(c, xcb_grab_key_checked(c,
			1, s->root, XCB_MOD_MASK_CONTROL | XCB_MOD_MASK_1 | locks[i],
			(xcb_keycode_t)minus, XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC));

		if (e) {
			fails++;
			free(e);
		}
	}
	printf("grabbed %d failed %d\n", 4 - fails, fails);
	fflush(stdout);
	while (fgets(buf, sizeof(buf), stdin))
		;
	return fails ? 1 : 0;
}

/*
 * Read @n 4 KiB blocks of @path with O_DIRECT (each from the device, none
 * from the page cache); the time it took, 0 on failure.
 */
static uint64_t read_direct(const char *path, long n)
{
	void *buf;
	int fd = open(path, O_RDONLY | O_DIRECT);
	uint64_t t0 = now_ns();
	long i;

	if (fd < 0 || posix_memalign(&buf, 4096, 4096)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (pread(fd, buf, 4096, (off_t)i * 1048576) != 4096)
			break;
	t0 = i == n ? now_ns() - t0 : 0;
	free(buf);
	close(fd);
	return t0;
}

static uint8_t next_event(xcb_connection_t *c)
{
	xcb_generic_event_t *ev = xcb_wait_for_event(c);
	uint8_t type;

	if (!ev)
		exit(1);
	type = ev->response_type & 0x7f;
	free(ev);
	return type;
}

static int do_victim(xcb_connection_t *c, xcb_screen_t *s, int n, char **act)
{
	uint32_t mask = XCB_EVENT_MASK_KEY_PRESS;
	xcb_gcontext_t gc;
	xcb_window_t w = make_window(c, s, &gc, 1);
	xcb_intern_atom_reply_t *go = xcb_intern_atom_reply(c,
		xcb_intern_atom(c, 0, 8, "TIPME_GO"), NULL);
	uint64_t t;
	const char *a;
	int i = 0;

	if (!go)
		return 1;
	xcb_change_window_attributes(c, w, XCB_CW_EVENT_MASK, &mask);
	round_trip(c);
	printf("window %u\n", w);
	fflush(stdout);
	for (;;) {
		if (next_event(c) != XCB_KEY_PRESS)
			continue;
		a = i < n ? act[i] : "plain";
		printf("press %llu\n", (unsigned long long)now_ns());
		fflush(stdout);
		if (!strcmp(a, "x")) {
			/*
			 * The flooder saw the same press and takes the server,
			 * then sets a property on our window: ask for it until
			 * it is there.  The round trip its grab holds up is the
			 * last one (every wait here is a round trip: part of
			 * the handling).
			 */
			for (;;) {
				xcb_get_property_reply_t *r;
				int set;

				t = now_ns();
				r = xcb_get_property_reply(c, xcb_get_property(c, 0, w, go->atom,
						XCB_ATOM_STRING, 0, 4), NULL);
				set = r && xcb_get_property_value_length(r) > 0;
				free(r);
				if (set)
					break;
			}
			printf("round_trip_ns %llu\nround_trip_from_ns %llu\n",
			       (unsigned long long)(now_ns() - t), (unsigned long long)t);
		} else if (!strncmp(a, "read:", 5)) {
			char path[256], *k;

			snprintf(path, sizeof(path), "%s", a + 5);
			k = strrchr(path, ':');
			if (!k)
				return 2;
			*k++ = '\0';
			t = read_direct(path, atol(k));
			if (!t)
				return 1;
			printf("read_ns %llu\n", (unsigned long long)t);
		} else if (!strncmp(a, "sleep:", 6)) {
			long ms = atol(a + 6);
			struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };

			t = now_ns();
			nanosleep(&d, NULL);
			printf("slept_ns %llu\n", (unsigned long long)(now_ns() - t));
		} else if (!strncmp(a, "compute:", 8)) {
			printf("cpu_ns %llu\n", (unsigned long long)compute(atol(a + 8)));
		}
		xcb_poly_fill_rectangle(c, w, gc, 1, &(xcb_rectangle_t){ 10, 10, 50, 50 });
		/* the server runs a client's requests in order: drawn by the reply */
		round_trip(c);
		i++;
		printf("done %llu\n", (unsigned long long)now_ns());
		fflush(stdout);
	}
}

static int do_flood(xcb_connection_t *c, xcb_screen_t *s, xcb_window_t target,
		    long ms)
{
	uint32_t mask = XCB_EVENT_MASK_KEY_PRESS, fg = s->black_pixel;
	xcb_intern_atom_reply_t *a;
	xcb_pixmap_t pix = xcb_generate_id(c);
	xcb_gcontext_t gc = xcb_generate_id(c);
	uint64_t t0;
	int k;

	a = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, 8, "TIPME_GO"), NULL);
	if (!a)
		return 1;
	xcb_create_pixmap(c, s->root_depth, pix, s->root, 1024, 1024);
	xcb_create_gc(c, gc, pix, XCB_GC_FOREGROUND, &fg);
	xcb_change_window_attributes(c, target, XCB_CW_EVENT_MASK, &mask);
	round_trip(c);
	printf("ready\n");
	fflush(stdout);
	while (next_event(c) != XCB_KEY_PRESS)
		;
	xcb_grab_server(c);
	xcb_change_property(c, XCB_PROP_MODE_REPLACE, target, a->atom, XCB_ATOM_STRING,
			    8, 2, "go");
	round_trip(c);
	t0 = now_ns();
	printf("grabbed %llu\n", (unsigned long long)t0);
	fflush(stdout);
	while (now_ns() - t0 < (uint64_t)ms * 1000000ULL) {
		for (k = 0; k < 8; k++) {
			fg ^= 0xffffff;
			xcb_change_gc(c, gc, XCB_GC_FOREGROUND, &fg);
			xcb_poly_fill_rectangle(c, pix, gc, 1,
						&(xcb_rectangle_t){ 0, 0, 1024, 1024 });
		}
		round_trip(c);
	}
	xcb_ungrab_server(c);
	xcb_flush(c);
	printf("released %llu\n", (unsigned long long)now_ns());
	free(a);
	return 0;
}

/*
 * The Present extension by hand (libxcb-present is not among the build's
 * packages): the requests' layouts of presentproto's documentation.
 */
static xcb_extension_t present_ext = { "Present", 0 };

enum { PRESENT_QUERY_VERSION = 0, PRESENT_PIXMAP = 1, PRESENT_SELECT_INPUT = 3 };
#define PRESENT_COMPLETE_MASK	2
#define PRESENT_COMPLETE_NOTIFY	1

/* Send Present request @minor, @words 4-byte words (the header's included). */
static unsigned present_req(xcb_connection_t *c, uint8_t minor, uint32_t *req,
			    size_t words, int isvoid)
{
	xcb_protocol_request_t pr = { .count = 1, .ext = &present_ext,
				      .opcode = minor, .isvoid = (uint8_t)isvoid };
	struct iovec iov[3] = { { 0 }, { 0 }, { req, words * 4 } };

	return xcb_send_request(c, isvoid ? 0 : XCB_REQUEST_CHECKED, iov + 2, &pr);
}

static int do_present(xcb_connection_t *c, xcb_screen_t *s, long ms)
{
	const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &present_ext);
	uint32_t v[2] = { 1, XCB_EVENT_MASK_KEY_PRESS };
	uint32_t q[3] = { 0, 1, 2 }, sel[4], fg;
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
	xcb_window_t w = xcb_generate_id(c);
	xcb_pixmap_t pix[2];
	xcb_gcontext_t gc = xcb_generate_id(c);
	xcb_generic_event_t *ev;
	uint32_t serial = 0;
	void *r;
	int k;

	if (!ext || !ext->present) {
		fprintf(stderr, "no Present extension\n");
		return 1;
	}
	r = xcb_wait_for_reply(c, present_req(c, PRESENT_QUERY_VERSION, q, 3, 0), NULL);
	if (!r)
		return 1;
	free(r);
	xcb_create_window(c, XCB_COPY_FROM_PARENT, w, s->root, 0, 0, s->width_in_pixels,
			  s->height_in_pixels, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, s->root_visual,
			  XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, v);
	for (k = 0; k < 2; k++) {
		pix[k] = xcb_generate_id(c);
		xcb_create_pixmap(c, s->root_depth, pix[k], w, s->width_in_pixels,
				  s->height_in_pixels);
	}
	fg = s->black_pixel;
	xcb_create_gc(c, gc, w, XCB_GC_FOREGROUND, &fg);
	sel[1] = xcb_generate_id(c);
	sel[2] = w;
	sel[3] = PRESENT_COMPLETE_MASK;
	present_req(c, PRESENT_SELECT_INPUT, sel, 4, 1);
	xcb_map_window(c, w);
	xcb_set_input_focus(c, XCB_INPUT_FOCUS_POINTER_ROOT, w, XCB_CURRENT_TIME);
	round_trip(c);
	printf("window %u\n", w);
	fflush(stdout);
	while ((ev = xcb_wait_for_event(c))) {
		uint8_t type = ev->response_type & 0x7f;
		const uint8_t *b = (const uint8_t *)ev;

		if (type == XCB_GE_GENERIC && b[1] == ext->major_opcode &&
		    (b[8] | b[9] << 8) == PRESENT_COMPLETE_NOTIFY) {
			uint32_t ser;
			uint64_t ust;

			memcpy(&ser, b + 20, 4);
			memcpy(&ust, b + 24, 8);
			printf("complete %u %u %llu\n", ser, b[11], (unsigned long long)ust);
			fflush(stdout);
		}
		free(ev);
		if (type != XCB_KEY_PRESS)
			continue;
		printf("press %llu\n", (unsigned long long)now_ns());
		fflush(stdout);
		{
			uint64_t t = now_ns();

			nanosleep(&d, NULL);
			printf("slept_ns %llu\n", (unsigned long long)(now_ns() - t));
		}
		serial++;
		fg = (serial * 0x3f5a17u) & 0xffffff;
		xcb_change_gc(c, gc, XCB_GC_FOREGROUND, &fg);
		k = (int)(serial & 1);
		xcb_poly_fill_rectangle(c, pix[k], gc, 1, &(xcb_rectangle_t){
			0, 0, s->width_in_pixels, s->height_in_pixels });
		{
			/*
			 * window, pixmap, serial, valid, update, x_off and
			 * y_off, target_crtc, wait_fence, idle_fence, options,
			 * pad, target_msc, divisor, remainder (64 bits each):
			 * at the next refresh, no fences, no notifies
			 */
			uint32_t p[18] = { 0, w, pix[k], serial };

			present_req(c, PRESENT_PIXMAP, p, 18, 1);
		}
		xcb_flush(c);
		printf("presented %u %llu\n", serial, (unsigned long long)now_ns());
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	xcb_connection_t *c;
	xcb_screen_t *s;
	xcb_gcontext_t gc;
	xcb_window_t w;
	uint64_t t_connect;

	if (argc < 2) {
		fprintf(stderr, "usage: see the comment at the top of testclient.c\n");
		return 2;
	}
	t_connect = now_ns();
	c = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(c)) {
		fprintf(stderr, "cannot connect to %s: xcb error %d\n",
			getenv("DISPLAY") ? getenv("DISPLAY") : "$DISPLAY unset",
			xcb_connection_has_error(c));
		return 1;
	}
	s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
	printf("pid %d\n", (int)getpid());
	fflush(stdout);

	if (!strcmp(argv[1], "hello")) {
		/*
		 * The server writes the setup before it marks the client
		 * started (RECORD's ClientStarted, stamped then): a busy
		 * server may stamp it after xcb_connect() returned here, but
		 * always before it runs a request of ours.
		 */
		round_trip(c);
		printf("hello base %u connect %llu %llu\n",
		       xcb_get_setup(c)->resource_id_base,
		       (unsigned long long)t_connect, (unsigned long long)now_ns());
	} else if (!strcmp(argv[1], "hold")) {
		char buf[64];

		round_trip(c);
		printf("ready base %u\n", xcb_get_setup(c)->resource_id_base);
		fflush(stdout);
		while (fgets(buf, sizeof(buf), stdin))
			;
	} else if (!strcmp(argv[1], "putimage") && argc == 4) {
		unsigned wd = (unsigned)atoi(argv[2]), ht = (unsigned)atoi(argv[3]);
		size_t len = (size_t)wd * ht * 4;
		uint8_t *img = malloc(len);
		xcb_void_cookie_t ck;

		if (!img)
			return 1;
		memset(img, 0x5a, len);
		w = make_window(c, s, &gc, 0);
		round_trip(c);
		ck = xcb_put_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, w, gc, (uint16_t)wd,
				   (uint16_t)ht, 0, 0, 0, s->root_depth, (uint32_t)len, img);
		printf("putimage seq %u bytes %zu\n", ck.sequence, len);
		round_trip(c);
		xcb_poly_point(c, XCB_COORD_MODE_ORIGIN, w, gc, 1,
			       &(xcb_point_t){ 1, 1 });
		round_trip(c);
		printf("done\n");
		free(img);
	} else if (!strcmp(argv[1], "draw") && argc == 4) {
		int n = atoi(argv[2]), ms = atoi(argv[3]), i;
		struct timespec d = { ms / 1000, (long)(ms % 1000) * 1000000L };

		w = make_window(c, s, &gc, 1);
		round_trip(c);
		for (i = 0; i < n; i++) {
			xcb_rectangle_t r = { (int16_t)(i % 300), 10, 20, 20 };
			xcb_void_cookie_t ck = xcb_poly_fill_rectangle(c, w, gc, 1, &r);

			xcb_flush(c);
			printf("sent %u %llu\n", ck.sequence, (unsigned long long)now_ns());
			fflush(stdout);
			nanosleep(&d, NULL);	/* the client's own pace */
		}
	} else if (!strcmp(argv[1], "grab")) {
		return do_grab(c, s);
	} else if (!strcmp(argv[1], "bench") && argc == 3) {
		long n = atol(argv[2]), i;
		uint64_t t0;

		w = make_window(c, s, &gc, 0);
		round_trip(c);
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			xcb_poly_point(c, XCB_COORD_MODE_ORIGIN, w, gc, 1,
				       &(xcb_point_t){ (int16_t)(i & 255), 1 });
			xcb_no_operation(c);
			if (i % 1000 == 999)
				round_trip(c);
		}
		round_trip(c);
		printf("ns %llu\n", (unsigned long long)(now_ns() - t0));
	} else if (!strcmp(argv[1], "slow") &&
		   (argc == 4 || (argc == 5 && !strncmp(argv[4], "motion:", 7)))) {
		long ms = atol(argv[2]), n = atol(argv[3]), i = 0;
		struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
		struct timespec d2 = { 3 * ms / 1000, (3 * ms % 1000) * 1000000L };
		uint32_t mask = XCB_EVENT_MASK_KEY_PRESS | XCB_EVENT_MASK_BUTTON_PRESS;
		long motion = argc == 5 ? atol(argv[4] + 7) : 0;
		xcb_connection_t *grabber = xcb_connect(NULL, NULL);
		xcb_generic_event_t *ev;
		uint64_t t_sleep, t_slept;
		pthread_t th;

		w = make_window(c, s, &gc, 1);
		xcb_change_window_attributes(c, w, XCB_CW_EVENT_MASK, &mask);
		round_trip(c);
		printf("window %u\n", w);
		fflush(stdout);
		while (i < n && (ev = xcb_wait_for_event(c))) {
			uint8_t type = ev->response_type & 0x7f;

			free(ev);
			if (type != XCB_KEY_PRESS && type != XCB_BUTTON_PRESS &&
			    type != XCB_MOTION_NOTIFY)
				continue;
			printf("press %llu\n", (unsigned long long)now_ns());
			fflush(stdout);
			/*
			 * A round trip the server answers only 200 ms later
			 * (another connection holds a server grab meanwhile):
			 * the wait for its reply in poll() is part of the
			 * handling.  Then the slow part.
			 */
			xcb_grab_server(grabber);
			round_trip(grabber);
			if (pthread_create(&th, NULL, ungrab_later, grabber))
				return 1;
			round_trip(c);
			pthread_join(th, NULL);
			t_sleep = now_ns();
			nanosleep(type == XCB_MOTION_NOTIFY ? &d2 : &d, NULL);
			t_slept = now_ns();
			/* stdout is a file: printed with "done" (no write in between) */
			printf("sleep %llu\nslept %llu\n", (unsigned long long)t_sleep,
			       (unsigned long long)t_slept);
			if (motion && i == motion - 1) {
				/* pointer motion from now on: a round trip of this handling */
				mask |= XCB_EVENT_MASK_POINTER_MOTION;
				xcb_change_window_attributes(c, w, XCB_CW_EVENT_MASK, &mask);
				round_trip(c);
			}
			xcb_poly_fill_rectangle(c, w, gc, 1,
						&(xcb_rectangle_t){ 10, 10, 50, 50 });
			xcb_flush(c);
			i++;
			printf("done %llu\n", (unsigned long long)now_ns());
			fflush(stdout);
		}
	} else if (!strcmp(argv[1], "victim") && argc >= 3) {
		return do_victim(c, s, argc - 2, argv + 2);
	} else if (!strcmp(argv[1], "present") && argc == 3) {
		return do_present(c, s, atol(argv[2]));
	} else if (!strcmp(argv[1], "flood") && argc == 4) {
		return do_flood(c, s, (xcb_window_t)strtoul(argv[2], NULL, 0), atol(argv[3]));
	} else if (!strcmp(argv[1], "rtt") && argc == 3) {
		long n = atol(argv[2]), i;
		uint64_t t0 = now_ns();

		for (i = 0; i < n; i++)
			round_trip(c);
		printf("ns %llu\n", (unsigned long long)(now_ns() - t0));
	} else {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	fflush(stdout);
	xcb_disconnect(c);
	return 0;
}
