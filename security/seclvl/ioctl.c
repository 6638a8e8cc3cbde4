// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: ioctls and io_uring commands that write
 *
 * An ioctl can write a disk with no write(): SCSI, ATA and NVMe
 * passthrough, discards, partition changes, self-encrypting disks' erase,
 * a loop device's binding; or give a file another's blocks (ext4's and
 * XFS's extent swaps).  Each is judged as the write it makes
 * (seclvl_check_device_write(), seclvl_check_write()), on each call: the
 * descriptor may be older than the level or the mount.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/blkdev.h>
#include <linux/cdrom.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/io_uring/cmd.h>
#include <linux/lsm_hooks.h>
#include <linux/magic.h>
#include <linux/major.h>
#include <linux/miscdevice.h>
#include <linux/nvme_ioctl.h>
#include <linux/uaccess.h>
#include <uapi/linux/blkdev.h>
#include <uapi/linux/blkpg.h>
#include <uapi/linux/blkzoned.h>
#include <uapi/linux/ext4.h>
#include <uapi/linux/loop.h>
#include <uapi/linux/sed-opal.h>
#include <scsi/scsi_ioctl.h>
#include <scsi/sg.h>

#include "devrules.h"
#include "ioctlrules.h"
#include "seclvl.h"

/*
 * Whether a command that writes through @what (rules.h) writes the medium
 * behind @file.  The class of a character device is read only when the
 * command needs it.
 */
static bool seclvl_writes_medium(struct file *file, unsigned int what)
{
	struct inode *inode = file_inode(file);
	unsigned int device;

	if (!what)
		return false;
	device = seclvl_ioc_device(inode->i_mode, MAJOR(inode->i_rdev));
	if (seclvl_ioc_needs_class(what, device, inode->i_mode)) {
		if ((what & SECLVL_IOC_BSG) && seclvl_chr_class_is(inode, "bsg"))
			device |= SECLVL_IOC_BSG;
		if ((what & SECLVL_IOC_NVME) && seclvl_is_nvme_chr(inode))
			device |= SECLVL_IOC_NVME;
	}
	return seclvl_ioc_writes(what, device, file->f_mode & FMODE_WRITE,
				 seclvl_applies(SECLVL_RAWIO));
}

#ifdef CONFIG_BLOCK
/*
 * Binding a loop device to a disk gives a second way to write the disk,
 * which writes to the loop device cannot show: judge the binding as a
 * write to the disk.  The descriptor is looked up again by the driver; a
 * caller that swaps it in between is not seen (see the design document,
 * Documentation/security/seclvl.rst).  A read-only binding writes nothing.
 */
static int seclvl_check_loop_bind(struct file *loop, unsigned int cmd,
				  unsigned long arg)
{
	struct loop_config config;
	unsigned int fd = arg;
	struct file *backing;
	bool rw = loop->f_mode & FMODE_WRITE;
	int err = 0;

	if (cmd == LOOP_CONFIGURE) {
		if (copy_from_user(&config, (void __user *)arg, sizeof(config)))
			return 0;
		rw &= !(config.info.lo_flags & LO_FLAGS_READ_ONLY);
		fd = config.fd;
	}
	backing = fget(fd);
	if (!backing)
		return 0;
	rw &= !!(backing->f_mode & FMODE_WRITE);
	/*
	 * A second loop device over a bound file, even read-only: the first
	 * of them to unbind would take the mark away from the other.
	 */
	if (seclvl_backs_loop(backing->f_mapping))
		err = seclvl_check_loop_backing(backing->f_mapping,
						backing->f_path.dentry,
						"bind a loop device to");
	else if (rw && S_ISBLK(file_inode(backing)->i_mode))
		err = seclvl_check_bdev_write(backing);
	fput(backing);
	return err;
}
#else
static int seclvl_check_loop_bind(struct file *loop, unsigned int cmd,
				  unsigned long arg)
{
	return 0;
}
#endif

/* The head of XFS's struct xfs_swapext: the two files it swaps. */
struct seclvl_xfs_swapext {
	__s64 version;
	__s64 fdtarget;
	__s64 fdtmp;
};

/* A write to the regular file at @fd, if there is one. */
static int seclvl_check_fd_write(unsigned int fd, const char *what)
{
	struct file *file = fget(fd);
	int err = 0;

	if (!file)
		return 0;
	if (S_ISREG(file_inode(file)->i_mode))
		err = seclvl_check_write(file, what);
	fput(file);
	return err;
}

/*
 * Filesystem ioctls that give files other files' blocks, with no write and
 * no dropping of set-id bits: judged as writes to each file they change,
 * whether it is the descriptor called on or one named in the argument
 * (ext4's donor, both of XFS's).  An argument that cannot be read here
 * cannot be read by the filesystem either.
 */
static int seclvl_check_swap(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	struct seclvl_xfs_swapext sx;
	struct move_extent me;
	int err;

	switch (file_inode(file)->i_sb->s_magic) {
	case EXT4_SUPER_MAGIC:
		if (cmd == EXT4_IOC_SWAP_BOOT)
			return seclvl_check_write(file, "swap the boot loader into");
		if (cmd != EXT4_IOC_MOVE_EXT)
			return 0;
		err = seclvl_check_write(file, "move the extents of");
		if (err || copy_from_user(&me, uarg, sizeof(me)))
			return err;
		return seclvl_check_fd_write(me.donor_fd, "move extents into");
	case XFS_SUPER_MAGIC:
		/* XFS_IOC_SWAPEXT; its argument's size is XFS's own. */
		if (_IOC_TYPE(cmd) != 'X' || _IOC_NR(cmd) != 109 ||
		    copy_from_user(&sx, uarg, sizeof(sx)))
			return 0;
		err = seclvl_check_fd_write(sx.fdtarget, "swap the extents of");
		return err ?: seclvl_check_fd_write(sx.fdtmp,
						    "swap the extents of");
	default:
		return 0;
	}
}

/*
 * Checked on each call: the descriptor may have been opened before the
 * level was raised or the device mounted.
 */
static int hook_file_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct inode *inode = file_inode(file);

	if (seclvl_current() <= 0)
		return 0;
	/* debugfs: lockdown asked only at open. */
	if (S_ISREG(inode->i_mode) && inode->i_sb->s_magic == DEBUGFS_MAGIC)
		return seclvl_check_write(file, "ioctl on");
	/* XFS swaps the files its argument names, called on any of its own. */
	if (S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode))
		return seclvl_check_swap(file, cmd, arg);
	if (S_ISCHR(inode->i_mode) && seclvl_is_snapshot(inode->i_rdev))
		return seclvl_check_snapshot(file, "ioctl on");
	if ((cmd == LOOP_SET_FD || cmd == LOOP_CONFIGURE) &&
	    S_ISBLK(inode->i_mode) && MAJOR(inode->i_rdev) == LOOP_MAJOR)
		return seclvl_check_loop_bind(file, cmd, arg);
	if (!seclvl_writes_medium(file, seclvl_ioctl_writes(cmd)))
		return 0;
	return seclvl_check_device_write(file);
}

