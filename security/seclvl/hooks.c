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
#include <linux/cdrom.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/io_uring/cmd.h>
#include <linux/kernel_read_file.h>
#include <linux/lsm_hooks.h>
#include <linux/major.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/nvme_ioctl.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/xattr.h>
#include <scsi/scsi_ioctl.h>
#include <scsi/sg.h>
#include <uapi/linux/mount.h>

#include "seclvl.h"

static int hook_capable(const struct cred *cred, struct user_namespace *ns,
			int cap, unsigned int opts)
{
	enum seclvl_restriction r;
	const char *name;
	int level = seclvl_hook_level();

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
	s64 now;
	int level;

	if (!seclvl_enforced(SECLVL_TIME_BACKWARD, &level))
		return 0;
	if (ts) {
		/*
		 * The NMI-safe reader: the seqcount one cost a sixth of a
		 * clock_settime() under lockdep.  Either can race a clock
		 * change on another CPU; the check and the change are not
		 * atomic with any reader.
		 */
		now = ktime_get_real_fast_ns();
		if (timespec64_to_ns(ts) >= now)
			return 0;
		return seclvl_refuse(SECLVL_TIME_BACKWARD, level, true,
				     "set the clock back from %lld to %lld",
				     div_s64(now, NSEC_PER_SEC), (long long)ts->tv_sec);
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

/*
 * Whether a mount(2) call makes set-id files usable where they were not:
 * a new mount without MS_NOSUID, or a remount that drops nosuid.  Binds,
 * moves and propagation changes keep the flags their mounts already have.
 * The order of the tests is path_mount()'s.
 */
static bool seclvl_mount_allows_suid(unsigned long flags, int mnt_flags)
{
	if (flags & MS_NOSUID)
		return false;
	if (flags & MS_REMOUNT)
		return mnt_flags & MNT_NOSUID;
	return !(flags & (MS_BIND | MS_SHARED | MS_PRIVATE | MS_SLAVE |
			  MS_UNBINDABLE | MS_MOVE));
}

/*
 * Set-id files on a filesystem mounted from a user namespace run with that
 * namespace's ids only (mnt_may_suid()), so only the initial one matters.
 * The kernel's own mounts of root= and devtmpfs, made before any user
 * space ran (no mm yet), are what the boot command line asked for.
 */
static int hook_sb_mount(const char *dev_name, const struct path *path,
			 const char *type, unsigned long flags, void *data)
{
	int level;

	if (!seclvl_enforced(SECLVL_SUID_MOUNT, &level) || !current->mm ||
	    current_user_ns() != &init_user_ns ||
	    !seclvl_mount_allows_suid(flags, path->mnt->mnt_flags))
		return 0;
	if (flags & MS_REMOUNT)
		return seclvl_refuse(SECLVL_SUID_MOUNT, level, true,
				     "remount %pd clearing nosuid",
				     path->dentry);
	return seclvl_refuse(SECLVL_SUID_MOUNT, level, true,
			     "mount %s (%s) on %pd without nosuid",
			     dev_name ?: "none", type ?: "?", path->dentry);
}

/* mount_setattr(2), and fsmount(2) with every attribute it does not set. */
static int hook_mount_setattr(const struct path *path, unsigned int attr_set,
			      unsigned int attr_clr)
{
	int level;

	if (!seclvl_enforced(SECLVL_SUID_MOUNT, &level) ||
	    current_user_ns() != &init_user_ns ||
	    !(attr_clr & MOUNT_ATTR_NOSUID) || (attr_set & MOUNT_ATTR_NOSUID))
		return 0;
	return seclvl_refuse(SECLVL_SUID_MOUNT, level, true,
			     "mount attributes of %pd without nosuid",
			     path->dentry);
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

	switch (id) {
	case LOADING_MODULE:
		if (!seclvl_enforced(SECLVL_MODULES, &level))
			return 0;
		return seclvl_refuse(SECLVL_MODULES, level, true,
				     "module load");
	case LOADING_KEXEC_IMAGE:
		if (!seclvl_enforced(SECLVL_KEXEC, &level))
			return 0;
		return seclvl_refuse(SECLVL_KEXEC, level, true,
				     "kexec_load of a new kernel");
	default:
		return 0;
	}
}

static int hook_kernel_read_file(struct file *file, enum kernel_read_file_id id,
				 bool contents)
{
	int level;

	switch (id) {
	case READING_MODULE:
		if (!seclvl_enforced(SECLVL_MODULES, &level))
			return 0;
		return seclvl_refuse(SECLVL_MODULES, level, true,
				     "module load from %pD", file);
	case READING_KEXEC_IMAGE:
	case READING_KEXEC_INITRAMFS:
		if (!seclvl_enforced(SECLVL_KEXEC, &level))
			return 0;
		return seclvl_refuse(SECLVL_KEXEC, level, true,
				     "kexec_file_load of %pD", file);
	default:
		return 0;
	}
}

/*
 * The kernel's own list of what would let root change the running kernel
 * (integrity) or read it (confidentiality); integrity reasons come first.
 */
static enum seclvl_restriction
seclvl_lockdown_restriction(enum lockdown_reason what)
{
	return what < LOCKDOWN_INTEGRITY_MAX ? SECLVL_LOCKDOWN_INTEGRITY :
					       SECLVL_LOCKDOWN_CONFIDENTIALITY;
}

/* May be called in atomic context: seclvl_refuse() does not sleep. */
static int hook_locked_down(enum lockdown_reason what)
{
	enum seclvl_restriction r;
	const char *reason = NULL;
	int level;

	if (seclvl_hook_level() <= 0 || what == LOCKDOWN_NONE)
		return 0;
	r = seclvl_lockdown_restriction(what);
	if (!seclvl_enforced(r, &level))
		return 0;
	if (what <= LOCKDOWN_CONFIDENTIALITY_MAX)
		reason = lockdown_reasons[what];
	return seclvl_refuse(r, level, true, "%s", reason ?: "unknown reason");
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

	if (seclvl_hook_level() <= 0)
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

/*
 * sg, bsg and NVMe character devices drive a disk that seclvl cannot see,
 * so a write through them counts as a write to a disk in use.
 */
static int seclvl_check_chr_write(struct file *file)
{
	int level;

	if (seclvl_enforced(SECLVL_BLOCKDEV_WRITE, &level))
		return seclvl_refuse(SECLVL_BLOCKDEV_WRITE, level, true,
				     "write to the disk behind %pD", file);
	if (seclvl_enforced(SECLVL_MOUNTED_BLOCKDEV_WRITE, &level))
		return seclvl_refuse(SECLVL_MOUNTED_BLOCKDEV_WRITE, level, true,
				     "write to the disk behind %pD, which may be in use",
				     file);
	return 0;
}

static bool seclvl_is_sg(struct inode *inode)
{
	return S_ISCHR(inode->i_mode) &&
	       MAJOR(inode->i_rdev) == SCSI_GENERIC_MAJOR;
}

/*
 * A SCSI command can write through a descriptor open only for reading
 * when the caller has CAP_SYS_RAWIO (scsi_cmd_allowed()), that is while
 * `rawio` is not enforced.
 */
static bool seclvl_scsi_may_write(struct file *file)
{
	int level;

	return (file->f_mode & FMODE_WRITE) ||
	       !seclvl_enforced(SECLVL_RAWIO, &level);
}

/*
 * Whether an ioctl can write to the medium behind @file.  seclvl cannot
 * read a passthrough command without racing the driver, so a command that
 * could write counts as a write.  NVMe passthrough needs no more than
 * CAP_SYS_ADMIN, whatever the descriptor's mode.
 */
static bool seclvl_ioctl_may_write(struct file *file, unsigned int cmd)
{
	struct inode *inode = file_inode(file);

	switch (cmd) {
	case SG_IO:
		return seclvl_scsi_may_write(file);
	case SCSI_IOCTL_SEND_COMMAND:
		return (S_ISBLK(inode->i_mode) || seclvl_is_sg(inode)) &&
		       seclvl_scsi_may_write(file);
	case CDROM_SEND_PACKET:
		return S_ISBLK(inode->i_mode) && seclvl_scsi_may_write(file);
	case BLKDISCARD:
	case BLKSECDISCARD:
	case BLKZEROOUT:
		return S_ISBLK(inode->i_mode) && (file->f_mode & FMODE_WRITE);
	case NVME_IOCTL_ADMIN_CMD:
	case NVME_IOCTL_SUBMIT_IO:
	case NVME_IOCTL_IO_CMD:
	case NVME_IOCTL_ADMIN64_CMD:
	case NVME_IOCTL_IO64_CMD:
	case NVME_IOCTL_IO64_CMD_VEC:
		return true;
	default:
		return false;
	}
}

static int seclvl_check_device_write(struct file *file)
{
	umode_t mode = file_inode(file)->i_mode;

	if (S_ISBLK(mode))
		return seclvl_check_bdev_write(file);
	if (S_ISCHR(mode))
		return seclvl_check_chr_write(file);
	return 0;
}

/*
 * Checked on each call: the descriptor may have been opened before the
 * level was raised or the device mounted.
 */
static int hook_file_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	if (seclvl_hook_level() <= 0 || !seclvl_ioctl_may_write(file, cmd))
		return 0;
	return seclvl_check_device_write(file);
}

#ifdef CONFIG_IO_URING
static int hook_uring_cmd(struct io_uring_cmd *ioucmd)
{
	switch (ioucmd->cmd_op) {
	case NVME_URING_CMD_IO:
	case NVME_URING_CMD_IO_VEC:
	case NVME_URING_CMD_ADMIN:
	case NVME_URING_CMD_ADMIN_VEC:
		if (seclvl_hook_level() <= 0)
			return 0;
		return seclvl_check_device_write(ioucmd->file);
	default:
		return 0;
	}
}
#endif

/*
 * A shared writable mapping writes without write(), and outlives any later
 * change of level: check it when it is made, like a write.
 */
static int seclvl_check_shared_write(struct file *file)
{
	struct inode *inode = file_inode(file);
	int level;

	if (S_ISBLK(inode->i_mode))
		return seclvl_check_bdev_write(file);
	if (S_ISCHR(inode->i_mode) && seclvl_is_devmem(inode->i_rdev) &&
	    seclvl_enforced(SECLVL_DEVMEM_WRITE, &level))
		return seclvl_refuse(SECLVL_DEVMEM_WRITE, level, true,
				     "map %pD for write", file);
	return 0;
}

static int hook_mmap_file(struct file *file, unsigned long reqprot,
			  unsigned long prot, unsigned long flags)
{
	if (seclvl_hook_level() <= 0 || !file || !(prot & PROT_WRITE) ||
	    (flags & MAP_TYPE) == MAP_PRIVATE)
		return 0;
	return seclvl_check_shared_write(file);
}

static int hook_file_mprotect(struct vm_area_struct *vma,
			      unsigned long reqprot, unsigned long prot)
{
	if (seclvl_hook_level() <= 0 || !vma->vm_file || !(prot & PROT_WRITE) ||
	    !(vma->vm_flags & VM_SHARED))
		return 0;
	return seclvl_check_shared_write(vma->vm_file);
}

/* After open, so that the file's mapping is the block device's. */
static int hook_file_post_open(struct file *file, int mask)
{
	if (seclvl_hook_level() <= 0 || !(file->f_mode & FMODE_WRITE) ||
	    !S_ISBLK(file_inode(file)->i_mode))
		return 0;
	return seclvl_check_bdev_write(file);
}

/*
 * Also on each write: a device may be mounted after it was opened.  A
 * write to an sg device sends it a SCSI command.
 */
static int hook_file_permission(struct file *file, int mask)
{
	struct inode *inode = file_inode(file);

	if (seclvl_hook_level() <= 0 || !(mask & MAY_WRITE) ||
	    !(S_ISBLK(inode->i_mode) || seclvl_is_sg(inode)))
		return 0;
	return seclvl_check_device_write(file);
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
	LSM_HOOK_INIT(sb_mount, hook_sb_mount),
	LSM_HOOK_INIT(mount_setattr, hook_mount_setattr),
	LSM_HOOK_INIT(kernel_module_request, hook_kernel_module_request),
	LSM_HOOK_INIT(kernel_load_data, hook_kernel_load_data),
	LSM_HOOK_INIT(kernel_read_file, hook_kernel_read_file),
	LSM_HOOK_INIT(locked_down, hook_locked_down),
	LSM_HOOK_INIT(file_open, hook_file_open),
	LSM_HOOK_INIT(file_post_open, hook_file_post_open),
	LSM_HOOK_INIT(file_permission, hook_file_permission),
	LSM_HOOK_INIT(file_ioctl, hook_file_ioctl),
	LSM_HOOK_INIT(mmap_file, hook_mmap_file),
	LSM_HOOK_INIT(file_mprotect, hook_file_mprotect),
	LSM_HOOK_INIT(file_ioctl_compat, hook_file_ioctl),
#ifdef CONFIG_IO_URING
	LSM_HOOK_INIT(uring_cmd, hook_uring_cmd),
#endif
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

static void test_lockdown_restriction(struct kunit *const test)
{
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_MODULE_SIGNATURE));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_KEXEC));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_HIBERNATION));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_BPF_WRITE_USER));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_INTEGRITY_MAX - 1));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_CONFIDENTIALITY,
			seclvl_lockdown_restriction(LOCKDOWN_INTEGRITY_MAX));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_CONFIDENTIALITY,
			seclvl_lockdown_restriction(LOCKDOWN_KCORE));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_CONFIDENTIALITY,
			seclvl_lockdown_restriction(LOCKDOWN_XFRM_SECRET));
}

