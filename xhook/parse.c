// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: turn RECORD EnableContext replies into ring records.
 *
 * Runs on the data thread.  Only header fields reach the ring: request
 * bodies are read for nothing but the first XID and the op-size, and key
 * events lose their keycode and modifier state while key logging is off.
 * The hotkeys are matched on the raw device events before that.
 */
#include <byteswap.h>
#include <string.h>

#include "xhook.h"

/*
 * Key repeat sends presses 25-40 ms apart (after a 500-660 ms delay); a
 * press of the trigger key closer than this to the previous one is a
 * repeat, not a new request.
 */
#define XH_TRIGGER_DEBOUNCE_NS	150000000ULL

/* X protocol numbers used here */
enum {
	X_KeyPress = 2, X_KeyRelease = 3, X_ButtonPress = 4, X_MotionNotify = 6, X_LeaveNotify = 8,
	X_KeymapNotify = 11, X_MappingNotify = 34, X_GenericEvent = 35,
	X_NoOperation = 127, XRES_QueryClientIds = 4,
	XI_KeyPress = 2, XI_KeyRelease = 3, XI_ButtonPress = 4, XI_RawKeyPress = 13,
	XI_RawKeyRelease = 14,
};

static inline uint16_t rd16(const uint8_t *p, int sw)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return sw ? bswap_16(v) : v;
}

static inline uint32_t rd32(const uint8_t *p, int sw)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return sw ? bswap_32(v) : v;
}

static uint64_t text_chars(const uint8_t *p, size_t len, int wide)
{
	uint64_t n = 0;
	size_t i = 0;

	while (i < len) {
		uint8_t l = p[i];

		if (l == 255) {			/* font shift: 255 + 4-byte font */
			i += 5;
			continue;
		}
		if (i + 2 > len)
			break;
		i += 2 + (size_t)l * (wide ? 2 : 1);
		if (i > len)
			break;
		n += l;
	}
	return n;
}

/**
 * xh_request_size() - Xprof's op-size of a core request
 * @req: the request, from its major opcode
 * @len: its length in bytes
 * @off: 4 when it used BIG-REQUESTS (fields after the length word shift),
 *       else 0
 * @swapped: the client's byte order differs from ours
 *
 * Return: pixels, characters or items (see struct tipme_x11_rec.op_size).
 */
uint64_t xh_request_size(const uint8_t *req, size_t len, int off, int swapped)
{
	const uint8_t *b = req + off;	/* request with the big length removed */
	size_t l = len >= (size_t)off ? len - off : 0;
	uint64_t n = 0;
	size_t i;

#define F16(k) ((k) + 2 <= l ? rd16(b + (k), swapped) : 0)
	switch (req[0]) {
	case 61:	/* ClearArea */
	case 72:	/* PutImage */
	case 73:	/* GetImage */
		return (uint64_t)F16(12) * F16(14);
	case 62:	/* CopyArea */
	case 63:	/* CopyPlane */
		return (uint64_t)F16(24) * F16(26);
	case 70:	/* PolyFillRectangle: sum of w*h */
		for (i = 12; i + 8 <= l; i += 8)
			n += (uint64_t)F16(i + 4) * F16(i + 6);
		return n;
	case 64:	/* PolyPoint */
	case 65:	/* PolyLine */
		return l > 12 ? (l - 12) / 4 : 0;
	case 66:	/* PolySegment */
	case 67:	/* PolyRectangle */
		return l > 12 ? (l - 12) / 8 : 0;
	case 68:	/* PolyArc */
	case 71:	/* PolyFillArc */
		return l > 12 ? (l - 12) / 12 : 0;
	case 69:	/* FillPoly */
		return l > 16 ? (l - 16) / 4 : 0;
	case 74:	/* PolyText8 */
		return l > 16 ? text_chars(b + 16, l - 16, 0) : 0;
	case 75:	/* PolyText16 */
		return l > 16 ? text_chars(b + 16, l - 16, 1) : 0;
	case 76:	/* ImageText8: n in the data byte */
	case 77:	/* ImageText16 */
		return req[1];
	}
#undef F16
	return 0;
}

