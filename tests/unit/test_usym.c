// SPDX-License-Identifier: GPL-2.0
/*
 * User-space symbols (postmortem/dump/usym.c) on fixture ELF files built
 * with the tests (tests/unit/usym/): the fixture program walks its own
 * frame chain (save_document() -> lib_store() -> clamp_len() inlined ->
 * usym_capture()) and prints it with its mappings; a dump built from
 * that chain is symbolised and each frame checked against the line its
 * source marks ("usym: NAME"): from the files themselves, from stripped
 * copies whose debug info lies in a .build-id tree the test lays out,
 * from the debug info alone once the file is gone, and not at all from a
 * file whose build-id is not the dump's.  Golden text and JSON of
 * `records` and `report` with symbols, and of `report` and `why` with
 * the hot functions of profiler samples taken in those chains; a C++
 * fixture's mangled name demangled; a chain through the vDSO, named from
 * the image the dump carries (this process's own vDSO).  The debug files
 * from a debuginfod server of the test's own (dinfod.c), and what a
 * server that refuses or never answers costs: one note, one connection.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "cmd/commands.h"
#include "dinfod.h"
#include "dump/usym.h"
#include "elfnote.h"
#include "golden.h"
#include "scen.h"
#include "tap.h"

static char dir[64];
static char path[96];
static char fix[PATH_MAX - 64];	/* the fixtures' folder, absolute */
static struct scen *S;

static uint64_t ip[4];
static size_t nip;
static struct { uint64_t start, end, off; char path[PATH_MAX]; } fmap[2];
static size_t nmap;
static char bid_prog[2 * TM_BUILD_ID_MAX + 1], bid_lib[2 * TM_BUILD_ID_MAX + 1];

static const char *const pipe_site[] = { "pipe_read", "vfs_read", "ksys_read", NULL };

/* Run the fixture program: its chain and its two executable mappings. */
static int run_fixture(void)
{
	char cmd[PATH_MAX + 32], line[PATH_MAX + 128];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s/usymfix", fix);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long a, b, c;
		char f[PATH_MAX];

		if (sscanf(line, "ip %llx", &a) == 1 && nip < 4)
			ip[nip++] = a;
		else if (sscanf(line, "map %llx %llx %llx %4095s", &a, &b, &c, f) == 4 &&
			 nmap < 2) {
			fmap[nmap].start = a;
			fmap[nmap].end = b;
			fmap[nmap].off = c;
			snprintf(fmap[nmap++].path, PATH_MAX, "%s", f);
		}
	}
	if (nmap == 2 && strstr(fmap[0].path, "libusymfix")) {	/* the program first */
		char t[sizeof(fmap[0])];

		memcpy(t, &fmap[0], sizeof(t));
		memcpy(&fmap[0], &fmap[1], sizeof(t));
		memcpy(&fmap[1], t, sizeof(t));
	}
	return pclose(p) == 0 && nip == 4 && nmap == 2 ? 0 : -1;
}

static int file_bid(const char *file, char *hex)
{
	unsigned char id[TM_BUILD_ID_MAX];
	struct tm_elf_src src;
	struct tm_err e;
	size_t len = 0, i;
	FILE *f = fopen(file, "rb");
	int fd, ret;

	if (!f)
		return -1;
	fd = fileno(f);
	src = (struct tm_elf_src){ tm_elf_fd_read, &fd };
	ret = tm_elf_build_id(&src, id, &len, &e);
	fclose(f);
	for (i = 0; !ret && i < len; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	return ret;
}

/* The line marked "usym: @name" in the fixture source @src. */
static uint32_t marked_line(const char *src, const char *name)
{
	char want[96], line[512];
	uint32_t n = 0;
	FILE *f = fopen(src, "r");

	snprintf(want, sizeof(want), "/* usym: %s */", name);
	while (f && fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, want)) {
			fclose(f);
			return n;
		}
	}
	if (f)
		fclose(f);
	return 0;
}

/* The .build-id tree of the fixtures' debug files, under @root. */
static int make_tree(const char *root)
{
	static const struct { const char *bid_of, *debug; } t[] = {
		{ "prog", "usymfix.debug" }, { "lib", "libusymfix.so.debug" },
	};
	char p[PATH_MAX], target[PATH_MAX + 64];
	size_t i;

	snprintf(p, sizeof(p), "%s/.build-id", root);
	mkdir(root, 0755);
	mkdir(p, 0755);
	for (i = 0; i < 2; i++) {
		const char *b = !strcmp(t[i].bid_of, "prog") ? bid_prog : bid_lib;

		snprintf(p, sizeof(p), "%s/.build-id/%.2s", root, b);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/.build-id/%.2s/%s.debug", root, b, b + 2);
		snprintf(target, sizeof(target), "%s/%s", fix, t[i].debug);
		unlink(p);
		if (symlink(target, p))
			return -1;
	}
	return 0;
}

/*
 * The mappings of pids 40 (the files), 41 (stripped copies), 42 (a path
 * that no longer exists) and 43 (the files, with a build-id that is not
 * theirs).
 */
static void maps_text(char *m, size_t len, int without_40)
{
	static const char *const bogus = "00112233445566778899aabbccddeeff00112233";
	size_t used = 0, i;
	int pid;

	for (pid = without_40 ? 41 : 40; pid <= 43; pid++)
		for (i = 0; i < 2; i++) {
			const char *b = i ? bid_lib : bid_prog;
			const char *name = i ? "libusymfix.so" : "usymfix";
			char buf[PATH_MAX + 32];
			const char *file = buf;

			if (pid == 41)
				snprintf(buf, sizeof(buf), "%s/stripped/%s", fix, name);
			else if (pid == 42)
				snprintf(buf, sizeof(buf), "/nonexistent/tipme-usym/%s", name);
			else
				file = fmap[i].path;
			used += (size_t)snprintf(m + used, len - used,
						 "%d %" PRIx64 " %" PRIx64 " %" PRIx64 " %s %s\n", pid,
						 fmap[i].start, fmap[i].end, fmap[i].off,
						 pid == 43 ? bogus : b, file);
		}
}

