/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a dump holds beyond its records: the exec table, the blocking-site
 * table, the self-cost totals and the kernel symbol table, read at open
 * time or on first use.
 */
#ifndef TIPME_PM_TABLES_H
#define TIPME_PM_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "pm.h"
#include "elfnote.h"
#include "safetext.h"
#include "xmaps.h"

/**
 * struct pm_exec - one exec table entry
 * @x: the entry's fixed part
 * @name: @x.comm in its display form (safetext.h), what every output
 *	shows: a command name is whatever its process set
 * @exe: path of the executable (@x.exe_len bytes, not NUL-terminated)
 * @argv: arguments, each NUL-terminated (@x.argv_len bytes)
 * @env: environment, as @argv (@x.env_len bytes)
 * @start_ns: @x.start_ts in CLOCK_MONOTONIC ns
 * @exit_ns: @x.exit_ts in CLOCK_MONOTONIC ns (0 while @x.exit_ts is 0)
 */
struct pm_exec {
	struct tipme_exec x;
	char name[sizeof(((struct tipme_exec *)0)->comm) * TM_TEXT_PER_BYTE + 1];
	const char *exe;
	const char *argv;
	const char *env;
	int64_t start_ns;
	int64_t exit_ns;
};

/**
 * struct pm_ustack - one user-space call chain of the dump's table
 * @id: struct tipme_ustack.id
 * @pid: the process whose addresses they are
 * @nr: addresses in @ip
 * @flags: TIPME_USTACK_*
 * @ip: the leaf, then return addresses, innermost first
 */
struct pm_ustack {
	uint32_t id;
	uint32_t pid;
	uint8_t nr;
	uint8_t flags;
	uint64_t ip[TIPME_USTACK_DEPTH_MAX];
};

/**
 * struct pm_map - one executable file mapping of a process (TIPME_SEC_MAPS)
 * @pid: the process
 * @start: first address
 * @end: one past the last
 * @off: file offset of @start
 * @build_id: the file's build-id in hexadecimal, or NULL
 * @path: the file, as /proc/PID/maps gave it, or PM_VDSO_PATH
 * @name: its last component
 */
struct pm_map {
	uint32_t pid;
	uint64_t start;
	uint64_t end;
	uint64_t off;
	const char *build_id;
	const char *path;
	const char *name;
};

/* The path of the vDSO's mapping, which has no file (TIPME_SEC_MAPS) */
#define PM_VDSO_PATH		"[vdso]"
/* vDSO images a dump may hold (one per ABI: 64-bit, x32, 32-bit), bytes each */
#define PM_VDSO_MAX		4
#define PM_VDSO_SIZE_MAX	(1u << 20)

/**
 * struct pm_vdso - a vDSO's ELF image (TIPME_SEC_VDSO)
 * @build_id: its build-id in hexadecimal, as the "[vdso]" mappings name it
 * @data: the image (malloc'd)
 * @size: its bytes
 */
struct pm_vdso {
	char build_id[2 * TM_BUILD_ID_MAX + 1];
	unsigned char *data;
	size_t size;
};

/**
 * struct pm_uframe - a user address, resolved against the mappings
 * @addr: the address
 * @map: the executable mapping holding it, or NULL when the dump has no
 *	mappings of the process
 * @off: @addr as an offset in @map's file
 */
struct pm_uframe {
	uint64_t addr;
	const struct pm_map *map;
	uint64_t off;
};

/**
 * struct pm_instr - what a dump holds beyond records; see pm_instr_get()
 * @have_exectab: the dump has an exec table
 * @xhdr: its header
 * @execs: its entries, by increasing pid, then start
 * @nr_execs: entries in @execs
 * @have_sites: the dump has a site table
 * @shdr: its header
 * @site_id: the sites' numbers, increasing
 * @site_off: where each site's entry is in @site_blob
 * @nr_sites: entries in @site_id and @site_off
 * @site_blob: each site as a TIPME_REC_BLOCKED payload (pid 0)
 * @site_at: when the numbers are dense enough, site number i's entry + 1
 *	(0: none), for i below @nr_site_at: a lookup per short switch with
 *	a site instead of a binary search (a seventh of `tipme info`'s
 *	decoding); NULL otherwise
 * @nr_site_at: entries in @site_at
 * @have_ustacks: the dump has a user stack table
 * @uhdr: its header
 * @ustacks: its entries, by increasing id
 * @nr_ustacks: entries in @ustacks
 * @have_maps: the dump has a TIPME_SEC_MAPS section
 * @maps: its mappings, by pid, then start
 * @nr_maps: entries in @maps
 * @maps_text: the section's text, which @maps point into
 * @nr_maps_dropped: mappings of the section left out because they
 *	overlap another of their process (see pm_maps_load()): they follow
 *	the @nr_maps kept in @maps, by pid, then start
 * @have_xmaps: the dump has the module's captured mappings (TIPME_SEC_XMAPS)
 * @xmaps: they, checked (pointing into @xmaps_data)
 * @xmaps_data: the section's copy
 * @vdso: the vDSO images (TIPME_SEC_VDSO), each with its build-id
 * @nr_vdso: entries in @vdso
 * @have_smpsnap: the dump has the sampler's table (TIPME_SEC_SMPSNAP)
 * @snhdr: its header (fields a writer left out zero)
 * @snap: its entries, in the dump's order (fields left out zero)
 * @nr_snap: entries in @snap
 * @costs: self-cost totals per type since load (TIPME_SEC_COST)
 * @nr_costs: entries in @costs
 * @sym_addr: symbol addresses, increasing
 * @sym_name: offset of each symbol's name in @strs
 * @nr_syms: symbols
 * @strs: the names
 * @strs_len: bytes of @strs
 * @text_hi: high 32 bits of kernel text addresses (params text_addr_hi)
 * @sched_lo: __sched_text_start, or 0
 * @sched_hi: __sched_text_end
 * @lock_lo: __lock_text_start, or 0
 * @lock_hi: __lock_text_end
 * @usym: the user-space symbol files opened so far (usym.c), or NULL
 */
