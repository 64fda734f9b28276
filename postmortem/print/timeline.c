// SPDX-License-Identifier: GPL-2.0
/*
 * tipme timeline's picture (timeline.h).  1600 px wide.  Each lane is cut
 * into pixel columns and each column shows what filled most of it (the
 * process that ran longest on that CPU, the class a thread spent most of
 * it in), so a busy minute draws as fast as a quiet second and a 1 ms
 * stall stays a visible pixel at any zoom.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/xprof.h"
#include "../dump/clock.h"
#include "../dump/tables.h"
#include "../records/records.h"
#include "names.h"
#include "timeline.h"
#include "xdumpfile.h"
#include "xmltext.h"

#define W		1600
#define X0		230	/* the plot begins after the lane labels */
#define X1		(W - 30)
#define NCOL		(X1 - X0)
#define CPU_H		18
#define LANE_H		30
#define GAP		5

/* Thread lane classes: the verdict's causes, plus "waiting for a task" and "no record". */
enum cls {
	C_RUN, C_CPU, C_IO, C_LOCK, C_MEM, C_TIMER, C_STOP, C_X, C_TASK, C_IDLE,
	C_NONE, C_NR,
};

static const struct {
	const char *colour, *label;
} cls_style[C_NR] = {
	[C_RUN] = { "#2e8b3a", "running" },
	[C_CPU] = { "#e3a21a", "runnable: waiting for a CPU" },
	[C_IO] = { "#1f5fa8", "blocked: block I/O" },
	[C_LOCK] = { "#8a3fa0", "blocked: lock" },
	[C_MEM] = { "#c8461e", "memory reclaim" },
	[C_TIMER] = { "#8fa3b8", "asleep until a timer" },
	[C_STOP] = { "#222222", "stopped" },
	[C_X] = { "#17becf", "waiting for the X server" },
	[C_TASK] = { "#cdb9e6", "blocked until another task woke it" },
	[C_IDLE] = { "#f6f0d8", "idle: waiting for events (poll, epoll, ...)" },
	[C_NONE] = { "#eeeeee", "nothing recorded" },
};

static const char *const proc_colours[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#86bcb6", "#d37295", "#a0cbe8",
};

struct tl {
	const struct pm_timeline_in *in;
	FILE *f;
	struct pm_timeline_stats *stats;
	double scale;		/* columns per ns */
};

/*
 * Times are differences of signed 64-bit times that may lie anywhere (a
 * crafted dump's records, an interval that ends at the end of time): they
 * are taken in double, never as an int64_t that could overflow.
 */
static double since_from(const struct tl *t, int64_t ns)
{
	return (double)ns - (double)t->in->from_ns;
}

static double xpos(const struct tl *t, int64_t ns)
{
	return X0 + since_from(t, ns) * t->scale;
}

static const char *name_of(const struct tl *t, uint32_t pid)
{
	const char *n = pm_comm_at(&t->in->inc->pm, pid, t->in->st->last_ns);

	return n ? n : "?";
}

static uint32_t tgid_of(const struct tl *t, uint32_t pid)
{
	const struct pm_exec *x = pm_exec_at(&t->in->inc->pm, pid, t->in->st->last_ns);

	return x && x->x.tgid ? x->x.tgid : pid;
}

static const char *proc_colour(uint32_t tgid)
{
	return proc_colours[(tgid * 2654435761u >> 8) % (sizeof(proc_colours) / sizeof(proc_colours[0]))];
}

/* Spread @ns of [a, b) over the columns it covers, into @acc[col]. */
static void spread(const struct tl *t, int64_t a, int64_t b, double *acc, size_t stride,
		   size_t k)
{
	double xa, xb;
	long c;

	if (a < t->in->from_ns)
		a = t->in->from_ns;
	if (b > t->in->to_ns)
		b = t->in->to_ns;
	if (b <= a)
		return;
	xa = since_from(t, a) * t->scale;
	xb = since_from(t, b) * t->scale;
	if (xa < 0)
		xa = 0;
	if (xb > NCOL)
		xb = NCOL;
	for (c = (long)xa; c < NCOL && c <= (long)xb; c++) {
		double lo = c > xa ? c : xa, hi = c + 1 < xb ? c + 1 : xb;

		if (hi > lo)
			acc[(size_t)c * stride + k] += hi - lo;
	}
}

