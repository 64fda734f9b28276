/* SPDX-License-Identifier: GPL-2.0 */
/*
 * X dumps (include/tipme/xdump.h): the reader (xdump_read.c), the writer
 * (xdump_write.c) and the text and JSON printer (xdump_print.c), for
 * tipme-xhook, which writes them, and tipme, which reads them.  Functions
 * return 0 or a negative errno with a message in a struct tm_err; on a
 * malformed dump they never read outside the buffer.
 */
#ifndef TIPME_LIB_XDUMP_H
#define TIPME_LIB_XDUMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <tipme/xdump.h>

#include "err.h"

/* An array section, entries as the file has them. */
struct xdump_array {
	const uint8_t *data;
	uint32_t entry_size;
	uint32_t count;
};

struct xdump {
	const uint8_t *buf;
	size_t len;
	struct tipme_x11_header hdr;	/* zero-filled past header_size */
	struct xdump_array recs, clients, clocks, exts;
	struct tipme_x11_stats stats;	/* zero-filled when absent or short */
	int have_stats;
	const char *system;
	size_t system_len;
	const char *description;
	size_t description_len;
};

int xdump_parse(const void *buf, size_t len, struct xdump *d,
		struct tm_err *e);
void xdump_rec(const struct xdump *d, uint32_t i, struct tipme_x11_rec *out);
void xdump_client_at(const struct xdump *d, uint32_t i,
		     struct tipme_x11_client *out);
int xdump_client_by_id(const struct xdump *d, uint32_t id,
		       struct tipme_x11_client *out);
void xdump_clock_at(const struct xdump *d, uint32_t i,
		    struct tipme_clock_pair *out);
void xdump_ext_at(const struct xdump *d, uint32_t i, struct tipme_x11_ext *out);

const char *xdump_kind_name(unsigned kind);
const char *xdump_request_name(unsigned major);
const char *xdump_event_name(unsigned code);
/* "PolyText8", "RENDER:23", "GenericEvent(131:2)" ... into buf */
const char *xdump_op_name(const struct xdump *d, const struct tipme_x11_rec *r,
			  char *buf, size_t len);

int xdump_print(FILE *out, const struct xdump *d, int json);

/**
 * xdump_load() - read and check an X dump
 * @path: the dump file, or an incident directory (its xhook.dump)
 * @d: the parsed dump; it points into *@bufp
 * @bufp: set to the file's bytes (free() them when done with @d)
 * @e: what is wrong, on failure
 *
 * Return: 0, or a negative errno (-EINVAL: malformed dump).
 */
int xdump_load(const char *path, struct xdump *d, uint8_t **bufp,
	       struct tm_err *e);

/**
 * struct xdump_content - what an X dump holds, for the writer
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
struct xdump_content {
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

int xdump_build(const struct xdump_content *c, uint8_t **buf, size_t *len);

/**
 * struct xdump_redact_stats - what xdump_redact() changed
 * @key_details: key event details and states, and key-extension request
 *	words, zeroed
 * @system_lines: system lines changed (a host taken out of display=)
 */
struct xdump_redact_stats {
	uint64_t key_details;
	unsigned int system_lines;
};

/**
 * xdump_redact() - lay out a copy of @d for a public bug report
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
int xdump_redact(const struct xdump *d, uint8_t **buf, size_t *len,
		 struct xdump_redact_stats *st);

#endif
