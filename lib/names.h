/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names users see for values of the kernel interface, one table each,
 * for every program: trigger sources, record clocks and input kinds.
 */
#ifndef TIPME_LIB_NAMES_H
#define TIPME_LIB_NAMES_H

#include <stdint.h>

/**
 * tm_trigger_source_name() - "sysctl", "hotkey", "netlink", "xhook",
 * "threshold" for an enum tipme_trigger_source
 * @source: the value (from a dump or the module: any number)
 * @unknown: what to return for a value without a name
 *
 * Return: the name, or @unknown.
 */
const char *tm_trigger_source_name(uint32_t source, const char *unknown);

/**
 * tm_clock_source_name() - "tsc" or "local_clock" for an enum
 * tipme_clock_source
 * @source: the value (any number)
 * @unknown: what to return for a value without a name
 *
 * Return: the name, or @unknown.
 */
const char *tm_clock_source_name(uint32_t source, const char *unknown);

/**
 * tm_input_kind_name() - "key", "button", "motion" or "hotkey" for an enum
 * tipme_input_kind
 * @kind: the value (any number)
 * @unknown: what to return for a value without a name
 *
 * Return: the name, or @unknown.
 */
const char *tm_input_kind_name(uint32_t kind, const char *unknown);

/**
 * tm_input_kind_title() - the same kind in words for a picture or a trace
 * viewer: "key", "button", "pointer motion", "tipme hotkey"
 * @kind: the value (any number)
 * @unknown: what to return for a value without a name
 *
 * Return: the title, or @unknown.
 */
const char *tm_input_kind_title(uint32_t kind, const char *unknown);

#endif
