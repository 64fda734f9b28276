// SPDX-License-Identifier: GPL-2.0
/*
 * Receive a TIPME_CMD_DUMP stream and write it as a dump file.
 *
 * The stream is META, then for each CPU its sub-buffers as CHUNKs closed by
 * a SUBBUF_END that says whether the copy is intact, then CPU_END with the
 * CPU's counters, and last a TRAILER with the clock pairs.  Sub-buffers
 * are kept in memory until their SUBBUF_END, then appended to the CPU's
 * section; the file is only given its name once everything arrived.
 *
 * When /dev/tipme opens, the dump is a mapped one instead: the rings are
 * mapped read-only, the stream names each sub-buffer (SUBBUF_MAP) instead
 * of carrying its bytes, and they go from the mapping to the file in
 * batches, each checked afterwards with TIPME_IOC_RING_CHECK; a batch some
 * of which writers overtook meanwhile is taken back and written again
 * without those.  The reader thaws a frozen window once it has every ring.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "dumpfile.h"
#include "nl.h"
#include "sysinfo.h"

/* Kept sub-buffers are written out in appends of about this much. */
#define PEND_FLUSH	(256 * 1024)
/* A mapped dump writes and checks this many sub-buffers at a time. */
#define MAP_BATCH	16
#define RING_DEV	"/dev/" TIPME_DEV_NAME

uint64_t tnl_dump_section_bytes = TM_DUMP_STREAM_SECTION;

/* A sub-buffer of a mapped dump waiting to be written. */
struct map_sub {
	struct tipme_subbuf hdr;
	const unsigned char *data;
};

struct dump_rx {
	struct tm_dumpw w;
	int opened;
	const char *path;
	struct tm_err *e;
	int err;
	int saw_trailer;
	int cur_cpu;		/* CPU whose section is open, or -1 */
	uint64_t sub_seq;
	int in_sub;
	uint32_t in_table;	/* the table section open (exec table, sites), or 0 */
	/*
	 * Sub-buffers received and kept (each with its struct tipme_subbuf),
	 * written out in large appends, then the one being received, after
	 * room for its header at @sub_start.
	 */
	unsigned char *pend;
	size_t pend_len;
	size_t pend_cap;
	size_t sub_start;
	uint32_t sub_len;
	struct tipme_cpu_stats *stats;
	size_t nstats;
	struct tnl_dump_stats out;
	/* A mapped dump: the device (or a stand-in for tests) and the map. */
	int mapped;
	int devfd;
	const struct tnl_dump_fake *fake;
	const unsigned char **map;	/* per CPU, mapped when first named */
	size_t ring_len;
	uint32_t sub_size;
	uint32_t nsub;
	uint32_t nr_cpus;
	uint32_t freeze_gen;
	int rings_done;		/* every ring was read: thaw the window */
	int have_last;
	uint64_t last_seq;	/* of the CPU open, for the order check */
	uint32_t cpu_discarded;	/* of the CPU open: overtaken while written */
	uint32_t cpu_bad;	/* of the CPU open: SUBBUF_END not ok */
	struct map_sub batch[MAP_BATCH];
	int nbatch;
	/* processes with a chain in the user stack table: their mappings */
	uint32_t *upids;
	size_t nupids;
	size_t upids_cap;
	/* the module's captured mappings (TIPME_SEC_XMAPS), as written */
	unsigned char *xmaps;
	size_t xmaps_len;
};

static struct nla_policy dump_policy[TIPME_ATTR_MAX + 1] = {
	[TIPME_ATTR_DUMP_PART] = { .type = NLA_U32 },
	[TIPME_ATTR_VERSION] = { .type = NLA_STRING },
	[TIPME_ATTR_NR_CPUS] = { .type = NLA_U32 },
	[TIPME_ATTR_CLOCK_SOURCE] = { .type = NLA_U32 },
	[TIPME_ATTR_TSC_KHZ] = { .type = NLA_U64 },
	[TIPME_ATTR_REC_TYPES] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_PARAMS] = { .type = NLA_STRING },
	[TIPME_ATTR_CPU] = { .type = NLA_U32 },
	[TIPME_ATTR_SUBBUF_SEQ] = { .type = NLA_U64 },
	[TIPME_ATTR_OFFSET] = { .type = NLA_U32 },
	[TIPME_ATTR_DATA] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_SUBBUF_LEN] = { .type = NLA_U32 },
	[TIPME_ATTR_SUBBUF_FLAGS] = { .type = NLA_U32 },
	[TIPME_ATTR_SUBBUF_OK] = { .type = NLA_U8 },
	[TIPME_ATTR_CPU_STATS] = { .type = NLA_NESTED },
	[TIPME_ATTR_CLOCK_PAIRS] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_EXEC_HDR] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_EXEC_ENTRIES] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_COST_TOTALS] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_ENV_CAPTURE] = { .type = NLA_U8 },
	[TIPME_ATTR_KEYLOG] = { .type = NLA_U8 },
	[TIPME_ATTR_SITE_HDR] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_SITE_ENTRIES] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_SUBBUF_SIZE] = { .type = NLA_U32 },
	[TIPME_ATTR_SUBBUFS] = { .type = NLA_U32 },
	[TIPME_ATTR_FREEZE_GEN] = { .type = NLA_U32 },
	[TIPME_ATTR_USTACK_HDR] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_USTACK_ENTRIES] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_XMAP_HDR] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_XMAP_ENTRIES] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_SMPSNAP_HDR] = { .type = NLA_UNSPEC },
	[TIPME_ATTR_SMPSNAP_ENTRIES] = { .type = NLA_UNSPEC },
};

