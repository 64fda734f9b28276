// SPDX-License-Identifier: GPL-2.0
/*
 * User-space call chains (TIPME_SEC_USTACKS), the executable mappings
 * tipmed read at dump time (TIPME_SEC_MAPS) and the vDSO images
 * (TIPME_SEC_VDSO): read at open time, every count, size and number
 * checked; a chain's addresses resolved to file and offset, and cut where
 * one lies outside executable code.  The vDSO has no file: its mapping is
 * named "[vdso]" and its image comes with the dump.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfnote.h"
#include "tables.h"
#include "xmaps.h"

static int us_fail(const struct tm_dump_sec *s, struct tm_err *e,
		   const char *what, uint64_t at)
{
	return tm_err_set(e, EINVAL, "section %" PRIu32 " (user stack table): %s at byte %" PRIu64,
			  s->index, what, at);
}

void pm_ustacks_free(struct pm_instr *in)
{
	size_t i;

	for (i = 0; i < in->nr_vdso; i++)
		free(in->vdso[i].data);
	in->nr_vdso = 0;
	free(in->ustacks);
	free(in->maps);
	free(in->maps_text);
	free((void *)in->xmaps_data);
	in->xmaps_data = NULL;
	in->have_xmaps = 0;
	in->ustacks = NULL;
	in->maps = NULL;
	in->maps_text = NULL;
	in->nr_ustacks = 0;
	in->nr_maps = 0;
}

static int cmp_ustack(const void *a, const void *b)
{
	uint32_t x = ((const struct pm_ustack *)a)->id;
	uint32_t y = ((const struct pm_ustack *)b)->id;

	return (x > y) - (x < y);
}

int pm_ustacks_load(struct pm_instr *in, const struct tm_dump_sec *s,
		    struct tm_err *e)
{
	const unsigned char *p = s->data;
	uint64_t size = s->h.size, off;
	struct pm_ustack *u;
	size_t n = 0, max, i;
	uint32_t hsize;

	if (in->have_ustacks)
		return us_fail(s, e, "second user stack table", 0);
	if (size < sizeof(uint32_t))
		return us_fail(s, e, "too short", 0);
	memcpy(&hsize, p, sizeof(hsize));
	if (hsize < sizeof(in->uhdr) || hsize > size || hsize % 8)
		return us_fail(s, e, "bad header size", 0);
	memcpy(&in->uhdr, p, sizeof(in->uhdr));
	max = (size_t)((size - hsize) / sizeof(struct tipme_ustack));
	u = calloc(max ? max : 1, sizeof(*u));
	if (!u)
		return tm_err_set(e, ENOMEM, "out of memory");
	for (off = hsize; off < size; n++) {
		struct tipme_ustack t;

		if (size - off < sizeof(t)) {
			free(u);
			return us_fail(s, e, "entry truncated", off);
		}
		memcpy(&t, p + off, sizeof(t));
		if (!t.id || !t.nr || t.nr > TIPME_USTACK_DEPTH_MAX) {
			free(u);
			return us_fail(s, e, !t.id ? "chain number 0" :
				       !t.nr ? "chain of no address" :
				       "more than 16 addresses", off);
		}
		if (8ULL * t.nr > size - off - sizeof(t)) {
			free(u);
			return us_fail(s, e, "entry extends past the end", off);
		}
		u[n].id = t.id;
		u[n].pid = t.pid;
		u[n].nr = t.nr;
		u[n].flags = t.flags;
		memcpy(u[n].ip, p + off + sizeof(t), 8u * t.nr);
		off += sizeof(t) + 8ULL * t.nr;
	}
	qsort(u, n, sizeof(*u), cmp_ustack);
	for (i = 1; i < n; i++)
		if (u[i].id == u[i - 1].id) {
			uint32_t id = u[i].id;

			free(u);
			return tm_err_set(e, EINVAL, "section %" PRIu32
					  " (user stack table): chain %" PRIu32 " listed twice",
					  s->index, id);
		}
	in->ustacks = u;
	in->nr_ustacks = n;
	in->have_ustacks = 1;
	return 0;
}

static int cmp_map(const void *a, const void *b)
{
	const struct pm_map *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

static int is_hex(const char *p)
{
	if (!*p)
		return 0;
	for (; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return 0;
	return 1;
}

/* One "pid START END OFFSET BUILD_ID PATH" line, NUL-terminated in place. */
static int parse_map(char *line, struct pm_map *m)
{
	unsigned long long start, end, off;
	unsigned int pid;
	char *bid, *sp, *path;
	int at = -1;

	if (sscanf(line, "%u %llx %llx %llx %n", &pid, &start, &end, &off,
		   &at) != 4 || at < 0 || line[0] < '0' || line[0] > '9')
		return -1;
	bid = line + at;
	sp = strchr(bid, ' ');
	if (!sp)
		return -1;
	*sp = '\0';
	path = sp + 1;
	if (start >= end || (path[0] != '/' && strcmp(path, PM_VDSO_PATH)) ||
	    (strcmp(bid, "-") && (!is_hex(bid) || strlen(bid) % 2 ||
				  strlen(bid) > 128)))
		return -1;
	m->pid = pid;
	m->start = start;
	m->end = end;
	m->off = off;
	m->build_id = strcmp(bid, "-") ? bid : NULL;
	m->path = path;
	sp = strrchr(path, '/');
	m->name = sp && sp[1] ? sp + 1 : path;
	return 0;
}

