// SPDX-License-Identifier: GPL-2.0
/*
 * ttystop: the program a terminal runs in t-foot.sh, whose echo of a key
 * reaches the screen late because the terminal itself was stopped: the
 * ground truth of a real terminal typed into.
 *
 *   ttystop KEY MS TRUTH
 *
 * Puts its terminal (standard input) in raw mode, without the line
 * discipline's echo, and prints a "ready" line to the file TRUTH.  Then,
 * for every byte the terminal writes to it (the terminal has read the
 * key from the compositor and passed it on), it echoes the byte back to
 * the terminal (standard output); for the byte KEY it first stops the
 * terminal, its parent (SIGSTOP), sees it stopped, and continues it
 * (SIGCONT) MS ms after that.  The terminal can only show the byte once
 * it has been continued and the echo written.  Exits after a byte 'q'
 * or at the end of its input.  TRUTH, one JSON object a line, times
 * CLOCK_MONOTONIC ns:
 *   {"event": "ready", "pid": PID, "terminal": PARENT}
 *   {"event": "byte", "byte": "a", "read_ns": T, "stop_ns": T,
 *    "stopped_ns": T, "cont_lo_ns": T, "cont_hi_ns": T, "echo_ns": T}
 * (read: the byte came; stop: kill(SIGSTOP) was sent; stopped: the
 * terminal was seen stopped; cont_lo/hi: around kill(SIGCONT); echo: the
 * echo's write returned; the stop's fields are null for other bytes.)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "proglib.h"

static void field(FILE *f, const char *key, long long v, int have)
{
	if (have)
		fprintf(f, ", \"%s\": %lld", key, v);
	else
		fprintf(f, ", \"%s\": null", key);
}

int main(int argc, char **argv)
{
	long long t_read, t_stop = 0, t_stopped = 0, lo = 0, hi = 0, t_echo;
	pid_t term = getppid();
	struct termios tio;
	char *end;
	long ms;
	FILE *f;
	char c;

	if (argc != 4 || strlen(argv[1]) != 1) {
		fprintf(stderr, "usage: ttystop KEY MS TRUTH\n");
		return 2;
	}
	ms = strtol(argv[2], &end, 10);
	if (*end || ms < 0 || ms > 10000) {
		fprintf(stderr, "ttystop: MS is a number of ms from 0 to 10000, not '%s'\n", argv[2]);
		return 2;
	}
	f = fopen(argv[3], "a");
	if (!f)
		die(argv[3]);
	if (tcgetattr(0, &tio))
		die("tcgetattr on standard input");
	cfmakeraw(&tio);
	if (tcsetattr(0, TCSANOW, &tio))
		die("tcsetattr");
	fprintf(f, "{\"event\": \"ready\", \"pid\": %d, \"terminal\": %d}\n", (int)getpid(),
		(int)term);
	fflush(f);
	while (read(0, &c, 1) == 1) {
		t_read = mono_ns();
		if (c == argv[1][0]) {
			t_stop = mono_ns();
			if (kill(term, SIGSTOP))
				die("stop the terminal");
			wait_state((int)term, (int)term, 'T');
			t_stopped = mono_ns();
			sleep_ms(ms);
			lo = mono_ns();
			if (kill(term, SIGCONT))
				die("continue the terminal");
			hi = mono_ns();
		}
		if (write(1, &c, 1) != 1)
			die("echo");
		t_echo = mono_ns();
		fprintf(f, "{\"event\": \"byte\", \"byte\": \"%c\", \"read_ns\": %lld",
			c >= 'a' && c <= 'z' ? c : '?', t_read);
		field(f, "stop_ns", t_stop, c == argv[1][0]);
		field(f, "stopped_ns", t_stopped, c == argv[1][0]);
		field(f, "cont_lo_ns", lo, c == argv[1][0]);
		field(f, "cont_hi_ns", hi, c == argv[1][0]);
		fprintf(f, ", \"echo_ns\": %lld}\n", t_echo);
		fflush(f);
		if (c == 'q')
			break;
	}
	return 0;
}
