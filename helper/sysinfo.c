// SPDX-License-Identifier: GPL-2.0
/*
 * System facts and the kernel symbol table for dump files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "elfnote.h"
#include "sysinfo.h"
#include "xmaps.h"

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
 * "blockdev.MAJOR:MINOR.slaves=NAME,NAME" for a device stacked on others
 * (device-mapper, md, ...): the devices below it, from its slaves/ folder.
 */
static void block_slaves(FILE *f, const char *dir, unsigned int maj,
			 unsigned int min)
{
	char path[320];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/slaves", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!n++)
			fprintf(f, "blockdev.%u:%u.slaves=", maj, min);
		else
			fputc(',', f);
		fputs(de->d_name, f);
	}
	if (n)
		fputc('\n', f);
	closedir(d);
}

/*
 * "blockdev.MAJOR:MINOR=NAME" for every block device, from the links in
 * /sys/dev/block/, so that an analysis can name the device a request went
 * to ("sda", "dm-0") where the records only hold its number; for a
 * device-mapper device also "blockdev.MAJOR:MINOR.dm=NAME", the name it was
 * made with ("vg-root", "luks-..."), and for any stacked device the devices
 * below it (block_slaves()).
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
		snprintf(path, sizeof(path), "/sys/dev/block/%s/dm/name", de->d_name);
		read_line(path, target, sizeof(target));
		if (*target && !strchr(target, '='))
			fprintf(f, "blockdev.%u:%u.dm=%s\n", maj, min, target);
		snprintf(path, sizeof(path), "/sys/dev/block/%s", de->d_name);
		block_slaves(f, path, maj, min);
	}
	closedir(d);
}

/*
 * "irq.N=ACTIONS" for every interrupt with a handler, from
 * /sys/kernel/irq/N/actions ("ttyS0", "nvme0q1,nvme0q2"), so that an
 * analysis can name the interrupt a wakeup came from.
 */
static void interrupts(FILE *f)
{
	char path[300], actions[256];
	struct dirent *de;
	DIR *d = opendir("/sys/kernel/irq");
	unsigned int irq;
	char end;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "%u%c", &irq, &end) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/irq/%s/actions", de->d_name);
		read_line(path, actions, sizeof(actions));
		if (*actions && !strchr(actions, '='))
			fprintf(f, "irq.%u=%s\n", irq, actions);
	}
	closedir(d);
}

/*
 * The CPU limit of the cgroup folder @dir (@v2: cpu.max "QUOTA PERIOD";
 * else v1's cpu.cfs_quota_us and cpu.cfs_period_us), as "QUOTA PERIOD"
 * in microseconds.  Return: 1 if it has one, 0 if none or unlimited.
 */
static int cpu_limit(const char *dir, int v2, char *buf, size_t len)
{
	char path[4200], q[32], per[32];
	unsigned long long a, b;

	snprintf(path, sizeof(path), "%s/%s", dir, v2 ? "cpu.max" : "cpu.cfs_quota_us");
	read_line(path, q, sizeof(q));
	if (v2) {
		if (sscanf(q, "%llu %llu", &a, &b) != 2)
			return 0;
	} else {
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
		read_line(path, per, sizeof(per));
		if (q[0] == '-' || sscanf(q, "%llu", &a) != 1 || sscanf(per, "%llu", &b) != 1)
			return 0;
	}
	snprintf(buf, len, "%llu %llu", a, b);
	return 1;
}

/* A cgroup's path as the dump shows it: printable ASCII, no space or backslash. */
static int plain_path(const char *p)
{
	for (; *p; p++)
		if (*p < 0x21 || *p > 0x7e || *p == '\\')
			return 0;
	return 1;
}

/*
 * The threads of cgroup folder @dir and of every cgroup below it (v2's
 * cgroup.threads, v1's tasks), as ",TID" each after the first: at most
 * *@left of them and 16 levels.  Return: how many were written.
 */
static int cgroup_threads(FILE *f, const char *dir, int v2, int depth, int *left)
{
	char path[4200];
	struct dirent *de;
	unsigned long tid;
	int n = 0;
	FILE *t;
	DIR *d;

	if (depth > 16)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, v2 ? "cgroup.threads" : "tasks");
	t = fopen(path, "re");
	while (t && *left > 0 && fscanf(t, "%lu", &tid) == 1) {
		fprintf(f, ",%lu", tid);
		--*left;
		n++;
	}
	if (t)
		fclose(t);
	d = opendir(dir);
	if (!d)
		return n;
	while ((de = readdir(d)) && *left > 0) {
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		n += cgroup_threads(f, path, v2, depth + 1, left);
	}
	closedir(d);
	return n;
}

