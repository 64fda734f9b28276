// SPDX-License-Identifier: GPL-2.0
/*
 * The state rebuilt from a time range's records alone
 * (pm_state_build_range(), state/state.h) against the whole dump's
 * (pm_state_build()): over a simulated machine whose threads run, are
 * preempted, sleep at sites and wake each other across CPUs, in compact
 * records with short headers over many sub-buffers with gaps, the range
 * that covers every record gives the whole state exactly, and for random
 * ranges every stretch a thread began inside the range and ended inside
 * it (all but its first and last there) is the whole dump's stretch,
 * field by field, and they follow one another as in the whole dump.
 * `tipme why --margin` and `tipme report --margin` (the state of the
 * interval and its margins only) print, text and JSON, byte for byte what
 * they print without for random threads and intervals there (and a margin
 * too short differs).  The bounded build from checkpoints (what why and
 * report do by default: state/state.h, pm_ckpts_grid()) prints what
 * --whole (every record) prints, for random intervals, the window before
 * the trigger and report without --pid, with a short look-back and with
 * none; and so on the dumps of real machines the VM tests leave in
 * tests/vm/out (or the folders $TIPME_REAL_DUMPS names).  The checkpoints
 * kept in a file beside the dump (pm_ckpts_save()) give, read back, the
 * states the pass's give; another dump's file, a changed byte or a cut
 * file are refused; the commands read the file and print what --whole
 * prints.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "cmd/commands.h"
#include "gen.h"
#include "scen.h"
#include "state/state.h"
#include "state/ckpt.h"
#include "tap.h"

#define NCPUS		3
#define NTHREADS	12
#define PER_SB		150	/* switches per sub-buffer */

enum { T_SLEEP, T_RUNNABLE, T_RUNNING };

static const char *const site_a[] = { "pipe_read", "vfs_read", NULL };
static const char *const site_b[] = { "do_sys_poll", NULL };

static uint32_t pid_of(uint32_t i)
{
	return 2000 + i;
}

/*
 * Writes the simulated machine's dump to @path, its switches up to
 * @step_ns apart (200 us: a dump of 0.2 s; 20 ms: of 20 s, sleeps of
 * seconds): 0 or -1.
 */
static int write_dump(const char *path, uint64_t seed, uint64_t step_ns)
{
	struct scen *s = calloc(1, sizeof(*s));
	uint8_t state[NTHREADS] = { 0 };
	uint32_t cur[NCPUS] = { 0 };	/* index + 1, 0 idle */
	uint64_t rnd = seed, t = 1000000, seq[NCPUS];
	int b, k, err;
	uint32_t c, i;

	if (!s)
		return -1;
	scen_init(s, NCPUS);
	s->compact = 1;
	s->short_ts = 1;
	for (i = 0; i < NTHREADS; i++)
		state[i] = i < 6 ? T_RUNNABLE : T_SLEEP;
	for (c = 0; c < NCPUS; c++)
		seq[c] = s->sb[c][0].seq;
	for (b = 0; b < SCEN_SUBBUFS; b++) {
		for (c = 0; c < NCPUS; c++) {
			if (b) {	/* cpu 1 loses two sub-buffers before its third */
				seq[c] += c == 1 && b == 2 ? 3 : 1;
				scen_subbuf(s, c, seq[c]);
			}
			for (k = 0; k < PER_SB; k++) {
				uint32_t prev = cur[c], next = 0, w;
				int sleep = gen_rand(&rnd) % 3 == 0;

				t += 1000 + gen_rand(&rnd) % step_ns;
				/* the running thread (or an interrupt) wakes a sleeper */
				w = (uint32_t)(gen_rand(&rnd) % NTHREADS);
				if (state[w] == T_SLEEP && gen_rand(&rnd) % 2) {
					scen_wake(s, c, t, pid_of(w),
						  (uint32_t)(gen_rand(&rnd) % NCPUS),
						  prev ? pid_of(prev - 1) : 0,
						  prev ? TIPME_CTX_TASK : TIPME_CTX_HARDIRQ);
					state[w] = T_RUNNABLE;
					t += 500;
				}
				for (i = 0; i < NTHREADS && !next; i++) {
					uint32_t j = (uint32_t)((i + gen_rand(&rnd) % 3) % NTHREADS);

					if (state[j] == T_RUNNABLE && j + 1 != prev)
						next = j + 1;
				}
				if (!prev && !next)
					continue;
				scen_switch_to(s, c, t, prev ? pid_of(prev - 1) : 0,
					       next ? pid_of(next - 1) : 0,
					       !(prev && sleep) ? NULL :
					       gen_rand(&rnd) % 2 ? site_a : site_b);
				if (prev)
					state[prev - 1] = sleep ? T_SLEEP : T_RUNNABLE;
				if (next)
					state[next - 1] = T_RUNNING;
				cur[c] = next;
			}
		}
	}
	scen_trigger(s, t + 1000);
	err = scen_write(s, path);
	free(s);
	return err;
}

static int same_seg(const struct pm_seg *a, const struct pm_seg *b)
{
	return a->start_ns == b->start_ns && a->end_ns == b->end_ns &&
	       a->waker == b->waker && a->ustack == b->ustack && a->cpu == b->cpu &&
	       a->block_state == b->block_state && a->prio == b->prio &&
	       a->state == b->state && a->waker_ctx == b->waker_ctx &&
	       a->woken == b->woken && a->nsite == b->nsite &&
	       (!a->nsite || !memcmp(a->site, b->site, a->nsite * sizeof(*a->site)));
}

