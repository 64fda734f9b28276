/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space symbols: the one place a frame of a user-space call chain
 * (a mapped file and an offset in it, struct pm_uframe) is given a
 * function name, a source file and line, and the functions inlined
 * there, with elfutils (libdwfl) from the file the dump's build-id names.
 */
#ifndef TIPME_PM_USYM_H
#define TIPME_PM_USYM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tables.h"

/* Frames one address gives at most: its function and those inlined in it. */
#define PM_USYM_MAX	8

/*
 * The roots of the .build-id trees searched for an ELF file or its
 * debug info: a colon-separated list of folders each holding a
 * .build-id folder, as /usr/lib/debug (Debian's -dbgsym packages) does.
 */
#define PM_USYM_DIRS_ENV	"TIPME_DEBUG_DIRS"
#define PM_USYM_DIRS_DEFAULT	"/usr/lib/debug"

/*
 * What libdebuginfod is told through its environment when the user did
 * not say (it reads these at each lookup): give a server that sends
 * nothing up after 10 s (its own default is 90 s) and do not ask it again
 * at once (its own default: twice more), as a report waits on each
 * lookup.  Once a lookup failed for another reason than "the server has
 * no such file" the dump's symboliser asks no server again.
 */
#define PM_USYM_DINFOD_TIMEOUT	"10"
#define PM_USYM_DINFOD_RETRIES	"0"

/**
 * struct pm_usym - one function at an address
 * @func: its name (the symbol table's, else DWARF's), never NULL
 * @file: the source file as DWARF names it, or NULL (no line information)
 * @line: its line there, 0 with @file NULL
 * @inlined: the function was inlined into the next one of the array:
 *	@file and @line are a place in this function, whose code the
 *	compiler put inside its caller
 */
struct pm_usym {
	const char *func;
	const char *file;
	uint32_t line;
	int inlined;
};

/**
 * pm_usym_frame() - the functions at a user-space frame
 * @pm: the dump (its cache of files, one per build-id, opened on first
 *	use and kept until pm_close())
 * @f: the frame: the mapping and the offset in its file
 *	(pm_ustack_resolve())
 * @caller: @f is a return address: looked up one byte before it, in the
 *	call instruction (any frame but a chain's leaf)
 * @out: innermost first: the functions inlined at the address, then
 *	the function whose code it is (the one with @inlined clear)
 *
 * The file is found by the mapping's build-id, each found one checked to
 * carry that build-id: the mapped file itself (the vDSO's mapping,
 * PM_VDSO_PATH: the image of it the dump carries), then under each root of
 * $TIPME_DEBUG_DIRS (default /usr/lib/debug) .build-id/xx/rest and
 * .build-id/xx/rest.debug, then debuginfod when $DEBUGINFOD_URLS is set
 * and libdebuginfod.so.1 loads (its timeout, retries and, for root, its
 * cache folder as PM_USYM_DINFOD_TIMEOUT and pm_usym_dinfod_cache() say,
 * unless the environment does).  The debug info is found the same way.
 * Why debuginfod was not asked, or is not asked any more, goes to the
 * dump's note, once.
 * A mapping without a build-id, or whose file is gone, gives nothing:
 * nothing is named from a file that may not be the one that ran.
 *
 * Return: frames in @out (at most PM_USYM_MAX), 0 when no symbol covers
 * the address (then show it as module+offset).
 */
size_t pm_usym_frame(const struct pm_dump *pm, const struct pm_uframe *f,
		     int caller, struct pm_usym out[PM_USYM_MAX]);

/**
 * pm_usym_dinfod_cache() - the folder libdebuginfod keeps what it fetched
 *			    for tipme in
 * @uid: the user tipme runs as (its effective uid)
 * @cache_env: $DEBUGINFOD_CACHE_PATH, or NULL
 * @xdg_env: $XDG_CACHE_HOME, or NULL
 * @home_env: $HOME, or NULL
 * @pw_home: @uid's home in the password database, or NULL
 * @buf: set to the folder when the return is 1
 * @len: @buf's size
 *
 * $DEBUGINFOD_CACHE_PATH when it is set.  Else for root its own home's
 * .cache/debuginfod_client (@pw_home's, "/root" without one), never under
 * $XDG_CACHE_HOME or $HOME: `sudo -E` keeps the user's, whose cache would
 * then hold files of root's that lock the user out of it, and a service
 * has none, where libdebuginfod would make /.cache.  Anyone else keeps
 * libdebuginfod's own choice ($XDG_CACHE_HOME/debuginfod_client, else
 * $HOME/.cache/debuginfod_client), or @pw_home's when both are unset.
 * An empty variable counts as unset.
 *
 * Return: 1 with the folder to set $DEBUGINFOD_CACHE_PATH to in @buf, 0 to
 * leave it as it is (also when the folder does not fit in @buf).
 */
int pm_usym_dinfod_cache(uid_t uid, const char *cache_env, const char *xdg_env,
			 const char *home_env, const char *pw_home, char *buf, size_t len);

/**
 * pm_usym_free() - close every file pm_usym_frame() opened for a dump
 * @in: the dump's instrumentation state
 */
void pm_usym_free(struct pm_instr *in);

#endif
