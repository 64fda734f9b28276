// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's own cost in an interval, from the self-cost records, and
 * what `tipme info` prints about the instrumentation.
 *
 * Each CPU writes a TIPME_REC_COST after the records it covers: per type,
 * how many records it wrote since the previous one and the ticks they took.
 * A record inside the interval is charged its type's average in the batch
 * that covers it; records no batch covers (the end of a stream) are charged
 * the type's average over the whole recording (TIPME_SEC_COST).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../records/records.h"
#include "../dump/instr.h"

/* Average ns per record of @type since load, from TIPME_SEC_COST. */
static double total_avg_ns(const struct pm_dump *pm, unsigned int type)
{
	const struct pm_instr *in = pm->instr;
	size_t i;

	for (i = 0; in && i < in->nr_costs; i++)
		if (in->costs[i].type == type && in->costs[i].count)
			return (double)pm_ticks_to_ns(&pm->clock, in->costs[i].cycles) /
			       (double)in->costs[i].count;
	return 0;
}

static int cost_cpu(const struct pm_dump *pm, const struct pm_cpu *pc,
		    struct pm_cost *c, int64_t *first, int64_t *last,
		    struct tm_err *e)
{
	uint64_t pend[PM_NR_TYPES];
	struct pm_event ev;
	struct pm_dec d;
	unsigned int t;
	int ret;

	memset(pend, 0, sizeof(pend));
	pm_dec_init(&d, pm, pc);
	while ((ret = pm_dec_next(&d, &ev, e)) > 0) {
		int64_t mono;
		int inside;

		if (ev.kind != PM_EV_RECORD)
			continue;
		mono = pm_clock_mono(&pm->clock, ev.ts);
		inside = mono >= c->from_ns && mono <= c->to_ns;
		if (inside) {
			c->records++;
			c->type_records[ev.type]++;
			pend[ev.type]++;
			if (mono < *first)
				*first = mono;
			if (mono > *last)
				*last = mono;
		}
		if (ev.type == TIPME_REC_COST && ev.rt->our_size) {
			struct tipme_rec_cost h;
			size_t n, i;

			c->have_costs = 1;
			memset(&h, 0, sizeof(h));
			memcpy(&h, ev.payload, ev.payload_len < sizeof(h) ?
			       ev.payload_len : sizeof(h));
			n = ev.payload_len > sizeof(h) ?
			    (ev.payload_len - sizeof(h)) / sizeof(struct tipme_cost_ent) : 0;
			if (n > h.nr)
				n = h.nr;
			for (i = 0; i < n; i++) {
				struct tipme_cost_ent ce;
				double ns, share;

				memcpy(&ce, ev.payload + sizeof(h) + i * sizeof(ce),
				       sizeof(ce));
				ns = (double)pm_ticks_to_ns(&pm->clock, ce.cycles);
				if (!ce.count) {	/* work without records */
					if (inside) {
						c->work_ns += ns;
						c->type_ns[ce.type] += ns;
					}
					continue;
				}
				share = pend[ce.type] >= ce.count ? 1.0 :
					(double)pend[ce.type] / ce.count;
				c->type_ns[ce.type] += ns * share;
				if (pend[ce.type] > ce.count)	/* not ours to know */
					c->estimated_records += pend[ce.type] - ce.count;
				pend[ce.type] = 0;
			}
			/* Types the batch did not list were written elsewhere. */
		}
	}
	if (ret < 0)
		return ret;
	for (t = 1; t < PM_NR_TYPES; t++) {
		if (!pend[t])
			continue;
		c->type_ns[t] += pend[t] * total_avg_ns(pm, t);
		c->estimated_records += pend[t];
	}
	return 0;
}

int pm_cost_compute(const struct pm_dump *pm, int64_t from_ns, int64_t to_ns,
		    struct pm_cost *c, struct tm_err *e)
{
	int64_t first = INT64_MAX, last = INT64_MIN;
	unsigned int t;
	uint32_t i;
	int err;

	memset(c, 0, sizeof(*c));
	c->from_ns = from_ns;
	c->to_ns = to_ns;
	c->ncpus = pm->nr_cpus;
	for (i = 0; i < pm->nr_cpus; i++) {
		err = cost_cpu(pm, &pm->cpus[i], c, &first, &last, e);
		if (err)
			return err;
	}
	if (from_ns == INT64_MIN)
		c->from_ns = first == INT64_MAX ? 0 : first;
	if (to_ns == INT64_MAX)
		c->to_ns = last == INT64_MIN ? c->from_ns : last;
	for (t = 1; t < PM_NR_TYPES; t++)
		c->cost_ns += c->type_ns[t];
	return 0;
}

