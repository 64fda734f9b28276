// SPDX-License-Identifier: GPL-2.0
/*
 * The fork storm (TIPME section 4.2.1).
 *
 * In the paper a measurement task computed ~10 ms, slept 50 ms and took a
 * timestamp, 10,000 times, under two loads run separately:
 *   A  one CPU-bound process for the whole run;
 *   B  a parent that every 2 s forks a CPU-bound child and kills the
 *      previous one, so that at most one child exists.
 * On BSD/OS the intervals stayed near 60 ms under A but reached 60-600 ms
 * under B: a new child started with a fresh scheduling priority and beat
 * the interactive task for hundreds of milliseconds.
 *
 * The paper's machine had one CPU.  Every process here is pinned to one
 * CPU (--cpu, default the first CPU we may use) so that the load competes
 * with the measurement task at all; --cpu none shows what a multi-core
 * machine does with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

enum { MSG_SAMPLE = 1, MSG_FORK };

struct msg {
	uint32_t type, pad;
	uint64_t a, b, c;
};

struct fs_ctx {
	const struct bench_env *env;
	uint64_t loops;
	int ready_w, msg_w;
};

static void hog_main(void *arg)
{
	const struct fs_ctx *c = arg;

	if (sys_write_all(c->ready_w, "h", 1))
		_exit(4);
	for (;;)
		calib_spin(1u << 20);
}

static volatile sig_atomic_t forker_stop;

static void on_term(int sig)
{
	(void)sig;
	forker_stop = 1;
}

/* Load B's parent: every fork period, kill the child and fork a new one. */
static void forker_main(void *arg)
{
	const struct fs_ctx *c = arg;
	struct sigaction sa = { .sa_handler = on_term };	/* no SA_RESTART */
	uint64_t next = mono_ns();
	pid_t child = 0, me = getpid();
	struct msg m = { .type = MSG_FORK };
	int first = 1;

	sigaction(SIGTERM, &sa, NULL);
	while (!forker_stop) {
		struct timespec ts;

		if (child > 0) {
			kill(child, SIGKILL);
			while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
				;
		}
		m.a = mono_ns();
		child = fork();
		if (!child) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != me)
				_exit(0);
			close(c->ready_w);
			close(c->msg_w);
			for (;;)
				calib_spin(1u << 20);
		}
		if (child > 0)
			sys_write_all(c->msg_w, &m, sizeof(m));
		if (first && sys_write_all(c->ready_w, "b", 1))
			break;
		first = 0;
		next += c->env->fork_period_ns;
		ts.tv_sec = (time_t)(next / NS_PER_SEC);
		ts.tv_nsec = (long)(next % NS_PER_SEC);
		while (!forker_stop &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	if (child > 0) {
		kill(child, SIGKILL);
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	_exit(0);
}

/* The measurement task: compute, sleep, timestamp. */
static void measure_main(void *arg)
{
	const struct fs_ctx *c = arg;
	const struct bench_env *env = c->env;
	struct msg m = { .type = MSG_SAMPLE };
	uint64_t prev = mono_ns(), i;

	for (i = 0; i < env->samples; i++) {
		uint64_t c0, c1, t;

		c0 = mono_ns();
		calib_spin(c->loops);
		c1 = mono_ns();
		sys_sleep_ns(env->sleep_ns);
		t = mono_ns();
		m.a = t;
		m.b = t - prev;
		m.c = c1 - c0;
		prev = t;
		if (sys_write_all(c->msg_w, &m, sizeof(m)))
			_exit(4);
	}
	_exit(0);
}

struct load_run {
	const struct bench_env *env;
	struct bench_result *r;
	struct trig_policy *tp;
	size_t si;
	struct worker load, meas;
	int ready_r, msg_r;
};

static int died(struct worker *w, struct tm_err *e)
{
	char how[96] = "exited";
	int st;

	if (waitpid(w->pid, &st, WNOHANG) == w->pid) {
		sys_status_str(st, how, sizeof(how));
		w->pid = 0;
	}
	return tm_err_set(e, ECHILD, "the %s %s", w->name, how);
}

static int wait_ready(struct load_run *lr, struct tm_err *e)
{
	struct pollfd pfd[2];
	char c;

	for (;;) {
		pfd[0].fd = lr->ready_r;
		pfd[0].events = POLLIN;
		pfd[1].fd = lr->load.pidfd;
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, 1000) < 0 && errno != EINTR)
			return tm_err_set(e, errno, "poll: %s", strerror(errno));
		if (bench_interrupted)
			return tm_err_set(e, EINTR, "interrupted");
		if (pfd[1].revents & POLLIN)
			return died(&lr->load, e);
		if (pfd[0].revents & (POLLIN | POLLHUP)) {
			ssize_t k = read(lr->ready_r, &c, 1);

			if (k == 1)
				return 0;
			if (k == 0)
				return tm_err_set(e, EPIPE, "the load went away");
		}
	}
}

