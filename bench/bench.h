/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipme-bench: TIPME's two reproducing microbenchmarks (Endo & Seltzer,
 * SIGMETRICS 2000), the paging stall (section 4.1.1) and the fork storm
 * (section 4.2.1), scaled to today's machines.
 *
 *   tipme-bench paging    [options]
 *   tipme-bench forkstorm [options]
 *
 * The programs of this directory:
 *   opts.c       command line -> struct bench_env (no side effects)
 *   stats.c      min/median/p99/max, counts over 150 ms / 1 s, histograms
 *   svg.c        the histogram figure
 *   results.c    text and --json output of a struct bench_result
 *   sys.c        cgroup v2, swap and zram, /proc readers, worker processes
 *   trigger.c    --trigger-above: tipmed's control socket, else the sysctl
 *   calib.c      the calibrated compute loop
 *   paging.c, forkstorm.c   the benchmarks
 *   main.c       subcommand dispatch
 *
 * Library-style code returns a negative errno and fills a struct tm_err;
 * only main() prints errors and exits (2: bad options, 1: run failed).
 */
#ifndef TIPME_BENCH_H
#define TIPME_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include "err.h"

#define NS_PER_MS		1000000ull
#define NS_PER_SEC		1000000000ull
#define BENCH_MAX_SERIES	16
#define BENCH_MAX_TRIGGERS	32
#define BENCH_MAX_CHILDREN	64
#define BENCH_BUCKET_NS		(10 * NS_PER_MS)	/* the paper's 10 ms buckets */

enum bench_kind { BENCH_PAGING = 1, BENCH_FORKSTORM };

/* Fork-storm loads (section 4.2.1): none is a baseline of our own. */
enum fs_load { LOAD_NONE, LOAD_A, LOAD_B };

/* --zram */
enum zram_mode { ZRAM_AUTO, ZRAM_NO, ZRAM_SIZE };

/* --cpu */
#define CPU_AUTO	(-2)	/* forkstorm: the first CPU we may run on */
#define CPU_NONE	(-1)	/* no pinning */

/**
 * struct bench_env - every option of one run (opts.c fills it)
 * @kind: which benchmark
 * @short_mode: --short: defaults for tests and the demo
 * @json: --json: JSON on stdout instead of text
 * @quiet: -q: no progress lines on stderr
 * @svg_path: --svg FILE, or NULL
 * @samples: samples per series (-n)
 * @cpu: CPU to pin every process to, CPU_AUTO or CPU_NONE
 * @trigger_above_ns: --trigger-above, 0 if off
 * @trigger_spacing_ns: --trigger-spacing, 0: once per run
 * @socket_path: tipmed's control socket
 * @time_limit_ns: --time-limit per series, 0: none
 * @children: paging: numbers of children, one series each
 * @nr_children: how many
 * @child_size: bytes each child writes
 * @timer_size: bytes the timing process reads
 * @stride: bytes between the words touched
 * @sleep_ns: the timing process's (paging) or measurement task's sleep
 * @memory_max: memory.max of the benchmark's cgroup, 0: "max"
 * @cgroup_parent: where to create it (NULL: the cgroup2 mount's root)
 * @no_cgroup: run without a cgroup (no deliberate pressure)
 * @timer_outside: the timing process stays out of the cgroup
 * @zram: swap device policy
 * @zram_size: size for ZRAM_SIZE
 * @swap_delay_ms: a dm-delay device on the zram swap: ms added to reads
 *	(swap-ins), 0: no delay device
 * @swap_write_delay_ms: ... and to writes (swap-outs)
 * @loads: forkstorm: the loads, one series each
 * @nr_loads: how many
 * @compute_ns: computation per iteration
 * @fork_period_ns: load B forks a child this often
 */
struct bench_env {
	enum bench_kind kind;
	int short_mode, json, quiet;
	const char *svg_path;
	uint64_t samples;
	int cpu;
	uint64_t trigger_above_ns, trigger_spacing_ns;
	const char *socket_path;
	uint64_t time_limit_ns;
	/* paging */
	unsigned int children[BENCH_MAX_SERIES];
	size_t nr_children;
	uint64_t child_size, timer_size, stride, sleep_ns, memory_max;
	const char *cgroup_parent;
	int no_cgroup, timer_outside;
	enum zram_mode zram;
	uint64_t zram_size;
	unsigned int swap_delay_ms, swap_write_delay_ms;
	/* forkstorm */
	enum fs_load loads[BENCH_MAX_SERIES];
	size_t nr_loads;
	uint64_t compute_ns, fork_period_ns;
};

