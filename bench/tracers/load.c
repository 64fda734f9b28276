// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-tracer-load: the workloads bench/tracers/guest.py runs under each
 * tracer, bracketed by instruction-count marks (see insncount.c).
 *
 *   tipme-tracer-load MARKFILE pingpong ROUNDS
 *   tipme-tracer-load MARKFILE messaging GROUPS LOOPS
 *   tipme-tracer-load MARKFILE forkexec COUNT
 *   tipme-tracer-load MARKFILE exec CMD [ARGS...]
 *   tipme-tracer-load MARKFILE readraw OUTFILE
 *   tipme-tracer-load MARKFILE idle THREADS SECONDS
 *   tipme-tracer-load - periodic PERIOD_MS SECONDS
 *
 * With a MARKFILE (written by the plugin, read back over the shared
 * folder), prints one JSON object: the guest instructions (all, and in
 * kernel mode) and the context switches (/proc/stat ctxt) between the two
 * marks around the workload.  "periodic" is the interactive half of the
 * desktop-like load: wake every PERIOD_MS, do ~1 ms of work, for SECONDS.
 * "exec" runs a command (a tracer's dump); "readraw" reads every CPU's
 * ftrace trace_pipe_raw without blocking into OUTFILE, as a minimal
 * reader of ftrace's binary buffers would.  Both also print the seconds.
 * "idle" starts THREADS threads that sleep (blocked reading a pipe) before
 * the first mark, then sleeps SECONDS between the marks: what a sampler
 * costs for that many threads.  Every workload also prints the marks'
 * CLOCK_MONOTONIC times (mono0_ns, mono1_ns).  MARKFILE "-" runs a
 * workload without the plugin (natively): no instruction counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static inline void mark(void)
{
	/* nopl 0x4d504954(%rax,%rax,1): the plugin's marker */
	__asm__ volatile(".byte 0x0f,0x1f,0x84,0x00,0x54,0x49,0x50,0x4d"
			 ::: "memory");
}

static uint64_t ctxt(void)
{
	char line[256];
	uint64_t v = 0;
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		die("/proc/stat");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ctxt %" SCNu64, &v) == 1)
			break;
	fclose(f);
	return v;
}

static void xwrite(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) != (ssize_t)n)
		die("write");
}

static void xread(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r <= 0)
			die("read");
		got += (size_t)r;
	}
}

static void reap(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die("child");
}

/* Two processes hand one byte back and forth over two pipes. */
static void pingpong(long rounds)
{
	int a[2], b[2];
	char c = 0;
	pid_t pid;
	long i;

	if (pipe(a) || pipe(b))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		for (i = 0; i < rounds; i++) {
			xread(a[0], &c, 1);
			xwrite(b[1], &c, 1);
		}
		_exit(0);
	}
	for (i = 0; i < rounds; i++) {
		xwrite(a[1], &c, 1);
		xread(b[0], &c, 1);
	}
	reap(pid);
}

/*
 * hackbench's shape: each group has 10 senders and 10 receivers on
 * socketpairs; every sender sends LOOPS 100-byte messages to every
 * receiver of its group.
 */
#define FANOUT 10
#define MSG 100

static void messaging(int groups, int loops)
{
	pid_t pids[2 * FANOUT * 64];
	int np = 0, g, s, r, l;
	char buf[MSG];

	if (groups < 1 || groups > 64)
		die("groups");
	memset(buf, 'x', sizeof(buf));
	for (g = 0; g < groups; g++) {
		int fds[FANOUT][2];

		for (r = 0; r < FANOUT; r++)
			if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds[r]))
				die("socketpair");
		for (r = 0; r < FANOUT; r++) {
			pid_t p = fork();

			if (p < 0)
				die("fork");
			if (p == 0) {
				long want = (long)FANOUT * loops;

				for (l = 0; l < want; l++)
					xread(fds[r][0], buf, MSG);
				_exit(0);
			}
			pids[np++] = p;
		}
		for (s = 0; s < FANOUT; s++) {
			pid_t p = fork();

			if (p < 0)
				die("fork");
			if (p == 0) {
				for (l = 0; l < loops; l++)
					for (r = 0; r < FANOUT; r++)
						xwrite(fds[r][1], buf, MSG);
				_exit(0);
			}
			pids[np++] = p;
		}
		for (r = 0; r < FANOUT; r++) {
			close(fds[r][0]);
			close(fds[r][1]);
		}
	}
	while (np > 0)
		reap(pids[--np]);
}