static void axis(struct tl *t, int y)
{
	static const uint64_t steps[] = { 1, 2, 5 };
	/* to > from: their distance fits in 64 bits unsigned */
	uint64_t span = (uint64_t)t->in->to_ns - (uint64_t)t->in->from_ns;
	uint64_t p = 1000, step = 1000, v;
	size_t i;

	/*
	 * 1-2-5 steps of at most ~12 ticks: found by p = 10^18 at the latest
	 * (2 * 10^18 * 12 > 2^64), before p * 5 could overflow.
	 */
	for (;;) {
		for (i = 0; i < 3; i++)
			if (span / (steps[i] * p) <= 12) {
				step = steps[i] * p;
				goto found;
			}
		p *= 10;
	}
found:
	fprintf(t->f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555\"/>\n",
		X0, y, X1, y);
	for (v = 0;; v += step) {
		double x = X0 + (double)v * t->scale;

		fprintf(t->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\"/>"
			"<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%g ms</text>\n",
			x, y - 4, x, y + 4, x, y - 7, v / 1e6);
		if (span - v < step)
			break;
	}
}

/* One lane per CPU: in each column, the process that ran there longest. */
static int cpu_lanes(struct tl *t, int y, uint32_t ncpu)
{
	const struct pm_state *st = t->in->st;
	uint32_t cpu, *who;
	double *best;
	size_t i, j;
	int c;

	who = calloc((size_t)NCOL * ncpu, sizeof(*who));
	best = calloc((size_t)NCOL * ncpu, sizeof(*best));
	if (!who || !best) {
		free(who);
		free(best);
		return -1;
	}
	for (i = 0; i < st->nthreads; i++) {
		const struct pm_thread *th = &st->threads[i];
		double *acc = calloc(NCOL, sizeof(*acc));

		if (!acc) {
			free(who);
			free(best);
			return -1;
		}
		for (cpu = 0; cpu < ncpu; cpu++) {
			int any = 0;

			for (j = pm_seg_first(th, t->in->from_ns);
			     j < th->nsegs && th->segs[j].start_ns < t->in->to_ns; j++) {
				const struct pm_seg *s = &th->segs[j];

				if (s->state == PM_T_RUNNING && s->cpu == cpu) {
					spread(t, s->start_ns, s->end_ns, acc, 1, 0);
					any = 1;
				}
			}
			for (c = 0; any && c < NCOL; c++) {
				if (acc[c] > best[(size_t)cpu * NCOL + c]) {
					best[(size_t)cpu * NCOL + c] = acc[c];
					who[(size_t)cpu * NCOL + c] = th->pid;
				}
				acc[c] = 0;
			}
		}
		free(acc);
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		int ly = y + (int)cpu * (CPU_H + GAP);

		fprintf(t->f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">cpu %u</text>\n",
			X0 - 8, ly + CPU_H - 5, cpu);
		fprintf(t->f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#ddd\"/>\n",
			X0, ly, NCOL, CPU_H);
		for (c = 0; c < NCOL;) {
			uint32_t p = who[(size_t)cpu * NCOL + c];
			uint32_t g = p ? tgid_of(t, p) : 0;
			int e = c + 1;

			while (e < NCOL && (who[(size_t)cpu * NCOL + e] ? tgid_of(t, who[(size_t)cpu * NCOL + e]) : 0) == g)
				e++;
			if (p) {
				fprintf(t->f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
					X0 + c, ly, e - c, CPU_H, proc_colour(g));
				tm_xml_text(t->f, name_of(t, p));
				fprintf(t->f, " (%u)</title></rect>\n", g);
				t->stats->stretches++;
				if (e - c >= 70) {
					fprintf(t->f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#fff\">",
						X0 + c + 3, ly + CPU_H - 5);
					tm_xml_text(t->f, name_of(t, p));
					fputs("</text>\n", t->f);
				}
			}
			c = e;
		}
	}
	t->stats->cpus = ncpu;
	free(who);
	free(best);
	return y + (int)ncpu * (CPU_H + GAP);
}

