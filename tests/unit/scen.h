/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scenario dumps for the analysis tests: a test states what each CPU
 * recorded (switches, wakeups, blocking sites, block requests, locks,
 * reclaim), names its tasks, and writes a dump the real reader loads.
 * Ticks are nanoseconds and there are no clock pairs, so CLOCK_MONOTONIC
 * ns = ticks.  Kernel symbols come from a fixed table (scen.c).
 */
#ifndef TIPME_TEST_SCEN_H
#define TIPME_TEST_SCEN_H

#include <stddef.h>
#include <stdint.h>

#include <linux/tipme.h>

/* a generator of big dumps (bench/bigdump.c) builds scen.c with larger ones */
#ifndef SCEN_CPUS
#define SCEN_CPUS	4
#endif
#ifndef SCEN_SUBBUFS
#define SCEN_SUBBUFS	4
#endif
#ifndef SCEN_SB_BYTES
#define SCEN_SB_BYTES	16384
#endif
#ifndef SCEN_EXEC_BYTES
#define SCEN_EXEC_BYTES	8192
#endif
#ifndef SCEN_SITE_BYTES
#define SCEN_SITE_BYTES	4096
#endif

#define MS(x)	((uint64_t)((x) * 1000000.0))

struct scen_sb {
	uint64_t seq;
	size_t len;
	unsigned char buf[SCEN_SB_BYTES];
};

struct scen {
	uint32_t ncpus;
	struct scen_sb sb[SCEN_CPUS][SCEN_SUBBUFS];
	int nsb[SCEN_CPUS];
	unsigned char exec[SCEN_EXEC_BYTES];
	size_t exec_len;
	uint32_t nexec;
	const char *type_name_20;	/* the name type 20 gets ("comm") */
	int bad_exec;			/* corrupt the first exec entry's size */
	const char *system;		/* the system section's text, or NULL */
	uint32_t file_flags;		/* the header's TIPME_FILE_* flags */
	int overflow;			/* a buffer was too small: a test bug */
	/*
	 * Compact records (scen_compact): the scheduler records in the forms
	 * the module writes when it can (TIPME_REC_SWITCH_C, _WAKING_C and
	 * _SITE, with a site table), by the module's own rules.
	 */
	int compact;
	int64_t cur[SCEN_CPUS];		/* next pid of the latest switch, -1 */
	uint32_t cur_prio[SCEN_CPUS];	/* and its priority */
	size_t last_off[SCEN_CPUS];	/* the latest record in its sub-buffer */
	int64_t just_slept[SCEN_CPUS];	/* the last record put this pid to sleep */
	unsigned char sites[SCEN_SITE_BYTES];
	size_t sites_len;
	uint32_t nsites;
	/*
	 * User-space chains: the records' types are in the table when set,
	 * and the sections written as given (the header included).
	 */
	const void *ustacks;		/* TIPME_SEC_USTACKS, or NULL */
	size_t ustacks_len;
	const char *maps;		/* TIPME_SEC_MAPS, or NULL */
	const void *vdso[2];		/* TIPME_SEC_VDSO sections, as given */
	size_t vdso_len[2];
	size_t nvdso;
	const void *xmaps;		/* TIPME_SEC_XMAPS, or NULL */
	size_t xmaps_len;
	const void *smpsnap;		/* TIPME_SEC_SMPSNAP, or NULL */
	size_t smpsnap_len;
	/*
	 * Short headers: a record gets an extended timestamp only where the
	 * module writes one (first in its sub-buffer, or 2^24 ticks or more
	 * after the previous record); 0: every record has one.
	 */
	int short_ts;
	uint64_t last_ts[SCEN_CPUS];	/* the latest record's timestamp */
	/* profiler samples: their types are in the table when set */
	int prof;
	const char *params;		/* extra "key=value\n" parameters, or NULL */
};

/* Write scenarios with compact records (0: the full forms). */
extern int scen_compact;

/*
 * A CPU's stream section is ended before a sub-buffer once it holds this
 * many bytes, and the CPU goes on in a new section (each with its
 * checksum), as tipmed ends them: TM_DUMP_STREAM_SECTION unless a test
 * sets it.
 */
extern uint64_t scen_section_bytes;

void scen_init(struct scen *s, uint32_t ncpus);
void scen_subbuf(struct scen *s, uint32_t cpu, uint64_t seq);
void scen_rec(struct scen *s, uint32_t cpu, uint8_t type, uint64_t ts,
	      const void *p, size_t n);
void scen_switch(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t prev,
		 uint8_t prev_state, uint8_t prev_prio, uint32_t next,
		 uint8_t next_prio);
void scen_wake(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t target,
	       uint32_t target_cpu, uint32_t waker, uint32_t ctx);
/* a blocking site: NULL-terminated symbol names, innermost first */
void scen_blocked(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t pid,
		  const char *const *site);
/*
 * A simulated machine's CPU switching from thread @prev to @next (0:
 * idle), at priority 120: @prev to sleep at @site when @site is given,
 * else preempted.
 */
void scen_switch_to(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t prev,
		    uint32_t next, const char *const *site);
void scen_task(struct scen *s, uint32_t pid, uint32_t tgid, const char *comm,
	       const char *exe, const char *argv, size_t argv_len);
/* the parent process of @pid's exec table entries (scen_task() leaves 0) */
void scen_ppid(struct scen *s, uint32_t pid, uint32_t ppid);
/*
 * a work record: TIPME_REC_WORK_QUEUE or _START of item @id (@func, by
 * @pid in @ctx), or TIPME_REC_WORK_END (@func, @pid, @ctx unused)
 */
void scen_work(struct scen *s, uint32_t cpu, uint8_t type, uint64_t ts, uint32_t id,
	       const char *func, uint32_t pid, uint32_t ctx);
/*
 * a profiler sample of @pid (kernel chain: NULL-terminated symbol names,
 * innermost first, or NULL; user chain @ustack, 0 none), in the form the
 * module writes: compact when @pid is the CPU's current task (needs
 * s->compact for the site table), full otherwise; sets s->prof
 */
void scen_prof(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t pid,
	       const char *const *kstack, uint32_t ustack);
/* a profiler rate record (TIPME_REC_PROF_RATE); sets s->prof */
void scen_prof_rate(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t hz);
/* the hotkey's trigger (seq 1) at @ts on CPU 0 */
void scen_trigger(struct scen *s, uint64_t ts);
uint64_t scen_sym(const char *name);
/* KASLR slide of the scenarios' kernel text (0 unless a test sets it) */
extern uint64_t scen_kaslr_slide;
/* one entry of a record-type table, at *@n (incremented) */
void scen_add_type(struct tipme_rectype *t, size_t *n, uint8_t type,
		   uint8_t flags, uint16_t size, const char *name);
int scen_write(const struct scen *s, const char *path);

#endif
