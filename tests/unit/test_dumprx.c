// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver of DUMP streams (helper/dumprx.c) on recorded streams: the
 * fuzzer's seeds (tests/fuzz/mkdumpseed.py: two CPUs, sub-buffers 4..7 of
 * 4 KiB rings of four, the last one partial) mapped and copied, and
 * hostile variations.  Ground truth is what the seeds were built from: which
 * sub-buffers the file must hold, at what length, with which bytes.  Then
 * the maps tipmed writes (helper/sysinfo.c) from the module's captured
 * mappings for a process that exited: the test's own binary, by the
 * device and inode the test stats itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "dumpfile.h"
#include "elfnote.h"
#include "sysinfo.h"
#include "xmaps.h"
#include "gen.h"
#include "nl.h"
#include "tap.h"

#define SEEDS	"tests/fuzz/corpus/dumprx/"
#define MAP_LEN	(2 * 4 * 4096)

static char dir[64];
static unsigned char map[MAP_LEN];

/* Replay seed @name; fills @st.  Return: the receiver's result. */
static int replay(const char *name, const unsigned char *patch, size_t at,
		  size_t plen, uint64_t oldest, const char *out,
		  struct tnl_dump_stats *st, struct tm_err *e)
{
	char path[256];
	struct tnl_dump_fake fake = { map, sizeof(map), 0 };
	unsigned char *buf, *msgs;
	size_t size = 0;
	int err;

	snprintf(path, sizeof(path), SEEDS "%s", name);
	buf = gen_read_file(path, &size);
	if (!buf || size < 9)
		return -ENOENT;
	if (patch && at + plen <= size)
		memcpy(buf + at, patch, plen);
	memcpy(&fake.oldest_intact, buf, 8);
	if (oldest != UINT64_MAX)
		fake.oldest_intact = oldest;
	/* the messages on their own allocation: aligned, and ASan sees overreads */
	msgs = malloc(size - 9 ? size - 9 : 1);
	if (msgs)
		memcpy(msgs, buf + 9, size - 9);
	err = msgs ? tnl_dump_from_buffer(msgs, size - 9, out,
					  buf[8] & 1 ? &fake : NULL, st, e) : -ENOMEM;
	free(msgs);
	free(buf);
	return err;
}

/*
 * Check the CPU streams of @path: CPU c holds sub-buffers @first..@last,
 * each 4096 bytes but @last (512, partial), with the map's bytes of its
 * slot, in @secs sections (each of whole sub-buffers) read in file order.
 */
static int streams_hold_in(const char *path, uint64_t first, uint64_t last,
			   uint32_t secs)
{
	struct tm_err e = { "" };
	struct tm_dump d;
	uint64_t seq[2] = { first, first };
	uint32_t i, n[2] = { 0, 0 };
	int ok = 1;

	if (tm_dump_load(&d, path, 0, &e)) {
		tap_diag("%s: %s", path, e.msg);
		tm_dump_free(&d);
		return 0;
	}
	for (i = 0; i < d.nr_secs && ok; i++) {
		const struct tm_dump_sec *s = &d.secs[i];
		uint32_t c = s->h.cpu;
		struct tipme_subbuf sb;
		uint64_t off = 0;

		if (s->h.type != TIPME_SEC_CPU_STREAM)
			continue;
		if (c > 1) {
			tap_diag("a stream of cpu %u", c);
			ok = 0;
			break;
		}
		n[c]++;
		while (off + sizeof(sb) <= s->h.size) {
			uint32_t want = seq[c] == last ? 512 : 4096;

			memcpy(&sb, s->data + off, sizeof(sb));
			off += sizeof(sb);
			if (sb.seq != seq[c] || sb.len != want || off + sb.len > s->h.size ||
			    (sb.flags != 0) != (seq[c] == last) ||
			    memcmp(s->data + off, map + c * 4 * 4096 + (seq[c] & 3) * 4096,
				   sb.len)) {
				tap_diag("cpu %u: sub-buffer %llu wrong (seq %llu len %u flags %u)",
					 c, (unsigned long long)seq[c],
					 (unsigned long long)sb.seq, sb.len, sb.flags);
				ok = 0;
				break;
			}
			off += sb.len;
			seq[c]++;
		}
		if (ok && off != s->h.size) {
			tap_diag("cpu %u: section %u ends mid-way", c, i);
			ok = 0;
		}
	}
	for (i = 0; i < 2 && ok; i++) {
		if (seq[i] != last + 1 || n[i] != secs) {
			tap_diag("cpu %u: ends at sub-buffer %llu, in %u sections", i,
				 (unsigned long long)seq[i], n[i]);
			ok = 0;
		}
	}
	tm_dump_free(&d);
	return ok;
}

