// SPDX-License-Identifier: GPL-2.0
/*
 * Presentation of the instrumentation records: one text line or one JSON
 * object's members per record.  Payloads are copied into zeroed structures
 * (fields an older writer did not have read as zero).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "../dump/instr.h"

#define MAX_FRAMES	TIPME_REC_TYPE_LIMIT	/* more than any record holds */

/* The fixed part of any instrumentation record, for the printers. */
union instr_fixed {
	struct tipme_rec_blocked bl;
	struct tipme_rec_fork fk;
	struct tipme_rec_exec ex;
	struct tipme_rec_exit xt;
	struct tipme_rec_comm cm;
	struct tipme_rec_blk bk;
	struct tipme_rec_lock_begin lb;
	struct tipme_rec_lock_end le;
	struct tipme_rec_reclaim_begin rb;
	struct tipme_rec_reclaim_end re;
	struct tipme_rec_kswapd kw;
	struct tipme_rec_throttled th;
	struct tipme_rec_sample sm;
	struct tipme_rec_sample_end se;
	struct tipme_rec_cost co;
};

/* The fixed part of @ev's payload, zero-filled, and the array after it. */
static const unsigned char *payload(const struct pm_event *ev, void *fixed,
				    size_t size, size_t *rest)
{
	size_t n = ev->payload_len < size ? ev->payload_len : size;

	memset(fixed, 0, size);
	memcpy(fixed, ev->payload, n);
	*rest = ev->payload_len > size ? ev->payload_len - size : 0;
	return ev->payload + n;
}

static void u32s(const unsigned char *p, size_t avail, size_t nr, uint32_t *out,
		 size_t *n)
{
	size_t i;

	*n = nr < avail / 4 ? nr : avail / 4;
	if (*n > MAX_FRAMES)
		*n = MAX_FRAMES;
	for (i = 0; i < *n; i++)
		memcpy(&out[i], p + 4 * i, 4);
}

static const char *blk_op_name(unsigned int op)
{
	static const char *const names[] = {
		"read", "write", "flush", "discard", "secure_erase",
		"write_zeroes", "drv", "other",
	};

	return op < sizeof(names) / sizeof(names[0]) ? names[op] : "?";
}

static void blk_flag_text(unsigned int fl, char *buf, size_t len)
{
	static const char *const names[] = { "sync", "meta", "fua", "preflush", "rahead" };
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (fl & (1U << i))
			o += snprintf(buf + o, o < len ? len - o : 0, "%s%s",
				      o ? "," : "", names[i]);
}

static void lock_flag_text(unsigned int fl, char *buf, size_t len)
{
	static const char *const names[] = { "spin", "read", "write", "rt", "percpu", "mutex" };
	size_t i, o = 0;

	snprintf(buf, len, "%s", fl ? "" : "sem");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (fl & (1U << i))
			o += snprintf(buf + o, o < len ? len - o : 0, "%s%s",
				      o ? "," : "", names[i]);
}

static const char *reclaim_kind_name(unsigned int k)
{
	switch (k) {
	case TIPME_RECLAIM_DIRECT:	return "direct";
	case TIPME_RECLAIM_MEMCG:	return "memcg";
	case TIPME_RECLAIM_MEMCG_SOFT:	return "memcg_soft";
	default:			return "?";
	}
}

static const char *throttle_reason_name(unsigned int r)
{
	static const char *const names[] = { "writeback", "isolated", "noprogress", "congested" };

	return r < 4 ? names[r] : "?";
}

static const char *policy_name(unsigned int p)
{
	static const char *const names[] = {
		"normal", "fifo", "rr", "batch", "iso", "idle", "deadline", "?",
	};

	return names[p & 7];
}

