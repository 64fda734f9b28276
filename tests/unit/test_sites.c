// SPDX-License-Identifier: GPL-2.0
/*
 * The compact scheduler records (TIPME_REC_SWITCH_C, _WAKING_C, _SITE)
 * and the site table, read back: what the reader rebuilds from a CPU's
 * stream (the waker of a short wakeup, the thread of a site), what it does
 * when the stream cannot tell (its start, a gap), and site tables that
 * lie (number 0, too many addresses, truncated, listed twice, a number
 * the table lacks).  The report scenarios run in compact form too
 * (TIPME_SCEN_COMPACT=1 test_report), against the same golden files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump/decode.h"
#include "dump/tables.h"
#include "scen.h"
#include "tap.h"


static char path[64];
static const char *const pipe_site[] = { "pipe_read", "vfs_read", "ksys_read", NULL };

/* Every event of the dump at @path, in merged order; returns how many. */
static size_t events(struct pm_dump *pm, struct pm_event *ev, size_t max,
		     struct tm_err *e, int *ret)
{
	struct pm_merge m;
	size_t n = 0;

	*ret = pm_open(pm, path, 0, e);
	if (*ret)
		return 0;
	*ret = pm_merge_init(&m, pm, NULL, e);
	if (*ret)
		return 0;
	while (n < max && (*ret = pm_merge_next(&m, &ev[n], e)) > 0)
		n++;
	pm_merge_free(&m);
	return n;
}

static void raw_waking(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t pid)
{
	struct tipme_rec_waking_c c = { tipme_waking_c_word(pid, 1, TIPME_CTX_TASK) };

	scen_rec(s, cpu, TIPME_REC_WAKING_C, ts, &c, sizeof(c));
}

static void raw_switch_site(struct scen *s, uint32_t cpu, uint64_t ts,
			    uint32_t next, uint32_t id)
{
	struct tipme_rec_switch_site_s r = {
		tipme_switch_s_word(next, 120, (uint32_t)tipme_switch_s_kind(TIPME_TS_SLEEPING, 1)), id
	};

	scen_rec(s, cpu, TIPME_REC_SWITCH_SITE_S, ts, &r, sizeof(r));
}

static void raw_site(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t id)
{
	struct tipme_rec_site r = { id };

	scen_rec(s, cpu, TIPME_REC_SITE, ts, &r, sizeof(r));
}

