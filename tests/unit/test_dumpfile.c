// SPDX-License-Identifier: GPL-2.0
/*
 * Dump file writer (atomicity, permissions, failures leave nothing) and
 * reader (every header and section check, with its message).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crc32.h"
#include "dumpfile.h"
#include "readfile.h"
#include "gen.h"
#include "tap.h"

static char dir[64];

static const struct tipme_file_header tmpl = {
	.flags = TIPME_FILE_ENV_CAPTURED,
	.tsc_khz = 2000000,
	.clock_source = TIPME_CLOCK_TSC,
	.nr_cpus = 2,
	.created_real_ns = 1714566896123456789ULL,
};

/* Number of entries in @d other than . and ..; names of the first in @first. */
static int count_entries(const char *d, char *first, size_t len)
{
	struct dirent *de;
	DIR *dd = opendir(d);
	int n = 0;

	if (!dd)
		return -1;
	while ((de = readdir(dd))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!n && first)
			snprintf(first, len, "%s", de->d_name);
		n++;
	}
	closedir(dd);
	return n;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static void path_in(char *buf, size_t len, const char *d, const char *name)
{
	snprintf(buf, len, "%s/%s", d, name);
}

/* A dump with a text section, a 1 MiB stream and an empty section. */
static int write_big(const char *path, unsigned int flags, struct tm_err *e)
{
	static unsigned char chunk[4096];
	struct tm_dumpw w;
	int err, i;

	for (i = 0; i < (int)sizeof(chunk); i++)
		chunk[i] = (unsigned char)(i * 7);
	err = tm_dumpw_open(&w, path, &tmpl, flags, e);
	if (!err)
		err = tm_dumpw_section(&w, TIPME_SEC_SYSTEM, 0, "a=b\n", 4, e);
	if (!err)
		err = tm_dumpw_section_begin(&w, TIPME_SEC_CPU_STREAM, 1, e);
	for (i = 0; i < 256 && !err; i++)
		err = tm_dumpw_section_append(&w, chunk, sizeof(chunk), e);
	if (!err)
		err = tm_dumpw_section_end(&w, e);
	if (!err)
		err = tm_dumpw_section(&w, TIPME_SEC_PARAMS, 0, "", 0, e);
	if (!err)
		err = tm_dumpw_commit(&w, e);
	tm_dumpw_abort(&w);
	return err;
}

static void test_atomic(void)
{
	char path[128], name[300];
	struct tm_err e = { "" };
	struct stat st;
	struct tm_dumpw w;
	struct tm_dump d;
	int err, n, ok;

	path_in(path, sizeof(path), dir, "a.tipme");
	err = tm_dumpw_open(&w, path, &tmpl, 0, &e);
	if (!err)
		err = tm_dumpw_section(&w, TIPME_SEC_SYSTEM, 0, "kernel=x\n", 9, &e);
	n = count_entries(dir, name, sizeof(name));
	tap_ok(!err && !exists(path) && n == 1 && name[0] == '.',
	       "while writing, only a hidden temporary file exists (%s)", name);
	if (!err)
		err = tm_dumpw_commit(&w, &e);
	tap_ok(!err && exists(path) && count_entries(dir, NULL, 0) == 1,
	       "after commit the final name exists and the temporary is gone%s%s",
	       err ? ": " : "", e.msg);
	memset(&st, 0, sizeof(st));
	err = stat(path, &st);
	tap_ok(!err && (st.st_mode & 07777) == 0600, "mode is 0600 (0%o)",
	       (unsigned int)(st.st_mode & 07777));
	err = tm_dump_load(&d, path, 0, &e);
	ok = !err && d.nr_secs == 1 && d.hdr.version == TIPME_FILE_VERSION &&
	     d.hdr.header_size == sizeof(struct tipme_file_header) &&
	     d.hdr.byte_order == TIPME_BYTE_ORDER_MARK &&
	     d.hdr.file_size == d.size && d.size == sizeof(struct tipme_file_header) + 24 + 16 &&
	     d.hdr.tsc_khz == tmpl.tsc_khz && d.hdr.nr_cpus == 2 &&
	     d.hdr.created_real_ns == tmpl.created_real_ns &&
	     d.secs[0].h.size == 9 && !memcmp(d.secs[0].data, "kernel=x\n", 9) &&
	     d.secs[0].h.crc32 == tm_crc32(0, "kernel=x\n", 9);
	tap_ok(ok, "reader returns the header and the section as written%s%s",
	       err ? ": " : "", e.msg);
	tm_dump_free(&d);

	/* abort leaves nothing */
	path_in(path, sizeof(path), dir, "b.tipme");
	err = tm_dumpw_open(&w, path, &tmpl, 0, &e);
	if (!err)
		err = tm_dumpw_section_begin(&w, TIPME_SEC_CPU_STREAM, 0, &e);
	if (!err)
		err = tm_dumpw_section_append(&w, "abcd", 4, &e);
	tm_dumpw_abort(&w);
	tap_ok(!err && !exists(path) && count_entries(dir, NULL, 0) == 1,
	       "tm_dumpw_abort() removes the temporary file");
	tap_ok(tm_dumpw_section_append(&w, "x", 1, &e) < 0,
	       "calls after abort fail (%s)", e.msg);
}

