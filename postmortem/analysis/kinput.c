// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-input reader (kinput.h): without an X dump, the slowest key
 * or button press or pointer motion the kernel recorded, and the thread
 * that read it, up to when that thread waited for work again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/clock.h"
#include "../dump/tables.h"
#include "flip.h"
#include "kinput.h"
#include "segcause.h"

/* The reader's wakeup is this close to an input record, on its CPU. */
#define INPUT_BEFORE_NS	1000000
#define INPUT_WAKE_NS	2000000
/* ... or the CPU was held up that long at most (see late_reader()) */
#define INPUT_LATE_NS	250000000
/*
 * The module stamps an auto trigger's press in its input filter, before
 * evdev delivers it; tipme's input record is written after evdev: later
 * by evdev's delivery, which under load took 6 ms in a VM.  A press
 * claimed over the control socket is the member's word: up to 2 ms early.
 * The stamp is CLOCK_MONOTONIC, the record the recorder's clock: with
 * local_clock() (TIPME_CLOCK_LOCAL) a CPU's stamps may lag the others' by
 * PM_CPU_SKEW_NS, so the record may seem that much earlier (2.4 ms before
 * the stamp in a loaded t-autokernel run).
 */
#define AUTO_BEFORE_NS	2000000
#define AUTO_AFTER_NS	50000000
/*
 * An X server that is a compositor's client (Xwayland) turns the
 * compositor's key event into its device event this long after the
 * kernel's input at most; the compositor's wakeup of it may be stamped
 * on a CPU whose clock is ahead by up to PM_CPU_SKEW_NS.  A press's record
 * stamped on a CPU whose clock lags may show the reader still asleep when
 * a wakeup stamped on another CPU had in truth already woken it, up to
 * PM_CPU_SKEW_NS after the stamp.
 */
#define VIA_WITHIN_NS	1000000000LL

