// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: the "What felt slow?" window shown after a hotkey dump.
 *
 * One line of text; Enter saves it into the dump, Escape, closing the
 * window or UI_IDLE_NS without a key skips.  The window asks the window
 * manager not to focus it when it appears (_NET_WM_USER_TIME = 0), so what
 * the user is typing elsewhere keeps going where it went; a click gives it
 * the focus.  It has a connection of its own, which the parser ignores, and
 * while it holds the focus device key events are not recorded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>

#include "ui.h"

#define UI_W		520
#define UI_H		64
#define UI_PROMPT	"What felt slow?  (Enter saves, Escape skips)"

static xcb_atom_t atom(xcb_connection_t *c, const char *name)
{
	xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c,
		xcb_intern_atom(c, 0, (uint16_t)strlen(name), name), NULL);
	xcb_atom_t a = r ? r->atom : XCB_ATOM_NONE;

	free(r);
	return a;
}

static void load_keymap(struct ui *u)
{
	const xcb_setup_t *s = xcb_get_setup(u->c);
	xcb_get_keyboard_mapping_reply_t *r;

	free(u->keymap);
	u->keymap = NULL;
	r = xcb_get_keyboard_mapping_reply(u->c, xcb_get_keyboard_mapping(u->c,
		s->min_keycode, (uint8_t)(s->max_keycode - s->min_keycode + 1)), NULL);
	if (!r)
		return;
	u->keymap = r;
	u->min_kc = s->min_keycode;
	u->max_kc = s->max_keycode;
}

/**
 * ui_connect() - open the window's own X connection (no window yet)
 * @u: zeroed
 * @display: display name or NULL
 *
 * Return: 0 or -EIO.  ui_base() is then the connection's resource base.
 */
int ui_connect(struct ui *u, const char *display)
{
	u->c = xcb_connect(display, NULL);
	if (xcb_connection_has_error(u->c)) {
		xcb_disconnect(u->c);
		u->c = NULL;
		return -EIO;
	}
	u->screen = xcb_setup_roots_iterator(xcb_get_setup(u->c)).data;
	u->wm_protocols = atom(u->c, "WM_PROTOCOLS");
	u->wm_delete = atom(u->c, "WM_DELETE_WINDOW");
	u->net_user_time = atom(u->c, "_NET_WM_USER_TIME");
	u->net_type = atom(u->c, "_NET_WM_WINDOW_TYPE");
	u->net_dialog = atom(u->c, "_NET_WM_WINDOW_TYPE_DIALOG");
	u->font = xcb_generate_id(u->c);
	xcb_open_font(u->c, u->font, 5, "fixed");
	load_keymap(u);
	return 0;
}

uint32_t ui_base(const struct ui *u)
{
	return u->c ? xcb_get_setup(u->c)->resource_id_base : 0;
}

int ui_fd(const struct ui *u)
{
	return u->c ? xcb_get_file_descriptor(u->c) : -1;
}

static void draw(struct ui *u)
{
	char line[UI_TEXT_MAX + 2];
	size_t n = u->len, first = 0;

	if (!u->win)
		return;
	xcb_clear_area(u->c, 0, u->win, 0, 0, 0, 0);
	xcb_image_text_8(u->c, (uint8_t)strlen(UI_PROMPT), u->win, u->gc, 10, 20,
			 UI_PROMPT);
	if (n > 80) {		/* show the end of a long line */
		first = n - 80;
		n = 80;
	}
	memcpy(line, u->text + first, n);
	line[n++] = '_';
	xcb_image_text_8(u->c, (uint8_t)n, u->win, u->gc, 10, 44, line);
	xcb_flush(u->c);
}

/**
 * ui_open() - show the window
 * @u: connected
 *
 * Return: 0 or -EIO.
 */
int ui_open(struct ui *u)
{
	const char *title = "tipme: what felt slow?";
	const char wm_class[] = "tipme-xhook\0Tipme";
	uint32_t hints[9] = { 1, 1 };	/* WM_HINTS: InputHint, input = True */
	uint32_t zero = 0;
	uint32_t v[2];
	int16_t x, y;

	if (!u->c)
		return -EIO;
	u->len = 0;
	u->text[0] = 0;
	u->win = xcb_generate_id(u->c);
	x = (int16_t)((u->screen->width_in_pixels - UI_W) / 2);
	y = (int16_t)(u->screen->height_in_pixels / 4);
	v[0] = u->screen->white_pixel;
	v[1] = XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_KEY_PRESS |
	       XCB_EVENT_MASK_FOCUS_CHANGE | XCB_EVENT_MASK_BUTTON_PRESS;
	xcb_create_window(u->c, XCB_COPY_FROM_PARENT, u->win, u->screen->root, x, y,
			  UI_W, UI_H, 1, XCB_WINDOW_CLASS_INPUT_OUTPUT,
			  u->screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, v);
	xcb_change_property(u->c, XCB_PROP_MODE_REPLACE, u->win, XCB_ATOM_WM_NAME,
			    XCB_ATOM_STRING, 8, (uint32_t)strlen(title), title);
	xcb_change_property(u->c, XCB_PROP_MODE_REPLACE, u->win, XCB_ATOM_WM_CLASS,
			    XCB_ATOM_STRING, 8, sizeof(wm_class), wm_class);
	xcb_change_property(u->c, XCB_PROP_MODE_REPLACE, u->win, XCB_ATOM_WM_HINTS,
			    XCB_ATOM_WM_HINTS, 32, 9, hints);
	if (u->wm_protocols && u->wm_delete)
		xcb_change_property(u->c, XCB_PROP_MODE_REPLACE, u->win, u->wm_protocols,
				    XCB_ATOM_ATOM, 32, 1, &u->wm_delete);
	if (u->net_user_time)	/* 0: do not focus me when I appear */
		xcb_change_property(u->c, XCB_PROP_MODE_REPLACE, u->win, u->net_user_time,
				    XCB_ATOM_CARDINAL, 32, 1, &zero);
	if (u->net_type && u->net_dialog)
		xcb_change_property(u->c, XCB_PROP_MODE_REPLACE, u->win, u->net_type,
				    XCB_ATOM_ATOM, 32, 1, &u->net_dialog);
	u->gc = xcb_generate_id(u->c);
	v[0] = u->screen->black_pixel;
	v[1] = u->screen->white_pixel;
	xcb_create_gc(u->c, u->gc, u->win, XCB_GC_FOREGROUND | XCB_GC_BACKGROUND, v);
	xcb_change_gc(u->c, u->gc, XCB_GC_FONT, &u->font);
	xcb_map_window(u->c, u->win);
	xcb_flush(u->c);
	u->focused = 0;
	return xcb_connection_has_error(u->c) ? -EIO : 0;
}

