// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: the hooks that enforce the policy table
 *
 * Each hook first asks seclvl_enforced(), which at level 0 and -1 is one
 * load and one compare, and only then looks at its arguments.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/blkdev.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kernel_read_file.h>
#include <linux/lsm_hooks.h>
#include <linux/major.h>
#include <linux/mount.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/security.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/xattr.h>

#include "seclvl.h"

static int hook_capable(const struct cred *cred, struct user_namespace *ns,
			int cap, unsigned int opts)
{
	enum seclvl_restriction r;
	const char *name;
	int level = seclvl_current();

	/* A user namespace administers only what it already owns. */
	if (level <= 0 || ns != &init_user_ns)
		return 0;
	switch (cap) {
	case CAP_LINUX_IMMUTABLE:
		r = SECLVL_IMMUTABLE;
		name = "CAP_LINUX_IMMUTABLE";
		break;
	case CAP_SYS_RAWIO:
		r = SECLVL_RAWIO;
		name = "CAP_SYS_RAWIO";
		break;
	case CAP_NET_ADMIN:
		r = SECLVL_NET_ADMIN;
		name = "CAP_NET_ADMIN";
		break;
	case CAP_SETUID:
		r = SECLVL_SETUID;
		name = "CAP_SETUID";
		break;
	case CAP_SYS_MODULE:
		r = SECLVL_MODULES;
		name = "CAP_SYS_MODULE";
		break;
	default:
		return 0;
	}
	if (!seclvl_enforced(r, &level))
		return 0;
	return seclvl_refuse(r, level, !(opts & CAP_OPT_NOAUDIT), "%s", name);
}

static int hook_ptrace_access_check(struct task_struct *child,
				    unsigned int mode)
{
	int level;

	if (!seclvl_enforced(SECLVL_PTRACE_INIT, &level) ||
	    !(mode & PTRACE_MODE_ATTACH) || !is_global_init(child))
		return 0;
	return seclvl_refuse(SECLVL_PTRACE_INIT, level,
			     !(mode & PTRACE_MODE_NOAUDIT),
			     "ptrace attach to init (tid %d)", task_pid_nr(child));
}

static int hook_settime(const struct timespec64 *ts, const struct timezone *tz)
{
	struct timespec64 now;
	int level;

	if (!seclvl_enforced(SECLVL_TIME_BACKWARD, &level))
		return 0;
	if (ts) {
		ktime_get_real_ts64(&now);
		if (timespec64_compare(ts, &now) >= 0)
			return 0;
		return seclvl_refuse(SECLVL_TIME_BACKWARD, level, true,
				     "set the clock back from %lld to %lld",
				     (long long)now.tv_sec, (long long)ts->tv_sec);
	}
	/*
	 * The first timezone set without a time warps the clock by the
	 * timezone's offset; seclvl cannot tell the first from the others.
	 */
	if (tz && tz->tz_minuteswest < 0)
		return seclvl_refuse(SECLVL_TIME_BACKWARD, level, true,
				     "set timezone %d minutes west, which may warp the clock back",
				     tz->tz_minuteswest);
	return 0;
}

static int hook_sb_umount(struct vfsmount *mnt, int flags)
{
	int level;

	if (!seclvl_enforced(SECLVL_UMOUNT, &level))
		return 0;
	return seclvl_refuse(SECLVL_UMOUNT, level, true, "unmount %s (%s)",
			     mnt->mnt_sb->s_id, mnt->mnt_sb->s_type->name);
}

static int hook_kernel_module_request(char *kmod_name)
{
	int level;

	if (!seclvl_enforced(SECLVL_MODULES, &level))
		return 0;
	return seclvl_refuse(SECLVL_MODULES, level, true,
			     "module autoload of %s", kmod_name);
}

static int hook_kernel_load_data(enum kernel_load_data_id id, bool contents)
{
	int level;

	if (!seclvl_enforced(SECLVL_MODULES, &level) || id != LOADING_MODULE)
		return 0;
	return seclvl_refuse(SECLVL_MODULES, level, true, "module load");
}

static int hook_kernel_read_file(struct file *file, enum kernel_read_file_id id,
				 bool contents)
{
	int level;

	if (!seclvl_enforced(SECLVL_MODULES, &level) || id != READING_MODULE)
		return 0;
	return seclvl_refuse(SECLVL_MODULES, level, true, "module load from %pD",
			     file);
}

/* /dev/mem, the retired /dev/kmem and /dev/port, wherever their nodes are. */
static bool seclvl_is_devmem(dev_t dev)
{
	return MAJOR(dev) == MEM_MAJOR &&
	       (MINOR(dev) == 1 || MINOR(dev) == 2 || MINOR(dev) == 4);
}

