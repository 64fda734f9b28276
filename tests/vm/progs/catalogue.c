// SPDX-License-Identifier: GPL-2.0
/*
 * catalogue: one stall of a known kind, made by a "subject" process, and
 * two threads waiting for the subject through it: the ground truth of
 * t-catalogue.sh, for `tipme report` directly (the subject's own stall)
 * and through a chain of depth 2 (a waiter -> the subject -> the stall).
 *
 * This program (pinned to CPU 0) forks the subject (pinned to CPU 1),
 * which prepares its stall (its helper processes or threads, devices,
 * files), takes a process-shared mutex and says so.  Then two threads of
 * this program wait for the subject: the mutex waiter asks for that mutex,
 * the pipe waiter reads a pipe the subject writes after its stall.  Once
 * /proc says both sleep, the subject is told to go: it stalls, lets the
 * mutex go and writes the pipe.  Prints one line, CLOCK_MONOTONIC ns:
 *
 *   kind=K subject=PID culprit=PID start_ns=T end_ns=T truth_ns=N
 *   run_ns=N queued_ns=N blocked_ns=N mw=TID mw_start_ns=T mw_end_ns=T
 *   pw=TID pw_start_ns=T pw_end_ns=T held_run_ns=N [more]
 *
 * start and end: the subject's stall; truth: how long the thing the stall
 * is made of took, measured as directly as the kind allows (below); run,
 * queued and blocked: the subject's time over the stall running,
 * runnable, and neither, by the kernel's count (proglib.h: waits); culprit:
 * the task that did it (0: none); mw and pw: the two waiters' waits;
 * held_run: the subject's CPU time from its go to the pipe's write, all of
 * it the waiters' wait too (its stall, and the reads of /proc around it).
 *
 *   run MS            the subject computes MS ms of CPU time (truth: its
 *                     CPU time)
 *   contention MS     a SCHED_FIFO hog on the subject's CPU spins MS ms
 *                     just as the subject computes (truth: the subject's
 *                     time runnable)
 *   throttled CG MS   the subject, moved into cgroup CG, sets its cpu.max
 *                     to 10 ms every 100 ms (none before: nothing
 *                     throttles it earlier) and computes MS ms of CPU
 *                     time (truth: the time it did not run, alone on its
 *                     CPU; more: nr_throttled=K, the cgroup's count)
 *   timer MS          the subject sleeps MS ms (truth: its time blocked)
 *   futex MS          the subject asks for a mutex that a thread of its
 *                     own holds while it computes MS ms on the other CPU,
 *                     told to by this program (truth: the subject's time
 *                     blocked; culprit: that thread)
 *   rwsem FILE MB     a thread of the subject writes MB MiB to FILE (on
 *                     tmpfs: its inode's rwsem held while it copies); once
 *                     it is in its write the subject writes a byte to the
 *                     same file (truth: the subject's time blocked)
 *   stopped MS        the subject stops itself (SIGSTOP) and a helper
 *                     continues it MS ms later (truth: from the stop to
 *                     the SIGCONT, read just before kill(2); more:
 *                     continuer=PID sent_hi_ns=T, read just after)
 *   read DEV N        N O_DIRECT reads of 4 KiB, 1 MiB apart, of block
 *                     device DEV (truth: the time blocked)
 *   fsync FILE KB     write KB KiB to a new FILE and fsync it (truth: the
 *                     fsync's time blocked)
 *   mmap FILE         read a byte of every page of FILE mapped (truth:
 *                     the time blocked; more: ino=N dev=MAJ:MIN
 *                     resident=PAGES, those in memory before)
 *   swap CG KB        in cgroup CG, KB KiB of anonymous memory paged out
 *                     to swap (proglib.h: swap_out) and read back (truth:
 *                     the time blocked; more: pages=N out=N)
 *   memory CG PREP_MB MB  in cgroup CG, fill PREP_MB MiB of anonymous
 *                     memory with random bytes (before the stall: a working
 *                     set no swap can compress); then set the cgroup's
 *                     memory.high to its memory.current and touch MB MiB
 *                     more, a byte a page: reclaim, and where it cannot
 *                     bring the cgroup back under memory.high (no swap, or
 *                     a slow one), the kernel's penalty sleeps on the way
 *                     back to user space (truth: the cgroup's
 *                     memory.pressure "some" total over the stall; more:
 *                     high=BYTES, high_events=N, the memory.events count)
 *   net NETNS ADDR sleep|now MS  a TCP request to a server in network
 *                     namespace NETNS (proglib.h: net_server) that sleeps
 *                     MS ms first (culprit: the server) or answers at once
 *                     (the test delays the link; culprit: none); truth:
 *                     from the request until the server answered (sleep),
 *                     until the answer came (now); more: lport=P
 *   pty MS            the subject reads a pseudo-terminal in raw mode that
 *                     a child writes after sleeping MS ms: the tty layer
 *                     hands the byte over in a kernel work item (truth:
 *                     the child's sleep; culprit: the child)
 *   udp MS            the subject reads a UDP socket on 127.0.0.1 that a
 *                     child sends to after sleeping MS ms (truth: the
 *                     sleep; culprit: the child)
 *   udplink NETNS ADDR  the subject reads a UDP socket on port 5001 that a
 *                     child in network namespace NETNS sends a datagram to,
 *                     at ADDR (the subject's address there), at once: the
 *                     test delays the link (truth: the time blocked;
 *                     culprit: none)
 *   sigtimer MS       the subject waits in sigwaitinfo() for the signal
 *                     of a POSIX timer it armed MS ms ahead (truth: the
 *                     time blocked)
 *   sigtimeout MS     the subject waits in sigtimedwait() for a signal
 *                     that never comes, until its MS ms timeout (truth:
 *                     the time blocked)
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "proglib.h"

#define NET_PORT	5001

/* What the subject and its helpers tell this program: in shared memory. */
struct shm {
	pthread_mutex_t chain;		/* held by the subject through its stall */
	long long start, end, truth;
	long long run, queued, blocked;
	long long held_run;		/* CPU time from go to the pipe's write */
	long long a, b;			/* a helper's clock reads */
	int subject, culprit;
	char more[256];
};