/*
 * The symbol of an address looked up before (symbols.c): blocking sites
 * repeat, and each is looked up for every stretch that sleeps there.
 */
#define PM_SYM_MEMO	4096	/* entries, a power of 2 */

struct pm_sym_memo {
	uint64_t addr;		/* 0: empty */
	uint32_t idx;		/* the symbol's index, UINT32_MAX for none */
	int8_t skip;		/* skip_frame()'s answer, -1 until asked */
};

struct pm_usym_cache;

struct pm_instr {
	int have_exectab;
	struct tipme_exectab_hdr xhdr;
	struct pm_exec *execs;
	size_t nr_execs;
	int have_sites;
	struct tipme_sitetab_hdr shdr;
	uint32_t *site_id;
	uint32_t *site_off;
	size_t nr_sites;
	unsigned char *site_blob;
	uint32_t *site_at;
	uint32_t nr_site_at;
	int have_ustacks;
	struct tipme_sitetab_hdr uhdr;
	struct pm_ustack *ustacks;
	size_t nr_ustacks;
	int have_maps;
	struct pm_map *maps;
	size_t nr_maps;
	char *maps_text;
	size_t nr_maps_dropped;
	int have_xmaps;
	struct tm_xmaps xmaps;
	const unsigned char *xmaps_data;
	struct pm_vdso vdso[PM_VDSO_MAX];
	size_t nr_vdso;
	int have_smpsnap;
	struct tipme_smpsnap_hdr snhdr;
	struct tipme_smpsnap_ent *snap;
	size_t nr_snap;
	struct tipme_cost_total *costs;
	size_t nr_costs;
	uint64_t *sym_addr;
	uint32_t *sym_name;
	size_t nr_syms;
	const char *strs;
	size_t strs_len;
	uint64_t text_hi;
	uint64_t sched_lo, sched_hi, lock_lo, lock_hi;
	struct pm_sym_memo *memo;
	struct pm_usym_cache *usym;
};

/**
 * pm_instr_load_section() - read an instrumentation section at open time
 * @pm: the dump being opened
 * @s: a TIPME_SEC_EXECTAB, TIPME_SEC_SITES or TIPME_SEC_COST section
 * @e: error message
 *
 * Return: 0 or a negative errno (malformed section).
 */
int pm_instr_load_section(struct pm_dump *pm, const struct tm_dump_sec *s,
			  struct tm_err *e);

/**
 * pm_instr_free() - release what pm_instr_load_section() and the lookups
 * allocated
 * @pm: the dump
 */
void pm_instr_free(struct pm_dump *pm);

/**
 * pm_instr_get() - the dump's instrumentation state (never NULL after a
 * successful pm_open(); an empty one if the dump has none)
 * @pm: the dump
 *
 * Return: the state (NULL only for a dump that failed to open).
 */
struct pm_instr *pm_instr_get(const struct pm_dump *pm);

/**
 * pm_instr_alloc() - give an opening dump its (empty) instrumentation state
 * @pm: the dump being opened
 * @e: error message
 *
 * Return: 0 or -ENOMEM.
 */
int pm_instr_alloc(struct pm_dump *pm, struct tm_err *e);

/**
 * pm_syms_load() - read the dump's kernel symbol table, once, at open time
 * @pm: the dump being opened, after pm_instr_alloc()
 *
 * A malformed or missing table leaves the dump without symbols (not an
 * error: names are then left out).
 */
void pm_syms_load(struct pm_dump *pm);

