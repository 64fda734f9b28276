// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict as text (the verdict in one line a person can paste into a
 * bug, the causes with their shares, what was lost, the chain of waits,
 * the commands to dig further) or as one JSON object whose keys are a
 * contract (Documentation/report.md).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/clock.h"
#include "../dump/tables.h"
#include "../records/records.h"
#include "hot.h"
#include "json.h"
#include "site.h"
#include "verdict.h"
#include "xprof.h"

static const char *const chosen_key[] = {
	[PM_BY_PID] = "pid",
	[PM_BY_INPUT] = "input",
	[PM_BY_STALL] = "ranked_stall",
	[PM_BY_KERNEL_INPUT] = "kernel_input",
	[PM_BY_AUTO] = "auto_press",
};

/* Waits shorter than this are charged but not listed in the chain. */
#define CHAIN_MIN_NS	1000000

struct out {
	FILE *f;
	const struct pm_incident *inc;
	const struct pm_dump *pm;
	const struct pm_state *st;
	const struct pm_verdict *r;
	const char *path;
	const struct pm_verdict_extra *ex;
	struct tm_jw w;
};

static const char *comm(const struct out *o, uint32_t pid)
{
	const char *n;

	if (!pid)
		return "idle/interrupt";
	n = pm_comm_at(o->pm, pid, o->st->last_ns);
	return n ? n : "?";
}

static double pct(const struct pm_verdict *r, int64_t ns)
{
	return r->to_ns > r->from_ns ? 100.0 * ns / (r->to_ns - r->from_ns) : 0;
}

static const char *policy_key(int policy)
{
	static const char *const names[] = {
		"normal", "fifo", "rr", "batch", "iso", "idle", "deadline",
	};

	return policy >= 0 && policy < 7 ? names[policy] : NULL;
}

/* "SCHED_FIFO, real-time priority 49" or "nice 0" from a kernel priority */
static void prio_text(int prio, int policy, char *buf, size_t len)
{
	static const char *const names[] = {
		"", "SCHED_FIFO, ", "SCHED_RR, ", "SCHED_BATCH, ", "SCHED_ISO, ",
		"SCHED_IDLE, ", "SCHED_DEADLINE, ",
	};
	const char *pol = policy >= 0 && policy < 7 ? names[policy] : "";

	if (prio < 0)
		snprintf(buf, len, "%spriority not recorded", pol);
	else if (prio < 100)
		snprintf(buf, len, "%sreal-time priority %d", pol, 99 - prio);
	else
		snprintf(buf, len, "%snice %d", pol, prio - 120);
}

/* What an item means, in words, for the verdict line and the list. */
/*
 * block_io on a stacked device: its bios, the time in the mapper and
 * below, the requests of the device below (@queued: their queue time).
 */
static void bio_text(const struct out *o, const struct pm_cause_item *it,
		     const char *queued, char *buf, size_t len)
{
	size_t n;

	n = (size_t)snprintf(buf, len, "block I/O on %s (%u bio%s", it->resource, it->nbio,
			     it->nbio == 1 ? "" : "s");
	if (n < len && *it->below)
		n += (size_t)snprintf(buf + n, len - n,
				      ": %.1f ms in the mapper, %.1f ms below on %s, %u request%s there, %.1f ms each in the device%s",
				      it->mapper_ns / 1e6, it->below_ns / 1e6, it->below, it->nreq,
				      it->nreq == 1 ? "" : "s",
				      it->nreq ? it->req_ns / 1e6 / it->nreq : 0.0, queued);
	else if (n < len)
		n += (size_t)snprintf(buf + n, len - n, ", none recorded sent below");
	if (n < len)
		snprintf(buf + n, len - n, "), issued by %u (%s)", it->culprit, comm(o, it->culprit));
}

/*
 * block_io: how the waits came about and whose pages the reads filled,
 * appended to @buf: "; via a page fault on inode 12 of dm-0", "; via a
 * page fault, from swap", "; reading inode 12 of dm-0".
 */
static void io_via_text(const struct pm_cause_item *it, char *buf, size_t len)
{
	size_t n = strlen(buf);
	char dev[48];

	if (n >= len || (!it->via_fault && !it->file_kind))
		return;
	if (*it->file_devname)
		snprintf(dev, sizeof(dev), "%s", it->file_devname);
	else
		snprintf(dev, sizeof(dev), "%u:%u", it->file_dev >> 20, it->file_dev & 0xfffff);
	if (it->file_kind == TIPME_BLK_FILE_FILE)
		snprintf(buf + n, len - n, "; %s inode %" PRIu64 " of %s",
			 it->via_fault ? "via a page fault on" : "reading", it->file_ino, dev);
	else if (it->file_kind == TIPME_BLK_FILE_SWAP)
		snprintf(buf + n, len - n, "; %s", it->via_fault ? "via a page fault, from swap" :
			 "reading from swap");
	else
		snprintf(buf + n, len - n, "; via a page fault");
}

