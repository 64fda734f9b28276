// SPDX-License-Identifier: GPL-2.0
/*
 * What every subcommand does the same way: read its options, open the dump
 * it was given and, once it has printed, make sure the output was written.
 * Which options it takes, the analysis and the printer are each
 * subcommand's own (cmd/cmd_<name>.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/tables.h"
#include "../incident/incident.h"
#include "run.h"

/* What the dump's readers tell the user (struct pm_dump's note), on stderr. */
static void cmd_note(void *arg, const char *msg)
{
	fprintf(stderr, "tipme %s: %s\n", (const char *)arg, msg);
}

int pm_cmd_open(const char *prog, const char *path, unsigned int flags,
		struct pm_incident *inc)
{
	struct tm_err e = { "" };

	if (pm_incident_open(inc, path, flags, &e)) {
		fprintf(stderr, "tipme %s: %s\n", prog, e.msg);
		pm_incident_close(inc);
		return 1;
	}
	inc->pm.note = cmd_note;
	inc->pm.note_arg = (void *)prog;
	return 0;
}

int pm_cmd_finish(const char *prog)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "tipme %s: error writing the output\n", prog);
		return 1;
	}
	return 0;
}

/* A command's options, --json and --help: at most this many in all. */
#define MAX_OPTS	16

int pm_cmd_parse(const char *prog, pm_usage_fn usage, int argc, char **argv,
		 const struct pm_cmd_opt *opts, size_t n, int *json)
{
	struct option lopts[MAX_OPTS + 3];
	char shorts[3 * MAX_OPTS + 8], *end;
	size_t i, k = 0, sl = 0;
	double v;
	int c;

	if (n > MAX_OPTS)
		abort();	/* a command with more options: raise MAX_OPTS */
	for (i = 0; i < n; i++) {
		lopts[k++] = (struct option){ opts[i].name,
					      opts[i].flag ? no_argument : required_argument,
					      NULL, opts[i].letter };
		shorts[sl++] = (char)opts[i].letter;
		if (!opts[i].flag)
			shorts[sl++] = ':';
	}
	lopts[k++] = (struct option){ "json", no_argument, NULL, 'j' };
	lopts[k++] = (struct option){ "help", no_argument, NULL, 'h' };
	lopts[k] = (struct option){ NULL, 0, NULL, 0 };
	memcpy(shorts + sl, "jh", 3);
	if (json)
		*json = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, lopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout, prog);
			return 0;
		}
		if (c == 'j' && json) {
			*json = 1;
			continue;
		}
		for (i = 0; i < n && opts[i].letter != c; i++)
			;
		if (i == n) {
			usage(stderr, prog);
			return 2;
		}
		if (opts[i].flag) {
			*opts[i].flag = 1;
			continue;
		}
		if (opts[i].str) {
			*opts[i].str = optarg;
			continue;
		}
		/*
		 * Below 2^31: what every command converts the number to holds
		 * it (an int, a pid, seconds or milliseconds in int64_t ns).
		 */
		v = strtod(optarg, &end);
		if (*end || end == optarg || v < 0 || v != v || v >= 2147483648.0) {
			fprintf(stderr, "tipme %s: --%s wants a number >= 0 and below 2^31, not '%s'\n",
				prog, opts[i].name, optarg);
			usage(stderr, prog);
			return 2;
		}
		*opts[i].num = v;
	}
	return -1;
}

int pm_cmd_one_dump(const char *prog, pm_usage_fn usage, int argc)
{
	if (argc - optind == 1)
		return -1;
	fprintf(stderr, "tipme %s: %s\n", prog,
		argc == optind ? "no dump file given" : "only one dump file, please");
	usage(stderr, prog);
	return 2;
}

int pm_cmd_parse_dump(const char *prog, pm_usage_fn usage, int argc, char **argv,
		      const struct pm_cmd_opt *opts, size_t n, int *json)
{
	int err = pm_cmd_parse(prog, usage, argc, argv, opts, n, json);

	return err >= 0 ? err : pm_cmd_one_dump(prog, usage, argc);
}

/* How many matches an ambiguous --comm lists. */
#define WHO_LIST	10

/* The threads of the exec table whose name is @name (@exact) or contains it. */
static size_t who_match(const struct pm_dump *pm, const char *name, int exact,
			const struct pm_exec **m, size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; pm->instr && i < pm->instr->nr_execs; i++) {
		const struct pm_exec *x = &pm->instr->execs[i];
		char comm[TIPME_COMM_LEN + 1];

		memcpy(comm, x->x.comm, TIPME_COMM_LEN);
		comm[TIPME_COMM_LEN] = '\0';
		if (exact ? strcmp(comm, name) : !strstr(comm, name))
			continue;
		for (k = 0; k < n && k < max && m[k]->x.pid != x->x.pid; k++)
			;
		if (k < n && k < max)
			continue;	/* the same thread again (an exec) */
		if (n < max)
			m[n] = x;
		n++;
	}
	return n;
}

int pm_cmd_who(const char *prog, const struct pm_incident *inc,
	       const struct pm_cmd_who *w, uint32_t *pid)
{
	const struct pm_dump *pm = &inc->pm;
	const struct pm_exec *m[64];
	size_t n, i, pick;
	int exact = 1;

	if (w->title) {
		if (!inc->have_x)
			fprintf(stderr, "tipme %s: --window-title needs the incident's X dump "
				"(tipme-xhook's xhook.dump), and this one has none; name the "
				"process with --comm or --pid\n", prog);
		else
			fprintf(stderr, "tipme %s: --window-title: this X dump records no window "
				"titles (tipme-xhook does not capture them); name the process "
				"with --comm or --pid\n", prog);
		return 1;
	}
	if (!pm->instr || !pm->instr->have_exectab) {
		fprintf(stderr, "tipme %s: --comm: the dump has no exec table to find '%s' in; "
			"name the thread with --pid\n", prog, w->comm);
		return 1;
	}
	n = who_match(pm, w->comm, 1, m, 64);
	if (!n) {
		exact = 0;
		n = who_match(pm, w->comm, 0, m, 64);
	}
	if (!n) {
		fprintf(stderr, "tipme %s: --comm: no process or thread in the dump is named '%s' "
			"or has it in its name (tipme ps lists them)\n", prog, w->comm);
		return 1;
	}
	/* one process: its main thread if it matched, else its one thread */
	pick = n;
	for (i = 0; i < n && i < 64; i++) {
		if (m[i]->x.tgid != m[0]->x.tgid) {
			pick = n;
			break;
		}
		if (m[i]->x.pid == m[i]->x.tgid)
			pick = i;
	}
	if (i == n && pick == n && n == 1)
		pick = 0;
	if (pick < n && n <= 64) {
		*pid = m[pick]->x.pid;
		return 0;
	}
	fprintf(stderr, "tipme %s: --comm '%s' is ambiguous: %zu threads %s:", prog,
		w->comm, n, exact ? "are named so" : "have it in their names");
	for (i = 0; i < n && i < WHO_LIST; i++)
		fprintf(stderr, "%s %u (%.*s)", i ? "," : "", m[i]->x.pid,
			TIPME_COMM_LEN, m[i]->x.comm);
	fprintf(stderr, "%s; name one with --pid\n", n > WHO_LIST ? ", ..." : "");
	return 1;
}
