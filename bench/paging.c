// SPDX-License-Identifier: GPL-2.0
/*
 * The paging stall (TIPME section 4.1.1).
 *
 * In the paper a timing process slept 100 ms, read one word of a 4 MB
 * buffer (4 KB further on each time, cyclically) and took a TSC stamp,
 * while N processes each wrote one word per 4 KB page of their own 12 MB
 * buffer without pause; on a machine with too little memory the timing
 * process's pages were stolen while it slept and every read waited for a
 * page-in.
 *
 * A machine today has far more memory than the buffers, so the pressure
 * is made on purpose: the workers run in a cgroup v2 memory cgroup whose
 * memory.max is smaller than their buffers, with swap available (a zram
 * device the run creates, unless enough swap is active).  The timing
 * process is in that cgroup too, unless --timer-outside: the cgroup plays
 * the part of the paper's small machine.
 *
 * Processes: the benchmark (outside the cgroup) forks the timing process
 * and N children, collects the samples through a pipe, watches the
 * workers' pidfds, and asks for a dump when a sample is above
 * --trigger-above.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

enum { MSG_SAMPLE = 1, MSG_END };

/* timing process -> benchmark; 40 bytes, written atomically */
struct msg {
	uint32_t type, pad;
	uint64_t a, b, c, d;
};

struct paging_ctx {
	const struct bench_env *env;
	int ready_w, sample_w;
};

static char *map_buffer(uint64_t size)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* 4 KiB pages as in the paper: a huge page would be faulted and
	 * swapped 2 MiB at a time (or split), which is another benchmark */
	madvise(p, size, MADV_NOHUGEPAGE);
	return p;
}

/* A child: one word per stride of its buffer, cyclically, for ever. */
static void child_main(void *arg)
{
	const struct paging_ctx *c = arg;
	uint64_t size = c->env->child_size, stride = c->env->stride, off, n = 0;
	char *buf = map_buffer(size);
	int first = 1;

	if (!buf)
		_exit(3);
	for (;;) {
		for (off = 0; off + sizeof(uint64_t) <= size; off += stride)
			*(volatile uint64_t *)(buf + off) = ++n;
		if (first && sys_write_all(c->ready_w, "c", 1))
			_exit(4);
		first = 0;
	}
}

static uint64_t majflt_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_majflt;
}

/* The timing process. */
static void timer_main(void *arg)
{
	const struct paging_ctx *c = arg;
	const struct bench_env *env = c->env;
	uint64_t size = env->timer_size, stride = env->stride;
	uint64_t slots = size / stride, idx = 0, i, sink = 0, mf0, mf1, first_mf;
	char *buf = map_buffer(size);
	struct msg m = { 0 };

	if (!buf)
		_exit(3);
	/* real, distinct, non-zero data: no zero page, no same-filled pages */
	for (i = 0; i < slots; i++)
		*(uint64_t *)(buf + i * stride) = i + 1;
	if (sys_write_all(c->ready_w, "t", 1))
		_exit(4);
	if (sys_wait_go())	/* the second go: start measuring */
		_exit(0);
	first_mf = mf0 = majflt_now();
	for (i = 0; i < env->samples; i++) {
		uint64_t t0, tw, t1, v;

		t0 = mono_ns();
		sys_sleep_ns(env->sleep_ns);
		tw = mono_ns();
		v = *(volatile uint64_t *)(buf + idx * stride);
		t1 = mono_ns();
		mf1 = majflt_now();
		sink += v;
		m.type = MSG_SAMPLE;
		m.a = t1;
		m.b = t1 - t0 > env->sleep_ns ? t1 - t0 - env->sleep_ns : 0;
		m.c = t1 - tw;
		m.d = mf1 - mf0;
		mf0 = mf1;
		if (sys_write_all(c->sample_w, &m, sizeof(m)))
			_exit(4);
		idx = (idx + 1) % slots;
	}
	m.type = MSG_END;
	m.a = majflt_now() - first_mf;
	m.b = sink;
	sys_write_all(c->sample_w, &m, sizeof(m));
	_exit(0);
}

struct snap {
	int vm, cg;
	uint64_t pswpin, pswpout, pgmajfault, refault, ev_max, ev_oom, ev_oom_kill;
};

static void take_snap(const char *cg, struct snap *s)
{
	memset(s, 0, sizeof(*s));
	s->vm = !sys_proc_key("/proc/vmstat", "pswpin", &s->pswpin) &&
		!sys_proc_key("/proc/vmstat", "pswpout", &s->pswpout);
	if (!cg)
		return;
	s->cg = !sys_cgroup_key(cg, "memory.stat", "pgmajfault", &s->pgmajfault) &&
		!sys_cgroup_key(cg, "memory.events", "max", &s->ev_max);
	sys_cgroup_key(cg, "memory.stat", "workingset_refault_anon", &s->refault);
	sys_cgroup_key(cg, "memory.events", "oom", &s->ev_oom);
	sys_cgroup_key(cg, "memory.events", "oom_kill", &s->ev_oom_kill);
}

