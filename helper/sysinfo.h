/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a dump needs that the kernel does not send: uname, boot id, and the
 * kernel's symbol table to name the addresses records carry.
 */
#ifndef TIPME_HELPER_SYSINFO_H
#define TIPME_HELPER_SYSINFO_H

#include "dumpfile.h"

/**
 * sysinfo_text() - "key=value\n" lines for TIPME_SEC_SYSTEM
 * @module_version: version string the module reported
 *
 * Return: a malloc'ed string, or NULL when out of memory.
 */
char *sysinfo_text(const char *module_version);

/**
 * sysinfo_write_symbols() - add a TIPME_SEC_SYMBOLS section from /proc/kallsyms
 * @w: dump being written
 * @e: error message
 *
 * Text symbols only, module symbols included ("name [module]").  When the
 * kernel hides addresses (kptr_restrict, not root), writes no section.
 *
 * Return: 0 or a negative errno of the writer.
 */
int sysinfo_write_symbols(struct dumpw *w, struct tm_err *e);

#endif