unsigned int pm_instr_pids(const struct pm_event *ev, uint32_t *pids)
{
	union {
		struct tipme_rec_blocked bl;
		struct tipme_rec_fork fk;
		struct tipme_rec_exec ex;
		struct tipme_rec_exit xt;
		struct tipme_rec_comm cm;
		struct tipme_rec_blk bk;
		struct tipme_rec_lock_begin lb;
		struct tipme_rec_lock_end le;
		struct tipme_rec_reclaim_begin rb;
		struct tipme_rec_reclaim_end re;
		struct tipme_rec_kswapd kw;
		struct tipme_rec_throttled th;
	} u;
	size_t rest;

	if (!ev->rt->our_size)
		return 0;
	payload(ev, &u, sizeof(u), &rest);
	switch (ev->type) {
	case TIPME_REC_BLOCKED:
		pids[0] = u.bl.pid;
		return 1;
	case TIPME_REC_FORK:
		pids[0] = u.fk.parent_pid;
		pids[1] = u.fk.child_pid;
		return 2;
	case TIPME_REC_EXEC:
		pids[0] = u.ex.pid;
		pids[1] = u.ex.old_pid;
		return 2;
	case TIPME_REC_EXIT:
		pids[0] = u.xt.pid;
		return 1;
	case TIPME_REC_COMM:
		pids[0] = u.cm.pid;
		return 1;
	case TIPME_REC_BLK_ISSUE:
	case TIPME_REC_BLK_COMPLETE:
		pids[0] = u.bk.pid;
		return 1;
	case TIPME_REC_LOCK_BEGIN:
		pids[0] = u.lb.pid;
		pids[1] = u.lb.owner;
		return u.lb.owner ? 2 : 1;
	case TIPME_REC_LOCK_END:
		pids[0] = u.le.pid;
		return 1;
	case TIPME_REC_RECLAIM_BEGIN:
		pids[0] = u.rb.pid;
		return 1;
	case TIPME_REC_RECLAIM_END:
		pids[0] = u.re.pid;
		return 1;
	case TIPME_REC_KSWAPD:
		pids[0] = u.kw.pid;
		return 1;
	case TIPME_REC_THROTTLED:
		pids[0] = u.th.pid;
		return 1;
	default:
		return 0;	/* samples and costs: filtered by type only */
	}
}

static void print_frames(FILE *f, const struct pm_dump *pm, const uint64_t *a,
			 size_t n, const char *sep)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t off;
		const char *name = pm_sym_name(pm, a[i], &off);

		if (i)
			fputs(sep, f);
		if (name && strchr(name, ' '))	/* "func [module]" */
			fprintf(f, "%.*s+0x%" PRIx64 "%s", (int)(strchr(name, ' ') - name),
				name, off, strchr(name, ' '));
		else if (name)
			fprintf(f, "%s+0x%" PRIx64, name, off);
		else
			fprintf(f, "0x%" PRIx64, a[i]);
	}
}

static void json_frames(struct jw *w, const struct pm_dump *pm,
			const char *key, const uint64_t *a, size_t n)
{
	char buf[32];
	size_t i;

	jw_key(w, key);
	jw_arr_begin(w);
	for (i = 0; i < n; i++) {
		const char *name = pm_sym_name(pm, a[i], NULL);

		if (name) {
			jw_str(w, name);
		} else {
			snprintf(buf, sizeof(buf), "0x%" PRIx64, a[i]);
			jw_str(w, buf);
		}
	}
	jw_arr_end(w);
}

/* Arguments quoted on one line, NULs as spaces; at most @max bytes shown. */
void pm_print_argv(FILE *f, const char *a, size_t len, size_t max)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < len && i < max; i++) {
		unsigned char c = (unsigned char)a[i];

		if (!c) {
			if (i + 1 < len)
				fputc(' ', f);
		} else if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
			fprintf(f, "\\x%02x", c);
		} else {
			fputc(c, f);
		}
	}
	fputc('"', f);
	if (i < len)
		fputs("...", f);
}

static void json_argv(struct jw *w, const char *key, const char *a, size_t len)
{
	size_t i = 0;

	jw_key(w, key);
	jw_arr_begin(w);
	while (i < len) {
		const char *z = memchr(a + i, '\0', len - i);
		size_t l = z ? (size_t)(z - (a + i)) : len - i;

		jw_strn(w, a + i, l);
		i += l + 1;
	}
	jw_arr_end(w);
}

static char *task(const struct pm_dump *pm, uint32_t pid, uint64_t ts,
		  char *buf, size_t len)
{
	return pm_fmt_task(pm, pid, ts, buf, len);
}

static void print_exit_code(FILE *f, int32_t code)
{
	if (code & 0x7f)
		fprintf(f, "signal %d%s", code & 0x7f, code & 0x80 ? " (core)" : "");
	else
		fprintf(f, "status %d", (code >> 8) & 0xff);
}

