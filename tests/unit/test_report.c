// SPDX-License-Identifier: GPL-2.0
/*
 * tipme report on scenario dumps whose truth the test wrote: one per
 * cause (cpu_contention, timer through a chain, stopped, block_io, lock,
 * memory), a lost-record gap, CPU streams that start at different times,
 * and a pid reused by a second thread.  Each checks the verdict's cause,
 * culprit and share, and the whole text and JSON against golden files in
 * tests/unit/golden/ (TIPME_UPDATE_GOLDEN=1 rewrites them; review the diff).
 * Below the report, each scenario's rebuilt state and resource waits are
 * compared with golden/state-<name>.txt the same way.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "cmd/commands.h"
#include "gen.h"
#include "golden.h"
#include "incident/incident.h"
#include "incident_meta.h"
#include "scen.h"
#include "stategold.h"
#include "tap.h"
#include "writefile.h"
#include "xdumpfile.h"

static char dir[64];

/* The report's output with the scenario directory replaced by "DIR". */
static char *report(const char *name, const char *args, int json, int *ret)
{
	char dump[160], out[160], err[160], buf[512], *argv[16], *tok, *save = NULL;
	char *text, *p, *q;
	int argc = 0;

	struct stat sb;

	snprintf(dump, sizeof(dump), "%s/%s", dir, name);	/* an incident */
	if (stat(dump, &sb) || !S_ISDIR(sb.st_mode))
		snprintf(dump, sizeof(dump), "%s/%s.dump", dir, name);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(buf, sizeof(buf), "report%s %s", json ? " --json" : "", args);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 14;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc++] = dump;
	argv[argc] = NULL;
	*ret = capture_run(pm_cmd_report, argc, argv, out, err);
	text = capture_slurp(*ret ? err : out);
	while ((p = strstr(text, dir))) {	/* DIR for the scratch directory */
		q = p + strlen(dir);
		memcpy(p, "DIR", 3);
		memmove(p + 3, q, strlen(q) + 1);
	}
	return text;
}

/*
 * Incident @name as an auto incident fired by a press of @pid at @ns (0:
 * not an auto incident).
 */
static int auto_meta_of(const char *name, int pid, int64_t ns)
{
	char path[200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/meta.json", dir, name);
	if (!ns)
		return unlink(path);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "{\"trigger\": {\"source\": \"auto\", \"utc\": \"2026-11-25T10:00:00Z\"},\n"
		" \"auto\": {\"input\": \"key\", \"pid\": %d, \"comm\": \"app\",\n"
		"  \"press_mono_ns\": %lld, \"latency_ns\": 310000000}}\n", pid, (long long)ns);
	return fclose(f);
}

/* The xserver incident as an auto incident fired by the press at @ns (0: not). */
static int auto_meta(int64_t ns)
{
	return auto_meta_of("xserver", 1000, ns);
}

/* Compare @text with golden/report-@name.@ext; rewrite it when asked. */
static int golden(const char *name, const char *ext, const char *text)
{
	char path[160];

	snprintf(path, sizeof(path), "tests/unit/golden/report-%s.%s", name, ext);
	return golden_file(path, text);
}

/*
 * One scenario: the verdict (cause, culprit pid, and its share at least
 * @min_pct) in the JSON, then text and JSON against the golden files.
 */
static void check(const char *name, const char *args, const char *cause,
		  int culprit, double min_pct, const char *what)
{
	char want[160], *json, *text, *v;
	double pct = -1;
	int ret, ok;

	json = report(name, args, 1, &ret);
	v = strstr(json, "\"verdict\":");
	snprintf(want, sizeof(want), "\"verdict\":{\"cause\":\"%s\",\"culprit\":", cause);
	ok = !ret && v && !strncmp(v, want, strlen(want));
	if (ok && culprit) {
		snprintf(want, sizeof(want), "{\"pid\":%d,", culprit);
		ok = !strncmp(v + strlen("\"verdict\":{\"cause\":\"\",\"culprit\":") +
			      strlen(cause), want, strlen(want));
	} else if (ok) {
		ok = !strncmp(v + strlen("\"verdict\":{\"cause\":\"\",\"culprit\":") +
			      strlen(cause), "null", 4);
	}
	if (v && (v = strstr(v, "\"pct\":")))
		pct = strtod(v + 6, NULL);
	tap_ok(ok && pct >= min_pct, "%s: verdict %s, culprit %d, %.1f%% (at least %.0f%%)",
	       what, cause, culprit, pct, min_pct);
	if (!ok || pct < min_pct)
		tap_diag("%s", json);
	tap_ok(golden(name, "json", json), "%s: JSON as golden", name);
	text = report(name, args, 0, &ret);
	tap_ok(!ret && golden(name, "txt", text), "%s: text as golden", name);
	free(json);
	free(text);
}

/* Count of record type @name in tipme info --json's output, or -1. */
static long type_count(const char *info, const char *name)
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "\"name\": \"%s\",", name);
	p = strstr(info, want);
	if (!p || !(p = strstr(p, "\"count\": ")))
		return -1;
	return strtol(p + 9, NULL, 10);
}

/* The timer scenario's dump holds the forms scen_compact asked for. */
static void compact_counts(void)
{
	char dump[160], out[160], err[160], *argv[4], *info;
	long sw, swc, wkc, site;
	int ret;

	snprintf(dump, sizeof(dump), "%s/timer.dump", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	argv[0] = "info";
	argv[1] = "--json";
	argv[2] = dump;
	argv[3] = NULL;
	ret = capture_run(pm_cmd_info, 3, argv, out, err);
	info = capture_slurp(out);
	sw = type_count(info, "sched_switch");
	swc = type_count(info, "sched_switch_c");
	wkc = type_count(info, "sched_waking_c");
	site = type_count(info, "site");
	if (scen_compact)
		tap_ok(!ret && sw <= 0 && swc > 0 && wkc > 0 && site > 0,
		       "compact: %ld sched_switch_c, %ld sched_waking_c, %ld site records, no sched_switch",
		       swc, wkc, site);
	else
		tap_ok(!ret && sw > 0 && swc == -1 && site == -1,
		       "full forms: %ld sched_switch records, no compact ones", sw);
	free(info);
}

static const char *const pipe_site[] = { "pipe_read", "vfs_read", "ksys_read", NULL };
static const char *const sleep_site[] = { "hrtimer_nanosleep", "common_nsleep", NULL };

static int save(struct scen *s, const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s.dump", dir, name);
	return scen_write(s, path);
}

/*
 * A victim (100, cpu 0) asks a server (101, cpu 1) that a FIFO hog (102)
 * starves.  @setsched: the hog made itself FIFO while it ran (no switch
 * between), so its switch-in says an ordinary priority and only the
 * sampler sees the real-time one.
 */
static int cpu_scenario(struct scen *s, int setsched)
{
	scen_init(s, 2);
	scen_task(s, 100, 100, "victim", "/bin/victim", "victim", 7);
	scen_task(s, 101, 101, "server", "/bin/server", "server", 7);
	scen_task(s, 102, 102, "hog", "/bin/hog", "hog", 4);
	scen_switch(s, 1, MS(0.5), 101, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(0.5), 101, pipe_site);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 100, 120);
	scen_wake(s, 0, MS(1.5), 102, 1, 100, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(1.6), 0, TIPME_TS_RUNNABLE, 120, 102, setsched ? 120 : 50);
	{	/* the sampler sees the hog running under SCHED_FIFO */
		struct {
			struct tipme_rec_sample h;
			struct tipme_sample_ent t;
		} sm = {
			.h = { .len = sizeof(sm), .nr = 1, .seq = 1 },
			.t = { .word = tipme_smp_word(102, TIPME_TS_RUNNABLE, 1, 1),
			       .tgid = 102, .cpu = 1, .prio = 50 },
		};

		scen_rec(s, 1, TIPME_REC_SAMPLE, MS(20), &sm, sizeof(sm));
	}
	scen_wake(s, 0, MS(2), 101, 1, 100, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(2.1), 100, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2.1), 100, pipe_site);
	scen_switch(s, 1, MS(302), 102, TIPME_TS_DEAD, 50, 101, 120);
	scen_wake(s, 1, MS(302.5), 100, 0, 101, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(302.6), 0, TIPME_TS_RUNNABLE, 120, 100, 120);
	scen_switch(s, 1, MS(303), 101, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 0, MS(310), 100, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, setsched ? "cpu-setsched" : "cpu");
}

/* 1101 on cpu 1 leaves it runnable: its cgroup @cg's CPU quota ran out. */
static void throttle_out(struct scen *s, uint64_t ts, uint64_t cg)
{
	struct tipme_rec_cpu_throttle t = {
		.pid = 1101, .cgroup_lo = (uint32_t)cg, .cgroup_hi = (uint32_t)(cg >> 32),
	};

	scen_rec(s, 1, TIPME_REC_CPU_THROTTLE, ts, &t, sizeof(t));
	scen_switch(s, 1, ts, 1101, TIPME_TS_RUNNABLE, 120, 0, 120);
}

/*
 * A waiter (1100, cpu 0) reads a pipe that a child (1101, cpu 1) writes
 * after 24 ms of computing; the child's cgroup (id 4242, or 2^32 + 7 in
 * "throttle-unnamed", which the dump does not name) allows 10 ms every
 * 100 ms, so it is taken off its CPU, which idles, at 11 and 111 ms until
 * the next period (101, 201 ms).  In "throttle-woken" a ticker (1102) of
 * the same cgroup on cpu 1 sleeps from 39 ms until a timer wakes it at
 * 50 ms, while the group is throttled: it runs at 101 ms, before the
 * child; in "throttle-other" the dump does not list it in the cgroup.
 */
static int throttle_scenario(struct scen *s, const char *name)
{
	uint64_t cg = strcmp(name, "throttle-unnamed") ? 4242 : (1ULL << 32) + 7;
	int ticker = !strcmp(name, "throttle-woken") || !strcmp(name, "throttle-other");

	scen_init(s, 2);
	s->system = strcmp(name, "throttle-other") ?
		    "nodename=test\ncgroup.4242=/user.slice/limited.scope\n"
		    "cgroup.4242.cpu_max=10000 100000\ncgroup.4242.threads=0,1101,1102\n" :
		    "nodename=test\ncgroup.4242=/user.slice/limited.scope\n"
		    "cgroup.4242.cpu_max=10000 100000\ncgroup.4242.threads=0,1101\n";
	scen_task(s, 1100, 1100, "waiter", "/bin/waiter", "waiter", 7);
	scen_task(s, 1101, 1101, "child", "/bin/child", "child", 6);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 1100, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 1101, 120);
	scen_switch(s, 0, MS(2), 1100, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2), 1100, pipe_site);
	if (ticker) {
		scen_task(s, 1102, 1101, "ticker", "/bin/child", "child", 6);
		scen_switch(s, 1, MS(2), 1101, TIPME_TS_RUNNABLE, 120, 1102, 120);
		scen_switch(s, 1, MS(3), 1102, TIPME_TS_RUNNABLE, 120, 1101, 120);
		scen_switch(s, 1, MS(3.5), 1101, TIPME_TS_RUNNABLE, 120, 1102, 120);
		scen_switch(s, 1, MS(4.5), 1102, TIPME_TS_SLEEPING, 120, 1101, 120);
		scen_blocked(s, 1, MS(4.5), 1102, sleep_site);
	}
	throttle_out(s, MS(11), cg);
	if (ticker) {
		scen_wake(s, 1, MS(50), 1102, 1, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 1, MS(101), 0, TIPME_TS_RUNNABLE, 120, 1102, 120);
		scen_switch(s, 1, MS(101.5), 1102, TIPME_TS_SLEEPING, 120, 1101, 120);
		scen_blocked(s, 1, MS(101.5), 1102, sleep_site);
	} else {
		scen_switch(s, 1, MS(101), 0, TIPME_TS_RUNNABLE, 120, 1101, 120);
	}
	throttle_out(s, MS(111), cg);
	scen_switch(s, 1, MS(201), 0, TIPME_TS_RUNNABLE, 120, 1101, 120);
	scen_wake(s, 1, MS(206), 1100, 0, 1101, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(206.5), 0, TIPME_TS_RUNNABLE, 120, 1100, 120);
	scen_switch(s, 1, MS(207), 1101, TIPME_TS_DEAD, 120, 0, 120);
	scen_switch(s, 0, MS(210), 1100, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, name);
}

/* A reader (200) waits for a writer (201) that sleeps 300 ms first. */
static int timer_scenario(struct scen *s)
{
	scen_init(s, 2);
	scen_task(s, 200, 200, "reader", "/bin/reader", "reader", 7);
	scen_task(s, 201, 201, "writer", "/bin/writer", "writer", 7);
	scen_switch(s, 0, MS(10), 200, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10), 200, pipe_site);
	scen_switch(s, 1, MS(10.5), 201, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(10.5), 201, sleep_site);
	scen_wake(s, 1, MS(310.5), 201, 1, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 1, MS(310.6), 0, TIPME_TS_RUNNABLE, 120, 201, 120);
	scen_wake(s, 1, MS(311), 200, 0, 201, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(311.2), 0, TIPME_TS_RUNNABLE, 120, 200, 120);
	scen_switch(s, 1, MS(312), 201, TIPME_TS_DEAD, 120, 0, 120);
	scen_switch(s, 0, MS(320), 200, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "timer");
}

/*
 * A thread (211) its process's main thread (210) creates at 600 ms, which
 * sleeps 300 ms on a timer and exits; the trigger at 1 s.  `--pid 211`
 * without a window: the interval is the thread's life, from its fork
 * record, not unknown from the dump's start.
 */
static int forked_scenario(struct scen *s)
{
	struct tipme_rec_fork f = { 210, 210, 211, 210, 0x3d0f00, 0 };

	scen_init(s, 2);
	scen_task(s, 210, 210, "spawner", "/bin/spawner", "spawner", 7);
	scen_task(s, 211, 210, "worker", "/bin/spawner", "spawner", 7);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 210, 120);
	scen_rec(s, 0, TIPME_REC_FORK, MS(600), &f, sizeof(f));
	scen_switch(s, 1, MS(600.1), 0, TIPME_TS_RUNNABLE, 120, 211, 120);
	scen_switch(s, 1, MS(601), 211, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(601), 211, sleep_site);
	scen_wake(s, 1, MS(901), 211, 1, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 1, MS(901.1), 0, TIPME_TS_RUNNABLE, 120, 211, 120);
	scen_switch(s, 1, MS(902), 211, TIPME_TS_DEAD, 120, 0, 120);
	scen_switch(s, 0, MS(990), 210, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_trigger(s, MS(1000));
	return save(s, "forked");
}

/* A parent (300) waits for its child (301), stopped until 302 continues it. */
static int stopped_scenario(struct scen *s)
{
	static const char *const stop_site[] = { "do_signal_stop", "get_signal", NULL };

	scen_init(s, 2);
	scen_task(s, 300, 300, "parent", "/bin/parent", "parent", 7);
	scen_task(s, 301, 301, "child", "/bin/parent", "parent", 7);
	scen_task(s, 302, 302, "continuer", "/bin/kill", "kill", 5);
	scen_switch(s, 1, MS(5), 301, TIPME_TS_STOPPED, 120, 0, 120);
	scen_blocked(s, 1, MS(5), 301, stop_site);
	scen_switch(s, 0, MS(10), 300, TIPME_TS_SLEEPING, 120, 302, 120);
	scen_blocked(s, 0, MS(10), 300, pipe_site);
	scen_wake(s, 0, MS(409), 301, 1, 302, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(409.5), 302, TIPME_TS_DEAD, 120, 0, 120);
	scen_switch(s, 1, MS(409.2), 0, TIPME_TS_RUNNABLE, 120, 301, 120);
	scen_wake(s, 1, MS(410), 300, 0, 301, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(410.1), 0, TIPME_TS_RUNNABLE, 120, 300, 120);
	scen_switch(s, 1, MS(411), 301, TIPME_TS_DEAD, 120, 0, 120);
	scen_switch(s, 0, MS(420), 300, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "stopped");
}

/* a request record of device @dev */
static void blk_on(struct scen *s, uint32_t cpu, uint8_t type, uint64_t ts, uint32_t dev,
		   uint32_t pid, uint64_t sector, uint8_t ctx)
{
	struct tipme_rec_blk b = {
		.dev = dev, .sector_lo = (uint32_t)sector, .bytes = 4096,
		.pid = pid, .tag = 3, .op = TIPME_BLK_WRITE, .ctx = ctx,
	};

	scen_rec(s, cpu, type, ts, &b, sizeof(b));
}

/* ... of sdb (8:16) */
static void blk(struct scen *s, uint32_t cpu, uint8_t type, uint64_t ts,
		uint32_t pid, uint64_t sector, uint8_t ctx)
{
	blk_on(s, cpu, type, ts, 8 << 20 | 16, pid, sector, ctx);
}

/*
 * A task (400) fsyncs: two writes to 8:16, it sleeps in D; the first goes
 * to the driver at once (20 ms in the device), the second waits 4 ms in the
 * queue until kblockd (401) issues it (16 ms in the device).
 */
static int blkio_scenario(struct scen *s)
{
	static const char *const io_site[] = { "io_schedule", "folio_wait_bit_common",
					       "ext4_sync_file", NULL };

	scen_init(s, 2);
	/* as tipmed writes it; the device the requests went to is 8:16 */
	s->system = "nodename=test\nblockdev.8:0=sda\nblockdev.8:16=sdb\n";
	scen_task(s, 400, 400, "fsyncer", "/bin/fsyncer", "fsyncer", 8);
	scen_task(s, 401, 401, "kworker/1:1H", "", "", 0);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 400, 120);
	blk(s, 0, TIPME_REC_BLK_ISSUE, MS(10), 400, 100, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(10.1), 400, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(10.1), 400, io_site);
	blk(s, 1, TIPME_REC_BLK_COMPLETE, MS(30), 0, 100, TIPME_CTX_HARDIRQ);
	scen_wake(s, 1, MS(30.05), 400, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(30.1), 0, TIPME_TS_RUNNABLE, 120, 400, 120);
	/* the second one waits in the queue until kblockd issues it */
	blk(s, 0, TIPME_REC_BLK_INSERT, MS(31), 400, 200, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(31.1), 400, TIPME_TS_DISK, 120, 0, 120);
	blk(s, 1, TIPME_REC_BLK_ISSUE, MS(35), 401, 200, TIPME_CTX_TASK);
	scen_blocked(s, 0, MS(31.1), 400, io_site);
	blk(s, 1, TIPME_REC_BLK_COMPLETE, MS(51), 0, 200, TIPME_CTX_HARDIRQ);
	scen_wake(s, 1, MS(51.05), 400, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(51.1), 0, TIPME_TS_RUNNABLE, 120, 400, 120);
	scen_switch(s, 0, MS(55), 400, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "blkio");
}

/*
 * 400 reads and sleeps in D; its request completes in a hardirq on CPU 1
 * that interrupted 402, and the wakeup comes 5 ms later: the same
 * interrupt stretched (an emulated CPU held up by its host), when the
 * wakeup names the same interrupted task (@same), or another interrupt
 * (another task interrupted), which is not the block I/O's doing.
 */
static int blkirq_scenario(struct scen *s, int same)
{
	static const char *const io_site[] = { "submit_bio_wait", "blkdev_read_iter",
					       "vfs_read", NULL };

	scen_init(s, 2);
	s->system = "nodename=test\nblockdev.8:16=sdb\n";
	scen_task(s, 400, 400, "reader", "/bin/reader", "reader", 7);
	scen_task(s, 402, 402, "other", "/bin/other", "other", 6);
	scen_task(s, 403, 403, "third", "/bin/third", "third", 6);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 400, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 402, 120);
	blk(s, 0, TIPME_REC_BLK_ISSUE, MS(10), 400, 100, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(10.1), 400, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(10.1), 400, io_site);
	blk(s, 1, TIPME_REC_BLK_COMPLETE, MS(30), 402, 100, TIPME_CTX_HARDIRQ);
	if (!same)
		scen_switch(s, 1, MS(32), 402, TIPME_TS_SLEEPING, 120, 403, 120);
	scen_wake(s, 1, MS(35), 400, 0, same ? 402 : 403, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(35.1), 0, TIPME_TS_RUNNABLE, 120, 400, 120);
	scen_switch(s, 0, MS(40), 400, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 1, MS(40), same ? 402 : 403, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, same ? "blkirq" : "blkirq-other");
}

/*
 * A task (470) writes to loop0 (7:0), a loop device over sdb (direct I/O),
 * and waits: loop0's request is issued in the task, which queues the
 * loop's work item; the loop's worker (471) runs it and issues a request
 * of its own to sdb 1 ms later, which the device holds 20 ms; sdb's
 * interrupt completes it, and loop0's request, whose softirq wakes the
 * task.  Meanwhile a reader (472) reads sdb itself (a request of a task,
 * not of a worker) and the worker issues another request to sdb in
 * another item, after loop0's request completed: neither is loop0's.
 * With @busy 1 the loop's worker ran another item before and its work
 * item was already pending: the request below is issued 5 ms later.
 * With @busy 2 (a loop over a file whose flush waits for the backing
 * file system's journal) the worker waits in its item after its request
 * below completed, for a journal thread's (473) request to sdb, and
 * completes loop0's request itself, in the block softirq on its way, 21
 * ms after its own request below.  With @busy 3 (a flush of that loop)
 * the worker sends nothing of its own: it only waits for the journal
 * thread's request.
 */
