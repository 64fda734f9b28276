// SPDX-License-Identifier: GPL-2.0
/*
 * The instrumentation side of the postmortem (postmortem/instr_*.c) on
 * synthetic dumps: the exec table (lookup by pid and time, task names,
 * malformed entries), blocking sites named from the symbol table, types
 * decoded only under their own names, and the self-cost of an interval.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/cost.h"
#include "cmd/commands.h"
#include "dumpfile.h"
#include "records/records.h"
#include "dump/tables.h"
#include "dump/pm.h"
#include "scen.h"
#include "tap.h"

/* A CPU stream being built: one sub-buffer, every record with its ts. */
struct stream {
	unsigned char buf[4096];
	size_t len;
};

static void rec(struct stream *s, uint8_t type, uint64_t ts, const void *p,
		size_t n)
{
	uint32_t hdr = tipme_hdr_make(type, 1, ts);

	memcpy(s->buf + s->len, &hdr, 4);
	memcpy(s->buf + s->len + 4, &ts, 8);
	memcpy(s->buf + s->len + 12, p, n);
	s->len += 12 + ((n + 3) & ~3UL);
}

static void sw(struct stream *s, uint64_t ts, uint32_t prev, uint32_t next)
{
	struct tipme_rec_switch r = { .prev_pid = prev, .next_pid = next,
				      .prev_prio = 120, .next_prio = 120,
				      .prev_state = TIPME_TS_SLEEPING };

	rec(s, TIPME_REC_SCHED_SWITCH, ts, &r, sizeof(r));
}

static void cost(struct stream *s, uint64_t ts, const struct tipme_cost_ent *e,
		 unsigned int n)
{
	unsigned char b[8 + 8 * 8];
	struct tipme_rec_cost h = { .len = (uint16_t)(4 + 8 * n), .nr = (uint8_t)n };

	memcpy(b, &h, 4);
	memcpy(b + 4, e, 8 * n);
	rec(s, TIPME_REC_COST, ts, b, 4 + 8 * n);
}

/* One exec table entry with its strings into @b; returns its size. */
static size_t exec_ent(unsigned char *b, uint32_t id, uint32_t pid,
		       uint32_t tgid, uint32_t flags, const char *comm,
		       uint64_t start, uint64_t exit, const char *exe,
		       const char *argv, size_t argv_len)
{
	struct tipme_exec x;
	size_t size;

	memset(&x, 0, sizeof(x));
	x.id = id;
	x.pid = pid;
	x.tgid = tgid;
	x.flags = flags | (exit ? TIPME_EXEC_EXITED : 0);
	x.start_ts = start;
	x.exit_ts = exit;
	snprintf(x.comm, sizeof(x.comm), "%s", comm);
	x.exe_len = (uint16_t)strlen(exe);
	x.argv_len = (uint16_t)argv_len;
	size = (sizeof(x) + x.exe_len + argv_len + 7) & ~7UL;
	x.size = (uint32_t)size;
	memset(b, 0, size);
	memcpy(b, &x, sizeof(x));
	memcpy(b + sizeof(x), exe, x.exe_len);
	memcpy(b + sizeof(x) + x.exe_len, argv, argv_len);
	return size;
}

/*
 * Write the dump.  @comm_name: the name type 20 gets in the record-type
 * table ("comm", or another writer's idea).  @bad_exec: 1 to corrupt an
 * entry, 2 for the exec table's header as written before strings_evicted
 * (TIPME_EXECTAB_HDR_SIZE_V1 bytes).
 */
