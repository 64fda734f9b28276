// SPDX-License-Identifier: GPL-2.0
/*
 * The display and GPU records (vblank, vblank_queued, vblank_delivered,
 * fence, fence_name) decoded from a synthetic dump: `tipme records` in
 * text and JSON against golden files (tests/unit/golden/display-*), the
 * --pid filter finding a flip's owner, and `tipme info` counting them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "cmd/commands.h"
#include "golden.h"
#include "scen.h"
#include "tap.h"

static char dir[64];

/* Run @cmd with the words of @args (DUMP: @dump); its stdout, or stderr. */
static char *run(int (*cmd)(int, char **), const char *args, const char *dump,
		 int *ret)
{
	return capture_cmd(cmd, args, dump, dir, ret);
}

static int golden(const char *name, const char *text)
{
	char path[160];

	snprintf(path, sizeof(path), "tests/unit/golden/display-%s", name);
	return golden_file(path, text);
}

static void put_name(uint8_t *dst, size_t size, const char *s)
{
	memset(dst, 0, size);
	memcpy(dst, s, strlen(s) < size ? strlen(s) : size - 1);
}

/*
 * A compositor (300, "sway") queues a vblank event on CRTC 1 and gets it
 * at the vblank; a page flip's completion on CRTC 0 is delivered by a
 * kworker (310) to the file the client (400, "flipper") opened; the
 * client waits on a fence of "vgem" that another task (401) signals from
 * an interrupt; the fence context's name is cut at its field's size.
 */
static int display_dump(struct scen *s, const char *path)
{
	struct tipme_rec_vblank vb = { 0 };
	struct tipme_rec_vblank_ev ev = { 0 };
	struct tipme_rec_fence fe = { 0 };
	struct tipme_rec_fence_name fn = { 0 };

	scen_init(s, 2);
	scen_task(s, 300, 300, "sway", "/usr/bin/sway", "sway", 5);
	scen_task(s, 310, 310, "kworker/0:1", "", "", 0);
	scen_task(s, 400, 400, "flipper", "/t/flipper", "flipper", 8);
	scen_task(s, 401, 401, "signaler", "/t/signaler", "signaler", 9);

	ev.seq = 1001;
	ev.file = 0xabcd0001;
	ev.who = tipme_work_who(300, TIPME_CTX_TASK);
	ev.owner = 300;
	ev.crtc = 1;
	scen_rec(s, 0, TIPME_REC_VBLANK_QUEUED, MS(1), &ev, sizeof(ev));
	vb.seq = 1001;
	vb.time_lo = (uint32_t)MS(17);
	vb.time_hi = 0;
	vb.crtc = 1;
	vb.flags = TIPME_VBLANK_HIGH_PREC;
	scen_rec(s, 1, TIPME_REC_VBLANK, MS(17.01), &vb, sizeof(vb));
	ev.who = tipme_work_who(0, TIPME_CTX_HARDIRQ);
	scen_rec(s, 1, TIPME_REC_VBLANK_DELIVERED, MS(17.02), &ev, sizeof(ev));

	/* a flip on a device without vblanks: seq 0, owner the committer */
	memset(&ev, 0, sizeof(ev));
	ev.file = 0x00f11e00;
	ev.who = tipme_work_who(310, TIPME_CTX_TASK);
	ev.owner = 400;
	scen_rec(s, 0, TIPME_REC_VBLANK_DELIVERED, MS(20), &ev, sizeof(ev));
	/* an event whose file's opener is not known */
	ev.owner = 0;
	ev.seq = 7;
	scen_rec(s, 0, TIPME_REC_VBLANK_DELIVERED, MS(21), &ev, sizeof(ev));

	fn.ctx_lo = 5;
	fn.ctx_hi = 1;
	put_name(fn.driver, sizeof(fn.driver), "vgem");
	put_name(fn.timeline, sizeof(fn.timeline), "a-timeline-name-longer-than-its-field");
	scen_rec(s, 0, TIPME_REC_FENCE_NAME, MS(30), &fn, sizeof(fn));
	fe.ctx_lo = 5;
	fe.ctx_hi = 1;
	fe.seqno_lo = 42;
	fe.who = tipme_work_who(400, TIPME_CTX_TASK);
	fe.op = TIPME_FENCE_WAIT_START;
	scen_rec(s, 0, TIPME_REC_FENCE, MS(30), &fe, sizeof(fe));
	fe.who = tipme_work_who(401, TIPME_CTX_HARDIRQ);
	fe.op = TIPME_FENCE_SIGNALED;
	scen_rec(s, 1, TIPME_REC_FENCE, MS(330), &fe, sizeof(fe));
	fe.who = tipme_work_who(400, TIPME_CTX_TASK);
	fe.op = TIPME_FENCE_WAIT_END;
	scen_rec(s, 0, TIPME_REC_FENCE, MS(330.1), &fe, sizeof(fe));
	fe.seqno_hi = 2;
	fe.op = TIPME_FENCE_EMIT;
	scen_rec(s, 0, TIPME_REC_FENCE, MS(331), &fe, sizeof(fe));
	fe.op = 9;	/* a later writer's operation */
	scen_rec(s, 0, TIPME_REC_FENCE, MS(332), &fe, sizeof(fe));
	return scen_write(s, path);
}

static unsigned int count_lines(const char *text, const char *needle)
{
	unsigned int n = 0;
	const char *p;

	for (p = text; p && (p = strstr(p, needle)); p++)
		n++;
	return n;
}

int main(void)
{
	static struct scen s;
	char path[128];
	char *t;
	int ret;

	tap_plan(7);
	snprintf(dir, sizeof(dir), "/tmp/tipme-display-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/d.dump", dir);
	if (display_dump(&s, path))
		return 1;

	t = run(pm_cmd_records, "records DUMP", path, &ret);
	tap_ok(!ret && golden("records.txt", t), "records: text (golden display-records.txt)");
	free(t);
	t = run(pm_cmd_records, "records --json DUMP", path, &ret);
	tap_ok(!ret && golden("records.jsonl", t),
	       "records --json: one object per record (golden display-records.jsonl)");
	free(t);
	t = run(pm_cmd_records, "records --type vblank_delivered DUMP", path, &ret);
	tap_ok(!ret && count_lines(t, "vblank_delivered") == 3 && count_lines(t, "\n") == 3,
	       "--type vblank_delivered: the three deliveries only");
	free(t);
	t = run(pm_cmd_records, "records --pid 400 DUMP", path, &ret);
	tap_ok(!ret && count_lines(t, "vblank_delivered") == 1 &&
	       count_lines(t, " fence ") == 4 && strstr(t, "owner=flipper:400 by kworker/0:1:310"),
	       "--pid 400: the flip it owns (delivered by a worker) and its fence records");
	free(t);
	t = run(pm_cmd_records, "records --pid 401 DUMP", path, &ret);
	tap_ok(!ret && count_lines(t, "\n") == 1 && strstr(t, "signaled ctx=4294967301 seqno=42"),
	       "--pid 401: the signal from an interrupt, the fence as (context, seqno)");
	free(t);
	t = run(pm_cmd_info, "info --json DUMP", path, &ret);
	tap_ok(!ret && t && strstr(t, "\"vblank_delivered\"") && strstr(t, "\"fence_name\""),
	       "info --json counts the new types");
	free(t);
	t = run(pm_cmd_info, "info DUMP", path, &ret);
	tap_ok(!ret && t && strstr(t, "fence ") && strstr(t, "vblank "),
	       "info lists them by name");
	free(t);

	unlink(path);
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/err", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
