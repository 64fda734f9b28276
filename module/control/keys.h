/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an input event's key code is to tipme: a button or a key, a
 * modifier or not.  Shared by the input handler (control/input.c) and the
 * auto trigger's press filter (control/autotrig.c).
 */
#ifndef TIPME_KEYS_H
#define TIPME_KEYS_H

#include <linux/input.h>

#define TIPME_MOD_CTRL		0x1
#define TIPME_MOD_ALT		0x2	/* the left Alt key only */
#define TIPME_MOD_OTHER		0x4	/* shift, meta, AltGr: never a hotkey's */

/* A button of a pointer, joystick or pad rather than a key. */
static inline bool tipme_input_is_button(unsigned int code)
{
	return (code >= BTN_MISC && code < KEY_OK) ||
	       (code >= BTN_DPAD_UP && code <= BTN_DPAD_RIGHT) ||
	       code >= BTN_TRIGGER_HAPPY;
}

/* The TIPME_MOD_* bit of a modifier key, 0 for any other key. */
static inline u8 tipme_input_modifier(unsigned int code)
{
	switch (code) {
	case KEY_LEFTCTRL:
	case KEY_RIGHTCTRL:
		return TIPME_MOD_CTRL;
	case KEY_LEFTALT:
		return TIPME_MOD_ALT;
	/*
	 * The right Alt is AltGr on many layouts, and Ctrl-AltGr types
	 * characters there: it makes no hotkey.
	 */
	case KEY_RIGHTALT:
	case KEY_LEFTSHIFT:
	case KEY_RIGHTSHIFT:
	case KEY_LEFTMETA:
	case KEY_RIGHTMETA:
		return TIPME_MOD_OTHER;
	default:
		return 0;
	}
}

#endif /* TIPME_KEYS_H */