/* Does cgroup v2 folder @dir have a memory.high (a number, not "max")? */
static int memory_high(const char *dir)
{
	char path[4200], v[32];
	unsigned long long n;

	snprintf(path, sizeof(path), "%s/memory.high", dir);
	read_line(path, v, sizeof(v));
	return sscanf(v, "%llu", &n) == 1;
}

/*
 * Every cgroup under @dir (@rel its path in the hierarchy) with a CPU
 * limit or (v2) a memory.high: "cgroup.ID=PATH", where ID is the folder's
 * inode number, which is the cgroup's id (the kernel's kernfs id on
 * 64-bit), as the cpu_throttle and reclaim_end records name it; with a
 * CPU limit also "cgroup.ID.cpu_max=QUOTA PERIOD" (us) and
 * "cgroup.ID.threads=0,TID,..." (the threads it holds, in it or below, at
 * most 4096: its quota holds them all back).  Bounded: 16 levels, 4096
 * folders.
 */
static void cgroup_walk(FILE *f, const char *dir, const char *rel, int v2,
			int depth, int *budget)
{
	char path[4200], sub[4200], lim[64];
	struct dirent *de;
	struct stat st;
	int cpu;
	DIR *d;

	if (depth > 16 || --*budget < 0)
		return;
	cpu = cpu_limit(dir, v2, lim, sizeof(lim));
	if ((cpu || (v2 && memory_high(dir))) && !stat(dir, &st) &&
	    plain_path(*rel ? rel : "/"))
		fprintf(f, "cgroup.%llu=%s\n", (unsigned long long)st.st_ino, *rel ? rel : "/");
	else
		cpu = 0;
	if (cpu) {
		int left = 4096;

		fprintf(f, "cgroup.%llu.cpu_max=%s\ncgroup.%llu.threads=0",
			(unsigned long long)st.st_ino, lim, (unsigned long long)st.st_ino);
		cgroup_threads(f, dir, v2, 0, &left);
		fputc('\n', f);
	}
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		snprintf(sub, sizeof(sub), "%s/%s", rel, de->d_name);
		cgroup_walk(f, path, sub, v2, depth + 1, budget);
	}
	closedir(d);
}

/*
 * The cgroups a CPU quota or a memory.high limits, for the analysis of
 * cpu_throttle and reclaim_end records: cgroup v2 at /sys/fs/cgroup, else
 * v1's cpu controller.
 */
static void cgroups(FILE *f)
{
	static const char *const v1[] = {
		"/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu",
	};
	struct stat st;
	int budget = 4096;
	size_t i;

	if (!stat("/sys/fs/cgroup/cgroup.controllers", &st)) {
		cgroup_walk(f, "/sys/fs/cgroup", "", 1, 0, &budget);
		return;
	}
	for (i = 0; i < sizeof(v1) / sizeof(v1[0]); i++) {
		if (!stat(v1[i], &st)) {
			cgroup_walk(f, v1[i], "", 0, 0, &budget);
			return;
		}
	}
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
	interrupts(f);
	cgroups(f);
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
	free(c->blob);
	memset(c, 0, sizeof(*c));
}

/*
 * One line of /proc/kallsyms: "ADDR TYPE NAME" or "ADDR TYPE NAME\t[MODULE]".
 * Return: 1 with @name set to "NAME" or "NAME [MODULE]" (NUL-terminated,
 * at most @size bytes with the NUL), 0 for a line to skip.
 */
static int parse_kallsyms_line(const char *p, unsigned long long *addr,
			       char *type, char *name, size_t size)
{
	unsigned long long a = 0;
	size_t n = 0, k;
	int digits = 0;
	const char *mod;

	for (;; p++, digits++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned int)(*p - 'a' + 10);
		else
			break;
		if (digits == 16)
			return 0;
		a = a << 4 | d;
	}
	if (!digits || p[0] != ' ' || !p[1] || p[2] != ' ')
		return 0;
	*addr = a;
	*type = p[1];
	p += 3;
	while (p[n] && p[n] != '\t' && p[n] != ' ' && p[n] != '\n')
		n++;
	if (!n || n >= size)
		return 0;
	memcpy(name, p, n);
	p += n;
	while (*p == '\t' || *p == ' ')
		p++;
	mod = p;
	for (k = 0; mod[k] && mod[k] != '\n' && mod[k] != ' ' && mod[k] != '\t'; k++)
		;
	if (k && n + 1 + k < size) {
		name[n++] = ' ';
		memcpy(name + n, mod, k);
		n += k;
	}
	name[n] = '\0';
	return 1;
}