static uint64_t dist(int64_t a, int64_t b)
{
	return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

/*
 * Is @w's thread the one that was running on @in's CPU when @in was
 * recorded?  That thread wrote the input (a uinput program) or was
 * interrupted by it: it was not woken to read it.
 */
static int writer(const struct pm_state *st, const struct pm_wake *w,
		  const struct pm_input *in)
{
	return pm_ran_through(st, w->target, in->cpu, in->ns, in->ns);
}

/*
 * The reader's wakeup for input @in, when none is near it in time: a
 * frame goes to every handler in one call with interrupts off, so the
 * wakeup evdev makes can come later only if the CPU itself was held up
 * (a virtual CPU the host did not run, up to INPUT_LATE_NS).  Then it
 * is the first user
 * thread's wakeup after the record on that CPU by the task that was on
 * the CPU, which ran without a break from the record to that wakeup.
 */
static const struct pm_wake *late_reader(const struct pm_dump *pm,
					 const struct pm_state *st,
					 const struct pm_res *res, size_t lo,
					 const struct pm_input *in)
{
	size_t i;

	for (i = lo; i < res->nwakes; i++) {
		const struct pm_wake *w = &res->wakes[i];
		const struct pm_exec *x;

		if (w->ns > in->ns + INPUT_LATE_NS)
			break;
		if (w->ns < in->ns || w->cpu != in->cpu)
			continue;
		if (!w->waker || !pm_ran_through(st, w->waker, in->cpu, in->ns, w->ns))
			return NULL;
		x = pm_exec_at(pm, w->target, w->ns);
		if (!x || !(x->x.flags & TIPME_EXEC_KTHREAD))
			return w;
	}
	return NULL;
}

/*
 * The same, before the record: evdev's wakeup usually comes first in the
 * frame, and a CPU held up between the two handlers puts it more than
 * INPUT_BEFORE_NS before our record.  The last user thread's wakeup
 * before the record on that CPU (kernel threads do not read input), up to
 * INPUT_LATE_NS before, by the task that then ran without a break up to
 * the record.
 */
static const struct pm_wake *early_reader(const struct pm_dump *pm,
					  const struct pm_state *st,
					  const struct pm_res *res, size_t hi,
					  const struct pm_input *in)
{
	size_t i;

	for (i = hi; i-- > 0;) {
		const struct pm_wake *w = &res->wakes[i];
		const struct pm_exec *x;

		if (w->ns + INPUT_LATE_NS < in->ns)
			break;
		if (w->ns > in->ns || w->cpu != in->cpu)
			continue;
		x = pm_exec_at(pm, w->target, w->ns);
		if ((x && (x->x.flags & TIPME_EXEC_KTHREAD)) || writer(st, w, in))
			continue;
		if (!w->waker || !pm_ran_through(st, w->waker, in->cpu, w->ns, in->ns))
			return NULL;
		return w;
	}
	return NULL;
}

/**
 * pm_input_reader() - the wakeup that delivered an input the kernel saw
 * @inc: the incident
 * @st: its state
 * @res: its resources (wakeups by time)
 * @in: one of @res's inputs
 * @lo: where to start looking in @res->wakes; moved on, for the next
 *	input in time order (start at 0)
 *
 * The input core hands a frame to its handlers in order at SYN_REPORT:
 * evdev, which wakes the reader, before ours, which writes the record.
 * So the reader's wakeup is the latest before the record on its CPU
 * (kernel threads do not read input), else the nearest after it, else, on a CPU
 * held up within the frame, the early one (early_reader()) or the late
 * one (late_reader()).
 *
 * Return: the reader's wakeup, or NULL.
 */
const struct pm_wake *pm_input_reader(const struct pm_incident *inc,
				      const struct pm_state *st,
				      const struct pm_res *res,
				      const struct pm_input *in, size_t *lo)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_wake *near = NULL, *before = NULL;
	int64_t t = in->ns;
	size_t i;

	while (*lo < res->nwakes && res->wakes[*lo].ns + INPUT_BEFORE_NS < t)
		(*lo)++;
	for (i = *lo; i < res->nwakes &&
	     res->wakes[i].ns <= t + INPUT_WAKE_NS; i++) {
		const struct pm_wake *w = &res->wakes[i];
		const struct pm_exec *x;

		if (w->cpu != in->cpu || writer(st, w, in))
			continue;
		/*
		 * evdev wakes from the frame's context: an interrupt, or the
		 * task on the CPU at the record (a uinput writer), which runs
		 * on to the wakeup; not another task that ran after it (a
		 * compositor already awake, waking its client)
		 */
		if (w->ctx == TIPME_CTX_TASK &&
		    !pm_ran_through(st, w->waker, in->cpu, w->ns < t ? w->ns : t,
				    w->ns < t ? t : w->ns))
			continue;
		x = pm_exec_at(pm, w->target, w->ns);
		if (x && (x->x.flags & TIPME_EXEC_KTHREAD))
			continue;
		if (!near || dist(w->ns, in->ns) < dist(near->ns, in->ns))
			near = w;
		if (w->ns <= t)
			before = w;
	}
	/*
	 * evdev's wakeup comes before our record on the same CPU (its
	 * handler runs first): one after it is evdev's only if none came
	 * before (an interrupt's wakeup of a timer's sleeper, 0.08 ms after
	 * a uinput writer's key, is not the key's)
	 */
	if (before)
		near = before;
	if (!near)
		near = early_reader(pm, st, res, *lo, in);
	return near ? near : late_reader(pm, st, res, *lo, in);
}

static int is_press(const struct pm_input *in)
{
	return (in->kind == TIPME_INPUT_KEY || in->kind == TIPME_INPUT_BUTTON) && in->value == 1;
}

/*
 * The input nearest @rd[k] in time, other than itself, whose reader a
 * wakeup delivered, between @left (the earliest input at the latest time
 * before @k with one) and @right (the first after @k with one): the
 * earlier on a tie.  SIZE_MAX if neither.
 */
static size_t nearest_read(const struct pm_res *res, size_t k, size_t left, size_t right)
{
	int64_t t = res->inputs[k].ns;

	if (right >= res->ninputs)
		return left;
	if (left == SIZE_MAX)
		return right;
	return dist(res->inputs[left].ns, t) <= dist(res->inputs[right].ns, t) ? left : right;
}

