// SPDX-License-Identifier: GPL-2.0
/*
 * handoff: a request that becomes work in another task, and its answer
 * coming back: the ground truth for tipme report's chain across
 * hand-offs (t-handoff.sh).  The client asks once, the task that does
 * the work computes (or sleeps) MS milliseconds, and the answer returns:
 *
 *   handoff pty [MS]      a terminal (the client) writes a key to a pty's
 *                         master and polls for its echo; the program on
 *                         the slave (raw mode, no line-discipline echo)
 *                         reads it, works, and writes it back
 *   handoff relay [MS]    a client asks a broker over a unix socket; the
 *                         broker (polling both its sockets, as a message
 *                         bus does) asks a service over another, which
 *                         works and answers; the broker relays the answer
 *   handoff pool [MS]     a UI thread hands a job to a worker thread with
 *                         a mutex and condition variables (futexes) and
 *                         waits for it to be done
 *   handoff eventfd [MS]  the same with two eventfds
 *   handoff relay-sleep [MS]  the relay, the service sleeping instead
 *   handoff ttyecho MS FILE   the program on a terminal's pty (xterm -e):
 *                         raw mode, then "ready PID" to FILE; reads a
 *                         first key and says "warm" (the terminal's
 *                         first key is its own work: it loads the
 *                         keymap and makes the cursor that hides the
 *                         pointer, round trips to the X server); reads
 *                         a key, works, echoes it, then says "echoed
 *                         culprit=PID start_ns=T end_ns=T echo_ns=E
 *                         latency_ms=X cpu_ms=C client_busy_ms=B" (its
 *                         read returning, its echo written; E: just
 *                         before the echo's write, the earliest the
 *                         terminal can have it; C: its CPU time
 *                         from the key read to the echo; B: the time the
 *                         terminal, its parent, spent running or
 *                         runnable from just before T to just after
 *                         the echo, from /proc/PPID/schedstat);
 *                         "second" when a third key comes; then waits
 *                         for the end of its input
 *
 * Prints, once the answer is back:
 *
 *   client=PID culprit=PID [broker=PID] start_ns=T end_ns=T latency_ms=X cpu_ms=C work_ms=W
 *   client_busy_ms=B
 *
 * culprit is the task that did the work, cpu_ms the CPU time it took (the
 * rest of the work's MS it waited for a CPU), work_ms the time it took on
 * the culprit's clock (for a sleep, the sleep and its wakeup), client_busy_ms
 * the time the client ran or waited for a CPU itself from just before
 * start_ns to just after end_ns (/proc/TID/schedstat); start_ns just before the
 * client's request, end_ns just after its answer arrived (CLOCK_MONOTONIC);
 * the request is sent only once every other task is seen asleep waiting
 * for it (/proc state S).  The client (a process, or for pool and eventfd
 * a thread) is created only then, and does nothing but ask, wait and
 * print: a report with --pid and no interval, whose window is the
 * client's life, then holds the wait and little of the client's own
 * running.  (A client that starts the others and waits for them to be
 * asleep has run for as long as the work, or longer, on a busy machine
 * under TCG: its start and that waiting were the verdict, not the work.)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "proglib.h"

static long work_ms = 300;
static int work_sleeps;
/* the CPU time and the wall time the work took, in memory the forked tasks share */
static long long *work_cpu_ns, *work_wall_ns;

/*
 * The work: computing work_ms of its own CPU time (however long others
 * keep it off the CPU on a busy machine, the work is the same), or
 * sleeping work_ms; the CPU time it took in *work_cpu_ns, the time on its
 * clock (CLOCK_MONOTONIC) in *work_wall_ns.
 */
static void work(void)
{
	long long cpu0 = cputime(), t0 = mono_ns();
	volatile unsigned long x = 0;

	if (work_sleeps) {
		struct timespec d = { work_ms / 1000, (work_ms % 1000) * 1000000L };

		while (nanosleep(&d, &d))
			;
	} else {
		while (cputime() - cpu0 < work_ms * 1000000LL)
			x++;
	}
	*work_cpu_ns = cputime() - cpu0;
	*work_wall_ns = mono_ns() - t0;
}

