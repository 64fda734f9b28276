// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario dumps (scen.h): record streams, an exec table and a symbol
 * table written through lib/'s dump writer, as tipmed writes them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dumpfile.h"
#include "scen.h"

/* Kernel text, in address order: scheduler frames first (dropped in sites). */
static const char *const sym_names[] = {
	"__sched_text_start", "schedule", "__sched_text_end",
	"pipe_read", "vfs_read", "ksys_read", "hrtimer_nanosleep",
	"common_nsleep", "futex_wait_queue", "futex_wait", "do_sys_poll",
	"io_schedule", "folio_wait_bit_common", "do_signal_stop", "get_signal",
	"mutex_lock", "ext4_sync_file", "do_wait", "entry_SYSCALL_64",
	"folio_wait_writeback", "file_write_and_wait_range", "worker_thread", "kthread",
	"n_tty_read", "unix_stream_read_generic", "eventfd_read",
	"flush_to_ldisc", "vmstat_update",
	"filemap_fault", "__do_fault", "do_read_fault", "__folio_lock_killable",
	"__folio_lock_or_retry", "do_swap_page", "__handle_mm_fault",
	"sk_wait_data", "tcp_recvmsg_locked", "tcp_recvmsg", "inet_recvmsg",
	"sock_recvmsg", "mem_cgroup_handle_over_high", "exit_to_user_mode_prepare",
	"irqentry_exit_to_user_mode", "asm_exc_page_fault", "do_sigtimedwait",
	"__x64_sys_rt_sigtimedwait", "md_write_start", "raid1_make_request",
	"md_handle_request", "md_super_wait", "md_update_sb", "raid1d", "md_thread",
};

#define NSYMS	(sizeof(sym_names) / sizeof(sym_names[0]))
#define SYM_BASE	(0xffffffff81000000ULL + scen_kaslr_slide)

/* Where the scenario's kernel text was moved (a KASLR slide); 0: none. */
uint64_t scen_kaslr_slide;

int scen_compact;

uint64_t scen_section_bytes = TM_DUMP_STREAM_SECTION;

uint64_t scen_sym(const char *name)
{
	size_t i;

	for (i = 0; i < NSYMS; i++)
		if (!strcmp(sym_names[i], name))
			return SYM_BASE + 0x1000 * i;
	return 0;
}

void scen_init(struct scen *s, uint32_t ncpus)
{
	uint32_t c;

	memset(s, 0, sizeof(*s));
	s->ncpus = ncpus;
	s->type_name_20 = "comm";
	s->compact = scen_compact;
	for (c = 0; c < SCEN_CPUS; c++) {
		s->cur[c] = -1;
		s->just_slept[c] = -1;
	}
	for (c = 0; c < ncpus && c < SCEN_CPUS; c++)
		s->nsb[c] = 1;
}

void scen_subbuf(struct scen *s, uint32_t cpu, uint64_t seq)
{
	if (cpu >= SCEN_CPUS || s->nsb[cpu] >= SCEN_SUBBUFS) {
		s->overflow = 1;
		return;
	}
	/* A reader does not know what missing sub-buffers said. */
	if (seq != s->sb[cpu][s->nsb[cpu] - 1].seq + 1) {
		s->cur[cpu] = -1;
		s->just_slept[cpu] = -1;
	}
	s->sb[cpu][s->nsb[cpu]++].seq = seq;
}

void scen_rec(struct scen *s, uint32_t cpu, uint8_t type, uint64_t ts,
	      const void *p, size_t n)
{
	struct scen_sb *b;
	size_t size, hsize = 12;
	uint32_t hdr;
	int ext = 1;

	if (cpu >= SCEN_CPUS || !s->nsb[cpu]) {
		s->overflow = 1;
		return;
	}
	s->just_slept[cpu] = -1;
	b = &s->sb[cpu][s->nsb[cpu] - 1];
	if (s->short_ts && b->len && ts >= s->last_ts[cpu] &&
	    ts - s->last_ts[cpu] < (1ULL << TIPME_HDR_TS_BITS)) {
		ext = 0;
		hsize = 4;
	}
	hdr = tipme_hdr_make(type, ext, ts);
	size = hsize + ((n + 3) & ~3UL);
	if (b->len + size > sizeof(b->buf)) {
		s->overflow = 1;
		return;
	}
	s->last_off[cpu] = b->len;
	s->last_ts[cpu] = ts;
	memset(b->buf + b->len, 0, size);
	memcpy(b->buf + b->len, &hdr, 4);
	if (ext)
		memcpy(b->buf + b->len + 4, &ts, 8);
	memcpy(b->buf + b->len + hsize, p, n);
	b->len += size;
}