/*
 * The reader of press @in when no wakeup delivered it: a reader already
 * runnable or running gets no wakeup (a compositor a timer had just
 * woken).  The thread @near's wakeup woke (the nearest other input record
 * with a wakeup: another press, or this key's own release; the reader of
 * the event device reads both; NULL: none in the dump); else the main
 * thread @disp of the process that reads the page flips' events
 * (struct pm_flip.reader: on a Linux desktop the display server reads the
 * input devices too), when it was not blocked at @in's time: @out, a
 * wakeup of it at @in's record, on its CPU.  A reader blocked at @in's
 * time counts as awake when a wakeup onto another CPU than @in's ended
 * that sleep within PM_CPU_SKEW_NS: nothing else explains a sleeping
 * reader that the press did not wake (evdev wakes a sleeper), and the two
 * stamps come from two CPUs' clocks; @out is then at that wakeup.
 * Returns how it was found (PM_READER_NONE: it was not).
 */
static int awake_reader(const struct pm_state *st, const struct pm_input *in,
			const struct pm_wake *near, uint32_t disp, struct pm_wake *out)
{
	const struct pm_thread *th;
	int64_t at = in->ns;
	size_t j;

	th = near ? pm_state_thread(st, near->target) : disp ? pm_state_thread(st, disp) : NULL;
	for (j = th ? pm_seg_first(th, in->ns) : 0; th && j < th->nsegs; j++) {
		const struct pm_seg *sg = &th->segs[j];

		if (sg->start_ns > in->ns)
			break;
		if (sg->end_ns <= in->ns)
			continue;
		if (sg->state == PM_T_BLOCKED && sg->end_ns - in->ns <= PM_CPU_SKEW_NS &&
		    j + 1 < th->nsegs && th->segs[j + 1].woken &&
		    th->segs[j + 1].cpu != in->cpu)
			at = sg->end_ns;
		else if (sg->state != PM_T_RUNNABLE && sg->state != PM_T_RUNNING)
			return PM_READER_NONE;
		memset(out, 0, sizeof(*out));
		out->ns = at;
		out->cpu = in->cpu;
		out->target = th->pid;
		out->ctx = TIPME_CTX_TASK;
		out->intr = PM_INTR_UNKNOWN;
		return near ? PM_READER_AWAKE : PM_READER_FLIP_READER;
	}
	return PM_READER_NONE;
}

/**
 * pm_input_readers() - the reader of every input the kernel saw, once
 * @inc: the incident
 * @st: its state
 * @res: its resources (inputs, wakeups and flips in time order)
 * @out: set to one entry per @res->inputs, in their order; release with
 *	free()
 *
 * Each input's wakeup (pm_input_reader()), and for a key or button press
 * with none, the reader already awake (awake_reader()): the thread the
 * nearest other input's wakeup woke, else the main thread of the process
 * that reads the first flip's events from the press on (else the last
 * before it).  One pass over the inputs, the wakeups near them and the
 * flips: a dump's thousands of presses cost no more than a few.
 *
 * Return: 0 or -ENOMEM.
 */
