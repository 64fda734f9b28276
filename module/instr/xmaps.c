// SPDX-License-Identifier: GPL-2.0
/*
 * The executable file mappings of the processes whose user-space chains
 * the module numbers, kept for the exec table's retention after they exit,
 * so that a dump can turn their addresses into file and offset (and tipmed
 * into build-ids) when /proc no longer has them.
 *
 * When a chain is numbered for the first time (ustack.c), the probe (the
 * sched_switch probe, or the profiler's timer) takes a reference on the
 * task's address space (mm_users, as exec_strings.c does for argv) and
 * queues a request; an irq_work kicks the work item, since the probe may
 * hold the runqueue's lock, under which no task may be woken.  (It runs
 * at once, not later for several requests: a walk needs the task's root
 * directory for its paths, which the task gives up as it exits, and a
 * process may exit right after its first chain.)  The work item walks
 * the address space's executable file mappings under its mmap lock,
 * taken with trylock (a few tries, a millisecond apart, then the
 * walk is counted lost: a writer that holds the lock for long must not
 * wedge the work item and rmmod with it), and replaces what was kept of
 * that process.  Holding the reference keeps the mappings walkable even
 * when the process exits before the work item runs.  A new chain of a
 * process walks it again if its address space has changed its number of
 * mappings since its last walk (a library it loaded later, dlopen, is
 * found once a chain goes through it): each walk leaves the address
 * space, its process and its count of mappings in a small table the probe
 * reads without a lock (walked[]: a stale or torn entry costs one walk
 * more, or one less for a process whose mappings changed and kept their
 * count, which its next change of count repairs).
 *
 * The walk takes a reference on each mapped file and lets the lock go;
 * then, for each file, its path as the process sees it (d_path() from the
 * process's own root directory, which the request's reference on the task
 * finds while the task lives: a kworker's root is not the process's, as
 * under a chroot or the VM tests' switched root) and its build-id, the
 * GNU build-id note read from the file with kernel_read() (elfid.c: at
 * most two pages of program headers and notes, once per file the pool
 * does not know yet), so that a dump names the exact build of a file the
 * exited process mapped even when the path no longer leads to it, or led
 * elsewhere from the reader's root.
 *
 * What is kept, and how it is found without scanning every slot, is the
 * pool (xmpool.c): per process its pid and start time; per mapping its
 * range, file offset and a path slot; per path slot (shared by every
 * mapping of that file) the path, device, inode and build-id.  A process
 * is noted exited when the work item (at most once a second, or when
 * it must make room) or a dump finds its pid gone (or taken by a newer
 * process), and dropped once the exec table's retention
 * has passed since; when room runs out, the process noted exited longest
 * ago goes first, then the one walked longest ago (counted as evicted).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/jhash.h>
#include <linux/kdev_t.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include "compat.h"
#include "fault.h"
#include "instr/elfid.h"
#include "instr/exec.h"
#include "instr/xmaps.h"
#include "instr/xmpool.h"

#define XM_REQS		64	/* walks waiting for the work item */
#define XM_WALK_MAX	128	/* mappings one walk keeps, at most */
#define XM_TRIES	10	/* tries of the mmap lock before a walk is lost */
/*
 * How often a walk's store notes exits: asking every live process of the
 * pool whether it is still there is a pid lookup each, which a walk of
 * every new process (a fork and exec storm) would pay per walk.  A dump
 * notes them at its start all the same, and a store that may evict notes
 * them first.
 */
#define XM_GC_EVERY_NS	NSEC_PER_SEC
/* The table of the latest walks the probe looks at: a power of two. */
#define XM_WALKED	256

static unsigned int xmaps_max = 8192;
module_param(xmaps_max, uint, 0444);
MODULE_PARM_DESC(xmaps_max, "Executable mappings kept for processes with user-space chains, also after they exit (0: none; default 8192)");

static unsigned int xmaps_procs = 512;
module_param(xmaps_procs, uint, 0444);
MODULE_PARM_DESC(xmaps_procs, "Processes whose executable mappings are kept (default 512)");

static unsigned int xmaps_paths = 1024;
module_param(xmaps_paths, uint, 0444);
MODULE_PARM_DESC(xmaps_paths, "Files the kept mappings name (default 1024)");

