// SPDX-License-Identifier: GPL-2.0
/*
 * The sub-buffers of a dump by time (index.h): one pass of each CPU's
 * decoder, which stops at every sub-buffer's header to leave its state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"

struct bld {
	struct pm_index *ix;
	size_t cap;
	int oom;
	const struct pm_dump *pm;
};

/* A sub-buffer begins: its entry, with the decoder's state. */
static void on_subbuf(void *arg, const struct pm_dec *d)
{
	struct bld *b = arg;
	struct pm_index *ix = b->ix;
	struct pm_sbx *sb, *prev;

	if (b->oom)
		return;
	if (ix->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 256;

		sb = realloc(ix->sb, cap * sizeof(*sb));
		if (!sb) {
			b->oom = 1;
			return;
		}
		ix->sb = sb;
		b->cap = cap;
	}
	sb = &ix->sb[ix->n++];
	memset(sb, 0, sizeof(*sb));
	pm_dec_snap(d, &sb->snap);
	memcpy(&sb->seq, d->sec + d->sec_pos, sizeof(sb->seq));
	prev = ix->n - 1 > ix->cpu_first[ix->nr_cpus] ? sb - 1 : NULL;
	sb->first_ns = sb->last_ns = prev ? prev->last_ns : INT64_MIN;
}

int pm_index_build(struct pm_index *ix, const struct pm_dump *pm,
		   struct tm_err *e)
{
	struct bld b = { ix, 0, 0, pm };
	struct pm_event ev;
	struct pm_dec d;
	struct pm_sbx *sb;
	uint32_t c;
	int ret;

	memset(ix, 0, sizeof(*ix));
	ix->cpu_first = calloc(pm->nr_cpus + 1, sizeof(*ix->cpu_first));
	if (!ix->cpu_first)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (c = 0; c < pm->nr_cpus; c++) {
		/* while CPU c is read, nr_cpus is c: its first is cpu_first[c] */
		ix->nr_cpus = c;
		ix->cpu_first[c] = ix->n;
		pm_dec_init(&d, pm, &pm->cpus[c]);
		d.on_subbuf = on_subbuf;
		d.on_subbuf_arg = &b;
		while ((ret = pm_dec_next(&d, &ev, e)) > 0) {
			int64_t ns = pm_clock_mono(&pm->clock, ev.ts);

			if (b.oom || ix->n == ix->cpu_first[c])
				break;
			sb = &ix->sb[ix->n - 1];
			if (!sb->events)
				sb->first_ns = ns;
			sb->last_ns = ns;
			sb->events++;
		}
		if (b.oom)
			return tm_err_set(e, ENOMEM, "out of memory");
		if (ret < 0)
			return ret;
	}
	ix->nr_cpus = pm->nr_cpus;
	ix->cpu_first[pm->nr_cpus] = ix->n;
	return 0;
}

void pm_index_free(struct pm_index *ix)
{
	free(ix->sb);
	free(ix->cpu_first);
	memset(ix, 0, sizeof(*ix));
}

size_t pm_index_find(const struct pm_index *ix, uint32_t cpu_i, int64_t ns)
{
	size_t lo = ix->cpu_first[cpu_i], hi = ix->cpu_first[cpu_i + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->sb[mid].last_ns < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int pm_merge_range(struct pm_merge *m, const struct pm_dump *pm,
		   const struct pm_index *ix, const unsigned char *cpu_mask,
		   int64_t from_ns, int64_t to_ns, struct tm_err *e)
{
	uint32_t c, k = 0;
	size_t at;
	int err;

	err = pm_merge_init(m, pm, cpu_mask, e);
	if (err)
		return err;
	m->from_ns = from_ns;
	m->to_ns = to_ns;
	if (ix->nr_cpus != pm->nr_cpus)
		return tm_err_set(e, EINVAL, "the index is not this dump's");
	for (c = 0; c < pm->nr_cpus; c++) {
		if (cpu_mask && !cpu_mask[c])
			continue;
		at = pm_index_find(ix, c, from_ns);
		if (at < ix->cpu_first[c + 1]) {
			pm_dec_seek(&m->decs[k], &ix->sb[at].snap);
		} else if (ix->cpu_first[c + 1] > ix->cpu_first[c]) {
			/* nothing of this CPU in the range: start at its end */
			m->decs[k].done = 1;
		}
		k++;
	}
	return 0;
}