static void item_text(const struct out *o, const struct pm_cause_item *it,
		      char *buf, size_t len)
{
	char p[64];

	switch (it->cause) {
	case PM_C_RUNNING:
		snprintf(buf, len, "%u (%s) computing%s%s", it->culprit, comm(o, it->culprit),
			 *it->resource ? " in " : "", it->resource);
		break;
	case PM_C_CPU:
		prio_text(it->prio, it->policy, p, sizeof(p));
		if (it->culprit)
			snprintf(buf, len, "waiting for %s, held by %u (%s, %s)",
				 it->resource, it->culprit, comm(o, it->culprit), p);
		else
			snprintf(buf, len, "waiting for %s (nobody recorded running there)",
				 it->resource);
		break;
	case PM_C_BLOCK_IO:
		if (it->nqueued)
			snprintf(p, sizeof(p), ", %.1f ms queued before",
				 it->queue_ns / 1e6 / it->nqueued);
		else
			p[0] = '\0';
		if (it->nbio)
			bio_text(o, it, p, buf, len);
		else if (*it->below)
			snprintf(buf, len, "block I/O on %s (%u request%s, %.1f ms each in the device%s: %.1f ms in it before it sent them below, %.1f ms below on %s, %u request%s there, %.1f ms each), issued by %u (%s)",
				 it->resource, it->nreq, it->nreq == 1 ? "" : "s",
				 it->nreq ? it->req_ns / 1e6 / it->nreq : 0.0, p,
				 it->mapper_ns / 1e6, it->below_ns / 1e6, it->below, it->nbelow,
				 it->nbelow == 1 ? "" : "s",
				 it->nbelow ? it->below_req_ns / 1e6 / it->nbelow : 0.0,
				 it->culprit, comm(o, it->culprit));
		else
			snprintf(buf, len, "block I/O on %s (%u request%s, %.1f ms each in the device%s), issued by %u (%s)",
				 it->resource, it->nreq, it->nreq == 1 ? "" : "s",
				 it->nreq ? it->req_ns / 1e6 / it->nreq : 0.0, p,
				 it->culprit, comm(o, it->culprit));
		io_via_text(it, buf, len);
		break;
	case PM_C_LOCK:
		if (it->culprit)
			snprintf(buf, len, "waiting for %s, held by %u (%s)",
				 it->resource, it->culprit, comm(o, it->culprit));
		else
			snprintf(buf, len, "waiting for %s (holder not recorded)",
				 it->resource);
		break;
	case PM_C_MEMORY:
		if (it->sleeps && !it->nreq) {
			snprintf(buf, len, "%s: %u penalty sleep%s of %u (%s)", it->resource,
				 it->sleeps, it->sleeps == 1 ? "" : "s", it->culprit,
				 comm(o, it->culprit));
			break;
		}
		snprintf(buf, len, "%s by %u (%s): %" PRIu64 " pages in %u stretch%s",
			 it->resource, it->culprit, comm(o, it->culprit), it->pages,
			 it->nreq, it->nreq == 1 ? "" : "es");
		break;
	case PM_C_TIMER:
		snprintf(buf, len, "%u (%s) sleeping in %s until a timer woke it",
			 it->culprit, comm(o, it->culprit), it->resource);
		break;
	case PM_C_STOPPED:
		if (it->other)
			snprintf(buf, len, "%u (%s) %s, until %u (%s) continued it",
				 it->culprit, comm(o, it->culprit), it->resource,
				 it->other, comm(o, it->other));
		else
			snprintf(buf, len, "%u (%s) %s", it->culprit,
				 comm(o, it->culprit), it->resource);
		break;
	case PM_C_THROTTLED:
		if (it->quota_us > 0 && it->period_us > 0)
			snprintf(buf, len, "runnable, held off the CPU: %s out of its CPU quota (%.1f ms every %.1f ms), taken off the CPU from %u (%s)",
				 it->resource, it->quota_us / 1e3, it->period_us / 1e3,
				 it->culprit, comm(o, it->culprit));
		else
			snprintf(buf, len, "runnable, held off the CPU: %s out of its CPU quota, taken off the CPU from %u (%s)",
				 it->resource, it->culprit, comm(o, it->culprit));
		break;
	case PM_C_NETWORK:
		snprintf(buf, len, "data over the network for %s: on its way, or from a peer the dump does not have",
			 it->resource);
		break;
	case PM_C_GPU:
		if (it->culprit && it->other && it->other != it->culprit)
			snprintf(buf, len, "waiting for %s: its work emitted by %u (%s), signalled by %u (%s)",
				 it->resource, it->culprit, comm(o, it->culprit), it->other,
				 comm(o, it->other));
		else if (it->culprit && it->other)
			snprintf(buf, len, "waiting for %s, signalled by %u (%s)", it->resource,
				 it->culprit, comm(o, it->culprit));
		else if (it->culprit)
			snprintf(buf, len, "waiting for %s: its work emitted by %u (%s), signalled from an interrupt",
				 it->resource, it->culprit, comm(o, it->culprit));
		else
			snprintf(buf, len, "waiting for %s, signalled from an interrupt (no emit recorded)",
				 it->resource);
		break;
	case PM_C_DISPLAY:
		if (it->other && it->crtc >= 0)
			snprintf(buf, len, "the compositor %u (%s) waiting for its repaint window "
				 "before composing the flip on crtc %" PRId32 ": the display's pace",
				 it->other, comm(o, it->other), it->crtc);
		else if (it->other)
			snprintf(buf, len, "the compositor %u (%s) waiting for its repaint window "
				 "before composing the flip: the display's pace",
				 it->other, comm(o, it->other));
		else
			snprintf(buf, len, "a committed flip waiting for the refresh that shows it%s%s: "
				 "the display's pace", *it->resource ? " on " : "", it->resource);
		break;
	case PM_C_X_SERVER:
		if (it->culprit)
			snprintf(buf, len, "the X server (%u, %s) busy with the requests of %u (%s)",
				 it->other, comm(o, it->other), it->culprit,
				 comm(o, it->culprit));
		else
			snprintf(buf, len, "the X server (%u, %s) busy with the requests of a client of unknown PID",
				 it->other, comm(o, it->other));
		break;
	default:
		snprintf(buf, len, "not explained by the dump%s%s",
			 *it->resource ? ": " : "", it->resource);
	}
}

static const struct pm_cause_item *verdict(const struct pm_verdict *r)
{
	return r->nitems ? &r->items[0] : NULL;
}

/* A step's state; a step without a stretch is the client done, the X server drawing. */
static const char *step_state(const struct pm_chain_step *c)
{
	if (!c->seg && c->handed)
		return "handed the input to its client, until the client's commit";
	if (!c->seg)
		return c->cause == PM_C_X_SERVER ? "done, its drawing not yet on the screen" :
		       c->cause == PM_C_DISPLAY ? "its flip committed, not yet on the screen" : "";
	return c->seg->state == PM_T_RUNNABLE ? "runnable" :
	       c->seg->state == PM_T_BLOCKED ? "blocked" : "";
}

static const char *step_key(const struct pm_chain_step *c)
{
	if (!c->seg && c->cause == PM_C_X_SERVER)
		return "drawing";
	if (!c->seg && c->cause == PM_C_DISPLAY)
		return "flip_committed";
	if (!c->seg && c->handed)
		return "handed_to_client";
	return c->seg && c->seg->state == PM_T_RUNNABLE ? "runnable" : "blocked";
}

/*
 * "softirq timer", "irq 24", "hardirq" (outside the device handlers or not
 * recorded): where an interrupt-context wakeup or queueing came from.
 */
static void intr_text(const struct out *o, int ctx, int32_t intr, char *buf, size_t len)
{
	char key[32], name[64];
	const char *p;

	if (ctx == TIPME_CTX_SOFTIRQ && intr != PM_INTR_UNKNOWN) {
		snprintf(buf, len, "softirq %s", pm_softirq_name((unsigned int)intr));
	} else if (ctx == TIPME_CTX_HARDIRQ && intr != PM_INTR_UNKNOWN &&
		   intr != PM_INTR_NO_IRQ) {
		/* its handlers' names, as tipmed saw them (irq.N=ACTIONS) */
		snprintf(key, sizeof(key), "irq.%" PRId32, intr);
		if (pm_text_get(&o->pm->system, key, name, sizeof(name)))
			name[0] = '\0';
		for (p = name; *p; p++)
			if (!isalnum((unsigned char)*p) && !strchr("._-:,/+", *p))
				break;
		if (name[0] && !*p)
			snprintf(buf, len, "irq %" PRId32 " (%s)", intr, name);
		else
			snprintf(buf, len, "irq %" PRId32, intr);
	} else {
		snprintf(buf, len, "%s", pm_ctx_name((unsigned int)ctx));
	}
}

