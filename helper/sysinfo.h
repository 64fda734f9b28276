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
 * struct symcache - the kernel's text symbols, as a TIPME_SEC_SYMBOLS payload
 * @blob: a u64 count, the struct tipme_sym entries sorted by address, the
 *        names ("name [module]" for module symbols); NULL when the kernel
 *        hides its addresses
 * @len: bytes of @blob
 * @modules_sum: checksum of /proc/modules when @blob was read
 * @valid: @blob describes the kernel as of @modules_sum
 *
 * Reading /proc/kallsyms takes a second or more on a slow machine, so the
 * table is kept, in memory by a daemon and on disk (SYMCACHE_DIR, or
 * $TIPME_CACHE_DIR) for the next process, and read again only when the
 * machine booted again or /proc/modules changed.  Zero-initialise before
 * first use.
 */
struct symcache {
	unsigned char *blob;
	size_t len;
	uint32_t modules_sum;
	int valid;
};

#define SYMCACHE_DIR	"/run/tipme"
#define SYMCACHE_FILE	"symbols.cache"

/**
 * symcache_refresh() - (re)read the symbols if the boot or the modules changed
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
int sysinfo_write_symbols(struct tm_dumpw *w, struct symcache *c,
			  struct tm_err *e);

/**
 * sysinfo_write_maps() - add a TIPME_SEC_MAPS section and the vDSO images
 * @w: dump being written
 * @pids: processes whose executable file mappings it lists
 * @n: how many
 * @xmaps: the module's captured mappings (a TIPME_SEC_XMAPS payload), or
 *	   NULL
 * @xmaps_len: its bytes
 * @e: error message
 *
 * Reads /proc/PID/maps of each process still alive, and the build-id of
 * each mapped file (through /proc/PID/map_files, so the file the process
 * mapped even if its path was replaced since).  A process that is gone or
 * whose mappings may not be read gets a comment line ("# PID: reason");
 * when it had exited (or shows no executable mapping: a zombie) and the
 * module captured its mappings, they follow a line "# PID: exited:
 * captured by the module", each with the build-id of the file now at its
 * path if that is still the same file (device and inode), else "-".
 * The vDSO's mapping is listed as "[vdso]", its build-id read from the
 * process's memory (/proc/PID/mem), and each vDSO image found so is added
 * as a TIPME_SEC_VDSO section after the maps.
 *
 * Return: 0 or a negative errno of the writer.
 */
int sysinfo_write_maps(struct tm_dumpw *w, const uint32_t *pids, size_t n,
		       const void *xmaps, size_t xmaps_len, struct tm_err *e);

#endif
