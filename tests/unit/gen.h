/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic dumps with known content, written with the same lib/ writer
 * tipmed uses.  A struct gen_spec says what to write (record types, the
 * records of each CPU, sub-buffer size, sequence gaps, clock pairs, stats,
 * text sections); gen_write() packs the records into sub-buffers the way
 * the module does (extended timestamp first in each sub-buffer and after
 * deltas >= 2^24, padding records at the ends) and returns the events a
 * correct reader must produce, in merged time order.
 */
#ifndef TIPME_TEST_GEN_H
#define TIPME_TEST_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <linux/tipme.h>

#include "err.h"

#define GEN_MAX_PAYLOAD	64
#define GEN_MAX_CPUS	8
#define GEN_MAX_TYPES	16
#define GEN_MAX_PAIRS	16

#define GEN_TYPE_FUTURE		9	/* unknown to the reader, fixed size */
#define GEN_TYPE_FUTURE_VAR	10	/* unknown to the reader, TIPME_RECTYPE_VARLEN */

/* splitmix64: small, good enough, reproducible from a seed */
static inline uint64_t gen_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * struct gen_in - one record to write
 * @type: record type
 * @ts: full timestamp
 * @force_ext: write an extended timestamp even if not needed
 * @len: payload bytes (for VARLEN types the __u16 length at the start of
 *       @payload is set by gen_write())
 * @payload: payload bytes
 */
struct gen_in {
	uint8_t type;
	uint64_t ts;
	int force_ext;
	uint32_t len;
	unsigned char payload[GEN_MAX_PAYLOAD];
};

/**
 * struct gen_cpu - one CPU's stream
 * @cpu: CPU number
 * @recs: records in timestamp order
 * @nr: number of records
 * @first_seq: seq of the first sub-buffer
 * @gap_before: index of a sub-buffer before which @gap_len seqs are skipped
 *              (0: no gap)
 * @gap_len: number of skipped seqs
 * @split: write the stream as two sections
 * @last_partial: the last sub-buffer is short and flagged PARTIAL
 */
struct gen_cpu {
	uint32_t cpu;
	struct gen_in *recs;
	size_t nr;
	uint64_t first_seq;
	uint64_t gap_before;
	uint64_t gap_len;
	int split;
	int last_partial;
};

/**
 * struct gen_spec - a whole dump
 * @hdr: header template given to tm_dumpw_open()
 * @types: the record-type table
 * @nr_types: entries in @types
 * @cpus: the streams
 * @nr_cpus: number of streams
 * @subbuf_size: sub-buffer size in bytes
 * @pairs: clock pairs
 * @nr_pairs: number of pairs
 * @stats: per-CPU stats
 * @nr_stats: number of entries (0: no section)
 * @system: TIPME_SEC_SYSTEM text or NULL
 * @params: TIPME_SEC_PARAMS text or NULL
 * @unknown_section: add a section of an unknown type (1000)
 * @seed: random choices: padding style, chunking of appends
 */
struct gen_spec {
	struct tipme_file_header hdr;
	struct tipme_rectype types[GEN_MAX_TYPES];
	size_t nr_types;
	struct gen_cpu cpus[GEN_MAX_CPUS];
	size_t nr_cpus;
	uint32_t subbuf_size;
	struct tipme_clock_pair pairs[GEN_MAX_PAIRS];
	size_t nr_pairs;
	struct tipme_cpu_stats stats[GEN_MAX_CPUS];
	size_t nr_stats;
	const char *system;
	const char *params;
	int unknown_section;
	uint64_t seed;
};

/**
 * struct gen_ev - an event a reader must produce
 * @kind: 1 record, 2 lost (as enum pm_ev_kind)
 * @cpu: CPU
 * @ts: timestamp
 * @type: record type
 * @ext: written with an extended timestamp
 * @len: payload bytes
 * @payload: payload as written
 * @lost_first: first missing seq (lost)
 * @lost_count: missing sub-buffers (lost)
 * @order: position in its CPU's stream (tie-break of the sort)
 */
