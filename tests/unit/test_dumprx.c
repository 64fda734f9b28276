// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver of DUMP streams (helper/dumprx.c) on recorded streams: the
 * fuzzer's seeds (tests/fuzz/mkdumpseed.py: two CPUs, sub-buffers 4..7 of
 * 4 KiB rings of four, the last one partial) mapped and copied, and
 * hostile variations.  Ground truth is what the seeds were built from: which
 * sub-buffers the file must hold, at what length, with which bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dumpfile.h"
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
 * Check the CPU streams of @path: CPU c holds sub-buffers @first..7, each
 * 4096 bytes but 7 (512, partial), with the map's bytes of its slot.
 */
static int streams_hold(const char *path, uint64_t first)
{
	struct tm_err e = { "" };
	struct tm_dump d;
	uint32_t i, cpus = 0;
	int ok = 1;

	if (tm_dump_load(&d, path, 0, &e)) {
		tap_diag("%s: %s", path, e.msg);
		tm_dump_free(&d);
		return 0;
	}
	for (i = 0; i < d.nr_secs; i++) {
		const struct tm_dump_sec *s = &d.secs[i];
		uint64_t off = 0, seq = first;
		struct tipme_subbuf sb;

		if (s->h.type != TIPME_SEC_CPU_STREAM)
			continue;
		cpus++;
		while (off + sizeof(sb) <= s->h.size) {
			uint32_t want = seq == 7 ? 512 : 4096;

			memcpy(&sb, s->data + off, sizeof(sb));
			off += sizeof(sb);
			if (sb.seq != seq || sb.len != want || off + sb.len > s->h.size ||
			    (sb.flags != 0) != (seq == 7) ||
			    memcmp(s->data + off, map + s->h.cpu * 4 * 4096 + (seq & 3) * 4096,
				   sb.len)) {
				tap_diag("cpu %u: sub-buffer %llu wrong (seq %llu len %u flags %u)",
					 s->h.cpu, (unsigned long long)seq,
					 (unsigned long long)sb.seq, sb.len, sb.flags);
				ok = 0;
				break;
			}
			off += sb.len;
			seq++;
		}
		if (ok && (seq != 8 || off != s->h.size)) {
			tap_diag("cpu %u: ends at sub-buffer %llu", s->h.cpu,
				 (unsigned long long)seq);
			ok = 0;
		}
	}
	tm_dump_free(&d);
	return ok && cpus == 2;
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
	tap_plan(9);
	snprintf(out, sizeof(out), "%s/d.dump", dir);

	err = replay("mapped", NULL, 0, 0, UINT64_MAX, out, &st, &e);
	tap_ok(!err && st.mapped && st.subbufs == 8 && st.discarded == 0 &&
	       st.bytes == 2 * (3 * 4096 + 512),
	       "mapped: 8 sub-buffers, %llu bytes, none discarded%s%s",
	       (unsigned long long)st.bytes, err ? ": " : "", e.msg);
	tap_ok(!err && streams_hold(out, 4),
	       "mapped: each CPU's stream holds its sub-buffers 4..7 with the ring's bytes");
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
