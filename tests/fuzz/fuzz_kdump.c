// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a kernel dump through every analysis command that
 * reads one, with their options (info, records, ps, cost, why, report,
 * latency, legs, timeline, export, profile, redact; text, JSON and SVG),
 * the way root's `tipme` would run them on a dump from a bug report.  The
 * dump is given as a file and as an incident directory whose X dump is a fixed seed (for
 * report --x, latency, the X legs and xrecords).  Every JSON output, and
 * every SVG and JSON file a command writes, must be well-formed
 * (wellformed.h) when the command succeeds.
 *
 * Before them, the index of sub-buffers by time (dump/index.h) must give
 * for a few ranges what a full merge gives there, and the skim that
 * `tipme info` reads (pm_dec_skim()) each CPU's statistics or error as
 * the full decoder does (and the whole dump's cost as pm_cost_add() makes
 * it of every event), or the harness aborts.
 *
 * Each input runs a fifth of the option combinations, chosen by a hash of
 * its bytes, so an input costs what it did with one combination per
 * command; with FUZZ_ALL=1 in the environment (tests/fuzz/run.sh sets it
 * to replay the regression inputs) each runs all of them.  The mutator
 * fixes the checksums after each mutation so that changes get past them.
 *
 * User-space chains are symbolised from the files their mappings name
 * (postmortem/dump/usym.c): the paths, build-ids and offsets are the
 * input's, the files this machine's (the ustack seed names the host's
 * libc, whose build-id the guest shared); debuginfod is never asked.
 */
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/cost.h"
#include "cmd/commands.h"
#include "dump/index.h"
#include "dump_fix.h"
#include "incident/incident.h"
#include "readfile.h"
#include "state/state.h"
#include "wellformed.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed);

/*
 * The combinations.  Words: DUMP the dump file, INC the incident
 * directory, PID a thread the dump knows, S0/S1/S2 its first, middle and
 * last record's time (s), SVG/JSON/COPY files in the scratch directory.
 * @out: what stdout must be when the command succeeds ("json", "jsonl",
 * "xml" or NULL: text); @file: the file it wrote and what that must be.
 */
