// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tipme: the rings mapped read-only into a dumping process, so a dump
 * writes the ring's bytes to its file straight from the mapping instead of
 * receiving a copy of them in netlink messages.  The mapping, the check
 * that a copy is intact and the thaw of a frozen window are here; which
 * sub-buffers to copy comes from a mapped netlink dump (dump.c).  The
 * protocol is described in the UAPI header, section 5.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/tipme.h>
#include "compat.h"
#include "recorder.h"
#include "control/ringdev.h"

/* Pages handed to vm_insert_pages() at a time. */
#define RINGDEV_BATCH	128

static unsigned long ring_pages(void)
{
	return 1UL << (tipme.sub_shift + tipme.nsub_shift - PAGE_SHIFT);
}

static int ringdev_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	if (file->f_mode & FMODE_WRITE)
		return -EINVAL;
	return 0;
}

/* Map pages [@first, @first + @n) of the rings laid end to end at @addr. */
static int map_pages(struct vm_area_struct *vma, unsigned long addr,
		     unsigned long first, unsigned long n)
{
	unsigned long per = ring_pages(), done = 0, i, k, left;
	struct page **pages;
	int err = 0;

	pages = kmalloc_array(RINGDEV_BATCH, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	while (done < n) {
		k = min_t(unsigned long, n - done, RINGDEV_BATCH);
		for (i = 0; i < k; i++) {
			unsigned long pg = first + done + i;
			struct tipme_ring *r;

			/* Rings exist for possible CPUs only. */
			if (!cpu_possible(pg / per)) {
				err = -EINVAL;
				goto out;
			}
			r = per_cpu_ptr(tipme.rings, pg / per);
			pages[i] = vmalloc_to_page(r->data +
						   ((pg % per) << PAGE_SHIFT));
		}
		left = k;
		err = vm_insert_pages(vma, addr + (done << PAGE_SHIFT), pages,
				      &left);
		if (err)
			break;
		if (left) {
			err = -ENOMEM;
			break;
		}
		done += k;
		cond_resched();
	}
out:
	kfree(pages);
	return err;
}

static int ringdev_mmap(struct file *file, struct vm_area_struct *vma)
{
	unsigned long n = vma_pages(vma);
	unsigned long total = ring_pages() * nr_cpu_ids;

	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	/* The pool (pool=1) is not mapped: its dumps send copies. */
	if (tipme.pool)
		return -EOPNOTSUPP;
	if (vma->vm_pgoff >= total || n > total - vma->vm_pgoff)
		return -EINVAL;
	tipme_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	tipme_vm_flags_clear(vma, VM_MAYWRITE | VM_MAYEXEC);
	return map_pages(vma, vma->vm_start, vma->vm_pgoff, n);
}

static long ringdev_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct tipme_ring_check c;
	u32 gen;

	switch (cmd) {
	case TIPME_IOC_RING_CHECK:
		if (copy_from_user(&c, (void __user *)arg, sizeof(c)))
			return -EFAULT;
		if (c.cpu >= nr_cpu_ids || !cpu_possible(c.cpu) || c.reserved)
			return -EINVAL;
		if (tipme.pool)
			return -EOPNOTSUPP;
		c.oldest_intact =
			tipme_ring_oldest_intact(per_cpu_ptr(tipme.rings, c.cpu));
		if (copy_to_user((void __user *)arg, &c, sizeof(c)))
			return -EFAULT;
		return 0;
	case TIPME_IOC_THAW:
		if (get_user(gen, (u32 __user *)arg))
			return -EFAULT;
		if (!gen)
			return -EINVAL;
		tipme_recorder_thaw(gen);
		return 0;
	}
	return -ENOTTY;
}

static const struct file_operations ringdev_fops = {
	.owner = THIS_MODULE,
	.open = ringdev_open,
	.mmap = ringdev_mmap,
	.unlocked_ioctl = ringdev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice ringdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = TIPME_DEV_NAME,
	.fops = &ringdev_fops,
	.mode = 0600,
};

/**
 * tipme_ringdev_init() - create /dev/tipme
 *
 * Context: module init, after the rings exist.
 * Return: 0 or a negative errno.
 */
int tipme_ringdev_init(void)
{
	return misc_register(&ringdev);
}

/**
 * tipme_ringdev_exit() - remove /dev/tipme
 *
 * A mapping holds the device file and with it the module, so no mapping
 * outlives the rings.
 *
 * Context: module exit.
 */
void tipme_ringdev_exit(void)
{
	misc_deregister(&ringdev);
}