/* Read /proc/kallsyms into @c: the payload of a TIPME_SEC_SYMBOLS section. */
static int symcache_read(struct symcache *c)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	struct tipme_sym *syms = NULL, *ns;
	char line[1024], name[528], type, *strs = NULL, *nstrs;
	size_t nsyms = 0, lenstrs = 0, capsyms = 0, capstrs = 0;
	unsigned long long addr;
	uint64_t count;

	symcache_free(c);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		size_t l;

		if (!parse_kallsyms_line(line, &addr, &type, name, sizeof(name)) ||
		    !addr || !strchr("tTwW", type))
			continue;
		l = strlen(name) + 1;
		if (nsyms == capsyms) {
			capsyms = capsyms ? capsyms * 2 : 65536;
			ns = realloc(syms, capsyms * sizeof(*ns));
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
		memset(&syms[nsyms], 0, sizeof(syms[0]));
		syms[nsyms].addr = addr;
		syms[nsyms].name_off = (uint32_t)lenstrs;
		nsyms++;
		lenstrs += l;
	}
	fclose(f);
	f = NULL;
	if (!nsyms)
		goto out;	/* addresses hidden: no section */
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
	count = nsyms;
	c->len = sizeof(count) + nsyms * sizeof(*syms) + lenstrs;
	c->blob = malloc(c->len);
	if (!c->blob)
		goto nomem;
	memcpy(c->blob, &count, sizeof(count));
	memcpy(c->blob + sizeof(count), syms, nsyms * sizeof(*syms));
	memcpy(c->blob + sizeof(count) + nsyms * sizeof(*syms), strs, lenstrs);
out:
	free(syms);
	free(strs);
	return 0;
nomem:
	if (f)
		fclose(f);
	free(syms);
	free(strs);
	symcache_free(c);
	return -ENOMEM;
}

/*
 * The table on disk, for the next process: reading /proc/kallsyms costs
 * every dump hundreds of millions of instructions, the same table each
 * time while no module comes or goes.  The file is a dump file (written
 * atomically, checked by the dump reader) with a SYSTEM section naming
 * the boot and the module list it belongs to, and the SYMBOLS section.
 * It lives in a directory only root may write; anything else found there
 * is not used.
 */
static void cache_key(char *key, size_t size, uint32_t sum)
{
	char boot_id[64];
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	boot_id[0] = '\0';
	if (f) {
		if (fgets(boot_id, sizeof(boot_id), f))
			boot_id[strcspn(boot_id, "\n")] = '\0';
		fclose(f);
	}
	snprintf(key, size, "boot_id=%s\nmodules_crc32=%08x\n", boot_id, sum);
}

/* The cache directory, if it is root's and nobody else may write it. */
static int cache_dir_ok(const char *dir, int create)
{
	struct stat st;

	if (create && mkdir(dir, 0700) && errno != EEXIST)
		return 0;
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022))
		return 0;
	return 1;
}

static int cache_load(struct symcache *c, const char *dir, const char *key)
{
	char path[512];
	const struct tm_dump_sec *sys = NULL, *sy = NULL;
	struct tm_err e;
	struct tm_dump d;
	uint32_t i;
	int ok = 0;

	if (!cache_dir_ok(dir, 0))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, SYMCACHE_FILE);
	if (tm_dump_load(&d, path, 0, &e)) {
		tm_dump_free(&d);
		return 0;
	}
	for (i = 0; i < d.nr_secs; i++) {
		if (d.secs[i].h.type == TIPME_SEC_SYSTEM)
			sys = &d.secs[i];
		else if (d.secs[i].h.type == TIPME_SEC_SYMBOLS)
			sy = &d.secs[i];
	}
	if (sys && sy && sys->h.size == strlen(key) &&
	    !memcmp(sys->data, key, sys->h.size) && sy->h.size >= 8) {
		c->blob = malloc(sy->h.size);
		if (c->blob) {
			memcpy(c->blob, sy->data, sy->h.size);
			c->len = sy->h.size;
			ok = 1;
		}
	}
	tm_dump_free(&d);
	return ok;
}