/* Core requests whose word at offset 4 is not an XID. */
static int core_has_xid(uint8_t major)
{
	switch (major) {
	case 16: case 17: case 23:		/* InternAtom, GetAtomName, GetSelectionOwner */
	case 27: case 32: case 35:		/* Ungrab{Pointer,Keyboard}, AllowEvents: time */
	case 36: case 37: case 43: case 44:	/* {Grab,Ungrab}Server, GetInputFocus, QueryKeymap */
	case 49: case 50: case 51: case 52:	/* font paths and lists */
	case 98: case 99: case 100: case 101:	/* extensions, keyboard mapping */
	case 102: case 103: case 104: case 105:
	case 106: case 107: case 108: case 109:
	case 110: case 111: case 112: case 115:
	case 116: case 117: case 118: case 119:
	case 127:
		return 0;
	}
	return 1;
}

static void stamp(struct xh_state *st, struct tipme_x11_rec *r, uint32_t ms,
		  uint64_t recv_ns)
{
	uint64_t t = xh_unwrap_ms(ms, recv_ns);
	uint64_t late = recv_ns > t ? (recv_ns - t) / 1000 : 0;

	r->time_ns = t;
	r->late_us = late > 0xffffffffULL ? 0xffffffffU : (uint32_t)late;
	if (late > st->stats.late_max_us)
		st->stats.late_max_us = late;
	if (late > 10000)
		st->stats.late_over_10ms++;
}

static void add_mark(struct xh_state *st, uint8_t kind, uint8_t detail,
		     uint32_t ms, uint64_t recv_ns)
{
	struct tipme_x11_rec *r = xh_ring_next(st);

	r->kind = kind;
	r->detail = detail;
	r->client = TIPME_X11_CLIENT_SERVER;
	stamp(st, r, ms, recv_ns);
}

static int kc_in(const uint8_t *set, unsigned n, uint8_t kc)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (set[i] == kc)
			return 1;
	return 0;
}

/* A device key event, raw: track modifiers and act on the hotkeys. */
static void hotkey_check(struct xh_state *st, const uint8_t *ev, int sw,
			 uint32_t ms, uint64_t recv_ns)
{
	const struct xh_keys *k = &st->keys;
	uint8_t code = ev[0] & 0x7f, kc = ev[1];
	uint16_t mods = rd16(ev + 28, sw) | st->held_mods;
	uint16_t need = k->ctrl | k->alt;
	uint16_t ok = need | k->shift | k->lock | k->numlock;

	if (code == X_KeyRelease) {
		st->held_mods &= (uint16_t)~k->modkey[kc];
		return;
	}
	st->held_mods |= k->modkey[kc];
	if (!k->ctrl || !k->alt || (mods & need) != need || (mods & ~ok))
		return;
	if (kc_in(k->minus, k->n_minus, kc)) {
		uint64_t now = xh_unwrap_ms(ms, recv_ns);
		uint64_t prev = st->last_trigger_ns;

		st->last_trigger_ns = now;	/* every press: repeats stay quiet */
		if (prev && now - prev < XH_TRIGGER_DEBOUNCE_NS)
			return;
		add_mark(st, TIPME_X11_TRIGGER, 0, ms, recv_ns);
		st->trigger_ns = now;
		st->want |= XH_WANT_TRIGGER;
	} else if (kc_in(k->plus, k->n_plus, kc)) {
		add_mark(st, TIPME_X11_MARK, 0, ms, recv_ns);
	} else if (kc_in(k->zero, k->n_zero, kc) && (mods & k->shift) == 0) {
		if (st->keylog)
			add_mark(st, TIPME_X11_KEYLOG, 0, ms, recv_ns);
		st->keylog = 0;
	} else if (kc_in(k->one, k->n_one, kc) && (mods & k->shift) == 0) {
		if (!st->keylog)
			add_mark(st, TIPME_X11_KEYLOG, 1, ms, recv_ns);
		st->keylog = 1;
		st->keylog_ever = 1;
	}
}

