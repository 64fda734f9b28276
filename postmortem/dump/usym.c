// SPDX-License-Identifier: GPL-2.0
/*
 * User-space symbols with elfutils: one Dwfl per build-id, opened on
 * first use from a file proven to carry that build-id and kept for the
 * dump's life; the functions at an address remembered, as chains repeat.
 *
 * The paths come from the dump: a file is opened only if stat() says it
 * is a regular file (no FIFO to block on, no device to read), and handed
 * to libelf only after lib/elfnote.c's bounded reader found the build-id
 * the dump names in it.  The vDSO's image comes with the dump
 * (TIPME_SEC_VDSO): it is handed to libelf in a memory file.
 */
#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfnote.h"
#include "usym.h"

#define USYM_MEMO	4096	/* remembered addresses, a power of 2 */
#define USYM_PAGE	4096ULL	/* what the kernel maps in: x86-64 */
#define USYM_LOADS	16	/* PT_LOAD segments kept per file */
#define USYM_DIRS	16	/* .build-id roots at most */

struct pm_usym_cache;

/*
 * One build-id's file: @dwfl NULL once tried without success.
 * @debug_only: the ELF is a debug file (objcopy --only-keep-debug): its
 * program headers have no file offsets, so a mapping is placed by the
 * one executable segment.
 */
struct usym_file {
	char *bid;
	unsigned char id[TM_BUILD_ID_MAX];
	size_t idlen;
	struct pm_usym_cache *c;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	int debug_only;
	int has_dwarf;
	GElf_Phdr load[USYM_LOADS];
	size_t nload;
};

struct usym_memo {
	const struct usym_file *uf;	/* NULL: empty */
	uint64_t off;
	int caller;
	size_t n;
	struct pm_usym s[PM_USYM_MAX];
};

struct debuginfod_client;

/*
 * libdebuginfod.so.1, loaded when $DEBUGINFOD_URLS is set.  @down: a
 * lookup failed for another reason than "no such file" (no answer in
 * time, no connection, no cache folder): no server is asked again.
 */
struct usym_dinfod {
	int tried;
	int down;
	void *lib;
	struct debuginfod_client *cl;
	struct debuginfod_client *(*begin)(void);
	int (*find_exe)(struct debuginfod_client *, const unsigned char *, int, char **);
	int (*find_dbg)(struct debuginfod_client *, const unsigned char *, int, char **);
	void (*end)(struct debuginfod_client *);
};

/*
 * C++ names: __cxa_demangle() of libstdc++.so.6, loaded the first time a
 * mangled name ("_Z...") is seen (every C++ program has it, and nothing
 * is linked for C programs' dumps); each name demangled once per dump.
 */
struct usym_demangled {
	char *mangled;			/* NULL: an empty slot */
	char *plain;			/* NULL: not demangled (shown mangled) */
};

struct usym_cxx {
	int tried;
	void *lib;
	char *(*demangle)(const char *, char *, size_t *, int *);
	struct usym_demangled *tab;	/* open addressing by the mangled name */
	size_t cap, n;
};

struct pm_usym_cache {
	const struct pm_instr *in;
	void (*note)(void *arg, const char *msg);	/* the dump's, or NULL */
	void *note_arg;
	struct usym_file **tab;		/* open addressing by build-id */
	size_t cap, n;
	char *dirs;			/* the roots' storage */
	const char *dirv[USYM_DIRS];
	size_t ndirs;
	struct usym_dinfod di;
	struct usym_memo *memo;
	struct usym_cxx cxx;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int unhex(const char *hex, unsigned char *id, size_t *len)
{
	size_t n = strlen(hex), i;

