/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layer below the report, for the scenario tests: a scenario's
 * rebuilt state and resource waits (print/state.h's text) against
 * tests/unit/golden/state-NAME.txt (stategold.c).
 */
#ifndef TIPME_TEST_STATEGOLD_H
#define TIPME_TEST_STATEGOLD_H

#include <stddef.h>

/**
 * state_golden() - scenario @name's state as golden
 * @dir: the test's directory, which holds @name (an incident directory)
 *	or @name.dump
 * @name: the scenario
 * @msg: set to why the dump could not be read ("" if it could)
 * @len: its size
 *
 * The compact run compares with the same file: both forms must rebuild
 * the same state.  The one pass of pm_state_res_build() must print the
 * same as pm_state_build() and pm_res_build().  (TAP's counters are each
 * test's own: the test reports the result.)
 *
 * Return: 1 if it matches, else 0.
 */
int state_golden(const char *dir, const char *name, char *msg, size_t len);

#endif
