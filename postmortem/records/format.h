/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Presentation of single events, shared by the commands: one text line in
 * the spirit of TIPME's and ftrace's output, or one JSON object.
 */
#ifndef TIPME_PM_FORMAT_H
#define TIPME_PM_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../dump/decode.h"
#include "json.h"

/**
 * pm_task_name() - the name of thread @pid at time @ts
 * @pm: the dump
 * @pid: thread id
 * @ts: recorder timestamp
 *
 * Dumps do not record process names yet (a later exec table will); until
 * then this returns NULL and tasks are shown by pid.
 *
 * Return: the name or NULL.
 */
const char *pm_task_name(const struct pm_dump *pm, uint32_t pid, uint64_t ts);

struct pm_seg;

/**
 * pm_print_seg_site() - " in f <- g <- h": where a blocked stretch slept
 * @f: output
 * @pm: the dump (its symbols)
 * @s: the stretch (struct pm_seg, state.h)
 *
 * Function names only, innermost first; nothing for a stretch without a
 * site.
 */
void pm_print_seg_site(FILE *f, const struct pm_dump *pm,
		       const struct pm_seg *s);

/**
 * pm_json_seg_site() - the same as a "site" member: an array of names
 * @w: JSON writer, inside an object
 * @pm: the dump
 * @s: the stretch
 */
void pm_json_seg_site(struct jw *w, const struct pm_dump *pm,
		      const struct pm_seg *s);

/**
 * pm_fmt_task() - "207", or "bash:207" once names are known
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
 * pm_print_event() - one text line for an event
 * @f: output
 * @pm: the dump
 * @ev: the event
 *
 * "  1234.567890123 [001] sched_switch prev=207 (S, prio 120) -> next=0 (prio 120)"
 */
void pm_print_event(FILE *f, const struct pm_dump *pm,
		    const struct pm_event *ev);

/**
 * pm_json_event() - one JSON object for an event
 * @w: JSON writer
 * @pm: the dump
 * @ev: the event
 */
void pm_json_event(struct jw *w, const struct pm_dump *pm,
		   const struct pm_event *ev);

/**
 * pm_print_text() - print a string with non-printable bytes escaped (\xNN)
 * @f: output
 * @s: bytes
 * @len: number of bytes
 */
void pm_print_text(FILE *f, const char *s, size_t len);

/**
 * pm_trigger_source_name() - "sysctl", "hotkey", ... for enum tipme_trigger_source
 * @src: the source
 *
 * Return: the name, "?" if unknown.
 */
const char *pm_trigger_source_name(unsigned int src);

/**
 * pm_input_kind_name() - "key", "button", "motion", "hotkey"
 * @kind: enum tipme_input_kind
 *
 * Return: the name, "?" if unknown.
 */
const char *pm_input_kind_name(unsigned int kind);

/**
 * pm_clock_source_name() - "tsc", "local_clock" or NULL
 * @src: enum tipme_clock_source
 *
 * Return: the name, NULL if unknown.
 */
const char *pm_clock_source_name(uint32_t src);

#endif
