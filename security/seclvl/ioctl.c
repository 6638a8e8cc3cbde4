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

#include <linux/blkdev.h>
#include <linux/cdrom.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/io_uring/cmd.h>
#include <linux/lsm_hooks.h>
#include <linux/magic.h>
#include <linux/major.h>
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

#include "seclvl.h"

/*
 * A SCSI command can write through a descriptor open only for reading
 * when the caller has CAP_SYS_RAWIO (scsi_cmd_allowed()), that is while
 * `rawio` is not enforced.
 */
static bool seclvl_scsi_may_write(struct file *file)
{
	return (file->f_mode & FMODE_WRITE) || !seclvl_applies(SECLVL_RAWIO);
}

/*
 * Whether an ioctl can write to the medium behind @file.  Each command is
 * judged only on the devices that understand it; another device answers
 * ENOTTY.  seclvl cannot read a passthrough command without racing the
 * driver, so a command that could write counts as a write.  NVMe
 * passthrough needs no more than CAP_SYS_ADMIN, whatever the descriptor's
 * mode.
 */
static bool seclvl_ioctl_may_write(struct file *file, unsigned int cmd)
{
	struct inode *inode = file_inode(file);
	bool blk = S_ISBLK(inode->i_mode);

	switch (cmd) {
	case SG_IO:
		return (blk || seclvl_is_sg(inode) ||
			seclvl_chr_class_is(inode, "bsg")) &&
		       seclvl_scsi_may_write(file);
	case SCSI_IOCTL_SEND_COMMAND:
		return (blk || seclvl_is_sg(inode)) &&
		       seclvl_scsi_may_write(file);
	case CDROM_SEND_PACKET:
		return blk && seclvl_scsi_may_write(file);
	/* ATA commands, which libata takes through SCSI disks and sg. */
	case HDIO_DRIVE_CMD:
	case HDIO_DRIVE_TASK:
		return (blk || seclvl_is_sg(inode)) &&
		       seclvl_scsi_may_write(file);
	case BLKDISCARD:
	case BLKSECDISCARD:
	case BLKZEROOUT:
	case BLKRESETZONE:
	case BLKFINISHZONE:
		return blk && (file->f_mode & FMODE_WRITE);
	/* Moving a partition moves the blocks under its users. */
	case BLKPG:
	/* Self-encrypting disks: each of these erases or overwrites data. */
	case IOC_OPAL_ERASE_LR:
	case IOC_OPAL_SECURE_ERASE_LR:
	case IOC_OPAL_REVERT_TPR:
	case IOC_OPAL_PSID_REVERT_TPR:
	case IOC_OPAL_REVERT_LSP:
	case IOC_OPAL_WRITE_SHADOW_MBR:
		return blk;
	/* What a bound loop device maps, and how much of it. */
	case LOOP_SET_STATUS:
	case LOOP_SET_STATUS64:
	case LOOP_CHANGE_FD:
	case LOOP_SET_CAPACITY:
		return blk && MAJOR(inode->i_rdev) == LOOP_MAJOR;
	case NVME_IOCTL_ADMIN_CMD:
	case NVME_IOCTL_SUBMIT_IO:
	case NVME_IOCTL_IO_CMD:
	case NVME_IOCTL_ADMIN64_CMD:
	case NVME_IOCTL_IO64_CMD:
	case NVME_IOCTL_IO64_CMD_VEC:
		return blk || seclvl_is_nvme_chr(inode);
	default:
		return false;
	}
}

#ifdef CONFIG_BLOCK
/*
 * Binding a loop device to a disk gives a second way to write the disk,
 * which writes to the loop device cannot show: judge the binding as a
 * write to the disk.  The descriptor is looked up again by the driver; a
 * caller that swaps it in between is not seen (see the admin guide).  A
 * read-only binding writes nothing.
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
	if (!seclvl_ioctl_may_write(file, cmd))
		return 0;
	return seclvl_check_device_write(file);
}

#ifdef CONFIG_IO_URING
/* io_uring's commands that write a disk, on the devices that take them. */
static int hook_uring_cmd(struct io_uring_cmd *ioucmd)
{
	struct inode *inode = file_inode(ioucmd->file);

	if (seclvl_current() <= 0)
		return 0;
	switch (ioucmd->cmd_op) {
	case BLOCK_URING_CMD_DISCARD:
		if (!S_ISBLK(inode->i_mode) ||
		    !(ioucmd->file->f_mode & FMODE_WRITE))
			return 0;
		break;
	case NVME_URING_CMD_IO:
	case NVME_URING_CMD_IO_VEC:
	case NVME_URING_CMD_ADMIN:
	case NVME_URING_CMD_ADMIN_VEC:
		if (!seclvl_is_nvme_chr(inode))
			return 0;
		break;
	default:
		return 0;
	}
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