/**
 * struct xm_req - a process to walk
 * @mm: its address space, with a reference (mm_users)
 * @task: the task that asked, with a reference, for its root directory
 * @pid: its pid
 * @start_ns: its start time
 */
struct xm_req {
	struct mm_struct *mm;
	struct task_struct *task;
	u32 pid;
	u64 start_ns;
};

/* The request queue: probes and timer interrupts add, the work item takes. */
static DEFINE_RAW_SPINLOCK(req_lock);
static struct xm_req reqs[XM_REQS];
static unsigned int req_head, req_tail;
static atomic64_t lost;
static bool ready;

/**
 * struct xm_walked - the latest walk of an address space
 * @mm: the address space (an identity only: never dereferenced from here)
 * @pid: its process's pid
 * @map_count: its number of mappings at the walk
 * @start_ns: its process's start time
 */
struct xm_walked {
	struct mm_struct *mm;
	u32 pid;
	int map_count;
	u64 start_ns;
};

/*
 * Written by the work item alone, read by probes without a lock (each
 * field with READ_ONCE/WRITE_ONCE); indexed by the address space's hash.
 */
static struct xm_walked walked[XM_WALKED];

static unsigned int walked_slot(const struct mm_struct *mm)
{
	return hash_ptr((void *)mm, ilog2(XM_WALKED));
}

/* The pool: the work item and dumps (process context), under pool_lock. */
static DEFINE_MUTEX(pool_lock);
static struct tipme_xmp pool;
static u64 walks;

/* The work item's own. */
static struct tipme_xm_found *found;
static char *pathbuf, *rootbuf;
static u8 *elfbuf;

static void xm_work_fn(struct work_struct *work);
static DECLARE_WORK(xm_work, xm_work_fn);

static void xm_irq_fn(struct irq_work *w)
{
	queue_work(system_unbound_wq, &xm_work);
}

static DEFINE_IRQ_WORK(xm_irq, xm_irq_fn);

/**
 * tipme_xmaps_request() - have the current process's mappings walked
 *
 * Called when a chain of the current task is numbered for the first time.
 * A process already waiting for its walk is not queued twice, nor one
 * walked since its number of mappings last changed.
 *
 * Context: the sched_switch probe or the profiler's timer (preemption or
 * interrupts disabled, maybe the runqueue's lock held).  Never sleeps.
 */
void tipme_xmaps_request(void)
{
	struct mm_struct *mm = current->mm;
	const struct xm_walked *w;
	unsigned long flags;
	bool kick = false;
	unsigned int i;

	if (!READ_ONCE(ready) || !mm || (current->flags & PF_KTHREAD))
		return;
	w = &walked[walked_slot(mm)];
	if (READ_ONCE(w->mm) == mm && READ_ONCE(w->pid) == current->tgid &&
	    READ_ONCE(w->start_ns) == current->group_leader->start_time &&
	    READ_ONCE(w->map_count) == READ_ONCE(mm->map_count))
		return;
	raw_spin_lock_irqsave(&req_lock, flags);
	for (i = req_head; i != req_tail; i++)
		if (reqs[i % XM_REQS].mm == mm)
			goto out;
	if (req_tail - req_head >= XM_REQS) {
		atomic64_inc(&lost);
		goto out;
	}
	mmget(mm);
	get_task_struct(current);
	reqs[req_tail % XM_REQS] = (struct xm_req){
		.mm = mm, .task = current, .pid = current->tgid,
		.start_ns = current->group_leader->start_time,
	};
	req_tail++;
	kick = true;
out:
	raw_spin_unlock_irqrestore(&req_lock, flags);
	if (kick)
		irq_work_queue(&xm_irq);
}

/* Is process (@pid, @start_ns) still there?  Context: any but NMI. */
static bool proc_alive(u32 pid, u64 start_ns)
{
	struct task_struct *t;
	bool alive;

	rcu_read_lock();
	t = pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_TGID);
	alive = t && t->start_time == start_ns && t->mm;
	rcu_read_unlock();
	return alive;
}

