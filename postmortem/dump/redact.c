// SPDX-License-Identifier: GPL-2.0
/*
 * A copy of a kernel dump that can go into a public bug report (see
 * redact.h): what names the machine, its user or the kernel's layout is
 * removed or replaced, while every analysis still reads the same story.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "redact.h"
#include "tables.h"

/*
 * Network addresses seen so far, (family, address) in 17 bytes each: a
 * record's address becomes the documentation address numbered by its
 * first use (192.0.2.N for IPv4, then 240.0.0.0/4; 2001:db8::N for
 * IPv6), so equal stays equal and the mirrored pairs still pair.
 */
struct hostmap {
	uint8_t (*addr)[17];
	size_t n, cap;
};

static void host_replace(struct hostmap *m, uint8_t family, unsigned char *a,
			 int *oom)
{
	uint8_t key[17], (*na)[17];
	size_t i;

	key[0] = family;
	memcpy(key + 1, a, 16);
	for (i = 0; i < m->n && memcmp(m->addr[i], key, sizeof(key)); i++)
		;
	if (i == m->n) {
		if (m->n == m->cap) {
			na = realloc(m->addr, (m->cap ? m->cap * 2 : 16) * sizeof(*na));
			if (!na) {
				*oom = 1;
				return;
			}
			m->addr = na;
			m->cap = m->cap ? m->cap * 2 : 16;
		}
		memcpy(m->addr[m->n++], key, sizeof(key));
	}
	i++;	/* numbered from 1 */
	memset(a, 0, 16);
	if (family == TIPME_NET_INET6) {
		a[0] = 0x20, a[1] = 0x01, a[2] = 0x0d, a[3] = 0xb8;
		a[14] = (unsigned char)(i >> 8), a[15] = (unsigned char)i;
	} else if (i < 255) {
		a[0] = 192, a[2] = 2, a[3] = (unsigned char)i;
	} else {	/* more than a documentation block holds: 240.0.0.0/4 */
		a[0] = (unsigned char)(240 | ((i >> 24) & 0xf));
		a[1] = (unsigned char)(i >> 16), a[2] = (unsigned char)(i >> 8);
		a[3] = (unsigned char)i;
	}
}

/* Where an unrandomised x86-64 kernel's text starts. */
#define TEXT_BASE	0xffffffff81000000ULL
#define KASLR_ALIGN	0x200000ULL

/* SYSTEM keys that stay: what the kernel and tipme are, not whose. */
static const char *const keep_keys[] = {
	"sysname", "release", "version", "machine", "module_version",
	"tipme_version", "online_cpus", "blockdev.", "irq.",
};

struct lockmap {
	uint64_t *addr;
	size_t n, cap;
};

/* The opaque number of lock address @a: 1, 2, ... in order of first use. */
static uint64_t lock_id(struct lockmap *m, uint64_t a, int *oom)
{
	uint64_t *na;
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->addr[i] == a)
			return i + 1;
	if (m->n == m->cap) {
		na = realloc(m->addr, (m->cap ? 2 * m->cap : 64) * sizeof(*na));
		if (!na) {
			*oom = 1;
			return 0;
		}
		m->addr = na;
		m->cap = m->cap ? 2 * m->cap : 64;
	}
	m->addr[m->n++] = a;
	return m->n;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* The system section's lines whose key is in keep_keys. */
static char *system_kept(const struct pm_text *t, size_t *len, uint64_t *dropped)
{
	size_t pos = 0, n = 0, ll, k;
	char *out = malloc(t->len + 1);
	const char *line;

	if (!out)
		return NULL;
	while (pm_text_next(t, &pos, &line, &ll)) {
		int keep = 0;

		for (k = 0; k < sizeof(keep_keys) / sizeof(keep_keys[0]); k++) {
			size_t kl = strlen(keep_keys[k]);

			if (ll > kl && !memcmp(line, keep_keys[k], kl) &&
			    (keep_keys[k][kl - 1] == '.' || line[kl] == '='))
				keep = 1;
		}
		if (!keep) {
			(*dropped)++;
			continue;
		}
		memcpy(out + n, line, ll);
		n += ll;
		out[n++] = '\n';
	}
	*len = n;
	return out;
}

/*
 * Rewrite the strings of every exec table entry in place: the executable
 * and argv[0] keep only their last path component, the other arguments
 * and the environment go.  Entries keep their size (zero-padded).
 */
