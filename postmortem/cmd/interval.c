// SPDX-License-Identifier: GPL-2.0
/*
 * From the options to the interval and its verdict (interval.h): the
 * steps report, export and timeline share, in the data path's order: the incident (its
 * kernel dump, X dump and meta.json), the state rebuilt from its records,
 * the resources, the interval that matters and the verdict on it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/kinput.h"
#include "interval.h"
#include "run.h"

/* A press's reader is found within this of it (analysis/kinput.c) */
#define PRESS_MARGIN_NS	300000000LL
/*
 * Presses this close are built around together, over a sixteenth of the
 * dump at most (a build reads from the checkpoint before its start to the
 * one after its end, about 1/64 of the records each: longer builds waste
 * less, shorter ones hold less at a time), and 10 s at least.
 */
#define PRESS_GROUP_NS	1000000000LL
#define PRESS_SPAN_MIN_NS	10000000000LL
#define PRESS_SPAN_PARTS	16

/* The presses of one build around a group of them, and their readers. */
struct group {
	const int64_t *ns;
	uint32_t *readers;
	size_t n;
};

static int group_add(void *arg, int64_t press_ns, uint32_t tgid)
{
	struct group *g = arg;
	size_t k;

	for (k = 0; k < g->n; k++)
		if (g->ns[k] == press_ns && !g->readers[k]) {
			g->readers[k] = tgid;
			break;
		}
	return 0;
}

/*
 * Who read each press of the dump (pm_press_readers()), from a small
 * build around each group of them (the checkpoints': the records near
 * the presses only), for the checkpoints to keep: a bounded build knows
 * from them who received input where it did not read (press_readers()).
 */
static int ckpts_readers(const struct pm_incident *in, struct pm_ckpts *ck, struct tm_err *e)
{
	const int64_t *p;
	const uint32_t *before;	/* (none yet: this sets them) */
	size_t n = pm_ckpts_presses(ck, &p, &before), i, j;
	uint32_t *readers = calloc(n ? n : 1, sizeof(*readers));
	const struct pm_state *w = pm_ckpts_whole(ck);
	int64_t span = (w->last_ns - w->first_ns) / PRESS_SPAN_PARTS;
	int err = 0;

	if (span < PRESS_SPAN_MIN_NS)
		span = PRESS_SPAN_MIN_NS;
	if (!readers)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (i = 0; i < n && !err; i = j) {
		struct group g = { p + i, readers + i, 0 };
		struct pm_state st;
		struct pm_res res;

		for (j = i + 1; j < n && p[j] - p[j - 1] < PRESS_GROUP_NS &&
		     p[j] - p[i] < span; j++)
			;
		g.n = j - i;
		err = pm_state_res_build_ckpt(&st, &res, in, ck, p[i] - PRESS_MARGIN_NS,
					      p[j - 1] + PRESS_MARGIN_NS, e);
		if (err)
			break;
		pm_press_readers(in, &st, &res, p[i], p[j - 1], group_add, &g);
		pm_res_free(&res);
		pm_state_free(&st);
	}
	if (err)
		free(readers);
	else
		pm_ckpts_set_readers(ck, readers);
	return err;
}

int pm_cmd_ckpts_file(const struct pm_incident *in, int save, struct pm_ckpts **ck,
		      int *made, struct tm_err *e)
{
	const char *mode = getenv("TIPME_CKPT_FILE");
	uint64_t bytes = 0;
	char *path = NULL;
	uint32_t i;
	int err;

	*made = 1;
	if (in->pm.path[0] && (save > 0 || !(mode && !strcmp(mode, "0")))) {
		path = malloc(strlen(in->pm.path) + sizeof(".ckpt"));
		if (!path)
			return tm_err_set(e, ENOMEM, "out of memory");
		strcpy(path, in->pm.path);
		strcat(path, ".ckpt");
		if (!pm_ckpts_load(ck, in, path, e)) {
			free(path);
			*made = 0;
			return 0;
		}
		e->msg[0] = 0;	/* none, or not this dump's: made again */
	}
	err = pm_ckpts_grid(ck, in, pm_ckpts_every(in), e);
	if (!err) {
		err = ckpts_readers(in, *ck, e);
		if (err) {
			pm_ckpts_free(*ck);
			*ck = NULL;
		}
	}
	for (i = 0; i < in->pm.d.nr_secs; i++)
		if (in->pm.d.secs[i].h.type == TIPME_SEC_CPU_STREAM)
			bytes += in->pm.d.secs[i].h.size;
	if (!err && path && save > 0) {
		err = pm_ckpts_save(*ck, in, path, e);
		if (err) {
			pm_ckpts_free(*ck);
			*ck = NULL;
		}
	} else if (!err && path && (bytes >= PM_CMD_CKPT_FILE_MIN || (mode && !strcmp(mode, "1")))) {
		struct tm_err ignored = { "" };

		/* a folder the user cannot write: the next command makes them again */
		pm_ckpts_save(*ck, in, path, &ignored);
	}
	free(path);
	return err;
}

