// SPDX-License-Identifier: GPL-2.0
/*
 * User-space call chains: the compact record (TIPME_REC_USTACK_C) given as
 * TIPME_REC_USTACK of the thread the latest switch put to sleep (dropped
 * when no switch said who), the user stack table and the mappings read
 * back, a chain resolved to file and offset and cut where an address
 * leaves executable code, `tipme records` and `tipme report` (golden text
 * and JSON), sections that lie, and the build-id of an ELF file the test
 * lays out itself.  The module's captured mappings (TIPME_SEC_XMAPS): read
 * back and counted by `tipme info --json`, refused when they lie, dropped
 * by `tipme redact`.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "cmd/commands.h"
#include "dump/decode.h"
#include "dump/tables.h"
#include "elfnote.h"
#include "golden.h"
#include "scen.h"
#include "tap.h"
#include "xmaps.h"

static char dir[64];
static char path[96];
static struct scen *S;		/* large: on the heap */
static int exec_later;		/* 40 runs a new program at 115 ms */
static const void *xsec;	/* a TIPME_SEC_XMAPS section to write, or NULL */
static size_t xsec_len;

static const char *const pipe_site[] = { "pipe_read", "vfs_read", "ksys_read", NULL };

#define APP	0x555500000000ULL
#define LIBC	0x7f0000000000ULL

static const char maps[] =
	"# 50: No such file or directory\n"
	"40 555500001000 555500003000 1000 0123456789abcdef0123456789abcdef01234567 /usr/bin/app\n"
	"40 7f0000028000 7f0000100000 28000 - /usr/lib/x86_64-linux-gnu/libc.so.6\n";

/* The table: @n entries given as (id, pid, flags, nr, addresses...). */
struct chain {
	uint32_t id, pid;
	uint8_t flags, nr;
	uint64_t ip[4];
};

static size_t table(unsigned char *b, const struct chain *c, size_t n)
{
	struct tipme_sitetab_hdr h = { .hdr_size = sizeof(h), .count = (uint32_t)n,
				       .capacity = 1024, .depth = 16 };
	size_t off = sizeof(h), i;

	memcpy(b, &h, sizeof(h));
	for (i = 0; i < n; i++) {
		struct tipme_ustack u = { .id = c[i].id, .pid = c[i].pid,
					  .nr = c[i].nr, .flags = c[i].flags };

		memcpy(b + off, &u, sizeof(u));
		memcpy(b + off + sizeof(u), c[i].ip, 8u * c[i].nr);
		off += sizeof(u) + 8u * c[i].nr;
	}
	return off;
}

static const struct chain chains[] = {
	/* the leaf in libc, two frames of the app, then a stray address */
	{ 3, 40, 0, 4, { LIBC + 0x29f00, APP + 0x1234, APP + 0x2001, 0x6000 } },
	/* a walk the module cut: the leaf alone */
	{ 5, 40, TIPME_USTACK_TRUNC, 1, { LIBC + 0x30000 } },
	/* a process the dump has no mappings of: kept, in hex */
	{ 7, 50, 0, 2, { 0x401000, 0x401100 } },
};

static void ustack_rec(struct scen *s, uint32_t cpu, uint64_t ts, uint32_t id)
{
	struct tipme_rec_ustack_c r = { id };

	scen_rec(s, cpu, TIPME_REC_USTACK_C, ts, &r, sizeof(r));
}