static struct shm *shm;
static char **arg;			/* the kind's arguments */
static int start_pipe[2];		/* the subject to its helper: go */
static int helpers_go[2];		/* this program to the subject's helpers: go */
static int aux_fd = -1, aux_fd2 = -1;
static pid_t helper;
static pthread_t helper_th;
static atomic_int holder_tid;
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static char *mem;
static long mem_n;
static struct waits *cur_waits;		/* the subject's, over its stall */

static long num(int i)
{
	char *end;
	long v = strtol(arg[i] ? arg[i] : "", &end, 10);

	if (!arg[i] || *end || v <= 0) {
		fprintf(stderr, "catalogue: argument %d: a positive number, not '%s'\n", i + 1,
			arg[i] ? arg[i] : "");
		exit(2);
	}
	return v;
}

static void need(int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!arg[i]) {
			fprintf(stderr, "catalogue: this kind takes %d arguments\n", n);
			exit(2);
		}
}

/* Add " KEY=VALUE" pairs to the line printed */
__attribute__((format(printf, 1, 2))) static void more(const char *fmt, ...)
{
	size_t n = strlen(shm->more);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(shm->more + n, sizeof(shm->more) - n, fmt, ap);
	va_end(ap);
}

static void (*helper_fn)(void);

static void run_helper(void *unused)
{
	(void)unused;
	helper_fn();
}

/* Fork a helper that runs @fn, told to start through start_pipe; reaped after the stall */
static void fork_helper(void (*fn)(void))
{
	helper_fn = fn;
	helper = fork_piped(start_pipe, 0, run_helper, NULL);
}

static void reap_helper(void)
{
	int st;

	if (helper > 0 && (waitpid(helper, &st, 0) != helper || !WIFEXITED(st) ||
			   WEXITSTATUS(st))) {
		fprintf(stderr, "catalogue: the helper failed\n");
		exit(1);
	}
}

