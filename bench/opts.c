// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-bench's command line.  bench_parse() only fills a struct
 * bench_env: it touches nothing, so the unit tests run it freely.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bench.h"
#include "ctlproto.h"

enum {
	OPT_SHORT = 0x100, OPT_JSON, OPT_SVG, OPT_CPU, OPT_TRIG_ABOVE,
	OPT_TRIG_SPACING, OPT_SOCKET, OPT_TIME_LIMIT, OPT_CHILD_SIZE,
	OPT_TIMER_SIZE, OPT_STRIDE, OPT_SLEEP, OPT_MEMORY_MAX, OPT_CGROUP,
	OPT_NO_CGROUP, OPT_TIMER_OUTSIDE, OPT_ZRAM, OPT_LOAD, OPT_COMPUTE,
	OPT_FORK_PERIOD, OPT_SWAP_DELAY,
};

#define COMMON_OPTS \
	{ "samples", required_argument, NULL, 'n' }, \
	{ "short", no_argument, NULL, OPT_SHORT }, \
	{ "json", no_argument, NULL, OPT_JSON }, \
	{ "svg", required_argument, NULL, OPT_SVG }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "cpu", required_argument, NULL, OPT_CPU }, \
	{ "trigger-above", required_argument, NULL, OPT_TRIG_ABOVE }, \
	{ "trigger-spacing", required_argument, NULL, OPT_TRIG_SPACING }, \
	{ "socket", required_argument, NULL, OPT_SOCKET }, \
	{ "time-limit", required_argument, NULL, OPT_TIME_LIMIT }, \
	{ "sleep", required_argument, NULL, OPT_SLEEP }, \
	{ "help", no_argument, NULL, 'h' }

static const struct option paging_opts[] = {
	COMMON_OPTS,
	{ "children", required_argument, NULL, 'c' },
	{ "child-size", required_argument, NULL, OPT_CHILD_SIZE },
	{ "timer-size", required_argument, NULL, OPT_TIMER_SIZE },
	{ "stride", required_argument, NULL, OPT_STRIDE },
	{ "memory-max", required_argument, NULL, OPT_MEMORY_MAX },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "no-cgroup", no_argument, NULL, OPT_NO_CGROUP },
	{ "timer-outside", no_argument, NULL, OPT_TIMER_OUTSIDE },
	{ "zram", required_argument, NULL, OPT_ZRAM },
	{ "swap-delay", required_argument, NULL, OPT_SWAP_DELAY },
	{ NULL, 0, NULL, 0 }
};

static const struct option forkstorm_opts[] = {
	COMMON_OPTS,
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "compute", required_argument, NULL, OPT_COMPUTE },
	{ "fork-period", required_argument, NULL, OPT_FORK_PERIOD },
	{ NULL, 0, NULL, 0 }
};

