// SPDX-License-Identifier: GPL-2.0
/*
 * tipme legs of a time range from the checkpoints around it
 * (pm_legs_find_ckpt(), analysis/legs.h) against the legs of the whole
 * dump (pm_legs_find() on the state of every record): the same legs and
 * the same number still open, for every pair of the kinds it takes, over
 * random intervals, intervals on the checkpoints' edges, before the first
 * and after the last, with the checkpoints made by a pass and read back
 * from their file.  On a simulated machine (threads woken while still
 * runnable or running, woken and switched in at one time, events of two
 * CPUs at one time, a sleeper that sleeps across many checkpoints, key
 * and button presses and releases, a CPU's lost sub-buffers) and its
 * incident with an X dump of presses delivered to its threads; on
 * tipme-bigdump's dumps (400 threads on 4 CPUs; a desktop typed at, -k);
 * on the dumps of real machines the VM tests leave in tests/vm/out (or
 * the folders $TIPME_REAL_DUMPS names; the first 8 of them).  Each count says how many legs
 * began before the checkpoint the range is read from and ended in it,
 * and how many began in it and ended after the checkpoint where it stops:
 * what the checkpoints' events decide.  The command: text, JSON and --svg
 * as --whole's, DUMP.ckpt written once and then read; a version 1 file is
 * refused (-EPROTO) and made again.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/legs.h"
#include "capture.h"
#include "cmd/commands.h"
#include "dumpfile.h"
#include "gen.h"
#include "scen.h"
#include "state/ckpt.h"
#include "state/resources.h"
#include "state/state.h"
#include "tap.h"
#include "writefile.h"
#include "xdumpfile.h"

#define NCPUS		3
#define NTHREADS	10
#define PER_SB		150	/* rounds of the CPUs per sub-buffer */
#define XPRESSES	80

enum { T_SLEEP, T_RUNNABLE, T_RUNNING };

static uint32_t pid_of(uint32_t i)
{
	return 3000 + i;
}

/* The simulated machine while its dump is written. */
struct sim {
	struct scen *s;
	uint64_t rnd, t;
	uint8_t state[NTHREADS];
	uint32_t on[NCPUS];	/* the thread on each CPU: pid, 0 idle */
};

static uint32_t sim_rand(struct sim *m, uint32_t below)
{
	return (uint32_t)(gen_rand(&m->rnd) % below);
}

/* CPU @c may wake a thread (in any state; thread 0 rarely) or see a key or button. */
static void sim_event(struct sim *m, uint32_t c)
{
	uint32_t w = sim_rand(m, NTHREADS), r = sim_rand(m, 8);

	if (r < 3 && (w || !sim_rand(m, 60))) {
		scen_wake(m->s, c, m->t, pid_of(w), sim_rand(m, NCPUS), m->on[c],
			  m->on[c] ? TIPME_CTX_TASK : TIPME_CTX_HARDIRQ);
		if (m->state[w] == T_SLEEP)
			m->state[w] = T_RUNNABLE;
	} else if (r == 3) {
		struct tipme_rec_input in = {
			.kind = sim_rand(m, 2) ? TIPME_INPUT_KEY : TIPME_INPUT_BUTTON,
			.value = (uint8_t)sim_rand(m, 2),
		};

		scen_rec(m->s, c, TIPME_REC_INPUT, m->t, &in, sizeof(in));
	}
}

/* CPU @c switches to a runnable thread, or from its thread to idle; thread 0 always sleeps. */
static void sim_switch(struct sim *m, uint32_t c)
{
	static const char *const site[] = { "do_sys_poll", NULL };
	uint32_t from = m->on[c], to = 0, i;
	int sleep;

	for (i = 0; i < NTHREADS && !to; i++) {
		uint32_t j = (i + sim_rand(m, 4)) % NTHREADS;

		to = m->state[j] == T_RUNNABLE && pid_of(j) != from ? pid_of(j) : 0;
	}
	if (!from && !to)
		return;
	sleep = from && (from == pid_of(0) || !sim_rand(m, 3));
	scen_switch_to(m->s, c, m->t, from, to, sleep ? site : NULL);
	if (from)
		m->state[from - pid_of(0)] = sleep ? T_SLEEP : T_RUNNABLE;
	if (to)
		m->state[to - pid_of(0)] = T_RUNNING;
	m->on[c] = to;
}