/* The window an event is about (0 when it has none). */
static uint32_t event_xid(const uint8_t *ev, int sw)
{
	uint8_t code = ev[0] & 0x7f;

	if (code >= X_KeyPress && code <= X_LeaveNotify)
		return rd32(ev + 12, sw);
	if (code == X_KeymapNotify || code == X_MappingNotify)
		return 0;
	if ((code >= 16 && code <= 24) || code == 26 || code == 27)
		return rd32(ev + 8, sw);
	return rd32(ev + 4, sw);
}

static int is_key_event(const struct xh_state *st, const uint8_t *ev)
{
	uint8_t code = ev[0] & 0x7f;

	if (code == X_KeyPress || code == X_KeyRelease)
		return 1;
	if (st->xi_first_event && (code == st->xi_first_event + 1 ||
				   code == st->xi_first_event + 2))
		return 1;	/* XInput 1 DeviceKeyPress / DeviceKeyRelease */
	return 0;
}

static void from_server(struct xh_state *st, const struct xh_reply *rp,
			struct xh_base *b, uint32_t id, const uint8_t *d,
			size_t len, uint64_t recv_ns)
{
	const int sw = rp->client_swapped;
	const int device = rp->xid_base == 0;
	size_t i = 0;

	while (i < len) {
		uint32_t ms = rp->server_time;
		int reply_time = 1;
		const uint8_t *e;
		uint64_t size;
		uint8_t code;
		struct tipme_x11_rec *r;

		if (rp->element_header & XH_EH_SERVER_TIME) {
			if (len - i < 4)
				goto bad;
			ms = rd32(d + i, 0);
			reply_time = 0;
			i += 4;
		}
		if (len - i < 32)
			goto bad;
		e = d + i;
		size = e[0] == 1 ? 32 + 4ULL * rd32(e + 4, sw) : 32;
		if (size > len - i)
			goto bad;
		i += size;
		st->stats.elements++;
		code = e[0] & 0x7f;
		if (e[0] == 0)
			continue;	/* errors are not in our ranges */
		if (device && (code == X_KeyPress || code == X_KeyRelease)) {
			hotkey_check(st, e, sw, ms, recv_ns);
			if (st->ui_focused) {
				/* typed into our description window */
				st->stats.ui_dropped++;
				continue;
			}
		}
		/* a press to measure: not a modifier, not our hotkey */
		if (device && (code == X_ButtonPress ||
			       (code == X_KeyPress && !st->keys.modkey[e[1]] &&
				st->last_trigger_ns != xh_unwrap_ms(ms, recv_ns))))
			xh_auto_press(&st->autotrig, code, xh_unwrap_ms(ms, recv_ns));
		if (code == X_KeymapNotify && !st->keylog) {
			st->stats.keymap_dropped++;
			continue;
		}
		if (!device && rp->xid_base == st->ctrl_base)
			continue;	/* our own control connection */
		if (!device && (code == X_KeyPress || code == X_ButtonPress ||
				(code == X_GenericEvent && st->xi_major &&
				 e[1] == st->xi_major &&
				 (rd16(e + 8, sw) == XI_KeyPress ||
				  rd16(e + 8, sw) == XI_ButtonPress))))
			xh_auto_delivered(&st->autotrig, id);
		r = xh_ring_next(st);
		stamp(st, r, ms, recv_ns);
		r->client = id;
		r->length = (uint32_t)(size > 0xffffffffULL ? 0xffffffffULL : size);
		if (reply_time)
			r->flags |= TIPME_X11_REC_REPLY_TIME;
		if (e[0] == 1) {
			uint32_t s16 = rd16(e + 2, sw), s = s16;

			r->kind = TIPME_X11_REPLY;
			if (b) {
				s = (b->last_seq & ~0xffffU) | s16;
				if (s > b->last_seq && s >= 0x10000)
					s -= 0x10000;
				if (b->slots && b->slots[s % XH_REQSLOTS].valid &&
				    b->slots[s % XH_REQSLOTS].seq == s) {
					r->major = b->slots[s % XH_REQSLOTS].major;
					r->minor = b->slots[s % XH_REQSLOTS].minor;
					r->flags |= TIPME_X11_REC_MATCHED;
				}
			}
			r->seq = s;
			continue;
		}
		r->kind = device ? TIPME_X11_DEVICE : TIPME_X11_EVENT;
		r->major = code;
		if (e[0] & 0x80)
			r->flags |= TIPME_X11_REC_SEND_EVENT;
		if (code != X_KeymapNotify) {
			uint32_t s16 = rd16(e + 2, sw), s = s16;

			if (b) {
				s = (b->last_seq & ~0xffffU) | s16;
				if (s > b->last_seq && s >= 0x10000)
					s -= 0x10000;
			}
			r->seq = device ? s16 : s;
		}
		if (code == X_GenericEvent) {
			uint16_t evtype = rd16(e + 8, sw);

			r->flags |= TIPME_X11_REC_TRUNCATED;
			r->detail = e[1];
			r->minor = evtype;
			if (st->xi_major && e[1] == st->xi_major) {
				r->x_time = rd32(e + 12, sw);
				r->xid = rd32(e + 24, sw);
				if (evtype == XI_KeyPress || evtype == XI_KeyRelease ||
				    evtype == XI_RawKeyPress ||
				    evtype == XI_RawKeyRelease) {
					if (st->keylog) {
						r->state = (uint16_t)rd32(e + 16, sw);
					} else {
						r->flags |= TIPME_X11_REC_REDACTED;
						st->stats.redacted++;
					}
				}
			}
			continue;
		}
		if (code == X_KeymapNotify)
			continue;	/* key logging on: still no key bits */
		r->xid = event_xid(e, sw);
		if (code >= X_KeyPress && code <= X_LeaveNotify)
			r->x_time = rd32(e + 4, sw);
		if (is_key_event(st, e) && !st->keylog) {
			r->flags |= TIPME_X11_REC_REDACTED;
			st->stats.redacted++;
			continue;
		}
		if (code >= 64 && !st->keylog)
			continue;	/* extension events: detail unknown, keep none */
		r->detail = e[1];
		if (code >= X_KeyPress && code <= X_LeaveNotify) {
			r->state = rd16(e + 28, sw);
			if (!st->keylog)	/* buttons only, no modifiers */
				r->state &= (uint16_t)~0xffU;
		}
	}
	return;
bad:
	st->stats.dropped++;
}