void bench_usage(FILE *f, enum bench_kind kind)
{
	if (kind == BENCH_PAGING) {
		fprintf(f,
"Usage: tipme-bench paging [options]\n"
"\n"
"TIPME section 4.1.1, the paging stall.  A timing process sleeps 100 ms,\n"
"reads one word of a 4 MiB buffer (the next page each time, cyclically) and\n"
"takes a timestamp; N children each write one word per page of their own\n"
"buffer, cyclically, without pause.  The children (and the timing process,\n"
"unless --timer-outside) run in a cgroup v2 memory cgroup smaller than their\n"
"buffers, with swap available, so pages are stolen and paged back in.\n"
"A sample is the time beyond the sleep until the word was read.\n"
"\n"
"Options:\n"
"  -n, --samples N        samples per value of N (default 10000; --short 100)\n"
"  -c, --children LIST    numbers of children, one run each: 4, 1-8, 1,2,4\n"
"                         (default 4; --short 2; the paper swept 1-8)\n"
"      --child-size SIZE  each child's buffer (default 32M; --short 16M)\n"
"      --timer-size SIZE  the timing process's buffer (default 4M)\n"
"      --stride SIZE      bytes between the words touched (default: the page size)\n"
"      --sleep MS         the timing process's sleep (default 100)\n"
"      --memory-max SIZE  memory.max of the cgroup, or 'max' for no limit\n"
"                         (default 96M; --short 24M)\n"
"      --cgroup DIR       create the cgroup under DIR (default: the root of\n"
"                         the cgroup2 mount); memory must be delegable there\n"
"      --no-cgroup        no cgroup: only the machine's own memory pressure\n"
"      --timer-outside    keep the timing process out of the cgroup\n"
"      --zram auto|no|SIZE  swap for the run: auto (default) creates a zram\n"
"                         swap device when active swap is too small for the\n"
"                         overflow, and removes it at the end; SIZE always\n"
"                         creates one of SIZE; no never does\n"
"      --swap-delay R[,W] swap through a dm-delay device that adds R ms to\n"
"                         every read (page-in) of the zram swap and W ms\n"
"                         (default 0) to every write: a disk's access time,\n"
"                         as the paper's machine paged to a disk (default:\n"
"                         zram alone, memory speed; needs dmsetup)\n");
	} else {
		fprintf(f,
"Usage: tipme-bench forkstorm [options]\n"
"\n"
"TIPME section 4.2.1, the fork storm.  A measurement task computes ~10 ms\n"
"(a loop calibrated at start-up), sleeps 50 ms and takes a timestamp, under\n"
"each load in turn: A, one CPU-bound process for the whole run; B, a parent\n"
"that every 2 s kills its CPU-bound child and forks a new one.  Every\n"
"process is pinned to one CPU, as on the paper's uniprocessor.\n"
"A sample is the interval between two timestamps (nominally 60 ms).\n"
"\n"
"Options:\n"
"  -n, --samples N        intervals per load (default 10000; --short 200)\n"
"      --load LIST        loads, one run each: A, B, none (default A,B)\n"
"      --compute MS       computation per iteration (default 10)\n"
"      --sleep MS         sleep per iteration (default 50)\n"
"      --fork-period MS   load B's fork period (default 2000)\n");
	}
	fprintf(f,
"\n"
"Common options:\n"
"      --cpu CPU|none     pin every process to CPU (forkstorm default: the\n"
"                         first CPU allowed; paging default: none)\n"
"      --short            short mode: few samples, small buffers (tests, demo)\n"
"      --time-limit SEC   end a run early after SEC seconds (default: none;\n"
"                         --short 60)\n"
"      --trigger-above MS when a sample exceeds MS, ask tipmed for a tipme\n"
"                         dump (control socket, else /proc/sys/tipme/trigger)\n"
"      --trigger-spacing SEC  trigger again at most every SEC seconds\n"
"                         (default: once per invocation)\n"
"      --socket PATH      tipmed's control socket (default %s)\n"
"      --json             results as JSON on stdout, every sample included\n"
"      --svg FILE         write the histogram figure (10 ms buckets) as SVG\n"
"  -q, --quiet            no progress lines on stderr\n"
"  -h, --help             this text\n"
"\n"
"Sizes take K, M, G suffixes (powers of 1024).  Exit status: 0 done,\n"
"1 the run failed, 2 bad options.\n"
"\n"
"EXAMPLES\n", TIPME_CTL_SOCKET);
	if (kind == BENCH_PAGING)
		fprintf(f,
"  tipme-bench paging --short\n"
"  tipme-bench paging -c 1-8 -n 1000 --svg paging.svg\n"
"  tipme-bench paging --memory-max max --short     # the same, no pressure\n"
"  tipme-bench paging --trigger-above 200 --json > paging.json\n");
	else
		fprintf(f,
"  tipme-bench forkstorm --short\n"
"  tipme-bench forkstorm --load none,A,B -n 2000 --svg forkstorm.svg\n"
"  tipme-bench forkstorm --trigger-above 150 --trigger-spacing 30\n");
}