/*
 * Every stretch of @part's threads but each one's first and last equals
 * the whole state's, in the same order; @all: every stretch too, and the
 * dump's facts.  Returns the stretches compared, or -1 (@why set).
 */
static long compare(const struct pm_state *whole, const struct pm_state *part, int all,
		    char *why, size_t wlen)
{
	long n = 0;
	size_t i, k;

	if (all && (part->nthreads != whole->nthreads || part->first_ns != whole->first_ns ||
		    part->last_ns != whole->last_ns || part->trigger_ns != whole->trigger_ns ||
		    part->nlosses != whole->nlosses)) {
		snprintf(why, wlen, "the dump's facts differ");
		return -1;
	}
	for (i = 0; i < part->nthreads; i++) {
		const struct pm_thread *p = &part->threads[i];
		const struct pm_thread *w = pm_state_thread(whole, p->pid);
		size_t lo = all ? 0 : 1, hi = all ? p->nsegs : (p->nsegs > 1 ? p->nsegs - 1 : 0);
		size_t j;

		if (!w || (all && w->nsegs != p->nsegs)) {
			snprintf(why, wlen, "thread %u: not the whole dump's", p->pid);
			return -1;
		}
		if (lo >= hi)
			continue;
		/* where the range's second stretch is in the whole dump */
		for (j = 0; j < w->nsegs && w->segs[j].start_ns != p->segs[lo].start_ns; j++)
			;
		for (k = lo; k < hi; k++, j++, n++)
			if (j >= w->nsegs || !same_seg(&p->segs[k], &w->segs[j])) {
				snprintf(why, wlen, "thread %u: stretch %zu (at %lld) differs",
					 p->pid, k, (long long)p->segs[k].start_ns);
				return -1;
			}
	}
	return n;
}

/*
 * @cmd_a and @cmd_b (words, "DUMP" for the dump; why or report: @fn)
 * print the same, text and then JSON (" --json" after the command's
 * name): 1, else 0 with @why set.
 */
static int same_out(int (*fn)(int, char **), const char *cmd_a, const char *cmd_b,
		    const char *dump, const char *dir, char *why, size_t wlen)
{
	int json, ret1, ret2, eq = 1;

	for (json = 0; json < 2 && eq; json++) {
		const char *sp_a = strchr(cmd_a, ' '), *sp_b = strchr(cmd_b, ' ');
		char a[240], b[240];
		char *out_a, *out_b;

		if (!sp_a || !sp_b)
			return 0;
		snprintf(a, sizeof(a), "%.*s%s%s", (int)(sp_a - cmd_a), cmd_a,
			 json ? " --json" : "", sp_a);
		snprintf(b, sizeof(b), "%.*s%s%s", (int)(sp_b - cmd_b), cmd_b,
			 json ? " --json" : "", sp_b);
		out_a = capture_words(fn, a, dump, dir, &ret1);
		out_b = capture_words(fn, b, dump, dir, &ret2);
		eq = ret1 == ret2 && out_a && out_b && !strcmp(out_a, out_b);
		if (!eq)
			snprintf(why, wlen, "%.120s: %s", a, ret1 || ret2 ? "failed" : "differs");
		free(out_a);
		free(out_b);
	}
	return eq;
}

/*
 * A random interval of @whole, 1 ms plus up to @longest ns long, in *@a
 * and *@b; returns a random thread of it.
 */
static uint32_t rand_interval(const struct pm_state *whole, uint64_t *rnd, uint64_t longest,
			      int64_t *a, int64_t *b)
{
	int64_t span = whole->last_ns - whole->first_ns;

	*a = whole->first_ns + (int64_t)(gen_rand(rnd) % (uint64_t)span);
	*b = *a + 1000000 + (int64_t)(gen_rand(rnd) % longest);
	return pid_of((uint32_t)(gen_rand(rnd) % NTHREADS));
}

/*
 * @cmd (why or report: @fn) with @opt (--margin M, or --lookback L: the
 * bounded build from a checkpoint) against --whole over @n random
 * threads and intervals of @whole (@kind 0: --from/--to, 1: the default
 * window, 2: report without --pid and a random --window): how many
 * printed the same, text and JSON (@why: the first that did not).
 */
static int same_bounded(int (*fn)(int, char **), const char *cmd,
			const struct pm_state *whole, const char *dump, const char *dir,
			const char *opt, int kind, int n, char *why, size_t wlen)
{
	uint64_t rnd = 5;
	int r, same = 0;

	for (r = 0; r < n; r++) {
		int64_t a, b;
		uint32_t pid = rand_interval(whole, &rnd, 50000000, &a, &b);
		char what[120], full[200], part[240];

		if (kind == 0)
			snprintf(what, sizeof(what), "--pid %u --from %.9f --to %.9f", pid,
				 a / 1e9, b / 1e9);
		else if (kind == 1)
			snprintf(what, sizeof(what), "--pid %u --window %u", pid,
				 (unsigned int)(1 + gen_rand(&rnd) % 400));
		else
			snprintf(what, sizeof(what), "--window %u",
				 (unsigned int)(1 + gen_rand(&rnd) % 400));
		snprintf(full, sizeof(full), "%s %s --whole DUMP", cmd, what);
		snprintf(part, sizeof(part), "%s %s %s DUMP", cmd, what, opt);
		same += same_out(fn, part, full, dump, dir, why, wlen);
	}
	return same;
}

