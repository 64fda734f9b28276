// SPDX-License-Identifier: GPL-2.0
/*
 * tipme redact: a copy of a kernel dump for a public bug report
 * (postmortem/dump/redact.h says what changes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../dump/redact.h"
#include "../incident/incident.h"
#include "commands.h"
#include "incident_path.h"
#include "json.h"
#include "run.h"
#include "writefile.h"
#include "xdumpfile.h"

static const char usage_text[] =
	"Usage: tipme redact [-o OUT] [--keep-user-stacks] [--json] DUMP|INCIDENT\n"
	"Write a copy that can go into a public bug report.  A kernel dump loses\n"
	"the host name and boot id, arguments beyond argv[0], directories in\n"
	"program paths and environments; its kernel text addresses move down by\n"
	"the KASLR slide (symbols and records alike, so sites still name the\n"
	"same functions), lock addresses become numbers and key codes (recorded\n"
	"with key logging on) become 0; user-space call chains and the mappings\n"
	"that name their files are left out (unless --keep-user-stacks).  An X dump\n"
	"(xhook.dump) loses key codes, modifier states and the host in the\n"
	"display name.  For an INCIDENT directory, OUT is a new directory with\n"
	"the redacted kernel.dump and xhook.dump (of several users' X dumps the\n"
	"one tipme report reads; meta.json, which names the host, is not copied).  OUT defaults to the input's name with\n"
	"\".redacted\" added; nothing existing is ever replaced.\n"
	"  -o, --output OUT   the redacted copy (files mode 0600)\n"
	"  -u, --keep-user-stacks\n"
	"                     keep the user-space call chains: each mapping moved\n"
	"                     to a made-up address (the same offsets in the same\n"
	"                     files, the layout gone), paths cut to the file's\n"
	"                     name, build-ids kept (they say which files ran)\n"
	"  -j, --json         say what was changed as one JSON object\n"
	"EXAMPLES\n"
	"  tipme redact /var/lib/tipme/incidents/INCIDENT -o bug-1234\n"
	"  tipme report bug-1234     # the same verdict, from the copy\n";

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fputs(usage_text, f);
}

/* Whether @path is an X dump (by its magic); 0 for anything else. */
static int is_xdump(const char *path)
{
	char magic[8];
	FILE *f = fopen(path, "re");
	int x;

	if (!f)
		return 0;
	x = fread(magic, 1, 8, f) == 8 && !memcmp(magic, TIPME_X11_MAGIC, 8);
	fclose(f);
	return x;
}

static int redact_x(const char *in, const char *out,
		    struct tm_xdump_redact_stats *st, struct tm_err *e)
{
	uint8_t *buf = NULL, *copy = NULL;
	struct tm_xdump d;
	size_t len;
	int err;

