// SPDX-License-Identifier: GPL-2.0
/*
 * The tail accessors (dump/tail.c) on records the test builds by hand:
 * a blocked or reclaim_begin record's addresses, a sample's threads, a
 * cost record's entries, each well formed, with a count larger than the
 * payload holds, with a partial element, and with a payload shorter than
 * the fixed part; and pm_rec_frames() on a scenario dump's symbols.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump/decode.h"
#include "incident/incident.h"
#include "scen.h"
#include "tap.h"

static unsigned char buf[256];

/* A record of @type, its fixed part of @fixed bytes, @len bytes of payload. */
static struct pm_event rec(struct pm_rectype *rt, uint8_t type, size_t fixed,
			   size_t len)
{
	struct pm_event ev;

	memset(&ev, 0, sizeof(ev));
	memset(rt, 0, sizeof(*rt));
	rt->present = 1;
	rt->type = type;
	rt->our_size = (uint16_t)fixed;
	rt->payload_size = (uint16_t)fixed;
	ev.kind = PM_EV_RECORD;
	ev.type = type;
	ev.raw_type = type;
	ev.rt = rt;
	ev.payload = buf;
	ev.payload_len = (uint32_t)len;
	return ev;
}

static void addrs_tests(void)
{
	const size_t fx = sizeof(struct tipme_rec_blocked);
	struct pm_rectype rt;
	struct pm_event ev;
	const unsigned char *p;
	uint32_t v;
	size_t n, i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)i;
	ev = rec(&rt, TIPME_REC_BLOCKED, fx, fx + 12);
	ev.u.bl.nr = 3;
	p = pm_rec_addrs(&ev, &n);
	memcpy(&v, p + 4, 4);
	tap_ok(n == 3 && p == buf + fx && v == (uint32_t)(buf[fx + 4] | buf[fx + 5] << 8 |
						     buf[fx + 6] << 16 | (uint32_t)buf[fx + 7] << 24),
	       "addrs: blocked, 3 of 3, right after the fixed part (%zu)", n);
	ev.u.bl.nr = 5;
	pm_rec_addrs(&ev, &n);
	tap_ok(n == 3, "addrs: a count of 5 with room for 3 gives 3 (%zu)", n);
	ev.u.bl.nr = 1;
	pm_rec_addrs(&ev, &n);
	tap_ok(n == 1, "addrs: a count of 1 with room for 3 gives 1 (%zu)", n);
	ev = rec(&rt, TIPME_REC_BLOCKED, fx, fx + 10);
	ev.u.bl.nr = 3;
	pm_rec_addrs(&ev, &n);
	tap_ok(n == 2, "addrs: 10 bytes of tail hold 2 whole addresses (%zu)", n);
	ev = rec(&rt, TIPME_REC_BLOCKED, fx, fx - 2);
	ev.u.bl.nr = 3;
	pm_rec_addrs(&ev, &n);
	tap_ok(n == 0, "addrs: a payload shorter than the fixed part has none (%zu)", n);
	ev = rec(&rt, TIPME_REC_RECLAIM_BEGIN, sizeof(struct tipme_rec_reclaim_begin),
		 sizeof(struct tipme_rec_reclaim_begin) + 8);
	ev.u.rb.nr = 2;
	p = pm_rec_addrs(&ev, &n);
	tap_ok(n == 2 && p == buf + sizeof(struct tipme_rec_reclaim_begin),
	       "addrs: reclaim_begin, 2 of 2 (%zu)", n);
	ev = rec(&rt, TIPME_REC_SCHED_SWITCH, sizeof(struct tipme_rec_switch),
		 sizeof(struct tipme_rec_switch) + 8);
	n = 7;
	p = pm_rec_addrs(&ev, &n);
	tap_ok(n == 0 && !p, "addrs: none for a switch");
}

