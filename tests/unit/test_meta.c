// SPDX-License-Identifier: GPL-2.0
/*
 * meta.json, written by tipmed and read back by every tool: the trigger's
 * keys, and for an auto incident the press that fired it, round trip
 * through tm_incident_meta_write() and tm_incident_meta_read(); a malformed
 * "auto" object is refused, an incident without one reads as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "incident_meta.h"
#include "tap.h"

static int parse(const char *text, struct tm_incident_meta_view *v)
{
	struct tm_err e = { "" };

	return tm_incident_meta_parse(text, strlen(text), v, &e);
}

int main(void)
{
	const struct tm_incident_auto au = { .input = "key", .pid = 4242,
					  .comm = "gedit \"x\"",
					  .press_ns = 1203500000123ULL,
					  .latency_ns = 812000000ULL };
	struct tm_incident_meta m = { .number = 7, .seq = 3, .source = "auto",
				   .utc = "2026-11-25T10:00:00Z", .mono_ns = 5,
				   .autotrig = &au };
	char dir[] = "/tmp/tipme-meta-XXXXXX", path[64], buf[4096];
	struct tm_incident_meta_view v;
	struct tm_err e = { "" };
	int fd, err;
	ssize_t n;

	tap_plan(10);
	if (!mkdtemp(dir))
		return 1;
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	err = tm_incident_meta_write(fd, &m, &e) || tm_incident_meta_read(fd, &v, &e);
	tap_ok(!err && v.number == 7 && !strcmp(v.source, "auto") && v.has_auto &&
	       v.auto_press_ns == au.press_ns && v.auto_latency_ns == au.latency_ns,
	       "auto: the press and its latency round trip (%s)", e.msg);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	{
		int f = open(path, O_RDONLY);

		n = f < 0 ? -1 : read(f, buf, sizeof(buf) - 1);
		if (f >= 0)
			close(f);
	}
	buf[n > 0 ? n : 0] = '\0';
	tap_ok(strstr(buf, "\"pid\": 4242") && strstr(buf, "\"comm\": \"gedit \\\"x\\\"\"") &&
	       strstr(buf, "\"input\": \"key\""),
	       "auto: pid, input and the command (escaped) are in meta.json");
	unlink(path);
	/* a FIFO as meta.json: refused at once, not waited on (the alarm) */
	if (!mkfifo(path, 0600)) {
		alarm(10);
		err = tm_incident_meta_read(fd, &v, &e);
		alarm(0);
		tap_ok(err == -EINVAL && strstr(e.msg, "not a regular file"),
		       "a FIFO as meta.json is refused at once (%s)", e.msg);
		unlink(path);
	} else {
		tap_ok(0, "a FIFO as meta.json: mkfifo: %s", strerror(errno));
	}
	rmdir(dir);
	close(fd);
	tap_ok(!parse("{\"trigger\": {\"source\": \"hotkey\", \"utc\": \"x\"}}", &v) &&
	       !v.has_auto, "no \"auto\": not an auto incident");
	tap_ok(parse("{\"trigger\": {\"source\": \"auto\", \"utc\": \"x\"}, \"auto\": {\"latency_ns\": 5}}",
		     &v) == -EINVAL, "\"auto\" without its press: refused");
	tap_ok(parse("{\"trigger\": {\"source\": \"auto\", \"utc\": \"x\"}, \"auto\": {\"press_mono_ns\": \"5\", \"latency_ns\": 5}}",
		     &v) == -EINVAL, "\"auto\" with a press that is not a number: refused");
	tap_ok(parse("{\"trigger\": {\"source\": \"auto\", \"utc\": \"x\"}, \"auto\": {\"press_mono_ns\": 99999999999999999999, \"latency_ns\": 5}}",
		     &v) == -EINVAL, "\"auto\" with a press beyond 64 bits: refused");

	/* The module's own auto trigger announces its press in binary. */
	{
		struct tipme_trigger_press kp = { .press_mono_ns = 5000000000ULL,
						  .latency_ns = 503000000ULL,
						  .pid = 157,
						  .input = TIPME_INPUT_BUTTON };
		struct tm_incident_auto ka;

		memcpy(kp.comm, "ev\"r\\d\x01\xffx", 9);
		tm_incident_auto_from_press(&kp, &ka);
		tap_ok(!strcmp(ka.input, "button") && ka.pid == 157 &&
		       ka.press_ns == kp.press_mono_ns && ka.latency_ns == kp.latency_ns,
		       "a press the module announced: input, pid, time and latency");
		tap_ok(!strcmp(ka.comm, "ev?r?d??x"),
		       "its command: quotes, backslashes and bytes outside ASCII become '?' (%s)",
		       ka.comm);
		kp.input = TIPME_INPUT_KEY;
		memset(kp.comm, 'a', sizeof(kp.comm));	/* no NUL */
		tm_incident_auto_from_press(&kp, &ka);
		tap_ok(!strcmp(ka.input, "key") && strlen(ka.comm) == sizeof(ka.comm) - 1,
		       "a key; a command without its NUL is cut to %zu bytes", sizeof(ka.comm) - 1);
	}
	return tap_done();
}