static void test_streaming(void)
{
	char pa[128], pb[128], pc[128];
	unsigned char *a, *b;
	size_t sa = 0, sb = 0;
	struct tm_err e = { "" };
	struct tm_dumpw w;
	struct tm_dump d;
	int err, i;
	static const char text[] = "0123456789abcdefghijklmnopqrstuvwxyz";

	path_in(pa, sizeof(pa), dir, "oneshot.tipme");
	path_in(pb, sizeof(pb), dir, "pieces.tipme");
	err = tm_dumpw_open(&w, pa, &tmpl, 0, &e);
	if (!err)
		err = tm_dumpw_section(&w, TIPME_SEC_CPU_STREAM, 1, text, sizeof(text) - 1, &e);
	if (!err)
		err = tm_dumpw_commit(&w, &e);
	if (!err)
		err = tm_dumpw_open(&w, pb, &tmpl, 0, &e);
	if (!err)
		err = tm_dumpw_section_begin(&w, TIPME_SEC_CPU_STREAM, 1, &e);
	for (i = 0; i < (int)sizeof(text) - 1 && !err; i += 5)
		err = tm_dumpw_section_append(&w, text + i,
					   sizeof(text) - 1 - i < 5 ? sizeof(text) - 1 - i : 5, &e);
	if (!err)
		err = tm_dumpw_commit(&w, &e);	/* ends the open section itself */
	a = gen_read_file(pa, &sa);
	b = gen_read_file(pb, &sb);
	tap_ok(!err && a && b && sa == sb && !memcmp(a, b, sa) && sa % 8 == 0,
	       "appending in pieces gives the same bytes as one piece (%zu bytes)%s%s",
	       sa, err ? ": " : "", e.msg);
	free(a);
	free(b);

	path_in(pc, sizeof(pc), dir, "big.tipme");
	err = write_big(pc, 0, &e);
	if (!err)
		err = tm_dump_load(&d, pc, 0, &e);
	tap_ok(!err && d.nr_secs == 3 && d.secs[1].h.size == 1 << 20 &&
	       d.secs[1].h.cpu == 1 && d.secs[2].h.size == 0 &&
	       d.secs[1].data[4097] == (unsigned char)(1 * 7),
	       "a 1 MiB streamed section (header patched on disk) reads back%s%s",
	       err ? ": " : "", e.msg);
	tm_dump_free(&d);
}

/*
 * Mapped dumps write pieces straight from where they lie and take back a
 * batch writers overtook: the file must be as if only what was kept had
 * been written, whether the batch was still buffered or already on disk.
 */