static int rx_fail(struct dump_rx *rx, int errnum, const char *msg)
{
	if (!rx->err)
		rx->err = tm_err_set(rx->e, errnum, "dump: %s", msg);
	return NL_STOP;
}

/* Note the rings' geometry from META; they are mapped as they are named. */
static int map_rings(struct dump_rx *rx, struct nlattr **a)
{
	uint64_t ring, total;

	if (!a[TIPME_ATTR_SUBBUF_SIZE] || !a[TIPME_ATTR_SUBBUFS])
		return rx_fail(rx, EBADMSG, "META message without the ring geometry");
	rx->sub_size = nla_get_u32(a[TIPME_ATTR_SUBBUF_SIZE]);
	rx->nsub = nla_get_u32(a[TIPME_ATTR_SUBBUFS]);
	rx->nr_cpus = nla_get_u32(a[TIPME_ATTR_NR_CPUS]);
	if (rx->sub_size < 4096 || rx->sub_size > (1U << 20) ||
	    (rx->sub_size & (rx->sub_size - 1)) || rx->nsub < 2 ||
	    (rx->nsub & (rx->nsub - 1)) || rx->nsub > (1U << 24) ||
	    !rx->nr_cpus || rx->nr_cpus > 65536)
		return rx_fail(rx, EBADMSG, "META message with an impossible ring geometry");
	ring = (uint64_t)rx->sub_size * rx->nsub;
	total = ring * rx->nr_cpus;
	if (total / rx->nr_cpus != ring || total > SIZE_MAX)
		return rx_fail(rx, EFBIG, "the rings are too large to map");
	if (rx->fake && total > rx->fake->map_len)
		return rx_fail(rx, EBADMSG, "rings larger than the mapping");
	rx->map = calloc(rx->nr_cpus, sizeof(*rx->map));
	if (!rx->map)
		return rx_fail(rx, ENOMEM, "out of memory");
	rx->ring_len = (size_t)ring;
	if (a[TIPME_ATTR_FREEZE_GEN])
		rx->freeze_gen = nla_get_u32(a[TIPME_ATTR_FREEZE_GEN]);
	return NL_OK;
}

static int on_meta(struct dump_rx *rx, struct nlattr **a)
{
	struct tipme_file_header fh;
	struct tipme_rectype *types;
	size_t ntypes;
	char *sys;
	int err;

	if (rx->opened)
		return rx_fail(rx, EBADMSG, "second META message");
	if (!a[TIPME_ATTR_NR_CPUS] || !a[TIPME_ATTR_CLOCK_SOURCE] ||
	    !a[TIPME_ATTR_TSC_KHZ] || !a[TIPME_ATTR_REC_TYPES] ||
	    nla_len(a[TIPME_ATTR_REC_TYPES]) % sizeof(*types))
		return rx_fail(rx, EBADMSG, "META message incomplete");
	memset(&fh, 0, sizeof(fh));
	fh.tsc_khz = nla_get_u64(a[TIPME_ATTR_TSC_KHZ]);
	fh.clock_source = nla_get_u32(a[TIPME_ATTR_CLOCK_SOURCE]);
	fh.nr_cpus = nla_get_u32(a[TIPME_ATTR_NR_CPUS]);
	if (fh.clock_source == TIPME_CLOCK_LOCAL)
		fh.flags |= TIPME_FILE_CLOCK_FALLBACK;
	if (a[TIPME_ATTR_ENV_CAPTURE] && nla_get_u8(a[TIPME_ATTR_ENV_CAPTURE]))
		fh.flags |= TIPME_FILE_ENV_CAPTURED;
	/* key codes were recorded at some point since load: they may be in the rings */
	if (a[TIPME_ATTR_KEYLOG] && nla_get_u8(a[TIPME_ATTR_KEYLOG]))
		fh.flags |= TIPME_FILE_KEYLOG;
	if (rx->mapped && map_rings(rx, a) != NL_OK)
		return NL_STOP;
	err = tm_dumpw_open(&rx->w, rx->path, &fh, 0, rx->e);
	if (err) {
		rx->err = err;
		return NL_STOP;
	}
	rx->opened = 1;
	types = nla_data(a[TIPME_ATTR_REC_TYPES]);
	ntypes = nla_len(a[TIPME_ATTR_REC_TYPES]) / sizeof(*types);
	err = tm_dumpw_section(&rx->w, TIPME_SEC_RECTYPES, 0, types,
			    ntypes * sizeof(*types), rx->e);
	if (!err && a[TIPME_ATTR_PARAMS])
		err = tm_dumpw_section(&rx->w, TIPME_SEC_PARAMS, 0,
				    nla_data(a[TIPME_ATTR_PARAMS]),
				    strnlen(nla_data(a[TIPME_ATTR_PARAMS]),
					    nla_len(a[TIPME_ATTR_PARAMS])),
				    rx->e);
	if (!err) {
		sys = sysinfo_text(a[TIPME_ATTR_VERSION] ?
				   nla_get_string(a[TIPME_ATTR_VERSION]) : "?");
		if (!sys)
			return rx_fail(rx, ENOMEM, "out of memory");
		err = tm_dumpw_section(&rx->w, TIPME_SEC_SYSTEM, 0, sys,
				    strlen(sys), rx->e);
		free(sys);
	}
	if (err)
		rx->err = err;
	return err ? NL_STOP : NL_OK;
}

