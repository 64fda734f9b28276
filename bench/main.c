// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-bench: TIPME's reproducing microbenchmarks.
 *
 *   tipme-bench paging    [options]     section 4.1.1, the paging stall
 *   tipme-bench forkstorm [options]     section 4.2.1, the fork storm
 *
 * Exit status: 0 done, 1 the run failed, 2 bad options.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

static void on_signal(int sig)
{
	(void)sig;
	bench_interrupted = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tipme-bench paging|forkstorm [options]\n"
		"       tipme-bench paging|forkstorm --help\n"
		"\n"
		"TIPME's reproducing microbenchmarks (Endo & Seltzer, 2000), scaled to\n"
		"today's machines, with histograms in 10 ms buckets and an optional\n"
		"tipme dump when a sample is too slow (--trigger-above).\n"
		"\n"
		"  paging     section 4.1.1: a timing process that sleeps and touches a\n"
		"             page, against N children paging in a small memory cgroup\n"
		"  forkstorm  section 4.2.1: a compute/sleep task against a CPU-bound\n"
		"             process (load A) or one re-forked every 2 s (load B)\n"
		"\n"
		"See Documentation/benchmarks.md.\n");
}

static void fill_machine(struct bench_result *r)
{
	uint64_t kb;

	uname(&r->uts);
	r->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	r->page_size = sysconf(_SC_PAGESIZE);
	if (!sys_proc_key("/proc/meminfo", "MemTotal", &kb))
		r->mem_total = kb << 10;
	if (!sys_proc_key("/proc/meminfo", "SwapTotal", &kb))
		r->swap_total = kb << 10;
	if (!sys_proc_key("/proc/meminfo", "SwapFree", &kb))
		r->swap_free = kb << 10;
	r->started_real_ns = real_ns();
}

int main(int argc, char **argv)
{
	static struct bench_result r;
	struct sigaction sa = { .sa_handler = on_signal };
	struct bench_env env;
	struct tm_err e = { "" };
	int err, fd;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	err = bench_parse(argc - 1, argv + 1, &env, &e);
	if (err == 1) {
		bench_usage(stdout, env.kind);
		return 0;
	}
	if (err) {
		if (env.kind)
			fprintf(stderr, "tipme-bench %s: %s (see tipme-bench %s --help)\n",
				argv[1], e.msg, argv[1]);
		else
			fprintf(stderr, "tipme-bench: %s (see tipme-bench --help)\n", e.msg);
		return 2;
	}
	if (env.svg_path) {
		/* fail now rather than after a long run */
		fd = open(env.svg_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0) {
			fprintf(stderr, "tipme-bench: error: --svg: cannot create %s: %s\n",
				env.svg_path, strerror(errno));
			return 1;
		}
		close(fd);
	}
	r.env = &env;
	fill_machine(&r);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (env.kind == BENCH_PAGING)
		err = paging_run(&env, &r, &e);
	else
		err = forkstorm_run(&env, &r, &e);
	if (err) {
		fprintf(stderr, "tipme-bench %s: error: %s\n", argv[1], e.msg);
		bench_result_free(&r);
		return 1;
	}
	if (env.json)
		err = bench_results_json(stdout, &r);
	else
		err = bench_results_text(stdout, &r);
	if (!err && fflush(stdout))
		err = -errno;
	if (err) {
		fprintf(stderr, "tipme-bench: error: writing the results: %s\n", strerror(-err));
		bench_result_free(&r);
		return 1;
	}
	if (env.svg_path) {
		err = bench_results_svg(env.svg_path, &r, &e);
		if (err) {
			fprintf(stderr, "tipme-bench: error: %s\n", e.msg);
			bench_result_free(&r);
			return 1;
		}
	}
	bench_result_free(&r);
	return 0;
}
