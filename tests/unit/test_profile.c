// SPDX-License-Identifier: GPL-2.0
/*
 * The on-CPU profiler's records and `tipme profile`: the compact samples
 * (prof_c, prof_u) given as prof of the CPU's current task (dropped before
 * the stream said who that is), the full form, rates; the profile of a
 * scenario whose split the test chose (7 samples in one function, 3 in
 * another, at 100 Hz), per thread and per process, off the CPU (a sleep
 * weighed by its length), as text, JSON, folded stacks and SVG (golden
 * files), and bad options refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "cmd/commands.h"
#include "dump/decode.h"
#include "dump/tables.h"
#include "golden.h"
#include "scen.h"
#include "tap.h"

static char dir[64];
static char path[96];
static struct scen *S;		/* large: on the heap */
static const char *params;	/* the dump's extra parameters, or NULL */

#define APP	0x555500000000ULL
#define LIBC	0x7f0000000000ULL

static const char maps[] =
	"40 555500001000 555500003000 1000 0123456789abcdef0123456789abcdef01234567 /usr/bin/burn\n"
	"40 7f0000028000 7f0000100000 28000 - /usr/lib/x86_64-linux-gnu/libc.so.6\n";

static const char *const read_k[] = { "pipe_read", "vfs_read", "ksys_read", NULL };
static const char *const sleep_k[] = { "hrtimer_nanosleep", "common_nsleep", NULL };
static const char *const pipe_site[] = { "pipe_read", "vfs_read", "ksys_read", NULL };

struct chain {
	uint32_t id, pid;
	uint8_t flags, nr;
	uint64_t ip[4];
};

/* hot: 0x1150 in hot(), called from main (0x1200); cold: 0x1180 */
static const struct chain chains[] = {
	{ 3, 40, 0, 3, { APP + 0x1150, APP + 0x1200, LIBC + 0x29d90 } },
	{ 5, 40, 0, 3, { APP + 0x1180, APP + 0x1210, LIBC + 0x29d90 } },
	{ 7, 40, 0, 3, { LIBC + 0x30000, APP + 0x1220, LIBC + 0x29d90 } },
	{ 9, 40, TIPME_USTACK_TRUNC, 1, { APP + 0x1190 } },
};

static size_t table(unsigned char *b)
{
	struct tipme_sitetab_hdr h = { .hdr_size = sizeof(h), .count = 4,
				       .capacity = 1024, .depth = 16 };
	size_t off = sizeof(h), i;

	memcpy(b, &h, sizeof(h));
	for (i = 0; i < sizeof(chains) / sizeof(chains[0]); i++) {
		struct tipme_ustack u = { .id = chains[i].id, .pid = chains[i].pid,
					  .nr = chains[i].nr, .flags = chains[i].flags };

		memcpy(b + off, &u, sizeof(u));
		memcpy(b + off + sizeof(u), chains[i].ip, 8u * chains[i].nr);
		off += sizeof(u) + 8u * chains[i].nr;
	}
	return off;
}

/*
 * CPU 0 at 100 Hz: burn (40) runs from 1 ms: 7 samples in hot(), 3 in
 * cold() of which 2 in the kernel under read(); at 200 ms it sleeps on a
 * pipe (user chain 7) until 300 ms, when its thread 41 runs and is
 * sampled twice (full forms: the ring did not see 41 switched in,
 * the switch record being "lost"). CPU 1: a prof_u before any switch
 * (dropped), then other (50) at 50 Hz, a kernel thread's sample (no user
 * chain), then the profiler stops.
 */