static void test_rewind(void)
{
	static unsigned char big[3 << 16], junk[3 << 16];
	char pa[128], pb[128];
	struct iovec iov[130];
	struct tm_err e = { "" };
	struct tm_dumpw_mark m, bad;
	unsigned char *a, *b;
	size_t sa = 0, sb = 0;
	struct tm_dumpw w;
	int err, i, round;

	for (i = 0; i < (int)sizeof(big); i++) {
		big[i] = (unsigned char)(i * 13 + 1);
		junk[i] = (unsigned char)(i * 7 + 3);
	}
	path_in(pa, sizeof(pa), dir, "plain.tipme");
	path_in(pb, sizeof(pb), dir, "rewound.tipme");
	/* A: "head", then big in 130 pieces, as plain appends. */
	err = tm_dumpw_open(&w, pa, &tmpl, 0, &e);
	if (!err)
		err = tm_dumpw_section_begin(&w, TIPME_SEC_CPU_STREAM, 0, &e);
	if (!err)
		err = tm_dumpw_section_append(&w, "head", 4, &e);
	for (i = 0; i < 130 && !err; i++)
		err = tm_dumpw_section_append(&w, big + i * 1500, 1500, &e);
	if (!err)
		err = tm_dumpw_commit(&w, &e);
	/*
	 * B: "head", a small buffered batch taken back, a large one written
	 * to disk and taken back, then big as one appendv of 130 pieces.
	 */
	if (!err)
		err = tm_dumpw_open(&w, pb, &tmpl, 0, &e);
	if (!err)
		err = tm_dumpw_section_begin(&w, TIPME_SEC_CPU_STREAM, 0, &e);
	if (!err)
		err = tm_dumpw_section_append(&w, "head", 4, &e);
	tm_dumpw_section_mark(&w, &m);
	for (round = 0; round < 2 && !err; round++) {
		iov[0].iov_base = junk;
		iov[0].iov_len = round ? sizeof(junk) : 100;
		iov[1].iov_base = junk;
		iov[1].iov_len = 0;
		err = round ? tm_dumpw_section_appendv(&w, iov, 2, &e) :
			      tm_dumpw_section_append(&w, junk, 100, &e);
		if (!err)
			err = tm_dumpw_section_rewind(&w, &m, &e);
	}
	for (i = 0; i < 130; i++) {
		iov[i].iov_base = big + i * 1500;
		iov[i].iov_len = 1500;
	}
	if (!err)
		err = tm_dumpw_section_appendv(&w, iov, 130, &e);
	bad = m;
	bad.size++;
	tap_ok(!err && tm_dumpw_section_rewind(&w, &bad, &e) == -EINVAL,
	       "a mark from outside the section is refused: %s", e.msg);
	e.msg[0] = '\0';
	a = gen_read_file(pa, &sa);
	b = gen_read_file(pb, &sb);
	tap_ok(!err && a && !b, "and the writer then failed, leaving no file");
	free(b);
	err = tm_dumpw_open(&w, pb, &tmpl, 0, &e);
	if (!err)
		err = tm_dumpw_section_begin(&w, TIPME_SEC_CPU_STREAM, 0, &e);
	if (!err)
		err = tm_dumpw_section_append(&w, "head", 4, &e);
	tm_dumpw_section_mark(&w, &m);
	iov[0].iov_base = junk;
	iov[0].iov_len = sizeof(junk);
	if (!err)
		err = tm_dumpw_section_appendv(&w, iov, 1, &e);
	if (!err)
		err = tm_dumpw_section_rewind(&w, &m, &e);
	if (!err)
		err = tm_dumpw_section_append(&w, junk, 10, &e);
	if (!err)
		err = tm_dumpw_section_rewind(&w, &m, &e);
	for (i = 0; i < 130; i++) {
		iov[i].iov_base = big + i * 1500;
		iov[i].iov_len = 1500;
	}
	if (!err)
		err = tm_dumpw_section_appendv(&w, iov, 130, &e);
	if (!err)
		err = tm_dumpw_commit(&w, &e);
	b = gen_read_file(pb, &sb);
	tap_ok(!err && a && b && sa == sb && !memcmp(a, b, sa),
	       "batches taken back (on disk and buffered) leave the same bytes as never writing them (%zu bytes)%s%s",
	       sa, err ? ": " : "", e.msg);
	free(a);
	free(b);
}