static int open_cpu(struct dump_rx *rx, uint32_t cpu)
{
	int err;

	if (rx->cur_cpu == (int)cpu)
		return 0;
	if (rx->cur_cpu >= 0)
		return tm_err_set(rx->e, EBADMSG,
				  "dump: CPU %u data before CPU %d ended",
				  cpu, rx->cur_cpu);
	err = tm_dumpw_section_begin(&rx->w, TIPME_SEC_CPU_STREAM, cpu, rx->e);
	if (!err) {
		rx->cur_cpu = (int)cpu;
		rx->have_last = 0;
		rx->cpu_discarded = 0;
		rx->cpu_bad = 0;
	}
	return err;
}

static int on_chunk(struct dump_rx *rx, struct nlattr **a)
{
	uint32_t cpu, off, len;
	uint64_t seq;
	int err;

	if (!a[TIPME_ATTR_CPU] || !a[TIPME_ATTR_SUBBUF_SEQ] ||
	    !a[TIPME_ATTR_OFFSET] || !a[TIPME_ATTR_DATA])
		return rx_fail(rx, EBADMSG, "CHUNK message incomplete");
	cpu = nla_get_u32(a[TIPME_ATTR_CPU]);
	seq = nla_get_u64(a[TIPME_ATTR_SUBBUF_SEQ]);
	off = nla_get_u32(a[TIPME_ATTR_OFFSET]);
	len = nla_len(a[TIPME_ATTR_DATA]);
	err = open_cpu(rx, cpu);
	if (err) {
		rx->err = err;
		return NL_STOP;
	}
	if (!rx->in_sub || rx->sub_seq != seq) {
		if (off)
			return rx_fail(rx, EBADMSG, "sub-buffer starts mid-way");
		rx->in_sub = 1;
		rx->sub_seq = seq;
		rx->sub_len = 0;
		rx->sub_start = rx->pend_len + sizeof(struct tipme_subbuf);
	}
	if (off != rx->sub_len || len > (1U << 30) - off)
		return rx_fail(rx, EBADMSG, "chunk out of order");
	if (rx->sub_start + off + len > rx->pend_cap) {
		size_t cap = rx->pend_cap ? rx->pend_cap : PEND_FLUSH * 2;
		unsigned char *p;

		while (cap < rx->sub_start + off + len)
			cap *= 2;
		p = realloc(rx->pend, cap);
		if (!p)
			return rx_fail(rx, ENOMEM, "out of memory");
		rx->pend = p;
		rx->pend_cap = cap;
	}
	memcpy(rx->pend + rx->sub_start + off, nla_data(a[TIPME_ATTR_DATA]), len);
	rx->sub_len += len;
	return NL_OK;
}

/* CPU @cpu's ring, mapped now if it was not yet; NULL after an error. */
static const unsigned char *cpu_ring(struct dump_rx *rx, uint32_t cpu)
{
	void *p;

	if (rx->map[cpu])
		return rx->map[cpu];
	if (rx->fake) {
		rx->map[cpu] = rx->fake->map + (size_t)cpu * rx->ring_len;
		return rx->map[cpu];
	}
	p = mmap(NULL, rx->ring_len, PROT_READ, MAP_SHARED, rx->devfd,
		 (off_t)((uint64_t)cpu * rx->ring_len));
	if (p == MAP_FAILED) {
		if (!rx->err)
			rx->err = tm_err_set(rx->e, errno,
					     "dump: mapping CPU %u's ring from %s: %s",
					     cpu, RING_DEV, strerror(errno));
		return NULL;
	}
	rx->map[cpu] = p;
	return p;
}

/*
 * Before whole sub-buffers are appended to the open CPU's section: once
 * it holds tnl_dump_section_bytes, end it and go on in a new section of
 * the same CPU.  Only here, between appends, so a section always ends at
 * a sub-buffer's end and a batch's mark and rewind stay in one section.
 */