static int write_dump(struct scen *s, unsigned char *tab, size_t tab_len)
{
	int i;

	scen_init(s, 2);
	s->compact = 1;
	s->params = params;
	s->ustacks = tab;
	s->ustacks_len = tab_len;
	s->maps = maps;
	scen_task(s, 40, 40, "burn", "/usr/bin/burn", "burn", 5);
	scen_task(s, 41, 40, "burn", "/usr/bin/burn", "burn", 5);
	scen_task(s, 50, 50, "other", "/usr/bin/other", "other", 6);
	scen_prof_rate(s, 0, MS(0.5), 100);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 40, 120);
	for (i = 0; i < 7; i++)
		scen_prof(s, 0, MS(10 + 10 * i), 40, NULL, 3);
	scen_prof(s, 0, MS(80), 40, NULL, 5);
	scen_prof(s, 0, MS(90), 40, read_k, 5);
	scen_prof(s, 0, MS(100), 40, read_k, 5);
	scen_switch(s, 0, MS(200), 40, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(200), 40, pipe_site);
	{
		struct tipme_rec_ustack_c u = { 7 };

		scen_rec(s, 0, TIPME_REC_USTACK_C, MS(200), &u, sizeof(u));
	}
	scen_wake(s, 0, MS(300), 40, 0, 0, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(300), 0, TIPME_TS_RUNNABLE, 120, 40, 120);
	s->cur[0] = -1;		/* as if the next switch record were lost */
	scen_prof(s, 0, MS(310), 41, sleep_k, 9);
	scen_prof(s, 0, MS(320), 41, NULL, 9);
	scen_prof(s, 1, MS(5), 50, NULL, 0);	/* full form, before any rate */
	{
		struct tipme_rec_prof_u u = { 0 };

		scen_rec(s, 1, TIPME_REC_PROF_U, MS(6), &u, sizeof(u));	/* dropped */
	}
	scen_prof_rate(s, 1, MS(7), 50);
	scen_switch(s, 1, MS(8), 0, TIPME_TS_RUNNABLE, 120, 50, 120);
	scen_prof(s, 1, MS(20), 50, sleep_k, 0);
	scen_prof_rate(s, 1, MS(30), 0);
	scen_switch(s, 1, MS(400), 50, TIPME_TS_SLEEPING, 120, 0, 120);
	return scen_write(s, path);
}

static char *run(int (*cmd)(int, char **), const char *args, int *ret)
{
	return capture_words(cmd, args, path, dir, ret);
}

static void decoded(void)
{
	unsigned char tab[512];
	struct pm_dump pm = { 0 };
	struct tm_err e = { "" };
	struct pm_merge m;
	struct pm_event ev;
	uint32_t pid[16], site[16], us[16], cpu[16], rates = 0;
	int64_t ns[16];
	size_t n = 0, i, at10 = 16, at20 = 16, at90 = 16, at310 = 16;
	int ret;

	ret = write_dump(S, tab, table(tab));
	tap_ok(!ret && !S->overflow, "the dump is written");
	ret = pm_open(&pm, path, 0, &e);
	tap_ok(!ret, "it opens: %s", e.msg);
	if (ret)
		return;
	ret = pm_merge_init(&m, &pm, NULL, &e);
	while (ret >= 0 && (ret = pm_merge_next(&m, &ev, &e)) > 0) {
		if (ev.type == TIPME_REC_PROF_RATE)
			rates++;
		if (ev.type != TIPME_REC_PROF || n >= 16)
			continue;
		pid[n] = ev.u.rec.PROF.pid;
		site[n] = ev.u.rec.PROF.site;
		us[n] = ev.u.rec.PROF.ustack;
		cpu[n] = ev.cpu;
		ns[n++] = ev.ns;
	}
	pm_merge_free(&m);
	for (i = 0; i < n; i++) {
		if (ns[i] == (int64_t)MS(10))
			at10 = i;
		if (ns[i] == (int64_t)MS(20) && cpu[i] == 1)
			at20 = i;
		if (ns[i] == (int64_t)MS(90))
			at90 = i;
		if (ns[i] == (int64_t)MS(310))
			at310 = i;
	}
	tap_ok(n == 14, "14 samples, the compact one before any switch dropped (%zu)", n);
	tap_ok(n == 14 && pid[0] == 50 && !us[0] && at10 < n && pid[at10] == 40 &&
	       us[at10] == 3 && !site[at10] && at20 < n && pid[at20] == 50 && site[at20] &&
	       !us[at20] && at90 < n && pid[at90] == 40 && site[at90] && us[at90] == 5 &&
	       at310 < n && pid[at310] == 41 && site[at310] && us[at310] == 9,
	       "prof_c and prof_u given as prof of the CPU's current task; full forms as written");
	tap_ok(rates == 3, "three rate records (%u)", rates);
	pm_close(&pm);
}