static void snap_delta(const struct snap *a, const struct snap *b,
		       struct bench_pressure *p)
{
	p->have_vmstat = a->vm && b->vm;
	p->pswpin = b->pswpin - a->pswpin;
	p->pswpout = b->pswpout - a->pswpout;
	p->have_cgroup = a->cg && b->cg;
	p->cg_pgmajfault = b->pgmajfault - a->pgmajfault;
	p->cg_refault_anon = b->refault - a->refault;
	p->cg_ev_max = b->ev_max - a->ev_max;
	p->cg_ev_oom = b->ev_oom - a->ev_oom;
	p->cg_ev_oom_kill = b->ev_oom_kill - a->ev_oom_kill;
}

/* A worker died before its time: say which and why. */
static int worker_died(struct worker *w, const char *cg, struct tm_err *e)
{
	char how[96] = "exited", hint[160] = "";
	uint64_t oomk = 0;
	int st;

	if (waitpid(w->pid, &st, WNOHANG) == w->pid) {
		sys_status_str(st, how, sizeof(how));
		w->pid = 0;
	}
	if (cg && !sys_cgroup_key(cg, "memory.events", "oom_kill", &oomk) && oomk)
		snprintf(hint, sizeof(hint),
			 " (the cgroup's memory.events has oom_kill %llu: memory.max is too small for the processes, or swap is full)",
			 (unsigned long long)oomk);
	return tm_err_set(e, ECHILD, "the %s %s%s", w->name, how, hint);
}

struct series_run {
	const struct bench_env *env;
	struct bench_result *r;
	struct trig_policy *tp;
	size_t si;
	unsigned int n;
	const char *cg_parent;
	char cg[512];
	struct worker w[BENCH_MAX_CHILDREN + 1];	/* [0] the timer */
	size_t nw;
	int ready_r, sample_r;
};

/* Wait for @want ready bytes, watching the workers. */
static int wait_ready(struct series_run *sr, size_t want, struct tm_err *e)
{
	struct pollfd pfd[BENCH_MAX_CHILDREN + 2];
	size_t got = 0, i;
	char buf[64];

	while (got < want) {
		pfd[0].fd = sr->ready_r;
		pfd[0].events = POLLIN;
		for (i = 0; i < sr->nw; i++) {
			pfd[i + 1].fd = sr->w[i].pidfd;
			pfd[i + 1].events = POLLIN;
		}
		if (poll(pfd, sr->nw + 1, 1000) < 0 && errno != EINTR)
			return tm_err_set(e, errno, "poll: %s", strerror(errno));
		if (bench_interrupted)
			return tm_err_set(e, EINTR, "interrupted");
		for (i = 0; i < sr->nw; i++)
			if (pfd[i + 1].fd >= 0 && (pfd[i + 1].revents & POLLIN))
				return worker_died(&sr->w[i], sr->cg[0] ? sr->cg : NULL, e);
		if (pfd[0].revents & (POLLIN | POLLHUP)) {
			ssize_t k = read(sr->ready_r, buf, want - got < sizeof(buf) ?
					 want - got : sizeof(buf));

			if (k == 0)
				return tm_err_set(e, EPIPE, "the workers went away");
			if (k > 0)
				got += (size_t)k;
		}
	}
	return 0;
}

