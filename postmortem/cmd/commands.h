/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Analysis subcommands of the tipme CLI.  Each takes the subcommand's argv
 * (argv[0] = subcommand name), parses its options with getopt_long and
 * returns the process exit status: 0 success, 1 error, 2 usage error.
 *
 * The pm_*_print() functions are the commands without option parsing, for
 * callers that already hold an opened dump (tests, later subcommands).
 */
#ifndef TIPME_PM_COMMANDS_H
#define TIPME_PM_COMMANDS_H

#include <stdint.h>
#include <stdio.h>

struct pm_dump;
struct tm_err;
struct tm_incident_meta_view;

int pm_cmd_info(int argc, char **argv);
int pm_cmd_records(int argc, char **argv);
int pm_cmd_ps(int argc, char **argv);
int pm_cmd_cost(int argc, char **argv);
int pm_cmd_why(int argc, char **argv);
int pm_cmd_latency(int argc, char **argv);
int pm_cmd_report(int argc, char **argv);
int pm_cmd_xrecords(int argc, char **argv);
int pm_cmd_redact(int argc, char **argv);
int pm_cmd_export(int argc, char **argv);
int pm_cmd_timeline(int argc, char **argv);
int pm_cmd_legs(int argc, char **argv);
int pm_cmd_profile(int argc, char **argv);
int pm_cmd_index(int argc, char **argv);

/**
 * pm_info_print() - print the summary of an opened dump
 * @f: output
 * @pm: the dump
 * @meta: its incident's meta.json, or NULL
 * @json: one JSON object instead of text
 * @e: error message
 *
 * Return: 0 or a negative errno (a malformed stream).
 */
int pm_info_print(FILE *f, struct pm_dump *pm,
		  const struct tm_incident_meta_view *meta, int json,
		  struct tm_err *e);

#define PM_FILTER_MAX	64

/**
 * struct pm_filter - which events `records` prints; an empty list means all
 * @cpus: CPU numbers
 * @nr_cpus: entries in @cpus
 * @pids: thread ids (a record matches if any of its pids does)
 * @nr_pids: entries in @pids
 * @types: record type numbers
 * @nr_types: entries in @types
 * @range: only the events in [@from_ns, @to_ns] (CLOCK_MONOTONIC ns)
 * @from_ns: with @range, the first time
 * @to_ns: with @range, the last
 * @whole: with @range, decode the whole dump and skip what is outside
 *	it (the unit tests' reference), instead of the sub-buffers of the
 *	range alone (dump/index.h: pm_index_scan(), pm_merge_range())
 *
 * Loss markers are printed for every selected CPU whatever @pids and
 * @types say.
 */
struct pm_filter {
	uint32_t cpus[PM_FILTER_MAX];
	unsigned int nr_cpus;
	uint32_t pids[PM_FILTER_MAX];
	unsigned int nr_pids;
	uint32_t types[PM_FILTER_MAX];
	unsigned int nr_types;
	int range;
	int64_t from_ns;
	int64_t to_ns;
	int whole;
};

/**
 * pm_records_print() - print the events of an opened dump in time order
 * @f: output
 * @pm: the dump
 * @flt: filter, or NULL for everything
 * @json: JSON Lines instead of text
 * @e: error message
 *
 * Return: 0 or a negative errno (a malformed stream; the events before the
 * error have been printed).
 */
int pm_records_print(FILE *f, struct pm_dump *pm, const struct pm_filter *flt,
		     int json, struct tm_err *e);

#endif