/*
 * tipme timeline with @opt (--lookback L: the bounded build) against
 * --whole: the same picture (the SVG file, byte for byte) and the same
 * summary, text and JSON, over @n random intervals of @whole (@kind 0:
 * one --pid and --from/--to, the verdict's thread; 1: two pids and
 * --from/--to anywhere, the verdict the dump's own; 2: no option, the
 * dump's interval with its margin; 3: one --pid, its window before the
 * trigger).  Returns how many were the same (@why: the first that was not).
 */
static int same_picture(const struct pm_state *whole, const char *dump, const char *dir,
			const char *opt, int kind, int n, char *why, size_t wlen)
{
	uint64_t rnd = 9;
	int r, same = 0;

	for (r = 0; r < n; r++) {
		int64_t a, b;
		uint32_t p = rand_interval(whole, &rnd,
					   (uint64_t)(whole->last_ns - whole->first_ns) / 20 + 1,
					   &a, &b);
		uint32_t q = pid_of((uint32_t)(gen_rand(&rnd) % NTHREADS));
		char what[160], cmd[2][300], svg[200];
		int json, v, eq = 1;

		if (kind == 0)
			snprintf(what, sizeof(what), "--pid %u --from %.9f --to %.9f", p,
				 a / 1e9, b / 1e9);
		else if (kind == 1)
			snprintf(what, sizeof(what), "--pid %u,%u --from %.9f --to %.9f", p,
				 q == p ? pid_of(0) + (p == pid_of(0)) : q, a / 1e9, b / 1e9);
		else if (kind == 2)
			what[0] = 0;
		else
			snprintf(what, sizeof(what), "--pid %u", p);
		snprintf(svg, sizeof(svg), "%s/t.svg", dir);
		for (json = 0; json < 2 && eq; json++) {
			char *out[2], *pic[2];
			int ret[2];

			for (v = 0; v < 2; v++) {
				snprintf(cmd[v], sizeof(cmd[v]), "timeline%s -o %s %s %s DUMP",
					 json ? " --json" : "", svg, what, v ? "--whole" : opt);
				unlink(svg);
				out[v] = capture_words(pm_cmd_timeline, cmd[v], dump, dir, &ret[v]);
				pic[v] = ret[v] ? NULL : capture_slurp(svg);
			}
			if (ret[0] || ret[1] || !out[0] || !out[1] || !pic[0] || !pic[1]) {
				eq = 0;
				snprintf(why, wlen, "%.160s: failed: %.80s", cmd[ret[0] ? 0 : 1],
					 out[ret[0] ? 0 : 1] ? out[ret[0] ? 0 : 1] : "");
			} else if (strcmp(out[0], out[1]) || strcmp(pic[0], pic[1])) {
				eq = 0;
				snprintf(why, wlen, "%.160s: %s differs", cmd[0],
					 strcmp(pic[0], pic[1]) ? "the picture" : "the summary");
			}
			for (v = 0; v < 2; v++) {
				free(out[v]);
				free(pic[v]);
			}
		}
		same += eq;
	}
	return same;
}

/*
 * Dumps of real machines (the VM tests' tests/vm/out, or the folders in
 * $TIPME_REAL_DUMPS, separated by ':'): report, and why for the thread
 * report names, bounded with the default look-back (what users get)
 * against --whole: with none, a hardirq wakeup's interrupt record just
 * before the range is not read, and "woken in hardirq" loses its name
 * (t-stack's crypt-mutex.dump).  Returns the
 * dumps compared, -1 if one differed (@why set).
 */
static int real_dumps(const char *dir, char *why, size_t wlen)
{
	char cmd[1200], **dumps;
	size_t nd, i;
	int n = 0, bad = 0;

	dumps = gen_real_dumps(&nd);
	for (i = 0; i < nd && !bad; i++) {
		const char *line = dumps[i];
		char *out, *pid, w[240];
		int ret;

		if (!same_out(pm_cmd_report, "report DUMP", "report --whole DUMP",
			      line, dir, why, wlen)) {
			bad = 1;
			snprintf(why + strlen(why), wlen - strlen(why), " (%.100s)", line);
			break;
		}
		n++;
		out = capture_words(pm_cmd_report, "report --json --whole DUMP", line, dir, &ret);
		pid = out && !ret ? strstr(out, "\"pid\": ") : NULL;
		if (pid) {
			snprintf(w, sizeof(w), "why --pid %ld DUMP",
				 strtol(pid + 7, NULL, 10));
			snprintf(cmd, sizeof(cmd), "why --pid %ld --whole DUMP",
				 strtol(pid + 7, NULL, 10));
			if (!same_out(pm_cmd_why, w, cmd, line, dir, why, wlen)) {
				bad = 1;
				snprintf(why + strlen(why), wlen - strlen(why), " (%.100s)", line);
			}
		}
		free(out);
	}
	gen_real_dumps_free(dumps, nd);
	return bad ? -1 : n;
}