static int exectab_redact(unsigned char *sec, size_t len,
			  struct pm_redact_stats *st, struct tm_err *e)
{
	struct tipme_exectab_hdr xh;
	struct tipme_exec x;
	size_t off, room;
	unsigned char *str;
	char *b0, tmp[512];
	size_t nexe, nargv0;
	const char *base;

	size_t hl;

	if (len < TIPME_EXECTAB_HDR_SIZE_V1)
		return tm_err_set(e, EINVAL, "exec table: shorter than its header");
	memset(&xh, 0, sizeof(xh));
	memcpy(&xh, sec, TIPME_EXECTAB_HDR_SIZE_V1);
	if (xh.hdr_size < TIPME_EXECTAB_HDR_SIZE_V1 || xh.hdr_size > len)
		return tm_err_set(e, EINVAL, "exec table: header size %u", xh.hdr_size);
	/* an older header is shorter: only its own bytes are rewritten */
	hl = xh.hdr_size < sizeof(xh) ? xh.hdr_size : sizeof(xh);
	memcpy(&xh, sec, hl);
	xh.flags &= ~TIPME_EXECTAB_ENV;
	xh.env_max = 0;
	memcpy(sec, &xh, hl);
	for (off = xh.hdr_size; off + sizeof(x) <= len; off += x.size) {
		memcpy(&x, sec + off, sizeof(x));
		if (x.size < sizeof(x) || x.size % 8 || x.size > len - off)
			return tm_err_set(e, EINVAL, "exec table: entry at %zu has size %u",
					  off, x.size);
		room = x.size - sizeof(x);
		if ((size_t)x.exe_len + x.argv_len + x.env_len > room)
			return tm_err_set(e, EINVAL, "exec table: entry at %zu: strings overflow it",
					  off);
		str = sec + off + sizeof(x);
		/* executable: its last component */
		nexe = x.exe_len < sizeof(tmp) - 1 ? x.exe_len : sizeof(tmp) - 1;
		memcpy(tmp, str, nexe);
		tmp[nexe] = '\0';
		base = strrchr(tmp, '/');
		base = base ? base + 1 : tmp;
		nexe = strlen(base);
		b0 = malloc(nexe + 1);
		if (!b0)
			return tm_err_set(e, ENOMEM, "out of memory");
		memcpy(b0, base, nexe + 1);
		if (x.exe_len && nexe < x.exe_len)
			st->exe_paths++;
		/* argv[0]: its last component; the rest goes */
		nargv0 = strnlen((const char *)str + x.exe_len, x.argv_len);
		memcpy(tmp, str + x.exe_len, nargv0 < sizeof(tmp) - 1 ? nargv0 : sizeof(tmp) - 1);
		tmp[nargv0 < sizeof(tmp) - 1 ? nargv0 : sizeof(tmp) - 1] = '\0';
		base = strrchr(tmp, '/');
		base = base ? base + 1 : tmp;
		if (x.argv_len > strlen(base) + 1)
			st->argv++;
		if (x.env_len)
			st->env++;
		memset(str, 0, room);
		memcpy(str, b0, nexe);
		free(b0);
		x.exe_len = (uint16_t)nexe;
		x.argv_len = x.argv_len ? (uint16_t)(strlen(base) + 1) : 0;
		memcpy(str + x.exe_len, base, x.argv_len);
		x.env_len = 0;
		x.flags &= ~(TIPME_EXEC_ENV | TIPME_EXEC_ENV_TRUNC);
		if (x.argv_len)
			x.flags |= TIPME_EXEC_ARGV_TRUNC;
		memcpy(sec + off, &x, sizeof(x));
	}
	return 0;
}

/* Shift every symbol's address down by @delta (the section is sorted and
 * stays so). */
static void symbols_shift(unsigned char *sec, size_t len, uint64_t delta,
			  struct pm_redact_stats *st)
{
	uint64_t count, i, a;

	if (len < 8)
		return;
	memcpy(&count, sec, 8);
	for (i = 0; i < count && 8 + (i + 1) * sizeof(struct tipme_sym) <= len; i++) {
		unsigned char *p = sec + 8 + i * sizeof(struct tipme_sym);

		memcpy(&a, p, 8);
		a -= delta;
		memcpy(p, &a, 8);
		st->symbols++;
	}
}

