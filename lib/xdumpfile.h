/* SPDX-License-Identifier: GPL-2.0 */
/*
 * X dumps (include/tipme/xdump.h): the reader (xdump_read.c), the writer
 * (xdump_write.c) and the text and JSON printer (xdump_print.c), for
 * tipme-xhook, which writes them, and tipme, which reads them.  Functions
 * return 0 or a negative errno with a message in a struct tm_err; on a
 * malformed dump they never read outside the buffer.
 */
#ifndef TIPME_LIB_XDUMPFILE_H
#define TIPME_LIB_XDUMPFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <tipme/xdump.h>

#include "err.h"

/* An array section, entries as the file has them. */
struct tm_xdump_array {
	const uint8_t *data;
	uint32_t entry_size;
	uint32_t count;
};

struct tm_xdump {
	const uint8_t *buf;
	size_t len;
	struct tipme_x11_header hdr;	/* zero-filled past header_size */
	struct tm_xdump_array recs, clients, clocks, exts;
	struct tipme_x11_stats stats;	/* zero-filled when absent or short */
	int have_stats;
	const char *system;
	size_t system_len;
	const char *description;
	size_t description_len;
};

int tm_xdump_parse(const void *buf, size_t len, struct tm_xdump *d,
		struct tm_err *e);
void tm_xdump_rec(const struct tm_xdump *d, uint32_t i, struct tipme_x11_rec *out);
void tm_xdump_client_at(const struct tm_xdump *d, uint32_t i,
		     struct tipme_x11_client *out);
int tm_xdump_client_by_id(const struct tm_xdump *d, uint32_t id,
		       struct tipme_x11_client *out);
void tm_xdump_clock_at(const struct tm_xdump *d, uint32_t i,
		    struct tipme_clock_pair *out);
void tm_xdump_ext_at(const struct tm_xdump *d, uint32_t i, struct tipme_x11_ext *out);

const char *tm_xdump_kind_name(unsigned kind);
const char *tm_xdump_request_name(unsigned major);
const char *tm_xdump_event_name(unsigned code);
/* "PolyText8", "RENDER:23", "GenericEvent(131:2)" ... into buf */
const char *tm_xdump_op_name(const struct tm_xdump *d, const struct tipme_x11_rec *r,
			  char *buf, size_t len);

int tm_xdump_print(FILE *out, const struct tm_xdump *d, int json);

/**
 * tm_xdump_load() - read and check an X dump
 * @path: the dump file, or an incident directory (its xhook.dump)
 * @d: the parsed dump; it points into *@bufp
 * @bufp: set to the file's bytes (free() them when done with @d)
 * @e: what is wrong, on failure
 *
 * Return: 0, or a negative errno (-EINVAL: malformed dump).
 */
int tm_xdump_load(const char *path, struct tm_xdump *d, uint8_t **bufp,
	       struct tm_err *e);

/**
 * struct tm_xdump_content - what an X dump holds, for the writer
 * @recs: records, oldest first
 * @nrecs: how many
 * @cl: clients
 * @ncl: how many
 * @clocks: TSC / CLOCK_MONOTONIC pairs, oldest first
 * @nclocks: how many
 * @exts: the server's extensions
 * @nexts: how many
 * @stats: the recorder's counters
 * @flags: TIPME_X11_F_*
 * @trigger: TIPME_X11_TRIGGER_*
 * @trigger_ns: when it triggered, CLOCK_MONOTONIC ns
 * @real_ns: when the dump was made, CLOCK_REALTIME ns
 * @system: "key=value\n" text, or NULL
 * @description: the user's words, or NULL
 */
struct tm_xdump_content {
	struct tipme_x11_rec *recs;
	uint64_t nrecs;
	struct tipme_x11_client *cl;
	uint32_t ncl;
	struct tipme_clock_pair *clocks;
	uint32_t nclocks;
	struct tipme_x11_ext *exts;
	uint32_t nexts;
	struct tipme_x11_stats stats;
	uint32_t flags, trigger;
	uint64_t trigger_ns, real_ns;
	const char *system;
	const char *description;
};

int tm_xdump_build(const struct tm_xdump_content *c, uint8_t **buf, size_t *len);

/**
 * struct tm_xdump_redact_stats - what tm_xdump_redact() changed
 * @key_details: key event details and states, and key-extension request
 *	words, zeroed
 * @system_lines: system lines changed (a host taken out of display=)
 */
struct tm_xdump_redact_stats {
	uint64_t key_details;
	unsigned int system_lines;
};

/**
 * tm_xdump_redact() - lay out a copy of @d for a public bug report
 * @d: the parsed dump
 * @buf: set to a malloc'ed buffer
 * @len: set to its size
 * @st: what was changed
 *
 * Key codes and modifier states go (as if key logging had been off: the
 * records get TIPME_X11_REC_REDACTED), and so does the host in the
 * display name; the header gets TIPME_X11_FILE_REDACTED.  Client command
 * names, like the kernel dump's, stay: the analyses name processes by them.
 *
 * Return: 0 or -ENOMEM.
 */
int tm_xdump_redact(const struct tm_xdump *d, uint8_t **buf, size_t *len,
		 struct tm_xdump_redact_stats *st);

#endif
