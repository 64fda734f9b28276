// SPDX-License-Identifier: GPL-2.0
/*
 * tipme info / records on a hand-built dump against golden output, JSON
 * parsed back with python3, option and error handling, and the CLI main
 * (helper/cli.c, linked with a control stub as $TIPME_CLI).
 *
 * "test_cli --write FILE" only writes the golden dump (to look at it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "dumpfile.h"
#include "gen.h"
#include "capture.h"
#include "tap.h"

static char dir[64], dump[200], out_path[128], err_path[128];
static char *out_text, *err_text;

/* ------------------------------------------------------------------ */
/* The golden dump                                                     */
/* ------------------------------------------------------------------ */

/*
 * tsc_khz 1000000: one tick is one ns.  The clock pairs put tick 1000 at
 * CLOCK_MONOTONIC 1234.567890000 s, so tick 1000 + x prints as
 * 1234.567890000 + x ns.
 */
#define T(x)	(1000 + (uint64_t)(x))

static void add_rec(struct gen_cpu *c, uint8_t type, uint64_t ts,
		    const void *payload, uint32_t len)
{
	struct gen_in *r = &c->recs[c->nr++];

	memset(r, 0, sizeof(*r));
	r->type = type;
	r->ts = ts;
	r->len = len;
	memcpy(r->payload, payload, len);
}

static void add_switch(struct gen_cpu *c, uint64_t ts, uint32_t prev, uint8_t prev_prio,
		       uint8_t state, uint8_t flags, uint32_t next, uint8_t next_prio)
{
	struct tipme_rec_switch sw = {
		.prev_pid = prev, .next_pid = next, .prev_prio = prev_prio,
		.next_prio = next_prio, .prev_state = state, .flags = flags,
	};

	add_rec(c, TIPME_REC_SCHED_SWITCH, ts, &sw, sizeof(sw));
}

static void add_waking(struct gen_cpu *c, uint64_t ts, uint32_t pid, uint32_t cpu,
		       uint32_t waker, uint32_t ctx)
{
	struct tipme_rec_waking wk;

	tipme_waking_pack(&wk, pid, cpu, waker, ctx);
	add_rec(c, TIPME_REC_SCHED_WAKING, ts, &wk, sizeof(wk));
}

static int write_golden(const char *path, struct tm_err *e)
{
	static const unsigned char future[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
						  11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
	struct tipme_rec_trigger trig = { .seq = 1, .source = TIPME_TRIG_HOTKEY };
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 1 };
	struct gen_spec s;
	struct gen_cpu *c0, *c1;
	int err;

	gen_default(&s);
	gen_add_type(&s, GEN_TYPE_FUTURE, 0, 20, "future_event");
	s.hdr.tsc_khz = 1000000;
	s.hdr.nr_cpus = 2;
	s.subbuf_size = 64;
	s.unknown_section = 1;
	s.nr_cpus = 2;
	c0 = &s.cpus[0];
	c1 = &s.cpus[1];
	c0->cpu = 0;
	c1->cpu = 1;
	c0->recs = calloc(16, sizeof(struct gen_in));
	c1->recs = calloc(16, sizeof(struct gen_in));
	c0->first_seq = 3;
	c1->first_seq = 7;
	c1->gap_before = 2;
	c1->gap_len = 2;
	c1->last_partial = 1;

	add_switch(c1, T(123), 207, 120, TIPME_TS_SLEEPING, 0, 0, 120);
	add_waking(c1, T(1000), 207, 1, 208, TIPME_CTX_TASK);
	add_switch(c1, T(1500), 0, 120, TIPME_TS_RUNNABLE, 0, 207, 120);
	add_switch(c1, T(2000), 207, 120, TIPME_TS_DISK, 0, 0, 120);
	add_rec(c1, TIPME_REC_TRIGGER, T(2000 + (1 << 24)), &trig, sizeof(trig));
	add_waking(c1, T(2000 + (1 << 24) + 5), 207, 1, 0, TIPME_CTX_HARDIRQ);
	add_switch(c1, T(2000 + (1 << 24) + 9), 0, 120, TIPME_TS_RUNNABLE, 0, 207, 100);

	add_waking(c0, T(1000), 300, 0, 207, TIPME_CTX_SOFTIRQ);
	add_switch(c0, T(1000), 208, 139, TIPME_TS_RUNNABLE, TIPME_SWITCH_PREEMPT, 300, 100);
	add_rec(c0, TIPME_REC_INPUT, T(3000), &in, sizeof(in));
	add_rec(c0, GEN_TYPE_FUTURE, T(4000), future, sizeof(future));
	add_switch(c0, T(16777215 + 123), 300, 100, TIPME_TS_SLEEPING, 0, 208, 139);

	s.nr_pairs = 2;
	memset(s.pairs, 0, sizeof(s.pairs));
	s.pairs[0].ts = T(0);
	s.pairs[0].mono_ns = 1234567890000ULL;
	s.pairs[0].real_ns = 1714566896000000000ULL;
	s.pairs[1].ts = T(1000000000);
	s.pairs[1].mono_ns = 1234567890000ULL + 1000000000;
	s.pairs[1].real_ns = 1714566896000000000ULL + 1000000000;

	s.nr_stats = 2;
	memset(s.stats, 0, sizeof(s.stats));
	s.stats[0] = (struct tipme_cpu_stats){ .cpu = 0, .flags = TIPME_CPU_ONLINE,
					       .written = 5, .bytes = 100 };
	s.stats[1] = (struct tipme_cpu_stats){ .cpu = 1, .flags = TIPME_CPU_ONLINE,
					       .written = 11, .overwritten = 4, .dropped = 1,
					       .bytes = 260, .discarded_subbufs = 1 };
	s.system = "kernel=6.1.0-test\nhostname=testbox\nweird=tab\there\n";
	s.params = "subbuf_size=64\nsubbufs=4\n";
	err = gen_write(path, &s, NULL, e);
	gen_spec_free(&s);
	return err;
}