/* A stream in compact form, and what the reader makes of it. */
static void rebuilt(struct scen *s)
{
	struct pm_event ev[32];
	struct pm_dump pm = { 0 };
	struct tm_err e = { "" };
	size_t n;
	int ret;

	scen_init(s, 1);
	raw_waking(s, 0, MS(1), 40);		/* before any switch: waker unknown */
	raw_site(s, 0, MS(1.5), 100);		/* nobody went to sleep yet: dropped */
	scen_switch(s, 0, MS(2), 0, TIPME_TS_RUNNABLE, 120, 41, 110);
	scen_wake(s, 0, MS(3), 42, 1, 41, TIPME_CTX_SOFTIRQ);	/* short: by 41 */
	scen_wake(s, 0, MS(4), 43, 300, 41, TIPME_CTX_TASK);	/* cpu 300: full */
	scen_switch(s, 0, MS(5), 41, TIPME_TS_DISK, 110, 0, 120);
	scen_blocked(s, 0, MS(5), 41, pipe_site);		/* a site number */
	scen_switch(s, 0, MS(6), 0, TIPME_TS_RUNNABLE, 120, 44, 120);
	scen_switch(s, 0, MS(7), 44, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(7), 44, pipe_site);		/* the same number */
	raw_site(s, 0, MS(7.5), 100);		/* a second site for one sleep: dropped */
	scen_switch(s, 0, MS(8), 0, TIPME_TS_RUNNABLE, 120, 45, 120);
	scen_switch(s, 0, MS(9), 45, TIPME_TS_SLEEPING, 120, 0, 120);
	raw_site(s, 0, MS(9), 999);		/* not in the table: no frames */
	scen_subbuf(s, 0, 5);			/* a gap: who runs is unknown */
	raw_waking(s, 0, MS(20), 46);
	raw_switch_site(s, 0, MS(21), 47, 100);	/* prev unknown: its site dropped */
	scen_wake(s, 0, MS(22), 48, 1, 47, TIPME_CTX_TASK);	/* short again: by 47 */
	tap_ok(s->nsites == 1, "one site in the table for two sleeps in pipe_read");
	if (scen_write(s, path))
		return;
	n = events(&pm, ev, 32, &e, &ret);
	tap_ok(ret == 0 && n == 16, "%zu events (14 records kept of 15, two sites merged, a gap): %s",
	       n, e.msg);
	if (n != 16) {
		pm_close(&pm);
		return;
	}
	tap_ok(ev[0].type == TIPME_REC_SCHED_WAKING && ev[0].raw_type == TIPME_REC_WAKING_C &&
	       ev[0].waker_unknown && pm_ev_waker(&ev[0]) == -1 &&
	       tipme_waking_pid(&ev[0].u.wk) == 40,
	       "a short wakeup before any switch: target 40, waker unknown");
	tap_ok(ev[1].type == TIPME_REC_SCHED_SWITCH && ev[1].u.sw.next_pid == 41 &&
	       ev[1].u.sw.next_prio == 110 && (ev[1].u.sw.flags & TIPME_SWITCH_PREEMPT) &&
	       !strcmp(ev[1].rt->name, "sched_switch"),
	       "a compact switch reads as sched_switch 0 -> 41 (prio 110), preempted");
	tap_ok(ev[2].raw_type == TIPME_REC_WAKING_C && pm_ev_waker(&ev[2]) == 41 &&
	       tipme_waking_ctx(&ev[2].u.wk) == TIPME_CTX_SOFTIRQ &&
	       tipme_waking_cpu(&ev[2].u.wk) == 1,
	       "a short wakeup after it: by 41, the CPU's current, in softirq, target cpu 1");
	tap_ok(ev[3].raw_type == TIPME_REC_SCHED_WAKING && pm_ev_waker(&ev[3]) == 41 &&
	       tipme_waking_cpu(&ev[3].u.wk) == 300,
	       "a wakeup of a task on cpu 300 keeps its full form");
	tap_ok(ev[4].u.sw.prev_pid == 41 && ev[4].u.sw.prev_state == TIPME_TS_DISK &&
	       !(ev[4].u.sw.flags & TIPME_SWITCH_PREEMPT),
	       "41 switched out in D, not preempted");
	tap_ok(ev[4].raw_type == TIPME_REC_SWITCH_SITE_S && ev[4].u.sw.prev_prio == 110 &&
	       ev[5].type == TIPME_REC_BLOCKED && ev[5].raw_type == TIPME_REC_SWITCH_SITE_S &&
	       ev[5].rec_size == 0 && ev[5].u.bl.pid == 41 && ev[5].u.bl.nr == 4 &&
	       ev[5].payload_len == sizeof(struct tipme_rec_blocked) + 16,
	       "a short switch with a site: 41 (prio 110 from its switch in), then blocked, 4 addresses");
	tap_ok(ev[6].raw_type == TIPME_REC_SWITCH_S && ev[6].u.sw.prev_pid == 0 &&
	       ev[6].u.sw.next_pid == 44 && !ev[6].prev_unknown,
	       "a short switch: prev is the idle task the previous one put on the CPU");
	tap_ok(ev[8].raw_type == TIPME_REC_SWITCH_SITE_S && ev[8].u.bl.pid == 44 &&
	       ev[8].payload == ev[5].payload,
	       "44 in the same site: the same table entry");
	tap_ok(ev[10].u.sw.prev_pid == 45 && ev[11].type == TIPME_REC_BLOCKED &&
	       ev[11].u.bl.pid == 45 && ev[11].u.bl.nr == 0,
	       "a site number the table lacks: blocked with no frames, for 45");
	tap_ok(ev[12].kind == PM_EV_LOST && ev[13].kind == PM_EV_RECORD &&
	       ev[13].waker_unknown && tipme_waking_pid(&ev[13].u.wk) == 46,
	       "after the gap the waker is unknown again");
	tap_ok(ev[14].type == TIPME_REC_SCHED_SWITCH && ev[14].prev_unknown &&
	       ev[14].u.sw.prev_pid == 0 && ev[14].u.sw.next_pid == 47 &&
	       ev[15].type == TIPME_REC_SCHED_WAKING && pm_ev_waker(&ev[15]) == 47,
	       "... and so is a short switch's prev (its site dropped); the next wakeup is by 47");
	pm_close(&pm);
	{
		struct pm_dec_stats st;

		ret = pm_open(&pm, path, 0, &e);
		if (!ret)
			ret = pm_dec_all(&pm, &pm.cpus[0], &st, &e);
		tap_ok(!ret && st.unattributed == 3 && st.count[TIPME_REC_SITE] == 3 &&
		       st.count[TIPME_REC_SWITCH_C] == 1 && st.count[TIPME_REC_SWITCH_S] == 3 &&
		       st.count[TIPME_REC_SWITCH_SITE_S] == 3,
		       "the counts are of the records as stored: 3 sites, 1 + 3 + 3 switches, 3 dropped");
		pm_close(&pm);
	}
}