/* Do mappings @a and @b (@a's start first) say the same thing? */
static int same_map(const struct pm_map *a, const struct pm_map *b)
{
	return a->end == b->end && a->off == b->off &&
	       !strcmp(a->path, b->path) &&
	       !a->build_id == !b->build_id &&
	       (!a->build_id || !strcmp(a->build_id, b->build_id));
}

/*
 * Drop from @maps (@n of them, sorted by cmp_map()) a line that repeats
 * another, and move to the end of @maps every mapping that overlaps
 * another of its process: an address in both cannot be told to one file.
 * tipmed reads /proc/PID/maps in pieces while the process may map and
 * unmap, so a listing can overlap; the rest of the dump is no less true
 * for it.  Return: the overlapping mappings moved, which follow the @n
 * kept ones in the same order (repeats not counted), or SIZE_MAX when
 * out of memory (@maps untouched).
 */
static size_t drop_overlaps(struct pm_map *maps, size_t *n)
{
	size_t i, j, k, out = 0, dropped = 0, total = *n;
	struct pm_map *moved;
	uint64_t end;

	moved = malloc((total ? total : 1) * sizeof(*moved));
	if (!moved)
		return SIZE_MAX;
	for (i = 0; i < total; i = j) {
		/* [i, j): a run of one pid's mappings that overlap in a chain */
		end = maps[i].end;
		for (j = i + 1; j < total && maps[j].pid == maps[i].pid &&
		     maps[j].start < end; j++)
			if (maps[j].end > end)
				end = maps[j].end;
		for (k = i + 1; k < j && maps[k].start == maps[i].start &&
		     same_map(&maps[i], &maps[k]); k++)
			;
		if (k == j) {		/* one mapping, maybe listed again */
			maps[out++] = maps[i];
			continue;
		}
		for (k = i; k < j; k++)
			moved[dropped++] = maps[k];
	}
	if (dropped)
		memcpy(maps + out, moved, dropped * sizeof(*moved));
	free(moved);
	*n = out;
	return dropped;
}

int pm_maps_load(struct pm_instr *in, const struct tm_dump_sec *s,
		 struct tm_err *e)
{
	size_t len = (size_t)s->h.size, n = 0, cap = 0, lineno = 0;
	struct pm_map *maps = NULL, *nm;
	char *text, *line, *nl;

