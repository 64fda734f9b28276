// SPDX-License-Identifier: GPL-2.0
/*
 * vkbd: a virtual keyboard on /dev/uinput that types what it is told,
 * through the kernel's input core exactly as a real keyboard would.
 *
 *   vkbd [--settle-ms N] CHORD...
 *
 * A CHORD is keys joined by '+', pressed in order and released in reverse:
 * "ctrl+alt+minus", "a", "shift+equal".  Key names: a-z, 0-9, minus, equal,
 * space, enter, ctrl, alt, shift, altgr (the right Alt).  It prints the CLOCK_MONOTONIC time of
 * each chord's last press as "press CHORD MONO_S".  "down:CHORD" presses
 * its keys and leaves them down; "up:CHORD" releases them (in reverse).
 *
 *   vkbd --stdin
 *
 * makes the keyboard, prints "ready", then types each line of its input
 * as a chord; the keyboard goes away at the end of the input.  A test
 * types when it knows the readers it wants have opened the device.  A
 * line "@PID CHORD" types CHORD once thread PID, seen falling asleep
 * (state S in /proc after another), stayed asleep 2 ms (at most 10 s
 * later), or was seen asleep throughout 20 ms of looking (longer than a
 * 60 Hz timer's period: asleep for long, the key is due): a key that
 * finds its reader waiting for input, not busy with something else (a
 * compositor's frame timer), which a test's shell, forking between its
 * look and the key, could not promise.  Falling asleep, not merely asleep: a compositor
 * woken 60 times a second by its timer, seen asleep just before the
 * timer, was woken by it in the millisecond the key took to reach it
 * under TCG (t-foot's auto trigger then saw no reader woken by the key);
 * just fallen asleep, its next timer is most of a period away.  The 2 ms:
 * /proc says S from the moment the thread set its state, still on its
 * CPU before it switched out; a key then found sway running (t-wlauto).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "proglib.h"

static int fd;

static int key_code(const char *name)
{
	static const struct { const char *n; int c; } named[] = {
		{ "minus", KEY_MINUS }, { "equal", KEY_EQUAL },
		{ "space", KEY_SPACE }, { "enter", KEY_ENTER },
		{ "ctrl", KEY_LEFTCTRL }, { "alt", KEY_LEFTALT },
		{ "shift", KEY_LEFTSHIFT }, { "altgr", KEY_RIGHTALT },
	};
	static const int letters[26] = {
		KEY_A, KEY_B, KEY_C, KEY_D, KEY_E, KEY_F, KEY_G, KEY_H, KEY_I,
		KEY_J, KEY_K, KEY_L, KEY_M, KEY_N, KEY_O, KEY_P, KEY_Q, KEY_R,
		KEY_S, KEY_T, KEY_U, KEY_V, KEY_W, KEY_X, KEY_Y, KEY_Z,
	};
	static const int digits[10] = {
		KEY_0, KEY_1, KEY_2, KEY_3, KEY_4, KEY_5, KEY_6, KEY_7, KEY_8,
		KEY_9,
	};
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(name, named[i].n))
			return named[i].c;
	if (strlen(name) == 1 && name[0] >= 'a' && name[0] <= 'z')
		return letters[name[0] - 'a'];
	if (strlen(name) == 1 && name[0] >= '0' && name[0] <= '9')
		return digits[name[0] - '0'];
	return -1;
}

static void emit(int type, int code, int value)
{
	struct input_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.code = code;
	ev.value = value;
	if (write(fd, &ev, sizeof(ev)) != sizeof(ev)) {
		perror("vkbd: write");
		exit(1);
	}
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Types @chord ("ctrl+alt+minus"; "down:" or "up:" before it: only
 * presses or releases its keys); nonzero for an unknown key.
 */
static int type_chord(const char *chord)
{
	char buf[128], *tok, *save;
	int codes[8], n = 0, down = 1, up = 1;

	if (!strncmp(chord, "down:", 5)) {
		up = 0;
		chord += 5;
	} else if (!strncmp(chord, "up:", 3)) {
		down = 0;
		chord += 3;
	}
	snprintf(buf, sizeof(buf), "%s", chord);
	for (tok = strtok_r(buf, "+", &save); tok && n < 8;
	     tok = strtok_r(NULL, "+", &save)) {
		codes[n] = key_code(tok);
		if (codes[n] < 0) {
			fprintf(stderr, "vkbd: unknown key '%s'\n", tok);
			return 2;
		}
		if (!down) {
			n++;
			continue;
		}
		emit(EV_KEY, codes[n++], 1);
		emit(EV_SYN, SYN_REPORT, 0);
	}
	if (down)
		printf("press %s %.9f\n", chord, mono());
	while (up && n--) {
		emit(EV_KEY, codes[n], 0);
		emit(EV_SYN, SYN_REPORT, 0);
	}
	fflush(stdout);
	return 0;
}

/* A line of --stdin: a chord, or "@PID CHORD" (see above). */
static int type_line(const char *line)
{
	char *chord;
	double since, fell = 0;
	long pid;
	int i, awake = 0;

	if (*line != '@')
		return type_chord(line);
	pid = strtol(line + 1, &chord, 10);
	if (pid <= 0 || *chord != ' ') {
		fprintf(stderr, "vkbd: not '@PID CHORD': '%s'\n", line);
		return 2;
	}
	for (i = 0, since = mono(); i < 100000; i++) {
		char st = task_state((int)pid, (int)pid);

		if (st != 'S') {
			awake = 1;
			fell = 0;
		} else if (awake && !fell) {
			fell = mono();
		}
		if (st == 'S' && ((fell && mono() - fell >= 0.002) ||
				  (!awake && mono() - since >= 0.02)))
			break;
		usleep(100);
	}
	return type_chord(chord + 1);
}

int main(int argc, char **argv)
{
	struct uinput_setup us;
	int i, k, settle_ms = 0, from_stdin = 0;
	char buf[128];

	if (argc == 2 && !strcmp(argv[1], "--stdin")) {
		from_stdin = 1;
		argc = 1;
	} else if (argc > 2 && !strcmp(argv[1], "--settle-ms")) {
		settle_ms = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2 && !from_stdin) {
		fprintf(stderr, "usage: vkbd [--settle-ms N] CHORD... | vkbd --stdin\n");
		return 2;
	}
	fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
	if (fd < 0) {
		perror("vkbd: /dev/uinput");
		return 1;
	}
	ioctl(fd, UI_SET_EVBIT, EV_KEY);
	for (k = 1; k < 256; k++)
		ioctl(fd, UI_SET_KEYBIT, k);
	memset(&us, 0, sizeof(us));
	us.id.bustype = BUS_VIRTUAL;
	us.id.vendor = 0x7170;
	us.id.product = 0x6d65;
	snprintf(us.name, sizeof(us.name), "tipme test keyboard");
	if (ioctl(fd, UI_DEV_SETUP, &us) || ioctl(fd, UI_DEV_CREATE)) {
		perror("vkbd: create");
		return 1;
	}
	/* In-kernel handlers attach synchronously in UI_DEV_CREATE; a
	 * settle time only matters to userspace readers such as X. */
	usleep(settle_ms * 1000);
	if (from_stdin) {
		printf("ready\n");
		fflush(stdout);
		while (fgets(buf, sizeof(buf), stdin)) {
			buf[strcspn(buf, "\r\n")] = '\0';
			if (*buf && type_line(buf))
				return 2;
		}
	}
	for (i = 1; i < argc; i++)
		if (type_chord(argv[i]))
			return 2;
	ioctl(fd, UI_DEV_DESTROY);
	close(fd);
	return 0;
}