/* The seeds' streams: sub-buffers @first..7, one section per CPU. */
static int streams_hold(const char *path, uint64_t first)
{
	return streams_hold_in(path, first, 7, 1);
}

/*
 * A STATUS message: the head (every attribute, CPU_COUNT @count unless
 * 0) if @head, then one CPU_STATS nest of the CPUs @cpus[0..@n).
 */
static struct nl_msg *status_msg(int head, uint32_t count, const uint32_t *cpus,
				 size_t n)
{
	struct nl_msg *m = nlmsg_alloc();
	struct nlattr *nest, *ent;
	size_t i;

	if (!m || !genlmsg_put(m, 0, 1, 30, 0, NLM_F_MULTI, TIPME_CMD_STATUS, 1))
		goto fail;
	if (head && (nla_put_string(m, TIPME_ATTR_VERSION, "t") ||
		     nla_put_u8(m, TIPME_ATTR_RECORDING, 1) ||
		     nla_put_u64(m, TIPME_ATTR_TSC_KHZ, 1000) ||
		     (count && nla_put_u32(m, TIPME_ATTR_CPU_COUNT, count))))
		goto fail;
	if (!n)
		return m;
	nest = nla_nest_start(m, TIPME_ATTR_CPU_STATS);
	for (i = 0; nest && i < n; i++) {
		ent = nla_nest_start(m, TIPME_ATTR_CPU_ENTRY);
		if (!ent || nla_put_u32(m, TIPME_ATTR_CPU, cpus[i]) ||
		    nla_put_u64(m, TIPME_ATTR_STAT_WRITTEN, 10 + cpus[i]) ||
		    nla_put_u64(m, TIPME_ATTR_STAT_OVERWRITTEN, 0) ||
		    nla_put_u64(m, TIPME_ATTR_STAT_DROPPED, 0) ||
		    nla_put_u64(m, TIPME_ATTR_STAT_BYTES, 64))
			goto fail;
		nla_nest_end(m, ent);
	}
	if (!nest)
		goto fail;
	nla_nest_end(m, nest);
	return m;
fail:
	nlmsg_free(m);
	return NULL;
}

/*
 * STATUS read from several messages (tnl_status_parse(), what tnl_status()
 * does with a dump's): the CPUs of every nest, in order; a reply whose
 * count, order or head is wrong is a clear error.
 */
static void test_status(void)
{
	static const uint32_t a[] = { 0, 1, 2 }, b[] = { 3, 4 }, dup[] = { 2, 3 };
	static const struct {
		int head2;
		uint32_t count;
		const uint32_t *second;
		const char *what, *err;
	} c[] = {
		{ 0, 5, b, "CPUs from two messages, as CPU_COUNT says", NULL },
		{ 0, 0, b, "an older module's reply without CPU_COUNT", NULL },
		{ 0, 6, b, "fewer CPUs than CPU_COUNT",
		  "status: the module announced 6 CPUs, its reply held 5" },
		{ 0, 5, dup, "a CPU sent twice", "status: malformed reply from the module" },
		{ 1, 5, b, "two heads", "status: malformed reply from the module" },
	};
	struct tipme_status st;
	struct nl_msg *m[2];
	struct tm_err e;
	size_t i;
	int err;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		e.msg[0] = '\0';
		m[0] = status_msg(1, c[i].count, a, 3);
		m[1] = status_msg(c[i].head2, 0, c[i].second, 2);
		err = m[0] && m[1] ? tnl_status_parse(m, 2, &st, &e) : -ENOMEM;
		if (!c[i].err)
			tap_ok(!err && st.ncpus == 5 && st.cpus[4].cpu == 4 &&
			       st.cpus[4].written == 14 && !strcmp(st.version, "t"),
			       "status: %s%s%s", c[i].what, err ? ": " : "", e.msg);
		else
			tap_ok(err == -EBADMSG && !strcmp(e.msg, c[i].err),
			       "status: %s is an error: \"%s\"", c[i].what, e.msg);
		if (!err)
			tipme_status_free(&st);
		nlmsg_free(m[0]);
		nlmsg_free(m[1]);
	}
}

