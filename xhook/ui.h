/* SPDX-License-Identifier: GPL-2.0 */
/* tipme-xhook: the "What felt slow?" window (ui.c). */
#ifndef TIPME_XHOOK_UI_H
#define TIPME_XHOOK_UI_H

#include <stddef.h>
#include <stdint.h>
#include <xcb/xcb.h>

#define UI_TEXT_MAX	200

enum { UI_CONTINUE, UI_SAVE, UI_SKIP, UI_ERROR };

struct ui {
	xcb_connection_t *c;
	xcb_screen_t *screen;
	xcb_window_t win;
	xcb_gcontext_t gc;
	xcb_font_t font;
	xcb_atom_t wm_protocols, wm_delete, net_user_time, net_type, net_dialog;
	xcb_get_keyboard_mapping_reply_t *keymap;
	uint8_t min_kc, max_kc;
	int focused;
	int last_key;		/* set on every key press (idle timer) */
	char text[UI_TEXT_MAX + 1];
	size_t len;
};

int ui_connect(struct ui *u, const char *display);
uint32_t ui_base(const struct ui *u);
int ui_fd(const struct ui *u);
int ui_open(struct ui *u);
int ui_handle(struct ui *u);
void ui_close(struct ui *u);
void ui_disconnect(struct ui *u);

#endif