/* Parse a non-negative integer with an optional K/M/G/T suffix (x1024). */
int bench_parse_size(const char *s, uint64_t *bytes)
{
	uint64_t v = 0, mul = 1;
	const char *p = s;

	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-')
		return -ERANGE;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -EOVERFLOW;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (toupper((unsigned char)*p)) {
	case 'K': mul = 1ull << 10; p++; break;
	case 'M': mul = 1ull << 20; p++; break;
	case 'G': mul = 1ull << 30; p++; break;
	case 'T': mul = 1ull << 40; p++; break;
	default: break;
	}
	if (mul > 1 && *p == 'i')
		p++;
	if (*p == 'B' || (*p == 'b' && mul > 1))
		p++;
	if (*p)
		return -EINVAL;
	if (v && mul > UINT64_MAX / v)
		return -EOVERFLOW;
	*bytes = v * mul;
	return 0;
}

/* Parse a non-negative decimal number of @unit_ns ("2.5" s, "150" ms). */
int bench_parse_time(const char *s, uint64_t unit_ns, uint64_t *ns)
{
	const char *p = s;
	char *end;
	double v;

	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-')
		return -ERANGE;
	if (!isdigit((unsigned char)*p) && *p != '.')
		return -EINVAL;
	errno = 0;
	v = strtod(p, &end);
	if (end == p || *end || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	v *= (double)unit_ns;
	if (v >= 1.8e19)
		return -EOVERFLOW;
	*ns = (uint64_t)llround(v);
	return 0;
}

static int parse_uint(const char **pp, unsigned int *v)
{
	const char *p = *pp;
	unsigned long x = 0;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		x = x * 10 + (unsigned long)(*p - '0');
		if (x > 1000000)
			return -EOVERFLOW;
	}
	*v = (unsigned int)x;
	*pp = p;
	return 0;
}

/* "4", "1-8", "1,2,4", "2-4,8": values in [lo, hi], at most @max of them. */
int bench_parse_list(const char *s, unsigned int *v, size_t max, size_t *n,
		     unsigned int lo, unsigned int hi)
{
	const char *p = s;
	unsigned int a, b, x;

	*n = 0;
	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		if (*p == '-')
			return -ERANGE;
		if (parse_uint(&p, &a))
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_uint(&p, &b) || b < a)
				return -EINVAL;
		}
		if (a < lo || b > hi)
			return -ERANGE;
		for (x = a; x <= b; x++) {
			if (*n >= max)
				return -E2BIG;
			v[(*n)++] = x;
		}
		if (!*p)
			return 0;
		if (*p != ',')
			return -EINVAL;
		p++;
	}
}

const char *bench_load_name(enum fs_load load)
{
	switch (load) {
	case LOAD_A:
		return "A";
	case LOAD_B:
		return "B";
	default:
		return "none";
	}
}

static int parse_loads(const char *s, struct bench_env *env)
{
	char buf[128], *tok, *save = NULL;

	if (!s || !*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	env->nr_loads = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum fs_load l;

		if (!strcasecmp(tok, "a"))
			l = LOAD_A;
		else if (!strcasecmp(tok, "b"))
			l = LOAD_B;
		else if (!strcasecmp(tok, "none"))
			l = LOAD_NONE;
		else
			return -EINVAL;
		if (env->nr_loads >= BENCH_MAX_SERIES)
			return -E2BIG;
		env->loads[env->nr_loads++] = l;
	}
	return env->nr_loads ? 0 : -EINVAL;
}

static const char *why(int err)
{
	switch (err) {
	case -ERANGE:
		return "must not be negative";
	case -EOVERFLOW:
		return "too large";
	default:
		return "not a valid value";
	}
}

/* Which options were given, so --short only changes the others. */
struct given {
	int samples, children, child_size, timer_size, memory_max, sleep,
	    time_limit, cpu, stride;
};