static int section_room(struct dump_rx *rx)
{
	struct tm_dumpw_mark m;
	int err;

	tm_dumpw_section_mark(&rx->w, &m);
	if (m.size < tnl_dump_section_bytes)
		return 0;
	err = tm_dumpw_section_end(&rx->w, rx->e);
	if (!err)
		err = tm_dumpw_section_begin(&rx->w, TIPME_SEC_CPU_STREAM,
					     (uint32_t)rx->cur_cpu, rx->e);
	return err;
}

/*
 * Write the batch of mapped sub-buffers, then ask whether writers overtook
 * any of them meanwhile: those are the oldest, so the batch is taken back
 * and written again without them.
 */
static int flush_batch(struct dump_rx *rx)
{
	struct iovec iov[2 * MAP_BATCH];
	struct tipme_ring_check chk;
	struct tm_dumpw_mark m;
	int i, k, err;

	while (rx->nbatch) {
		err = section_room(rx);
		if (err)
			return err;
		tm_dumpw_section_mark(&rx->w, &m);
		for (i = 0; i < rx->nbatch; i++) {
			iov[2 * i].iov_base = &rx->batch[i].hdr;
			iov[2 * i].iov_len = sizeof(rx->batch[i].hdr);
			iov[2 * i + 1].iov_base = (void *)rx->batch[i].data;
			iov[2 * i + 1].iov_len = rx->batch[i].hdr.len;
		}
		err = tm_dumpw_section_appendv(&rx->w, iov, 2 * rx->nbatch, rx->e);
		if (err)
			return err;
		memset(&chk, 0, sizeof(chk));
		chk.cpu = (uint32_t)rx->cur_cpu;
		if (rx->fake)
			chk.oldest_intact = rx->fake->oldest_intact;
		else if (ioctl(rx->devfd, TIPME_IOC_RING_CHECK, &chk))
			return tm_err_set(rx->e, errno, "dump: checking CPU %d's ring: %s",
					  rx->cur_cpu, strerror(errno));
		for (k = 0; k < rx->nbatch && rx->batch[k].hdr.seq < chk.oldest_intact; k++)
			;
		if (!k) {
			for (i = 0; i < rx->nbatch; i++)
				rx->out.bytes += rx->batch[i].hdr.len;
			rx->out.subbufs += (uint64_t)rx->nbatch;
			rx->nbatch = 0;
			break;
		}
		err = tm_dumpw_section_rewind(&rx->w, &m, rx->e);
		if (err)
			return err;
		rx->out.discarded += (uint64_t)k;
		rx->cpu_discarded += (uint32_t)k;
		rx->nbatch -= k;
		memmove(rx->batch, rx->batch + k, rx->nbatch * sizeof(rx->batch[0]));
	}
	return 0;
}

static int on_subbuf_map(struct dump_rx *rx, struct nlattr **a)
{
	const unsigned char *ring;
	struct map_sub *sub;
	uint32_t cpu, len;
	uint64_t seq;
	int err;

	if (!rx->mapped)
		return rx_fail(rx, EBADMSG, "SUBBUF_MAP in a dump that is not mapped");
	if (!a[TIPME_ATTR_CPU] || !a[TIPME_ATTR_SUBBUF_SEQ] ||
	    !a[TIPME_ATTR_SUBBUF_LEN])
		return rx_fail(rx, EBADMSG, "SUBBUF_MAP message incomplete");
	cpu = nla_get_u32(a[TIPME_ATTR_CPU]);
	seq = nla_get_u64(a[TIPME_ATTR_SUBBUF_SEQ]);
	len = nla_get_u32(a[TIPME_ATTR_SUBBUF_LEN]);
	if (cpu >= rx->nr_cpus || len > rx->sub_size || len % 4)
		return rx_fail(rx, EBADMSG, "SUBBUF_MAP outside the rings");
	err = open_cpu(rx, cpu);
	if (err) {
		rx->err = err;
		return NL_STOP;
	}
	if (rx->have_last && seq <= rx->last_seq)
		return rx_fail(rx, EBADMSG, "sub-buffers out of order");
	rx->have_last = 1;
	rx->last_seq = seq;
	if (!len)
		return NL_OK;
	ring = cpu_ring(rx, cpu);
	if (!ring)
		return NL_STOP;
	if (rx->nbatch == MAP_BATCH) {
		err = flush_batch(rx);
		if (err) {
			rx->err = err;
			return NL_STOP;
		}
	}
	sub = &rx->batch[rx->nbatch++];
	memset(&sub->hdr, 0, sizeof(sub->hdr));
	sub->hdr.seq = seq;
	sub->hdr.len = len;
	sub->hdr.flags = a[TIPME_ATTR_SUBBUF_FLAGS] ?
			 nla_get_u32(a[TIPME_ATTR_SUBBUF_FLAGS]) : 0;
	sub->data = ring + (size_t)(seq & (rx->nsub - 1)) * rx->sub_size;
	return NL_OK;
}