/* A kernel worker waiting for work until the item it ran next was queued. */
static void text_for_work(const struct out *o, const struct pm_chain_step *c)
{
	char fn[96], in[96];

	fprintf(o->f, "waiting for work %s",
		pm_fmt_func(o->pm, c->for_work->func, fn, sizeof(fn)));
	if (c->waker_ctx != TIPME_CTX_TASK) {
		intr_text(o, c->waker_ctx, c->waker_intr, in, sizeof(in));
		fprintf(o->f, ", queued in %s [%s]\n", in, pm_cause_key[c->cause]);
	} else if (c->followed) {
		fprintf(o->f, "; queued by %" PRId64 " (%s):\n", c->waker,
			comm(o, (uint32_t)c->waker));
	} else {
		fprintf(o->f, ", queued by %" PRId64 " (%s) [%s]\n", c->waker,
			comm(o, (uint32_t)c->waker), pm_cause_key[c->cause]);
	}
}

/* The socket a step waited on, and whether its data was still to come. */
static void text_net(const struct out *o, const struct pm_chain_step *c)
{
	char l[64], r[64];

	fprintf(o->f, ", reading %s %s -> %s", pm_net_proto(c->net->proto),
		pm_net_addr(c->net->family, c->net->laddr, c->net->lport, l, sizeof(l)),
		pm_net_addr(c->net->family, c->net->raddr, c->net->rport, r, sizeof(r)));
	if (c->followed)
		fputs(" until its peer sent", o->f);
	else
		fputs(", the data on its way", o->f);
}

/* The hot functions of the threads computing under step @parent. */
static void text_hot(const struct out *o, int parent, int indent)
{
	size_t i;

	for (i = 0; i < o->r->nhot; i++)
		if (o->r->hot[i].parent == parent)
			pm_hot_print(o->f, &o->r->hot[i], comm(o, o->r->hot[i].pid), indent);
}

static void text_chain(const struct out *o, int parent, int indent)
{
	const struct pm_verdict *r = o->r;
	char fn[96], in[96];
	size_t i;

	text_hot(o, parent, indent);
	for (i = 0; i < r->nchain; i++) {
		const struct pm_chain_step *c = &r->chain[i];

		if (c->parent != parent || c->to_ns - c->from_ns < CHAIN_MIN_NS)
			continue;
		fprintf(o->f, "%*s%u (%s): %.3f ms ", indent, "", c->pid, comm(o, c->pid),
		       (c->to_ns - c->from_ns) / 1e6);
		if (c->for_work) {
			text_for_work(o, c);
			text_chain(o, (int)i, indent + 4);
			continue;
		}
		fputs(step_state(c), o->f);
		if (c->seg)
			pm_print_seg_site(o->f, o->pm, c->seg);
		if (c->net)
			text_net(o, c);
		if (c->followed) {
			fprintf(o->f, "; waiting for %" PRId64 " (%s)", c->waker,
			       comm(o, (uint32_t)c->waker));
			if (c->waker_work)
				fprintf(o->f, " running work %s",
					pm_fmt_func(o->pm, c->waker_work->func, fn, sizeof(fn)));
			fputs(":\n", o->f);
		} else {
			if (c->waker >= 0 && c->waker_ctx != TIPME_CTX_TASK &&
			    c->waker_intr != PM_INTR_UNKNOWN) {
				intr_text(o, c->waker_ctx, c->waker_intr, in, sizeof(in));
				fprintf(o->f, ", woken in %s", in);
			}
			fprintf(o->f, " [%s]\n", pm_cause_key[c->cause]);
		}
		text_chain(o, (int)i, indent + 4);
	}
}

static const char *const tier_key[] = {
	[PM_TIER_NOBODY] = "nobody_waited",
	[PM_TIER_BATCH] = "batch",
	[PM_TIER_INTERACTIVE] = "interactive",
	[PM_TIER_NAMED] = "named",
};

/* Why a candidate ranks where it does, in words. */
static void why_text(const struct out *o, const struct pm_cand *c, char *buf, size_t len)
{
	size_t n = 0;

#define ADD(...) \
	do { \
		if (n < len) \
			n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__); \
	} while (0)
	buf[0] = '\0';
	switch (c->tier) {
	case PM_TIER_NAMED:
		ADD("the description names %s", c->interactive && !(c->why & (PM_WHY_INPUT |
		    PM_WHY_XCLIENT)) && c->why & PM_WHY_CHAIN ? "a task that waited for it" :
		    "its process");
		break;
	case PM_TIER_INTERACTIVE:
		ADD("interactive");
		break;
	case PM_TIER_BATCH:
		ADD("batch work: waited for, by no interactive thread");
		break;
	default:
		ADD("nobody waited for it");
	}
	if (c->why & PM_WHY_INPUT)
		ADD("; it received input");
	if (c->why & PM_WHY_XCLIENT)
		ADD("; an X client");
	if (c->waiter)
		ADD("; %u (%s) waited for it", c->waiter, comm(o, c->waiter));
	if (c->why & PM_WHY_CHAIN)
		ADD("; its waiters lead back to %u (%s), %s", c->interactive,
		    comm(o, c->interactive),
		    c->tier == PM_TIER_NAMED ? "named in the description" : "interactive");
#undef ADD
}

/* A candidate's verdict in one line, as the report's first line. */
static void cand_verdict_text(struct out *o, const struct pm_verdict *v, char *buf, size_t len)
{
	const struct pm_verdict *keep = o->r;
	char what[256];

	o->r = v;
	if (v && v->nitems) {
		item_text(o, &v->items[0], what, sizeof(what));
		snprintf(buf, len, "%s (%s, %.1f ms, %.0f%%)", what,
			 pm_cause_key[v->items[0].cause], v->items[0].ns / 1e6,
			 pct(v, v->items[0].ns));
	} else {
		snprintf(buf, len, "nothing recorded in the interval");
	}
	o->r = keep;
}

static void text_candidates(struct out *o)
{
	const struct pm_rank *rk = o->ex->rank;
	char a[40], b[40], what[400], why[400];
	size_t i;

	fprintf(o->f, "\ncandidates, most likely felt first (%zu thread%s stalled in %s .. %s; "
		"ranked: named in the description, interactive, waited for, nobody waited; "
		"then by length):\n", rk->nthreads, rk->nthreads == 1 ? "" : "s",
		pm_fmt_ns(rk->from_ns, a, sizeof(a)), pm_fmt_ns(rk->to_ns, b, sizeof(b)));
	for (i = 0; i < rk->n; i++) {
		const struct pm_cand *c = &rk->c[i];

		cand_verdict_text(o, o->ex->cand[i], what, sizeof(what));
		why_text(o, c, why, sizeof(why));
		fprintf(o->f, "  %zu. pid %u (%s) %s .. %s, %.3f ms: %s\n     why: %s\n",
			i + 1, c->sp.pid, comm(o, c->sp.pid),
			pm_fmt_ns(c->sp.from_ns, a, sizeof(a)), pm_fmt_ns(c->sp.to_ns, b, sizeof(b)),
			(c->sp.to_ns - c->sp.from_ns) / 1e6, what, why);
	}
	fprintf(o->f, "  (%sthe dump records no terminal's foreground process group)\n",
		rk->have_x ? "" : "no X dump: X clients and the input they got are not known; ");
}

/*
 * For an incident of tipmed's (it has meta.json): which X dump was read
 * and whose it is, and a press a client claimed rather than tipme.ko
 * measured.
 */