void pm_cost_print(FILE *f, const struct pm_dump *pm, const struct pm_cost *c,
		   int indent)
{
	double elapsed = (double)(c->to_ns - c->from_ns);
	double cpu_ns = elapsed * (c->ncpus ? c->ncpus : 1);
	char b1[32], b2[32];
	unsigned int t;

	if (!c->have_costs) {
		fprintf(f, "%*sno self-cost records in this dump\n", indent, "");
		return;
	}
	fprintf(f, "%*sinterval               %s .. %s\n", indent, "",
		pm_fmt_ns(c->from_ns, b1, sizeof(b1)), pm_fmt_ns(c->to_ns, b2, sizeof(b2)));
	fprintf(f, "%*selapsed                %.6f s (%u CPUs: %.6f CPU-s)\n",
		indent, "", elapsed / 1e9, c->ncpus, cpu_ns / 1e9);
	fprintf(f, "%*selapsed less recorder  %.6f CPU-s\n", indent, "",
		(cpu_ns - c->cost_ns) / 1e9);
	fprintf(f, "%*srecorder total         %.6f s\n", indent, "", c->cost_ns / 1e9);
	fprintf(f, "%*srecords                %" PRIu64 "\n", indent, "", c->records);
	fprintf(f, "%*saverage per record     %.0f ns\n", indent, "",
		c->records ? c->cost_ns / (double)c->records : 0.0);
	fprintf(f, "%*spercent                %.4f%% of one CPU, %.4f%% of all %u\n",
		indent, "", elapsed > 0 ? 100.0 * c->cost_ns / elapsed : 0.0,
		cpu_ns > 0 ? 100.0 * c->cost_ns / cpu_ns : 0.0, c->ncpus);
	if (c->estimated_records)
		fprintf(f, "%*s(%" PRIu64 " records charged the recording's average: no batch covered them)\n",
			indent, "", c->estimated_records);
	fprintf(f, "%*s%-16s %10s %14s %12s\n", indent, "", "type", "records",
		"total (us)", "avg (ns)");
	for (t = 1; t < PM_NR_TYPES; t++) {
		if (!c->type_records[t] && c->type_ns[t] == 0)
			continue;
		fprintf(f, "%*s%-16s %10" PRIu64 " %14.1f", indent, "",
			pm->rt[t].present ? pm->rt[t].name : "?", c->type_records[t],
			c->type_ns[t] / 1e3);
		if (c->type_records[t])
			fprintf(f, " %12.0f\n", c->type_ns[t] / (double)c->type_records[t]);
		else
			fprintf(f, " %12s\n", "-");
	}
}

