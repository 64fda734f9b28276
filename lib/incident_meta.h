/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An incident's meta.json (TIPME_INCIDENT_META): which incident it is in
 * creation order, what triggered it and what its kernel dump holds.
 * tipmed writes it; tipmed (pruning) and `tipme incidents` read it back.
 * The reader takes the file as hostile: it is bounded, reads only the
 * keys it needs, and a file that lacks them is reported, not guessed at.
 */
#ifndef TIPME_LIB_INCIDENT_META_H
#define TIPME_LIB_INCIDENT_META_H

#include <stddef.h>
#include <stdint.h>
#include <linux/tipme.h>

#include "err.h"

#define TIPME_INCIDENT_META_MAX	(64u << 10)	/* bytes a reader looks at */

/**
 * struct tm_incident_auto - the press that fired an auto trigger
 * @input: "key" or "button"
 * @pid: the client it went to (0: unknown)
 * @comm: that client's command name (printable ASCII)
 * @press_ns: the device event, CLOCK_MONOTONIC
 * @latency_ns: from the press to the last request of the client's answer
 */
struct tm_incident_auto {
	char input[8];
	uint32_t pid;
	char comm[16];
	uint64_t press_ns;
	uint64_t latency_ns;
};

/**
 * struct tm_incident_meta - what tipmed writes into meta.json
 * @number: the incident's number in creation order, from 1, kept across
 *	tipmed restarts (the next is one more than the largest found); it,
 *	not the wall-clock name, orders incidents for pruning
 * @seq: the trigger's sequence number (per module load)
 * @source: the trigger's source name ("hotkey", "sysctl", ...)
 * @utc: the trigger's wall-clock time, "YYYY-MM-DDTHH:MM:SSZ"
 * @mono_ns: its CLOCK_MONOTONIC time
 * @real_ns: its CLOCK_REALTIME time
 * @ts: its time in the dump's clock
 * @record_bytes: bytes of records in the kernel dump
 * @subbufs: sub-buffers read
 * @discarded_subbufs: of which overwritten while read
 * @cpus: CPUs in the dump
 * @seconds: time taken to read the rings
 * @autotrig: for source "auto", the press that fired it, else NULL
 */
struct tm_incident_meta {
	uint64_t number;
	uint32_t seq;
	const char *source;
	const char *utc;
	uint64_t mono_ns, real_ns, ts;
	uint64_t record_bytes, subbufs, discarded_subbufs;
	uint32_t cpus;
	double seconds;
	const struct tm_incident_auto *autotrig;
};

/**
 * tm_incident_meta_write() - create meta.json in an incident being built
 * @dirfd: the incident directory
 * @m: what to write; the host name and tipme's version are added
 * @e: error message
 *
 * The file is new (O_CREAT | O_EXCL, which never follows a symlink), mode
 * 0600, and fsynced before this returns.
 *
 * Return: 0 or a negative errno.
 */
int tm_incident_meta_write(int dirfd, const struct tm_incident_meta *m,
			struct tm_err *e);

/**
 * struct tm_incident_meta_view - what a reader takes from meta.json
 * @number: the incident's number (0 if the file has none: written before
 *	incidents were numbered)
 * @source: the trigger's source name
 * @utc: its wall-clock time
 * @has_auto: meta.json has an "auto" object; then:
 * @auto_press_ns: its "press_mono_ns"
 * @auto_latency_ns: its "latency_ns"
 */
struct tm_incident_meta_view {
	uint64_t number;
	char source[32];
	char utc[32];
	int has_auto;
	uint64_t auto_press_ns;
	uint64_t auto_latency_ns;
};

/**
 * tm_incident_meta_parse() - read the keys a listing and pruning need
 * @buf: the file's bytes (any content)
 * @len: their number (only the first TIPME_INCIDENT_META_MAX are read)
 * @v: result
 * @e: error message
 *
 * "source" and "utc" must be JSON strings without escapes, of printable
 * ASCII and shorter than their fields; "number", if present, a decimal
 * integer; so are "press_mono_ns" and "latency_ns" if "auto" is present.
 * Keys are found at any depth, first occurrence.
 *
 * Return: 0, or -EINVAL naming the first key that is missing or malformed.
 */
int tm_incident_meta_parse(const char *buf, size_t len,
			struct tm_incident_meta_view *v, struct tm_err *e);

/**
 * tm_incident_meta_read() - read meta.json of one incident
 * @dirfd: the incident directory
 * @v: result
 * @e: error message
 *
 * Opens the file with O_NOFOLLOW (a planted symlink is an error, never
 * followed) and reads at most TIPME_INCIDENT_META_MAX bytes.
 *
 * Return: 0 or a negative errno.
 */
int tm_incident_meta_read(int dirfd, struct tm_incident_meta_view *v,
		       struct tm_err *e);

void tm_incident_auto_from_press(const struct tipme_trigger_press *p,
			      struct tm_incident_auto *a);

#endif