/**
 * pm_exec_find() - the exec table entry describing thread @pid at @ts
 * @pm: the dump
 * @pid: thread id
 * @ts: recorder timestamp
 *
 * Return: the entry whose lifetime covers @ts, else the closest one of
 * that pid, or NULL.
 */
const struct pm_exec *pm_exec_find(const struct pm_dump *pm, uint32_t pid,
				   uint64_t ts);

/**
 * pm_exec_at() - as pm_exec_find(), at a CLOCK_MONOTONIC time
 * @pm: the dump
 * @pid: thread id
 * @ns: CLOCK_MONOTONIC ns (the time of state/ and the analyses)
 *
 * Return: the entry whose lifetime covers @ns, else the closest one of
 * that pid, or NULL.
 */
const struct pm_exec *pm_exec_at(const struct pm_dump *pm, uint32_t pid,
				 int64_t ns);

/**
 * pm_comm_at() - a thread's name at a CLOCK_MONOTONIC time
 * @pm: the dump
 * @pid: thread id (0: none)
 * @ns: CLOCK_MONOTONIC ns
 *
 * Return: its comm from the exec table entry pm_exec_at() finds, or NULL.
 */
const char *pm_comm_at(const struct pm_dump *pm, uint32_t pid, int64_t ns);

/**
 * pm_exec_clock() - give every exec table entry its CLOCK_MONOTONIC times
 * @pm: the dump being opened, its clock set up
 */
void pm_exec_clock(struct pm_dump *pm);

/**
 * pm_exec_by_id() - the exec table entry with serial number @id
 * @pm: the dump
 * @id: struct tipme_exec.id
 *
 * Return: the entry or NULL.
 */
const struct pm_exec *pm_exec_by_id(const struct pm_dump *pm, uint32_t id);

/**
 * pm_sites_load() - read a TIPME_SEC_SITES section
 * @in: the dump's instrumentation state
 * @s: the section
 * @e: error message
 *
 * Return: 0 or a negative errno (malformed section).
 */
int pm_sites_load(struct pm_instr *in, const struct tm_dump_sec *s,
		  struct tm_err *e);

/**
 * pm_sites_free() - release what pm_sites_load() allocated
 * @in: the dump's instrumentation state
 */
void pm_sites_free(struct pm_instr *in);

/**
 * pm_site_blob() - a blocking site of the site table, as the payload of a
 * TIPME_REC_BLOCKED record
 * @pm: the dump
 * @id: struct tipme_rec_site.id
 * @len: set to the payload's length
 *
 * Return: the payload (pid 0); an empty site (no frames) if the table has
 * no such number.
 */
const unsigned char *pm_site_blob(const struct pm_dump *pm, uint32_t id,
				  uint32_t *len);

/**
 * pm_site_chain() - a kernel call chain of the site table as it was taken
 * @pm: the dump
 * @id: its number (struct tipme_rec_prof.site); 0: none
 * @out: full addresses, innermost first, none dropped (a profiler sample
 *       may have interrupted the scheduler itself)
 * @max: room in @out
 * @cut: set when the chain filled the module's depth (outer frames cut)
 *
 * Return: frames in @out; 0 for 0 or a number the table lacks.
 */
size_t pm_site_chain(const struct pm_dump *pm, uint32_t id, uint64_t *out,
		     size_t max, int *cut);

/**
 * pm_ustacks_load() - read a TIPME_SEC_USTACKS section
 * @in: the dump's instrumentation state
 * @s: the section
 * @e: error message
 *
 * Return: 0 or a negative errno (malformed section).
 */
int pm_ustacks_load(struct pm_instr *in, const struct tm_dump_sec *s,
		    struct tm_err *e);

/**
 * pm_maps_load() - read a TIPME_SEC_MAPS section
 * @in: the dump's instrumentation state
 * @s: the section
 * @e: error message
 *
 * Return: 0 or a negative errno (malformed line, named by its number).
 */
int pm_maps_load(struct pm_instr *in, const struct tm_dump_sec *s,
		 struct tm_err *e);

/**
 * pm_smpsnap_load() - read a TIPME_SEC_SMPSNAP section (smpsnap.c)
 * @in: the dump's instrumentation state
 * @s: the section: a header of at least 12 bytes (its size, the entries'
 *	size and count), then the entries; longer headers and entries than
 *	this reader knows are read up to what it knows
 * @e: error message
 *
 * Return: 0, -EINVAL (malformed, or a second one) or -ENOMEM.
 */
int pm_smpsnap_load(struct pm_instr *in, const struct tm_dump_sec *s,
		    struct tm_err *e);

/**
 * pm_xmaps_load() - read a TIPME_SEC_XMAPS section (tm_xmaps_parse())
 * @in: the dump's instrumentation state
 * @s: the section
 * @e: error message
 *
 * Return: 0 or -EINVAL (malformed, or a second such section).
 */