static void text_handins(struct out *o)
{
	const struct pm_incident *inc = o->inc;
	char why[700];

	if (!inc->have_meta)
		return;
	pm_incident_x_why(inc, why, sizeof(why));
	fprintf(o->f, "x dump:   %s\n", why);
	if (o->r->chosen_by == PM_BY_AUTO && inc->meta.auto_claimed)
		fprintf(o->f, "press:    claimed by uid %u over the control socket: its word, not measured by tipme.ko\n",
			(unsigned int)inc->meta.auto_claimed_by);
}

static void json_handins(struct out *o)
{
	const struct pm_incident *inc = o->inc;
	const struct tm_incident_handin *h;
	const char *key;
	char why[700];

	if (!inc->have_meta)
		return;
	key = pm_incident_x_why(inc, why, sizeof(why));
	tm_jw_key(&o->w, "x_dump");
	tm_jw_obj_begin(&o->w);
	tm_jw_key(&o->w, "file");
	if (inc->have_x)
		tm_jw_str(&o->w, inc->x_file);
	else
		tm_jw_null(&o->w);
	tm_jw_kstr(&o->w, "chosen_by", key);
	if (inc->x_why == PM_X_PRESS_UID || inc->x_why == PM_X_CLAIMER ||
	    inc->x_why == PM_X_REQUESTER || inc->x_why == PM_X_UID_NONE)
		tm_jw_ku64(&o->w, "session_uid", inc->x_uid);
	tm_jw_key(&o->w, "uploader");
	if (inc->x_from >= 0) {
		h = &inc->meta.handins[inc->x_from];
		tm_jw_obj_begin(&o->w);
		tm_jw_ku64(&o->w, "uid", h->uid);
		tm_jw_ku64(&o->w, "pid", h->pid);
		tm_jw_kstr(&o->w, "exe", h->exe);
		tm_jw_obj_end(&o->w);
	} else {
		tm_jw_null(&o->w);
	}
	tm_jw_kstr(&o->w, "text", why);
	tm_jw_obj_end(&o->w);
}

/* How the flip's commit was told ("commit_from"), in a word and in words. */
static const char *const commit_key[PM_COMMIT_NR] = {
	[PM_COMMIT_QUEUED] = "vblank_queued",
	[PM_COMMIT_DELIVERY] = "delivery",
	[PM_COMMIT_LAST_RUN] = "last_run",
	[PM_COMMIT_AFTER] = "none",
	[PM_COMMIT_WORK] = "work_queued",
};

static const char *const commit_words[PM_COMMIT_NR] = {
	[PM_COMMIT_QUEUED] = "its vblank_queued record",
	[PM_COMMIT_DELIVERY] = "its delivery, in the committing thread",
	[PM_COMMIT_LAST_RUN] = "the compositor's last run before it",
	[PM_COMMIT_AFTER] = "no record says: from the answer's end",
	[PM_COMMIT_WORK] = "the compositor's queueing of the kernel work that completed it",
};

/* How a reader no wakeup delivered the input to was found, in words. */
static const char *const awake_words[PM_READER_NR] = {
	[PM_READER_AWAKE] = "no wakeup delivered it: the thread the nearest other input's wakeup "
			    "woke, runnable or running at the press",
	[PM_READER_FLIP_READER] = "no wakeup delivered it nor any other input: the main thread of "
				  "the process reading the page flips' events, runnable or running "
				  "at the press",
};

/*
 * The press's path to the flip that ended it (PM_END_FLIP); the reader,
 * when no wakeup showed it reading the input, whatever the end.
 */
static void text_path(struct out *o)
{
	const struct pm_verdict *r = o->r;
	const struct pm_press_path *p = &r->path;
	const struct pm_flip_end *e = &p->end;
	int awake = r->reader_by == PM_READER_AWAKE || r->reader_by == PM_READER_FLIP_READER;
	char a[40], b[40], c[40];

	if ((r->end != PM_END_FLIP || !e->flip || !p->client) && awake)
		fprintf(o->f, "reader:   %u (%s) read the input, already awake at %s (%s)\n",
			r->pid, comm(o, r->pid), pm_fmt_ns(r->from_ns, a, sizeof(a)),
			awake_words[r->reader_by]);
	if (r->end != PM_END_FLIP || !e->flip)
		return;
	if (p->client && awake)
		fprintf(o->f, "path:     %u (%s) read the input, already awake at %s (%s); "
			"it woke the client %u (%s) at %s",
			p->reader, comm(o, p->reader), pm_fmt_ns(p->read_ns, a, sizeof(a)),
			awake_words[r->reader_by], p->client, comm(o, p->client),
			pm_fmt_ns(p->client_ns, b, sizeof(b)));
	else if (p->client && r->via_xserver && !p->client_waker)
		fprintf(o->f, "path:     the input woke %u (%s) at %s; its client the X server %u (%s) was already awake and had the key by %s (the X dump's device event)",
			p->reader, comm(o, p->reader), pm_fmt_ns(p->read_ns, a, sizeof(a)),
			p->client, comm(o, p->client), pm_fmt_ns(p->client_ns, b, sizeof(b)));
	else if (p->client)
		fprintf(o->f, "path:     the input woke %u (%s) at %s; it woke the client %u (%s) at %s",
			p->reader, comm(o, p->reader), pm_fmt_ns(p->read_ns, a, sizeof(a)),
			p->client, comm(o, p->client), pm_fmt_ns(p->client_ns, b, sizeof(b)));
	if (p->client) {
		if (p->nclients > 1)
			fprintf(o->f, " (followed: the first of the %u processes it woke while dispatching the input)",
				p->nclients);
		if (p->commit_by != PM_COMMIT_BY_WAKEUP && r->via_xserver)
			fprintf(o->f, ";\n          it, the X server, gave the key to %u (%s) and committed by %s (no wakeup shows it: %u (%s) was not asleep for it; the end of its run after it executed the X client's drawing)\n",
				r->pid, comm(o, r->pid),
				pm_fmt_ns(p->commit_ns, a, sizeof(a)), p->commit_to,
				comm(o, p->commit_to));
		else if (p->commit_by != PM_COMMIT_BY_WAKEUP)
			fprintf(o->f, ";\n          %u (%s) committed by %s (no wakeup shows it: %u (%s) was %s for it, and flipped before it waited for other work)\n",
				p->committer, comm(o, p->committer),
				pm_fmt_ns(p->commit_ns, a, sizeof(a)), p->commit_to,
				comm(o, p->commit_to),
				p->commit_by == PM_COMMIT_BY_STOPPED ? "stopped" : "awake");
		else if (r->via_xserver)
			fprintf(o->f, ";\n          it, the X server, gave the key to %u (%s) and committed at %s (its first message to %u (%s) after it executed the X client's drawing)\n",
				r->pid, comm(o, r->pid),
				pm_fmt_ns(p->commit_ns, a, sizeof(a)), p->commit_to,
				comm(o, p->commit_to));
		else
			fprintf(o->f, ";\n          %u (%s) committed at %s (its last message to %u (%s) before the flip was committed)\n",
				p->committer, comm(o, p->committer),
				pm_fmt_ns(p->commit_ns, a, sizeof(a)), p->commit_to,
				comm(o, p->commit_to));
	}
	fprintf(o->f, "flip:     crtc %u, committed at %s (%s), on the screen at %s (delivered %s)%s\n",
		e->flip->crtc, pm_fmt_ns(e->commit_ns, a, sizeof(a)), commit_words[e->commit_from],
		pm_fmt_ns(e->flip_ns, b, sizeof(b)), pm_fmt_ns(e->flip->ns, c, sizeof(c)),
		e->noutputs > 1 ? "; the first flip after the commit of several outputs': the records do not say which shows the client" : "");
	if (e->started && e->repaint_ns)
		fprintf(o->f, "          the repaint after the flip delivered at %s, which only started the "
			"compositor's repaint loop: its timer woke it at %s\n",
			pm_fmt_ns(e->started->ns, a, sizeof(a)), pm_fmt_ns(e->repaint_ns, b, sizeof(b)));
	else if (e->started)
		fprintf(o->f, "          the repaint after the flip delivered at %s, which only started the "
			"compositor's repaint loop (it never waited for its timer: busy past its repaint "
			"window)\n", pm_fmt_ns(e->started->ns, a, sizeof(a)));
}