/* A reader (40, "app") sleeps on a pipe twice; a writer (41) wakes it. */
static int write_dump(struct scen *s, unsigned char *tab, size_t tab_len,
		      const char *m)
{
	scen_init(s, 1);
	s->ustacks = tab;
	s->ustacks_len = tab_len;
	s->maps = m;
	s->xmaps = xsec;
	s->xmaps_len = xsec_len;
	scen_task(s, 40, 40, "app", "/usr/bin/app", "app", 4);
	scen_task(s, 41, 41, "writer", "/usr/bin/writer", "writer", 7);
	scen_task(s, 50, 50, "gone", "/usr/bin/gone", "gone", 5);
	if (exec_later) {
		size_t at = s->exec_len;
		struct tipme_exec x;

		scen_task(s, 40, 40, "app2", "/usr/bin/app2", "app2", 5);
		memcpy(&x, s->exec + at, sizeof(x));
		x.start_ts = MS(115);
		memcpy(s->exec + at, &x, sizeof(x));
	}
	ustack_rec(s, 0, MS(1), 5);		/* nobody went to sleep yet: dropped */
	scen_switch(s, 0, MS(2), 0, TIPME_TS_RUNNABLE, 120, 40, 120);
	scen_switch(s, 0, MS(10), 40, TIPME_TS_SLEEPING, 120, 41, 120);
	scen_blocked(s, 0, MS(10), 40, pipe_site);
	ustack_rec(s, 0, MS(10), 3);
	ustack_rec(s, 0, MS(10), 3);		/* a second one: dropped */
	scen_wake(s, 0, MS(110), 40, 0, 41, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(111), 41, TIPME_TS_SLEEPING, 120, 40, 120);
	scen_switch(s, 0, MS(120), 40, TIPME_TS_SLEEPING, 120, 50, 120);
	ustack_rec(s, 0, MS(120), 5);
	scen_switch(s, 0, MS(130), 50, TIPME_TS_SLEEPING, 120, 0, 120);
	ustack_rec(s, 0, MS(130), 7);
	scen_switch(s, 0, MS(140), 0, TIPME_TS_RUNNABLE, 120, 41, 120);
	ustack_rec(s, 0, MS(140), 9);		/* a switch to run: dropped */
	return scen_write(s, path);
}

static char *run(int (*cmd)(int, char **), const char *args, int *ret)
{
	return capture_words(cmd, args, path, dir, ret);
}

static void decoded(void)
{
	unsigned char tab[512];
	struct pm_dump pm = { 0 };
	struct tm_err e = { "" };
	struct pm_merge m;
	struct pm_event ev;
	uint32_t got[8][2];
	size_t n = 0;
	int ret;

	ret = write_dump(S, tab, table(tab, chains, 3), maps);
	tap_ok(!ret, "the dump is written");
	ret = pm_open(&pm, path, 0, &e);
	tap_ok(!ret, "it opens: %s", e.msg);
	if (ret)
		return;
	ret = pm_merge_init(&m, &pm, NULL, &e);
	while (ret >= 0 && (ret = pm_merge_next(&m, &ev, &e)) > 0)
		if (ev.type == TIPME_REC_USTACK && n < 8) {
			got[n][0] = ev.u.rec.USTACK.pid;
			got[n++][1] = ev.u.rec.USTACK.id;
		}
	pm_merge_free(&m);
	tap_ok(n == 3 && got[0][0] == 40 && got[0][1] == 3 && got[1][0] == 40 &&
	       got[1][1] == 5 && got[2][0] == 50 && got[2][1] == 7,
	       "ustack_c given as ustack of the thread its switch put to sleep, the rest dropped (%zu)", n);
	tap_ok(pm_ustack_get(&pm, 3) && !pm_ustack_get(&pm, 4),
	       "chains found by number, an unknown number not");
	{
		struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
		int trunc;
		size_t k = pm_ustack_resolve(&pm, pm_ustack_get(&pm, 3), MS(10), fr, &trunc);

		tap_ok(k == 3 && trunc && fr[0].map && !strcmp(fr[0].map->name, "libc.so.6") &&
		       fr[0].off == 0x29f00 && fr[1].off == 0x1234 &&
		       !strcmp(fr[1].map->name, "app") && fr[2].off == 0x2001,
		       "resolved to file offsets, cut at the address outside executable code");
		k = pm_ustack_resolve(&pm, pm_ustack_get(&pm, 7), MS(130), fr, &trunc);
		tap_ok(k == 2 && !trunc && !fr[0].map && fr[1].addr == 0x401100,
		       "no mappings of the process: the addresses kept, without a file");
	}
	pm_close(&pm);
}

/* The dump of the three chains with maps section @maps, opened (else a failed test). */
static int open_with_maps(struct pm_dump *pm, const char *maps_text, const char *what)
{
	unsigned char tab[512];
	struct tm_err e = { "" };

	if (write_dump(S, tab, table(tab, chains, 3), maps_text) || pm_open(pm, path, 0, &e)) {
		tap_ok(0, "%s opens: %s", what, e.msg);
		return -1;
	}
	return 0;
}