static size_t table(unsigned char *b)
{
	struct tipme_sitetab_hdr h = { .hdr_size = sizeof(h), .count = 4,
				       .capacity = 1024, .depth = 16 };
	size_t off = sizeof(h);
	uint32_t pid;

	memcpy(b, &h, sizeof(h));
	for (pid = 40; pid <= 43; pid++) {
		struct tipme_ustack u = { .id = pid - 39, .pid = pid, .nr = 4 };

		memcpy(b + off, &u, sizeof(u));
		memcpy(b + off + sizeof(u), ip, sizeof(ip));
		off += sizeof(u) + sizeof(ip);
	}
	return off;
}

/* Editors 40 to 43 go to sleep on a pipe through chains 1 to 4, from 10 ms. */
static void editors_sleep(void)
{
	uint32_t pid;

	for (pid = 40; pid <= 43; pid++) {
		struct tipme_rec_ustack_c r = { pid - 39 };
		uint64_t t = MS(10) + MS(1) * (pid - 40);

		scen_switch(S, 0, t, pid, TIPME_TS_SLEEPING, 120, pid < 43 ? pid + 1 : 50, 120);
		scen_blocked(S, 0, t, pid, pipe_site);
		scen_rec(S, 0, TIPME_REC_USTACK_C, t, &r, sizeof(r));
	}
}

/* Four editors sleep on a pipe through the chain; a writer (50) wakes 40. */
static int write_dump(char *m, unsigned char *tab)
{
	uint32_t pid;

	scen_init(S, 1);
	S->ustacks = tab;
	S->ustacks_len = table(tab);
	S->maps = m;
	for (pid = 40; pid <= 43; pid++)
		scen_task(S, pid, pid, "editor", "/usr/bin/editor", "editor", 7);
	scen_task(S, 50, 50, "writer", "/usr/bin/writer", "writer", 7);
	scen_switch(S, 0, MS(2), 0, TIPME_TS_RUNNABLE, 120, 40, 120);
	editors_sleep();
	scen_wake(S, 0, MS(110), 40, 0, 50, TIPME_CTX_TASK);
	scen_switch(S, 0, MS(111), 50, TIPME_TS_SLEEPING, 120, 40, 120);
	scen_switch(S, 0, MS(140), 40, TIPME_TS_SLEEPING, 120, 0, 120);
	return scen_write(S, path);
}

/* Replace every @from in @t by @to (no longer than @from). */
static void subst(char *t, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	char *p;

	while (t && *from && (p = strstr(t, from))) {
		memcpy(p, to, tl);
		memmove(p + tl, p + fl, strlen(p + fl) + 1);
		t = p + tl;
	}
}

/*
 * What the compiler and ASLR decide is not golden: every hexadecimal
 * number (offsets, addresses) and the numbers of "offset" in JSON.
 */
static void mask_offsets(char *t)
{
	char *p;

	for (p = t; p && (p = strstr(p, "0x")); p += 3) {
		size_t n = strspn(p + 2, "0123456789abcdef");

		memmove(p + 3, p + 2 + n, strlen(p + 2 + n) + 1);
		p[2] = 'N';
	}
	for (p = t; p && (p = strstr(p, "\"offset\":")); p += 10) {
		size_t at = p[9] == ' ' ? 10 : 9, n = strspn(p + at, "0123456789");

		memmove(p + at + 1, p + at + n, strlen(p + at + n) + 1);
		p[at] = '0';
	}
}

static char *run(int (*cmd)(int, char **), const char *args, int *ret)
{
	char *text = capture_words(cmd, args, path, dir, ret);

	subst(text, fix, "FIX");
	subst(text, bid_prog, "BUILDID-PROG");
	subst(text, bid_lib, "BUILDID-LIB");
	mask_offsets(text);
	return text;
}

/* Each frame of pid @pid's chain named as the fixture's source marks it. */
/* @cmd's output (run()) against the golden file tests/unit/golden/@file */
static void golden_of(int (*cmd)(int, char **), const char *args, const char *file)
{
	char gp[160], *t;
	int ret;

	t = run(cmd, args, &ret);
	snprintf(gp, sizeof(gp), "tests/unit/golden/%s", file);
	tap_ok(!ret && golden_file(gp, t), "%s", args);
	free(t);
}

/* Each is opened alone: files are cached by build-id, once per dump. */
static void check_frames(const char *what, uint32_t id)
{
	static const struct { const char *func, *src; int inlined; } want[] = {
		{ "usym_capture", "fixlib.c", 0 },
		{ "clamp_len", "fixlib.c", 1 },
		{ "lib_store", "fixlib.c", 0 },
		{ "save_document", "fixprog.c", 0 },
		{ "main", "fixprog.c", 0 },
	};
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	struct pm_usym s[PM_USYM_MAX];
	struct pm_dump pm = { 0 };
	struct tm_err e = { "" };
	size_t n, i, k, w = 0;
	int trunc, ok = 1;
	char why[256] = "";

	if (pm_open(&pm, path, 0, &e)) {
		tap_ok(0, "%s: the dump opens: %s", what, e.msg);
		return;
	}
	n = pm_ustack_resolve(&pm, pm_ustack_get(&pm, id), MS(20), fr, &trunc);
	for (i = 0; i < n && ok; i++) {
		size_t ns = pm_usym_frame(&pm, &fr[i], i > 0, s);

		for (k = 0; k < ns && ok; k++, w++) {
			char src[PATH_MAX + 32];
			uint32_t line;

			snprintf(src, sizeof(src), "tests/unit/usym/%s", want[w].src);
			line = marked_line(src, want[w].func);
			/* the leaf, the function's own address: a line of its body */
			if (w >= 5 || strcmp(s[k].func, want[w].func) ||
			    s[k].inlined != want[w].inlined || !s[k].file ||
			    !strstr(s[k].file, want[w].src) ||
			    (w ? s[k].line != line : s[k].line < line || s[k].line > line + 12))
				ok = 0, snprintf(why, sizeof(why), "frame %zu: %s %s:%" PRIu32
						 " (inlined %d), want %s line %" PRIu32, w, s[k].func,
						 s[k].file ? s[k].file : "-", s[k].line, s[k].inlined,
						 w < 5 ? want[w].func : "-", line);
		}
	}
	tap_ok(ok && w == 5 && n == 4, "%s: 4 addresses, 5 functions, each at its marked line %s",
	       what, why);
	pm_close(&pm);
}