static void json_path(struct out *o)
{
	const struct pm_verdict *r = o->r;
	const struct pm_press_path *p = &r->path;
	const struct pm_flip_end *e = &p->end;
	char id[12];

	if (r->end != PM_END_FLIP || !e->flip)
		return;
	tm_jw_ki64(&o->w, "flip_mono_ns", r->to_ns);
	tm_jw_ki64(&o->w, "flip_commit_mono_ns", r->flip_commit_ns);
	tm_jw_key(&o->w, "flip");
	tm_jw_obj_begin(&o->w);
	tm_jw_ku64(&o->w, "crtc", e->flip->crtc);
	tm_jw_ku64(&o->w, "seq", e->flip->seq);
	snprintf(id, sizeof(id), "%08" PRIx32, e->flip->file);
	tm_jw_kstr(&o->w, "file", id);
	tm_jw_ku64(&o->w, "owner", e->flip->owner);
	tm_jw_ki64(&o->w, "delivered_mono_ns", e->flip->ns);
	tm_jw_key(&o->w, "vblank_mono_ns");
	if (e->flip_ns != e->flip->ns)
		tm_jw_i64(&o->w, e->flip_ns);
	else
		tm_jw_null(&o->w);
	tm_jw_kstr(&o->w, "commit_from", commit_key[e->commit_from]);
	tm_jw_ku64(&o->w, "outputs", e->noutputs);
	tm_jw_key(&o->w, "loop_start_delivered_mono_ns");
	if (e->started)
		tm_jw_i64(&o->w, e->started->ns);
	else
		tm_jw_null(&o->w);
	tm_jw_key(&o->w, "repaint_timer_mono_ns");
	if (e->started && e->repaint_ns)
		tm_jw_i64(&o->w, e->repaint_ns);
	else
		tm_jw_null(&o->w);
	tm_jw_obj_end(&o->w);
	if (!p->client)
		return;
	tm_jw_key(&o->w, "path");
	tm_jw_obj_begin(&o->w);
	tm_jw_ku64(&o->w, "reader", p->reader);
	tm_jw_kstr(&o->w, "reader_comm", comm(o, p->reader));
	tm_jw_ki64(&o->w, "read_mono_ns", p->read_ns);
	tm_jw_key(&o->w, "reader_idle_mono_ns");
	if (p->idle_ns)
		tm_jw_i64(&o->w, p->idle_ns);
	else
		tm_jw_null(&o->w);
	tm_jw_ku64(&o->w, "client", p->client);
	tm_jw_kstr(&o->w, "client_comm", comm(o, p->client));
	tm_jw_ku64(&o->w, "client_woken_by", p->client_waker);
	tm_jw_ki64(&o->w, "client_woken_mono_ns", p->client_ns);
	tm_jw_ku64(&o->w, "clients_woken", p->nclients);
	/* only under Xwayland: the Wayland paths' JSON stays as it was */
	if (r->via_xserver)
		tm_jw_kbool(&o->w, "client_is_x_server", 1);
	tm_jw_kstr(&o->w, "commit_by", pm_commit_by_key[p->commit_by]);
	tm_jw_kbool(&o->w, "commit_seen", p->commit_by == PM_COMMIT_BY_WAKEUP);
	tm_jw_ku64(&o->w, "committer", p->committer);
	tm_jw_ku64(&o->w, "commit_woke", p->commit_to);
	tm_jw_ki64(&o->w, "commit_mono_ns", p->commit_ns);
	tm_jw_obj_end(&o->w);
}

static const char *const end_key[] = {
	[PM_END_READER_IDLE] = "reader_idle",
	[PM_END_FLIP] = "flip",
	[PM_END_CLIENT_DONE] = "client_done",
	[PM_END_X_DRAWN] = "x_drawn",
};

