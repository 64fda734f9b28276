/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzzing aid: make a mutated dump's checksums and file size agree with
 * its bytes again, so that the fuzzer's changes reach the code behind the
 * checksum checks (as a hand-crafted hostile dump does).
 */
#ifndef TIPME_FUZZ_DUMP_FIX_H
#define TIPME_FUZZ_DUMP_FIX_H

#include <stddef.h>
#include <stdint.h>

void fuzz_kdump_fix(uint8_t *buf, size_t size);
void fuzz_xdump_fix(uint8_t *buf, size_t size);

#endif
