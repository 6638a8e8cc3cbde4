// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl BPF backend: secure levels enforced by BPF LSM programs
 *
 * The same restrictions as the in-tree LSM (security/seclvl/hooks.c), for
 * kernels that have the bpf LSM but not seclvl.  Each hook reads the level
 * from the frozen state map and the restriction's level from .rodata, and
 * refuses with -EPERM, counting the refusal per restriction.  From level 1
 * the programs also refuse whatever would detach, replace or fool them.
 *
 * No hook reads its positional "ret" argument: hook arities change between
 * kernels and this is the only program on each hook it cares about.
 * Fields are read by direct loads, which the verifier guards, where it
 * can type the pointer; BPF_CORE_READ() (a helper call each) only where
 * a pointer is computed.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "seclvl_bpf.h"
#include "kconst.h"

char LICENSE[] SEC("license") = "GPL";

/* The level, and what the self-protection hooks must recognise. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SECLVL_STATE_NR);
	__type(key, __u32);
	__type(value, __s64);
} seclvl_state SEC(".maps");

/* Refusals since the programs were loaded, per restriction. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SECLVL_NR_RESTRICTIONS);
	__type(key, __u32);
	__type(value, __u64);
} seclvl_denials SEC(".maps");

/* Set when adjtimex() is asked to step the clock back, until it returns. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, int);
} seclvl_stepping_back SEC(".maps");

/*
 * The policy, as the LSM's table: the loader may change a level before it
 * loads the programs; from then on .rodata is read-only to everyone.
 */
