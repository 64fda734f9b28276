// SPDX-License-Identifier: GPL-2.0
/*
 * Names chosen by whoever ran the program, and values at the edges, in
 * every output.  A command name is what its process set (prctl takes any
 * byte but NUL): one with a newline must not forge a line of report,
 * records, why or ps (golden text: the newline shows as \x0a), one with
 * bytes that are not UTF-8 must leave the JSON valid UTF-8 JSON and the
 * timeline SVG well-formed (python3 reads them back: tests/lib/).  The X
 * dump's client names and description likewise.  And a record at the end
 * of time through timeline and report, which once overflowed a signed
 * 64-bit sum (unit-asan catches that).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "cmd/commands.h"
#include "gen.h"
#include "golden.h"
#include "scen.h"
#include "tap.h"
#include "writefile.h"
#include "xdumpfile.h"

static char dir[64];

/* What "evil" and "bad" set with prctl(PR_SET_NAME): 15 bytes at most. */
static const char evil[] = "ev\nreport: fine";	/* a forged line */
static const char bad[] = "b\xff\xfe\x1b[31m\xc2\x85z";	/* not UTF-8, ESC, NEL */

static const char *const pipe_site[] = { "pipe_read", "vfs_read", NULL };
static const char *const sleep_site[] = { "hrtimer_nanosleep", NULL };

/* Run @cmd with the words of @args (DUMP: @dump); its stdout, or stderr. */
static char *run(int (*cmd)(int, char **), const char *args, const char *dump,
		 int *ret)
{
	return capture_cmd(cmd, args, dump, dir, ret);
}

/* Compare @text with tests/unit/golden/names-@name; rewrite it when asked. */
static int golden(const char *name, const char *text)
{
	char path[160];

	snprintf(path, sizeof(path), "tests/unit/golden/names-%s", name);
	return golden_file(path, text);
}

/* A forged line: one that starts with what followed the newline. */
static int forged(const char *text)
{
	const char *p;

	for (p = text; p && (p = strstr(p, "\nreport: fine")); p++)
		return 1;
	return text && !strncmp(text, "report: fine", 12);
}