/*
 * Set-id bits raise privilege only when added, and only on non-directories
 * (on a directory S_ISGID passes the group on, S_ISUID does nothing).
 */
static umode_t seclvl_setid_added(umode_t old, umode_t new)
{
	if (S_ISDIR(new))
		return 0;
	return new & ~old & (S_ISUID | S_ISGID);
}

static int hook_file_open(struct file *file)
{
	struct inode *inode = file_inode(file);
	int level;

	if (seclvl_current() <= 0)
		return 0;
	if (S_ISCHR(inode->i_mode) && (file->f_mode & FMODE_WRITE) &&
	    seclvl_enforced(SECLVL_DEVMEM_WRITE, &level) &&
	    seclvl_is_devmem(inode->i_rdev))
		return seclvl_refuse(SECLVL_DEVMEM_WRITE, level, true,
				     "open %pD (%u:%u) for write", file,
				     MAJOR(inode->i_rdev), MINOR(inode->i_rdev));
	/* O_TMPFILE creates without inode_create; this is its first hook. */
	if ((file->f_flags & __O_TMPFILE) &&
	    seclvl_enforced(SECLVL_SETID_BITS, &level) &&
	    seclvl_setid_added(0, inode->i_mode))
		return seclvl_refuse(SECLVL_SETID_BITS, level, true,
				     "create an O_TMPFILE with mode %o",
				     inode->i_mode & S_IALLUGO);
	return 0;
}

/*
 * Whether a write to @bdev would write under a user of the disk: @bdev is
 * mounted or claimed, or it is a disk with such a partition, or it is a
 * partition of a disk that is itself claimed.  A disk is also marked as
 * claimed while one of its partitions is, which must not block writes to
 * the other partitions.
 */
static bool seclvl_bdev_in_use(struct block_device *bdev)
{
	struct block_device *whole = bdev_whole(bdev);
	struct block_device *part;
	unsigned long idx;
	bool for_a_partition = false;

	if (READ_ONCE(bdev->bd_holder))
		return true;
	if (!bdev_is_partition(bdev) || !READ_ONCE(whole->bd_holder))
		return false;
	rcu_read_lock();
	xa_for_each_start(&bdev->bd_disk->part_tbl, idx, part, 1) {
		if (READ_ONCE(part->bd_holder)) {
			for_a_partition = true;
			break;
		}
	}
	rcu_read_unlock();
	return !for_a_partition;
}

static int seclvl_check_bdev_write(struct file *file)
{
	struct block_device *bdev = file_bdev(file);
	int level;

	if (seclvl_enforced(SECLVL_BLOCKDEV_WRITE, &level))
		return seclvl_refuse(SECLVL_BLOCKDEV_WRITE, level, true,
				     "write to block device %pg", bdev);
	if (seclvl_enforced(SECLVL_MOUNTED_BLOCKDEV_WRITE, &level) &&
	    seclvl_bdev_in_use(bdev))
		return seclvl_refuse(SECLVL_MOUNTED_BLOCKDEV_WRITE, level, true,
				     "write to block device %pg, which is in use",
				     bdev);
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

/* Also on each write: a device may be mounted after it was opened. */
static int hook_file_permission(struct file *file, int mask)
{
	if (seclvl_current() <= 0 || !(mask & MAY_WRITE) ||
	    !S_ISBLK(file_inode(file)->i_mode))
		return 0;
	return seclvl_check_bdev_write(file);
}

static int hook_inode_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
			      struct iattr *attr)
{
	umode_t old;
	int level;

	if (!seclvl_enforced(SECLVL_SETID_BITS, &level) ||
	    !(attr->ia_valid & ATTR_MODE))
		return 0;
	old = d_backing_inode(dentry)->i_mode;
	if (!seclvl_setid_added(old, attr->ia_mode))
		return 0;
	return seclvl_refuse(SECLVL_SETID_BITS, level, true,
			     "chmod %pd from %o to %o", dentry,
			     old & S_IALLUGO, attr->ia_mode & S_IALLUGO);
}

static int seclvl_check_create(struct dentry *dentry, umode_t mode)
{
	int level;

	if (!seclvl_enforced(SECLVL_SETID_BITS, &level) ||
	    !seclvl_setid_added(0, mode))
		return 0;
	return seclvl_refuse(SECLVL_SETID_BITS, level, true,
			     "create %pd with mode %o", dentry,
			     mode & S_IALLUGO);
}

static int hook_inode_create(struct inode *dir, struct dentry *dentry,
			     umode_t mode)
{
	return seclvl_check_create(dentry, mode);
}