/*
 * The end of stack_loop_scenario(s, 2 or 3) from @sent: the worker (471),
 * with @own blocked in its item since its request below and woken by
 * sdb's interrupt, else (a flush: nothing of its own to send) blocked
 * from the start, waits for the journal thread's (473) request to sdb,
 * and completes loop0's request in the softirq run on its way.
 */
static int stack_loop_fsync(struct scen *s, uint64_t sent, int own)
{
	static const char *const jw_site[] = { "jbd2_log_wait_commit", "ext4_sync_file",
					       "vfs_fsync_range", NULL };
	static const char *const idle_site[] = { "worker_thread", "kthread", NULL };

	scen_task(s, 473, 473, "jbd2/sdb-8", "", "", 0);
	if (!own) {
		scen_wake(s, 1, sent + MS(0.1), 473, 1, 471, TIPME_CTX_TASK);
		scen_switch(s, 1, sent + MS(0.2), 471, TIPME_TS_DISK, 120, 473, 120);
		scen_blocked(s, 1, sent + MS(0.2), 471, jw_site);
	}
	blk(s, 1, TIPME_REC_BLK_ISSUE, sent + MS(0.3), 473, 5000, TIPME_CTX_TASK);
	scen_switch(s, 1, sent + MS(0.4), 473, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 1, sent + MS(0.4), 473, jw_site);
	if (own) {
		blk(s, 1, TIPME_REC_BLK_COMPLETE, sent + MS(20), 0, 2000, TIPME_CTX_HARDIRQ);
		scen_wake(s, 1, sent + MS(20.05), 471, 1, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 1, sent + MS(20.1), 0, TIPME_TS_RUNNABLE, 120, 471, 120);
		scen_switch(s, 1, sent + MS(20.3), 471, TIPME_TS_DISK, 120, 0, 120);
		scen_blocked(s, 1, sent + MS(20.3), 471, jw_site);
	}
	blk(s, 1, TIPME_REC_BLK_COMPLETE, sent + MS(40.3), 0, 5000, TIPME_CTX_HARDIRQ);
	scen_wake(s, 1, sent + MS(40.35), 473, 1, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 1, sent + MS(40.4), 0, TIPME_TS_RUNNABLE, 120, 473, 120);
	scen_wake(s, 1, sent + MS(40.9), 471, 1, 473, TIPME_CTX_TASK);
	scen_switch(s, 1, sent + MS(41), 473, TIPME_TS_SLEEPING, 120, 471, 120);
	blk_on(s, 1, TIPME_REC_BLK_COMPLETE, sent + MS(41.1), 7 << 20, 471, 2000,
	       TIPME_CTX_SOFTIRQ);
	scen_wake(s, 1, sent + MS(41.15), 470, 0, 471, TIPME_CTX_SOFTIRQ);
	scen_work(s, 1, TIPME_REC_WORK_END, sent + MS(41.2), 0x100f, NULL, 0, 0);
	scen_switch(s, 0, sent + MS(41.2), 0, TIPME_TS_RUNNABLE, 120, 470, 120);
	scen_switch(s, 0, sent + MS(45), 470, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 1, sent + MS(41.3), 471, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, sent + MS(41.3), 471, idle_site);
	return save(s, own ? "stack-loop-fsync" : "stack-loop-flush");
}

static int stack_loop_scenario(struct scen *s, int busy)
{
	static const char *const wb_site[] = { "folio_wait_bit_common", "folio_wait_writeback",
					       "file_write_and_wait_range", NULL };
	static const char *const idle_site[] = { "worker_thread", "kthread", NULL };
	static const char *const rd_site[] = { "submit_bio_wait", "blkdev_read_iter",
					       "vfs_read", NULL };
	const uint32_t loop0 = 7 << 20;
	uint64_t sent = busy == 1 ? MS(16) : MS(11);

	scen_init(s, 2);
	s->system = "nodename=test\nblockdev.8:16=sdb\nblockdev.7:0=loop0\n";
	scen_task(s, 470, 470, "writer", "/bin/writer", "writer", 7);
	scen_task(s, 471, 471, "kworker/u4:3", "", "", 0);
	scen_task(s, 472, 472, "reader", "/bin/reader", "reader", 7);
	scen_switch(s, 1, MS(0.5), 0, TIPME_TS_RUNNABLE, 120, 471, 120);
	if (busy == 1) {	/* the worker runs the loop's item for an earlier request */
		scen_work(s, 1, TIPME_REC_WORK_QUEUE, MS(0.6), 0x100f, "loop_workfn", 0,
			  TIPME_CTX_SOFTIRQ);
		scen_work(s, 1, TIPME_REC_WORK_START, MS(0.7), 0x100f, "loop_workfn", 471,
			  TIPME_CTX_TASK);
		scen_work(s, 1, TIPME_REC_WORK_END, MS(0.8), 0x100f, NULL, 0, 0);
	}
	scen_switch(s, 1, MS(0.9), 471, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, MS(0.9), 471, idle_site);
	if (busy == 1)	/* queued again before loop0's request, not run yet */
		scen_work(s, 1, TIPME_REC_WORK_QUEUE, MS(9), 0x100f, "loop_workfn", 0,
			  TIPME_CTX_SOFTIRQ);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 470, 120);
	blk_on(s, 0, TIPME_REC_BLK_ISSUE, MS(10), loop0, 470, 2000, TIPME_CTX_TASK);
	if (busy != 1) {
		scen_work(s, 0, TIPME_REC_WORK_QUEUE, MS(10.01), 0x100f, "loop_workfn", 470,
			  TIPME_CTX_TASK);
		scen_wake(s, 0, MS(10.02), 471, 1, 470, TIPME_CTX_TASK);
	}
	scen_switch(s, 0, MS(10.1), 470, TIPME_TS_DISK, 120, 472, 120);
	scen_blocked(s, 0, MS(10.1), 470, wb_site);
	/* the reader's own request to sdb */
	blk(s, 0, TIPME_REC_BLK_ISSUE, MS(10.5), 472, 9000, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(10.6), 472, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(10.6), 472, rd_site);
	/* the loop's worker sends its request below */
	if (busy == 1)	/* (its pending item: the pool wakes it) */
		scen_wake(s, 1, sent - MS(0.9), 471, 1, 0, TIPME_CTX_SOFTIRQ);
	scen_switch(s, 1, sent - MS(0.8), 0, TIPME_TS_RUNNABLE, 120, 471, 120);
	scen_work(s, 1, TIPME_REC_WORK_START, sent - MS(0.7), 0x100f, "loop_workfn", 471,
		  TIPME_CTX_TASK);
	if (busy == 3)
		return stack_loop_fsync(s, sent, 0);
	blk(s, 1, TIPME_REC_BLK_ISSUE, sent, 471, 2000, TIPME_CTX_TASK);
	if (busy == 2) {
		scen_switch(s, 1, sent + MS(0.2), 471, TIPME_TS_DISK, 120, 473, 120);
		scen_blocked(s, 1, sent + MS(0.2), 471, rd_site);
		return stack_loop_fsync(s, sent, 1);
	}
	scen_work(s, 1, TIPME_REC_WORK_END, sent + MS(0.1), 0x100f, NULL, 0, 0);
	scen_switch(s, 1, sent + MS(0.2), 471, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, sent + MS(0.2), 471, idle_site);
	/* the reader's request ends first, 18 ms before loop0's */
	blk(s, 0, TIPME_REC_BLK_COMPLETE, sent + MS(1), 0, 9000, TIPME_CTX_HARDIRQ);
	scen_wake(s, 0, sent + MS(1.05), 472, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, sent + MS(1.1), 0, TIPME_TS_RUNNABLE, 120, 472, 120);
	scen_switch(s, 0, sent + MS(1.5), 472, TIPME_TS_SLEEPING, 120, 0, 120);
	/* sdb's interrupt: its request, then loop0's in the block softirq */
	blk(s, 1, TIPME_REC_BLK_COMPLETE, sent + MS(20), 0, 2000, TIPME_CTX_HARDIRQ);
	blk_on(s, 1, TIPME_REC_BLK_COMPLETE, sent + MS(20.05), loop0, 0, 2000,
	       TIPME_CTX_SOFTIRQ);
	scen_wake(s, 1, sent + MS(20.1), 470, 0, 0, TIPME_CTX_SOFTIRQ);
	scen_switch(s, 0, sent + MS(20.2), 0, TIPME_TS_RUNNABLE, 120, 470, 120);
	scen_switch(s, 0, sent + MS(25), 470, TIPME_TS_SLEEPING, 120, 0, 120);
	/* later, the worker's next item: another request to sdb */
	scen_work(s, 1, TIPME_REC_WORK_QUEUE, sent + MS(21), 0x100f, "loop_workfn", 0,
		  TIPME_CTX_SOFTIRQ);
	scen_switch(s, 1, sent + MS(21.1), 0, TIPME_TS_RUNNABLE, 120, 471, 120);
	scen_work(s, 1, TIPME_REC_WORK_START, sent + MS(21.2), 0x100f, "loop_workfn", 471,
		  TIPME_CTX_TASK);
	blk(s, 1, TIPME_REC_BLK_ISSUE, sent + MS(21.3), 471, 3000, TIPME_CTX_TASK);
	scen_work(s, 1, TIPME_REC_WORK_END, sent + MS(21.4), 0x100f, NULL, 0, 0);
	scen_switch(s, 1, sent + MS(21.5), 471, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, sent + MS(21.5), 471, idle_site);
	blk(s, 1, TIPME_REC_BLK_COMPLETE, sent + MS(41.3), 0, 3000, TIPME_CTX_HARDIRQ);
	return save(s, busy ? "stack-loop-busy" : "stack-loop");
}

static void bio(struct scen *s, uint32_t cpu, uint8_t type, uint64_t ts, uint32_t id,
		uint32_t pid, uint8_t ctx)
{
	struct tipme_rec_bio b = {
		.bio = id, .dev = 253 << 20, .sector_lo = 1000, .bytes = 4096,
		.pid = pid, .op = TIPME_BLK_WRITE, .ctx = ctx,
	};

	scen_rec(s, cpu, type, ts, &b, sizeof(b));
}

/*
 * A task (450) writes to ext4 on dm-0 (253:0, "vg-root") over sdb and
 * waits for the page's writeback: its bio is held 30 ms by the target,
 * whose worker (451) sends a clone below (remapped to sdb, 10 ms in the
 * device); the completion at the top runs in sdb's interrupt, which wakes
 * ext4's end-of-writeback worker (452), which wakes the task.  With
 * @worker 0 the interrupt wakes the task itself; with 2 the I/O completes
 * 5 ms before a timer's softirq wakes the worker, which wakes the task:
 * nothing says the task waited for that I/O.
 */
static int stack_scenario(struct scen *s, int worker)
{
	uint64_t done = worker == 2 ? MS(45) : MS(50);
	static const char *const wb_site[] = { "folio_wait_bit_common", "folio_wait_writeback",
					       "file_write_and_wait_range", NULL };
	static const char *const idle_site[] = { "worker_thread", "kthread", NULL };
	struct tipme_rec_bio_remap m = {
		.bio = 0xb10b, .dev = 8 << 20 | 16, .sector_lo = 3048, .bytes = 4096,
		.from_dev = 253 << 20, .from_lo = 1000, .pid = 451, .op = TIPME_BLK_WRITE,
		.ctx = TIPME_CTX_TASK,
	};

	scen_init(s, 2);
	s->system = "nodename=test\nblockdev.8:16=sdb\nblockdev.253:0=dm-0\n"
		    "blockdev.253:0.dm=vg-root\nblockdev.253:0.slaves=sdb\n";
	scen_task(s, 450, 450, "fsyncer", "/bin/fsyncer", "fsyncer", 8);
	scen_task(s, 451, 451, "kworker/1:1", "", "", 0);
	scen_task(s, 452, 452, "kworker/u4:1", "", "", 0);
	scen_switch(s, 1, MS(0.5), 452, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, MS(0.5), 452, idle_site);
	scen_switch(s, 1, MS(0.6), 0, TIPME_TS_RUNNABLE, 120, 451, 120);
	scen_switch(s, 1, MS(0.7), 451, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, MS(0.7), 451, idle_site);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 450, 120);
	bio(s, 0, TIPME_REC_BIO_QUEUE, MS(10), 0xa10a, 450, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(10.1), 450, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(10.1), 450, wb_site);
	/* the target's delay is over: its worker sends the clone below */
	scen_wake(s, 1, MS(40), 451, 1, 0, TIPME_CTX_SOFTIRQ);
	scen_switch(s, 1, MS(40.05), 0, TIPME_TS_RUNNABLE, 120, 451, 120);
	scen_rec(s, 1, TIPME_REC_BIO_REMAP, MS(40.1), &m, sizeof(m));
	blk(s, 1, TIPME_REC_BLK_ISSUE, MS(40.2), 451, 3048, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(40.3), 451, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, MS(40.3), 451, idle_site);
	/* sdb's interrupt: the request, then the bio at the top */
	blk(s, 1, TIPME_REC_BLK_COMPLETE, done, 0, 3048, TIPME_CTX_HARDIRQ);
	bio(s, 1, TIPME_REC_BIO_COMPLETE, done + MS(0.02), 0xa10a, 0, TIPME_CTX_HARDIRQ);
	if (worker) {
		scen_wake(s, 1, MS(50.05), 452, 1, 0,
			  worker == 2 ? TIPME_CTX_SOFTIRQ : TIPME_CTX_HARDIRQ);
		scen_switch(s, 1, MS(50.1), 0, TIPME_TS_RUNNABLE, 120, 452, 120);
		scen_wake(s, 1, MS(51), 450, 0, 452, TIPME_CTX_TASK);
		scen_switch(s, 1, MS(51.2), 452, TIPME_TS_IDLE, 120, 0, 120);
		scen_blocked(s, 1, MS(51.2), 452, idle_site);
	} else {
		scen_wake(s, 1, MS(51), 450, 0, 0, TIPME_CTX_HARDIRQ);
	}
	scen_switch(s, 0, MS(51.1), 0, TIPME_TS_RUNNABLE, 120, 450, 120);
	scen_switch(s, 0, MS(55), 450, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, worker == 2 ? "stack-timer" : worker ? "stack-worker" : "stack-irq");
}

/*
 * A task (480) writes through md0 (9:0, RAID1 over sdb and sdc) after the
 * array was idle: inside its bio's submission it waits for md's thread
 * (481, md0_raid1) to write the superblock to both legs (20 ms in each),
 * woken by their interrupt; then its bio goes to both legs (10 ms), whose
 * completion at the top wakes it.  With @unlisted the dump does not say
 * sdb and sdc are md0's: the first wait is then the legs' own I/O.
 */
static int stack_md_scenario(struct scen *s, int unlisted)
{
	static const char *const start_site[] = { "md_write_start", "raid1_make_request",
						  "md_handle_request", NULL };
	static const char *const super_site[] = { "md_super_wait", "md_update_sb",
						  "raid1d", NULL };
	static const char *const wb_site[] = { "folio_wait_bit_common", "folio_wait_writeback",
					       "file_write_and_wait_range", NULL };
	static const char *const idle_site[] = { "md_thread", "kthread", NULL };
	struct tipme_rec_bio b = {
		.bio = 0xa30a, .dev = 9 << 20, .sector_lo = 5000, .bytes = 4096,
		.pid = 480, .op = TIPME_BLK_WRITE, .ctx = TIPME_CTX_TASK,
	};
	struct tipme_rec_bio_remap m = {
		.bio = 0xa30a, .dev = 8 << 20 | 16, .sector_lo = 7048, .bytes = 4096,
		.from_dev = 9 << 20, .from_lo = 5000, .pid = 480, .op = TIPME_BLK_WRITE,
		.ctx = TIPME_CTX_TASK,
	};
	uint32_t sdc = 8 << 20 | 32;

	scen_init(s, 2);
	s->system = unlisted ? "nodename=test\nblockdev.8:16=sdb\nblockdev.8:32=sdc\n"
			       "blockdev.9:0=md0\n" :
			       "nodename=test\nblockdev.8:16=sdb\nblockdev.8:32=sdc\n"
			       "blockdev.9:0=md0\nblockdev.9:0.slaves=sdb,sdc\n";
	scen_task(s, 480, 480, "fsyncer", "/bin/fsyncer", "fsyncer", 8);
	scen_task(s, 481, 481, "md0_raid1", "", "", 0);
	scen_switch(s, 1, MS(0.5), 481, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(0.5), 481, idle_site);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 480, 120);
	scen_rec(s, 0, TIPME_REC_BIO_QUEUE, MS(10), &b, sizeof(b));
	scen_wake(s, 0, MS(10.05), 481, 1, 480, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(10.1), 480, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(10.1), 480, start_site);
	scen_switch(s, 1, MS(10.2), 0, TIPME_TS_RUNNABLE, 120, 481, 120);
	blk(s, 1, TIPME_REC_BLK_ISSUE, MS(10.3), 481, 8, TIPME_CTX_TASK);
	blk_on(s, 1, TIPME_REC_BLK_ISSUE, MS(10.35), sdc, 481, 8, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(10.4), 481, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 1, MS(10.4), 481, super_site);
	blk(s, 1, TIPME_REC_BLK_COMPLETE, MS(30.3), 0, 8, TIPME_CTX_HARDIRQ);
	blk_on(s, 1, TIPME_REC_BLK_COMPLETE, MS(30.4), sdc, 0, 8, TIPME_CTX_HARDIRQ);
	scen_wake(s, 1, MS(30.42), 481, 1, 0, TIPME_CTX_HARDIRQ);
	scen_wake(s, 1, MS(30.45), 480, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 1, MS(30.5), 0, TIPME_TS_RUNNABLE, 120, 481, 120);
	scen_switch(s, 1, MS(30.6), 481, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(30.6), 481, idle_site);
	/* its bio, on its way: to sdb (and sdc; one remap is enough here) */
	scen_switch(s, 0, MS(30.7), 0, TIPME_TS_RUNNABLE, 120, 480, 120);
	scen_rec(s, 0, TIPME_REC_BIO_REMAP, MS(30.8), &m, sizeof(m));
	blk(s, 0, TIPME_REC_BLK_ISSUE, MS(30.9), 480, 7048, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(31), 480, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(31), 480, wb_site);
	blk(s, 0, TIPME_REC_BLK_COMPLETE, MS(40.9), 0, 7048, TIPME_CTX_HARDIRQ);
	b.pid = 0;
	b.ctx = TIPME_CTX_HARDIRQ;
	scen_rec(s, 0, TIPME_REC_BIO_COMPLETE, MS(40.95), &b, sizeof(b));
	scen_wake(s, 0, MS(41), 480, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(41.1), 0, TIPME_TS_RUNNABLE, 120, 480, 120);
	scen_switch(s, 0, MS(45), 480, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, unlisted ? "stack-md-unlisted" : "stack-md");
}

static void intr(struct scen *s, uint32_t cpu, uint64_t ts, uint8_t ctx, uint8_t vec,
		 uint16_t irq)
{
	struct tipme_rec_intr r = { .irq = irq, .vec = vec, .ctx = ctx };

	scen_rec(s, cpu, TIPME_REC_INTR, ts, &r, sizeof(r));
}

/*
 * A reader (460) waits for a terminal's input, which a worker's work item
 * delivers (flush_to_ldisc, as a pty's write queues it).  The writer (461)
 * sleeps 300 ms, then queues the item while the worker that would run it
 * (463, kworker/0:1) is busy with another (vmstat_update); when 463 blocks
 * in that one, the pool wakes an idle worker (462), which runs the
 * writer's item and wakes the reader.  462 was woken by 463, not by the
 * writer: the reader waited for the writer, through the work item.
 * @timer: the item is queued instead from the timer softirq (a delayed
 * item: nothing says who armed it), and a second reader (464) is woken by
 * the network receive softirq.
 */
