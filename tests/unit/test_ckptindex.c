// SPDX-License-Identifier: GPL-2.0
/*
 * tipme index and tipmed's indexer.  1. On a scenario dump (a timer
 * sleeper and a computing thread on two CPUs, 4 seconds in 8 sub-buffers):
 * index writes DUMP.ckpt (made), again leaves it as it is (not made, the
 * same inode, the same count), report --pid reads it and prints what it
 * prints without it (TIPME_CKPT_FILE=0), a dump written anew over the
 * same path gets its checkpoints made again, and a DUMP.ckpt that cannot
 * be written (a directory of that name) is an error naming the file.
 * 2. helper/indexer.c with a stand-in for tipme (a script that writes its
 * scheduling policy, nice and arguments, then waits for the test's go):
 * the child runs at SCHED_IDLE and nice 19 with "index DIR"; incidents
 * added while it runs wait, the newest of them only; each end is logged,
 * a failure as one.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cmd/commands.h"
#include "gen.h"
#include "indexer.h"
#include "scen.h"
#include "tap.h"

static char dir[64], dump[160], ckpt[170];

/* @pid on @cpu: a thread that sleeps 30 ms on a timer, or computes 30 ms. */
static int write_scenario(const char *path, uint32_t seconds)
{
	static const char *const nano_site[] = { "hrtimer_nanosleep", "do_nanosleep", NULL };
	static struct scen s;
	uint64_t t;
	uint32_t c, i;

	scen_init(&s, 2);
	scen_task(&s, 1001, 1001, "sleeper", "/bin/sleeper", "sleeper", 8);
	scen_task(&s, 2001, 2001, "busy", "/bin/busy", "busy", 5);
	for (i = 0; i < seconds; i++) {
		for (c = 0; c < 2; c++) {
			if (i)
				scen_subbuf(&s, c, i);
			for (t = i * 1000000000ULL; t < (i + 1) * 1000000000ULL; t += MS(40)) {
				if (c) {
					scen_switch(&s, c, t + MS(2), 0, TIPME_TS_RUNNABLE, 120, 2001, 120);
					scen_switch(&s, c, t + MS(32), 2001, TIPME_TS_RUNNABLE, 120, 0, 120);
					continue;
				}
				scen_wake(&s, c, t + MS(1), 1001, 0, 0, TIPME_CTX_HARDIRQ);
				scen_switch(&s, c, t + MS(2), 0, TIPME_TS_RUNNABLE, 120, 1001, 120);
				scen_switch(&s, c, t + MS(3), 1001, TIPME_TS_SLEEPING, 120, 0, 120);
				scen_blocked(&s, c, t + MS(3), 1001, nano_site);
			}
		}
	}
	if (s.overflow)
		return -1;
	return scen_write(&s, path);
}

/* The number after "KEY": in @json, or -1. */
static long num(const char *json, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\":", key);
	p = json ? strstr(json, k) : NULL;
	return p ? strtol(p + strlen(k), NULL, 10) : -1;
}

