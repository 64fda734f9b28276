/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A profile (analysis/profile.h) as text, JSON members, folded stacks
 * (the text flamegraph.pl, inferno and speedscope read) and a flame graph
 * in SVG.
 */
#ifndef TIPME_PM_PRINT_PROFILE_H
#define TIPME_PM_PRINT_PROFILE_H

#include <stdio.h>

#include "../analysis/profile.h"
#include "json.h"

/**
 * pm_prof_print() - per thread, its frames by self time
 * @f: output
 * @p: the profile
 * @top: frames shown per thread (0: all)
 */
void pm_prof_print(FILE *f, const struct pm_prof *p, size_t top);

/**
 * pm_prof_json() - the profile as JSON members (Documentation/profile.md)
 * @w: JSON writer, inside an object
 * @p: the profile
 * @top: frames given per thread (0: all)
 */
void pm_prof_json(struct tm_jw *w, const struct pm_prof *p, size_t top);

/**
 * pm_prof_folded() - one line per stack: "comm-pid;root;...;leaf COUNT"
 * @f: output
 * @p: the profile
 *
 * COUNT is samples on the CPU, microseconds asleep off it.
 */
void pm_prof_folded(FILE *f, const struct pm_prof *p);

/**
 * pm_prof_svg() - a flame graph: a box per frame, as wide as its time,
 * over its caller, one tower per thread
 * @f: output
 * @p: the profile
 * @title: the picture's title
 */
void pm_prof_svg(FILE *f, const struct pm_prof *p, const char *title);

#endif