void scen_switch(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t prev,
		 uint8_t prev_state, uint8_t prev_prio, uint32_t next,
		 uint8_t next_prio)
{
	struct tipme_rec_switch r = {
		.prev_pid = prev, .next_pid = next, .prev_prio = prev_prio,
		.next_prio = next_prio, .prev_state = prev_state,
		.flags = prev_state == TIPME_TS_RUNNABLE ? TIPME_SWITCH_PREEMPT : 0,
	};

	struct tipme_rec_switch_c c;

	uint32_t state = prev_state == TIPME_TS_RUNNABLE ? TIPME_CSW_PREEMPTED :
			 prev_state;
	/* a sleeping switch gets its site from scen_blocked() */
	int kind = tipme_switch_s_kind(state, 0);

	/* the module's rules: short when prev is the current task, unchanged */
	if (s->compact && cpu < SCEN_CPUS && kind >= 0 &&
	    s->cur[cpu] == (int64_t)prev && s->cur_prio[cpu] == prev_prio) {
		struct tipme_rec_switch_s w = {
			tipme_switch_s_word(next, next_prio, (uint32_t)kind)
		};

		scen_rec(s, cpu, TIPME_REC_SWITCH_S, ts, &w, sizeof(w));
	} else if (s->compact) {
		tipme_switch_c_pack(&c, prev, prev_prio, next, next_prio, state);
		scen_rec(s, cpu, TIPME_REC_SWITCH_C, ts, &c, sizeof(c));
	} else {
		scen_rec(s, cpu, TIPME_REC_SCHED_SWITCH, ts, &r, sizeof(r));
	}
	if (cpu < SCEN_CPUS) {
		s->cur[cpu] = next;
		s->cur_prio[cpu] = next_prio;
		if (prev && prev_state != TIPME_TS_RUNNABLE)
			s->just_slept[cpu] = prev;
	}
}

void scen_wake(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t target,
	       uint32_t target_cpu, uint32_t waker, uint32_t ctx)
{
	struct tipme_rec_waking w;
	struct tipme_rec_waking_c c;

	/* the module's rule: the short form when the waker is the CPU's current */
	if (s->compact && cpu < SCEN_CPUS && s->cur[cpu] == (int64_t)waker &&
	    target_cpu < TIPME_WAKING_C_CPUS) {
		c.word = tipme_waking_c_word(target, target_cpu, ctx);
		scen_rec(s, cpu, TIPME_REC_WAKING_C, ts, &c, sizeof(c));
		return;
	}
	tipme_waking_pack(&w, target, target_cpu, waker, ctx);
	scen_rec(s, cpu, TIPME_REC_SCHED_WAKING, ts, &w, sizeof(w));
}

/* The site table's number for a site (struct tipme_site, then addresses). */
static uint32_t scen_site_id(struct scen *s, uint8_t nr, const unsigned char *ips)
{
	struct tipme_site st;
	size_t off = 0;
	uint32_t i;

	for (i = 0; i < s->nsites; i++) {
		memcpy(&st, s->sites + off, sizeof(st));
		if (st.nr == nr && !memcmp(s->sites + off + sizeof(st), ips, 4u * nr))
			return st.id;
		off += sizeof(st) + 4u * st.nr;
	}
	if (s->sites_len + sizeof(st) + 4u * nr > sizeof(s->sites)) {
		s->overflow = 1;
		return 0;
	}
	memset(&st, 0, sizeof(st));
	st.id = 100 + 7 * s->nsites++;	/* numbers need not be dense */
	st.nr = nr;
	memcpy(s->sites + s->sites_len, &st, sizeof(st));
	memcpy(s->sites + s->sites_len + sizeof(st), ips, 4u * nr);
	s->sites_len += sizeof(st) + 4u * nr;
	return st.id;
}