static int write_dump(const char *path, const char *comm_name, int bad_exec)
{
	static const char *const names[] = {
		"__sched_text_start", "schedule", "__sched_text_end",
		"pipe_read", "vfs_read", "ksys_read",
	};
	static const uint64_t addrs[] = {
		0xffffffff81000000ULL, 0xffffffff81000100ULL, 0xffffffff81001000ULL,
		0xffffffff81200000ULL, 0xffffffff81300000ULL, 0xffffffff81400000ULL,
	};
	struct tipme_file_header fh;
	struct tipme_rectype types[8];
	struct tipme_exectab_hdr xh;
	struct tipme_subbuf sb;
	struct tm_err e = { "" };
	unsigned char xb[1024], syms[1024];
	struct stream st = { .len = 0 };
	struct tm_dumpw w;
	size_t nt = 0, xl = 0, sl, strs = 0, i;
	uint64_t count = 6;
	int err;

	memset(&fh, 0, sizeof(fh));
	fh.tsc_khz = 1000000;		/* ticks are ns; no clock pairs: mono = ts */
	fh.clock_source = TIPME_CLOCK_LOCAL;
	fh.nr_cpus = 1;
	if (tm_dumpw_open(&w, path, &fh, 0, &e))
		return -1;
	scen_add_type(types, &nt, TIPME_REC_SCHED_SWITCH, 0, sizeof(struct tipme_rec_switch),
		 "sched_switch");
	scen_add_type(types, &nt, TIPME_REC_BLOCKED, TIPME_RECTYPE_VARLEN,
		 sizeof(struct tipme_rec_blocked), "blocked");
	scen_add_type(types, &nt, TIPME_REC_COMM, 0, sizeof(struct tipme_rec_comm), comm_name);
	scen_add_type(types, &nt, TIPME_REC_COST, TIPME_RECTYPE_VARLEN,
		 sizeof(struct tipme_rec_cost), "cost");
	err = tm_dumpw_section(&w, TIPME_SEC_RECTYPES, 0, types, nt * sizeof(types[0]), &e);
	if (!err)
		err = tm_dumpw_section(&w, TIPME_SEC_PARAMS, 0, "text_addr_hi=0xffffffff\n", 24, &e);

	/* CPU 0: two switches, a batch; a blocked record, a switch, a batch. */
	sw(&st, 1000, 300, 0);
	sw(&st, 2000, 301, 0);
	{
		struct tipme_cost_ent c[] = { { TIPME_REC_SCHED_SWITCH, 0, 2, 200 } };

		cost(&st, 3000, c, 1);
	}
	{
		unsigned char b[8 + 12];
		struct tipme_rec_blocked h = { .len = 20, .nr = 3, .pid = 300 };
		uint32_t ips[3] = { 0x81000110, 0x81200044, 0x81300010 };

		memcpy(b, &h, 8);
		memcpy(b + 8, ips, 12);
		rec(&st, TIPME_REC_BLOCKED, 3500, b, 20);
	}
	{
		struct tipme_rec_comm c = { .pid = 301, .tgid = 300, .comm = "renamed" };

		rec(&st, TIPME_REC_COMM, 3600, &c, sizeof(c));
	}
	sw(&st, 4000, 301, 0);
	{
		struct tipme_cost_ent c[] = {
			{ TIPME_REC_SCHED_SWITCH, 0, 1, 50 },
			{ TIPME_REC_COST, 0, 1, 10 },
			{ TIPME_REC_BLOCKED, 0, 1, 400 },
			{ TIPME_REC_COMM, 0, 1, 40 },
		};

		cost(&st, 5000, c, 4);
	}
	memset(&sb, 0, sizeof(sb));
	sb.seq = 0;
	sb.len = (uint32_t)st.len;
	if (!err)
		err = tm_dumpw_section_begin(&w, TIPME_SEC_CPU_STREAM, 0, &e);
	if (!err)
		err = tm_dumpw_section_append(&w, &sb, sizeof(sb), &e);
	if (!err)
		err = tm_dumpw_section_append(&w, st.buf, st.len, &e);
	if (!err)
		err = tm_dumpw_section_end(&w, &e);

	/* Exec table: 300 exec'd at 500, replaced at 2500 by a second image. */
	memset(&xh, 0, sizeof(xh));
	xh.hdr_size = bad_exec == 2 ? TIPME_EXECTAB_HDR_SIZE_V1 : sizeof(xh);
	xh.capacity = 16;
	xh.strings_evicted = 5;
	memcpy(xb, &xh, xh.hdr_size);
	xl = xh.hdr_size;
	xl += exec_ent(xb + xl, 1, 300, 300, TIPME_EXEC_EXECED | TIPME_EXEC_REPLACED,
		       "sh", 500, 2500, "/bin/sh", "sh\0-c\0true", 11);
	xl += exec_ent(xb + xl, 2, 300, 300, TIPME_EXEC_EXECED, "true", 2500, 0,
		       "/bin/true", "true", 5);
	xl += exec_ent(xb + xl, 3, 301, 300, TIPME_EXEC_THREAD, "worker", 600, 0,
		       "", "", 0);
	if (bad_exec == 1) {
		struct tipme_exec x;

		memcpy(&x, xb + sizeof(xh), sizeof(x));
		x.size = 12;	/* not a multiple of 8 */
		memcpy(xb + sizeof(xh), &x, sizeof(x));
	}
	if (!err)
		err = tm_dumpw_section(&w, TIPME_SEC_EXECTAB, 0, xb, xl, &e);

	/* Symbols. */
	memcpy(syms, &count, 8);
	sl = 8 + count * sizeof(struct tipme_sym);
	for (i = 0; i < count; i++) {
		struct tipme_sym y = { .addr = addrs[i], .name_off = (uint32_t)strs };

		memcpy(syms + 8 + i * sizeof(y), &y, sizeof(y));
		strcpy((char *)syms + sl + strs, names[i]);
		strs += strlen(names[i]) + 1;
	}
	if (!err)
		err = tm_dumpw_section(&w, TIPME_SEC_SYMBOLS, 0, syms, sl + strs, &e);
	if (!err)
		err = tm_dumpw_commit(&w, &e);
	else
		tm_dumpw_abort(&w);
	if (err)
		fprintf(stderr, "# write: %s\n", e.msg);
	return err;
}

