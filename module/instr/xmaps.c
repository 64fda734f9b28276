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
 * hold the runqueue's lock, under which no task may be woken.  The work
 * item walks the address space's executable file mappings under its
 * mmap lock, taken with trylock (a few tries, a millisecond apart, then the
 * walk is counted lost: a writer that holds the lock for long must not
 * wedge the work item and rmmod with it), and replaces what was kept of
 * that process.  Holding the reference keeps the mappings walkable even
 * when the process exits before the work item runs.  A new chain of a
 * process walks it again, so a library it loaded later (dlopen) is found
 * once a chain goes through it.
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
 * What is kept: per process its pid and start time; per mapping its
 * range, file offset and a path slot; per path slot (shared by every
 * mapping of that file) the path, device, inode and build-id.  Each is a
 * fixed array allocated at load.  A process is noted exited when the work item
 * or a dump finds its pid gone (or taken by a newer process), and dropped
 * once the exec table's retention has passed since; when room runs out,
 * the process exited longest ago goes first, then the one walked longest
 * ago (counted as evicted).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/irq_work.h>
#include <linux/jhash.h>
#include <linux/kdev_t.h>
#include <linux/kernel.h>
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

#define XM_REQS		64	/* walks waiting for the work item */
#define XM_WALK_MAX	128	/* mappings one walk keeps, at most */
#define XM_PATH_MAX	256	/* bytes of a path kept (TIPME_SEC_XMAPS: 255) */
#define XM_TRIES	10	/* tries of the mmap lock before a walk is lost */

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
 * struct xm_proc - one process whose mappings are kept
 * @used: the slot is taken
 * @partial: some of its mappings found no room
 * @pid: its pid (thread group id)
 * @start_ns: its start time, CLOCK_MONOTONIC
 * @walk_ns: when its mappings were walked, CLOCK_MONOTONIC
 * @exit_ns: when it was found exited, CLOCK_MONOTONIC; 0 while alive
 * @head: its first mapping, -1 for none
 */
struct xm_proc {
	bool used;
	bool partial;
	u32 pid;
	u64 start_ns;
	u64 walk_ns;
	u64 exit_ns;
	s32 head;
};

/**
 * struct xm_map - one mapping
 * @start: its first address
 * @end: the address after it
 * @offset: file offset of @start
 * @proc: its process's slot, -1 when free
 * @next: the process's next mapping, or the next free slot
 * @path: its path slot
 */
struct xm_map {
	u64 start;
	u64 end;
	u64 offset;
	s32 proc;
	s32 next;
	s32 path;
};

/**
 * struct xm_path - one file the mappings name
 * @refs: mappings naming it (0: free)
 * @hash: of @dev, @ino and the path
 * @ino: inode number
 * @dev: device, as stat(2) gives it
 * @len: bytes of @s
 * @root: @s is from the process's root (TIPME_XMAP_ROOT)
 * @bid_len: bytes of @bid (0: the file has no build-id the module read)
 * @bid: the file's build-id
 * @s: the path, no NUL
 */
struct xm_path {
	u32 refs;
	u32 hash;
	u64 ino;
	u32 dev;
	u16 len;
	bool root;
	u8 bid_len;
	u8 bid[TIPME_XMAP_BUILD_ID_MAX];
	char s[XM_PATH_MAX - 1];
};

/*
 * One mapping as a walk finds it, before it is stored; @file holds a
 * reference from the walk until its path and build-id are read.
 */
struct xm_found {
	u64 start;
	u64 end;
	u64 offset;
	struct file *file;
	u64 ino;
	u32 dev;
	u32 hash;
	u16 len;
	bool root;
	u8 bid_len;
	u8 bid[TIPME_XMAP_BUILD_ID_MAX];
	char s[XM_PATH_MAX - 1];
};

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