/* The KASLR slide, from the lowest symbol (the kernel's own text). */
static uint64_t kaslr_slide(const unsigned char *sec, size_t len)
{
	uint64_t count, lo = UINT64_MAX, a, i;

	if (len < 8)
		return 0;
	memcpy(&count, sec, 8);
	for (i = 0; i < count && 8 + (i + 1) * sizeof(struct tipme_sym) <= len; i++) {
		memcpy(&a, sec + 8 + i * sizeof(struct tipme_sym), 8);
		if (a >= TEXT_BASE && a < lo)
			lo = a;
	}
	if (lo == UINT64_MAX)
		return 0;
	return (lo - TEXT_BASE) & ~(KASLR_ALIGN - 1);
}

/* Shift every address of the site table down by @delta (a section the
 * open checked). */
static void sites_shift(unsigned char *sec, size_t len, uint64_t delta,
			struct pm_redact_stats *st)
{
	struct tipme_site site;
	uint32_t hsize, k;
	size_t off;

	if (len < sizeof(hsize))
		return;
	memcpy(&hsize, sec, sizeof(hsize));
	for (off = hsize; off + sizeof(site) <= len;) {
		memcpy(&site, sec + off, sizeof(site));
		off += sizeof(site);
		for (k = 0; k < site.nr && off + 4 <= len; k++, off += 4) {
			put32(sec + off, get32(sec + off) - (uint32_t)delta);
			st->text_addrs++;
		}
	}
}

/* Rewrite the addresses in the records of every CPU stream, in @buf (a
 * copy of the file). */
static int records_redact(const struct pm_dump *pm, unsigned char *buf,
			  uint64_t delta, struct pm_redact_stats *st,
			  struct tm_err *e)
{
	struct lockmap locks = { 0 };
	struct hostmap hosts = { 0 };
	struct pm_event ev;
	struct pm_dec d;
	unsigned char *p, *a;
	size_t off, k, n;
	uint32_t i;
	int rc = 0, oom = 0;
	uint16_t code;
	uint64_t id;

	for (i = 0; i < pm->nr_cpus && !oom; i++) {
		pm_dec_init(&d, pm, &pm->cpus[i]);
		while ((rc = pm_dec_next(&d, &ev, e)) == 1) {
			if (ev.kind != PM_EV_RECORD)
				continue;
			if (ev.raw_type != ev.type)
				continue;	/* compact: no address, or in the site table */
			off = (size_t)(ev.payload - (const unsigned char *)pm->d.buf);
			p = buf + off;
			switch (ev.type) {
			case TIPME_REC_BLOCKED:
			case TIPME_REC_RECLAIM_BEGIN:
				a = buf + (pm_rec_addrs(&ev, &n) -
					   (const unsigned char *)pm->d.buf);
				for (k = 0; k < n; k++)
					put32(a + 4 * k, get32(a + 4 * k) - (uint32_t)delta);
				st->text_addrs += n;
				break;
			case TIPME_REC_INPUT:
				/*
				 * A key's code is what was typed: it goes.  A
				 * hotkey's (tipme's own Ctrl-Alt chords, not
				 * text) and a button's stay.
				 */
				if (ev.payload_len < sizeof(struct tipme_rec_input) ||
				    p[0] != TIPME_INPUT_KEY)
					break;
				memcpy(&code, p + offsetof(struct tipme_rec_input, code),
				       sizeof(code));
				if (!code)
					break;
				memset(p + offsetof(struct tipme_rec_input, code), 0,
				       sizeof(code));
				st->key_codes++;
				break;
			case TIPME_REC_LOCK_BEGIN:
			case TIPME_REC_LOCK_END:
				if (ev.payload_len < 8)
					break;
				id = lock_id(&locks, (uint64_t)get32(p + 4) << 32 | get32(p), &oom);
				put32(p, (uint32_t)id);
				put32(p + 4, 0);
				st->lock_addrs++;
				break;
			case TIPME_REC_NET_RECV:
			case TIPME_REC_NET_SEND:
				/* whom the machine talked to, and its own address */
				if (ev.payload_len < sizeof(struct tipme_rec_net))
					break;
				host_replace(&hosts, p[offsetof(struct tipme_rec_net, family)],
					     p + offsetof(struct tipme_rec_net, laddr), &oom);
				host_replace(&hosts, p[offsetof(struct tipme_rec_net, family)],
					     p + offsetof(struct tipme_rec_net, raddr), &oom);
				st->net_addrs += 2;
				break;
			default:
				break;
			}
		}
		if (rc < 0)
			break;
	}
	st->locks = locks.n;
	st->hosts = hosts.n;
	free(locks.addr);
	free(hosts.addr);
	if (oom)
		return tm_err_set(e, ENOMEM, "out of memory");
	return rc < 0 ? rc : 0;
}