static int work_scenario(struct scen *s, int timer)
{
	static const char *const tty_site[] = { "n_tty_read", "vfs_read", "ksys_read", NULL };
	static const char *const idle_site[] = { "worker_thread", "kthread", NULL };
	static const char *const lock_site[] = { "mutex_lock", "kthread", NULL };

	scen_init(s, 2);
	s->system = "nodename=test\nirq.26=ttyS0\n";
	scen_task(s, 460, 460, "reader", "/bin/reader", "reader", 7);
	scen_task(s, 461, 461, "writer", "/bin/writer", "writer", 7);
	scen_task(s, 462, 462, "kworker/u4:2", "", "", 0);
	scen_task(s, 463, 463, "kworker/0:1", "", "", 0);
	scen_task(s, 464, 464, "netreader", "/bin/netreader", "netreader", 10);
	scen_switch(s, 1, MS(0.5), 462, TIPME_TS_IDLE, 120, 463, 120);
	scen_blocked(s, 1, MS(0.5), 462, idle_site);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 460, 120);
	scen_switch(s, 0, MS(10), 460, TIPME_TS_SLEEPING, 120, 461, 120);
	scen_blocked(s, 0, MS(10), 460, tty_site);
	scen_switch(s, 0, MS(10.5), 461, TIPME_TS_SLEEPING, 120, 464, 120);
	scen_blocked(s, 0, MS(10.5), 461, sleep_site);
	scen_switch(s, 0, MS(11), 464, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(11), 464, pipe_site);
	/* 463 works on vmstat_update from 300 ms */
	scen_work(s, 1, TIPME_REC_WORK_QUEUE, MS(299), 0x5a5a, "vmstat_update", 0,
		  TIPME_CTX_SOFTIRQ);
	scen_work(s, 1, TIPME_REC_WORK_START, MS(300), 0x5a5a, "vmstat_update", 463,
		  TIPME_CTX_TASK);
	if (timer) {
		intr(s, 0, MS(310.1), TIPME_CTX_SOFTIRQ, 1, 0);
		scen_work(s, 0, TIPME_REC_WORK_QUEUE, MS(310.2), 0x7777, "flush_to_ldisc", 0,
			  TIPME_CTX_SOFTIRQ);
	} else {
		scen_wake(s, 0, MS(310), 461, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(310.05), 0, TIPME_TS_RUNNABLE, 120, 461, 120);
		scen_work(s, 0, TIPME_REC_WORK_QUEUE, MS(310.2), 0x7777, "flush_to_ldisc", 461,
			  TIPME_CTX_TASK);
		scen_switch(s, 0, MS(310.3), 461, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(310.3), 461, sleep_site);
	}
	/* 463 blocks inside vmstat_update: the pool wakes 462 for the pending item */
	scen_wake(s, 1, MS(311), 462, 1, 463, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(311.1), 463, TIPME_TS_DISK, 120, 462, 120);
	scen_blocked(s, 1, MS(311.1), 463, lock_site);
	scen_work(s, 1, TIPME_REC_WORK_START, MS(311.2), 0x7777, "flush_to_ldisc", 462,
		  TIPME_CTX_TASK);
	scen_wake(s, 1, MS(312), 460, 0, 462, TIPME_CTX_TASK);
	scen_work(s, 1, TIPME_REC_WORK_END, MS(312.1), 0x7777, NULL, 0, 0);
	scen_switch(s, 1, MS(312.2), 462, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, MS(312.2), 462, idle_site);
	scen_switch(s, 0, MS(312.3), 0, TIPME_TS_RUNNABLE, 120, 460, 120);
	scen_switch(s, 0, MS(320), 460, TIPME_TS_SLEEPING, 120, 0, 120);
	if (timer) {	/* the network's softirq wakes 464 */
		intr(s, 0, MS(329.9), TIPME_CTX_SOFTIRQ, 3, 0);
		scen_wake(s, 0, MS(330), 464, 0, 0, TIPME_CTX_SOFTIRQ);
		scen_switch(s, 0, MS(330.1), 0, TIPME_TS_RUNNABLE, 120, 464, 120);
		scen_switch(s, 0, MS(331), 464, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(331), 464, pipe_site);
		/* then a serial port's interrupt */
		intr(s, 0, MS(339.9), TIPME_CTX_HARDIRQ, 0, 26);
		scen_wake(s, 0, MS(340), 464, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(340.1), 0, TIPME_TS_RUNNABLE, 120, 464, 120);
		scen_switch(s, 0, MS(341), 464, TIPME_TS_SLEEPING, 120, 0, 120);
	}
	return save(s, timer ? "work-timer" : "work-pool");
}

/*
 * The reader (460) and writer (461) of work_scenario(), but the worker
 * (462) that runs the writer's item was woken 90 ms into the wait for
 * another item (vmstat_update, queued by 465), which it runs for 230 ms:
 * the writer's item waits behind it.  Until the writer queued its item
 * the reader waited for the writer; then for the worker, busy.
 */
static int work_busy_scenario(struct scen *s)
{
	static const char *const tty_site[] = { "n_tty_read", "vfs_read", "ksys_read", NULL };
	static const char *const idle_site[] = { "worker_thread", "kthread", NULL };

	scen_init(s, 2);
	scen_task(s, 460, 460, "reader", "/bin/reader", "reader", 7);
	scen_task(s, 461, 461, "writer", "/bin/writer", "writer", 7);
	scen_task(s, 462, 462, "kworker/u4:2", "", "", 0);
	scen_task(s, 465, 465, "poker", "/bin/poker", "poker", 6);
	scen_switch(s, 1, MS(0.5), 462, TIPME_TS_IDLE, 120, 465, 120);
	scen_blocked(s, 1, MS(0.5), 462, idle_site);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 460, 120);
	scen_switch(s, 0, MS(10), 460, TIPME_TS_SLEEPING, 120, 461, 120);
	scen_blocked(s, 0, MS(10), 460, tty_site);
	scen_switch(s, 0, MS(10.5), 461, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10.5), 461, sleep_site);
	scen_work(s, 1, TIPME_REC_WORK_QUEUE, MS(100), 0x5a5a, "vmstat_update", 465,
		  TIPME_CTX_TASK);
	scen_wake(s, 1, MS(100.05), 462, 1, 465, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(100.1), 465, TIPME_TS_SLEEPING, 120, 462, 120);
	scen_blocked(s, 1, MS(100.1), 465, pipe_site);
	scen_work(s, 1, TIPME_REC_WORK_START, MS(100.2), 0x5a5a, "vmstat_update", 462,
		  TIPME_CTX_TASK);
	scen_wake(s, 0, MS(310), 461, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(310.05), 0, TIPME_TS_RUNNABLE, 120, 461, 120);
	scen_work(s, 0, TIPME_REC_WORK_QUEUE, MS(310.2), 0x7777, "flush_to_ldisc", 461,
		  TIPME_CTX_TASK);
	scen_switch(s, 0, MS(310.3), 461, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(310.3), 461, sleep_site);
	scen_work(s, 1, TIPME_REC_WORK_END, MS(330), 0x5a5a, NULL, 0, 0);
	scen_work(s, 1, TIPME_REC_WORK_START, MS(330.1), 0x7777, "flush_to_ldisc", 462,
		  TIPME_CTX_TASK);
	scen_wake(s, 1, MS(331), 460, 0, 462, TIPME_CTX_TASK);
	scen_work(s, 1, TIPME_REC_WORK_END, MS(331.1), 0x7777, NULL, 0, 0);
	scen_switch(s, 1, MS(331.2), 462, TIPME_TS_IDLE, 120, 0, 120);
	scen_blocked(s, 1, MS(331.2), 462, idle_site);
	scen_switch(s, 0, MS(331.3), 0, TIPME_TS_RUNNABLE, 120, 460, 120);
	scen_switch(s, 0, MS(340), 460, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "work-busy");
}

static const char *const tcp_site[] = {
	"sk_wait_data", "tcp_recvmsg_locked", "tcp_recvmsg", "inet_recvmsg", "sock_recvmsg", NULL,
};
static const char *const unix_site[] = { "unix_stream_read_generic", "vfs_read", NULL };

/* The client's socket (the server's mirrored); IPv6 in "net-remote". */
#define NET_CLIENT	0
#define NET_SERVER	1

static void net(struct scen *s, uint32_t cpu, uint8_t type, uint64_t ts, int end,
		int v6, uint32_t pid, uint8_t ctx)
{
	static const uint8_t c4[4] = { 10, 0, 0, 2 }, s4[4] = { 10, 0, 0, 1 };
	static const uint8_t c6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	static const uint8_t s6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	struct tipme_rec_net r = {
		.pid = pid, .len = 64, .family = v6 ? TIPME_NET_INET6 : TIPME_NET_INET,
		.proto = 6, .ctx = ctx,
	};
	const uint8_t *me = end == NET_CLIENT ? (v6 ? c6 : c4) : (v6 ? s6 : s4);
	const uint8_t *peer = end == NET_CLIENT ? (v6 ? s6 : s4) : (v6 ? c6 : c4);

	memcpy(r.laddr, me, v6 ? 16 : 4);
	memcpy(r.raddr, peer, v6 ? 16 : 4);
	r.lport = end == NET_CLIENT ? 40312 : (v6 ? 443 : 5000);
	r.rport = end == NET_CLIENT ? (v6 ? 443 : 5000) : 40312;
	scen_rec(s, cpu, type, ts, &r, sizeof(r));
}

/*
 * A client (1200, cpu 0) sends a request over TCP to a server (1201, cpu
 * 1) and reads the answer from 10.5 ms.  The request arrives at once (the
 * receive softirq in the client's own context wakes the server).
 * "net-peer": the server sleeps 300 ms, then answers, its receive waking
 * the client in the softirq of the server's send (a slow local peer).
 * "net-link": the server answers at once, but the link holds the answer
 * 300 ms (netem): its receive runs in a softirq on the idle cpu 1.
 * "net-remote": the same over IPv6 from a server the dump does not have.
 * "net-local": the negative: the client reads a unix socket the sleeping
 * writer writes (a wakeup in task context); a receive of another socket
 * in a softirq on the writer's CPU just before is not the client's.
 */
static int net_scenario(struct scen *s, const char *name)
{
	int peer = !strcmp(name, "net-peer"), local = !strcmp(name, "net-local");
	int remote = !strcmp(name, "net-remote");

	scen_init(s, 2);
	scen_task(s, 1200, 1200, "client", "/bin/client", "client", 7);
	scen_task(s, 1201, 1201, "server", "/bin/server", "server", 7);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 1200, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 1201, 120);
	scen_switch(s, 1, MS(2), 1201, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(2), 1201, local ? sleep_site : tcp_site);
	if (!local && !remote) {
		net(s, 0, TIPME_REC_NET_SEND, MS(10), NET_CLIENT, 0, 1200, TIPME_CTX_TASK);
		intr(s, 0, MS(10.05), TIPME_CTX_SOFTIRQ, 3, 0);
		net(s, 0, TIPME_REC_NET_RECV, MS(10.1), NET_SERVER, 0, 1200, TIPME_CTX_SOFTIRQ);
		scen_wake(s, 0, MS(10.15), 1201, 1, 1200, TIPME_CTX_SOFTIRQ);
	} else if (remote) {
		net(s, 0, TIPME_REC_NET_SEND, MS(10), NET_CLIENT, 1, 1200, TIPME_CTX_TASK);
	}
	scen_switch(s, 0, MS(10.5), 1200, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10.5), 1200, local ? unix_site : tcp_site);
	if (peer || local) {
		if (peer) {
			scen_switch(s, 1, MS(10.3), 0, TIPME_TS_RUNNABLE, 120, 1201, 120);
			scen_switch(s, 1, MS(10.4), 1201, TIPME_TS_SLEEPING, 120, 0, 120);
			scen_blocked(s, 1, MS(10.4), 1201, sleep_site);
		}
		scen_wake(s, 1, MS(310.4), 1201, 1, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 1, MS(310.5), 0, TIPME_TS_RUNNABLE, 120, 1201, 120);
		if (peer) {
			net(s, 1, TIPME_REC_NET_SEND, MS(311), NET_SERVER, 0, 1201, TIPME_CTX_TASK);
			intr(s, 1, MS(311.05), TIPME_CTX_SOFTIRQ, 3, 0);
			net(s, 1, TIPME_REC_NET_RECV, MS(311.1), NET_CLIENT, 0, 1201,
			    TIPME_CTX_SOFTIRQ);
			scen_wake(s, 1, MS(311.15), 1200, 0, 1201, TIPME_CTX_SOFTIRQ);
		} else {
			/* someone else's data, in a softirq the write did not run in */
			intr(s, 1, MS(311.05), TIPME_CTX_SOFTIRQ, 3, 0);
			net(s, 1, TIPME_REC_NET_RECV, MS(311.1), NET_SERVER, 0, 1201,
			    TIPME_CTX_SOFTIRQ);
			scen_wake(s, 1, MS(311.15), 1200, 0, 1201, TIPME_CTX_TASK);
		}
		scen_switch(s, 0, MS(311.3), 0, TIPME_TS_RUNNABLE, 120, 1200, 120);
		scen_switch(s, 1, MS(312), 1201, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(312), 1201, local ? sleep_site : tcp_site);
	} else {
		if (!remote) {
			scen_switch(s, 1, MS(10.3), 0, TIPME_TS_RUNNABLE, 120, 1201, 120);
			net(s, 1, TIPME_REC_NET_SEND, MS(10.6), NET_SERVER, 0, 1201, TIPME_CTX_TASK);
			scen_switch(s, 1, MS(10.7), 1201, TIPME_TS_SLEEPING, 120, 0, 120);
			scen_blocked(s, 1, MS(10.7), 1201, tcp_site);
		}
		/* the link's delay over: received in a softirq of the idle cpu 1 */
		intr(s, 1, MS(310.6), TIPME_CTX_SOFTIRQ, 3, 0);
		net(s, 1, TIPME_REC_NET_RECV, MS(310.65), NET_CLIENT, remote, 0, TIPME_CTX_SOFTIRQ);
		scen_wake(s, 1, MS(310.7), 1200, 0, 0, TIPME_CTX_SOFTIRQ);
		scen_switch(s, 0, MS(310.8), 0, TIPME_TS_RUNNABLE, 120, 1200, 120);
	}
	scen_switch(s, 0, MS(320), 1200, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, name);
}


/*
 * Page faults.  fault-file: an app (460) reads a cold mmap'ed file (inode
 * 12) of ext4 on dm-0 over sdb: its fault queues a read bio of dm-0 (the
 * pages it fills are the file's), which the target sends below at once
 * (25 ms in sdb); sdb's interrupt completes it at the top and wakes the
 * app.  Its second thread (461) faults on the same page meanwhile and
 * waits for the app's read: the same interrupt wakes it.  fault-swap: a
 * task (470) faults on memory paged out to swap on sdc (8:32): the read
 * request, 40 ms in the device, fills swap cache pages.
 */
static int fault_scenario(struct scen *s, int swap)
{
	static const char *const file_site[] = { "folio_wait_bit_common", "filemap_fault",
						 "__do_fault", "do_read_fault", NULL };
	static const char *const lock_site[] = { "__folio_lock_killable", "filemap_fault",
						 "__do_fault", "do_read_fault", NULL };
	static const char *const swap_site[] = { "folio_wait_bit_common", "__folio_lock_or_retry",
						 "do_swap_page", "__handle_mm_fault", NULL };
	struct tipme_rec_bio q = {
		.bio = 0xf11e, .dev = 253 << 20, .sector_lo = 2000, .bytes = 16384,
		.pid = 460, .op = TIPME_BLK_READ, .ctx = TIPME_CTX_TASK,
	};
	struct tipme_rec_bio_remap m = {
		.bio = 0xc10e, .dev = 8 << 20 | 16, .sector_lo = 4048, .bytes = 16384,
		.from_dev = 253 << 20, .from_lo = 2000, .pid = 460, .op = TIPME_BLK_READ,
		.ctx = TIPME_CTX_TASK,
	};
	struct tipme_rec_blk r = {
		.dev = swap ? 8 << 20 | 32 : 8 << 20 | 16, .sector_lo = swap ? 800 : 4048,
		.bytes = swap ? 32768 : 16384, .pid = swap ? 470 : 460, .tag = 5,
		.op = TIPME_BLK_READ, .ctx = TIPME_CTX_TASK,
	};
	struct tipme_rec_blk_file f = {
		.ino_lo = 12, .dev = 253 << 20, .kind = TIPME_BLK_FILE_FILE, .ctx = TIPME_CTX_TASK,
	};
	struct tipme_rec_blk_file sw = { .kind = TIPME_BLK_FILE_SWAP, .ctx = TIPME_CTX_TASK };

	scen_init(s, 2);
	s->system = "nodename=test\nblockdev.8:16=sdb\nblockdev.8:32=sdc\nblockdev.253:0=dm-0\n"
		    "blockdev.253:0.dm=vg-root\nblockdev.253:0.slaves=sdb\n";
	if (swap) {
		scen_task(s, 470, 470, "app", "/bin/app", "app", 4);
		scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 470, 120);
		scen_rec(s, 0, TIPME_REC_BLK_ISSUE, MS(10), &r, sizeof(r));
		scen_rec(s, 0, TIPME_REC_BLK_FILE, MS(10.01), &sw, sizeof(sw));
		scen_switch(s, 0, MS(10.1), 470, TIPME_TS_DISK, 120, 0, 120);
		scen_blocked(s, 0, MS(10.1), 470, swap_site);
		r.pid = 0;
		r.ctx = TIPME_CTX_HARDIRQ;
		scen_rec(s, 0, TIPME_REC_BLK_COMPLETE, MS(50), &r, sizeof(r));
		scen_wake(s, 0, MS(50.05), 470, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(50.1), 0, TIPME_TS_RUNNABLE, 120, 470, 120);
		scen_switch(s, 0, MS(55), 470, TIPME_TS_SLEEPING, 120, 0, 120);
		return save(s, "fault-swap");
	}
	scen_task(s, 460, 460, "app", "/bin/app", "app", 4);
	scen_task(s, 461, 460, "app-helper", "", "", 0);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 460, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 461, 120);
	scen_rec(s, 0, TIPME_REC_BIO_QUEUE, MS(10), &q, sizeof(q));
	scen_rec(s, 0, TIPME_REC_BLK_FILE, MS(10.01), &f, sizeof(f));
	scen_rec(s, 0, TIPME_REC_BIO_REMAP, MS(10.02), &m, sizeof(m));
	scen_rec(s, 0, TIPME_REC_BLK_ISSUE, MS(10.03), &r, sizeof(r));
	scen_rec(s, 0, TIPME_REC_BLK_FILE, MS(10.04), &f, sizeof(f));
	scen_switch(s, 0, MS(10.1), 460, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(10.1), 460, file_site);
	/* the helper finds the page locked for the app's read */
	scen_switch(s, 1, MS(12), 461, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 1, MS(12), 461, lock_site);
	r.pid = 0;
	r.ctx = TIPME_CTX_HARDIRQ;
	scen_rec(s, 0, TIPME_REC_BLK_COMPLETE, MS(35), &r, sizeof(r));
	q.pid = 0;
	q.ctx = TIPME_CTX_HARDIRQ;
	q.bytes = 0;
	scen_rec(s, 0, TIPME_REC_BIO_COMPLETE, MS(35.02), &q, sizeof(q));
	scen_wake(s, 0, MS(35.05), 460, 0, 0, TIPME_CTX_HARDIRQ);
	scen_wake(s, 0, MS(35.06), 461, 1, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(35.1), 0, TIPME_TS_RUNNABLE, 120, 460, 120);
	scen_switch(s, 1, MS(35.2), 0, TIPME_TS_RUNNABLE, 120, 461, 120);
	scen_switch(s, 0, MS(40), 460, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 1, MS(40), 461, TIPME_TS_SLEEPING, 120, 0, 120);
	/* the helper's wait, for its own golden files */
	return save(s, "fault-file") || save(s, "fault-shared");
}