/*
 * Events for our description window's connection: not recorded, but its
 * FocusIn/FocusOut say, in stream order, whether the key events that follow
 * are typed into it.
 */
static void ui_events(struct xh_state *st, const struct xh_reply *rp,
		      const uint8_t *d, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const uint8_t *e;
		uint64_t size;

		if (rp->element_header & XH_EH_SERVER_TIME)
			i += 4;
		if (i > len || len - i < 32)
			return;
		e = d + i;
		size = e[0] == 1 ? 32 + 4ULL * rd32(e + 4, rp->client_swapped) : 32;
		if (size > len - i)
			return;
		i += size;
		if ((e[0] & 0x7f) == 9)		/* FocusIn */
			st->ui_focused = 1;
		else if ((e[0] & 0x7f) == 10)	/* FocusOut */
			st->ui_focused = 0;
	}
}

static void bind_query(struct xh_state *st, uint32_t seq)
{
	uint32_t k, i;

	for (k = st->qtail; k != st->qhead; k++) {
		struct xh_query *q = &st->queries[k % XH_QUERIES];

		if (q->seq != seq || q->bound)
			continue;
		for (i = 0; i < q->n; i++) {
			struct xh_base *b = xh_base_find(st, q->bases[i]);

			q->ok[i] = b && b->alive && b->id == q->ids[i];
		}
		q->bound = 1;
		pthread_cond_broadcast(&st->cond);
		return;
	}
}