/*
 * A press long before the window report searches: an editor (700) asleep
 * in poll is woken by the key's interrupt at 1 s and reads it; a ticker
 * (900) runs every 50 ms on CPU 1 to 30 s, so that checkpoints spread
 * over the dump; at 29 s the editor waits 200 ms for CPU 0 behind a hog
 * (810), and a batch job (800) 500 ms for CPU 1 behind another (820);
 * the trigger at 30 s.  The editor received input, so it is the stall a
 * person felt (the whole dump's report), though the press is not in the
 * records the bounded build reads.  0 or -1.
 */
#define PL_EDITOR	700
#define PL_BATCH	800
#define PL_TICKER	900

static int write_press_long_before(const char *path)
{
	static const char *const nsleep[] = { "hrtimer_nanosleep", "common_nsleep", NULL };
	struct tipme_rec_input in = { .kind = TIPME_INPUT_KEY, .value = 1, .device = 3 };
	struct scen *s = calloc(1, sizeof(*s));
	uint64_t t;
	int err;

	if (!s)
		return -1;
	scen_init(s, 2);
	s->compact = 1;
	s->short_ts = 1;
	scen_task(s, PL_EDITOR, PL_EDITOR, "editor", "/usr/bin/editor", "editor", 7);
	scen_task(s, PL_BATCH, PL_BATCH, "batch", "/usr/bin/batch", "batch", 6);
	scen_task(s, PL_TICKER, PL_TICKER, "ticker", "/usr/bin/ticker", "ticker", 7);
	scen_task(s, 810, 810, "hog", "/usr/bin/hog", "hog", 4);
	scen_task(s, 820, 820, "hog2", "/usr/bin/hog2", "hog2", 5);
	/* CPU 0: the editor asleep in poll, the key at 1 s */
	scen_switch_to(s, 0, MS(500), 0, PL_EDITOR, NULL);
	scen_switch_to(s, 0, MS(501), PL_EDITOR, 0, site_b);
	scen_wake(s, 0, MS(999.99), PL_EDITOR, 0, 0, TIPME_CTX_HARDIRQ);
	scen_rec(s, 0, TIPME_REC_INPUT, MS(1000), &in, sizeof(in));
	scen_switch_to(s, 0, MS(1000.1), 0, PL_EDITOR, NULL);
	scen_switch_to(s, 0, MS(1000.5), PL_EDITOR, 0, site_b);
	/* at 29 s: the editor behind the hog for 200 ms */
	scen_switch_to(s, 0, MS(28990), 0, 810, NULL);
	scen_wake(s, 0, MS(29000), PL_EDITOR, 0, 0, TIPME_CTX_HARDIRQ);
	scen_switch_to(s, 0, MS(29200), 810, PL_EDITOR, site_a);
	scen_switch_to(s, 0, MS(29201), PL_EDITOR, 0, site_b);
	/* CPU 1: the ticker; the batch job behind hog2 for 500 ms at 29.1 s */
	for (t = MS(10); t < MS(30000); t += MS(50)) {
		const struct scen_sb *sb = &s->sb[1][s->nsb[1] - 1];

		if (sb->len + 256 > SCEN_SB_BYTES)
			scen_subbuf(s, 1, sb->seq + 1);
		if (t >= MS(29050) && t < MS(29650)) {
			if (t == MS(29060)) {
				scen_switch_to(s, 1, t, 0, 820, NULL);
				scen_wake(s, 1, MS(29100), PL_BATCH, 1, 0, TIPME_CTX_HARDIRQ);
				scen_switch_to(s, 1, MS(29600), 820, PL_BATCH, site_a);
				scen_switch_to(s, 1, MS(29601), PL_BATCH, 0, site_a);
			}
			continue;
		}
		scen_wake(s, 1, t, PL_TICKER, 1, 0, TIPME_CTX_HARDIRQ);
		scen_switch_to(s, 1, t + 2000, 0, PL_TICKER, NULL);
		scen_switch_to(s, 1, t + 50000, PL_TICKER, 0, nsleep);
	}
	scen_trigger(s, MS(30000));
	err = s->overflow ? -1 : scen_write(s, path);
	free(s);
	return err;
}

/*
 * report, bounded with the default look-back, against --whole on
 * write_press_long_before()'s dump; 1 if the same and the editor's stall
 * chosen (@why says the interval's first line otherwise).
 */
static int press_long_before(const char *dir, char *why, size_t wlen)
{
	char path[400], ck[420], *out;
	int ret, same;

	snprintf(path, sizeof(path), "%s/press.tipme", dir);
	if (write_press_long_before(path)) {
		snprintf(why, wlen, "writing the dump failed");
		return 0;
	}
	/* the first report writes DUMP.ckpt, the others read the presses from it */
	setenv("TIPME_CKPT_FILE", "1", 1);
	same = same_out(pm_cmd_report, "report DUMP", "report --whole DUMP", path, dir, why,
			wlen);
	out = capture_words(pm_cmd_report, "report --json DUMP", path, dir, &ret);
	unsetenv("TIPME_CKPT_FILE");
	snprintf(ck, sizeof(ck), "%s.ckpt", path);
	if (access(ck, R_OK)) {
		snprintf(why + strlen(why), wlen - strlen(why), "; no DUMP.ckpt");
		same = 0;
	}
	if (!out || ret || !strstr(out, "{\"interval\":{\"pid\":700,")) {
		snprintf(why + strlen(why), wlen - strlen(why), "; bounded: %.200s",
			 out ? out : "(none)");
		same = 0;
	}
	free(out);
	return same;
}

