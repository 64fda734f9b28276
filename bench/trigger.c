// SPDX-License-Identifier: GPL-2.0
/*
 * --trigger-above: when a sample is slower than the threshold, ask for a
 * tipme dump, so that the incident holds the stall the benchmark saw.
 * First through tipmed's control socket ("TRIGGER threshold <reason>"; the
 * reason becomes the incident's description), else by writing 1 to
 * /proc/sys/tipme/trigger (tipmed, if running, still saves the incident;
 * only the description is lost).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "ctlproto.h"

#define TIPME_SYSCTL_TRIGGER "/proc/sys/tipme/trigger"

void trig_init(struct trig_policy *p, uint64_t above_ns, uint64_t spacing_ns)
{
	memset(p, 0, sizeof(*p));
	p->above_ns = above_ns;
	p->spacing_ns = spacing_ns;
}

/**
 * trig_due() - whether a sample should trigger a dump
 * @p: the policy (updated when the answer is 1)
 * @now_ns: CLOCK_MONOTONIC now
 * @val_ns: the sample
 *
 * Once per run when spacing_ns is 0, else at most once per spacing_ns.
 *
 * Return: 1 trigger now, 0 the sample is not above the threshold (or
 * triggering is off), -1 above it but held back by the once/spacing rule.
 */
int trig_due(struct trig_policy *p, uint64_t now_ns, uint64_t val_ns)
{
	if (!p->above_ns || val_ns <= p->above_ns)
		return 0;
	if (p->fired && (!p->spacing_ns || now_ns - p->last_ns < p->spacing_ns))
		return -1;
	p->fired++;
	p->last_ns = now_ns;
	return 1;
}

/**
 * trig_request() - ask for a dump now
 * @socket_path: tipmed's control socket
 * @reason: one line for the incident's description
 * @t: filled with how it went (via, seq, coalesced, error)
 */
void trig_request(const char *socket_path, const char *reason,
		  struct bench_trigger *t)
{
	char req[TIPME_CTL_LINE_MAX], reply[256], serr[TM_ERR_LEN];
	struct tm_err e = { "" };
	int fd, err;

	snprintf(req, sizeof(req), "TRIGGER threshold %s", reason);
	t->mono_ns = mono_ns();
	if (!tm_ctlc_request(socket_path, req, NULL, 0, reply, sizeof(reply), &e)) {
		t->via = "socket";
		tm_ctlc_reply_u64(reply, "seq", &t->seq);
		tm_ctlc_reply_u64(reply, "coalesced", &t->coalesced);
		t->error[0] = '\0';
		return;
	}
	snprintf(serr, sizeof(serr), "%s", e.msg);
	fd = open(TIPME_SYSCTL_TRIGGER, O_WRONLY | O_CLOEXEC);
	err = fd < 0 ? -errno : sys_write_all(fd, "1\n", 2);
	if (fd >= 0)
		close(fd);
	if (!err) {
		t->via = "sysctl";
		snprintf(t->error, sizeof(t->error), "socket: %s", serr);
		return;
	}
	t->via = "none";
	snprintf(t->error, sizeof(t->error), "socket: %s; %s: %s", serr,
		 TIPME_SYSCTL_TRIGGER, strerror(-err));
}

/* Apply --trigger-above to one sample of series @series. */
void trig_check(struct bench_result *r, struct trig_policy *p, size_t series,
		size_t index, const struct bench_sample *x, const char *what)
{
	char reason[512];
	struct bench_trigger *t;
	int due = trig_due(p, mono_ns(), x->val_ns);

	if (due < 0)
		r->trig_suppressed++;
	if (due <= 0)
		return;
	if (r->nr_trig >= BENCH_MAX_TRIGGERS) {
		r->trig_suppressed++;
		return;
	}
	t = &r->trig[r->nr_trig++];
	memset(t, 0, sizeof(*t));
	t->series = series;
	t->index = index;
	t->sample = *x;
	snprintf(reason, sizeof(reason),
		 "tipme-bench %s: sample %zu took %.1f ms (> %.1f ms), CLOCK_MONOTONIC %llu-%llu ns",
		 what, index, (double)x->val_ns / 1e6, (double)p->above_ns / 1e6,
		 (unsigned long long)(x->end_ns - x->val_ns),
		 (unsigned long long)x->end_ns);
	trig_request(r->env->socket_path, reason, t);
	if (!strcmp(t->via, "none"))
		fprintf(stderr, "tipme-bench: warning: could not trigger a dump: %s\n",
			t->error);
	else
		bench_progress(r->env, "triggered a tipme dump via %s: %s", t->via, reason);
}
