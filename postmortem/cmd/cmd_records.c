// SPDX-License-Identifier: GPL-2.0
/*
 * tipme records: every record of a dump, time-ordered across CPUs.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "run.h"
#include "../dump/decode.h"
#include "../dump/index.h"
#include "../records/records.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: tipme %s [OPTIONS] DUMP\n"
		"Print the records of a dump file, one per line, in time order across\n"
		"CPUs.  Times are CLOCK_MONOTONIC seconds.  Lost sub-buffers are shown\n"
		"as LOST lines for every selected CPU, whatever --pid and --type say.\n"
		"DUMP is a dump file or an incident directory (its kernel.dump).\n"
		"\n"
		"  -c, --cpu N       only CPU N (repeat for more)\n"
		"  -p, --pid P       only records involving thread P: switched out or\n"
		"                    in, woken or waking (repeat for more)\n"
		"  -C, --comm NAME   as --pid, for the process (or thread) of that name:\n"
		"                    its exact name, else the one name containing NAME;\n"
		"                    an error lists the matches when several do\n"
		"  -W, --window-title TEXT  as --pid, for the client owning a window of\n"
		"                    that title (needs an X dump with window titles)\n"
		"  -t, --type NAME   only records of this type, e.g. sched_switch (repeat\n"
		"                    or separate with commas)\n"
		"      --from S      only records at or after S (CLOCK_MONOTONIC seconds);\n"
		"                    only the sub-buffers of the range are decoded\n"
		"      --to S        only records at or before S\n"
		"  -j, --json        one JSON object per line (JSON Lines)\n"
		"  -h, --help        show this help\n"
		"\n"
		"EXAMPLES\n"
		"  tipme %s dump.tipme | less\n"
		"  tipme %s --pid 207 --type sched_switch,sched_waking dump.tipme\n"
		"  tipme %s --json --cpu 1 dump.tipme | jq -c 'select(.type == \"lost\")'\n"
		"  tipme %s --from 1203.5 --to 1204.3 dump.tipme\n",
		prog, prog, prog, prog, prog);
}

static int in_list(const uint32_t *list, unsigned int n, uint32_t v)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (list[i] == v)
			return 1;
	return 0;
}

static int match_pid(const struct pm_filter *flt, const struct pm_event *ev)
{
	uint32_t pids[PM_REC_MAX_PIDS];
	unsigned int i, n;

	if (!flt->nr_pids)
		return 1;
	n = pm_rec_pids(ev, pids);
	for (i = 0; i < n; i++)
		if (in_list(flt->pids, flt->nr_pids, pids[i]))
			return 1;
	return 0;
}

static int wanted(const struct pm_filter *flt, const struct pm_event *ev)
{
	if (!flt || ev->kind == PM_EV_LOST)
		return 1;	/* CPUs are filtered before the merge */
	if (flt->nr_types && !in_list(flt->types, flt->nr_types, ev->type))
		return 0;
	return match_pid(flt, ev);
}

int pm_records_print(FILE *f, struct pm_dump *pm, const struct pm_filter *flt,
		     int json, struct tm_err *e)
{
	unsigned char *mask = NULL;
	struct pm_merge m;
	struct pm_event ev;
	struct tm_jw w;
	uint32_t i;
	int ret;

	if (flt && flt->nr_cpus) {
		mask = calloc(pm->nr_cpus + 1, 1);
		if (!mask)
			return tm_err_set(e, ENOMEM, "out of memory");
		for (i = 0; i < pm->nr_cpus; i++)
			mask[i] = (unsigned char)in_list(flt->cpus, flt->nr_cpus,
							 pm->cpus[i].cpu);
	}
	if (flt && flt->range && !flt->whole) {
		struct pm_index ix;

		ret = pm_index_scan(&ix, pm, e);
		if (!ret)
			ret = pm_merge_range(&m, pm, &ix, mask, flt->from_ns,
					     flt->to_ns, e);
		pm_index_free(&ix);
	} else {
		ret = pm_merge_init(&m, pm, mask, e);
		if (!ret && flt && flt->range) {
			m.from_ns = flt->from_ns;
			m.to_ns = flt->to_ns;
		}
	}
	free(mask);
	if (ret)
		return ret;
	tm_jw_init(&w, f, 0);
	while ((ret = pm_merge_next(&m, &ev, e)) > 0) {
		if (!wanted(flt, &ev))
			continue;
		if (json)
			pm_json_event(&w, pm, &ev);
		else
			pm_print_event(f, pm, &ev);
	}
	pm_merge_free(&m);
	return ret < 0 ? ret : 0;
}

/* Parse "N" into *v; 0 on success. */
static int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* Parse seconds "S[.fraction]" into *ns; 0 on success. */
static int parse_secs(const char *s, int64_t *ns)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (!*s || errno || *end || !(x >= 0) || x > 9e9)
		return -1;
	*ns = (int64_t)(x * 1e9 + 0.5);
	return 0;
}