/**
 * struct bench_sample - one measurement
 * @end_ns: CLOCK_MONOTONIC when it was taken (the paper's TSC stamp)
 * @val_ns: paging: time beyond the sleep until the word was read;
 *          forkstorm: interval since the previous timestamp
 * @aux_ns: paging: the read alone (wake-up to word); forkstorm: the
 *          computation of this iteration
 * @majflt: paging: major faults of the timing process in this iteration
 */
struct bench_sample {
	uint64_t end_ns, val_ns, aux_ns, majflt;
};

/**
 * struct bench_stats - summary of a set of durations (stats.c)
 * Percentiles are nearest-rank; the median of an even count is the mean of
 * the two middle values.  "over" counts are strictly greater than.
 */
struct bench_stats {
	size_t n;
	uint64_t min_ns, median_ns, p99_ns, max_ns;
	double mean_ns;
	size_t over_150ms, over_1s;
};

/* Memory-pressure evidence of one paging series (deltas over the series). */
struct bench_pressure {
	int have_vmstat, have_cgroup;
	uint64_t pswpin, pswpout;		/* /proc/vmstat, whole machine */
	uint64_t cg_pgmajfault, cg_refault_anon;	/* memory.stat */
	uint64_t cg_ev_max, cg_ev_oom, cg_ev_oom_kill;	/* memory.events */
	uint64_t cg_swap_peak;			/* memory.swap.current, sampled */
	uint64_t timer_majflt;			/* the timing process's own */
};

/**
 * struct bench_series - one configuration's results
 * @label: "N=4", "load B", ...
 * @children: paging: N
 * @load: forkstorm: the load
 * @s: samples in time order
 * @n: how many
 * @started_ns: CLOCK_MONOTONIC when measurement began
 * @ended_ns: ... and ended
 * @stopped_early: the time limit ended the series
 * @forks: forkstorm load B: CLOCK_MONOTONIC of every fork
 * @nr_forks: how many
 */
struct bench_series {
	char label[48];
	unsigned int children;
	enum fs_load load;
	struct bench_sample *s;
	size_t n, cap;
	uint64_t started_ns, ended_ns;
	int stopped_early;
	struct bench_pressure pr;
	uint64_t *forks;
	size_t nr_forks, forks_cap;
};

/**
 * struct bench_trigger - one dump request made by --trigger-above
 * @series: index of the series
 * @index: the sample's index in it
 * @sample: the sample
 * @mono_ns: CLOCK_MONOTONIC when the request was made
 * @via: "socket", "sysctl" or "none" (both failed)
 * @seq: tipmed's trigger sequence number (socket only)
 * @coalesced: the kernel coalesced it with a recent trigger (socket only)
 * @error: why the socket (and the sysctl) failed, or ""
 */
struct bench_trigger {
	size_t series, index;
	struct bench_sample sample;
	uint64_t mono_ns;
	const char *via;
	uint64_t seq, coalesced;
	char error[1024];
};

/* The calibrated compute loop (calib.c). */
struct bench_calib {
	uint64_t target_ns;
	uint64_t loops;		/* iterations for target_ns */
	double ns_per_loop;
	uint64_t check_ns[5];	/* target_ns measured five times after */
};

/**
 * struct bench_result - everything a run measured, for results.c
 */
struct bench_result {
	const struct bench_env *env;
	struct utsname uts;
	long cpus_online;
	uint64_t mem_total, swap_total, swap_free;	/* bytes, at start */
	char swap_desc[320];		/* what swap the run used */
	char cgroup_parent[256];	/* "" without a cgroup */
	int cpu;			/* CPU pinned to, or CPU_NONE */
	long page_size;
	long page_cluster, swappiness;	/* vm.*, -1 if unknown */
	struct bench_calib calib;
	int have_calib;
	struct bench_series series[BENCH_MAX_SERIES];
	size_t nr_series;
	struct bench_trigger trig[BENCH_MAX_TRIGGERS];
	size_t nr_trig;
	uint64_t trig_suppressed;	/* samples above, not triggered (spacing) */
	uint64_t started_real_ns;	/* CLOCK_REALTIME at start */
};

/* opts.c */
int bench_parse(int argc, char **argv, struct bench_env *env, struct tm_err *e);
void bench_usage(FILE *f, enum bench_kind kind);
int bench_parse_size(const char *s, uint64_t *bytes);
int bench_parse_time(const char *s, uint64_t unit_ns, uint64_t *ns);
int bench_parse_list(const char *s, unsigned int *v, size_t max, size_t *n,
		     unsigned int lo, unsigned int hi);