int pm_xmaps_load(struct pm_instr *in, const struct tm_dump_sec *s,
		  struct tm_err *e);

/**
 * pm_vdso_load() - read a TIPME_SEC_VDSO section
 * @in: the dump's instrumentation state
 * @s: the section: an ELF image with a build-id, at most
 *	PM_VDSO_SIZE_MAX bytes
 * @e: error message
 *
 * Return: 0 or a negative errno (no build-id, too large, more than
 * PM_VDSO_MAX images, or a build-id twice).
 */
int pm_vdso_load(struct pm_instr *in, const struct tm_dump_sec *s,
		 struct tm_err *e);

/**
 * pm_vdso_get() - the dump's vDSO image of a build-id
 * @in: the dump's instrumentation state
 * @build_id: in hexadecimal
 *
 * Return: the image, or NULL if the dump has none with @build_id.
 */
const struct pm_vdso *pm_vdso_get(const struct pm_instr *in, const char *build_id);

/**
 * pm_ustacks_free() - release what pm_ustacks_load(), pm_maps_load(),
 * pm_xmaps_load() and pm_vdso_load() allocated
 * @in: the dump's instrumentation state
 */
void pm_ustacks_free(struct pm_instr *in);

/**
 * pm_ustack_get() - a user-space call chain of the dump's table
 * @pm: the dump
 * @id: struct tipme_rec_ustack.id
 *
 * Return: the chain, or NULL if the table has no such number.
 */
const struct pm_ustack *pm_ustack_get(const struct pm_dump *pm, uint32_t id);

/**
 * pm_ustack_resolve() - a chain's frames as file and offset
 * @pm: the dump
 * @u: the chain
 * @ns: when it was recorded (CLOCK_MONOTONIC ns)
 * @out: its frames, innermost first
 * @truncated: set when the chain does not reach its outermost frame: the
 *	module said so (TIPME_USTACK_TRUNC or _FULL), or an address lies
 *	outside the process's executable mappings (the frames from there on
 *	are dropped: a frame walk through code without frame pointers)
 *
 * With no mappings of the process in the dump (it had exited, or they
 * could not be read), or only those of a program it ran after @ns (the
 * exec table says when), every address is kept with a NULL map.
 *
 * Return: frames in @out (at most TIPME_USTACK_DEPTH_MAX).
 */
size_t pm_ustack_resolve(const struct pm_dump *pm, const struct pm_ustack *u,
			 int64_t ns, struct pm_uframe out[TIPME_USTACK_DEPTH_MAX],
			 int *truncated);

/**
 * pm_fmt_uframe() - a user frame as "app+0x1234", or "0x7f12..." without
 * a mapping
 * @f: the frame
 * @buf: output
 * @len: size of @buf
 *
 * Return: @buf.
 */
char *pm_fmt_uframe(const struct pm_uframe *f, char *buf, size_t len);

/**
 * pm_sym_name() - the kernel symbol containing @addr
 * @pm: the dump
 * @addr: full kernel address
 * @off: set to @addr's offset in the symbol
 *
 * Return: the name ("pipe_read", "probe_x [tipme]") or NULL.
 */
const char *pm_sym_name(const struct pm_dump *pm, uint64_t addr,
			uint64_t *off);

/**
 * pm_text_addr() - a kernel text address a record stores as its low 32 bits
 * @pm: the dump (its text_addr_hi parameter)
 * @lo: the low 32 bits
 *
 * Return: the full address, 0 for 0.
 */
uint64_t pm_text_addr(const struct pm_dump *pm, uint32_t lo);

/**
 * pm_fmt_func() - a kernel function by name: "flush_to_ldisc",
 * "f+0x1a" inside one, "fn [mod]", or "0xffffffff81234567" without a symbol
 * @pm: the dump
 * @addr: full kernel address
 * @buf: output
 * @len: size of @buf
 *
 * Return: @buf.
 */
char *pm_fmt_func(const struct pm_dump *pm, uint64_t addr, char *buf, size_t len);

/*
 * Return addresses a blocked or reclaim_begin record, or a site of the
 * site table, gives at most: readers take no more (the module writes at
 * most 16).
 */
#define PM_FRAMES_MAX	64

/**
 * pm_site_frames() - a blocking site's or call stack's frames, cleaned
 * @pm: the dump
 * @ips: the record's 32-bit addresses
 * @n: how many
 * @out: full addresses of the frames worth showing, innermost first
 * @max: room in @out
 *
 * Drops the recorder's own frames, tracepoint plumbing and scheduler and
 * lock frames, using the dump's symbol table.
 *
 * Return: frames in @out.
 */
size_t pm_site_frames(const struct pm_dump *pm, const uint32_t *ips,
		      size_t n, uint64_t *out, size_t max);

#endif