/*
 * A dump with chains and a maps section that lists no mapping (none could
 * be read, or a fuzzed dump): every frame keeps its address.
 */
static void no_maps(void)
{
	struct pm_dump pm = { 0 };
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	int trunc = -1;
	size_t k;

	if (open_with_maps(&pm, "# 40: not read\n", "a dump without mappings"))
		return;
	k = pm_ustack_resolve(&pm, pm_ustack_get(&pm, 3), MS(10), fr, &trunc);
	tap_ok(k == 4 && !fr[0].map && !fr[3].map && fr[3].addr == 0x6000 && !trunc,
	       "a maps section that lists none: the chain's addresses kept, without files (%zu)", k);
	pm_close(&pm);
}

static void golden_outputs(void)
{
	static const struct {
		int (*cmd)(int, char **);
		const char *args, *file;
	} c[] = {
		{ pm_cmd_records, "records --type blocked,ustack DUMP", "ustack-records.txt" },
		{ pm_cmd_records, "records --json --type ustack DUMP", "ustack-records.json" },
		{ pm_cmd_report, "report --pid 40 --from 0.009 --to 0.111 DUMP", "ustack-report.txt" },
		{ pm_cmd_report, "report --json --pid 40 --from 0.009 --to 0.111 DUMP",
		  "ustack-report.json" },
	};
	unsigned char tab[512];
	char gp[160], *t;
	size_t i;
	int ret;

	if (write_dump(S, tab, table(tab, chains, 3), maps))
		return;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		t = run(c[i].cmd, c[i].args, &ret);
		snprintf(gp, sizeof(gp), "tests/unit/golden/%s", c[i].file);
		tap_ok(!ret && golden_file(gp, t), "%s", c[i].args);
		free(t);
	}
}

/*
 * Mappings of a process that overlap (tipmed read /proc/PID/maps while the
 * process mapped and unmapped): both left out and counted, a line listed
 * twice kept once, and the dump opens.
 */
static void overlaps(void)
{
	static const char m[] =
		"40 555500001000 555500003000 1000 0123456789abcdef0123456789abcdef01234567 /usr/bin/app\n"
		"40 7f0000028000 7f0000100000 28000 - /usr/lib/x86_64-linux-gnu/libc.so.6\n"
		"40 7f0000080000 7f0000200000 0 - /usr/lib/x86_64-linux-gnu/libgone.so\n"
		"40 555500001000 555500003000 1000 0123456789abcdef0123456789abcdef01234567 /usr/bin/app\n";
	struct pm_dump pm = { 0 };
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	int trunc = -1;
	size_t k;

	if (open_with_maps(&pm, m, "a dump with overlapping mappings"))
		return;
	tap_ok(pm.instr->nr_maps == 1 && pm.instr->nr_maps_dropped == 2,
	       "overlapping mappings left out and counted, a repeated line kept once (%zu kept, %zu dropped)",
	       pm.instr->nr_maps, pm.instr->nr_maps_dropped);
	k = pm_ustack_resolve(&pm, pm_ustack_get(&pm, 3), MS(10), fr, &trunc);
	tap_ok(k >= 2 && !fr[0].map && fr[1].map && !strcmp(fr[1].map->name, "app") &&
	       fr[1].off == 0x1234,
	       "an address in the overlap has no file, the process's other frames do (%zu)", k);
	pm_close(&pm);
}

