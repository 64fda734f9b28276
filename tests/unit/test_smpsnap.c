// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler's table at the dump (TIPME_SEC_SMPSNAP) in the state: a
 * thread no record and no sample names gets the state the sampler last
 * saw, from when it saw it or from when every CPU's records have begun;
 * the records win where they say; exited threads, dead ones and those
 * looked at after the records read end say nothing.  A dump without the
 * section is read as before, one from a later writer (longer header and
 * entries) is read up to what this reader knows, and malformed ones are
 * refused with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "incident/incident.h"
#include "state/state.h"
#include "scen.h"
#include "tap.h"

static char path[] = "/tmp/tipme-smpsnap-XXXXXX";
static struct scen *S;

/* What each thread of the snapshot is, and which ones the state takes. */
struct want {
	uint32_t pid;
	uint32_t state;		/* enum tipme_task_state */
	int oncpu;
	uint64_t seen;		/* ns (ticks are ns in a scenario) */
	uint8_t flags;
};

static const struct want snap[] = {
	{ 50, TIPME_TS_SLEEPING, 0, 0, 0 },		/* seen before the window */
	{ 51, TIPME_TS_DISK, 0, MS(4), 0 },	/* seen inside it */
	{ 52, TIPME_TS_SLEEPING, 0, MS(3), TIPME_SMPSNAP_GONE },
	{ 53, TIPME_TS_SLEEPING, 0, MS(20), 0 },	/* after the records */
	{ 54, TIPME_TS_DEAD, 0, MS(3), 0 },
	{ 55, TIPME_TS_RUNNABLE, 1, MS(9), 0 },		/* on a CPU */
	{ 8, TIPME_TS_SLEEPING, 0, MS(9), 0 },		/* the records say runnable */
};

#define NSNAP	(sizeof(snap) / sizeof(snap[0]))

/*
 * The section: @hdr_size and @ent_size as a writer chose (a later one's
 * are longer), @count as it claims.  Return: its bytes in @buf.
 */
static size_t make_snap(unsigned char *buf, uint32_t hdr_size, uint32_t ent_size,
			uint32_t count)
{
	struct tipme_smpsnap_hdr h = { hdr_size, ent_size, count, 500, 450, 0, MS(9) };
	size_t i, off = hdr_size;

	memset(buf, 0, hdr_size + NSNAP * ent_size);
	memcpy(buf, &h, sizeof(h));
	for (i = 0; i < NSNAP; i++, off += ent_size) {
		struct tipme_smpsnap_ent en = {
			tipme_smp_word(snap[i].pid, snap[i].state, 0, snap[i].oncpu),
			snap[i].pid, snap[i].seen, 1000, 0, 120, snap[i].flags, 0,
		};

		memcpy(buf + off, &en, sizeof(en));
	}
	return off;
}

/*
 * CPU 0: 7 runs from 1 ms and sleeps at 2 ms, 8 runs, wakes 7 at 5 ms and
 * is preempted by it at 6 ms; 7 sleeps again at 10 ms, the last record.
 */
static void scenario(const void *sec, size_t len)
{
	scen_init(S, 1);
	scen_switch(S, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 7, 120);
	scen_switch(S, 0, MS(2), 7, TIPME_TS_SLEEPING, 120, 8, 120);
	scen_wake(S, 0, MS(5), 7, 0, 8, TIPME_CTX_TASK);
	scen_switch(S, 0, MS(6), 8, TIPME_TS_RUNNABLE, 120, 7, 120);
	scen_switch(S, 0, MS(10), 7, TIPME_TS_SLEEPING, 120, 0, 120);
	S->smpsnap = sec;
	S->smpsnap_len = len;
}

static int open_build(struct pm_incident *inc, struct pm_state *st,
		      struct tm_err *e)
{
	int err;

	memset(inc, 0, sizeof(*inc));
	err = scen_write(S, path) ? -1 : pm_incident_open(inc, path, 0, e);

	if (!err)
		err = pm_state_build(st, inc, e);
	return err;
}

static const struct pm_seg *last_seg(const struct pm_state *st, uint32_t pid)
{
	const struct pm_thread *t = pm_state_thread(st, pid);

	return t && t->nsegs ? &t->segs[t->nsegs - 1] : NULL;
}