static const struct combo {
	int (*cmd)(int, char **);
	const char *args, *out, *file, *file_kind;
} combos[] = {
	{ pm_cmd_info, "info DUMP", NULL, NULL, NULL },
	{ pm_cmd_info, "info --json DUMP", "json", NULL, NULL },
	{ pm_cmd_records, "records DUMP", NULL, NULL, NULL },
	{ pm_cmd_records, "records --json DUMP", "jsonl", NULL, NULL },
	{ pm_cmd_records, "records --pid PID --cpu 0 --cpu 1 DUMP", NULL, NULL, NULL },
	{ pm_cmd_records, "records --json --pid PID --type sched_switch,sched_waking DUMP",
	  "jsonl", NULL, NULL },
	{ pm_cmd_records, "records --json --type input --type trigger --type exec,comm DUMP",
	  "jsonl", NULL, NULL },
	{ pm_cmd_ps, "ps DUMP", NULL, NULL, NULL },
	{ pm_cmd_ps, "ps --json DUMP", "json", NULL, NULL },
	{ pm_cmd_cost, "cost DUMP", NULL, NULL, NULL },
	{ pm_cmd_cost, "cost --json DUMP", "json", NULL, NULL },
	{ pm_cmd_cost, "cost --json --from S0 --to S1 DUMP", "json", NULL, NULL },
	{ pm_cmd_why, "why --pid PID DUMP", NULL, NULL, NULL },
	{ pm_cmd_why, "why --json --pid PID DUMP", "json", NULL, NULL },
	{ pm_cmd_why, "why --json --pid PID --from S0 --to S2 --min-ms 0 --depth 3 DUMP",
	  "json", NULL, NULL },
	{ pm_cmd_why, "why --pid PID --window 50 --depth 0 DUMP", NULL, NULL, NULL },
	{ pm_cmd_report, "report DUMP", NULL, NULL, NULL },
	{ pm_cmd_report, "report --json DUMP", "json", NULL, NULL },
	{ pm_cmd_report, "report --pid PID DUMP", NULL, NULL, NULL },
	{ pm_cmd_report, "report --json --pid PID --from S0 --to S2 DUMP", "json", NULL, NULL },
	{ pm_cmd_report, "report --json --pid PID --window 100 INC", "json", NULL, NULL },
	{ pm_cmd_report, "report --x INC", NULL, NULL, NULL },
	{ pm_cmd_report, "report --json --x INC", "json", NULL, NULL },
	{ pm_cmd_latency, "latency INC", NULL, NULL, NULL },
	{ pm_cmd_latency, "latency --json --min-ms 0 INC", "json", NULL, NULL },
	{ pm_cmd_legs, "legs --from waking --to switch-in DUMP", NULL, NULL, NULL },
	{ pm_cmd_legs, "legs --json --from waking --to switch-in DUMP", "json", NULL, NULL },
	{ pm_cmd_legs, "legs --json --from switch-out --to switch-in --by comm --hist log2 --top 3 DUMP",
	  "json", NULL, NULL },
	{ pm_cmd_legs, "legs --json --from blk-issue --to blk-complete --by all --hist lin:5 DUMP",
	  "json", NULL, NULL },
	{ pm_cmd_legs, "legs --json --from lock-begin --to lock-end --from-s S0 --to-s S2 DUMP",
	  "json", NULL, NULL },
	{ pm_cmd_legs, "legs --from reclaim-begin --to reclaim-end --svg SVG DUMP", NULL,
	  "SVG", "xml" },
	{ pm_cmd_legs, "legs --json --from sleep --to waking --by pid --svg SVG INC", "json",
	  "SVG", "xml" },
	{ pm_cmd_legs, "legs --json --from x-press --to x-idle --by client INC", "json",
	  NULL, NULL },
	{ pm_cmd_legs, "legs --from input --to blk-insert --by all INC", NULL, NULL, NULL },
	{ pm_cmd_timeline, "timeline -o SVG DUMP", NULL, "SVG", "xml" },
	{ pm_cmd_timeline, "timeline --json -o SVG --pid PID --from S0 --to S2 DUMP", "json",
	  "SVG", "xml" },
	{ pm_cmd_timeline, "timeline --json -o SVG INC", "json", "SVG", "xml" },
	{ pm_cmd_export, "export --perfetto --uncompressed -o JSON DUMP", NULL, "JSON", "json" },
	{ pm_cmd_export, "export --json --perfetto --uncompressed -o JSON --pid PID --from S0 --to S2 INC",
	  "json", "JSON", "json" },
	{ pm_cmd_export, "export --json --perfetto -o JSON INC", "json", NULL, NULL },
	{ pm_cmd_profile, "profile DUMP", NULL, NULL, NULL },
	{ pm_cmd_profile, "profile --json --pid PID --from S0 --to S2 DUMP", "json", NULL, NULL },
	{ pm_cmd_profile, "profile --folded --top 0 INC", NULL, NULL, NULL },
	{ pm_cmd_profile, "profile --off-cpu --json --top 2 DUMP", "json", NULL, NULL },
	{ pm_cmd_profile, "profile --off-cpu --pid PID --folded DUMP", NULL, NULL, NULL },
	{ pm_cmd_profile, "profile --svg --pid PID INC", "xml", NULL, NULL },
	{ pm_cmd_profile, "profile --off-cpu --svg DUMP", "xml", NULL, NULL },
	{ pm_cmd_redact, "redact --json -o COPY DUMP", "json", NULL, NULL },
	{ pm_cmd_redact, "redact --keep-user-stacks -o COPY DUMP", NULL, NULL, NULL },
	{ pm_cmd_xrecords, "xrecords INC", NULL, NULL, NULL },
	{ pm_cmd_xrecords, "xrecords --json INC", "json", NULL, NULL },
};

#define NCOMBOS	(sizeof(combos) / sizeof(combos[0]))
/* each input runs the combinations k with (k + hash) % SHARE == 0 */
#define SHARE	5

static char dir[64], inc[96], dump[128], svg[128], json[128], copy[128];
static int all;

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void cleanup(void)
{
	if (dir[0])
		nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || (len && write(fd, buf, len) != (ssize_t)len))
		abort();
	close(fd);
}