static void cache_save(const struct symcache *c, const char *dir, const char *key)
{
	struct tipme_file_header fh;
	char path[512];
	struct tm_err e;
	struct tm_dumpw w;

	if (!c->blob || !cache_dir_ok(dir, 1))
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, SYMCACHE_FILE);
	memset(&fh, 0, sizeof(fh));
	if (tm_dumpw_open(&w, path, &fh, 0, &e))
		return;
	if (tm_dumpw_section(&w, TIPME_SEC_SYSTEM, 0, key, strlen(key), &e) ||
	    tm_dumpw_section(&w, TIPME_SEC_SYMBOLS, 0, c->blob, c->len, &e) ||
	    tm_dumpw_commit(&w, &e))
		tm_dumpw_abort(&w);
}

int symcache_refresh(struct symcache *c)
{
	uint32_t sum = modules_sum();
	const char *dir = getenv("TIPME_CACHE_DIR");
	char key[160];
	int err;

	if (c->valid && sum == c->modules_sum)
		return 0;
	symcache_free(c);
	if (!dir || !*dir)
		dir = SYMCACHE_DIR;
	cache_key(key, sizeof(key), sum);
	if (!cache_load(c, dir, key)) {
		err = symcache_read(c);
		if (err)
			return err;
		cache_save(c, dir, key);
	}
	c->modules_sum = sum;
	c->valid = 1;
	return 0;
}

int sysinfo_write_symbols(struct tm_dumpw *w, struct symcache *cache,
			  struct tm_err *e)
{
	struct symcache local = { 0 };
	struct symcache *c = cache ? cache : &local;
	int err = 0;

	if (symcache_refresh(c))
		return tm_err_set(e, ENOMEM, "out of memory reading /proc/kallsyms");
	if (c->blob)	/* else addresses hidden */
		err = tm_dumpw_section(w, TIPME_SEC_SYMBOLS, 0, c->blob, c->len, e);
	if (!cache)
		symcache_free(&local);
	return err;
}

/* A mapped file's build-id, by device and inode, for one dump's maps. */
struct bid_ent {
	dev_t dev;
	ino_t ino;
	char hex[2 * TM_BUILD_ID_MAX + 1];
};

/* A vDSO's image, read from a process's memory, by its build-id. */
struct vdso_ent {
	char hex[2 * TM_BUILD_ID_MAX + 1];
	unsigned char *img;
	size_t size;
};

#define VDSO_MAX	4		/* images per dump: one per ABI */
#define VDSO_SIZE_MAX	(1u << 20)	/* bytes of one, as the reader takes */

struct bid_cache {
	struct bid_ent *ent;
	size_t n;
	size_t cap;
	struct vdso_ent vdso[VDSO_MAX];
	size_t nvdso;
};

/*
 * The build-id in hex of the regular file open as @fd (which it closes),
 * looked up in @c by @st's device and inode, else read and kept there.
 */
static const char *bid_of_fd(struct bid_cache *c, int fd, const struct stat *st)
{
	unsigned char id[TM_BUILD_ID_MAX];
	struct tm_elf_src src = { tm_elf_fd_read, NULL };
	struct bid_ent *b;
	size_t i, len;

	for (i = 0; i < c->n; i++)
		if (c->ent[i].dev == st->st_dev && c->ent[i].ino == st->st_ino) {
			close(fd);
			return c->ent[i].hex;
		}
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 32;
		struct bid_ent *n = realloc(c->ent, cap * sizeof(*n));

		if (!n) {
			close(fd);
			return "-";
		}
		c->ent = n;
		c->cap = cap;
	}
	b = &c->ent[c->n++];
	b->dev = st->st_dev;
	b->ino = st->st_ino;
	strcpy(b->hex, "-");
	src.ctx = &fd;
	if (!tm_elf_build_id(&src, id, &len, NULL))
		for (i = 0; i < len; i++)
			snprintf(b->hex + 2 * i, 3, "%02x", id[i]);
	close(fd);
	return b->hex;
}

/* The build-id of the file of @pid's mapping @lo-@hi (or @path) in hex. */
static const char *build_id_hex(struct bid_cache *c, uint32_t pid,
				unsigned long long lo, unsigned long long hi,
				const char *path)
{
	char mf[96];
	struct stat st;
	int fd;

	snprintf(mf, sizeof(mf), "/proc/%u/map_files/%llx-%llx", pid, lo, hi);
	fd = open(mf, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return "-";
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return "-";
	}
	return bid_of_fd(c, fd, &st);
}

