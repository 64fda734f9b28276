// SPDX-License-Identifier: GPL-2.0
/*
 * An input handler's own handle on one device (see handle.h).  The handle
 * is the first member of the handler's per-device structure, so the
 * structure is freed through its handle.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/input.h>
#include <linux/slab.h>
#include "fault.h"
#include "control/handle.h"

/**
 * tipme_handle_connect() - attach a handler to a device with a handle of its own
 * @handler: the handler being connected
 * @dev: the device
 * @size: size of the handler's per-device structure, whose first member is
 *        its struct input_handle
 * @name: the handle's name
 * @step: the load step that allocates the structure (tipme_fail_step())
 * @setup: fills the handler's own fields of the zeroed structure before the
 *         handle is registered, so they are set before the first event;
 *         NULL if there are none
 *
 * Allocates the structure, registers the handle and opens the device; on
 * failure undoes what it did.  Must be paired with tipme_handle_disconnect().
 *
 * Context: an input handler's .connect (process context, may sleep).
 * Return: 0, -ENOMEM, or the error of input_register_handle() or
 * input_open_device().
 */
int tipme_handle_connect(struct input_handler *handler, struct input_dev *dev,
			 size_t size, const char *name, const char *step,
			 void (*setup)(struct input_handle *handle))
{
	struct input_handle *handle;
	int err;

	handle = tipme_fail_step(step) ? NULL : kzalloc(size, GFP_KERNEL);
	if (!handle)
		return -ENOMEM;
	handle->dev = dev;
	handle->handler = handler;
	handle->name = name;
	if (setup)
		setup(handle);
	err = input_register_handle(handle);
	if (err)
		goto out_free;
	err = input_open_device(handle);
	if (err)
		goto out_unregister;
	return 0;

out_unregister:
	input_unregister_handle(handle);
out_free:
	kfree(handle);
	return err;
}

/**
 * tipme_handle_disconnect() - detach a handle made by tipme_handle_connect()
 * @handle: the handle
 *
 * Closes the device, unregisters the handle and frees the structure it
 * starts.  Fit to be a handler's .disconnect.
 *
 * Context: an input handler's .disconnect (process context, may sleep).
 */
void tipme_handle_disconnect(struct input_handle *handle)
{
	input_close_device(handle);
	input_unregister_handle(handle);
	kfree(handle);
}