/* A TIPME_SEC_XMAPS entry at @b, with @nbid bytes of build-id.  Return: its bytes. */
static size_t xent_bid(unsigned char *b, uint32_t pid, uint64_t start_ns,
		       uint64_t lo, const char *p, const struct stat *st,
		       unsigned int nbid)
{
	struct tipme_xmap m = { 0 };
	size_t len = strlen(p), i;

	m.size = (uint16_t)((sizeof(m) + len + nbid + 7) / 8 * 8);
	m.path_len = (uint16_t)len;
	m.pid = pid;
	m.start_mono_ns = start_ns;
	m.start = lo;
	m.end = lo + 0x1000;
	m.offset = 0x2000;
	m.ino = st->st_ino;
	m.dev = (uint32_t)st->st_dev;
	m.flags = TIPME_XMAP_EXITED | nbid << 8;
	memset(b, 0, m.size);
	memcpy(b, &m, sizeof(m));
	memcpy(b + sizeof(m), p, len);
	for (i = 0; i < nbid; i++)
		b[sizeof(m) + len + i] = (unsigned char)(0xa0 + i);
	return m.size;
}

/* A TIPME_SEC_XMAPS entry at @b, without a build-id.  Return: its bytes. */
static size_t xent(unsigned char *b, uint32_t pid, uint64_t start_ns,
		   uint64_t lo, const char *p, const struct stat *st)
{
	return xent_bid(b, pid, start_ns, lo, p, st, 0);
}

/*
 * sysinfo_write_maps() with captured mappings: a process that exited is
 * listed from them, the latest process of its pid only, with the build-id
 * the module read, else that of a file that is still the one it mapped
 * and "-" for one that is not;
 * a live process from /proc, its captured lines unused.
 */
static void test_captured(void)
{
	struct tipme_file_header fh = { 0 };
	struct tm_elf_src src = { tm_elf_fd_read, NULL };
	unsigned char buf[2048], id[TM_BUILD_ID_MAX];
	struct tipme_xmaps_hdr h = { sizeof(h), 4, 64, 3, 3, 0, 0, 0, 0 };
	struct stat st, other;
	struct tm_dumpw w;
	struct tm_dump d = { 0 };
	struct tm_err e = { "" };
	char exe[256], out[128], want[1024], bid[2 * TM_BUILD_ID_MAX + 1] = "-";
	char *text = NULL;
	uint32_t pids[2];
	size_t off = sizeof(h), len, i;
	ssize_t n;
	pid_t gone;
	int fd, err;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	gone = fork();
	if (gone == 0)
		_exit(0);
	if (n <= 0 || gone < 0 || waitpid(gone, NULL, 0) != gone ||
	    stat(exe, &st) || stat("/proc/self", &other)) {
		tap_ok(0, "captured maps: set up (%s)", strerror(errno));
		tap_ok(0, "captured maps: set up");
		return;
	}
	fd = open(exe, O_RDONLY);
	src.ctx = &fd;
	if (fd >= 0 && !tm_elf_build_id(&src, id, &len, NULL))
		for (i = 0; i < len; i++)
			snprintf(bid + 2 * i, 3, "%02x", id[i]);
	if (fd >= 0)
		close(fd);
	memcpy(buf, &h, sizeof(h));
	/* an older process of the same pid: not listed */
	off += xent(buf + off, gone, 1, 0x100000, "/old/process", &st);
	off += xent(buf + off, gone, 2, 0x400000, exe, &st);
	/* a path whose file is no longer the one mapped (other inode) */
	off += xent(buf + off, gone, 2, 0x500000, exe, &other);
	/* the build-id the module read: written as it is, the path unread */
	off += xent_bid(buf + off, gone, 2, 0x700000, "/gone/elsewhere", &other, 20);
	/* the live process: its captured line unused */
	off += xent(buf + off, getpid(), 3, 0x600000, "/captured/live", &st);
	pids[0] = getpid();
	pids[1] = gone;
	snprintf(out, sizeof(out), "%s/m.dump", dir);
	err = tm_dumpw_open(&w, out, &fh, 0, &e);
	if (!err)
		err = sysinfo_write_maps(&w, pids, 2, buf, off, &e);
	if (!err)
		err = tm_dumpw_commit(&w, &e);
	if (!err)
		err = tm_dump_load(&d, out, 0, &e);
	for (i = 0; !err && i < d.nr_secs; i++)
		if (d.secs[i].h.type == TIPME_SEC_MAPS)
			text = strndup((const char *)d.secs[i].data, d.secs[i].h.size);
	snprintf(want, sizeof(want),
		 "# %d: exited: captured by the module\n"
		 "%d 400000 401000 2000 %s %s\n"
		 "%d 500000 501000 2000 - %s\n"
		 "%d 700000 701000 2000 a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3 /gone/elsewhere\n",
		 (int)gone, (int)gone, bid, exe, (int)gone, exe, (int)gone);
	tap_ok(text && strstr(text, want) && !strstr(text, "/old/process") &&
	       strcmp(bid, "-"),
	       "captured maps: the exited process's mappings, its own build-id %s "
	       "where the file is the same, '-' where not, the module's where it "
	       "read one, not the older process's (%s)",
	       bid, e.msg);
	snprintf(want, sizeof(want), "%d ", (int)getpid());
	tap_ok(text && !strncmp(text, want, strlen(want)) &&
	       !strstr(text, "/captured/live"),
	       "captured maps: the live process from /proc first, its capture unused");
	free(text);
	tm_dump_free(&d);
	unlink(out);
}