/*
 * The build-id of @pid's vDSO, mapped at @lo-@hi, in hex ("-": its memory
 * could not be read, or it has none); its image kept in @c for the dump.
 */
static const char *vdso_build_id(struct bid_cache *c, uint32_t pid,
				 unsigned long long lo, unsigned long long hi)
{
	struct tm_elf_mem mem;
	struct tm_elf_src src = { tm_elf_mem_read, &mem };
	unsigned char id[TM_BUILD_ID_MAX], *img;
	size_t size = (size_t)(hi - lo), i, len;
	struct vdso_ent *v;
	char path[64];
	ssize_t got;
	int fd;

	if (hi - lo > VDSO_SIZE_MAX)
		return "-";
	snprintf(path, sizeof(path), "/proc/%u/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return "-";
	img = malloc(size);
	got = img ? pread(fd, img, size, (off_t)lo) : -1;
	close(fd);
	mem.data = img;
	mem.size = got > 0 ? (size_t)got : 0;
	if (got != (ssize_t)size || tm_elf_build_id(&src, id, &len, NULL)) {
		free(img);
		return "-";
	}
	v = &c->vdso[c->nvdso];
	for (i = 0; i < len; i++)
		snprintf(v->hex + 2 * i, 3, "%02x", id[i]);
	for (i = 0; i < c->nvdso; i++)
		if (!strcmp(c->vdso[i].hex, v->hex)) {
			free(img);
			return c->vdso[i].hex;
		}
	if (c->nvdso == VDSO_MAX) {
		free(img);
		return "-";
	}
	v->img = img;
	v->size = size;
	c->nvdso++;
	return v->hex;
}

/*
 * The build-id of the file at @path in hex, if it is still the file of
 * device @dev and inode @ino a process mapped ("-" otherwise).
 */
static const char *captured_build_id(struct bid_cache *c, const char *path,
				     dev_t dev, ino_t ino)
{
	struct stat st;
	size_t i;
	int fd;

	for (i = 0; i < c->n; i++)
		if (c->ent[i].dev == dev && c->ent[i].ino == ino)
			return c->ent[i].hex;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return "-";
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_dev != dev ||
	    st.st_ino != ino) {
		close(fd);
		return "-";
	}
	return bid_of_fd(c, fd, &st);
}

/*
 * The mappings the module captured of @pid, exited: those of the last
 * process with that pid (the latest start time).  Return: lines written.
 */
static size_t captured_maps_of(FILE *out, struct bid_cache *c, uint32_t pid,
			       const struct tm_xmaps *x)
{
	uint64_t start = 0;
	struct tm_xmap m;
	char path[256];
	size_t off = 0, n = 0, i, j;
	int any = 0;

	while (tm_xmaps_next(x, &off, &m))
		if (m.m.pid == pid && (!any || m.m.start_mono_ns > start)) {
			start = m.m.start_mono_ns;
			any = 1;
		}
	if (!any)
		return 0;
	fprintf(out, "# %u: exited: captured by the module\n", pid);
	off = 0;
	while (tm_xmaps_next(x, &off, &m)) {
		if (m.m.pid != pid || m.m.start_mono_ns != start)
			continue;
		/* the path as a C string, for open() */
		for (i = 0; i < m.m.path_len && i + 1 < sizeof(path) &&
		     m.path[i]; i++)
			path[i] = m.path[i];
		path[i] = '\0';
		fprintf(out, "%u %llx %llx %llx ", pid,
			(unsigned long long)m.m.start,
			(unsigned long long)m.m.end,
			(unsigned long long)m.m.offset);
		/* the build-id the module read, else the file's at @path now */
		for (j = 0; j < m.build_id_len; j++)
			fprintf(out, "%02x", m.build_id[j]);
		fprintf(out, "%s ", m.build_id_len ? "" :
			captured_build_id(c, path, (dev_t)m.m.dev, (ino_t)m.m.ino));
		/* escaped as /proc/PID/maps escapes a newline */
		for (j = 0; j < i; j++)
			if (path[j] == '\n')
				fputs("\\012", out);
			else
				fputc(path[j], out);
		fputc('\n', out);
		n++;
	}
	return n;
}

