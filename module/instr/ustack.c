// SPDX-License-Identifier: GPL-2.0
/*
 * User-space call chains of tasks that go to sleep, and their table.
 *
 * The sched_switch probe runs in the context of the task going to sleep,
 * so its user registers are task_pt_regs(current), saved when it entered
 * the kernel (a system call, a page fault, an interrupt), and its address
 * space is the current one.  The chain is the instruction pointer there
 * (the leaf), then the frame-pointer chain: from the saved frame pointer,
 * each frame holds the caller's frame pointer and a return address.  Each
 * pair is read with page faults disabled (copy_from_user_nofault()): a
 * page that is not present ends the walk, as does a frame pointer that is
 * not above the one before it (the stack grows down, so callers' frames
 * lie higher), not above the user stack pointer, or more than 8 MiB above
 * it.  Code built without
 * frame pointers uses the register for anything: its chain may go wrong
 * after the leaf, which the reader catches with the process's mappings (a
 * return address outside executable code).  Nothing else of user memory is
 * read.
 *
 * The vDSO is built with frame pointers; a task the profiler interrupts
 * at the first instructions of one of its functions, or after the
 * function popped its frame, has its caller's return address at the stack
 * pointer, not in a frame: the profiler's walk reads it there, knowing
 * those instructions from the kernel's copy of the vDSO image.
 *
 * Chains are numbered in a table of numbered keys (intern.c), as the
 * blocking sites are, keyed by process and addresses, so a sleep through a
 * chain seen before writes a 4-byte number (the chain of the CPU's latest
 * sleep is found without the table: a thread that sleeps again and again
 * in the same place); the dump sends the table
 * (TIPME_SEC_USTACKS).  The profiler (profile.c) numbers the chains of the
 * tasks it interrupts in the same table, with the same walk.  A chain
 * numbered for the first time has its process's executable mappings
 * walked and kept (xmaps.c), for a dump after the process exited.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/tipme.h>
#ifdef CONFIG_X86_64
#include <asm/vdso.h>
#endif
#include "instr/intern.h"
#include "instr/ustack.h"
#include "instr/xmaps.h"

/*
 * How far above the user stack pointer a frame may be: the default stack
 * limit.  A frame pointer beyond is taken for a register that code without
 * frame pointers used for something else (which mostly points at pages a
 * read would fault on, the dearest way for a walk to end).
 */
#define USTACK_SPAN		SZ_8M

bool tipme_user_stacks = true;
module_param_named(user_stacks, tipme_user_stacks, bool, 0644);
MODULE_PARM_DESC(user_stacks, "Record the user-space call chain of a thread that goes to sleep (also /proc/sys/tipme/user_stacks; default 1)");

static unsigned int ustack_depth = 16;
module_param(ustack_depth, uint, 0444);
MODULE_PARM_DESC(ustack_depth, "Addresses per user-space call chain (1-16; default 16)");

static unsigned int ustack_table = 8192;
module_param(ustack_table, uint, 0444);
MODULE_PARM_DESC(ustack_table, "User-space call chains numbered in their table (up to 65536, 0: none recorded; default 8192)");

/*
 * A key of the table: the process, then the addresses (meta: how many,
 * and the flags).
 */
struct ustack_key {
	u64 pid;
	u64 ip[TIPME_USTACK_DEPTH_MAX];
};

#define USTACK_KEY_WORDS(n)	((sizeof(u64) + (n) * sizeof(u64)) / sizeof(u32))

static struct tipme_intern chains;
static unsigned int depth;

/*
 * The chain the latest sleep on this CPU numbered, and its number: a
 * thread that sleeps again through the same chain (a loop around one
 * read(), a ping-pong) is found by comparing its key with this one,
 * without hashing it and looking it up in the table.  Numbers stay valid
 * while the module is loaded (the table is never emptied).  Only the
 * sched_switch probe uses it, with interrupts disabled, so nothing else on
 * the CPU does meanwhile.
 */
struct ustack_last {
	u32 id;		/* 0: none */
	u16 meta;
	struct ustack_key k;
};

static DEFINE_PER_CPU(struct ustack_last, ustack_last);

/**
 * tipme_ustack_init() - allocate the user stack table
 *
 * Context: process context (module init).
 * Return: 0 or -ENOMEM (-EINVAL for a depth out of range).
 */
int tipme_ustack_init(void)
{
	if (!ustack_depth || ustack_depth > TIPME_USTACK_DEPTH_MAX) {
		pr_err("ustack_depth=%u: 1 to %d\n", ustack_depth,
		       TIPME_USTACK_DEPTH_MAX);
		return -EINVAL;
	}
	depth = ustack_depth;
	return tipme_intern_init(&chains, ustack_table, USTACK_KEY_WORDS(depth),
				 "user stack table");
}