void scen_prof(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t pid,
	       const char *const *kstack, uint32_t ustack)
{
	unsigned char ips[4 * 8];
	uint32_t ip, site = 0;
	uint8_t nr = 0;

	s->prof = 1;
	for (; kstack && *kstack && nr < 8; kstack++) {
		ip = (uint32_t)(scen_sym(*kstack) + 0x30);
		memcpy(ips + 4 * nr++, &ip, 4);
	}
	if (nr)
		site = scen_site_id(s, nr, ips);
	if (s->compact && cpu < SCEN_CPUS && s->cur[cpu] == (int64_t)pid) {
		struct tipme_rec_prof_c c = { site, ustack };
		struct tipme_rec_prof_u u = { ustack };

		if (nr)
			scen_rec(s, cpu, TIPME_REC_PROF_C, ts, &c, sizeof(c));
		else
			scen_rec(s, cpu, TIPME_REC_PROF_U, ts, &u, sizeof(u));
	} else {
		struct tipme_rec_prof r = { pid, site, ustack };

		scen_rec(s, cpu, TIPME_REC_PROF, ts, &r, sizeof(r));
	}
}

void scen_prof_rate(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t hz)
{
	struct tipme_rec_prof_rate r = { hz, 0 };

	s->prof = 1;
	scen_rec(s, cpu, TIPME_REC_PROF_RATE, ts, &r, sizeof(r));
}

void scen_blocked(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t pid,
		  const char *const *site)
{
	unsigned char b[sizeof(struct tipme_rec_blocked) + 4 * 8];
	struct tipme_rec_blocked h = { .pid = pid };
	uint32_t ip;

	/* the scheduler's own frame first, as the probe records it */
	ip = (uint32_t)(scen_sym("schedule") + 0x10);
	memcpy(b + sizeof(h), &ip, 4);
	h.nr = 1;
	for (; *site && h.nr < 8; site++) {
		ip = (uint32_t)(scen_sym(*site) + 0x20);
		memcpy(b + sizeof(h) + 4 * h.nr++, &ip, 4);
	}
	h.len = (uint16_t)(sizeof(h) + 4 * h.nr);
	memcpy(b, &h, sizeof(h));
	/* the module's rule: a number right after the switch that put @pid to sleep */
	if (s->compact && cpu < SCEN_CPUS && s->just_slept[cpu] == (int64_t)pid) {
		struct tipme_rec_site r = { scen_site_id(s, h.nr, b + sizeof(h)) };
		struct scen_sb *sb = &s->sb[cpu][s->nsb[cpu] - 1];
		uint32_t hdr;
		uint32_t word;
		struct tipme_rec_switch sw;
		int kind = -1;
		size_t hsize;

		memcpy(&hdr, sb->buf + s->last_off[cpu], 4);
		hsize = tipme_hdr_ext(hdr) ? 12 : 4;
		memcpy(&word, sb->buf + s->last_off[cpu] + hsize, 4);
		if (tipme_hdr_type(hdr) == TIPME_REC_SWITCH_S) {
			tipme_switch_s_unpack(word, 0, 0, 0, &sw);
			kind = tipme_switch_s_kind(sw.prev_state, 1);
		}
		if (kind >= 0 && sb->len + 4 <= sizeof(sb->buf)) {
			/* the switch record takes the site: a short switch with a site */
			hdr = tipme_hdr_make(TIPME_REC_SWITCH_SITE_S, hsize == 12,
					     tipme_hdr_ts(hdr));
			word = (word & ~(3U << 30)) | (uint32_t)kind << 30;
			memcpy(sb->buf + s->last_off[cpu], &hdr, 4);
			memcpy(sb->buf + s->last_off[cpu] + hsize, &word, 4);
			memcpy(sb->buf + sb->len, &r.id, 4);
			sb->len += 4;
			s->just_slept[cpu] = -1;
			return;
		}
		scen_rec(s, cpu, TIPME_REC_SITE, ts, &r, sizeof(r));
		return;
	}
	scen_rec(s, cpu, TIPME_REC_BLOCKED, ts, b, h.len);
}

void scen_switch_to(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t prev,
		    uint32_t next, const char *const *site)
{
	scen_switch(s, cpu, ts, prev, prev && site ? TIPME_TS_SLEEPING : TIPME_TS_RUNNABLE, 120,
		    next, 120);
	if (prev && site)
		scen_blocked(s, cpu, ts, prev, site);
}

