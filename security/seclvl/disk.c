// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: block devices, the disks behind
 * character devices, and loop
 *
 * blockdev_write refuses every write to a disk; mounted_blockdev_write
 * those that would write under a user of it: a mounted filesystem, an
 * exclusive opener, a loop device bound to it.  A write through sg, bsg or
 * an NVMe character device drives a disk seclvl cannot see, so it counts
 * as a write to a disk in use.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <linux/blkdev.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/major.h>
#include <linux/miscdevice.h>
#include <linux/pagemap.h>
#include <linux/rcupdate.h>
#include <linux/xarray.h>

#include "devrules.h"
#include "seclvl.h"

/**
 * seclvl_backs_loop - whether a mapping is a loop device's backing store
 * @mapping: a file's or a block device's mapping
 *
 * The loop driver clears __GFP_IO there while it is bound (loop_configure(),
 * loop_change_fd()), gives it back when unbinding or when a configure
 * fails, and nothing else in the kernel clears it.  With two loop devices
 * over one file the first to unbind restores the mask early.
 *
 * Return: true if @mapping backs a loop device.
 */
bool seclvl_backs_loop(struct address_space *mapping)
{
	return !(mapping_gfp_mask(mapping) & __GFP_IO);
}

/**
 * seclvl_check_loop_backing - judge a write to a loop device's backing store
 * @mapping: the mapping written
 * @dentry: its file, for the log
 * @what: how it is written, for the log
 *
 * Writing a loop device's backing file writes the loop device's disk,
 * which seclvl cannot tell from one that is mounted: both restrictions on
 * disk writes apply, the first enforced one refuses.
 *
 * Return: 0, or -EPERM from seclvl_deny().
 */
int seclvl_check_loop_backing(struct address_space *mapping,
			      const struct dentry *dentry, const char *what)
{
	if (!seclvl_backs_loop(mapping))
		return 0;
	return seclvl_deny(SECLVL_BLOCKDEV_WRITE, true,
			   "%s %pd, which backs a loop device", what, dentry) ?:
	       seclvl_deny(SECLVL_MOUNTED_BLOCKDEV_WRITE, true,
			   "%s %pd, which backs a loop device", what, dentry);
}