/* A dump with a lying table or mappings must not open, and say why. */
static void lies(void)
{
	static const struct {
		const char *what, *maps, *msg;
		struct chain c;
		int cut;	/* bytes cut off the table's end */
	} l[] = {
		{ "number 0", NULL, "chain number 0", { 0, 40, 0, 1, { 1 } }, 0 },
		{ "no address", NULL, "chain of no address", { 1, 40, 0, 0, { 0 } }, 0 },
		{ "17 addresses", NULL, "more than 16", { 1, 40, 0, 17, { 0 } }, 0 },
		{ "entry cut", NULL, "past the end", { 1, 40, 0, 2, { 1, 2 } }, 4 },
		{ "maps: garbage", "40 zz\n", "line 1 malformed", { 1, 40, 0, 1, { 1 } }, 0 },
		{ "maps: no newline", "40 1 2 0 - /a", "unterminated", { 1, 40, 0, 1, { 1 } }, 0 },
		{ "maps: relative path", "40 1 2 0 - a\n", "malformed", { 1, 40, 0, 1, { 1 } }, 0 },
		{ "maps: odd build-id", "40 1 2 0 abc /a\n", "malformed", { 1, 40, 0, 1, { 1 } }, 0 },
	};
	unsigned char tab[512];
	struct pm_dump pm;
	struct tm_err e;
	size_t i, len;
	struct chain two[2] = { { 2, 40, 0, 1, { 1 } }, { 2, 41, 0, 1, { 2 } } };

	for (i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		struct chain c = l[i].c;

		if (c.nr > 4) {		/* claims 17; the bytes are not there */
			len = table(tab, &(struct chain){ c.id, c.pid, 0, 0, { 0 } }, 1);
			tab[sizeof(struct tipme_sitetab_hdr) + 8] = c.nr;
		} else {
			len = table(tab, &c, 1) - l[i].cut;
		}
		memset(&pm, 0, sizeof(pm));
		strcpy(e.msg, "");
		if (write_dump(S, tab, len, l[i].maps)) {
			tap_ok(0, "%s: written", l[i].what);
			continue;
		}
		tap_ok(pm_open(&pm, path, 0, &e) < 0 && strstr(e.msg, l[i].msg),
		       "%s: refused (%s)", l[i].what, e.msg);
		pm_close(&pm);
	}
	len = table(tab, two, 2);
	memset(&pm, 0, sizeof(pm));
	if (!write_dump(S, tab, len, NULL))
		tap_ok(pm_open(&pm, path, 0, &e) < 0 && strstr(e.msg, "listed twice"),
		       "a number listed twice: refused (%s)", e.msg);
	pm_close(&pm);
}

/* An ELF file laid out here: header, two PT_NOTE segments, the id in the second. */
static void elf_build_id(void)
{
	static const unsigned char want[20] = {
		0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
	};
	unsigned char f[1024], id[TM_BUILD_ID_MAX];
	struct tm_elf_mem mem = { f, sizeof(f) };
	struct tm_elf_src src = { tm_elf_mem_read, &mem };
	Elf64_Ehdr *eh = (Elf64_Ehdr *)f;
	Elf64_Phdr ph[2];
	struct tm_err e = { "" };
	uint32_t note[3];
	size_t len = 0;
	int ret;

	memset(f, 0, sizeof(f));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_phoff = 64;
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = 2;
	memset(ph, 0, sizeof(ph));
	ph[0].p_type = PT_NOTE;		/* an ABI tag note */
	ph[0].p_offset = 256;
	ph[0].p_filesz = 32;
	ph[1].p_type = PT_NOTE;
	ph[1].p_offset = 512;
	ph[1].p_filesz = 12 + 4 + 20;
	memcpy(f + 64, ph, sizeof(ph));
	note[0] = 4, note[1] = 16, note[2] = NT_GNU_ABI_TAG;
	memcpy(f + 256, note, 12);
	memcpy(f + 268, "GNU", 4);
	note[0] = 4, note[1] = 20, note[2] = NT_GNU_BUILD_ID;
	memcpy(f + 512, note, 12);
	memcpy(f + 524, "GNU", 4);
	memcpy(f + 528, want, 20);
	ret = tm_elf_build_id(&src, id, &len, &e);
	tap_ok(!ret && len == 20 && !memcmp(id, want, 20), "build-id from the second note segment");
	mem.size = 540;			/* the descriptor cut */
	ret = tm_elf_build_id(&src, id, &len, &e);
	tap_ok(ret == -EINVAL && strstr(e.msg, "truncated"), "a cut file: %s", e.msg);
	mem.size = sizeof(f);
	note[1] = 0x7fffffff;		/* a descriptor longer than the segment */
	memcpy(f + 512, note, 12);
	ret = tm_elf_build_id(&src, id, &len, &e);
	tap_ok(ret == -ENOENT, "a note past its segment: no build-id");
	f[EI_CLASS] = ELFCLASS32;
	ret = tm_elf_build_id(&src, id, &len, &e);
	tap_ok(ret == -EINVAL && strstr(e.msg, "64-bit"), "32-bit ELF: %s", e.msg);
	f[EI_CLASS] = ELFCLASS64;
	eh->e_phnum = 60000;
	ret = tm_elf_build_id(&src, id, &len, &e);
	tap_ok(ret == -EINVAL, "60000 program headers: %s", e.msg);
}