static int add(uint32_t *list, unsigned int *n, uint32_t v)
{
	if (*n >= PM_FILTER_MAX)
		return -1;
	list[(*n)++] = v;
	return 0;
}

int pm_cmd_records(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "pid", required_argument, NULL, 'p' },
		{ "type", required_argument, NULL, 't' },
		{ "comm", required_argument, NULL, 'C' },
		{ "window-title", required_argument, NULL, 'W' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "from", required_argument, NULL, 256 },
		{ "to", required_argument, NULL, 257 },
		{ NULL, 0, NULL, 0 },
	};
	const char *prog = argv[0];
	char *type_args[PM_FILTER_MAX];
	unsigned int nr_type_args = 0, i;
	struct pm_filter flt;
	struct pm_incident inc;
	struct tm_err e = { "" };
	struct pm_cmd_who who = { NULL, NULL };
	int json = 0, c, err, status = 0;
	uint32_t v;

	memset(&flt, 0, sizeof(flt));
	optind = 0;
	while ((c = getopt_long(argc, argv, "c:p:t:C:W:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 'p':
			if (parse_u32(optarg, &v)) {
				fprintf(stderr, "tipme %s: invalid %s '%s'\n", prog,
					c == 'c' ? "CPU" : "pid", optarg);
				return 2;
			}
			if (c == 'c' ? add(flt.cpus, &flt.nr_cpus, v) :
				       add(flt.pids, &flt.nr_pids, v)) {
				fprintf(stderr, "tipme %s: too many --%s options (at most %d)\n",
					prog, c == 'c' ? "cpu" : "pid", PM_FILTER_MAX);
				return 2;
			}
			break;
		case 't':
			if (nr_type_args >= PM_FILTER_MAX) {
				fprintf(stderr, "tipme %s: too many --type options\n", prog);
				return 2;
			}
			type_args[nr_type_args++] = optarg;
			break;
		case 'C':
			who.comm = optarg;
			break;
		case 'W':
			who.title = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 256:
		case 257:
			if (parse_secs(optarg, c == 256 ? &flt.from_ns : &flt.to_ns)) {
				fprintf(stderr, "tipme %s: invalid --%s '%s' (seconds, CLOCK_MONOTONIC)\n",
					prog, c == 256 ? "from" : "to", optarg);
				return 2;
			}
			if (!flt.range) {
				flt.range = 1;
				if (c == 256)
					flt.to_ns = INT64_MAX;
				else
					flt.from_ns = INT64_MIN;
			}
			break;
		case 'h':
			usage(stdout, prog);
			return 0;
		default:
			usage(stderr, prog);
			return 2;
		}
	}
	if (pm_cmd_one_dump(prog, usage, argc) >= 0)
		return 2;
	if (flt.range && flt.to_ns < flt.from_ns) {
		fprintf(stderr, "tipme %s: --to is before --from\n", prog);
		return 2;
	}
	if (pm_cmd_open(prog, argv[optind], who.title ? 0 : PM_INC_NO_X, &inc))
		return 1;
	if (pm_cmd_who_given(&who)) {
		if (pm_cmd_who(prog, &inc, &who, &v))
			status = 1;
		else if (add(flt.pids, &flt.nr_pids, v))
			status = 2;
	}
	/* type names are the dump's own */
	for (i = 0; i < nr_type_args && !status; i++) {
		char *save = NULL, *tok, *copy = strdup(type_args[i]);

		if (!copy) {
			fprintf(stderr, "tipme %s: out of memory\n", prog);
			status = 1;
			break;
		}
		for (tok = strtok_r(copy, ",", &save); tok && !status;
		     tok = strtok_r(NULL, ",", &save)) {
			int t = pm_type_by_name(&inc.pm, tok);

			if (t < 0) {
				fprintf(stderr, "tipme %s: no record type '%s' in this dump (it has:",
					prog, tok);
				for (t = 1; t < PM_NR_TYPES; t++)
					if (inc.pm.rt[t].present)
						fprintf(stderr, " %s", inc.pm.rt[t].name);
				fputs(")\n", stderr);
				status = 2;
			} else if (add(flt.types, &flt.nr_types, (uint32_t)t)) {
				fprintf(stderr, "tipme %s: too many types\n", prog);
				status = 2;
			}
		}
		free(copy);
	}
	if (!status) {
		err = pm_records_print(stdout, &inc.pm, &flt, json, &e);
		if (err) {
			fflush(stdout);
			fprintf(stderr, "tipme %s: %s: %s\n", prog, argv[optind], e.msg);
			status = 1;
		} else {
			status = pm_cmd_finish(prog);
		}
	}
	pm_incident_close(&inc);
	return status;
}
