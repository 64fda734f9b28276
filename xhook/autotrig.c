// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: every key and button press measured online (autotrig.h).
 *
 * The RECORD stream shows a press three times: the device event (the
 * server's time of the press), the event delivered to a client, and the
 * requests that client sends back, each stamped when the server ran it.
 * A press ends with the last request of the client's answer: the first
 * request after delivery opens the answer and QUIET_NS without one from
 * that client closes it.  One press is followed at a time; a new press
 * closes the answer to the previous one.
 *
 * Many presses get no answer at all (a key the client ignores), and from
 * here that looks the same as a client that is stopped or hung.  So a
 * press without an answer is never measured: the next press replaces it,
 * and after UNANSWERED_NS it is dropped.  A client stopped while keys
 * queue up is measured from the last of them when it answers: the auto
 * trigger may miss a slow press, but never fires on a missing answer.
 * Modifier keys (the caller leaves them out) never draw anything.
 *
 * The kernel's view (the client waiting for input again, tipme latency)
 * is not available here; this end is the one the user sees: the drawing
 * the server has executed.
 */
#include <pthread.h>

#include "autotrig.h"

#define QUIET_NS	(50ULL * 1000000ULL)
#define UNANSWERED_NS	(10000ULL * 1000000ULL)

static void finish(struct xh_auto *a)
{
	a->active = 0;
	if (a->ndone < XH_AUTO_RESULTS)
		a->done[a->ndone++] = a->cur;
	else
		a->lost++;
}

void xh_auto_press(struct xh_auto *a, uint8_t code, uint64_t t_ns)
{
	if (!a->on)
		return;
	if (a->active && a->responded)
		finish(a);
	a->active = 1;
	a->delivered = 0;
	a->responded = 0;
	a->cur = (struct xh_auto_press){ .press_ns = t_ns, .end_ns = t_ns,
					 .code = code };
}

void xh_auto_delivered(struct xh_auto *a, uint32_t client)
{
	if (!a->active || a->delivered)
		return;
	a->delivered = 1;
	a->cur.client = client;
}

void xh_auto_request(struct xh_auto *a, uint32_t client, uint64_t t_ns)
{
	if (!a->active || !a->delivered || client != a->cur.client)
		return;
	a->responded = 1;
	if (t_ns > a->cur.end_ns)
		a->cur.end_ns = t_ns;
}

unsigned xh_auto_collect(struct xh_auto *a, pthread_mutex_t *lock,
			 uint64_t now_ns, struct xh_auto_press *out,
			 unsigned max)
{
	unsigned n, i;

	pthread_mutex_lock(lock);
	if (a->active && a->responded && now_ns > a->cur.end_ns + QUIET_NS)
		finish(a);
	else if (a->active && !a->responded &&
		 now_ns > a->cur.press_ns + UNANSWERED_NS)
		a->active = 0;
	n = a->ndone < max ? a->ndone : max;
	for (i = 0; i < n; i++)
		out[i] = a->done[i];
	for (i = n; i < a->ndone; i++)
		a->done[i - n] = a->done[i];
	a->ndone -= n;
	pthread_mutex_unlock(lock);
	return n;
}