struct gen_ev {
	int kind;
	uint32_t cpu;
	uint64_t ts;
	uint8_t type;
	int ext;
	uint32_t len;
	unsigned char payload[GEN_MAX_PAYLOAD];
	uint64_t lost_first;
	uint64_t lost_count;
	size_t order;
};

/**
 * struct gen_out - what gen_write() wrote
 * @ev: expected events in merged order
 * @n: number of events
 * @ext_records: records written with an extended timestamp
 * @pad_records: padding records written
 * @subbufs: sub-buffers written
 */
struct gen_out {
	struct gen_ev *ev;
	size_t n;
	size_t ext_records;
	size_t pad_records;
	size_t subbufs;
};

void gen_add_type(struct gen_spec *s, uint8_t type, uint8_t flags,
		  uint16_t payload_size, const char *name);
/*
 * Add a type of TIPME_REC_TYPES or TIPME_REC_TEST_TYPES (<linux/tipme.h>)
 * as the module describes it; -1 for a type the UAPI does not list.
 */
int gen_add_known(struct gen_spec *s, uint8_t type);

/**
 * gen_default() - a spec with the standard header and types, no records
 * @s: the spec
 */
void gen_default(struct gen_spec *s);

/**
 * gen_random() - fill @s with random records on @nr_cpus CPUs
 * @s: the spec, from gen_default()
 * @seed: random seed
 * @nr_cpus: number of CPUs (<= GEN_MAX_CPUS)
 * @per_cpu: records per CPU
 *
 * Includes every known type, GEN_TYPE_FUTURE and GEN_TYPE_FUTURE_VAR
 * records, deltas around 2^24 and above, equal timestamps across CPUs, a
 * sequence gap on CPU 1 and a split stream on CPU 0.
 */
void gen_random(struct gen_spec *s, uint64_t seed, size_t nr_cpus,
		size_t per_cpu);

/**
 * gen_write() - write the dump
 * @path: file name
 * @s: the spec
 * @out: expected events (free with gen_out_free()); may be NULL
 * @e: error message
 *
 * Return: 0 or a negative errno.
 */
int gen_write(const char *path, const struct gen_spec *s, struct gen_out *out,
	      struct tm_err *e);

void gen_out_free(struct gen_out *out);
void gen_spec_free(struct gen_spec *s);

/**
 * gen_flip_stream_byte() - copy a dump with a byte of a stream section flipped
 * @from: the dump
 * @to: the copy to write (may be @from)
 * @cpu: the section's CPU
 * @k: which of that CPU's stream sections, from 0
 * @bit: the bits flipped in the byte in the middle of its payload
 * @off: if not NULL, set to the file offset of the section's payload
 *
 * Return: 0, or -1 if @from is not a dump with that section or @to could
 * not be written.
 */
int gen_flip_stream_byte(const char *from, const char *to, uint32_t cpu,
			 uint32_t k, unsigned char bit, uint64_t *off);

/**
 * gen_read_file() - read a whole file into memory
 * @path: file name
 * @size: its size
 *
 * Return: malloc()ed bytes or NULL.
 */
unsigned char *gen_read_file(const char *path, size_t *size);

/**
 * gen_tmpdir() - make a fresh temporary directory for a test
 * @buf: output, at least 64 bytes
 *
 * Return: @buf, or NULL on failure.
 */
char *gen_tmpdir(char *buf);

/**
 * gen_rmtree() - remove a test directory and everything under it
 * @dir: the directory
 */
void gen_rmtree(const char *dir);

/**
 * gen_real_dumps() - the dumps of real machines a test compares on: each
 * kernel dump (*.dump) and incident directory (*.incident) up to three
 * levels below tests/vm/out, where the VM tests leave them, or below each
 * of the folders $TIPME_REAL_DUMPS names (separated by colons), sorted
 * @n: set to how many
 *
 * Return: malloc()ed paths (release with gen_real_dumps_free()), or NULL
 * when there are none.
 */
char **gen_real_dumps(size_t *n);
void gen_real_dumps_free(char **paths, size_t n);

#endif