/*
 * Keep the @n mappings a walk of (@pid, @start_ns) found in found[].
 * Context: the work item.
 */
static void pool_store(u32 pid, u64 start_ns, unsigned int n, bool partial)
{
	mutex_lock(&pool_lock);
	/* the time under the lock: exits are noted in its order */
	tipme_xmp_store(&pool, pid, start_ns, found, n, partial,
			ktime_get_ns());
	mutex_unlock(&pool_lock);
}

/*
 * Walk @mm's executable file mappings into found[], each with a reference
 * on its file; *@count: its number of mappings (all kinds) as walked.
 * Return: how many, or -EBUSY if its lock stayed taken.
 * Context: the work item.
 */
static int walk_mm(struct mm_struct *mm, bool *partial, int *count)
{
	struct vm_area_struct *vma;
	unsigned int n = 0, tries;

	for (tries = 0; !mmap_read_trylock(mm); tries++) {
		if (tries == XM_TRIES)
			return -EBUSY;
		usleep_range(1000, 2000);
	}
	*partial = false;
	*count = mm->map_count;
	{
		VMA_ITERATOR(vmi, mm, 0);

		for_each_vma(vmi, vma) {
			struct tipme_xm_found *f = &found[n];

			if (!(vma->vm_flags & VM_EXEC) || !vma->vm_file)
				continue;
			if (n == XM_WALK_MAX) {
				*partial = true;
				break;
			}
			f->start = vma->vm_start;
			f->end = vma->vm_end;
			f->offset = (u64)vma->vm_pgoff << PAGE_SHIFT;
			f->file = get_file(vma->vm_file);
			n++;
		}
	}
	mmap_read_unlock(mm);
	return n;
}

/*
 * The path of @t's root directory (from the work item's root), in
 * rootbuf; *@len its length.  Return: NULL once @t has no root (it
 * exited).  Context: the work item.
 */
static const char *xm_root(struct task_struct *t, size_t *len)
{
	struct path root;
	char *s;

	task_lock(t);
	if (!t->fs) {
		task_unlock(t);
		return NULL;
	}
	get_fs_root(t->fs, &root);
	task_unlock(t);
	s = d_path(&root, rootbuf, PATH_MAX);
	path_put(&root);
	if (IS_ERR(s))
		return NULL;
	*len = strlen(s);
	return s;
}

/*
 * elfid.c's read of a mapped file (every mapping's file is open for
 * reading: mmap() asks for it; kernel_read() warns otherwise).
 * Context: the work item.
 */
static int xm_file_read(void *ctx, u64 off, void *buf, u32 len)
{
	struct file *file = ctx;
	loff_t pos = off;
	ssize_t got;

	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	if (off > (u64)LLONG_MAX - len)
		return -EINVAL;
	while (len) {
		got = kernel_read(file, buf, len, &pos);
		if (got <= 0)
			return got ? (int)got : -EINVAL;
		buf += got;
		len -= got;
	}
	return 0;
}

/*
 * The build-id of a path slot that names @f's file, copied to @f.
 * Return: false if no slot does.  Context: the work item.
 */
static bool xm_bid_known(struct tipme_xm_file *f)
{
	bool known;

	mutex_lock(&pool_lock);
	known = tipme_xmp_bid(&pool, f);
	mutex_unlock(&pool_lock);
	return known;
}

/*
 * Fill in the path, device, inode and build-id of the @n mappings found[]
 * holds for task @t, and drop their files' references; a mapping whose
 * path cannot be made is dropped.  Return: how many are left.
 * Context: the work item.
 */