int LLVMFuzzerInitialize(int *argc, char **argv[])
{
	unsigned char *x = NULL;
	struct tm_err e = { "" };
	size_t xlen = 0;

	(void)argc;
	(void)argv;
	fuzz_wellformed_selftest();
	all = getenv("FUZZ_ALL") != NULL;
	unsetenv("DEBUGINFOD_URLS");
	/* the commands' files are written and fsync'ed: on tmpfs if there is one */
	snprintf(dir, sizeof(dir), "%s/tipme-fuzz-XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	snprintf(inc, sizeof(inc), "%s/incident", dir);
	snprintf(dump, sizeof(dump), "%s/kernel.dump", inc);
	snprintf(svg, sizeof(svg), "%s/out.svg", dir);
	snprintf(json, sizeof(json), "%s/out.json", dir);
	snprintf(copy, sizeof(copy), "%s/copy.dump", dir);
	if (mkdir(inc, 0700))
		abort();
	/* the incident's X dump: a seed of the X dump harness, if it is there */
	if (!tm_read_file("tests/fuzz/corpus/xdump/latency.xdump", &x, &xlen, &e)) {
		char p[160];

		snprintf(p, sizeof(p), "%s/xhook.dump", inc);
		put(p, x, xlen);
		free(x);
	}
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed)
{
	(void)seed;
	size = LLVMFuzzerMutate(data, size, max);
	fuzz_kdump_fix(data, size);
	return size;
}

/* Seconds of @ns for an option: within what the options take. */
static void secs(char *buf, size_t len, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	if (ns >= INT64_C(2147483647000000000))
		ns = INT64_C(2147483647000000000) - 1;
	snprintf(buf, len, "%" PRId64 ".%09" PRId64, ns / 1000000000, ns % 1000000000);
}

static void run(const struct combo *c, const char *pid, char s[3][32])
{
	char buf[400], *argv[24], *tok, *save = NULL, *out = NULL;
	FILE *o, *keep = stdout;
	size_t len = 0;
	int argc = 0, ret;

	snprintf(buf, sizeof(buf), "%s", c->args);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 23; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "DUMP"))
			tok = dump;
		else if (!strcmp(tok, "INC"))
			tok = inc;
		else if (!strcmp(tok, "PID"))
			tok = (char *)pid;
		else if (!strcmp(tok, "S0") || !strcmp(tok, "S1") || !strcmp(tok, "S2"))
			tok = s[tok[1] - '0'];
		else if (!strcmp(tok, "SVG"))
			tok = svg;
		else if (!strcmp(tok, "JSON"))
			tok = json;
		else if (!strcmp(tok, "COPY"))
			tok = copy;
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	unlink(svg);
	unlink(json);
	unlink(copy);
	/* the command's stdout, in memory: checked, then dropped */
	o = open_memstream(&out, &len);
	if (!o)
		abort();
	stdout = o;
	ret = c->cmd(argc, argv);
	fflush(o);
	stdout = keep;
	fclose(o);
	if (!ret && c->out)
		fuzz_require(c->out, c->args, out, len);
	free(out);
	if (!ret && c->file) {
		unsigned char *f = NULL;
		struct tm_err e = { "" };
		size_t flen = 0;

		if (!tm_read_file(!strcmp(c->file, "SVG") ? svg : json, &f, &flen, &e))
			fuzz_require(c->file_kind, c->args, (const char *)f, flen);
		free(f);
	}
}

/* Whether [@from, @to] from @ix gives the events of the full merge there. */
static int range_same(const struct pm_dump *pm, const struct pm_index *ix,
		      int64_t from, int64_t to)
{
	struct tm_err e = { "" };
	struct pm_merge whole, part;
	struct pm_event a, b;
	int ra = 1, rb, same = 1;

	if (pm_merge_init(&whole, pm, NULL, &e))
		return 1;
	if (pm_merge_range(&part, pm, ix, NULL, from, to, &e)) {
		pm_merge_free(&whole);
		pm_merge_free(&part);
		return 1;
	}
	for (;;) {
		while ((ra = pm_merge_next(&whole, &a, &e)) > 0 && a.ns < from)
			;
		if (ra > 0 && a.ns > to)
			ra = 0;
		rb = pm_merge_next(&part, &b, &e);
		if (ra != rb || ra <= 0)
			break;
		if (a.kind != b.kind || a.cpu != b.cpu || a.ts != b.ts || a.type != b.type ||
		    a.file_off != b.file_off || a.lost_count != b.lost_count ||
		    memcmp(&a.u, &b.u, sizeof(a.u))) {
			same = 0;
			break;
		}
	}
	same &= ra == rb;
	pm_merge_free(&whole);
	pm_merge_free(&part);
	return same;
}