static void symbols(void)
{
	char m[4 * PATH_MAX + 1024], tree[160], *t;
	unsigned char tab[1024];
	int ret;

	snprintf(tree, sizeof(tree), "%s/debug", dir);
	if (make_tree(tree)) {
		tap_ok(0, "the .build-id tree is laid out");
		return;
	}
	maps_text(m, sizeof(m), 0);
	if (write_dump(m, tab)) {
		tap_ok(0, "the dump is written");
		return;
	}
	setenv(PM_USYM_DIRS_ENV, tree, 1);
	check_frames("the files", 1);
	check_frames("stripped copies, debug info by build-id", 2);
	check_frames("the file gone, its debug info by build-id", 3);
	golden_of(pm_cmd_records, "records --type ustack DUMP", "usym-records.txt");
	golden_of(pm_cmd_records, "records --json --type ustack DUMP", "usym-records.json");
	golden_of(pm_cmd_report, "report --pid 40 --from 0.009 --to 0.111 DUMP",
		  "usym-report.txt");
	golden_of(pm_cmd_report, "report --json --pid 40 --from 0.009 --to 0.111 DUMP",
		  "usym-report.json");
	t = run(pm_cmd_records, "records --type ustack DUMP", &ret);
	tap_ok(!ret && t && strstr(t, "editor:43 user: libusymfix.so+0xN <- ") &&
	       !strstr(strstr(t, "editor:43"), "usym_capture"),
	       "a build-id that is not the file's: offsets, nothing named");
	free(t);
	/*
	 * No tree, and no mappings of 40 (files are cached by build-id: the
	 * copies share theirs with the files): the stripped copies keep
	 * their exported names only (lib_store), and so do the gone files,
	 * whose build-ids are the copies'; the addresses of 40 stay
	 * addresses.
	 */
	setenv(PM_USYM_DIRS_ENV, "/nonexistent/tipme-usym", 1);
	maps_text(m, sizeof(m), 1);
	if (write_dump(m, tab)) {
		tap_ok(0, "the dump without 40's mappings is written");
		return;
	}
	t = run(pm_cmd_records, "records --type ustack DUMP", &ret);
	tap_ok(!ret && golden_file("tests/unit/golden/usym-nodebug.txt", t),
	       "records without the debug files");
	free(t);
	unsetenv(PM_USYM_DIRS_ENV);
}

/*
 * Hot functions: the writer (50) computes while the editor (40) waits
 * for it, sampled 12 times by the profiler there: 6 samples in
 * usym_capture (the fixture's whole chain, 2 of them cut short at the
 * leaf), 3 in save_document, 1 in main, 1 in the kernel (no user chain),
 * 1 with no chain at all; and once before the interval asked for.  The
 * editor once in save_document before it slept, once after the interval.
 */
static int write_hot_dump(char *m, size_t mlen, unsigned char *tab)
{
	static const char *const kern[] = { "vfs_read", "ksys_read", NULL };
	static const struct { uint32_t id, pid, nr, first; } more[] = {
		{ 5, 50, 4, 0 }, { 6, 50, 2, 2 }, { 7, 50, 1, 3 }, { 8, 40, 2, 2 },
		{ 9, 50, 1, 0 },
	};
	struct tipme_sitetab_hdr h;
	size_t used, off = table(tab), i;
	uint32_t pid, k;

	memcpy(&h, tab, sizeof(h));
	h.count += sizeof(more) / sizeof(more[0]);
	memcpy(tab, &h, sizeof(h));
	for (i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
		struct tipme_ustack u = { .id = more[i].id, .pid = more[i].pid,
					  .nr = (uint8_t)more[i].nr,
					  .flags = more[i].id == 9 ? TIPME_USTACK_TRUNC : 0 };

		memcpy(tab + off, &u, sizeof(u));
		memcpy(tab + off + sizeof(u), ip + more[i].first, 8 * more[i].nr);
		off += sizeof(u) + 8 * more[i].nr;
	}
	maps_text(m, mlen, 0);
	used = strlen(m);
	for (i = 0; i < 2; i++)	/* the writer maps what the editor does */
		used += (size_t)snprintf(m + used, mlen - used, "50 %" PRIx64 " %" PRIx64 " %" PRIx64
					 " %s %s\n", fmap[i].start, fmap[i].end, fmap[i].off,
					 i ? bid_lib : bid_prog, fmap[i].path);
	scen_init(S, 1);
	S->compact = 1;
	S->ustacks = tab;
	S->ustacks_len = off;
	S->maps = m;
	for (pid = 40; pid <= 43; pid++)
		scen_task(S, pid, pid, "editor", "/usr/bin/editor", "editor", 7);
	scen_task(S, 50, 50, "writer", "/usr/bin/writer", "writer", 7);
	scen_prof(S, 0, MS(1), 50, NULL, 5);	/* before the interval */
	scen_switch(S, 0, MS(2), 0, TIPME_TS_RUNNABLE, 120, 40, 120);
	scen_prof(S, 0, MS(9.5), 40, NULL, 8);
	editors_sleep();
	for (k = 0; k < 12; k++) {
		static const uint32_t id[12] = { 5, 6, 5, 9, 5, 6, 7, 5, 0, 6, 9, 0 };

		scen_prof(S, 0, MS(20 + 7 * k), 50, k == 8 ? kern : NULL, id[k]);
	}
	scen_wake(S, 0, MS(110), 40, 0, 50, TIPME_CTX_TASK);
	scen_switch(S, 0, MS(111), 50, TIPME_TS_SLEEPING, 120, 40, 120);
	scen_prof(S, 0, MS(120), 40, NULL, 8);	/* after it */
	scen_switch(S, 0, MS(140), 40, TIPME_TS_SLEEPING, 120, 0, 120);
	return scen_write(S, path);
}