static unsigned int xm_describe(struct task_struct *t, unsigned int n)
{
	const char *root;
	size_t rlen = 0;
	unsigned int i, j, k = 0;
	int got;

	root = xm_root(t, &rlen);
	for (i = 0; i < n; i++) {
		struct tipme_xm_found *fd = &found[k];
		struct tipme_xm_file *f = &fd->f;
		struct file *file = found[i].file;
		const struct inode *inode;
		bool in_root = false;
		char *s;

		if (k != i)
			*fd = found[i];
		s = d_path(tipme_file_user_path(file), pathbuf, PATH_MAX);
		if (IS_ERR(s)) {
			fput(file);
			continue;
		}
		/* from the process's root: "/newroot/usr/bin/x" is "/usr/bin/x" */
		if (root && rlen == 1) {
			in_root = true;
		} else if (root && !strncmp(s, root, rlen) && s[rlen] == '/') {
			s += rlen;
			in_root = true;
		}
		inode = tipme_file_user_inode(file);
		f->ino = inode->i_ino;
		f->dev = new_encode_dev(inode->i_sb->s_dev);
		f->root = in_root;
		f->len = min_t(size_t, strlen(s), sizeof(f->s));
		memcpy(f->s, s, f->len);
		f->hash = jhash(f->s, f->len, f->dev ^ (u32)f->ino);
		/* a file's build-id is read once: another mapping, the pool */
		for (j = 0; j < k && found[j].file != file; j++)
			;
		if (j < k) {
			f->bid_len = found[j].f.bid_len;
			memcpy(f->bid, found[j].f.bid, f->bid_len);
		} else if (!xm_bid_known(f)) {
			got = tipme_elf_build_id(xm_file_read, file, elfbuf,
						 f->bid, sizeof(f->bid));
			f->bid_len = got > 0 ? got : 0;
		}
		k++;
	}
	for (i = 0; i < k; i++) {
		fput(found[i].file);
		found[i].file = NULL;
	}
	return k;
}

/* Note that @r's address space was walked with @count mappings. */
static void note_walked(const struct xm_req *r, int count)
{
	struct xm_walked *w = &walked[walked_slot(r->mm)];

	WRITE_ONCE(w->mm, NULL);	/* (no match while it changes) */
	WRITE_ONCE(w->pid, r->pid);
	WRITE_ONCE(w->start_ns, r->start_ns);
	WRITE_ONCE(w->map_count, count);
	WRITE_ONCE(w->mm, r->mm);
}

static void xm_work_fn(struct work_struct *work)
{
	struct xm_req r;
	bool partial;
	int n, count;

	for (;;) {
		raw_spin_lock_irq(&req_lock);
		if (req_head == req_tail) {
			raw_spin_unlock_irq(&req_lock);
			return;
		}
		r = reqs[req_head % XM_REQS];
		raw_spin_unlock_irq(&req_lock);
		/*
		 * Taken off the queue only once walked, so that a request
		 * for the same address space meanwhile is not queued again.
		 */
		n = walk_mm(r.mm, &partial, &count);
		if (n >= 0)
			note_walked(&r, count);
		raw_spin_lock_irq(&req_lock);
		req_head++;
		raw_spin_unlock_irq(&req_lock);
		mmput(r.mm);
		if (n < 0) {
			put_task_struct(r.task);
			atomic64_inc(&lost);
			continue;
		}
		n = xm_describe(r.task, n);
		put_task_struct(r.task);
		mutex_lock(&pool_lock);
		walks++;
		mutex_unlock(&pool_lock);
		pool_store(r.pid, r.start_ns, n, partial);
	}
}

/**
 * tipme_xmaps_init() - allocate the pool
 *
 * Context: process context (module init), before the probes that number
 * user-space chains are attached.
 * Return: 0, -EINVAL or -ENOMEM.
 */
int tipme_xmaps_init(void)
{
	bool failed;
	int err;

	if (!xmaps_max)
		return 0;
	if (xmaps_max > (1U << 20) || !xmaps_procs || xmaps_procs > 65536 ||
	    !xmaps_paths || xmaps_paths > 65536) {
		pr_err("xmaps_max at most 1048576, xmaps_procs and xmaps_paths 1 to 65536\n");
		return -EINVAL;
	}
	/* the pool's three arrays, each a step of the load as before */
	failed = tipme_fail_step("xmaps processes");
	failed |= tipme_fail_step("xmaps mappings");
	failed |= tipme_fail_step("xmaps paths");
	err = failed ? -ENOMEM :
	      tipme_xmp_init(&pool, xmaps_procs, xmaps_max, xmaps_paths,
			     tipme_exec_retention_ns(), proc_alive);
	if (err)
		return err;
	pool.gc_every_ns = XM_GC_EVERY_NS;
	found = tipme_fail_step("xmaps walk") ? NULL :
		vmalloc(array_size(XM_WALK_MAX, sizeof(*found)));
	pathbuf = kmalloc(PATH_MAX, GFP_KERNEL);
	rootbuf = kmalloc(PATH_MAX, GFP_KERNEL);
	elfbuf = kmalloc(TIPME_ELFID_SCRATCH, GFP_KERNEL);
	if (!found || !pathbuf || !rootbuf || !elfbuf) {
		tipme_xmaps_exit();
		return -ENOMEM;
	}
	WRITE_ONCE(ready, true);
	return 0;
}