const struct seclvl_rule seclvl_rules[SECLVL_NR_RESTRICTIONS] = {
#define SECLVL_RESTRICTION(id, rule_name, rule_level) \
	[SECLVL_##id] = { .name = rule_name, .level = rule_level },
#include "../../../security/seclvl/restrictions.h"
#undef SECLVL_RESTRICTION
};

/* Read, not folded: the loader may have changed the default. */
static __always_inline int seclvl_rule_level(enum seclvl_restriction r)
{
	const struct seclvl_rule *rules = seclvl_rules;

	barrier_var(rules);
	return rules[r].level;
}

static __always_inline __s64 *seclvl_slot(__u32 slot)
{
	return bpf_map_lookup_elem(&seclvl_state, &slot);
}

static __always_inline __s64 seclvl_state_get(__u32 slot)
{
	__s64 *v = seclvl_slot(slot);

	return v ? *v : 0;
}

static __always_inline int seclvl_level(void)
{
	return seclvl_state_get(SECLVL_STATE_LEVEL);
}

static __always_inline bool seclvl_enforced(enum seclvl_restriction r,
					    int level)
{
	int rule = seclvl_rule_level(r);

	return level > 0 && rule != SECLVL_OFF && level >= rule;
}

static __always_inline int seclvl_refuse(enum seclvl_restriction r)
{
	__u32 key = r;
	__u64 *n = bpf_map_lookup_elem(&seclvl_denials, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
	return -EPERM;
}

/* Refuse @r if it applies at @level. */
static __always_inline int seclvl_check(enum seclvl_restriction r, int level)
{
	return seclvl_enforced(r, level) ? seclvl_refuse(r) : 0;
}

/* The initial user namespace is the only one at depth 0. */
static __always_inline bool seclvl_init_ns(struct user_namespace *ns)
{
	return ns->level == 0;
}

static __always_inline bool seclvl_current_init_ns(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return seclvl_init_ns(task->cred->user_ns);
}

SEC("lsm/capable")
int BPF_PROG(seclvl_capable, const struct cred *cred, struct user_namespace *ns,
	     int cap, unsigned int opts)
{
	int level = seclvl_level();

	if (level <= 0 || !seclvl_init_ns(ns))
		return 0;
	switch (cap) {
	case CAP_LINUX_IMMUTABLE:
		return seclvl_check(SECLVL_IMMUTABLE, level);
	case CAP_SYS_RAWIO:
		return seclvl_check(SECLVL_RAWIO, level);
	case CAP_NET_ADMIN:
		return seclvl_check(SECLVL_NET_ADMIN, level);
	case CAP_SETUID:
		return seclvl_check(SECLVL_SETUID, level);
	case CAP_SYS_MODULE:
		return seclvl_check(SECLVL_MODULES, level);
	case CAP_SYS_TIME: {
		/* adjtimex() asks for CAP_SYS_TIME and for no hook: see below. */
		struct task_struct *task = bpf_get_current_task_btf();
		int *back = bpf_task_storage_get(&seclvl_stepping_back, task, 0, 0);

		if (back && *back)
			return seclvl_check(SECLVL_TIME_BACKWARD, level);
		return 0;
	}
	default:
		return 0;
	}
}

SEC("lsm/ptrace_access_check")
int BPF_PROG(seclvl_ptrace_access_check, struct task_struct *child,
	     unsigned int mode)
{
	int level = seclvl_level();

	if (level <= 0 || !(mode & PTRACE_MODE_ATTACH) ||
	    child->tgid != 1)
		return 0;
	return seclvl_check(SECLVL_PTRACE_INIT, level);
}

/*
 * CLOCK_REALTIME now: TAI less the kernel's TAI offset, read from the
 * timekeeper as ktime_get_real() would (the loader checks the result).
 */
static __always_inline __s64 seclvl_realtime_ns(void)
{
	__u64 at = bpf_core_type_size(seqcount_raw_spinlock_t);
	__s32 tai_offset = 0;

	at = (at + 7) & ~7ULL;
	at += bpf_core_field_offset(struct timekeeper, tai_offset);
	bpf_probe_read_kernel(&tai_offset, sizeof(tai_offset),
			      (const char *)&tk_core + at);
	return bpf_ktime_get_tai_ns() - (__s64)tai_offset * NSEC_PER_SEC;
}

/*
 * The verifier of 6.12 takes hook arguments for non-NULL and drops tests
 * of them, so a NULL @ts or @tz shows as a failed read instead.
 */
SEC("lsm/settime")
int BPF_PROG(seclvl_settime, const struct timespec64 *ts,
	     const struct timezone *tz)
{
	struct timespec64 want;
	struct timezone zone;
	int level = seclvl_level();

	if (!seclvl_enforced(SECLVL_TIME_BACKWARD, level))
		return 0;
	if (!bpf_probe_read_kernel(&want, sizeof(want), ts)) {
		if (want.tv_sec * NSEC_PER_SEC + want.tv_nsec >=
		    seclvl_realtime_ns())
			return 0;
		return seclvl_refuse(SECLVL_TIME_BACKWARD);
	}
	/* The first timezone set warps the clock by its offset. */
	if (!bpf_probe_read_kernel(&zone, sizeof(zone), tz) &&
	    zone.tz_minuteswest < 0)
		return seclvl_refuse(SECLVL_TIME_BACKWARD);
	return 0;
}

/*
 * adjtimex(ADJ_SETOFFSET) steps the clock with no security hook, only a
 * capable(CAP_SYS_TIME) check: mark the task while a backward step is
 * being validated, and let seclvl_capable() refuse it.
 */
SEC("fentry/do_adjtimex")
int BPF_PROG(seclvl_adjtimex_enter, struct __kernel_timex *txc)
{
	struct task_struct *task;
	int *back;

	if (!seclvl_enforced(SECLVL_TIME_BACKWARD, seclvl_level()) ||
	    !(txc->modes & ADJ_SETOFFSET) || txc->time.tv_sec >= 0)
		return 0;
	task = bpf_get_current_task_btf();
	back = bpf_task_storage_get(&seclvl_stepping_back, task, 0,
				    BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (back)
		*back = 1;
	return 0;
}

SEC("fexit/do_adjtimex")
int BPF_PROG(seclvl_adjtimex_exit, struct __kernel_timex *txc)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int *back = bpf_task_storage_get(&seclvl_stepping_back, task, 0, 0);

	if (back)
		*back = 0;
	return 0;
}

static __always_inline bool seclvl_is_pin_sb(struct super_block *sb)
{
	return sb->s_magic == BPF_FS_MAGIC &&
	       sb->s_dev ==
		       seclvl_state_get(SECLVL_STATE_PIN_DEV);
}

static __always_inline bool seclvl_is_pin_dir(struct inode *inode)
{
	return inode && seclvl_is_pin_sb(inode->i_sb) &&
	       inode->i_ino ==
		       seclvl_state_get(SECLVL_STATE_PIN_INO);
}

/* Whether anything is mounted under @mnt. */
static __always_inline bool seclvl_has_submounts(struct vfsmount *mnt)
{
	struct mount *m = (void *)mnt - bpf_core_field_offset(struct mount, mnt);
	struct list_head *head = &m->mnt_mounts;

	return BPF_CORE_READ(head, next) != head;
}

/*
 * Self-protection: the bpffs that holds the pins stays mounted, and so
 * does anything it is mounted under, since a lazy unmount takes the
 * mounts below along.
 */
SEC("lsm/sb_umount")
int BPF_PROG(seclvl_sb_umount, struct vfsmount *mnt, int flags)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (seclvl_enforced(SECLVL_UMOUNT, level))
		return seclvl_refuse(SECLVL_UMOUNT);
	if (seclvl_is_pin_sb(mnt->mnt_sb) ||
	    ((flags & MNT_DETACH) && seclvl_has_submounts(mnt)))
		return -EPERM;
	return 0;
}

static __always_inline bool seclvl_mount_allows_suid(unsigned long flags,
						     int mnt_flags)
{
	if (flags & MS_NOSUID)
		return false;
	if (flags & MS_REMOUNT)
		return mnt_flags & MNT_NOSUID;
	return !(flags & (MS_BIND | MS_SHARED | MS_PRIVATE | MS_SLAVE |
			  MS_UNBINDABLE | MS_MOVE));
}

SEC("lsm/sb_mount")
int BPF_PROG(seclvl_sb_mount, const char *dev_name, const struct path *path,
	     const char *type, unsigned long flags, void *data)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int level = seclvl_level();

	/* Self-protection: nothing is mounted over the pins or remounted. */
	if (level > 0 && seclvl_is_pin_sb(path->mnt->mnt_sb))
		return -EPERM;
	if (!seclvl_enforced(SECLVL_SUID_MOUNT, level) || !task->mm ||
	    !seclvl_current_init_ns() ||
	    !seclvl_mount_allows_suid(flags, path->mnt->mnt_flags))
		return 0;
	return seclvl_refuse(SECLVL_SUID_MOUNT);
}