static ino_t inode(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

#define REPORT	"report --pid 1001 --from 2.2 --to 2.4 DUMP"

static void index_cmd(void)
{
	char *a, *b, *j1, *j2, *r1, *r2, *r3;
	ino_t ino;
	int ret, ret2;

	if (write_scenario(dump, 4)) {
		tap_ok(0, "a scenario dump: not written");
		return;
	}
	unlink(ckpt);
	a = capture_words(pm_cmd_index, "index DUMP", dump, dir, &ret);
	tap_ok(!ret && strstr(a, "checkpoints, made and kept") && inode(ckpt),
	       "index: DUMP.ckpt made and kept (%s)", ret ? a : "exit 0");
	ino = inode(ckpt);
	j1 = capture_words(pm_cmd_index, "index --json DUMP", dump, dir, &ret);
	tap_ok(!ret && strstr(j1, "\"made\":false") && num(j1, "checkpoints") > 1 &&
	       inode(ckpt) == ino,
	       "index again: already kept, %ld checkpoints, the same file", num(j1, "checkpoints"));
	r1 = capture_words(pm_cmd_report, REPORT, dump, dir, &ret);
	setenv("TIPME_CKPT_FILE", "0", 1);
	r2 = capture_words(pm_cmd_report, REPORT, dump, dir, &ret2);
	unsetenv("TIPME_CKPT_FILE");
	tap_ok(!ret && !ret2 && !strcmp(r1, r2) && strstr(r1, "1001") && inode(ckpt) == ino,
	       "report --pid reads the file and prints what it prints without it");
	/* another dump at the same path: its own checkpoints */
	if (write_scenario(dump, 3)) {
		tap_ok(0, "a second scenario dump: not written");
		return;
	}
	j2 = capture_words(pm_cmd_index, "index --json DUMP", dump, dir, &ret);
	tap_ok(!ret && strstr(j2, "\"made\":true") && inode(ckpt),
	       "a new dump at the same path: its checkpoints made again (%ld)",
	       num(j2, "checkpoints"));
	/* a file that cannot be written */
	unlink(ckpt);
	mkdir(ckpt, 0700);
	b = capture_words(pm_cmd_index, "index DUMP", dump, dir, &ret);
	tap_ok(ret == 1 && strstr(b, "tipme index: ") && strstr(b, ".ckpt: "),
	       "DUMP.ckpt unwritable (a directory): exit 1, the file named (%s)", b);
	rmdir(ckpt);
	r3 = capture_words(pm_cmd_index, "index --json DUMP", dump, dir, &ret);
	tap_ok(!ret && strstr(r3, "\"made\":true"), "once it can be written: made");
	unlink(ckpt);
	free(a);
	free(b);
	free(j1);
	free(j2);
	free(r1);
	free(r2);
	free(r3);
}

static char logged[4][256];
static int nlogged, nfailed;

static void log_line(void *arg, int failed, const char *msg)
{
	(void)arg;
	if (nlogged < 4)
		snprintf(logged[nlogged], sizeof(logged[0]), "%s", msg);
	nlogged++;
	nfailed += failed;
}

/* Reap until the child running is gone (the script ends once let go). */
static int reap_one(struct indexer *ix)
{
	struct timespec ms = { 0, 1000000 };
	pid_t pid = ix->pid;
	int i;

	for (i = 0; i < 20000 && ix->pid == pid; i++) {
		indexer_reap(ix, log_line, NULL);
		if (ix->pid == pid)
			nanosleep(&ms, NULL);	/* polling the child, not a wait for it */
	}
	return ix->pid != pid;
}

static int has_line(const char *path, const char *want)
{
	char *text = capture_slurp(path);
	int ok = strstr(text, want) != NULL;

	free(text);
	return ok;
}

static void indexer(void)
{
	char script[200], rec[200], go[200], want[300];
	struct indexer ix;
	FILE *f;

	snprintf(script, sizeof(script), "%s/fake-tipme", dir);
	snprintf(rec, sizeof(rec), "%s/runs", dir);
	snprintf(go, sizeof(go), "%s/go", dir);
	f = fopen(script, "w");
	if (!f) {
		tap_ok(0, "the stand-in script: %s", strerror(errno));
		return;
	}
	/* /proc/self/sched's policy line: 5 is SCHED_IDLE */
	fprintf(f, "#!/bin/sh\n"
		"echo \"$(sed -n 's/^policy *: *//p' /proc/$$/sched) $(cut -d' ' -f19 /proc/$$/stat) $*\" >> %s\n"
		"while [ ! -e %s ]; do sleep 0.01; done\n"
		"case $2 in */fail) exit 3 ;; esac\n", rec, go);
	fclose(f);
	chmod(script, 0700);
	unlink(rec);
	unlink(go);
	indexer_init(&ix, "/nonexistent/self");
	tap_ok(!strcmp(ix.tipme, "tipme"), "no tipme beside the executable: the one on $PATH");
	snprintf(ix.tipme, sizeof(ix.tipme), "%s", script);

	tap_ok(!indexer_add(&ix, "/inc/a") && ix.pid > 0, "the first incident: a child runs");
	indexer_add(&ix, "/inc/b");
	indexer_add(&ix, "/inc/fail");
	tap_ok(!strcmp(ix.next, "/inc/fail"), "two added while it runs: the newest waits");
	f = fopen(go, "w");
	if (f)
		fclose(f);
	if (!reap_one(&ix) || !reap_one(&ix)) {
		tap_ok(0, "the children did not end");
		return;
	}
	snprintf(want, sizeof(want), "5 19 index /inc/a\n");
	tap_ok(has_line(rec, want), "SCHED_IDLE, nice 19, \"index /inc/a\"");
	tap_ok(!has_line(rec, "/inc/b") && has_line(rec, "5 19 index /inc/fail\n"),
	       "then the newest waiting only (/inc/b skipped)");
	tap_ok(nlogged == 2 && !strncmp(logged[0], "indexed /inc/a in ", 18) &&
	       nfailed == 1 && strstr(logged[1], "/inc/fail: tipme index exited with 3"),
	       "each end logged, the failure as one: \"%s\", \"%s\"", logged[0], logged[1]);
	tap_ok(!ix.pid && !ix.next[0], "nothing left running or waiting");
	unlink(script);
	unlink(rec);
	unlink(go);
}

int main(void)
{
	static const char *const files[] = { "lazy", "out", "err", NULL };

	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(dump, sizeof(dump), "%s/idx.dump", dir);
	snprintf(ckpt, sizeof(ckpt), "%s.ckpt", dump);
	tap_plan(13);
	index_cmd();
	indexer();
	unlink(dump);
	capture_rmdir(dir, files);
	return tap_done();
}