/*
 * The recorder's cost of the whole dump, which pm_cost_compute() skims
 * for, against pm_cost_add() given every event: the same, or the same
 * error.
 */
static void check_cost(const struct pm_dump *pm)
{
	struct tm_err e1 = { "" }, e2 = { "" };
	struct pm_cost c1, c2;
	struct pm_cost_run r;
	struct pm_event ev;
	struct pm_dec d;
	uint32_t i;
	int ra, rb = 0;

	ra = pm_cost_compute(pm, INT64_MIN, INT64_MAX, &c1, &e1);
	pm_cost_begin(&r, pm, INT64_MIN, INT64_MAX, &c2);
	for (i = 0; i < pm->nr_cpus && !rb; i++) {
		pm_dec_init(&d, pm, &pm->cpus[i]);
		while ((rb = pm_dec_next(&d, &ev, &e2)) > 0 &&
		       !(rb = pm_cost_add(&r, &ev, &e2)))
			;
		if (!rb)
			pm_cost_cpu_end(&r);
	}
	if (!rb)
		pm_cost_end(&r);
	if (ra != rb || (ra && strcmp(e1.msg, e2.msg)) ||
	    (!ra && memcmp(&c1, &c2, sizeof(c1))))
		abort();
}

/*
 * What `tipme info` reads, pm_dec_skim() wanting the sampler's and the
 * cost records, against the full decoder on each CPU: the same
 * statistics, or the same error.
 */
static void check_skim(const struct pm_dump *pm)
{
	static const uint8_t want[PM_NR_TYPES] = {
		[TIPME_REC_SAMPLE_END] = 1, [TIPME_REC_COST] = 1,
	};
	struct tm_err e1 = { "" }, e2 = { "" };
	struct pm_dec_tally t;
	struct pm_dec_stats st;
	struct pm_event ev;
	struct pm_dec d;
	uint32_t i;
	int ra, rb;

	for (i = 0; i < pm->nr_cpus; i++) {
		ra = pm_dec_all(pm, &pm->cpus[i], &st, &e1);
		memset(&t, 0, sizeof(t));
		pm_dec_init(&d, pm, &pm->cpus[i]);
		while ((rb = pm_dec_skim(&d, want, &ev, &t, &e2)) > 0)
			;
		if (ra != rb || (ra && strcmp(e1.msg, e2.msg)) ||
		    (!ra && memcmp(&st, &d.st, sizeof(st))))
			abort();
	}
	check_cost(pm);
}

/* The index's ranges against the full merge's, on a dump that opened. */
static void check_index(const struct pm_dump *pm)
{
	struct tm_err e = { "" };
	struct pm_index ix;
	size_t k;

	if (!pm_index_build(&ix, pm, &e)) {
		for (k = 0; k < ix.n; k += 1 + ix.n / 4)
			if (!range_same(pm, &ix, ix.sb[k].first_ns, ix.sb[k].last_ns) ||
			    !range_same(pm, &ix, ix.sb[k].last_ns, INT64_MAX))
				abort();
	}
	pm_index_free(&ix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tm_err e = { "" };
	struct pm_incident in;
	char pid[24] = "1", s[3][32] = { "0", "1", "2" };
	uint32_t h = 2166136261u;
	struct pm_state st;
	size_t i;

	/* a pid and times the dump knows, for the options */
	if (!pm_incident_open_mem(&in, data, size, 0, &e)) {
		check_index(&in.pm);
		check_skim(&in.pm);
		if (!pm_state_build(&st, &in, &e)) {
			if (st.nthreads)
				snprintf(pid, sizeof(pid), "%u", st.threads[st.nthreads / 2].pid);
			if (st.last_ns >= st.first_ns) {
				secs(s[0], sizeof(s[0]), st.first_ns);
				secs(s[1], sizeof(s[1]),
				     st.first_ns + (int64_t)(((uint64_t)st.last_ns -
							      (uint64_t)st.first_ns) / 2));
				secs(s[2], sizeof(s[2]), st.last_ns);
			}
			pm_state_free(&st);
		}
	}
	pm_incident_close(&in);
	put(dump, data, size);
	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	for (i = 0; i < NCOMBOS; i++)
		if (all || (i + h) % SHARE == 0)
			run(&combos[i], pid, s);
	return 0;
}