/* Self-protection: nor is a mount moved over them. */
SEC("lsm/move_mount")
int BPF_PROG(seclvl_move_mount, const struct path *from_path,
	     const struct path *to_path)
{
	if (seclvl_level() <= 0 || !seclvl_is_pin_sb(to_path->mnt->mnt_sb))
		return 0;
	return -EPERM;
}

SEC("lsm/kernel_module_request")
int BPF_PROG(seclvl_kernel_module_request, char *kmod_name)
{
	return seclvl_check(SECLVL_MODULES, seclvl_level());
}

SEC("lsm/kernel_load_data")
int BPF_PROG(seclvl_kernel_load_data, enum kernel_load_data_id id, bool contents)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (id == bpf_core_enum_value(enum kernel_load_data_id, LOADING_MODULE))
		return seclvl_check(SECLVL_MODULES, level);
	if (id == bpf_core_enum_value(enum kernel_load_data_id,
				      LOADING_KEXEC_IMAGE))
		return seclvl_check(SECLVL_KEXEC, level);
	return 0;
}

SEC("lsm/kernel_read_file")
int BPF_PROG(seclvl_kernel_read_file, struct file *file,
	     enum kernel_read_file_id id, bool contents)
{
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	if (id == bpf_core_enum_value(enum kernel_read_file_id, READING_MODULE))
		return seclvl_check(SECLVL_MODULES, level);
	if (id == bpf_core_enum_value(enum kernel_read_file_id,
				      READING_KEXEC_IMAGE) ||
	    id == bpf_core_enum_value(enum kernel_read_file_id,
				      READING_KEXEC_INITRAMFS))
		return seclvl_check(SECLVL_KEXEC, level);
	return 0;
}