/* @key's number in @path (a "KEY VALUE" or "KEY=VALUE" file: cpu.stat, *.pressure) */
static long long stat_key(const char *path, const char *line_start, const char *key)
{
	char buf[256], *p;
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		die(path);
	while (fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, line_start, strlen(line_start)) && (p = strstr(buf, key)))
			v = atoll(p + strlen(key));
	fclose(f);
	if (v < 0) {
		fprintf(stderr, "catalogue: no %s in %s\n", key, path);
		exit(1);
	}
	return v;
}

static void join_cgroup(const char *cg)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
		die(path);
}

/* -- the kinds: prepare (before the subject takes the mutex), stall -- */

static void hog(void)
{
	struct sched_param sp = { .sched_priority = 10 };
	long long end;

	if (pin(1) || sched_setscheduler(0, SCHED_FIFO, &sp))
		die("hog: SCHED_FIFO on CPU 1");
	xread(start_pipe[0]);
	for (end = mono_ns() + num(0) * 1000000LL; mono_ns() < end;)
		;
}

static void contention_prep(void)
{
	fork_helper(hog);
	shm->culprit = helper;
}

static void contention(void)
{
	/* the hog wakes on this CPU and takes it from us at once */
	xwrite(start_pipe[1], 'g');
	spin_cpu(1);
}

static void cpu_max(const char *max)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu.max", arg[0]);
	f = fopen(path, "w");
	if (!f || fputs(max, f) < 0 || fclose(f))
		die(path);
}

/* (no limit until the stall: nothing throttles the subject before) */
static void throttled_prep(void)
{
	need(2);
	join_cgroup(arg[0]);
	cpu_max("max 100000");
}

static long long nr_throttled;

static void throttled(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/cpu.stat", arg[0]);
	nr_throttled = stat_key(path, "nr_throttled", "nr_throttled ");
	cpu_max("10000 100000");
	spin_cpu(num(1));
	nr_throttled = stat_key(path, "nr_throttled", "nr_throttled ") - nr_throttled;
}

/* it computed or waited for the CPU, and nothing else ran on its CPU */
static void throttled_end(void)
{
	shm->truth = shm->end - shm->start - shm->run;
	more(" nr_throttled=%lld", nr_throttled);
}

static void run(void)
{
	spin_cpu(num(0));
}

static void timer(void)
{
	sleep_ms(num(0));
}

static void *futex_holder(void *unused)
{
	(void)unused;
	if (pin(0))
		die("pin");
	pthread_mutex_lock(&held);
	atomic_store(&holder_tid, pl_tid());
	xread(helpers_go[0]);
	spin_cpu(num(0));
	pthread_mutex_unlock(&held);
	return NULL;
}

static void futex_prep(void)
{
	if (pthread_create(&helper_th, NULL, futex_holder, NULL))
		die("holder thread");
	while (!atomic_load(&holder_tid))
		sched_yield();
	shm->culprit = atomic_load(&holder_tid);
}

/*
 * (the holder is told to go by this program's main thread, not by the
 * subject: a thread that woke the one it then waits for handed it a job,
 * Documentation/report.md)
 */
static void futex_stall(void)
{
	pthread_mutex_lock(&held);
	pthread_mutex_unlock(&held);
}

static void futex_end(void)
{
	pthread_join(helper_th, NULL);
}

static void *rwsem_holder(void *unused)
{
	size_t n = (size_t)num(1) << 20;
	char *buf = malloc(n);

	(void)unused;
	if (!buf)
		die("malloc");
	memset(buf, 'w', n);
	atomic_store(&holder_tid, pl_tid());
	xread(start_pipe[0]);
	if (pwrite(aux_fd, buf, n, 0) != (ssize_t)n)
		die("holder write");
	free(buf);
	return NULL;
}