/* 500 waits for a mutex that 501 holds while it computes for 90 ms. */
static int lock_scenario(struct scen *s)
{
	static const char *const mutex_site[] = { "mutex_lock", NULL };
	struct tipme_rec_lock_begin lb = { .lock_lo = 0x81234000, .lock_hi = 0xffff8880,
					   .pid = 500, .owner = 501,
					   .flags = TIPME_LOCK_MUTEX };
	struct tipme_rec_lock_end le = { .lock_lo = 0x81234000, .lock_hi = 0xffff8880,
					 .pid = 500 };

	scen_init(s, 2);
	scen_task(s, 500, 500, "waiter", "/bin/app", "app", 4);
	scen_task(s, 501, 500, "holder", "/bin/app", "app", 4);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 501, 120);
	scen_switch(s, 0, MS(2), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_rec(s, 0, TIPME_REC_LOCK_BEGIN, MS(10), &lb, sizeof(lb));
	scen_switch(s, 0, MS(10.1), 500, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(10.1), 500, mutex_site);
	scen_wake(s, 1, MS(100), 500, 0, 501, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(100.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_rec(s, 0, TIPME_REC_LOCK_END, MS(100.2), &le, sizeof(le));
	scen_switch(s, 1, MS(105), 501, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 0, MS(110), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "lock");
}

/*
 * No X dump: a key press (kernel input record) wakes 900 (the event
 * device's reader) from its interrupt; 900 then waits 68 ms for a mutex
 * that 901 holds while computing, and goes back to poll() at 85 ms.
 */
static void kinput_build(struct scen *s, int second)
{
	static const char *const mutex_site[] = { "mutex_lock", NULL };
	static const char *const wait_site[] = { "do_sys_poll", NULL };
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 3 };
	struct tipme_rec_lock_begin lb = { .lock_lo = 0x8123b000, .lock_hi = 0xffff8880,
					   .pid = 900, .owner = 901,
					   .flags = TIPME_LOCK_MUTEX };
	struct tipme_rec_lock_end le = { .lock_lo = 0x8123b000, .lock_hi = 0xffff8880,
					 .pid = 900 };

	scen_init(s, 2);
	scen_task(s, 900, 900, "Xorg", "/usr/lib/xorg/Xorg", "Xorg", 5);
	scen_task(s, 901, 900, "InputThread", "/usr/lib/xorg/Xorg", "Xorg", 5);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 901, 120);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	scen_switch(s, 0, MS(2), 900, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2), 900, wait_site);
	scen_rec(s, 0, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
	scen_wake(s, 0, MS(10.02), 900, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(10.1), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	scen_rec(s, 0, TIPME_REC_LOCK_BEGIN, MS(12), &lb, sizeof(lb));
	scen_switch(s, 0, MS(12.1), 900, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(12.1), 900, mutex_site);
	scen_wake(s, 1, MS(80), 900, 0, 901, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(80.1), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	scen_rec(s, 0, TIPME_REC_LOCK_END, MS(80.2), &le, sizeof(le));
	scen_switch(s, 0, MS(85), 900, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(85), 900, wait_site);
	scen_switch(s, 1, MS(90), 901, TIPME_TS_SLEEPING, 120, 0, 120);
	if (second) {	/* a press at 100 ms, back to poll() at 103 ms */
		scen_rec(s, 0, TIPME_REC_INPUT, MS(100), &in, sizeof(in));
		scen_wake(s, 0, MS(100.02), 900, 0, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 0, MS(100.1), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
		scen_switch(s, 0, MS(103), 900, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 0, MS(103), 900, wait_site);
	}
}

static int kinput_scenario(struct scen *s)
{
	kinput_build(s, 0);
	return save(s, "kinput");
}

/*
 * A key press through uinput: vkbd (950, cpu 1) writes the input record at
 * 10 ms, and evdev wakes the reader (900) 9 ms later on that CPU, which
 * the host did not run in between; the reader goes back to poll() at
 * 30 ms.  @broken: vkbd is switched out at 12 ms and 951 makes the
 * wakeup, which then cannot be the delivery's.
 */
static int klate_scenario(struct scen *s, int broken)
{
	static const char *const wait_site[] = { "do_sys_poll", NULL };
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 3 };

	scen_init(s, 2);
	scen_task(s, 900, 900, "evreader", "/usr/bin/evreader", "evreader", 9);
	scen_task(s, 950, 950, "vkbd", "/usr/bin/vkbd", "vkbd", 5);
	scen_task(s, 951, 951, "other", "/usr/bin/other", "other", 6);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 950, 120);
	scen_switch(s, 0, MS(2), 900, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2), 900, wait_site);
	scen_rec(s, 1, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
	if (broken)
		scen_switch(s, 1, MS(12), 950, TIPME_TS_RUNNABLE, 120, 951, 120);
	scen_wake(s, 1, MS(19), 900, 0, broken ? 951 : 950, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(19.1), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	scen_switch(s, 0, MS(30), 900, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(30), 900, wait_site);
	scen_switch(s, 1, MS(40), broken ? 951 : 950, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, broken ? "klate-broken" : "klate");
}

/*
 * The same frame held up the other way (seen in the TCG guest): evdev
 * wakes the reader at 6 ms, our handler writes the input record at
 * 10 ms, 950 on CPU 1 throughout; @broken: 951 ran on CPU 1 from 8 ms,
 * so the wakeup and the record are not one frame.
 */
static int kearly_scenario(struct scen *s, int broken)
{
	static const char *const wait_site[] = { "do_sys_poll", NULL };
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 3 };

	scen_init(s, 2);
	scen_task(s, 900, 900, "evreader", "/usr/bin/evreader", "evreader", 9);
	scen_task(s, 950, 950, "vkbd", "/usr/bin/vkbd", "vkbd", 5);
	scen_task(s, 951, 951, "other", "/usr/bin/other", "other", 6);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 950, 120);
	scen_switch(s, 0, MS(2), 900, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2), 900, wait_site);
	scen_wake(s, 1, MS(6), 900, 0, 950, TIPME_CTX_TASK);
	if (broken)
		scen_switch(s, 1, MS(8), 950, TIPME_TS_RUNNABLE, 120, 951, 120);
	scen_rec(s, 1, TIPME_REC_INPUT, MS(10), &in, sizeof(in));
	scen_switch(s, 0, MS(10.5), 0, TIPME_TS_RUNNABLE, 120, 900, 120);
	scen_switch(s, 0, MS(30), 900, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(30), 900, wait_site);
	scen_switch(s, 1, MS(40), broken ? 951 : 950, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, broken ? "kearly-broken" : "kearly");
}

/*
 * The same with a second, quicker press at 100 ms, as an incident without
 * an X dump: the module's own auto trigger may name either press.
 */
static int kauto_scenario(struct scen *s)
{
	char path[200];

	kinput_build(s, 1);
	snprintf(path, sizeof(path), "%s/kauto", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/kauto/kernel.dump", dir);
	return scen_write(s, path);
}

/* 600 runs 100 ms, 60 of them reclaiming memory for its cgroup. */
static int mem_scenario(struct scen *s)
{
	unsigned char b[sizeof(struct tipme_rec_reclaim_begin)];
	struct tipme_rec_reclaim_begin rb = { .len = sizeof(rb), .kind = TIPME_RECLAIM_MEMCG,
					      .pid = 600 };
	struct tipme_rec_reclaim_end re = { .pid = 600, .kind = TIPME_RECLAIM_MEMCG,
					    .nr_reclaimed = 1234 };

	memcpy(b, &rb, sizeof(rb));
	scen_init(s, 1);
	scen_task(s, 600, 600, "memhog", "/bin/memhog", "memhog", 7);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 600, 120);
	scen_rec(s, 0, TIPME_REC_RECLAIM_BEGIN, MS(20), b, sizeof(b));
	scen_rec(s, 0, TIPME_REC_RECLAIM_END, MS(80), &re, sizeof(re));
	scen_switch(s, 0, MS(101), 600, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "mem");
}

/*
 * @pid, running on CPU 0, sleeps there from @from in @state at @site until
 * an interrupt of kind @ctx wakes it at @to; it runs again 0.1 ms later.
 */
static void irq_sleep(struct scen *s, uint32_t pid, uint64_t from, uint64_t to,
		      uint32_t state, const char *const *site, uint32_t ctx)
{
	scen_switch(s, 0, from, pid, state, 120, 0, 120);
	scen_blocked(s, 0, from, pid, site);
	scen_wake(s, 0, to, pid, 0, 0, ctx);
	scen_switch(s, 0, to + MS(0.1), 0, TIPME_TS_RUNNABLE, 120, pid, 120);
}

/*
 * 620 grows past its memory cgroup's memory.high: it reclaims 2 ms (10..12
 * ms, nothing freed; its cgroup 4343, /tipme-mem in the dump, over its
 * memory.high of 8 MiB), then the kernel makes it sleep on its way back
 * to user space, in mem_cgroup_handle_over_high() (20..60 ms), a timer's
 * softirq waking it; again, reclaiming 1 ms (62..63 ms) and sleeping
 * 70..95 ms.  A third sleep there (96..99 ms) has no reclaim since the
 * last sleep: it names no cgroup (as in a dump of an older module, whose
 * reclaim_end records have none).
 */
static int memhigh_scenario(struct scen *s)
{
	static const char *const penalty[] = {
		"mem_cgroup_handle_over_high", "exit_to_user_mode_prepare",
		"irqentry_exit_to_user_mode", "asm_exc_page_fault", NULL,
	};
	unsigned char b[sizeof(struct tipme_rec_reclaim_begin)];
	struct tipme_rec_reclaim_begin rb = { .len = sizeof(rb), .kind = TIPME_RECLAIM_MEMCG,
					      .pid = 620 };
	struct tipme_rec_reclaim_end re = { .pid = 620, .kind = TIPME_RECLAIM_MEMCG,
					    .high_cgroup_lo = 4343, .high_kib = 8192 };

	memcpy(b, &rb, sizeof(rb));
	scen_init(s, 1);
	s->system = "nodename=test\ncgroup.4343=/tipme-mem\n";
	scen_task(s, 620, 620, "grower", "/bin/grower", "grower", 7);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 620, 120);
	scen_rec(s, 0, TIPME_REC_RECLAIM_BEGIN, MS(10), b, sizeof(b));
	scen_rec(s, 0, TIPME_REC_RECLAIM_END, MS(12), &re, sizeof(re));
	irq_sleep(s, 620, MS(20), MS(60), TIPME_TS_DISK, penalty, TIPME_CTX_SOFTIRQ);
	scen_rec(s, 0, TIPME_REC_RECLAIM_BEGIN, MS(62), b, sizeof(b));
	scen_rec(s, 0, TIPME_REC_RECLAIM_END, MS(63), &re, sizeof(re));
	irq_sleep(s, 620, MS(70), MS(95), TIPME_TS_DISK, penalty, TIPME_CTX_SOFTIRQ);
	irq_sleep(s, 620, MS(96), MS(99), TIPME_TS_DISK, penalty, TIPME_CTX_SOFTIRQ);
	scen_switch(s, 0, MS(101), 620, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "memhigh");
}

/*
 * 630 waits in sigtimedwait() for a signal that never comes, until its
 * 200 ms timeout: the timer's interrupt wakes it (10..210 ms).
 */
static int sigtimed_scenario(struct scen *s)
{
	static const char *const site[] = {
		"do_sigtimedwait", "__x64_sys_rt_sigtimedwait", "entry_SYSCALL_64", NULL,
	};

	scen_init(s, 1);
	scen_task(s, 630, 630, "waiter", "/bin/waiter", "waiter", 7);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 630, 120);
	irq_sleep(s, 630, MS(10), MS(210), TIPME_TS_SLEEPING, site, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(215), 630, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "sigtimed");
}

/* 700 runs on cpu 0; sub-buffer 1 of that CPU is lost (50..80 ms). */
static int gap_scenario(struct scen *s)
{
	scen_init(s, 1);
	scen_task(s, 700, 700, "busy", "/bin/busy", "busy", 5);
	scen_switch(s, 0, MS(10), 0, TIPME_TS_RUNNABLE, 120, 700, 120);
	scen_switch(s, 0, MS(50), 700, TIPME_TS_RUNNABLE, 120, 700, 120);
	scen_subbuf(s, 0, 2);
	scen_switch(s, 0, MS(80), 700, TIPME_TS_RUNNABLE, 120, 700, 120);
	scen_switch(s, 0, MS(100), 700, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "gap");
}

/*
 * CPU 1's records begin at 50 ms (its ring wrapped sooner); 800 is first
 * seen leaving it at 60 ms: it ran there since 50 ms, not since 0.
 */
static int streams_scenario(struct scen *s)
{
	scen_init(s, 2);
	scen_task(s, 800, 800, "late", "/bin/late", "late", 5);
	scen_switch(s, 0, MS(0), 0, TIPME_TS_RUNNABLE, 120, 0, 120);
	scen_switch(s, 1, MS(50), 0, TIPME_TS_RUNNABLE, 120, 0, 120);
	scen_switch(s, 1, MS(60), 800, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 0, MS(100), 0, TIPME_TS_RUNNABLE, 120, 0, 120);
	return save(s, "streams");
}

/*
 * --x on an incident: the lock scenario's kernel dump, and an X dump in
 * which the server (pid 501, which runs 90.1 ms of [10, 100.1] ms) serves
 * 500 (app: a 10 ms PolyFillRectangle and a 5 ms GetInputFocus round trip)
 * and 502 (other: a 10 ms PutImage).
 */
static void xtables(void)
{
	struct tipme_x11_rec rec[] = {
		{ .time_ns = MS(20), .client = 1, .kind = TIPME_X11_REQUEST, .major = 70,
		  .seq = 1, .length = 20, .op_size = 2500 },
		{ .time_ns = MS(30), .client = 2, .kind = TIPME_X11_REQUEST, .major = 72,
		  .seq = 1, .length = 1000, .op_size = 400 },
		{ .time_ns = MS(40), .client = 1, .kind = TIPME_X11_REQUEST, .major = 43,
		  .seq = 2, .length = 4 },
		{ .time_ns = MS(45), .client = 1, .kind = TIPME_X11_REPLY, .major = 43,
		  .flags = TIPME_X11_REC_MATCHED, .seq = 2, .length = 32 },
	};
	struct tipme_x11_client cl[] = {
		{ .id = 0, .pid = 501, .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = 500, .comm = "app" },
		{ .id = 2, .pid = 502, .comm = "other" },
	};
	struct tm_xdump_content c = { .recs = rec, .nrecs = 4, .cl = cl, .ncl = 3 };
	char inc[120], path[200], out[160], err[160], cmd[300], *argv[10], *text, *json;
	struct tm_err e = { "" };
	uint8_t *buf;
	size_t len;
	int ret;

	snprintf(inc, sizeof(inc), "%s/xinc", dir);
	mkdir(inc, 0700);
	snprintf(cmd, sizeof(cmd), "cp %s/lock.dump %s/kernel.dump", dir, inc);
	snprintf(path, sizeof(path), "%s/xhook.dump", inc);
	if (system(cmd) || tm_xdump_build(&c, &buf, &len) || tm_write_file_new(path, buf, len, &e)) {
		tap_ok(0, "--x: an incident with both dumps");
		tap_ok(0, "--x: JSON");
		return;
	}
	free(buf);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	argv[0] = "report";
	argv[1] = "--x";
	argv[2] = "--pid";
	argv[3] = "500";
	argv[4] = "--from";
	argv[5] = "0.010";
	argv[6] = "--to";
	argv[7] = "0.1001";
	argv[8] = inc;
	argv[9] = NULL;
	ret = capture_run(pm_cmd_report, 9, argv, out, err);
	text = capture_slurp(ret ? err : out);
	tap_ok(!ret && strstr(text, "X server (pid 501): ran 90.1 ms of the 90.1 ms interval") &&
	       strstr(text, "500 (app)                       2         24       15.0       54.1        1        5.0        5.0") &&
	       strstr(text, "502 (other)                     1       1000       10.0       36.0        0        0.0        0.0") &&
	       strstr(text, "PolyFillRectangle                   1         20       2500       10.0"),
	       "--x: the server ran 90.1 ms; app 15 ms of requests (54.1 ms of the run) and "
	       "a 5 ms round trip, other 10 ms (36.0 ms)");
	if (ret || !strstr(text, "54.1"))
		tap_diag("%s", text);
	free(text);
	argv[1] = "--json";
	argv[2] = "--x";
	argv[3] = "--pid";
	argv[4] = "500";
	argv[5] = "--from";
	argv[6] = "0.010";
	argv[7] = "--to";
	argv[8] = "0.1001";
	argv[9] = inc;
	{
		char *av[11];

		memcpy(av, argv, sizeof(argv));
		av[10] = NULL;
		ret = capture_run(pm_cmd_report, 10, av, out, err);
	}
	json = capture_slurp(ret ? err : out);
	tap_ok(!ret && strstr(json, "\"x\":{\"from_mono_ns\":10000000,\"to_mono_ns\":100100000,\"server_pid\":501,") &&
	       strstr(json, "{\"client\":1,\"pid\":500,\"comm\":\"app\",\"requests\":2,\"bytes\":24,\"server_ms\":15,"),
	       "--x: the same tables in the report's JSON, under \"x\"");
	if (ret || !strstr(json, "\"server_pid\":501"))
		tap_diag("%s", json);
	free(json);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", inc);
	if (system(cmd))
		tap_diag("could not remove %s", inc);
}

/* The X dump @c as @file of the incident @inc, handed in by @uid. */
static int hand_in(const char *inc, const char *file, uint32_t uid,
		   const struct tm_xdump_content *c)
{
	struct tm_incident_handin h = { .uid = uid, .pid = 40 + uid % 10,
					.exe = "/usr/bin/tipme-xhook" };
	struct tm_err e = { "" };
	char path[240];
	uint8_t *buf;
	size_t len;
	int fd, err;

	snprintf(h.file, sizeof(h.file), "%s", file);
	snprintf(path, sizeof(path), "%s/%s", inc, file);
	if (tm_xdump_build(c, &buf, &len))
		return -1;
	h.bytes = len;
	err = tm_write_file_new(path, buf, len, &e);
	free(buf);
	fd = open(inc, O_RDONLY | O_DIRECTORY);
	if (!err)
		err = fd < 0 ? -1 : tm_incident_meta_add_handin(fd, &h, &e);
	if (fd >= 0)
		close(fd);
	return err;
}

/* A new meta.json in @inc: a hotkey trigger asked for by @requester (-1:
 * nobody). */
static int new_meta(const char *inc, long requester)
{
	struct tm_incident_meta m = { .number = 1, .seq = 1, .source = "user",
				      .utc = "2026-11-25T10:00:00Z",
				      .has_requester = requester >= 0,
				      .requester_uid = (uint32_t)(requester >= 0 ? requester : 0) };
	struct tm_err e = { "" };
	char path[240];
	int fd, err;

	snprintf(path, sizeof(path), "%s/meta.json", inc);
	unlink(path);
	fd = open(inc, O_RDONLY | O_DIRECTORY);
	err = fd < 0 ? -1 : tm_incident_meta_write(fd, &m, &e);
	if (fd >= 0)
		close(fd);
	return err;
}

/* meta.json again: asked for by @requester, X dumps from @a then @b. */
static int remeta(const char *inc, long requester, uint32_t a, uint32_t b)
{
	struct tm_incident_handin h = { .exe = "/usr/bin/tipme-xhook" };
	struct tm_err e = { "" };
	int fd, err, i;

	if (new_meta(inc, requester))
		return -1;
	fd = open(inc, O_RDONLY | O_DIRECTORY);
	err = fd < 0;
	for (i = 0; i < 2 && !err; i++) {
		h.uid = i ? b : a;
		h.pid = 40 + h.uid % 10;
		snprintf(h.file, sizeof(h.file), "xhook-%u.dump", (unsigned int)h.uid);
		err = tm_incident_meta_add_handin(fd, &h, &e);
	}
	if (fd >= 0)
		close(fd);
	return err;
}

/*
 * Two users handed in X dumps to one incident: 1000's, whose clients are
 * app (500) and other (502), and 1001's, which names a client 777.  The
 * report reads the X dump of the user whose session the incident is
 * about, and says which and why.
 */