void pm_cost_json(struct jw *w, const struct pm_dump *pm,
		  const struct pm_cost *c)
{
	double elapsed = (double)(c->to_ns - c->from_ns);
	double cpu_ns = elapsed * (c->ncpus ? c->ncpus : 1);
	unsigned int t;

	jw_kbool(w, "have_costs", c->have_costs);
	jw_ki64(w, "from_mono_ns", c->from_ns);
	jw_ki64(w, "to_mono_ns", c->to_ns);
	jw_ki64(w, "elapsed_ns", c->to_ns - c->from_ns);
	jw_ku64(w, "cpus", c->ncpus);
	jw_kdouble(w, "elapsed_less_recorder_cpu_ns", cpu_ns - c->cost_ns);
	jw_kdouble(w, "recorder_ns", c->cost_ns);
	jw_ku64(w, "records", c->records);
	jw_kdouble(w, "avg_ns_per_record",
		   c->records ? c->cost_ns / (double)c->records : 0.0);
	jw_kdouble(w, "percent_one_cpu", elapsed > 0 ? 100.0 * c->cost_ns / elapsed : 0.0);
	jw_kdouble(w, "percent_all_cpus", cpu_ns > 0 ? 100.0 * c->cost_ns / cpu_ns : 0.0);
	jw_ku64(w, "estimated_records", c->estimated_records);
	jw_kdouble(w, "work_ns", c->work_ns);
	jw_key(w, "types");
	jw_arr_begin(w);
	for (t = 1; t < PM_NR_TYPES; t++) {
		if (!c->type_records[t] && c->type_ns[t] == 0)
			continue;
		jw_obj_begin(w);
		jw_kstr(w, "type", pm->rt[t].present ? pm->rt[t].name : "?");
		jw_ku64(w, "type_nr", t);
		jw_ku64(w, "records", c->type_records[t]);
		jw_kdouble(w, "ns", c->type_ns[t]);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void exec_summary_text(FILE *f, const struct pm_dump *pm)
{
	const struct pm_instr *in = pm->instr;
	size_t i, live = 0;

	if (!in || !in->have_exectab) {
		fputs("exec table: none in this dump\n", f);
		return;
	}
	for (i = 0; i < in->nr_execs; i++)
		live += !(in->execs[i].x.flags & TIPME_EXEC_EXITED);
	fprintf(f, "exec table: %zu entries (%zu live, %zu exited), capacity %" PRIu32
		", kept %" PRIu64 " s after exit\n", in->nr_execs, live,
		in->nr_execs - live, in->xhdr.capacity,
		(uint64_t)in->xhdr.retention_ns / 1000000000);
	fprintf(f, "  evicted early %" PRIu64 ", not entered %" PRIu64
		", argv unread %" PRIu64 "; environment %s (tipme ps lists them)\n",
		(uint64_t)in->xhdr.evicted, (uint64_t)in->xhdr.dropped,
		(uint64_t)in->xhdr.argv_lost,
		in->xhdr.flags & TIPME_EXECTAB_ENV ? "captured" : "not captured");
}

/* One exec table entry as a JSON object. */
static void exec_json(struct jw *w, const struct pm_dump *pm,
		      const struct pm_exec *x)
{
	static const char *const flag_names[] = {
		"thread", "snapshot", "forked", "execed", "exited", "replaced",
		"kthread", "argv_truncated", "argv_lost", "env", "env_truncated",
		"exit_unseen", "pending",
	};
	size_t i = 0, k;

	jw_obj_begin(w);
	jw_ku64(w, "id", x->x.id);
	jw_ku64(w, "pid", x->x.pid);
	jw_ku64(w, "tgid", x->x.tgid);
	jw_ku64(w, "ppid", x->x.ppid);
	jw_key(w, "comm");
	jw_strn(w, x->x.comm, strnlen(x->x.comm, sizeof(x->x.comm)));
	jw_key(w, "exe");
	jw_strn(w, x->exe, x->x.exe_len);
	jw_key(w, "argv");
	jw_arr_begin(w);
	while (i < x->x.argv_len) {
		const char *z = memchr(x->argv + i, '\0', x->x.argv_len - i);
		size_t l = z ? (size_t)(z - (x->argv + i)) : x->x.argv_len - i;

		jw_strn(w, x->argv + i, l);
		i += l + 1;
	}
	jw_arr_end(w);
	if (x->x.flags & TIPME_EXEC_ENV) {
		jw_key(w, "env");
		jw_arr_begin(w);
		for (i = 0; i < x->x.env_len;) {
			const char *z = memchr(x->env + i, '\0', x->x.env_len - i);
			size_t l = z ? (size_t)(z - (x->env + i)) : x->x.env_len - i;

			jw_strn(w, x->env + i, l);
			i += l + 1;
		}
		jw_arr_end(w);
	}
	jw_ki64(w, "start_mono_ns", pm_clock_mono(&pm->clock, x->x.start_ts));
	jw_ki64(w, "task_start_mono_ns", (int64_t)x->x.start_mono_ns);
	jw_key(w, "exit_mono_ns");
	if (x->x.flags & TIPME_EXEC_EXITED)
		jw_i64(w, pm_clock_mono(&pm->clock, x->x.exit_ts));
	else
		jw_null(w);
	jw_ki64(w, "exit_code", x->x.exit_code);
	jw_key(w, "flags");
	jw_arr_begin(w);
	for (k = 0; k < sizeof(flag_names) / sizeof(flag_names[0]); k++)
		if (x->x.flags & (1U << k))
			jw_str(w, flag_names[k]);
	jw_arr_end(w);
	jw_obj_end(w);
}

static void exec_summary_json(struct jw *w, const struct pm_dump *pm, int entries)
{
	const struct pm_instr *in = pm->instr;
	size_t i;

	jw_key(w, "exec_table");
	if (!in || !in->have_exectab) {
		jw_null(w);
		return;
	}
	jw_obj_begin(w);
	jw_ku64(w, "capacity", in->xhdr.capacity);
	jw_ku64(w, "retention_ns", in->xhdr.retention_ns);
	jw_ku64(w, "evicted", in->xhdr.evicted);
	jw_ku64(w, "dropped", in->xhdr.dropped);
	jw_ku64(w, "argv_lost", in->xhdr.argv_lost);
	jw_ku64(w, "argv_max", in->xhdr.argv_max);
	jw_kbool(w, "env_captured", in->xhdr.flags & TIPME_EXECTAB_ENV);
	jw_ku64(w, "count", in->nr_execs);
	if (entries) {
		jw_key(w, "entries");
		jw_arr_begin(w);
		for (i = 0; i < in->nr_execs; i++)
			exec_json(w, pm, &in->execs[i]);
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

int pm_instr_info(FILE *f, struct jw *w, const struct pm_dump *pm,
		  struct tm_err *e)
{
	struct pm_cost c;
	int err;

	/* Dumps of writers without instrumentation: nothing to add. */
	if (!(pm->instr && pm->instr->have_exectab) &&
	    !pm->rt[TIPME_REC_COST].our_size)
		return 0;
	err = pm_cost_compute(pm, INT64_MIN, INT64_MAX, &c, e);
	if (err)
		return err;
	if (w) {
		exec_summary_json(w, pm, 0);
		jw_key(w, "self_cost");
		jw_obj_begin(w);
		pm_cost_json(w, pm, &c);
		jw_obj_end(w);
		return 0;
	}
	fputc('\n', f);
	exec_summary_text(f, pm);
	fputs("\nrecorder's own cost (whole dump; tipme cost --from/--to for an interval):\n", f);
	pm_cost_print(f, pm, &c, 2);
	return 0;
}

/* ------------------------------------------------------------------ */
/* tipme ps, tipme cost                                               */
/* ------------------------------------------------------------------ */

#include <getopt.h>

static int open_dump(const char *prog, const char *path, struct pm_dump *pm)
{
	struct tm_err e = { "" };

	if (pm_open(pm, path, 0, &e)) {
		fprintf(stderr, "tipme %s: %s\n", prog, e.msg);
		pm_close(pm);
		return 1;
	}
	return 0;
}

static void ps_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: tipme %s [--json] DUMP\n"
		"List the exec table of a dump: every process and thread seen while\n"
		"recording (and those that existed when tipme.ko loaded), with the\n"
		"executable, argv, and start and exit times (CLOCK_MONOTONIC s), like\n"
		"ps but including processes that already exited.  DUMP is a dump file\n"
		"or an incident directory (its kernel.dump).\n"
		"\n"
		"  -t, --threads  also list threads (pid != tgid)\n"
		"  -j, --json     one JSON object with every entry\n"
		"  -h, --help     show this help\n"
		"\n"
		"EXAMPLES\n"
		"  tipme %s dump.tipme | grep firefox\n"
		"  tipme %s --json dump.tipme | jq '.exec_table.entries[] | select(.pid == 207)'\n",
		prog, prog, prog);
}

int pm_cmd_ps(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", no_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prog = argv[0];
	int json = 0, threads = 0, c;
	const struct pm_instr *in;
	struct pm_dump pm;
	size_t i;

	optind = 0;
	while ((c = getopt_long(argc, argv, "tjh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			threads = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			ps_usage(stdout, prog);
			return 0;
		default:
			ps_usage(stderr, prog);
			return 2;
		}
	}
	if (argc - optind != 1) {
		ps_usage(stderr, prog);
		return 2;
	}
	if (open_dump(prog, argv[optind], &pm))
		return 1;
	in = pm.instr;
	if (json) {
		struct jw w;

		jw_init(&w, stdout, 0);
		jw_obj_begin(&w);
		exec_summary_json(&w, &pm, 1);
		jw_obj_end(&w);
		fputc('\n', stdout);
	} else if (!in || !in->have_exectab) {
		fprintf(stderr, "tipme %s: %s has no exec table\n", prog, argv[optind]);
		pm_close(&pm);
		return 1;
	} else {
		printf("%7s %7s %7s %16s %16s  %-16s %s\n", "PID", "TGID", "PPID",
		       "START", "EXIT", "COMM", "EXE / ARGS");
		for (i = 0; i < in->nr_execs; i++) {
			const struct pm_exec *x = &in->execs[i];
			char b1[32], b2[32];

			if ((x->x.flags & TIPME_EXEC_THREAD) && !threads)
				continue;
			if (x->x.flags & TIPME_EXEC_SNAPSHOT)
				pm_fmt_ns((int64_t)x->x.start_mono_ns, b1, sizeof(b1));
			else
				pm_fmt_ns(pm_clock_mono(&pm.clock, x->x.start_ts), b1, sizeof(b1));
			if (x->x.flags & TIPME_EXEC_EXITED)
				pm_fmt_ns(pm_clock_mono(&pm.clock, x->x.exit_ts), b2, sizeof(b2));
			else
				snprintf(b2, sizeof(b2), "-");
			printf("%7" PRIu32 " %7" PRIu32 " %7" PRIu32 " %16s %16s  %-16.16s ",
			       x->x.pid, x->x.tgid, x->x.ppid, b1, b2, x->x.comm);
			if (x->x.flags & TIPME_EXEC_KTHREAD)
				printf("[%.16s]", x->x.comm);
			pm_print_text(stdout, x->exe, x->x.exe_len);
			if (x->x.argv_len) {
				fputc(' ', stdout);
				pm_print_argv(stdout, x->argv, x->x.argv_len, 300);
			}
			if (x->x.flags & TIPME_EXEC_REPLACED)
				fputs(" (replaced by exec)", stdout);
			else if ((x->x.flags & TIPME_EXEC_EXITED) &&
				 !(x->x.flags & TIPME_EXEC_EXIT_UNSEEN))
				printf(" (exit status %d)", (x->x.exit_code >> 8) & 0xff);
			fputc('\n', stdout);
		}
	}
	pm_close(&pm);
	return 0;
}

static void cost_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: tipme %s [--from S] [--to S] [--json] DUMP\n"
		"The recorder's own cost inside an interval (default: the whole dump):\n"
		"elapsed, elapsed less recorder, recorder total, records, average per\n"
		"record and percent, and the same per record type.  S is CLOCK_MONOTONIC\n"
		"seconds as tipme records prints them.  DUMP is a dump file or an\n"
		"incident directory (its kernel.dump).\n"
		"\n"
		"  -f, --from S   start of the interval\n"
		"  -t, --to S     end of the interval\n"
		"  -j, --json     one JSON object\n"
		"  -h, --help     show this help\n"
		"\n"
		"EXAMPLES\n"
		"  tipme %s dump.tipme\n"
		"  tipme %s --from 1234.5 --to 1235.0 dump.tipme\n",
		prog, prog, prog);
}

static int parse_sec(const char *s, int64_t *ns)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end)
		return -1;
	*ns = (int64_t)(v * 1e9 + (v < 0 ? -0.5 : 0.5));
	return 0;
}