static void test_noreplace(void)
{
	char path[128];
	struct tm_err e = { "" };
	unsigned char *before, *after;
	size_t sb = 0, sa = 0;
	int err, n0;

	path_in(path, sizeof(path), dir, "a.tipme");
	before = gen_read_file(path, &sb);
	n0 = count_entries(dir, NULL, 0);
	err = write_big(path, TM_DUMPW_NOREPLACE, &e);
	after = gen_read_file(path, &sa);
	tap_ok(err == -EEXIST && before && after && sa == sb && !memcmp(before, after, sa) &&
	       count_entries(dir, NULL, 0) == n0,
	       "TM_DUMPW_NOREPLACE: EEXIST, the existing file is intact, no temporary left (%s)",
	       e.msg);
	free(before);
	free(after);
	err = write_big(path, 0, &e);
	after = gen_read_file(path, &sa);
	tap_ok(!err && after && sa > sb, "without TM_DUMPW_NOREPLACE the file is replaced");
	free(after);
}

/*
 * Failures: in a child (so rlimits and mounts stay there).  Each child
 * exits 0 if the failure left nothing behind, 77 to skip, else 1.
 */
static int child_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int fails_cleanly(const char *d, int expect, struct tm_err *e)
{
	char path[128];
	int err;

	path_in(path, sizeof(path), d, "f.tipme");
	err = write_big(path, 0, e);
	printf("# %s: %s\n", d, e->msg);
	fflush(stdout);
	if (err != -expect)
		return 1;
	return !exists(path) && count_entries(d, NULL, 0) == 0 ? 0 : 1;
}

static void test_fsize_limit(void)
{
	char sub[128];
	struct tm_err e = { "" };
	pid_t pid;

	path_in(sub, sizeof(sub), dir, "fsize");
	mkdir(sub, 0700);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 100000, 100000 };

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(77);
		_exit(fails_cleanly(sub, EFBIG, &e));
	}
	tap_ok(child_status(pid) == 0,
	       "a write failing half way (file size limit, EFBIG) leaves nothing behind");
	rmdir(sub);
}

static void test_full_fs(void)
{
	char sub[128];
	struct tm_err e = { "" };
	pid_t pid;
	int st;

	path_in(sub, sizeof(sub), dir, "full");
	mkdir(sub, 0700);
	pid = fork();
	if (pid == 0) {
		/* private mount namespace: a 64 KiB tmpfs, then read-only */
		if (unshare(CLONE_NEWNS) &&
		    unshare(CLONE_NEWUSER | CLONE_NEWNS))
			_exit(77);
		if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("tipme-test", sub, "tmpfs", 0, "size=64k,mode=0700"))
			_exit(77);
		if (fails_cleanly(sub, ENOSPC, &e))
			_exit(1);
		if (mount("tipme-test", sub, "tmpfs", MS_REMOUNT | MS_RDONLY, "size=64k"))
			_exit(77);
		_exit(fails_cleanly(sub, EROFS, &e) ? 2 : 0);
	}
	st = child_status(pid);
	if (st == 77) {
		tap_skip("cannot mount a small tmpfs here (no mount namespace)");
		tap_skip("cannot mount a read-only tmpfs here");
	} else {
		tap_ok(st == 0 || st == 2, "a full file system (ENOSPC) leaves nothing behind");
		tap_ok(st == 0, "a read-only file system (EROFS) fails cleanly");
	}
	rmdir(sub);
}

static void test_no_permission(void)
{
	char sub[128];
	struct tm_err e = { "" };
	pid_t pid;

	if (geteuid() != 0) {
		path_in(sub, sizeof(sub), dir, "ro");
		mkdir(sub, 0500);
		tap_ok(fails_cleanly(sub, EACCES, &e) == 0,
		       "a directory without write permission: EACCES, nothing left");
		rmdir(sub);
		return;
	}
	/* root ignores permissions: drop to nobody in a child */
	path_in(sub, sizeof(sub), dir, "ro");
	mkdir(sub, 0755);
	chmod(dir, 0711);	/* let nobody reach it */
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(77);
		_exit(fails_cleanly(sub, EACCES, &e));
	}
	tap_ok(child_status(pid) == 0,
	       "a directory without write permission: EACCES, nothing left");
	chmod(dir, 0700);
	rmdir(sub);
}

