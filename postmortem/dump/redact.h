/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Redaction of a kernel dump for a public bug report: `tipme redact`.
 *
 * Removed: the host name, the boot id and every other system fact but
 * the kernel's and tipme's versions and the block device names; argv
 * beyond argv[0], and the directories of argv[0] and of the executable;
 * the environment.  Replaced: kernel text addresses are moved down by the
 * KASLR slide (found from the lowest kernel symbol), in the symbol table
 * and in the records alike, so sites still resolve to the same functions;
 * lock addresses become opaque numbers (1, 2, ... in order of first use),
 * so equal stays equal.  Key codes (recorded while key logging was on)
 * become 0 in every key record, which keeps its time, device and press or
 * release; the codes of tipme's own hotkeys (Ctrl-Alt-Minus, =, 0, 1: not
 * typed text, and what says key logging went on and off) and of pointer
 * buttons stay.  The header carries TIPME_FILE_REDACTED and no longer
 * TIPME_FILE_KEYLOG; the parameters section still says whether key
 * logging was ever on (keylog_used).
 */
#ifndef TIPME_PM_REDACT_H
#define TIPME_PM_REDACT_H

#include <stdint.h>

#include "pm.h"

/**
 * struct pm_redact_stats - what a redaction changed
 * @system_keys: system lines dropped
 * @exe_paths: executables cut to their last path component
 * @argv: argument lists cut to argv[0]'s last component
 * @env: environments dropped
 * @symbols: symbol addresses moved
 * @text_addrs: text addresses in records moved
 * @lock_addrs: lock addresses in records replaced
 * @locks: distinct locks
 * @key_codes: key codes zeroed (key records that had one)
 * @user_sections: user stack table and mappings sections left out
 * @user_kept: the user stack table was kept (pm_redact()'s @keep_ustacks)
 * @user_addrs: kept: chain addresses moved with their mapping
 * @user_addrs_dropped: kept: chain addresses no mapping held, made 0
 * @map_paths: kept: mapped files' paths cut to their last component
 * @net_addrs: network addresses in records replaced (two a record)
 * @hosts: distinct addresses
 * @kaslr_slide_removed: a slide was found and removed (0: no symbols, or
 *	an unrandomised kernel)
 */
struct pm_redact_stats {
	uint64_t system_keys, exe_paths, argv, env;
	uint64_t symbols, text_addrs, lock_addrs, locks, key_codes;
	uint64_t user_sections;
	int user_kept;
	uint64_t user_addrs, user_addrs_dropped, map_paths;
	uint64_t net_addrs, hosts;
	int kaslr_slide_removed;
};

/**
 * pm_redact() - write a redacted copy of a kernel dump
 * @in: the dump (or an incident directory: its kernel.dump)
 * @out: the new file (written as every dump is: temporary file, mode
 *	0600, renamed into place)
 * @keep_ustacks: keep the user stack table and the mappings, each
 *	mapping moved to a made-up address (the chains' addresses with it:
 *	the same offsets in the same files) and its path cut to the file's
 *	name, build-ids kept; 0: leave both out
 * @st: what was changed
 * @e: error message
 *
 * Return: 0 or a negative errno; on failure nothing is left at @out.
 */
int pm_redact(const char *in, const char *out, int keep_ustacks,
	      struct pm_redact_stats *st, struct tm_err *e);

#endif
