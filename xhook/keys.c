// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: the hotkeys.  Ctrl-Alt-Minus (dump), Ctrl-Alt-Plus (mark),
 * Ctrl-Alt-0 and -1 (key logging off, on) as keycodes and modifier masks
 * for the parser, which recognises them in the RECORD stream, and their
 * grabs on the control connection, so that other clients do not see them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>

#include "app.h"

static void kc_add(uint8_t *set, uint8_t *n, uint8_t kc)
{
	unsigned i;

	for (i = 0; i < *n; i++)
		if (set[i] == kc)
			return;
	if (*n < XH_MAX_KC)
		set[(*n)++] = kc;
}

/**
 * xh_keys_setup() - find the hotkeys' keycodes and the modifier masks
 * @app: control connection open
 *
 * Reads the keyboard and modifier mappings and hands the result to the
 * parser (st.keys).  Run again on every MappingNotify.
 *
 * Return: 0 or -EIO.
 */
int xh_keys_setup(struct xh_app *app)
{
	const xcb_setup_t *setup = xcb_get_setup(app->ctrl);
	xcb_keycode_t min = setup->min_keycode, max = setup->max_keycode;
	xcb_get_keyboard_mapping_reply_t *kr;
	xcb_get_modifier_mapping_reply_t *mr;
	xcb_keysym_t *syms;
	xcb_keycode_t *mkc;
	struct xh_keys k;
	unsigned per, kc, m, j, col;

	kr = xcb_get_keyboard_mapping_reply(app->ctrl,
		xcb_get_keyboard_mapping(app->ctrl, min, (uint8_t)(max - min + 1)), NULL);
	mr = xcb_get_modifier_mapping_reply(app->ctrl, xcb_get_modifier_mapping(app->ctrl), NULL);
	if (!kr || !mr) {
		free(kr);
		free(mr);
		return -EIO;
	}
	memset(&k, 0, sizeof(k));
	per = kr->keysyms_per_keycode;
	syms = xcb_get_keyboard_mapping_keysyms(kr);
#define SYM(kc, c) ((kc) >= min && (kc) <= max && (c) < per ? \
		    syms[((kc) - min) * per + (c)] : 0)
	k.ctrl = XCB_MOD_MASK_CONTROL;
	k.shift = XCB_MOD_MASK_SHIFT;
	k.lock = XCB_MOD_MASK_LOCK;
	mkc = xcb_get_modifier_mapping_keycodes(mr);
	for (m = 0; m < 8; m++) {
		for (j = 0; j < mr->keycodes_per_modifier; j++) {
			int toggle = 0;

			kc = mkc[m * mr->keycodes_per_modifier + j];
			if (!kc)
				continue;
			for (col = 0; col < per && col < 4; col++) {
				xcb_keysym_t s = SYM(kc, col);

				if (s == 0xff7f) {		/* Num_Lock */
					k.numlock = (uint16_t)(1U << m);
					toggle = 1;
				} else if (s == 0xffe9 || s == 0xffea) { /* Alt_L, Alt_R */
					if (m >= 3 && !k.alt)
						k.alt = (uint16_t)(1U << m);
				} else if (s == 0xffe5 || s == 0xffe6) { /* Caps/Shift_Lock */
					toggle = 1;
				}
			}
			if (m != 1 && !toggle)
				k.modkey[kc] |= (uint16_t)(1U << m);
		}
	}
	if (!k.alt)
		k.alt = XCB_MOD_MASK_1;
	/*
	 * Each key is one hotkey at most, the one its unshifted symbol
	 * names first: on German QWERTZ the 0 key types = with Shift, and
	 * is Ctrl-Alt-0 (key logging off), not Ctrl-Alt-Plus.
	 */
	for (kc = min; kc <= max; kc++) {
		for (col = 0; col < 2; col++) {
			xcb_keysym_t s = SYM(kc, col);

			if (s == 0x2d)
				kc_add(k.minus, &k.n_minus, (uint8_t)kc);
			else if (s == 0x3d || s == 0x2b)
				kc_add(k.plus, &k.n_plus, (uint8_t)kc);
			else if (s == 0x30 && col == 0)
				kc_add(k.zero, &k.n_zero, (uint8_t)kc);
			else if (s == 0x31 && col == 0)
				kc_add(k.one, &k.n_one, (uint8_t)kc);
			else
				continue;
			break;
		}
	}