/*
 * The mappings are read at dump time: a chain recorded before the process
 * ran another program is not resolved with the new program's.
 */
static void after_exec(void)
{
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	unsigned char tab[512];
	struct pm_dump pm = { 0 };
	struct tm_err e = { "" };
	size_t k1, k2;
	int t1, t2;

	exec_later = 1;
	if (write_dump(S, tab, table(tab, chains, 3), maps) || pm_open(&pm, path, 0, &e)) {
		tap_ok(0, "the dump with a later exec: %s", e.msg);
		exec_later = 0;
		return;
	}
	exec_later = 0;
	k1 = pm_ustack_resolve(&pm, pm_ustack_get(&pm, 3), MS(10), fr, &t1);
	tap_ok(k1 == 4 && !t1 && !fr[0].map && fr[3].addr == 0x6000,
	       "a chain from before the exec: addresses, not the new program's files");
	k2 = pm_ustack_resolve(&pm, pm_ustack_get(&pm, 5), MS(120), fr, &t2);
	tap_ok(k2 == 1 && fr[0].map && !strcmp(fr[0].map->name, "libc.so.6"),
	       "a chain from after it: resolved");
	pm_close(&pm);
}

/* A redacted copy keeps no user-space address and no mapped file's path. */
static void redacted(void)
{
	unsigned char tab[512];
	char args[256], *t;
	struct pm_dump pm = { 0 };
	struct tm_err e = { "" };
	int ret;

	if (write_dump(S, tab, table(tab, chains, 3), maps))
		return;
	snprintf(args, sizeof(args), "redact DUMP -o %s/r.dump", dir);
	t = run(pm_cmd_redact, args, &ret);
	tap_ok(!ret && t && strstr(t, ", 2 user stack sections dropped"),
	       "redact says it dropped the user stack table and the mappings");
	free(t);
	snprintf(args, sizeof(args), "%s/r.dump", dir);
	ret = pm_open(&pm, args, 0, &e);
	tap_ok(!ret && !pm_instr_get(&pm)->have_ustacks && !pm_instr_get(&pm)->have_maps &&
	       !pm_ustack_get(&pm, 3), "the copy has neither (%s)", e.msg);
	pm_close(&pm);
	unlink(args);
}

/* Drop @t's spaces and newlines (pretty-printed JSON, compared whole). */
static void squeeze(char *t)
{
	char *o = t;

	for (; t && *t; t++)
		if (*t != ' ' && *t != '\n')
			*o++ = *t;
	if (o)
		*o = '\0';
}

/* One TIPME_SEC_XMAPS entry at @b: its bytes. */
static size_t xmap_ent(unsigned char *b, uint32_t pid, uint64_t start,
		       uint64_t end, const char *p, uint32_t flags)
{
	struct tipme_xmap m = { 0 };
	size_t len = strlen(p);

	m.size = (uint16_t)((sizeof(m) + len + 7) / 8 * 8);
	m.path_len = (uint16_t)len;
	m.pid = pid;
	m.start_mono_ns = 5000000;
	m.start = start;
	m.end = end;
	m.offset = 0x1000;
	m.ino = 77;
	m.dev = 0x801;
	m.flags = flags;
	memset(b, 0, m.size);
	memcpy(b, &m, sizeof(m));
	memcpy(b + sizeof(m), p, len);
	return m.size;
}