/* ------------------------------------------------------------------ */
/* Reader checks                                                       */
/* ------------------------------------------------------------------ */

static unsigned char *good;
static size_t good_size;
static struct tm_dump good_d;

/* Parse a modified copy; 1 if rejected with @err and a message containing @want. */
static int rejects(const unsigned char *buf, size_t size, int err, const char *want,
		   unsigned int flags)
{
	unsigned char *copy = malloc(size ? size : 1);
	struct tm_err e = { "" };
	struct tm_dump d;
	int ret;

	memcpy(copy, buf, size);
	ret = tm_dump_parse(&d, copy, size, flags, &e);
	tm_dump_free(&d);
	free(copy);
	printf("# -> %d %s\n", ret, e.msg);
	return ret == err && strstr(e.msg, want) != NULL;
}

static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* Recompute the header checksum, so a changed field reaches its own check. */
static void reseal(unsigned char *m)
{
	struct tipme_file_header h;

	memcpy(&h, m, sizeof(h));
	h.header_crc32 = 0;
	h.header_crc32 = tm_crc32(0, &h, sizeof(h));
	memcpy(m, &h, sizeof(h));
}

static void test_reader(void)
{
	struct tipme_file_header h;
	unsigned char *m = malloc(good_size + 64);
	const struct tm_dump_sec *s1 = NULL;
	char want[160];
	uint32_t i;

#define RESET() memcpy(m, good, good_size)
#define OFF(field) offsetof(struct tipme_file_header, field)
	memcpy(&h, good, sizeof(h));
	for (i = 0; i < good_d.nr_secs; i++)
		if (good_d.secs[i].h.type == TIPME_SEC_CPU_STREAM && good_d.secs[i].h.cpu == 1)
			s1 = &good_d.secs[i];

	tap_ok(rejects(good, 0, -EINVAL, "empty file", 0), "empty file rejected");
	RESET();
	m[0] = 'X';
	tap_ok(rejects(m, good_size, -EINVAL, "bad magic", 0), "bad magic rejected");
	tap_ok(rejects(good, 40, -EINVAL, "less than a header", 0), "a file shorter than the header");
	snprintf(want, sizeof(want), "truncated: header says %zu bytes, file has %zu",
		 good_size, good_size - 1);
	tap_ok(rejects(good, good_size - 1, -EINVAL, want, 0), "truncation: \"%s\"", want);
	RESET();
	memset(m + good_size, 0, 8);
	tap_ok(rejects(m, good_size + 8, -EINVAL, "trailing data", 0), "trailing data rejected");
	RESET();
	put32(m + OFF(byte_order), __builtin_bswap32(TIPME_BYTE_ORDER_MARK));
	tap_ok(rejects(m, good_size, -EPROTO, "other byte order", 0),
	       "a file of the other byte order is recognised as such");
	RESET();
	put32(m + OFF(byte_order), 0x11223344);
	tap_ok(rejects(m, good_size, -EINVAL, "byte-order mark", 0), "garbage byte-order mark");
	RESET();
	put32(m + OFF(version), TIPME_FILE_VERSION + 1);
	tap_ok(rejects(m, good_size, -EPROTO, "newer than this reader", 0), "a newer version is refused");
	RESET();
	put32(m + OFF(version), 0);
	tap_ok(rejects(m, good_size, -EINVAL, "version 0", 0), "version 0 is refused");
	RESET();
	m[OFF(tsc_khz)] ^= 0x01;
	tap_ok(rejects(m, good_size, -EINVAL, "header checksum mismatch", 0),
	       "a flipped bit in the clock rate is caught by the header checksum");
	RESET();
	put32(m + OFF(nr_cpus), h.nr_cpus + 1);
	tap_ok(rejects(m, good_size, -EINVAL, "header checksum mismatch", 0),
	       "a changed CPU count is caught by the header checksum");
	{
		struct tm_err e = { "" };
		struct tm_dump d;

		RESET();
		put32(m + OFF(version), 1);
		put32(m + OFF(header_crc32), 0);
		tap_ok(tm_dump_parse(&d, m, good_size, 0, &e) == 0 && d.hdr.version == 1,
		       "a version 1 dump (no header checksum) still reads");
		tm_dump_free(&d);
		put32(m + OFF(header_crc32), 1);
		tap_ok(rejects(m, good_size, -EINVAL, "reserved header field", 0),
		       "version 1: the field must be zero");
	}
	RESET();
	put32(m + OFF(header_size), 60);
	reseal(m);
	tap_ok(rejects(m, good_size, -EINVAL, "header_size", 0), "header_size below 64");
	RESET();
	put64(m + OFF(reserved), 1);
	reseal(m);
	tap_ok(rejects(m, good_size, -EINVAL, "reserved header field", 0), "reserved not zero");
	RESET();
	put32(m + OFF(nr_sections), h.nr_sections - 1);
	reseal(m);
	tap_ok(rejects(m, good_size, -EINVAL, "bytes follow the last", 0), "nr_sections too small");
	RESET();
	put32(m + OFF(nr_sections), h.nr_sections + 1);
	reseal(m);
	tap_ok(rejects(m, good_size, -EINVAL, "header extends past the end", 0), "nr_sections too large");
	RESET();
	put32(m + OFF(nr_sections), 0xffffffff);
	reseal(m);
	tap_ok(rejects(m, good_size, -EINVAL, "cannot fit", 0), "absurd nr_sections");
	RESET();
	put32(m + s1->hdr_off + 20, 1);
	tap_ok(rejects(m, good_size, -EINVAL, "reserved field is not zero", 0), "section reserved not zero");
	RESET();
	put32(m + s1->hdr_off, 0);
	tap_ok(rejects(m, good_size, -EINVAL, "invalid section type 0", 0), "section type 0");
	RESET();
	put64(m + s1->hdr_off + 8, good_size);
	tap_ok(rejects(m, good_size, -EINVAL, "extends past the end of the file", 0),
	       "section size beyond the file");
	RESET();
	put64(m + s1->hdr_off + 8, s1->h.size + 0x10000000000ULL);
	tap_ok(rejects(m, good_size, -EINVAL, "extends past the end of the file", 0),
	       "huge section size (no overflow)");
	RESET();
	m[s1->hdr_off + 24 + 100] ^= 0x20;
	snprintf(want, sizeof(want), "section %u (cpu_stream cpu 1): checksum mismatch", s1->index);
	tap_ok(rejects(m, good_size, -EINVAL, want, 0), "\"%s\"", want);
	{
		struct tm_err e = { "" };
		struct tm_dump d;

		tap_ok(tm_dump_parse(&d, m, good_size, TM_DUMP_NO_CRC, &e) == 0,
		       "TM_DUMP_NO_CRC accepts it (for fuzzing the decoders)");
		tm_dump_free(&d);
	}
	/* the unknown section (type 1000, 25 bytes) has 7 bytes of padding */
	for (i = 0; i < good_d.nr_secs; i++)
		if (good_d.secs[i].h.type == 1000)
			break;
	tap_ok(i < good_d.nr_secs && good_d.secs[i].h.size == 25 &&
	       !memcmp(good_d.secs[i].data, "a section from the future", 25) &&
	       tm_dump_sec_type_name(1000) == NULL,
	       "a section of unknown type is kept");
	if (i < good_d.nr_secs) {
		RESET();
		m[good_d.secs[i].hdr_off + 24 + 25 + 3] = 1;
		tap_ok(rejects(m, good_size, -EINVAL, "padding is not zero", 0), "non-zero padding");
	} else {
		tap_ok(0, "non-zero padding");
	}
	free(m);
#undef RESET
#undef OFF
}