/* State letter of thread @tid of process @pid from /proc, or 0. */
static char proc_state(pid_t pid, pid_t tid)
{
	char path[96], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

static void wait_asleep(pid_t pid, pid_t tid)
{
	while (proc_state(pid, tid) != 'S')
		sched_yield();
}

static int full_write(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n ? 0 : -1;
}

static int full_read(int fd, void *p, size_t n)
{
	return read(fd, p, n) == (ssize_t)n ? 0 : -1;
}

/*
 * The time thread @pid (a process: its main thread) spent on a CPU or
 * waiting for one, from /proc/PID/schedstat (ns), or -1.
 */
static long long busy_ns(pid_t pid)
{
	long long run, wait;
	char path[64];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%lld %lld", &run, &wait);
	fclose(f);
	return n == 2 ? run + wait : -1;
}

/*
 * The client's line; @a and @b its request's start and its answer's
 * arrival, @busy the time it ran or waited for a CPU from just before @a
 * to just after @b (ns, -1 unknown).
 */
static void report(pid_t client, pid_t culprit, pid_t broker, long long a,
		   long long b, long long busy)
{
	printf("client=%d culprit=%d", (int)client, (int)culprit);
	if (broker)
		printf(" broker=%d", (int)broker);
	printf(" start_ns=%lld end_ns=%lld latency_ms=%.3f cpu_ms=%.3f work_ms=%.3f"
	       " client_busy_ms=%.3f\n", a, b, (b - a) / 1e6, *work_cpu_ns / 1e6,
	       *work_wall_ns / 1e6, busy >= 0 ? busy / 1e6 : 0.0);
}

/* The time from @busy0 (busy_ns() before the request) to now, or -1. */
static long long busy_since(pid_t tid, long long busy0)
{
	long long busy1 = busy_ns(tid);

	return busy0 >= 0 && busy1 >= busy0 ? busy1 - busy0 : -1;
}

static int do_pty(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY), st1, st2;
	pid_t prog, client;
	char c;

	if (m < 0 || grantpt(m) || unlockpt(m))
		return 1;
	prog = fork();
	if (prog < 0)
		return 1;
	if (!prog) {
		struct termios tio;
		int s;

		setsid();
		s = open(ptsname(m), O_RDWR);
		if (s < 0 || tcgetattr(s, &tio))
			_exit(1);
		cfmakeraw(&tio);
		if (tcsetattr(s, TCSANOW, &tio) || dup2(s, 0) < 0 || dup2(s, 1) < 0)
			_exit(1);
		close(m);
		if (full_write(1, "R", 1) || full_read(0, &c, 1))
			_exit(1);
		work();
		_exit(full_write(1, &c, 1) ? 1 : 0);
	}
	/* the program is up (raw mode set) once its "R" arrives */
	if (full_read(m, &c, 1) || c != 'R')
		return 1;
	wait_asleep(prog, prog);
	/* the terminal: writes the key to the master, polls for its echo */
	client = fork();
	if (client < 0)
		return 1;
	if (!client) {
		struct pollfd pfd = { .fd = m, .events = POLLIN };
		long long busy0 = busy_ns(getpid()), a = mono_ns(), b;

		if (full_write(m, "k", 1))
			_exit(1);
		while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
			;
		if (full_read(m, &c, 1) || c != 'k')
			_exit(1);
		b = mono_ns();
		report(getpid(), prog, 0, a, b, busy_since(getpid(), busy0));
		_exit(0);
	}
	waitpid(client, &st1, 0);
	waitpid(prog, &st2, 0);
	return st1 || st2 ? 1 : 0;
}

static int do_relay(void)
{
	int cb[2], bs[2], st1, st2, st3;
	pid_t service, broker, client;
	long long a, b;
	char c;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, cb) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, bs))
		return 1;
	service = fork();
	if (service < 0)
		return 1;
	if (!service) {
		if (full_read(bs[1], &c, 1))
			_exit(1);
		work();
		_exit(full_write(bs[1], &c, 1) ? 1 : 0);
	}
	broker = fork();
	if (broker < 0)
		return 1;
	if (!broker) {
		/* a message bus: poll both, relay what comes in */
		struct pollfd p[2] = { { .fd = cb[1], .events = POLLIN },
				       { .fd = bs[0], .events = POLLIN } };
		int done = 0;

		while (!done) {
			if (poll(p, 2, -1) < 0) {
				if (errno == EINTR)
					continue;
				_exit(1);
			}
			if (p[0].revents & POLLIN) {
				if (full_read(cb[1], &c, 1) || full_write(bs[0], &c, 1))
					_exit(1);
			}
			if (p[1].revents & POLLIN) {
				if (full_read(bs[0], &c, 1) || full_write(cb[1], &c, 1))
					_exit(1);
				done = 1;
			}
		}
		_exit(0);
	}
	/*
	 * The client is their sibling, as a bus's client is no ancestor of
	 * the bus or the service (a wait for one's own children is no stall).
	 */
	wait_asleep(service, service);
	wait_asleep(broker, broker);
	client = fork();
	if (client < 0)
		return 1;
	if (!client) {
		long long busy0 = busy_ns(getpid());

		a = mono_ns();
		if (full_write(cb[0], "q", 1) || full_read(cb[0], &c, 1) || c != 'q')
			_exit(1);
		b = mono_ns();
		report(getpid(), service, broker, a, b, busy_since(getpid(), busy0));
		_exit(0);
	}
	waitpid(client, &st3, 0);
	waitpid(service, &st1, 0);
	waitpid(broker, &st2, 0);
	return st1 || st2 || st3 ? 1 : 0;
}