static void control_request(struct xh_state *st, const uint8_t *q, uint32_t seq)
{
	if (q[0] == X_NoOperation) {
		st->marker_seq = seq;
		st->marker_valid = 1;
		if (st->fence_pending && seq == st->fence_seq) {
			uint64_t dt = xh_now_ns() - st->fence_sent_ns;

			st->fence_pending = 0;
			if (dt > st->stats.fence_max_ns)
				st->stats.fence_max_ns = dt;
		}
		pthread_cond_broadcast(&st->cond);
	} else if (st->xres_major && q[0] == st->xres_major &&
		   q[1] == XRES_QueryClientIds) {
		bind_query(st, seq);
	}
}

static void from_client(struct xh_state *st, const struct xh_reply *rp,
			struct xh_base *b, uint32_t id, const uint8_t *d,
			size_t len, uint64_t recv_ns)
{
	const int sw = rp->client_swapped;
	const int ctrl = rp->xid_base == st->ctrl_base;
	size_t i = 0;

	while (i < len) {
		uint32_t ms = rp->server_time, seq = 0;
		int reply_time = 1, off = 0;
		const uint8_t *q;
		uint64_t size;
		uint16_t l16;
		struct tipme_x11_rec *r;

		if (rp->element_header & XH_EH_CLIENT_TIME) {
			if (len - i < 4)
				goto bad;
			ms = rd32(d + i, 0);
			reply_time = 0;
			i += 4;
		}
		if (rp->element_header & XH_EH_CLIENT_SEQ) {
			if (len - i < 4)
				goto bad;
			seq = rd32(d + i, 0);
			i += 4;
		}
		if (len - i < 4)
			goto bad;
		q = d + i;
		l16 = rd16(q + 2, sw);
		if (l16 == 0) {		/* BIG-REQUESTS: 32-bit length follows */
			if (len - i < 8)
				goto bad;
			size = 4ULL * rd32(q + 4, sw);
			off = 4;
			if (size < 8)
				goto bad;
		} else {
			size = 4ULL * l16;
		}
		if (size > len - i)
			goto bad;
		i += size;
		st->stats.elements++;
		if (ctrl) {
			control_request(st, q, seq);
			if (st->dispatch_due) {
				/*
				 * The server is done with everything before
				 * it: a reader ends a client's drawing here
				 * even when the server stays busy with our
				 * fences and never waits in between.
				 */
				r = xh_ring_next(st);
				stamp(st, r, ms, recv_ns);
				r->kind = TIPME_X11_DISPATCH;
				r->client = TIPME_X11_CLIENT_NONE;
				r->major = q[0];
				r->seq = seq;
				if (reply_time)
					r->flags |= TIPME_X11_REC_REPLY_TIME;
				st->dispatch_due = 0;
			}
			continue;
		}
		st->dispatch_due = 1;
		if (b && b->slots) {
			struct xh_reqslot *sl = &b->slots[seq % XH_REQSLOTS];

			sl->seq = seq;
			sl->major = q[0];
			sl->minor = q[0] >= 128 ? q[1] : 0;
			sl->valid = 1;
		}
		if (b)
			b->last_seq = seq;
		r = xh_ring_next(st);
		stamp(st, r, ms, recv_ns);
		xh_auto_request(&st->autotrig, id, r->time_ns);
		r->kind = TIPME_X11_REQUEST;
		r->client = id;
		r->major = q[0];
		r->seq = seq;
		r->length = (uint32_t)(size > 0xffffffffULL ? 0xffffffffULL : size);
		if (reply_time)
			r->flags |= TIPME_X11_REC_REPLY_TIME;
		if (off)
			r->flags |= TIPME_X11_REC_BIGREQ;
		if (q[0] >= 128) {
			r->minor = q[1];
			if (size >= 8u + off && (st->keylog ||
			    (q[0] != st->xtest_major && q[0] != st->xkb_major &&
			     q[0] != st->xi_major)))
				r->xid = rd32(q + 4 + off, sw);
		} else {
			if (size >= 8u + off && core_has_xid(q[0]))
				r->xid = rd32(q + 4 + off, sw);
			r->op_size = xh_request_size(q, (size_t)size, off, sw);
		}
	}
	return;
bad:
	st->stats.dropped++;
}

