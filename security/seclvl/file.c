// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: writes to files
 *
 * What seclvl refuses to open for writing is refused on each write, each
 * shared writable mapping and each truncate as well: a descriptor opened
 * before the raise, or taken from another process, may do no more than
 * one opened now.  seclvl_check_write() names the restriction a write
 * falls under: devmem_write, setid_bits, the disk restrictions for a loop
 * device's backing file, lockdown_integrity, net_admin or ptrace_init.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/magic.h>
#include <linux/major.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mman.h>

#include "devrules.h"
#include "seclvl.h"

/**
 * seclvl_is_snapshot - whether a device is /dev/snapshot
 * @dev: a character device's number
 *
 * Return: true for the hibernation image device, wherever its node is.
 */
bool seclvl_is_snapshot(dev_t dev)
{
	return seclvl_dev_is_snapshot(MAJOR(dev), MINOR(dev));
}

/**
 * seclvl_check_snapshot - judge a use of /dev/snapshot
 * @file: the open device
 * @what: what is done with it, for the log
 *
 * The kernel asks lockdown only when /dev/snapshot is opened; through an
 * older descriptor an image could still be written and restored.
 *
 * Return: 0, or -EPERM from seclvl_deny().
 */
int seclvl_check_snapshot(struct file *file, const char *what)
{
	return seclvl_deny(SECLVL_LOCKDOWN_INTEGRITY, true,
			   "%s %pD, the hibernation image device", what, file);
}

/*
 * Whether @file is a /proc/PID/mem of init: within procfs only the mem
 * file has unsigned offsets, and it keeps the mm as private_data (so do
 * the attr files, which init writes for itself).  Set by the open method,
 * after file_open: judged on writes only.
 */
static int seclvl_check_init_mem(struct file *file, const char *what)
{
	if (!seclvl_applies(SECLVL_PTRACE_INIT) ||
	    !(file->f_op->fop_flags & FOP_UNSIGNED_OFFSET) ||
	    !seclvl_is_init_mm(file->private_data))
		return 0;
	return seclvl_deny(SECLVL_PTRACE_INIT, true,
			   "%s the memory of init through %pD", what, file);
}

/* Root writes the network settings under /proc and /sys by its uid alone. */
static int seclvl_check_net_setting(struct file *file, const char *what)
{
	if (!seclvl_applies(SECLVL_NET_ADMIN) || !seclvl_net_setting(file))
		return 0;
	return seclvl_deny(SECLVL_NET_ADMIN, true, "%s network setting %pD4",
			   what, file);
}

/* binfmt_misc's register file, at the root of its filesystem. */
static bool seclvl_is_binfmt_register(const struct file *file)
{
	const struct dentry *dentry = file->f_path.dentry;

	return dentry->d_parent == dentry->d_sb->s_root &&
	       !strcmp(dentry->d_name.name, "register");
}

/* Changing a regular file's content or size; a loop's backing file is its disk. */
static int seclvl_check_change(struct inode *inode,
			       struct address_space *mapping,
			       struct dentry *dentry, const char *what)
{
	return seclvl_check_setid_content(inode, dentry, what) ?:
	       seclvl_check_loop_backing(mapping, dentry, what);
}

/**
 * seclvl_check_write - judge a write to a file
 * @file: the file, open for writing or about to be written
 * @what: how: "open for writing", "write to", ...; for the log
 *
 * Block devices and the character devices that drive disks are judged by
 * seclvl_check_device_write().
 *
 * Return: 0, or -EPERM from seclvl_deny() under one of
 * %SECLVL_WRITE_RULES.
 */
int seclvl_check_write(struct file *file, const char *what)
{
	struct inode *inode = file_inode(file);
	int err;

	if (S_ISCHR(inode->i_mode)) {
		if (seclvl_is_snapshot(inode->i_rdev))
			return seclvl_check_snapshot(file, what);
		if (!seclvl_dev_is_devmem(MAJOR(inode->i_rdev),
					  MINOR(inode->i_rdev)))
			return 0;
		return seclvl_deny(SECLVL_DEVMEM_WRITE, true,
				   "%s %pD (%u:%u)", what, file,
				   MAJOR(inode->i_rdev), MINOR(inode->i_rdev));
	}
	if (!S_ISREG(inode->i_mode))
		return 0;
	err = seclvl_check_change(inode, file->f_mapping, file->f_path.dentry,
				  what);
	if (err)
		return err;
	switch (inode->i_sb->s_magic) {
	case BINFMTFS_MAGIC:
		/*
		 * An interpreter with flag C runs as the set-id file it opens:
		 * none is added.  Entries may be switched off or removed, as
		 * systemd-binfmt does at shutdown.
		 */
		if (!seclvl_is_binfmt_register(file))
			return 0;
		return seclvl_deny(SECLVL_SETID_BITS, true,
				   "%s binfmt_misc file %pD", what, file);
	case DEBUGFS_MAGIC:
		/* The kernel's lockdown checks debugfs at open only. */
		return seclvl_deny(SECLVL_LOCKDOWN_INTEGRITY, true,
				   "%s debugfs file %pD", what, file);
	case SYSFS_MAGIC:
		return seclvl_check_net_setting(file, what);
	case PROC_SUPER_MAGIC:
		return seclvl_check_net_setting(file, what) ?:
		       seclvl_check_init_mem(file, what);
	default:
		return 0;
	}
}