/* Write the kept sub-buffers into the CPU's section. */
static int flush_pend(struct dump_rx *rx)
{
	int err;

	if (!rx->pend_len)
		return 0;
	err = section_room(rx);
	if (!err)
		err = tm_dumpw_section_append(&rx->w, rx->pend, rx->pend_len, rx->e);
	rx->pend_len = 0;
	return err;
}

static int on_subbuf_end(struct dump_rx *rx, struct nlattr **a)
{
	struct tipme_subbuf sb;
	int err;

	if (!a[TIPME_ATTR_CPU] || !a[TIPME_ATTR_SUBBUF_SEQ] ||
	    !a[TIPME_ATTR_SUBBUF_LEN] || !a[TIPME_ATTR_SUBBUF_OK])
		return rx_fail(rx, EBADMSG, "SUBBUF_END message incomplete");
	err = open_cpu(rx, nla_get_u32(a[TIPME_ATTR_CPU]));
	if (err) {
		rx->err = err;
		return NL_STOP;
	}
	if (!rx->in_sub) {
		/* An empty partial sub-buffer sends no chunk. */
		rx->sub_len = 0;
		rx->sub_seq = nla_get_u64(a[TIPME_ATTR_SUBBUF_SEQ]);
	}
	if (rx->sub_seq != nla_get_u64(a[TIPME_ATTR_SUBBUF_SEQ]) ||
	    rx->sub_len != nla_get_u32(a[TIPME_ATTR_SUBBUF_LEN]) ||
	    rx->sub_len % 4)
		return rx_fail(rx, EBADMSG, "sub-buffer length mismatch");
	rx->in_sub = 0;
	if (!nla_get_u8(a[TIPME_ATTR_SUBBUF_OK])) {
		rx->out.discarded++;
		rx->cpu_bad++;
		return NL_OK;
	}
	if (!rx->sub_len)
		return NL_OK;
	memset(&sb, 0, sizeof(sb));
	sb.seq = rx->sub_seq;
	sb.len = rx->sub_len;
	sb.flags = a[TIPME_ATTR_SUBBUF_FLAGS] ?
		   nla_get_u32(a[TIPME_ATTR_SUBBUF_FLAGS]) : 0;
	/* Kept: its header goes in the room before it. */
	memcpy(rx->pend + rx->sub_start - sizeof(sb), &sb, sizeof(sb));
	rx->pend_len = rx->sub_start + rx->sub_len;
	err = rx->pend_len >= PEND_FLUSH ? flush_pend(rx) : 0;
	if (err) {
		rx->err = err;
		return NL_STOP;
	}
	rx->out.subbufs++;
	rx->out.bytes += rx->sub_len;
	return NL_OK;
}

static int on_cpu_end(struct dump_rx *rx, struct nlattr **a)
{
	struct tipme_cpu_stats st, *p;
	struct nlattr *entry;
	int rem, err;

	if (!a[TIPME_ATTR_CPU_STATS])
		return rx_fail(rx, EBADMSG, "CPU_END message incomplete");
	nla_for_each_nested(entry, a[TIPME_ATTR_CPU_STATS], rem) {
		if (tnl_parse_cpu_entry(entry, &st, NULL, NULL))
			return rx_fail(rx, EBADMSG, "malformed CPU counters");
		err = open_cpu(rx, st.cpu);
		if (!err)
			err = flush_pend(rx);
		if (!err)
			err = flush_batch(rx);
		/*
		 * The module's count has the sub-buffers it sent as not ok
		 * (counted above) and those it skipped unsent: overwritten,
		 * or a writer still in them.
		 */
		if (st.discarded_subbufs > rx->cpu_bad)
			rx->out.discarded += st.discarded_subbufs - rx->cpu_bad;
		st.discarded_subbufs += rx->cpu_discarded;
		if (!err)
			err = tm_dumpw_section_end(&rx->w, rx->e);
		if (err) {
			rx->err = err;
			return NL_STOP;
		}
		rx->cur_cpu = -1;
		rx->in_sub = 0;
		p = realloc(rx->stats, (rx->nstats + 1) * sizeof(*p));
		if (!p)
			return rx_fail(rx, ENOMEM, "out of memory");
		rx->stats = p;
		rx->stats[rx->nstats++] = st;
		rx->out.cpus++;
	}
	return NL_OK;
}

static int on_trailer(struct dump_rx *rx, struct nlattr **a)
{
	int err;

	if (!a[TIPME_ATTR_CLOCK_PAIRS] ||
	    nla_len(a[TIPME_ATTR_CLOCK_PAIRS]) % sizeof(struct tipme_clock_pair))
		return rx_fail(rx, EBADMSG, "TRAILER message incomplete");
	err = tm_dumpw_section(&rx->w, TIPME_SEC_CLOCKS, 0,
			    nla_data(a[TIPME_ATTR_CLOCK_PAIRS]),
			    nla_len(a[TIPME_ATTR_CLOCK_PAIRS]), rx->e);
	if (err) {
		rx->err = err;
		return NL_STOP;
	}
	rx->saw_trailer = 1;
	return NL_OK;
}