static int collect(struct series_run *sr, struct tm_err *e)
{
	const struct bench_env *env = sr->env;
	struct bench_series *s = &sr->r->series[sr->si];
	struct pollfd pfd[BENCH_MAX_CHILDREN + 2];
	unsigned char carry[sizeof(struct msg) * 64];
	size_t have = 0, i;
	uint64_t swap;

	for (;;) {
		pfd[0].fd = sr->sample_r;
		pfd[0].events = POLLIN;
		for (i = 0; i < sr->nw; i++) {
			/* the timer's exit is seen as EOF on the sample pipe */
			pfd[i + 1].fd = i ? sr->w[i].pidfd : -1;
			pfd[i + 1].events = POLLIN;
		}
		if (poll(pfd, sr->nw + 1, 250) < 0 && errno != EINTR)
			return tm_err_set(e, errno, "poll: %s", strerror(errno));
		if (bench_interrupted)
			return tm_err_set(e, EINTR, "interrupted");
		if (sr->cg[0] && !sys_cgroup_u64(sr->cg, "memory.swap.current", &swap) &&
		    swap != UINT64_MAX && swap > s->pr.cg_swap_peak)
			s->pr.cg_swap_peak = swap;
		if (pfd[0].revents & (POLLIN | POLLHUP)) {
			ssize_t k = read(sr->sample_r, carry + have, sizeof(carry) - have);
			size_t off = 0;

			if (k < 0 && errno != EINTR)
				return tm_err_set(e, errno, "read: %s", strerror(errno));
			if (k == 0) {
				if (s->n < env->samples) {
					struct worker *t = &sr->w[0];
					int st;

					if (waitpid(t->pid, &st, 0) == t->pid) {
						char how[96];

						t->pid = 0;
						sys_status_str(st, how, sizeof(how));
						return tm_err_set(e, ECHILD,
								  "the timing process %s after %zu samples",
								  how, s->n);
					}
					return tm_err_set(e, ECHILD, "the timing process went away");
				}
				return 0;
			}
			have += k > 0 ? (size_t)k : 0;
			while (have - off >= sizeof(struct msg)) {
				struct msg m;

				memcpy(&m, carry + off, sizeof(m));
				off += sizeof(m);
				if (m.type == MSG_SAMPLE) {
					struct bench_sample x = { m.a, m.b, m.c, m.d };

					if (bench_series_push(s, &x))
						return tm_err_set(e, ENOMEM, "out of memory");
					trig_check(sr->r, sr->tp, sr->si, s->n - 1, &x, s->label);
				} else if (m.type == MSG_END) {
					s->pr.timer_majflt = m.a;
				}
			}
			memmove(carry, carry + off, have - off);
			have -= off;
		}
		for (i = 1; i < sr->nw; i++)
			if (pfd[i + 1].revents & POLLIN)
				return worker_died(&sr->w[i], sr->cg[0] ? sr->cg : NULL, e);
		if (env->time_limit_ns && mono_ns() - s->started_ns > env->time_limit_ns) {
			s->stopped_early = 1;
			return 0;
		}
	}
}

static int run_series(struct series_run *sr, struct tm_err *e)
{
	const struct bench_env *env = sr->env;
	struct bench_series *s = &sr->r->series[sr->si];
	struct paging_ctx ctx = { .env = env };
	int rp[2] = { -1, -1 }, sp[2] = { -1, -1 }, keep[2], err;
	struct snap before, after;
	unsigned int i;
	char buf[64];

	snprintf(s->label, sizeof(s->label), "N=%u", sr->n);
	s->children = sr->n;
	sr->ready_r = sr->sample_r = -1;
	sr->nw = 0;
	sr->cg[0] = '\0';
	if (sr->cg_parent) {
		snprintf(buf, sizeof(buf), "tipme-bench-paging.%d.%zu", (int)getpid(), sr->si);
		err = sys_cgroup_create(sr->cg_parent, buf, sr->cg, sizeof(sr->cg), e);
		if (err) {
			sr->cg[0] = '\0';
			return err;
		}
		if (env->memory_max)
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)env->memory_max);
		else
			snprintf(buf, sizeof(buf), "max");
		err = sys_cgroup_write(sr->cg, "memory.max", buf, e);
		if (err)
			goto out;
	}
	if (pipe2(rp, O_CLOEXEC) || pipe2(sp, O_CLOEXEC)) {
		err = tm_err_set(e, errno, "pipe: %s", strerror(errno));
		goto out;
	}
	sr->ready_r = rp[0];
	sr->sample_r = sp[0];
	ctx.ready_w = rp[1];
	ctx.sample_w = sp[1];
	keep[0] = rp[1];
	keep[1] = sp[1];

	/* The timing process first: its buffer is resident, as the paper's
	 * was, before the children start taking memory away. */
	err = sys_spawn(&sr->w[0], "timing process", timer_main, &ctx,
			sr->cg[0] && !env->timer_outside ? sr->cg : NULL, env->cpu,
			keep, 2, e);
	if (err)
		goto out;
	sr->nw = 1;
	for (i = 0; i < sr->n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "child %u", i + 1);
		err = sys_spawn(&sr->w[i + 1], name, child_main, &ctx,
				sr->cg[0] ? sr->cg : NULL, env->cpu, keep, 1, e);
		if (err)
			goto out;
		sr->nw++;
	}
	close(rp[1]);
	close(sp[1]);
	rp[1] = sp[1] = -1;
	err = sys_start(&sr->w[0], e);
	if (!err)
		err = wait_ready(sr, 1, e);
	if (err)
		goto out;
	bench_progress(env, "%s: children filling their buffers", s->label);
	for (i = 1; i < sr->nw && !err; i++)
		err = sys_start(&sr->w[i], e);
	if (!err)
		err = wait_ready(sr, sr->n, e);
	if (err)
		goto out;
	bench_progress(env, "%s: measuring %llu samples", s->label,
		       (unsigned long long)env->samples);
	take_snap(sr->cg[0] ? sr->cg : NULL, &before);
	s->started_ns = mono_ns();
	err = sys_start(&sr->w[0], e);
	if (!err)
		err = collect(sr, e);
	s->ended_ns = mono_ns();
	take_snap(sr->cg[0] ? sr->cg : NULL, &after);
	snap_delta(&before, &after, &s->pr);