/* Exit status 0 of "python3 tests/lib/@prog @mode FILE" on @text. */
static int py_check(const char *prog, const char *mode, const char *file,
		    const char *text)
{
	char cmd[400];
	FILE *f;
	int st;

	if (text) {
		f = fopen(file, "w");
		if (!f)
			return 0;
		fputs(text, f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "python3 tests/lib/%s %s %s", prog, mode, file);
	st = system(cmd);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* A reader (200, "evil") waits for a writer (201, "bad") that sleeps. */
static int names_dump(struct scen *s, const char *path)
{
	scen_init(s, 2);
	scen_task(s, 200, 200, evil, "/bin/ev\nil", "ev\nil\0-x\xff", 9);
	scen_task(s, 201, 201, bad, "/bin/bad", "bad", 4);
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
	return scen_write(s, path);
}

static void kernel_names(struct scen *s)
{
	static const struct {
		int (*cmd)(int, char **);
		const char *args, *golden;
	} text[] = {
		{ pm_cmd_report, "report --pid 200 --from 0.010 --to 0.3112 DUMP", "report.txt" },
		{ pm_cmd_why, "why --pid 200 --from 0.010 --to 0.3112 DUMP", "why.txt" },
		{ pm_cmd_records, "records DUMP", "records.txt" },
		{ pm_cmd_ps, "ps DUMP", "ps.txt" },
	};
	static const struct {
		int (*cmd)(int, char **);
		const char *args, *mode;
	} json[] = {
		{ pm_cmd_report, "report --json --pid 200 --from 0.010 --to 0.3112 DUMP", "json" },
		{ pm_cmd_why, "why --json --pid 200 --from 0.010 --to 0.3112 DUMP", "json" },
		{ pm_cmd_records, "records --json DUMP", "jsonl" },
		{ pm_cmd_ps, "ps --json DUMP", "json" },
	};
	char dump[160], file[160], svg[160], args[400], *t;
	size_t i;
	int ret;

	snprintf(dump, sizeof(dump), "%s/names.dump", dir);
	tap_ok(!names_dump(s, dump), "a dump whose command names hold a newline and bytes that are not UTF-8");
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		t = run(text[i].cmd, text[i].args, dump, &ret);
		tap_ok(!ret && !forged(t) && golden(text[i].golden, t),
		       "%s: no forged line, the names escaped (golden names-%s)",
		       text[i].args, text[i].golden);
		free(t);
	}
	for (i = 0; i < sizeof(json) / sizeof(json[0]); i++) {
		snprintf(file, sizeof(file), "%s/out.json", dir);
		t = run(json[i].cmd, json[i].args, dump, &ret);
		tap_ok(!ret && py_check("wellformed.py", json[i].mode, file, t),
		       "%s: valid UTF-8 JSON", json[i].args);
		free(t);
	}
	snprintf(svg, sizeof(svg), "%s/names.svg", dir);
	snprintf(args, sizeof(args), "timeline -o %s DUMP", svg);
	t = run(pm_cmd_timeline, args, dump, &ret);
	tap_ok(!ret && py_check("wellformed.py", "svg", svg, NULL),
	       "timeline: the SVG with both names is well-formed");
	free(t);
	unlink(svg);
	unlink(dump);
}

/* An incident whose X dump names a client and describes itself badly. */
static void x_names(struct scen *s)
{
	struct tipme_x11_rec rec[1] = {
		{ .time_ns = 10000000, .client = 1, .kind = TIPME_X11_REQUEST,
		  .major = 1, .seq = 7, .length = 4 },
	};
	struct tipme_x11_client cl = { .id = 1, .pid = 200 };
	struct tm_xdump_content c = {
		.recs = rec, .nrecs = 1, .cl = &cl, .ncl = 1,
		.trigger = TIPME_X11_TRIGGER_HOTKEY,
		.system = "display=:0\n",
		.description = "slow\nreport: fine \xff",
	};
	char inc[120], path[200], *t;
	struct tm_err e = { "" };
	uint8_t *buf;
	size_t len;
	int ret;

	memcpy(cl.comm, evil, sizeof(evil) - 1);
	snprintf(inc, sizeof(inc), "%s/incident", dir);
	mkdir(inc, 0700);
	snprintf(path, sizeof(path), "%s/kernel.dump", inc);
	ret = names_dump(s, path);
	snprintf(path, sizeof(path), "%s/xhook.dump", inc);
	if (!ret && !tm_xdump_build(&c, &buf, &len)) {
		ret = tm_write_file_new(path, buf, len, &e);
		free(buf);
	} else {
		ret = 1;
	}
	tap_ok(!ret, "an incident whose X dump has a client named with a newline and such a description");
	t = run(pm_cmd_xrecords, "xrecords DUMP", inc, &ret);
	tap_ok(!ret && !forged(t) && golden("xrecords.txt", t),
	       "xrecords: no forged line (golden names-xrecords.txt)");
	free(t);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	t = run(pm_cmd_xrecords, "xrecords --json DUMP", inc, &ret);
	tap_ok(!ret && py_check("wellformed.py", "json", path, t),
	       "xrecords --json: valid UTF-8 JSON");
	free(t);
	snprintf(path, sizeof(path), "rm -rf %s", inc);
	if (system(path))
		tap_diag("could not remove %s", inc);
}

/*
 * A thread blocked from 10 ms until a record at the last nanosecond a
 * signed 64-bit time holds: tipme report and timeline see an interval
 * that ends at the end of time, and must not overflow computing its
 * margin or its axis.
 */
static void end_of_time(struct scen *s)
{
	static const uint64_t end = INT64_MAX;
	char dump[160], svg[160], args[400], *t;
	int ret;

	snprintf(dump, sizeof(dump), "%s/eot.dump", dir);
	snprintf(svg, sizeof(svg), "%s/eot.svg", dir);
	scen_init(s, 1);
	scen_task(s, 400, 400, "sleeper", "/bin/sleeper", "sleeper", 8);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 400, 120);
	scen_switch(s, 0, MS(10), 400, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10), 400, sleep_site);
	scen_wake(s, 0, end - 1000, 400, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch(s, 0, end, 0, TIPME_TS_RUNNABLE, 120, 400, 120);
	tap_ok(!scen_write(s, dump), "a dump whose last record is at the end of time");
	t = run(pm_cmd_report, "report --json DUMP", dump, &ret);
	tap_diag("report: %.*s", (int)strcspn(t ? t : "", "\n"), t ? t : "");
	free(t);
	snprintf(args, sizeof(args), "timeline -o %s --pid 400 DUMP", svg);
	t = run(pm_cmd_timeline, args, dump, &ret);
	tap_diag("timeline: %.*s", (int)strcspn(t ? t : "", "\n"), t ? t : "");
	tap_ok(!ret && py_check("wellformed.py", "svg", svg, NULL),
	       "timeline of its interval: a well-formed SVG (and no overflow: unit-asan)");
	free(t);
	snprintf(args, sizeof(args), "timeline -o %s --pid 400 --from 0.001 --to 2147483647 DUMP",
		 svg);
	t = run(pm_cmd_timeline, args, dump, &ret);
	tap_ok(!ret && py_check("wellformed.py", "svg", svg, NULL),
	       "timeline from 1 ms to the largest --to (68 years): a well-formed SVG");
	free(t);
	snprintf(args, sizeof(args), "timeline -o %s --pid 400 --from 1 --to 1e300 DUMP", svg);
	t = run(pm_cmd_timeline, args, dump, &ret);
	tap_ok(ret == 2 && t && strstr(t, "below 2^31"),
	       "--to 1e300 (beyond the end of time): a usage error, not an overflow (%d)", ret);
	free(t);
	/* no event of either kind: nothing to sort (qsort(NULL, 0): unit-asan) */
	t = run(pm_cmd_legs, "legs --json --from blk-issue --to blk-complete DUMP", dump, &ret);
	tap_diag("legs: %.*s", (int)strcspn(t ? t : "", "\n"), t ? t : "");
	tap_ok(!ret && t && strstr(t, "\"all\":{\"count\":0,"),
	       "legs between kinds the dump has none of: 0 legs, no error");
	free(t);
	unlink(svg);
	unlink(dump);
}

int main(void)
{
	struct scen *s = malloc(sizeof(*s));

	tap_plan(18);
	snprintf(dir, sizeof(dir), "/tmp/tipme-names-XXXXXX");
	if (!s || !mkdtemp(dir))
		return 1;
	kernel_names(s);
	x_names(s);
	end_of_time(s);
	free(s);
	if (!getenv("TIPME_KEEP_TMP"))
		gen_rmtree(dir);
	return tap_done();
}