const char *bench_load_name(enum fs_load load);

/* stats.c */
int bench_stats(const uint64_t *v, size_t n, struct bench_stats *st);
size_t bench_hist(const uint64_t *v, size_t n, uint64_t width_ns,
		  uint64_t **counts);
int bench_series_values(const struct bench_series *s, int aux, uint64_t **out);
int bench_series_push(struct bench_series *s, const struct bench_sample *x);
int bench_series_fork(struct bench_series *s, uint64_t t);
void bench_series_free(struct bench_series *s);
void bench_result_free(struct bench_result *r);

/* svg.c */
struct svg_series {
	const char *label;
	const uint64_t *counts;
	size_t nr;
};
int bench_svg(FILE *f, const char *title, const char *xlabel,
	      const struct svg_series *s, size_t n, uint64_t width_ns);

/* results.c */
int bench_results_text(FILE *f, const struct bench_result *r);
int bench_results_json(FILE *f, const struct bench_result *r);
int bench_results_svg(const char *path, const struct bench_result *r,
		     struct tm_err *e);

/* sys.c */
uint64_t mono_ns(void);
uint64_t real_ns(void);
int sys_cgroup2_root(char *out, size_t len, struct tm_err *e);
int sys_cgroup_prepare(const char *parent, struct tm_err *e);
int sys_cgroup_create(const char *parent, const char *name, char *path,
		      size_t len, struct tm_err *e);
int sys_cgroup_write(const char *cg, const char *file, const char *val,
		     struct tm_err *e);
int sys_cgroup_key(const char *cg, const char *file, const char *key,
		   uint64_t *v);
int sys_cgroup_u64(const char *cg, const char *file, uint64_t *v);
int sys_cgroup_remove(const char *cg, struct tm_err *e);
int sys_proc_key(const char *path, const char *key, uint64_t *v);
int sys_swap_active(char *desc, size_t len);

/**
 * struct zram_swap - a zram swap device this run created
 * @id: N of /dev/zramN, -1 if none
 * @size: its disksize
 * @dev: the swap device: "/dev/zramN", or the delay device on top of it
 * @dm_name: the delay device's name, "" if none
 * @swapped_on: swapon() succeeded
 */
struct zram_swap {
	int id;
	uint64_t size;
	char dev[64];
	char dm_name[32];
	int swapped_on;
};
int sys_zram_create(uint64_t size, unsigned int delay_ms,
		    unsigned int write_delay_ms, struct zram_swap *z,
		    struct tm_err *e);
void sys_zram_remove(struct zram_swap *z);

/**
 * struct worker - a process the benchmark forked
 * @pid: its pid, 0 if none
 * @pidfd: a pidfd (readable once it exits), -1 if unavailable
 * @go: write end of its start pipe
 * @name: for messages
 */
struct worker {
	pid_t pid;
	int pidfd, go;
	char name[32];
};
typedef void (*worker_fn)(void *arg);
int sys_spawn(struct worker *w, const char *name, worker_fn fn, void *arg,
	      const char *cgroup, int cpu, const int *keep, size_t nkeep,
	      struct tm_err *e);
int sys_start(struct worker *w, struct tm_err *e);
int sys_wait_go(void);
void sys_stop(struct worker *w, int sig);
int sys_pin_self(int cpu);
int sys_first_cpu(void);
int sys_write_all(int fd, const void *buf, size_t len);
int sys_sleep_ns(uint64_t ns);
void sys_status_str(int status, char *buf, size_t len);

/* trigger.c */
struct trig_policy {
	uint64_t above_ns, spacing_ns;
	unsigned int fired;
	uint64_t last_ns;
};
void trig_init(struct trig_policy *p, uint64_t above_ns, uint64_t spacing_ns);
int trig_due(struct trig_policy *p, uint64_t now_ns, uint64_t val_ns);
void trig_request(const char *socket_path, const char *reason,
		  struct bench_trigger *t);
void trig_check(struct bench_result *r, struct trig_policy *p, size_t series,
		size_t index, const struct bench_sample *x, const char *what);

/* calib.c */
uint64_t calib_spin(uint64_t loops);
int calib_run(uint64_t target_ns, struct bench_calib *c);

/* paging.c, forkstorm.c */
int paging_run(const struct bench_env *env, struct bench_result *r,
	       struct tm_err *e);
int forkstorm_run(const struct bench_env *env, struct bench_result *r,
		  struct tm_err *e);

/* main.c: progress lines on stderr (silenced by -q) */
void bench_progress(const struct bench_env *env, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
extern volatile int bench_interrupted;

#endif