/*
 * The same samples in tipme export --perfetto: the trace as golden, and
 * read as the viewers will (tests/lib/check_perfetto.py): the 13 samples
 * of the writer and the 2 of the editor, each an instant on its thread.
 */
static void export_samples(void)
{
	char file[160], args[256], cmd[512], *t;
	int ret;

	snprintf(file, sizeof(file), "%s/hot.trace.json", dir);
	unlink(file);
	snprintf(args, sizeof(args), "export --perfetto --uncompressed -o %s DUMP", file);
	t = run(pm_cmd_export, args, &ret);
	free(t);
	t = ret ? NULL : capture_slurp(file);
	subst(t, dir, "DIR");
	subst(t, fix, "FIX");
	subst(t, bid_prog, "BUILDID-PROG");
	subst(t, bid_lib, "BUILDID-LIB");
	mask_offsets(t);
	tap_ok(!ret && t && golden_file("tests/unit/golden/hot-perfetto.json", t),
	       "export --perfetto: the profiler's samples, golden");
	free(t);
	snprintf(cmd, sizeof(cmd), "python3 tests/lib/check_perfetto.py %s --threads editor,writer "
		 "--samples 50:13,40:2 > %s/perfetto.tap 2>&1", file, dir);
	ret = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/perfetto.tap", dir);
	t = capture_slurp(cmd);
	tap_ok(ret == 0, "export --perfetto: the viewers' shape (check_perfetto.py)");
	if (ret)
		tap_diag("%s", t ? t : "");
	free(t);
	unlink(file);
	unlink(cmd);
}

static void hot(void)
{
	char m[4 * PATH_MAX + 1024], *t;
	unsigned char tab[2048];
	int ret;

	setenv(PM_USYM_DIRS_ENV, "/nonexistent/tipme-usym", 1);
	if (write_hot_dump(m, sizeof(m), tab)) {
		tap_ok(0, "the dump with profiler samples is written");
		return;
	}
	golden_of(pm_cmd_report, "report --pid 40 --from 0.009 --to 0.111 DUMP", "hot-report.txt");
	golden_of(pm_cmd_report, "report --json --pid 40 --from 0.009 --to 0.111 DUMP",
		  "hot-report.json");
	golden_of(pm_cmd_why, "why --pid 40 --from 0.009 --to 0.111 DUMP", "hot-why.txt");
	golden_of(pm_cmd_why, "why --json --pid 40 --from 0.009 --to 0.111 DUMP", "hot-why.json");
	export_samples();
	/* the profile names user frames by function too, inlined ones below */
	golden_of(pm_cmd_profile, "profile --pid 50 --from 0.009 --to 0.111 DUMP",
		  "hot-profile.txt");
	golden_of(pm_cmd_profile, "profile --folded --pid 50 --from 0.009 --to 0.111 DUMP",
		  "hot-profile.folded");
	t = run(pm_cmd_report, "report --pid 40 --from 0.009 --to 0.111 DUMP", &ret);
	tap_ok(!ret && t && strstr(t, "50 (writer) computing: 12 profiler samples") &&
	       strstr(t, "     6  50.0%  usym_capture (fixlib.c) <- lib_store <- save_document (4 of its 6)") &&
	       strstr(t, "40 (editor) computing: 1 profiler sample,"),
	       "report: the writer's 12 samples in the wait, by function, and the editor's own one");
	free(t);
	unsetenv(PM_USYM_DIRS_ENV);
}

/* Editor 40 runs from 2 ms and sleeps on a pipe at 10 ms through chain @r. */
static void editor_sleeps(const struct tipme_rec_ustack_c *r)
{
	scen_task(S, 40, 40, "editor", "/usr/bin/editor", "editor", 7);
	scen_switch(S, 0, MS(2), 0, TIPME_TS_RUNNABLE, 120, 40, 120);
	scen_switch(S, 0, MS(10), 40, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(S, 0, MS(10), 40, pipe_site);
	scen_rec(S, 0, TIPME_REC_USTACK_C, MS(10), r, sizeof(*r));
}

/*
 * C++: the fixture's return address inside doc::Editor::save<int>(int),
 * whose symbol is mangled; named demangled (a template's name with its
 * return type, as __cxa_demangle gives it), in text and JSON alike.
 */
static void cxx(void)
{
	char cmd[PATH_MAX + 32], line[PATH_MAX + 128], m[PATH_MAX + 256], bid[2 * TM_BUILD_ID_MAX + 1];
	unsigned long long a = 0, st = 0, en = 0, off = 0;
	unsigned char tab[256];
	struct tipme_sitetab_hdr h = { .hdr_size = sizeof(h), .count = 1, .capacity = 1024,
				       .depth = 16 };
	struct tipme_ustack u = { .id = 1, .pid = 40, .nr = 1 };
	struct tipme_rec_ustack_c r = { 1 };
	char exe[PATH_MAX] = "", *t;
	FILE *p;
	int ret, got = 0;

	snprintf(cmd, sizeof(cmd), "%s/usymcxx", fix);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p))
		if (sscanf(line, "ip %llx", &a) == 1 ||
		    sscanf(line, "map %llx %llx %llx %4095s", &st, &en, &off, exe) == 4)
			got++;
	if (!p || pclose(p) || got != 2 || file_bid(cmd, bid)) {
		tap_ok(0, "the C++ fixture runs and has a build-id (%s)", cmd);
		return;
	}
	snprintf(m, sizeof(m), "40 %llx %llx %llx %s %s\n", st, en, off, bid, exe);
	memcpy(tab, &h, sizeof(h));
	memcpy(tab + sizeof(h), &u, sizeof(u));
	memcpy(tab + sizeof(h) + sizeof(u), &(uint64_t){ a }, 8);
	scen_init(S, 1);
	S->ustacks = tab;
	S->ustacks_len = sizeof(h) + sizeof(u) + 8;
	S->maps = m;
	editor_sleeps(&r);
	if (scen_write(S, path)) {
		tap_ok(0, "the C++ dump is written");
		return;
	}
	t = run(pm_cmd_records, "records --type ustack DUMP", &ret);
	tap_ok(!ret && t && strstr(t, "user: unsigned long doc::Editor::save<int>(int) (fixcxx.cc:") &&
	       !strstr(t, "_ZN3doc"), "records: the mangled _ZN3doc6Editor4saveIiEEmT_ demangled");
	free(t);
	t = run(pm_cmd_records, "records --json --type ustack DUMP", &ret);
	tap_ok(!ret && t && strstr(t, "\"func\":\"unsigned long doc::Editor::save<int>(int)\"") &&
	       !strstr(t, "_ZN3doc"), "records --json: the same");
	free(t);
}