SEC("lsm/locked_down")
int BPF_PROG(seclvl_locked_down, enum lockdown_reason what)
{
	int level = seclvl_level();

	if (level <= 0 || what == LOCKDOWN_NONE)
		return 0;
	if (what < bpf_core_enum_value(enum lockdown_reason,
				       LOCKDOWN_INTEGRITY_MAX))
		return seclvl_check(SECLVL_LOCKDOWN_INTEGRITY, level);
	return seclvl_check(SECLVL_LOCKDOWN_CONFIDENTIALITY, level);
}

static __always_inline bool seclvl_is_devmem(dev_t dev)
{
	unsigned int minor = dev & MINORMASK;

	return (dev >> MINORBITS) == MEM_MAJOR &&
	       (minor == 1 || minor == 2 || minor == 4);
}

static __always_inline umode_t seclvl_setid_added(umode_t old, umode_t new)
{
	if ((new & S_IFMT) == S_IFDIR)
		return 0;
	return new & ~old & (S_ISUID | S_ISGID);
}

static __always_inline bool seclvl_is_blk(struct inode *inode)
{
	return (inode->i_mode & S_IFMT) == S_IFBLK;
}

static __always_inline bool seclvl_is_chr(struct inode *inode)
{
	return (inode->i_mode & S_IFMT) == S_IFCHR;
}

static __always_inline bool seclvl_is_sg(struct inode *inode)
{
	return seclvl_is_chr(inode) &&
	       (inode->i_rdev >> MINORBITS) == SCSI_GENERIC_MAJOR;
}

static __always_inline bool seclvl_name_is(struct dentry *dentry,
					   const char *name, int len)
{
	char buf[16];
	int i;

	if (bpf_probe_read_kernel_str(buf, sizeof(buf),
				      dentry->d_name.name) != len)
		return false;
	for (i = 0; i < len && i < sizeof(buf); i++)
		if (buf[i] != name[i])
			return false;
	return true;
}

#define SECLVL_NAME_IS(dentry, s) seclvl_name_is(dentry, s, sizeof(s))

/*
 * /proc/sys/kernel/ftrace_enabled: writing 0 takes every ftrace call
 * site out, and with them the trampolines that run these programs.
 */
static __always_inline bool seclvl_is_ftrace_switch(struct file *file)
{
	struct dentry *dentry = file->f_path.dentry;
	struct dentry *parent = dentry->d_parent;

	return file->f_inode->i_sb->s_magic == PROC_SUPER_MAGIC &&
	       SECLVL_NAME_IS(dentry, "ftrace_enabled") &&
	       SECLVL_NAME_IS(parent, "kernel") &&
	       SECLVL_NAME_IS(parent->d_parent, "sys");
}

SEC("lsm/file_open")
int BPF_PROG(seclvl_file_open, struct file *file)
{
	struct inode *inode = file->f_inode;
	int level = seclvl_level();

	if (level <= 0)
		return 0;
	/* Self-protection. */
	if ((file->f_mode & FMODE_WRITE) && seclvl_is_ftrace_switch(file))
		return -EPERM;
	if (seclvl_is_chr(inode) && (file->f_mode & FMODE_WRITE) &&
	    seclvl_enforced(SECLVL_DEVMEM_WRITE, level) &&
	    seclvl_is_devmem(inode->i_rdev))
		return seclvl_refuse(SECLVL_DEVMEM_WRITE);
	if ((file->f_flags & __O_TMPFILE) == __O_TMPFILE &&
	    seclvl_enforced(SECLVL_SETID_BITS, level) &&
	    seclvl_setid_added(0, inode->i_mode))
		return seclvl_refuse(SECLVL_SETID_BITS);
	return 0;
}

/* file_bdev(): the block device whose inode backs @file's mapping. */
static __always_inline struct block_device *seclvl_file_bdev(struct file *file)
{
	struct inode *host = file->f_mapping->host;

	return (void *)host -
	       bpf_core_field_offset(struct bdev_inode, vfs_inode) +
	       bpf_core_field_offset(struct bdev_inode, bdev);
}

/*
 * As the LSM's seclvl_bdev_in_use(): claimed itself, or a partition of a
 * disk claimed as a whole.  A disk whose partition is claimed has
 * bd_may_claim as its holder, which must not block its other partitions.
 */
