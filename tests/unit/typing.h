/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A compositor's desktop typed at (typing.c): many key presses, each read
 * by one of the compositor's two input threads, handed to a client, and
 * flipped; some find their reader already runnable (no wakeup for them).
 * For the tests of the kernel input's reader among many
 * (tests/unit/test_flip.c) and the analyses' speed on thousands of
 * presses (tipme-bigdump -k).
 */
#ifndef TIPME_TEST_TYPING_H
#define TIPME_TEST_TYPING_H

#include <stdint.h>

#include "scen.h"

/* The compositor's process and its threads, and the client's. */
#define TYPING_SWAY	500
#define TYPING_SWAY2	501
#define TYPING_FOOT	600

/*
 * Press i at TYPING_FIRST_MS + i * TYPING_EVERY_MS; its flip (the
 * refresh that showed the answer) TYPING_FLIP_MS after it.
 */
#define TYPING_FIRST_MS	20.0
#define TYPING_EVERY_MS	30.0
#define TYPING_FLIP_MS	8.0
/* ... and the slow one's (typing_slow()) */
#define TYPING_SLOW_MS	24.0

/**
 * struct typing_press - the truth of one press the scenario wrote
 * @ns: the press's input record, CLOCK_MONOTONIC ns
 * @reader: the compositor's thread that read it
 * @awake: 1 if @reader was already runnable (woken by a timer) and no
 *	wakeup delivered the press; 0 if evdev woke it
 */
struct typing_press {
	uint64_t ns;
	uint32_t reader;
	int awake;
};

void typing_flip(struct scen *s, double ms, uint16_t crtc, uint32_t seq);
void typing_refresh(struct scen *s, double ms, uint16_t crtc, uint32_t seq);
void typing_refresh_tell(struct scen *s, double ms, uint16_t crtc, uint32_t seq,
			 uint32_t client);
uint32_t typing_slow(uint32_t presses);
int typing_write(struct scen *s, uint32_t presses, struct typing_press *truth);

#endif