static int collect(struct load_run *lr, struct tm_err *e)
{
	const struct bench_env *env = lr->env;
	struct bench_series *s = &lr->r->series[lr->si];
	unsigned char carry[sizeof(struct msg) * 64];
	struct pollfd pfd[3];
	size_t have = 0;

	for (;;) {
		pfd[0].fd = lr->msg_r;
		pfd[0].events = POLLIN;
		pfd[1].fd = lr->load.pid ? lr->load.pidfd : -1;
		pfd[1].events = POLLIN;
		pfd[2].fd = lr->meas.pidfd;
		pfd[2].events = POLLIN;
		if (poll(pfd, 3, 250) < 0 && errno != EINTR)
			return tm_err_set(e, errno, "poll: %s", strerror(errno));
		if (bench_interrupted)
			return tm_err_set(e, EINTR, "interrupted");
		if (pfd[0].revents & (POLLIN | POLLHUP)) {
			ssize_t k = read(lr->msg_r, carry + have, sizeof(carry) - have);
			size_t off = 0;

			if (k < 0 && errno != EINTR)
				return tm_err_set(e, errno, "read: %s", strerror(errno));
			if (k == 0)
				return tm_err_set(e, EPIPE, "the message pipe closed");
			have += k > 0 ? (size_t)k : 0;
			while (have - off >= sizeof(struct msg)) {
				struct msg m;

				memcpy(&m, carry + off, sizeof(m));
				off += sizeof(m);
				if (m.type == MSG_SAMPLE) {
					struct bench_sample x = { m.a, m.b, m.c, 0 };

					if (bench_series_push(s, &x))
						return tm_err_set(e, ENOMEM, "out of memory");
					trig_check(lr->r, lr->tp, lr->si, s->n - 1, &x, s->label);
				} else if (m.type == MSG_FORK) {
					if (bench_series_fork(s, m.a))
						return tm_err_set(e, ENOMEM, "out of memory");
				}
			}
			memmove(carry, carry + off, have - off);
			have -= off;
			if (s->n >= env->samples)
				return 0;
		}
		if (pfd[1].revents & POLLIN)
			return died(&lr->load, e);
		/* exited with samples still due, and nothing left to read */
		if ((pfd[2].revents & POLLIN) && !(pfd[0].revents & POLLIN))
			return died(&lr->meas, e);
		if (env->time_limit_ns && mono_ns() - s->started_ns > env->time_limit_ns) {
			s->stopped_early = 1;
			return 0;
		}
	}
}

static int run_load(struct load_run *lr, enum fs_load load, uint64_t loops,
		    struct tm_err *e)
{
	const struct bench_env *env = lr->env;
	struct bench_series *s = &lr->r->series[lr->si];
	struct fs_ctx ctx = { .env = env, .loops = loops };
	int rp[2] = { -1, -1 }, mp[2] = { -1, -1 }, keep[2], err, i;
	int cpu = lr->r->cpu;

