// SPDX-License-Identifier: GPL-2.0
/*
 * The analysis pieces below the verdict, on stretches and resources the
 * test builds by hand: what one stretch was (pm_seg_cause; gpu and
 * display by pm_seg_fence and pm_seg_flip), whether a
 * sleep waits for work (pm_seg_idle), and the stalls ranked
 * (pm_stall_rank).  A one-switch scenario dump gives them an incident
 * with the scenarios' kernel symbols, for the blocking sites.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/segcause.h"
#include "analysis/rank.h"
#include "scen.h"
#include "tap.h"

static struct pm_incident inc;

/* A stretch of @state from @a to @b ms, its site the names in @site. */
static struct pm_seg seg(int state, double a, double b,
			 const char *const *site)
{
	static uint64_t frames[64][PM_SITE_FRAMES];	/* the sites of the stretches made */
	static unsigned int next;
	uint64_t *f = frames[next++ % 64];
	struct pm_seg s = { 0 };

	s.state = (uint8_t)state;
	s.start_ns = (int64_t)MS(a);
	s.end_ns = (int64_t)MS(b);
	s.waker = -1;
	s.block_state = TIPME_TS_SLEEPING;
	for (; site && *site && s.nsite < PM_SITE_FRAMES; site++)
		f[s.nsite++] = scen_sym(*site) + 0x20;
	s.site = s.nsite ? f : NULL;
	return s;
}

static const char *const nsleep[] = { "hrtimer_nanosleep", "common_nsleep", NULL };
static const char *const futex[] = { "futex_wait_queue", "futex_wait", NULL };
static const char *const pipe_site[] = { "pipe_read", "vfs_read", NULL };
static const char *const poll_site[] = { "do_sys_poll", NULL };
static const char *const wait_site[] = { "do_wait", NULL };
static const char *const io_site[] = { "io_schedule", "folio_wait_bit_common", NULL };