int pm_input_readers(const struct pm_incident *inc, const struct pm_state *st,
		     const struct pm_res *res, struct pm_input_read **out)
{
	struct pm_input_read *rd = calloc(res->ninputs ? res->ninputs : 1, sizeof(*rd));
	size_t k, lo = 0, left = SIZE_MAX, right = 0, fl = 0, fr = 0;
	uint32_t before = 0, disp;
	const struct pm_wake *w;

	*out = rd;
	if (!rd)
		return -ENOMEM;
	for (k = 0; k < res->ninputs; k++) {
		w = pm_input_reader(inc, st, res, &res->inputs[k], &lo);
		if (!w)
			continue;
		rd[k].wake = *w;
		rd[k].by = PM_READER_WAKEUP;
	}
	for (k = 0; k < res->ninputs; k++) {
		const struct pm_input *in = &res->inputs[k];
		size_t i;

		/* the first flip's reader from the press on, else the last before */
		for (; fl < res->nflips && res->flips[fl].ns < in->ns; fl++)
			if (res->flips[fl].reader)
				before = res->flips[fl].reader;
		for (fr = fr > fl ? fr : fl; fr < res->nflips && !res->flips[fr].reader; fr++)
			;
		disp = fr < res->nflips ? res->flips[fr].reader : before;
		for (right = right > k ? right : k + 1;
		     right < res->ninputs && rd[right].by != PM_READER_WAKEUP; right++)
			;
		if (rd[k].by == PM_READER_NONE && is_press(in)) {
			i = nearest_read(res, k, left, right);
			rd[k].by = awake_reader(st, in, i == SIZE_MAX ? NULL : &rd[i].wake,
						disp, &rd[k].wake);
			/*
			 * The nearest input's wakeup may have been another
			 * task's (t-wayland: a key's release "woke" a thread
			 * a softirq woke then): the flip reader, if awake.
			 */
			if (rd[k].by == PM_READER_NONE && i != SIZE_MAX && disp)
				rd[k].by = awake_reader(st, in, NULL, disp, &rd[k].wake);
		}
		if (rd[k].by == PM_READER_WAKEUP &&
		    (left == SIZE_MAX || res->inputs[left].ns != in->ns))
			left = k;
	}
	return 0;
}

/**
 * pm_kernel_input() - the slowest input the kernel saw, without X
 * @inc: the incident
 * @st: its state
 * @res: its resources (the wakeups)
 * @from_ns: CLOCK_MONOTONIC start of the window searched
 * @to_ns: its end
 * @press_ns: 0, or the press the module's auto trigger fired on: then only
 *	the first key or button press recorded from 2 ms before it (12 ms
 *	when the recorder's clock is local_clock()) to 50 ms after it that
 *	woke a reader counts
 * @out: set to the thread that read the slowest input (@out->pid: the
 *	one it woke, or the one that thread handed it to), the input's time
 *	(@out->from_ns) and its end (@out->to_ns): the refresh that showed
 *	the page flip its path reached (pm_press_path()), else when that
 *	thread went back to sleep (pm_press_reader_end(): after the client's
 *	answer, if it answered); the rest is left alone
 * @path: NULL, or set to the chosen input's path (@path->end.flip NULL:
 *	it reached no flip, the end is the reader's sleep; @path->reader_by
 *	how its reader was found)
 *
 * For a dump without an X dump: every key or button press and pointer
 * motion frame the kernel recorded in the window, the user thread woken
 * for it on the same CPU (pm_input_reader(): up to 1 ms before, else up
 * to 2 ms after, or
 * later as late_reader() allows: the reader of the event device, e.g.
 * the X server, a compositor, a console program, woken by evdev in the
 * same frame; kernel threads are left out; or the thread of its process
 * it handed the input to: Xorg's input thread wakes the main thread), and
 * the time until that thread waits for work again (poll, select, epoll:
 * the sites pm_seg_idle() knows).  When the dump has the compositor's
 * page flips, the press ends at the refresh that showed the flip
 * committed after the client it woke answered (pm_press_path()); else
 * when the reader is done with the event, or, if the client answered,
 * when the thread its answer woke waited for work again after it
 * (pm_press_reader_end(): an X server drawing without flips), not when
 * the screen shows its effect: the weaker definition.
 *
 * Return: 2 if @press_ns named an input with a reader, 1 if another
 * input with a reader was found, else 0; -ENOMEM.
 */
int pm_kernel_input(const struct pm_incident *inc, const struct pm_state *st,
		    const struct pm_res *res, int64_t from_ns, int64_t to_ns,
		    int64_t press_ns, struct pm_span *out,
		    struct pm_press_path *path)
{
	const struct pm_wake *near;
	struct pm_input_read *rd;
	struct pm_press_path pp;
	int64_t best = 0, before = AUTO_BEFORE_NS, end;
	size_t k;