static void apply_defaults(struct bench_env *env, const struct given *g)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!g->samples)
		env->samples = env->short_mode ? (env->kind == BENCH_PAGING ? 100 : 200)
						: 10000;
	if (!g->time_limit)
		env->time_limit_ns = env->short_mode ? 60 * NS_PER_SEC : 0;
	if (!g->cpu)
		env->cpu = env->kind == BENCH_FORKSTORM ? CPU_AUTO : CPU_NONE;
	if (!env->socket_path)
		env->socket_path = TIPME_CTL_SOCKET;
	if (env->kind == BENCH_PAGING) {
		if (!g->children) {
			env->children[0] = env->short_mode ? 2 : 4;
			env->nr_children = 1;
		}
		if (!g->child_size)
			env->child_size = (env->short_mode ? 16ull : 32ull) << 20;
		if (!g->timer_size)
			env->timer_size = 4ull << 20;
		if (!g->stride)
			env->stride = page > 0 ? (uint64_t)page : 4096;
		if (!g->memory_max && !env->no_cgroup)
			env->memory_max = (env->short_mode ? 24ull : 96ull) << 20;
		if (!g->sleep)
			env->sleep_ns = 100 * NS_PER_MS;
	} else {
		if (!env->nr_loads) {
			env->loads[0] = LOAD_A;
			env->loads[1] = LOAD_B;
			env->nr_loads = 2;
		}
		if (!env->compute_ns)
			env->compute_ns = 10 * NS_PER_MS;
		if (!g->sleep)
			env->sleep_ns = 50 * NS_PER_MS;
		if (!env->fork_period_ns)
			env->fork_period_ns = 2000 * NS_PER_MS;
	}
}

static int check(struct bench_env *env, const struct given *g, struct tm_err *e)
{
	size_t i;

	if (env->samples < 1)
		return tm_err_set(e, EINVAL, "--samples: must be at least 1");
	if (env->samples > 10000000)
		return tm_err_set(e, EINVAL, "--samples: at most 10000000");
	if (env->kind == BENCH_FORKSTORM) {
		if (env->compute_ns < 100000)
			return tm_err_set(e, EINVAL, "--compute: at least 0.1 ms");
		if (env->fork_period_ns < NS_PER_MS)
			return tm_err_set(e, EINVAL, "--fork-period: at least 1 ms");
		return 0;
	}
	if (env->stride < sizeof(uint64_t) || env->stride % sizeof(uint64_t))
		return tm_err_set(e, EINVAL, "--stride: a multiple of 8 bytes, at least 8");
	if (env->child_size < env->stride)
		return tm_err_set(e, EINVAL, "--child-size: at least one stride (%llu bytes)",
				  (unsigned long long)env->stride);
	if (env->timer_size < env->stride)
		return tm_err_set(e, EINVAL, "--timer-size: at least one stride (%llu bytes)",
				  (unsigned long long)env->stride);
	if (env->no_cgroup && (g->memory_max || env->cgroup_parent || env->timer_outside))
		return tm_err_set(e, EINVAL,
				  "--no-cgroup cannot be combined with --memory-max, --cgroup or --timer-outside");
	if (env->swap_delay_ms && env->zram == ZRAM_NO)
		return tm_err_set(e, EINVAL,
				  "--swap-delay needs a zram swap device of the run's own (not --zram no)");
	if (g->memory_max && env->memory_max && env->memory_max < (1ull << 20))
		return tm_err_set(e, EINVAL, "--memory-max: at least 1M (or 'max')");
	if (env->sleep_ns < 1)
		return tm_err_set(e, EINVAL, "--sleep: must be more than 0");
	for (i = 0; i < env->nr_children; i++)
		if (env->children[i] < 1)
			return tm_err_set(e, EINVAL, "--children: at least 1");
	return 0;
}

/**
 * bench_parse() - parse "SUBCOMMAND [options]" into @env
 * @argc: argument count, argv[0] being the subcommand
 * @argv: arguments
 * @env: result (zeroed first)
 * @e: message for a usage error
 *
 * Return: 0 to run, 1 if --help was asked for (nothing printed), or a
 * negative errno for a usage error (exit status 2).
 */
