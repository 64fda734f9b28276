// SPDX-License-Identifier: GPL-2.0
/*
 * tipme redact: a copy of a kernel dump for a public bug report
 * (postmortem/dump/redact.h says what changes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dump/redact.h"
#include "commands.h"
#include "json.h"
#include "run.h"

static const char usage_text[] =
	"Usage: tipme redact [-o OUT] [--json] DUMP\n"
	"Write a copy of a kernel dump that can go into a public bug report:\n"
	"without the host name and boot id, without arguments beyond argv[0]\n"
	"and without directories in program paths, without environments, with\n"
	"kernel text addresses moved down by the KASLR slide (symbols and\n"
	"records alike, so sites still name the same functions) and lock\n"
	"addresses replaced by numbers.  DUMP is a kernel dump or an incident\n"
	"directory (its kernel.dump); OUT defaults to DUMP's name with\n"
	"\".redacted\" added.  X dumps (xhook.dump) are not redacted yet.\n"
	"  -o, --output OUT   the redacted copy (mode 0600, never replaced)\n"
	"  -j, --json         say what was changed as one JSON object\n"
	"EXAMPLES\n"
	"  tipme redact /var/lib/tipme/incidents/INCIDENT -o bug-1234.dump\n"
	"  tipme report bug-1234.dump     # the same verdict, from the copy\n";

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fputs(usage_text, f);
}

int pm_cmd_redact(int argc, char **argv)
{
	const char *out = NULL;
	const struct pm_cmd_opt opts[] = {
		{ "output", 'o', NULL, &out, NULL },
	};
	struct pm_redact_stats st;
	struct tm_err e = { "" };
	char *def = NULL;
	int json, err;

	err = pm_cmd_parse("redact", usage, argc, argv, opts, 1, &json);
	if (err < 0)
		err = pm_cmd_one_dump("redact", usage, argc);
	if (err >= 0)
		return err;
	if (!out) {
		size_t n = strlen(argv[optind]);

		while (n > 1 && argv[optind][n - 1] == '/')
			n--;
		def = malloc(n + sizeof(".redacted"));
		if (!def) {
			fprintf(stderr, "tipme redact: out of memory\n");
			return 1;
		}
		memcpy(def, argv[optind], n);
		strcpy(def + n, ".redacted");
		out = def;
	}
	err = pm_redact(argv[optind], out, &st, &e);
	if (err) {
		fprintf(stderr, "tipme redact: %s\n", e.msg);
		free(def);
		return 1;
	}
	if (json) {
		struct jw w;

		jw_init(&w, stdout, 0);
		jw_obj_begin(&w);
		jw_kstr(&w, "output", out);
		jw_ku64(&w, "system_lines_dropped", st.system_keys);
		jw_ku64(&w, "exe_paths_cut", st.exe_paths);
		jw_ku64(&w, "argv_cut", st.argv);
		jw_ku64(&w, "env_dropped", st.env);
		jw_kbool(&w, "kaslr_slide_removed", st.kaslr_slide_removed);
		jw_ku64(&w, "symbols_moved", st.symbols);
		jw_ku64(&w, "text_addresses_moved", st.text_addrs);
		jw_ku64(&w, "lock_addresses_replaced", st.lock_addrs);
		jw_ku64(&w, "locks", st.locks);
		jw_obj_end(&w);
		jw_finish(&w);
	} else {
		printf("%s: %llu system lines dropped, %llu argument lists and %llu program paths cut, %llu environments dropped, KASLR slide %s, %llu text and %llu lock addresses rewritten\n",
		       out, (unsigned long long)st.system_keys,
		       (unsigned long long)st.argv, (unsigned long long)st.exe_paths,
		       (unsigned long long)st.env,
		       st.kaslr_slide_removed ? "removed" : "not found (no symbols)",
		       (unsigned long long)st.text_addrs,
		       (unsigned long long)st.lock_addrs);
	}
	free(def);
	return pm_cmd_finish("redact");
}