static __always_inline bool seclvl_bdev_in_use(struct block_device *bdev)
{
	struct block_device *whole;
	void *holder;

	if (BPF_CORE_READ(bdev, bd_holder))
		return true;
	whole = BPF_CORE_READ(bdev, bd_disk, part0);
	if (whole == bdev)
		return false;
	holder = BPF_CORE_READ(whole, bd_holder);
	return holder && holder != &bd_may_claim;
}

static __always_inline int seclvl_check_bdev_write(struct file *file, int level)
{
	if (seclvl_enforced(SECLVL_BLOCKDEV_WRITE, level))
		return seclvl_refuse(SECLVL_BLOCKDEV_WRITE);
	if (seclvl_enforced(SECLVL_MOUNTED_BLOCKDEV_WRITE, level) &&
	    seclvl_bdev_in_use(seclvl_file_bdev(file)))
		return seclvl_refuse(SECLVL_MOUNTED_BLOCKDEV_WRITE);
	return 0;
}

static __always_inline int seclvl_check_chr_write(int level)
{
	if (seclvl_enforced(SECLVL_BLOCKDEV_WRITE, level))
		return seclvl_refuse(SECLVL_BLOCKDEV_WRITE);
	return seclvl_check(SECLVL_MOUNTED_BLOCKDEV_WRITE, level);
}

static __always_inline int seclvl_check_device_write(struct file *file,
						     int level)
{
	struct inode *inode = file->f_inode;

	if (seclvl_is_blk(inode))
		return seclvl_check_bdev_write(file, level);
	if (seclvl_is_chr(inode))
		return seclvl_check_chr_write(level);
	return 0;
}

SEC("lsm/file_post_open")
int BPF_PROG(seclvl_file_post_open, struct file *file, int mask)
{
	int level = seclvl_level();

	if (level <= 0 || !(file->f_mode & FMODE_WRITE) ||
	    !seclvl_is_blk(file->f_inode))
		return 0;
	return seclvl_check_bdev_write(file, level);
}

SEC("lsm/file_permission")
int BPF_PROG(seclvl_file_permission, struct file *file, int mask)
{
	struct inode *inode = file->f_inode;
	int level = seclvl_level();

	if (level <= 0 || !(mask & MAY_WRITE) ||
	    !(seclvl_is_blk(inode) || seclvl_is_sg(inode)))
		return 0;
	return seclvl_check_device_write(file, level);
}

static __always_inline bool seclvl_scsi_may_write(struct file *file, int level)
{
	return (file->f_mode & FMODE_WRITE) ||
	       !seclvl_enforced(SECLVL_RAWIO, level);
}