static int do_ttyecho(const char *path)
{
	long long a, b, e, busy0, cpu0;
	struct termios tio;
	FILE *o;
	char c;

	o = path ? fopen(path, "w") : NULL;
	if (!o || tcgetattr(0, &tio))
		return 1;
	setvbuf(o, NULL, _IOLBF, 0);
	cfmakeraw(&tio);
	if (tcsetattr(0, TCSANOW, &tio))
		return 1;
	fprintf(o, "ready %d\n", (int)getpid());
	if (full_read(0, &c, 1))
		return 1;
	fprintf(o, "warm\n");
	if (full_read(0, &c, 1))
		return 1;
	/*
	 * C: the CPU time from the key read to its echo written, reading
	 * /proc included (tens of ms in a busy guest), all of it the
	 * terminal's wait; before T: the terminal's busy time brackets the
	 * work's
	 */
	cpu0 = cputime();
	busy0 = busy_ns(getppid());
	a = mono_ns();
	work();
	e = mono_ns();
	if (full_write(1, &c, 1))
		return 1;
	*work_cpu_ns = cputime() - cpu0;
	b = mono_ns();
	busy0 = busy_since(getppid(), busy0);
	fprintf(o, "echoed culprit=%d start_ns=%lld end_ns=%lld echo_ns=%lld latency_ms=%.3f "
		"cpu_ms=%.3f client_busy_ms=%.3f\n", (int)getpid(), a, b, e, (b - a) / 1e6,
		*work_cpu_ns / 1e6, busy0 >= 0 ? busy0 / 1e6 : 0.0);
	if (full_read(0, &c, 1))
		return 1;
	fprintf(o, "second\n");
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t job_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static int job, done;
static int efd_job, efd_done;
static volatile pid_t worker_tid;

static void *cv_worker(void *arg)
{
	(void)arg;
	worker_tid = (pid_t)syscall(SYS_gettid);
	pthread_mutex_lock(&mu);
	while (!job)
		pthread_cond_wait(&job_cv, &mu);
	pthread_mutex_unlock(&mu);
	work();
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_signal(&done_cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static void *efd_worker(void *arg)
{
	uint64_t v = 1;

	(void)arg;
	worker_tid = (pid_t)syscall(SYS_gettid);
	if (full_read(efd_job, &v, sizeof(v)))
		return arg;
	work();
	if (full_write(efd_done, &v, sizeof(v)))
		return arg;
	return NULL;
}

/*
 * The UI thread (the client): hands the job over, waits for it to be
 * done and prints; started once the worker is asleep waiting for the
 * job.  The process ends with it.
 */
static int ui_efd;

static void *ui_thread(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	long long busy0 = busy_ns(tid), a = mono_ns(), b;
	uint64_t v = 1;
	void *ret;

	if (ui_efd) {
		if (full_write(efd_job, &v, sizeof(v)) || full_read(efd_done, &v, sizeof(v)))
			exit(1);
	} else {
		pthread_mutex_lock(&mu);
		job = 1;
		pthread_cond_signal(&job_cv);
		while (!done)
			pthread_cond_wait(&done_cv, &mu);
		pthread_mutex_unlock(&mu);
	}
	b = mono_ns();
	busy0 = busy_since(tid, busy0);
	if (pthread_join(*(pthread_t *)arg, &ret) || ret)
		exit(1);
	report(tid, worker_tid, 0, a, b, busy0);
	exit(0);
}

static int do_pool(int use_efd)
{
	static pthread_t th;
	pthread_t ui;

	if (use_efd) {
		efd_job = eventfd(0, 0);
		efd_done = eventfd(0, 0);
		if (efd_job < 0 || efd_done < 0)
			return 1;
	}
	if (pthread_create(&th, NULL, use_efd ? efd_worker : cv_worker, NULL))
		return 1;
	while (!worker_tid)
		sched_yield();
	wait_asleep(getpid(), worker_tid);
	ui_efd = use_efd;
	if (pthread_create(&ui, NULL, ui_thread, &th))
		return 1;
	/*
	 * Not waiting for the UI thread: the main thread that waited on it,
	 * longer than it waited for the job, would be the stall chosen
	 * without --pid.
	 */
	pthread_exit(NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (argc > 2)
		work_ms = strtol(argv[2], NULL, 10);
	if (work_ms <= 0) {
		fprintf(stderr, "handoff: MS must be a positive number\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	work_cpu_ns = mmap(NULL, 2 * sizeof(*work_cpu_ns), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (work_cpu_ns == MAP_FAILED)
		return 1;
	work_wall_ns = work_cpu_ns + 1;
	if (!strcmp(mode, "pty"))
		return do_pty();
	if (!strcmp(mode, "relay"))
		return do_relay();
	if (!strcmp(mode, "relay-sleep")) {
		work_sleeps = 1;
		return do_relay();
	}
	if (!strcmp(mode, "ttyecho"))
		return do_ttyecho(argc > 3 ? argv[3] : NULL);
	if (!strcmp(mode, "pool"))
		return do_pool(0);
	if (!strcmp(mode, "eventfd"))
		return do_pool(1);
	fprintf(stderr, "usage: handoff pty|relay|relay-sleep|pool|eventfd [MS]\n"
		"       handoff ttyecho MS FILE\n");
	return 2;
}