static void rwsem_prep(void)
{
	need(2);
	aux_fd = open(arg[0], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (aux_fd < 0 || pipe(start_pipe) ||
	    pthread_create(&helper_th, NULL, rwsem_holder, NULL))
		die(arg[0]);
	while (!atomic_load(&holder_tid))
		sched_yield();
	shm->culprit = atomic_load(&holder_tid);
}

/*
 * Whether the holder is in its write: the file has grown (a page at a
 * time, under the inode's rwsem) but not to its end
 */
static int in_write(void)
{
	struct stat st;

	if (fstat(aux_fd, &st))
		die("fstat");
	if (st.st_size >= num(1) << 20) {
		fprintf(stderr, "catalogue: the holder's write ended before we saw it\n");
		exit(1);
	}
	return st.st_size > 0;
}

static void rwsem_stall(void)
{
	/* (on the same CPU as the holder: a waiter on another would spin on
	 * the running owner instead of sleeping) */
	xwrite(start_pipe[1], 'g');
	while (!in_write())
		sched_yield();
	waits_begin(cur_waits);		/* the stall begins now */
	shm->start = mono_ns();
	if (pwrite(aux_fd, "x", 1, 0) != 1)
		die("write");
}

static void rwsem_end(void)
{
	pthread_join(helper_th, NULL);
	close(aux_fd);
	unlink(arg[0]);
}

static void continuer(void)
{
	xread(start_pipe[0]);
	wait_state(getppid(), getppid(), 'T');
	sleep_ms(num(0));
	shm->a = mono_ns();
	kill(getppid(), SIGCONT);
	shm->b = mono_ns();
}

static void stopped_prep(void)
{
	fork_helper(continuer);
	shm->culprit = getpid();
}

static void stopped(void)
{
	xwrite(start_pipe[1], 'g');
	raise(SIGSTOP);
}

static void stopped_end(void)
{
	more(" continuer=%d", (int)helper);
	reap_helper();
	helper = 0;
	shm->truth = shm->a - shm->start;
	more(" sent_hi_ns=%lld", shm->b);
}

static void read_prep(void)
{
	need(2);
	aux_fd = open(arg[0], O_RDONLY | O_DIRECT);
	if (aux_fd < 0 || posix_memalign((void **)&mem, 4096, 4096))
		die(arg[0]);
}

static void read_stall(void)
{
	long i, n = num(1);

	for (i = 0; i < n; i++)
		if (pread(aux_fd, mem, 4096, (off_t)i << 20) != 4096)
			die("pread");
}

static void fsync_prep(void)
{
	static char buf[65536];
	long done = 0, kb;

	need(2);
	kb = num(1);
	memset(buf, 'y', sizeof(buf));
	aux_fd = open(arg[0], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (aux_fd < 0)
		die(arg[0]);
	while (done < kb * 1024) {
		size_t n = sizeof(buf);

		if ((long)n > kb * 1024 - done)
			n = (size_t)(kb * 1024 - done);
		if (write(aux_fd, buf, n) != (ssize_t)n)
			die("write");
		done += (long)n;
	}
}

static void fsync_stall(void)
{
	if (fsync(aux_fd))
		die("fsync");
}

static volatile unsigned char sink;

static void mmap_prep(void)
{
	struct stat st;
	long page = sysconf(_SC_PAGESIZE), i, resident = 0;
	unsigned char *vec;

	need(1);
	mem = map_file(arg[0], &st);
	mem_n = (long)st.st_size;
	vec = calloc((size_t)(mem_n / page + 1), 1);
	if (!vec || mincore(mem, (size_t)mem_n, vec))
		die("mincore");
	for (i = 0; i * page < mem_n; i++)
		resident += vec[i] & 1;
	free(vec);
	more(" ino=%llu dev=%u:%u resident=%ld", (unsigned long long)st.st_ino, major(st.st_dev),
	     minor(st.st_dev), resident);
}

static void mmap_stall(void)
{
	long page = sysconf(_SC_PAGESIZE), i;

	for (i = 0; i < mem_n; i += page)
		sink = (unsigned char)mem[i];
}

static void swap_prep(void)
{
	char path[512];
	long out;

	need(2);
	join_cgroup(arg[0]);
	snprintf(path, sizeof(path), "%s/memory.reclaim", arg[0]);
	mem = swap_out(num(1), path, &mem_n, &out);
	more(" pages=%ld out=%ld", mem_n, out);
}

static void swap_stall(void)
{
	long i;

	for (i = 0; i < mem_n; i++)
		if (!swap_check(mem, i)) {
			fprintf(stderr, "catalogue: page %ld came back wrong\n", i);
			exit(1);
		}
}

static long long mem_pressure_ns(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/memory.pressure", arg[0]);
	return stat_key(path, "some", "total=") * 1000;
}

static long long mem_high_events(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/memory.events", arg[0]);
	return stat_key(path, "high", "high ");
}

static long long high_events;

static void memory_prep(void)
{
	/* a working set swap cannot compress, that reclaim must push out */
	long n = num(1) << 17, i;	/* (8-byte words) */
	unsigned long long x = 88172645463325252ULL, *w;

	need(3);
	join_cgroup(arg[0]);
	w = mmap(NULL, (size_t)n * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (w == MAP_FAILED)
		die("mmap");
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
	mem_n = num(2) << 20;
	mem = mmap(NULL, (size_t)mem_n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
}

/* (the limit set as the stall begins: nothing throttles the subject before) */
static void memory_stall(void)
{
	long page = sysconf(_SC_PAGESIZE), i;
	char path[512], cur[64];
	FILE *f;

	shm->truth = mem_pressure_ns();
	high_events = mem_high_events();
	snprintf(path, sizeof(path), "%s/memory.current", arg[0]);
	f = fopen(path, "r");
	if (!f || !fgets(cur, sizeof(cur), f) || fclose(f))
		die(path);
	cur[strcspn(cur, "\n")] = '\0';
	snprintf(path, sizeof(path), "%s/memory.high", arg[0]);
	f = fopen(path, "w");
	if (!f || fputs(cur, f) < 0 || fclose(f))
		die(path);
	more(" high=%s", cur);
	for (i = 0; i < mem_n; i += page)
		mem[i] = (char)i;
}

static void memory_end(void)
{
	shm->truth = mem_pressure_ns() - shm->truth;
	more(" high_events=%lld", mem_high_events() - high_events);
}

static void server(void)
{
	net_server(arg[0], arg[1], NET_PORT, arg[2], strcmp(arg[2], "now") ? num(3) : 0,
		   aux_fd2);
}

static void net_prep(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(NET_PORT) };
	struct sockaddr_in me;
	socklen_t len = sizeof(me);
	int p[2], one = 1;

	need(3);
	if (pipe(p) || inet_pton(AF_INET, arg[1], &sa.sin_addr) != 1)
		die("net");
	aux_fd2 = p[1];
	fork_helper(server);
	close(p[1]);
	aux_fd2 = p[0];
	xread(aux_fd2);
	aux_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (aux_fd < 0 || connect(aux_fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(aux_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    getsockname(aux_fd, (struct sockaddr *)&me, &len))
		die("connect");
	shm->culprit = strcmp(arg[2], "now") ? helper : 0;
	more(" lport=%d", ntohs(me.sin_port));
}

static void net_stall(void)
{
	char b;

	if (write(aux_fd, "q", 1) != 1 || read(aux_fd, &b, 1) != 1)
		die("client");
}

static void net_end(void)
{
	long long sent;

	if (read(aux_fd2, &sent, sizeof(sent)) != sizeof(sent))
		die("server time");
	close(aux_fd);
	if (strcmp(arg[2], "now"))
		shm->truth = sent - shm->start;
}

/* a helper that sleeps, then writes a byte to aux_fd (a pty) or sends it (udp) */
static void sleeper(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(NET_PORT) };

	xread(start_pipe[0]);
	shm->a = mono_ns();
	sleep_ms(num(0));
	shm->b = mono_ns();
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (aux_fd2 >= 0 ? sendto(aux_fd2, "x", 1, 0, (struct sockaddr *)&sa, sizeof(sa)) != 1
			 : write(aux_fd, "x", 1) != 1)
		die("sleeper");
}

static void pty_prep(void)
{
	struct termios tio;
	int slave;

	aux_fd = posix_openpt(O_RDWR | O_NOCTTY);
	if (aux_fd < 0 || grantpt(aux_fd) || unlockpt(aux_fd))
		die("posix_openpt");
	slave = open(ptsname(aux_fd), O_RDWR | O_NOCTTY);
	if (slave < 0 || tcgetattr(slave, &tio))
		die("pty slave");
	cfmakeraw(&tio);		/* a read returns with the first byte */
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	if (tcsetattr(slave, TCSANOW, &tio))
		die("tcsetattr");
	fork_helper(sleeper);
	shm->culprit = helper;
	aux_fd = slave;
}

static void udp_prep(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(NET_PORT) };

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	aux_fd = socket(AF_INET, SOCK_DGRAM, 0);
	aux_fd2 = socket(AF_INET, SOCK_DGRAM, 0);
	if (aux_fd < 0 || aux_fd2 < 0 || bind(aux_fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("udp");
	fork_helper(sleeper);
	shm->culprit = helper;
}

/* a helper in network namespace arg[0] that sends a datagram to arg[1] on the go */
static void udp_sender(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(NET_PORT) };
	int fd = open(arg[0], O_RDONLY), s;

	if (fd < 0 || setns(fd, CLONE_NEWNET) || inet_pton(AF_INET, arg[1], &sa.sin_addr) != 1)
		die("udp sender");
	close(fd);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0)
		die("udp sender socket");
	xread(start_pipe[0]);
	if (sendto(s, "x", 1, 0, (struct sockaddr *)&sa, sizeof(sa)) != 1)
		die("udp send");
}

static void udplink_prep(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(NET_PORT) };

	need(2);
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	aux_fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (aux_fd < 0 || bind(aux_fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("udp");
	fork_helper(udp_sender);
	shm->culprit = 0;
}

/* pty, udp and udplink: go, and read the byte */
static void sleeper_stall(void)
{
	char c;

	xwrite(start_pipe[1], 'g');
	if (read(aux_fd, &c, 1) != 1)
		die("read");
}

static void sleeper_end(void)
{
	shm->truth = shm->b - shm->a;
}

static void sigtimer_prep(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		die("sigprocmask");
}

static void sigtimer(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec its = { .it_value = { num(0) / 1000, (num(0) % 1000) * 1000000L } };
	timer_t t;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (timer_create(CLOCK_MONOTONIC, &ev, &t) || timer_settime(t, 0, &its, NULL) ||
	    sigwaitinfo(&set, NULL) != SIGUSR1)
		die("timer");
	timer_delete(t);
}

static void sigtimeout(void)
{
	struct timespec ts = { num(0) / 1000, (num(0) % 1000) * 1000000L };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigtimedwait(&set, NULL, &ts) != -1 || errno != EAGAIN)
		die("sigtimedwait");
}

/* truth: the subject's own count, or the kind's (set by its end) */
enum truth { T_RUN, T_QUEUED, T_BLOCKED, T_KIND };

static const struct kind {
	const char *name;
	int nargs;
	void (*prep)(void), (*stall)(void), (*end)(void);
	enum truth truth;
} kinds[] = {
	{ "run", 1, NULL, run, NULL, T_RUN },
	{ "contention", 1, contention_prep, contention, reap_helper, T_QUEUED },
	{ "throttled", 2, throttled_prep, throttled, throttled_end, T_KIND },
	{ "timer", 1, NULL, timer, NULL, T_BLOCKED },
	{ "futex", 1, futex_prep, futex_stall, futex_end, T_BLOCKED },
	{ "rwsem", 2, rwsem_prep, rwsem_stall, rwsem_end, T_BLOCKED },
	{ "stopped", 1, stopped_prep, stopped, stopped_end, T_KIND },
	{ "read", 2, read_prep, read_stall, NULL, T_BLOCKED },
	{ "fsync", 2, fsync_prep, fsync_stall, NULL, T_BLOCKED },
	{ "mmap", 1, mmap_prep, mmap_stall, NULL, T_BLOCKED },
	{ "swap", 2, swap_prep, swap_stall, NULL, T_BLOCKED },
	{ "memory", 3, memory_prep, memory_stall, memory_end, T_KIND },
	{ "net", 3, net_prep, net_stall, net_end, T_BLOCKED },
	{ "pty", 1, pty_prep, sleeper_stall, sleeper_end, T_KIND },
	{ "udp", 1, udp_prep, sleeper_stall, sleeper_end, T_KIND },
	{ "udplink", 2, udplink_prep, sleeper_stall, reap_helper, T_BLOCKED },
	{ "sigtimer", 1, sigtimer_prep, sigtimer, NULL, T_BLOCKED },
	{ "sigtimeout", 1, sigtimer_prep, sigtimeout, NULL, T_BLOCKED },
};

static const struct kind *kind;
static int locked[2], go[2], rel[2];

static void subject(void)
{
	struct waits w;
	long long c0;

	if (pin(1))
		die("pin");
	shm->subject = getpid();
	shm->culprit = getpid();
	if (kind->prep)
		kind->prep();
	pthread_mutex_lock(&shm->chain);
	xwrite(locked[1], 'L');
	xread(go[0]);
	c0 = cputime();
	cur_waits = &w;
	waits_begin(&w);
	shm->start = mono_ns();
	kind->stall();
	shm->end = mono_ns();
	pthread_mutex_unlock(&shm->chain);
	xwrite(rel[1], 'r');
	shm->held_run = cputime() - c0;
	waits_end(&w, shm->start, shm->end);	/* (reading /proc: after the waits) */
	shm->run = w.run;
	shm->queued = w.queued;
	shm->blocked = w.blocked;
	if (kind->end)
		kind->end();
	if (kind->truth != T_KIND)
		shm->truth = kind->truth == T_RUN ? w.run :
			     kind->truth == T_QUEUED ? w.queued : w.blocked;
	if (helper > 0 && kind->end != reap_helper)
		reap_helper();
	exit(0);
}

struct waiter {
	pthread_t th;
	atomic_int tid;
	long long t0, t1;
	int pipe;		/* the pipe waiter, else the mutex waiter */
};

static void *waiter(void *p)
{
	struct waiter *w = p;

	atomic_store(&w->tid, pl_tid());
	w->t0 = mono_ns();
	if (w->pipe) {
		xread(rel[0]);
	} else {
		pthread_mutex_lock(&shm->chain);
		pthread_mutex_unlock(&shm->chain);
	}
	w->t1 = mono_ns();
	return NULL;
}

int main(int argc, char **argv)
{
	struct waiter mw = { .pipe = 0 }, pw = { .pipe = 1 };
	pthread_mutexattr_t ma;
	size_t i;
	pid_t pid;
	int st;

	for (i = 0; argc > 1 && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(argv[1], kinds[i].name) && argc - 2 >= kinds[i].nargs)
			kind = &kinds[i];
	if (!kind) {
		fprintf(stderr, "usage: catalogue KIND ARGS... (tests/vm/progs/catalogue.c)\n");
		return 2;
	}
	arg = argv + 2;
	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED || pthread_mutexattr_init(&ma) ||
	    pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED) ||
	    pthread_mutex_init(&shm->chain, &ma) || pipe(locked) || pipe(go) || pipe(rel) || pipe(helpers_go) ||
	    pin(0))
		die("setup");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		subject();
	xread(locked[0]);
	if (pthread_create(&mw.th, NULL, waiter, &mw) || pthread_create(&pw.th, NULL, waiter, &pw))
		die("pthread_create");
	while (!atomic_load(&mw.tid) || !atomic_load(&pw.tid))
		sched_yield();
	wait_state(getpid(), atomic_load(&mw.tid), 'S');
	wait_state(getpid(), atomic_load(&pw.tid), 'S');
	xwrite(helpers_go[1], 'g');
	xwrite(go[1], 'g');
	pthread_join(mw.th, NULL);
	pthread_join(pw.th, NULL);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "catalogue: the subject failed\n");
		return 1;
	}
	printf("kind=%s subject=%d culprit=%d start_ns=%lld end_ns=%lld truth_ns=%lld run_ns=%lld "
	       "queued_ns=%lld blocked_ns=%lld mw=%d mw_start_ns=%lld mw_end_ns=%lld pw=%d "
	       "pw_start_ns=%lld pw_end_ns=%lld held_run_ns=%lld%s\n", kind->name, shm->subject, shm->culprit,
	       shm->start, shm->end, shm->truth, shm->run, shm->queued, shm->blocked,
	       atomic_load(&mw.tid), mw.t0, mw.t1, atomic_load(&pw.tid), pw.t0, pw.t1, shm->held_run,
	       shm->more);
	return 0;
}