void scen_task(struct scen *s, uint32_t pid, uint32_t tgid, const char *comm,
	       const char *exe, const char *argv, size_t argv_len)
{
	struct tipme_exec x;
	size_t size;

	memset(&x, 0, sizeof(x));
	x.id = ++s->nexec;
	x.pid = pid;
	x.tgid = tgid;
	x.flags = pid == tgid ? TIPME_EXEC_EXECED : TIPME_EXEC_THREAD;
	snprintf(x.comm, sizeof(x.comm), "%s", comm);
	x.exe_len = (uint16_t)strlen(exe);
	x.argv_len = (uint16_t)argv_len;
	size = (sizeof(x) + x.exe_len + argv_len + 7) & ~7UL;
	x.size = (uint32_t)size;
	if (s->exec_len + size > sizeof(s->exec)) {
		s->overflow = 1;
		return;
	}
	memset(s->exec + s->exec_len, 0, size);
	memcpy(s->exec + s->exec_len, &x, sizeof(x));
	memcpy(s->exec + s->exec_len + sizeof(x), exe, x.exe_len);
	memcpy(s->exec + s->exec_len + sizeof(x) + x.exe_len, argv, argv_len);
	s->exec_len += size;
}

void scen_ppid(struct scen *s, uint32_t pid, uint32_t ppid)
{
	size_t off = 0;

	while (off + sizeof(struct tipme_exec) <= s->exec_len) {
		struct tipme_exec x;

		memcpy(&x, s->exec + off, sizeof(x));
		if (x.pid == pid) {
			x.ppid = ppid;
			memcpy(s->exec + off, &x, sizeof(x));
		}
		off += x.size;
	}
}

void scen_work(struct scen *s, uint32_t cpu, uint8_t type, uint64_t ts, uint32_t id,
	       const char *func, uint32_t pid, uint32_t ctx)
{
	struct tipme_rec_work w = {
		.work = id, .func = func ? (uint32_t)scen_sym(func) : 0,
		.who = tipme_work_who(pid, ctx),
	};
	struct tipme_rec_work_end e = { .work = id };

	if (type == TIPME_REC_WORK_END)
		scen_rec(s, cpu, type, ts, &e, sizeof(e));
	else
		scen_rec(s, cpu, type, ts, &w, sizeof(w));
}

void scen_trigger(struct scen *s, uint64_t ts)
{
	struct tipme_rec_trigger tr = { .seq = 1, .source = 1 };

	scen_rec(s, 0, TIPME_REC_TRIGGER, ts, &tr, sizeof(tr));
}

void scen_add_type(struct tipme_rectype *t, size_t *n, uint8_t type,
		   uint8_t flags, uint16_t size, const char *name)
{
	memset(&t[*n], 0, sizeof(t[*n]));
	t[*n].type = type;
	t[*n].flags = flags;
	t[*n].payload_size = size;
	snprintf(t[*n].name, sizeof(t[*n].name), "%s", name);
	(*n)++;
}

static int write_streams(const struct scen *s, struct tm_dumpw *w, struct tm_err *e)
{
	struct tipme_subbuf sb;
	uint64_t in_sec;
	uint32_t c;
	int i, err = 0;

	for (c = 0; c < s->ncpus && c < SCEN_CPUS && !err; c++) {
		err = tm_dumpw_section_begin(w, TIPME_SEC_CPU_STREAM, c, e);
		in_sec = 0;
		for (i = 0; i < s->nsb[c] && !err; i++) {
			if (in_sec >= scen_section_bytes) {
				err = tm_dumpw_section_end(w, e);
				if (!err)
					err = tm_dumpw_section_begin(w, TIPME_SEC_CPU_STREAM,
								  c, e);
				in_sec = 0;
				if (err)
					break;
			}
			in_sec += sizeof(sb) + s->sb[c][i].len;
			memset(&sb, 0, sizeof(sb));
			sb.seq = s->sb[c][i].seq;
			sb.len = (uint32_t)s->sb[c][i].len;
			err = tm_dumpw_section_append(w, &sb, sizeof(sb), e);
			if (!err)
				err = tm_dumpw_section_append(w, s->sb[c][i].buf,
							   s->sb[c][i].len, e);
		}
		if (!err)
			err = tm_dumpw_section_end(w, e);
	}
	return err;
}