#undef SYM
	free(kr);
	free(mr);
	pthread_mutex_lock(&app->st.lock);
	app->st.keys = k;
	app->st.held_mods = 0;
	pthread_mutex_unlock(&app->st.lock);
	xh_logv(app, "hotkeys: minus %u keycode(s), ctrl 0x%x alt 0x%x numlock 0x%x\n",
	     k.n_minus, k.ctrl, k.alt, k.numlock);
	return 0;
}

/*
 * The (modifiers, keycode) pairs to grab: each hotkey with every
 * lock-modifier variant.  Returns how many were written to @out.
 */
static unsigned grab_list(const struct xh_keys *k, uint32_t *out, unsigned max)
{
	uint16_t locks[4];
	unsigned nlocks = 0, n = 0, i, l, v, s;
	const struct { const uint8_t *kc; unsigned n; int shift; } sets[] = {
		{ k->minus, k->n_minus, 0 }, { k->plus, k->n_plus, 1 },
		{ k->zero, k->n_zero, 0 }, { k->one, k->n_one, 0 },
	};

	locks[nlocks++] = 0;
	locks[nlocks++] = k->lock;
	if (k->numlock && k->numlock != k->lock) {
		locks[nlocks++] = k->numlock;
		locks[nlocks++] = k->lock | k->numlock;
	}
	for (s = 0; s < 4; s++)
		for (i = 0; i < sets[s].n; i++)
			for (v = 0; v <= (unsigned)sets[s].shift; v++)
				for (l = 0; l < nlocks && n < max; l++) {
					uint16_t mods = k->ctrl | k->alt | locks[l] |
							(v ? k->shift : 0);

					out[n++] = (uint32_t)mods << 8 | sets[s].kc[i];
				}
	return n;
}

/*
 * Grab the hotkeys on every root window, with every lock-modifier variant;
 * keys another client holds are still seen in the input stream.  A mapping
 * change that leaves the hotkeys' keycodes and modifiers as they were keeps
 * the grabs in place: ungrabbing to grab the same keys again would open a
 * window in which a hotkey reaches the focused client.  (Xwayland replaces
 * the keymap whenever the compositor sends one, usually unchanged.)
 */
void xh_keys_grab(struct xh_app *app)
{
	xcb_void_cookie_t ck[XH_MAX_GRABS];
	uint32_t want[XH_MAX_GRABS / 2];
	struct xh_keys k;
	unsigned n, nck = 0, i, busy = 0, failed = 0;
	xcb_screen_iterator_t sit;

	pthread_mutex_lock(&app->st.lock);
	k = app->st.keys;
	pthread_mutex_unlock(&app->st.lock);
	n = grab_list(&k, want, XH_MAX_GRABS / 2);
	if (app->grabs_whole && n == app->n_grabbed &&
	    !memcmp(want, app->grabbed, n * sizeof(want[0]))) {
		xh_logv(app, "hotkeys unchanged: %u grabs kept\n", n);
		return;
	}
	for (sit = xcb_setup_roots_iterator(xcb_get_setup(app->ctrl)); sit.rem;
	     xcb_screen_next(&sit)) {
		xcb_window_t root = sit.data->root;

		xcb_ungrab_key(app->ctrl, XCB_GRAB_ANY, root, XCB_MOD_MASK_ANY);
		for (i = 0; i < n && nck < XH_MAX_GRABS; i++)
			ck[nck++] = xcb_grab_key_checked(app->ctrl, 1, root,
							 (uint16_t)(want[i] >> 8),
							 (xcb_keycode_t)want[i],
							 XCB_GRAB_MODE_ASYNC,
							 XCB_GRAB_MODE_ASYNC);
	}
	for (i = 0; i < nck; i++) {
		xcb_generic_error_t *e = xcb_request_check(app->ctrl, ck[i]);

		if (e) {
			if (e->error_code == XCB_ACCESS)
				busy++;
			else
				failed++;
			free(e);
		}
	}
	if (busy)
		fprintf(stderr, "tipme-xhook: %u of %u hotkey grabs are held by another client: those keys are detected in the input stream instead\n",
			busy, nck);
	if (failed)
		fprintf(stderr, "tipme-xhook: %u hotkey grabs failed\n", failed);
	xh_logv(app, "grabbed %u of %u hotkey combinations\n", nck - busy - failed, nck);
	/* grabs another client holds are tried again at the next change */
	app->grabs_whole = !busy && !failed;
	app->n_grabbed = n;
	memcpy(app->grabbed, want, n * sizeof(want[0]));
}