static void xchoice(void)
{
	struct tipme_x11_rec rec[] = {
		{ .time_ns = MS(20), .client = 1, .kind = TIPME_X11_REQUEST, .major = 70,
		  .seq = 1, .length = 20, .op_size = 2500 },
	};
	struct tipme_x11_client cl[] = {
		{ .id = 0, .pid = 501, .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = 500, .comm = "app" },
		{ .id = 2, .pid = 502, .comm = "other" },
	}, cl2[] = {
		{ .id = 0, .pid = 501, .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = 777, .comm = "forged" },
	};
	struct tm_xdump_content c = { .recs = rec, .nrecs = 1, .cl = cl, .ncl = 3 };
	struct tm_xdump_content c2 = { .recs = rec, .nrecs = 1, .cl = cl2, .ncl = 2 };
	char inc[120], out[160], err[160], cmd[300], *text;
	char *argv[] = { "report", "--json", "--x", "--pid", "500", "--from", "0.010",
			 "--to", "0.1001", inc, NULL };
	int ret;

	snprintf(inc, sizeof(inc), "%s/xchoice", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	mkdir(inc, 0700);
	snprintf(cmd, sizeof(cmd), "cp %s/lock.dump %s/kernel.dump", dir, inc);
	if (system(cmd) || new_meta(inc, 1000) ||
	    hand_in(inc, "xhook-1000.dump", 1000, &c) ||
	    hand_in(inc, "xhook-1001.dump", 1001, &c2)) {
		tap_ok(0, "an incident with two users' X dumps");
		return;
	}
	ret = capture_run(pm_cmd_report, 10, argv, out, err);
	text = capture_slurp(ret ? err : out);
	tap_ok(!ret && strstr(text, "\"x_dump\":{\"file\":\"xhook-1000.dump\",\"chosen_by\":\"requester_uid\","
			       "\"session_uid\":1000,\"uploader\":{\"uid\":1000,\"pid\":40,"
			       "\"exe\":\"/usr/bin/tipme-xhook\"}") &&
	       strstr(text, "\"pid\":500,\"comm\":\"app\"") && !strstr(text, "forged"),
	       "two users' X dumps: the report reads that of the user who asked (1000), "
	       "and says so");
	if (ret || !strstr(text, "xhook-1000.dump"))
		tap_diag("%s", text);
	free(text);
	argv[1] = "--x";
	argv[2] = "--pid";
	argv[3] = "500";
	argv[4] = "--from";
	argv[5] = "0.010";
	argv[6] = "--to";
	argv[7] = "0.1001";
	argv[8] = inc;
	argv[9] = NULL;
	ret = capture_run(pm_cmd_report, 9, argv, out, err);
	text = capture_slurp(ret ? err : out);
	tap_ok(!ret && strstr(text, "x dump:   xhook-1000.dump, handed in by uid 1000 (pid 40, "
			       "/usr/bin/tipme-xhook): the session of uid 1000, which asked for "
			       "the trigger\n"),
	       "... in its text too");
	if (ret || !strstr(text, "x dump:"))
		tap_diag("%s", text);
	free(text);

	/* another member asked: their own X dump, never 1000's */
	argv[1] = "--json";
	argv[2] = "--x";
	argv[3] = "--pid";
	argv[4] = "500";
	argv[5] = "--from";
	argv[6] = "0.010";
	argv[7] = "--to";
	argv[8] = "0.1001";
	argv[9] = inc;
	ret = remeta(inc, 1001, 1000, 1001) ? 1 : capture_run(pm_cmd_report, 10, argv, out, err);
	text = capture_slurp(ret ? err : out);
	tap_ok(!ret && strstr(text, "\"file\":\"xhook-1001.dump\",\"chosen_by\":\"requester_uid\","
			       "\"session_uid\":1001") && strstr(text, "forged"),
	       "uid 1001 asked: its own X dump, not 1000's");
	free(text);
	{
		char *xa[] = { "xrecords", inc, NULL };

		ret = capture_run(pm_cmd_xrecords, 2, xa, out, err);
		text = capture_slurp(ret ? err : out);
		tap_ok(!ret && strstr(text, "forged"),
		       "tipme xrecords INCIDENT prints the same user's X dump");
		if (ret || !strstr(text, "forged"))
			tap_diag("%s", text);
		free(text);
	}
	/* nobody asked (the hotkey): the X dump whose clients include the
	 * process the interval is about, whichever was handed in first */
	ret = remeta(inc, -1, 1001, 1000) ? 1 : capture_run(pm_cmd_report, 10, argv, out, err);
	text = capture_slurp(ret ? err : out);
	tap_ok(!ret && strstr(text, "\"file\":\"xhook-1000.dump\",\"chosen_by\":\"client_pid\"") &&
	       !strstr(text, "forged"),
	       "nobody named: of several X dumps, the one whose clients include pid 500");
	if (ret || !strstr(text, "client_pid"))
		tap_diag("%s", text);
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", inc);
	if (system(cmd))
		tap_diag("could not remove %s", inc);
}

/*
 * An incident directory @name: the scenario as kernel.dump, @c as
 * xhook.dump.
 */
static int save_incident(struct scen *s, const char *name,
			 const struct tm_xdump_content *c)
{
	char inc[120], path[200];
	struct tm_err e = { "" };
	uint8_t *buf;
	size_t len;
	int ret;

	snprintf(inc, sizeof(inc), "%s/%s", dir, name);
	mkdir(inc, 0700);
	snprintf(path, sizeof(path), "%s/kernel.dump", inc);
	ret = scen_write(s, path);
	snprintf(path, sizeof(path), "%s/xhook.dump", inc);
	if (ret || tm_xdump_build(c, &buf, &len))
		return 1;
	ret = tm_write_file_new(path, buf, len, &e);
	free(buf);
	return ret;
}

/*
 * app (1000) and the X server (1001) asleep in poll(); a key press at
 * 5 ms wakes the server, which wakes app at 5.2 ms.
 */
static void xpress_build(struct scen *s)
{
	static const char *const poll_site[] = { "do_sys_poll", NULL };

	scen_init(s, 2);
	scen_task(s, 1000, 1000, "app", "/usr/bin/app", "app", 4);
	scen_task(s, 1001, 1001, "Xorg", "/usr/lib/xorg/Xorg", "Xorg", 5);
	scen_switch(s, 0, MS(1), 1000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(1), 1000, poll_site);
	scen_switch(s, 1, MS(1), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(1), 1001, poll_site);
	scen_wake(s, 1, MS(5), 1001, 1, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 1, MS(5.05), 0, TIPME_TS_RUNNABLE, 120, 1001, 120);
	scen_wake(s, 1, MS(5.2), 1000, 0, 1001, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(5.3), 0, TIPME_TS_RUNNABLE, 120, 1000, 120);
}

/* The X server (1001) wakes app (1000) at @woken; app runs and waits in poll() at @waits. */
static void app_served(struct scen *s, double woken, double waits)
{
	static const char *const poll_site[] = { "do_sys_poll", NULL };

	scen_wake(s, 1, MS(woken), 1000, 0, 1001, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(woken + 0.1), 0, TIPME_TS_RUNNABLE, 120, 1000, 120);
	scen_switch(s, 0, MS(waits), 1000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(waits), 1000, poll_site);
}

/*
 * A key press (5 ms) reaches an app (1000) at once; it asks the X server
 * (1001) a question at 10 ms and waits in poll() for the reply, which comes
 * at 310 ms: the server spent the time on a flooder's (1002) drawing
 * requests, one every 10 ms.  The app draws its answer (311 ms), goes back
 * to poll() at 312 ms, and the server is done drawing at 315 ms.
 * @flip: the X server drives a display (Xorg with modesetting): the
 * vblank at 320 ms completes a flip delivered to its DRM file ("xflip").
 * @silent: as t-xreport's client ("xsilent"): after the reply (310 ms) app
 * sleeps in poll() again at 310.3 ms, and the server wakes it at 310.7 ms
 * with nothing the X dump holds (an error, the rest of a reply); app then
 * draws and does a round trip, which the server, busy, dispatches at
 * 314 ms (the reply wakes app at 314.6 ms), and goes back to poll() at
 * 315.2 ms, done; the server sleeps at 316 ms.
 */
static int xserver_scenario(struct scen *s, int flip, int silent)
{
	struct tipme_rec_vblank vb = { .seq = 20, .time_lo = (uint32_t)MS(320),
				       .flags = TIPME_VBLANK_HIGH_PREC };
	struct tipme_rec_vblank_ev ev = { .seq = 20, .file = 0x0c0ffee0, .owner = 1001 };
	static const char *const poll_site[] = { "do_sys_poll", NULL };
	struct tipme_x11_client cl[] = {
		{ .id = 0, .pid = 1001, .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = 1000, .xid_base = 0x400000, .comm = "app" },
		{ .id = 2, .pid = 1002, .xid_base = 0x600000, .comm = "flooder" },
	};
	struct tipme_x11_rec rec[40];
	struct tm_xdump_content c = { .recs = rec, .cl = cl, .ncl = 3 };
	size_t n = 0;
	int i;

	xpress_build(s);
	scen_task(s, 1002, 1002, "flooder", "/usr/bin/flooder", "flooder", 8);
	scen_switch(s, 0, MS(10), 1000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10), 1000, poll_site);
	if (silent) {
		app_served(s, 310, 310.3);
		app_served(s, 310.7, 311.2);
		app_served(s, 314.6, 315.2);
	} else {
		app_served(s, 310, 312);
	}
	scen_switch(s, 1, silent ? MS(316) : MS(315), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, silent ? MS(316) : MS(315), 1001, poll_site);
	scen_switch(s, 0, MS(320), 0, TIPME_TS_RUNNABLE, 120, 1002, 120);
	if (flip) {
		ev.who = tipme_work_who(1002, TIPME_CTX_HARDIRQ);
		scen_rec(s, 0, TIPME_REC_VBLANK, MS(320.02), &vb, sizeof(vb));
		scen_rec(s, 0, TIPME_REC_VBLANK_DELIVERED, MS(320.03), &ev, sizeof(ev));
	}
	scen_switch(s, 0, MS(325), 1002, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(325), 1002, poll_site);

	memset(rec, 0, sizeof(rec));
	rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(5), .kind = TIPME_X11_DEVICE,
		.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32 };
	rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(5), .client = 1, .kind = TIPME_X11_EVENT,
		.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32, .xid = 0x400001 };
	rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(10), .client = 1,
		.kind = TIPME_X11_REQUEST, .major = 43, .seq = 5, .length = 4 };
	for (i = 0; i < 30; i++)
		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(11 + 10 * i), .client = 2,
			.kind = TIPME_X11_REQUEST, .major = 70, .seq = 100 + i,
			.length = 20, .xid = 0x600001, .op_size = 1000000 };
	rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(310), .client = 1,
		.kind = TIPME_X11_REPLY, .major = 43, .flags = TIPME_X11_REC_MATCHED,
		.seq = 5, .length = 32 };
	rec[n++] = (struct tipme_x11_rec){ .time_ns = silent ? MS(314) : MS(311), .client = 1,
		.kind = TIPME_X11_REQUEST, .major = 70, .seq = 6, .length = 20,
		.xid = 0x400001, .op_size = 2500 };
	if (silent) {
		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(314), .client = 1,
			.kind = TIPME_X11_REQUEST, .major = 43, .seq = 7, .length = 4 };
		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(314), .client = 1,
			.kind = TIPME_X11_REPLY, .major = 43, .flags = TIPME_X11_REC_MATCHED,
			.seq = 7, .length = 32 };
	}
	c.nrecs = n;
	return save_incident(s, flip ? "xflip" : silent ? "xsilent" : "xserver", &c);
}

/*
 * A busy X server: a key press (5 ms) reaches app (1000), which draws at
 * 8 ms and goes back to poll() at 9 ms.  The server (1001) then runs the
 * requests of another client (1003), one every 10 ms from 12 ms, and
 * sleeps only at 405 ms.  The server runs one request at a time: app's
 * drawing was done when it dispatched the next one (stamped 12 ms, so
 * before 13 ms), whatever it did for the other client afterwards.  The
 * user pressed Ctrl-Alt-Plus at 7 ms (a mark).
 */
static int xbusy_scenario(struct scen *s)
{
	static const char *const poll_site[] = { "do_sys_poll", NULL };
	struct tipme_x11_client cl[] = {
		{ .id = 0, .pid = 1001, .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = 1000, .xid_base = 0x400000, .comm = "app" },
		{ .id = 2, .pid = 1003, .xid_base = 0x600000, .comm = "other" },
	};
	struct tipme_x11_rec rec[48];
	struct tm_xdump_content c = { .recs = rec, .cl = cl, .ncl = 3 };
	size_t n = 0;
	int i;

	xpress_build(s);
	scen_task(s, 1003, 1003, "other", "/usr/bin/other", "other", 6);
	scen_switch(s, 0, MS(9), 1000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(9), 1000, poll_site);
	scen_switch(s, 1, MS(405), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(405), 1001, poll_site);
	scen_switch(s, 0, MS(410), 0, TIPME_TS_RUNNABLE, 120, 0, 120);

	memset(rec, 0, sizeof(rec));
	rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(5), .kind = TIPME_X11_DEVICE,
		.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32 };
	rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(5), .client = 1, .kind = TIPME_X11_EVENT,
		.major = 2, .flags = TIPME_X11_REC_REDACTED, .length = 32, .xid = 0x400001 };
	/* the user pressed Ctrl-Alt-Plus meanwhile: a mark, drawn by timeline */
	rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(7), .kind = TIPME_X11_MARK,
		.client = TIPME_X11_CLIENT_SERVER };
	rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(8), .client = 1,
		.kind = TIPME_X11_REQUEST, .major = 70, .seq = 6, .length = 20,
		.xid = 0x400001, .op_size = 2500 };
	for (i = 0; i < 40; i++)
		rec[n++] = (struct tipme_x11_rec){ .time_ns = MS(12 + 10 * i), .client = 2,
			.kind = TIPME_X11_REQUEST, .major = 70, .seq = 100 + i,
			.length = 20, .xid = 0x600001, .op_size = 1000000 };
	c.nrecs = n;
	return save_incident(s, "xbusy", &c);
}

/*
 * A reply sent late in its round: app (1000) gets a key press at 5 ms and
 * asks for a reply at 10 ms.  The server (1001), awake from 299 ms, wakes
 * app at 304.2 ms with an event written before the reply (a
 * PropertyNotify, stamped 304 ms), writes the reply at 304.5 ms (stamped
 * 304 ms too) and sends it at the end
 * of that round of its loop, at 307 ms, after app went back to poll() at
 * 305.5 ms: the reply is stamped more than X's millisecond before that
 * sleep began, but after the server's last sleep and within a
 * millisecond of its last wakeup of app.  Both sleeps are the round trip;
 * app is done at 312 ms.  @midblock: the server also blocks inside that
 * round, reading a file (305.6 to 306.8 ms, as Xvfb does over 9p when a
 * key's keymap is compiled): no wait for clients, so no new round, and
 * the reply still ends app's second sleep (t-latency on CI: the key press
 * was "done" at its first round trip's sleep).
 */
static int xstale_scenario(struct scen *s, int midblock)
{
	static const char *const read_site[] = { "folio_wait_bit_common", "filemap_read", NULL };
	static const char *const poll_site[] = { "do_sys_poll", NULL };
	struct tipme_x11_client cl[] = {
		{ .id = 0, .pid = 1001, .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = 1000, .xid_base = 0x400000, .comm = "app" },
	};
	struct tipme_x11_rec rec[] = {
		{ .time_ns = MS(5), .kind = TIPME_X11_DEVICE, .major = 2,
		  .flags = TIPME_X11_REC_REDACTED, .length = 32 },
		{ .time_ns = MS(5), .client = 1, .kind = TIPME_X11_EVENT, .major = 2,
		  .flags = TIPME_X11_REC_REDACTED, .length = 32, .xid = 0x400001 },
		{ .time_ns = MS(10), .client = 1, .kind = TIPME_X11_REQUEST, .major = 43,
		  .seq = 5, .length = 4 },
		{ .time_ns = MS(304), .client = 1, .kind = TIPME_X11_EVENT, .major = 28,
		  .length = 32, .xid = 0x400001 },
		{ .time_ns = MS(304), .client = 1, .kind = TIPME_X11_REPLY, .major = 43,
		  .flags = TIPME_X11_REC_MATCHED, .seq = 5, .length = 32 },
	};
	struct tm_xdump_content c = { .recs = rec, .nrecs = 5, .cl = cl, .ncl = 2 };

	xpress_build(s);
	scen_switch(s, 1, MS(6), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(6), 1001, poll_site);
	scen_switch(s, 0, MS(10), 1000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10), 1000, poll_site);
	scen_wake(s, 1, MS(299), 1001, 1, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 1, MS(299.05), 0, TIPME_TS_RUNNABLE, 120, 1001, 120);
	app_served(s, 304.2, 305.5);
	if (midblock) {
		scen_switch(s, 1, MS(305.6), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
		scen_blocked(s, 1, MS(305.6), 1001, read_site);
		scen_wake(s, 1, MS(306.8), 1001, 1, 0, TIPME_CTX_HARDIRQ);
		scen_switch(s, 1, MS(306.85), 0, TIPME_TS_RUNNABLE, 120, 1001, 120);
	}
	app_served(s, 307, 312);
	scen_switch(s, 1, MS(308), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(308), 1001, poll_site);
	scen_switch(s, 0, MS(320), 0, TIPME_TS_RUNNABLE, 120, 0, 120);
	return save_incident(s, midblock ? "xstale-read" : "xstale", &c);
}

/*
 * t-latency's client with two connections: app (1000) talks to the X
 * server (1001) on connection 1 and holds a second one (2).  A key press
 * (5 ms) reaches it at 5.2 ms; it sleeps 300 ms (6 to 306 ms), draws (the
 * server dispatches that at 306 ms) and goes back to poll() at 307 ms:
 * done; the server sleeps at 308 ms.  A pointer motion (400 ms) wakes the
 * server, which wakes app at 400.5 ms with it; app sends a request on its
 * second connection at once and waits for the reply in poll() from
 * 401.05 ms; the server dispatches the request and writes the reply at
 * 401.1 ms (both stamped 401 ms, within X's millisecond of the wakeup at
 * 400.5 ms, but after it), wakes app at 401.3 ms and sleeps; app sleeps
 * 300 ms (401.5 to 701.5 ms), draws (702 ms), and waits for input at
 * 702.5 ms; the server sleeps at 703.5 ms.  The reply answered a request
 * app sent after the motion woke it: the key press is done at 307 ms,
 * not at 702.5 ms.
 */
/*
 * app (1000) sleeps 300 ms from @at, then wakes the X server (1001) with
 * a drawing request 0.5 ms later and waits for input in poll() 1 ms
 * later; the server is done and sleeps 2 ms later.
 */
static void app_sleeps_draws(struct scen *s, double at)
{
	static const char *const poll_site[] = { "do_sys_poll", NULL };

	scen_switch(s, 0, MS(at), 1000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(at), 1000, sleep_site);
	scen_wake(s, 0, MS(at + 300), 1000, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(at + 300.05), 0, TIPME_TS_RUNNABLE, 120, 1000, 120);
	scen_wake(s, 0, MS(at + 300.5), 1001, 1, 1000, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(at + 300.55), 0, TIPME_TS_RUNNABLE, 120, 1001, 120);
	scen_switch(s, 0, MS(at + 301), 1000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(at + 301), 1000, poll_site);
	scen_switch(s, 1, MS(at + 302), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(at + 302), 1001, poll_site);
}

static int xtwoconn_scenario(struct scen *s)
{
	static const char *const poll_site[] = { "do_sys_poll", NULL };
	struct tipme_x11_client cl[] = {
		{ .id = 0, .pid = 1001, .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = 1000, .xid_base = 0x400000, .comm = "app" },
		{ .id = 2, .pid = 1000, .xid_base = 0x600000, .comm = "app" },
	};
	struct tipme_x11_rec rec[] = {
		{ .time_ns = MS(5), .kind = TIPME_X11_DEVICE, .major = 2,
		  .flags = TIPME_X11_REC_REDACTED, .length = 32 },
		{ .time_ns = MS(5), .client = 1, .kind = TIPME_X11_EVENT, .major = 2,
		  .flags = TIPME_X11_REC_REDACTED, .length = 32, .xid = 0x400001 },
		{ .time_ns = MS(306), .client = 1, .kind = TIPME_X11_REQUEST, .major = 70,
		  .seq = 5, .length = 20, .xid = 0x400001, .op_size = 2500 },
		{ .time_ns = MS(400), .kind = TIPME_X11_DEVICE, .major = 6, .length = 32 },
		{ .time_ns = MS(400), .client = 1, .kind = TIPME_X11_EVENT, .major = 6,
		  .length = 32, .xid = 0x400001 },
		{ .time_ns = MS(401), .client = 2, .kind = TIPME_X11_REQUEST, .major = 36,
		  .seq = 3, .length = 4 },
		{ .time_ns = MS(401), .client = 2, .kind = TIPME_X11_REQUEST, .major = 43,
		  .seq = 4, .length = 4 },
		{ .time_ns = MS(401), .client = 2, .kind = TIPME_X11_REPLY, .major = 43,
		  .flags = TIPME_X11_REC_MATCHED, .seq = 4, .length = 32 },
		{ .time_ns = MS(702), .client = 1, .kind = TIPME_X11_REQUEST, .major = 70,
		  .seq = 6, .length = 20, .xid = 0x400001, .op_size = 2500 },
	};
	struct tm_xdump_content c = { .recs = rec, .nrecs = 9, .cl = cl, .ncl = 3 };

	xpress_build(s);
	scen_switch(s, 1, MS(5.5), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(5.5), 1001, poll_site);
	app_sleeps_draws(s, 6);
	/* the motion */
	scen_wake(s, 1, MS(400), 1001, 1, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 1, MS(400.05), 0, TIPME_TS_RUNNABLE, 120, 1001, 120);
	app_served(s, 400.5, 401.05);
	scen_wake(s, 1, MS(401.3), 1000, 0, 1001, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(401.4), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(401.4), 1001, poll_site);
	scen_switch(s, 0, MS(401.45), 0, TIPME_TS_RUNNABLE, 120, 1000, 120);
	app_sleeps_draws(s, 401.5);
	scen_switch(s, 0, MS(720), 0, TIPME_TS_RUNNABLE, 120, 0, 120);
	return save_incident(s, "xtwoconn", &c);
}

/*
 * 1100 never switches in the window: it sleeps in D from before the dump
 * until 1101 (computing on cpu 1 all along) wakes it at 50 ms.  Only the
 * sampler's entry at 5 ms says it was asleep, and in D.
 */
static int sampled_scenario(struct scen *s)
{
	struct {
		struct tipme_rec_sample h;
		struct tipme_sample_ent t;
	} sm = {
		.h = { .len = sizeof(sm), .nr = 1, .seq = 1 },
		.t = { .word = tipme_smp_word(1100, TIPME_TS_DISK, 0, 0), .tgid = 1100,
		       .prio = 120 },
	};

	scen_init(s, 2);
	scen_task(s, 1100, 1100, "sleeper", "/bin/sleeper", "sleeper", 8);
	scen_task(s, 1101, 1101, "worker", "/bin/worker", "worker", 7);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 0, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 1101, 120);
	scen_rec(s, 0, TIPME_REC_SAMPLE, MS(5), &sm, sizeof(sm));
	scen_wake(s, 1, MS(50), 1100, 0, 1101, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(50.1), 0, TIPME_TS_RUNNABLE, 120, 1100, 120);
	scen_switch(s, 0, MS(55), 1100, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 1, MS(60), 1101, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "sampled");
}

