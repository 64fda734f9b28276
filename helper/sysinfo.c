// SPDX-License-Identifier: GPL-2.0
/*
 * System facts and the kernel symbol table for dump files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "sysinfo.h"

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

char *sysinfo_text(const char *module_version)
{
	struct utsname u;
	char boot_id[64], *out = NULL;
	size_t len = 0;
	FILE *f;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	read_line("/proc/sys/kernel/random/boot_id", boot_id, sizeof(boot_id));
	f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	fprintf(f, "sysname=%s\nnodename=%s\nrelease=%s\nversion=%s\nmachine=%s\n",
		u.sysname, u.nodename, u.release, u.version, u.machine);
	fprintf(f, "boot_id=%s\nmodule_version=%s\ntipme_version=%s\n",
		boot_id, module_version, TIPME_VERSION_STRING);
	fprintf(f, "online_cpus=%ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

struct sym {
	uint64_t addr;
	uint32_t name_off;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int sysinfo_write_symbols(struct dumpw *w, struct tm_err *e)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	struct sym *syms = NULL, *ns;
	char *strs = NULL, *nstrs, line[512], name[400], mod[128], type;
	size_t nsyms = 0, capsyms = 0, lenstrs = 0, capstrs = 0, i;
	unsigned long long addr;
	uint64_t count;
	int err = 0, n;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		size_t l;

		mod[0] = '\0';
		n = sscanf(line, "%llx %c %399s %127s", &addr, &type, name, mod);
		if (n < 3 || !addr || !strchr("tTwW", type))
			continue;
		if (mod[0]) {
			size_t nl = strlen(name);

			snprintf(name + nl, sizeof(name) - nl, " %s", mod);
		}
		l = strlen(name) + 1;
		if (nsyms == capsyms) {
			capsyms = capsyms ? capsyms * 2 : 65536;
			ns = realloc(syms, capsyms * sizeof(*syms));
			if (!ns)
				goto nomem;
			syms = ns;
		}
		if (lenstrs + l > capstrs) {
			capstrs = capstrs ? capstrs * 2 : 1 << 20;
			nstrs = realloc(strs, capstrs);
			if (!nstrs)
				goto nomem;
			strs = nstrs;
		}
		memcpy(strs + lenstrs, name, l);
		syms[nsyms].addr = addr;
		syms[nsyms].name_off = (uint32_t)lenstrs;
		nsyms++;
		lenstrs += l;
	}
	fclose(f);
	f = NULL;
	if (!nsyms)
		goto out;	/* addresses hidden */
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
	count = nsyms;
	err = dumpw_section_begin(w, TIPME_SEC_SYMBOLS, 0, e);
	if (!err)
		err = dumpw_section_append(w, &count, sizeof(count), e);
	for (i = 0; !err && i < nsyms; i++) {
		struct tipme_sym s = { .addr = syms[i].addr,
				       .name_off = syms[i].name_off };

		err = dumpw_section_append(w, &s, sizeof(s), e);
	}
	if (!err)
		err = dumpw_section_append(w, strs, lenstrs, e);
	if (!err)
		err = dumpw_section_end(w, e);
	goto out;
nomem:
	err = tm_err_set(e, ENOMEM, "out of memory reading /proc/kallsyms");
out:
	if (f)
		fclose(f);
	free(syms);
	free(strs);
	return err;
}
