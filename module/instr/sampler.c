// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler: every sample_period_ms a work item writes, for each thread
 * that changed since its previous entry or ran without switching (the
 * switch records tell when the others ran), pid, process, state, policy,
 * priority, CPU, on-CPU and the CPU time it used; every sample_full_ms it
 * writes every thread (less often with more than sample_full_threads
 * threads: tipme_smp_full_every()).  Between full rounds it only looks
 * at the threads the sched_switch probe logged (plus what each CPU runs),
 * so its cost follows the scheduling activity, not the number of threads.
 *
 * Its table starts with room for sample_threads threads.  A round that
 * finds it full counts the threads it could not follow (skipped, in its
 * sample_end) and, after the round, the table doubles (up to the pid
 * space's limit, while memory allows), and the next round is a full one
 * that takes the skipped threads in.
 *
 * Threads are read without locks (READ_ONCE of the scheduler's fields), as
 * /proc does: a sample is a snapshot, not a synchronisation point.
 *
 * A dump takes a copy of the table when it begins (TIPME_SEC_SMPSNAP,
 * tipme_sampler_snapshot()): every thread as the sampler last looked at
 * it, even one that did not run since the last full round, seconds ago
 * with many threads.  The table's mutex keeps a round and the copy apart.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "fault.h"
#include "recorder.h"
#include "instr/cost.h"
#include "compat.h"
#include "instr/sampler.h"
#include "instr/smptab.h"
#include "taskstate.h"

#define SMP_BATCH	64	/* entries per TIPME_REC_SAMPLE */
#define SMP_CHUNK	64	/* threads per preemption-disabled stretch */

struct tipme_swlog __percpu *tipme_swlog;
u32 tipme_sampler_round;

static unsigned int period_ms, full_ms, full_threads;
static u32 last_full_threads;	/* threads the last full round looked at */
static struct tipme_smptab tab;
static DEFINE_MUTEX(tab_lock);	/* a round, or a dump's copy of @tab */
static u32 full_seq;		/* the last full round */
static u64 round_ts;		/* recorder timestamp of the last round */
static unsigned long *cons;	/* per CPU: log entries consumed */
static u32 seq;
static u64 last_full;
static bool force_full;
static bool running;

static struct {
	struct tipme_rec_sample h;
	struct tipme_sample_ent e[SMP_BATCH];
} smpbuf;
static unsigned int nbuf;

/* What the current round did. */
static struct {
	bool full;
	u32 flags;
	u32 threads;
	u32 emitted;
	u32 records;
	u32 skipped;
	u64 cycles;
	u64 chunk_t0;
	unsigned int in_chunk;
} rd;

static void sampler_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(sampler_work, sampler_fn);

static void chunk_begin(void)
{
	preempt_disable();
	rd.chunk_t0 = tipme_cost_now();
	rd.in_chunk = 0;
}

static void chunk_end(void)
{
	rd.cycles += tipme_cost_now() - rd.chunk_t0;
	preempt_enable();
}

/* Let the scheduler in every SMP_CHUNK threads. */
static void chunk_tick(void)
{
	if (++rd.in_chunk < SMP_CHUNK)
		return;
	chunk_end();
	chunk_begin();
}

/* Context: preemption disabled. */
static void flush_buf(void)
{
	struct tipme_rec_sample *r;
	struct tipme_wslot ws;
	size_t len;

	if (!nbuf)
		return;
	len = sizeof(smpbuf.h) + nbuf * sizeof(smpbuf.e[0]);
	smpbuf.h.len = len;
	smpbuf.h.nr = nbuf;
	smpbuf.h.flags = rd.full ? TIPME_SAMPLE_FULL : 0;
	smpbuf.h.seq = seq;
	r = tipme_reserve(TIPME_REC_SAMPLE, len, &ws);
	if (r) {
		memcpy(r, &smpbuf, len);
		tipme_commit(&ws, TIPME_REC_SAMPLE);
		rd.records++;
		rd.emitted += nbuf;
	}
	nbuf = 0;
}

static void read_task(struct task_struct *p, struct tipme_smp_task *s)
{
	unsigned int state = READ_ONCE(p->__state);

	s->pid = p->pid;
	s->tgid = p->tgid;
	s->state = state == TASK_RUNNING ? TIPME_TS_RUNNABLE :
					   tipme_task_state(state);
	s->policy = READ_ONCE(p->policy);
	s->prio = READ_ONCE(p->prio);
	s->on_cpu = READ_ONCE(p->on_cpu);
	s->cpu = task_cpu(p);
	s->runtime = READ_ONCE(p->se.sum_exec_runtime);
	s->start_ns = p->start_time;
}

/*
 * @switched: @p is in a CPU's switch log (so the rings hold its switches
 * of this round).
 * Context: RCU read side, preemption disabled (a chunk).
 */
static void sample_one(struct task_struct *p, bool switched)
{
	struct tipme_smp_task s;
	struct tipme_smp_ent *e;

	if (!p->pid)
		return;
	e = tipme_smptab_get(&tab, p->pid, true);
	if (!e) {
		rd.flags |= TIPME_SMPEND_TABLE_FULL;
		rd.skipped++;
		return;
	}
	if (!rd.full && e->round == seq)
		return;		/* already looked at this round */
	rd.threads++;
	e->seen_ts = round_ts;
	read_task(p, &s);
	if (tipme_smp_update(e, &s, (rd.full ? TIPME_SMPU_FULL : 0) |
			     (switched ? TIPME_SMPU_SWITCHED : 0),
			     seq, &smpbuf.e[nbuf]) &&
	    ++nbuf == SMP_BATCH)
		flush_buf();
	chunk_tick();
}

static void sample_pid(u32 pid, bool switched)
{
	struct task_struct *p;

	if (!pid)
		return;
	p = pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
	if (p)
		sample_one(p, switched);
}

/* Mark every CPU's log as read. */
static void skip_logs(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		cons[cpu] = READ_ONCE(per_cpu_ptr(tipme_swlog, cpu)->prod);
}

static void round_full(void)
{
	struct task_struct *g, *p;
	u32 stale;

	rcu_read_lock();
	chunk_begin();
	for_each_process_thread(g, p)
		sample_one(p, false);
	chunk_end();
	rcu_read_unlock();
	/*
	 * Forget the threads this round did not see (they exited), when it
	 * matters: the sweep walks every slot of the table (32768 by
	 * default), a fifth of a round's instructions with 2,000 threads.
	 * Until then an exited thread's entry only takes a slot (a pid used
	 * again has another start time, so it is not mistaken for it).
	 */
	stale = tab.used > rd.threads ? tab.used - rd.threads : 0;
	if (stale && (stale >= max(64U, tab.limit / 16) ||
		      tab.used > tab.limit / 2))
		tipme_smptab_sweep(&tab, seq);
	skip_logs();	/* everything logged so far was covered */
}

static void round_changes(void)
{
	unsigned long c, p, start;
	unsigned int cpu;

	rcu_read_lock();
	chunk_begin();
	/*
	 * Online CPUs only: a machine may have thousands of possible CPUs
	 * that never run (4096 cost ~60,000 instructions a round).  What a
	 * CPU logged before it went offline waits for the next full round,
	 * which looks at every thread and marks every log as read.
	 */
	for_each_online_cpu(cpu) {
		struct tipme_swlog *l = per_cpu_ptr(tipme_swlog, cpu);

		/* Pairs with the release in tipme_sampler_switch(). */
		p = smp_load_acquire(&l->prod);
		start = cons[cpu];
		if (p - start > TIPME_SWLOG_SIZE) {
			force_full = true;
			rd.flags |= TIPME_SMPEND_OVERFLOW;
			start = p - TIPME_SWLOG_SIZE;
		}
		/* Logged threads switched out: the rings have their switches. */
		for (c = start; c != p; c++)
			sample_pid(READ_ONCE(l->pids[c & (TIPME_SWLOG_SIZE - 1)]),
				   true);
		if (READ_ONCE(l->prod) - start > TIPME_SWLOG_SIZE) {
			/* Overwritten while we read it. */
			force_full = true;
			rd.flags |= TIPME_SMPEND_OVERFLOW;
		}
		cons[cpu] = p;
		sample_pid(READ_ONCE(l->cur_pid), false);
	}
	chunk_end();
	rcu_read_unlock();
}

static void round_end(void)
{
	struct tipme_rec_sample_end *r;
	struct tipme_wslot ws;
	u64 t0;

	preempt_disable();
	t0 = tipme_cost_now();
	flush_buf();
	rd.cycles += tipme_cost_now() - t0;
	/*
	 * A round that wrote nothing, was not full and met nothing worth a
	 * flag says nothing: the next sample_end's seq counts it.  An idle
	 * machine's history is mostly such rounds.
	 */
	r = !rd.emitted && !rd.full && !rd.flags ? NULL :
	    tipme_reserve(TIPME_REC_SAMPLE_END, sizeof(*r), &ws);
	if (r) {
		r->seq = seq;
		r->threads = rd.threads;
		r->emitted = rd.emitted;
		r->flags = rd.flags | (rd.full ? TIPME_SMPEND_FULL : 0);
		r->cycles = min_t(u64, rd.cycles, U32_MAX);
		r->skipped = rd.skipped;
		tipme_commit(&ws, TIPME_REC_SAMPLE_END);
	}
	tipme_cost_account(TIPME_REC_SAMPLE, rd.records, rd.cycles, t0);
	if (r)
		tipme_cost_add(TIPME_REC_SAMPLE_END, t0);
	preempt_enable();
}

/*
 * After a round that found the table full: double it, and look at every
 * thread in the next round.  A table that cannot grow (its limit, or no
 * memory) stays as it is: each round counts what it skipped.
 */
static void grow_table(void)
{
	u32 want = tab.limit < TIPME_SMPTAB_MAX / 2 ? 2 * tab.limit :
		   TIPME_SMPTAB_MAX;

	if (want > tab.limit && !tipme_smptab_grow(&tab, want)) {
		pr_info("sampler: room for %u threads now\n", tab.limit);
		force_full = true;
	}
}

static void sampler_fn(struct work_struct *work)
{
	u64 now = tipme_clock_now();

	if (!READ_ONCE(tipme.recording)) {
		skip_logs();
		force_full = true;
		goto requeue;
	}
	mutex_lock(&tab_lock);
	memset(&rd, 0, sizeof(rd));
	if (!++seq)
		seq = 1;
	round_ts = now;
	WRITE_ONCE(tipme_sampler_round, seq);
	rd.full = force_full ||
		  now - last_full >= (u64)tipme_smp_full_every(full_ms,
			last_full_threads, full_threads) * tipme_clock_khz();
	if (rd.full) {
		force_full = false;
		last_full = now;
		full_seq = seq;
		round_full();
		WRITE_ONCE(last_full_threads, rd.threads);
	} else {
		round_changes();
	}
	round_end();
	if (rd.flags & TIPME_SMPEND_TABLE_FULL)
		grow_table();
	mutex_unlock(&tab_lock);
requeue:
	if (READ_ONCE(running))
		queue_delayed_work(system_unbound_wq, &sampler_work,
				   msecs_to_jiffies(period_ms));
}

/**
 * tipme_sampler_init() - allocate the sampler
 * @period: ms between rounds, 0 to disable the sampler
 * @full: ms between full rounds
 * @full_thr: threads full rounds may write per @full ms before they come
 *            less often (0: no limit)
 * @threads: threads the sampler can follow
 *
 * Must run before the sched_switch probe is attached (it fills the logs).
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno.
 */
int tipme_sampler_init(unsigned int period, unsigned int full,
		       unsigned int full_thr, unsigned int threads)
{
	int err;

	period_ms = period;
	full_ms = max(full, period);
	full_threads = full_thr;
	if (!period_ms)
		return 0;
	err = tipme_smptab_init(&tab, threads);
	if (err)
		return err;
	cons = tipme_fail_step("sampler consumers") ? NULL :
	       kcalloc(nr_cpu_ids, sizeof(*cons), GFP_KERNEL);
	tipme_swlog = tipme_fail_step("switch log") ? NULL :
		      alloc_percpu(struct tipme_swlog);
	if (!cons || !tipme_swlog) {
		tipme_sampler_exit();
		return -ENOMEM;
	}
	force_full = true;
	return 0;
}

/**
 * tipme_sampler_start() - start the rounds
 *
 * Context: process context, after tipme_sampler_init().
 */
void tipme_sampler_start(void)
{
	if (!period_ms)
		return;
	WRITE_ONCE(running, true);
	queue_delayed_work(system_unbound_wq, &sampler_work,
			   msecs_to_jiffies(period_ms));
}

/**
 * tipme_sampler_exit() - stop the rounds and free the sampler
 *
 * Call it after the sched_switch probe is detached.
 *
 * Context: process context, may sleep.
 */
void tipme_sampler_exit(void)
{
	WRITE_ONCE(running, false);
	cancel_delayed_work_sync(&sampler_work);
	free_percpu(tipme_swlog);
	tipme_swlog = NULL;
	kfree(cons);
	cons = NULL;
	tipme_smptab_free(&tab);
}

/**
 * tipme_sampler_params_text() - "key=value\n" lines for the dump
 * (sample_threads: the threads the table has room for now;
 * sample_full_every_ms: the time between full rounds now)
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_sampler_params_text(char *buf, size_t size)
{
	return scnprintf(buf, size,
			 "sample_period_ms=%u\nsample_full_ms=%u\nsample_full_threads=%u\n"
			 "sample_full_every_ms=%u\nsample_threads=%u\n",
			 period_ms, full_ms, full_threads,
			 tipme_smp_full_every(full_ms, READ_ONCE(last_full_threads),
					      full_threads),
			 tab.limit);
}

/* Does the thread of @e still exist (the same one: its start time)? */
static bool smp_alive(const struct tipme_smp_ent *e)
{
	struct task_struct *p;
	bool alive;

	rcu_read_lock();
	p = pid_task(find_pid_ns(e->pid, &init_pid_ns), PIDTYPE_PID);
	alive = p && p->start_time == e->start_ns && !READ_ONCE(p->exit_state);
	rcu_read_unlock();
	return alive;
}

/**
 * tipme_sampler_snapshot() - every thread the sampler knows, for a dump
 * @len: set to the bytes returned
 *
 * The threads the last full round or a later one looked at, each as the
 * sampler last wrote it and when it last looked (a thread that left a CPU
 * since would have been looked at again), flagged TIPME_SMPSNAP_GONE if
 * it has exited since: struct tipme_smpsnap_hdr, then the entries.
 *
 * Context: process context, may sleep (waits for a round to end).
 * Return: a kvmalloc()ed block (kvfree() it), NULL when the sampler is
 * off, or ERR_PTR(-ENOMEM).
 */
void *tipme_sampler_snapshot(size_t *len)
{
	struct tipme_smpsnap_hdr *h;
	struct tipme_smpsnap_ent *o;
	u32 i, n = 0;
	void *buf;

	if (!period_ms)
		return NULL;
	mutex_lock(&tab_lock);
	buf = kvmalloc(sizeof(*h) + (size_t)tab.used * sizeof(*o), GFP_KERNEL);
	if (!buf) {
		mutex_unlock(&tab_lock);
		return ERR_PTR(-ENOMEM);
	}
	h = buf;
	o = (struct tipme_smpsnap_ent *)(h + 1);
	for (i = 0; tab.ents && i <= tab.mask && n < tab.used; i++) {
		const struct tipme_smp_ent *e = &tab.ents[i];

		/* not seen since the last full round: it exited */
		if (!e->pid || !e->round || (s32)(e->round - full_seq) < 0)
			continue;
		memset(&o[n], 0, sizeof(o[n]));
		o[n].word = e->word;
		o[n].tgid = e->tgid;
		o[n].seen_ts = e->seen_ts;
		o[n].runtime = e->runtime;
		o[n].cpu = e->cpu;
		o[n].prio = e->prio;
		o[n].flags = smp_alive(e) ? 0 : TIPME_SMPSNAP_GONE;
		n++;
		if (!(i & 4095))
			cond_resched();
	}
	memset(h, 0, sizeof(*h));
	h->hdr_size = sizeof(*h);
	h->ent_size = sizeof(*o);
	h->count = n;
	h->seq = seq;
	h->full_seq = full_seq;
	h->ts = round_ts;
	mutex_unlock(&tab_lock);
	*len = sizeof(*h) + (size_t)n * sizeof(*o);
	return buf;
}