	if (!n || n % 2 || n / 2 > TM_BUILD_ID_MAX)
		return -1;
	for (i = 0; i < n / 2; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		id[i] = (unsigned char)b;
	}
	*len = n / 2;
	return 0;
}

/* @fd's file carries build-id @id (bounded reads: lib/elfnote.c). */
static int same_id(int fd, const unsigned char *id, size_t idlen)
{
	struct tm_elf_src src = { tm_elf_fd_read, &fd };
	unsigned char got[TM_BUILD_ID_MAX];
	struct tm_err e;
	size_t len = 0;

	return !tm_elf_build_id(&src, got, &len, &e) && len == idlen &&
	       !memcmp(got, id, idlen);
}

/* @path opened if it is a regular file with build-id @id; else -1. */
static int open_checked(const char *path, const unsigned char *id, size_t idlen)
{
	struct stat st;
	int fd;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !same_id(fd, id, idlen)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Tell the user @fmt through the dump's note. */
static void __attribute__((format(printf, 2, 3)))
usym_note(const struct pm_usym_cache *c, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	if (!c->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->note(c->note_arg, msg);
}

int pm_usym_dinfod_cache(uid_t uid, const char *cache_env, const char *xdg_env,
			 const char *home_env, const char *pw_home, char *buf, size_t len)
{
	const char *home;
	int n;

	if (cache_env && *cache_env)
		return 0;
	if (pw_home && !*pw_home)
		pw_home = NULL;
	if (uid == 0)
		home = pw_home ? pw_home : "/root";
	else if ((xdg_env && *xdg_env) || (home_env && *home_env) || !pw_home)
		return 0;
	else
		home = pw_home;
	n = snprintf(buf, len, "%s%s.cache/debuginfod_client", home,
		     home[strlen(home) - 1] == '/' ? "" : "/");
	return n > 0 && (size_t)n < len;
}

/*
 * The environment libdebuginfod reads, where the user left it unset:
 * PM_USYM_DINFOD_TIMEOUT and _RETRIES, and the cache folder of
 * pm_usym_dinfod_cache() (the folder above it made, as libdebuginfod
 * makes only the last one).
 */
static void dinfod_env(void)
{
	char cache[PATH_MAX], pwbuf[4096], *slash;
	struct passwd pw, *pwp = NULL;
	uid_t uid = geteuid();

	setenv("DEBUGINFOD_TIMEOUT", PM_USYM_DINFOD_TIMEOUT, 0);
	setenv("DEBUGINFOD_RETRY_LIMIT", PM_USYM_DINFOD_RETRIES, 0);
	if (getpwuid_r(uid, &pw, pwbuf, sizeof(pwbuf), &pwp))
		pwp = NULL;
	if (!pm_usym_dinfod_cache(uid, getenv("DEBUGINFOD_CACHE_PATH"), getenv("XDG_CACHE_HOME"),
				  getenv("HOME"), pwp ? pwp->pw_dir : NULL, cache, sizeof(cache)))
		return;
	slash = strrchr(cache, '/');
	*slash = '\0';
	mkdir(cache, 0700);
	*slash = '/';
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
}

static void dinfod_load(struct pm_usym_cache *c)
{
	struct usym_dinfod *d = &c->di;
	const char *urls = getenv("DEBUGINFOD_URLS");

	if (d->tried)
		return;
	d->tried = 1;
	if (!urls || !*urls)
		return;
	dinfod_env();
	/*
	 * Never unloaded: libcurl's and the TLS libraries' global state,
	 * which libdebuginfod's constructor sets up, is not made to go away
	 * with them (dlclose() left it behind: LeakSanitizer saw 840 KiB).
	 */
	d->lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!d->lib) {
		usym_note(c, "DEBUGINFOD_URLS is set but libdebuginfod.so.1 (package "
			  "libdebuginfod1) does not load: no debuginfod server is asked");
		return;
	}
	*(void **)&d->begin = dlsym(d->lib, "debuginfod_begin");
	*(void **)&d->find_exe = dlsym(d->lib, "debuginfod_find_executable");
	*(void **)&d->find_dbg = dlsym(d->lib, "debuginfod_find_debuginfo");
	*(void **)&d->end = dlsym(d->lib, "debuginfod_end");
	if (d->begin && d->find_exe && d->find_dbg && d->end)
		d->cl = d->begin();
	if (!d->cl) {
		usym_note(c, "libdebuginfod.so.1 loaded but gave no client: no debuginfod "
			  "server is asked");
		dlclose(d->lib);
		d->lib = NULL;
	}
}

/*
 * A lookup failed with -@err: "no such file" (ENOENT) is an answer,
 * unless the cache folder it needs is missing (libdebuginfod then says
 * ENOENT too, without asking); anything else gives the servers up.
 */
static void dinfod_failed(struct pm_usym_cache *c, int err)
{
	const char *urls = getenv("DEBUGINFOD_URLS"), *cache = getenv("DEBUGINFOD_CACHE_PATH");
	struct stat st;

	if (err == ENOENT) {
		if (!cache || !*cache || !stat(cache, &st))
			return;
		usym_note(c, "debuginfod: its cache folder %s (DEBUGINFOD_CACHE_PATH) could "
			  "not be made: no server is asked for this dump", cache);
	} else if (err == ETIME || err == ETIMEDOUT) {
		usym_note(c, "debuginfod at %s: no answer within %s s (DEBUGINFOD_TIMEOUT): "
			  "no server is asked again for this dump; symbols from local files "
			  "only", urls ? urls : "?", getenv("DEBUGINFOD_TIMEOUT"));
	} else {
		usym_note(c, "debuginfod at %s: %s: no server is asked again for this dump; "
			  "symbols from local files only", urls ? urls : "?", strerror(err));
	}
	c->di.down = 1;
}

/*
 * The file a debuginfod server has for @uf (@debug: its debug info, else
 * the executable), checked; -1 without one.  *@path is malloc'd.
 */
static int dinfod_find(struct usym_file *uf, int debug, char **path)
{
	struct usym_dinfod *d = &uf->c->di;
	int fd;

	dinfod_load(uf->c);
	if (!d->cl || d->down)
		return -1;
	*path = NULL;
	fd = (debug ? d->find_dbg : d->find_exe)(d->cl, uf->id, (int)uf->idlen, path);
	if (fd < 0)
		dinfod_failed(uf->c, -fd);
	if (fd >= 0 && !same_id(fd, uf->id, uf->idlen)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		free(*path);
		*path = NULL;
	}
	return fd;
}

/* ROOT/.build-id/xx/rest[.debug] under each root, checked; -1 without one. */
static int tree_find(struct usym_file *uf, int debug, char **path)
{
	size_t i;

	for (i = 0; i < uf->c->ndirs; i++) {
		char *p;
		int fd;

		if (asprintf(&p, "%s/.build-id/%.2s/%s%s", uf->c->dirv[i], uf->bid, uf->bid + 2,
			     debug ? ".debug" : "") < 0)
			return -1;
		fd = open_checked(p, uf->id, uf->idlen);
		if (fd >= 0) {
			*path = p;
			return fd;
		}
		free(p);
	}
	return -1;
}

static int no_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		  Dwarf_Addr base, char **file_name, Elf **elfp)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	*elfp = NULL;
	return -1;
}

