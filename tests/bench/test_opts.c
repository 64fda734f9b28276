// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-bench's command line: defaults, --short, sizes, lists, and a clear
 * message for every bad option.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "tap.h"

static struct bench_env env;
static struct tm_err err;

/* Parse NULL-terminated arguments (the subcommand first). */
static int parse(const char *a0, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	const char *s;

	argv[argc++] = (char *)a0;
	va_start(ap, a0);
	while ((s = va_arg(ap, const char *)) && argc < 31)
		argv[argc++] = (char *)s;
	va_end(ap);
	argv[argc] = NULL;
	err.msg[0] = '\0';
	return bench_parse(argc, argv, &env, &err);
}

/* A usage error whose message contains @want. */
static void bad(const char *want, int rc)
{
	if (!tap_ok(rc < 0 && strstr(err.msg, want), "rejected: %s", want))
		tap_diag("rc %d, message '%s'", rc, err.msg);
}

static void test_helpers(void)
{
	uint64_t v = 0;
	unsigned int l[16];
	size_t n;

	tap_ok(!bench_parse_size("4K", &v) && v == 4096 && !bench_parse_size("16M", &v) &&
	       v == 16ull << 20 && !bench_parse_size("1g", &v) && v == 1ull << 30 &&
	       !bench_parse_size("2MiB", &v) && v == 2ull << 20 && !bench_parse_size("10", &v) &&
	       v == 10, "sizes: K, M, G, MiB, bytes");
	tap_ok(bench_parse_size("-5M", &v) == -ERANGE && bench_parse_size("", &v) == -EINVAL &&
	       bench_parse_size("5X", &v) == -EINVAL && bench_parse_size("M", &v) == -EINVAL &&
	       bench_parse_size("99999999999999999999", &v) == -EOVERFLOW &&
	       bench_parse_size("17179869184G", &v) == -EOVERFLOW,
	       "sizes: negative, empty, bad suffix, overflow");
	tap_ok(!bench_parse_time("2.5", NS_PER_SEC, &v) && v == 2500000000ull &&
	       !bench_parse_time("0.5", NS_PER_MS, &v) && v == 500000 &&
	       bench_parse_time("-1", NS_PER_MS, &v) == -ERANGE &&
	       bench_parse_time("nan", NS_PER_MS, &v) == -EINVAL &&
	       bench_parse_time("inf", NS_PER_MS, &v) == -EINVAL &&
	       bench_parse_time("1x", NS_PER_MS, &v) == -EINVAL, "times: decimals, negative, nan, junk");
	tap_ok(!bench_parse_list("1-8", l, 16, &n, 1, 64) && n == 8 && l[0] == 1 && l[7] == 8 &&
	       !bench_parse_list("1,2,4", l, 16, &n, 1, 64) && n == 3 && l[2] == 4 &&
	       !bench_parse_list("2-4,8", l, 16, &n, 1, 64) && n == 4 && l[3] == 8,
	       "lists: ranges and commas");
	tap_ok(bench_parse_list("0", l, 16, &n, 1, 64) == -ERANGE &&
	       bench_parse_list("4-2", l, 16, &n, 1, 64) == -EINVAL &&
	       bench_parse_list("1-20", l, 16, &n, 1, 64) == -E2BIG &&
	       bench_parse_list("1,", l, 16, &n, 1, 64) == -EINVAL &&
	       bench_parse_list("-1", l, 16, &n, 1, 64) == -ERANGE, "lists: zero, reversed, too many, junk");
}

static void test_defaults(void)
{
	tap_ok(!parse("paging", NULL) && env.kind == BENCH_PAGING && env.samples == 10000 &&
	       env.nr_children == 1 && env.children[0] == 4 && env.child_size == 32ull << 20 &&
	       env.timer_size == 4ull << 20 && env.sleep_ns == 100 * NS_PER_MS &&
	       env.memory_max == 96ull << 20 && env.cpu == CPU_NONE && env.zram == ZRAM_AUTO &&
	       !env.time_limit_ns && env.socket_path && !env.trigger_above_ns,
	       "paging defaults: the paper's 10,000 samples, 4 MiB timer buffer, 100 ms");
	tap_ok(!parse("paging", "--short", NULL) && env.samples == 100 && env.children[0] == 2 &&
	       env.child_size == 16ull << 20 && env.memory_max == 24ull << 20 &&
	       env.time_limit_ns == 60 * NS_PER_SEC, "paging --short");
	tap_ok(!parse("paging", "-n", "7", "--short", "-c", "1-3", "--memory-max", "max", NULL) &&
	       env.samples == 7 && env.nr_children == 3 && env.memory_max == 0,
	       "--short keeps what was given");
	tap_ok(!parse("forkstorm", NULL) && env.kind == BENCH_FORKSTORM && env.samples == 10000 &&
	       env.nr_loads == 2 && env.loads[0] == LOAD_A && env.loads[1] == LOAD_B &&
	       env.compute_ns == 10 * NS_PER_MS && env.sleep_ns == 50 * NS_PER_MS &&
	       env.fork_period_ns == 2 * NS_PER_SEC && env.cpu == CPU_AUTO,
	       "forkstorm defaults: 10 ms compute, 50 ms sleep, 2 s forks, pinned");
	tap_ok(!parse("forkstorm", "--short", "--load", "none,b", "--cpu", "none",
		      "--trigger-above", "150", "--trigger-spacing", "30", NULL) &&
	       env.samples == 200 && env.nr_loads == 2 && env.loads[0] == LOAD_NONE &&
	       env.loads[1] == LOAD_B && env.cpu == CPU_NONE &&
	       env.trigger_above_ns == 150 * NS_PER_MS && env.trigger_spacing_ns == 30 * NS_PER_SEC,
	       "forkstorm options");
	tap_ok(!parse("paging", "--zram", "256M", "--swap-delay", "20", "--cgroup", "/x",
		      "--timer-outside", "--cpu", "1", "--svg", "f.svg", "--json", "-q", NULL) &&
	       env.zram == ZRAM_SIZE && env.zram_size == 256ull << 20 && env.swap_delay_ms == 20 &&
	       env.swap_write_delay_ms == 0 &&
	       !strcmp(env.cgroup_parent, "/x") && env.timer_outside && env.cpu == 1 &&
	       env.json && env.quiet && !strcmp(env.svg_path, "f.svg"), "paging options");
	tap_ok(!parse("paging", "--swap-delay", "20,5", NULL) && env.swap_delay_ms == 20 &&
	       env.swap_write_delay_ms == 5, "--swap-delay READ,WRITE");
	tap_ok(parse("paging", "--help", NULL) == 1 && env.kind == BENCH_PAGING &&
	       parse("forkstorm", "-h", NULL) == 1, "--help");
}