static void cause_tests(void)
{
	struct pm_reclaim rec = { .pid = 7, .start_ns = MS(15), .end_ns = MS(16) };
	struct pm_lockwait lk = { .lock = 0x1000, .pid = 7, .owner = 8,
				  .start_ns = MS(21), .end_ns = MS(29) };
	struct pm_wake wk = { .ns = MS(30), .cpu = 1, .target = 7, .waker = 0,
			      .ctx = TIPME_CTX_HARDIRQ };
	struct pm_blkreq rq = { .dev = 8 << 20, .issuer = 7, .issue_ns = MS(20),
				.complete_ns = MS(29.5), .complete_cpu = 1,
				.complete_ctx = TIPME_CTX_HARDIRQ };
	struct pm_res none = { 0 }, res = { 0 };
	struct pm_seg s;

	s = seg(PM_T_RUNNING, 10, 20, NULL);
	tap_ok(pm_seg_cause(&inc, &none, 7, &s, 0) == PM_C_RUNNING, "cause: running is running");
	res.reclaims = &rec;
	res.nreclaims = 1;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_MEMORY,
	       "cause: running while it reclaimed is memory");
	tap_ok(pm_seg_cause(&inc, &res, 9, &s, 0) == PM_C_RUNNING,
	       "cause: ... not another thread's reclaim");
	s = seg(PM_T_RUNNABLE, 10, 20, NULL);
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_CPU,
	       "cause: runnable is cpu_contention, even while reclaiming");
	{	/* its cgroup's quota held it off 6 of the 10 ms, then 3 of 10 */
		struct pm_throttle th = { .pid = 7, .cpu = 1, .cgroup = 42,
					  .start_ns = MS(10), .end_ns = MS(16) };
		struct pm_res tr = { .throttles = &th, .nthrottles = 1 };

		tap_ok(pm_seg_cause(&inc, &tr, 7, &s, 0) == PM_C_THROTTLED,
		       "cause: runnable mostly while its cgroup was throttled is cpu_throttled");
		tap_ok(pm_seg_cause(&inc, &tr, 8, &s, 0) == PM_C_CPU,
		       "cause: ... not another thread's throttling");
		th.start_ns = MS(13);
		tap_ok(pm_seg_cause(&inc, &tr, 7, &s, 0) == PM_C_CPU,
		       "cause: runnable, throttled for the lesser part: cpu_contention");
	}
	s = seg(PM_T_UNKNOWN, 10, 20, NULL);
	tap_ok(pm_seg_cause(&inc, &none, 7, &s, 0) == PM_C_UNKNOWN, "cause: unknown is unknown");

	s = seg(PM_T_BLOCKED, 20, 30, nsleep);
	s.block_state = TIPME_TS_STOPPED;
	tap_ok(pm_seg_cause(&inc, &none, 7, &s, 0) == PM_C_STOPPED, "cause: stopped");
	s.block_state = TIPME_TS_SLEEPING;
	tap_ok(pm_seg_cause(&inc, &none, 7, &s, 0) == PM_C_TIMER,
	       "cause: a nanosleep no task ended is a timer");
	s.block_state = TIPME_TS_DISK;
	tap_ok(pm_seg_cause(&inc, &none, 7, &s, 0) == PM_C_UNKNOWN,
	       "cause: ... not in uninterruptible sleep");
	s.block_state = TIPME_TS_SLEEPING;
	res = none;
	res.locks = &lk;
	res.nlocks = 1;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_LOCK,
	       "cause: a recorded lock wait inside the sleep is a lock");
	lk.start_ns = MS(31);
	lk.end_ns = MS(32);
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_TIMER,
	       "cause: ... not one after it");

	s = seg(PM_T_BLOCKED, 20, 30, pipe_site);
	s.waker = 42;
	s.waker_ctx = TIPME_CTX_TASK;
	tap_ok(pm_seg_cause(&inc, &none, 7, &s, 42) == PM_C_X_SERVER,
	       "cause: woken by the X server is x_server");
	tap_ok(pm_seg_cause(&inc, &none, 7, &s, 0) == PM_C_UNKNOWN,
	       "cause: woken by another task is unknown (its waker's)");
	s = seg(PM_T_BLOCKED, 20, 30, futex);
	s.waker = 42;
	s.waker_ctx = TIPME_CTX_TASK;
	tap_ok(pm_seg_cause(&inc, &none, 7, &s, 0) == PM_C_LOCK,
	       "cause: a futex another task ended is a lock");

	s = seg(PM_T_BLOCKED, 20, 30, io_site);
	s.block_state = TIPME_TS_DISK;
	s.waker = 0;
	s.waker_ctx = TIPME_CTX_HARDIRQ;
	res = none;
	res.wakes = &wk;
	res.nwakes = 1;
	res.blk = &rq;
	res.nblk = 1;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_BLOCK_IO,
	       "cause: woken 0.5 ms after a completion on the waking CPU is block_io");
	tap_ok(pm_seg_blk_wake(&res, &wk) == &rq, "blk_wake: that completion");
	rq.complete_cpu = 2;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_UNKNOWN &&
	       !pm_seg_blk_wake(&res, &wk),
	       "cause: ... not a completion on another CPU");
	rq.complete_cpu = 1;
	rq.complete_ns = MS(25);
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_BLOCK_IO,
	       "cause: ... one 5 ms before, in the interrupt that woke it");
	rq.complete_pid = 55;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_UNKNOWN,
	       "cause: ... not 5 ms before in another task's interrupt");
	rq.complete_pid = 0;
	rq.complete_ns = MS(5);
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_UNKNOWN,
	       "cause: ... nor 25 ms before in the same one");
}