/* dwfl asks for debug info: by build-id only, not by debuglink. */
static int find_debug(Dwfl_Module *mod, void **userdata, const char *modname,
		      Dwarf_Addr base, const char *file_name, const char *debuglink,
		      GElf_Word crc, char **debug_name)
{
	struct usym_file *uf = *userdata;
	int fd;

	(void)mod, (void)modname, (void)base, (void)file_name, (void)debuglink, (void)crc;
	if (!uf || uf->debug_only || uf->has_dwarf)
		return -1;
	fd = tree_find(uf, 1, debug_name);
	if (fd < 0)
		fd = dinfod_find(uf, 1, debug_name);
	return fd;
}

static const Dwfl_Callbacks usym_cb = {
	.find_elf = no_elf,
	.find_debuginfo = find_debug,
	.section_address = dwfl_offline_section_address,
};

/* Whether @fd's ELF file holds DWARF of its own (a .debug_info with bytes). */
static int elf_has_dwarf(int fd)
{
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	size_t shstr;
	int found = 0;

	if (!e)
		return 0;
	if (!elf_getshdrstrndx(e, &shstr))
		while (!found && (scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			const char *n;

			if (!gelf_getshdr(scn, &sh))
				break;
			n = elf_strptr(e, shstr, sh.sh_name);
			found = n && !strcmp(n, ".debug_info") && sh.sh_type != SHT_NOBITS;
		}
	elf_end(e);
	return found;
}

/*
 * The dump's image of the vDSO @uf names, in a memory file, checked;
 * -1 without one.
 */
static int vdso_open(struct usym_file *uf, char **path)
{
	const struct pm_vdso *v = pm_vdso_get(uf->c->in, uf->bid);
	size_t done = 0;
	ssize_t w;
	int fd;

	if (!v)
		return -1;
	fd = memfd_create("tipme-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	while (done < v->size) {
		w = write(fd, v->data + done, v->size - done);
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	*path = strdup(PM_VDSO_PATH);
	if (done < v->size || !*path || !same_id(fd, uf->id, uf->idlen)) {
		free(*path);
		*path = NULL;
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Open @uf's ELF file for @m, first the mapped file itself (the vDSO: the
 * dump's image of it).
 */
static void file_open(struct usym_file *uf, const struct pm_map *m)
{
	char *path = NULL;
	size_t i, nph;
	Elf *e;
	int fd;

	if (!strcmp(m->path, PM_VDSO_PATH)) {
		fd = vdso_open(uf, &path);
	} else {
		fd = open_checked(m->path, uf->id, uf->idlen);
		if (fd >= 0)
			path = strdup(m->path);
	}
	if (fd < 0)
		fd = tree_find(uf, 0, &path);
	if (fd < 0)
		fd = dinfod_find(uf, 0, &path);
	if (fd < 0) {
		fd = tree_find(uf, 1, &path);
		if (fd < 0)
			fd = dinfod_find(uf, 1, &path);
		uf->debug_only = fd >= 0;
	}
	if (fd < 0 || !path) {
		if (fd >= 0)
			close(fd);
		return;
	}
	elf_version(EV_CURRENT);
	uf->has_dwarf = elf_has_dwarf(fd);
	uf->dwfl = dwfl_begin(&usym_cb);
	if (uf->dwfl) {
		dwfl_report_begin(uf->dwfl);
		uf->mod = dwfl_report_elf(uf->dwfl, m->name, path, fd, 0, false);
		dwfl_report_end(uf->dwfl, NULL, NULL);
	}
	free(path);
	if (!uf->mod) {
		close(fd);		/* not taken by dwfl */
		if (uf->dwfl)
			dwfl_end(uf->dwfl);
		uf->dwfl = NULL;
		return;
	}
	{
		void **ud = NULL;

		dwfl_module_info(uf->mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
		if (ud)
			*ud = uf;
	}
	e = dwfl_module_getelf(uf->mod, &uf->bias);
	if (!e || elf_getphdrnum(e, &nph))
		nph = 0;
	for (i = 0; i < nph && uf->nload < USYM_LOADS; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			uf->load[uf->nload++] = ph;
	}
}

static struct pm_usym_cache *cache_get(const struct pm_dump *pm)
{
	struct pm_instr *in = pm->instr;
	struct pm_usym_cache *c;
	const char *dirs = getenv(PM_USYM_DIRS_ENV);
	char *tok, *save = NULL;

	if (!in)
		return NULL;
	if (in->usym)
		return in->usym;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->in = in;
	c->note = pm->note;
	c->note_arg = pm->note_arg;
	c->dirs = strdup(dirs ? dirs : PM_USYM_DIRS_DEFAULT);
	if (c->dirs)
		for (tok = strtok_r(c->dirs, ":", &save); tok && c->ndirs < USYM_DIRS;
		     tok = strtok_r(NULL, ":", &save))
			if (*tok == '/')	/* only absolute roots */
				c->dirv[c->ndirs++] = tok;
	in->usym = c;
	return c;
}

/* @m's file, opened on first use; NULL: none proven to be it. */
static struct usym_file *file_get(struct pm_usym_cache *c, const struct pm_map *m)
{
	struct usym_file *uf;
	size_t i, slot;

	if (!m->build_id)
		return NULL;
	if (c->n * 2 >= c->cap) {
		size_t ncap = c->cap ? 2 * c->cap : 64;
		struct usym_file **nt = calloc(ncap, sizeof(*nt));

		if (!nt)
			return NULL;
		for (i = 0; i < c->cap; i++)
			if (c->tab[i]) {
				slot = hash_str(c->tab[i]->bid) & (ncap - 1);
				while (nt[slot])
					slot = (slot + 1) & (ncap - 1);
				nt[slot] = c->tab[i];
			}
		free(c->tab);
		c->tab = nt;
		c->cap = ncap;
	}
	slot = hash_str(m->build_id) & (c->cap - 1);
	for (; c->tab[slot]; slot = (slot + 1) & (c->cap - 1))
		if (!strcmp(c->tab[slot]->bid, m->build_id))
			return c->tab[slot]->mod ? c->tab[slot] : NULL;
	uf = calloc(1, sizeof(*uf));
	if (!uf)
		return NULL;
	uf->bid = strdup(m->build_id);
	uf->c = c;
	if (!uf->bid || unhex(uf->bid, uf->id, &uf->idlen)) {
		free(uf->bid);
		free(uf);
		return NULL;
	}
	c->tab[slot] = uf;
	c->n++;
	file_open(uf, m);
	return uf->mod ? uf : NULL;
}

/*
 * The address in @uf's ELF file of offset @off of mapping @m, or 0 (not
 * in a loaded segment).  A debug file's segments have no file offsets:
 * then @m must be the whole of the file's one executable segment.
 */
static uint64_t file_vaddr(const struct usym_file *uf, const struct pm_map *m,
			   uint64_t off)
{
	const GElf_Phdr *x = NULL;
	size_t i;

	if (!uf->debug_only) {
		for (i = 0; i < uf->nload; i++) {
			const GElf_Phdr *p = &uf->load[i];

			if (p->p_filesz && off >= p->p_offset && off - p->p_offset < p->p_filesz)
				return off - p->p_offset + p->p_vaddr;
		}
		return 0;
	}
	for (i = 0; i < uf->nload; i++)
		if (uf->load[i].p_flags & PF_X) {
			if (x)
				return 0;	/* two: which one is mapped is not known */
			x = &uf->load[i];
		}
	if (x && off >= m->off) {
		uint64_t lo = x->p_vaddr & ~(USYM_PAGE - 1);
		uint64_t hi = (x->p_vaddr + x->p_memsz + USYM_PAGE - 1) & ~(USYM_PAGE - 1);
		uint64_t v = lo + (off - m->off);

		if (m->end - m->start == hi - lo && v >= x->p_vaddr &&
		    v - x->p_vaddr < x->p_memsz)
			return v;
	}
	return 0;
}

/* Room for one more name in @x's table.  Return: 0 or -ENOMEM. */
static int cxx_grow(struct usym_cxx *x)
{
	struct usym_demangled *t;
	size_t cap = x->cap ? 2 * x->cap : 64, i, j;

	if ((x->n + 1) * 2 <= x->cap)
		return 0;
	t = calloc(cap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < x->cap; i++) {
		if (!x->tab[i].mangled)
			continue;
		for (j = hash_str(x->tab[i].mangled) & (cap - 1); t[j].mangled; j = (j + 1) & (cap - 1))
			;
		t[j] = x->tab[i];
	}
	free(x->tab);
	x->tab = t;
	x->cap = cap;
	return 0;
}

/*
 * @name as a C++ programmer writes it ("doc::Editor::save<int>(int)")
 * when it is a mangled one libstdc++'s demangler reads, else @name.  The
 * result lives until pm_usym_free().
 */
static const char *demangled(struct pm_usym_cache *c, const char *name)
{
	struct usym_cxx *x = &c->cxx;
	int status = -1;
	size_t j;

	if (!name || name[0] != '_' || name[1] != 'Z')
		return name;
	if (!x->tried) {
		x->tried = 1;
		x->lib = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
		if (x->lib)
			*(void **)&x->demangle = dlsym(x->lib, "__cxa_demangle");
	}
	if (!x->demangle || cxx_grow(x))
		return name;
	for (j = hash_str(name) & (x->cap - 1); x->tab[j].mangled; j = (j + 1) & (x->cap - 1))
		if (!strcmp(x->tab[j].mangled, name))
			return x->tab[j].plain ? x->tab[j].plain : name;
	x->tab[j].mangled = strdup(name);
	if (!x->tab[j].mangled)
		return name;
	x->n++;
	x->tab[j].plain = x->demangle(name, NULL, NULL, &status);
	if (status) {
		free(x->tab[j].plain);
		x->tab[j].plain = NULL;
	}
	return x->tab[j].plain ? x->tab[j].plain : name;
}

static const char *die_name(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	const char *s = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_linkage_name, &a));

	return s ? s : dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
}

/* Where inlined subroutine @d was put in its caller; NULL if DWARF does not say. */
static const char *call_site(Dwarf_Die *cu, Dwarf_Die *d, uint32_t *line)
{
	Dwarf_Attribute a;
	Dwarf_Word fi, ln;
	Dwarf_Files *files;
	size_t nf;

	if (dwarf_formudata(dwarf_attr(d, DW_AT_call_file, &a), &fi) ||
	    dwarf_formudata(dwarf_attr(d, DW_AT_call_line, &a), &ln) ||
	    dwarf_getsrcfiles(cu, &files, &nf) || fi >= nf || !ln || ln > UINT32_MAX)
		return NULL;
	*line = (uint32_t)ln;
	return dwarf_filesrc(files, fi, NULL, NULL);
}

static size_t lookup(struct usym_file *uf, Dwarf_Addr a, struct pm_usym *out)
{
	const char *sym = dwfl_module_addrinfo(uf->mod, a, &(GElf_Off){ 0 }, &(GElf_Sym){ 0 },
					       NULL, NULL, NULL);
	Dwfl_Line *ln = dwfl_module_getsrc(uf->mod, a);
	const char *file = NULL;
	uint32_t line = 0;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr cubias = 0;
	size_t n = 0;
	int ns = 0, i, lno = 0, done = 0;

	if (ln) {
		file = dwfl_lineinfo(ln, NULL, &lno, NULL, NULL, NULL);
		if (!file || lno <= 0)
			file = NULL;
		else
			line = (uint32_t)lno;
	}
	cu = dwfl_module_addrdie(uf->mod, a, &cubias);
	if (cu)
		ns = dwarf_getscopes(cu, a - cubias, &scopes);
	/*
	 * Innermost first: the functions inlined here, each placed in the
	 * next by its call site, up to the function of the code.  Past an
	 * inlined instance dwarf_getscopes() goes on with the scopes of its
	 * abstract definition (up to the unit), not of its caller: the
	 * caller is then the symbol.
	 */
	for (i = 0; i < ns && !done; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_inlined_subroutine) {
			const char *name = die_name(&scopes[i]);

			if (name && n < PM_USYM_MAX - 1)
				out[n++] = (struct pm_usym){ name, file, file ? line : 0, 1 };
			file = call_site(cu, &scopes[i], &line);
		} else if (tag == DW_TAG_subprogram) {
			const char *name = sym && *sym ? sym : die_name(&scopes[i]);

			if (name)
				out[n++] = (struct pm_usym){ name, file, file ? line : 0, 0 };
			done = 1;
		} else if (tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit) {
			break;
		}
	}
	free(scopes);
	if (!done && sym && *sym)
		out[n++] = (struct pm_usym){ sym, file, file ? line : 0, 0 };
	for (i = 0; i < (int)n; i++)
		out[i].func = demangled(uf->c, out[i].func);
	return n;
}

size_t pm_usym_frame(const struct pm_dump *pm, const struct pm_uframe *f,
		     int caller, struct pm_usym out[PM_USYM_MAX])
{
	struct pm_usym_cache *c;
	struct usym_file *uf;
	struct usym_memo *me;
	uint64_t v;
	size_t slot;

	if (!f->map || !f->map->build_id || !(c = cache_get(pm)))
		return 0;
	uf = file_get(c, f->map);
	if (!uf)
		return 0;
	if (!c->memo)
		c->memo = calloc(USYM_MEMO, sizeof(*c->memo));
	slot = (size_t)(((uintptr_t)uf >> 4) ^ (f->off * 0x9e3779b97f4a7c15ULL >> 20) ^
			(uint64_t)caller) & (USYM_MEMO - 1);
	me = c->memo ? &c->memo[slot] : NULL;
	if (me && me->uf == uf && me->off == f->off && me->caller == caller) {
		memcpy(out, me->s, me->n * sizeof(*out));
		return me->n;
	}
	v = file_vaddr(uf, f->map, f->off);
	if (!v || (caller && v == 1)) {
		if (me)
			*me = (struct usym_memo){ uf, f->off, caller, 0, { { 0 } } };
		return 0;
	}
	{
		size_t n = lookup(uf, v + uf->bias - (caller ? 1 : 0), out);

		if (me) {
			me->uf = uf;
			me->off = f->off;
			me->caller = caller;
			me->n = n;
			memcpy(me->s, out, n * sizeof(*out));
		}
		return n;
	}
}

void pm_usym_free(struct pm_instr *in)
{
	struct pm_usym_cache *c;
	size_t i;

	if (!in->usym)
		return;
	c = in->usym;
	for (i = 0; i < c->cap; i++) {
		struct usym_file *uf = c->tab[i];

		if (!uf)
			continue;
		if (uf->dwfl)
			dwfl_end(uf->dwfl);
		free(uf->bid);
		free(uf);
	}
	free(c->tab);
	free(c->dirs);
	free(c->memo);
	if (c->di.cl)
		c->di.end(c->di.cl);
	if (c->di.lib)
		dlclose(c->di.lib);
	for (i = 0; i < c->cxx.cap; i++) {
		free(c->cxx.tab[i].mangled);
		free(c->cxx.tab[i].plain);
	}
	free(c->cxx.tab);
	if (c->cxx.lib)
		dlclose(c->cxx.lib);
	free(c);
	in->usym = NULL;
}
