// SPDX-License-Identifier: GPL-2.0
/*
 * evreader: a reader of an input device whose handling of a key press
 * waits for a helper that sleeps.
 *
 *   evreader NAME SLEEP_MS
 *
 * Waits (up to 30 s) for an input device called NAME to appear, opens it
 * and prints "open reader=PID helper=PID".  On the first key press it asks
 * the helper (a child, over a pipe) for an answer; the helper sleeps
 * SLEEP_MS first.  Then it goes back to poll() on the device until the
 * device goes away (or 30 s pass) and prints
 * "handled reader=PID helper=PID press_ns=T back_ns=T": press_ns when the
 * event was read, back_ns when it polled again (CLOCK_MONOTONIC).  It says
 * "back press_ns=T back_ns=T" as soon as it goes back to poll().
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The event device called @name, opened; -1 if there is none now. */
static int find(const char *name)
{
	char path[300], got[256];
	struct dirent *de;
	DIR *d = opendir("/dev/input");
	int fd = -1;

	if (!d)
		return -1;
	while (fd < 0 && (de = readdir(d))) {
		if (strncmp(de->d_name, "event", 5))
			continue;
		snprintf(path, sizeof(path), "/dev/input/%s", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(got, 0, sizeof(got));
		if (ioctl(fd, EVIOCGNAME(sizeof(got) - 1), got) < 0 || strcmp(got, name)) {
			close(fd);
			fd = -1;
		}
	}
	closedir(d);
	return fd;
}

int main(int argc, char **argv)
{
	long long press = 0, back = 0, deadline = mono_ns() + 30000000000LL;
	int ask[2], answer[2], fd = -1, handled = 0;
	struct input_event ev;
	pid_t helper;
	char c;

	if (argc != 3) {
		fprintf(stderr, "usage: evreader NAME SLEEP_MS\n");
		return 2;
	}
	if (pipe(ask) || pipe(answer))
		return 1;
	helper = fork();
	if (helper == 0) {
		struct timespec ts = { atoi(argv[2]) / 1000, (atoi(argv[2]) % 1000) * 1000000L };

		if (read(ask[0], &c, 1) == 1) {
			nanosleep(&ts, NULL);
			if (write(answer[1], "y", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	/* The device appears when the test's virtual keyboard is made. */
	while (fd < 0 && mono_ns() < deadline) {
		fd = find(argv[1]);
		if (fd < 0)
			poll(NULL, 0, 10);
	}
	if (fd < 0) {
		fprintf(stderr, "evreader: no input device '%s'\n", argv[1]);
		return 1;
	}
	printf("open reader=%d helper=%d\n", getpid(), helper);
	fflush(stdout);
	while (mono_ns() < deadline) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 1000) < 0)
			break;
		if (!(p.revents & POLLIN)) {
			if (p.revents & (POLLERR | POLLHUP))
				break;
			continue;
		}
		if (read(fd, &ev, sizeof(ev)) != sizeof(ev))
			break;		/* the device went away */
		if (handled || ev.type != EV_KEY || ev.value != 1)
			continue;
		press = mono_ns();
		if (write(ask[1], "?", 1) != 1 || read(answer[0], &c, 1) != 1)
			return 1;
		back = mono_ns();	/* the next poll() is the wait for input */
		handled = 1;
		printf("back press_ns=%lld back_ns=%lld\n", press, back);
		fflush(stdout);
	}
	waitpid(helper, NULL, 0);
	if (!handled) {
		fprintf(stderr, "evreader: no key press\n");
		return 1;
	}
	printf("handled reader=%d helper=%d press_ns=%lld back_ns=%lld\n", getpid(), helper,
	       press, back);
	return 0;
}