/*
 * Instrumentation parts: the exec table and the site table (a section each,
 * sent as a header and then entries over several messages) and cost totals.
 */
struct table_part {
	uint32_t sec;		/* section type */
	int hdr_attr;
	size_t hdr_size;
	int ent_attr;
	int align;		/* entries' total is a multiple of this */
	const char *what;
};

static const struct table_part exec_part = {
	TIPME_SEC_EXECTAB, TIPME_ATTR_EXEC_HDR, sizeof(struct tipme_exectab_hdr),
	TIPME_ATTR_EXEC_ENTRIES, 8, "exec table",
};

static const struct table_part site_part = {
	TIPME_SEC_SITES, TIPME_ATTR_SITE_HDR, sizeof(struct tipme_sitetab_hdr),
	TIPME_ATTR_SITE_ENTRIES, 4, "site table",
};

static const struct table_part ustack_part = {
	TIPME_SEC_USTACKS, TIPME_ATTR_USTACK_HDR, sizeof(struct tipme_sitetab_hdr),
	TIPME_ATTR_USTACK_ENTRIES, 8, "user stack table",
};

static const struct table_part xmap_part = {
	TIPME_SEC_XMAPS, TIPME_ATTR_XMAP_HDR, sizeof(struct tipme_xmaps_hdr),
	TIPME_ATTR_XMAP_ENTRIES, 8, "captured mappings",
};

/* No END part: the COST part that follows closes it (end_table()). */
static const struct table_part smpsnap_part = {
	TIPME_SEC_SMPSNAP, TIPME_ATTR_SMPSNAP_HDR, sizeof(struct tipme_smpsnap_hdr),
	TIPME_ATTR_SMPSNAP_ENTRIES, sizeof(struct tipme_smpsnap_ent),
	"sampler snapshot",
};

/* Keep a copy of the captured mappings, for the maps at the dump's end. */
static int keep_xmaps(struct dump_rx *rx, const void *p, size_t len)
{
	unsigned char *n = realloc(rx->xmaps, rx->xmaps_len + len);

	if (!n) {
		rx->err = tm_err_set(rx->e, ENOMEM, "out of memory");
		return rx->err;
	}
	memcpy(n + rx->xmaps_len, p, len);
	rx->xmaps = n;
	rx->xmaps_len += len;
	return 0;
}

/*
 * Note the processes of user stack table entries, whose mappings the dump
 * gets at its end; the entries are checked by the dump's reader, so a
 * malformed one only ends the scan.
 */
static int note_upids(struct dump_rx *rx, const unsigned char *p, size_t len)
{
	struct tipme_ustack u;
	size_t off = 0, i;

	while (len - off >= sizeof(u)) {
		memcpy(&u, p + off, sizeof(u));
		if (u.nr > (len - off - sizeof(u)) / sizeof(uint64_t))
			break;
		off += sizeof(u) + u.nr * sizeof(uint64_t);
		for (i = 0; i < rx->nupids && rx->upids[i] != u.pid; i++)
			;
		if (i < rx->nupids || !u.pid)
			continue;
		if (rx->nupids == rx->upids_cap) {
			size_t cap = rx->upids_cap ? 2 * rx->upids_cap : 64;
			uint32_t *n = realloc(rx->upids, cap * sizeof(*n));

			if (!n) {
				rx->err = tm_err_set(rx->e, ENOMEM, "out of memory");
				return rx->err;
			}
			rx->upids = n;
			rx->upids_cap = cap;
		}
		rx->upids[rx->nupids++] = u.pid;
	}
	return 0;
}

static int end_table(struct dump_rx *rx)
{
	int err;

	if (!rx->in_table)
		return 0;
	rx->in_table = 0;
	err = tm_dumpw_section_end(&rx->w, rx->e);
	if (err)
		rx->err = err;
	return err;
}

static int on_table(struct dump_rx *rx, struct nlattr **a,
		    const struct table_part *tp)
{
	struct nlattr *h = a[tp->hdr_attr], *x = a[tp->ent_attr];
	char msg[64];
	int err = 0;

	if (h) {
		if (rx->in_table || rx->cur_cpu >= 0 ||
		    nla_len(h) < (int)tp->hdr_size) {
			snprintf(msg, sizeof(msg), "%s header out of place", tp->what);
			return rx_fail(rx, EBADMSG, msg);
		}
		err = tm_dumpw_section_begin(&rx->w, tp->sec, 0, rx->e);
		if (!err)
			err = tm_dumpw_section_append(&rx->w, nla_data(h), nla_len(h),
						   rx->e);
		if (!err && tp == &xmap_part)
			err = keep_xmaps(rx, nla_data(h), nla_len(h));
		if (!err)
			rx->in_table = tp->sec;
	} else if (rx->in_table != tp->sec) {
		snprintf(msg, sizeof(msg), "%s entries before its header", tp->what);
		return rx_fail(rx, EBADMSG, msg);
	}
	if (!err && x && nla_len(x) % tp->align) {
		snprintf(msg, sizeof(msg), "malformed %s entries", tp->what);
		return rx_fail(rx, EBADMSG, msg);
	}
	if (!err && x)
		err = tm_dumpw_section_append(&rx->w, nla_data(x), nla_len(x), rx->e);
	if (!err && x && tp == &ustack_part)
		err = note_upids(rx, nla_data(x), nla_len(x));
	if (!err && x && tp == &xmap_part)
		err = keep_xmaps(rx, nla_data(x), nla_len(x));
	if (err)
		rx->err = err;
	return err ? NL_STOP : NL_OK;
}