static int write_exec(const struct scen *s, struct tm_dumpw *w, struct tm_err *e)
{
	unsigned char xb[sizeof(struct tipme_exectab_hdr) + SCEN_EXEC_BYTES];
	struct tipme_exectab_hdr xh;

	memset(&xh, 0, sizeof(xh));
	xh.hdr_size = sizeof(xh);
	xh.capacity = 64;
	memcpy(xb, &xh, sizeof(xh));
	memcpy(xb + sizeof(xh), s->exec, s->exec_len);
	if (s->bad_exec && s->exec_len) {
		uint32_t bad = 12;	/* not a multiple of 8 */

		memcpy(xb + sizeof(xh), &bad, 4);
	}
	return tm_dumpw_section(w, TIPME_SEC_EXECTAB, 0, xb, sizeof(xh) + s->exec_len, e);
}

static int write_sites(const struct scen *s, struct tm_dumpw *w, struct tm_err *e)
{
	unsigned char b[sizeof(struct tipme_sitetab_hdr) + SCEN_SITE_BYTES];
	struct tipme_sitetab_hdr h;

	memset(&h, 0, sizeof(h));
	h.hdr_size = sizeof(h);
	h.count = s->nsites;
	h.capacity = 1024;
	h.depth = 8;
	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), s->sites, s->sites_len);
	return tm_dumpw_section(w, TIPME_SEC_SITES, 0, b, sizeof(h) + s->sites_len, e);
}

static int write_syms(struct tm_dumpw *w, struct tm_err *e)
{
	unsigned char b[8 + NSYMS * sizeof(struct tipme_sym) + NSYMS * 32];
	uint64_t count = NSYMS;
	size_t i, sl = 8 + NSYMS * sizeof(struct tipme_sym), strs = 0;

	memcpy(b, &count, 8);
	for (i = 0; i < NSYMS; i++) {
		struct tipme_sym y = { .addr = SYM_BASE + 0x1000 * i,
				       .name_off = (uint32_t)strs };

		memcpy(b + 8 + i * sizeof(y), &y, sizeof(y));
		memcpy(b + sl + strs, sym_names[i], strlen(sym_names[i]) + 1);
		strs += strlen(sym_names[i]) + 1;
	}
	return tm_dumpw_section(w, TIPME_SEC_SYMBOLS, 0, b, sl + strs, e);
}

/* The parameters section: @base, then the scenario's own lines. */
static int write_params(const struct scen *s, struct tm_dumpw *w, const char *base,
			struct tm_err *e)
{
	char b[1024];
	int n;

	n = snprintf(b, sizeof(b), "%s%s", base, s->params ? s->params : "");
	if (n < 0 || (size_t)n >= sizeof(b))
		return tm_err_set(e, E2BIG, "scenario parameters too long");
	return tm_dumpw_section(w, TIPME_SEC_PARAMS, 0, b, (size_t)n, e);
}