/**
 * tipme_ustack_exit() - free the table
 *
 * Context: process context; the sched_switch probe and the profiler are
 * stopped.
 */
void tipme_ustack_exit(void)
{
	tipme_intern_exit(&chains);
}

/**
 * tipme_ustack_on() - are user-space chains recorded
 *
 * Context: any.
 * Return: true if the parameter is on and there is a table.
 */
bool tipme_ustack_on(void)
{
	return READ_ONCE(tipme_user_stacks) && chains.tab;
}

/* One frame of the frame-pointer chain, as x86-64 code lays it out. */
struct ustack_frame {
	u64 next;	/* the caller's frame pointer */
	u64 ret;	/* the return address into the caller */
};

#ifdef CONFIG_X86_64
/*
 * Where the return address into the caller lies above the user stack
 * pointer, when @regs stopped in the vDSO outside the frame of one of its
 * functions, or -1.  The vDSO is built with frame pointers: inside a
 * function the frame-pointer walk finds its caller, but at its first
 * instruction (push %rbp) and at the next (mov %rsp,%rbp) the frame
 * pointer is still the caller's, whose own return address the walk then
 * takes for the first: the caller would be skipped.  The same after the
 * function popped its frame (the registers it clears, then ret).  The
 * instructions are read from the kernel's copy of the vDSO image, not
 * from user memory.
 */
static int ustack_vdso_ret(struct pt_regs *regs)
{
	const struct mm_struct *mm = current->mm;
	const struct vdso_image *img;
	unsigned long off;
	const u8 *p, *end;

	if (!mm)
		return -1;
	img = mm->context.vdso_image;
	off = instruction_pointer(regs) - (unsigned long)mm->context.vdso;
	if (!img || off >= img->size)
		return -1;
	p = (const u8 *)img->data + off;
	end = (const u8 *)img->data + img->size;
	if (p[0] == 0x55)				/* push %rbp */
		return 0;
	if (end - p >= 3 && p[0] == 0x48 && p[1] == 0x89 && p[2] == 0xe5)
		return sizeof(long);			/* mov %rsp,%rbp */
	while (p < end) {
		if (p[0] == 0xc3)			/* ret */
			return 0;
		if (end - p >= 2 && p[0] == 0x31 && p[1] >= 0xc0)
			p += 2;				/* xor %r32,%r32 */
		else if (end - p >= 3 && p[0] == 0x45 && p[1] == 0x31 && p[2] >= 0xc0)
			p += 3;				/* xor %r8d..,%r8d.. */
		else
			return -1;
	}
	return -1;
}
#endif

/*
 * The current task's user chain into @ips; @irq: it was interrupted (the
 * profiler), and may be anywhere in the vDSO.  Return: addresses stored.
 */
static __always_inline unsigned int ustack_walk(u64 *ips, u8 *flags, bool irq)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct ustack_frame fr;
	unsigned long fp, low, high;
	unsigned int n = 0;

	*flags = TIPME_USTACK_TRUNC;
	ips[n++] = instruction_pointer(regs);
#ifdef CONFIG_X86_64
	if (!user_64bit_mode(regs))
		return n;	/* 32-bit frames: the leaf only */
	fp = regs->bp;
	low = user_stack_pointer(regs);
	high = low + USTACK_SPAN;
	if (irq) {
		int at = ustack_vdso_ret(regs);
		u64 ret;

		if (at >= 0) {
			if (copy_from_user_nofault(&ret, (const void __user *)(low + at),
						   sizeof(ret)) || !ret || ret >= TASK_SIZE_MAX)
				return n;
			ips[n++] = ret;
			low += at + sizeof(ret);
		}
	}
	while (n < depth) {
		if (!fp) {
			/* the outermost frame: complete if not the leaf's */
			if (n > 1)
				*flags = 0;
			return n;
		}
		if (fp < low || fp >= high || fp & (sizeof(long) - 1) ||
		    copy_from_user_nofault(&fr, (const void __user *)fp,
					   sizeof(fr)))
			return n;	/* left the stack, or not present */
		if (!fr.ret || fr.ret >= TASK_SIZE_MAX)
			return n;
		ips[n++] = fr.ret;
		low = fp + sizeof(fr);
		fp = fr.next;
	}
	*flags = fp ? TIPME_USTACK_FULL : 0;
#endif
	return n;
}