/* The bounded builds compared with --whole (same_bounded()). */
static const struct bounded_case {
	int (*fn)(int, char **);
	const char *cmd;
	const char *opt;
	int kind;
	int n;
} bounded[] = {
	{ pm_cmd_why, "why", "--lookback 0.02", 0, 40 },
	{ pm_cmd_why, "why", "--lookback 0.02", 1, 20 },
	{ pm_cmd_report, "report", "--lookback 0.02", 0, 40 },
	{ pm_cmd_report, "report", "--lookback 0.02", 1, 20 },
	{ pm_cmd_report, "report", "--lookback 0.02", 2, 20 },
	/* none: the checkpoints' stretches open at --from and --to are the whole dump's */
	{ pm_cmd_report, "report", "--lookback 0", 0, 40 },
	{ pm_cmd_why, "why", "--lookback 0", 0, 40 },
};

/* The time of an ftrace line of an exported trace ("... d..2 S.NNNNNNNNN: "), ns; -1 if none. */
static int64_t ft_line_ns(const char *line, const char *end)
{
	const char *p = line;
	long long sec, frac;

	while (p + 5 < end && memcmp(p, " d..2 ", 6))
		p++;
	if (p + 5 >= end || sscanf(p + 6, "%lld.%9lld", &sec, &frac) != 2)
		return -1;
	return sec * 1000000000LL + frac;
}

/*
 * The ftrace lines (JSON-escaped, "\n" between them) of the trace in
 * @json whose time is in [@a, @b] (all: @a > @b), one after another, in
 * a string (malloc'ed); *@n counts them.
 */
static char *ft_lines(const char *json, int64_t a, int64_t b, long *n)
{
	const char *p = json ? strstr(json, "\"systemTraceEvents\":\"") : NULL;
	size_t len = 0;
	char *out;

	*n = 0;
	out = malloc(json ? strlen(json) + 1 : 1);
	if (!out)
		return NULL;
	out[0] = 0;
	if (!p)
		return out;
	p += strlen("\"systemTraceEvents\":\"");
	while (*p && *p != '"') {
		const char *e = strstr(p, "\\n");
		int64_t t;

		if (!e)
			break;
		t = ft_line_ns(p, e);
		if (t >= 0 && (a > b || (t >= a && t <= b))) {
			memcpy(out + len, p, (size_t)(e - p) + 2);
			len += (size_t)(e - p) + 2;
			out[len] = 0;
			(*n)++;
		}
		p = e + 2;
	}
	return out;
}

/*
 * tipme export --perfetto of an interval with @opt (--lookback L: the
 * bounded build) against --whole: the same trace, byte for byte, over
 * @n random threads and intervals of @whole; and its ftrace lines are
 * those of the whole dump's trace (no interval) whose time is in the
 * interval, every one of them and no other.  Returns how many were both
 * (@why: the first that was not); *@lines counts the lines compared.
 */
static int same_trace(const struct pm_state *whole, const char *dump, const char *dir,
		      const char *opt, int n, long *lines, char *why, size_t wlen)
{
	char cmd[2][512], file[2][100], what[120], all_file[100], a_s[32], b_s[32];
	char *all, *all_out;
	uint64_t rnd = 13;
	int r, v, ret, same = 0;

	*lines = 0;
	snprintf(all_file, sizeof(all_file), "%s/all.json", dir);
	snprintf(cmd[0], sizeof(cmd[0]), "export --perfetto --uncompressed -o %s DUMP", all_file);
	all_out = capture_words(pm_cmd_export, cmd[0], dump, dir, &ret);
	all = ret ? NULL : capture_slurp(all_file);
	free(all_out);
	if (!all) {
		snprintf(why, wlen, "the whole dump's trace: failed");
		return 0;
	}
	for (r = 0; r < n; r++) {
		int64_t a, b;
		uint32_t pid = rand_interval(whole, &rnd,
					     (uint64_t)(whole->last_ns - whole->first_ns) / 20 + 1,
					     &a, &b);
		char *out[2], *tr[2], *got, *want;
		long ngot, nwant;
		int res[2];

		snprintf(a_s, sizeof(a_s), "%.9f", a / 1e9);
		snprintf(b_s, sizeof(b_s), "%.9f", b / 1e9);
		/* the command's own reading of the times */
		a = (int64_t)(strtod(a_s, NULL) * 1e9);
		b = (int64_t)(strtod(b_s, NULL) * 1e9);
		snprintf(what, sizeof(what), "--pid %u --from %s --to %s", pid, a_s, b_s);
		for (v = 0; v < 2; v++) {
			snprintf(file[v], sizeof(file[v]), "%s/t%d.json", dir, v);
			snprintf(cmd[v], sizeof(cmd[v]),
				 "export --perfetto --uncompressed -o %s %s %s DUMP", file[v], what,
				 v ? "--whole" : opt);
			unlink(file[v]);
			out[v] = capture_words(pm_cmd_export, cmd[v], dump, dir, &res[v]);
			tr[v] = res[v] ? NULL : capture_slurp(file[v]);
		}
		got = ft_lines(tr[0], 0, -1, &ngot);
		want = ft_lines(all, a, b, &nwant);
		if (!tr[0] || !tr[1] || !got || !want) {
			snprintf(why, wlen, "%.160s: failed: %.80s", cmd[res[0] ? 0 : 1],
				 out[res[0] ? 0 : 1] ? out[res[0] ? 0 : 1] : "");
		} else if (strcmp(tr[0], tr[1])) {
			snprintf(why, wlen, "%.160s: differs from --whole", cmd[0]);
		} else if (ngot != nwant || strcmp(got, want)) {
			snprintf(why, wlen, "%.160s: %ld ftrace lines, the whole trace has %ld there",
				 cmd[0], ngot, nwant);
		} else {
			same++;
			*lines += ngot;
		}
		free(got);
		free(want);
		for (v = 0; v < 2; v++) {
			free(out[v]);
			free(tr[v]);
		}
	}
	free(all);
	return same;
}

