// SPDX-License-Identifier: GPL-2.0
/*
 * insncount: a QEMU TCG plugin that counts the guest's instructions, for
 * comparing tracers by the work they add rather than by emulated time.
 *
 *   qemu-system-x86_64 -accel tcg,thread=single \
 *       -plugin build/bench/insncount.so,out=FILE ...
 *
 * Every translated block adds its instruction count to a running total
 * (and to a kernel-mode total when the block's address is in the upper
 * half).  A guest program marks a point of interest by executing the
 * 8-byte NOP "nopl 0x4d504954(%rax,%rax,1)" (its displacement spells TIPM):
 * each time one runs, the plugin appends "MARK TOTAL KERNEL" to FILE and
 * flushes it, so the guest can read the counts back over a shared folder.
 *
 * With profile=FILE, it also counts the instructions executed per kernel
 * translated block, by the block's address, and at each mark appends
 * "M MARK" and then "ADDR COUNT" for every block that ran since the
 * previous mark: bench/tracers/profile.py turns that into instructions per
 * kernel function between two marks, with the guest's /proc/kallsyms.
 *
 * The totals are plain counters: with one TCG thread (thread=single) the
 * vCPUs run in turn on one host thread and the counts are exact.  Under
 * MTTCG they would race, so bench/tracers/run.sh always asks for one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static const unsigned char marker[8] = {
	0x0f, 0x1f, 0x84, 0x00, 'T', 'I', 'P', 'M'
};

static uint64_t total;
static uint64_t kernel;
static uint64_t marks;
static FILE *out;

/* The profile: open addressing by block address, never shrinks. */
#define PROF_BITS 20
struct block {
	uint64_t vaddr;
	uint64_t count;		/* instructions executed, inline-added */
	uint64_t last;		/* count at the previous mark */
};
static struct block *prof;
static FILE *prof_out;
static int prof_full;

static struct block *prof_slot(uint64_t vaddr)
{
	uint64_t mask = (1ULL << PROF_BITS) - 1;
	uint64_t i = (vaddr * 0x9E3779B97F4A7C15ULL) >> (64 - PROF_BITS);
	uint64_t n;

	for (n = 0; n <= mask; n++, i = (i + 1) & mask) {
		if (prof[i].vaddr == vaddr)
			return &prof[i];
		if (!prof[i].vaddr) {
			prof[i].vaddr = vaddr;
			return &prof[i];
		}
	}
	prof_full = 1;
	return NULL;
}

static void prof_mark(void)
{
	uint64_t i;

	fprintf(prof_out, "M %" PRIu64 "%s\n", marks, prof_full ? " full" : "");
	for (i = 0; i < (1ULL << PROF_BITS); i++) {
		struct block *b = &prof[i];

		if (b->vaddr && b->count != b->last) {
			fprintf(prof_out, "%" PRIx64 " %" PRIu64 "\n", b->vaddr,
				b->count - b->last);
			b->last = b->count;
		}
	}
	fflush(prof_out);
}

static void on_mark(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	fprintf(out, "%" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		++marks, total, kernel);
	fflush(out);
	if (prof)
		prof_mark();
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	size_t i;

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &total, n);
	if (qemu_plugin_tb_vaddr(tb) >> 63) {
		struct block *b;

		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64, &kernel, n);
		b = prof ? prof_slot(qemu_plugin_tb_vaddr(tb)) : NULL;
		if (b)
			qemu_plugin_register_vcpu_tb_exec_inline(
				tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->count, n);
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (qemu_plugin_insn_size(insn) == sizeof(marker) &&
		    !memcmp(qemu_plugin_insn_data(insn), marker, sizeof(marker)))
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	fprintf(out, "end %" PRIu64 " %" PRIu64 "\n", total, kernel);
	fclose(out);
	if (prof_out)
		fclose(prof_out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL, *prof_path = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else if (!strncmp(argv[i], "profile=", 8))
			prof_path = argv[i] + 8;
	}
	if (!path) {
		fprintf(stderr, "insncount: needs out=FILE\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	if (prof_path) {
		prof = calloc(1ULL << PROF_BITS, sizeof(*prof));
		prof_out = fopen(prof_path, "w");
		if (!prof || !prof_out) {
			perror(prof_path);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
