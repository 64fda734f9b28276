/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records one at a time: the threads a record involves, and its text line
 * or JSON object.  Each record family (records/<family>.c) provides these
 * for its types; records/ops.c joins them in one table by type number.
 * The payloads are the decoder's (struct pm_event.u, dump/decode.h).
 */
#ifndef TIPME_PM_RECORDS_H
#define TIPME_PM_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../dump/decode.h"
#include "json.h"

#define PM_REC_MAX_PIDS	4

/**
 * struct pm_recops - what a record family does with its records
 * @pids: store the threads @ev involves in @pids (room for
 *        PM_REC_MAX_PIDS), return how many; NULL for types without a thread
 * @text: print the line after the type's name, with its newline
 * @json: write the record's members inside its JSON object
 *
 * Called only for events of a type the decoder knows (@ev->rt->our_size).
 */
struct pm_recops {
	unsigned int (*pids)(const struct pm_event *ev, uint32_t *pids);
	void (*text)(FILE *f, const struct pm_dump *pm, const struct pm_event *ev);
	void (*json)(struct tm_jw *w, const struct pm_dump *pm,
		     const struct pm_event *ev);
};

/**
 * pm_rec_ops() - the operations for a record type
 * @type: the type number
 *
 * Return: the family's operations, or NULL for a type without a family.
 */
const struct pm_recops *pm_rec_ops(unsigned int type);

/**
 * pm_rec_pids() - the threads a record involves
 * @ev: a record
 * @pids: room for PM_REC_MAX_PIDS
 *
 * Return: how many were stored (0 for undecoded types, loss markers and
 * types without a thread).
 */
unsigned int pm_rec_pids(const struct pm_event *ev, uint32_t *pids);

/**
 * pm_print_event() - one text line for an event
 * @f: output
 * @pm: the dump
 * @ev: the event, from pm_merge_next() (its times in ns are used)
 *
 * "  1234.567890123 [001] sched_switch prev=207 (S, prio 120) -> next=0 (prio 120)"
 */
void pm_print_event(FILE *f, const struct pm_dump *pm,
		    const struct pm_event *ev);

/**
 * pm_json_event() - one JSON object for an event
 * @w: JSON writer
 * @pm: the dump
 * @ev: the event, from pm_merge_next() (its times in ns are used)
 */
void pm_json_event(struct tm_jw *w, const struct pm_dump *pm,
		   const struct pm_event *ev);

/**
 * pm_task_name() - the name of thread @pid at time @ts
 * @pm: the dump
 * @pid: thread id
 * @ts: recorder timestamp
 *
 * Return: the name from the exec table, or NULL (pid 0, or not in it).
 */
const char *pm_task_name(const struct pm_dump *pm, uint32_t pid, uint64_t ts);

/**
 * pm_fmt_task() - "207", or "bash:207" when the name is known
 * @pm: the dump
 * @pid: thread id
 * @ts: time of the event
 * @buf: output
 * @len: size of @buf
 *
 * Return: @buf.
 */
char *pm_fmt_task(const struct pm_dump *pm, uint32_t pid, uint64_t ts,
		  char *buf, size_t len);

/**
 * pm_print_ustack() - a user-space call chain as "app+0x1234 <- libc.so.6+0x2a1f0"
 * @f: output
 * @pm: the dump
 * @id: its number in the dump's user stack table (0: not kept)
 * @ns: when it was recorded (CLOCK_MONOTONIC ns): mappings of a program
 *	the process ran later do not apply (pm_ustack_resolve())
 *
 * Innermost first; " <- ..." ends a truncated chain; an address without
 * a mapping in the dump is given in hex.
 */
void pm_print_ustack(FILE *f, const struct pm_dump *pm, uint32_t id, int64_t ns);

/**
 * pm_json_ustack() - the same as members "user_stack", an array of
 * {"module", "path", "build_id", "offset"} (or {"module": null,
 * "address"} without a mapping), and "user_stack_truncated"
 * @w: JSON writer, inside an object
 * @pm: the dump
 * @id: as for pm_print_ustack(); an unknown number gives [] and true
 * @ns: as for pm_print_ustack()
 */
void pm_json_ustack(struct tm_jw *w, const struct pm_dump *pm, uint32_t id,
		    int64_t ns);

/**
 * pm_json_ustack_names() - the same as one array of strings, each frame as
 *	the text gives it ("save_document (app.c:88)", "clamp_len (inlined,
 *	util.h:12)", "app+0x1234", "0x7f..."), innermost first
 * @w: JSON writer, where a value goes
 * @pm: the dump
 * @id: as for pm_print_ustack()
 * @ns: as for pm_print_ustack()
 *
 * Return: whether the chain was truncated (as "user_stack_truncated").
 */
int pm_json_ustack_names(struct tm_jw *w, const struct pm_dump *pm, uint32_t id,
			 int64_t ns);

/**
 * pm_net_addr() - a socket's address and port: "10.0.0.1:5000",
 *		   "[fe80::1]:5000" (an IPv4-mapped IPv6 address as IPv4)
 * @family: enum tipme_net_family
 * @addr: the address, network byte order (IPv4 in the first 4 bytes)
 * @port: the port
 * @buf: output
 * @size: its size (64 holds every address)
 *
 * Return: @buf.
 */
char *pm_net_addr(uint8_t family, const uint8_t addr[16], uint16_t port,
		  char *buf, size_t size);

/**
 * pm_net_proto() - an IP protocol's name: "tcp", "udp", else "ip"
 * @proto: the protocol number
 *
 * Return: a static string.
 */
const char *pm_net_proto(uint8_t proto);

/**
 * pm_print_text() - print a string in its display form (lib/safetext.h)
 * @f: output
 * @s: bytes
 * @len: number of bytes
 */
void pm_print_text(FILE *f, const char *s, size_t len);

/**
 * pm_print_argv() - arguments quoted on one line ("ls -l /tmp")
 * @f: output
 * @a: arguments, each NUL-terminated
 * @len: their bytes
 * @max: bytes to show at most ("..." follows when cut)
 */
void pm_print_argv(FILE *f, const char *a, size_t len, size_t max);

#endif
