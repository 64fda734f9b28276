/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An opened dump with its metadata sections checked and indexed
 * (record-type table, per-CPU stats, clock pairs, text sections, the CPU
 * streams per CPU).  The rest of dump/ reads it: decode.h (records of one
 * CPU, then all CPUs merged in time order), clock.h (timestamps to
 * CLOCK_MONOTONIC / CLOCK_REALTIME), tables.h (exec table, self-cost
 * totals, kernel symbols).
 */
#ifndef TIPME_PM_H
#define TIPME_PM_H

#include <stddef.h>
#include <stdint.h>
#include <linux/tipme.h>

#include "dumpfile.h"
#include "err.h"
#include "clock.h"

#define PM_NR_TYPES	TIPME_REC_TYPE_LIMIT

struct pm_instr;

/**
 * struct pm_rectype - one record type as the dump describes it
 * @present: the dump's table lists this type
 * @type: the type number
 * @flags: TIPME_RECTYPE_* from the table
 * @payload_size: payload bytes per the table (minimum for VARLEN)
 * @name: NUL-terminated name from the table
 * @our_size: payload size this reader knows for the type, 0 if unknown
 */
struct pm_rectype {
	int present;
	uint8_t type;
	uint8_t flags;
	uint16_t payload_size;
	char name[TIPME_RECTYPE_NAME_LEN + 1];
	uint16_t our_size;
};

/**
 * struct pm_cpu - the stream sections of one CPU, in file order
 * @cpu: CPU number
 * @secs: indexes into struct dump.secs
 * @nr_secs: number of sections (usually 1; more are read as one stream)
 */
struct pm_cpu {
	uint32_t cpu;
	uint32_t *secs;
	uint32_t nr_secs;
};

/**
 * struct pm_text - a "key=value\n" section
 * @text: its bytes (not NUL-terminated), NULL if the dump has none
 * @len: number of bytes
 */
struct pm_text {
	const char *text;
	size_t len;
};

/**
 * struct pm_dump - an opened dump
 * @path: the file read, for messages ("" for memory)
 * @path_buf: @path's storage when opened from a file
 * @d: the validated file
 * @rt: record types indexed by number
 * @have_rectypes: the dump has a record-type table
 * @stats: per-CPU counters from TIPME_SEC_CPU_STATS, sorted by CPU
 * @nr_stats: entries in @stats
 * @pairs: clock pairs in increasing timestamp order
 * @nr_pairs: entries in @pairs
 * @pairs_ignored: pairs dropped because they were out of order, or taken
 *	while local_clock() stood still (load.c, held())
 * @clock: the mapping built from @pairs
 * @params: TIPME_SEC_PARAMS
 * @system: TIPME_SEC_SYSTEM
 * @cpus: CPUs that have stream sections, by increasing CPU number
 * @nr_cpus: entries in @cpus
 * @instr: exec table, self-cost totals, symbols (dump/tables.h)
 * @sec_ok: per section of @d, 1 once its checksum was found right: the
 *	CPU streams' are checked when a reader first enters them
 *	(pm_sec_check()), the others' at open.  Each CPU's entries are
 *	written by the one reader of that CPU (a thread of
 *	pm_info_skim()'s, say), never two at once.
 * @note: told, once each, what the user should know that is not an error
 *	of the command (the symboliser gave up on a debuginfod server): the
 *	command that opened the dump sets it (cmd/run.c: on stderr), as
 *	libraries never print; NULL: nothing is said
 * @note_arg: @note's first argument
 */
struct pm_dump {
	const char *path;
	char *path_buf;
	struct tm_dump d;
	struct pm_rectype rt[PM_NR_TYPES];
	int have_rectypes;
	struct tipme_cpu_stats *stats;
	uint32_t nr_stats;
	struct tipme_clock_pair *pairs;
	uint32_t nr_pairs;
	uint32_t pairs_ignored;
	struct pm_clock clock;
	struct pm_text params;
	struct pm_text system;
	struct pm_cpu *cpus;
	uint32_t nr_cpus;
	struct pm_instr *instr;
	uint8_t *sec_ok;
	void (*note)(void *arg, const char *msg);
	void *note_arg;
};

/**
 * pm_text_next() - the next non-empty line of a text section
 * @t: the section
 * @pos: where to go on from (0 at first), moved past the line
 * @line: set to the line (not NUL-terminated)
 * @len: set to its length, without the newline
 *
 * Return: 1 with a line, 0 at the end.
 */
int pm_text_next(const struct pm_text *t, size_t *pos, const char **line,
		 size_t *len);

/**
 * pm_text_get() - the value of "key=value" in a text section
 * @t: the section (its bytes come from the dump: any content)
 * @key: the key
 * @out: the value, NUL-terminated, cut to @size - 1 bytes
 * @size: size of @out (at least 1)
 *
 * Return: 0, or -ENOENT if no line has that key.
 */