/* ------------------------------------------------------------------ */
/* Running commands                                                    */
/* ------------------------------------------------------------------ */

/* Run a pm_cmd_* in this process with stdout/stderr captured. */
static int run_cmd(int (*fn)(int, char **), const char *args)
{
	char *argv[16], buf[512], *tok, *save = NULL;
	int argc = 0, ret;

	snprintf(buf, sizeof(buf), "%s", args);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 15; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = strcmp(tok, "DUMP") ? tok : dump;
	argv[argc] = NULL;
	ret = capture_run(fn, argc, argv, out_path, err_path);
	free(out_text);
	free(err_text);
	out_text = capture_slurp(out_path);
	err_text = capture_slurp(err_path);
	return ret;
}

/* Run the CLI binary (args with DUMP replaced); -1 if not available. */
static int run_cli(const char *cli, const char *args)
{
	char cmd[1024], a[512], *p;
	int st;

	snprintf(a, sizeof(a), "%s", args);
	p = strstr(a, "DUMP");
	if (p) {
		*p = '\0';
		snprintf(cmd, sizeof(cmd), "%s %s%s%s >%s 2>%s", cli, a, dump, p + 4,
			 out_path, err_path);
	} else {
		snprintf(cmd, sizeof(cmd), "%s %s >%s 2>%s", cli, a, out_path, err_path);
	}
	st = system(cmd);
	free(out_text);
	free(err_text);
	out_text = capture_slurp(out_path);
	err_text = capture_slurp(err_path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Feed @text to a python3 program on stdin; 1 if it exits 0. */
static int python(const char *prog, const char *text)
{
	char in[160], py[160], cmd[400];
	FILE *f;
	int st;

	snprintf(in, sizeof(in), "%s/in.json", dir);
	snprintf(py, sizeof(py), "%s/check.py", dir);
	f = fopen(in, "w");
	if (!f)
		return 0;
	fputs(text, f);
	fclose(f);
	f = fopen(py, "w");
	if (!f)
		return 0;
	fputs(prog, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 %s < %s", py, in);
	st = system(cmd);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static int same(const char *got, const char *want, const char *what)
{
	if (!strcmp(got, want))
		return 1;
	tap_diag("%s: got:\n%s", what, got);
	tap_diag("%s: want:\n%s", what, want);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Golden output                                                       */
/* ------------------------------------------------------------------ */

static const char records_all[] =
	"  1234.567890123 [001] sched_switch prev=207 (S, prio 120) -> next=0 (prio 120)\n"
	"  1234.567891000 [000] sched_waking pid=300 cpu=0 by 207 (softirq)\n"
	"  1234.567891000 [000] sched_switch prev=208 (R+, prio 139) -> next=300 (prio 100)\n"
	"  1234.567891000 [001] sched_waking pid=207 cpu=1 by 208 (task)\n"
	"  1234.567891500 [001] sched_switch prev=0 (R, prio 120) -> next=207 (prio 120)\n"
	"  1234.567892000 [001] sched_switch prev=207 (D, prio 120) -> next=0 (prio 120)\n"
	"  1234.567893000 [000] input key press device=1 code=0\n"
	"  1234.567894000 [000] future_event (type 9, 20 bytes) 0102030405060708090a0b0c0d0e0f1011121314\n"
	"  1234.584667338 [000] sched_switch prev=300 (S, prio 100) -> next=208 (prio 139)\n"
	"  1234.584669216 [001] trigger seq=1 source=hotkey\n"
	"  1234.584669221 [001] sched_waking pid=207 cpu=1 by 0 (hardirq)\n"
	"  1234.584669225 [001] LOST 2 sub-buffers (seq 9..10): records of this CPU after 1234.584669221 are missing\n"
	"  1234.584669225 [001] sched_switch prev=0 (R, prio 120) -> next=207 (prio 100)\n";

static void test_records(void)
{
	int ret;

	ret = run_cmd(pm_cmd_records, "records DUMP");
	tap_ok(ret == 0 && same(out_text, records_all, "records"),
	       "records: time order across CPUs, ties by CPU, loss marker, every type");

	ret = run_cmd(pm_cmd_records, "records --cpu 0 DUMP");
	tap_ok(ret == 0 && count_lines(out_text) == 5 && !strstr(out_text, "[001]"),
	       "records --cpu 0");

	ret = run_cmd(pm_cmd_records, "records --pid 208 DUMP");
	tap_ok(ret == 0 && same(out_text,
		"  1234.567891000 [000] sched_switch prev=208 (R+, prio 139) -> next=300 (prio 100)\n"
		"  1234.567891000 [001] sched_waking pid=207 cpu=1 by 208 (task)\n"
		"  1234.584667338 [000] sched_switch prev=300 (S, prio 100) -> next=208 (prio 139)\n"
		"  1234.584669225 [001] LOST 2 sub-buffers (seq 9..10): records of this CPU after 1234.584669221 are missing\n",
		"records --pid 208"),
	       "records --pid: prev, next, woken and waker match; the loss is still shown");

	ret = run_cmd(pm_cmd_records, "records -t sched_waking,trigger -c 1 DUMP");
	tap_ok(ret == 0 && same(out_text,
		"  1234.567891000 [001] sched_waking pid=207 cpu=1 by 208 (task)\n"
		"  1234.584669216 [001] trigger seq=1 source=hotkey\n"
		"  1234.584669221 [001] sched_waking pid=207 cpu=1 by 0 (hardirq)\n"
		"  1234.584669225 [001] LOST 2 sub-buffers (seq 9..10): records of this CPU after 1234.584669221 are missing\n",
		"records -t -c"),
	       "records --type with a comma list, combined with --cpu");

	ret = run_cmd(pm_cmd_records, "records --json DUMP");
	tap_ok(ret == 0 && count_lines(out_text) == 13 &&
	       python("import sys,json\n"
		      "ev=[json.loads(l) for l in sys.stdin]\n"
		      "assert ev[0]==dict(time=\"1234.567890123\",mono_ns=1234567890123,ts=1123,cpu=1,"
		      "type=\"sched_switch\",prev_pid=207,prev_state=\"S\",prev_prio=120,preempt=False,"
		      "next_pid=0,next_prio=120), ev[0]\n"
		      "assert ev[2][\"preempt\"] and ev[2][\"prev_state\"]==\"R\"\n"
		      "assert ev[3]==dict(time=\"1234.567891000\",mono_ns=1234567891000,ts=2000,cpu=1,"
		      "type=\"sched_waking\",pid=207,target_cpu=1,waker=208,waker_ctx=\"task\"), ev[3]\n"
		      "assert ev[7][\"payload_hex\"]==\"0102030405060708090a0b0c0d0e0f1011121314\"\n"
		      "assert ev[11][\"type\"]==\"lost\" and ev[11][\"lost_subbufs\"]==2 and ev[11][\"seq_first\"]==9\n"
		      "assert ev[11][\"since_mono_ns\"]==1234584669221 and ev[11][\"seq_last\"]==10\n"
		      "assert ev[9][\"source\"]==\"hotkey\" and ev[6][\"kind\"]==\"key\"\n"
		      "assert [e[\"mono_ns\"] for e in ev]==sorted(e[\"mono_ns\"] for e in ev)\n",
		      out_text),
	       "records --json: JSON Lines that python3 reads back with the expected fields");
}

/*
 * A record type only this test writes (TIPME_REC_TEST): one line of the
 * UAPI's list, this writer and its family's decoder (records/marks.c)
 * were all it took.
 */
static void test_test_type(void)
{
	struct tipme_rec_test t = { .seq = 7, .value = 4000000000U };
	char path[200], args[260];
	struct tm_err e = { "" };
	struct gen_spec s;
	int ret;

	gen_default(&s);
	s.hdr.tsc_khz = 1000000;
	s.nr_cpus = 1;
	s.cpus[0].recs = calloc(4, sizeof(struct gen_in));
	ret = gen_add_known(&s, TIPME_REC_TEST);
	if (s.cpus[0].recs)
		add_rec(&s.cpus[0], TIPME_REC_TEST, T(5), &t, sizeof(t));
	snprintf(path, sizeof(path), "%s/test-type.tipme", dir);
	ret = ret || !s.cpus[0].recs || gen_write(path, &s, NULL, &e);
	gen_spec_free(&s);
	tap_ok(!ret, "write a dump with a test-only record type%s%s",
	       e.msg[0] ? ": " : "", e.msg);

	snprintf(args, sizeof(args), "records %s", path);
	ret = run_cmd(pm_cmd_records, args);
	tap_ok(ret == 0 && same(out_text, "     0.000001005 [000] test seq=7 value=4000000000\n",
				"records (test type)"),
	       "records: a test-only type, decoded by its family");

	snprintf(args, sizeof(args), "records --json %s", path);
	ret = run_cmd(pm_cmd_records, args);
	tap_ok(ret == 0 && python("import sys,json\n"
				  "ev=[json.loads(l) for l in sys.stdin]\n"
				  "assert len(ev)==1 and ev[0]['type']=='test', ev\n"
				  "assert ev[0]['seq']==7 and ev[0]['value']==4000000000, ev\n",
				  out_text),
	       "records --json: the test-only type's members");
}

static const char info_text[] =
	"file:     DUMPPATH\n"
	"format:   version 2, little-endian, 8 sections, 1040 bytes\n"
	"created:  2024-05-01 12:34:56.123456789 UTC\n"
	"clock:    tsc, 1000000 kHz, 2 clock pairs\n"
	"flags:    0x2 (env_captured)\n"
	"cpus:     2 possible, 2 with a stream\n"
	"sections: rectypes, system, params, type 1000 (unknown), cpu_stream x2, cpu_stats, clocks\n"
	"\n"
	" cpu    records        first (s)         last (s)       span (s)  subbufs    written overwritten  dropped discarded        bytes\n"
	"   0          5   1234.567891000   1234.584667338    0.016776338        2          5           0        0         0          100\n"
	"   1          7   1234.567890123   1234.584669225    0.016779102        3         11           4        1         1          260\n"
	"LOST: cpu 1: 4 records overwritten, 1 records dropped, 1 sub-buffers discarded by the dump, 2 sub-buffers missing from the stream (1 gap)\n"
	"common window: 1234.584669225 .. 1234.584669225 (0.000000000 s)\n"
	"\n"
	"record types:\n"
	"  type  name                            count          bytes  bytes/rec\n"
	"     1  sched_switch                        6            120       20.0\n"
	"     2  sched_waking                        3             44       14.7\n"
	"     3  trigger                             1             20       20.0\n"
	"     4  input                               1             12       12.0\n"
	"     9  future_event                        1             32       32.0  (not decoded by this reader)\n"
	"        (padding)                                         44\n"
	"        total                              12\n"
	"\n"
	"system:\n"
	"  kernel=6.1.0-test\n"
	"  hostname=testbox\n"
	"  weird=tab\\x09here\n"
	"params:\n"
	"  subbuf_size=64\n"
	"  subbufs=4\n";

static void test_info(void)
{
	char want[4096], *p;
	int ret;

	/* the file name varies: put it into the golden text */
	p = strstr(info_text, "DUMPPATH");
	snprintf(want, sizeof(want), "%.*s%s%s", (int)(p - info_text), info_text, dump,
		 p + strlen("DUMPPATH"));
	ret = run_cmd(pm_cmd_info, "info DUMP");
	tap_ok(ret == 0 && same(out_text, want, "info"),
	       "info: header, per-CPU table, LOST line, common window, types, text sections");

	ret = run_cmd(pm_cmd_info, "info --json DUMP");
	tap_ok(ret == 0 &&
	       python("import sys,json\n"
		      "d=json.load(sys.stdin)\n"
		      "assert d[\"version\"]==2 and d[\"tsc_khz\"]==1000000 and d[\"nr_cpus\"]==2\n"
		      "assert d[\"created\"]==\"2024-05-01 12:34:56.123456789 UTC\"\n"
		      "assert d[\"flag_names\"]==[\"env_captured\"]\n"
		      "c=d[\"cpus\"]\n"
		      "assert [x[\"records\"] for x in c]==[5,7]\n"
		      "assert c[1][\"stats\"]==dict(flags=1,written=11,overwritten=4,dropped=1,bytes=260,discarded_subbufs=1)\n"
		      "assert c[1][\"missing_subbufs\"]==2 and c[0][\"first_mono_ns\"]==1234567891000\n"
		      "assert d[\"lost\"]==dict(stats_known=True,overwritten=4,dropped=1,discarded_subbufs=1,missing_subbufs=2)\n"
		      "w=d[\"common_window\"]\n"
		      "assert w[\"start_mono_ns\"]==1234584669225 and w[\"span_ns\"]==0\n"
		      "t={x[\"name\"]:x for x in d[\"types\"]}\n"
		      "assert t[\"sched_switch\"][\"count\"]==6 and t[\"sched_switch\"][\"bytes_per_record\"]==20\n"
		      "assert t[\"future_event\"][\"decoded\"]==False\n"
		      "assert d[\"system\"][\"weird\"]==\"tab\\there\" and d[\"params\"][\"subbufs\"]==\"4\"\n"
		      "assert len(d[\"sections\"])==8 and d[\"sections\"][3][\"name\"] is None\n",
		      out_text),
	       "info --json parses and carries the same facts");
}

/* A dump of @n CPU streams, numbered from 0, at one tick a ns. */
static void spec_cpus(struct gen_spec *s, uint32_t n)
{
	uint32_t i;

	gen_default(s);
	s->hdr.tsc_khz = 1000000;
	s->hdr.nr_cpus = n;
	s->nr_cpus = n;
	for (i = 0; i < n; i++)
		s->cpus[i].cpu = i;
}

/*
 * A two-CPU dump for the common window: CPU 0 busy from @busy0 to @busy1
 * us, its stream from sub-buffer @busy_seq; CPU 1 from @idle0 to @idle1
 * us, from sub-buffer @idle_seq.
 */
static int write_window(const char *path, uint64_t busy_seq, uint64_t busy0,
			uint64_t busy1, uint64_t idle_seq, uint64_t idle0,
			uint64_t idle1, struct tm_err *e)
{
	struct gen_spec s;
	uint64_t t;
	int err;

	spec_cpus(&s, 2);
	s.subbuf_size = 256;
	s.cpus[0].recs = calloc(64, sizeof(struct gen_in));
	s.cpus[1].recs = calloc(4, sizeof(struct gen_in));
	s.cpus[0].first_seq = busy_seq;
	s.cpus[1].first_seq = idle_seq;
	err = !s.cpus[0].recs || !s.cpus[1].recs;
	for (t = busy0; !err && t <= busy1; t += (busy1 - busy0) / 40)
		add_switch(&s.cpus[0], T(t * 1000), 300, 120, TIPME_TS_RUNNABLE,
			   TIPME_SWITCH_PREEMPT, 301, 120);
	if (!err) {
		add_switch(&s.cpus[1], T(idle0 * 1000), 400, 120,
			   TIPME_TS_SLEEPING, 0, 0, 120);
		add_switch(&s.cpus[1], T(idle1 * 1000), 0, 120,
			   TIPME_TS_RUNNABLE, 0, 400, 120);
	}
	s.nr_pairs = 1;
	memset(s.pairs, 0, sizeof(s.pairs));
	s.pairs[0].ts = T(0);
	s.pairs[0].mono_ns = 0;
	err = err ? tm_err_set(e, ENOMEM, "out of memory") : gen_write(path, &s, NULL, e);
	gen_spec_free(&s);
	return err;
}

/*
 * The common window is where no CPU lost records: one CPU that kept all
 * its history from an early record (a pool's idle CPU, or a per-CPU ring
 * that never wrapped) does not shorten it, and only the CPUs that lost
 * sub-buffers bound its start.
 */
static void test_info_window(void)
{
	static const struct {
		uint64_t busy_seq, busy0, busy1, idle_seq, idle0, idle1;
		int64_t start_us, end_us;
		const char *what;
	} c[] = {
		{ 5, 1000, 9000, 0, 10, 8000, 1000, 9000,
		  "busy CPU lost its oldest, idle one did not: from the busy CPU's oldest kept record" },
		{ 0, 1000, 9000, 0, 10, 8000, 10, 9000,
		  "nothing lost: from the first record of all" },
		{ 5, 1000, 9000, 2, 3000, 8000, 3000, 9000,
		  "both wrapped (per-CPU rings): from the later of their oldest kept records" },
	};
	char path[600], args[700], code[400];
	struct tm_err e = { "" };
	size_t i;
	int ret;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(path, sizeof(path), "%s/window-%zu.tipme", dir, i);
		ret = write_window(path, c[i].busy_seq, c[i].busy0, c[i].busy1,
				   c[i].idle_seq, c[i].idle0, c[i].idle1, &e);
		snprintf(args, sizeof(args), "info --json %s", path);
		snprintf(code, sizeof(code),
			 "import sys,json\n"
			 "w=json.load(sys.stdin)[\"common_window\"]\n"
			 "assert w[\"start_mono_ns\"]==%lld, w\n"
			 "assert w[\"start_mono_ns\"]+w[\"span_ns\"]==%lld, w\n",
			 (long long)c[i].start_us * 1000, (long long)c[i].end_us * 1000);
		tap_ok(!ret && run_cmd(pm_cmd_info, args) == 0 &&
		       python(code, out_text),
		       "info: common window: %s", c[i].what);
	}
}

/*
 * The sampler's rounds in `tipme info`: three sample_end records, one a
 * full round, two that found the table full and skipped 7 and 3 threads.
 */
static void test_info_sampler(void)
{
	static const struct tipme_rec_sample_end se[] = {
		{ .seq = 1, .threads = 100, .emitted = 100, .flags = TIPME_SMPEND_FULL },
		{ .seq = 2, .threads = 50, .emitted = 4,
		  .flags = TIPME_SMPEND_TABLE_FULL, .skipped = 7 },
		{ .seq = 5, .threads = 60, .emitted = 2,
		  .flags = TIPME_SMPEND_TABLE_FULL, .skipped = 3 },
	};
	struct tm_err e = { "" };
	struct gen_spec s;
	char path[600], args[700];
	size_t i;
	int err;

	spec_cpus(&s, 1);
	s.cpus[0].recs = calloc(8, sizeof(struct gen_in));
	err = !s.cpus[0].recs || gen_add_known(&s, TIPME_REC_SAMPLE_END);
	for (i = 0; !err && i < sizeof(se) / sizeof(se[0]); i++)
		add_rec(&s.cpus[0], TIPME_REC_SAMPLE_END, T(1000 * (i + 1)), &se[i],
			sizeof(se[i]));
	snprintf(path, sizeof(path), "%s/sampler.tipme", dir);
	err = err ? tm_err_set(&e, ENOMEM, "out of memory") : gen_write(path, &s, NULL, &e);
	gen_spec_free(&s);
	snprintf(args, sizeof(args), "info %s", path);
	tap_ok(!err && run_cmd(pm_cmd_info, args) == 0 &&
	       strstr(out_text, "sampler:  3 rounds wrote a sample_end (1 full), at most 100 "
			"threads looked at in one\n") &&
	       strstr(out_text, "LOST: the sampler skipped 10 threads in 2 rounds: its table "
			"was full"),
	       "info: the sampler's rounds and the threads it skipped%s%s",
	       err ? ": " : "", e.msg);
	snprintf(args, sizeof(args), "info --json %s", path);
	tap_ok(!err && run_cmd(pm_cmd_info, args) == 0 &&
	       python("import sys,json\n"
		      "d=json.load(sys.stdin)[\"sampler\"]\n"
		      "assert d==dict(rounds=3,full_rounds=1,threads_max=100,"
		      "table_full_rounds=2,threads_skipped=10), d\n", out_text),
	       "info --json: sampler");
}

static void test_errors(void)
{
	char path[160], cmd[800];
	int ret;

	ret = run_cmd(pm_cmd_records, "records");
	tap_ok(ret == 2 && strstr(err_text, "no dump file given") && strstr(err_text, "Usage:"),
	       "records without a file: exit 2 with usage");
	ret = run_cmd(pm_cmd_info, "info DUMP DUMP");
	tap_ok(ret == 2 && strstr(err_text, "only one dump file"), "info with two files: exit 2");
	ret = run_cmd(pm_cmd_info, "info --bogus DUMP");
	tap_ok(ret == 2 && strstr(err_text, "unrecognized option"), "unknown option: exit 2");
	ret = run_cmd(pm_cmd_records, "records --cpu x DUMP");
	tap_ok(ret == 2 && strstr(err_text, "invalid CPU 'x'"), "bad --cpu value: exit 2");
	ret = run_cmd(pm_cmd_records, "records --type nosuch DUMP");
	tap_ok(ret == 2 && strstr(err_text, "no record type 'nosuch' in this dump (it has: sched_switch sched_waking trigger input future_event)"),
	       "unknown --type: exit 2, the dump's types listed");
	ret = run_cmd(pm_cmd_records, "records --comm bash DUMP");
	tap_ok(ret == 1 && strstr(err_text, "tipme records: --comm: the dump has no exec table to "
				  "find 'bash' in; name the thread with --pid"),
	       "--comm on a dump without an exec table: exit 1, said so");
	ret = run_cmd(pm_cmd_records, "records --help");
	tap_ok(ret == 0 && strstr(out_text, "EXAMPLES") && strstr(out_text, "--pid"),
	       "records --help: exit 0, with examples");
	snprintf(path, sizeof(path), "%s/missing.tipme", dir);
	ret = run_cmd(pm_cmd_info, "info /nonexistent/x.tipme");
	tap_ok(ret == 1 && strstr(err_text, "No such file or directory"), "missing file: exit 1");

	/*
	 * Not a regular file: refused at once.  A FIFO without a writer used
	 * to block in open() (the alarm fails the test then), /dev/null was
	 * read as an empty dump.
	 */
	snprintf(path, sizeof(path), "%s/fifo.tipme", dir);
	if (!mkfifo(path, 0600)) {
		char save[200];

		snprintf(save, sizeof(save), "%s", dump);
		snprintf(dump, sizeof(dump), "%s", path);
		alarm(10);
		ret = run_cmd(pm_cmd_info, "info DUMP");
		alarm(0);
		tap_ok(ret == 1 && strstr(err_text, "is a FIFO, not a regular file"),
		       "a FIFO: exit 1 at once, \"%.*s\"", (int)strcspn(err_text, "\n"), err_text);
		snprintf(dump, sizeof(dump), "%s", save);
		unlink(path);
	} else {
		tap_ok(0, "a FIFO: mkfifo %s", strerror(errno));
	}
	ret = run_cmd(pm_cmd_info, "info /dev/null");
	tap_ok(ret == 1 && strstr(err_text, "/dev/null: is a character device, not a regular file"),
	       "a character device: exit 1, \"%.*s\"", (int)strcspn(err_text, "\n"), err_text);

	snprintf(path, sizeof(path), "%s/trunc.tipme", dir);
	snprintf(cmd, sizeof(cmd), "head -c 500 %s > %s", dump, path);
	if (system(cmd) == 0) {
		char save[200];

		snprintf(save, sizeof(save), "%s", dump);
		snprintf(dump, sizeof(dump), "%s", path);
		ret = run_cmd(pm_cmd_info, "info DUMP");
		tap_ok(ret == 1 && strstr(err_text, "truncated: header says 1040 bytes, file has 500"),
		       "truncated file: exit 1, \"%.*s\"", (int)strcspn(err_text, "\n"), err_text);
		/* flip a byte in the middle of cpu 1's stream */
		if (gen_flip_stream_byte(save, path, 1, 0, 1, NULL))
			tap_diag("could not corrupt the copy");
		ret = run_cmd(pm_cmd_records, "records DUMP");
		tap_ok(ret == 1 && strstr(err_text, "(cpu_stream cpu 1): checksum mismatch") &&
		       !out_text[0],
		       "corrupted file: exit 1, nothing printed, \"%.*s\"",
		       (int)strcspn(err_text, "\n"), err_text);
		snprintf(dump, sizeof(dump), "%s", save);
	} else {
		tap_ok(0, "truncated file");
		tap_ok(0, "corrupted file");
	}
}

/* An incident directory stands for its kernel.dump (and xhook.dump). */
static void test_incident_dir(void)
{
	char inc[100], cmd[600], save[200], *want;
	int ret;

	snprintf(inc, sizeof(inc), "%.60s/incident-7", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp %s %s/kernel.dump", inc, dump, inc);
	if (system(cmd) != 0) {
		tap_ok(0, "set up an incident directory");
		return;
	}
	snprintf(save, sizeof(save), "%s", dump);
	ret = run_cmd(pm_cmd_info, "info DUMP");
	want = strdup(out_text);
	snprintf(dump, sizeof(dump), "%.100s/", inc);	/* a trailing slash too */
	ret = run_cmd(pm_cmd_info, "info DUMP");
	tap_ok(ret == 0 && strstr(out_text, "format:") && strstr(want, "format:") &&
	       !strcmp(strstr(out_text, "format:"), strstr(want, "format:")) &&
	       strstr(out_text, "incident-7/kernel.dump\n"),
	       "info INCIDENT_DIR reads its kernel.dump");
	free(want);
	ret = run_cmd(pm_cmd_records, "records --pid 208 DUMP");
	tap_ok(ret == 0 && count_lines(out_text) > 0, "records INCIDENT_DIR too");
	snprintf(dump, sizeof(dump), "%s", dir);
	ret = run_cmd(pm_cmd_info, "info DUMP");
	tap_ok(ret == 1 && strstr(err_text, "a directory without kernel.dump"),
	       "a directory that is no incident: exit 1, \"%.*s\"",
	       (int)strcspn(err_text, "\n"), err_text);
	snprintf(dump, sizeof(dump), "%s", inc);
	ret = getenv("TIPME_CLI") ? run_cli(getenv("TIPME_CLI"), "xrecords DUMP") : -1;
	tap_ok(ret == 1 && strstr(err_text, "without its X dump (tipme-xhook was not running)"),
	       "xrecords on an incident without an X dump says so: \"%.*s\"",
	       (int)strcspn(err_text, "\n"), err_text);
	snprintf(dump, sizeof(dump), "%s", save);
}

static void test_main(void)
{
	const char *cli = getenv("TIPME_CLI");
	int ret, i;

	if (!cli || access(cli, X_OK)) {
		for (i = 0; i < 8; i++)
			tap_skip("TIPME_CLI not set (run through make unit-tests)");
		return;
	}
	ret = run_cli(cli, "--help");
	tap_ok(ret == 0 && strstr(out_text, "  status ") && strstr(out_text, "  start ") &&
	       strstr(out_text, "  stop ") && strstr(out_text, "  dump ") &&
	       strstr(out_text, "  info ") && strstr(out_text, "  records ") &&
	       strstr(out_text, "EXAMPLES"),
	       "tipme --help lists every subcommand and examples");
	ret = run_cli(cli, "--version");
	tap_ok(ret == 0 && !strcmp(out_text, "tipme " TIPME_VERSION_STRING "\n"),
	       "tipme --version prints %s", TIPME_VERSION_STRING);
	ret = run_cli(cli, "frobnicate");
	tap_ok(ret == 2 && strstr(err_text, "unknown subcommand 'frobnicate'"),
	       "unknown subcommand: exit 2 with a clear message");
	ret = run_cli(cli, "");
	tap_ok(ret == 2 && strstr(err_text, "Usage:"), "no subcommand: exit 2 with usage");
	ret = run_cli(cli, "--frob");
	tap_ok(ret == 2 && strstr(err_text, "unknown option"), "unknown global option: exit 2");
	ret = run_cli(cli, "records DUMP");
	tap_ok(ret == 0 && !strcmp(out_text, records_all), "tipme records DUMP through main()");
	ret = run_cli(cli, "help info");
	tap_ok(ret == 0 && strstr(out_text, "Usage: tipme info"), "tipme help info = tipme info --help");
	ret = run_cli(cli, "status");
	tap_ok(ret == 0 && !strcmp(out_text, "stub status\n"), "control subcommands are dispatched");
}

int main(int argc, char **argv)
{
	struct tm_err e = { "" };
	int err;

	if (argc == 3 && !strcmp(argv[1], "--write")) {
		err = write_golden(argv[2], &e);
		if (err)
			fprintf(stderr, "%s\n", e.msg);
		return !!err;
	}
	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(dump, sizeof(dump), "%s/golden.tipme", dir);
	snprintf(out_path, sizeof(out_path), "%s/out", dir);
	snprintf(err_path, sizeof(err_path), "%s/err", dir);
	tap_plan(40);
	err = write_golden(dump, &e);
	tap_ok(!err, "write the golden dump%s%s", err ? ": " : "", e.msg);
	test_records();
	test_test_type();
	test_info();
	test_info_window();
	test_info_sampler();
	test_errors();
	test_incident_dir();
	test_main();
	free(out_text);
	free(err_text);
	gen_rmtree(dir);
	return tap_done();
}
