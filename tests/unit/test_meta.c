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

	tap_plan(20);
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

	/* Who asked, who claimed, who handed in: written, appended, read back. */
	{
		const struct tm_incident_auto cl = { .input = "key", .pid = 77,
						     .press_ns = 5, .latency_ns = 6,
						     .claimed = 1, .claimed_by = 1001,
						     .has_uid = 1, .uid = 1000 };
		struct tm_incident_meta m2 = { .number = 8, .seq = 4, .source = "auto",
					       .utc = "2026-11-25T10:00:00Z",
					       .autotrig = &cl, .has_requester = 1,
					       .requester_uid = 1001 };
		struct tm_incident_handin h1 = { .file = "xhook-1000.dump", .uid = 1000,
						 .pid = 4242, .bytes = 10 }, h2 = h1;
		char d2[] = "/tmp/tipme-meta-XXXXXX";
		int dfd;

		tm_incident_printable(h1.exe, sizeof(h1.exe), "/usr/bin/tipme-\"xhook\\\x1b");
		snprintf(h2.file, sizeof(h2.file), "xhook-1001.dump");
		h2.uid = 1001;
		h2.pid = 9;
		h2.exe[0] = '\0';
		if (!mkdtemp(d2))
			return 1;
		dfd = open(d2, O_RDONLY | O_DIRECTORY);
		err = tm_incident_meta_write(dfd, &m2, &e) || tm_incident_meta_read(dfd, &v, &e);
		tap_ok(!err && v.has_requester && v.requester_uid == 1001 && v.auto_claimed &&
		       v.auto_claimed_by == 1001 && v.auto_has_uid && v.auto_uid == 1000 &&
		       v.nhandins == 0,
		       "the requester, the claim and the press's uid round trip (%s)", e.msg);
		err = tm_incident_meta_add_handin(dfd, &h1, &e) ||
		      tm_incident_meta_add_handin(dfd, &h2, &e) ||
		      tm_incident_meta_read(dfd, &v, &e);
		tap_ok(!err && v.nhandins == 2 && !strcmp(v.handins[0].file, "xhook-1000.dump") &&
		       v.handins[0].uid == 1000 && v.handins[0].pid == 4242 &&
		       v.handins[0].bytes == 10 && !strcmp(v.handins[0].exe, "/usr/bin/tipme-?xhook??") &&
		       v.handins[1].uid == 1001 && !v.handins[1].exe[0],
		       "two hand-ins appended to meta.json read back in order, the executable "
		       "made printable (%s; %s)", e.msg, v.handins[0].exe);
		tap_ok(!err && v.number == 8 && !strcmp(v.source, "auto") && v.auto_press_ns == 5 &&
		       v.has_requester, "and the rest of meta.json is as it was");
		snprintf(path, sizeof(path), "%s/meta.json", d2);
		{
			char cmd[200];

			snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' %s",
				 path);
			tap_ok(system(cmd) == 0, "meta.json with hand-ins is valid JSON");
		}
		unlink(path);
		tap_ok(tm_incident_meta_add_handin(dfd, &h1, &e) == -ENOENT,
		       "no meta.json: no hand-in recorded (-ENOENT)");
		close(dfd);
		rmdir(d2);
	}
	tap_ok(parse("{\"trigger\": {\"source\": \"hotkey\", \"utc\": \"x\"}, \"hand_ins\": [{\"file\": \"a\", \"uid\": 1}]}",
		     &v) == -EINVAL, "a hand-in without its pid, exe and size: refused");
	tap_ok(parse("{\"trigger\": {\"source\": \"hotkey\", \"utc\": \"x\"}, \"hand_ins\": [{\"file\": \"a\", \"uid\": 4294967296, \"pid\": 1, \"exe\": \"\", \"bytes\": 1}]}",
		     &v) == -EINVAL, "a hand-in's uid beyond 32 bits: refused");
	tap_ok(!parse("{\"trigger\": {\"source\": \"hotkey\", \"utc\": \"x\"}, \"hand_ins\": [{\"file\": \"f\", \"uid\": 3, \"pid\": 1, \"exe\": \"\", \"bytes\": 1}], \"uid\": 9}",
		      &v) && !v.has_requester && v.nhandins == 1 && v.handins[0].uid == 3,
	       "a \"uid\" outside \"trigger\" is not the requester's");

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
		tap_ok(!strcmp(ka.end, "reader_idle"),
		       "measured to its reader's next wait: end \"%s\"", ka.end);
		kp.end = TIPME_PRESS_END_FLIP;
		tm_incident_auto_from_press(&kp, &ka);
		tap_ok(!strcmp(ka.end, "flip"), "measured to the flip: end \"%s\"", ka.end);
	}
	return tap_done();
}