/* Resident file-backed pages of this process (/proc/self/statm's third field). */
static long resident_file_pages(void)
{
	long size = -1, rss = -1, shared = -1;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld %ld", &size, &rss, &shared) != 3)
			shared = -1;
		fclose(f);
	}
	return shared;
}

/*
 * tm_drop_file_pages(): a mapped file's touched pages leave the resident
 * set and read back unchanged; bytes that were read, not mapped, are kept.
 */
static void test_drop_pages(void)
{
	const size_t size = 8u << 20, pg = (size_t)sysconf(_SC_PAGESIZE);
	struct tm_err e = { "" };
	unsigned char *buf = NULL, *heap;
	long before, touched, dropped;
	size_t i, sum = 0, bad = 0;
	char path[128];
	int mapped = 0, fd, err;
	unsigned char *pat = malloc(size);

	path_in(path, sizeof(path), dir, "pages");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	for (i = 0; pat && i < size; i++)
		pat[i] = (unsigned char)(i * 7 + i / 4093);
	err = fd < 0 || !pat || write(fd, pat, size) != (ssize_t)size;
	if (fd >= 0)
		close(fd);
	if (!err)
		err = tm_map_file(path, &buf, &(size_t){ 0 }, &mapped, &e);
	tap_ok(!err && mapped, "an 8 MiB file is mapped%s%s", err ? ": " : "", e.msg);
	if (err || !mapped) {
		tap_ok(0, "skipped");
		tap_ok(0, "skipped");
		free(pat);
		return;
	}
	before = resident_file_pages();
	for (i = 0; i < size; i += pg)
		sum += buf[i];
	touched = resident_file_pages();
	tm_drop_file_pages(buf, size, mapped);
	dropped = resident_file_pages();
	tap_ok(touched - before >= (long)(size / pg) * 9 / 10 &&
	       dropped - before < (long)(size / pg) / 10,
	       "touching the mapping made %ld pages resident, the drop left %ld (sum %zu)",
	       touched - before, dropped - before, sum);
	for (i = 0; i < size; i++)
		bad += buf[i] != pat[i];
	tap_ok(!bad, "after the drop the mapping reads the file's bytes (%zu differ)", bad);
	tm_unmap_file(buf, size, mapped);

	heap = malloc(size);
	if (heap)
		memcpy(heap, pat, size);
	tm_drop_file_pages(heap, heap ? size : 0, 0);
	tap_ok(heap && !memcmp(heap, pat, size),
	       "bytes that were read, not mapped, are left alone");
	free(heap);
	free(pat);
	unlink(path);
}

