// SPDX-License-Identifier: GPL-2.0
/* The exec table as `tipme ps` and `tipme info` show it. */
#include <inttypes.h>
#include <string.h>

#include "../records/records.h"
#include "exec.h"

void pm_exec_summary_print(FILE *f, const struct pm_dump *pm)
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
		", argv unread %" PRIu64 ", argv given up for newer processes' %" PRIu64
		"; environment %s (tipme ps lists them)\n",
		(uint64_t)in->xhdr.evicted, (uint64_t)in->xhdr.dropped,
		(uint64_t)in->xhdr.argv_lost, (uint64_t)in->xhdr.strings_evicted,
		in->xhdr.flags & TIPME_EXECTAB_ENV ? "captured" : "not captured");
}

/* One exec table entry as a JSON object. */
static void exec_json(struct tm_jw *w, const struct pm_exec *x)
{
	static const char *const flag_names[] = {
		"thread", "snapshot", "forked", "execed", "exited", "replaced",
		"kthread", "argv_truncated", "argv_lost", "env", "env_truncated",
		"exit_unseen", "pending", "strings_evicted",
	};
	size_t i = 0, k;

	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "id", x->x.id);
	tm_jw_ku64(w, "pid", x->x.pid);
	tm_jw_ku64(w, "tgid", x->x.tgid);
	tm_jw_ku64(w, "ppid", x->x.ppid);
	tm_jw_key(w, "comm");
	tm_jw_str(w, x->name);
	tm_jw_key(w, "exe");
	tm_jw_strn(w, x->exe, x->x.exe_len);
	tm_jw_key(w, "argv");
	tm_jw_arr_begin(w);
	while (i < x->x.argv_len) {
		const char *z = memchr(x->argv + i, '\0', x->x.argv_len - i);
		size_t l = z ? (size_t)(z - (x->argv + i)) : x->x.argv_len - i;

		tm_jw_strn(w, x->argv + i, l);
		i += l + 1;
	}
	tm_jw_arr_end(w);
	if (x->x.flags & TIPME_EXEC_ENV) {
		tm_jw_key(w, "env");
		tm_jw_arr_begin(w);
		for (i = 0; i < x->x.env_len;) {
			const char *z = memchr(x->env + i, '\0', x->x.env_len - i);
			size_t l = z ? (size_t)(z - (x->env + i)) : x->x.env_len - i;

			tm_jw_strn(w, x->env + i, l);
			i += l + 1;
		}
		tm_jw_arr_end(w);
	}
	tm_jw_ki64(w, "start_mono_ns", x->start_ns);
	tm_jw_ki64(w, "task_start_mono_ns", (int64_t)x->x.start_mono_ns);
	tm_jw_key(w, "exit_mono_ns");
	if (x->x.flags & TIPME_EXEC_EXITED)
		tm_jw_i64(w, x->exit_ns);
	else
		tm_jw_null(w);
	tm_jw_ki64(w, "exit_code", x->x.exit_code);
	tm_jw_key(w, "flags");
	tm_jw_arr_begin(w);
	for (k = 0; k < sizeof(flag_names) / sizeof(flag_names[0]); k++)
		if (x->x.flags & (1U << k))
			tm_jw_str(w, flag_names[k]);
	tm_jw_arr_end(w);
	tm_jw_obj_end(w);
}

void pm_exec_table_json(struct tm_jw *w, const struct pm_dump *pm, int entries)
{
	const struct pm_instr *in = pm->instr;
	size_t i;

	tm_jw_key(w, "exec_table");
	if (!in || !in->have_exectab) {
		tm_jw_null(w);
		return;
	}
	tm_jw_obj_begin(w);
	tm_jw_ku64(w, "capacity", in->xhdr.capacity);
	tm_jw_ku64(w, "retention_ns", in->xhdr.retention_ns);
	tm_jw_ku64(w, "evicted", in->xhdr.evicted);
	tm_jw_ku64(w, "dropped", in->xhdr.dropped);
	tm_jw_ku64(w, "argv_lost", in->xhdr.argv_lost);
	tm_jw_ku64(w, "strings_evicted", in->xhdr.strings_evicted);
	tm_jw_ku64(w, "argv_max", in->xhdr.argv_max);
	tm_jw_kbool(w, "env_captured", in->xhdr.flags & TIPME_EXECTAB_ENV);
	tm_jw_ku64(w, "count", in->nr_execs);
	if (entries) {
		tm_jw_key(w, "entries");
		tm_jw_arr_begin(w);
		for (i = 0; i < in->nr_execs; i++)
			exec_json(w, &in->execs[i]);
		tm_jw_arr_end(w);
	}
	tm_jw_obj_end(w);
}

void pm_exec_list_print(FILE *f, const struct pm_dump *pm, int threads)
{
	const struct pm_instr *in = pm->instr;
	size_t i;

	fprintf(f, "%7s %7s %7s %16s %16s  %-16s %s\n", "PID", "TGID", "PPID",
		"START", "EXIT", "COMM", "EXE / ARGS");
	for (i = 0; i < in->nr_execs; i++) {
		const struct pm_exec *x = &in->execs[i];
		char b1[32], b2[32];

		if ((x->x.flags & TIPME_EXEC_THREAD) && !threads)
			continue;
		if (x->x.flags & TIPME_EXEC_SNAPSHOT)
			pm_fmt_ns((int64_t)x->x.start_mono_ns, b1, sizeof(b1));
		else
			pm_fmt_ns(x->start_ns, b1, sizeof(b1));
		if (x->x.flags & TIPME_EXEC_EXITED)
			pm_fmt_ns(x->exit_ns, b2, sizeof(b2));
		else
			snprintf(b2, sizeof(b2), "-");
		fprintf(f, "%7" PRIu32 " %7" PRIu32 " %7" PRIu32 " %16s %16s  %-16s ",
			x->x.pid, x->x.tgid, x->x.ppid, b1, b2, x->name);
		if (x->x.flags & TIPME_EXEC_KTHREAD)
			fprintf(f, "[%s]", x->name);
		pm_print_text(f, x->exe, x->x.exe_len);
		if (x->x.argv_len) {
			fputc(' ', f);
			pm_print_argv(f, x->argv, x->x.argv_len, 300);
		}
		if (x->x.flags & TIPME_EXEC_REPLACED)
			fputs(" (replaced by exec)", f);
		else if ((x->x.flags & TIPME_EXEC_EXITED) &&
			 !(x->x.flags & TIPME_EXEC_EXIT_UNSEEN))
			fprintf(f, " (exit status %d)", (x->x.exit_code >> 8) & 0xff);
		fputc('\n', f);
	}
}