/*
 * The simulated machine's dump at @path: each round, each CPU may wake a
 * thread or see a key or button go down or up (sim_event()), and switch
 * (sim_switch()), sometimes at the time of that event or of the CPU
 * before.  CPU 2 loses a sub-buffer.  0 or -1.
 */
static int write_dump(const char *path, uint64_t seed)
{
	struct sim m = { .rnd = seed, .t = 1000000 };
	uint64_t seq[NCPUS];
	uint32_t c, i;
	int b, k, err;

	m.s = calloc(1, sizeof(*m.s));
	if (!m.s)
		return -1;
	scen_init(m.s, NCPUS);
	m.s->compact = 1;
	m.s->short_ts = 1;
	for (i = 1; i < NTHREADS; i++)
		m.state[i] = T_RUNNABLE;
	for (c = 0; c < NCPUS; c++)
		seq[c] = m.s->sb[c][0].seq;
	for (b = 0; b < SCEN_SUBBUFS; b++) {
		for (c = 0; b && c < NCPUS; c++) {
			seq[c] += c == 2 && b == 2 ? 2 : 1;
			scen_subbuf(m.s, c, seq[c]);
		}
		for (k = 0; k < PER_SB * NCPUS; k++) {
			c = (uint32_t)k % NCPUS;
			if (sim_rand(&m, 3))	/* else at the CPU before's time */
				m.t += 1000 + sim_rand(&m, 200000);
			sim_event(&m, c);
			if (sim_rand(&m, 4))	/* else the switch at that time too */
				m.t += 500;
			sim_switch(&m, c);
		}
	}
	scen_trigger(m.s, m.t + 1000);
	err = scen_write(m.s, path);
	free(m.s);
	return err;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * An X dump at @path of presses (and releases) at random times around
 * [@first, @last], each delivered to one of three clients, the machine's
 * threads 1 to 3: 0 or -1.
 */
static int write_xdump(const char *path, int64_t first, int64_t last, uint64_t seed)
{
	struct tipme_x11_client cl[4] = {
		{ .id = 0, .pid = pid_of(9), .flags = TIPME_X11_CL_SERVER, .comm = "Xorg" },
		{ .id = 1, .pid = pid_of(1), .comm = "one" },
		{ .id = 2, .pid = pid_of(2), .comm = "two" },
		{ .id = 3, .pid = pid_of(3), .comm = "three" },
	};
	struct tipme_x11_rec rec[2 * XPRESSES] = { 0 };
	uint64_t at[XPRESSES], rnd = seed, span = (uint64_t)(last - first) + 20000000;
	struct tm_xdump_content x = { .recs = rec, .nrecs = 2 * XPRESSES, .cl = cl, .ncl = 4 };
	struct tm_err e = { "" };
	uint8_t *buf;
	size_t len;
	int i, err;

	for (i = 0; i < XPRESSES; i++)
		at[i] = (uint64_t)first - 10000000 + gen_rand(&rnd) % span;
	qsort(at, XPRESSES, sizeof(*at), u64_cmp);
	for (i = 0; i < XPRESSES; i++) {
		uint8_t major = (uint8_t)(2 + gen_rand(&rnd) % 3);	/* down, up, button down */

		rec[2 * i] = (struct tipme_x11_rec){ .time_ns = at[i], .kind = TIPME_X11_DEVICE,
						     .major = major };
		rec[2 * i + 1] = (struct tipme_x11_rec){
			.time_ns = at[i] + 1000, .kind = TIPME_X11_EVENT, .major = major,
			.client = (uint32_t)(1 + gen_rand(&rnd) % 3) };
	}
	if (tm_xdump_build(&x, &buf, &len))
		return -1;
	err = tm_write_file_new(path, buf, len, &e);
	free(buf);
	return err ? -1 : 0;
}

static int leg_cmp(const void *a, const void *b)
{
	const struct pm_leg *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return (x->owner > y->owner) - (x->owner < y->owner);
}

/* The same legs, in any order, and the same number still open: 1, else 0. */
static int same_legs(struct pm_legs *x, struct pm_legs *y)
{
	size_t i;

	if (x->n != y->n || x->unclosed != y->unclosed)
		return 0;
	if (!x->n)
		return 1;
	qsort(x->legs, x->n, sizeof(*x->legs), leg_cmp);
	qsort(y->legs, y->n, sizeof(*y->legs), leg_cmp);
	for (i = 0; i < x->n; i++)	/* field by field: not the padding */
		if (leg_cmp(&x->legs[i], &y->legs[i]))
			return 0;
	return 1;
}

/* One dump opened for the comparisons: its whole state and its checkpoints. */
struct subject {
	const char *name;
	struct pm_incident inc;
	struct pm_state st;
	struct pm_res res;
	struct pm_ckpts *made, *read;
};

/* What the comparisons of one subject found. */
struct tally {
	long cases, same, legs, unclosed, before, after, xdumps;
	char why[240];
};

/*
 * Legs of the whole dump (@all: every leg, for the counts) that began
 * before the checkpoint [@a, @b] is read from and ended inside or later,
 * and that began in [@a, @b] and ended after where it stops.
 */
static void coverage(const struct subject *s, const struct pm_legs *all, int64_t a, int64_t b,
		     struct tally *t)
{
	struct pm_ckpt_evs bef, aft;
	size_t i;

	pm_ckpts_evs(s->made, a, b, &bef, &aft);
	for (i = 0; i < all->n; i++) {
		const struct pm_leg *l = &all->legs[i];
		int64_t end = l->start_ns + (int64_t)l->ns;

		if (bef.ns != INT64_MIN && l->start_ns < bef.ns && end >= bef.ns &&
		    end < aft.ns)
			t->before++;
		if (l->start_ns >= a && l->start_ns <= b && aft.ns != INT64_MAX && end >= aft.ns)
			t->after++;
	}
}

/* Kinds @from -> @to over [@a, @b]: the whole dump's legs against both checkpoints'. */
static void compare_one(const struct subject *s, int from, int to, int64_t a, int64_t b,
			const struct pm_legs *all, struct tally *t)
{
	struct pm_legs w, x, y;
	struct tm_err e = { "" };
	int ok;

	t->cases++;
	if (pm_legs_find(&s->inc, &s->st, &s->res, from, to, a, b, &w, &e)) {
		snprintf(t->why, sizeof(t->why), "%s: %s", s->name, e.msg);
		return;
	}
	ok = !pm_legs_find_ckpt(&s->inc, s->made, from, to, a, b, &x, &e);
	ok = !pm_legs_find_ckpt(&s->inc, s->read ? s->read : s->made, from, to, a, b, &y, &e) &&
	     ok;
	if (ok && same_legs(&w, &x) && same_legs(&w, &y)) {
		t->same++;
		t->legs += (long)w.n;
		t->unclosed += (long)w.unclosed;
		coverage(s, all, a, b, t);
	} else if (!t->why[0]) {
		snprintf(t->why, sizeof(t->why),
			 "%s: %s -> %s over [%lld, %lld]: %zu legs, %zu open; from the checkpoints %zu, %zu%s%s",
			 s->name, pm_leg_event_name[from], pm_leg_event_name[to], (long long)a,
			 (long long)b, w.n, w.unclosed, x.n, x.unclosed, e.msg[0] ? ": " : "",
			 e.msg);
	}
	pm_legs_free(&w);
	pm_legs_free(&x);
	pm_legs_free(&y);
}

/*
 * Every pair of @kinds over @nrand random intervals of the subject's
 * dump, and @nedge others: on its checkpoints' edges (four kinds), the
 * dump's start and end (two).
 */
static void compare_all(const struct subject *s, const int *kinds, int nk, int nrand,
			int nedge, uint64_t seed, struct tally *t)
{
	int64_t first = s->st.first_ns, last = s->st.last_ns, span = last - first + 1;
	size_t nck = pm_ckpts_count(s->made);
	uint64_t rnd = seed;
	int f, g, r;

	for (f = 0; f < nk; f++) {
		for (g = 0; g < nk; g++) {
			struct pm_legs all;
			struct tm_err e = { "" };

			if (f == g)
				continue;
			if (pm_legs_find(&s->inc, &s->st, &s->res, kinds[f], kinds[g], INT64_MIN,
					 INT64_MAX, &all, &e)) {
				snprintf(t->why, sizeof(t->why), "%s: %s", s->name, e.msg);
				t->cases++;
				continue;
			}
			for (r = 0; r < nrand + nedge; r++) {
				int v = (r - nrand + f + g) % 6;
				int64_t a, b;

				if (r < nrand) {
					a = first - span / 20 + (int64_t)(gen_rand(&rnd) % (uint64_t)span);
					b = a + (gen_rand(&rnd) % 5 ? (int64_t)(gen_rand(&rnd) %
						(uint64_t)(span / 4 + 1)) : 0);
				} else if (v < 4 && nck > 1) {
					/* on a checkpoint, a ns either side, to the next's edge */
					size_t i = (size_t)(gen_rand(&rnd) % (nck - 1));
					int64_t c0 = s->made->c[i].ns, c1 = s->made->c[i + 1].ns;

					a = c0 + v % 3 - 1;
					b = v == 3 ? c0 : c1 - 1 + v % 2;
				} else if (v < 4) {
					a = first;
					b = last;
				} else {
					a = v == 4 ? 0 : first;
					b = v == 4 ? first : last + 1000000000;
				}
				if (a < 0)
					a = 0;
				compare_one(s, kinds[f], kinds[g], a, b, &all, t);
			}
			pm_legs_free(&all);
		}
	}
}

/* Opens @path with its whole state and its checkpoints, made and read back from @file. */
static int subject_open(struct subject *s, const char *name, const char *path,
			const char *file, char *why, size_t wlen)
{
	struct tm_err e = { "" };
	int err, built;

	memset(s, 0, sizeof(*s));
	s->name = name;
	err = pm_incident_open(&s->inc, path, 0, &e);
	if (!err)
		err = pm_state_res_build(&s->st, &s->res, &s->inc, &e);
	built = !err;
	if (!err && pm_ckpts_grid(&s->made, &s->inc, pm_ckpts_every(&s->inc), &e))
		err = -1;
	if (!err && file && (pm_ckpts_save(s->made, &s->inc, file, &e) ||
			     pm_ckpts_load(&s->read, &s->inc, file, &e)))
		err = -1;
	if (err) {
		/* (the incident is closed after a failure to open it too) */
		snprintf(why, wlen, "%s: %s", name, e.msg);
		pm_ckpts_free(s->made);
		pm_ckpts_free(s->read);
		if (built) {
			pm_res_free(&s->res);
			pm_state_free(&s->st);
		}
		pm_incident_close(&s->inc);
		return -1;
	}
	return 0;
}

static void subject_close(struct subject *s)
{
	pm_ckpts_free(s->made);
	pm_ckpts_free(s->read);
	pm_res_free(&s->res);
	pm_state_free(&s->st);
	pm_incident_close(&s->inc);
}

static void report(const char *what, const struct tally *t, size_t nck)
{
	tap_ok(t->cases > 0 && t->same == t->cases && t->before > 0 && t->after > 0,
	       "%s, %zu checkpoints: %ld of %ld (pair, interval) as the whole dump's (%ld legs, %ld still open; %ld begun before the checkpoint read from, %ld ended after the one where it stops)%s%s",
	       what, nck, t->same, t->cases, t->legs, t->unclosed, t->before, t->after,
	       t->why[0] ? ": " : "", t->why);
}

static const int sched_kinds[] = { PM_LEG_WAKING, PM_LEG_SWITCH_IN, PM_LEG_SWITCH_OUT,
				   PM_LEG_SLEEP, PM_LEG_INPUT, PM_LEG_X_PRESS };

/* The simulated machine, its incident with an X dump, and the command on it. */
static void simulated(const char *dir)
{
	char path[128], file[140], inc[128], cmd[600];
	struct subject s, x;
	struct tally t = { 0 }, tx = { 0 };

	snprintf(path, sizeof(path), "%s/sim.dump", dir);
	snprintf(file, sizeof(file), "%s/sim.ckpt", dir);
	if (write_dump(path, 5) || subject_open(&s, "sim", path, file, t.why, sizeof(t.why))) {
		tap_ok(0, "simulated dump: %s", t.why);
		tap_ok(0, "its X incident");
		return;
	}
	compare_all(&s, sched_kinds, 5, 12, 6, 1, &t);
	report("simulated, every pair of waking, switch-in, switch-out, sleep, input", &t,
	       pm_ckpts_count(s.made));
	snprintf(inc, sizeof(inc), "%s/xinc", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp %s %s/kernel.dump", inc, path, inc);
	snprintf(file, sizeof(file), "%s/xinc.ckpt", dir);
	if (system(cmd) || write_xdump(strcat(inc, "/xhook.dump"), s.st.first_ns,
				       s.st.last_ns, 9)) {
		tap_ok(0, "its X incident: could not write it");
	} else {
		inc[strlen(inc) - strlen("/xhook.dump")] = 0;
		if (subject_open(&x, "xinc", inc, file, tx.why, sizeof(tx.why))) {
			tap_ok(0, "its X incident: %s", tx.why);
		} else {
			int k;

			/* x-press with each other kind, both ways */
			for (k = 0; k < 5; k++) {
				int two[2] = { sched_kinds[k], PM_LEG_X_PRESS };

				compare_all(&x, two, 2, 12, 6, 2 + (uint64_t)k, &tx);
			}
			report("its incident with an X dump, x-press with each", &tx,
			       pm_ckpts_count(x.made));
			subject_close(&x);
		}
	}
	subject_close(&s);
}

/* @a and @b the same file's bytes: 1, else 0. */
static int same_file(const char *a, const char *b)
{
	size_t na, nb;
	unsigned char *x = gen_read_file(a, &na), *y = gen_read_file(b, &nb);
	int eq = x && y && na == nb && !memcmp(x, y, na);

	free(x);
	free(y);
	return eq;
}

/* The version of the checkpoints in @file (its section's first word), or -1. */
static long file_version(const char *file)
{
	struct tm_err e = { "" };
	struct tm_dump d;
	long v = -1;
	uint32_t i;

	if (tm_dump_load(&d, file, 0, &e))
		return -1;
	for (i = 0; i < d.nr_secs; i++)
		if (d.secs[i].h.type == TIPME_SEC_CKPT && d.secs[i].h.size >= 4)
			v = *(const uint32_t *)d.secs[i].data;
	tm_dump_free(&d);
	return v;
}

/*
 * @file rewritten as a version 1 file of the same dump (a well-formed
 * container): 0, or -1.  And its payload so changed refused by the
 * parser as another version: *@proto set to 1.
 */
static int make_v1(const char *file, const struct pm_incident *inc, int *proto)
{
	struct tipme_file_header fh = inc->pm.d.hdr;
	struct tm_err e = { "" };
	struct pm_ckpts *ck = NULL;
	struct tm_dumpw dw;
	unsigned char *p = NULL;
	struct tm_dump d;
	size_t len = 0;
	uint32_t i;
	int err;

	if (tm_dump_load(&d, file, 0, &e))
		return -1;
	for (i = 0; i < d.nr_secs; i++)
		if (d.secs[i].h.type == TIPME_SEC_CKPT && d.secs[i].h.size >= 4) {
			len = d.secs[i].h.size;
			p = malloc(len);
			if (p)
				memcpy(p, d.secs[i].data, len);
		}
	tm_dump_free(&d);
	if (!p)
		return -1;
	*(uint32_t *)p = 1;
	err = pm_ckpts_parse(&ck, p, len, &e);
	*proto = err == -EPROTO && !ck && strstr(e.msg, "version 1");
	fh.created_real_ns = 0;
	err = tm_dumpw_open(&dw, file, &fh, 0, &e);
	if (!err)
		err = tm_dumpw_section(&dw, TIPME_SEC_CKPT, 0, p, len, &e);
	if (!err)
		err = tm_dumpw_commit(&dw, &e);
	else
		tm_dumpw_abort(&dw);
	free(p);
	return err ? -1 : 0;
}

/*
 * The command with DUMP.ckpt (TIPME_CKPT_FILE=1) against --whole: text,
 * JSON and --svg for a few pairs and intervals; the file written by the
 * first and read by the others (the same inode); a version 1 file
 * refused and written again.
 */
static void command(const char *dir)
{
	static const char *const pairs[][2] = {
		{ "waking", "switch-in" }, { "sleep", "waking" }, { "switch-out", "input" },
		{ "input", "switch-in" },
	};
	static const double iv[][2] = { { 0.05, 0.06 }, { 0.1, 0.3 }, { 0, 0.002 } };
	char dump[128], ckpt[140], why[300] = "", args[300], sa[128], sb[128];
	struct pm_incident inc;
	struct tm_err e = { "" };
	struct stat st1, st2;
	int n = 0, same = 0, proto = 0, ok_v1 = 0;
	size_t p, k;

	snprintf(dump, sizeof(dump), "%s/cmd.dump", dir);
	snprintf(ckpt, sizeof(ckpt), "%s.ckpt", dump);
	snprintf(sa, sizeof(sa), "%s/a.svg", dir);
	snprintf(sb, sizeof(sb), "%s/b.svg", dir);
	if (write_dump(dump, 6)) {
		tap_ok(0, "legs --from-s --to-s as --whole: the dump");
		tap_ok(0, "a version 1 DUMP.ckpt");
		return;
	}
	setenv("TIPME_CKPT_FILE", "1", 1);
	for (p = 0; p < sizeof(pairs) / sizeof(*pairs); p++) {
		for (k = 0; k < sizeof(iv) / sizeof(*iv); k++) {
			static const char *const how[] = { "", "--json", "--by comm", "--hist log2" };
			size_t h;

			for (h = 0; h < 4; h++) {
				char *x, *y;
				int r1, r2;

				snprintf(args, sizeof(args),
					 "legs %s --from %s --to %s --from-s %.3f --to-s %.3f --svg %s DUMP",
					 how[h], pairs[p][0], pairs[p][1], iv[k][0], iv[k][1], sa);
				x = capture_words(pm_cmd_legs, args, dump, dir, &r1);
				snprintf(args, sizeof(args),
					 "legs %s --from %s --to %s --from-s %.3f --to-s %.3f --whole --svg %s DUMP",
					 how[h], pairs[p][0], pairs[p][1], iv[k][0], iv[k][1], sb);
				y = capture_words(pm_cmd_legs, args, dump, dir, &r2);
				n++;
				if (!r1 && !r2 && x && y && !strcmp(x, y) && same_file(sa, sb))
					same++;
				else if (!why[0])
					snprintf(why, sizeof(why), "%.200s: %s", args,
						 r1 || r2 ? "failed" : "differs");
				if (n == 1 && stat(ckpt, &st1))
					snprintf(why, sizeof(why), "the first made no %s", ckpt);
				free(x);
				free(y);
			}
		}
	}
	if (!why[0] && (stat(ckpt, &st2) || st1.st_ino != st2.st_ino))
		snprintf(why, sizeof(why), "DUMP.ckpt written again (not read)");
	tap_ok(n == same && !why[0],
	       "legs --from-s --to-s (text, JSON, by comm, log2; --svg) from DUMP.ckpt: %d of %d as --whole%s%s",
	       same, n, why[0] ? ": " : "", why);
	/* a version 1 file: refused, made again, the same legs */
	if (!pm_incident_open(&inc, dump, 0, &e)) {
		if (!make_v1(ckpt, &inc, &proto) && file_version(ckpt) == 1) {
			char *x, *y;
			int r1, r2;

			x = capture_words(pm_cmd_legs,
					  "legs --json --from waking --to switch-in --from-s 0.1 --to-s 0.3 DUMP",
					  dump, dir, &r1);
			y = capture_words(pm_cmd_legs,
					  "legs --json --from waking --to switch-in --from-s 0.1 --to-s 0.3 --whole DUMP",
					  dump, dir, &r2);
			ok_v1 = !r1 && !r2 && x && y && !strcmp(x, y) &&
				file_version(ckpt) == TIPME_CKPT_VERSION;
			free(x);
			free(y);
		}
		pm_incident_close(&inc);
	}
	unsetenv("TIPME_CKPT_FILE");
	tap_ok(proto && ok_v1,
	       "a version 1 DUMP.ckpt: the parser refuses it (-EPROTO, \"version 1\"): %s; legs makes it again (version %ld) and prints what --whole prints: %s",
	       proto ? "yes" : "no", file_version(ckpt), ok_v1 ? "yes" : "no");
}

/* tipme-bigdump beside this test's binary (B/tests/unit/test_legsrange -> B/tipme-bigdump). */
static int bigdump_path(char *buf, size_t len)
{
	char exe[400];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *sl;
	int i;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	for (i = 0; i < 3; i++) {
		sl = strrchr(exe, '/');
		if (!sl)
			return -1;
		*sl = 0;
	}
	snprintf(buf, len, "%.360s/tipme-bigdump", exe);
	return access(buf, X_OK);
}

/* tipme-bigdump ARGS into @dir/NAME, compared over @kinds. */
static void bigdump(const char *dir, const char *name, const char *args, const int *kinds,
		    int nk, int nrand)
{
	char tool[400], path[128], file[140], cmd[700];
	struct tally t = { 0 };
	struct subject s;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(file, sizeof(file), "%s.ckpt", path);
	if (bigdump_path(tool, sizeof(tool))) {
		tap_ok(0, "%s: no tipme-bigdump beside this test (make user builds it)", name);
		return;
	}
	/* under ASan, the tool's buffers are not freed before it exits */
	snprintf(cmd, sizeof(cmd), "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 %s %s %s >/dev/null",
		 tool, args, path);
	if (system(cmd) || subject_open(&s, name, path, file, t.why, sizeof(t.why))) {
		tap_ok(0, "%s (tipme-bigdump %s): %s", name, args, t.why);
		return;
	}
	compare_all(&s, kinds, nk, nrand, 6, 3, &t);
	snprintf(cmd, sizeof(cmd), "tipme-bigdump %s, %.1f MB", args,
		 s.inc.pm.d.size / 1e6);
	report(cmd, &t, pm_ckpts_count(s.made));
	subject_close(&s);
	unlink(path);
	unlink(file);
}

/*
 * The dumps of real machines: each pair of the scheduler's kinds, input
 * and (of an incident with an X dump) x-press over a random interval and
 * one on an edge (checkpoints made, not kept), of the first 8 dumps
 * found ($TIPME_REAL_DUMPS_MAX another number); how many dumps.
 */
static int real_dumps(struct tally *t)
{
	const char *all = getenv("TIPME_REAL_DUMPS_MAX");
	int n = 0, max = all && *all ? atoi(all) : 8;
	char **dumps;
	size_t nd, i;

	dumps = gen_real_dumps(&nd);
	for (i = 0; i < nd && n < max; i++) {
		struct subject s;
		char why[240];

		if (subject_open(&s, dumps[i], dumps[i], NULL, why, sizeof(why)))
			continue;	/* not a dump these commands read (a broken one) */
		compare_all(&s, sched_kinds, s.inc.have_x ? 6 : 5, 1, 1, (uint64_t)n, t);
		t->xdumps += s.inc.have_x;
		subject_close(&s);
		n++;
	}
	gen_real_dumps_free(dumps, nd);
	return n;
}

int main(void)
{
	static const int four[] = { PM_LEG_WAKING, PM_LEG_SWITCH_IN, PM_LEG_SWITCH_OUT,
				    PM_LEG_SLEEP };
	static const int typing[] = { PM_LEG_INPUT, PM_LEG_WAKING, PM_LEG_SWITCH_IN };
	struct tally t = { 0 };
	char dir[64];
	int n;

	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	tap_plan(7);
	simulated(dir);
	command(dir);
	bigdump(dir, "big.dump", "-m 1 -c 4 -t 400", four, 4, 1);
	bigdump(dir, "typing.dump", "-k 400", typing, 3, 3);
	n = real_dumps(&t);
	tap_ok(n >= 0 && t.same == t.cases,
	       "the dumps of real machines (tests/vm/out or $TIPME_REAL_DUMPS): %d (%ld with an X dump), %ld of %ld (pair, interval) as the whole dump's (%ld legs, %ld begun before the checkpoint read from, %ld ended after the one where it stops)%s%s",
	       n, t.xdumps, t.same, t.cases, t.legs, t.before, t.after, t.why[0] ? ": " : "",
	       t.why);
	gen_rmtree(dir);
	return tap_done();
}