static void test_errors(void)
{
	bad("--samples: must be at least 1", parse("paging", "-n", "0", NULL));
	bad("--samples: must be at least 1", parse("forkstorm", "--samples", "0", NULL));
	bad("--samples: '-3': must not be negative", parse("paging", "-n", "-3", NULL));
	bad("--samples: '10k': not a valid value", parse("paging", "-n", "10k", NULL));
	bad("--child-size: '-5M': must not be negative", parse("paging", "--child-size", "-5M", NULL));
	bad("--child-size: at least one stride", parse("paging", "--child-size", "0", NULL));
	bad("--timer-size: '-1': must not be negative", parse("paging", "--timer-size", "-1", NULL));
	bad("--memory-max: must be more than 0", parse("paging", "--memory-max", "0", NULL));
	bad("--memory-max: '-64M': must not be negative", parse("paging", "--memory-max", "-64M", NULL));
	bad("--memory-max: at least 1M", parse("paging", "--memory-max", "4K", NULL));
	bad("--children: '0': each value from 1 to 64", parse("paging", "-c", "0", NULL));
	bad("--children: '65': each value from 1 to 64", parse("paging", "-c", "65", NULL));
	bad("--children: '1-20': at most 16 runs", parse("paging", "-c", "1-20", NULL));
	bad("--children: '3-1'", parse("paging", "--children", "3-1", NULL));
	bad("--stride: a multiple of 8", parse("paging", "--stride", "12", NULL));
	bad("--trigger-above: '-1': must not be negative", parse("paging", "--trigger-above", "-1", NULL));
	bad("--trigger-above: must be more than 0", parse("forkstorm", "--trigger-above", "0", NULL));
	bad("--trigger-spacing: must be more than 0", parse("forkstorm", "--trigger-spacing", "0", NULL));
	bad("--sleep: '-1': must not be negative", parse("forkstorm", "--sleep", "-1", NULL));
	bad("--compute: must be more than 0", parse("forkstorm", "--compute", "0", NULL));
	bad("--fork-period: '-2': must not be negative", parse("forkstorm", "--fork-period", "-2", NULL));
	bad("--load: 'C'", parse("forkstorm", "--load", "C", NULL));
	bad("--zram: '512K'", parse("paging", "--zram", "512K", NULL));
	bad("--zram: 'lots': not a valid value", parse("paging", "--zram", "lots", NULL));
	bad("--swap-delay needs a zram swap", parse("paging", "--zram", "no", "--swap-delay", "5", NULL));
	bad("--swap-delay: '-5'", parse("paging", "--swap-delay", "-5", NULL));
	bad("--swap-delay: '0,5'", parse("paging", "--swap-delay", "0,5", NULL));
	bad("--no-cgroup cannot be combined", parse("paging", "--no-cgroup", "--memory-max", "64M", NULL));
	bad("--cpu: 'x': not a valid value", parse("forkstorm", "--cpu", "x", NULL));
	bad("option --load is for 'tipme-bench forkstorm'", parse("paging", "--load", "A", NULL));
	bad("option --children is for 'tipme-bench paging'", parse("forkstorm", "--children=2", NULL));
	bad("unknown option '--frobnicate'", parse("paging", "--frobnicate", NULL));
	bad("unknown option '-x'", parse("paging", "-x", NULL));
	bad("option --samples needs a value", parse("paging", "--samples", NULL));
	bad("unexpected argument 'extra'", parse("forkstorm", "extra", NULL));
	bad("unknown subcommand 'bogus'", parse("bogus", NULL));
	tap_ok(!parse("paging", "-n", "5", NULL) && env.samples == 5,
	       "a good parse after bad ones (getopt is reset)");
}

int main(void)
{
	tap_plan(5 + 8 + 37);
	test_helpers();
	test_defaults();
	test_errors();
	return tap_done();
}