/* A header and three entries of process 50, which exited. */
static size_t xmaps_payload(unsigned char *b)
{
	struct tipme_xmaps_hdr h = { sizeof(h), 3, 8192, 1, 4, 1, 2, 3,
				     600000000000ULL };
	size_t off = sizeof(h);

	memcpy(b, &h, sizeof(h));
	off += xmap_ent(b + off, 50, 0x401000, 0x402000, "/usr/bin/gone",
			TIPME_XMAP_EXITED);
	off += xmap_ent(b + off, 50, LIBC + 0x28000, LIBC + 0x1bd000,
			"/usr/lib/x86_64-linux-gnu/libc.so.6", TIPME_XMAP_EXITED);
	off += xmap_ent(b + off, 50, 0x7f1000000000ULL, 0x7f1000001000ULL,
			"/tmp/a\nb (deleted)", TIPME_XMAP_EXITED);
	return off;
}

/*
 * An entry with the build-id the module read after its path; refused
 * when the build-id overruns the entry or is longer than the UAPI allows.
 */
static void xmaps_bid(void)
{
	struct tipme_xmaps_hdr h = { sizeof(h), 1, 8192, 1, 1, 0, 0, 0, 0 };
	static const char p[] = "/usr/bin/gone";
	unsigned char b[256] = { 0 }, id[20];
	struct tipme_xmap m = { 0 };
	struct tm_err e = { "" };
	struct tm_xmaps x;
	struct tm_xmap got;
	size_t off = 0, i;
	int ret;

	for (i = 0; i < sizeof(id); i++)
		id[i] = (unsigned char)(0x40 + i);
	m.size = (uint16_t)((sizeof(m) + strlen(p) + sizeof(id) + 7) / 8 * 8);
	m.path_len = (uint16_t)strlen(p);
	m.pid = 50;
	m.end = 0x1000;
	m.flags = TIPME_XMAP_EXITED | TIPME_XMAP_ROOT | sizeof(id) << 8;
	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), &m, sizeof(m));
	memcpy(b + sizeof(h) + sizeof(m), p, strlen(p));
	memcpy(b + sizeof(h) + sizeof(m) + strlen(p), id, sizeof(id));
	ret = tm_xmaps_parse(b, sizeof(h) + m.size, &x, &e);
	tap_ok(!ret && tm_xmaps_next(&x, &off, &got) && got.m.path_len == strlen(p) &&
	       got.build_id_len == sizeof(id) && !memcmp(got.build_id, id, sizeof(id)),
	       "xmaps: an entry's build-id read back after its path (%s)", e.msg);
	/* 40 bytes of build-id in an entry that holds 56 + 13 + 20 */
	b[sizeof(h) + offsetof(struct tipme_xmap, flags) + 1] = 40;
	ret = tm_xmaps_parse(b, sizeof(h) + m.size, &x, &e);
	tap_ok(ret == -EINVAL && strstr(e.msg, "build-id of 40 bytes (at most 32)"),
	       "xmaps refused: a build-id longer than 32 bytes (%s)", e.msg);
	b[sizeof(h) + offsetof(struct tipme_xmap, flags) + 1] = 30;
	ret = tm_xmaps_parse(b, sizeof(h) + m.size, &x, &e);
	tap_ok(ret == -EINVAL && strstr(e.msg, "build-id of 30 bytes overruns"),
	       "xmaps refused: a build-id past its entry (%s)", e.msg);
}