/* gpu and display: a wait a fence's signal or a DRM event's delivery ended */
static void display_tests(void)
{
	struct pm_fence fe = { .ns = MS(29.9), .ctx = 5, .seqno = 9, .cpu = 1,
			       .signaler = 40, .sig_ctx = TIPME_CTX_TASK };
	struct pm_fence_wait fw = { .pid = 7, .ctx = 5, .seqno = 9, .start_ns = MS(19.9),
				    .end_ns = MS(30.1) };
	struct pm_flip fl = { .ns = MS(29.95), .cpu = 1, .crtc = 2, .file = 0xf11e,
			      .owner = 7, .ctx = TIPME_CTX_HARDIRQ };
	struct pm_wake wk = { .ns = MS(30), .cpu = 1, .target = 7, .waker = 40,
			      .ctx = TIPME_CTX_TASK, .fence = 1 };
	struct pm_res res = { 0 };
	struct pm_seg s = seg(PM_T_BLOCKED, 20, 30, pipe_site);

	s.waker = 40;
	s.waker_ctx = TIPME_CTX_TASK;
	res.wakes = &wk;
	res.nwakes = 1;
	res.fences = &fe;
	res.nfences = 1;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_GPU &&
	       pm_seg_fence(&res, 7, &s, &wk) == &fe,
	       "cause: woken just after a fence's signal (the wakeup's join) is gpu");
	wk.fence = 0;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_UNKNOWN,
	       "cause: ... the same wakeup without it is its waker's");
	res.fwaits = &fw;
	res.nfwaits = 1;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_GPU,
	       "cause: ... gpu inside a dma_fence_wait of a fence signalled meanwhile");
	fe.ns = MS(31);
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_UNKNOWN,
	       "cause: ... not when the fence was signalled after the wait");
	fw.pid = 8;
	fe.ns = MS(29.9);
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_UNKNOWN,
	       "cause: ... nor when another thread waited on it");

	res = (struct pm_res){ 0 };
	s.waker = 0;
	s.waker_ctx = TIPME_CTX_HARDIRQ;
	wk = (struct pm_wake){ .ns = MS(30), .cpu = 1, .target = 7, .waker = 0,
			       .ctx = TIPME_CTX_HARDIRQ, .flip = 1 };
	res.wakes = &wk;
	res.nwakes = 1;
	res.flips = &fl;
	res.nflips = 1;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_DISPLAY &&
	       pm_seg_flip(&inc.pm, &res, 7, &wk) == &fl,
	       "cause: woken by a flip's delivery to its own DRM file is display");
	fl.owner = 8;
	tap_ok(pm_seg_cause(&inc, &res, 7, &s, 0) == PM_C_UNKNOWN &&
	       !pm_seg_flip(&inc.pm, &res, 7, &wk),
	       "cause: ... not to another process's file");
}

static void idle_tests(void)
{
	struct pm_seg s;

	s = seg(PM_T_BLOCKED, 0, 1, poll_site);
	tap_ok(!strcmp(pm_seg_site0(&inc.pm, &s), "do_sys_poll"),
	       "site0: the hand-built site resolves to its name");
	tap_ok(pm_seg_idle(&inc, &s), "idle: poll waits for work");
	s = seg(PM_T_BLOCKED, 0, 1, wait_site);
	tap_ok(pm_seg_idle(&inc, &s), "idle: do_wait waits for a child");
	s = seg(PM_T_BLOCKED, 0, 1, io_site);
	tap_ok(!pm_seg_idle(&inc, &s), "idle: an I/O wait is not");
	s = seg(PM_T_BLOCKED, 0, 1, NULL);
	tap_ok(!pm_seg_idle(&inc, &s), "idle: nor a sleep without a site");
	tap_ok(pm_seg_sleep_site(&inc.pm, &s) == NULL &&
	       !strcmp(pm_seg_site0(&inc.pm, &s), ""), "site0: \"\" without a site");
}