/**
 * tipme_xmaps_exit() - wait for the work item, drop what is queued, free
 *
 * Context: process context; nothing requests walks any more (the probes
 * and the profiler are stopped).
 */
void tipme_xmaps_exit(void)
{
	WRITE_ONCE(ready, false);
	irq_work_sync(&xm_irq);
	flush_work(&xm_work);
	for (; req_head != req_tail; req_head++) {
		mmput(reqs[req_head % XM_REQS].mm);
		put_task_struct(reqs[req_head % XM_REQS].task);
	}
	tipme_xmp_free(&pool);
	vfree(found);
	kfree(pathbuf);
	kfree(rootbuf);
	kfree(elfbuf);
	found = NULL;
	pathbuf = NULL;
	rootbuf = NULL;
	elfbuf = NULL;
}

/* Walk now what is requested, and wait for it.  Context: process. */
static void xm_flush(void)
{
	irq_work_sync(&xm_irq);
	flush_work(&xm_work);
}

/**
 * tipme_xmaps_hdr() - the header of the dump's captured mappings
 * @h: filled in
 *
 * Waits for the walks already requested, and notes the processes that
 * exited since.
 *
 * Context: process context (the dump).
 */
void tipme_xmaps_hdr(struct tipme_xmaps_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->hdr_size = sizeof(*h);
	h->lost = atomic64_read(&lost);
	if (!READ_ONCE(ready))
		return;
	xm_flush();
	mutex_lock(&pool_lock);
	tipme_xmp_gc(&pool, ktime_get_ns());
	h->count = pool.nmaps_used;
	h->capacity = xmaps_max;
	h->procs = pool.nprocs_used;
	h->walks = walks;
	h->refused = pool.refused;
	h->evicted = pool.evicted;
	h->retention_ns = pool.retention_ns;
	mutex_unlock(&pool_lock);
}

/**
 * tipme_xmaps_read() - copy kept mappings for a dump
 * @pos: the first mapping slot to look at; advanced past what was copied
 * @since: the dump's own: set by the first part, read by the others
 * @buf: destination: struct tipme_xmap entries, each followed by its path
 *	 and its file's build-id
 * @room: bytes available
 * @done: set when every slot has been looked at
 *
 * The first call waits for the walks already requested and notes the
 * processes that exited since, as tipme_xmaps_hdr() does; the dump then
 * has the processes as they were stored at that moment (tipme_xmp_read()).
 *
 * Context: process context (the dump).
 * Return: bytes copied.
 */
size_t tipme_xmaps_read(u32 *pos, u64 *since, void *buf, size_t room,
			bool *done)
{
	size_t off;

	*done = true;
	if (!READ_ONCE(ready))
		return 0;
	if (!*pos)	/* the first part: the walks requested until now */
		xm_flush();
	mutex_lock(&pool_lock);
	if (!*pos) {
		tipme_xmp_gc(&pool, ktime_get_ns());
		*since = pool.stores;
	}
	off = tipme_xmp_read(&pool, pos, *since, buf, room, done);
	mutex_unlock(&pool_lock);
	return off;
}

/**
 * tipme_xmaps_params_text() - "key=value\n" lines for the dump's parameters
 * @buf: destination
 * @size: its size
 *
 * Context: any.
 * Return: length written, as scnprintf().
 */
int tipme_xmaps_params_text(char *buf, size_t size)
{
	return scnprintf(buf, size, "xmaps_max=%u\nxmaps_procs=%u\nxmaps_paths=%u\n",
			 xmaps_max, xmaps_procs, xmaps_paths);
}