static int on_cost(struct dump_rx *rx, struct nlattr **a)
{
	struct nlattr *c = a[TIPME_ATTR_COST_TOTALS];
	int err;

	if (!c || nla_len(c) % sizeof(struct tipme_cost_total))
		return rx_fail(rx, EBADMSG, "malformed cost totals");
	err = end_table(rx);
	if (!err)
		err = tm_dumpw_section(&rx->w, TIPME_SEC_COST, 0, nla_data(c),
				    nla_len(c), rx->e);
	if (err)
		rx->err = err;
	return err ? NL_STOP : NL_OK;
}

static int dump_cb(struct nl_msg *msg, void *arg)
{
	struct dump_rx *rx = arg;
	struct nlattr *a[TIPME_ATTR_MAX + 1];

	if (rx->err)
		return NL_STOP;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, a, TIPME_ATTR_MAX,
			  dump_policy) < 0 || !a[TIPME_ATTR_DUMP_PART])
		return rx_fail(rx, EBADMSG, "malformed message from the module");
	switch (nla_get_u32(a[TIPME_ATTR_DUMP_PART])) {
	case TIPME_PART_META:
		return on_meta(rx, a);
	}
	if (!rx->opened)
		return rx_fail(rx, EBADMSG, "data before the META message");
	switch (nla_get_u32(a[TIPME_ATTR_DUMP_PART])) {
	case TIPME_PART_EXECTAB:
	case TIPME_PART_SITES:
	case TIPME_PART_USTACKS:
	case TIPME_PART_XMAPS:
	case TIPME_PART_SMPSNAP:
	case TIPME_PART_COST:
	case TIPME_PART_TRAILER:
		/* after the rings: a mapped dump's reader has them all */
		rx->rings_done = rx->cur_cpu < 0;
		break;
	}
	switch (nla_get_u32(a[TIPME_ATTR_DUMP_PART])) {
	case TIPME_PART_SUBBUF_MAP:
		return on_subbuf_map(rx, a);
	case TIPME_PART_CHUNK:
		return on_chunk(rx, a);
	case TIPME_PART_SUBBUF_END:
		return on_subbuf_end(rx, a);
	case TIPME_PART_CPU_END:
		return on_cpu_end(rx, a);
	case TIPME_PART_EXECTAB:
		return on_table(rx, a, &exec_part);
	case TIPME_PART_SITES:
		return on_table(rx, a, &site_part);
	case TIPME_PART_USTACKS:
		return on_table(rx, a, &ustack_part);
	case TIPME_PART_XMAPS:
		return on_table(rx, a, &xmap_part);
	case TIPME_PART_SMPSNAP:
		return on_table(rx, a, &smpsnap_part);
	case TIPME_PART_EXECTAB_END:
	case TIPME_PART_SITES_END:
	case TIPME_PART_USTACKS_END:
	case TIPME_PART_XMAPS_END:
		return end_table(rx) ? NL_STOP : NL_OK;
	case TIPME_PART_COST:
		return on_cost(rx, a);
	case TIPME_PART_TRAILER:
		if (end_table(rx))
			return NL_STOP;
		return on_trailer(rx, a);
	default:
		return NL_OK;	/* a newer module's part: skip it */
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* After the stream: the rest of the file, then its name.  Return: 0 or -errno. */
static int finish(struct dump_rx *rx, struct symcache *syms, int with_symbols)
{
	int err;

	if (!rx->opened || !rx->saw_trailer)
		return tm_err_set(rx->e, EBADMSG,
				  "dump: the stream ended before its trailer (or tipme.ko sent nothing for %d s)",
				  TNL_REPLY_TIMEOUT_S);
	err = tm_dumpw_section(&rx->w, TIPME_SEC_CPU_STATS, 0, rx->stats,
			    rx->nstats * sizeof(*rx->stats), rx->e);
	if (!err && with_symbols)
		err = sysinfo_write_symbols(&rx->w, syms, rx->e);
	if (!err && with_symbols && rx->nupids)
		err = sysinfo_write_maps(&rx->w, rx->upids, rx->nupids,
					 rx->xmaps, rx->xmaps_len, rx->e);
	if (!err)
		err = tm_dumpw_commit(&rx->w, rx->e);
	if (!err)
		rx->opened = 0;
	return err;
}

static void release_rx(struct dump_rx *rx, double t0,
		       struct tnl_dump_stats *stats)
{
	if (rx->opened)
		tm_dumpw_abort(&rx->w);
	free(rx->pend);
	free(rx->stats);
	free(rx->upids);
	free(rx->xmaps);
	rx->out.mapped = rx->map != NULL;
	if (rx->map) {
		uint32_t c;

		for (c = 0; c < rx->nr_cpus && !rx->fake; c++)
			if (rx->map[c])
				munmap((void *)rx->map[c], rx->ring_len);
		free(rx->map);
	}
	if (rx->devfd >= 0)
		close(rx->devfd);
	rx->out.seconds = now_s() - t0;
	if (stats)
		*stats = rx->out;
}

/* A receiver writing @path, reading the rings through @devfd (or -1). */
static void rx_init(struct dump_rx *rx, const char *path, int devfd,
		    struct tm_err *e)
{
	memset(rx, 0, sizeof(*rx));
	rx->path = path;
	rx->e = e;
	rx->cur_cpu = -1;
	rx->devfd = devfd;
}

int tnl_dump_from_buffer(const void *buf, size_t len, const char *path,
			 const struct tnl_dump_fake *fake,
			 struct tnl_dump_stats *stats, struct tm_err *e)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;	/* only read */
	struct dump_rx rx;
	struct nl_msg *msg;
	double t0 = now_s();
	int rem = len > INT_MAX ? INT_MAX : (int)len;
	int err = 0;

	if ((uintptr_t)buf % NLMSG_ALIGNTO)
		return tm_err_set(e, EINVAL, "dump: messages not aligned");
	rx_init(&rx, path, -1, e);
	rx.fake = fake;
	rx.mapped = fake != NULL;
	/* As libnl hands them on: whole messages, control ones aside. */
	for (; nlmsg_ok(nlh, rem) && !rx.err; nlh = nlmsg_next(nlh, &rem)) {
		if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
			continue;
		msg = nlmsg_convert(nlh);
		if (!msg) {
			err = tm_err_set(e, ENOMEM, "out of memory");
			break;
		}
		dump_cb(msg, &rx);
		nlmsg_free(msg);
	}
	if (!err)
		err = rx.err ? rx.err : finish(&rx, NULL, 0);
	release_rx(&rx, t0, stats);
	return err;
}