out:
	for (i = 0; i < sr->nw; i++)
		sys_stop(&sr->w[i], SIGKILL);
	sr->nw = 0;
	for (i = 0; i < 2; i++) {
		if (rp[i] >= 0)
			close(rp[i]);
		if (sp[i] >= 0)
			close(sp[i]);
	}
	if (sr->cg[0]) {
		struct tm_err e2;

		if (sys_cgroup_remove(sr->cg, &e2))
			fprintf(stderr, "tipme-bench: warning: %s\n", e2.msg);
	}
	return err;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Swap needed beyond memory.max by the largest configuration (bytes). */
static uint64_t overflow(const struct bench_env *env)
{
	uint64_t most = 0, total;
	size_t i;

	if (env->no_cgroup || !env->memory_max)
		return 0;
	for (i = 0; i < env->nr_children; i++)
		if (env->children[i] > most)
			most = env->children[i];
	total = most * env->child_size + (env->timer_outside ? 0 : env->timer_size);
	return total > env->memory_max ? total - env->memory_max : 0;
}

int paging_run(const struct bench_env *env, struct bench_result *r,
	       struct tm_err *e)
{
	struct zram_swap z = { .id = -1 };
	struct trig_policy tp;
	struct series_run *sr;
	char root[256], active[128];
	uint64_t need = overflow(env), mib = 1ull << 20;
	size_t i;
	int err = 0;

	r->cpu = env->cpu;
	r->cgroup_parent[0] = '\0';
	r->page_cluster = read_long("/proc/sys/vm/page-cluster");
	r->swappiness = read_long("/proc/sys/vm/swappiness");
	if (!env->no_cgroup) {
		if (env->cgroup_parent) {
			snprintf(r->cgroup_parent, sizeof(r->cgroup_parent), "%s",
				 env->cgroup_parent);
		} else {
			err = sys_cgroup2_root(root, sizeof(root), e);
			if (err)
				return err;
			snprintf(r->cgroup_parent, sizeof(r->cgroup_parent), "%s", root);
		}
		/* before anything else is set up: a bad --cgroup fails at once */
		err = sys_cgroup_prepare(r->cgroup_parent, e);
		if (err)
			return err;
	}
	sys_swap_active(active, sizeof(active));
	if (env->zram == ZRAM_SIZE || (env->zram == ZRAM_AUTO && env->swap_delay_ms) ||
	    (env->zram == ZRAM_AUTO && need && r->swap_free < need + need / 4)) {
		uint64_t size = env->zram == ZRAM_SIZE ? env->zram_size :
				((need * 2 + mib - 1) / mib) * mib;

		if (size < 64 * mib && env->zram == ZRAM_AUTO)
			size = 64 * mib;
		err = sys_zram_create(size, env->swap_delay_ms, env->swap_write_delay_ms, &z, e);
		if (err)
			return err;
		{
			char delay[200] = "";

			if (z.dm_name[0])
				snprintf(delay, sizeof(delay),
					 ", behind a dm-delay device (%s) adding %u ms to each read, %u ms to each write",
					 z.dev, env->swap_delay_ms, env->swap_write_delay_ms);
			snprintf(r->swap_desc, sizeof(r->swap_desc),
				 "zram%d, %llu MiB, created for this run%s%s%s", z.id,
				 (unsigned long long)(size >> 20), delay,
				 active[0] ? "; also active: " : "", active);
		}
		bench_progress(env, "swap: %s", r->swap_desc);
	} else if (need && r->swap_free < need) {
		return tm_err_set(e, ENOSPC,
				  "the run needs about %llu MiB of swap (the buffers exceed memory.max by that much) but %llu MiB is free: add swap, or leave out --zram no",
				  (unsigned long long)(need >> 20),
				  (unsigned long long)(r->swap_free >> 20));
	} else {
		snprintf(r->swap_desc, sizeof(r->swap_desc), "%s",
			 active[0] ? active : "none");
	}

	sr = calloc(1, sizeof(*sr));
	if (!sr) {
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out;
	}
	trig_init(&tp, env->trigger_above_ns, env->trigger_spacing_ns);
	for (i = 0; i < env->nr_children && !err; i++) {
		sr->env = env;
		sr->r = r;
		sr->tp = &tp;
		sr->si = i;
		sr->n = env->children[i];
		sr->cg_parent = env->no_cgroup ? NULL : r->cgroup_parent;
		r->nr_series = i + 1;
		err = run_series(sr, e);
		if (err)
			tm_err_prefix(e, "%s", r->series[i].label);
	}
	free(sr);
out:
	sys_zram_remove(&z);
	return err;
}
