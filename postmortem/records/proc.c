// SPDX-License-Identifier: GPL-2.0
/*
 * The process lifecycle records: fork, exec, exit and comm.  exec's argv
 * comes from the exec table (dump/tables.h).
 */
#include <inttypes.h>
#include <string.h>

#include "../dump/tables.h"
#include "family.h"

static unsigned int proc_pids(const struct pm_event *ev, uint32_t *pids)
{
	switch (ev->type) {
	case TIPME_REC_FORK:
		pids[0] = ev->u.fk.parent_pid;
		pids[1] = ev->u.fk.child_pid;
		return 2;
	case TIPME_REC_EXEC:
		pids[0] = ev->u.ex.pid;
		pids[1] = ev->u.ex.old_pid;
		return 2;
	case TIPME_REC_EXIT:
		pids[0] = ev->u.xt.pid;
		return 1;
	case TIPME_REC_COMM:
		pids[0] = ev->u.cm.pid;
		return 1;
	default:
		return 0;
	}
}

static int fork_is_thread(const struct tipme_rec_fork *fk)
{
	return fk->child_tgid == fk->parent_tgid && fk->child_pid != fk->child_tgid;
}

static void print_exit_code(FILE *f, int32_t code)
{
	if (code & 0x7f)
		fprintf(f, "signal %d%s", code & 0x7f, code & 0x80 ? " (core)" : "");
	else
		fprintf(f, "status %d", (code >> 8) & 0xff);
}

static void proc_text(FILE *f, const struct pm_dump *pm,
		      const struct pm_event *ev)
{
	const struct tipme_rec_fork *fk = &ev->u.fk;
	const struct tipme_rec_exec *ex = &ev->u.ex;
	const struct tipme_rec_exit *xt = &ev->u.xt;
	const struct tipme_rec_comm *cm = &ev->u.cm;
	const struct pm_exec *x;
	char a[48], b[48];

	switch (ev->type) {
	case TIPME_REC_FORK:
		fprintf(f, " %s -> %s (%s, clone flags 0x%" PRIx64 ")\n",
			pm_fmt_task(pm, fk->parent_pid, ev->ts, a, sizeof(a)),
			pm_fmt_task(pm, fk->child_pid, ev->ts + 1, b, sizeof(b)),
			fork_is_thread(fk) ? "thread" : "process",
			fk->clone_flags_lo | (uint64_t)fk->clone_flags_hi << 32);
		break;
	case TIPME_REC_EXEC:
		fprintf(f, " pid=%" PRIu32, ex->pid);
		if (ex->old_pid != ex->pid)
			fprintf(f, " (was thread %" PRIu32 ")", ex->old_pid);
		fputs(" comm=", f);
		pm_print_text(f, ex->comm, strnlen(ex->comm, sizeof(ex->comm)));
		x = pm_exec_by_id(pm, ex->exec_id);
		if (x && x->x.argv_len) {
			fputs(" argv=", f);
			pm_print_argv(f, x->argv, x->x.argv_len, 200);
		}
		fputc('\n', f);
		break;
	case TIPME_REC_EXIT:
		fprintf(f, " pid=%s tgid=%" PRIu32 " ",
			pm_fmt_task(pm, xt->pid, ev->ts, a, sizeof(a)), xt->tgid);
		print_exit_code(f, xt->code);
		fputs(xt->flags & TIPME_EXIT_GROUP ? " (process ends)\n" : "\n", f);
		break;
	case TIPME_REC_COMM:
		fprintf(f, " pid=%" PRIu32 " tgid=%" PRIu32 " now \"", cm->pid, cm->tgid);
		pm_print_text(f, cm->comm, strnlen(cm->comm, sizeof(cm->comm)));
		fputs("\"\n", f);
		break;
	}
}

static void json_argv(struct tm_jw *w, const char *key, const char *a, size_t len)
{
	size_t i = 0;

	tm_jw_key(w, key);
	tm_jw_arr_begin(w);
	while (i < len) {
		const char *z = memchr(a + i, '\0', len - i);
		size_t l = z ? (size_t)(z - (a + i)) : len - i;

		tm_jw_strn(w, a + i, l);
		i += l + 1;
	}
	tm_jw_arr_end(w);
}

static void proc_json(struct tm_jw *w, const struct pm_dump *pm,
		      const struct pm_event *ev)
{
	const struct tipme_rec_fork *fk = &ev->u.fk;
	const struct tipme_rec_exec *ex = &ev->u.ex;
	const struct tipme_rec_exit *xt = &ev->u.xt;
	const struct tipme_rec_comm *cm = &ev->u.cm;
	const struct pm_exec *x;

	switch (ev->type) {
	case TIPME_REC_FORK:
		pm_rec_json_task(w, pm, "parent_pid", NULL, fk->parent_pid, ev->ts);
		tm_jw_ku64(w, "parent_tgid", fk->parent_tgid);
		pm_rec_json_task(w, pm, "child_pid", NULL, fk->child_pid, ev->ts + 1);
		tm_jw_ku64(w, "child_tgid", fk->child_tgid);
		tm_jw_kbool(w, "thread", fork_is_thread(fk));
		tm_jw_ku64(w, "clone_flags", fk->clone_flags_lo |
			(uint64_t)fk->clone_flags_hi << 32);
		break;
	case TIPME_REC_EXEC:
		tm_jw_ku64(w, "pid", ex->pid);
		tm_jw_ku64(w, "old_pid", ex->old_pid);
		tm_jw_key(w, "comm");
		tm_jw_strn(w, ex->comm, strnlen(ex->comm, sizeof(ex->comm)));
		tm_jw_ku64(w, "exec_id", ex->exec_id);
		x = pm_exec_by_id(pm, ex->exec_id);
		if (x) {
			tm_jw_key(w, "exe");
			tm_jw_strn(w, x->exe, x->x.exe_len);
			json_argv(w, "argv", x->argv, x->x.argv_len);
		}
		break;
	case TIPME_REC_EXIT:
		pm_rec_json_task(w, pm, "pid", NULL, xt->pid, ev->ts);
		tm_jw_ku64(w, "tgid", xt->tgid);
		tm_jw_ki64(w, "code", xt->code);
		tm_jw_kbool(w, "group", xt->flags & TIPME_EXIT_GROUP);
		break;
	case TIPME_REC_COMM:
		tm_jw_ku64(w, "pid", cm->pid);
		tm_jw_ku64(w, "tgid", cm->tgid);
		tm_jw_key(w, "comm");
		tm_jw_strn(w, cm->comm, strnlen(cm->comm, sizeof(cm->comm)));
		break;
	}
}

const struct pm_recops pm_rec_proc = {
	.pids = proc_pids,
	.text = proc_text,
	.json = proc_json,
};