/* Lies a dump may tell about files: none is opened unless it is the one. */
static void bogus_files(void)
{
	static const char *const paths[] = {
		"/dev/zero", "/proc/self/mem", "/", "/etc/passwd", "/nonexistent",
	};
	char m[2048], fifo[160];
	unsigned char tab[1024];
	size_t used = 0, i;
	char *t;
	int ret;

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	unlink(fifo);
	if (mkfifo(fifo, 0600)) {
		tap_ok(0, "mkfifo: %s", strerror(errno));
		return;
	}
	/* pid 40: a FIFO (opening it for reading would wait for a writer) */
	used += (size_t)snprintf(m + used, sizeof(m) - used, "40 %" PRIx64 " %" PRIx64 " 0 %s %s\n",
				 fmap[0].start, fmap[1].end, bid_prog, fifo);
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		used += (size_t)snprintf(m + used, sizeof(m) - used,
					 "%zu %" PRIx64 " %" PRIx64 " ffffffffffffffff %s %s\n",
					 41 + i % 3, fmap[0].start + 0x100000 * i,
					 fmap[0].start + 0x100000 * i + 0x1000,
					 i % 2 ? bid_lib : "abcd", paths[i]);
	setenv(PM_USYM_DIRS_ENV, "/dev:/proc/self:relative:/", 1);
	if (write_dump(m, tab)) {
		tap_ok(0, "the bogus dump is written");
		return;
	}
	t = run(pm_cmd_records, "records --json --type ustack DUMP", &ret);
	tap_ok(!ret && t && !strstr(t, "\"func\": \""),
	       "FIFO, devices, folders, other files, huge offsets: nothing named, nothing hangs");
	free(t);
	unsetenv(PM_USYM_DIRS_ENV);
	unlink(fifo);
}

/* This process's vDSO: its image, mapping and clock_gettime's offset. */
static struct {
	const unsigned char *img;
	uint64_t lo, hi, fn;
	char bid[2 * TM_BUILD_ID_MAX + 1];
} vd;

static int own_vdso(void)
{
	void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	void *fn = h ? dlsym(h, "__vdso_clock_gettime") : NULL;
	unsigned long long lo, hi;
	unsigned char id[TM_BUILD_ID_MAX];
	struct tm_elf_mem mem;
	struct tm_elf_src src = { tm_elf_mem_read, &mem };
	char line[256];
	size_t len, i;
	FILE *f = fopen("/proc/self/maps", "re");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &lo, &hi) == 2) {
			vd.lo = lo;
			vd.hi = hi;
		}
	if (f)
		fclose(f);
	if (!fn || !vd.lo || (uintptr_t)fn < vd.lo || (uintptr_t)fn >= vd.hi)
		return -1;
	vd.img = (const unsigned char *)(uintptr_t)vd.lo;
	vd.fn = (uintptr_t)fn - vd.lo;
	mem.data = vd.img;
	mem.size = (size_t)(vd.hi - vd.lo);
	if (tm_elf_build_id(&src, id, &len, NULL))
		return -1;
	for (i = 0; i < len; i++)
		snprintf(vd.bid + 2 * i, 3, "%02x", id[i]);
	return 0;
}

/*
 * Editor 40 sleeps in a chain whose leaf is in the vDSO (clock_gettime,
 * a few bytes in), called from the fixture's main; @nimg copies of the
 * vDSO's image in the dump (@img instead when set).
 */
static int write_vdso_dump(const char *file, size_t nimg, const void *img, size_t imglen)
{
	unsigned char tab[256];
	struct tipme_sitetab_hdr h = { .hdr_size = sizeof(h), .count = 1,
				       .capacity = 1024, .depth = 16 };
	struct tipme_ustack u = { .id = 1, .pid = 40, .nr = 2 };
	struct tipme_rec_ustack_c r = { 1 };
	uint64_t a[2] = { vd.lo + vd.fn + 4, ip[3] };
	static char m[2 * PATH_MAX];
	size_t i;

	snprintf(m, sizeof(m), "40 %" PRIx64 " %" PRIx64 " 0 %s [vdso]\n"
		 "40 %" PRIx64 " %" PRIx64 " %" PRIx64 " %s %s\n", vd.lo, vd.hi, vd.bid,
		 fmap[0].start, fmap[0].end, fmap[0].off, bid_prog, fmap[0].path);
	memcpy(tab, &h, sizeof(h));
	memcpy(tab + sizeof(h), &u, sizeof(u));
	memcpy(tab + sizeof(h) + sizeof(u), a, sizeof(a));
	scen_init(S, 1);
	S->ustacks = tab;
	S->ustacks_len = sizeof(h) + sizeof(u) + sizeof(a);
	S->maps = m;
	for (i = 0; i < nimg && i < 2; i++) {
		S->vdso[i] = img ? img : vd.img;
		S->vdso_len[i] = img ? imglen : (size_t)(vd.hi - vd.lo);
	}
	S->nvdso = i;
	editor_sleeps(&r);
	return scen_write(S, file);
}

