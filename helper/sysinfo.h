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
 * struct symcache - the kernel's text symbols, sorted by address
 * @syms: entries (addr, name_off into @strs)
 * @nsyms: number of entries
 * @strs: names, NUL-terminated, "name [module]" for module symbols
 * @lenstrs: bytes of @strs
 * @modules_sum: checksum of /proc/modules when @syms was read
 *
 * Reading /proc/kallsyms takes a second or more on a slow machine, so a
 * daemon keeps the table and reads it again only when /proc/modules
 * changed.  Zero-initialise before first use.
 */
struct symcache {
	struct tipme_sym *syms;
	size_t nsyms;
	char *strs;
	size_t lenstrs;
	uint32_t modules_sum;
};

/**
 * symcache_refresh() - (re)read /proc/kallsyms if modules changed
 * @c: the cache
 *
 * Return: 0 or -ENOMEM; an unreadable or hidden table leaves it empty.
 */
int symcache_refresh(struct symcache *c);
void symcache_free(struct symcache *c);

/**
 * sysinfo_write_symbols() - add a TIPME_SEC_SYMBOLS section
 * @w: dump being written
 * @c: symbol cache, refreshed first; NULL reads /proc/kallsyms now
 * @e: error message
 *
 * Text symbols only, module symbols included ("name [module]").  When the
 * kernel hides addresses (kptr_restrict, not root), writes no section.
 *
 * Return: 0 or a negative errno of the writer.
 */
int sysinfo_write_symbols(struct dumpw *w, struct symcache *c,
			  struct tm_err *e);

#endif
