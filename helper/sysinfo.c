// SPDX-License-Identifier: GPL-2.0
/*
 * System facts and the kernel symbol table for dump files.
 */
#include <dirent.h>
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

/*
 * "blockdev.MAJOR:MINOR=NAME" for every block device, from the links in
 * /sys/dev/block/, so that an analysis can name the device a request went
 * to ("sda", "dm-0") where the records only hold its number.
 */
static void block_devices(FILE *f)
{
	char path[300], target[512], *name;
	struct dirent *de;
	unsigned int maj, min;
	DIR *d = opendir("/sys/dev/block");
	ssize_t n;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "%u:%u", &maj, &min) != 2)
			continue;
		snprintf(path, sizeof(path), "/sys/dev/block/%s", de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		name = strrchr(target, '/');
		fprintf(f, "blockdev.%u:%u=%s\n", maj, min, name ? name + 1 : target);
	}
	closedir(d);
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
	block_devices(f);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

#include "crc32.h"

static int sym_cmp(const void *a, const void *b)
{
	const struct tipme_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static uint32_t modules_sum(void)
{
	char buf[4096];
	uint32_t crc = 0;
	size_t n;
	FILE *f = fopen("/proc/modules", "re");

	if (!f)
		return 0;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		crc = tm_crc32(crc, buf, n);
	fclose(f);
	return crc;
}

void symcache_free(struct symcache *c)
{
	free(c->syms);
	free(c->strs);
	memset(c, 0, sizeof(*c));
}

static int symcache_read(struct symcache *c)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	struct tipme_sym *ns;
	char line[512], name[400], mod[128], type, *nstrs;
	size_t capsyms = 0, capstrs = 0;
	unsigned long long addr;
	int n;

	symcache_free(c);
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
		if (c->nsyms == capsyms) {
			capsyms = capsyms ? capsyms * 2 : 65536;
			ns = realloc(c->syms, capsyms * sizeof(*ns));
			if (!ns)
				goto nomem;
			c->syms = ns;
		}
		if (c->lenstrs + l > capstrs) {
			capstrs = capstrs ? capstrs * 2 : 1 << 20;
			nstrs = realloc(c->strs, capstrs);
			if (!nstrs)
				goto nomem;
			c->strs = nstrs;
		}
		memcpy(c->strs + c->lenstrs, name, l);
		memset(&c->syms[c->nsyms], 0, sizeof(c->syms[0]));
		c->syms[c->nsyms].addr = addr;
		c->syms[c->nsyms].name_off = (uint32_t)c->lenstrs;
		c->nsyms++;
		c->lenstrs += l;
	}
	fclose(f);
	if (c->nsyms)
		qsort(c->syms, c->nsyms, sizeof(*c->syms), sym_cmp);
	return 0;
nomem:
	fclose(f);
	symcache_free(c);
	return -ENOMEM;
}

int symcache_refresh(struct symcache *c)
{
	uint32_t sum = modules_sum();
	int err;

	if (c->nsyms && sum == c->modules_sum)
		return 0;
	err = symcache_read(c);
	c->modules_sum = sum;
	return err;
}

int sysinfo_write_symbols(struct dumpw *w, struct symcache *cache,
			  struct tm_err *e)
{
	struct symcache local = { 0 };
	struct symcache *c = cache ? cache : &local;
	uint64_t count;
	int err;

	if (symcache_refresh(c))
		return tm_err_set(e, ENOMEM, "out of memory reading /proc/kallsyms");
	if (!c->nsyms) {
		err = 0;	/* addresses hidden */
		goto out;
	}
	count = c->nsyms;
	err = dumpw_section_begin(w, TIPME_SEC_SYMBOLS, 0, e);
	if (!err)
		err = dumpw_section_append(w, &count, sizeof(count), e);
	if (!err)
		err = dumpw_section_append(w, c->syms, c->nsyms * sizeof(*c->syms), e);
	if (!err)
		err = dumpw_section_append(w, c->strs, c->lenstrs, e);
	if (!err)
		err = dumpw_section_end(w, e);
out:
	if (!cache)
		symcache_free(&local);
	return err;
}