int pm_cmd_cost(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int64_t from = INT64_MIN, to = INT64_MAX;
	const char *prog = argv[0];
	struct tm_err e = { "" };
	struct pm_dump pm;
	struct pm_cost c;
	int json = 0, ch;

	optind = 0;
	while ((ch = getopt_long(argc, argv, "f:t:jh", opts, NULL)) != -1) {
		switch (ch) {
		case 'f':
		case 't':
			if (parse_sec(optarg, ch == 'f' ? &from : &to)) {
				fprintf(stderr, "tipme %s: invalid time '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			cost_usage(stdout, prog);
			return 0;
		default:
			cost_usage(stderr, prog);
			return 2;
		}
	}
	if (argc - optind != 1) {
		cost_usage(stderr, prog);
		return 2;
	}
	if (open_dump(prog, argv[optind], &pm))
		return 1;
	if (pm_cost_compute(&pm, from, to, &c, &e)) {
		fprintf(stderr, "tipme %s: %s: %s\n", prog, argv[optind], e.msg);
		pm_close(&pm);
		return 1;
	}
	if (json) {
		struct jw w;

		jw_init(&w, stdout, 0);
		jw_obj_begin(&w);
		pm_cost_json(&w, &pm, &c);
		jw_obj_end(&w);
		fputc('\n', stdout);
	} else {
		pm_cost_print(stdout, &pm, &c, 0);
	}
	pm_close(&pm);
	return 0;
}