static void xmaps(void)
{
	static const struct {
		const char *what;
		size_t at;		/* byte of the payload changed */
		uint16_t v;		/* its new value (16 bits) */
		const char *msg;
	} lie[] = {
		{ "header size past the section", 0, 4000, "header of 4000 bytes" },
		{ "entry size not a multiple of 8", 56, 60, "entry 0 has size 60" },
		{ "entry size past the section", 56, 4096, "entry 0 has size 4096" },
		{ "path longer than its entry", 58, 200, "path of 200 bytes" },
	};
	unsigned char b[1024], tab[512];
	struct tm_err e = { "" };
	struct pm_dump pm = { 0 };
	struct tm_xmaps x;
	struct tm_xmap m;
	size_t len = xmaps_payload(b), off = 0, n = 0, i;
	char args[256], *t;
	int ret, ok = 1;

	ret = tm_xmaps_parse(b, len, &x, &e);
	tap_ok(!ret && x.count == 3 && x.hdr.walks == 4 && x.hdr.lost == 1,
	       "xmaps: three entries read back, with the header's counts (%s)", e.msg);
	while (!ret && tm_xmaps_next(&x, &off, &m)) {
		ok = ok && m.m.pid == 50 && (m.m.flags & TIPME_XMAP_EXITED);
		n++;
	}
	tap_ok(ok && n == 3 && off == x.len && !memcmp(m.path, "/tmp/a\nb (deleted)", 18) &&
	       !m.build_id_len,
	       "xmaps: the walk gives each entry and its path (no build-id: an older dump's form)");
	xmaps_bid();
	for (i = 0; i < sizeof(lie) / sizeof(lie[0]); i++) {
		unsigned char c[1024];

		memcpy(c, b, len);
		memcpy(c + lie[i].at, &lie[i].v, sizeof(lie[i].v));
		e.msg[0] = '\0';
		ret = tm_xmaps_parse(c, len, &x, &e);
		tap_ok(ret == -EINVAL && strstr(e.msg, lie[i].msg),
		       "xmaps refused: %s (%s)", lie[i].what, e.msg);
	}
	ret = tm_xmaps_parse(b, len - 8, &x, &e);
	tap_ok(ret == -EINVAL && strstr(e.msg, "entry 2"),
	       "xmaps refused: the last entry cut short (%s)", e.msg);

	/* in a dump: loaded, counted by info, dropped by redact */
	xsec = b;
	xsec_len = len;
	ret = write_dump(S, tab, table(tab, chains, 3), maps);
	xsec = NULL;
	if (ret)
		return;
	ret = pm_open(&pm, path, 0, &e);
	tap_ok(!ret && pm_instr_get(&pm)->have_xmaps && pm_instr_get(&pm)->xmaps.count == 3,
	       "a dump's xmaps section loaded (%s)", e.msg);
	pm_close(&pm);
	t = run(pm_cmd_info, "info --json DUMP", &ret);
	squeeze(t);
	tap_ok(!ret && t && strstr(t, "\"xmaps\":{\"count\":3,\"capacity\":8192,\"procs\":1,"
				     "\"walks\":4,\"lost\":1,\"refused\":2,\"evicted\":3}"),
	       "info --json: the xmaps counts");
	free(t);
	t = run(pm_cmd_info, "info DUMP", &ret);
	tap_ok(!ret && t && strstr(t, "captured mappings: 3 of 1 processes' executable mappings"
				     " kept (capacity 8192), 4 walks, 1 lost walks"),
	       "info: the xmaps counts as text");
	free(t);
	snprintf(args, sizeof(args), "redact DUMP -o %s/r.dump", dir);
	t = run(pm_cmd_redact, args, &ret);
	tap_ok(!ret && t && strstr(t, ", 3 user stack sections dropped"),
	       "redact drops the captured mappings with the chains and the maps");
	free(t);
	snprintf(args, sizeof(args), "%s/r.dump", dir);
	ret = pm_open(&pm, args, 0, &e);
	tap_ok(!ret && !pm_instr_get(&pm)->have_xmaps, "the copy has no xmaps (%s)", e.msg);
	pm_close(&pm);
	unlink(args);
	/* a dump whose section lies is refused, naming it */
	memcpy(b + 58, &(uint16_t){ 200 }, 2);
	xsec = b;
	ret = write_dump(S, tab, table(tab, chains, 3), maps);
	xsec = NULL;
	if (ret)
		return;
	ret = pm_open(&pm, path, 0, &e);
	tap_ok(ret && strstr(e.msg, "(xmaps): entry 0's path"),
	       "a dump with a lying xmaps section refused (%s)", e.msg);
	pm_close(&pm);
}

int main(void)
{
	static const char *const files[] = { "u.dump", "out", "err", NULL };

	S = malloc(sizeof(*S));
	snprintf(dir, sizeof(dir), "/tmp/tipme-ustack-XXXXXX");
	if (!S || !mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/u.dump", dir);
	decoded();
	no_maps();
	golden_outputs();
	lies();
	overlaps();
	redacted();
	after_exec();
	elf_build_id();
	xmaps();
	capture_rmdir(dir, files);
	free(S);
	return tap_done();
}