	if (pm_input_readers(inc, st, res, &rd))
		return -ENOMEM;
	if (inc->pm.d.hdr.clock_source == TIPME_CLOCK_LOCAL)
		before = AUTO_BEFORE_NS + PM_CPU_SKEW_NS;
	for (k = 0; k < res->ninputs; k++) {
		const struct pm_input *in = &res->inputs[k];
		int64_t t = in->ns;

		if (t < from_ns || t > to_ns ||
		    (press_ns && (t < press_ns - before ||
				  t > press_ns + AUTO_AFTER_NS)))
			continue;
		if (!is_press(in) && (press_ns || in->kind != TIPME_INPUT_MOTION))
			continue;
		near = rd[k].by != PM_READER_NONE ? &rd[k].wake : NULL;
		if (!near)
			continue;
		/*
		 * to the flip, else back to waiting for the next event (poll,
		 * select, ...), or after the client's answer
		 */
		end = pm_press_path(inc, st, res, near, t, &pp) ? pp.end.flip_ns :
		      pm_press_reader_end(inc, st, &pp);
		if (end && end - t > best) {
			best = end - t;
			out->pid = pp.reader;
			out->from_ns = t;
			out->to_ns = end;
			if (path) {
				if (!res->nflips)
					memset(&pp, 0, sizeof(pp));
				*path = pp;
				path->reader_by = rd[k].by;
			}
		}
		if (press_ns && best > 0)	/* the first press after the stamp */
			break;
	}
	free(rd);
	return best > 0 ? (press_ns ? 2 : 1) : 0;
}

/**
 * pm_kernel_presses() - every key and button press the kernel saw, followed
 * @inc: the incident
 * @st: its state
 * @res: its resources
 * @out: set to the presses' paths in time order (pm_press_path(); a press
 *	no reader's wakeup was found for has reader 0); release with free()
 * @n: set to how many
 *
 * Return: 0 or -ENOMEM.
 */
int pm_kernel_presses(const struct pm_incident *inc, const struct pm_state *st,
		      const struct pm_res *res, struct pm_press_path **out, size_t *n)
{
	struct pm_input_read *rd;
	size_t k;

	*n = 0;
	*out = calloc(res->ninputs ? res->ninputs : 1, sizeof(**out));
	if (!*out || pm_input_readers(inc, st, res, &rd)) {
		free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	for (k = 0; k < res->ninputs; k++) {
		const struct pm_input *in = &res->inputs[k];
		struct pm_press_path *p = &(*out)[*n];

		if (!is_press(in))
			continue;
		(*n)++;
		if (rd[k].by != PM_READER_NONE)
			pm_press_path(inc, st, res, &rd[k].wake, in->ns, p);
		else
			p->press_ns = in->ns;
		p->reader_by = rd[k].by;
	}
	free(rd);
	return 0;
}

/**
 * pm_kernel_press_via() - the kernel's press an X server got from its compositor
 * @inc: the incident
 * @st: its state
 * @res: its resources
 * @rd: the readers of @res's inputs (pm_input_readers())
 * @server: the X server's process (the X dump's), a client of the
 *	compositor (Xwayland)
 * @x_ns: the X server's device event for the press (the X dump's)
 * @drawn_ns: when the X server executed its client's drawing in answer
 *	(the X dump's stamp of the last drawing request: its commit of the
 *	drawing comes after)
 * @out: the kernel's press, followed from its input record through the
 *	compositor to @server (pm_press_path()), its commit and flip from
 *	@drawn_ns on (pm_press_commit_from())
 *
 * The press is the last key or button press the kernel saw in the second
 * before @x_ns whose path reached @server as the client the compositor
 * woke, not after @x_ns; or whose reader woke no client (the server was
 * awake when the key came: client_waker 0, client_ns the later of @x_ns
 * and the reader's wakeup).
 *
 * Return: 1 with @out set and a flip, else 0 (@out cleared).
 */
int pm_kernel_press_via(const struct pm_incident *inc, const struct pm_state *st,
			const struct pm_res *res, const struct pm_input_read *rd,
			uint32_t server, int64_t x_ns, int64_t drawn_ns,
			struct pm_press_path *out)
{
	struct pm_press_path pp;
	int found = 0;
	size_t k;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < res->ninputs; k++) {
		const struct pm_input *in = &res->inputs[k];

		if (in->ns < x_ns - VIA_WITHIN_NS)
			continue;
		if (in->ns > x_ns + PM_CPU_SKEW_NS)
			break;
		if (!is_press(in) || rd[k].by == PM_READER_NONE)
			continue;
		pm_press_path(inc, st, res, &rd[k].wake, in->ns, &pp);
		/*
		 * the compositor woke no client: the X server was already
		 * awake (busy) when the compositor sent it the key; the X
		 * dump's device event says it had it (client_waker 0), maybe
		 * well after the compositor's dispatch (a busy Xwayland under
		 * TCG took 49 ms)
		 */
		if (!pp.nclients && pp.reader && x_ns >= in->ns - PM_CPU_SKEW_NS) {
			pp.client = server;
			pp.client_proc = server;
			pp.client_waker = 0;
			pp.client_ns = x_ns > pp.read_ns ? x_ns : pp.read_ns;
			pp.nclients = 1;
		}
		if (pp.client_proc != server || pp.client_ns > x_ns + PM_CPU_SKEW_NS)
			continue;
		pp.reader_by = rd[k].by;
		*out = pp;
		found = 1;
	}
	if (found && pm_press_commit_from(inc, st, res, out, drawn_ns))
		return 1;
	memset(out, 0, sizeof(*out));
	return 0;
}