	if (in->have_maps)
		return tm_err_set(e, EINVAL, "section %" PRIu32 " (maps): a second one",
				  s->index);
	if (memchr(s->data, '\0', len))
		return tm_err_set(e, EINVAL, "section %" PRIu32 " (maps): a NUL byte",
				  s->index);
	if (len && ((const char *)s->data)[len - 1] != '\n')
		return tm_err_set(e, EINVAL, "section %" PRIu32 " (maps): last line unterminated",
				  s->index);
	text = malloc(len + 1);
	if (!text)
		return tm_err_set(e, ENOMEM, "out of memory");
	memcpy(text, s->data, len);
	text[len] = '\0';
	for (line = text; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = '\0';
		lineno++;
		if (line[0] == '#')
			continue;	/* a process whose mappings were not read */
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			nm = realloc(maps, cap * sizeof(*maps));
			if (!nm) {
				free(maps);
				free(text);
				return tm_err_set(e, ENOMEM, "out of memory");
			}
			maps = nm;
		}
		if (parse_map(line, &maps[n])) {
			free(maps);
			free(text);
			return tm_err_set(e, EINVAL, "section %" PRIu32 " (maps): line %zu malformed",
					  s->index, lineno);
		}
		n++;
	}
	if (n)
		qsort(maps, n, sizeof(*maps), cmp_map);
	in->nr_maps_dropped = drop_overlaps(maps, &n);
	if (in->nr_maps_dropped == SIZE_MAX) {
		in->nr_maps_dropped = 0;
		free(maps);
		free(text);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	in->maps = maps;
	in->nr_maps = n;
	in->maps_text = text;
	in->have_maps = 1;
	return 0;
}

int pm_xmaps_load(struct pm_instr *in, const struct tm_dump_sec *s,
		  struct tm_err *e)
{
	unsigned char *copy;
	struct tm_err ee;

	if (in->have_xmaps)
		return tm_err_set(e, EINVAL, "section %" PRIu32 " (xmaps): a second one",
				  s->index);
	copy = malloc(s->h.size ? (size_t)s->h.size : 1);
	if (!copy)
		return tm_err_set(e, ENOMEM, "out of memory");
	memcpy(copy, s->data, (size_t)s->h.size);
	if (tm_xmaps_parse(copy, (size_t)s->h.size, &in->xmaps, &ee)) {
		free(copy);
		return tm_err_set(e, EINVAL, "section %" PRIu32 " (xmaps): %s", s->index, ee.msg);
	}
	in->xmaps_data = copy;
	in->have_xmaps = 1;
	return 0;
}

int pm_vdso_load(struct pm_instr *in, const struct tm_dump_sec *s,
		 struct tm_err *e)
{
	struct tm_elf_mem mem = { s->data, (size_t)s->h.size };
	struct tm_elf_src src = { tm_elf_mem_read, &mem };
	unsigned char id[TM_BUILD_ID_MAX];
	struct pm_vdso *v;
	size_t len, i;
	struct tm_err ee;
	char hex[2 * TM_BUILD_ID_MAX + 1];

	if (s->h.size > PM_VDSO_SIZE_MAX)
		return tm_err_set(e, EINVAL, "section %" PRIu32 " (vdso): more than %u bytes",
				  s->index, PM_VDSO_SIZE_MAX);
	if (in->nr_vdso == PM_VDSO_MAX)
		return tm_err_set(e, EINVAL, "section %" PRIu32 " (vdso): more than %d images",
				  s->index, PM_VDSO_MAX);
	if (tm_elf_build_id(&src, id, &len, &ee))
		return tm_err_set(e, EINVAL, "section %" PRIu32 " (vdso): no build-id: %s",
				  s->index, ee.msg);
	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	if (pm_vdso_get(in, hex))
		return tm_err_set(e, EINVAL, "section %" PRIu32 " (vdso): build-id %s twice",
				  s->index, hex);
	v = &in->vdso[in->nr_vdso];
	v->data = malloc(s->h.size);
	if (!v->data)
		return tm_err_set(e, ENOMEM, "out of memory");
	memcpy(v->data, s->data, s->h.size);
	v->size = (size_t)s->h.size;
	memcpy(v->build_id, hex, 2 * len + 1);
	in->nr_vdso++;
	return 0;
}