/*
 * The vDSO, which has no file: its frames named from the image the dump
 * carries (this process's own vDSO, whose clock_gettime dlsym() gives),
 * the chain going on past it; without the image, the frame is "[vdso]"
 * and an offset, the chain still whole; a section that is no ELF image,
 * or the same image twice, refused with the section named.
 */
static void vdso(void)
{
	struct pm_uframe fr[TIPME_USTACK_DEPTH_MAX];
	struct pm_usym s0[PM_USYM_MAX], s1[PM_USYM_MAX];
	struct pm_dump pm = { 0 };
	struct tm_err e = { "" };
	static const unsigned char junk[64];
	size_t n = 0, k0 = 0, k1 = 0;
	int trunc = 0, ret;
	char *t;

	if (own_vdso()) {
		tap_skip("vdso: this process has no vDSO with clock_gettime and a build-id");
		return;
	}
	if (write_vdso_dump(path, 1, NULL, 0) || pm_open(&pm, path, 0, &e)) {
		tap_ok(0, "vdso: the dump is written and opens: %s", e.msg);
		return;
	}
	n = pm_ustack_resolve(&pm, pm_ustack_get(&pm, 1), MS(20), fr, &trunc);
	if (n == 2) {
		k0 = pm_usym_frame(&pm, &fr[0], 0, s0);
		k1 = pm_usym_frame(&pm, &fr[1], 1, s1);
	}
	tap_ok(n == 2 && fr[0].map && !strcmp(fr[0].map->name, "[vdso]") &&
	       fr[0].off == vd.fn + 4 && k0 == 1 &&
	       (!strcmp(s0[0].func, "__vdso_clock_gettime") || !strcmp(s0[0].func, "clock_gettime")) &&
	       k1 && !strcmp(s1[k1 - 1].func, "main"),
	       "vdso: the leaf is clock_gettime in [vdso]+0x%" PRIx64 " (%s), its caller main (%s)",
	       vd.fn + 4, k0 ? s0[0].func : "-", k1 ? s1[k1 - 1].func : "-");
	pm_close(&pm);
	t = run(pm_cmd_records, "records --json --type ustack DUMP", &ret);
	tap_ok(!ret && t && strstr(t, "\"module\":\"[vdso]\"") && strstr(t, "\"path\":\"[vdso]\"") &&
	       strstr(t, vd.bid), "vdso: records --json names the module [vdso] with its build-id");
	free(t);
	memset(&pm, 0, sizeof(pm));
	n = 0;
	if (!write_vdso_dump(path, 0, NULL, 0) && !pm_open(&pm, path, 0, &e)) {
		n = pm_ustack_resolve(&pm, pm_ustack_get(&pm, 1), MS(20), fr, &trunc);
		k0 = n == 2 ? pm_usym_frame(&pm, &fr[0], 0, s0) : 1;
		pm_close(&pm);
	}
	tap_ok(n == 2 && !k0 && !trunc,
	       "vdso: without its image, [vdso]+offset unnamed and the chain whole");
	memset(&pm, 0, sizeof(pm));
	ret = write_vdso_dump(path, 1, junk, sizeof(junk)) || !pm_open(&pm, path, 0, &e);
	if (!ret)
		pm_close(&pm);
	tap_ok(!ret && strstr(e.msg, "(vdso): no build-id"), "vdso: a section that is no ELF image: %s",
	       e.msg);
	memset(&pm, 0, sizeof(pm));
	e.msg[0] = '\0';
	ret = write_vdso_dump(path, 2, NULL, 0) || !pm_open(&pm, path, 0, &e);
	if (!ret)
		pm_close(&pm);
	tap_ok(!ret && strstr(e.msg, "twice"), "vdso: the same image twice: %s", e.msg);
	if (getenv("TIPME_VDSO_SEED"))
		tap_ok(!write_vdso_dump(getenv("TIPME_VDSO_SEED"), 1, NULL, 0),
		       "the fuzzer's vDSO seed written to %s", getenv("TIPME_VDSO_SEED"));
}

/* @from copied to @to. */
static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, ok = in >= 0;
	ssize_t n;

	if (ok)
		out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ok = ok && out >= 0;
	while (ok && (n = read(in, buf, sizeof(buf))) > 0)
		ok = write(out, buf, (size_t)n) == n;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out))
		ok = 0;
	return ok ? 0 : -1;
}

/* The build-ids found in the files under a folder (nftw()'s callback). */
static int cache_prog, cache_lib;

static int cache_file(const char *f, const struct stat *st, int type, struct FTW *w)
{
	char bid[2 * TM_BUILD_ID_MAX + 1] = "";

	(void)w;
	if (type == FTW_F && S_ISREG(st->st_mode) && st->st_size && !file_bid(f, bid)) {
		cache_prog |= !strcmp(bid, bid_prog);
		cache_lib |= !strcmp(bid, bid_lib);
	}
	return 0;
}

/* How many times @needle is in @hay. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (; hay && (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* @cmd's stdout and stderr, each run()'s way (stderr with @dir as "DIR"). */
static char *run_err(int (*cmd)(int, char **), const char *args, int *ret, char **err)
{
	char *t = run(cmd, args, ret), ep[128];

	snprintf(ep, sizeof(ep), "%s/err", dir);
	*err = capture_slurp(ep);
	if (*err && **err)
		(*err)[strlen(*err) - 1] = '\0';	/* its newline, for the messages */
	return t;
}

