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
 * and libdebuginfod.so.1 loads.  The debug info is found the same way.
 * A mapping without a build-id, or whose file is gone, gives nothing:
 * nothing is named from a file that may not be the one that ran.
 *
 * Return: frames in @out (at most PM_USYM_MAX), 0 when no symbol covers
 * the address (then show it as module+offset).
 */
size_t pm_usym_frame(const struct pm_dump *pm, const struct pm_uframe *f,
		     int caller, struct pm_usym out[PM_USYM_MAX]);

/**
 * pm_usym_free() - close every file pm_usym_frame() opened for a dump
 * @in: the dump's instrumentation state
 */
void pm_usym_free(struct pm_instr *in);

#endif