/**
 * xh_parse_reply() - record the protocol elements of one RECORD reply
 * @st: state, lock NOT held
 * @r: the reply's header fields
 * @data: its data (after the 32-byte reply header)
 * @len: bytes of @data
 * @recv_ns: CLOCK_MONOTONIC when it was received
 *
 * Context: the data thread.  Takes @st->lock for the whole reply.  A
 * malformed element drops the rest of its reply (counted in
 * stats.dropped); parsing never reads outside @data.
 */
void xh_parse_reply(struct xh_state *st, const struct xh_reply *r,
		    const uint8_t *data, size_t len, uint64_t recv_ns)
{
	struct xh_base *b = NULL;
	uint32_t id = TIPME_X11_CLIENT_NONE;
	unsigned want;

	pthread_mutex_lock(&st->lock);
	want = st->want;
	st->stats.replies++;
	st->stats.bytes += 32 + len;
	if (r->category == XH_CAT_START_OF_DATA) {
		st->started = 1;
		pthread_cond_broadcast(&st->cond);
	}
	if (st->ui_base && r->xid_base == st->ui_base) {
		if (r->category == XH_CAT_FROM_SERVER)
			ui_events(st, r, data, len);
		goto out;	/* our own connection */
	}
	if (r->category > XH_CAT_CLIENT_DIED || r->xid_base == st->data_base)
		goto out;
	if (r->category == XH_CAT_FROM_SERVER && r->xid_base == 0) {
		id = TIPME_X11_CLIENT_SERVER;
	} else if (r->xid_base != st->ctrl_base) {
		b = xh_base_find(st, r->xid_base);
		if (r->category == XH_CAT_CLIENT_STARTED) {
			uint64_t t = xh_unwrap_ms(r->server_time, recv_ns);
			struct tipme_x11_rec *rec;

			id = xh_client_new(st, r->xid_base, 0, t ? t : 1);
			rec = xh_ring_next(st);
			stamp(st, rec, r->server_time, recv_ns);
			rec->kind = TIPME_X11_CLIENT_START;
			rec->client = id;
			rec->xid = r->xid_base;
			rec->length = (uint32_t)len;
			rec->flags = TIPME_X11_REC_REPLY_TIME;
			goto out;
		}
		if (!b || !b->alive) {
			/* a client that connected before us: learn it now */
			id = xh_client_new(st, r->xid_base,
					   TIPME_X11_CL_PREEXISTING, 0);
			b = xh_base_find(st, r->xid_base);
		} else {
			id = b->id;
		}
		if (r->category == XH_CAT_CLIENT_DIED) {
			struct tipme_x11_rec *rec = xh_ring_next(st);

			stamp(st, rec, r->server_time, recv_ns);
			rec->kind = TIPME_X11_CLIENT_DIED;
			rec->client = id;
			rec->xid = r->xid_base;
			rec->flags = TIPME_X11_REC_REPLY_TIME;
			if (b)
				xh_client_died(st, b, rec->time_ns);
			goto out;
		}
	}
	if (r->category == XH_CAT_FROM_SERVER)
		from_server(st, r, b, id, data, len, recv_ns);
	else if (r->category == XH_CAT_FROM_CLIENT)
		from_client(st, r, b, id, data, len, recv_ns);
out:
	if (st->want & ~want)
		xh_notify(st, 0);
	pthread_mutex_unlock(&st->lock);
}
