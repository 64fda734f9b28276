// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tipme-xhook's parser, ring, dump writer and dump reader,
 * on synthetic RECORD data: no X server needed.  Prints TAP.  Meant to run
 * under ASan/UBSan too (make SAN='-fsanitize=address,undefined ...').
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "xhook.h"
#include "crc32.h"
#include "xdumpfile.h"
#include "tipmed_link.h"

static int tests, failures;

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!cond)
		failures++;
	printf("%sok %d - ", cond ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

#define T0_MS	5000000U		/* an X time, ms */
#define RECV_NS	(5000000ULL * 1000000ULL + 2500000ULL)	/* 2.5 ms later */

static struct xh_state st;

static void reset(void)
{
	if (st.ring)
		xh_state_free(&st);
	memset(&st, 0, sizeof(st));
	if (xh_state_init(&st, 1 << 20, 1024)) {
		printf("Bail out! cannot allocate the ring\n");
		exit(1);
	}
	st.ctrl_base = 0x00200000;
	st.data_base = 0x00400000;
	st.xres_major = 130;
	st.xi_major = 131;
	st.xtest_major = 132;
	st.keys.ctrl = 4;
	st.keys.alt = 8;
	st.keys.shift = 1;
	st.keys.lock = 2;
	st.keys.numlock = 16;
	st.keys.minus[0] = 20;
	st.keys.n_minus = 1;
	st.keys.zero[0] = 19;
	st.keys.n_zero = 1;
	st.keys.one[0] = 10;
	st.keys.n_one = 1;
	st.keys.modkey[37] = 4;		/* Control_L */
	st.keys.modkey[64] = 8;		/* Alt_L */
	xh_client_new(&st, 0, TIPME_X11_CL_SERVER, 0);
}

static struct tipme_x11_rec *rec(uint64_t i)
{
	return i < st.head ? &st.ring[i % st.cap] : NULL;
}

/* a growing byte buffer for building RECORD data */
struct buf {
	uint8_t *p;
	size_t len;
};

static void put(struct buf *b, const void *d, size_t n)
{
	b->p = realloc(b->p, b->len + n);
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void put32(struct buf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void feed(uint8_t cat, uint32_t base, struct buf *b)
{
	struct xh_reply r = {
		.category = cat,
		.element_header = XH_EH_SERVER_TIME | XH_EH_CLIENT_TIME | XH_EH_CLIENT_SEQ,
		.xid_base = base,
		.server_time = T0_MS,
	};

	xh_parse_reply(&st, &r, b ? b->p : NULL, b ? b->len : 0, RECV_NS);
}

/* a request element: time, seq, then the request */
static void req(struct buf *b, uint32_t seq, const uint8_t *q, size_t n)
{
	put32(b, T0_MS);
	put32(b, seq);
	put(b, q, n);
}

static void event(struct buf *b, const uint8_t ev[32])
{
	put32(b, T0_MS);
	put(b, ev, 32);
}

static void test_unwrap(void)
{
	ok(xh_unwrap_ms(1000, 1000500000ULL) == 1000000000ULL, "unwrap: plain");
	ok(xh_unwrap_ms(0xfffffff0U, (1ULL << 32) * 1000000ULL + 5000000ULL) ==
	   (0xfffffff0ULL) * 1000000ULL, "unwrap: stamp just before a wrap");
	ok(xh_unwrap_ms(3, (1ULL << 32) * 1000000ULL - 1000000ULL) ==
	   ((1ULL << 32) + 3) * 1000000ULL, "unwrap: stamp just after a wrap");
	ok(xh_unwrap_ms(10, 5000000ULL) == 10000000ULL,
	   "unwrap: stamp slightly ahead of the receive time, near boot");
}

static void test_requests(void)
{
	const uint32_t base = 0x00600000;
	struct buf b = { 0 };
	size_t img = 320 * 320 * 4, n = 28 + img;
	uint8_t *put_image = calloc(1, n);
	uint8_t pp[16] = { 64, 0, 4, 0, 1, 0, 0x60, 0, 2, 0, 0, 0, 1, 0, 1, 0 };
	uint8_t it8[20] = { 76, 5, 5, 0, 1, 0, 0x60, 0, 2, 0, 0x60, 0, 5, 0, 9, 0,
			    's', 'e', 'c', 'r' };
	uint8_t gif[4] = { 43, 0, 1, 0 };
	uint8_t reply[40] = { 1, 0, 9, 0, 0, 0, 0, 0 };
	struct tipme_x11_rec *r;

	reset();
	feed(XH_CAT_CLIENT_STARTED, base, NULL);
	ok(st.ncl == 2 && st.cl[1].generation == 1 && st.npending == 1,
	   "ClientStarted: a new client, queued for its PID");
	/* PutImage with BIG-REQUESTS: length16 = 0, then the 32-bit length */
	put_image[0] = 72;
	put_image[1] = 2;
	*(uint32_t *)(put_image + 4) = (uint32_t)(n / 4);
	*(uint32_t *)(put_image + 8) = 0x00600001;	/* drawable */
	*(uint16_t *)(put_image + 16) = 320;
	*(uint16_t *)(put_image + 18) = 320;
	req(&b, 7, put_image, n);
	req(&b, 8, pp, sizeof(pp));
	req(&b, 9, gif, sizeof(gif));
	put(&b, it8, sizeof(it8));	/* no element header: malformed below */
	feed(XH_CAT_FROM_CLIENT, base, &b);
	r = rec(1);
	ok(r && r->kind == TIPME_X11_REQUEST && r->major == 72 && r->length == n &&
	   (r->flags & TIPME_X11_REC_BIGREQ) && r->op_size == 320 * 320 &&
	   r->xid == 0x00600001 && r->seq == 7 && r->client == 1,
	   "BIG-REQUESTS PutImage: length, op-size, XID and sequence");
	r = rec(2);
	ok(r && r->major == 64 && r->seq == 8 && r->op_size == 1 && r->length == 16,
	   "the request after it is parsed in step");
	ok(r && r->time_ns == T0_MS * 1000000ULL && r->late_us == 2500,
	   "element time unwrapped, lateness 2.5 ms");
	ok(st.stats.dropped == 1 && st.head == 4,
	   "a malformed element drops the rest of its reply, counted");
	free(b.p);
	b = (struct buf){ 0 };
	req(&b, 10, it8, sizeof(it8));
	feed(XH_CAT_FROM_CLIENT, base, &b);
	r = rec(4);
	ok(r && r->major == 76 && r->op_size == 5 && r->xid == 0x00600001,
	   "ImageText8: string length as op-size");
	ok(memmem(st.ring, st.cap * sizeof(*st.ring), "secr", 4) == NULL,
	   "request bodies never reach the ring");
	free(b.p);
	/* the reply to GetInputFocus (seq 9) is matched to its request */
	b = (struct buf){ 0 };
	put32(&b, T0_MS);
	put(&b, reply, 32);
	feed(XH_CAT_FROM_SERVER, base, &b);
	r = rec(5);
	ok(r && r->kind == TIPME_X11_REPLY && r->seq == 9 && r->major == 43 &&
	   (r->flags & TIPME_X11_REC_MATCHED) && r->length == 32,
	   "reply matched to its request");
	free(b.p);
	b = (struct buf){ 0 };
	put32(&b, T0_MS);
	reply[4] = 2;	/* says 8 more bytes, but they are missing */
	put(&b, reply, 36);
	feed(XH_CAT_FROM_SERVER, base, &b);
	ok(st.head == 6 && st.stats.dropped == 2, "a reply longer than its data is dropped");
	free(b.p);
	/* death and reuse of the base */
	feed(XH_CAT_CLIENT_DIED, base, NULL);
	feed(XH_CAT_CLIENT_STARTED, base, NULL);
	ok(st.ncl == 3 && (st.cl[1].flags & TIPME_X11_CL_DIED) && st.cl[2].generation == 2 &&
	   st.cl[2].xid_base == base, "a reused base is a new client (base, generation)");
	free(put_image);
}

static void test_events(void)
{
	const uint32_t base = 0x00800000;
	uint8_t kp[32] = { 2, 38, 5, 0, 0x10, 0x27, 0, 0 };
	uint8_t ge[32] = { 35, 131, 6, 0, 20, 0, 0, 0, 2, 0, 3, 0, 0x20, 0x4e, 0, 0,
			   38, 0, 0, 0 };
	uint8_t km[32] = { 11, 0xff, 0xff };
	uint8_t cn[32] = { 22, 0, 7, 0, 1, 0, 0x80, 0, 2, 0, 0x80, 0 };
	struct buf b = { 0 };
	struct tipme_x11_rec *r;
	uint64_t h0;
	int i, clean = 1;

	reset();
	kp[28] = 0x11;	/* state: Shift | Mod2 */
	event(&b, kp);
	event(&b, ge);
	event(&b, km);
	event(&b, cn);
	feed(XH_CAT_FROM_SERVER, base, &b);
	r = rec(0);
	ok(r && r->kind == TIPME_X11_EVENT && r->major == 2 && r->detail == 0 &&
	   r->state == 0 && (r->flags & TIPME_X11_REC_REDACTED) && r->x_time == 10000,
	   "key logging off: a delivered KeyPress keeps type and time only");
	r = rec(1);
	ok(r && r->major == 35 && r->minor == 2 && r->detail == 131 && r->state == 0 &&
	   (r->flags & TIPME_X11_REC_TRUNCATED) && (r->flags & TIPME_X11_REC_REDACTED) &&
	   r->length == 32, "GenericEvent: 32 bytes, XI key event redacted");
	r = rec(2);
	ok(r && r->major == 22 && st.head == 3 && st.stats.keymap_dropped == 1,
	   "KeymapNotify dropped, the next event parsed in step");
	ok(r && r->xid == 0x00800002, "ConfigureNotify: its window");
	{
		uint8_t bp[32] = { 4, 1, 8, 0 };
		struct buf b2 = { 0 };

		bp[28] = 0x05;		/* Shift | Control */
		bp[29] = 0x01;		/* Button1 held */
		event(&b2, bp);
		feed(XH_CAT_FROM_SERVER, base, &b2);
		r = rec(st.head - 1);
		ok(r && r->major == 4 && r->detail == 1 && r->state == 0x100,
		   "key logging off: ButtonPress keeps buttons, not modifiers");
		free(b2.p);
	}
	for (i = 0; i < (int)st.head; i++)
		if (st.ring[i].detail == 38 || st.ring[i].state == 0x11)
			clean = 0;
	ok(clean, "no keycode or modifier state in the ring");
	st.keylog = 1;
	h0 = st.head;
	feed(XH_CAT_FROM_SERVER, base, &b);
	r = rec(h0);
	ok(r && r->detail == 38 && r->state == 0x11, "key logging on: keycode and state kept");
	ok(st.head == h0 + 4, "key logging on: KeymapNotify recorded (without its bits)");
	free(b.p);
}

static void device_key(uint8_t type, uint8_t kc, uint16_t state)
{
	uint8_t ev[32] = { type, kc };
	struct buf b = { 0 };

	memcpy(ev + 28, &state, 2);
	event(&b, ev);
	feed(XH_CAT_FROM_SERVER, 0, &b);
	free(b.p);
}

static void test_hotkeys(void)
{
	reset();
	device_key(2, 20, 4 | 8 | 2 | 16);
	ok(st.want & XH_WANT_TRIGGER, "Ctrl-Alt-Minus with CapsLock and NumLock triggers");
	ok(st.ring[0].kind == TIPME_X11_TRIGGER && st.ring[1].kind == TIPME_X11_DEVICE &&
	   st.ring[1].client == TIPME_X11_CLIENT_SERVER && st.ring[1].detail == 0,
	   "trigger mark, then the device event, redacted");
	st.want = 0;
	st.last_trigger_ns = 0;
	device_key(2, 20, 4 | 8 | 64);
	ok(!(st.want & XH_WANT_TRIGGER), "an extra modifier (Mod4) does not trigger");
	/* modifiers known only from the key stream (state 0 in the event) */
	device_key(2, 37, 0);
	device_key(2, 64, 0);
	device_key(2, 20, 0);
	ok(st.want & XH_WANT_TRIGGER, "modifiers tracked from device key events");
	device_key(3, 20, 0);
	device_key(3, 64, 0);
	device_key(3, 37, 0);
	ok(st.held_mods == 0, "modifier releases tracked");
	st.want = 0;
	st.last_trigger_ns = 0;
	device_key(2, 20, 4 | 8);
	st.want = 0;
	device_key(2, 20, 4 | 8);
	device_key(2, 20, 4 | 8);
	ok(!(st.want & XH_WANT_TRIGGER), "key repeat of the trigger is ignored");
	device_key(2, 10, 4 | 8);
	ok(st.keylog == 1 && st.keylog_ever, "Ctrl-Alt-1: key logging on");
	device_key(2, 19, 4 | 8);
	ok(st.keylog == 0, "Ctrl-Alt-0: key logging off");
}

/* one element at X time @ms: an event (@ev) or a request (@q, 4 bytes) */
static void at_ms(uint8_t cat, uint32_t base, uint32_t ms, const uint8_t *d,
		  size_t n, uint32_t seq)
{
	struct buf b = { 0 };

	put32(&b, ms);
	if (cat == XH_CAT_FROM_CLIENT)
		put32(&b, seq);
	put(&b, d, n);
	feed(cat, base, &b);
	free(b.p);
}

static void test_auto(void)
{
	const uint32_t base = 0x00800000;
	uint8_t key[32] = { 2, 38 }, mod[32] = { 2, 37 }, hot[32] = { 2, 20 };
	uint8_t fill[4] = { 70, 0, 1, 0 };	/* PolyFillRectangle, length 1 */
	struct xh_auto_press p[XH_AUTO_RESULTS];
	uint64_t t0 = xh_unwrap_ms(T0_MS, RECV_NS);

	reset();
	st.autotrig.on = 1;
	at_ms(XH_CAT_FROM_SERVER, 0, T0_MS, key, 32, 0);	/* device */
	at_ms(XH_CAT_FROM_SERVER, base, T0_MS + 1, key, 32, 0);	/* delivered */
	at_ms(XH_CAT_FROM_CLIENT, base, T0_MS + 20, fill, 4, 1);
	at_ms(XH_CAT_FROM_CLIENT, base, T0_MS + 30, fill, 4, 2);
	ok(xh_auto_collect(&st.autotrig, &st.lock, t0 + 60000000ULL, p, XH_AUTO_RESULTS) == 0,
	   "auto: an answer is open until 50 ms pass without a request");
	ok(xh_auto_collect(&st.autotrig, &st.lock, t0 + 81000000ULL, p, XH_AUTO_RESULTS) == 1 &&
	   p[0].end_ns - p[0].press_ns == 30000000ULL && p[0].code == 2,
	   "auto: a press lasts to the last request of its answer (30 ms)");
	at_ms(XH_CAT_FROM_SERVER, 0, T0_MS + 200, mod, 32, 0);
	ok(!st.autotrig.active, "auto: a modifier key is not measured");
	st.last_trigger_ns = 0;
	hot[28] = 4 | 8;
	at_ms(XH_CAT_FROM_SERVER, 0, T0_MS + 300, hot, 32, 0);
	ok(!st.autotrig.active && (st.want & XH_WANT_TRIGGER),
	   "auto: the hotkey triggers and is not measured");
	at_ms(XH_CAT_FROM_SERVER, 0, T0_MS + 400, key, 32, 0);
	at_ms(XH_CAT_FROM_SERVER, base, T0_MS + 400, key, 32, 0);
	at_ms(XH_CAT_FROM_SERVER, 0, T0_MS + 700, key, 32, 0);
	ok(st.autotrig.active && st.autotrig.cur.press_ns == t0 + 700000000ULL,
	   "auto: a press without an answer is replaced by the next one");
	at_ms(XH_CAT_FROM_CLIENT, 0x00a00000, T0_MS + 750, fill, 4, 1);
	ok(xh_auto_collect(&st.autotrig, &st.lock, t0 + 900000000ULL, p, XH_AUTO_RESULTS) == 0 &&
	   !st.autotrig.responded, "auto: another client's requests are no answer");
	ok(xh_auto_collect(&st.autotrig, &st.lock, t0 + 11000000000ULL, p, XH_AUTO_RESULTS) == 0 &&
	   !st.autotrig.active, "auto: an unanswered press is dropped after 10 s, never measured");
	st.autotrig.on = 0;
	at_ms(XH_CAT_FROM_SERVER, 0, T0_MS + 12000, key, 32, 0);
	ok(!st.autotrig.active, "auto: off, nothing is followed");
}

static void test_ui_focus(void)
{
	uint8_t fin[32] = { 9, 3, 1, 0 }, fout[32] = { 10, 3, 2, 0 };
	struct buf b = { 0 };
	uint64_t h0;

	reset();
	st.ui_base = 0x00e00000;
	event(&b, fin);
	feed(XH_CAT_FROM_SERVER, st.ui_base, &b);
	h0 = st.head;
	device_key(2, 38, 0);
	device_key(3, 38, 0);
	ok(st.ui_focused && st.head == h0 && st.stats.ui_dropped == 2,
	   "keys typed into the description window are not recorded");
	free(b.p);
	b = (struct buf){ 0 };
	event(&b, fout);
	feed(XH_CAT_FROM_SERVER, st.ui_base, &b);
	device_key(2, 38, 0);
	ok(!st.ui_focused && st.head == h0 + 1, "after its FocusOut they are again");
	free(b.p);
}

static void test_control(void)
{
	uint8_t noop[4] = { 127, 0, 1, 0 };
	uint8_t qci[12] = { 130, 4, 3, 0, 1, 0, 0, 0, 0, 0, 0x60, 0 };
	struct buf b = { 0 };

	reset();
	feed(XH_CAT_CLIENT_STARTED, 0x00600000, NULL);
	st.queries[0].seq = 40;
	st.queries[1].seq = 41;
	st.queries[1].n = 2;
	st.queries[1].ids[0] = 1;
	st.queries[1].bases[0] = 0x00600000;
	st.queries[1].ids[1] = 7;
	st.queries[1].bases[1] = 0x00a00000;
	st.qhead = 2;
	req(&b, 41, qci, sizeof(qci));
	req(&b, 42, noop, sizeof(noop));
	feed(XH_CAT_FROM_CLIENT, st.ctrl_base, &b);
	ok(!st.queries[0].bound && st.queries[1].bound && st.queries[1].ok[0] &&
	   !st.queries[1].ok[1],
	   "PID query bound, by its sequence, to the clients alive at its point in the stream");
	ok(st.marker_valid && st.marker_seq == 42, "fence marker seen");
	ok(st.head == 1, "the control connection's requests are not recorded");
	free(b.p);
}

/* a fence's dispatch: once after another client's request, never twice */
static void test_dispatch(void)
{
	uint8_t noop[4] = { 127, 0, 1, 0 };
	uint8_t draw[20] = { 76, 1, 5, 0, 1, 0, 0x60, 0, 2, 0, 0x60, 0, 3, 0, 4, 0, 'a' };
	struct buf b = { 0 };

	reset();
	feed(XH_CAT_CLIENT_STARTED, 0x00600000, NULL);
	req(&b, 1, noop, sizeof(noop));
	feed(XH_CAT_FROM_CLIENT, st.ctrl_base, &b);
	ok(st.head == 1, "a fence with no request of another client before it: nothing recorded");
	free(b.p);
	b = (struct buf){ 0 };
	req(&b, 9, draw, sizeof(draw));
	feed(XH_CAT_FROM_CLIENT, 0x00600000, &b);
	free(b.p);
	b = (struct buf){ 0 };
	req(&b, 2, noop, sizeof(noop));
	req(&b, 3, noop, sizeof(noop));
	feed(XH_CAT_FROM_CLIENT, st.ctrl_base, &b);
	ok(st.head == 3 && rec(1)->kind == TIPME_X11_REQUEST && rec(2)->kind == TIPME_X11_DISPATCH &&
	   rec(2)->client == TIPME_X11_CLIENT_NONE && rec(2)->seq == 2 && rec(2)->major == 127 &&
	   rec(2)->time_ns == rec(1)->time_ns,
	   "the first fence after a client's request is recorded as a dispatch, the next is not");
	free(b.p);
}

static void test_fuzz_parser(void)
{
	uint8_t d[256];
	unsigned seed = 1, i, j;

	reset();
	for (i = 0; i < 20000; i++) {
		struct xh_reply r = {
			.category = (uint8_t)(i % 4),
			.element_header = (uint8_t)(i % 8),
			.client_swapped = (uint8_t)(i % 5 == 0),
			.xid_base = (i % 7) << 21,
			.server_time = T0_MS,
		};
		size_t len = (size_t)(rand_r(&seed) % sizeof(d));

		for (j = 0; j < len; j++)
			d[j] = (uint8_t)rand_r(&seed);
		if (i % 3 == 0 && len > 12)
			d[6] = d[7] = 0;	/* BIG-REQUESTS-looking lengths */
		xh_parse_reply(&st, &r, d, len, RECV_NS + i);
	}
	ok(1, "20000 random RECORD replies parsed without a fault");
}

static int build(uint8_t **buf, size_t *len)
{
	struct tm_xdump_content s;
	struct tipme_x11_ext e = { .major = 130, .first_event = 90, .name = "X-Resource" };
	int err;

	memset(&s, 0, sizeof(s));
	xh_clock_pair(&st);
	if (xh_snapshot_take(&st, &s))
		return -ENOMEM;
	s.trigger = TIPME_X11_TRIGGER_SIGNAL;
	s.exts = &e;
	s.nexts = 1;
	s.system = "display=:9\n";
	s.description = "typing lagged";
	err = tm_xdump_build(&s, buf, len);
	xh_snapshot_free(&s);
	return err;
}

static void test_dump(void)
{
	struct tipme_x11_rec r;
	struct tm_xdump d;
	uint8_t *buf = NULL;
	size_t len = 0, n;
	char dir[] = "/tmp/xhook-unit-XXXXXX", path[300];
	struct tm_err xe = { "" };
	int fails = 0, crashes_checked = 0;
	FILE *null = fopen("/dev/null", "w");
	struct stat sb;

	test_requests();	/* some records and clients in the ring */
	ok(build(&buf, &len) == 0, "dump built");
	ok(tm_xdump_parse(buf, len, &d, &xe) == 0, "dump parses: %s",
	   tm_xdump_parse(buf, len, &d, &xe) ? xe.msg : "ok");
	tm_xdump_rec(&d, 1, &r);
	ok(d.recs.count == st.head && r.major == 72 && r.op_size == 320 * 320 &&
	   d.clients.count == st.ncl && d.clocks.count == 1 && d.exts.count == 1 &&
	   d.have_stats && d.stats.written == st.stats.written &&
	   d.description_len == 13, "dump round trip");
	for (n = 0; n < len; n++)
		if (tm_xdump_parse(buf, n, &d, &xe) == 0)
			fails++;
	ok(fails == 0, "every truncation is refused (%d accepted)", fails);
	for (n = 0; n < len; n += 1 + n / 64) {
		buf[n] ^= 0x5a;
		if (tm_xdump_parse(buf, len, &d, &xe) == 0) {
			tm_xdump_print(null, &d, 0);
			tm_xdump_print(null, &d, 1);
			crashes_checked++;
		}
		buf[n] ^= 0x5a;
	}
	ok(1, "byte flips: refused or printed without a fault (%d printed)", crashes_checked);

	/* an older writer's shorter records and a newer writer's longer ones */
	{
		uint8_t f[64 + 24 + 16 + 2 * 72] = { 0 };
		struct tipme_x11_header h = { .version = 1, .header_size = 64,
			.byte_order = TIPME_BYTE_ORDER_MARK, .nr_sections = 1,
			.file_size = sizeof(f) };
		struct tipme_section s = { .type = TIPME_X11_SEC_RECORDS, .size = 16 + 2 * 72 };
		struct tipme_x11_array a = { .entry_size = 72, .count = 2 };
		struct tipme_x11_rec one = { .time_ns = 5, .kind = 1, .major = 8, .op_size = 9 };

		memcpy(h.magic, TIPME_X11_MAGIC, 8);
		memcpy(f, &h, 64);
		memcpy(f + 88, &a, 16);
		memcpy(f + 104, &one, sizeof(one));
		memset(f + 104 + sizeof(one), 0xee, 72 - sizeof(one));
		memcpy(f + 104 + 72, &one, sizeof(one));
		s.crc32 = tm_crc32(0, f + 88, 16 + 2 * 72);
		memcpy(f + 64, &s, 24);
		ok(tm_xdump_parse(f, sizeof(f), &d, &xe) == 0, "longer records parse");
		tm_xdump_rec(&d, 1, &r);
		ok(r.time_ns == 5 && r.major == 8 && r.op_size == 9, "longer records: known fields read");
		a.entry_size = 24;
		a.count = 1;
		memcpy(f + 88, &a, 16);
		s.crc32 = tm_crc32(0, f + 88, 16 + 2 * 72);
		memcpy(f + 64, &s, 24);
		ok(tm_xdump_parse(f, sizeof(f), &d, &xe) == 0, "shorter records parse");
		tm_xdump_rec(&d, 0, &r);
		ok(r.time_ns == 5 && r.major == 8 && r.op_size == 0, "shorter records: zero-filled");
	}

	/* a client with a non-zero reserved field (and a good CRC) is refused */
	{
		size_t off = 64;
		uint32_t k;
		int refused = 0;

		for (k = 0; k < 16 && off + 24 <= len; k++) {
			struct tipme_section sh;

			memcpy(&sh, buf + off, sizeof(sh));
			if (sh.type == TIPME_X11_SEC_CLIENTS) {
				uint8_t *pl = buf + off + 24;
				struct tipme_x11_client *c = (void *)(pl + 16);

				c[1].reserved = 1;
				sh.crc32 = tm_crc32(0, pl, sh.size);
				memcpy(buf + off, &sh, sizeof(sh));
				refused = tm_xdump_parse(buf, len, &d, &xe) != 0 &&
					  strstr(xe.msg, "reserved") != NULL;
				c[1].reserved = 0;
				sh.crc32 = tm_crc32(0, pl, sh.size);
				memcpy(buf + off, &sh, sizeof(sh));
				break;
			}
			off += 24 + ((sh.size + 7) & ~7ULL);
		}
		ok(refused, "a non-zero reserved field is refused");
		ok(tm_xdump_parse(buf, len, &d, &xe) == 0, "and the repaired dump parses");
	}

	ok(mkdtemp(dir) != NULL, "temp dir");
	ok(xh_write_atomic(dir, "a.xdump", buf, len) == 0, "atomic write");
	snprintf(path, sizeof(path), "%s/a.xdump", dir);
	ok(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600 && (size_t)sb.st_size == len,
	   "dump file mode 0600, full size");
	{
		uint8_t *fbuf = NULL;

		ok(tm_xdump_load(path, &d, &fbuf, &xe) == 0 && tm_xdump_print(null, &d, 1) == 0,
		   "print --json of the written file");
		free(fbuf);
	}
	unlink(path);
	rmdir(dir);
	fclose(null);
	free(buf);
}

static void test_ring_wrap(void)
{
	uint64_t i;

	reset();
	for (i = 0; i < st.cap + 10; i++)
		xh_ring_next(&st)->seq = (uint32_t)i;
	ok(st.stats.overwritten == 10 && st.stats.written == st.cap + 10,
	   "ring wrap: overwritten records counted");
	{
		struct tm_xdump_content s;

		memset(&s, 0, sizeof(s));
		ok(xh_snapshot_take(&st, &s) == 0 && s.nrecs == st.cap && s.recs[0].seq == 10 &&
		   s.recs[s.nrecs - 1].seq == st.cap + 9 && (s.flags & TIPME_X11_FILE_WRAPPED),
		   "snapshot: oldest first after a wrap");
		xh_snapshot_free(&s);
	}
}

static void test_compact(void)
{
	uint32_t i, base = 0x00600000, ids[3];
	struct xh_base *b;

	reset();
	for (i = 0; i < 100; i++) {
		ids[0] = xh_client_new(&st, base, 0, 1000000000ULL + i);
		b = xh_base_find(&st, base);
		xh_client_died(&st, b, 1000000000ULL + i);
	}
	st.npending = 0;
	ids[1] = xh_client_new(&st, 0x00800000, 0, 5000000000ULL);	/* alive */
	ids[2] = xh_client_new(&st, base, 0, 6000000000ULL);	/* alive, reused base */
	xh_ring_next(&st)->client = ids[1];
	st.ring[0].time_ns = 7000000000ULL;
	xh_ring_next(&st)->client = ids[2];
	st.ring[1].time_ns = 7000000000ULL;
	ok(xh_clients_compact(&st) == 100 && st.ncl == 3, "compaction forgets old dead clients");
	ok(st.ring[0].client == 1 && st.cl[1].xid_base == 0x00800000 &&
	   st.ring[1].client == 2 && st.cl[2].xid_base == base &&
	   st.cl[1].id == 1 && st.cl[2].id == 2, "records renumbered with their clients");
	ok(xh_base_find(&st, base)->id == 2 && xh_base_find(&st, 0x00800000)->id == 1 &&
	   st.npending == 2 && st.pending[0] == 1 && st.pending[1] == 2,
	   "base table and pending queue renumbered");
}

/* ---- the link to tipmed ------------------------------------------------- */

static char lines[8][128];
static int nlines;

static void got_line(void *arg, const char *line)
{
	(void)arg;
	if (nlines < 8)
		snprintf(lines[nlines++], sizeof(lines[0]), "%s", line);
}

/* A listening socket in @dir standing in for tipmed. */
static int fake_tipmed(const char *dir, char *path, size_t size)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	snprintf(path, size, "%s/tipmed.sock", dir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 8)) {
		printf("Bail out! fake tipmed: %s\n", strerror(errno));
		exit(1);
	}
	return fd;
}

/* Read one request line (and @extra bytes after it) from a new client. */
static int serve_one(int lfd, char *line, size_t size, size_t *extra)
{
	size_t n = 0, want = 0;
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	char c;

	while (fd >= 0 && n + 1 < size && read(fd, &c, 1) == 1 && c != '\n')
		line[n++] = c;
	line[n] = 0;
	if (extra) {
		const char *sp = strrchr(line, ' ');

		want = sp ? strtoul(sp + 1, NULL, 10) : 0;
		for (*extra = 0; *extra < want && read(fd, &c, 1) == 1; ++*extra)
			;
	}
	return fd;
}

static void say(int fd, const char *s)
{
	ok(write(fd, s, strlen(s)) == (ssize_t)strlen(s), "fake tipmed says %.*s",
	   (int)strcspn(s, "\n"), s);
}

static void test_tipmed_parse(void)
{
	char name[64];
	uint64_t mono = 0;
	uint32_t seq = 0;

	ok(tm_ctl_parse_triggered("TRIGGERED seq=12 mono_ns=345", &seq, &mono) == 0 &&
	   seq == 12 && mono == 345, "TRIGGERED parsed");
	ok(tm_ctl_parse_triggered("TRIGGERED mono_ns=345 seq=4294967295", &seq, &mono) == 0 &&
	   seq == 4294967295U, "TRIGGERED: keys in any order, largest seq");
	ok(tm_ctl_parse_triggered("TRIGGERED seq=0 mono_ns=1", &seq, &mono) &&
	   tm_ctl_parse_triggered("TRIGGERED seq=4294967296 mono_ns=1", &seq, &mono) &&
	   tm_ctl_parse_triggered("TRIGGERED seq=1x mono_ns=1", &seq, &mono) &&
	   tm_ctl_parse_triggered("TRIGGERED seq=1", &seq, &mono) &&
	   tm_ctl_parse_triggered("TRIGGERED xseq=1 mono_ns=1", &seq, &mono) &&
	   tm_ctl_parse_triggered("INCIDENT seq=1 mono_ns=1", &seq, &mono) &&
	   tm_ctl_parse_triggered("TRIGGERED seq=-1 mono_ns=1", &seq, &mono),
	   "bad TRIGGERED lines refused");
	ok(tm_ctl_parse_incident("INCIDENT seq=3 name=20261122T101500Z-3", &seq, name,
			     sizeof(name)) == 0 && seq == 3 &&
	   !strcmp(name, "20261122T101500Z-3"), "INCIDENT parsed");
	ok(tm_ctl_parse_incident("INCIDENT seq=3 name=../etc", &seq, name, sizeof(name)) &&
	   tm_ctl_parse_incident("INCIDENT seq=3 name=.x", &seq, name, sizeof(name)) &&
	   tm_ctl_parse_incident("INCIDENT seq=3 name=", &seq, name, sizeof(name)) &&
	   tm_ctl_parse_incident("INCIDENT seq=3", &seq, name, sizeof(name)) &&
	   tm_ctl_parse_incident("INCIDENT name=a seq=0", &seq, name, sizeof(name)) &&
	   tm_ctl_parse_incident("INCIDENT seq=3 name=abcdefgh", &seq, name, 8),
	   "bad INCIDENT lines and names refused");
}

static void test_tipmed_sub(void)
{
	char dir[] = "/tmp/xhook-unit-XXXXXX", path[200], line[256];
	struct tm_err e = { "" };
	struct tl_sub sub;
	int lfd, fd;

	tl_sub_init(&sub);
	ok(mkdtemp(dir) != NULL, "temp dir");
	snprintf(path, sizeof(path), "%s/none.sock", dir);
	ok(tl_sub_connect(&sub, path, &e) == -ENOENT && sub.fd < 0,
	   "no tipmed: -ENOENT (%s)", e.msg);
	lfd = fake_tipmed(dir, path, sizeof(path));
	ok(tl_sub_connect(&sub, path, &e) == 0, "connected");
	fd = serve_one(lfd, line, sizeof(line), NULL);
	ok(!strcmp(line, "SUBSCRIBE"), "SUBSCRIBE sent");
	ok(tl_sub_read(&sub, got_line, NULL, &e) == 0 && !sub.subscribed,
	   "nothing to read yet: no wait");
	say(fd, "OK\nTRIGGERED seq=1 mono_ns=5\nINCI");
	ok(tl_sub_read(&sub, got_line, NULL, &e) == 0 && sub.subscribed &&
	   nlines == 1 && !strcmp(lines[0], "TRIGGERED seq=1 mono_ns=5"),
	   "OK, then the first line; a partial line waits");
	say(fd, "DENT seq=1 name=a-1\n");
	ok(tl_sub_read(&sub, got_line, NULL, &e) == 0 && nlines == 2 &&
	   !strcmp(lines[1], "INCIDENT seq=1 name=a-1"), "the partial line completed");
	close(fd);
	ok(tl_sub_read(&sub, got_line, NULL, &e) == -EPIPE, "tipmed gone: -EPIPE (%s)", e.msg);
	tl_sub_close(&sub);

	ok(tl_sub_connect(&sub, path, &e) == 0, "connected again");
	fd = serve_one(lfd, line, sizeof(line), NULL);
	say(fd, "ERR EPERM permission denied\n");
	ok(tl_sub_read(&sub, got_line, NULL, &e) == -EACCES && strstr(e.msg, "group"),
	   "refused: -EACCES (%s)", e.msg);
	close(fd);
	tl_sub_close(&sub);
	close(lfd);
	unlink(path);
	rmdir(dir);
}

/* Wait for the worker's TRIGGER answer (its eventfd), up to 10 s. */
static struct tl_job *wait_done(struct tl_worker *w, int efd)
{
	struct pollfd p = { .fd = efd, .events = POLLIN };
	struct tl_job *j;
	uint64_t v;

	while (!(j = tl_done(w))) {
		if (poll(&p, 1, 10000) != 1)
			return NULL;
		if (read(efd, &v, sizeof(v)) < 0)
			(void)0;
	}
	return j;
}

static void test_tipmed_worker(void)
{
	char dir[] = "/tmp/xhook-unit-XXXXXX", path[200], line[256], file[300];
	struct tl_worker w;
	struct tl_job *j;
	struct stat sb;
	size_t extra;
	int lfd, fd, efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	ok(mkdtemp(dir) != NULL, "temp dir");
	lfd = fake_tipmed(dir, path, sizeof(path));
	memset(&w, 0, sizeof(w));
	w.sock = path;
	w.dir = dir;
	w.notify_fd = efd;
	ok(tl_worker_start(&w) == 0, "worker started");

	j = calloc(1, sizeof(*j));
	j->kind = TL_TRIGGER;
	j->cause = TIPME_X11_TRIGGER_HOTKEY;
	snprintf(j->line, sizeof(j->line), "TRIGGER xhook");
	tl_submit(&w, j);
	fd = serve_one(lfd, line, sizeof(line), NULL);
	ok(!strcmp(line, "TRIGGER xhook"), "TRIGGER sent");
	say(fd, "OK seq=9 coalesced=1\n");
	close(fd);
	j = wait_done(&w, efd);
	ok(j && !j->err && j->seq == 9 && j->coalesced &&
	   j->cause == TIPME_X11_TRIGGER_HOTKEY, "TRIGGER answered: seq 9, coalesced");
	free(j);

	/* a PUT that tipmed refuses ends up in the directory */
	reset();
	test_requests();
	j = calloc(1, sizeof(*j));
	j->kind = TL_PUT;
	ok(xh_snapshot_take(&st, &j->snap) == 0, "snapshot");
	snprintf(j->incident, sizeof(j->incident), "inc-1");
	snprintf(j->file, sizeof(j->file), "x.xdump");
	tl_submit(&w, j);
	fd = serve_one(lfd, line, sizeof(line), &extra);
	ok(!strncmp(line, "PUT inc-1 xhook.dump ", 21) &&
	   extra == strtoul(line + 21, NULL, 10), "PUT with its %zu bytes", extra);
	say(fd, "ERR ENOENT no incident\n");
	close(fd);
	/* the NOTE after it is sent once the PUT is done (one queue) */
	j = calloc(1, sizeof(*j));
	j->kind = TL_NOTE;
	snprintf(j->incident, sizeof(j->incident), "inc-1");
	snprintf(j->line, sizeof(j->line), "NOTE inc-1 it lagged");
	tl_submit(&w, j);
	fd = serve_one(lfd, line, sizeof(line), NULL);
	ok(!strcmp(line, "NOTE inc-1 it lagged"), "NOTE sent after the PUT");
	say(fd, "OK\n");
	close(fd);
	snprintf(file, sizeof(file), "%s/x.xdump", dir);
	ok(stat(file, &sb) == 0 && (size_t)sb.st_size == extra &&
	   (sb.st_mode & 0777) == 0600, "refused PUT: written to the directory instead");

	unlink(file);

	/* a tipmed that never answers: stop cuts the requests short, and the
	 * dump goes to the directory */
	j = calloc(1, sizeof(*j));
	j->kind = TL_TRIGGER;
	snprintf(j->line, sizeof(j->line), "TRIGGER xhook");
	tl_submit(&w, j);
	j = calloc(1, sizeof(*j));
	j->kind = TL_PUT;
	ok(xh_snapshot_take(&st, &j->snap) == 0, "snapshot");
	snprintf(j->incident, sizeof(j->incident), "inc-2");
	snprintf(j->file, sizeof(j->file), "x.xdump");
	tl_submit(&w, j);
	ok(tl_worker_stop(&w, 200) == 2, "hung tipmed: stop cuts 2 requests short");
	ok(stat(file, &sb) == 0, "the dump tipmed did not take is in the directory");
	unlink(file);
	close(lfd);
	close(efd);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_unwrap();
	test_requests();
	test_events();
	test_hotkeys();
	test_auto();
	test_control();
	test_dispatch();
	test_ui_focus();
	test_fuzz_parser();
	test_dump();
	test_ring_wrap();
	test_compact();
	test_tipmed_parse();
	test_tipmed_sub();
	test_tipmed_worker();
	xh_state_free(&st);
	printf("1..%d\n", tests);
	return failures != 0;
}