/* A site table changed by @how; the open must fail saying @want. */
static void bad_table(struct scen *s, int how, const char *want, const char *what)
{
	struct pm_dump pm = { 0 };
	struct tm_err e = { "" };
	struct tipme_site st;
	int ret;

	scen_init(s, 1);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 41, 120);
	scen_switch(s, 0, MS(2), 41, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2), 41, pipe_site);
	memcpy(&st, s->sites, sizeof(st));
	switch (how) {
	case 0:		/* number 0 */
		st.id = 0;
		break;
	case 1:		/* more addresses than a record holds */
		st.nr = 65;
		break;
	case 2:		/* the entry says more than the section has */
		st.nr = 5;
		break;
	case 3:		/* listed twice */
		memcpy(s->sites + s->sites_len, s->sites, s->sites_len);
		s->sites_len *= 2;
		break;
	}
	memcpy(s->sites, &st, sizeof(st));
	if (scen_write(s, path))
		return;
	ret = pm_open(&pm, path, 0, &e);
	tap_ok(ret < 0 && strstr(e.msg, want), "%s: refused (%s)", what, e.msg);
	pm_close(&pm);
}

/*
 * A site table of @n entries numbered @first + k * @step: every number
 * found with its own addresses, numbers between and past them not (the
 * lookup by array when the numbers are dense, the binary search when
 * they are not: @by_array says which one the table should get).
 */
static void lookup(uint32_t n, uint32_t first, uint32_t step, int by_array,
		   const char *what)
{
	struct tipme_sitetab_hdr h = { .hdr_size = sizeof(h), .count = n };
	unsigned char *buf = calloc(1, sizeof(h) + n * (sizeof(struct tipme_site) + 16));
	struct tm_dump_sec sec = { .index = 0 };
	struct pm_instr in = { 0 };
	struct pm_dump pm = { 0 };
	struct tm_err e = { "" };
	size_t off = sizeof(h);
	uint32_t k, bad = 0;
	int ret;

	if (!buf)
		return;
	memcpy(buf, &h, sizeof(h));
	for (k = 0; k < n; k++) {
		struct tipme_site st = { .id = first + k * step, .nr = (uint8_t)(k % 5) };
		uint32_t a, ip;

		memcpy(buf + off, &st, sizeof(st));
		off += sizeof(st);
		for (a = 0; a < st.nr; a++) {
			ip = st.id ^ a;
			memcpy(buf + off, &ip, sizeof(ip));
			off += sizeof(ip);
		}
	}
	sec.h.size = off;
	sec.data = buf;
	ret = pm_sites_load(&in, &sec, &e);
	pm.instr = &in;
	for (k = 0; !ret && k < n; k++) {
		uint32_t id = first + k * step, len, ip;
		const unsigned char *b = pm_site_blob(&pm, id, &len);
		struct tipme_rec_blocked bl;

		memcpy(&bl, b, sizeof(bl));
		memcpy(&ip, b + sizeof(bl), sizeof(ip));
		if (bl.nr != k % 5 || len != sizeof(bl) + 4 * bl.nr ||
		    (bl.nr && ip != id))
			bad++;
		if (step > 1) {		/* a number between two: none */
			pm_site_blob(&pm, id + 1, &len);
			bad += len != sizeof(bl);
		}
	}
	if (!ret) {
		uint32_t len;

		pm_site_blob(&pm, first + n * step, &len);
		bad += len != sizeof(struct tipme_rec_blocked);
		pm_site_blob(&pm, UINT32_MAX, &len);
		bad += len != sizeof(struct tipme_rec_blocked);
	}
	tap_ok(!ret && !bad && !!in.site_at == by_array,
	       "%s: %u sites found, numbers not in the table not (%s; %u wrong)",
	       what, n, in.site_at ? "array" : "binary search", bad);
	pm_sites_free(&in);
	free(buf);
}

int main(void)
{
	struct scen *s = malloc(sizeof(*s));
	int fd;

	tap_plan(21);
	snprintf(path, sizeof(path), "/tmp/tipme-sites-XXXXXX");
	fd = mkstemp(path);
	if (!s || fd < 0)
		return 1;
	close(fd);
	scen_compact = 1;
	rebuilt(s);
	bad_table(s, 0, "site number 0", "a site numbered 0");
	bad_table(s, 1, "more than 64 addresses", "a site of 65 addresses");
	bad_table(s, 2, "extends past the end", "a site longer than its section");
	bad_table(s, 3, "listed twice", "a site listed twice");
	lookup(300, 1, 1, 1, "numbers 1..300");
	lookup(300, 100, 7, 1, "numbers 100 + 7k");
	lookup(300, 5, 1000003, 0, "numbers a million apart");
	unlink(path);
	free(s);
	return tap_done();
}