/*
 * One read of /proc/@pid/maps: its executable mappings' lines to @out.
 * Return: the file mappings listed, -1 if the maps could not be read, -2
 * if the listing went backwards (the kernel hands the file out a page at a
 * time, and a process that maps or unmaps between two pages can have a
 * range listed twice).
 */
static int maps_read(FILE *out, struct bid_cache *c, uint32_t pid)
{
	unsigned long long lo, hi, off, prev_end = 0;
	char path[64], perms[8];
	size_t cap = 0;
	char *line = NULL;
	ssize_t len;
	int n = 0, at;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	f = fopen(path, "re");
	if (!f) {
		fprintf(out, "# %u: %s\n", pid, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		at = -1;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi,
			   perms, &off, &at) < 4 || at < 0)
			continue;
		if (lo < prev_end) {
			n = -2;
			break;
		}
		prev_end = hi;
		if (strlen(perms) < 3 || perms[2] != 'x')
			continue;
		if (!strcmp(line + at, "[vdso]")) {
			fprintf(out, "%u %llx %llx 0 %s [vdso]\n", pid, lo, hi,
				vdso_build_id(c, pid, lo, hi));
			continue;
		}
		if (line[at] != '/')
			continue;
		fprintf(out, "%u %llx %llx %llx %s %s\n", pid, lo, hi, off,
			build_id_hex(c, pid, lo, hi, line + at), line + at);
		n++;
	}
	if (n >= 0 && ferror(f)) {
		fprintf(out, "# %u: %s\n", pid, strerror(errno));
		n = -1;
	}
	free(line);
	fclose(f);
	return n;
}

#define MAPS_TRIES	4	/* reads of a process's maps that went backwards */

/*
 * The executable mappings of live process @pid, as one read of its maps
 * that never went backwards (MAPS_TRIES at most; then a comment says so).
 * Return: file mappings listed, or -1 if none could be read whole.
 */
static int maps_of(FILE *out, struct bid_cache *c, uint32_t pid)
{
	char *buf = NULL;
	size_t len = 0;
	int n = -2, i;
	FILE *one;

	for (i = 0; i < MAPS_TRIES && n == -2; i++) {
		free(buf);
		buf = NULL;
		one = open_memstream(&buf, &len);
		if (!one)
			return -1;
		n = maps_read(one, c, pid);
		if (fclose(one))
			n = -1;
	}
	if (n == -2)
		fprintf(out, "# %u: its mappings changed while read, %d times\n",
			pid, MAPS_TRIES);
	else if (buf)
		fwrite(buf, 1, len, out);
	free(buf);
	return n < 0 ? -1 : n;
}

int sysinfo_write_maps(struct tm_dumpw *w, const uint32_t *pids, size_t n,
		       const void *xmaps, size_t xmaps_len, struct tm_err *e)
{
	struct bid_cache c = { 0 };
	struct tm_xmaps x;
	struct tm_err xe = { 0 };
	char *buf = NULL;
	size_t len = 0, i;
	char *gone;
	int have_x = 0;
	FILE *out;
	int err = 0;

	out = open_memstream(&buf, &len);
	if (!out)
		return tm_err_set(e, ENOMEM, "out of memory");
	if (xmaps && !tm_xmaps_parse(xmaps, xmaps_len, &x, &xe))
		have_x = 1;
	else if (xmaps)
		fprintf(out, "# the module's captured mappings: %s\n", xe.msg);
	gone = calloc(n ? n : 1, 1);
	if (!gone) {
		fclose(out);
		free(buf);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	/* the live processes first: their files' build-ids serve the rest */
	for (i = 0; i < n; i++)
		gone[i] = maps_of(out, &c, pids[i]) <= 0;
	for (i = 0; i < n && have_x; i++)
		if (gone[i])
			captured_maps_of(out, &c, pids[i], &x);
	free(gone);
	free(c.ent);
	if (fclose(out))
		err = tm_err_set(e, ENOMEM, "out of memory");
	if (!err)
		err = tm_dumpw_section(w, TIPME_SEC_MAPS, 0, buf, len, e);
	for (i = 0; i < c.nvdso; i++) {
		if (!err)
			err = tm_dumpw_section(w, TIPME_SEC_VDSO, 0, c.vdso[i].img,
					       c.vdso[i].size, e);
		free(c.vdso[i].img);
	}
	free(buf);
	return err;
}