static int cause_cls(int cause, const struct pm_seg *s)
{
	switch (cause) {
	case PM_C_RUNNING: return C_RUN;
	case PM_C_CPU: return C_CPU;
	case PM_C_THROTTLED: return C_CPU;
	case PM_C_BLOCK_IO: return C_IO;
	case PM_C_LOCK: return C_LOCK;
	case PM_C_MEMORY: return C_MEM;
	case PM_C_TIMER: return C_TIMER;
	case PM_C_STOPPED: return C_STOP;
	case PM_C_X_SERVER: return C_X;
	default:
		return s->state == PM_T_BLOCKED ? C_TASK : C_NONE;
	}
}

/* One lane per chosen thread: its class per column, its priority, its marks. */
static int thread_lanes(struct tl *t, int y, int *lane_y)
{
	const struct pm_timeline_in *in = t->in;
	const struct tm_xdump *x = pm_incident_x(in->inc);
	uint32_t xs = x ? pm_xserver_pid(x) : 0;
	double *acc = malloc((size_t)NCOL * C_NR * sizeof(*acc));
	size_t l, j, i;
	int c;

	if (!acc)
		return -1;
	for (l = 0; l < in->npids; l++) {
		const struct pm_thread *th = pm_state_thread(in->st, in->pids[l]);
		int ly = y + (int)l * (LANE_H + GAP);
		double px = -1, py = 0;

		lane_y[l] = ly;
		memset(acc, 0, (size_t)NCOL * C_NR * sizeof(*acc));
		fprintf(t->f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">%u ",
			X0 - 8, ly + LANE_H / 2 + 4, in->pids[l]);
		tm_xml_text(t->f, name_of(t, in->pids[l]));
		fputs("</text>\n", t->f);
		fprintf(t->f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#ddd\"/>\n",
			X0, ly, NCOL, LANE_H, cls_style[C_NONE].colour);
		/* the stretches in the picture's interval: spread() draws no other */
		for (j = pm_seg_first(th, in->from_ns);
		     th && j < th->nsegs && th->segs[j].start_ns < in->to_ns; j++) {
			const struct pm_seg *s = &th->segs[j];
			int64_t a = s->start_ns, b = s->end_ns;
			int k = cause_cls(pm_seg_cause(in->inc, in->res, th->pid, s, xs), s);

			if (s->state == PM_T_BLOCKED && (s->block_state == TIPME_TS_DEAD ||
							 s->block_state == TIPME_TS_ZOMBIE))
				continue;	/* after its exit: nothing to draw */

			/*
			 * A wait for events is idle, except the interval's own
			 * thread's while it handled the input (up to where it was
			 * done and only the X server's drawing was left).
			 */
			if (s->state == PM_T_BLOCKED && pm_seg_idle(in->inc, s) &&
			    !(in->verdict && th->pid == in->verdict->pid &&
			      a < (in->verdict->display_ns ? in->verdict->display_ns :
				   in->verdict->to_ns) && a >= in->verdict->from_ns))
				k = C_IDLE;
			spread(t, a, b, acc, C_NR, (size_t)k);
		}
		for (c = 0; c < NCOL;) {
			int best = C_NONE, e;
			double bv = 0;

			for (i = 0; i < C_NR; i++)
				if (acc[(size_t)c * C_NR + i] > bv) {
					bv = acc[(size_t)c * C_NR + i];
					best = (int)i;
				}
			for (e = c + 1; e < NCOL; e++) {
				int b2 = C_NONE;
				double v2 = 0;

				for (i = 0; i < C_NR; i++)
					if (acc[(size_t)e * C_NR + i] > v2) {
						v2 = acc[(size_t)e * C_NR + i];
						b2 = (int)i;
					}
				if (b2 != best)
					break;
			}
			if (best != C_NONE) {
				fprintf(t->f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>\n",
					X0 + c, ly + 8, e - c, LANE_H - 8, cls_style[best].colour,
					cls_style[best].label);
				t->stats->stretches++;
			}
			c = e;
		}
		/* priority: 0 (top, most important) .. 139, as a step line over the lane */
		fprintf(t->f, "<polyline fill=\"none\" stroke=\"#000\" stroke-width=\"1\" points=\"");
		for (j = pm_seg_first(th, in->from_ns);
		     th && j < th->nsegs && th->segs[j].start_ns < in->to_ns; j++) {
			const struct pm_seg *s = &th->segs[j];
			int64_t a = s->start_ns, b = s->end_ns;
			double x0, x1, yy;

			if (s->state != PM_T_RUNNING || b <= in->from_ns || a >= in->to_ns)
				continue;
			x0 = xpos(t, a < in->from_ns ? in->from_ns : a);
			x1 = xpos(t, b > in->to_ns ? in->to_ns : b);
			yy = ly + 1 + 6.0 * s->prio / 139.0;
			if (px >= 0 && yy != py)
				fprintf(t->f, "%.1f,%.1f ", x0, py);
			fprintf(t->f, "%.1f,%.1f %.1f,%.1f ", x0, yy, x1, yy);
			px = x1;
			py = yy;
		}
		fputs("\"/>\n", t->f);
	}
	free(acc);
	t->stats->lanes = in->npids;
	return y + (int)in->npids * (LANE_H + GAP);
}