/* The pool: the work item and dumps (process context), under pool_lock. */
static DEFINE_MUTEX(pool_lock);
static struct xm_proc *procs;
static struct xm_map *maps;
static struct xm_path *paths;
static struct xm_found *found;
static char *pathbuf, *rootbuf;
static u8 *elfbuf;
static s32 free_map;
static u32 nmaps_used, nprocs_used;
static u64 walks, refused, evicted, retention_ns;

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
 * A process already waiting for its walk is not queued twice.
 *
 * Context: the sched_switch probe or the profiler's timer (preemption or
 * interrupts disabled, maybe the runqueue's lock held).  Never sleeps.
 */
void tipme_xmaps_request(void)
{
	struct mm_struct *mm = current->mm;
	unsigned long flags;
	bool kick = false;
	unsigned int i;

	if (!READ_ONCE(ready) || !mm || (current->flags & PF_KTHREAD))
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

/* Free @p's mappings and the slot.  Context: pool_lock held. */
static void proc_release(struct xm_proc *p)
{
	s32 i, next;

	for (i = p->head; i >= 0; i = next) {
		struct xm_map *m = &maps[i];

		next = m->next;
		paths[m->path].refs--;
		m->proc = -1;
		m->next = free_map;
		free_map = i;
		nmaps_used--;
	}
	memset(p, 0, sizeof(*p));
	p->head = -1;
	nprocs_used--;
}

/*
 * Note the processes that exited, drop those whose retention ran out.
 * Context: pool_lock held.
 */
static void pool_gc(u64 now)
{
	unsigned int i;

	for (i = 0; i < xmaps_procs; i++) {
		struct xm_proc *p = &procs[i];

		if (!p->used)
			continue;
		if (!p->exit_ns && !proc_alive(p->pid, p->start_ns))
			p->exit_ns = now;
		if (p->exit_ns && now - p->exit_ns >= retention_ns)
			proc_release(p);
	}
}

/*
 * Make room by evicting a process other than @keep: the one exited longest
 * ago, else the one walked longest ago.  Return: false if there is none.
 * Context: pool_lock held.
 */
static bool pool_evict(const struct xm_proc *keep)
{
	struct xm_proc *best = NULL, *p;
	unsigned int i;

	for (i = 0; i < xmaps_procs; i++) {
		p = &procs[i];
		if (!p->used || p == keep)
			continue;
		if (!best || (p->exit_ns && !best->exit_ns) ||
		    (!!p->exit_ns == !!best->exit_ns &&
		     (p->exit_ns ? p->exit_ns < best->exit_ns :
				   p->walk_ns < best->walk_ns)))
			best = p;
	}
	if (!best)
		return false;
	proc_release(best);
	evicted++;
	return true;
}

/* Does path slot @p name the file of @f? */
static bool xm_path_same(const struct xm_path *p, const struct xm_found *f)
{
	return p->hash == f->hash && p->ino == f->ino && p->dev == f->dev &&
	       p->root == f->root && p->len == f->len &&
	       !memcmp(p->s, f->s, f->len);
}

/* The path slot of @f, taken or shared; -1 if none is free. */
static s32 xm_path_get(const struct xm_found *f)
{
	s32 i, free = -1;

	for (i = 0; i < (s32)xmaps_paths; i++) {
		struct xm_path *p = &paths[i];

		if (!p->refs) {
			if (free < 0)
				free = i;
			continue;
		}
		if (xm_path_same(p, f)) {
			p->refs++;
			return i;
		}
	}
	if (free >= 0) {
		struct xm_path *p = &paths[free];

		p->refs = 1;
		p->hash = f->hash;
		p->ino = f->ino;
		p->dev = f->dev;
		p->len = f->len;
		p->root = f->root;
		p->bid_len = f->bid_len;
		memcpy(p->bid, f->bid, f->bid_len);
		memcpy(p->s, f->s, f->len);
	}
	return free;
}

/*
 * The build-id of a path slot that names @f's file, copied to @f.
 * Return: false if no slot does.  Context: the work item.
 */
static bool xm_bid_known(struct xm_found *f)
{
	bool known = false;
	s32 i;

	mutex_lock(&pool_lock);
	for (i = 0; i < (s32)xmaps_paths && !known; i++) {
		const struct xm_path *p = &paths[i];

		if (p->refs && xm_path_same(p, f)) {
			f->bid_len = p->bid_len;
			memcpy(f->bid, p->bid, p->bid_len);
			known = true;
		}
	}
	mutex_unlock(&pool_lock);
	return known;
}

/* The slot of process (@pid, @start_ns), emptied, or a new one; or NULL. */
static struct xm_proc *proc_slot(u32 pid, u64 start_ns)
{
	struct xm_proc *p, *free = NULL;
	unsigned int i;

	for (i = 0; i < xmaps_procs; i++) {
		p = &procs[i];
		if (!p->used) {
			if (!free)
				free = p;
			continue;
		}
		if (p->pid == pid && p->start_ns == start_ns) {
			proc_release(p);
			free = p;
			break;
		}
	}
	if (!free && pool_evict(NULL))
		return proc_slot(pid, start_ns);
	if (free) {
		free->used = true;
		free->pid = pid;
		free->start_ns = start_ns;
		free->head = -1;
		nprocs_used++;
	}
	return free;
}

/* Keep the @n mappings a walk of (@pid, @start_ns) found. */
static void pool_store(u32 pid, u64 start_ns, unsigned int n, bool partial)
{
	u64 now = ktime_get_ns();
	struct xm_proc *p;
	s32 *tail, m, pi;
	unsigned int i;

	mutex_lock(&pool_lock);
	pool_gc(now);
	p = proc_slot(pid, start_ns);
	if (!p) {
		refused += n;
		goto out;
	}
	p->walk_ns = now;
	p->partial = partial;
	tail = &p->head;
	for (i = 0; i < n; i++) {
		const struct xm_found *f = &found[i];

		while (free_map < 0 && pool_evict(p))
			;
		pi = free_map >= 0 ? xm_path_get(f) : -1;
		if (pi < 0) {
			refused += n - i;
			p->partial = true;
			break;
		}
		m = free_map;
		free_map = maps[m].next;
		maps[m] = (struct xm_map){
			.start = f->start, .end = f->end, .offset = f->offset,
			.proc = p - procs, .next = -1, .path = pi,
		};
		*tail = m;
		tail = &maps[m].next;
		nmaps_used++;
	}
out:
	mutex_unlock(&pool_lock);
}

/*
 * Walk @mm's executable file mappings into found[], each with a reference
 * on its file.  Return: how many, or -EBUSY if its lock stayed taken.
 * Context: the work item.
 */
static int walk_mm(struct mm_struct *mm, bool *partial)
{
	struct vm_area_struct *vma;
	unsigned int n = 0, tries;

	for (tries = 0; !mmap_read_trylock(mm); tries++) {
		if (tries == XM_TRIES)
			return -EBUSY;
		usleep_range(1000, 2000);
	}
	*partial = false;
	{
		VMA_ITERATOR(vmi, mm, 0);

		for_each_vma(vmi, vma) {
			struct xm_found *f = &found[n];

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
		struct xm_found *f = &found[k];
		struct file *file = found[i].file;
		const struct inode *inode;
		bool in_root = false;
		char *s;

		if (k != i)
			*f = found[i];
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
			f->bid_len = found[j].bid_len;
			memcpy(f->bid, found[j].bid, f->bid_len);
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

static void xm_work_fn(struct work_struct *work)
{
	struct xm_req r;
	bool partial;
	int n;

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
		n = walk_mm(r.mm, &partial);
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
	unsigned int i;

	if (!xmaps_max)
		return 0;
	if (xmaps_max > (1U << 20) || !xmaps_procs || xmaps_procs > 65536 ||
	    !xmaps_paths || xmaps_paths > 65536) {
		pr_err("xmaps_max at most 1048576, xmaps_procs and xmaps_paths 1 to 65536\n");
		return -EINVAL;
	}
	retention_ns = tipme_exec_retention_ns();
	procs = tipme_fail_step("xmaps processes") ? NULL :
		vzalloc(array_size(xmaps_procs, sizeof(*procs)));
	maps = tipme_fail_step("xmaps mappings") ? NULL :
	       vmalloc(array_size(xmaps_max, sizeof(*maps)));
	paths = tipme_fail_step("xmaps paths") ? NULL :
		vzalloc(array_size(xmaps_paths, sizeof(*paths)));
	found = tipme_fail_step("xmaps walk") ? NULL :
		vmalloc(array_size(XM_WALK_MAX, sizeof(*found)));
	pathbuf = kmalloc(PATH_MAX, GFP_KERNEL);
	rootbuf = kmalloc(PATH_MAX, GFP_KERNEL);
	elfbuf = kmalloc(TIPME_ELFID_SCRATCH, GFP_KERNEL);
	if (!procs || !maps || !paths || !found || !pathbuf || !rootbuf ||
	    !elfbuf) {
		tipme_xmaps_exit();
		return -ENOMEM;
	}
	for (i = 0; i < xmaps_procs; i++)
		procs[i].head = -1;
	for (i = 0; i < xmaps_max; i++)
		maps[i] = (struct xm_map){
			.proc = -1, .next = i + 1 < xmaps_max ? (s32)i + 1 : -1,
		};
	free_map = 0;
	nmaps_used = 0;
	nprocs_used = 0;
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
	vfree(procs);
	vfree(maps);
	vfree(paths);
	vfree(found);
	kfree(pathbuf);
	kfree(rootbuf);
	kfree(elfbuf);
	procs = NULL;
	maps = NULL;
	paths = NULL;
	found = NULL;
	pathbuf = NULL;
	rootbuf = NULL;
	elfbuf = NULL;
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
	flush_work(&xm_work);
	mutex_lock(&pool_lock);
	pool_gc(ktime_get_ns());
	h->count = nmaps_used;
	h->capacity = xmaps_max;
	h->procs = nprocs_used;
	h->walks = walks;
	h->refused = refused;
	h->evicted = evicted;
	h->retention_ns = retention_ns;
	mutex_unlock(&pool_lock);
}

/**
 * tipme_xmaps_read() - copy kept mappings for a dump
 * @pos: the first mapping slot to look at; advanced past what was copied
 * @buf: destination: struct tipme_xmap entries, each followed by its path
 *	 and its file's build-id
 * @room: bytes available
 * @done: set when every slot has been looked at
 *
 * The first call waits for the walks already requested and notes the
 * processes that exited since, as tipme_xmaps_hdr() does.
 *
 * Context: process context (the dump).
 * Return: bytes copied.
 */
size_t tipme_xmaps_read(u32 *pos, void *buf, size_t room, bool *done)
{
	struct tipme_xmap *out;
	size_t off = 0, need;

	*done = true;
	if (!READ_ONCE(ready))
		return 0;
	if (!*pos)	/* the first part: the walks requested until now */
		flush_work(&xm_work);
	mutex_lock(&pool_lock);
	if (!*pos)
		pool_gc(ktime_get_ns());
	for (; *pos < xmaps_max; (*pos)++) {
		const struct xm_map *m = &maps[*pos];
		const struct xm_proc *p;
		const struct xm_path *pa;

		if (m->proc < 0)
			continue;
		p = &procs[m->proc];
		pa = &paths[m->path];
		need = ALIGN(sizeof(*out) + pa->len + pa->bid_len, 8);
		if (off + need > room) {
			*done = false;
			break;
		}
		out = buf + off;
		memset(out, 0, need);
		out->size = need;
		out->path_len = pa->len;
		out->pid = p->pid;
		out->start_mono_ns = p->start_ns;
		out->start = m->start;
		out->end = m->end;
		out->offset = m->offset;
		out->ino = pa->ino;
		out->dev = pa->dev;
		out->flags = (p->exit_ns ? TIPME_XMAP_EXITED : 0) |
			     (p->partial ? TIPME_XMAP_PARTIAL : 0) |
			     (pa->root ? TIPME_XMAP_ROOT : 0) |
			     (u32)pa->bid_len << 8;
		memcpy(out + 1, pa->s, pa->len);
		memcpy((char *)(out + 1) + pa->len, pa->bid, pa->bid_len);
		off += need;
	}
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