/* Where the cache goes (pm_usym_dinfod_cache()), case by case. */
static void dinfod_cache_dirs(void)
{
	static const struct {
		uid_t uid;
		const char *cache, *xdg, *home, *pw, *want;
	} t[] = {
		/* sudo -E: the user's $HOME and $XDG_CACHE_HOME kept */
		{ 0, NULL, "/home/ann/.cache", "/home/ann", "/root", "/root/.cache/debuginfod_client" },
		/* a service: no $HOME */
		{ 0, NULL, NULL, NULL, "/root", "/root/.cache/debuginfod_client" },
		{ 0, NULL, NULL, "/", "/var/root/", "/var/root/.cache/debuginfod_client" },
		{ 0, NULL, NULL, NULL, NULL, "/root/.cache/debuginfod_client" },
		/* said by the user: kept */
		{ 0, "/var/cache/dbg", NULL, "/home/ann", "/root", NULL },
		/* anyone else: libdebuginfod's own, unless there is no $HOME */
		{ 1000, NULL, NULL, "/home/ann", "/home/ann", NULL },
		{ 1000, NULL, "/home/ann/.xdg", NULL, "/home/ann", NULL },
		{ 1000, NULL, NULL, "", "/home/ann", "/home/ann/.cache/debuginfod_client" },
		{ 1000, NULL, NULL, NULL, NULL, NULL },
	};
	char buf[128], why[256] = "";
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int r = pm_usym_dinfod_cache(t[i].uid, t[i].cache, t[i].xdg, t[i].home, t[i].pw,
					     buf, sizeof(buf));

		if (r != !!t[i].want || (r && strcmp(buf, t[i].want)))
			snprintf(why, sizeof(why), "case %zu: %d %s, want %s", i, r, r ? buf : "-",
				 t[i].want ? t[i].want : "-");
	}
	tap_ok(!*why, "debuginfod's cache: root's own home's, whatever $HOME says; "
	       "DEBUGINFOD_CACHE_PATH kept; others libdebuginfod's own %s", why);
}

/*
 * debuginfod: the fixtures' debug files served by debuginfod (and by no
 * .build-id tree): the stripped copies (41) and the files gone (42) named
 * as from the tree, report's blocked step with file:line; the files kept
 * in DEBUGINFOD_CACHE_PATH and used from there with the server gone.
 * Without DEBUGINFOD_URLS, the server up, what the stripped copies have.
 * A server refusing, or taking the connection and never answering, costs
 * one lookup (one connection, DEBUGINFOD_TIMEOUT's wait) and one note on
 * stderr; the output is the one without debuginfod.
 */
static void debuginfod(void)
{
	static const char *const dbg[] = { "usymfix.debug", "libusymfix.so.debug" };
	static const char *const rep = "report --pid 41 --from 0.009 --to 0.111 DUMP";
	const char *bids[] = { bid_prog, bid_lib, NULL };
	char m[4 * PATH_MAX + 1024], tree[160], srv[160], cache[192], from[PATH_MAX + 64];
	char to[256], url[64], why[256] = "", *ref, *ref_rep, *nodebug, *t, *err;
	struct dinfod_srv s;
	unsigned char tab[1024];
	int ret, port, hole, conns;
	size_t i;

	dinfod_cache_dirs();
	if (!dinfod_installed()) {
		tap_skip("debuginfod is not installed (package debuginfod, scripts/deps.sh)");
		return;
	}
	snprintf(tree, sizeof(tree), "%s/debug", dir);
	snprintf(srv, sizeof(srv), "%s/srv", dir);
	mkdir(srv, 0755);
	for (i = 0; i < 2; i++) {
		snprintf(from, sizeof(from), "%s/%s", fix, dbg[i]);
		snprintf(to, sizeof(to), "%s/%s", srv, dbg[i]);
		if (copy_file(from, to)) {
			tap_ok(0, "the debug files copied for the server: %s", strerror(errno));
			return;
		}
	}
	maps_text(m, sizeof(m), 1);
	if (make_tree(tree) || write_dump(m, tab)) {
		tap_ok(0, "the dump without 40's mappings is written");
		return;
	}
	/* what the .build-id tree gives, and nothing */
	unsetenv("DEBUGINFOD_URLS");
	unsetenv("DEBUGINFOD_TIMEOUT");
	unsetenv("DEBUGINFOD_RETRY_LIMIT");
	setenv(PM_USYM_DIRS_ENV, tree, 1);
	ref = run(pm_cmd_records, "records --type ustack DUMP", &ret);
	ref_rep = run(pm_cmd_report, rep, &ret);
	setenv(PM_USYM_DIRS_ENV, "/nonexistent/tipme-usym", 1);
	nodebug = run(pm_cmd_records, "records --type ustack DUMP", &ret);
	tap_ok(ref && count_of(ref, "save_document (fixprog.c:") == 2 && ref_rep &&
	       strstr(ref_rep, "save_document (") && strstr(ref_rep, "fixprog.c:") &&
	       !ret && golden_file("tests/unit/golden/usym-nodebug.txt", nodebug),
	       "from the .build-id tree: 41 and 42 named with file:line; without it what the "
	       "stripped copies have");

	if (dinfod_start(&s, srv, dir, bids, why, sizeof(why))) {
		tap_ok(0, "%s", why);
		goto out;
	}
	t = run_err(pm_cmd_records, "records --type ustack DUMP", &ret, &err);
	tap_ok(!ret && same(t, nodebug) && !*err,
	       "the server up, no DEBUGINFOD_URLS: not asked, what the stripped copies have");
	free(t);
	free(err);

	snprintf(cache, sizeof(cache), "%s/cache", dir);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	setenv("DEBUGINFOD_URLS", s.url, 1);
	check_frames("debuginfod: stripped copies, their debug info fetched", 2);
	check_frames("debuginfod: the files gone, their debug info fetched", 3);
	t = run_err(pm_cmd_records, "records --type ustack DUMP", &ret, &err);
	tap_ok(!ret && same(t, ref) && !*err,
	       "records: the same names and lines as from the .build-id tree, nothing said");
	free(t);
	free(err);
	t = run(pm_cmd_report, rep, &ret);
	tap_ok(!ret && same(t, ref_rep),
	       "report: the blocked step's user frames with file:line, as from the tree");
	free(t);
	tap_ok(getenv("DEBUGINFOD_TIMEOUT") &&
	       !strcmp(getenv("DEBUGINFOD_TIMEOUT"), PM_USYM_DINFOD_TIMEOUT) &&
	       getenv("DEBUGINFOD_RETRY_LIMIT") &&
	       !strcmp(getenv("DEBUGINFOD_RETRY_LIMIT"), PM_USYM_DINFOD_RETRIES),
	       "libdebuginfod told to wait %s s, not 90, and not to ask again (both unset before)",
	       PM_USYM_DINFOD_TIMEOUT);
	cache_prog = cache_lib = 0;
	nftw(cache, cache_file, 8, FTW_PHYS);
	tap_ok(cache_prog && cache_lib, "both debug files in DEBUGINFOD_CACHE_PATH");
	dinfod_stop(&s);
	t = run_err(pm_cmd_records, "records --type ustack DUMP", &ret, &err);
	tap_ok(!ret && same(t, ref) && !*err,
	       "the server gone: the same, from the cache");
	free(t);
	free(err);

	/* a port nobody listens on: refused at once */
	port = dinfod_free_port();
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	snprintf(cache, sizeof(cache), "%s/cache-refused", dir);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	setenv("DEBUGINFOD_URLS", url, 1);
	t = run_err(pm_cmd_records, "records --type ustack DUMP", &ret, &err);
	tap_ok(!ret && same(t, nodebug) &&
	       count_of(err, "debuginfod at ") == 1 && strstr(err, url) &&
	       strstr(err, strerror(ECONNREFUSED)) && strstr(err, "local files only"),
	       "refused: the output without debuginfod, one note naming the server: %s", err);
	free(t);
	free(err);

	/* a cache folder that cannot be made: said, not taken for "no such file" */
	setenv("DEBUGINFOD_CACHE_PATH", "/nonexistent/tipme-usym/cache", 1);
	t = run_err(pm_cmd_records, "records --type ustack DUMP", &ret, &err);
	tap_ok(!ret && same(t, nodebug) &&
	       count_of(err, "cache folder /nonexistent/tipme-usym/cache") == 1,
	       "no cache folder: one note: %s", err);
	free(t);
	free(err);

	/* connections taken, never answered: one lookup waits DEBUGINFOD_TIMEOUT */
	hole = dinfod_black_hole(&port);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	snprintf(cache, sizeof(cache), "%s/cache-hole", dir);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	setenv("DEBUGINFOD_URLS", url, 1);
	setenv("DEBUGINFOD_TIMEOUT", "1", 1);
	t = run_err(pm_cmd_records, "records --type ustack DUMP", &ret, &err);
	conns = hole >= 0 ? dinfod_connections(hole) : -1;
	tap_ok(!ret && same(t, nodebug) && conns == 1 &&
	       count_of(err, "debuginfod at ") == 1 && strstr(err, "no answer within 1 s"),
	       "never answered: one connection (%d), the output without debuginfod, one note: %s",
	       conns, err);
	free(t);
	free(err);
	if (hole >= 0)
		close(hole);
out:
	unsetenv("DEBUGINFOD_URLS");
	unsetenv("DEBUGINFOD_CACHE_PATH");
	unsetenv("DEBUGINFOD_TIMEOUT");
	unsetenv("DEBUGINFOD_RETRY_LIMIT");
	unsetenv(PM_USYM_DIRS_ENV);
	free(ref);
	free(ref_rep);
	free(nodebug);
}