	err = tm_xdump_load(in, &d, &buf, e);
	if (err)
		return err;
	err = tm_xdump_redact(&d, &copy, &len, st);
	if (err)
		err = tm_err_set(e, -err, "out of memory");
	else
		err = tm_write_file_new(out, copy, len, e);
	free(copy);
	free(buf);
	return err;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

int pm_cmd_redact(int argc, char **argv)
{
	const char *out = NULL, *in;
	int keep_u = 0;
	const struct pm_cmd_opt opts[] = {
		{ "output", 'o', NULL, &out, NULL },
		{ "keep-user-stacks", 'u', NULL, NULL, &keep_u },
	};
	struct tm_xdump_redact_stats xs = { 0 };
	struct pm_redact_stats st = { 0 };
	struct tm_err e = { "" };
	char *def = NULL, *kin = NULL, *kout = NULL, *xin = NULL, *xout = NULL;
	int json, err, dir = 0, have_k = 1, have_x = 0;
	struct stat sb;

	err = pm_cmd_parse("redact", usage, argc, argv, opts, 2, &json);
	if (err < 0)
		err = pm_cmd_one_dump("redact", usage, argc);
	if (err >= 0)
		return err;
	in = argv[optind];
	if (!out) {
		size_t n = strlen(in);

		while (n > 1 && in[n - 1] == '/')
			n--;
		def = malloc(n + sizeof(".redacted"));
		if (!def) {
			fprintf(stderr, "tipme redact: out of memory\n");
			return 1;
		}
		memcpy(def, in, n);
		strcpy(def + n, ".redacted");
		out = def;
	}
	dir = !stat(in, &sb) && S_ISDIR(sb.st_mode);
	if (dir) {
		kin = join(in, TIPME_INCIDENT_KERNEL_DUMP);
		kout = join(out, TIPME_INCIDENT_KERNEL_DUMP);
		xin = join(in, TIPME_INCIDENT_X_DUMP);
		xout = join(out, TIPME_INCIDENT_X_DUMP);
		if (!kin || !kout || !xin || !xout) {
			err = tm_err_set(&e, ENOMEM, "out of memory");
			goto out;
		}
		have_k = !access(kin, F_OK);
		have_x = !access(xin, F_OK);
		/* one X dump per user: the copy holds the one the report reads */
		if (!have_x) {
			struct pm_incident pi;
			struct tm_err pe = { "" };

			if (!pm_incident_open(&pi, in, 0, &pe) && pi.have_x) {
				free(xin);
				xin = join(in, pi.x_file);
				have_x = xin != NULL;
			}
			pm_incident_close(&pi);
		}
		if (!have_k && !have_x) {
			err = tm_err_set(&e, ENOENT, "%s: neither %s nor %s", in,
					 TIPME_INCIDENT_KERNEL_DUMP, TIPME_INCIDENT_X_DUMP);
			goto out;
		}
		if (mkdir(out, 0700)) {
			err = tm_err_set(&e, errno, "%s: %s", out, strerror(errno));
			goto out;
		}
	} else if (is_xdump(in)) {
		have_k = 0;
		have_x = 1;
		xin = (char *)in;
		xout = (char *)out;
	} else {
		kin = (char *)in;
		kout = (char *)out;
	}
	err = have_k ? pm_redact(kin, kout, keep_u, &st, &e) : 0;
	if (!err && have_x)
		err = redact_x(xin, xout, &xs, &e);
	if (err)
		goto out;
	if (json) {
		struct tm_jw w;

		tm_jw_init(&w, stdout, 0);
		tm_jw_obj_begin(&w);
		tm_jw_kstr(&w, "output", out);
		if (have_k) {
			tm_jw_key(&w, "kernel_dump");
			tm_jw_obj_begin(&w);
			tm_jw_ku64(&w, "system_lines_dropped", st.system_keys);
			tm_jw_ku64(&w, "exe_paths_cut", st.exe_paths);
			tm_jw_ku64(&w, "argv_cut", st.argv);
			tm_jw_ku64(&w, "env_dropped", st.env);
			tm_jw_kbool(&w, "kaslr_slide_removed", st.kaslr_slide_removed);
			tm_jw_ku64(&w, "symbols_moved", st.symbols);
			tm_jw_ku64(&w, "text_addresses_moved", st.text_addrs);
			tm_jw_ku64(&w, "lock_addresses_replaced", st.lock_addrs);
			tm_jw_ku64(&w, "locks", st.locks);
			tm_jw_ku64(&w, "key_codes_zeroed", st.key_codes);
			tm_jw_ku64(&w, "user_stack_sections_dropped", st.user_sections);
			tm_jw_kbool(&w, "user_stacks_kept", st.user_kept);
			tm_jw_ku64(&w, "user_addresses_moved", st.user_addrs);
			tm_jw_ku64(&w, "user_addresses_zeroed", st.user_addrs_dropped);
			tm_jw_ku64(&w, "map_paths_cut", st.map_paths);
			tm_jw_ku64(&w, "net_addresses_replaced", st.net_addrs);
			tm_jw_ku64(&w, "hosts", st.hosts);
			tm_jw_obj_end(&w);
		}
		if (have_x) {
			tm_jw_key(&w, "x_dump");
			tm_jw_obj_begin(&w);
			tm_jw_ku64(&w, "key_details_zeroed", xs.key_details);
			tm_jw_ku64(&w, "system_lines_changed", xs.system_lines);
			tm_jw_obj_end(&w);
		}
		tm_jw_obj_end(&w);
		tm_jw_finish(&w);
	} else {
		if (have_k)
			printf("%s: %llu system lines dropped, %llu argument lists and %llu program paths cut, %llu environments dropped, KASLR slide %s, %llu text, %llu lock and %llu network addresses rewritten, %llu key codes zeroed, %llu user stack sections dropped\n",
			       kout, (unsigned long long)st.system_keys,
			       (unsigned long long)st.argv,
			       (unsigned long long)st.exe_paths,
			       (unsigned long long)st.env,
			       st.kaslr_slide_removed ? "removed" : "not found (no symbols)",
			       (unsigned long long)st.text_addrs,
			       (unsigned long long)st.lock_addrs,
			       (unsigned long long)st.net_addrs,
			       (unsigned long long)st.key_codes,
			       (unsigned long long)st.user_sections);
		if (have_k && st.user_kept)
			printf("%s: user stacks kept: %llu addresses moved with their mappings, %llu without one zeroed, %llu mapped files' paths cut to their names\n",
			       kout, (unsigned long long)st.user_addrs,
			       (unsigned long long)st.user_addrs_dropped,
			       (unsigned long long)st.map_paths);
		if (have_x)
			printf("%s: %llu key details zeroed, %u system lines changed\n",
			       xout, (unsigned long long)xs.key_details, xs.system_lines);
	}
	err = pm_cmd_finish("redact");
out:
	/* pm_cmd_finish() said what went wrong itself (e.msg is empty then) */
	if (err && e.msg[0])
		fprintf(stderr, "tipme redact: %s\n", e.msg);
	if (dir) {
		free(kin);
		free(kout);
		free(xin);
		free(xout);
	}
	free(def);
	return err ? 1 : 0;
}