int pm_cmd_ckpts(const struct pm_incident *in, struct pm_ckpts **ck,
		 struct tm_err *e)
{
	int made;

	return pm_cmd_ckpts_file(in, 0, ck, &made, e);
}

int64_t pm_cmd_add_sat(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

/*
 * Who read the presses a bounded build of [@from_ns, @to_ns] does not
 * hold with all that says who read them (those within PRESS_MARGIN_NS of
 * its ends, and outside), from the checkpoints (ckpts_readers()): what
 * ranking the stalls asks of the whole dump (analysis/rank.c: a process
 * that received input is the one a person felt).
 */
static int press_readers(struct pm_cmd_interval *inc, const struct pm_ckpts *ck,
			 int64_t from_ns, int64_t to_ns, struct tm_err *e)
{
	struct pm_rank_known *k = &inc->readers;
	const uint32_t *readers;
	const int64_t *p;
	size_t n = pm_ckpts_presses(ck, &p, &readers), i, j;

	k->from_ns = pm_cmd_add_sat(from_ns, PRESS_MARGIN_NS);
	k->to_ns = pm_cmd_add_sat(to_ns, -PRESS_MARGIN_NS);
	k->tgid = malloc((n ? n : 1) * sizeof(*k->tgid));
	if (!k->tgid)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (i = 0; readers && i < n; i++) {
		if ((p[i] >= k->from_ns && p[i] <= k->to_ns) || !readers[i])
			continue;
		for (j = 0; j < k->n && k->tgid[j] != readers[i]; j++)
			;
		if (j == k->n)
			k->tgid[k->n++] = readers[i];
	}
	return 0;
}

/*
 * The state and resources from a checkpoint @ask->lookback_ns before
 * what the interval's choice reads: [from, to] given, else the window
 * before the trigger (with a pid), else the input or stall search before
 * it, which is at most the longest of the window, the search asked and
 * the default 10 s; and what the caller draws beside it (@ask->cover_*).
 */
static int bounded(struct pm_cmd_interval *inc, const struct pm_interval_ask *ask,
		   struct tm_err *e)
{
	int64_t need = INT64_MIN, to = INT64_MAX, w;
	struct pm_ckpts *ck;
	int err;

	if (ask->pid && ask->from_ns >= 0) {
		need = ask->from_ns - ask->lookback_ns;
		to = ask->to_ns + ask->lookback_ns;
	}
	err = pm_cmd_ckpts(&inc->in, &ck, e);
	if (err)
		return err;
	if (need == INT64_MIN) {
		w = ask->window_ns;
		if (!ask->pid) {
			if (ask->search_ns > w)
				w = ask->search_ns;
			if (PM_STALL_SEARCH_NS > w)
				w = PM_STALL_SEARCH_NS;
		}
		need = pm_ckpts_end(ck) - w - ask->lookback_ns;
	}
	if (ask->cover_to_ns > ask->cover_from_ns) {
		w = pm_cmd_add_sat(ask->cover_from_ns, -ask->lookback_ns);
		if (w < need)
			need = w;
		w = pm_cmd_add_sat(ask->cover_to_ns, ask->lookback_ns);
		if (w > to)
			to = w;
	}
	inc->known_from_ns = need;
	inc->known_to_ns = to;
	err = pm_state_res_build_ckpt(&inc->st, &inc->res, &inc->in, ck, need, to, e);
	if (!err)
		err = press_readers(inc, ck, need, to, e);
	pm_ckpts_free(ck);
	return err;
}

int pm_cmd_interval_open(const char *prog, const char *path,
			 const struct pm_interval_ask *asked,
			 const struct pm_cmd_who *who,
			 struct pm_cmd_interval *inc)
{
	struct pm_interval_ask ask = *asked;
	struct tm_err e = { "" };
	size_t i;
	int found, err;

	memset(inc, 0, sizeof(*inc));
	inc->known_from_ns = INT64_MIN;
	inc->known_to_ns = INT64_MAX;
	if (pm_cmd_open(prog, path, 0, &inc->in))
		return 1;
	if (who && pm_cmd_who_given(who) && pm_cmd_who(prog, &inc->in, who, &ask.pid))
		return 1;
	if (ask.margin_ns > 0 && ask.pid && ask.from_ns >= 0) {
		inc->known_from_ns = ask.from_ns - ask.margin_ns;
		inc->known_to_ns = ask.to_ns + ask.margin_ns;
		err = pm_state_res_build_range(&inc->st, &inc->res, &inc->in,
					       inc->known_from_ns, inc->known_to_ns, &e);
	} else if (ask.bounded && (ask.pid || !inc->in.have_x)) {
		/* without a pid, the X dump's slowest press may be anywhere */
		err = bounded(inc, &ask, &e);
		ask.known = &inc->readers;
	} else {
		err = pm_state_res_build(&inc->st, &inc->res, &inc->in, &e);
	}
	if (err) {
		fprintf(stderr, "tipme %s: %s: %s\n", prog, path, e.msg);
		return 1;
	}
	/* an auto incident without --pid: the press that fired it */
	if (!ask.pid) {
		ask.press_ns = pm_incident_auto_press(&inc->in);
		ask.hint = inc->in.desc;
	}
	/*
	 * Several users' X dumps and nothing in meta.json says whose session
	 * this is: the one whose clients include the process the interval
	 * is about (--pid, else the interval found without an X dump).
	 */
	if (inc->in.x_why == PM_X_SEVERAL) {
		uint32_t pid = ask.pid;

		if (!pid) {
			found = pm_interval_choose(&inc->in, &inc->st, &inc->res,
						   &ask, &inc->iv);
			if (found < 0) {
				fprintf(stderr, "tipme %s: out of memory\n", prog);
				return 1;
			}
			pid = found ? inc->iv.pid : 0;
		}
		if (pm_incident_x_by_pid(&inc->in, pid, &e)) {
			fprintf(stderr, "tipme %s: %s: %s\n", prog, path, e.msg);
			return 1;
		}
	}
	found = pm_interval_choose(&inc->in, &inc->st, &inc->res, &ask, &inc->iv);
	if (found < 0) {
		fprintf(stderr, "tipme %s: out of memory\n", prog);
		return 1;
	}
	if (!found)
		return 0;
	if (pm_verdict_analyse(&inc->r, &inc->in, &inc->st, &inc->res,
			       &inc->iv, &e)) {
		fprintf(stderr, "tipme %s: %s\n", prog, e.msg);
		return 1;
	}
	/* the other candidates' verdicts, to show beside it */
	for (i = 1; i < inc->iv.rank.n; i++) {
		struct pm_interval civ = {
			.pid = inc->iv.rank.c[i].sp.pid,
			.from_ns = inc->iv.rank.c[i].sp.from_ns,
			.to_ns = inc->iv.rank.c[i].sp.to_ns,
			.chosen_by = PM_BY_STALL,
		};

		if (civ.from_ns < inc->st.first_ns)
			civ.from_ns = inc->st.first_ns;
		if (pm_verdict_analyse(&inc->cand[i], &inc->in, &inc->st, &inc->res,
				       &civ, &e)) {
			fprintf(stderr, "tipme %s: %s\n", prog, e.msg);
			return 1;
		}
	}
	inc->found = 1;
	return 0;
}

int pm_cmd_interval_knows(const struct pm_cmd_interval *inc, int64_t from_ns,
			  int64_t to_ns)
{
	return inc->known_from_ns <= from_ns && inc->known_to_ns >= to_ns;
}

void pm_cmd_interval_close(struct pm_cmd_interval *inc)
{
	size_t i;

	for (i = 0; i < PM_RANK_MAX; i++)
		pm_verdict_free(&inc->cand[i]);
	pm_verdict_free(&inc->r);
	pm_res_free(&inc->res);
	pm_state_free(&inc->st);
	free(inc->readers.tgid);
	pm_incident_close(&inc->in);
}