static void test_load_errors(void)
{
	struct tm_err e = { "" };
	char path[128];
	struct tm_dump d;
	int err;

	path_in(path, sizeof(path), dir, "does-not-exist");
	err = tm_dump_load(&d, path, 0, &e);
	tap_ok(err == -ENOENT && strstr(e.msg, "No such file"), "missing file: %s", e.msg);
	tm_dump_free(&d);
	err = tm_dump_load(&d, dir, 0, &e);
	tap_ok(err == -EISDIR, "a directory: %s", e.msg);
	tm_dump_free(&d);
}

int main(void)
{
	struct gen_spec s;
	struct tm_err e = { "" };
	char path[128];
	int err;

	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	tap_plan(50);
	test_atomic();
	test_streaming();
	test_rewind();
	test_noreplace();
	test_fsize_limit();
	test_full_fs();
	test_no_permission();
	test_drop_pages();

	gen_default(&s);
	gen_random(&s, 42, 2, 60);
	path_in(path, sizeof(path), dir, "gen.tipme");
	err = gen_write(path, &s, NULL, &e);
	gen_spec_free(&s);
	good = err ? NULL : gen_read_file(path, &good_size);
	if (good)
		err = tm_dump_parse(&good_d, good, good_size, 0, &e);
	tap_ok(good && !err, "a generated dump parses (%zu bytes)%s%s", good_size,
	       err ? ": " : "", e.msg);
	if (good && !err)
		test_reader();
	tm_dump_free(&good_d);
	free(good);
	test_load_errors();
	gen_rmtree(dir);
	return tap_done();
}