/* The captured mappings the seeds carry, in the file as sent: one entry. */
static int xmaps_kept(const char *path)
{
	struct tm_dump d = { 0 };
	struct tm_err e = { "" };
	struct tm_xmaps x;
	struct tm_xmap m;
	size_t off = 0;
	uint32_t i;
	int ok = 0;

	if (tm_dump_load(&d, path, 0, &e))
		return 0;
	for (i = 0; i < d.nr_secs; i++)
		if (d.secs[i].h.type == TIPME_SEC_XMAPS &&
		    !tm_xmaps_parse(d.secs[i].data, d.secs[i].h.size, &x, &e) &&
		    x.count == 1 && tm_xmaps_next(&x, &off, &m))
			ok = m.m.pid == 300 && m.m.start == 0x7f0000028000ULL &&
			     m.m.path_len == 35 && !memcmp(m.path, "/usr/lib/", 9);
	tm_dump_free(&d);
	return ok;
}

/*
 * The sampler's table of @path: the header and both entries the seed sent
 * over two messages (tests/fuzz/mkdumpseed.py), with no END part.
 */
static int smpsnap_kept(const char *path)
{
	struct tm_dump d = { 0 };
	struct tm_err e = { "" };
	struct tipme_smpsnap_hdr h;
	struct tipme_smpsnap_ent en[2];
	uint32_t i;
	int ok = 0;

	if (tm_dump_load(&d, path, 0, &e))
		return 0;
	for (i = 0; i < d.nr_secs; i++) {
		if (d.secs[i].h.type != TIPME_SEC_SMPSNAP ||
		    d.secs[i].h.size != sizeof(h) + sizeof(en))
			continue;
		memcpy(&h, d.secs[i].data, sizeof(h));
		memcpy(en, d.secs[i].data + sizeof(h), sizeof(en));
		ok = h.count == 2 && h.seq == 500 && tipme_smp_pid(en[0].word) == 300 &&
		     tipme_smp_pid(en[1].word) == 301 && en[1].flags == TIPME_SMPSNAP_GONE;
	}
	tm_dump_free(&d);
	return ok;
}

