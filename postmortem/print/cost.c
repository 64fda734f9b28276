// SPDX-License-Identifier: GPL-2.0
/* The recorder's own cost as `tipme cost` and `tipme info` show it. */
#include <inttypes.h>

#include "cost.h"

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
			pm_type_name(pm, t), c->type_records[t],
			c->type_ns[t] / 1e3);
		if (c->type_records[t])
			fprintf(f, " %12.0f\n", c->type_ns[t] / (double)c->type_records[t]);
		else
			fprintf(f, " %12s\n", "-");
	}
}

void pm_cost_json(struct tm_jw *w, const struct pm_dump *pm,
		  const struct pm_cost *c)
{
	double elapsed = (double)(c->to_ns - c->from_ns);
	double cpu_ns = elapsed * (c->ncpus ? c->ncpus : 1);
	unsigned int t;

	tm_jw_kbool(w, "have_costs", c->have_costs);
	tm_jw_ki64(w, "from_mono_ns", c->from_ns);
	tm_jw_ki64(w, "to_mono_ns", c->to_ns);
	tm_jw_ki64(w, "elapsed_ns", c->to_ns - c->from_ns);
	tm_jw_ku64(w, "cpus", c->ncpus);
	tm_jw_kdouble(w, "elapsed_less_recorder_cpu_ns", cpu_ns - c->cost_ns);
	tm_jw_kdouble(w, "recorder_ns", c->cost_ns);
	tm_jw_ku64(w, "records", c->records);
	tm_jw_kdouble(w, "avg_ns_per_record",
		   c->records ? c->cost_ns / (double)c->records : 0.0);
	tm_jw_kdouble(w, "percent_one_cpu", elapsed > 0 ? 100.0 * c->cost_ns / elapsed : 0.0);
	tm_jw_kdouble(w, "percent_all_cpus", cpu_ns > 0 ? 100.0 * c->cost_ns / cpu_ns : 0.0);
	tm_jw_ku64(w, "estimated_records", c->estimated_records);
	tm_jw_kdouble(w, "work_ns", c->work_ns);
	tm_jw_key(w, "types");
	tm_jw_arr_begin(w);
	for (t = 1; t < PM_NR_TYPES; t++) {
		if (!c->type_records[t] && c->type_ns[t] == 0)
			continue;
		tm_jw_obj_begin(w);
		tm_jw_kstr(w, "type", pm_type_name(pm, t));
		tm_jw_ku64(w, "type_nr", t);
		tm_jw_ku64(w, "records", c->type_records[t]);
		tm_jw_kdouble(w, "ns", c->type_ns[t]);
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
}