/*
 * With TIPME_USYM_SEED=FILE: the same dump, its chains in this machine's
 * libc (by its build-id), as a seed of the kdump fuzzer
 * (tests/fuzz/corpus/kdump/usym.dump), which then drives libdwfl.
 */
static void fuzz_seed(const char *out)
{
	static const char *const libc = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	char m[1024], bid[2 * TM_BUILD_ID_MAX + 1], keep[sizeof(path)];
	unsigned char tab[1024];
	int ret;

	if (file_bid(libc, bid))
		return;
	snprintf(m, sizeof(m), "40 %" PRIx64 " %" PRIx64 " 28000 %s %s\n"
		 "41 %" PRIx64 " %" PRIx64 " 99000 %s %s\n",
		 fmap[1].start, fmap[1].end, bid, libc, fmap[0].start, fmap[0].end, bid, libc);
	memcpy(keep, path, sizeof(path));
	snprintf(path, sizeof(path), "%s", out);
	ret = write_dump(m, tab);
	memcpy(path, keep, sizeof(path));
	tap_ok(!ret, "the fuzzer's seed written to %s", out);
}

int main(int argc, char **argv)
{
	static const char *const files[] = { "u.dump", "out", "err" };
	char p[PATH_MAX + 64], *slash;
	size_t i;

	(void)argc;
	S = malloc(sizeof(*S));
	snprintf(dir, sizeof(dir), "/tmp/tipme-usym-XXXXXX");
	if (!S || !mkdtemp(dir) || strlen(argv[0]) >= sizeof(fix) - 8 || !realpath(argv[0], p) ||
	    strlen(p) >= sizeof(fix) - 8)
		return 1;
	slash = strrchr(p, '/');
	*slash = '\0';
	snprintf(fix, sizeof(fix), "%s/usym", p);
	snprintf(path, sizeof(path), "%s/u.dump", dir);
	snprintf(p, sizeof(p), "%s/usymfix", fix);
	unsetenv("DEBUGINFOD_URLS");
	if (run_fixture() || file_bid(p, bid_prog) ||
	    (snprintf(p, sizeof(p), "%s/libusymfix.so", fix), file_bid(p, bid_lib))) {
		tap_ok(0, "the fixture runs and its files have build-ids (%s)", fix);
		return tap_done();
	}
	tap_ok(1, "the fixture ran: %zu addresses, %zu mappings", nip, nmap);
	symbols();
	hot();
	cxx();
	bogus_files();
	vdso();
	debuginfod();
	if (getenv("TIPME_USYM_SEED"))
		fuzz_seed(getenv("TIPME_USYM_SEED"));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		unlink(p);
	}
	snprintf(p, sizeof(p), "rm -rf %s", dir);
	if (system(p))
		tap_diag("could not remove %s", dir);
	free(S);
	return tap_done();
}