/* The pictures compared with --whole (same_picture()): dump 0 short, 1 long. */
static const struct picture_case {
	int dump;
	const char *opt;
	int kind;
	int n;
} pictures[] = {
	{ 0, "--lookback 0.02", 0, 20 },
	{ 0, "--lookback 0.02", 1, 20 },
	{ 0, "--lookback 0.02", 2, 1 },
	{ 0, "--lookback 0.02", 3, 10 },
	{ 0, "--lookback 0", 0, 20 },
	{ 1, "--lookback 0", 2, 1 },
	{ 1, "--lookback 0.5", 1, 10 },
	{ 1, "--lookback 0", 3, 10 },
	{ 1, "", 0, 10 },
	{ 1, "", 2, 1 },
};

static const char *const picture_kinds[] = {
	"one pid, random intervals", "two pids, random intervals", "the dump's interval",
	"one pid, its window",
};

static int same_losses(const struct pm_state *x, const struct pm_state *y)
{
	size_t i;

	for (i = 0; i < x->nlosses; i++)
		if (x->losses[i].cpu != y->losses[i].cpu ||
		    x->losses[i].since_ns != y->losses[i].since_ns ||
		    x->losses[i].until_ns != y->losses[i].until_ns ||
		    x->losses[i].first_seq != y->losses[i].first_seq ||
		    x->losses[i].subbufs != y->losses[i].subbufs)
			return 0;
	return 1;
}

/*
 * The checkpoints kept in a file (pm_ckpts_save(), pm_ckpts_load()): 20
 * random ranges built from the checkpoints read back give, field by
 * field, what the ones the pass made give.  Returns the ranges compared,
 * or -1 (@why set).
 */
static int file_same(const struct pm_incident *inc, const struct pm_state *whole,
		     const char *file, char *why, size_t wlen)
{
	struct pm_ckpts *made = NULL, *read = NULL;
	struct tm_err e = { "" };
	uint64_t rnd = 3;
	int r, n = 0;

	if (pm_ckpts_grid(&made, inc, pm_ckpts_every(inc), &e) ||
	    pm_ckpts_save(made, inc, file, &e) || pm_ckpts_load(&read, inc, file, &e)) {
		snprintf(why, wlen, "%s", e.msg);
		pm_ckpts_free(made);
		return -1;
	}
	if (made->n < 8 || read->n != made->n) {
		snprintf(why, wlen, "%zu checkpoints made, %zu read", made->n, read->n);
		n = -1;
	}
	for (r = 0; n >= 0 && r < 20; r++) {
		int64_t span = whole->last_ns - whole->first_ns;
		int64_t a = whole->first_ns + (int64_t)(gen_rand(&rnd) % (uint64_t)span);
		int64_t b = a + (int64_t)(gen_rand(&rnd) % (uint64_t)(span / 4));
		struct pm_state x, y;
		int ex = pm_state_build_ckpt(&x, inc, made, a, b, &e);
		int ey = pm_state_build_ckpt(&y, inc, read, a, b, &e);

		if (ex || ey || compare(&x, &y, 1, why, wlen) < 0 || y.lost != x.lost ||
		    !same_losses(&x, &y)) {
			if (ex || ey)
				snprintf(why, wlen, "%s", e.msg);
			else if (!strcmp(why, "ok"))
				snprintf(why, wlen, "the losses differ");
			n = -1;
		} else {
			n++;
		}
		if (!ex)
			pm_state_free(&x);
		if (!ey)
			pm_state_free(&y);
		if (n < 0)
			break;
	}
	pm_ckpts_free(made);
	pm_ckpts_free(read);
	return n;
}

/*
 * A file of checkpoints that is not this dump's, or damaged, is refused
 * (pm_ckpts_load(): -ESTALE, or the reason): 1, else 0 with @why set.
 */