static void forkexec(long count)
{
	long i;

	for (i = 0; i < count; i++) {
		pid_t p = fork();

		if (p < 0)
			die("fork");
		if (p == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		reap(p);
	}
}

static void run(char **argv)
{
	pid_t p = fork();

	if (p < 0)
		die("fork");
	if (p == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	reap(p);
}

static void readraw(const char *outfile)
{
	static char buf[1 << 16];
	char path[96];
	int out, cpu, fd;
	ssize_t n;

	out = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out < 0)
		die(outfile);
	for (cpu = 0;; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/tracing/per_cpu/cpu%d/trace_pipe_raw", cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			if (errno == ENOENT)
				break;
			die(path);
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			xwrite(out, buf, (size_t)n);
		if (n < 0 && errno != EAGAIN)
			die(path);
		close(fd);
	}
	if (fsync(out) || close(out))
		die(outfile);
}

/* "idle": threads blocked on a pipe no one writes to until exit. */
static int idle_pipe[2];

static void *idle_thread(void *arg)
{
	char c;

	(void)arg;
	if (read(idle_pipe[0], &c, 1) < 0)
		die("read");
	return NULL;
}

static void idle_setup(long threads)
{
	pthread_attr_t attr;
	pthread_t t;
	long i;

	if (pipe(idle_pipe))
		die("pipe");
	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, 64 * 1024))
		die("pthread_attr");
	for (i = 0; i < threads; i++) {
		errno = pthread_create(&t, &attr, idle_thread, NULL);
		if (errno)
			die("pthread_create");
		pthread_detach(t);
	}
	pthread_attr_destroy(&attr);
}

static void idle(long seconds)
{
	struct timespec ts = { seconds, 0 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void periodic(long period_ms, long seconds)
{
	struct timespec ts = { period_ms / 1000, (period_ms % 1000) * 1000000 };
	double end = now() + seconds;
	volatile unsigned long sink = 0;

	while (now() < end) {
		double until = now() + 0.001;

		while (now() < until)
			sink++;
		nanosleep(&ts, NULL);
	}
}

/*
 * The plugin's last two lines, "MARK TOTAL KERNEL": the marks this
 * program just executed, if they are consecutive.
 */
static void read_marks(const char *path, uint64_t m0[3], uint64_t m1[3])
{
	char line[128];
	uint64_t v[3];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64,
			   &v[0], &v[1], &v[2]) == 3) {
			memcpy(m0, m1, 3 * sizeof(*m1));
			memcpy(m1, v, sizeof(v));
			n++;
		}
	fclose(f);
	if (n < 2 || m0[0] + 1 != m1[0]) {
		fprintf(stderr, "%s: no two consecutive marks (is QEMU running the insncount plugin?)\n",
			path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	uint64_t c0, c1, m0[3], m1[3];
	double t0, t1;
	const char *markfile, *what;

	if (argc < 4) {
		fprintf(stderr, "usage: see the comment in bench/tracers/load.c\n");
		return 2;
	}
	markfile = argv[1];
	what = argv[2];
	if (!strcmp(what, "periodic")) {
		periodic(atol(argv[3]), argc > 4 ? atol(argv[4]) : 10);
		return 0;
	}
	if (!strcmp(what, "idle"))
		idle_setup(atol(argv[3]));
	c0 = ctxt();
	t0 = now();
	mark();
	if (!strcmp(what, "pingpong"))
		pingpong(atol(argv[3]));
	else if (!strcmp(what, "messaging") && argc > 4)
		messaging(atoi(argv[3]), atoi(argv[4]));
	else if (!strcmp(what, "forkexec"))
		forkexec(atol(argv[3]));
	else if (!strcmp(what, "exec"))
		run(argv + 3);
	else if (!strcmp(what, "readraw"))
		readraw(argv[3]);
	else if (!strcmp(what, "idle") && argc > 4)
		idle(atol(argv[4]));
	else {
		fprintf(stderr, "unknown workload %s\n", what);
		return 2;
	}
	mark();
	t1 = now();
	c1 = ctxt();
	if (!strcmp(markfile, "-")) {
		printf("{\"workload\": \"%s\", \"ctxt\": %" PRIu64 ", \"seconds\": %.6f, "
		       "\"mono0_ns\": %.0f, \"mono1_ns\": %.0f}\n",
		       what, c1 - c0, t1 - t0, t0 * 1e9, t1 * 1e9);
		return 0;
	}
	read_marks(markfile, m0, m1);
	printf("{\"workload\": \"%s\", \"mark\": %" PRIu64 ", \"insn\": %" PRIu64
	       ", \"kernel_insn\": %" PRIu64 ", \"ctxt\": %" PRIu64
	       ", \"seconds\": %.6f, \"mono0_ns\": %.0f, \"mono1_ns\": %.0f}\n",
	       what, m1[0], m1[1] - m0[1], m1[2] - m0[2], c1 - c0, t1 - t0,
	       t0 * 1e9, t1 * 1e9);
	return 0;
}