static int lane_of(const struct pm_timeline_in *in, uint32_t pid)
{
	size_t l;

	for (l = 0; l < in->npids; l++)
		if (in->pids[l] == pid)
			return (int)l;
	return -1;
}

/* The blocked stretch of @pid that a wakeup at @ts ended (wakeups come in time order). */
static const struct pm_seg *sleep_ending(const struct tl *t, uint32_t pid, int64_t ts,
					 size_t *cursor)
{
	const struct pm_thread *th = pm_state_thread(t->in->st, pid);

	while (th && *cursor < th->nsegs && th->segs[*cursor].end_ns < ts)
		(*cursor)++;
	if (!th || *cursor >= th->nsegs)
		return NULL;
	return th->segs[*cursor].state == PM_T_BLOCKED && th->segs[*cursor].end_ns == ts ?
	       &th->segs[*cursor] : NULL;
}

/* Fork, exec and exit of the lanes' threads; wakeups between lanes. */
static void marks(struct tl *t, const int *lane_y)
{
	const struct pm_timeline_in *in = t->in;
	const struct pm_instr *ins = pm_instr_get(&in->inc->pm);
	size_t i, *cursor = calloc(in->npids ? in->npids : 1, sizeof(*cursor));
	double *last_x = malloc((in->npids ? in->npids : 1) * sizeof(*last_x));

	if (!cursor || !last_x) {
		free(cursor);
		free(last_x);
		return;		/* the marks are a detail: the lanes stand without them */
	}
	for (i = 0; i < in->npids; i++)
		last_x[i] = -10;

	for (i = 0; ins && i < ins->nr_execs; i++) {
		const struct tipme_exec *e = &ins->execs[i].x;
		int l = lane_of(in, e->pid);
		int64_t a = ins->execs[i].start_ns, b = ins->execs[i].exit_ns;

		if (l < 0)
			continue;
		if (!(e->flags & TIPME_EXEC_SNAPSHOT) && a >= in->from_ns && a <= in->to_ns)
			fprintf(t->f, "<path d=\"M%.1f %d l-4 7 h8 z\" fill=\"#000\"><title>%s</title></path>\n",
				xpos(t, a), lane_y[l], e->flags & TIPME_EXEC_EXECED ? "exec" : "fork");
		if (e->exit_ts && b >= in->from_ns && b <= in->to_ns)
			fprintf(t->f, "<path d=\"M%.1f %d l-4 -4 m4 4 l4 -4 m-4 4 l-4 4 m4 -4 l4 4\" stroke=\"#c00\" stroke-width=\"2\"><title>%s</title></path>\n",
				xpos(t, b), lane_y[l] + LANE_H / 2,
				e->flags & TIPME_EXEC_REPLACED ? "replaced by exec" : "exit");
	}
	for (i = 0; i < in->res->nwakes && t->stats->wakeups < 3000; i++) {
		const struct pm_wake *w = &in->res->wakes[i];
		int a = lane_of(in, w->waker), b = lane_of(in, w->target);
		int64_t ts = w->ns;
		const struct pm_seg *s;
		double x;

		if (a < 0 || b < 0 || a == b || w->ctx != TIPME_CTX_TASK ||
		    ts < in->from_ns || ts > in->to_ns)
			continue;
		/* only a wakeup that ended a sleep of 1 ms or more */
		s = sleep_ending(t, in->pids[b], w->ns, &cursor[b]);
		if (!s || (double)s->end_ns - (double)s->start_ns < 1000000)
			continue;
		x = xpos(t, ts);
		if (x - last_x[b] < 3)
			continue;
		last_x[b] = x;
		fprintf(t->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c00\" stroke-opacity=\"0.7\" marker-end=\"url(#arrow)\"><title>%u wakes %u</title></line>\n",
			x, lane_y[a] + LANE_H / 2, x, lane_y[b] + (b > a ? 6 : LANE_H - 2),
			w->waker, w->target);
		t->stats->wakeups++;
	}
	free(cursor);
	free(last_x);
}