static int file_refused(const struct pm_incident *inc, const char *dir, const char *file,
			char *why, size_t wlen)
{
	struct pm_incident other;
	struct pm_ckpts *ck = NULL;
	struct tm_err e = { "" };
	char path[128];
	FILE *f;
	long size;
	int err, ok = 1;

	snprintf(path, sizeof(path), "%s/other.tipme", dir);
	if (write_dump(path, 12, 200000) || pm_incident_open(&other, path, 0, &e)) {
		snprintf(why, wlen, "other dump: %s", e.msg);
		return 0;
	}
	err = pm_ckpts_load(&ck, &other, file, &e);
	pm_incident_close(&other);
	if (err != -ESTALE) {
		snprintf(why, wlen, "another dump's checkpoints: %d (%s)", err, e.msg);
		pm_ckpts_free(ck);
		return 0;
	}
	/* a byte of the checkpoints changed: the section's CRC */
	f = fopen(file, "r+b");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 200 ||
	    fseek(f, size / 2, SEEK_SET) || fputc(0x5a ^ size, f) == EOF) {
		snprintf(why, wlen, "cannot change %s", file);
		ok = 0;
	}
	if (f)
		fclose(f);
	e.msg[0] = 0;
	if (ok && (!pm_ckpts_load(&ck, inc, file, &e) || !e.msg[0])) {
		snprintf(why, wlen, "a damaged file was read");
		pm_ckpts_free(ck);
		ok = 0;
	}
	if (ok && (truncate(file, size / 3) || !pm_ckpts_load(&ck, inc, file, &e))) {
		snprintf(why, wlen, "a cut file was read");
		pm_ckpts_free(ck);
		ok = 0;
	}
	return ok;
}

/*
 * The commands with the file (TIPME_CKPT_FILE=1): the first writes
 * DUMP.ckpt, the next read it (it is not written again: the same inode)
 * and print what --whole prints.  Returns how many of @n printed the same,
 * or -1 (@why set) if the file was not written or was written again.
 */
static int file_cmds(const struct pm_state *whole, const char *dump, const char *dir,
		     int n, char *why, size_t wlen)
{
	char file[128];
	struct stat a, b;
	int same;

	snprintf(file, sizeof(file), "%s.ckpt", dump);
	unlink(file);
	setenv("TIPME_CKPT_FILE", "1", 1);
	same = same_bounded(pm_cmd_why, "why", whole, dump, dir, "--lookback 0", 0, 1, why, wlen);
	if (stat(file, &a)) {
		snprintf(why, wlen, "%s not written", file);
		same = -1;
	} else {
		same += same_bounded(pm_cmd_report, "report", whole, dump, dir, "--lookback 0",
				     0, n / 2, why, wlen);
		same += same_bounded(pm_cmd_why, "why", whole, dump, dir, "--lookback 0",
				     1, n / 2 - 1, why, wlen);
		if (stat(file, &b) || a.st_ino != b.st_ino) {
			snprintf(why, wlen, "%s written again", file);
			same = -1;
		}
	}
	unsetenv("TIPME_CKPT_FILE");
	unlink(file);
	return same;
}

static const char *const kinds[] = {
	"random intervals", "the window before the trigger", "without --pid, random windows",
};