static void test_mount_allows_suid(struct kunit *const test)
{
	/* New mounts. */
	KUNIT_EXPECT_TRUE(test, seclvl_mount_allows_suid(0, 0));
	KUNIT_EXPECT_TRUE(test, seclvl_mount_allows_suid(MS_RDONLY | MS_NODEV,
							 MNT_NOSUID));
	KUNIT_EXPECT_FALSE(test, seclvl_mount_allows_suid(MS_NOSUID, 0));
	/* Remounts drop nosuid only where it was set. */
	KUNIT_EXPECT_TRUE(test, seclvl_mount_allows_suid(MS_REMOUNT,
							 MNT_NOSUID));
	KUNIT_EXPECT_TRUE(test,
			  seclvl_mount_allows_suid(MS_REMOUNT | MS_BIND,
						   MNT_NOSUID | MNT_NODEV));
	KUNIT_EXPECT_FALSE(test, seclvl_mount_allows_suid(MS_REMOUNT |
							  MS_RDONLY, 0));
	KUNIT_EXPECT_FALSE(test,
			   seclvl_mount_allows_suid(MS_REMOUNT | MS_NOSUID,
						    MNT_NOSUID));
	/* Binds, moves and propagation keep their flags. */
	KUNIT_EXPECT_FALSE(test, seclvl_mount_allows_suid(MS_BIND, 0));
	KUNIT_EXPECT_FALSE(test, seclvl_mount_allows_suid(MS_BIND | MS_REC,
							  0));
	KUNIT_EXPECT_FALSE(test, seclvl_mount_allows_suid(MS_MOVE, 0));
	KUNIT_EXPECT_FALSE(test, seclvl_mount_allows_suid(MS_PRIVATE |
							  MS_REC, 0));
	KUNIT_EXPECT_FALSE(test, seclvl_mount_allows_suid(MS_SHARED, 0));
}

static struct kunit_case hooks_test_cases[] = {
	KUNIT_CASE(test_setid_added),
	KUNIT_CASE(test_is_devmem),
	KUNIT_CASE(test_lockdown_restriction),
	KUNIT_CASE(test_mount_allows_suid),
	{}
};

static struct kunit_suite hooks_test_suite = {
	.name = "seclvl_hooks",
	.test_cases = hooks_test_cases,
};

kunit_test_suite(hooks_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