/* Input on top: what the kernel saw, and the X server's device events. */
static void input_lane(struct tl *t, int y)
{
	const struct pm_timeline_in *in = t->in;
	const struct tm_xdump *x = pm_incident_x(in->inc);
	struct tipme_x11_rec r;
	uint32_t k;
	size_t i;

	fprintf(t->f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">input</text>\n",
		X0 - 8, y + 13);
	for (i = 0; i < in->res->ninputs; i++) {
		const struct pm_input *p = &in->res->inputs[i];
		int64_t ts = p->ns;

		if (ts < in->from_ns || ts > in->to_ns || p->kind == TIPME_INPUT_MOTION)
			continue;
		fprintf(t->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\" stroke-width=\"2\"><title>kernel input (%s)</title></line>\n",
			xpos(t, ts), y + 2, xpos(t, ts), y + 16,
			tm_input_kind_name(p->kind, "?"));
	}
	for (k = 0; x && k < x->recs.count; k++) {
		tm_xdump_rec(x, k, &r);
		if (r.time_ns > INT64_MAX ||
		    (int64_t)r.time_ns < in->from_ns || (int64_t)r.time_ns > in->to_ns)
			continue;
		if (r.kind == TIPME_X11_MARK) {
			/* Ctrl-Alt-Plus under X: a flag over the whole lane */
			fprintf(t->f, "<path d=\"M%.1f %d v18 m0 -18 h8 l-3 3 l3 3 h-8\" stroke=\"#e07000\" "
				"stroke-width=\"2\" fill=\"#e07000\"><title>mark: Ctrl-Alt-Plus, "
				"the user's &quot;it starts being slow now&quot;</title></path>\n",
				xpos(t, (int64_t)r.time_ns), y);
			t->stats->marks++;
			continue;
		}
		if (r.kind != TIPME_X11_DEVICE || r.major == 6)
			continue;
		fprintf(t->f, "<path d=\"M%.1f %d l-5 -8 h10 z\" fill=\"#16888a\"><title>X device event: %s</title></path>\n",
			xpos(t, (int64_t)r.time_ns), y + 18, tm_xdump_event_name(r.major));
	}
}

static void legend(struct tl *t, int y)
{
	int i, x = X0;

	for (i = 0; i < C_NR; i++) {
		fprintf(t->f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\" stroke=\"#999\"/>"
			"<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n",
			x, y, cls_style[i].colour, x + 18, y + 12, cls_style[i].label);
		x += 28 + 7 * (int)strlen(cls_style[i].label);
		if (x > X1 - 250 && i + 1 < C_NR) {
			x = X0;
			y += 20;
		}
	}
	y += 36;
	fprintf(t->f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">CPU lanes: one colour per process. "
		"Thread lanes: the thin black line is the priority it ran at (higher: more important); "
		"a triangle is a fork or exec, a cross an exit.</text>\n", X0, y);
	fprintf(t->f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">Red arrows: a thread woke another "
		"after a sleep of 1 ms or more.  The yellow frame is tipme report's interval; input marks "
		"on top: black the kernel's input events, teal the X server's, an orange flag a mark "
		"(Ctrl-Alt-Plus: the user's \"it starts being slow now\").</text>\n", X0, y + 18);
}

/**
 * pm_timeline_svg() - draw the timeline
 * @f: output
 * @in: what to draw
 * @stats: what was drawn
 *
 * Return: 0, or -1 when out of memory (nothing useful was written).
 */
int pm_timeline_svg(FILE *f, const struct pm_timeline_in *in,
		    struct pm_timeline_stats *stats)
{
	struct tl t = { .in = in, .f = f, .stats = stats };
	const struct pm_verdict *r = in->verdict;
	uint32_t ncpu = 0;
	int *lane_y, y, h, top;
	size_t i;

