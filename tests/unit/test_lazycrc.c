// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU stream in several sections, each with its checksum, checked when
 * a command first reads it (Documentation/format.rst): on a scenario dump
 * whose sections hold one sub-buffer each (scen_section_bytes), a byte
 * flipped in a section a `report --pid --from --to --margin` never reads
 * leaves its output as it was on the intact dump, while `tipme info` and
 * a command that reads everything (`records`) name the corrupt section;
 * a byte flipped in a section the report reads fails it with the same
 * message: the section, its CPU and the file offset of its bytes.  The
 * sections of one CPU are read as one stream: the intact dump's report
 * is the same as that of the dump written in one section per CPU.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cmd/commands.h"
#include "dumpfile.h"
#include "gen.h"
#include "scen.h"
#include "tap.h"

static char dir[64], dump[160], out[160], err[160];
static char *out_text, *err_text;

/* Run @fn with @args (DUMP: the dump), keeping its output and errors. */
static int run(int (*fn)(int, char **), const char *args)
{
	int ret;

	free(capture_words(fn, args, dump, dir, &ret));
	free(out_text);
	free(err_text);
	out_text = capture_slurp(out);
	err_text = capture_slurp(err);
	return ret;
}

/*
 * Two CPUs, each four sub-buffers (seq 0..3) of a second's records at 0,
 * 10, 20 and 30 s: 1001 on CPU 0 and 2001 on CPU 1 run 4 ms of every
 * 10 ms and sleep on a pipe between, each waking the other.
 */
static int write_scenario(const char *path)
{
	static const char *const pipe_site[] = { "pipe_read", "vfs_read", "ksys_read", NULL };
	static struct scen s;
	uint64_t t0, t;
	uint32_t c, i, pid;

	scen_init(&s, 2);
	scen_task(&s, 1001, 1001, "reader", "/bin/reader", "reader", 7);
	scen_task(&s, 2001, 2001, "writer", "/bin/writer", "writer", 7);
	for (i = 0; i < 4; i++) {
		t0 = i * 10000000000ULL;
		for (c = 0; c < 2; c++) {
			pid = c ? 2001 : 1001;
			if (i)
				scen_subbuf(&s, c, i);
			for (t = t0; t < t0 + 1000000000ULL; t += MS(10)) {
				scen_switch(&s, c, t + MS(1), 0, TIPME_TS_RUNNABLE, 120, pid, 120);
				scen_wake(&s, c, t + MS(4), c ? 1001 : 2001, !c, pid,
					  TIPME_CTX_TASK);
				scen_switch(&s, c, t + MS(5), pid, TIPME_TS_SLEEPING, 120, 0, 120);
				scen_blocked(&s, c, t + MS(5), pid, pipe_site);
			}
		}
	}
	if (s.overflow)
		return -1;
	return scen_write(&s, path);
}

/* The number of stream sections of @path. */
static uint32_t stream_sections(const char *path)
{
	struct tm_err e = { "" };
	struct tm_dump d;
	uint32_t i, n = 0;

	if (!tm_dump_load(&d, path, 0, &e))
		for (i = 0; i < d.nr_secs; i++)
			n += d.secs[i].h.type == TIPME_SEC_CPU_STREAM;
	tm_dump_free(&d);
	return n;
}

/* The corruption named: section, CPU, and the file offset of its bytes. */
static int names(const char *text, uint32_t cpu, uint64_t off)
{
	char want[64], at[64];

	snprintf(want, sizeof(want), "(cpu_stream cpu %" PRIu32 "): checksum mismatch", cpu);
	snprintf(at, sizeof(at), "at file offset %" PRIu64 "\n", off);
	return text && strstr(text, want) && strstr(text, at);
}

#define REPORT	"report --pid 1001 --from 30.2 --to 30.4 --margin 0.5 DUMP"

int main(void)
{
	char *intact = NULL, *whole_sec = NULL;
	uint64_t off = 0;
	int ret;

	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(dump, sizeof(dump), "%s/lazy.dump", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	tap_plan(9);

	/* one section per CPU: the reference */
	ret = write_scenario(dump) ? -1 : run(pm_cmd_report, REPORT);
	tap_ok(ret == 0 && stream_sections(dump) == 2 && strstr(out_text, "1001"),
	       "one section per CPU: the report of 1001 over 30.2-30.4 s");
	whole_sec = out_text ? strdup(out_text) : NULL;

	scen_section_bytes = 1;	/* every sub-buffer in its own section */
	ret = write_scenario(dump) ? -1 : run(pm_cmd_report, REPORT);
	tap_ok(ret == 0 && stream_sections(dump) == 8 && whole_sec &&
	       !strcmp(out_text, whole_sec),
	       "a section per sub-buffer: 8 sections, read as one stream per CPU: the same report");
	intact = out_text ? strdup(out_text) : NULL;

	/* CPU 1's first sub-buffer, at 0-1 s: the report never reads it */
	ret = gen_flip_stream_byte(dump, dump, 1, 0, 0x10, &off) ? -1 : run(pm_cmd_report, REPORT);
	tap_ok(ret == 0 && intact && !strcmp(out_text, intact) && !err_text[0],
	       "a corrupt section before the interval and its margin: the same report, no error%s%s",
	       ret ? ": " : "", ret ? err_text : "");
	ret = run(pm_cmd_info, "info DUMP");
	tap_ok(ret == 1 && names(err_text, 1, off),
	       "info checks every section: \"%.*s\"", (int)strcspn(err_text, "\n"), err_text);
	ret = run(pm_cmd_records, "records DUMP");
	tap_ok(ret == 1 && names(err_text, 1, off),
	       "records, which reads every section, names it: \"%.*s\"",
	       (int)strcspn(err_text, "\n"), err_text);
	ret = run(pm_cmd_report, "report --pid 1001 --from 0.2 --to 0.4 --margin 0.1 DUMP");
	tap_ok(ret == 1 && names(err_text, 1, off) && !out_text[0],
	       "a report whose interval holds it: exit 1, nothing printed, \"%.*s\"",
	       (int)strcspn(err_text, "\n"), err_text);

	/* and CPU 0's last, at 30-31 s: inside the interval */
	ret = write_scenario(dump) || gen_flip_stream_byte(dump, dump, 0, 3, 0x10, &off) ? -1 : run(pm_cmd_report, REPORT);
	tap_ok(ret == 1 && names(err_text, 0, off) && !out_text[0],
	       "a corrupt section inside the interval: exit 1, nothing printed, \"%.*s\"",
	       (int)strcspn(err_text, "\n"), err_text);
	ret = run(pm_cmd_why, "why --pid 1001 --from 30.2 --to 30.4 --margin 0.5 DUMP");
	tap_ok(ret == 1 && names(err_text, 0, off),
	       "why over it too: \"%.*s\"", (int)strcspn(err_text, "\n"), err_text);
	ret = run(pm_cmd_info, "info DUMP");
	tap_ok(ret == 1 && names(err_text, 0, off),
	       "and info: \"%.*s\"", (int)strcspn(err_text, "\n"), err_text);

	free(intact);
	free(whole_sec);
	free(out_text);
	free(err_text);
	gen_rmtree(dir);
	return tap_done();
}