static void print_text(struct out *o, const char *name)
{
	const struct pm_verdict *r = o->r;
	const struct pm_cause_item *v = verdict(r);
	int64_t span = r->to_ns - r->from_ns;
	char a[40], b[40], what[512];
	size_t i;

	if (v) {
		item_text(o, v, what, sizeof(what));
		fprintf(o->f, "pid %u (%s) waited %.3f ms: %s (%s, %.1f ms, %.0f%%)\n",
		       r->pid, comm(o, r->pid), span / 1e6, what,
		       pm_cause_key[v->cause], v->ns / 1e6, pct(r, v->ns));
	} else {
		fprintf(o->f, "pid %u (%s): nothing recorded in the interval\n", r->pid,
		       comm(o, r->pid));
	}
	if (o->ex && o->ex->desc)
		fprintf(o->f, "description: %s\n", o->ex->desc);
	fprintf(o->f, "\ninterval: pid %u (%s), %s .. %s, %.3f ms (chosen by %s)\n",
	       r->pid, comm(o, r->pid), pm_fmt_ns(r->from_ns, a, sizeof(a)),
	       pm_fmt_ns(r->to_ns, b, sizeof(b)), span / 1e6,
	       r->chosen_by == PM_BY_INPUT ? (r->end == PM_END_FLIP ? (r->via_xserver ?
		"the slowest input, from the kernel's input record through the compositor and its client the X server to the X client, to the refresh that showed the compositor's flip after the X server's commit of the drawing" :
		"the slowest input, from the device event to the refresh that showed the X server's flip after its drawing") :
		r->display_ns ?
		"the slowest input, from the device event to the X server done drawing for it" :
		"the slowest input, from the device event to the client done with it") :
	       r->chosen_by == PM_BY_AUTO ? (r->end == PM_END_FLIP ? (r->via_xserver ?
		"the press that fired the auto trigger, from the kernel's input record through the compositor and its client the X server to the X client, to the refresh that showed the compositor's flip after the X server's commit of the drawing" :
		"the press that fired the auto trigger, from the device event to the refresh that showed the flip after its answer") :
		r->display_ns ?
		"the press that fired the auto trigger, from the device event to the X server done drawing for it" :
		r->end == PM_END_READER_IDLE ?
		"the press that fired the auto trigger, to its reader going back to sleep: no flip in the dump, so not to the screen" :
		"the press that fired the auto trigger, from the device event to the client done with it") :
	       r->chosen_by == PM_BY_KERNEL_INPUT ? (r->end == PM_END_FLIP ?
	       "the slowest input the kernel saw, to the refresh that showed the compositor's flip after the client's commit" :
	       "the slowest input the kernel saw, to its reader going back to sleep: no X dump and no flip, so not to the screen") :
	       r->chosen_by == PM_BY_STALL ?
	       "the stall most likely felt before the trigger: no --pid and no input to go by" :
	       "--pid");
	text_path(o);
	text_handins(o);
	if (o->ex && o->ex->rank && o->ex->rank->n)
		text_candidates(o);
	fprintf(o->f, "\ncauses, by time:\n");
	for (i = 0; i < r->nitems; i++) {
		item_text(o, &r->items[i], what, sizeof(what));
		fprintf(o->f, "  %-15s %10.3f ms %5.1f%%  %s\n", pm_cause_key[r->items[i].cause],
		       r->items[i].ns / 1e6, pct(r, r->items[i].ns), what);
	}
	fprintf(o->f, "accounted: %.1f%% of %.3f ms%s\n", pct(r, span - r->unknown_ns),
	       span / 1e6, r->lost ?
	       "; the dump has gaps (lost sub-buffers): time in them is unknown" : "");
	if (r->nchain || r->nhot) {
		fprintf(o->f, "\nchain of waits (1 ms or longer):\n");
		text_chain(o, -1, 2);
	}
	fprintf(o->f, "\ndig further:\n");
	fprintf(o->f, "  tipme why --pid %u --from %s --to %s %s\n", r->pid,
	       pm_fmt_ns(r->from_ns, a, sizeof(a)), pm_fmt_ns(r->to_ns, b, sizeof(b)),
	       name);
	if (v && v->culprit && v->culprit != r->pid)
		fprintf(o->f, "  tipme records --pid %u %s | less\n", v->culprit, name);
	if (r->chosen_by == PM_BY_INPUT || r->chosen_by == PM_BY_AUTO)
		fprintf(o->f, "  tipme latency %s\n", name);
}

/* "key": "value", or null when @val is empty. */
static void opt_str(struct tm_jw *w, const char *key, const char *val)
{
	tm_jw_key(w, key);
	if (*val)
		tm_jw_str(w, val);
	else
		tm_jw_null(w);
}

/* "KEY": @val, or null unless @known */
static void opt_u64(struct tm_jw *w, const char *key, int known, uint64_t val)
{
	tm_jw_key(w, key);
	if (known)
		tm_jw_u64(w, val);
	else
		tm_jw_null(w);
}

/* block_io: "via", "file" and "swap" (Documentation/report.md) */
static void io_via_json(struct out *o, const struct pm_cause_item *it)
{
	char dev[24];

	tm_jw_key(&o->w, "via");
	if (it->via_fault)
		tm_jw_str(&o->w, "page fault");
	else
		tm_jw_null(&o->w);
	tm_jw_key(&o->w, "file");
	if (it->file_kind == TIPME_BLK_FILE_FILE) {
		snprintf(dev, sizeof(dev), "%u:%u", it->file_dev >> 20, it->file_dev & 0xfffff);
		tm_jw_obj_begin(&o->w);
		tm_jw_kstr(&o->w, "dev", dev);
		opt_str(&o->w, "device", it->file_devname);
		tm_jw_ku64(&o->w, "ino", it->file_ino);
		tm_jw_obj_end(&o->w);
	} else {
		tm_jw_null(&o->w);
	}
	tm_jw_kbool(&o->w, "swap", it->file_kind == TIPME_BLK_FILE_SWAP);
}

/* "net": {"proto", "local", "remote"}: a socket's addresses. */
static void json_net(struct out *o, const char *proto, const char *local,
		     const char *remote)
{
	tm_jw_key(&o->w, "net");
	tm_jw_obj_begin(&o->w);
	tm_jw_kstr(&o->w, "proto", proto);
	tm_jw_kstr(&o->w, "local", local);
	tm_jw_kstr(&o->w, "remote", remote);
	tm_jw_obj_end(&o->w);
}

static void json_item(struct out *o, const struct pm_cause_item *it)
{
	char what[512];

	tm_jw_obj_begin(&o->w);
	tm_jw_kstr(&o->w, "cause", pm_cause_key[it->cause]);
	tm_jw_key(&o->w, "culprit");
	if (it->culprit) {
		tm_jw_obj_begin(&o->w);
		tm_jw_ku64(&o->w, "pid", it->culprit);
		tm_jw_kstr(&o->w, "comm", comm(o, it->culprit));
		tm_jw_obj_end(&o->w);
	} else {
		tm_jw_null(&o->w);
	}
	tm_jw_key(&o->w, "resource");
	if (*it->resource)
		tm_jw_str(&o->w, it->resource);
	else
		tm_jw_null(&o->w);
	tm_jw_kdouble(&o->w, "ms", it->ns / 1e6);
	tm_jw_kdouble(&o->w, "pct", pct(o->r, it->ns));
	item_text(o, it, what, sizeof(what));
	tm_jw_kstr(&o->w, "text", what);
	if (it->cause == PM_C_BLOCK_IO) {
		tm_jw_ku64(&o->w, "requests", it->nreq);
		tm_jw_kdouble(&o->w, "request_ms_mean", it->nreq ? it->req_ns / 1e6 / it->nreq : 0);
		tm_jw_ku64(&o->w, "queued_requests", it->nqueued);
		tm_jw_key(&o->w, "queue_ms_mean");
		if (it->nqueued)
			tm_jw_double(&o->w, it->queue_ns / 1e6 / it->nqueued);
		else
			tm_jw_null(&o->w);
		opt_str(&o->w, "device", it->device);
		opt_str(&o->w, "dm_name", it->dm_name);
		tm_jw_ku64(&o->w, "bios", it->nbio);
		if (it->nbio || *it->below) {
			tm_jw_kdouble(&o->w, "mapper_ms", it->mapper_ns / 1e6);
			tm_jw_kdouble(&o->w, "below_ms", it->below_ns / 1e6);
			opt_str(&o->w, "below_device", it->below);
		}
		if (!it->nbio && *it->below) {
			tm_jw_ku64(&o->w, "below_requests", it->nbelow);
			tm_jw_kdouble(&o->w, "below_request_ms_mean",
				      it->nbelow ? it->below_req_ns / 1e6 / it->nbelow : 0);
		}
		io_via_json(o, it);
	} else if (it->cause == PM_C_MEMORY) {
		tm_jw_ku64(&o->w, "reclaims", it->nreq);
		tm_jw_ku64(&o->w, "pages_reclaimed", it->pages);
		tm_jw_ku64(&o->w, "penalty_sleeps", it->sleeps);
		opt_str(&o->w, "cgroup", it->cgroup);
		opt_u64(&o->w, "cgroup_id", it->cgroup_id != 0, it->cgroup_id);
		opt_u64(&o->w, "memory_high_bytes", it->cgroup_id != 0, it->mem_high);
	} else if (it->cause == PM_C_CPU && (it->prio >= 0 || policy_key(it->policy))) {
		if (it->prio >= 0)
			tm_jw_ku64(&o->w, "culprit_kernel_prio", (uint64_t)it->prio);
		if (policy_key(it->policy))
			tm_jw_kstr(&o->w, "culprit_policy", policy_key(it->policy));
	} else if (it->cause == PM_C_STOPPED && it->other) {
		tm_jw_ku64(&o->w, "continued_by", it->other);
	} else if (it->cause == PM_C_X_SERVER && it->other) {
		tm_jw_ku64(&o->w, "x_server_pid", it->other);
	} else if (it->cause == PM_C_THROTTLED) {
		opt_str(&o->w, "cgroup", it->cgroup);
		opt_u64(&o->w, "cgroup_id", it->cgroup_id != 0, it->cgroup_id);
		opt_u64(&o->w, "quota_us", it->quota_us > 0, (uint64_t)it->quota_us);
		opt_u64(&o->w, "period_us", it->period_us > 0, (uint64_t)it->period_us);
	} else if (it->cause == PM_C_NETWORK) {
		json_net(o, it->net_proto, it->net_local, it->net_remote);
	} else if (it->cause == PM_C_GPU) {
		tm_jw_key(&o->w, "fence");
		tm_jw_obj_begin(&o->w);
		tm_jw_ku64(&o->w, "context", it->fence_ctx);
		opt_str(&o->w, "driver", it->fence_driver);
		opt_str(&o->w, "timeline", it->fence_timeline);
		tm_jw_key(&o->w, "signaled_by");
		if (it->other)
			tm_jw_u64(&o->w, it->other);
		else
			tm_jw_null(&o->w);
		tm_jw_obj_end(&o->w);
	} else if (it->cause == PM_C_DISPLAY) {
		tm_jw_key(&o->w, "crtc");
		if (it->crtc >= 0)
			tm_jw_u64(&o->w, (uint64_t)it->crtc);
		else
			tm_jw_null(&o->w);
		tm_jw_key(&o->w, "repaint_window_of");
		if (it->other)
			tm_jw_u64(&o->w, it->other);
		else
			tm_jw_null(&o->w);
	}
	tm_jw_obj_end(&o->w);
}