	memset(stats, 0, sizeof(*stats));
	if (in->to_ns <= in->from_ns)
		return -1;
	t.scale = (double)NCOL / ((double)in->to_ns - (double)in->from_ns);
	for (i = 0; i < in->inc->pm.nr_cpus; i++)
		if (in->inc->pm.cpus[i].cpu + 1 > ncpu)
			ncpu = in->inc->pm.cpus[i].cpu + 1;
	if (ncpu > 256)
		ncpu = 256;
	lane_y = calloc(in->npids ? in->npids : 1, sizeof(*lane_y));
	if (!lane_y)
		return -1;
	h = 170 + (int)ncpu * (CPU_H + GAP) + (int)in->npids * (LANE_H + GAP) + 130;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		"<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"4\" refY=\"4\" orient=\"auto\">"
		"<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#c00\"/></marker></defs>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n", W, h, W, h);
	fputs("<text x=\"20\" y=\"26\" font-size=\"16\" font-weight=\"bold\">tipme timeline: ", f);
	tm_xml_text(f, in->title);
	fputs("</text>\n", f);
	if (r && r->nitems) {
		fprintf(f, "<text x=\"20\" y=\"46\" font-size=\"13\">tipme report: %u (", r->pid);
		tm_xml_text(f, name_of(&t, r->pid));
		fprintf(f, ") waited %.1f ms, mostly %s (%.1f ms)",
			((double)r->to_ns - (double)r->from_ns) / 1e6, pm_cause_key[r->items[0].cause],
			r->items[0].ns / 1e6);
		if (r->items[0].culprit) {
			fprintf(f, ", culprit %u (", r->items[0].culprit);
			tm_xml_text(f, name_of(&t, r->items[0].culprit));
			fputc(')', f);
		}
		fputs("</text>\n", f);
	}
	axis(&t, 80);
	top = 90;
	input_lane(&t, top);
	y = cpu_lanes(&t, top + 26, ncpu);
	if (y < 0)
		goto oom;
	y = thread_lanes(&t, y + 10, lane_y);
	if (y < 0)
		goto oom;
	if (r && r->to_ns > in->from_ns && r->from_ns < in->to_ns) {
		double a = xpos(&t, r->from_ns < in->from_ns ? in->from_ns : r->from_ns);
		double b = xpos(&t, r->to_ns > in->to_ns ? in->to_ns : r->to_ns);

		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"none\" stroke=\"#d4a000\" stroke-width=\"2\"><title>tipme report's interval</title></rect>\n"
			"<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"5\" fill=\"#ffd23f\"/>\n",
			a, top, b - a > 1 ? b - a : 1, y - top, a, top - 5, b - a > 1 ? b - a : 1);
	}
	marks(&t, lane_y);
	axis(&t, y + 14);
	legend(&t, y + 30);
	fputs("</svg>\n", f);
	free(lane_y);
	return 0;
oom:
	free(lane_y);
	return -1;
}

/* Add @c to @pids once. */
static void add_pid(uint32_t *pids, size_t *n, size_t max, uint32_t c)
{
	size_t k;

	for (k = 0; k < *n && pids[k] != c; k++)
		;
	if (c && k == *n && *n < max)
		pids[(*n)++] = c;
}

/**
 * pm_timeline_default_pids() - the lanes to draw without --pid
 * @r: tipme report's analysis, or NULL
 * @pids: filled with the interval's thread, the threads on its chain (the
 *	waiters and the wakers followed), and the culprits of its causes that
 *	took 1% of it or more (those that held its CPU among them), once each
 * @max: room in @pids
 *
 * Return: how many.
 */
size_t pm_timeline_default_pids(const struct pm_verdict *r, uint32_t *pids,
				size_t max)
{
	size_t n = 0, i;

	if (!r)
		return 0;
	add_pid(pids, &n, max, r->pid);
	for (i = 0; i < r->nchain; i++) {
		add_pid(pids, &n, max, r->chain[i].pid);
		if (r->chain[i].followed && r->chain[i].waker > 0)
			add_pid(pids, &n, max, (uint32_t)r->chain[i].waker);
	}
	for (i = 0; i < r->nitems; i++)
		if ((double)r->items[i].ns * 100 >= (double)r->to_ns - (double)r->from_ns)
			add_pid(pids, &n, max, r->items[i].culprit);
	return n;
}