/* The state of the scenario with a snapshot from a writer of these sizes. */
static void test_snapshot(uint32_t hdr_size, uint32_t ent_size)
{
	static unsigned char buf[4096];
	struct pm_incident inc;
	struct pm_state st;
	struct tm_err e = { "" };
	const struct pm_thread *t;
	const struct pm_seg *s;
	size_t len = make_snap(buf, hdr_size, ent_size, NSNAP);
	int err;

	scenario(buf, len);
	err = open_build(&inc, &st, &e);
	tap_ok(!err, "header %u, entries %u bytes: opened and built%s%s", hdr_size,
	       ent_size, err ? ": " : "", e.msg);
	if (err) {
		pm_incident_close(&inc);
		return;
	}
	t = pm_state_thread(&st, 50);
	s = last_seg(&st, 50);
	tap_ok(t && t->nsegs == 1 && s->state == PM_T_BLOCKED &&
	       s->block_state == TIPME_TS_SLEEPING && s->start_ns == MS(1) &&
	       s->end_ns == MS(10),
	       "50, seen before the window and in no record: sleeping from 1 ms (the records' start) to 10 ms");
	t = pm_state_thread(&st, 51);
	s = last_seg(&st, 51);
	tap_ok(t && t->nsegs == 2 && t->segs[0].state == PM_T_UNKNOWN &&
	       t->segs[0].start_ns == MS(1) && s->state == PM_T_BLOCKED &&
	       s->block_state == TIPME_TS_DISK && s->start_ns == MS(4) &&
	       s->end_ns == MS(10),
	       "51, seen at 4 ms: unknown, then in D from 4 ms to the end");
	tap_ok(!pm_state_thread(&st, 52) && !pm_state_thread(&st, 53) &&
	       !pm_state_thread(&st, 54),
	       "exited since, seen after the records, dead: not in the state");
	s = last_seg(&st, 55);
	tap_ok(s && s->state == PM_T_RUNNING && s->start_ns == MS(9) && s->cpu == 0,
	       "55, on a CPU when seen at 9 ms: running from 9 ms");
	s = last_seg(&st, 8);
	tap_ok(s && s->state == PM_T_RUNNABLE && s->start_ns == MS(6),
	       "8: the records (preempted at 6 ms) win over the snapshot");
	pm_state_free(&st);
	pm_incident_close(&inc);
}

/* The records up to 3 ms: 51 (seen at 4 ms) says nothing about them. */
static void test_range(void)
{
	static unsigned char buf[4096];
	struct pm_incident inc;
	struct pm_state st;
	struct tm_err e = { "" };
	const struct pm_seg *s;
	int err;

	scenario(buf, make_snap(buf, sizeof(struct tipme_smpsnap_hdr),
				sizeof(struct tipme_smpsnap_ent), NSNAP));
	memset(&inc, 0, sizeof(inc));
	err = scen_write(S, path) ? -1 : pm_incident_open(&inc, path, 0, &e);
	if (!err)
		err = pm_state_build_range(&st, &inc, 0, MS(3), &e);
	tap_ok(!err, "range to 3 ms built%s%s", err ? ": " : "", e.msg);
	if (err) {
		pm_incident_close(&inc);
		return;
	}
	s = last_seg(&st, 50);
	tap_ok(s && s->state == PM_T_BLOCKED && s->start_ns == MS(1),
	       "range: 50 sleeping from 1 ms");
	tap_ok(!pm_state_thread(&st, 51), "range: 51, seen at 4 ms, not in it");
	pm_state_free(&st);
	pm_incident_close(&inc);
}

/* An older dump: no section, so no thread the records do not name. */
static void test_old_dump(void)
{
	struct pm_incident inc;
	struct pm_state st;
	struct tm_err e = { "" };
	int err;

	scenario(NULL, 0);
	err = open_build(&inc, &st, &e);
	tap_ok(!err && !pm_state_thread(&st, 50) && !pm_state_thread(&st, 51) &&
	       pm_state_thread(&st, 7), "without a snapshot: only the records' threads");
	if (err) {
		pm_incident_close(&inc);
		return;
	}
	pm_state_free(&st);
	pm_incident_close(&inc);
}

static void test_bad(const char *what, const void *sec, size_t len,
		     const char *msg)
{
	struct pm_incident inc;
	struct tm_err e = { "" };
	int err;

	scenario(sec, len);
	memset(&inc, 0, sizeof(inc));
	err = scen_write(S, path) ? 0 : pm_incident_open(&inc, path, 0, &e);
	tap_ok(err && strstr(e.msg, msg), "%s: refused (%s)", what, e.msg);
	pm_incident_close(&inc);	/* also after a failure */
}

int main(void)
{
	static unsigned char buf[4096];
	size_t len;
	int fd;

	tap_plan(21);
	S = calloc(1, sizeof(*S));
	fd = mkstemp(path);
	if (!S || fd < 0)
		return 1;
	close(fd);
	test_snapshot(sizeof(struct tipme_smpsnap_hdr), sizeof(struct tipme_smpsnap_ent));
	test_snapshot(48, 40);
	test_range();
	test_old_dump();
	len = make_snap(buf, sizeof(struct tipme_smpsnap_hdr),
			sizeof(struct tipme_smpsnap_ent), NSNAP + 1);
	test_bad("a count past the section", buf, len, "more entries than the section holds");
	test_bad("8 bytes", buf, 8, "too short");
	len = make_snap(buf, sizeof(struct tipme_smpsnap_hdr), 8, NSNAP);
	test_bad("entries of 8 bytes", buf, len, "entries too short");
	len = make_snap(buf, sizeof(struct tipme_smpsnap_hdr),
			sizeof(struct tipme_smpsnap_ent), NSNAP);
	buf[20] = 1;	/* struct tipme_smpsnap_hdr.reserved */
	test_bad("a header's reserved field set", buf, len, "reserved field is not zero");
	buf[20] = 0;
	buf[sizeof(struct tipme_smpsnap_hdr) + 28] = 1;	/* the first entry's */
	test_bad("an entry's reserved field set", buf, len, "reserved field is not zero");
	unlink(path);
	free(S);
	return tap_done();
}