const struct pm_vdso *pm_vdso_get(const struct pm_instr *in, const char *build_id)
{
	size_t i;

	for (i = 0; in && build_id && i < in->nr_vdso; i++)
		if (!strcmp(in->vdso[i].build_id, build_id))
			return &in->vdso[i];
	return NULL;
}

const struct pm_ustack *pm_ustack_get(const struct pm_dump *pm, uint32_t id)
{
	const struct pm_instr *in = pm->instr;
	size_t lo = 0, hi;

	if (!in || !in->nr_ustacks)
		return NULL;
	hi = in->nr_ustacks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->ustacks[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < in->nr_ustacks && in->ustacks[lo].id == id ?
	       &in->ustacks[lo] : NULL;
}

/* The first mapping of @pid, or NULL: the process has none in the dump. */
static const struct pm_map *first_map(const struct pm_instr *in, uint32_t pid)
{
	size_t lo = 0, hi = in->nr_maps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->maps[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < in->nr_maps && in->maps[lo].pid == pid ? &in->maps[lo] : NULL;
}

/*
 * Whether the mappings read at dump time are those of @pid at @ns: not if
 * the process ran a new program after @ns (its latest exec table entry
 * began later), whose mappings then replaced those of the chain.
 */
static int maps_apply(const struct pm_instr *in, uint32_t pid, int64_t ns)
{
	size_t lo = 0, hi = in->nr_execs;
	int64_t latest = INT64_MIN;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->execs[mid].x.pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < in->nr_execs && in->execs[lo].x.pid == pid; lo++)
		if (in->execs[lo].start_ns > latest)
			latest = in->execs[lo].start_ns;
	return latest <= ns;
}

/* Does a mapping of @pid left out as overlapping (pm_maps_load()) hold @a? */
static int in_dropped(const struct pm_instr *in, uint32_t pid, uint64_t a)
{
	const struct pm_map *m = in->maps + in->nr_maps;
	size_t i;

	for (i = 0; i < in->nr_maps_dropped; i++)
		if (m[i].pid == pid && a >= m[i].start && a < m[i].end)
			return 1;
	return 0;
}

size_t pm_ustack_resolve(const struct pm_dump *pm, const struct pm_ustack *u,
			 int64_t ns, struct pm_uframe out[TIPME_USTACK_DEPTH_MAX],
			 int *truncated)
{
	const struct pm_instr *in = pm->instr;
	const struct pm_map *m0 = in && maps_apply(in, u->pid, ns) ?
				  first_map(in, u->pid) : NULL, *m;
	const struct pm_map *end = in && in->maps ? in->maps + in->nr_maps :
				   NULL;
	size_t n = 0, i;

	*truncated = !!(u->flags & (TIPME_USTACK_TRUNC | TIPME_USTACK_FULL));
	for (i = 0; i < u->nr && i < TIPME_USTACK_DEPTH_MAX; i++) {
		uint64_t a = u->ip[i];

		out[n].addr = a;
		out[n].map = NULL;
		out[n].off = 0;
		if (m0) {
			/*
			 * A return address points after its call: the call
			 * itself is one byte before, in the same mapping.
			 */
			uint64_t look = i ? a - 1 : a;

			for (m = m0; m < end && m->pid == u->pid; m++)
				if (look >= m->start && look < m->end)
					break;
			if (m == end || m->pid != u->pid) {
				if (!in_dropped(in, u->pid, look)) {
					*truncated = 1;
					break;
				}
				n++;	/* executable, but which file is unknown */
				continue;
			}
			out[n].map = m;
			out[n].off = a - m->start + m->off;
		}
		n++;
	}
	return n;
}

char *pm_fmt_uframe(const struct pm_uframe *f, char *buf, size_t len)
{
	if (f->map)
		snprintf(buf, len, "%s+0x%" PRIx64, f->map->name, f->off);
	else
		snprintf(buf, len, "0x%" PRIx64, f->addr);
	return buf;
}