/* "softirq" or "irq" of an interrupt-context wakeup or queueing, when known. */
static void json_intr(struct out *o, const struct pm_chain_step *c)
{
	if (c->waker_intr == PM_INTR_UNKNOWN)
		return;
	if (c->waker_ctx == TIPME_CTX_SOFTIRQ) {
		tm_jw_kstr(&o->w, "softirq", pm_softirq_name((unsigned int)c->waker_intr));
	} else if (c->waker_ctx == TIPME_CTX_HARDIRQ) {
		tm_jw_key(&o->w, "irq");
		if (c->waker_intr == PM_INTR_NO_IRQ)
			tm_jw_null(&o->w);
		else
			tm_jw_u64(&o->w, (uint64_t)c->waker_intr);
	}
}

/* "hot": [HOT, ...] of the threads computing under step @parent, if any. */
static void json_hot(struct out *o, int parent)
{
	size_t i, n = 0;

	for (i = 0; i < o->r->nhot; i++) {
		if (o->r->hot[i].parent != parent)
			continue;
		if (!n++) {
			tm_jw_key(&o->w, "hot");
			tm_jw_arr_begin(&o->w);
		}
		pm_hot_json(&o->w, &o->r->hot[i], comm(o, o->r->hot[i].pid));
	}
	if (n)
		tm_jw_arr_end(&o->w);
}

static void json_chain(struct out *o, int parent)
{
	const struct pm_verdict *r = o->r;
	char fn[96];
	size_t i;

	tm_jw_arr_begin(&o->w);
	for (i = 0; i < r->nchain; i++) {
		const struct pm_chain_step *c = &r->chain[i];

		if (c->parent != parent || c->to_ns - c->from_ns < CHAIN_MIN_NS)
			continue;
		tm_jw_obj_begin(&o->w);
		tm_jw_ku64(&o->w, "pid", c->pid);
		tm_jw_kstr(&o->w, "comm", comm(o, c->pid));
		tm_jw_ki64(&o->w, "from_mono_ns", c->from_ns);
		tm_jw_ki64(&o->w, "to_mono_ns", c->to_ns);
		tm_jw_kdouble(&o->w, "ms", (c->to_ns - c->from_ns) / 1e6);
		tm_jw_kstr(&o->w, "state", c->for_work ? "waiting_for_work" : step_key(c));
		if (c->seg && !c->for_work)
			pm_json_seg_site(&o->w, o->pm, c->seg);
		if (c->net) {
			char l[64], rm[64];

			json_net(o, pm_net_proto(c->net->proto),
				 pm_net_addr(c->net->family, c->net->laddr, c->net->lport,
					     l, sizeof(l)),
				 pm_net_addr(c->net->family, c->net->raddr, c->net->rport,
					     rm, sizeof(rm)));
		}
		if (c->for_work) {
			tm_jw_kstr(&o->w, "work",
				   pm_fmt_func(o->pm, c->for_work->func, fn, sizeof(fn)));
			tm_jw_key(&o->w, "queued_by");
			if (c->waker_ctx == TIPME_CTX_TASK && c->waker > 0)
				tm_jw_u64(&o->w, (uint64_t)c->waker);
			else
				tm_jw_null(&o->w);
			if (c->waker_ctx == TIPME_CTX_TASK && c->waker > 0)
				tm_jw_kstr(&o->w, "queued_by_comm", comm(o, (uint32_t)c->waker));
			tm_jw_kstr(&o->w, "queue_ctx", pm_ctx_name((unsigned int)c->waker_ctx));
			json_intr(o, c);
		} else if (c->waker >= 0) {
			tm_jw_ku64(&o->w, "woken_by", (uint64_t)c->waker);
			tm_jw_kstr(&o->w, "woken_by_comm", comm(o, (uint32_t)c->waker));
			tm_jw_kstr(&o->w, "waker_ctx", pm_ctx_name((unsigned int)c->waker_ctx));
			json_intr(o, c);
			if (c->waker_work)
				tm_jw_kstr(&o->w, "waker_work",
					   pm_fmt_func(o->pm, c->waker_work->func, fn, sizeof(fn)));
		}
		json_hot(o, (int)i);
		if (c->followed) {
			tm_jw_key(&o->w, "waited_for");
			json_chain(o, (int)i);
		} else {
			tm_jw_kstr(&o->w, "cause", pm_cause_key[c->cause]);
		}
		tm_jw_obj_end(&o->w);
	}
	tm_jw_arr_end(&o->w);
}

