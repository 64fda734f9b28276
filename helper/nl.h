/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace side of the "tipme" generic netlink family (libnl-3).
 * Functions return 0 or a negative errno and leave a sentence in a
 * struct tm_err; they never print.
 */
#ifndef TIPME_HELPER_NL_H
#define TIPME_HELPER_NL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/tipme.h>

#include "err.h"

/* Seconds a request waits for the module's next message before failing. */
#define TNL_REPLY_TIMEOUT_S 30

struct nl_sock;
struct nlattr;

/**
 * struct tnl - a connection to tipme.ko
 * @sk: libnl socket
 * @family: resolved family id
 */
struct tnl {
	struct nl_sock *sk;
	int family;
};

/**
 * struct tipme_status - the reply to TIPME_CMD_STATUS
 * @version: module version
 * @recording: 1 when recording
 * @nr_cpus: nr_cpu_ids of the kernel
 * @buf_size: bytes of all rings
 * @subbuf_size: bytes of a sub-buffer
 * @subbufs: sub-buffers per CPU
 * @clock_source: enum tipme_clock_source
 * @tsc_khz: ticks per millisecond
 * @now_ts: recorder clock at the reply
 * @cpus: per-CPU counters (malloc'ed, @ncpus entries)
 * @first_ts: per CPU, oldest timestamp held (0 if unknown)
 * @last_ts: per CPU, newest timestamp written
 * @ncpus: entries of @cpus, @first_ts, @last_ts
 * @keylog_used: key codes were recorded at some point since load
 * @triggers: triggers since load
 * @last_trigger: the latest trigger (seq 0 if none)
 * @freeze: the window a trigger froze: @freeze.gen the one frozen now (0:
 *	none), @freeze.freezes since load, how many of them were thawed
 *	without a dump: @freeze.expired (freeze_timeout_s) and
 *	@freeze.released (TIPME_CMD_RELEASE); @freeze.known: the module says
 *	(an older one does not)
 */
struct tipme_status {
	char version[32];
	int recording;
	uint32_t nr_cpus;
	uint64_t buf_size;
	uint32_t subbuf_size;
	uint32_t subbufs;
	uint32_t clock_source;
	uint64_t tsc_khz;
	uint64_t now_ts;
	struct tipme_cpu_stats *cpus;
	uint64_t *first_ts;
	uint64_t *last_ts;
	size_t ncpus;
	int keylog_used;
	uint32_t triggers;
	struct {
		uint32_t seq;
		uint32_t source;
		uint64_t mono_ns;
		uint64_t real_ns;
	} last_trigger;
	struct {
		int known;
		uint32_t gen;
		uint64_t freezes, expired, released;
	} freeze;
	char *params;	/* "key=value\n" lines; NULL from an older module */
};

int tnl_open(struct tnl *t, struct tm_err *e);
void tnl_close(struct tnl *t);
int tnl_simple(struct tnl *t, uint8_t cmd, struct tm_err *e);
int tnl_status(struct tnl *t, struct tipme_status *st, struct tm_err *e);
void tipme_status_free(struct tipme_status *st);

struct nl_msg;
int tnl_status_parse(struct nl_msg *const *msgs, size_t n,
		     struct tipme_status *st, struct tm_err *e);

/**
 * tnl_parse_cpu_entry() - decode a nested TIPME_ATTR_CPU_ENTRY
 * @entry: the attribute
 * @out: counters
 * @first_ts: oldest timestamp held, may be NULL
 * @last_ts: newest timestamp, may be NULL
 *
 * Return: 0 or -EBADMSG when an attribute is missing or malformed.
 */
int tnl_parse_cpu_entry(struct nlattr *entry, struct tipme_cpu_stats *out,
			uint64_t *first_ts, uint64_t *last_ts);