/*
 * The wakeup race: 1200 wakes 1201 at 10 ms while 1201 is still on its
 * CPU on its way to sleep (sched_waking comes first), 1201's switch-out to
 * S follows, and a hog (1202) holds that CPU for 100 ms.  1201 was
 * runnable, not asleep, all that time.  Then 1203 is woken (an interrupt)
 * on its way out of do_exit(): its switch-out is its death (X), and it
 * never runs again.
 */
static int race_scenario(struct scen *s)
{
	static const char *const pipe_site1[] = { "pipe_read", "vfs_read", NULL };

	scen_init(s, 2);
	scen_task(s, 1200, 1200, "waker", "/bin/waker", "waker", 6);
	scen_task(s, 1201, 1201, "sleeper", "/bin/sleeper", "sleeper", 8);
	scen_task(s, 1202, 1202, "hog", "/bin/hog", "hog", 4);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 1200, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 1201, 120);
	scen_wake(s, 0, MS(10), 1201, 1, 1200, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(10.002), 1201, TIPME_TS_SLEEPING, 120, 1202, 50);
	scen_blocked(s, 1, MS(10.002), 1201, pipe_site1);
	scen_switch(s, 1, MS(110), 1202, TIPME_TS_SLEEPING, 50, 1201, 120);
	scen_switch(s, 1, MS(111), 1201, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 0, MS(112), 1200, TIPME_TS_SLEEPING, 120, 1203, 120);
	scen_wake(s, 1, MS(112.5), 1203, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(113), 1203, TIPME_TS_DEAD, 120, 0, 120);
	scen_switch(s, 1, MS(200), 0, TIPME_TS_RUNNABLE, 120, 0, 120);
	return save(s, "race");
}

/*
 * The kept wakeup that did not end a sleep: 1301 wakes 1300 at 10 ms while
 * 1300 is still running its wait loop, which goes back to sleep at 10.2 ms
 * (in poll) without being off its CPU in between; 1301 wakes it again at
 * 60 ms, and it runs from 60.1 ms.  A task is only woken when asleep, so
 * the second wakeup shows it slept from 10.2 to 60 ms, not runnable.
 */
static int rewake_scenario(struct scen *s)
{
	static const char *const poll_site[] = { "do_sys_poll", "__x64_sys_poll", NULL };

	scen_init(s, 2);
	scen_task(s, 1300, 1300, "sleeper", "/bin/sleeper", "sleeper", 8);
	scen_task(s, 1301, 1301, "waker", "/bin/waker", "waker", 6);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 1301, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 1300, 120);
	scen_wake(s, 0, MS(10), 1300, 1, 1301, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(10.2), 1300, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(10.2), 1300, poll_site);
	scen_wake(s, 0, MS(60), 1300, 1, 1301, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(60.1), 0, TIPME_TS_RUNNABLE, 120, 1300, 120);
	scen_switch(s, 1, MS(61), 1300, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 0, MS(62), 1301, TIPME_TS_SLEEPING, 120, 0, 120);
	return save(s, "rewake");
}

/* The trigger record (Ctrl-Alt-Minus) at @ts on CPU 0. */
/*
 * No pid, no input: a shell (2000) waits 600 ms in a pipe read for what
 * its grandchild sed (2002, through the subshell 2001) writes, not a
 * stall; a worker (2003) is runnable 40 ms behind a spinner (2004), which
 * waits 10 ms for its CPU in turn.
 */
static int descend_scenario(struct scen *s)
{
	scen_init(s, 2);
	scen_task(s, 2000, 2000, "bash", "/bin/bash", "bash", 5);
	scen_task(s, 2001, 2001, "bash", "/bin/bash", "bash", 5);
	scen_task(s, 2002, 2002, "sed", "/bin/sed", "sed", 4);
	scen_task(s, 2003, 2003, "worker", "/bin/worker", "worker", 7);
	scen_task(s, 2004, 2004, "spin", "/bin/spin", "spin", 5);
	scen_ppid(s, 2000, 1);
	scen_ppid(s, 2001, 2000);
	scen_ppid(s, 2002, 2001);
	scen_ppid(s, 2003, 1);
	scen_ppid(s, 2004, 1);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 2000, 120);
	scen_switch(s, 0, MS(2), 2000, TIPME_TS_SLEEPING, 120, 2002, 120);
	scen_blocked(s, 0, MS(2), 2000, pipe_site);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 2004, 120);
	scen_wake(s, 1, MS(100), 2003, 1, 2004, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(140), 2004, TIPME_TS_RUNNABLE, 120, 2003, 120);
	scen_switch(s, 1, MS(150), 2003, TIPME_TS_SLEEPING, 120, 2004, 120);
	scen_switch(s, 1, MS(200), 2004, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_wake(s, 0, MS(602), 2000, 0, 2002, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(602.1), 2002, TIPME_TS_DEAD, 120, 2000, 120);
	scen_switch(s, 0, MS(610), 2000, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_trigger(s, MS(700));
	return save(s, "descend");
}

/*
 * No pid, no input in the 2 s before the trigger (8.5 s): an app (2100)
 * that read a key press at 1 s is runnable 300 ms behind a SCHED_FIFO hog
 * (2101) at 8 s; cc (2102) sleeps 600 ms in D while make (2103), its
 * parent, waits for it.  A bystander woken next to a key press is no
 * reader of it (below).  @desc: the incident directory's description.
 */
static int interactive_scenario(struct scen *s, const char *name, const char *desc)
{
	static const char *const poll_site[] = { "do_sys_poll", NULL };
	static const char *const wait_site[] = { "do_wait", NULL };
	static const char *const io_site[] = { "io_schedule", "folio_wait_bit_common", NULL };
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 3 };
	char path[200];
	FILE *f;

	scen_init(s, 2);
	scen_task(s, 2100, 2100, "app", "/usr/bin/app", "app", 4);
	scen_task(s, 2101, 2101, "hog", "/bin/hog", "hog", 4);
	scen_task(s, 2102, 2102, "cc", "/usr/bin/cc", "cc", 3);
	scen_task(s, 2103, 2103, "make", "/usr/bin/make", "make", 5);
	scen_task(s, 2104, 2104, "sed", "/bin/sed", "sed", 4);
	scen_ppid(s, 2100, 1);
	scen_ppid(s, 2101, 1);
	scen_ppid(s, 2102, 2103);
	scen_ppid(s, 2103, 1);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 2100, 120);
	scen_switch(s, 0, MS(2), 2100, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(2), 2100, poll_site);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 2103, 120);
	scen_switch(s, 1, MS(2), 2103, TIPME_TS_SLEEPING, 120, 2102, 120);
	scen_blocked(s, 1, MS(2), 2103, wait_site);
	scen_switch(s, 0, MS(3), 0, TIPME_TS_RUNNABLE, 120, 2104, 120);
	scen_switch(s, 0, MS(4), 2104, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(4), 2104, pipe_site);
	scen_rec(s, 0, TIPME_REC_INPUT, MS(1000), &in, sizeof(in));
	scen_wake(s, 0, MS(1000.02), 2100, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(1000.1), 0, TIPME_TS_RUNNABLE, 120, 2100, 120);
	scen_switch(s, 0, MS(1005), 2100, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(1005), 2100, poll_site);
	/* a sed woken from a pipe read next to a key press: no reader of it */
	scen_rec(s, 1, TIPME_REC_INPUT, MS(5000), &in, sizeof(in));
	scen_wake(s, 1, MS(5000.3), 2104, 1, 2102, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(5400), 2102, TIPME_TS_RUNNABLE, 120, 2104, 120);
	scen_switch(s, 1, MS(5401), 2104, TIPME_TS_SLEEPING, 120, 2102, 120);
	scen_switch(s, 1, MS(7000), 2102, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 1, MS(7000), 2102, io_site);
	scen_wake(s, 1, MS(7600), 2102, 1, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 1, MS(7600.1), 0, TIPME_TS_RUNNABLE, 120, 2102, 120);
	scen_wake(s, 1, MS(7700), 2103, 1, 2102, TIPME_CTX_TASK);
	scen_switch(s, 1, MS(7700.1), 2102, TIPME_TS_DEAD, 120, 2103, 120);
	scen_switch(s, 1, MS(7710), 2103, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(7710), 2103, poll_site);
	scen_switch(s, 0, MS(7990), 0, TIPME_TS_RUNNABLE, 120, 2101, 50);
	scen_wake(s, 0, MS(8000), 2100, 0, 2101, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, MS(8300), 2101, TIPME_TS_SLEEPING, 50, 2100, 120);
	scen_switch(s, 0, MS(8310), 2100, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(8310), 2100, poll_site);
	/* the chord's key wakes make from poll just before the trigger: no reader */
	scen_rec(s, 1, TIPME_REC_INPUT, MS(8499.9), &in, sizeof(in));
	scen_wake(s, 1, MS(8499.95), 2103, 1, 0, TIPME_CTX_HARDIRQ);
	scen_trigger(s, MS(8500));
	if (!desc)
		return save(s, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/description.txt", dir, name);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%s\n", desc) < 0 || fclose(f))
		return -1;
	snprintf(path, sizeof(path), "%s/%s/kernel.dump", dir, name);
	return scen_write(s, path);
}

/*
 * A stall 4 s before the trigger (5.3 s): a victim (2200) waits 250 ms in
 * a pipe read for a server (2201) that computes; 0.4 s before the trigger
 * a sleeper (2202) waits 7 ms in D, the only stall of the last 2 s.
 */
static int early_scenario(struct scen *s)
{
	static const char *const poll_site[] = { "do_sys_poll", NULL };
	static const char *const io_site[] = { "io_schedule", "folio_wait_bit_common", NULL };

	scen_init(s, 2);
	scen_task(s, 2200, 2200, "victim", "/bin/victim", "victim", 7);
	scen_task(s, 2201, 2201, "server", "/bin/server", "server", 7);
	scen_task(s, 2202, 2202, "sleep", "/bin/sleep", "sleep", 6);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 2200, 120);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 2201, 120);
	scen_switch(s, 0, MS(1000), 2200, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(1000), 2200, pipe_site);
	scen_wake(s, 1, MS(1250), 2200, 0, 2201, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(1250.1), 0, TIPME_TS_RUNNABLE, 120, 2200, 120);
	scen_switch(s, 1, MS(1255), 2201, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 1, MS(1255), 2201, poll_site);
	scen_switch(s, 0, MS(1260), 2200, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(1260), 2200, poll_site);
	scen_switch(s, 1, MS(4800), 0, TIPME_TS_RUNNABLE, 120, 2202, 120);
	scen_switch(s, 1, MS(4900), 2202, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 1, MS(4900), 2202, io_site);
	scen_wake(s, 1, MS(4907), 2202, 1, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 1, MS(4907.1), 0, TIPME_TS_RUNNABLE, 120, 2202, 120);
	scen_switch(s, 1, MS(4910), 2202, TIPME_TS_DEAD, 120, 0, 120);
	scen_trigger(s, MS(5300));
	return save(s, "early");
}

/*
 * No pid and no input: the stalls ranked.  A shell waiting for its
 * grandchild is no candidate; an interactive thread's 300 ms behind a hog
 * ranks above a compiler's 600 ms in D; a process the description names
 * ranks first; a stall 4 s before the trigger is found.
 */
static void ranking_tests(void)
{
	char *out;
	int ret;

	check("descend", "", "cpu_contention", 2004, 99,
	      "no pid, no input: a worker runnable behind a spinner, not a shell waiting for sed");
	out = report("descend", "", 1, &ret);
	tap_ok(!ret && strstr(out, "\"chosen_by\":\"ranked_stall\"") &&
	       strstr(out, "\"candidates\":[{\"interval\":{\"pid\":2003,") &&
	       !strstr(out, "\"pid\":2000,"),
	       "the shell's 600 ms wait for its grandchild is no candidate at all");
	free(out);
	check("interactive", "", "cpu_contention", 2101, 99,
	      "no pid, no input in 2 s: the app that read a key, 300 ms behind a FIFO hog");
	out = report("interactive", "", 1, &ret);
	tap_ok(!ret && strstr(out, "\"interval\":{\"pid\":2100,\"comm\":\"app\","
			       "\"from_mono_ns\":8000000000,\"to_mono_ns\":8300000000,") &&
	       strstr(out, "\"why\":{\"rank\":\"interactive\",\"signals\":[\"input\"]") &&
	       strstr(out, "{\"interval\":{\"pid\":2102,\"comm\":\"cc\",") &&
	       strstr(out, "\"why\":{\"rank\":\"batch\",\"signals\":[\"waited_for\"],"
			   "\"waited_for_by\":{\"pid\":2103,"),
	       "the app (interactive: it got input) above cc's longer 600 ms (batch: make waited)");
	free(out);
	check("hinted", "", "unknown", 0, 99,
	      "the description names cc: its 600 ms in D ranks first");
	out = report("hinted", "", 1, &ret);
	tap_ok(!ret && strstr(out, "\"description\":\"cc is slow when I build\"") &&
	       strstr(out, "\"candidates\":[{\"interval\":{\"pid\":2102,") &&
	       strstr(out, "\"rank\":\"named\",\"signals\":[\"description\","),
	       "the description is shown, and the process it names is the first candidate");
	free(out);
	check("early", "", "running", 2201, 95,
	      "a stall 4 s before the trigger, found by the 10 s search");
	out = report("early", "", 1, &ret);
	tap_ok(!ret && strstr(out, "\"interval\":{\"pid\":2200,\"comm\":\"victim\","
			       "\"from_mono_ns\":1000000000,\"to_mono_ns\":1250000000,"),
	       "the victim's 250 ms at 1 s, not the 7 ms wait 0.4 s before the trigger");
	free(out);
}

/*
 * Subcommand @fn (argv[0] @args' first word) on scenario @name (a dump, or
 * an incident directory): stdout, or stderr when it failed.
 */
static char *run_on(int (*fn)(int, char **), const char *name, const char *args, int *ret)
{
	char dump[160], out[160], err[160], buf[512], *argv[16], *tok, *save = NULL;
	struct stat sb;
	int argc = 0;

	snprintf(dump, sizeof(dump), "%s/%s", dir, name);
	if (stat(dump, &sb) || !S_ISDIR(sb.st_mode))
		snprintf(dump, sizeof(dump), "%s/%s.dump", dir, name);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(buf, sizeof(buf), "%s", args);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 14;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc++] = dump;
	argv[argc] = NULL;
	*ret = capture_run(fn, argc, argv, out, err);
	return capture_slurp(*ret ? err : out);
}

/*
 * --comm and --window-title instead of --pid, the same for the six
 * commands that take a thread: the exact name, else the one name that
 * contains it; an error listing the matches when several do or none does.
 */
static void who_tests(void)
{
	char args[300], *t;
	int ret;

	t = run_on(pm_cmd_report, "descend", "report --comm bash", &ret);
	tap_ok(ret == 1 && strstr(t, "tipme report: --comm 'bash' is ambiguous: 2 threads are "
			   "named so: 2000 (bash), 2001 (bash); name one with --pid"),
	       "report --comm bash: two processes of that name, an error that lists both");
	free(t);
	t = run_on(pm_cmd_why, "descend", "why --comm e", &ret);
	tap_ok(ret == 1 && strstr(t, "tipme why: --comm 'e' is ambiguous: 2 threads have it in "
			   "their names: 2002 (sed), 2003 (worker); name one with --pid"),
	       "why --comm e: no exact name, two that contain it: an error that lists them");
	free(t);
	t = run_on(pm_cmd_why, "descend", "why --comm nosuch", &ret);
	tap_ok(ret == 1 && strstr(t, "tipme why: --comm: no process or thread in the dump is "
			   "named 'nosuch' or has it in its name"),
	       "why --comm nosuch: none, a clear error");
	free(t);
	t = run_on(pm_cmd_why, "descend", "why --json --comm wor --from 0.1 --to 0.14", &ret);
	tap_ok(ret == 0 && strstr(t, "\"pid\":2003,"),
	       "why --comm wor: the one name containing it, worker (2003)");
	free(t);
	t = run_on(pm_cmd_records, "descend", "records --json --type sched_waking --comm sed", &ret);
	tap_ok(ret == 0 && strstr(t, "\"waker\":2002") && !strstr(t, "\"pid\":2003"),
	       "records --comm sed: the records of sed (2002) only");
	free(t);
	t = run_on(pm_cmd_report, "interactive", "report --json --comm app --from 8 --to 8.3", &ret);
	tap_ok(ret == 0 && strstr(t, "\"interval\":{\"pid\":2100,\"comm\":\"app\","
			   "\"from_mono_ns\":8000000000,\"to_mono_ns\":8300000000,\"chosen_by\":\"pid\""),
	       "report --comm app --from --to: as --pid 2100");
	free(t);
	snprintf(args, sizeof(args), "timeline --json -o %s/who.svg --comm hog", dir);
	t = run_on(pm_cmd_timeline, "interactive", args, &ret);
	tap_ok(ret == 0 && strstr(t, "\"thread_lanes\":[2101]"),
	       "timeline --comm hog: the hog's lane");
	free(t);
	snprintf(args, sizeof(args), "export --json --perfetto -o %s/who.json --comm make", dir);
	t = run_on(pm_cmd_export, "interactive", args, &ret);
	tap_ok(ret == 0 && strstr(t, "\"verdict\":true"), "export --comm make: its verdict marked");
	free(t);
	t = run_on(pm_cmd_latency, "xserver", "latency --json --comm app", &ret);
	tap_ok(ret == 0 && strstr(t, "\"pid\": 1000,"), "latency --comm app: the app's press");
	free(t);
	t = run_on(pm_cmd_latency, "xserver", "latency --comm flood", &ret);
	tap_ok(ret == 0 && strstr(t, "(no press)"),
	       "latency --comm flood: the flooder received none");
	free(t);
	t = run_on(pm_cmd_report, "xserver", "report --window-title Editor", &ret);
	tap_ok(ret == 1 && strstr(t, "tipme report: --window-title: this X dump records no window "
			   "titles (tipme-xhook does not capture them); name the process with "
			   "--comm or --pid"),
	       "report --window-title with an X dump: it has no titles, said so");
	free(t);
	t = run_on(pm_cmd_why, "descend", "why --window-title Editor", &ret);
	tap_ok(ret == 1 && strstr(t, "tipme why: --window-title needs the incident's X dump "
			   "(tipme-xhook's xhook.dump), and this one has none"),
	       "why --window-title without an X dump: said so");
	free(t);
	t = run_on(pm_cmd_report, "descend", "report --pid 2003 --comm worker", &ret);
	tap_ok(ret == 2 && strstr(t, "give one"), "report --pid and --comm: usage error");
	free(t);
}

/* tipme latency's JSON for incident @name. */
static char *latency_json(const char *name)
{
	char inc[120], out[160], err[160];
	char *argv[] = { "latency", "--json", inc, NULL };
	int ret;

	snprintf(inc, sizeof(inc), "%s/%s", dir, name);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	ret = capture_run(pm_cmd_latency, 3, argv, out, err);
	return capture_slurp(ret ? err : out);
}

/*
 * tipme export --perfetto on the xserver incident: the file is what the
 * golden file holds, and the checker (tests/lib/check_perfetto.py) reads
 * it as the viewers will.
 */