static void golden_outputs(void)
{
	static const struct {
		int (*cmd)(int, char **);
		const char *args, *file;
	} c[] = {
		{ pm_cmd_records, "records --type prof,prof_rate DUMP", "profile-records.txt" },
		{ pm_cmd_records, "records --json --type prof,prof_rate DUMP", "profile-records.json" },
		{ pm_cmd_profile, "profile DUMP", "profile.txt" },
		{ pm_cmd_profile, "profile --json DUMP", "profile.json" },
		{ pm_cmd_profile, "profile --folded DUMP", "profile.folded" },
		{ pm_cmd_profile, "profile --pid 40 --top 3 DUMP", "profile-pid.txt" },
		{ pm_cmd_profile, "profile --pid 41 --folded DUMP", "profile-thread.folded" },
		{ pm_cmd_profile, "profile --comm other --from 0.010 --to 0.5 DUMP",
		  "profile-comm.txt" },
		{ pm_cmd_profile, "profile --off-cpu --pid 40 DUMP", "profile-off.txt" },
		{ pm_cmd_profile, "profile --off-cpu --pid 40 --folded DUMP", "profile-off.folded" },
		{ pm_cmd_profile, "profile --off-cpu --json --pid 40 --from 0.25 --to 0.3 DUMP",
		  "profile-off.json" },
		{ pm_cmd_profile, "profile --svg --pid 40 DUMP", "profile.svg" },
	};
	unsigned char tab[512];
	char gp[160], *t;
	size_t i;
	int ret;

	if (write_dump(S, tab, table(tab)))
		return;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		t = run(c[i].cmd, c[i].args, &ret);
		snprintf(gp, sizeof(gp), "tests/unit/golden/%s", c[i].file);
		tap_ok(!ret && golden_file(gp, t), "%s", c[i].args);
		free(t);
	}
}

/* The shares the scenario made: hot 7 of burn's 10 on-CPU samples. */
static void shares(void)
{
	unsigned char tab[512];
	char *t;
	int ret;

	if (write_dump(S, tab, table(tab)))
		return;
	t = run(pm_cmd_profile, "profile --pid 40 DUMP", &ret);
	tap_ok(!ret && t && strstr(t, "0.070 s  70.0%    0.070 s  70.0%  burn+0x1150"),
	       "hot(): 70%% self and total of thread 40");
	tap_ok(t && strstr(t, "0.030 s  30.0%    0.030 s  30.0%  burn+0x1180") == NULL &&
	       strstr(t, "   0.010 s  10.0%    0.030 s  30.0%  burn+0x1180"),
	       "cold(): 30%% total, 10%% self (the kernel has the rest)");
	free(t);
}

/* A sample before its CPU's first rate record: weighed by the dump's profile_hz. */
static void param_rate(void)
{
	unsigned char tab[512];
	char *t;
	int ret;

	params = "profile_hz=50\n";
	ret = write_dump(S, tab, table(tab));
	params = NULL;
	if (ret)
		return;
	t = run(pm_cmd_profile, "profile --json --pid 50 DUMP", &ret);
	tap_ok(!ret && t && strstr(t, "\"count\":2,\"ns\":40000000,\"unweighed\":0"),
	       "the dump's profile_hz weighs the samples before a rate record");
	free(t);
}

static void refused(void)
{
	static const struct {
		const char *args, *msg;
	} bad[] = {
		{ "profile --json --svg DUMP", "usage" },
		{ "profile --pid 40 --comm burn DUMP", "usage" },
		{ "profile --from 2 --to 1 DUMP", "usage" },
		{ "profile --pid x DUMP", "--pid" },
		{ "profile", "usage" },
		{ "profile DIR/none.dump", "none.dump" },
		{ "profile --comm nosuch DUMP", "nosuch" },
	};
	unsigned char tab[512];
	size_t i;
	char *t;
	int ret;

	if (write_dump(S, tab, table(tab)))
		return;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char args[160], *p;

		snprintf(args, sizeof(args), "%s", bad[i].args);
		p = strstr(args, "DIR");
		if (p) {
			char tmp[160];

			snprintf(tmp, sizeof(tmp), "%.*s%s%s", (int)(p - args), args, dir, p + 3);
			snprintf(args, sizeof(args), "%s", tmp);
		}
		t = run(pm_cmd_profile, args, &ret);
		tap_ok(ret && t && strstr(t, bad[i].msg), "%s: refused (exit %d)", bad[i].args, ret);
		free(t);
	}
}

int main(void)
{
	static const char *const files[] = { "p.dump", "out", "err", NULL };

	S = malloc(sizeof(*S));
	snprintf(dir, sizeof(dir), "/tmp/tipme-profile-XXXXXX");
	if (!S || !mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/p.dump", dir);
	decoded();
	golden_outputs();
	shares();
	param_rate();
	refused();
	capture_rmdir(dir, files);
	free(S);
	return tap_done();
}