/**
 * tipme_ustack_capture() - the number of the current task's user chain
 *
 * The chain of this CPU's latest capture is compared with the new one
 * before the table is looked up.
 *
 * Context: the sched_switch probe (preemption and interrupts disabled),
 * in the context of a user task that goes to sleep; only there.  Never
 * sleeps, allocates or takes a page fault.
 * Return: the chain's number, or 0 if the table is full.
 */
u32 tipme_ustack_capture(void)
{
	struct ustack_last *last = this_cpu_ptr(&ustack_last);
	struct ustack_key k;
	unsigned int n, i;
	bool fresh;
	u16 meta;
	u8 flags;
	u32 id;

	n = ustack_walk(k.ip, &flags, false);
	k.pid = current->tgid;
	meta = n | (u16)flags << 8;
	if (last->id && last->meta == meta && last->k.pid == k.pid) {
		for (i = 0; i < n && last->k.ip[i] == k.ip[i]; i++)
			;
		if (i == n)
			return last->id;
	}
	id = tipme_intern_new(&chains, (const u32 *)&k, USTACK_KEY_WORDS(n),
			      meta, &fresh);
	if (unlikely(fresh))
		tipme_xmaps_request();
	if (id) {
		last->id = id;
		last->meta = meta;
		last->k.pid = k.pid;
		memcpy(last->k.ip, k.ip, n * sizeof(k.ip[0]));
	}
	return id;
}

/**
 * tipme_ustack_capture_irq() - the number of an interrupted task's user chain
 *
 * As tipme_ustack_capture(), for a task interrupted anywhere, also at the
 * first instructions of a vDSO function or after it popped its frame,
 * where the return address into its caller is on the stack but in no
 * frame yet: then it is read at the stack pointer, and the walk goes on.
 *
 * Context: the profiler's timer (hard interrupt context), interrupting a
 * user task or the kernel on its behalf.  Never sleeps, allocates or takes
 * a page fault.
 * Return: the chain's number, or 0 if the table is full.
 */
u32 tipme_ustack_capture_irq(void)
{
	struct ustack_key k;
	unsigned int n;
	bool fresh;
	u8 flags;
	u32 id;

	n = ustack_walk(k.ip, &flags, true);
	k.pid = current->tgid;
	id = tipme_intern_new(&chains, (const u32 *)&k, USTACK_KEY_WORDS(n),
			      n | (u16)flags << 8, &fresh);
	if (unlikely(fresh))
		tipme_xmaps_request();
	return id;
}

/**
 * tipme_ustack_read() - copy published chains for a dump
 * @pos: the first slot to look at; advanced past what was copied
 * @buf: destination: struct tipme_ustack entries, each followed by its
 *       addresses
 * @room: bytes available
 * @done: set when every slot has been looked at
 *
 * Context: process context (the dump), concurrently with writers.
 * Return: bytes copied.
 */
size_t tipme_ustack_read(u32 *pos, void *buf, size_t room, bool *done)
{
	const struct tipme_intern_ent *e;
	const struct ustack_key *k;
	struct tipme_ustack *out;
	size_t off = 0, need;
	unsigned int n;

	while ((e = tipme_intern_next(&chains, pos))) {
		k = (const struct ustack_key *)e->key;
		n = e->meta & 0xff;
		need = sizeof(*out) + n * sizeof(u64);
		if (off + need > room)
			break;
		out = buf + off;
		memset(out, 0, sizeof(*out));
		out->id = *pos + 1;
		out->pid = k->pid;
		out->nr = n;
		out->flags = e->meta >> 8;
		memcpy(out + 1, k->ip, n * sizeof(u64));
		off += need;
		(*pos)++;
	}
	*done = !e;
	return off;
}

/**
 * tipme_ustack_hdr() - the header of the dump's user stack table
 * @h: filled in
 *
 * Context: any.
 */
void tipme_ustack_hdr(struct tipme_sitetab_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->hdr_size = sizeof(*h);
	h->count = atomic_read(&chains.used);
	h->capacity = tipme_intern_capacity(&chains);
	h->depth = depth;
	h->refused = atomic64_read(&chains.refused);
}

/**
 * tipme_ustack_params_text() - "key=value\n" lines for the dump's parameters
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_ustack_params_text(char *buf, size_t size)
{
	return scnprintf(buf, size,
			 "user_stacks=%d\nustack_depth=%u\nustack_table=%u\nustacks=%d\nustacks_refused=%lld\n",
			 READ_ONCE(tipme_user_stacks), depth,
			 tipme_intern_capacity(&chains),
			 atomic_read(&chains.used),
			 (long long)atomic64_read(&chains.refused));
}
