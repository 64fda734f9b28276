// SPDX-License-Identifier: GPL-2.0
/*
 * The gzip-compressing stream (lib/gzwrite.c) and the compressed Perfetto
 * export that uses it: bytes written in pieces of every size, past the
 * two buffers many times, come back whole from zlib's own reader (gzread:
 * one gzip member, its CRC and length checked); nothing written gives an
 * empty member; a full disk is an error at fclose(), not a silent cut.
 * Then `tipme export --perfetto` of a simulated dump: gzip by default,
 * and inflated it is byte for byte what --uncompressed writes; its --json
 * says so and counts the file's bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "capture.h"
#include "cmd/commands.h"
#include "gen.h"
#include "gzwrite.h"
#include "scen.h"
#include "tap.h"

/* The whole of gzip file @path inflated; its length in @n; NULL if not gzip. */
static unsigned char *inflate_file(const char *path, size_t *n)
{
	gzFile g = gzopen(path, "rb");
	size_t cap = 1 << 16;
	unsigned char *b = malloc(cap);
	int k;

	*n = 0;
	if (!g || !b || gzdirect(g)) {
		if (g)
			gzclose(g);
		free(b);
		return NULL;
	}
	while ((k = gzread(g, b + *n, (unsigned int)(cap - *n))) > 0) {
		*n += (size_t)k;
		if (*n == cap) {
			unsigned char *m = realloc(b, cap *= 2);

			if (!m)
				abort();
			b = m;
		}
	}
	if (k < 0 || gzclose(g) != Z_OK) {
		free(b);
		return NULL;
	}
	return b;
}

/* @len bytes (text-like, so that they compress) in pieces of random sizes through the stream. */
static int round_trip(const char *path, size_t len, uint64_t seed)
{
	unsigned char *src = malloc(len ? len : 1), *back;
	uint64_t rnd = seed;
	size_t i, n;
	FILE *out = fopen(path, "wb"), *f;
	int ok;

	if (!src || !out)
		abort();
	for (i = 0; i < len; i++)
		src[i] = (unsigned char)("sched_switch: prev_pid=\n"[gen_rand(&rnd) % 24] +
					 (gen_rand(&rnd) % 16 == 0));
	f = tm_gz_open(out, 1);
	if (!f) {
		fclose(out);
		free(src);
		return 0;
	}
	for (i = 0; i < len; i += n) {
		n = 1 + gen_rand(&rnd) % (gen_rand(&rnd) % 2 ? 70000 : 300);
		if (n > len - i)
			n = len - i;
		if (fwrite(src + i, 1, n, f) != n)
			break;
	}
	ok = !fclose(f) && !fclose(out);
	back = inflate_file(path, &n);
	ok = ok && back && n == len && !memcmp(back, src, len);
	free(back);
	free(src);
	return ok;
}

int main(void)
{
	char dir[64], path[128], dump[128], plain[160], gz[160], args[400], *out;
	unsigned char *a, *b;
	size_t na, nb;
	struct stat st;
	FILE *full, *f;
	int ret, e;

	if (!gen_tmpdir(dir)) {
		perror("mkdtemp");
		return 1;
	}
	tap_plan(8);
	snprintf(path, sizeof(path), "%s/t.gz", dir);
	tap_ok(round_trip(path, 0, 1), "nothing written: an empty gzip member");
	tap_ok(round_trip(path, 1000, 2), "1000 bytes in small pieces: back whole");
	tap_ok(round_trip(path, (9u << 20) + 12345, 3),
	       "9 MiB in pieces up to 70 KB (the two 1 MiB buffers handed over 9 times): back whole");

	/* a full disk: the stream's close says so */
	full = fopen("/dev/full", "wb");
	f = full ? tm_gz_open(full, 1) : NULL;
	if (f) {
		static char junk[3 << 20];

		for (na = 0; na < sizeof(junk); na++)
			junk[na] = (char)(na * 2654435761u >> 13);
		fwrite(junk, 1, sizeof(junk), f);
		errno = 0;
		ret = fclose(f);
		e = errno;
		tap_ok(ret == EOF && e == ENOSPC, "/dev/full: fclose() fails with ENOSPC (%d, %s)",
		       ret, strerror(e));
	} else {
		tap_skip("/dev/full: not here");
	}
	if (full)
		fclose(full);

	/* the export of a simulated dump, compressed and not */
	snprintf(dump, sizeof(dump), "%s/sim.tipme", dir);
	snprintf(plain, sizeof(plain), "%s/plain.json", dir);
	snprintf(gz, sizeof(gz), "%s/trace.json.gz", dir);
	{
		struct scen *s = calloc(1, sizeof(*s));
		static const char *const site[] = { "pipe_read", NULL };
		uint64_t t = 1000000;
		int k;

		scen_init(s, 2);
		s->compact = 1;
		for (k = 0; k < 400; k++, t += 50000) {
			scen_switch(s, k % 2, t, 0, TIPME_TS_RUNNABLE, 120, 3000 + k % 7, 120);
			scen_wake(s, k % 2, t + 10000, 3000 + (k + 1) % 7, (k + 1) % 2, 3000 + k % 7,
				  TIPME_CTX_TASK);
			scen_switch(s, k % 2, t + 20000, 3000 + k % 7, TIPME_TS_SLEEPING, 120, 0, 120);
			scen_blocked(s, k % 2, t + 20000, 3000 + k % 7, site);
		}
		scen_trigger(s, t);
		ret = scen_write(s, dump);
		free(s);
	}
	snprintf(args, sizeof(args), "export --perfetto --uncompressed -o %s DUMP", plain);
	out = ret ? NULL : capture_words(pm_cmd_export, args, dump, dir, &ret);
	free(out);
	snprintf(args, sizeof(args), "export --json --perfetto -o %s DUMP", gz);
	out = ret ? NULL : capture_words(pm_cmd_export, args, dump, dir, &ret);
	a = out ? (unsigned char *)capture_slurp(plain) : NULL;
	na = a ? strlen((char *)a) : 0;
	b = out ? inflate_file(gz, &nb) : NULL;
	tap_ok(!ret && a && na > 1000 && strstr((char *)a, "sched_switch: "),
	       "export --uncompressed: the JSON trace (%zu bytes)", na);
	tap_ok(b && nb == na && !memcmp(a, b, na),
	       "export: gzip by default, inflated byte for byte the uncompressed trace");
	tap_ok(out && !stat(gz, &st) && st.st_size > 0 && (size_t)st.st_size * 5 < na,
	       "export: the file %lld bytes, under a fifth of the JSON's %zu",
	       out && !stat(gz, &st) ? (long long)st.st_size : -1LL, na);
	snprintf(args, sizeof(args), "\"bytes\":%lld,\"compressed\":true",
		 !stat(gz, &st) ? (long long)st.st_size : -1LL);
	tap_ok(out && strstr(out, args), "export --json: %s (%.120s)", args, out ? out : "");
	free(a);
	free(b);
	free(out);
	gen_rmtree(dir);
	return tap_done();
}