int scen_write(const struct scen *s, const char *path)
{
	static const char params[] = "text_addr_hi=0xffffffff\n";
	struct tipme_file_header fh;
	struct tipme_rectype types[64];
	struct tm_err e = { "" };
	struct tm_dumpw w;
	size_t nt = 0, i;
	int err;

	if (s->overflow) {
		fprintf(stderr, "# scenario overflows its buffers\n");
		return -1;
	}
	memset(&fh, 0, sizeof(fh));
	fh.tsc_khz = 1000000;		/* ticks are ns; no clock pairs: mono = ts */
	fh.clock_source = TIPME_CLOCK_LOCAL;
	fh.nr_cpus = s->ncpus;
	fh.flags = s->file_flags;
	if (tm_dumpw_open(&w, path, &fh, 0, &e)) {
		fprintf(stderr, "# %s\n", e.msg);
		return -1;
	}
	scen_add_type(types, &nt, TIPME_REC_SCHED_SWITCH, 0, sizeof(struct tipme_rec_switch),
		 "sched_switch");
	scen_add_type(types, &nt, TIPME_REC_SCHED_WAKING, 0, sizeof(struct tipme_rec_waking),
		 "sched_waking");
	scen_add_type(types, &nt, TIPME_REC_TRIGGER, 0, sizeof(struct tipme_rec_trigger), "trigger");
	scen_add_type(types, &nt, TIPME_REC_INPUT, 0, sizeof(struct tipme_rec_input), "input");
	scen_add_type(types, &nt, TIPME_REC_BLOCKED, TIPME_RECTYPE_VARLEN,
		 sizeof(struct tipme_rec_blocked), "blocked");
	scen_add_type(types, &nt, TIPME_REC_COMM, 0, sizeof(struct tipme_rec_comm), s->type_name_20);
	scen_add_type(types, &nt, TIPME_REC_BLK_ISSUE, 0, sizeof(struct tipme_rec_blk), "blk_issue");
	scen_add_type(types, &nt, TIPME_REC_BLK_INSERT, 0, sizeof(struct tipme_rec_blk), "blk_insert");
	scen_add_type(types, &nt, TIPME_REC_BLK_COMPLETE, 0, sizeof(struct tipme_rec_blk),
		 "blk_complete");
	scen_add_type(types, &nt, TIPME_REC_BIO_QUEUE, 0, sizeof(struct tipme_rec_bio), "bio_queue");
	scen_add_type(types, &nt, TIPME_REC_BIO_COMPLETE, 0, sizeof(struct tipme_rec_bio),
		 "bio_complete");
	scen_add_type(types, &nt, TIPME_REC_BIO_SPLIT, 0, sizeof(struct tipme_rec_bio), "bio_split");
	scen_add_type(types, &nt, TIPME_REC_BIO_REMAP, 0, sizeof(struct tipme_rec_bio_remap),
		 "bio_remap");
	scen_add_type(types, &nt, TIPME_REC_CPU_THROTTLE, 0,
		      sizeof(struct tipme_rec_cpu_throttle), "cpu_throttle");
	scen_add_type(types, &nt, TIPME_REC_BLK_FILE, 0, sizeof(struct tipme_rec_blk_file),
		 "blk_file");
	scen_add_type(types, &nt, TIPME_REC_LOCK_BEGIN, 0, sizeof(struct tipme_rec_lock_begin),
		 "lock_begin");
	scen_add_type(types, &nt, TIPME_REC_LOCK_END, 0, sizeof(struct tipme_rec_lock_end), "lock_end");
	scen_add_type(types, &nt, TIPME_REC_RECLAIM_BEGIN, TIPME_RECTYPE_VARLEN,
		 sizeof(struct tipme_rec_reclaim_begin), "reclaim_begin");
	scen_add_type(types, &nt, TIPME_REC_RECLAIM_END, 0, sizeof(struct tipme_rec_reclaim_end),
		 "reclaim_end");
	scen_add_type(types, &nt, TIPME_REC_SAMPLE, TIPME_RECTYPE_VARLEN,
		 sizeof(struct tipme_rec_sample), "sample");
	scen_add_type(types, &nt, TIPME_REC_COST, TIPME_RECTYPE_VARLEN,
		 sizeof(struct tipme_rec_cost), "cost");
	scen_add_type(types, &nt, TIPME_REC_WORK_QUEUE, 0, sizeof(struct tipme_rec_work),
		      "work_queue");
	scen_add_type(types, &nt, TIPME_REC_WORK_START, 0, sizeof(struct tipme_rec_work),
		      "work_start");
	scen_add_type(types, &nt, TIPME_REC_WORK_END, 0, sizeof(struct tipme_rec_work_end),
		      "work_end");
	scen_add_type(types, &nt, TIPME_REC_INTR, 0, sizeof(struct tipme_rec_intr), "intr");
	scen_add_type(types, &nt, TIPME_REC_VBLANK, 0, sizeof(struct tipme_rec_vblank), "vblank");
	scen_add_type(types, &nt, TIPME_REC_VBLANK_QUEUED, 0, sizeof(struct tipme_rec_vblank_ev),
		      "vblank_queued");
	scen_add_type(types, &nt, TIPME_REC_VBLANK_DELIVERED, 0,
		      sizeof(struct tipme_rec_vblank_ev), "vblank_delivered");
	scen_add_type(types, &nt, TIPME_REC_FENCE, 0, sizeof(struct tipme_rec_fence), "fence");
	scen_add_type(types, &nt, TIPME_REC_FENCE_NAME, 0, sizeof(struct tipme_rec_fence_name),
		      "fence_name");
	scen_add_type(types, &nt, TIPME_REC_NET_RECV, 0, sizeof(struct tipme_rec_net), "net_recv");
	scen_add_type(types, &nt, TIPME_REC_NET_SEND, 0, sizeof(struct tipme_rec_net), "net_send");
	scen_add_type(types, &nt, TIPME_REC_FORK, 0, sizeof(struct tipme_rec_fork), "fork");
	if (s->compact) {
		scen_add_type(types, &nt, TIPME_REC_SWITCH_C, 0,
			      sizeof(struct tipme_rec_switch_c), "sched_switch_c");
		scen_add_type(types, &nt, TIPME_REC_WAKING_C, 0,
			      sizeof(struct tipme_rec_waking_c), "sched_waking_c");
		scen_add_type(types, &nt, TIPME_REC_SITE, 0,
			      sizeof(struct tipme_rec_site), "site");
		scen_add_type(types, &nt, TIPME_REC_SWITCH_S, 0,
			      sizeof(struct tipme_rec_switch_s), "sched_switch_s");
		scen_add_type(types, &nt, TIPME_REC_SWITCH_SITE_S, 0,
			      sizeof(struct tipme_rec_switch_site_s),
			      "sched_switch_site_s");
	}
	if (s->prof) {
		scen_add_type(types, &nt, TIPME_REC_PROF, 0, sizeof(struct tipme_rec_prof), "prof");
		scen_add_type(types, &nt, TIPME_REC_PROF_C, 0,
			      sizeof(struct tipme_rec_prof_c), "prof_c");
		scen_add_type(types, &nt, TIPME_REC_PROF_U, 0,
			      sizeof(struct tipme_rec_prof_u), "prof_u");
		scen_add_type(types, &nt, TIPME_REC_PROF_RATE, 0,
			      sizeof(struct tipme_rec_prof_rate), "prof_rate");
	}
	if (s->ustacks) {
		scen_add_type(types, &nt, TIPME_REC_USTACK, 0,
			      sizeof(struct tipme_rec_ustack), "ustack");
		scen_add_type(types, &nt, TIPME_REC_USTACK_C, 0,
			      sizeof(struct tipme_rec_ustack_c), "ustack_c");
	}
	err = tm_dumpw_section(&w, TIPME_SEC_RECTYPES, 0, types, nt * sizeof(types[0]), &e);
	if (!err)
		err = write_params(s, &w, params, &e);
	if (!err && s->system)
		err = tm_dumpw_section(&w, TIPME_SEC_SYSTEM, 0, s->system,
				    strlen(s->system), &e);
	if (!err)
		err = write_streams(s, &w, &e);
	if (!err && s->exec_len)
		err = write_exec(s, &w, &e);
	if (!err && (s->compact || s->nsites))
		err = write_sites(s, &w, &e);
	if (!err && s->ustacks)
		err = tm_dumpw_section(&w, TIPME_SEC_USTACKS, 0, s->ustacks,
				       s->ustacks_len, &e);
	if (!err && s->maps)
		err = tm_dumpw_section(&w, TIPME_SEC_MAPS, 0, s->maps,
				       strlen(s->maps), &e);
	for (i = 0; !err && i < s->nvdso; i++)
		err = tm_dumpw_section(&w, TIPME_SEC_VDSO, 0, s->vdso[i], s->vdso_len[i], &e);
	if (!err && s->xmaps)
		err = tm_dumpw_section(&w, TIPME_SEC_XMAPS, 0, s->xmaps, s->xmaps_len, &e);
	if (!err && s->smpsnap)
		err = tm_dumpw_section(&w, TIPME_SEC_SMPSNAP, 0, s->smpsnap,
				       s->smpsnap_len, &e);
	if (!err)
		err = write_syms(&w, &e);
	if (!err)
		err = tm_dumpw_commit(&w, &e);
	else
		tm_dumpw_abort(&w);
	if (err)
		fprintf(stderr, "# write: %s\n", e.msg);
	return err;
}