static void stall_tests(void)
{
	struct pm_seg a[2], b[1], c[1], d[1];
	struct pm_thread t[4] = {
		{ .pid = 10, .segs = a, .nsegs = 2 },
		{ .pid = 11, .segs = b, .nsegs = 1 },
		{ .pid = 12, .segs = c, .nsegs = 1 },
		{ .pid = 13, .segs = d, .nsegs = 1 },
	};
	struct pm_state st = { .threads = t, .nthreads = 4 };
	struct pm_res res = { 0 };
	struct pm_rank rk;
	struct pm_span sp = { 0 };
	int found;

	a[0] = seg(PM_T_RUNNING, 0, 10, NULL);
	a[1] = seg(PM_T_RUNNABLE, 10, 30, NULL);	/* 20 ms runnable */
	b[0] = seg(PM_T_BLOCKED, 0, 50, io_site);	/* 35 ms in D inside 5..40 */
	b[0].block_state = TIPME_TS_DISK;
	c[0] = seg(PM_T_BLOCKED, 0, 100, poll_site);	/* idle: not a stall */
	c[0].block_state = TIPME_TS_DISK;
	d[0] = seg(PM_T_BLOCKED, 0, 100, nsleep);	/* a timer ended it */
	d[0].waker = 0;
	d[0].waker_ctx = TIPME_CTX_HARDIRQ;
	found = pm_stall_rank(&inc, &st, &res, MS(5), MS(40), NULL, NULL, &rk);
	sp = rk.c[0].sp;
	tap_ok(found == 1 && rk.c[0].tier == PM_TIER_NOBODY && sp.pid == 11 && sp.from_ns == (int64_t)MS(5) &&
	       sp.to_ns == (int64_t)MS(40),
	       "stall: the uninterruptible sleep, cut to the window (11, 5..40 ms)");
	if (!found || sp.pid != 11)
		tap_diag("got %d: pid %u %lld..%lld", found, sp.pid,
			 (long long)sp.from_ns, (long long)sp.to_ns);
	d[0].waker = 10;
	d[0].waker_ctx = TIPME_CTX_TASK;
	found = pm_stall_rank(&inc, &st, &res, 0, MS(100), NULL, NULL, &rk);
	tap_ok(found == 1 && rk.n == 3 && rk.c[1].sp.pid == 13 &&
	       rk.c[1].sp.to_ns == (int64_t)MS(100) && rk.c[1].tier == PM_TIER_NOBODY,
	       "stall: a sleep another task ended is one (13, 100 ms, nobody waited for it)");
	tap_ok(found == 1 && rk.c[0].sp.pid == 10 && rk.c[0].tier == PM_TIER_BATCH &&
	       rk.c[0].waiter == 13 && rk.c[2].sp.pid == 11,
	       "stall: ... but 10's 20 ms rank first: 13 waited for it (batch work); then 11");
	st.nthreads = 1;
	a[1].state = PM_T_RUNNING;
	sp.pid = 99;
	tap_ok(!pm_stall_rank(&inc, &st, &res, 0, MS(100), NULL, NULL, &rk) && rk.n == 0,
	       "stall: none when the only thread ran");
	tap_ok(pm_hint_names("the Firefox window froze", "firefox") &&
	       !pm_hint_names("the firefox-bin froze", "firefox") &&
	       pm_hint_names("gnome-control-center hung", "gnome-control-c") &&
	       !pm_hint_names("an app froze", "ap") && !pm_hint_names(NULL, "app"),
	       "hint: a word of the description names a process (any case; a long name by its 15 bytes)");
}

/*
 * The lookups through pm_res_index()'s indices against the scans they
 * replace, on random lock waits, block requests and bios (several at the
 * same completion time, on few CPUs and threads, so that several fit one
 * question): the same entry for every question.
 */
