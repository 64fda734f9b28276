/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An input handler's own handle on one device: connecting and
 * disconnecting it.  Shared by the input handler (control/input.c) and the
 * auto trigger's press filter (control/autotrig.c).
 */
#ifndef TIPME_HANDLE_H
#define TIPME_HANDLE_H

#include <linux/input.h>
#include <linux/types.h>

int tipme_handle_connect(struct input_handler *handler, struct input_dev *dev,
			 size_t size, const char *name, const char *step,
			 void (*setup)(struct input_handle *handle));
void tipme_handle_disconnect(struct input_handle *handle);

#endif /* TIPME_HANDLE_H */
