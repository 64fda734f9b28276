/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of tasks and of the dump format's values, and dump bytes as text
 * (names.c): the bottom of the presentation layer, used by every printer.
 */
#ifndef TIPME_PM_NAMES_H
#define TIPME_PM_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pm.h"

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