static int hook_file_open(struct file *file)
{
	if (seclvl_current() <= 0)
		return 0;
	if (file->f_mode & FMODE_WRITE) {
		int err = seclvl_check_write(file, "open for writing");

		if (err)
			return err;
	}
	if (file->f_flags & __O_TMPFILE)
		return seclvl_check_tmpfile(file);
	return 0;
}

/*
 * Also on each write: a device may be mounted after it was opened, and a
 * descriptor may be older than the level.  A write to an sg device sends
 * it a SCSI command.
 */
static int hook_file_permission(struct file *file, int mask)
{
	struct inode *inode = file_inode(file);

	if (seclvl_current() <= 0 || !(mask & MAY_WRITE))
		return 0;
	if (S_ISBLK(inode->i_mode) || seclvl_is_sg(inode))
		return seclvl_check_device_write(file);
	return seclvl_check_write(file, "write to");
}

/*
 * A shared writable mapping writes without write(), and outlives any later
 * change of level: check it when it is made, like a write.
 */
static int seclvl_check_shared_write(struct file *file)
{
	if (S_ISBLK(file_inode(file)->i_mode))
		return seclvl_check_bdev_write(file);
	return seclvl_check_write(file, "map for writing");
}

static int hook_mmap_file(struct file *file, unsigned long reqprot,
			  unsigned long prot, unsigned long flags)
{
	if (seclvl_current() <= 0 || !file || !(prot & PROT_WRITE) ||
	    (flags & MAP_TYPE) == MAP_PRIVATE)
		return 0;
	return seclvl_check_shared_write(file);
}

static int hook_file_mprotect(struct vm_area_struct *vma,
			      unsigned long reqprot, unsigned long prot)
{
	if (seclvl_current() <= 0 || !vma->vm_file || !(prot & PROT_WRITE) ||
	    !(vma->vm_flags & VM_SHARED))
		return 0;
	return seclvl_check_shared_write(vma->vm_file);
}

static int hook_inode_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
			      struct iattr *attr)
{
	struct inode *inode = d_backing_inode(dentry);
	/* A set-id bit, or execute, which makes file capabilities usable. */
	bool privbits = (attr->ia_valid & ATTR_MODE) &&
			(attr->ia_mode & (S_ISUID | S_ISGID | 0111));
	bool truncate = attr->ia_valid & ATTR_SIZE;

	/* Most calls neither truncate nor change the mode: done first. */
	if ((!truncate && !privbits) || seclvl_current() <= 0)
		return 0;
	if (truncate && S_ISREG(inode->i_mode)) {
		int err = seclvl_check_change(inode, inode->i_mapping, dentry,
					      "truncate");

		if (err)
			return err;
	}
	return privbits ? seclvl_check_chmod(dentry, attr) : 0;
}

static struct security_hook_list file_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_open, hook_file_open),
	LSM_HOOK_INIT(file_permission, hook_file_permission),
	LSM_HOOK_INIT(mmap_file, hook_mmap_file),
	LSM_HOOK_INIT(file_mprotect, hook_file_mprotect),
	LSM_HOOK_INIT(inode_setattr, hook_inode_setattr),
};

const struct seclvl_hook_set seclvl_file_hooks = {
	.hooks = file_hooks,
	.count = ARRAY_SIZE(file_hooks),
	.serves = SECLVL_WRITE_RULES,
};

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

static void test_is_devmem(struct kunit *const test)
{
	KUNIT_EXPECT_TRUE(test, seclvl_dev_is_devmem(1, 1));
	KUNIT_EXPECT_TRUE(test, seclvl_dev_is_devmem(1, 2));
	KUNIT_EXPECT_TRUE(test, seclvl_dev_is_devmem(1, 4));
	KUNIT_EXPECT_FALSE(test, seclvl_dev_is_devmem(1, 3));
	KUNIT_EXPECT_FALSE(test, seclvl_dev_is_devmem(1, 5));
	KUNIT_EXPECT_FALSE(test, seclvl_dev_is_devmem(1, 8));
	KUNIT_EXPECT_FALSE(test, seclvl_dev_is_devmem(4, 1));
	KUNIT_EXPECT_FALSE(test, seclvl_dev_is_devmem(0, 1));
}

static struct kunit_case file_test_cases[] = {
	KUNIT_CASE(test_is_devmem),
	{}
};

static struct kunit_suite file_test_suite = {
	.name = "seclvl_file",
	.test_cases = file_test_cases,
};

kunit_test_suite(file_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