static void json_task(struct out *o, const char *key, uint32_t pid)
{
	tm_jw_key(&o->w, key);
	if (!pid) {
		tm_jw_null(&o->w);
		return;
	}
	tm_jw_obj_begin(&o->w);
	tm_jw_ku64(&o->w, "pid", pid);
	tm_jw_kstr(&o->w, "comm", comm(o, pid));
	tm_jw_obj_end(&o->w);
}

static void json_candidates(struct out *o)
{
	static const struct {
		unsigned int bit;
		const char *key;
	} sig[] = {
		{ PM_WHY_HINT, "description" }, { PM_WHY_INPUT, "input" },
		{ PM_WHY_XCLIENT, "x_client" }, { PM_WHY_WAITED, "waited_for" },
		{ PM_WHY_CHAIN, "interactive_waiter" },
	};
	const struct pm_rank *rk = o->ex->rank;
	const struct pm_verdict *keep = o->r;
	char why[400];
	size_t i, k;

	tm_jw_key(&o->w, "stall_search");
	tm_jw_obj_begin(&o->w);
	tm_jw_ki64(&o->w, "from_mono_ns", rk->from_ns);
	tm_jw_ki64(&o->w, "to_mono_ns", rk->to_ns);
	tm_jw_ku64(&o->w, "stalled_threads", rk->nthreads);
	tm_jw_kbool(&o->w, "x_dump", rk->have_x);
	tm_jw_obj_end(&o->w);
	tm_jw_key(&o->w, "candidates");
	tm_jw_arr_begin(&o->w);
	for (i = 0; i < rk->n; i++) {
		const struct pm_cand *c = &rk->c[i];
		const struct pm_verdict *v = o->ex->cand[i];

		tm_jw_obj_begin(&o->w);
		tm_jw_key(&o->w, "interval");
		tm_jw_obj_begin(&o->w);
		tm_jw_ku64(&o->w, "pid", c->sp.pid);
		tm_jw_kstr(&o->w, "comm", comm(o, c->sp.pid));
		tm_jw_ki64(&o->w, "from_mono_ns", v ? v->from_ns : c->sp.from_ns);
		tm_jw_ki64(&o->w, "to_mono_ns", v ? v->to_ns : c->sp.to_ns);
		tm_jw_obj_end(&o->w);
		tm_jw_key(&o->w, "verdict");
		o->r = v;
		if (v && v->nitems)
			json_item(o, &v->items[0]);
		else
			tm_jw_null(&o->w);
		o->r = keep;
		tm_jw_key(&o->w, "why");
		tm_jw_obj_begin(&o->w);
		tm_jw_kstr(&o->w, "rank", tier_key[c->tier]);
		tm_jw_key(&o->w, "signals");
		tm_jw_arr_begin(&o->w);
		for (k = 0; k < sizeof(sig) / sizeof(sig[0]); k++)
			if (c->why & sig[k].bit)
				tm_jw_str(&o->w, sig[k].key);
		tm_jw_arr_end(&o->w);
		json_task(o, "waited_for_by", c->waiter);
		json_task(o, "leads_back_to", c->why & PM_WHY_CHAIN ? c->interactive : 0);
		why_text(o, c, why, sizeof(why));
		tm_jw_kstr(&o->w, "text", why);
		tm_jw_obj_end(&o->w);
		tm_jw_obj_end(&o->w);
	}
	tm_jw_arr_end(&o->w);
}

static void print_json(struct out *o, const struct pm_xprof *xp)
{
	const struct pm_verdict *r = o->r;
	size_t i;

	tm_jw_init(&o->w, o->f, 0);
	tm_jw_obj_begin(&o->w);
	tm_jw_key(&o->w, "interval");
	tm_jw_obj_begin(&o->w);
	tm_jw_ku64(&o->w, "pid", r->pid);
	tm_jw_kstr(&o->w, "comm", comm(o, r->pid));
	tm_jw_ki64(&o->w, "from_mono_ns", r->from_ns);
	tm_jw_ki64(&o->w, "to_mono_ns", r->to_ns);
	tm_jw_kstr(&o->w, "chosen_by", chosen_key[r->chosen_by]);
	if (r->display_ns)
		tm_jw_ki64(&o->w, "client_done_mono_ns", r->display_ns);
	if (r->chosen_by == PM_BY_AUTO && o->inc->have_meta) {
		tm_jw_kbool(&o->w, "press_claimed", o->inc->meta.auto_claimed);
		if (o->inc->meta.auto_claimed)
			tm_jw_ku64(&o->w, "press_claimed_by_uid",
				   o->inc->meta.auto_claimed_by);
	}
	if (r->end != PM_END_NONE)
		tm_jw_kstr(&o->w, "end", end_key[r->end]);
	if (r->reader_by != PM_READER_NONE)
		tm_jw_kstr(&o->w, "reader_by", pm_reader_by_key[r->reader_by]);
	json_path(o);
	tm_jw_obj_end(&o->w);
	json_handins(o);
	tm_jw_key(&o->w, "verdict");
	if (verdict(r))
		json_item(o, verdict(r));
	else
		tm_jw_null(&o->w);
	tm_jw_key(&o->w, "causes");
	tm_jw_arr_begin(&o->w);
	for (i = 0; i < r->nitems; i++)
		json_item(o, &r->items[i]);
	tm_jw_arr_end(&o->w);
	tm_jw_kdouble(&o->w, "accounted_pct", pct(r, r->to_ns - r->from_ns - r->unknown_ns));
	tm_jw_key(&o->w, "lost");
	tm_jw_obj_begin(&o->w);
	tm_jw_kbool(&o->w, "dump_has_gaps", r->lost);
	tm_jw_kdouble(&o->w, "unknown_ms", r->unknown_ns / 1e6);
	tm_jw_obj_end(&o->w);
	tm_jw_key(&o->w, "chain");
	json_chain(o, -1);
	json_hot(o, -1);
	if (o->ex && o->ex->desc)
		tm_jw_kstr(&o->w, "description", o->ex->desc);
	if (o->ex && o->ex->rank && o->ex->rank->n)
		json_candidates(o);
	if (xp) {
		tm_jw_key(&o->w, "x");
		pm_xprof_json(&o->w, xp);
	}
	tm_jw_obj_end(&o->w);
	tm_jw_finish(&o->w);
}

/**
 * pm_verdict_print() - print a verdict
 * @f: output
 * @inc: the incident
 * @st: its state (for task names)
 * @r: the analysis
 * @name: the dump's or incident's path, for the commands to dig further
 * @xp: the X server's tables for the interval (--x), or NULL
 * @ex: the description and the ranked stalls to show, or NULL
 * @json: one JSON object instead of text
 */
void pm_verdict_print(FILE *f, const struct pm_incident *inc, const struct pm_state *st,
		      const struct pm_verdict *r, const char *name,
		      const struct pm_xprof *xp, const struct pm_verdict_extra *ex,
		      int json)
{
	const struct pm_dump *pm = &inc->pm;
	struct out o = { .f = f, .inc = inc, .pm = pm, .st = st, .r = r, .ex = ex };

	if (json) {
		print_json(&o, xp);
		return;
	}
	print_text(&o, name);
	if (xp)
		pm_xprof_text(f, xp);
}