int main(void)
{
	char dir[64], path[96], path2[96], file[128], why[300] = "ok";
	struct pm_state whole, part, whole2;
	struct pm_incident inc, inc2;
	struct tm_err e = { "" };
	uint64_t rnd = 7;
	long n, total = 0;
	int r, bad = 0, err;
	size_t k;

	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	tap_plan(35);
	snprintf(path, sizeof(path), "%s/sim.tipme", dir);
	err = write_dump(path, 11, 200000) || pm_incident_open(&inc, path, 0, &e);
	tap_ok(!err, "simulated dump: %d CPUs x %d sub-buffers, %d threads%s%s", NCPUS,
	       SCEN_SUBBUFS, NTHREADS, err ? ": " : "", e.msg);
	if (err) {
		gen_rmtree(dir);
		return tap_done();
	}
	err = pm_state_build(&whole, &inc, &e);
	tap_ok(!err && whole.nthreads == NTHREADS && whole.lost,
	       "the whole state: %zu threads, with a gap", whole.nthreads);
	/* the range of every record, read through the index */
	err = pm_state_build_range(&part, &inc, whole.first_ns, whole.last_ns, &e);
	n = err ? -1 : compare(&whole, &part, 1, why, sizeof(why));
	if (!err)
		pm_state_free(&part);
	tap_ok(n > 0, "the range of every record: the whole state (%ld stretches: %s)", n, why);
	for (r = 0; r < 60 && !bad; r++) {
		int64_t span = whole.last_ns - whole.first_ns;
		int64_t a = whole.first_ns + (int64_t)(gen_rand(&rnd) % (uint64_t)span);
		int64_t b = a + (int64_t)(gen_rand(&rnd) % (uint64_t)(span / 3));

		if (pm_state_build_range(&part, &inc, a, b, &e)) {
			snprintf(why, sizeof(why), "%s", e.msg);
			bad++;
			break;
		}
		n = compare(&whole, &part, 0, why, sizeof(why));
		if (n < 0)
			bad++;
		else
			total += n;
		pm_state_free(&part);
	}
	tap_ok(!bad && total > 0,
	       "60 random ranges: every stretch begun and ended inside is the whole dump's (%ld stretches: %s)",
	       total, why);
	snprintf(why, sizeof(why), "ok");
	r = same_bounded(pm_cmd_why, "why", &whole, path, dir, "--margin 1000", 0, 10, why,
			 sizeof(why));
	tap_ok(r == 10, "why --margin 1000 (every record): 10 of 10 the same as --whole (%s)",
	       why);
	snprintf(why, sizeof(why), "ok");
	r = same_bounded(pm_cmd_why, "why", &whole, path, dir, "--margin 0.05", 0, 40, why,
			 sizeof(why));
	tap_ok(r == 40, "why --margin 0.05: %d of 40 random intervals the same as --whole (%s)",
	       r, why);
	snprintf(why, sizeof(why), "ok");
	r = same_bounded(pm_cmd_report, "report", &whole, path, dir, "--margin 1000", 0, 10, why,
			 sizeof(why));
	tap_ok(r == 10, "report --margin 1000 (every record): 10 of 10 the same as --whole (%s)",
	       why);
	snprintf(why, sizeof(why), "ok");
	r = same_bounded(pm_cmd_report, "report", &whole, path, dir, "--margin 0.05", 0, 40, why,
			 sizeof(why));
	tap_ok(r == 40, "report --margin 0.05: %d of 40 random intervals the same as --whole (%s)",
	       r, why);
	snprintf(why, sizeof(why), "ok");
	r = same_bounded(pm_cmd_report, "report", &whole, path, dir, "--margin 0.001", 0, 40, why,
			 sizeof(why));
	tap_ok(r < 40, "report --margin 0.001: %d of 40 the same (a margin too short shows)", r);
	for (k = 0; k < sizeof(bounded) / sizeof(*bounded); k++) {
		const struct bounded_case *c = &bounded[k];

		snprintf(why, sizeof(why), "ok");
		r = same_bounded(c->fn, c->cmd, &whole, path, dir, c->opt, c->kind, c->n, why,
				 sizeof(why));
		tap_ok(r == c->n, "%s %s (%s): %d of %d as --whole (%s)", c->cmd, c->opt,
		       kinds[c->kind], r, c->n, why);
	}
	snprintf(path2, sizeof(path2), "%s/long.tipme", dir);
	err = write_dump(path2, 12, 20000000) || pm_incident_open(&inc2, path2, 0, &e);
	if (!err) {
		err = pm_state_build(&whole2, &inc2, &e);
		pm_incident_close(&inc2);
	}
	tap_ok(!err && whole2.last_ns - whole2.first_ns > 15000000000LL,
	       "a second dump of %.1f s%s%s", err ? 0 : (whole2.last_ns - whole2.first_ns) / 1e9,
	       err ? ": " : "", e.msg);
	for (k = 0; k < sizeof(pictures) / sizeof(*pictures); k++) {
		const struct picture_case *c = &pictures[k];

		snprintf(why, sizeof(why), "ok");
		r = err ? 0 : same_picture(c->dump ? &whole2 : &whole, c->dump ? path2 : path,
					   dir, c->opt, c->kind, c->n, why, sizeof(why));
		tap_ok(r == c->n, "timeline %s on the %s dump (%s): %d of %d as --whole (%s)",
		       *c->opt ? c->opt : "(default look-back)", c->dump ? "long" : "short",
		       picture_kinds[c->kind], r, c->n, why);
	}
	for (k = 0; k < 3; k++) {
		static const char *const topt[] = { "--lookback 0.02", "--lookback 0", "" };
		long lines = 0;

		snprintf(why, sizeof(why), "ok");
		r = err && k == 2 ? 0 : same_trace(k == 2 ? &whole2 : &whole, k == 2 ? path2 : path,
						   dir, topt[k], 20, &lines, why, sizeof(why));
		tap_ok(r == 20 && lines > 0,
		       "export --perfetto of an interval, %s, the %s dump: %d of 20 as --whole, its %ld ftrace lines the whole trace's there (%s)",
		       *topt[k] ? topt[k] : "(default look-back)", k == 2 ? "long" : "short", r,
		       lines, why);
	}
	if (!err)
		pm_state_free(&whole2);
	snprintf(why, sizeof(why), "ok");
	snprintf(file, sizeof(file), "%s/sim.ckpt", dir);
	r = file_same(&inc, &whole, file, why, sizeof(why));
	tap_ok(r == 20, "checkpoints kept in a file: 20 random ranges built from them as from the pass's (%s)",
	       why);
	snprintf(why, sizeof(why), "ok");
	tap_ok(file_refused(&inc, dir, file, why, sizeof(why)),
	       "another dump's checkpoints, a changed byte, a cut file: refused (%s)", why);
	snprintf(why, sizeof(why), "ok");
	r = file_cmds(&whole, path, dir, 40, why, sizeof(why));
	tap_ok(r == 40, "why and report with DUMP.ckpt (written once, then read): %d of 40 as --whole (%s)",
	       r, why);
	snprintf(why, sizeof(why), "ok");
	tap_ok(press_long_before(dir, why, sizeof(why)),
	       "report (default look-back): a press 28 s before the window makes its reader's stall the one felt, as --whole says (%s)",
	       why);
	snprintf(why, sizeof(why), "ok");
	r = real_dumps(dir, why, sizeof(why));
	tap_ok(r >= 0, "real dumps: %d, report and why (default look-back) as --whole (%s)", r, why);
	pm_state_free(&whole);
	pm_incident_close(&inc);
	gen_rmtree(dir);
	return tap_done();
}