/*
 * The thread @w woke was waiting the way input is read: in poll, select,
 * epoll or a read of an event device (not a bystander the wakeup nearest
 * the input happened to end: a pipe read, a timer's sleep).
 */
static int reads_input(const struct pm_incident *inc, const struct pm_state *st,
		       const struct pm_wake *w)
{
	static const char *const waits[] = { "poll", "select", "evdev_read" };
	const struct pm_thread *t = pm_state_thread(st, w->target);
	const struct pm_seg *s = NULL;
	size_t j, k;
	uint32_t i;

	for (j = pm_seg_first(t, w->ns - 1); t && j < t->nsegs && t->segs[j].start_ns < w->ns; j++)
		if (t->segs[j].state == PM_T_BLOCKED && t->segs[j].end_ns >= w->ns)
			s = &t->segs[j];
	for (i = 0; s && i < s->nsite; i++) {
		const char *n = pm_sym_name(&inc->pm, s->site[i], NULL);

		for (k = 0; n && k < sizeof(waits) / sizeof(waits[0]); k++)
			if (strstr(n, waits[k]))
				return 1;
	}
	return 0;
}

/**
 * pm_press_readers() - the processes whose wakeup delivered a key or
 *			button press
 * @inc: the incident
 * @st: its state
 * @res: its resources
 * @from_ns: presses from here (CLOCK_MONOTONIC ns)...
 * @to_ns: ... up to here
 * @add: called with each press's time and the process (tgid) of its reader
 * @arg: for @add
 *
 * A press's reader is its wakeup's thread (pm_input_reader()) if it
 * waited the way input is read (poll, select, epoll, an event device's
 * read), not a bystander.  Not the trigger's chord: a press less than
 * PM_CHORD_NS before @st's trigger record or at or after it, nor a
 * wakeup at or after it (the trigger's own work).  A process may be
 * given more than once.
 *
 * Return: 0, or what @add returned that was not 0.
 */
int pm_press_readers(const struct pm_incident *inc, const struct pm_state *st,
		     const struct pm_res *res, int64_t from_ns, int64_t to_ns,
		     int (*add)(void *arg, int64_t press_ns, uint32_t tgid), void *arg)
{
	int64_t trig = st->trigger_ns;
	size_t k, lo = 0;
	int err;

	for (k = 0; k < res->ninputs; k++) {
		const struct pm_input *in = &res->inputs[k];
		const struct pm_exec *x;
		const struct pm_wake *w;

		if (!is_press(in) || in->ns < from_ns || in->ns > to_ns ||
		    (trig && in->ns >= trig - PM_CHORD_NS))
			continue;
		w = pm_input_reader(inc, st, res, in, &lo);
		if (!w || (trig && w->ns >= trig) || !reads_input(inc, st, w))
			continue;
		x = pm_exec_at(&inc->pm, w->target, w->ns);
		err = add(arg, in->ns, x ? x->x.tgid : w->target);
		if (err)
			return err;
	}
	return 0;
}