static void export_xserver(void)
{
	char inc[120], file[160], out[160], err[160], cmd[400], *text, *p, *q;
	char *argv[] = { "export", "--perfetto", "--uncompressed", "-o", file, inc, NULL };
	int ret;

	snprintf(inc, sizeof(inc), "%s/xserver", dir);
	snprintf(file, sizeof(file), "%s/xserver.trace.json", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	ret = capture_run(pm_cmd_export, 6, argv, out, err);
	text = capture_slurp(ret ? err : file);
	while ((p = strstr(text, dir))) {	/* DIR for the scratch directory */
		q = p + strlen(dir);
		memcpy(p, "DIR", 3);
		memmove(p + 3, q, strlen(q) + 1);
	}
	tap_ok(!ret && golden("xserver-perfetto", "json", text),
	       "export --perfetto: the trace as golden");
	free(text);
	snprintf(cmd, sizeof(cmd),
		 "python3 tests/lib/check_perfetto.py %s --threads app,Xorg,flooder "
		 "--switches 10 --verdict 1000 --x-requests > %s/perfetto.tap 2>&1", file, dir);
	ret = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/perfetto.tap", dir);
	text = capture_slurp(cmd);
	tap_ok(ret == 0, "export --perfetto: the viewers' shape (check_perfetto.py)");
	if (ret)
		tap_diag("%s", text);
	free(text);
}

/* tipme timeline on the xbusy incident: the mark (Ctrl-Alt-Plus) at 7 ms. */
static void timeline_mark(void)
{
	char inc[120], file[160], out[160], err[160], cmd[600], *text, *json;
	char *argv[] = { "timeline", "--json", "-o", file, inc, NULL };
	int ret;

	snprintf(inc, sizeof(inc), "%s/xbusy", dir);
	snprintf(file, sizeof(file), "%s/xbusy.svg", dir);
	snprintf(out, sizeof(out), "%s/xbusy-timeline.json", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	ret = capture_run(pm_cmd_timeline, 5, argv, out, err);
	json = capture_slurp(out);
	snprintf(cmd, sizeof(cmd),
		 "python3 tests/lib/check_timeline.py %s --times %s --mark 7000000 "
		 "> %s/timeline-mark.tap 2>&1", file, out, dir);
	if (!ret)
		ret = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/timeline-mark.tap", dir);
	text = capture_slurp(cmd);
	tap_ok(ret == 0 && strstr(json, "\"marks\":1}"),
	       "timeline: the X dump's mark (Ctrl-Alt-Plus) as a flag on the input lane; "
	       "--json counts it");
	if (ret || !strstr(json, "\"marks\":1}"))
		tap_diag("%s%s", json, text);
	free(json);
	free(text);
}

/*
 * tipme timeline on the cpu scenario, its three threads over 0 .. 310 ms:
 * the wakeup arrows where victim woke the server (2 ms, ending its 1.5 ms
 * sleep) and the server woke victim (302.5 ms), each from the waker's lane
 * to the woken one's; the priority line at the hog's FIFO priority (kernel
 * prio 50) and at the others' 120.
 */
static void timeline_cpu(void)
{
	char dump[120], file[160], out[160], err[160], cmd[900], *text;
	char *argv[] = { "timeline", "--json", "-o", file, "--pid", "100,101,102",
			 "--from", "0", "--to", "0.31", dump, NULL };
	int ret;

	snprintf(dump, sizeof(dump), "%s/cpu.dump", dir);
	snprintf(file, sizeof(file), "%s/cpu.svg", dir);
	snprintf(out, sizeof(out), "%s/cpu-timeline.json", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	ret = capture_run(pm_cmd_timeline, 11, argv, out, err);
	snprintf(cmd, sizeof(cmd),
		 "python3 tests/lib/check_timeline.py %s --times %s "
		 "--lanes 'cpu 0,cpu 1,100 victim,101 server,102 hog' "
		 "--wakeup 100,101,2000000 --wakeup 101,100,302500000 "
		 "--prio 102,50,100000000 --prio 100,120,305000000 --prio 101,120,302700000 "
		 "> %s/timeline-cpu.tap 2>&1", file, out, dir);
	if (!ret)
		ret = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/timeline-cpu.tap", dir);
	text = capture_slurp(cmd);
	tap_ok(ret == 0, "timeline: wakeup arrows between the lanes where one woke the other, "
	       "and the priority line at the priority each ran at (the hog's FIFO 50, 120)");
	if (ret)
		tap_diag("%s", text);
	free(text);
}

/*
 * tipme timeline on the xserver incident: lanes for both CPUs, then the
 * app, the X server and the flooder (tipme report's chain and culprit),
 * the app waiting for the X server and the server running, rendered by
 * rsvg-convert (tests/lib/check_timeline.py).
 */
static void timeline_xserver(void)
{
	char inc[120], file[160], png[160], out[160], err[160], cmd[600], *text;
	char *argv[] = { "timeline", "-o", file, inc, NULL };
	int ret;

	snprintf(inc, sizeof(inc), "%s/xserver", dir);
	snprintf(file, sizeof(file), "%s/xserver.svg", dir);
	snprintf(png, sizeof(png), "%s/xserver.png", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	ret = capture_run(pm_cmd_timeline, 4, argv, out, err);
	snprintf(cmd, sizeof(cmd),
		 "python3 tests/lib/check_timeline.py %s --png %s "
		 "--lanes 'cpu 0,cpu 1,1000 app,1001 Xorg,1002 flooder' "
		 "--classes 'running,waiting for the X server,idle' > %s/timeline.tap 2>&1",
		 file, png, dir);
	if (!ret)
		ret = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/timeline.tap", dir);
	text = capture_slurp(cmd);
	tap_ok(ret == 0, "timeline: CPU lanes, then app, Xorg, flooder; app waiting for the X server; rendered");
	if (ret)
		tap_diag("%s", text);
	free(text);
}

/* tipme legs ARGS on scenario NAME's dump: its output, DIR for the scratch directory. */
static char *legs(const char *name, const char *args, int *ret)
{
	char dump[160], out[160], err[160], buf[256], *argv[16], *tok, *save = NULL;
	int argc = 0;

	snprintf(dump, sizeof(dump), "%s/%s.dump", dir, name);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(buf, sizeof(buf), "legs %s", args);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 14; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc++] = dump;
	argv[argc] = NULL;
	*ret = capture_run(pm_cmd_legs, argc, argv, out, err);
	return capture_slurp(*ret ? err : out);
}

/*
 * tipme legs on the cpu scenario (scheduling delay: the server woken at
 * 2 ms waits 300 ms for its CPU, the others 0.1 ms) and the blkio one (a
 * request queued 4 ms; in the device 20 and 16 ms).
 */
static void legs_tests(void)
{
	char *t;
	int ret;

	t = legs("cpu", "--from waking --to switch-in", &ret);
	tap_ok(!ret && golden("legs-cpu", "txt", t), "legs waking -> switch-in: text as golden");
	free(t);
	t = legs("cpu", "--json --from waking --to switch-in", &ret);
	tap_ok(!ret && golden("legs-cpu", "json", t) &&
	       strstr(t, "{\"pid\":101,\"comm\":\"server\",\"count\":1,\"total_ms\":300,") &&
	       strstr(t, "\"max_ms\":300}") && strstr(t, "\"overflow\":1}"),
	       "legs JSON: the server waited 300 ms for its CPU, in the overflow bucket; as golden");
	free(t);
	t = legs("blkio", "--json --from blk-issue --to blk-complete --hist log2", &ret);
	tap_ok(!ret && strstr(t, "\"all\":{\"count\":2,\"total_ms\":36,") &&
	       strstr(t, "{\"pid\":400,\"comm\":\"fsyncer\",\"count\":2,"),
	       "legs blk-issue -> blk-complete: 20 and 16 ms, owned by the task that queued them");
	if (ret || !strstr(t, "\"total_ms\":36,"))
		tap_diag("%s", t);
	free(t);
	t = legs("blkio", "--json --from blk-insert --to blk-issue", &ret);
	tap_ok(!ret && strstr(t, "\"all\":{\"count\":1,\"total_ms\":4,"),
	       "legs blk-insert -> blk-issue: the one queued request, 4 ms");
	free(t);
	{
		char cmd[400], svg[160], args[220];

		snprintf(svg, sizeof(svg), "%s/legs.svg", dir);
		snprintf(args, sizeof(args), "--svg %s --from waking --to switch-in", svg);
		t = legs("cpu", args, &ret);
		free(t);
		snprintf(cmd, sizeof(cmd),
			 "python3 -c 'import sys, xml.etree.ElementTree as E; "
			 "r = E.parse(sys.argv[1]).getroot(); "
			 "b = [x.get(\"fill\") for x in r.iter(\"{http://www.w3.org/2000/svg}rect\")]; "
			 "sys.exit(0 if b.count(\"#1f5fa8\") == 1 and b.count(\"#c8461e\") == 1 else 1)' %s",
			 svg);
		tap_ok(!ret && !system(cmd),
		       "legs --svg: one bar for the two short legs, one red overflow bar for the 300 ms");
	}
	t = legs("cpu", "--from waking --to waking", &ret);
	tap_ok(ret == 2, "legs from an event to the same event: usage error");
	free(t);
}

/* Every scenario, for its golden state (golden/state-*.txt). */
static const char *const state_names[] = {
	"cpu", "timer", "stopped", "blkio", "blkirq", "blkirq-other", "lock",
	"mem", "memhigh", "sigtimed", "gap", "streams", "kinput", "kauto", "klate", "klate-broken",
	"kearly", "kearly-broken",
	"xserver", "xsilent", "xstale", "sampled", "race", "rewake", "stack-worker", "stack-irq",
	"stack-timer", "stack-loop", "stack-loop-busy", "stack-loop-fsync", "stack-loop-flush", "stack-md", "descend", "interactive", "early", "work-pool", "work-timer", "work-busy",
	"throttle", "throttle-woken",
	"fault-file", "fault-swap", "net-peer", "net-link",
};

int main(void)
{
	struct scen *s = malloc(sizeof(*s));
	size_t i;
	int ret;
	char *out, msg[256], inc[160];

	/* The same scenarios with compact records must read the same. */
	scen_compact = getenv("TIPME_SCEN_COMPACT") != NULL;
	if (scen_compact)
		tap_diag("scenarios written with compact scheduler records");
	tap_plan(266);
	snprintf(dir, sizeof(dir), "/tmp/tipme-report-XXXXXX");
	if (!s || !mkdtemp(dir))
		return 1;
	if (cpu_scenario(s, 0) || cpu_scenario(s, 1) || timer_scenario(s) || stopped_scenario(s) || forked_scenario(s) ||
	    blkio_scenario(s) || lock_scenario(s) || mem_scenario(s) || memhigh_scenario(s) ||
	    sigtimed_scenario(s) ||
	    gap_scenario(s) || streams_scenario(s) || kinput_scenario(s) ||
	    kauto_scenario(s) || klate_scenario(s, 0) || klate_scenario(s, 1) ||
	    kearly_scenario(s, 0) || kearly_scenario(s, 1) ||
	    xserver_scenario(s, 0, 0) || xserver_scenario(s, 1, 0) ||
	    xserver_scenario(s, 0, 1) || xbusy_scenario(s) || xstale_scenario(s, 0) || xstale_scenario(s, 1) || xtwoconn_scenario(s) ||
	    sampled_scenario(s) ||
	    race_scenario(s) ||
	    rewake_scenario(s) || blkirq_scenario(s, 1) || blkirq_scenario(s, 0) ||
	    stack_scenario(s, 1) || stack_scenario(s, 0) || stack_scenario(s, 2) ||
	    stack_loop_scenario(s, 0) || stack_loop_scenario(s, 1) || stack_loop_scenario(s, 2) ||
	    stack_loop_scenario(s, 3) || stack_md_scenario(s, 0) || stack_md_scenario(s, 1) ||
	    descend_scenario(s) || interactive_scenario(s, "interactive", NULL) ||
	    interactive_scenario(s, "hinted", "cc is slow when I build") ||
	    early_scenario(s) || work_scenario(s, 0) || work_scenario(s, 1) ||
	    work_busy_scenario(s) ||
	    throttle_scenario(s, "throttle") ||
	    throttle_scenario(s, "throttle-unnamed") || throttle_scenario(s, "throttle-woken") ||
	    throttle_scenario(s, "throttle-other") ||
	    fault_scenario(s, 0) || fault_scenario(s, 1) ||
	    net_scenario(s, "net-peer") || net_scenario(s, "net-link") ||
	    net_scenario(s, "net-remote") || net_scenario(s, "net-local"))
		return 1;
	compact_counts();
	check("cpu", "--pid 100 --from 0.002 --to 0.3026", "cpu_contention", 102, 99,
	      "a victim behind a starved server");
	check("cpu-setsched", "--pid 100 --from 0.002 --to 0.3026", "cpu_contention", 102, 99,
	      "the hog made itself FIFO while running: its priority from the sampler");
	check("timer", "--pid 200 --from 0.010 --to 0.3112", "timer", 201, 95,
	      "a reader waiting on a sleeping writer");
	check("forked", "--pid 211", "timer", 211, 95,
	      "a thread created in the dump: its life from the fork record, not unknown before it");
	check("stopped", "--pid 300 --from 0.010 --to 0.4101", "stopped", 301, 99,
	      "a parent waiting on a stopped child");
	check("blkio", "--pid 400 --from 0.010 --to 0.0511", "block_io", 400, 95,
	      "fsync waiting on two 20 ms writes");
	check("blkirq", "--pid 400 --from 0.010 --to 0.0351", "block_io", 400, 95,
	      "a completion whose interrupt reached the wakeup 5 ms later");
	check("blkirq-other", "--pid 400 --from 0.010 --to 0.0351", "unknown", 0, 95,
	      "a wakeup 5 ms after a completion, from another interrupt");
	check("stack-worker", "--pid 450 --from 0.010 --to 0.0511", "block_io", 450, 95,
	      "a bio of dm-0, delayed by its target, completed below and ended by a worker");
	check("stack-irq", "--pid 450 --from 0.010 --to 0.0511", "block_io", 450, 95,
	      "the same bio, its completion at the top waking the task from the interrupt");
	check("stack-timer", "--pid 450 --from 0.010 --to 0.0511", "unknown", 0, 95,
	      "the worker woken by a timer 5 ms after the I/O completed: not the I/O's");
	out = report("stack-md", "--pid 480 --from 0.010 --to 0.041", 1, &ret);
	tap_ok(!ret && strstr(out, "\"cause\":\"block_io\",\"culprit\":{\"pid\":480,") &&
	       strstr(out, "\"resource\":\"block device md0 (9:0)\",\"ms\":30.35,") &&
	       !strstr(out, "block device sdb (8:16)") && !strstr(out, "block device sdc") &&
	       strstr(out, "\"requests\":2,\"request_ms_mean\":15.025,") &&
	       strstr(out, "\"bios\":1,\"mapper_ms\":0.25,\"below_ms\":30,\"below_device\":\"sdb\""),
	       "md0's superblock write on its legs, waited for inside the bio's submission: "
	       "md0's, 0.25 ms in it, 30 below, the leg's request among its 2 there");
	free(out);
	out = report("stack-md-unlisted", "--pid 480 --from 0.010 --to 0.041", 1, &ret);
	tap_ok(!ret && strstr(out, "\"resource\":\"block device sdc (8:32)\""),
	       "... not md0's when the dump does not list sdc below md0");
	free(out);
	out = report("stack-worker", "--pid 450 --from 0.010 --to 0.0511", 1, &ret);
	tap_ok(strstr(out, "\"resource\":\"block device dm-0 (vg-root, 253:0)\"") &&
	       strstr(out, "\"bios\":1,\"mapper_ms\":30,\"below_ms\":9.92,\"below_device\":\"sdb\"") &&
	       strstr(out, "\"requests\":1,\"request_ms_mean\":9.8,"),
	       "on dm-0 (vg-root): 30 ms in the mapper, 9.92 below on sdb, its request 9.8 ms there");
	free(out);
	for (i = 0; i < 4; i++) {
		static const struct {
			const char *name, *args, *what, *want, *split;
		} loops[4] = {
			{ "stack-loop", "--pid 470 --from 0.010 --to 0.0312",
			  "a request of loop0 served by its worker's request to sdb",
			  "\"bios\":0,\"mapper_ms\":0.9,\"below_ms\":20.05,\"below_device\":\"sdb\","
			  "\"below_requests\":1,\"below_request_ms_mean\":20,",
			  "on loop0: 0.9 ms of the wait in it, 20.05 below on sdb, its worker's one "
			  "request of 20 ms there, not the reader's nor the worker's next" },
			{ "stack-loop-busy", "--pid 470 --from 0.010 --to 0.0362",
			  "the same, the loop's work item already pending when loop0's request came",
			  "\"bios\":0,\"mapper_ms\":5.9,\"below_ms\":20.05,\"below_device\":\"sdb\","
			  "\"below_requests\":1,\"below_request_ms_mean\":20,",
			  "its worker 5.9 ms late: the time in loop0, 20.05 below on sdb" },
			{ "stack-loop-fsync", "--pid 470 --from 0.010 --to 0.0524",
			  "the same, loop0's request completed by its worker after its flush",
			  "\"bios\":0,\"mapper_ms\":0.9,\"below_ms\":41.1,\"below_device\":\"sdb\","
			  "\"below_requests\":2,\"below_request_ms_mean\":30,",
			  "the worker completing loop0's request in the softirq on its way, 21 ms "
			  "after its request below: 41.1 ms below, its request and the journal "
			  "thread's it waited for" },
			{ "stack-loop-flush", "--pid 470 --from 0.010 --to 0.0524",
			  "a flush of loop0: its worker fsyncs the backing file",
			  "\"bios\":0,\"mapper_ms\":1.2,\"below_ms\":40.8,\"below_device\":\"sdb\","
			  "\"below_requests\":1,\"below_request_ms_mean\":40,",
			  "the worker sending nothing of its own, waiting for the journal thread of "
			  "the file system below: 40.8 ms below on sdb, the journal's request" },
		};

		check(loops[i].name, loops[i].args, "block_io", 470, 95, loops[i].what);
		out = report(loops[i].name, loops[i].args, 1, &ret);
		tap_ok(strstr(out, "\"resource\":\"block device loop0 (7:0)\"") &&
		       strstr(out, loops[i].want) != NULL, "%s", loops[i].split);
		free(out);
	}
	check("work-pool", "--pid 460 --from 0.010 --to 0.3123", "timer", 461, 95,
	      "a reader woken by a worker's work item, which a sleeping writer queued");
	out = report("work-pool", "--pid 460 --from 0.010 --to 0.3123", 0, &ret);
	tap_ok(strstr(out, "waiting for 462 (kworker/u4:2) running work flush_to_ldisc:") &&
	       strstr(out, "462 (kworker/u4:2): 300.200 ms waiting for work flush_to_ldisc; "
			   "queued by 461 (writer):") &&
	       !strstr(out, "worker_thread") && !strstr(out, "waiting for 463"),
	       "the chain names the work item and goes on to the writer that queued it, "
	       "not to the worker that woke its worker");
	free(out);
	check("work-busy", "--pid 460 --from 0.010 --to 0.3313", "timer", 461, 90,
	      "the writer's item queued behind another the worker ran for 230 ms");
	out = report("work-busy", "--pid 460 --from 0.010 --to 0.3313", 1, &ret);
	tap_ok(strstr(out, "{\"cause\":\"running\",\"culprit\":{\"pid\":462,"
			   "\"comm\":\"kworker/u4:2\"},\"resource\":\"work vmstat_update\","
			   "\"ms\":19.8,") &&
	       strstr(out, "\"resource\":\"work flush_to_ldisc\",\"ms\":0.9,") &&
	       strstr(out, "\"state\":\"waiting_for_work\",\"work\":\"flush_to_ldisc\","
			   "\"queued_by\":461,") && !strstr(out, "\"pid\":465"),
	       "before the writer queued its item, the writer's sleep; after, the busy worker: "
	       "19.8 ms in the other item, 0.9 in the writer's; not the other item's 230 ms, "
	       "nor who queued that");
	free(out);
	check("work-timer", "--pid 460 --from 0.010 --to 0.3123", "unknown", 0, 95,
	      "the same item queued by the timer softirq: nothing says who armed it");
	out = report("work-timer", "--pid 460 --from 0.010 --to 0.3123", 1, &ret);
	tap_ok(strstr(out, "\"state\":\"waiting_for_work\",\"work\":\"flush_to_ldisc\","
			   "\"queued_by\":null,\"queue_ctx\":\"softirq\",\"softirq\":\"timer\"") &&
	       strstr(out, "\"waker_work\":\"flush_to_ldisc\""),
	       "JSON: the worker waited for work the timer softirq queued");
	free(out);
	out = report("work-timer", "--pid 464 --from 0.011 --to 0.3301", 0, &ret);
	tap_ok(strstr(out, "woken in softirq net_rx [unknown]") != NULL,
	       "a wakeup from the network receive softirq is named by its vector");
	free(out);
	out = report("work-timer", "--pid 464 --from 0.3311 --to 0.3401", 0, &ret);
	tap_ok(strstr(out, "woken in irq 26 (ttyS0) [unknown]") != NULL,
	       "a wakeup from an interrupt handler is named by its irq and the handler's name");
	free(out);
	out = report("work-timer", "--pid 464 --from 0.3311 --to 0.3401", 1, &ret);
	tap_ok(strstr(out, "\"waker_ctx\":\"hardirq\",\"irq\":26,") != NULL,
	       "JSON: the irq of a hardirq wakeup");
	free(out);
	check("throttle", "--pid 1100 --from 0.002 --to 0.2065", "cpu_throttled", 1101, 88,
	      "a waiter on a child its cgroup's CPU quota holds off");
	out = report("throttle", "--pid 1100 --from 0.002 --to 0.2065", 1, &ret);
	tap_ok(strstr(out, "{\"cause\":\"cpu_throttled\",\"culprit\":{\"pid\":1101,\"comm\":\"child\"},"
			   "\"resource\":\"cgroup /user.slice/limited.scope\",\"ms\":180,") &&
	       strstr(out, "\"cgroup\":\"/user.slice/limited.scope\",\"cgroup_id\":4242,"
			   "\"quota_us\":10000,\"period_us\":100000}"),
	       "cpu_throttled: 180 ms in cgroup /user.slice/limited.scope, 10000 us every 100000 us");
	free(out);
	check("throttle-unnamed", "--pid 1100 --from 0.002 --to 0.2065", "cpu_throttled", 1101, 88,
	      "the same, the cgroup gone from the dump's system section");
	out = report("throttle-unnamed", "--pid 1100 --from 0.002 --to 0.2065", 1, &ret);
	tap_ok(strstr(out, "\"resource\":\"cgroup 4294967303\",") &&
	       strstr(out, "\"cgroup\":null,\"cgroup_id\":4294967303,\"quota_us\":null,"
			   "\"period_us\":null}"),
	       "a cgroup the dump does not name: by its 64-bit id, its limit null");
	free(out);
	check("throttle-woken", "--pid 1102 --from 0.040 --to 0.1015", "cpu_throttled", 1101, 80,
	      "a thread woken while its cgroup is throttled waits for the next period");
	check("throttle-other", "--pid 1102 --from 0.040 --to 0.1015", "cpu_contention", 0, 80,
	      "the same thread, not in the cgroup as the dump says: no throttling of its own");
	check("fault-file", "--pid 460 --from 0.010 --to 0.0351", "block_io", 460, 95,
	      "a page fault on a cold mapped file of dm-0");
	check("fault-shared", "--pid 461 --from 0.012 --to 0.0352", "block_io", 460, 95,
	      "a page fault on a page another thread is reading");
	check("fault-swap", "--pid 470 --from 0.010 --to 0.0501", "block_io", 470, 95,
	      "a page fault on memory paged out to swap");
	out = report("fault-file", "--pid 460 --from 0.010 --to 0.0351", 1, &ret);
	tap_ok(strstr(out, "\"via\":\"page fault\",\"file\":{\"dev\":\"253:0\","
			   "\"device\":\"dm-0\",\"ino\":12},\"swap\":false") != NULL,
	       "fault-file: via a page fault, on inode 12 of dm-0");
	free(out);
	out = report("fault-swap", "--pid 470 --from 0.010 --to 0.0501", 1, &ret);
	tap_ok(strstr(out, "\"resource\":\"block device sdc (8:32)\"") &&
	       strstr(out, "\"via\":\"page fault\",\"file\":null,\"swap\":true"),
	       "fault-swap: via a page fault, from swap on sdc");
	free(out);
	check("net-peer", "--pid 1200 --from 0.0105 --to 0.3113", "timer", 1201, 95,
	      "a TCP read answered by a local server that slept 300 ms first");
	out = report("net-peer", "--pid 1200 --from 0.0105 --to 0.3113", 1, &ret);
	tap_ok(strstr(out, "\"net\":{\"proto\":\"tcp\",\"local\":\"10.0.0.2:40312\","
			   "\"remote\":\"10.0.0.1:5000\"},\"woken_by\":1201,") &&
	       strstr(out, "{\"cause\":\"network\",\"culprit\":null,"
			   "\"resource\":\"tcp 10.0.0.2:40312 -> 10.0.0.1:5000\",\"ms\":0.15,"),
	       "net-peer: the read waited for the server until it sent; 0.15 ms on the way");
	free(out);
	check("net-link", "--pid 1200 --from 0.0105 --to 0.3108", "network", 0, 95,
	      "a TCP read whose answer a link held 300 ms");
	out = report("net-link", "--pid 1200 --from 0.0105 --to 0.3108", 1, &ret);
	tap_ok(strstr(out, "{\"cause\":\"network\",\"culprit\":null,"
			   "\"resource\":\"tcp 10.0.0.2:40312 -> 10.0.0.1:5000\",\"ms\":300.1,") &&
	       strstr(out, "\"net\":{\"proto\":\"tcp\",\"local\":\"10.0.0.2:40312\","
			   "\"remote\":\"10.0.0.1:5000\"}}"),
	       "net-link: 300.1 ms network from the server's send, the socket's addresses");
	free(out);
	check("net-remote", "--pid 1200 --from 0.0105 --to 0.3108", "network", 0, 99,
	      "a TCP read over IPv6 from a server the dump does not have");
	out = report("net-remote", "--pid 1200 --from 0.0105 --to 0.3108", 0, &ret);
	tap_ok(strstr(out, "tcp [2001:db8::2]:40312 -> [2001:db8::1]:443") != NULL,
	       "net-remote: IPv6 addresses in brackets");
	free(out);
	check("net-local", "--pid 1200 --from 0.0105 --to 0.3113", "timer", 1201, 95,
	      "a unix socket read woken by the writer directly: not the network");
	out = report("net-local", "--pid 1200 --from 0.0105 --to 0.3113", 1, &ret);
	tap_ok(!strstr(out, "network") && !strstr(out, "\"net\""),
	       "net-local: nothing charged to the network");
	free(out);
	check("lock", "--pid 500 --from 0.010 --to 0.1001", "lock", 501, 99,
	      "a mutex held by a computing thread");
	check("mem", "--pid 600 --from 0.001 --to 0.101", "memory", 600, 59,
	      "a task reclaiming for its cgroup");
	check("memhigh", "--pid 620 --from 0.001 --to 0.101", "memory", 620, 60,
	      "a task its memory cgroup's memory.high throttles: the penalty sleeps");
	out = report("memhigh", "--pid 620 --from 0.001 --to 0.101", 1, &ret);
	tap_ok(strstr(out, "\"resource\":\"memory.high throttling in cgroup /tipme-mem "
			  "(high 8.0 MiB)\",\"ms\":65,") &&
	       strstr(out, "\"reclaims\":0,\"pages_reclaimed\":0,\"penalty_sleeps\":2,"
			   "\"cgroup\":\"/tipme-mem\",\"cgroup_id\":4343,"
			   "\"memory_high_bytes\":8388608") &&
	       strstr(out, "\"resource\":\"memory.high throttling\",\"ms\":3,") &&
	       strstr(out, "\"penalty_sleeps\":1,\"cgroup\":null,\"cgroup_id\":null,"
			   "\"memory_high_bytes\":null") &&
	       strstr(out, "\"resource\":\"memory cgroup reclaim\",\"ms\":3,") &&
	       !strstr(out, "\"timer\"") && !strstr(out, "\"unknown\""),
	       "memhigh: 65 ms in 2 penalty sleeps of cgroup /tipme-mem (high 8 MiB, from the "
	       "reclaim before each), 3 ms in one with no reclaim before it, 3 ms of reclaim; "
	       "no timer, nothing unknown");
	free(out);
	check("sigtimed", "--pid 630 --from 0.005 --to 0.2101", "timer", 630, 95,
	      "sigtimedwait() until its timeout: a sleep the waiter asked for");
	check("gap", "--pid 700 --from 0.010 --to 0.100", "running", 700, 60,
	      "a lost sub-buffer");
	out = report("gap", "--pid 700 --from 0.010 --to 0.100", 1, &ret);
	tap_ok(strstr(out, "\"accounted_pct\":66.6") && strstr(out, "\"dump_has_gaps\":true"),
	       "the 30 ms in the gap are unknown, not running: accounted 66.7%%");
	free(out);
	check("streams", "--pid 800 --from 0 --to 0.060", "unknown", 0, 80,
	      "a CPU whose records begin late");
	out = report("streams", "--pid 800 --from 0 --to 0.060", 1, &ret);
	tap_ok(strstr(out, "{\"cause\":\"running\",\"culprit\":{\"pid\":800,") &&
	       strstr(out, "\"ms\":10,"),
	       "800 ran 10 ms on cpu 1 (from that CPU's first record), not 60");
	free(out);
	xtables();
	xchoice();
	check("kinput", "", "lock", 901, 85,
	      "no X dump: a key press to its reader going back to sleep");
	out = report("kinput", "", 1, &ret);
	tap_ok(strstr(out, "\"chosen_by\":\"kernel_input\"") &&
	       strstr(out, "\"pid\":900,\"comm\":\"Xorg\",\"from_mono_ns\":10000000,\"to_mono_ns\":85000000"),
	       "without --pid or an X dump: the key press at 10 ms, its reader 900, until it slept at 85 ms");
	free(out);
	/* the module's own auto trigger named a press: that one, not the slowest */
	tap_ok(auto_meta_of("kauto", 900, 100000000) == 0 &&
	       (out = report("kauto", "", 1, &ret)) &&
	       strstr(out, "\"pid\":900,\"comm\":\"Xorg\",\"from_mono_ns\":100000000,"
			   "\"to_mono_ns\":103000000,\"chosen_by\":\"auto_press\"") != NULL,
	       "no X dump, an auto incident: the press at 100 ms its meta.json names, not the slowest");
	free(out);
	/* a press a member claimed over the socket: the report says whose word it is */
	{
		char path[200];
		FILE *f;

		snprintf(path, sizeof(path), "%s/kauto/meta.json", dir);
		f = fopen(path, "w");
		if (f) {
			fprintf(f, "{\"trigger\": {\"source\": \"auto\", \"utc\": \"2026-11-25T10:00:00Z\", \"uid\": 1001},\n"
				" \"auto\": {\"input\": \"key\", \"pid\": 900, \"comm\": \"Xorg\",\n"
				"  \"press_mono_ns\": 100000000, \"latency_ns\": 3000000, \"claimed\": true,\n"
				"  \"claimed_by_uid\": 1001}}\n");
			fclose(f);
		}
		out = f ? report("kauto", "", 1, &ret) : NULL;
		tap_ok(out && strstr(out, "\"chosen_by\":\"auto_press\",\"press_claimed\":true,"
				     "\"press_claimed_by_uid\":1001,\"end\":\"reader_idle\",\"reader_by\":\"wakeup\"}"),
		       "a claimed press: the interval says it was claimed, and by whom");
		free(out);
		out = f ? report("kauto", "", 0, &ret) : NULL;
		tap_ok(out && strstr(out, "\npress:    claimed by uid 1001 over the control socket: "
				     "its word, not measured by tipme.ko\n"),
		       "... in the text too");
		if (!out || !strstr(out, "claimed by uid"))
			tap_diag("%s", out ? out : "");
		free(out);
	}
	tap_ok(auto_meta_of("kauto", 900, MS(10.5)) == 0 &&
	       (out = report("kauto", "", 1, &ret)) &&
	       strstr(out, "\"from_mono_ns\":10000000,\"to_mono_ns\":85000000,"
			   "\"chosen_by\":\"auto_press\"") != NULL,
	       "... the press at 10 ms when it names that one (0.5 ms off)");
	free(out);
	tap_ok(auto_meta_of("kauto", 900, MS(94)) == 0 &&
	       (out = report("kauto", "", 1, &ret)) &&
	       strstr(out, "\"from_mono_ns\":100000000,\"to_mono_ns\":103000000,"
			   "\"chosen_by\":\"auto_press\"") != NULL,
	       "... the press at 100 ms, recorded 6 ms after the module stamped it (evdev's "
	       "delivery under load), not the slowest");
	free(out);
	tap_ok(auto_meta_of("kauto", 900, MS(30)) == 0 &&
	       (out = report("kauto", "", 1, &ret)) &&
	       strstr(out, "\"from_mono_ns\":10000000,\"to_mono_ns\":85000000,"
			   "\"chosen_by\":\"kernel_input\"") != NULL,
	       "... and the slowest when no press is recorded from 2 ms before to 50 ms "
	       "after the one it names");
	free(out);
	out = report("klate", "", 1, &ret);
	tap_ok(!ret && strstr(out, "\"pid\":900,\"comm\":\"evreader\",\"from_mono_ns\":10000000,"
				 "\"to_mono_ns\":30000000,\"chosen_by\":\"kernel_input\"") != NULL,
	       "no X dump: a reader woken 9 ms after the input record, by the task that "
	       "stayed on that CPU: the press at 10 ms to 30 ms");
	free(out);
	out = report("klate-broken", "", 1, &ret);
	tap_ok(!ret && out && !strstr(out, "\"chosen_by\":\"kernel_input\""),
	       "... not when another task ran on that CPU between the record and the wakeup");
	free(out);
	out = report("kearly", "", 1, &ret);
	tap_ok(!ret && strstr(out, "\"pid\":900,\"comm\":\"evreader\",\"from_mono_ns\":10000000,"
				 "\"to_mono_ns\":30000000,\"chosen_by\":\"kernel_input\"") != NULL,
	       "no X dump: a reader woken 4 ms before the input record, by the task that "
	       "stayed on that CPU up to it: the press at 10 ms to 30 ms");
	free(out);
	out = report("kearly-broken", "", 1, &ret);
	tap_ok(!ret && out && !strstr(out, "\"chosen_by\":\"kernel_input\""),
	       "... not when another task ran on that CPU between the wakeup and the record");
	free(out);
	check("xserver", "", "x_server", 1002, 90,
	      "with an X dump: a key press whose round trip waited behind a flooder");
	out = report("xserver", "", 1, &ret);
	tap_ok(strstr(out, "\"pid\":1000,\"comm\":\"app\",\"from_mono_ns\":5000000,"
			   "\"to_mono_ns\":315000000,\"chosen_by\":\"input\","
			   "\"client_done_mono_ns\":312000000") != NULL,
	       "the press at 5 ms, to the server done drawing at 315 ms (the app done at 312 ms)");
	free(out);
	check("xsilent", "", "x_server", 1002, 90,
	      "the same press, the server waking app once more with nothing the X dump holds");
	out = report("xsilent", "", 1, &ret);
	tap_ok(strstr(out, "\"pid\":1000,\"comm\":\"app\",\"from_mono_ns\":5000000,"
			   "\"to_mono_ns\":315200000,\"chosen_by\":\"input\","
			   "\"end\":\"x_drawn\"") != NULL,
	       "xsilent: to app done at 315.2 ms (its drawing done by then: the server "
	       "dispatched its next request), not to the sleep at 310.3 ms that the "
	       "server ended with nothing the X dump holds");
	if (!strstr(out, "\"to_mono_ns\":315200000"))
		tap_diag("%s", out);
	free(out);
	check("xflip", "", "x_server", 1002, 90,
	      "an X server that drives a display: the same press, to the flip after its drawing");
	out = report("xflip", "", 1, &ret);
	tap_ok(strstr(out, "\"from_mono_ns\":5000000,\"to_mono_ns\":320000000,\"chosen_by\":\"input\","
			   "\"client_done_mono_ns\":312000000,\"end\":\"flip\",\"flip_mono_ns\":320000000,"
			   "\"flip_commit_mono_ns\":315000000,") &&
	       strstr(out, "{\"cause\":\"display\",\"culprit\":null,\"resource\":\"crtc 0\",\"ms\":5,"),
	       "xflip: from the press at 5 ms to the vblank at 320 ms; display from the drawing's end (315 ms)");
	if (!strstr(out, "\"end\":\"flip\""))
		tap_diag("%s", out);
	free(out);
	/* an auto incident: meta.json names the press that fired it */
	tap_ok(auto_meta(5000000) == 0 && (out = report("xserver", "", 1, &ret)) &&
	       strstr(out, "\"from_mono_ns\":5000000,\"to_mono_ns\":315000000,"
			   "\"chosen_by\":\"auto_press\"") != NULL,
	       "an auto incident: the interval is the press its meta.json names");
	free(out);
	tap_ok(auto_meta(900000000) == 0 && (out = report("xserver", "", 1, &ret)) &&
	       strstr(out, "\"chosen_by\":\"input\"") != NULL,
	       "... and the slowest input when the X dump has no press there");
	free(out);
	auto_meta(0);
	check("sampled", "--pid 1100 --from 0.002 --to 0.055", "running", 1101, 80,
	      "a thread that never switched: the sampler says it slept in D until woken");
	out = report("sampled", "--pid 1100 --from 0.002 --to 0.055", 1, &ret);
	tap_ok(strstr(out, "\"accounted_pct\":94.3") &&
	       strstr(out, "\"from_mono_ns\":5000000,\"to_mono_ns\":50000000,\"ms\":45,\"state\":\"blocked\""),
	       "asleep from the sample at 5 ms, not unknown: 3 ms of 53 unknown");
	if (!strstr(out, "\"accounted_pct\":94.3"))
		tap_diag("%s", out);
	free(out);
	check("race", "--pid 1201 --from 0.010 --to 0.110", "cpu_contention", 1202, 99,
	      "woken while still on its CPU: runnable behind the hog, not asleep");
	out = report("race", "--pid 1203 --from 0.114 --to 0.200", 1, &ret);
	tap_ok(!strstr(out, "\"runnable\"") && !strstr(out, "cpu_contention"),
	       "woken on its way out of do_exit(): dead, not runnable, after its last switch");
	if (strstr(out, "\"runnable\"") || strstr(out, "cpu_contention"))
		tap_diag("%s", out);
	free(out);
	out = report("rewake", "--pid 1300 --from 0.011 --to 0.059", 1, &ret);
	tap_ok(!strstr(out, "\"runnable\"") && !strstr(out, "cpu_contention") &&
	       strstr(out, "\"state\":\"blocked\""),
	       "a kept wakeup that found the task still in its wait loop: the sleep after it lasts "
	       "until the next wakeup, not runnable");
	if (strstr(out, "\"runnable\"") || strstr(out, "cpu_contention"))
		tap_diag("%s", out);
	free(out);
	ranking_tests();
	who_tests();
	export_xserver();
	timeline_xserver();
	timeline_cpu();
	timeline_mark();
	legs_tests();
	out = latency_json("xserver");
	tap_ok(strstr(out, "\"done_mono_ns\": 312000000,\n") &&
	       strstr(out, "\"drawing_requests\": 1,\n") &&
	       strstr(out, "\"display_mono_ns\": 315000000,\n") &&
	       strstr(out, "\"latency_ns\": 310000000,\n") &&
	       strstr(out, "\"drawing_after_done_ns\": 3000000,\n"),
	       "tipme latency: done at 312 ms, one drawing request, on the screen at 315 ms");
	if (!strstr(out, "\"display_mono_ns\": 315000000"))
		tap_diag("%s", out);
	free(out);
	out = latency_json("xbusy");
	tap_ok(strstr(out, "\"done_mono_ns\": 9000000,\n") &&
	       strstr(out, "\"display_mono_ns\": 13000000,\n") &&
	       strstr(out, "\"latency_ns\": 8000000,\n"),
	       "tipme latency: a server busy with another client after the drawing: "
	       "on the screen when it dispatched the next request (12 ms, within its ms), "
	       "not when it slept (405 ms)");
	if (!strstr(out, "\"display_mono_ns\": 13000000"))
		tap_diag("%s", out);
	free(out);
	out = report("xbusy", "", 1, &ret);
	tap_ok(out && strstr(out, "\"from_mono_ns\":5000000,\"to_mono_ns\":13000000,"
				 "\"chosen_by\":\"input\",\"client_done_mono_ns\":9000000"),
	       "... and report's interval ends there, not 392 ms later");
	if (!out || !strstr(out, "\"to_mono_ns\":13000000"))
		tap_diag("%s", out ? out : "");
	free(out);
	for (i = 0; i < 2; i++) {
		static const char *const what[] = {
			"tipme latency: a reply written late in a round (stamped 304 ms, 1.5 ms "
			"before the sleep it ended began) ends both sleeps the round woke; done at "
			"312 ms",
			"... also when the server blocked reading a file in that round (not a wait "
			"for clients: the round goes on)",
		};

		out = latency_json(i ? "xstale-read" : "xstale");
		tap_ok(strstr(out, "\"done_mono_ns\": 312000000,\n") != NULL, "%s", what[i]);
		if (!strstr(out, "\"done_mono_ns\": 312000000"))
			tap_diag("%s", out);
		free(out);
	}
	out = latency_json("xtwoconn");
	tap_ok(strstr(out, "\"done_mono_ns\": 307000000,\n") &&
	       strstr(out, "\"latency_ns\": 303000000,\n") &&
	       strstr(out, "\"done_mono_ns\": 702500000,\n") &&
	       strstr(out, "\"slowest_press_mono_ns\": 400000000\n"),
	       "tipme latency: a reply stamped within X's millisecond after the wakeup by the "
	       "next input (a request on the client's other connection, sent once awake) ends "
	       "no wait: the key press is done at 307 ms, the motion at 702.5 ms, the slowest");
	tap_ok(golden("xtwoconn-latency", "json", out), "xtwoconn: latency JSON as golden");
	free(out);
	snprintf(inc, sizeof(inc), "%s/xtwoconn", dir);
	out = capture_in(pm_cmd_latency, 2, (char *[]){ "latency", inc, NULL }, dir, &ret);
	tap_ok(!ret && golden("xtwoconn-latency", "txt", out), "xtwoconn: latency text as golden");
	free(out);
	for (i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++) {
		ret = state_golden(dir, state_names[i], msg, sizeof(msg));
		tap_ok(ret, "%s: state and resources as golden, in two passes and in one",
		       state_names[i]);
		if (*msg)
			tap_diag("%s: %s", state_names[i], msg);
	}
	free(s);
	/* TIPME_KEEP_TMP=1 keeps the scenarios' incidents (fuzz seeds) */
	if (!getenv("TIPME_KEEP_TMP"))
		gen_rmtree(dir);
	return tap_done();
}