int bench_parse(int argc, char **argv, struct bench_env *env, struct tm_err *e)
{
	const struct option *opts;
	struct given g = { 0 };
	const char *optname;
	int c, err, idx;

	memset(env, 0, sizeof(*env));
	if (argc < 1 || !argv[0])
		return tm_err_set(e, EINVAL, "missing subcommand (paging or forkstorm)");
	if (!strcmp(argv[0], "paging")) {
		env->kind = BENCH_PAGING;
		opts = paging_opts;
	} else if (!strcmp(argv[0], "forkstorm")) {
		env->kind = BENCH_FORKSTORM;
		opts = forkstorm_opts;
	} else {
		return tm_err_set(e, EINVAL, "unknown subcommand '%s' (paging or forkstorm)",
				  argv[0]);
	}
	optind = 0;	/* glibc: reinitialise, so tests may call us again */
	opterr = 0;
	for (;;) {
		idx = -1;
		c = getopt_long(argc, argv, env->kind == BENCH_PAGING ? "+:n:c:qh" : "+:n:qh",
				opts, &idx);
		if (c == -1)
			break;
		optname = idx >= 0 ? opts[idx].name : NULL;
		err = 0;
		switch (c) {
		case 'n': {
			uint64_t v = 0;

			optname = "samples";
			err = bench_parse_size(optarg, &v);
			if (!err && strspn(optarg, "0123456789") != strlen(optarg))
				err = -EINVAL;
			env->samples = v;
			g.samples = 1;
			break;
		}
		case 'c':
			optname = "children";
			err = bench_parse_list(optarg, env->children, BENCH_MAX_SERIES,
					       &env->nr_children, 1, BENCH_MAX_CHILDREN);
			if (err == -ERANGE && optarg[0] != '-')
				return tm_err_set(e, EINVAL,
						  "--children: '%s': each value from 1 to %d",
						  optarg, BENCH_MAX_CHILDREN);
			if (err == -E2BIG)
				return tm_err_set(e, EINVAL,
						  "--children: '%s': at most %d runs",
						  optarg, BENCH_MAX_SERIES);
			g.children = 1;
			break;
		case 'q':
			env->quiet = 1;
			break;
		case 'h':
			return 1;
		case OPT_SHORT:
			env->short_mode = 1;
			break;
		case OPT_JSON:
			env->json = 1;
			break;
		case OPT_SVG:
			if (!*optarg)
				return tm_err_set(e, EINVAL, "--svg: empty file name");
			env->svg_path = optarg;
			break;
		case OPT_CPU: {
			uint64_t v = 0;

			g.cpu = 1;
			if (!strcmp(optarg, "none")) {
				env->cpu = CPU_NONE;
				break;
			}
			err = bench_parse_size(optarg, &v);
			if (!err && (strspn(optarg, "0123456789") != strlen(optarg) || v > 8191))
				err = -EINVAL;
			env->cpu = (int)v;
			break;
		}
		case OPT_TRIG_ABOVE:
			err = bench_parse_time(optarg, NS_PER_MS, &env->trigger_above_ns);
			if (!err && !env->trigger_above_ns)
				return tm_err_set(e, EINVAL, "--trigger-above: must be more than 0 ms");
			break;
		case OPT_TRIG_SPACING:
			err = bench_parse_time(optarg, NS_PER_SEC, &env->trigger_spacing_ns);
			if (!err && !env->trigger_spacing_ns)
				return tm_err_set(e, EINVAL,
						  "--trigger-spacing: must be more than 0 s (leave it out for once per run)");
			break;
		case OPT_SOCKET:
			if (!*optarg)
				return tm_err_set(e, EINVAL, "--socket: empty path");
			env->socket_path = optarg;
			break;
		case OPT_TIME_LIMIT:
			err = bench_parse_time(optarg, NS_PER_SEC, &env->time_limit_ns);
			if (!err && !env->time_limit_ns)
				return tm_err_set(e, EINVAL, "--time-limit: must be more than 0 s");
			g.time_limit = 1;
			break;
		case OPT_SLEEP:
			err = bench_parse_time(optarg, NS_PER_MS, &env->sleep_ns);
			g.sleep = 1;
			break;
		case OPT_CHILD_SIZE:
			err = bench_parse_size(optarg, &env->child_size);
			g.child_size = 1;
			break;
		case OPT_TIMER_SIZE:
			err = bench_parse_size(optarg, &env->timer_size);
			g.timer_size = 1;
			break;
		case OPT_STRIDE:
			err = bench_parse_size(optarg, &env->stride);
			g.stride = 1;
			break;
		case OPT_MEMORY_MAX:
			g.memory_max = 1;
			if (!strcmp(optarg, "max")) {
				env->memory_max = 0;
				break;
			}
			err = bench_parse_size(optarg, &env->memory_max);
			if (!err && !env->memory_max)
				return tm_err_set(e, EINVAL,
						  "--memory-max: must be more than 0 (or 'max' for no limit)");
			break;
		case OPT_CGROUP:
			if (!*optarg)
				return tm_err_set(e, EINVAL, "--cgroup: empty path");
			env->cgroup_parent = optarg;
			break;
		case OPT_NO_CGROUP:
			env->no_cgroup = 1;
			break;
		case OPT_TIMER_OUTSIDE:
			env->timer_outside = 1;
			break;
		case OPT_ZRAM:
			if (!strcmp(optarg, "auto")) {
				env->zram = ZRAM_AUTO;
			} else if (!strcmp(optarg, "no")) {
				env->zram = ZRAM_NO;
			} else {
				env->zram = ZRAM_SIZE;
				err = bench_parse_size(optarg, &env->zram_size);
				if (!err && env->zram_size < (1ull << 20))
					return tm_err_set(e, EINVAL,
							  "--zram: '%s': auto, no, or a size of at least 1M",
							  optarg);
			}
			break;
		case OPT_SWAP_DELAY: {
			unsigned int d[2] = { 0, 0 };
			size_t nd = 0;

			if (strchr(optarg, '-') ||
			    bench_parse_list(optarg, d, 2, &nd, 0, 10000) || !d[0])
				return tm_err_set(e, EINVAL,
						  "--swap-delay: '%s': READ[,WRITE] in whole milliseconds, READ from 1 to 10000",
						  optarg);
			env->swap_delay_ms = d[0];
			env->swap_write_delay_ms = nd > 1 ? d[1] : 0;
			break;
		}
		case OPT_LOAD:
			err = parse_loads(optarg, env);
			if (err)
				return tm_err_set(e, EINVAL,
						  "--load: '%s': a list of A, B and none (e.g. A,B)",
						  optarg);
			break;
		case OPT_COMPUTE:
			err = bench_parse_time(optarg, NS_PER_MS, &env->compute_ns);
			if (!err && !env->compute_ns)
				return tm_err_set(e, EINVAL, "--compute: must be more than 0 ms");
			break;
		case OPT_FORK_PERIOD:
			err = bench_parse_time(optarg, NS_PER_MS, &env->fork_period_ns);
			if (!err && !env->fork_period_ns)
				return tm_err_set(e, EINVAL, "--fork-period: must be more than 0 ms");
			break;
		case ':':
			return tm_err_set(e, EINVAL, "option %s needs a value", argv[optind - 1]);
		default: {
			const char *bad = argv[optind - 1];
			const struct option *o;
			const struct option *other = env->kind == BENCH_PAGING ?
						     forkstorm_opts : paging_opts;

			/* an option of the other subcommand: say so */
			if (bad && !strncmp(bad, "--", 2))
				for (o = other; o->name; o++)
					if (!strncmp(bad + 2, o->name, strlen(o->name)) &&
					    (bad[2 + strlen(o->name)] == '\0' ||
					     bad[2 + strlen(o->name)] == '='))
						return tm_err_set(e, EINVAL,
								  "option --%s is for 'tipme-bench %s'",
								  o->name,
								  env->kind == BENCH_PAGING ?
								  "forkstorm" : "paging");
			if (optopt && optopt < 0x100 && (!bad || strncmp(bad, "--", 2)))
				return tm_err_set(e, EINVAL, "unknown option '-%c'", optopt);
			return tm_err_set(e, EINVAL, "unknown option '%s'", bad ? bad : "?");
		}
		}
		if (err)
			return tm_err_set(e, EINVAL, "--%s: '%s': %s", optname ? optname : "?",
					  optarg, why(err));
	}
	if (optind < argc)
		return tm_err_set(e, EINVAL, "unexpected argument '%s'", argv[optind]);
	apply_defaults(env, &g);
	return check(env, &g, e);
}