static char *records_text(struct pm_dump *pm)
{
	struct tm_err e = { "" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	pm_records_print(f, pm, NULL, 0, &e);
	fclose(f);
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/tipme-instr-XXXXXX", path[128];
	const struct pm_exec *x;
	struct tm_err e = { "" };
	struct pm_dump pm;
	struct pm_cost c;
	char *text;
	int err;

	tap_plan(18);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/a.dump", dir);
	if (write_dump(path, "comm", 0))
		return 1;
	err = pm_open(&pm, path, 0, &e);
	tap_ok(!err, "a dump with an exec table, symbols and cost records opens");
	if (err) {
		fprintf(stderr, "# %s\n", e.msg);
		return 1;
	}
	tap_ok(pm.instr && pm.instr->have_exectab && pm.instr->nr_execs == 3 &&
	       pm.instr->xhdr.strings_evicted == 5,
	       "the exec table has its 3 entries, and its header's strings_evicted");
	x = pm_exec_find(&pm, 300, 1000);
	tap_ok(x && x->x.id == 1 && x->x.argv_len == 11 && !memcmp(x->argv, "sh\0-c\0true", 11),
	       "pid 300 at ts 1000 is the first image, with its argv");
	x = pm_exec_find(&pm, 300, 3000);
	tap_ok(x && x->x.id == 2, "pid 300 at ts 3000 is the image that replaced it");
	tap_ok(pm_exec_by_id(&pm, 2) == x, "entries are found by id");
	tap_ok(pm_task_name(&pm, 301, 1000) && !strcmp(pm_task_name(&pm, 301, 1000), "worker"),
	       "threads are named from the table");
	tap_ok(!pm_task_name(&pm, 999, 1000), "an unknown pid has no name");

	text = records_text(&pm);
	tap_ok(text && strstr(text, "blocked pid=true:300 in pipe_read+0x44 <- vfs_read+0x10\n"),
	       "the blocking site is named, the scheduler frame dropped");
	tap_ok(text && strstr(text, "comm pid=301 tgid=300 now \"renamed\""),
	       "a type decoded under its own name");
	free(text);

	tap_ok(!pm_cost_compute(&pm, 0, 2500, &c, &e) && c.records == 2 &&
	       c.cost_ns > 199.9 && c.cost_ns < 200.1 && !c.estimated_records,
	       "cost of [0, 2500]: two switches, their whole batch (200 ns)");
	tap_ok(!pm_cost_compute(&pm, 1500, 4500, &c, &e) && c.records == 5 &&
	       c.cost_ns > 599.9 && c.cost_ns < 600.1,
	       "cost of [1500, 4500]: half the first batch and all of the second");
	tap_ok(c.type_records[TIPME_REC_SCHED_SWITCH] == 2 &&
	       c.type_ns[TIPME_REC_BLOCKED] > 399.9 && c.type_ns[TIPME_REC_BLOCKED] < 400.1,
	       "per type: 2 switches, the blocked record's 400 ns");
	tap_ok(!pm_cost_compute(&pm, INT64_MIN, INT64_MAX, &c, &e) && c.records == 7 &&
	       c.from_ns == 1000 && c.to_ns == 5000 && c.cost_ns > 699.9 && c.cost_ns < 700.1,
	       "the whole dump: 7 records, 700 ns, 1000..5000");
	pm_close(&pm);

	/* Another writer numbers "comm" differently: not decoded as ours. */
	if (write_dump(path, "other_thing", 0))
		return 1;
	err = pm_open(&pm, path, 0, &e);
	tap_ok(!err && !pm.rt[TIPME_REC_COMM].our_size,
	       "a type named otherwise is not decoded as an instrumentation type");
	text = err ? NULL : records_text(&pm);
	tap_ok(text && strstr(text, "other_thing (type 20, 24 bytes)"),
	       "and is printed as an unknown type");
	free(text);
	pm_close(&pm);

	/* A dump written before strings_evicted was counted. */
	if (write_dump(path, "comm", 2))
		return 1;
	err = pm_open(&pm, path, 0, &e);
	tap_ok(!err && pm.instr->nr_execs == 3 && pm.instr->xhdr.capacity == 16 &&
	       !pm.instr->xhdr.strings_evicted,
	       "an exec table header of the size before strings_evicted: read, it as 0 (%s)",
	       err ? e.msg : "ok");
	pm_close(&pm);

	if (write_dump(path, "comm", 1))
		return 1;
	err = pm_open(&pm, path, 0, &e);
	tap_ok(err && strstr(e.msg, "exec table"), "a malformed exec table entry is an error");
	tap_ok(err && strstr(e.msg, "bad entry size"), "the error says what is wrong");
	tap_diag("%s", e.msg);
	pm_close(&pm);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