int main(void)
{
	struct tnl_dump_stats st;
	struct tm_err e = { "" };
	char out[128];
	unsigned char big[4];
	size_t i;
	int err;

	if (access(SEEDS "mapped", R_OK)) {
		printf("1..0 # SKIP run from the source tree\n");
		return 0;
	}
	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	for (i = 0; i < sizeof(map); i++)
		map[i] = (unsigned char)(i * 29 + 5);
	tap_plan(21);
	test_status();
	test_captured();
	snprintf(out, sizeof(out), "%s/d.dump", dir);

	err = replay("mapped", NULL, 0, 0, UINT64_MAX, out, &st, &e);
	tap_ok(!err && st.mapped && st.subbufs == 8 && st.discarded == 0 &&
	       st.bytes == 2 * (3 * 4096 + 512),
	       "mapped: 8 sub-buffers, %llu bytes, none discarded%s%s",
	       (unsigned long long)st.bytes, err ? ": " : "", e.msg);
	tap_ok(!err && streams_hold(out, 4),
	       "mapped: each CPU's stream holds its sub-buffers 4..7 with the ring's bytes");
	tap_ok(!err && xmaps_kept(out),
	       "mapped: the captured mappings' section holds what the module sent");
	tap_ok(!err && smpsnap_kept(out),
	       "mapped: the sampler's table, sent in two parts, is one section");
	unlink(out);

	err = replay("mapped", NULL, 0, 0, 6, out, &st, &e);
	tap_ok(!err && st.subbufs == 4 && st.discarded == 4 &&
	       st.bytes == 2 * (4096 + 512),
	       "writers past sub-buffer 6: 4 kept, 4 taken back and counted (%llu, %llu)%s%s",
	       (unsigned long long)st.subbufs, (unsigned long long)st.discarded,
	       err ? ": " : "", e.msg);
	tap_ok(!err && streams_hold(out, 6), "and the file holds 6..7 only, intact");
	unlink(out);

	err = replay("mapped", NULL, 0, 0, 1000, out, &st, &e);
	tap_ok(!err && st.subbufs == 0 && st.discarded == 8,
	       "writers past everything: a dump with empty streams, 8 discarded%s%s",
	       err ? ": " : "", e.msg);
	unlink(out);

	/*
	 * 36 sub-buffers a CPU (4..39), written in batches of 16, 16 and 4,
	 * with a CPU's section ended past 8 KiB: before the second batch and
	 * before the third, never inside one, whose rewind stays in it.
	 */
	tnl_dump_section_bytes = 8192;
	err = replay("mapped-long", NULL, 0, 0, UINT64_MAX, out, &st, &e);
	tap_ok(!err && st.subbufs == 72 && streams_hold_in(out, 4, 39, 3),
	       "sections ended past 8 KiB: 3 per CPU, at the batches' ends, the stream whole%s%s",
	       err ? ": " : "", e.msg);
	unlink(out);
	/*
	 * Writers past 22: the first batch taken back whole (its section
	 * stays empty and open), the second's 20 and 21 too, then 22..35
	 * written in that same section and 36..39 in a second.
	 */
	err = replay("mapped-long", NULL, 0, 0, 22, out, &st, &e);
	tap_ok(!err && st.subbufs == 36 && st.discarded == 36 &&
	       streams_hold_in(out, 22, 39, 2),
	       "and writers past 22: the batches taken back within their section, 22..39 in 2 sections%s%s",
	       err ? ": " : "", e.msg);
	unlink(out);
	tnl_dump_section_bytes = TM_DUMP_STREAM_SECTION;
	err = replay("mapped-long", NULL, 0, 0, UINT64_MAX, out, &st, &e);
	tap_ok(!err && streams_hold_in(out, 4, 39, 1),
	       "sections of 4 MiB: one per CPU%s%s", err ? ": " : "", e.msg);
	unlink(out);

	err = replay("copied", NULL, 0, 0, UINT64_MAX, out, &st, &e);
	tap_ok(!err && !st.mapped && st.subbufs == 2 && st.bytes == 1024,
	       "copied: 2 sub-buffers of 512 bytes%s%s", err ? ": " : "", e.msg);
	unlink(out);

	/* CPU 1's sent as overwritten, one of each CPU skipped unsent */
	err = replay("copied-lost", NULL, 0, 0, UINT64_MAX, out, &st, &e);
	tap_ok(!err && st.subbufs == 1 && st.bytes == 512 && st.discarded == 3,
	       "copied: one sent overwritten and two the module skipped: 3 discarded (%llu)%s%s",
	       (unsigned long long)st.discarded, err ? ": " : "", e.msg);
	unlink(out);

	/* The first SUBBUF_MAP's length made larger than a sub-buffer. */
	memset(big, 0xff, sizeof(big));
	e.msg[0] = '\0';
	{
		unsigned char *buf;
		size_t size = 0, at = 0;
		char path[256];

		snprintf(path, sizeof(path), SEEDS "mapped");
		buf = gen_read_file(path, &size);
		/* the first SUBBUF_LEN attribute: 8 bytes, its type, 4096 */
		for (i = 9; buf && i + 8 <= size; i++)
			if (buf[i] == 8 && buf[i + 1] == 0 &&
			    buf[i + 2] == TIPME_ATTR_SUBBUF_LEN && buf[i + 3] == 0 &&
			    buf[i + 4] == 0 && buf[i + 5] == 0x10) {
				at = i + 4;
				break;
			}
		free(buf);
		unlink(out);
		err = at ? replay("mapped", big, at, 4, UINT64_MAX, out, &st, &e) : -1;
		tap_ok(err == -EBADMSG && access(out, F_OK),
		       "a sub-buffer longer than a ring's is refused, no file left: %s", e.msg);
	}
	e.msg[0] = '\0';
	err = replay("mapped", NULL, 0, 0, UINT64_MAX, out, &st, &e);
	tap_ok(!err, "the receiver works again after a refusal%s%s", err ? ": " : "", e.msg);
	unlink(out);
	rmdir(dir);
	return tap_done();
}
