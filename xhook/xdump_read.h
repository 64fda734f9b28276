/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading X dumps (include/uapi/linux/tipme_x11.h).  Self-contained: link
 * xhook/xdump_read.o alone (the tipme CLI does, for `tipme xrecords`).
 * Functions return 0 or a negative errno; on a malformed dump they fill a
 * message and never read outside the buffer.
 */
#ifndef TIPME_XDUMP_READ_H
#define TIPME_XDUMP_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/tipme_x11.h>

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

uint32_t xdump_crc32(uint32_t crc, const void *buf, size_t len);

int xdump_parse(const void *buf, size_t len, struct xdump *d, char *err,
		size_t errlen);
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
 * @errf: where to say what is wrong
 *
 * Return: 0, or a negative errno (-EINVAL: malformed dump).
 */
int xdump_load(const char *path, struct xdump *d, uint8_t **bufp, FILE *errf);

/**
 * xdump_print_file() - read DUMP and print it as text or JSON
 * @path: the dump file
 * @json: nonzero for JSON
 * @out: where to print
 * @err: where to say what is wrong with the file
 *
 * Return: 0, or a negative errno (-EINVAL: malformed dump).
 */
int xdump_print_file(const char *path, int json, FILE *out, FILE *err);

/**
 * xdump_main() - "[--json] DUMP": the whole print command
 * @argc: argument count, argv[0] being the command's name
 * @argv: arguments
 *
 * For `tipme-xhook print` and `tipme xrecords`.
 *
 * Return: exit status (0 ok, 1 unreadable or malformed dump, 2 usage).
 */
int xdump_main(int argc, char **argv);

#endif