#ifdef CONFIG_IO_URING
/* io_uring's commands that write a disk, on the devices that take them. */
static int hook_uring_cmd(struct io_uring_cmd *ioucmd)
{
	if (seclvl_current() <= 0 ||
	    !seclvl_writes_medium(ioucmd->file,
				  seclvl_uring_cmd_writes(ioucmd->cmd_op)))
		return 0;
	return seclvl_check_device_write(ioucmd->file);
}
#endif

static struct security_hook_list ioctl_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_ioctl, hook_file_ioctl),
	LSM_HOOK_INIT(file_ioctl_compat, hook_file_ioctl),
#ifdef CONFIG_IO_URING
	LSM_HOOK_INIT(uring_cmd, hook_uring_cmd),
#endif
};

const struct seclvl_hook_set seclvl_ioctl_hooks = {
	.hooks = ioctl_hooks,
	.count = ARRAY_SIZE(ioctl_hooks),
	.serves = SECLVL_WRITE_RULES,
};

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

static void test_ioctl_writes(struct kunit *const test)
{
	const unsigned int blk = SECLVL_IOC_BLK, sg = SECLVL_IOC_SG;
	const unsigned int loop = SECLVL_IOC_BLK | SECLVL_IOC_LOOP;

	/* SCSI: open for writing, or with CAP_SYS_RAWIO. */
	KUNIT_EXPECT_TRUE(test, seclvl_ioc_writes(seclvl_ioctl_writes(SG_IO),
						  sg, false, false));
	KUNIT_EXPECT_FALSE(test, seclvl_ioc_writes(seclvl_ioctl_writes(SG_IO),
						   sg, false, true));
	KUNIT_EXPECT_TRUE(test, seclvl_ioc_writes(seclvl_ioctl_writes(SG_IO),
						  blk, true, true));
	/* Discards need a descriptor open for writing. */
	KUNIT_EXPECT_FALSE(test,
			   seclvl_ioc_writes(seclvl_ioctl_writes(BLKDISCARD),
					     blk, false, false));
	KUNIT_EXPECT_FALSE(test,
			   seclvl_ioc_writes(seclvl_ioctl_writes(BLKDISCARD),
					     sg, true, false));
	/* Only where the device takes the command. */
	KUNIT_EXPECT_TRUE(test, seclvl_ioc_writes(seclvl_ioctl_writes(BLKPG),
						  blk, false, true));
	KUNIT_EXPECT_FALSE(test,
			   seclvl_ioc_writes(seclvl_ioctl_writes(LOOP_SET_STATUS64),
					     blk, true, false));
	KUNIT_EXPECT_TRUE(test,
			  seclvl_ioc_writes(seclvl_ioctl_writes(LOOP_SET_STATUS64),
					    loop, false, true));
	KUNIT_EXPECT_FALSE(test,
			   seclvl_ioc_writes(seclvl_ioctl_writes(NVME_IOCTL_IO_CMD),
					     sg, true, false));
	KUNIT_EXPECT_TRUE(test,
			  seclvl_ioc_writes(seclvl_ioctl_writes(NVME_IOCTL_IO_CMD),
					    SECLVL_IOC_NVME, false, true));
	KUNIT_EXPECT_EQ(test, 0, seclvl_ioctl_writes(BLKGETSIZE64));
	/* io_uring: an NVMe command on a disk's block device is not one. */
	KUNIT_EXPECT_FALSE(test,
			   seclvl_ioc_writes(seclvl_uring_cmd_writes(NVME_URING_CMD_IO),
					     blk, true, false));
	/* Device numbers. */
	KUNIT_EXPECT_EQ(test, loop, seclvl_ioc_device(S_IFBLK | 0660, LOOP_MAJOR));
	KUNIT_EXPECT_EQ(test, sg,
			seclvl_ioc_device(S_IFCHR | 0660, SCSI_GENERIC_MAJOR));
	KUNIT_EXPECT_EQ(test, 0,
			seclvl_ioc_device(S_IFREG | 0660, SCSI_GENERIC_MAJOR));
	KUNIT_EXPECT_TRUE(test, seclvl_ioc_needs_class(seclvl_ioctl_writes(SG_IO),
						       0, S_IFCHR | 0600));
	KUNIT_EXPECT_FALSE(test, seclvl_ioc_needs_class(seclvl_ioctl_writes(SG_IO),
							sg, S_IFCHR | 0600));
}

static struct kunit_case ioctl_test_cases[] = {
	KUNIT_CASE(test_ioctl_writes),
	{}
};

static struct kunit_suite ioctl_test_suite = {
	.name = "seclvl_ioctl",
	.test_cases = ioctl_test_cases,
};

kunit_test_suite(ioctl_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
