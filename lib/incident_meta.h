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
 * @claimed: 0: tipme.ko measured the press itself; 1: a client of the
 *	control socket claimed it (TRIGGER auto): its word, not the kernel's
 * @claimed_by: the uid of that client, if @claimed
 * @has_uid: @uid is known
 * @uid: the real uid of the process @pid when tipmed made the incident
 *	(/proc/PID/status), whose X session the incident is about
 * @end: for the module's own trigger, where its latency ends: "reader_idle"
 *	or "flip" (Documentation/recorder.md); "" for a claimed press
 */
struct tm_incident_auto {
	char input[8];
	uint32_t pid;
	char comm[16];
	uint64_t press_ns;
	uint64_t latency_ns;
	int claimed;
	uint32_t claimed_by;
	int has_uid;
	uint32_t uid;
	char end[12];
};

/**
 * struct tm_incident_handin - one file a client handed in (an X dump)
 * @file: its name in the incident ("xhook-UID.dump")
 * @uid: the uploader's user (SO_PEERCRED)
 * @pid: the uploading process (SO_PEERCRED, when it connected)
 * @exe: /proc/PID/exe when the upload began, printable ASCII ('?' for
 *	other bytes, quotes and backslashes); "" when it could not be read
 * @bytes: the file's size
 */
struct tm_incident_handin {
	char file[64];
	uint32_t uid;
	uint32_t pid;
	char exe[256];
	uint64_t bytes;
};

#define TM_INCIDENT_HANDINS	16	/* hand-ins a reader takes from meta.json */

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
 * @discarded_subbufs: of which lost while read (overwritten, or a writer
 *	still in it)
 * @cpus: CPUs in the dump
 * @seconds: time taken to read the rings
 * @autotrig: for source "auto", the press that fired it, else NULL
 * @has_requester: the trigger was asked for on the control socket; then:
 * @requester_uid: the asking client's user
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
	int has_requester;
	uint32_t requester_uid;
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
 * @auto_claimed: its "claimed" is true: a client's word, not tipme.ko's
 * @auto_claimed_by: its "claimed_by_uid", if @auto_claimed
 * @auto_has_uid: it has "uid"; then:
 * @auto_uid: the uid of the process the press went to
 * @has_requester: "trigger" has "uid": the control socket client that
 *	asked; then:
 * @requester_uid: its uid
 * @handins: the "hand_ins" array, in the order they came (at most
 *	TM_INCIDENT_HANDINS)
 * @nhandins: how many
 */
struct tm_incident_meta_view {
	uint64_t number;
	char source[32];
	char utc[32];
	int has_auto;
	uint64_t auto_press_ns;
	uint64_t auto_latency_ns;
	int auto_claimed;
	uint32_t auto_claimed_by;
	int auto_has_uid;
	uint32_t auto_uid;
	int has_requester;
	uint32_t requester_uid;
	struct tm_incident_handin handins[TM_INCIDENT_HANDINS];
	unsigned int nhandins;
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
 * "number", "source" and "utc" are found at any depth, first occurrence;
 * the keys of "auto" and "trigger" inside their objects; each element of
 * "hand_ins" must have "file", "uid", "pid", "exe" and "bytes".
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

/**
 * tm_incident_meta_add_handin() - record a hand-in in meta.json
 * @dirfd: the incident directory, holding tipmed's meta.json
 * @h: the hand-in; its strings printable ASCII without quotes or
 *	backslashes (tm_incident_printable())
 * @e: error message
 *
 * Appends @h to the "hand_ins" array (made at the end of the object the
 * first time) and replaces meta.json by a new file, fsynced and renamed
 * into place, never following a symlink.
 *
 * Return: 0 or a negative errno (-ENOENT: the incident has no meta.json).
 */
int tm_incident_meta_add_handin(int dirfd, const struct tm_incident_handin *h,
				struct tm_err *e);

/**
 * tm_incident_printable() - copy @src as meta.json's strings hold it
 * @dst: result, NUL-terminated
 * @size: its size (> 0)
 * @src: any bytes, NUL-terminated
 *
 * Bytes outside printable ASCII, quotes and backslashes become '?'.
 */
void tm_incident_printable(char *dst, size_t size, const char *src);

struct tm_jw;

/**
 * tm_incident_meta_json_who() - who asked, who claimed, who handed in
 * @w: a JSON writer inside an object
 * @v: meta.json as read
 *
 * Writes the keys "requester_uid" (null: not asked for on the control
 * socket), "press" (null, or the auto press: "pid", "uid" (null:
 * unknown), "latency_ns", "claimed", "claimed_by_uid" (null: tipme.ko's
 * own)) and "x_dumps" (the hand-ins: "file", "uid", "pid", "exe",
 * "bytes").
 */
void tm_incident_meta_json_who(struct tm_jw *w, const struct tm_incident_meta_view *v);

/**
 * tm_incident_handin_text() - one hand-in in words
 * @h: the hand-in
 * @buf: "uid 1000 (pid 42, /usr/bin/tipme-xhook): xhook-1000.dump"
 * @size: its size
 */
void tm_incident_handin_text(const struct tm_incident_handin *h, char *buf,
			     size_t size);

void tm_incident_auto_from_press(const struct tipme_trigger_press *p,
			      struct tm_incident_auto *a);

#endif