static void index_tests(void)
{
	enum { N = 3000, Q = 20000 };
	struct pm_lockwait *l = calloc(N, sizeof(*l));
	struct pm_blkreq *q = calloc(N, sizeof(*q));
	struct pm_bio *b = calloc(N, sizeof(*b));
	struct pm_res scan = { 0 }, ix;
	unsigned int seed = 31, i, lock_bad = 0, blk_bad = 0, bio_bad = 0;
	unsigned int lock_hits = 0, blk_hits = 0, bio_hits = 0;

	if (!l || !q || !b)
		return;
	for (i = 0; i < N; i++) {
		l[i].pid = 1 + rand_r(&seed) % 20;
		l[i].start_ns = rand_r(&seed) % 1000000000;
		l[i].end_ns = l[i].start_ns + rand_r(&seed) % 5000000;
		/* whole ms: completions at the same time */
		q[i].complete_ns = (rand_r(&seed) % 7 ? 1 + rand_r(&seed) % 1000 : 0) * 1000000LL;
		q[i].complete_cpu = rand_r(&seed) % 3;
		q[i].complete_ctx = rand_r(&seed) % 3;
		q[i].complete_pid = 1 + rand_r(&seed) % 20;
		b[i].complete_ns = (1 + rand_r(&seed) % 1000) * 1000000LL;
		b[i].complete_cpu = rand_r(&seed) % 3;
		b[i].complete_ctx = rand_r(&seed) % 3;
		b[i].complete_pid = 1 + rand_r(&seed) % 20;
	}
	scan.locks = l;
	scan.nlocks = N;
	scan.blk = q;
	scan.nblk = N;
	scan.bios = b;
	scan.nbios = N;
	ix = scan;
	if (pm_res_index(&ix)) {
		tap_ok(0, "pm_res_index: out of memory");
		return;
	}
	for (i = 0; i < Q; i++) {
		uint32_t pid = 1 + rand_r(&seed) % 21;
		int64_t a = rand_r(&seed) % 1000000000, z = a + rand_r(&seed) % 3000000;
		struct pm_wake w = {
			.ns = (int64_t)(rand_r(&seed) % 1001) * 1000000 + rand_r(&seed) % 3 * 500000,
			.cpu = rand_r(&seed) % 3,
			.ctx = rand_r(&seed) % 3,
			.waker = 1 + rand_r(&seed) % 20,
		};
		const struct pm_lockwait *lw = pm_seg_lock_wait(&scan, pid, a, z);
		const struct pm_blkreq *bq = pm_seg_blk_wake(&scan, &w);
		const struct pm_bio *bb = pm_seg_bio_wake(&scan, &w);

		lock_bad += lw != pm_seg_lock_wait(&ix, pid, a, z);
		blk_bad += bq != pm_seg_blk_wake(&ix, &w);
		bio_bad += bb != pm_seg_bio_wake(&ix, &w);
		lock_hits += !!lw;
		blk_hits += !!bq;
		bio_hits += !!bb;
	}
	tap_ok(!lock_bad && lock_hits > Q / 10,
	       "lock wait of a stretch by the index: as the scan (%u of %u differ, %u found)",
	       lock_bad, Q, lock_hits);
	tap_ok(!blk_bad && blk_hits > Q / 20,
	       "request completion that woke by the index: as the scan (%u differ, %u found)",
	       blk_bad, blk_hits);
	tap_ok(!bio_bad && bio_hits > Q / 20,
	       "bio completion that woke by the index: as the scan (%u differ, %u found)",
	       bio_bad, bio_hits);
	free(ix.locks_by_pid);
	free(ix.blk_by_done);
	free(ix.bios_by_done);
	free(l);
	free(q);
	free(b);
}

int main(void)
{
	static struct scen s;
	char path[] = "/tmp/tipme-segcause-XXXXXX";
	struct tm_err e = { "" };
	int fd;

	tap_plan(43);
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	scen_init(&s, 1);
	scen_subbuf(&s, 0, 0);
	scen_switch(&s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 7, 120);
	if (scen_write(&s, path) || pm_incident_open(&inc, path, 0, &e)) {
		tap_diag("%s", e.msg);
		return 1;
	}
	unlink(path);
	cause_tests();
	display_tests();
	idle_tests();
	stall_tests();
	index_tests();
	pm_incident_close(&inc);
	return tap_done();
}