int tnl_dump_to_file(struct tnl *t, const char *path, struct symcache *syms,
		     struct tnl_dump_stats *stats, struct tm_err *e)
{
	struct dump_rx rx;
	struct nl_msg *msg;
	double t0 = now_s();
	int err;

	/* No device (an older module, no CAP_NET_ADMIN): the rings as copies. */
	rx_init(&rx, path, open(RING_DEV, O_RDONLY | O_CLOEXEC), e);
	rx.mapped = rx.devfd >= 0;
	msg = nlmsg_alloc();
	if (!msg) {
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, t->family, 0,
			 NLM_F_DUMP, TIPME_CMD_DUMP, TIPME_GENL_VERSION) ||
	    (rx.mapped && nla_put_flag(msg, TIPME_ATTR_DUMP_MAPPED))) {
		nlmsg_free(msg);
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out;
	}
	err = nl_send_auto(t->sk, msg);
	nlmsg_free(msg);
	if (err < 0) {
		err = tm_err_set(e, EIO, "dump: %s", nl_geterror(err));
		goto out;
	}
	nl_socket_modify_cb(t->sk, NL_CB_VALID, NL_CB_CUSTOM, dump_cb, &rx);
	err = nl_recvmsgs_default(t->sk);
	/* Every ring copied: the window the trigger froze may go. */
	if (rx.rings_done && rx.freeze_gen &&
	    ioctl(rx.devfd, TIPME_IOC_THAW, &rx.freeze_gen) && !rx.err)
		rx.err = tm_err_set(e, errno, "dump: thawing the frozen window: %s",
				    strerror(errno));
	if (rx.err) {
		err = rx.err;
		goto out;
	}
	if (err < 0) {
		err = tm_err_set(e, err == -NLE_PERM ? EPERM :
				 err == -NLE_BUSY ? EBUSY : EIO,
				 "dump: %s%s", nl_geterror(err),
				 err == -NLE_PERM ? " (tipme needs root or CAP_NET_ADMIN)" :
				 err == -NLE_BUSY ? " (another dump is running)" : "");
		goto out;
	}
	err = finish(&rx, syms, 1);
out:
	if (err && rx.opened) {
		/*
		 * The rest of the dump is still queued on the socket and would
		 * be read as the start of the next one: start afresh (closing
		 * the socket ends the dump in the kernel too).
		 */
		struct tm_err e2;

		tnl_close(t);
		tnl_open(t, &e2);
	}
	release_rx(&rx, t0, stats);
	return err;
}