	memset(&lr->load, 0, sizeof(lr->load));
	memset(&lr->meas, 0, sizeof(lr->meas));
	lr->load.pidfd = lr->meas.pidfd = lr->load.go = lr->meas.go = -1;
	s->load = load;
	snprintf(s->label, sizeof(s->label), load == LOAD_NONE ? "no load" : "load %s",
		 bench_load_name(load));
	if (pipe2(rp, O_CLOEXEC) || pipe2(mp, O_CLOEXEC)) {
		err = tm_err_set(e, errno, "pipe: %s", strerror(errno));
		goto out;
	}
	lr->ready_r = rp[0];
	lr->msg_r = mp[0];
	ctx.ready_w = rp[1];
	ctx.msg_w = mp[1];
	keep[0] = rp[1];
	keep[1] = mp[1];
	if (load != LOAD_NONE) {
		err = sys_spawn(&lr->load, load == LOAD_A ? "CPU-bound load" : "forking parent",
				load == LOAD_A ? hog_main : forker_main, &ctx, NULL, cpu,
				keep, 2, e);
		if (!err)
			err = sys_start(&lr->load, e);
		if (!err)
			err = wait_ready(lr, e);
		if (err)
			goto out;
	}
	err = sys_spawn(&lr->meas, "measurement task", measure_main, &ctx, NULL, cpu,
			keep + 1, 1, e);
	if (err)
		goto out;
	close(rp[1]);
	close(mp[1]);
	rp[1] = mp[1] = -1;
	bench_progress(env, "%s: measuring %llu intervals", s->label,
		       (unsigned long long)env->samples);
	s->started_ns = mono_ns();
	err = sys_start(&lr->meas, e);
	if (!err)
		err = collect(lr, e);
	s->ended_ns = mono_ns();
out:
	sys_stop(&lr->meas, SIGKILL);
	/* the forking parent kills and reaps its child on SIGTERM */
	sys_stop(&lr->load, load == LOAD_B ? SIGTERM : SIGKILL);
	for (i = 0; i < 2; i++) {
		if (rp[i] >= 0)
			close(rp[i]);
		if (mp[i] >= 0)
			close(mp[i]);
	}
	return err;
}

int forkstorm_run(const struct bench_env *env, struct bench_result *r,
		  struct tm_err *e)
{
	struct trig_policy tp;
	struct load_run lr;
	cpu_set_t old;
	size_t i;
	int err = 0, have_old;

	r->cpu = env->cpu == CPU_AUTO ? sys_first_cpu() : env->cpu;
	/* calibrate on the CPU the measurement task will use */
	have_old = !sched_getaffinity(0, sizeof(old), &old);
	if (r->cpu >= 0 && sys_pin_self(r->cpu))
		return tm_err_set(e, EINVAL, "cannot run on CPU %d: %s", r->cpu, strerror(errno));
	bench_progress(env, "calibrating %.1f ms of computation%s", (double)env->compute_ns / 1e6,
		       r->cpu >= 0 ? " on the pinned CPU" : "");
	err = calib_run(env->compute_ns, &r->calib);
	if (have_old)
		sched_setaffinity(0, sizeof(old), &old);
	if (err)
		return tm_err_set(e, -err, "calibration failed: the clock does not advance");
	r->have_calib = 1;
	bench_progress(env, "calibration: %llu loops for %.1f ms",
		       (unsigned long long)r->calib.loops, (double)env->compute_ns / 1e6);

	trig_init(&tp, env->trigger_above_ns, env->trigger_spacing_ns);
	memset(&lr, 0, sizeof(lr));
	lr.env = env;
	lr.r = r;
	lr.tp = &tp;
	for (i = 0; i < env->nr_loads && !err; i++) {
		lr.si = i;
		r->nr_series = i + 1;
		err = run_load(&lr, env->loads[i], r->calib.loops, e);
		if (err)
			tm_err_prefix(e, "%s", r->series[i].label);
	}
	return err;
}