void ui_close(struct ui *u)
{
	if (!u->c || !u->win)
		return;
	xcb_free_gc(u->c, u->gc);
	xcb_destroy_window(u->c, u->win);
	xcb_flush(u->c);
	u->win = 0;
	u->focused = 0;
}

void ui_disconnect(struct ui *u)
{
	ui_close(u);
	free(u->keymap);
	u->keymap = NULL;
	if (u->c)
		xcb_disconnect(u->c);
	u->c = NULL;
}

static uint32_t keysym(struct ui *u, uint8_t kc, uint16_t state)
{
	xcb_get_keyboard_mapping_reply_t *r = u->keymap;
	unsigned per;
	xcb_keysym_t *syms, s0, s1, s;
	int shift = state & XCB_MOD_MASK_SHIFT;

	if (!r || kc < u->min_kc || kc > u->max_kc)
		return 0;
	per = r->keysyms_per_keycode;
	syms = xcb_get_keyboard_mapping_keysyms(r) + (size_t)(kc - u->min_kc) * per;
	s0 = per > 0 ? syms[0] : 0;
	s1 = per > 1 ? syms[1] : 0;
	if (!s1)
		s1 = s0;
	s = shift ? s1 : s0;
	if ((state & XCB_MOD_MASK_LOCK) && s >= 'a' && s <= 'z')
		s -= 'a' - 'A';
	else if ((state & XCB_MOD_MASK_LOCK) && s >= 'A' && s <= 'Z' && shift)
		s += 'a' - 'A';
	return s;
}

/**
 * ui_handle() - process the window's pending events
 * @u: open
 *
 * Return: UI_CONTINUE, UI_SAVE (text in @u->text), UI_SKIP, or UI_ERROR
 * when the connection broke.
 */
int ui_handle(struct ui *u)
{
	xcb_generic_event_t *ev;
	int ret = UI_CONTINUE;

	while ((ev = xcb_poll_for_event(u->c))) {
		uint8_t type = ev->response_type & 0x7f;

		switch (type) {
		case XCB_EXPOSE:
			draw(u);
			break;
		case XCB_FOCUS_IN:
			u->focused = 1;
			break;
		case XCB_FOCUS_OUT:
			u->focused = 0;
			break;
		case XCB_BUTTON_PRESS:
			xcb_set_input_focus(u->c, XCB_INPUT_FOCUS_PARENT, u->win,
					    ((xcb_button_press_event_t *)ev)->time);
			xcb_flush(u->c);
			break;
		case XCB_MAPPING_NOTIFY:
			load_keymap(u);
			break;
		case XCB_CLIENT_MESSAGE: {
			xcb_client_message_event_t *cm = (void *)ev;

			if (cm->type == u->wm_protocols && cm->data.data32[0] == u->wm_delete)
				ret = UI_SKIP;
			break;
		}
		case XCB_KEY_PRESS: {
			xcb_key_press_event_t *k = (void *)ev;
			uint32_t s = keysym(u, k->detail, k->state);

			u->last_key = 1;
			if (s == 0xff0d || s == 0xff8d) {		/* Return, KP_Enter */
				ret = UI_SAVE;
			} else if (s == 0xff1b) {			/* Escape */
				ret = UI_SKIP;
			} else if (s == 0xff08) {			/* BackSpace */
				if (u->len)
					u->text[--u->len] = 0;
				draw(u);
			} else if (s >= 0x20 && s <= 0x7e && u->len < UI_TEXT_MAX) {
				u->text[u->len++] = (char)s;
				u->text[u->len] = 0;
				draw(u);
			}
			break;
		}
		default:
			break;
		}
		free(ev);
		if (ret != UI_CONTINUE)
			break;
	}
	if (xcb_connection_has_error(u->c))
		return UI_ERROR;
	return ret;
}
