// SPDX-License-Identifier: GPL-2.0
/*
 * The blocking-site table of a dump (TIPME_SEC_SITES): read at open time,
 * every count and size checked, and kept as TIPME_REC_BLOCKED payloads so
 * that a TIPME_REC_SITE record decodes into the record it stands for.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"

static int site_fail(const struct tm_dump_sec *s, struct tm_err *e,
		     const char *what, uint64_t at)
{
	return tm_err_set(e, EINVAL, "section %" PRIu32 " (site table): %s at byte %" PRIu64,
			  s->index, what, at);
}

void pm_sites_free(struct pm_instr *in)
{
	free(in->site_id);
	free(in->site_off);
	free(in->site_blob);
	free(in->site_at);
	in->site_at = NULL;
	in->nr_site_at = 0;
	in->site_id = NULL;
	in->site_off = NULL;
	in->site_blob = NULL;
	in->nr_sites = 0;
}

struct site_ref {
	uint32_t id;
	uint32_t off;
};

static int cmp_ref(const void *a, const void *b)
{
	uint32_t x = ((const struct site_ref *)a)->id;
	uint32_t y = ((const struct site_ref *)b)->id;

	return (x > y) - (x < y);
}

int pm_sites_load(struct pm_instr *in, const struct tm_dump_sec *s,
		  struct tm_err *e)
{
	const unsigned char *p = s->data;
	uint64_t size = s->h.size, off, blob_len = 0;
	struct site_ref *ref = NULL;
	unsigned char *blob = NULL;
	size_t n = 0, max, i;
	uint32_t hsize;
	int err = 0;

	if (in->have_sites)
		return site_fail(s, e, "second site table", 0);
	if (size < sizeof(uint32_t))
		return site_fail(s, e, "too short", 0);
	memcpy(&hsize, p, sizeof(hsize));
	if (hsize < sizeof(in->shdr) || hsize > size || hsize % 8)
		return site_fail(s, e, "bad header size", 0);
	memcpy(&in->shdr, p, sizeof(in->shdr));
	/* Every entry takes 8 bytes at least: a bound before allocating. */
	max = (size_t)((size - hsize) / sizeof(struct tipme_site));
	ref = malloc((max ? max : 1) * sizeof(*ref));
	/* An entry of the blob is as long as the file's. */
	blob = malloc(size - hsize + 1);
	if (!ref || !blob) {
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out;
	}
	for (off = hsize; off < size; n++) {
		struct tipme_rec_blocked b;
		struct tipme_site st;
		uint64_t need;

		if (size - off < sizeof(st)) {
			err = site_fail(s, e, "entry truncated", off);
			goto out;
		}
		memcpy(&st, p + off, sizeof(st));
		if (!st.id || st.nr > PM_FRAMES_MAX) {
			err = site_fail(s, e, !st.id ? "site number 0" :
					"more than 64 addresses", off);
			goto out;
		}
		need = sizeof(st) + 4ULL * st.nr;
		if (need > size - off) {
			err = site_fail(s, e, "entry extends past the end", off);
			goto out;
		}
		b.len = (uint16_t)(sizeof(b) + 4u * st.nr);
		b.nr = st.nr;
		b.flags = st.flags;
		b.pid = 0;
		ref[n].id = st.id;
		ref[n].off = (uint32_t)blob_len;
		memcpy(blob + blob_len, &b, sizeof(b));
		memcpy(blob + blob_len + sizeof(b), p + off + sizeof(st), 4u * st.nr);
		blob_len += sizeof(b) + 4u * st.nr;
		off += need;
	}
	qsort(ref, n, sizeof(*ref), cmp_ref);
	for (i = 1; i < n; i++)
		if (ref[i].id == ref[i - 1].id) {
			err = tm_err_set(e, EINVAL, "section %" PRIu32
					 " (site table): site %" PRIu32 " listed twice",
					 s->index, ref[i].id);
			goto out;
		}
	in->site_id = malloc((n ? n : 1) * sizeof(*in->site_id));
	in->site_off = malloc((n ? n : 1) * sizeof(*in->site_off));
	if (!in->site_id || !in->site_off) {
		pm_sites_free(in);
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		in->site_id[i] = ref[i].id;
		in->site_off[i] = ref[i].off;
	}
	in->nr_sites = n;
	in->site_blob = blob;
	in->have_sites = 1;
	blob = NULL;
	/* numbers up to a few times the table's size: an array by number */
	if (n && in->site_id[n - 1] < 8 * n + 4096) {
		in->site_at = calloc((size_t)in->site_id[n - 1] + 1,
				     sizeof(*in->site_at));
		if (in->site_at) {	/* else the binary search */
			in->nr_site_at = in->site_id[n - 1] + 1;
			for (i = 0; i < n; i++)
				in->site_at[in->site_id[i]] = (uint32_t)i + 1;
		}
	}
out:
	free(ref);
	free(blob);
	return err;
}

const unsigned char *pm_site_blob(const struct pm_dump *pm, uint32_t id,
				  uint32_t *len)
{
	static const struct tipme_rec_blocked empty = {
		.len = sizeof(struct tipme_rec_blocked),
	};
	const struct pm_instr *in = pm->instr;
	size_t lo = 0, hi;
	const unsigned char *b;
	uint16_t l;

	if (!in || !in->nr_sites)
		goto none;
	if (in->site_at) {
		if (id >= in->nr_site_at || !in->site_at[id])
			goto none;
		lo = in->site_at[id] - 1;
		goto found;
	}
	hi = in->nr_sites;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->site_id[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == in->nr_sites || in->site_id[lo] != id)
		goto none;
found:
	b = in->site_blob + in->site_off[lo];
	memcpy(&l, b, sizeof(l));
	*len = l;
	return b;
none:
	*len = sizeof(empty);
	return (const unsigned char *)&empty;
}