/**
 * tnl_dump_to_file() - dump every ring into a dump file
 * @t: connection
 * @path: final file name (written atomically, mode 0600)
 * @syms: kernel symbol cache (see sysinfo.h), or NULL to read them now
 * @stats: if not NULL, set to what the dump held
 * @e: error message
 *
 * Return: 0 or a negative errno; on failure no file is left at @path.
 */
struct tnl_dump_stats {
	uint64_t bytes;
	uint64_t subbufs;
	uint64_t discarded;
	uint32_t cpus;
	int mapped;		/* the rings were read from /dev/tipme's mapping */
	double seconds;
};

struct symcache;

int tnl_dump_to_file(struct tnl *t, const char *path, struct symcache *syms,
		     struct tnl_dump_stats *stats, struct tm_err *e);

/**
 * struct tnl_dump_fake - what stands in for /dev/tipme in a replayed dump
 * @map: the rings' bytes, as the mapping would show them
 * @map_len: bytes of @map
 * @oldest_intact: what every TIPME_IOC_RING_CHECK answers
 */
struct tnl_dump_fake {
	const unsigned char *map;
	size_t map_len;
	uint64_t oldest_intact;
};

/*
 * A CPU's stream section is ended before a sub-buffer once it holds this
 * many bytes and the CPU goes on in a new one: TM_DUMP_STREAM_SECTION
 * (lib/dumpfile.h); the tests set it lower.
 */
extern uint64_t tnl_dump_section_bytes;

/**
 * tnl_dump_from_buffer() - write a dump file from a recorded DUMP stream
 * @buf: netlink messages as a socket would return them, 4-byte aligned
 * @len: bytes of @buf
 * @path: as for tnl_dump_to_file()
 * @fake: for a mapped stream, the stand-in for /dev/tipme; NULL: copied
 * @stats: as for tnl_dump_to_file()
 * @e: error message
 *
 * The receiver of tnl_dump_to_file() without a socket, a device or a
 * symbol table: for tests and for fuzzing it with hostile streams.
 *
 * Return: 0 or a negative errno; on failure no file is left at @path.
 */
int tnl_dump_from_buffer(const void *buf, size_t len, const char *path,
			 const struct tnl_dump_fake *fake,
			 struct tnl_dump_stats *stats, struct tm_err *e);


/**
 * struct tnl_trigger_event - a trigger announced by the module
 * @seq: sequence number
 * @source: enum tipme_trigger_source
 * @ts: recorder timestamp
 * @mono_ns: CLOCK_MONOTONIC
 * @real_ns: CLOCK_REALTIME
 * @has_press: @press is set: the module's own auto trigger measured it
 * @press: the press that fired it (comm NUL-terminated, not yet checked)
 */
struct tnl_trigger_event {
	uint32_t seq;
	uint32_t source;
	uint64_t ts;
	uint64_t mono_ns;
	uint64_t real_ns;
	int has_press;
	struct tipme_trigger_press press;
};

int tnl_trigger(struct tnl *t, uint32_t source, uint32_t *seq, int *coalesced,
		struct tm_err *e);
int tnl_release(struct tnl *t, uint32_t seq, struct tm_err *e);

/*
 * Event subscription: a second socket joined to the family's multicast
 * group and to the generic netlink controller's, so a module unloaded and
 * loaded again is noticed.  tnl_events_fd() is for poll(); after it is
 * readable, tnl_events_read() calls @cb for each trigger and sets *@gone
 * when the family disappeared (then close and open again later).
 */
typedef void (*tnl_trigger_cb)(const struct tnl_trigger_event *ev, void *arg);

struct nlmsghdr;
int tnl_event_parse(struct nlmsghdr *nlh, int family, struct tnl_trigger_event *ev,
		    int *gone);
int tnl_events_open(struct tnl *t, struct tm_err *e);
int tnl_events_fd(struct tnl *t);
int tnl_events_read(struct tnl *t, tnl_trigger_cb cb, void *arg, int *gone,
		    struct tm_err *e);

#endif