#ifdef CONFIG_BLOCK
/* Whether a partition of the disk @whole backs a loop device. */
static bool seclvl_part_backs_loop(struct block_device *whole)
{
	struct block_device *part;
	unsigned long idx;
	bool ret = false;

	rcu_read_lock();
	xa_for_each_start(&whole->bd_disk->part_tbl, idx, part, 1) {
		if (seclvl_backs_loop(part->bd_mapping)) {
			ret = true;
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}

/* Whether @bdev, its whole disk or, for a disk, a partition backs a loop. */
static bool seclvl_bdev_backs_loop(struct block_device *bdev)
{
	return seclvl_backs_loop(bdev->bd_mapping) ||
	       seclvl_backs_loop(bdev_whole(bdev)->bd_mapping) ||
	       (!bdev_is_partition(bdev) && seclvl_part_backs_loop(bdev));
}

/*
 * Whether a write to @bdev through @file would write under a user of the
 * disk: @bdev is mounted or claimed other than by @file, or backs a loop
 * device, or it is a disk with such a partition, or it is a partition of
 * a disk that is itself claimed or backs a loop device.  A disk is also
 * marked as claimed while one of its partitions is, which must not block
 * writes to the other partitions.
 */
static bool seclvl_bdev_in_use(struct block_device *bdev, struct file *file)
{
	struct block_device *whole = bdev_whole(bdev);
	void *holder = READ_ONCE(bdev->bd_holder);
	struct block_device *part;
	unsigned long idx;
	bool used = true;

	/* A loop device over it, over its disk, or over one of its parts. */
	if (seclvl_bdev_backs_loop(bdev))
		return true;
	/* An O_EXCL open makes its file the holder: that is the writer. */
	if (holder)
		return holder != file;
	if (!bdev_is_partition(bdev) || !READ_ONCE(whole->bd_holder))
		return false;
	rcu_read_lock();
	xa_for_each_start(&bdev->bd_disk->part_tbl, idx, part, 1) {
		if (READ_ONCE(part->bd_holder)) {
			used = false;
			break;
		}
	}
	rcu_read_unlock();
	return used;
}

/**
 * seclvl_check_bdev_write - judge a write to a block device
 * @file: the block device file written through
 *
 * Return: 0, or -EPERM from seclvl_deny().
 */
int seclvl_check_bdev_write(struct file *file)
{
	struct block_device *bdev = file_bdev(file);
	int err;

	err = seclvl_deny(SECLVL_BLOCKDEV_WRITE, true,
			  "write to block device %pg", bdev);
	if (err || !seclvl_applies(SECLVL_MOUNTED_BLOCKDEV_WRITE) ||
	    !seclvl_bdev_in_use(bdev, file))
		return err;
	return seclvl_deny(SECLVL_MOUNTED_BLOCKDEV_WRITE, true,
			   "write to block device %pg, which is in use", bdev);
}

/*
 * A disk that backs a loop device cannot be mounted from the level of
 * mounted_blockdev_write on: the loop device would write under the
 * filesystem (a loop device bound to a mounted disk is refused when it is
 * bound).
 */
static int hook_sb_kern_mount(const struct super_block *sb)
{
	if (!sb->s_bdev || !seclvl_applies(SECLVL_MOUNTED_BLOCKDEV_WRITE) ||
	    !seclvl_bdev_backs_loop(sb->s_bdev))
		return 0;
	return seclvl_deny(SECLVL_MOUNTED_BLOCKDEV_WRITE, true,
			   "mount %pg, which backs a loop device", sb->s_bdev);
}
#else
/* Without the block layer there are no block devices to write. */
int seclvl_check_bdev_write(struct file *file)
{
	return 0;
}

static int hook_sb_kern_mount(const struct super_block *sb)
{
	return 0;
}
#endif

/*
 * sg, bsg and NVMe character devices drive a disk that seclvl cannot see,
 * so a write through them counts as a write to a disk in use.
 */
static int seclvl_check_chr_write(struct file *file)
{
	return seclvl_deny(SECLVL_BLOCKDEV_WRITE, true,
			   "write to the disk behind %pD", file) ?:
	       seclvl_deny(SECLVL_MOUNTED_BLOCKDEV_WRITE, true,
			   "write to the disk behind %pD, which may be in use",
			   file);
}

/**
 * seclvl_is_sg - whether an inode is a SCSI generic device
 * @inode: the inode
 *
 * Return: true for a character device of the sg major.
 */
bool seclvl_is_sg(struct inode *inode)
{
	return seclvl_dev_is_sg(inode->i_mode, MAJOR(inode->i_rdev));
}

/**
 * seclvl_chr_class_is - the class of the device behind a character device
 * @inode: an open character device file's inode
 * @name: a class name: "bsg", "nvme", ...
 *
 * For drivers whose major is dynamic.  The open file holds the cdev, and
 * cdev_device_add() made its device the cdev's parent.
 *
 * Return: true if the device is of class @name.
 */
bool seclvl_chr_class_is(struct inode *inode, const char *name)
{
	struct cdev *cdev = READ_ONCE(inode->i_cdev);
	const struct device *dev;

	if (!S_ISCHR(inode->i_mode) || !cdev || !cdev->kobj.parent)
		return false;
	dev = kobj_to_dev(cdev->kobj.parent);
	return dev->class && !strcmp(dev->class->name, name);
}

/**
 * seclvl_is_nvme_chr - whether an inode drives an NVMe disk
 * @inode: an open character device file's inode
 *
 * Return: true for a disk's NVMe controller or one of its generic
 * namespace devices.
 */
bool seclvl_is_nvme_chr(struct inode *inode)
{
	return seclvl_chr_class_is(inode, "nvme-generic") ||
	       seclvl_chr_class_is(inode, "nvme");
}

/**
 * seclvl_check_device_write - judge a write to the disk behind a device
 * @file: a block device, or a character device that drives a disk
 *
 * Return: 0, or -EPERM from seclvl_deny().
 */
int seclvl_check_device_write(struct file *file)
{
	umode_t mode = file_inode(file)->i_mode;

	if (S_ISBLK(mode))
		return seclvl_check_bdev_write(file);
	if (S_ISCHR(mode))
		return seclvl_check_chr_write(file);
	return 0;
}

/* After open, so that the file's mapping is the block device's. */
static int hook_file_post_open(struct file *file, int mask)
{
	if (seclvl_current() <= 0 || !(file->f_mode & FMODE_WRITE) ||
	    !S_ISBLK(file_inode(file)->i_mode))
		return 0;
	return seclvl_check_bdev_write(file);
}

static struct security_hook_list disk_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_post_open, hook_file_post_open),
	LSM_HOOK_INIT(sb_kern_mount, hook_sb_kern_mount),
};

const struct seclvl_hook_set seclvl_disk_hooks = {
	.hooks = disk_hooks,
	.count = ARRAY_SIZE(disk_hooks),
	.serves = BIT(SECLVL_BLOCKDEV_WRITE) |
		  BIT(SECLVL_MOUNTED_BLOCKDEV_WRITE),
};