static void print_sample(FILE *f, const struct pm_dump *pm,
			 const struct pm_event *ev, const struct tipme_rec_sample *s,
			 const unsigned char *p, size_t rest)
{
	size_t i, n = s->nr;
	char a[48];

	if (n > rest / sizeof(struct tipme_sample_ent))
		n = rest / sizeof(struct tipme_sample_ent);
	fprintf(f, " seq=%" PRIu32 "%s %zu thread%s:", s->seq,
		s->flags & TIPME_SAMPLE_FULL ? " full" : "", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		struct tipme_sample_ent t;

		memcpy(&t, p + i * sizeof(t), sizeof(t));
		fprintf(f, "%s %s %s%s cpu%u prio %u +%.3fms%s", i ? " |" : "",
			task(pm, tipme_smp_pid(t.word), ev->ts, a, sizeof(a)),
			pm_state_name(tipme_smp_state(t.word), 0),
			tipme_smp_oncpu(t.word) ? "(on cpu)" : "",
			t.cpu, t.prio, t.runtime / 1e6,
			t.flags & TIPME_SMP_NEW ? " new" : "");
	}
	fputc('\n', f);
}

int pm_instr_print(FILE *f, const struct pm_dump *pm, const struct pm_event *ev)
{
	union instr_fixed u;
	uint32_t ips[MAX_FRAMES];
	uint64_t fr[MAX_FRAMES];
	const unsigned char *p;
	char a[48], b[48], fl[64];
	size_t rest, n, i;
	const struct pm_exec *x;
	uint64_t sector;

	if (!ev->rt->our_size)
		return 0;
	switch (ev->type) {
	case TIPME_REC_BLOCKED:
		p = payload(ev, &u.bl, sizeof(u.bl), &rest);
		u32s(p, rest, u.bl.nr, ips, &n);
		n = pm_site_frames(pm, ips, n, fr, MAX_FRAMES);
		fprintf(f, " pid=%s in ", task(pm, u.bl.pid, ev->ts, a, sizeof(a)));
		print_frames(f, pm, fr, n, " <- ");
		fputs(u.bl.flags & TIPME_BLOCKED_FULL ? " <- ...\n" : "\n", f);
		return 1;
	case TIPME_REC_FORK: {
		uint64_t flags;

		payload(ev, &u.fk, sizeof(u.fk), &rest);
		flags = u.fk.clone_flags_lo | (uint64_t)u.fk.clone_flags_hi << 32;
		fprintf(f, " %s -> %s (%s, clone flags 0x%" PRIx64 ")\n",
			task(pm, u.fk.parent_pid, ev->ts, a, sizeof(a)),
			task(pm, u.fk.child_pid, ev->ts + 1, b, sizeof(b)),
			u.fk.child_tgid == u.fk.parent_tgid &&
			u.fk.child_pid != u.fk.child_tgid ? "thread" : "process",
			flags);
		return 1;
	}
	case TIPME_REC_EXEC:
		payload(ev, &u.ex, sizeof(u.ex), &rest);
		fprintf(f, " pid=%" PRIu32, u.ex.pid);
		if (u.ex.old_pid != u.ex.pid)
			fprintf(f, " (was thread %" PRIu32 ")", u.ex.old_pid);
		fputs(" comm=", f);
		pm_print_text(f, u.ex.comm, strnlen(u.ex.comm, sizeof(u.ex.comm)));
		x = pm_exec_by_id(pm, u.ex.exec_id);
		if (x && x->x.argv_len) {
			fputs(" argv=", f);
			pm_print_argv(f, x->argv, x->x.argv_len, 200);
		}
		fputc('\n', f);
		return 1;
	case TIPME_REC_EXIT:
		payload(ev, &u.xt, sizeof(u.xt), &rest);
		fprintf(f, " pid=%s tgid=%" PRIu32 " ",
			task(pm, u.xt.pid, ev->ts, a, sizeof(a)), u.xt.tgid);
		print_exit_code(f, u.xt.code);
		fputs(u.xt.flags & TIPME_EXIT_GROUP ? " (process ends)\n" : "\n", f);
		return 1;
	case TIPME_REC_COMM:
		payload(ev, &u.cm, sizeof(u.cm), &rest);
		fprintf(f, " pid=%" PRIu32 " tgid=%" PRIu32 " now \"", u.cm.pid, u.cm.tgid);
		pm_print_text(f, u.cm.comm, strnlen(u.cm.comm, sizeof(u.cm.comm)));
		fputs("\"\n", f);
		return 1;
	case TIPME_REC_BLK_ISSUE:
	case TIPME_REC_BLK_COMPLETE:
		payload(ev, &u.bk, sizeof(u.bk), &rest);
		sector = u.bk.sector_lo | (uint64_t)u.bk.sector_hi << 32;
		blk_flag_text(u.bk.flags, fl, sizeof(fl));
		fprintf(f, " dev=%u:%u %s%s%s sector=%" PRIu64 " bytes=%" PRIu32
			" tag=%u pid=%s", u.bk.dev >> 20, u.bk.dev & 0xfffff,
			blk_op_name(u.bk.op), fl[0] ? "," : "", fl, sector, u.bk.bytes,
			u.bk.tag, task(pm, u.bk.pid, ev->ts, a, sizeof(a)));
		if (ev->type == TIPME_REC_BLK_COMPLETE)
			fprintf(f, " error=%d in %s", u.bk.error, pm_ctx_name(u.bk.ctx));
		fputc('\n', f);
		return 1;
	case TIPME_REC_LOCK_BEGIN:
		payload(ev, &u.lb, sizeof(u.lb), &rest);
		lock_flag_text(u.lb.flags, fl, sizeof(fl));
		fprintf(f, " lock=0x%08" PRIx32 "%08" PRIx32 " (%s) pid=%s",
			u.lb.lock_hi, u.lb.lock_lo, fl,
			task(pm, u.lb.pid, ev->ts, a, sizeof(a)));
		if (u.lb.owner)
			fprintf(f, " held by %s", task(pm, u.lb.owner, ev->ts, b, sizeof(b)));
		fputc('\n', f);
		return 1;
	case TIPME_REC_LOCK_END:
		payload(ev, &u.le, sizeof(u.le), &rest);
		fprintf(f, " lock=0x%08" PRIx32 "%08" PRIx32 " pid=%s ret=%" PRId32 "\n",
			u.le.lock_hi, u.le.lock_lo,
			task(pm, u.le.pid, ev->ts, a, sizeof(a)), u.le.ret);
		return 1;
	case TIPME_REC_RECLAIM_BEGIN:
		p = payload(ev, &u.rb, sizeof(u.rb), &rest);
		u32s(p, rest, u.rb.nr, ips, &n);
		n = pm_site_frames(pm, ips, n, fr, MAX_FRAMES);
		fprintf(f, " %s pid=%s order=%" PRIu32 " gfp=0x%" PRIx32,
			reclaim_kind_name(u.rb.kind),
			task(pm, u.rb.pid, ev->ts, a, sizeof(a)), u.rb.order, u.rb.gfp);
		if (n) {
			fputs(" from ", f);
			print_frames(f, pm, fr, n, " <- ");
		}
		fputc('\n', f);
		return 1;
	case TIPME_REC_RECLAIM_END:
		payload(ev, &u.re, sizeof(u.re), &rest);
		fprintf(f, " %s pid=%s reclaimed=%" PRIu32 " pages\n",
			reclaim_kind_name(u.re.kind),
			task(pm, u.re.pid, ev->ts, a, sizeof(a)), u.re.nr_reclaimed);
		return 1;
	case TIPME_REC_KSWAPD:
		payload(ev, &u.kw, sizeof(u.kw), &rest);
		if (u.kw.kind == TIPME_KSWAPD_WAKEUP)
			fprintf(f, " woken by %s node %u zone %u order %" PRIu32
				" gfp=0x%" PRIx32 "\n",
				task(pm, u.kw.pid, ev->ts, a, sizeof(a)), u.kw.nid,
				u.kw.zid, u.kw.order, u.kw.gfp);
		else
			fprintf(f, " %s runs: node %u zone %u order %" PRIu32 "\n",
				task(pm, u.kw.pid, ev->ts, a, sizeof(a)), u.kw.nid,
				u.kw.zid, u.kw.order);
		return 1;
	case TIPME_REC_THROTTLED:
		payload(ev, &u.th, sizeof(u.th), &rest);
		fprintf(f, " pid=%s node %" PRIu32 " slept %" PRIu32 " of %" PRIu32
			" us (%s)\n", task(pm, u.th.pid, ev->ts, a, sizeof(a)),
			u.th.nid, u.th.usec_delayed, u.th.usec_timeout,
			throttle_reason_name(u.th.reason));
		return 1;
	case TIPME_REC_SAMPLE:
		p = payload(ev, &u.sm, sizeof(u.sm), &rest);
		print_sample(f, pm, ev, &u.sm, p, rest);
		return 1;
	case TIPME_REC_SAMPLE_END:
		payload(ev, &u.se, sizeof(u.se), &rest);
		fprintf(f, " seq=%" PRIu32 "%s looked at %" PRIu32 ", wrote %" PRIu32
			"%s%s, took %.1f us\n", u.se.seq,
			u.se.flags & TIPME_SMPEND_FULL ? " full:" : ":",
			u.se.threads, u.se.emitted,
			u.se.flags & TIPME_SMPEND_OVERFLOW ? ", log overflowed" : "",
			u.se.flags & TIPME_SMPEND_TABLE_FULL ? ", table full" : "",
			pm_ticks_to_ns(&pm->clock, u.se.cycles) / 1e3);
		return 1;
	case TIPME_REC_COST:
		p = payload(ev, &u.co, sizeof(u.co), &rest);
		n = u.co.nr < rest / sizeof(struct tipme_cost_ent) ?
		    u.co.nr : rest / sizeof(struct tipme_cost_ent);
		for (i = 0; i < n; i++) {
			struct tipme_cost_ent c;

			memcpy(&c, p + i * sizeof(c), sizeof(c));
			fprintf(f, "%s %s %u/%.1fus", i ? "," : "",
				pm->rt[c.type].present ? pm->rt[c.type].name : "?",
				c.count, pm_ticks_to_ns(&pm->clock, c.cycles) / 1e3);
		}
		fputc('\n', f);
		return 1;
	default:
		return 0;
	}
}

