// SPDX-License-Identifier: GPL-2.0
/*
 * The input handler: tipme's hotkeys and input records.
 *
 * It attaches to every keyboard and pointer below any display server, so
 * the hotkeys work on the console, under X11 or Wayland, and when the
 * display server itself is stuck.  It only observes (.event, never
 * .filter): no key is swallowed or delayed.  (The auto trigger's press
 * filter, control/autotrig.c, filters nothing out either.)  It is attached
 * after evdev, so it also ends the auto trigger's delivery of a press.
 * The callback runs with the
 * device's event lock held and interrupts off, so it only writes a record
 * and flips flags; a trigger's announcement is deferred to a work item.
 *
 *   Ctrl-Alt-Minus         trigger a dump
 *   Ctrl-Alt-Plus (or =)   start recording, unless root stopped it
 *   Ctrl-Alt-0 / 1         key logging off / on (on: only with the
 *                          keylog_hotkey parameter set)
 *
 * Alt is the left Alt key only: the right one is AltGr on many layouts,
 * where Ctrl with it types characters.  Key events are recorded with their
 * time and kind; key codes only while key logging is on (off by default).
 * control/trigger.c decides what the keyboard may switch and logs each
 * switch.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/input.h>
#include "compat.h"
#include "fault.h"
#include "recorder.h"
#include "control/trigger.h"
#include "control/input.h"
#include "control/handle.h"
#include "control/keys.h"
#include "control/autotrig.h"

/**
 * struct tipme_input_dev - our state for one device
 * @handle: the input core's handle
 * @id: small number naming the device in records
 * @mods: modifiers held on this device (TIPME_MOD_*)
 * @motion: axis events since the last EV_SYN
 */
struct tipme_input_dev {
	struct input_handle handle;
	u16 id;
	u8 mods;
	u8 motion;
};

/* Freed through its handle (control/handle.c). */
static_assert(offsetof(struct tipme_input_dev, handle) == 0);

static atomic_t next_id = ATOMIC_INIT(0);

static void write_input(u8 kind, u8 value, u16 device, u16 code)
{
	struct tipme_rec_input *r;
	struct tipme_wslot ws;

	r = tipme_reserve(TIPME_REC_INPUT, sizeof(*r), &ws);
	if (!r)
		return;
	r->kind = kind;
	r->value = value;
	r->device = device;
	r->code = code;
	r->reserved = 0;
	tipme_commit(&ws, TIPME_REC_INPUT);
}

struct hotkey_press {
	u16 device;
	u16 code;
};

static void write_hotkey_press(const void *arg)
{
	const struct hotkey_press *p = arg;

	write_input(TIPME_INPUT_HOTKEY, 1, p->device, p->code);
}

/* A press of @code with Ctrl and Alt held: returns true if it is ours. */
static bool hotkey(u16 device, unsigned int code)
{
	switch (code) {
	case KEY_MINUS: {
		const struct hotkey_press p = { .device = device, .code = code };

		/* The press and its trigger record, back to back. */
		tipme_trigger_after(TIPME_TRIG_HOTKEY, write_hotkey_press, &p);
		return true;
	}
	case KEY_EQUAL:
		/*
		 * Refused (root stopped recording): the press is consumed and
		 * leaves no mark.  Else its record is the first after the start.
		 */
		if (tipme_switch_recording(true, TIPME_BY_KEYBOARD))
			return true;
		write_input(TIPME_INPUT_HOTKEY, 1, device, code);
		return true;
	case KEY_0:
		tipme_set_keylog(false, TIPME_BY_KEYBOARD);
		write_input(TIPME_INPUT_HOTKEY, 1, device, code);
		return true;
	case KEY_1:
		/* Refused: the press is consumed and leaves no mark. */
		if (tipme_set_keylog(true, TIPME_BY_KEYBOARD))
			return true;
		write_input(TIPME_INPUT_HOTKEY, 1, device, code);
		return true;
	default:
		return false;
	}
}

static void tipme_input_event(struct input_handle *handle, unsigned int type,
			      unsigned int code, int value)
{
	struct tipme_input_dev *d = container_of(handle, struct tipme_input_dev,
						 handle);
	u8 mod;

	/* After evdev's handler: a press it woke readers for is delivered. */
	tipme_auto_delivered();
	switch (type) {
	case EV_KEY:
		if (tipme_input_is_button(code)) {
			write_input(TIPME_INPUT_BUTTON, value, d->id, code);
			break;
		}
		mod = tipme_input_modifier(code);
		if (mod) {
			if (value)
				d->mods |= mod;
			else
				d->mods &= ~mod;
		}
		if (value == 1 && (d->mods & (TIPME_MOD_CTRL | TIPME_MOD_ALT)) ==
		    (TIPME_MOD_CTRL | TIPME_MOD_ALT) && hotkey(d->id, code))
			break;
		write_input(TIPME_INPUT_KEY, value, d->id,
			    READ_ONCE(tipme_keylog) ? code : 0);
		break;
	case EV_REL:
	case EV_ABS:
		if (d->motion < U8_MAX)
			d->motion++;
		break;
	case EV_SYN:
		if (code == SYN_REPORT && d->motion) {
			write_input(TIPME_INPUT_MOTION, d->motion, d->id, 0);
			d->motion = 0;
		}
		break;
	}
}

/* The device's number, set before the handle can see an event. */
static void tipme_input_setup(struct input_handle *handle)
{
	struct tipme_input_dev *d = container_of(handle, struct tipme_input_dev,
						 handle);

	d->id = (u16)atomic_inc_return(&next_id);
}

static int tipme_input_connect(struct input_handler *handler,
			       struct input_dev *dev,
			       const struct input_device_id *id)
{
	return tipme_handle_connect(handler, dev, sizeof(struct tipme_input_dev),
				    "tipme", "input handle", tipme_input_setup);
}

static const struct input_device_id tipme_input_ids[] = {
	{ .flags = INPUT_DEVICE_ID_MATCH_EVBIT, .evbit = { BIT_MASK(EV_KEY) } },
	{ .flags = INPUT_DEVICE_ID_MATCH_EVBIT, .evbit = { BIT_MASK(EV_REL) } },
	{ .flags = INPUT_DEVICE_ID_MATCH_EVBIT, .evbit = { BIT_MASK(EV_ABS) } },
	{ },
};

static struct input_handler tipme_input_handler = {
	.event = tipme_input_event,
	.connect = tipme_input_connect,
	.disconnect = tipme_handle_disconnect,
	.name = "tipme",
	.id_table = tipme_input_ids,
};

/**
 * tipme_input_init() - attach to every keyboard and pointer
 *
 * Context: module init.
 * Return: 0 or the error of input_register_handler().
 */
int tipme_input_init(void)
{
	if (tipme_fail_step("input handler"))
		return -ENOMEM;
	return input_register_handler(&tipme_input_handler);
}

/**
 * tipme_input_exit() - detach from every device
 *
 * Context: module exit; afterwards no callback runs.
 */
void tipme_input_exit(void)
{
	input_unregister_handler(&tipme_input_handler);
}