static __always_inline bool seclvl_ioctl_may_write(struct file *file,
						   unsigned int cmd, int level)
{
	struct inode *inode = file->f_inode;

	switch (cmd) {
	case SG_IO:
		return seclvl_scsi_may_write(file, level);
	case SCSI_IOCTL_SEND_COMMAND:
		return (seclvl_is_blk(inode) || seclvl_is_sg(inode)) &&
		       seclvl_scsi_may_write(file, level);
	case CDROM_SEND_PACKET:
		return seclvl_is_blk(inode) && seclvl_scsi_may_write(file, level);
	case BLKDISCARD:
	case BLKSECDISCARD:
	case BLKZEROOUT:
		return seclvl_is_blk(inode) && (file->f_mode & FMODE_WRITE);
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

static __always_inline int seclvl_ioctl(struct file *file, unsigned int cmd)
{
	int level = seclvl_level();

	if (level <= 0 || !seclvl_ioctl_may_write(file, cmd, level))
		return 0;
	return seclvl_check_device_write(file, level);
}

SEC("lsm/file_ioctl")
int BPF_PROG(seclvl_file_ioctl, struct file *file, unsigned int cmd,
	     unsigned long arg)
{
	return seclvl_ioctl(file, cmd);
}

SEC("lsm/file_ioctl_compat")
int BPF_PROG(seclvl_file_ioctl_compat, struct file *file, unsigned int cmd,
	     unsigned long arg)
{
	return seclvl_ioctl(file, cmd);
}

SEC("lsm/uring_cmd")
int BPF_PROG(seclvl_uring_cmd, struct io_uring_cmd *ioucmd)
{
	int level = seclvl_level();

	switch (ioucmd->cmd_op) {
	case NVME_URING_CMD_IO:
	case NVME_URING_CMD_IO_VEC:
	case NVME_URING_CMD_ADMIN:
	case NVME_URING_CMD_ADMIN_VEC:
		if (level <= 0)
			return 0;
		return seclvl_check_device_write(ioucmd->file, level);
	default:
		return 0;
	}
}

static __always_inline int seclvl_check_shared_write(struct file *file,
						     int level)
{
	struct inode *inode = file->f_inode;

	if (seclvl_is_blk(inode))
		return seclvl_check_bdev_write(file, level);
	if (seclvl_is_chr(inode) && seclvl_is_devmem(inode->i_rdev))
		return seclvl_check(SECLVL_DEVMEM_WRITE, level);
	return 0;
}

SEC("lsm/mmap_file")
int BPF_PROG(seclvl_mmap_file, struct file *file, unsigned long reqprot,
	     unsigned long prot, unsigned long flags)
{
	int level = seclvl_level();

	if (level <= 0 || !file || !(prot & PROT_WRITE) ||
	    (flags & MAP_TYPE) == MAP_PRIVATE)
		return 0;
	return seclvl_check_shared_write(file, level);
}

SEC("lsm/file_mprotect")
int BPF_PROG(seclvl_file_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot)
{
	int level = seclvl_level();
	struct file *file = vma->vm_file;

	if (level <= 0 || !file || !(prot & PROT_WRITE) ||
	    !(vma->vm_flags & VM_SHARED))
		return 0;
	return seclvl_check_shared_write(file, level);
}

SEC("lsm/inode_setattr")
int BPF_PROG(seclvl_inode_setattr, struct mnt_idmap *idmap,
	     struct dentry *dentry, struct iattr *attr)
{
	int level = seclvl_level();

	if (!seclvl_enforced(SECLVL_SETID_BITS, level) ||
	    !(attr->ia_valid & ATTR_MODE))
		return 0;
	if (!seclvl_setid_added(dentry->d_inode->i_mode,
				attr->ia_mode))
		return 0;
	return seclvl_refuse(SECLVL_SETID_BITS);
}

SEC("lsm/inode_create")
int BPF_PROG(seclvl_inode_create, struct inode *dir, struct dentry *dentry,
	     umode_t mode)
{
	if (!seclvl_setid_added(0, mode))
		return 0;
	return seclvl_check(SECLVL_SETID_BITS, seclvl_level());
}

SEC("lsm/inode_mknod")
int BPF_PROG(seclvl_inode_mknod, struct inode *dir, struct dentry *dentry,
	     umode_t mode, dev_t dev)
{
	if (!seclvl_setid_added(0, mode))
		return 0;
	return seclvl_check(SECLVL_SETID_BITS, seclvl_level());
}

SEC("lsm/inode_setxattr")
int BPF_PROG(seclvl_inode_setxattr, struct mnt_idmap *idmap,
	     struct dentry *dentry, const char *name)
{
	static const char caps[] = "security.capability";
	char buf[sizeof(caps)];
	int level = seclvl_level(), i;

	if (!seclvl_enforced(SECLVL_SETID_BITS, level))
		return 0;
	if (bpf_probe_read_kernel_str(buf, sizeof(buf), name) != sizeof(caps))
		return 0;
	for (i = 0; i < sizeof(caps); i++)
		if (buf[i] != caps[i])
			return 0;
	return seclvl_refuse(SECLVL_SETID_BITS);
}

/* Self-protection: the pins cannot be removed or renamed. */
SEC("lsm/inode_unlink")
int BPF_PROG(seclvl_inode_unlink, struct inode *dir, struct dentry *dentry)
{
	if (seclvl_level() <= 0 || !seclvl_is_pin_dir(dir))
		return 0;
	return -EPERM;
}

SEC("lsm/inode_rename")
int BPF_PROG(seclvl_inode_rename, struct inode *old_dir,
	     struct dentry *old_dentry, struct inode *new_dir,
	     struct dentry *new_dentry)
{
	if (seclvl_level() <= 0)
		return 0;
	if (seclvl_is_pin_dir(old_dir) || seclvl_is_pin_dir(new_dir) ||
	    seclvl_is_pin_dir(old_dentry->d_inode))
		return -EPERM;
	return 0;
}

/*
 * Self-protection: no link is detached or replaced, and no program is
 * loaded that could override a security hook's result (another LSM
 * program, fmod_ret, freplace, struct_ops), nor a token to load one.
 */
SEC("lsm/bpf")
int BPF_PROG(seclvl_bpf, int cmd, union bpf_attr *attr, unsigned int size)
{
	if (seclvl_level() <= 0)
		return 0;
	switch (cmd) {
	case BPF_LINK_DETACH:
	case BPF_LINK_UPDATE:
	case BPF_TOKEN_CREATE:
		return -EPERM;
	case BPF_PROG_LOAD:
		switch (attr->prog_type) {
		case BPF_PROG_TYPE_LSM:
		case BPF_PROG_TYPE_EXT:
		case BPF_PROG_TYPE_STRUCT_OPS:
			return -EPERM;
		case BPF_PROG_TYPE_TRACING:
			return attr->expected_attach_type == BPF_MODIFY_RETURN ?
				       -EPERM : 0;
		default:
			return 0;
		}
	default:
		return 0;
	}
}

/*
 * Self-protection: no new descriptor of a map the programs write, which
 * another program could write too (.rodata is read-only to programs).
 */
SEC("lsm/bpf_map")
int BPF_PROG(seclvl_bpf_map, struct bpf_map *map, fmode_t fmode)
{
	__u32 id;

	if (seclvl_level() <= 0)
		return 0;
	id = map->id;
	if (id == seclvl_state_get(SECLVL_STATE_MAP_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_DENIALS_ID) ||
	    id == seclvl_state_get(SECLVL_STATE_STEPPING_ID))
		return -EPERM;
	return 0;
}

/*
 * The only way the level changes: up, never down, never from -1, decided
 * by compare-and-swap so that concurrent raisers cannot lower it.
 * Returns 0, -EINVAL for a value outside -1..2, or -EPERM.
 */
SEC("syscall")
int seclvl_raise(struct seclvl_raise_ctx *ctx)
{
	__s64 *p = seclvl_slot(SECLVL_STATE_LEVEL);
	int want = ctx->level, i;

	if (!p)
		return -EINVAL;
	if (want < SECLVL_MIN || want > SECLVL_MAX)
		return -EINVAL;
	for (i = 0; i < 64; i++) {
		/* Reloaded each time: the cmpxchg below is a full barrier. */
		__s64 cur = *p;

		if (want == cur)
			return 0;
		if (want < cur || cur < 0)
			return -EPERM;
		if (__sync_val_compare_and_swap(p, cur, want) == cur)
			return 0;
	}
	return -EAGAIN;
}

/* For the loader's check that the clock reads right on this kernel. */
SEC("syscall")
int seclvl_clock_check(__s64 *now)
{
	*now = seclvl_realtime_ns();
	return 0;
}

/* Pinned as "level": reading it prints the level, as securityfs does. */
SEC("iter/bpf_map_elem")
int seclvl_show_level(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *key = ctx->key;
	__s64 *value = ctx->value;

	if (!key || !value || *key != SECLVL_STATE_LEVEL)
		return 0;
	BPF_SEQ_PRINTF(ctx->meta->seq, "%d\n", (int)*value);
	return 0;
}

/* Pinned as "policy": "name level denials" per restriction. */
SEC("iter/bpf_map_elem")
int seclvl_show_policy(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *key = ctx->key;
	__u64 *value = ctx->value;
	__u32 r;
	int rule;

	if (!key || !value)
		return 0;
	r = *key;
	if (r >= SECLVL_NR_RESTRICTIONS)
		return 0;
	rule = seclvl_rule_level(r);
	BPF_SEQ_PRINTF(ctx->meta->seq, "%s %s %llu\n", seclvl_rules[r].name,
		       rule == 1 ? "1" : rule == 2 ? "2" : "off", *value);
	return 0;
}