static void json_task(struct jw *w, const struct pm_dump *pm, const char *key,
		      uint32_t pid, uint64_t ts)
{
	const char *name = pm_task_name(pm, pid, ts);
	char k[48];

	jw_ku64(w, key, pid);
	if (name) {
		snprintf(k, sizeof(k), "%s_comm", key);
		jw_kstr(w, k, name);
	}
}

static void json_sample(struct jw *w, const struct pm_dump *pm,
			const struct pm_event *ev, const struct tipme_rec_sample *s,
			const unsigned char *p, size_t rest)
{
	size_t i, n = s->nr;

	if (n > rest / sizeof(struct tipme_sample_ent))
		n = rest / sizeof(struct tipme_sample_ent);
	jw_ku64(w, "seq", s->seq);
	jw_kbool(w, "full", s->flags & TIPME_SAMPLE_FULL);
	jw_key(w, "threads");
	jw_arr_begin(w);
	for (i = 0; i < n; i++) {
		struct tipme_sample_ent t;

		memcpy(&t, p + i * sizeof(t), sizeof(t));
		jw_obj_begin(w);
		json_task(w, pm, "pid", tipme_smp_pid(t.word), ev->ts);
		jw_ku64(w, "tgid", t.tgid);
		jw_kstr(w, "state", pm_state_name(tipme_smp_state(t.word), 0));
		jw_kbool(w, "on_cpu", tipme_smp_oncpu(t.word));
		jw_kstr(w, "policy", policy_name(tipme_smp_policy(t.word)));
		jw_ku64(w, "prio", t.prio);
		jw_ku64(w, "cpu", t.cpu);
		jw_ku64(w, "runtime_ns", t.runtime);
		jw_kbool(w, "new", t.flags & TIPME_SMP_NEW);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

int pm_instr_json(struct jw *w, const struct pm_dump *pm,
		  const struct pm_event *ev)
{
	union instr_fixed u;
	uint32_t ips[MAX_FRAMES];
	uint64_t fr[MAX_FRAMES];
	const unsigned char *p;
	const struct pm_exec *x;
	char fl[64];
	size_t rest, n, i;

	if (!ev->rt->our_size)
		return 0;
	switch (ev->type) {
	case TIPME_REC_BLOCKED:
		p = payload(ev, &u.bl, sizeof(u.bl), &rest);
		u32s(p, rest, u.bl.nr, ips, &n);
		n = pm_site_frames(pm, ips, n, fr, MAX_FRAMES);
		json_task(w, pm, "pid", u.bl.pid, ev->ts);
		json_frames(w, pm, "site", fr, n);
		jw_kbool(w, "truncated", u.bl.flags & TIPME_BLOCKED_FULL);
		return 1;
	case TIPME_REC_FORK:
		payload(ev, &u.fk, sizeof(u.fk), &rest);
		json_task(w, pm, "parent_pid", u.fk.parent_pid, ev->ts);
		jw_ku64(w, "parent_tgid", u.fk.parent_tgid);
		json_task(w, pm, "child_pid", u.fk.child_pid, ev->ts + 1);
		jw_ku64(w, "child_tgid", u.fk.child_tgid);
		jw_kbool(w, "thread", u.fk.child_tgid == u.fk.parent_tgid &&
			 u.fk.child_pid != u.fk.child_tgid);
		jw_ku64(w, "clone_flags", u.fk.clone_flags_lo |
			(uint64_t)u.fk.clone_flags_hi << 32);
		return 1;
	case TIPME_REC_EXEC:
		payload(ev, &u.ex, sizeof(u.ex), &rest);
		jw_ku64(w, "pid", u.ex.pid);
		jw_ku64(w, "old_pid", u.ex.old_pid);
		jw_key(w, "comm");
		jw_strn(w, u.ex.comm, strnlen(u.ex.comm, sizeof(u.ex.comm)));
		jw_ku64(w, "exec_id", u.ex.exec_id);
		x = pm_exec_by_id(pm, u.ex.exec_id);
		if (x) {
			jw_key(w, "exe");
			jw_strn(w, x->exe, x->x.exe_len);
			json_argv(w, "argv", x->argv, x->x.argv_len);
		}
		return 1;
	case TIPME_REC_EXIT:
		payload(ev, &u.xt, sizeof(u.xt), &rest);
		json_task(w, pm, "pid", u.xt.pid, ev->ts);
		jw_ku64(w, "tgid", u.xt.tgid);
		jw_ki64(w, "code", u.xt.code);
		jw_kbool(w, "group", u.xt.flags & TIPME_EXIT_GROUP);
		return 1;
	case TIPME_REC_COMM:
		payload(ev, &u.cm, sizeof(u.cm), &rest);
		jw_ku64(w, "pid", u.cm.pid);
		jw_ku64(w, "tgid", u.cm.tgid);
		jw_key(w, "comm");
		jw_strn(w, u.cm.comm, strnlen(u.cm.comm, sizeof(u.cm.comm)));
		return 1;
	case TIPME_REC_BLK_ISSUE:
	case TIPME_REC_BLK_COMPLETE:
		payload(ev, &u.bk, sizeof(u.bk), &rest);
		blk_flag_text(u.bk.flags, fl, sizeof(fl));
		jw_ku64(w, "dev", u.bk.dev);
		jw_ku64(w, "major", u.bk.dev >> 20);
		jw_ku64(w, "minor", u.bk.dev & 0xfffff);
		jw_ku64(w, "sector", u.bk.sector_lo | (uint64_t)u.bk.sector_hi << 32);
		jw_ku64(w, "bytes", u.bk.bytes);
		jw_kstr(w, "op", blk_op_name(u.bk.op));
		jw_kstr(w, "flags", fl);
		jw_ku64(w, "tag", u.bk.tag);
		json_task(w, pm, "pid", u.bk.pid, ev->ts);
		jw_ki64(w, "error", u.bk.error);
		jw_kstr(w, "ctx", pm_ctx_name(u.bk.ctx));
		return 1;
	case TIPME_REC_LOCK_BEGIN:
		payload(ev, &u.lb, sizeof(u.lb), &rest);
		lock_flag_text(u.lb.flags, fl, sizeof(fl));
		jw_ku64(w, "lock", u.lb.lock_lo | (uint64_t)u.lb.lock_hi << 32);
		jw_kstr(w, "kind", fl);
		jw_ku64(w, "flags", u.lb.flags);
		json_task(w, pm, "pid", u.lb.pid, ev->ts);
		if (u.lb.owner)
			json_task(w, pm, "owner", u.lb.owner, ev->ts);
		else
			jw_ku64(w, "owner", 0);
		return 1;
	case TIPME_REC_LOCK_END:
		payload(ev, &u.le, sizeof(u.le), &rest);
		jw_ku64(w, "lock", u.le.lock_lo | (uint64_t)u.le.lock_hi << 32);
		json_task(w, pm, "pid", u.le.pid, ev->ts);
		jw_ki64(w, "ret", u.le.ret);
		return 1;
	case TIPME_REC_RECLAIM_BEGIN:
		p = payload(ev, &u.rb, sizeof(u.rb), &rest);
		u32s(p, rest, u.rb.nr, ips, &n);
		n = pm_site_frames(pm, ips, n, fr, MAX_FRAMES);
		jw_kstr(w, "kind", reclaim_kind_name(u.rb.kind));
		json_task(w, pm, "pid", u.rb.pid, ev->ts);
		jw_ku64(w, "order", u.rb.order);
		jw_ku64(w, "gfp", u.rb.gfp);
		json_frames(w, pm, "stack", fr, n);
		return 1;
	case TIPME_REC_RECLAIM_END:
		payload(ev, &u.re, sizeof(u.re), &rest);
		jw_kstr(w, "kind", reclaim_kind_name(u.re.kind));
		json_task(w, pm, "pid", u.re.pid, ev->ts);
		jw_ku64(w, "nr_reclaimed", u.re.nr_reclaimed);
		return 1;
	case TIPME_REC_KSWAPD:
		payload(ev, &u.kw, sizeof(u.kw), &rest);
		jw_kstr(w, "kind", u.kw.kind == TIPME_KSWAPD_WAKEUP ? "wakeup" : "run");
		json_task(w, pm, "pid", u.kw.pid, ev->ts);
		jw_ku64(w, "nid", u.kw.nid);
		jw_ku64(w, "zid", u.kw.zid);
		jw_ku64(w, "order", u.kw.order);
		jw_ku64(w, "gfp", u.kw.gfp);
		return 1;
	case TIPME_REC_THROTTLED:
		payload(ev, &u.th, sizeof(u.th), &rest);
		json_task(w, pm, "pid", u.th.pid, ev->ts);
		jw_ku64(w, "nid", u.th.nid);
		jw_ku64(w, "usec_timeout", u.th.usec_timeout);
		jw_ku64(w, "usec_delayed", u.th.usec_delayed);
		jw_kstr(w, "reason", throttle_reason_name(u.th.reason));
		return 1;
	case TIPME_REC_SAMPLE:
		p = payload(ev, &u.sm, sizeof(u.sm), &rest);
		json_sample(w, pm, ev, &u.sm, p, rest);
		return 1;
	case TIPME_REC_SAMPLE_END:
		payload(ev, &u.se, sizeof(u.se), &rest);
		jw_ku64(w, "seq", u.se.seq);
		jw_kbool(w, "full", u.se.flags & TIPME_SMPEND_FULL);
		jw_kbool(w, "overflow", u.se.flags & TIPME_SMPEND_OVERFLOW);
		jw_kbool(w, "table_full", u.se.flags & TIPME_SMPEND_TABLE_FULL);
		jw_ku64(w, "threads", u.se.threads);
		jw_ku64(w, "emitted", u.se.emitted);
		jw_ki64(w, "cost_ns", pm_ticks_to_ns(&pm->clock, u.se.cycles));
		return 1;
	case TIPME_REC_COST:
		p = payload(ev, &u.co, sizeof(u.co), &rest);
		n = u.co.nr < rest / sizeof(struct tipme_cost_ent) ?
		    u.co.nr : rest / sizeof(struct tipme_cost_ent);
		jw_key(w, "costs");
		jw_arr_begin(w);
		for (i = 0; i < n; i++) {
			struct tipme_cost_ent c;

			memcpy(&c, p + i * sizeof(c), sizeof(c));
			jw_obj_begin(w);
			jw_ku64(w, "type_nr", c.type);
			jw_kstr(w, "type", pm->rt[c.type].present ? pm->rt[c.type].name : "?");
			jw_ku64(w, "count", c.count);
			jw_ki64(w, "ns", pm_ticks_to_ns(&pm->clock, c.cycles));
			jw_obj_end(w);
		}
		jw_arr_end(w);
		return 1;
	default:
		return 0;
	}
}