static void entries_tests(void)
{
	const size_t sfx = sizeof(struct tipme_rec_sample);
	const size_t se = sizeof(struct tipme_sample_ent);
	const size_t cfx = sizeof(struct tipme_rec_cost);
	const size_t ce = sizeof(struct tipme_cost_ent);
	const unsigned char *p = NULL;
	struct pm_rectype rt;
	struct pm_event ev;
	size_t n;

	ev = rec(&rt, TIPME_REC_SAMPLE, sfx, sfx + 2 * se);
	ev.u.sm.nr = 2;
	n = pm_sample_entries(&ev, &p);
	tap_ok(n == 2 && p == buf + sfx, "sample: 2 of 2 (%zu)", n);
	ev.u.sm.nr = 200;
	n = pm_sample_entries(&ev, &p);
	tap_ok(n == 2, "sample: a count of 200 with room for 2 gives 2 (%zu)", n);
	ev = rec(&rt, TIPME_REC_SAMPLE, sfx, sfx + 2 * se - 1);
	ev.u.sm.nr = 2;
	n = pm_sample_entries(&ev, &p);
	tap_ok(n == 1, "sample: a cut second entry is left out (%zu)", n);
	ev.u.sm.nr = 0;
	n = pm_sample_entries(&ev, &p);
	tap_ok(n == 0, "sample: a count of 0 gives none (%zu)", n);
	ev = rec(&rt, TIPME_REC_COST, cfx, cfx + 3 * ce);
	ev.u.co.nr = 3;
	n = pm_cost_entries(&ev, &p);
	tap_ok(n == 3 && p == buf + cfx, "cost: 3 of 3 (%zu)", n);
	ev = rec(&rt, TIPME_REC_COST, cfx, cfx + 2 * ce + 7);
	ev.u.co.nr = 3;
	n = pm_cost_entries(&ev, &p);
	tap_ok(n == 2, "cost: 23 bytes of tail hold 2 whole entries (%zu)", n);
	ev = rec(&rt, TIPME_REC_COST, cfx, 0);
	ev.u.co.nr = 3;
	n = pm_cost_entries(&ev, &p);
	tap_ok(n == 0, "cost: an empty payload has none (%zu)", n);
}

static void put_ip(size_t off, const char *name, uint32_t plus)
{
	uint32_t ip = (uint32_t)(scen_sym(name) + plus);

	memcpy(buf + off, &ip, 4);
}

/* The frames worth showing: the scheduler's own frame dropped. */
static void frames_tests(const struct pm_dump *pm)
{
	const size_t fx = sizeof(struct tipme_rec_blocked);
	struct pm_rectype rt;
	struct pm_event ev;
	uint64_t out[8];
	size_t n;

	memset(buf, 0, sizeof(buf));
	put_ip(fx, "schedule", 0x10);
	put_ip(fx + 4, "pipe_read", 0x20);
	put_ip(fx + 8, "vfs_read", 0x20);
	ev = rec(&rt, TIPME_REC_BLOCKED, fx, fx + 12);
	ev.u.bl.nr = 3;
	n = pm_rec_frames(pm, &ev, out, 8);
	tap_ok(n == 2 && out[0] == scen_sym("pipe_read") + 0x20 &&
	       out[1] == scen_sym("vfs_read") + 0x20,
	       "frames: pipe_read <- vfs_read, schedule dropped (%zu)", n);
	n = pm_rec_frames(pm, &ev, out, 1);
	tap_ok(n == 1 && out[0] == scen_sym("pipe_read") + 0x20,
	       "frames: no more than the room (%zu)", n);
	ev.u.bl.nr = 9;
	ev.payload_len = (uint32_t)(fx + 8);
	n = pm_rec_frames(pm, &ev, out, 8);
	tap_ok(n == 1 && out[0] == scen_sym("pipe_read") + 0x20,
	       "frames: a count past the payload reads only what it holds (%zu)", n);
}

int main(void)
{
	static struct scen s;
	struct pm_incident inc = { 0 };
	char path[] = "/tmp/tipme-tail-XXXXXX";
	struct tm_err e = { "" };
	int fd;

	tap_plan(17);
	addrs_tests();
	entries_tests();
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	scen_init(&s, 1);
	scen_subbuf(&s, 0, 0);
	scen_switch(&s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 7, 120);
	if (scen_write(&s, path) || pm_incident_open(&inc, path, 0, &e)) {
		tap_diag("%s", e.msg);
		unlink(path);
		return tap_done();
	}
	unlink(path);
	frames_tests(&inc.pm);
	pm_incident_close(&inc);
	return tap_done();
}