/*
 * Kept user stacks (--keep-user-stacks): each mapping of a process moves
 * to a made-up address, the first at 1 TiB, each next one 4 GiB past the
 * previous one's end (rounded up to 4 GiB), so the process's layout (its
 * ASLR bases, the distances between its files) is gone and a chain's
 * address still lies at the same offset of the same file.
 */
#define FAKE_BASE	0x10000000000ULL
#define FAKE_ALIGN	0x100000000ULL

/* The made-up start of each of @in's mappings, in their order (by pid, start). */
static uint64_t *fake_starts(const struct pm_instr *in)
{
	uint64_t *f = malloc((in->nr_maps ? in->nr_maps : 1) * sizeof(*f)), cur = FAKE_BASE;
	size_t i;

	for (i = 0; f && i < in->nr_maps; i++) {
		const struct pm_map *m = &in->maps[i];

		if (i && m->pid != in->maps[i - 1].pid)
			cur = FAKE_BASE;
		f[i] = cur;
		cur += m->end - m->start;
		cur = (cur + 2 * FAKE_ALIGN - 1) & ~(FAKE_ALIGN - 1);
	}
	return f;
}

/* The mapping of @pid holding @a: its index in @in->maps, or -1. */
static int64_t map_index(const struct pm_instr *in, uint32_t pid, uint64_t a)
{
	size_t lo = 0, hi = in->nr_maps;

	while (lo < hi) {	/* the first mapping after (pid, a) */
		size_t mid = lo + (hi - lo) / 2;
		const struct pm_map *m = &in->maps[mid];

		if (m->pid < pid || (m->pid == pid && m->start <= a))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && in->maps[lo - 1].pid == pid && a < in->maps[lo - 1].end)
		return (int64_t)(lo - 1);
	return -1;
}

/*
 * The user stack table with every address moved with its mapping
 * (fake_starts()), or 0 when no mapping of its process holds it.
 */
static void ustacks_keep(const struct pm_instr *in, const uint64_t *fake,
			 unsigned char *sec, size_t len, struct pm_redact_stats *st)
{
	size_t off = len >= 4 ? get32(sec) : len, k;

	while (off + sizeof(struct tipme_ustack) <= len) {
		struct tipme_ustack u;

		memcpy(&u, sec + off, sizeof(u));
		off += sizeof(u);
		for (k = 0; k < u.nr && off + 8 <= len; k++, off += 8) {
			uint64_t a;
			int64_t i;

			memcpy(&a, sec + off, 8);
			i = map_index(in, u.pid, a);
			if (i >= 0) {
				a = fake[i] + (a - in->maps[i].start);
				st->user_addrs++;
			} else {
				a = 0;
				st->user_addrs_dropped++;
			}
			memcpy(sec + off, &a, 8);
		}
	}
}

/*
 * The mappings at their made-up addresses, each file by its last
 * component (no folder: whose home it is), the build-id kept so that the
 * reader's tools find the same file.
 */
static char *maps_keep(const struct pm_instr *in, const uint64_t *fake, size_t *len,
		       struct pm_redact_stats *st)
{
	size_t cap = 1, used = 0, i;
	char *t;

	for (i = 0; i < in->nr_maps; i++)
		cap += 96 + (in->maps[i].build_id ? strlen(in->maps[i].build_id) : 1) +
		       strlen(in->maps[i].name);
	t = malloc(cap);
	for (i = 0; t && i < in->nr_maps; i++) {
		const struct pm_map *m = &in->maps[i];
		int vdso = !strcmp(m->path, PM_VDSO_PATH);

		used += (size_t)snprintf(t + used, cap - used, "%" PRIu32 " %" PRIx64 " %" PRIx64
					 " %" PRIx64 " %s %s%s\n", m->pid, fake[i],
					 fake[i] + (m->end - m->start), m->off,
					 m->build_id ? m->build_id : "-", vdso ? "" : "/",
					 m->name);
		st->map_paths += !vdso && strcmp(m->path + 1, m->name) != 0;
	}
	*len = used;
	return t;
}

