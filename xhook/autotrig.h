/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipme-xhook: each key and button press measured as it happens (from the
 * device event to the last request of the receiving client's answer), for
 * the auto trigger (autotrig.c).  The data thread follows the press under
 * st.lock; the main thread collects finished measurements on its timer.
 */
#ifndef TIPME_XHOOK_AUTOTRIG_H
#define TIPME_XHOOK_AUTOTRIG_H

#include <pthread.h>
#include <stdint.h>

#define XH_AUTO_RESULTS		8

/* One press measured. */
struct xh_auto_press {
	uint64_t press_ns;	/* the device event (CLOCK_MONOTONIC) */
	uint64_t end_ns;	/* the last request of the client's answer */
	uint32_t client;	/* the client the server gave it to */
	uint8_t code;		/* X_KeyPress or X_ButtonPress */
};

/* The press being followed and what is done (in struct xh_state). */
struct xh_auto {
	int on;
	int active, delivered, responded;
	struct xh_auto_press cur;
	struct xh_auto_press done[XH_AUTO_RESULTS];
	unsigned ndone;
	uint64_t lost;		/* finished while done[] was full */
};

/* The data thread, with the lock that guards @a (st.lock) held. */
void xh_auto_press(struct xh_auto *a, uint8_t code, uint64_t t_ns);
void xh_auto_delivered(struct xh_auto *a, uint32_t client);
void xh_auto_request(struct xh_auto *a, uint32_t client, uint64_t t_ns);

/* The main thread (takes @lock): finished presses, at most @max. */
unsigned xh_auto_collect(struct xh_auto *a, pthread_mutex_t *lock,
			 uint64_t now_ns, struct xh_auto_press *out,
			 unsigned max);

#endif