static int hook_inode_mknod(struct inode *dir, struct dentry *dentry,
			    umode_t mode, dev_t dev)
{
	return seclvl_check_create(dentry, mode);
}

static int hook_inode_setxattr(struct mnt_idmap *idmap, struct dentry *dentry,
			       const char *name, const void *value, size_t size,
			       int flags)
{
	int level;

	if (!seclvl_enforced(SECLVL_SETID_BITS, &level) ||
	    strcmp(name, XATTR_NAME_CAPS))
		return 0;
	return seclvl_refuse(SECLVL_SETID_BITS, level, true,
			     "set file capabilities on %pd", dentry);
}

static struct security_hook_list seclvl_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(capable, hook_capable),
	LSM_HOOK_INIT(ptrace_access_check, hook_ptrace_access_check),
	LSM_HOOK_INIT(settime, hook_settime),
	LSM_HOOK_INIT(sb_umount, hook_sb_umount),
	LSM_HOOK_INIT(kernel_module_request, hook_kernel_module_request),
	LSM_HOOK_INIT(kernel_load_data, hook_kernel_load_data),
	LSM_HOOK_INIT(kernel_read_file, hook_kernel_read_file),
	LSM_HOOK_INIT(file_open, hook_file_open),
	LSM_HOOK_INIT(file_post_open, hook_file_post_open),
	LSM_HOOK_INIT(file_permission, hook_file_permission),
	LSM_HOOK_INIT(inode_setattr, hook_inode_setattr),
	LSM_HOOK_INIT(inode_create, hook_inode_create),
	LSM_HOOK_INIT(inode_mknod, hook_inode_mknod),
	LSM_HOOK_INIT(inode_setxattr, hook_inode_setxattr),
};

void __init seclvl_add_hooks(void)
{
	security_add_hooks(seclvl_hooks, ARRAY_SIZE(seclvl_hooks),
			   &seclvl_lsmid);
}

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

static void test_setid_added(struct kunit *const test)
{
	/* Adding a bit to a file. */
	KUNIT_EXPECT_EQ(test, S_ISUID,
			seclvl_setid_added(S_IFREG | 0755, S_IFREG | 04755));
	KUNIT_EXPECT_EQ(test, S_ISGID,
			seclvl_setid_added(S_IFREG | 0755, S_IFREG | 02755));
	KUNIT_EXPECT_EQ(test, S_ISGID,
			seclvl_setid_added(S_IFREG | 04755, S_IFREG | 06755));
	KUNIT_EXPECT_EQ(test, S_ISUID | S_ISGID,
			seclvl_setid_added(0, S_IFCHR | 06600));
	/* Keeping, clearing, and other bits. */
	KUNIT_EXPECT_EQ(test, 0,
			seclvl_setid_added(S_IFREG | 04755, S_IFREG | 04700));
	KUNIT_EXPECT_EQ(test, 0,
			seclvl_setid_added(S_IFREG | 06755, S_IFREG | 0755));
	KUNIT_EXPECT_EQ(test, 0,
			seclvl_setid_added(S_IFREG | 0644, S_IFREG | 01777));
	KUNIT_EXPECT_EQ(test, 0, seclvl_setid_added(0, S_IFREG | 0777));
	/* Directories. */
	KUNIT_EXPECT_EQ(test, 0,
			seclvl_setid_added(S_IFDIR | 0755, S_IFDIR | 06755));
}

static void test_is_devmem(struct kunit *const test)
{
	KUNIT_EXPECT_TRUE(test, seclvl_is_devmem(MKDEV(1, 1)));
	KUNIT_EXPECT_TRUE(test, seclvl_is_devmem(MKDEV(1, 2)));
	KUNIT_EXPECT_TRUE(test, seclvl_is_devmem(MKDEV(1, 4)));
	KUNIT_EXPECT_FALSE(test, seclvl_is_devmem(MKDEV(1, 3)));
	KUNIT_EXPECT_FALSE(test, seclvl_is_devmem(MKDEV(1, 5)));
	KUNIT_EXPECT_FALSE(test, seclvl_is_devmem(MKDEV(1, 8)));
	KUNIT_EXPECT_FALSE(test, seclvl_is_devmem(MKDEV(4, 1)));
	KUNIT_EXPECT_FALSE(test, seclvl_is_devmem(MKDEV(0, 1)));
}

static struct kunit_case hooks_test_cases[] = {
	KUNIT_CASE(test_setid_added),
	KUNIT_CASE(test_is_devmem),
	{}
};

static struct kunit_suite hooks_test_suite = {
	.name = "seclvl_hooks",
	.test_cases = hooks_test_cases,
};

kunit_test_suite(hooks_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