int pm_text_get(const struct pm_text *t, const char *key, char *out,
		size_t size);

/**
 * pm_open() - load a dump file and check its metadata sections
 * @pm: result; release with pm_close() (also after a failure)
 * @path: file name (an incident directory is resolved to its kernel.dump
 *	by pm_incident_open(), incident/incident.h)
 * @flags: DUMP_* (TM_DUMP_NO_CRC for fuzzing)
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_open(struct pm_dump *pm, const char *path, unsigned int flags,
	    struct tm_err *e);

/**
 * pm_open_mem() - as pm_open() for a dump already in memory
 * @pm: result; release with pm_close()
 * @buf: the file's bytes, kept by reference
 * @size: number of bytes
 * @flags: DUMP_*
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int pm_open_mem(struct pm_dump *pm, const void *buf, size_t size,
		unsigned int flags, struct tm_err *e);

/**
 * pm_sec_check() - check a CPU stream section's checksum, once
 * @pm: the dump
 * @i: index of the section in @pm->d.secs
 * @e: error message: tm_dump_sec_check()'s, which names the section, its
 *	CPU and the file offset of its bytes
 *
 * Every reader of a stream section's bytes calls it before it reads them
 * (the decoder when it enters the section, the index of sub-buffers); a
 * section found right is not read again for it.
 *
 * Return: 0, or -EINVAL for a corrupt section.
 */
int pm_sec_check(const struct pm_dump *pm, uint32_t i, struct tm_err *e);

/**
 * pm_check_all() - check every section's checksum (`tipme info`)
 * @pm: the dump
 * @e: error message, for the first corrupt section
 *
 * Return: 0, or -EINVAL for a corrupt section.
 */
int pm_check_all(const struct pm_dump *pm, struct tm_err *e);

/**
 * pm_close() - release an opened dump; @pm may be zeroed or closed already
 * @pm: the dump
 */
void pm_close(struct pm_dump *pm);

/**
 * pm_cpu_stats() - the TIPME_SEC_CPU_STATS entry of a CPU
 * @pm: the dump
 * @cpu: CPU number
 *
 * Return: the entry or NULL.
 */
const struct tipme_cpu_stats *pm_cpu_stats(const struct pm_dump *pm,
					   uint32_t cpu);

/**
 * pm_type_by_name() - look a record type up by name in the dump's table
 * @pm: the dump
 * @name: a name such as "sched_switch", or a number
 *
 * Return: the type number, or -1 if the dump has no such type.
 */
int pm_type_by_name(const struct pm_dump *pm, const char *name);

/**
 * pm_type_name() - the name of a record type in the dump's table
 * @pm: the dump
 * @type: a type number, from the file (any value)
 *
 * Return: its name, or "?" if out of range or not in the dump's table.
 */
const char *pm_type_name(const struct pm_dump *pm, unsigned int type);

/**
 * pm_rectype_size() - fixed payload size of a record type this reader decodes
 * @type: the type number
 * @name: the type's name in the dump's record-type table
 *
 * Return: the size of the fixed part (the part before the array of a
 * varlen type), 0 if the type is not decoded: unknown, or an
 * instrumentation type the table names otherwise.
 */
uint16_t pm_rectype_size(unsigned int type, const char *name);

/**
 * pm_rectype_canon() - this reader's description of a record type that a
 * compact record stands for
 * @type: TIPME_REC_SCHED_SWITCH, TIPME_REC_SCHED_WAKING, TIPME_REC_BLOCKED,
 *	TIPME_REC_USTACK or TIPME_REC_PROF
 *
 * Return: the description, or NULL for another type.
 */
const struct pm_rectype *pm_rectype_canon(unsigned int type);

/**
 * pm_state_name() - ftrace-style letter(s) for an enum tipme_task_state
 * @state: the state
 * @preempt: the switch had TIPME_SWITCH_PREEMPT
 *
 * Return: "R", "R+", "S", "D", ... or "?" for an unknown value.
 */
const char *pm_state_name(unsigned int state, int preempt);

/**
 * pm_ctx_name() - name of an enum tipme_ctx
 * @ctx: the context
 *
 * Return: "task", "softirq", "hardirq" or "nmi".
 */
const char *pm_ctx_name(unsigned int ctx);

/**
 * pm_softirq_name() - name of a softirq vector (struct tipme_rec_intr.vec)
 * @vec: the kernel's HI_SOFTIRQ (0) .. RCU_SOFTIRQ (9)
 *
 * Return: "hi", "timer", "net_tx", "net_rx", "block", "irq_poll",
 * "tasklet", "sched", "hrtimer", "rcu", or "?" for another number.
 */
const char *pm_softirq_name(unsigned int vec);

#endif