int pm_redact(const char *in, const char *out, int keep_ustacks,
	      struct pm_redact_stats *st, struct tm_err *e)
{
	struct tipme_file_header fh;
	unsigned char *buf = NULL;
	char *sys = NULL, *maps = NULL;
	uint64_t *fake = NULL;
	size_t mapslen = 0;
	struct pm_dump pm;
	struct tm_dumpw w;
	uint64_t delta = 0;
	size_t i, syslen = 0;
	int err;

	memset(st, 0, sizeof(*st));
	err = pm_open(&pm, in, 0, e);
	if (err)
		goto out;
	buf = malloc(pm.d.size ? pm.d.size : 1);
	if (!buf) {
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out;
	}
	memcpy(buf, pm.d.buf, pm.d.size);
	for (i = 0; i < pm.d.nr_secs; i++)
		if (pm.d.secs[i].h.type == TIPME_SEC_SYMBOLS)
			delta = kaslr_slide(pm.d.secs[i].data, pm.d.secs[i].h.size);
	st->kaslr_slide_removed = delta != 0;
	err = records_redact(&pm, buf, delta, st, e);
	if (err)
		goto out;
	sys = system_kept(&pm.system, &syslen, &st->system_keys);
	if (!sys) {
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out;
	}
	if (keep_ustacks && pm.instr) {
		fake = fake_starts(pm.instr);
		maps = fake ? maps_keep(pm.instr, fake, &mapslen, st) : NULL;
		if (!maps) {
			err = tm_err_set(e, ENOMEM, "out of memory");
			goto out;
		}
	}
	fh = pm.d.hdr;
	fh.flags |= TIPME_FILE_REDACTED;
	/* No key code is left: the copy no longer says it may hold some. */
	fh.flags &= ~TIPME_FILE_KEYLOG;
	err = tm_dumpw_open(&w, out, &fh, TM_DUMPW_NOREPLACE, e);
	if (err)
		goto out;
	for (i = 0; i < pm.d.nr_secs && !err; i++) {
		const struct tm_dump_sec *s = &pm.d.secs[i];
		unsigned char *data = buf + (s->data - (const unsigned char *)pm.d.buf);

		switch (s->h.type) {
		case TIPME_SEC_SYSTEM:
			err = tm_dumpw_section(&w, s->h.type, s->h.cpu, sys, syslen, e);
			continue;
		case TIPME_SEC_EXECTAB:
			err = exectab_redact(data, s->h.size, st, e);
			break;
		case TIPME_SEC_SYMBOLS:
			symbols_shift(data, s->h.size, delta, st);
			break;
		case TIPME_SEC_SITES:
			sites_shift(data, s->h.size, delta, st);
			break;
		case TIPME_SEC_USTACKS:
			if (fake) {
				ustacks_keep(pm.instr, fake, data, s->h.size, st);
				st->user_kept = 1;
				break;
			}
			/* fall through */
		case TIPME_SEC_MAPS:
		case TIPME_SEC_VDSO:
		case TIPME_SEC_XMAPS:
			/*
			 * The module's captured mappings: what the kept
			 * chains need of them is in the maps written above.
			 */
			if (fake && s->h.type == TIPME_SEC_XMAPS)
				continue;
			if (fake && s->h.type == TIPME_SEC_VDSO)
				break;	/* the kernel's image: nothing of the user's */
			if (fake && s->h.type == TIPME_SEC_MAPS) {
				err = tm_dumpw_section(&w, s->h.type, s->h.cpu, maps, mapslen, e);
				continue;
			}
			/*
			 * User-space addresses give away the layout, and the
			 * mapped files' paths whose home they are: left out
			 * (the chains' records then name no chain).
			 */
			st->user_sections++;
			continue;
		default:
			break;
		}
		if (!err)
			err = tm_dumpw_section(&w, s->h.type, s->h.cpu, data, s->h.size, e);
	}
	if (!err)
		err = tm_dumpw_commit(&w, e);
	else
		tm_dumpw_abort(&w);
out:
	free(sys);
	free(maps);
	free(fake);
	free(buf);
	pm_close(&pm);
	return err;
}
