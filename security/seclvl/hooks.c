// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: the hooks that enforce the policy table
 *
 * The hooks are registered switched off and called only from the first
 * time the level goes above 0 (seclvl_set_level()).  Each first asks
 * seclvl_enforced(), which at level 0 (after an escape) is one load and
 * one compare, and only then looks at its arguments.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/blkdev.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/cdev.h>
#include <linux/cdrom.h>
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/device.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/io_uring/cmd.h>
#include <linux/kernfs.h>
#include <linux/kernel_read_file.h>
#include <linux/lsm_hooks.h>
#include <linux/magic.h>
#include <linux/major.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/nsproxy.h>
#include <linux/netlink.h>
#include <linux/nvme_ioctl.h>
#include <linux/pagemap.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/socket.h>
#include <linux/sysctl.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/xattr.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <asm/syscall.h>
#include <uapi/linux/blkdev.h>
#include <uapi/linux/blkpg.h>
#include <uapi/linux/blkzoned.h>
#include <uapi/linux/ext4.h>
#include <uapi/linux/loop.h>
#include <uapi/linux/sed-opal.h>
#include <scsi/scsi_ioctl.h>
#include <scsi/sg.h>
#include <uapi/linux/mount.h>

#include "bpfnet.h"
#include "mountrules.h"
#include "seclvl.h"

#ifdef CONFIG_SECURITY_NETWORK
/*
 * Two uses of CAP_NET_ADMIN change nothing in the kernel's configuration.
 * Netlink lets a socket send to other sockets (a process's, or a multicast
 * group: udev telling libudev listeners of a device) only with it
 * (netlink_allowed()); a message to the kernel needs no capability there
 * and is judged by its handler.  And SO_SNDBUFFORCE and SO_RCVBUFFORCE
 * (udevd, journald, systemd) size the caller's own socket past the
 * sysctl's limit.  socket_sendmsg and socket_setsockopt mark such a call,
 * and the first capability check after it is its own: it finds and clears
 * the mark.  A call that fails before that check leaves the mark, so it
 * counts only within a send or setsockopt system call, each of which marks
 * afresh.
 */
static int hook_socket_sendmsg(struct socket *sock, struct msghdr *msg,
			       int size)
{
	struct sockaddr_nl *addr = msg->msg_name;

	/* Nothing reads the mark at level 0 or below, and each send resets it. */
	if (seclvl_current() <= 0)
		return 0;
	seclvl_task(current)->net_admin_noop =
		sock->sk && sock->sk->sk_family == AF_NETLINK && addr &&
		msg->msg_namelen >= sizeof(*addr) &&
		addr->nl_family == AF_NETLINK &&
		(addr->nl_pid || addr->nl_groups);
	return 0;
}

static int hook_socket_setsockopt(struct socket *sock, int level, int optname)
{
	if (seclvl_current() <= 0)
		return 0;
	seclvl_task(current)->net_admin_noop =
		level == SOL_SOCKET &&
		(optname == SO_SNDBUFFORCE || optname == SO_RCVBUFFORCE);
	return 0;
}

static bool seclvl_net_admin_noop(void)
{
	struct seclvl_task *t = seclvl_task(current);
	long nr;

	if (!t->net_admin_noop)
		return false;
	t->net_admin_noop = false;
	if (in_compat_syscall())
		return false;
	nr = syscall_get_nr(current, task_pt_regs(current));
	return nr == __NR_sendmsg || nr == __NR_sendto ||
	       nr == __NR_sendmmsg || nr == __NR_setsockopt;
}
#else
static bool seclvl_net_admin_noop(void)
{
	return false;
}
#endif

#ifdef CONFIG_BPF_SYSCALL
/*
 * Whether the current system call is bpf(2), where every CAP_NET_ADMIN
 * check also accepts CAP_SYS_ADMIN: hook_bpf() judges there what the
 * capability would, by where a program attaches, and refusing the
 * capability would only count and log what the kernel then allows.
 */
static bool seclvl_in_bpf(void)
{
	return current->mm && !in_compat_syscall() &&
	       syscall_get_nr(current, task_pt_regs(current)) == __NR_bpf;
}
#else
static bool seclvl_in_bpf(void)
{
	return false;
}
#endif

/*
 * Whether the current system call may unload a module: with a list of
 * module images, CAP_SYS_MODULE is let through for loads, which are judged
 * by their image, and refused for delete_module().  A compat call is
 * taken for one.
 */
static bool seclvl_unloading(void)
{
	if (in_compat_syscall())
		return true;
	return syscall_get_nr(current, task_pt_regs(current)) ==
	       __NR_delete_module;
}

/* The capabilities a restriction refuses: the hook passes any other at once. */
#define SECLVL_CAPS (BIT_ULL(CAP_LINUX_IMMUTABLE) | BIT_ULL(CAP_SYS_RAWIO) | \
		     BIT_ULL(CAP_NET_ADMIN) | BIT_ULL(CAP_SETUID) |	     \
		     BIT_ULL(CAP_SYS_MODULE))

/* Whether any of @cred's user IDs is the initial namespace's root. */
static bool seclvl_host_root(const struct cred *cred)
{
	return uid_eq(cred->uid, GLOBAL_ROOT_UID) ||
	       uid_eq(cred->euid, GLOBAL_ROOT_UID) ||
	       uid_eq(cred->suid, GLOBAL_ROOT_UID);
}

static int hook_capable(const struct cred *cred, struct user_namespace *ns,
			int cap, unsigned int opts)
{
	enum seclvl_restriction r;
	const char *name;
	int level;

	/* Every capability is below 64: & 63 keeps the shift defined. */
	BUILD_BUG_ON(CAP_LAST_CAP >= 64);
	if (!(SECLVL_CAPS & BIT_ULL(cap & 63)))
		return 0;
	level = seclvl_current();
	if (level <= 0)
		return 0;
	/*
	 * A user namespace administers only what it already owns, but the
	 * host's root that changes its IDs in one becomes the user mapped
	 * there.
	 */
	if (ns != &init_user_ns &&
	    (cap != CAP_SETUID || !seclvl_host_root(cred)))
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
		if (seclvl_net_admin_noop() || seclvl_in_bpf())
			return 0;
		r = SECLVL_NET_ADMIN;
		name = "CAP_NET_ADMIN";
		break;
	case CAP_SETUID:
		r = SECLVL_SETUID;
		name = "CAP_SETUID";
		break;
	case CAP_SYS_MODULE:
		if (seclvl_modules_listed() && !seclvl_unloading())
			return 0;
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

/* Whether @mm is init's memory. */
static bool seclvl_is_init_mm(const void *mm)
{
	struct task_struct *init;
	bool ret;

	if (!mm)
		return false;
	rcu_read_lock();
	init = find_task_by_pid_ns(1, &init_pid_ns);
	ret = init && READ_ONCE(init->mm) == mm;
	rcu_read_unlock();
	return ret;
}

/*
 * A task other than init that shares init's memory (a CLONE_VM child,
 * such as the vfork()ed helpers an init system spawns): writing its
 * memory writes init's.  Only a shared mm can be init's, so the lookup of
 * init is made for those alone.  ptrace_may_access() holds @child's task
 * lock, so ->mm is stable.
 */
static bool seclvl_shares_init_mm(struct task_struct *child)
{
	struct mm_struct *mm = child->mm;

	return mm && atomic_read(&mm->mm_users) > 1 && seclvl_is_init_mm(mm);
}

/* Init, or a task sharing its memory. */
static int hook_ptrace_access_check(struct task_struct *child,
				    unsigned int mode)
{
	int level;

	if (!seclvl_enforced(SECLVL_PTRACE_INIT, &level) ||
	    !(mode & PTRACE_MODE_ATTACH) ||
	    !(is_global_init(child) || seclvl_shares_init_mm(child)))
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

/*
 * Whether @mapping is a loop device's backing file's (or disk's): the
 * loop driver clears __GFP_IO there while it is bound (loop_configure(),
 * loop_change_fd()), gives it back when unbinding or when a configure
 * fails, and nothing else in the kernel clears it.  With two loop devices
 * over one file the first to unbind restores the mask early.
 */
static bool seclvl_backs_loop(struct address_space *mapping)
{
	return !(mapping_gfp_mask(mapping) & __GFP_IO);
}

/* Whether the caller is in the initial mount namespace. */
static bool seclvl_init_mnt_ns(void)
{
	return current->nsproxy->mnt_ns == init_nsproxy.mnt_ns;
}

/* Whether @sb keeps its files on a disk. */
static bool seclvl_disk_sb(const struct super_block *sb)
{
	return sb->s_bdev || (sb->s_type->fs_flags & FS_REQUIRES_DEV);
}

/**
 * struct seclvl_umount - what an unmount takes from the initial namespace
 * @tree: a lazy unmount of a mount with mounts under it
 * @sb: the filesystem of the mount it would detach there
 */
struct seclvl_umount {
	bool tree;
	const struct super_block *sb;
};

enum { SECLVL_UMOUNT_DISK = 1, SECLVL_UMOUNT_TREE };

/* Called under namespace_sem for each mount an unmount would detach. */
static int seclvl_umount_visit(struct vfsmount *m,
			       const struct mnt_namespace *ns, void *arg)
{
	struct seclvl_umount *u = arg;

	if (ns != init_nsproxy.mnt_ns)
		return 0;
	u->sb = m->mnt_sb;
	if (seclvl_disk_sb(m->mnt_sb))
		return SECLVL_UMOUNT_DISK;
	return u->tree ? SECLVL_UMOUNT_TREE : 0;
}

/*
 * At level 2 a disk's filesystem stays mounted in the initial mount
 * namespace, and so does whatever a lazy unmount would take along.  Other
 * filesystems (memory, kernel views, network, FUSE) may go: a mount of the
 * same kind can be made at level 2 anyway, so refusing their unmount only
 * breaks logouts and shutdown.  An unmount is judged by what it detaches
 * there, from whichever namespace it propagates (fs/pnode.c); another
 * namespace unmounts its own copies.
 */
static int hook_sb_umount(struct vfsmount *mnt, int flags)
{
	struct path root = { .mnt = mnt, .dentry = mnt->mnt_root };
	struct seclvl_umount u = {};
	int level;

	if (!seclvl_enforced(SECLVL_UMOUNT, &level))
		return 0;
	u.tree = (flags & MNT_DETACH) && path_has_submounts(&root);
	switch (mnt_umount_visit(mnt, flags, seclvl_umount_visit, &u)) {
	case SECLVL_UMOUNT_DISK:
		return seclvl_refuse(SECLVL_UMOUNT, level, true,
				     "unmount %s (%s)", u.sb->s_id,
				     u.sb->s_type->name);
	case SECLVL_UMOUNT_TREE:
		return seclvl_refuse(SECLVL_UMOUNT, level, true,
				     "detach %s (%s) and the mounts under it",
				     u.sb->s_id, u.sb->s_type->name);
	}
	return 0;
}

/*
 * Moving a mount of the initial mount namespace, or pivoting its root,
 * uncovers what the mount hid, as unmounting it would.  A container moves
 * mounts of its own namespace.
 */
static int seclvl_check_move(const char *what, const struct path *path)
{
	int level;

	if (!seclvl_enforced(SECLVL_UMOUNT, &level) || !seclvl_init_mnt_ns())
		return 0;
	return seclvl_refuse(SECLVL_UMOUNT, level, true, "%s %pd", what,
			     path->dentry);
}

/* A mount made by fsmount(2) and not yet attached has no parent. */
static bool seclvl_mount_attached(const struct path *path)
{
	struct path up = *path;
	bool attached;

	path_get(&up);
	attached = follow_up(&up);
	path_put(&up);
	return attached;
}

static int hook_move_mount(const struct path *from_path,
			   const struct path *to_path)
{
	if (!seclvl_mount_attached(from_path))
		return 0;
	return seclvl_check_move("move a mount to", to_path);
}

static int hook_sb_pivotroot(const struct path *old_path,
			     const struct path *new_path)
{
	return seclvl_check_move("pivot the root to", new_path);
}

/*
 * Set-id files on a filesystem mounted from a user namespace run with that
 * namespace's ids only (mnt_may_suid()), so only the initial one matters:
 * a new mount belongs to the caller's, a remount's to its superblock's,
 * whoever the caller.  The kernel's own mounts of root= and devtmpfs, made
 * before any user space ran (no mm yet), are what the boot command line
 * asked for.  A new, empty tmpfs or ramfs can carry no set-id file while
 * setid_bits holds (mountrules.h).
 */
static int hook_sb_mount(const char *dev_name, const struct path *path,
			 const char *type, unsigned long flags, void *data)
{
	int level, setid;

	if ((flags & MS_MOVE) && !(flags & MS_REMOUNT)) {
		int err = seclvl_check_move("move a mount to", path);

		if (err)
			return err;
	}
	if (!seclvl_enforced(SECLVL_SUID_MOUNT, &level) || !current->mm ||
	    ((flags & MS_REMOUNT) ? path->mnt->mnt_sb->s_user_ns :
				    current_user_ns()) != &init_user_ns ||
	    !seclvl_mount_allows_suid(flags, path->mnt->mnt_flags) ||
	    (!(flags & MS_REMOUNT) && type && seclvl_fs_starts_empty(type) &&
	     seclvl_enforced(SECLVL_SETID_BITS, &setid)))
		return 0;
	if (flags & MS_REMOUNT)
		return seclvl_refuse(SECLVL_SUID_MOUNT, level, true,
				     "remount %pd clearing nosuid",
				     path->dentry);
	return seclvl_refuse(SECLVL_SUID_MOUNT, level, true,
			     "mount %s (%s) on %pd without nosuid",
			     dev_name ?: "none", type ?: "?", path->dentry);
}

/*
 * Removing or replacing a dentry that is a mount point in another mount
 * namespace detaches every mount on it, in every namespace, without
 * sb_umount (__detach_mounts()).  Where the caller's own namespace has a
 * mount there, the VFS has already refused with EBUSY (rmdir, unlink) or
 * will (rename).
 */
static int seclvl_check_detach(struct dentry *dentry, const char *what)
{
	int level;

	if (!seclvl_enforced(SECLVL_UMOUNT, &level) || !d_mountpoint(dentry))
		return 0;
	return seclvl_refuse(SECLVL_UMOUNT, level, true,
			     "%s %pd, a mount point, which detaches its mounts",
			     what, dentry);
}

static int hook_inode_rmdir(struct inode *dir, struct dentry *dentry)
{
	return seclvl_check_detach(dentry, "remove");
}

static int hook_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	return seclvl_check_detach(dentry, "remove");
}

/* Renaming a mount point elsewhere moves its mounts away from the path. */
static int hook_inode_rename(struct inode *old_dir, struct dentry *old_dentry,
			     struct inode *new_dir, struct dentry *new_dentry)
{
	return seclvl_check_detach(old_dentry, "rename") ?:
	       seclvl_check_detach(new_dentry, "rename over");
}

/*
 * mount_setattr(2), and fsmount(2) with every attribute it does not set.
 * Judged by the superblock's user namespace, not the caller's: a copy of
 * a host mount handed to a user namespace, changed there and attached in
 * the initial namespace again, runs its set-id files as the host's ids.
 */
static int hook_mount_setattr(const struct path *path, unsigned int attr_set,
			      unsigned int attr_clr)
{
	struct super_block *sb = path->mnt->mnt_sb;
	bool nosuid_after;
	int level, setid;

	if (!seclvl_enforced(SECLVL_SUID_MOUNT, &level) ||
	    sb->s_user_ns != &init_user_ns || (attr_set & MOUNT_ATTR_NOSUID))
		return 0;
	/*
	 * fsmount(2) passes every attribute it does not set as cleared,
	 * which mount_setattr(2) cannot; its superblock of tmpfs or ramfs
	 * was made by this fs_context and is empty.
	 */
	if (attr_clr == ~attr_set && seclvl_fs_starts_empty(sb->s_type->name) &&
	    seclvl_enforced(SECLVL_SETID_BITS, &setid))
		return 0;
	nosuid_after = !(attr_clr & MOUNT_ATTR_NOSUID) &&
		       (path->mnt->mnt_flags & MNT_NOSUID);
	/*
	 * Clearing nosuid; or an idmapping on a mount without it, which
	 * makes the set-id files of a mapped owner run as another.
	 */
	if ((attr_clr & MOUNT_ATTR_NOSUID) ||
	    ((attr_set & MOUNT_ATTR_IDMAP) && !nosuid_after))
		return seclvl_refuse(SECLVL_SUID_MOUNT, level, true,
				     "mount attributes of %pd without nosuid",
				     path->dentry);
	return 0;
}

/* With a list of module images, the load an autoload leads to is judged. */
static int hook_kernel_module_request(char *kmod_name)
{
	int level;

	if (!seclvl_enforced(SECLVL_MODULES, &level) || seclvl_modules_listed())
		return 0;
	return seclvl_refuse(SECLVL_MODULES, level, true,
			     "module autoload of %s", kmod_name);
}

static int hook_kernel_load_data(enum kernel_load_data_id id, bool contents)
{
	int level;

	switch (id) {
	case LOADING_MODULE:
		if (!seclvl_enforced(SECLVL_MODULES, &level) ||
		    seclvl_modules_listed())
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
		if (!seclvl_enforced(SECLVL_MODULES, &level) ||
		    seclvl_modules_listed())
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
 * The image as the kernel read it, before it decompresses or parses it.
 * The first hooks let the load through only with a list; the level may
 * have been raised since.
 */
static int hook_kernel_post_read_file(struct file *file, char *buf,
				      loff_t size, enum kernel_read_file_id id)
{
	int level;

	if (id != READING_MODULE || !seclvl_enforced(SECLVL_MODULES, &level))
		return 0;
	if (!seclvl_modules_listed())
		return seclvl_refuse(SECLVL_MODULES, level, true,
				     "module load from %pD", file);
	return seclvl_check_module(buf, size, file, level);
}

static int hook_kernel_post_load_data(char *buf, loff_t size,
				      enum kernel_load_data_id id,
				      char *description)
{
	int level;

	if (id != LOADING_MODULE || !seclvl_enforced(SECLVL_MODULES, &level))
		return 0;
	if (!seclvl_modules_listed())
		return seclvl_refuse(SECLVL_MODULES, level, true,
				     "module load");
	return seclvl_check_module(buf, size, NULL, level);
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

	if (seclvl_current() <= 0 || what == LOCKDOWN_NONE)
		return 0;
	/* A listed image is judged by its digest, which a signature adds to. */
	if (what == LOCKDOWN_MODULE_SIGNATURE &&
	    seclvl_enforced(SECLVL_MODULES, &level) && seclvl_modules_listed())
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
 * The set-id bits of @mode that take effect on exec: set-uid on a file
 * anyone may execute, set-gid on one its group may (without group execute
 * S_ISGID means mandatory locking, and exec ignores it).
 */
static umode_t seclvl_setid_effective(umode_t mode)
{
	umode_t bits = 0;

	if ((mode & S_ISUID) && (mode & 0111))
		bits |= S_ISUID;
	if ((mode & S_ISGID) && (mode & 0010))	/* group execute */
		bits |= S_ISGID;
	return bits;
}

/*
 * Set-id bits raise privilege only when added, or made effective by an
 * execute bit, and only on non-directories (on a directory S_ISGID passes
 * the group on, S_ISUID does nothing).
 */
static umode_t seclvl_setid_added(umode_t old, umode_t new)
{
	if (S_ISDIR(new))
		return 0;
	return (new & ~old & (S_ISUID | S_ISGID)) |
	       (seclvl_setid_effective(new) & ~seclvl_setid_effective(old));
}

/*
 * Writing a loop device's backing file (@mapping, named by @dentry) writes
 * the loop device's disk, which seclvl cannot tell from one that is
 * mounted: both restrictions on disk writes apply, the first enforced one
 * refuses.
 */
static int seclvl_check_loop_backing(struct address_space *mapping,
				     const struct dentry *dentry,
				     const char *what)
{
	enum seclvl_restriction r = SECLVL_BLOCKDEV_WRITE;
	int level;

	if (!seclvl_backs_loop(mapping))
		return 0;
	if (!seclvl_enforced(r, &level)) {
		r = SECLVL_MOUNTED_BLOCKDEV_WRITE;
		if (!seclvl_enforced(r, &level))
			return 0;
	}
	return seclvl_refuse(r, level, true, "%s %pd, which backs a loop device",
			     what, dentry);
}

/*
 * Whether @inode carries file capabilities: a privileged program as much
 * as a set-id one.  The VFS marks S_NOSEC a regular file it found with
 * neither set-id bits nor security.capability (file_remove_privs()), and
 * clears the mark when an xattr is set; otherwise ask the filesystem, as
 * commoncap's cap_inode_need_killpriv() does.
 */
static bool seclvl_has_fcaps(struct dentry *dentry, struct inode *inode)
{
	if (IS_NOSEC(inode) || !S_ISREG(inode->i_mode) || !dentry)
		return false;
	return __vfs_getxattr(dentry, inode, XATTR_NAME_CAPS, NULL, 0) > 0;
}

/*
 * Changing a regular file's content or size: a set-id program keeps its
 * bits when root changes it (root has CAP_FSETID), and a program with
 * file capabilities keeps them when changed through a shared mapping, so
 * new content would run with the old privilege; a loop device's backing
 * file is its disk.
 */
static int seclvl_check_change(struct inode *inode,
			       struct address_space *mapping,
			       struct dentry *dentry, const char *what)
{
	int level;

	if (seclvl_enforced(SECLVL_SETID_BITS, &level)) {
		if (seclvl_setid_effective(inode->i_mode))
			return seclvl_refuse(SECLVL_SETID_BITS, level, true,
					     "%s set-id file %pd", what,
					     dentry);
		/* Capabilities act on exec: a file nobody may run has none. */
		if ((inode->i_mode & 0111) && seclvl_has_fcaps(dentry, inode))
			return seclvl_refuse(SECLVL_SETID_BITS, level, true,
					     "%s %pd, which has file capabilities",
					     what, dentry);
	}
	return seclvl_check_loop_backing(mapping, dentry, what);
}

/* /dev/snapshot, wherever its node is: a hibernation image in or out. */
static bool seclvl_is_snapshot(dev_t dev)
{
	return MAJOR(dev) == MISC_MAJOR && MINOR(dev) == SNAPSHOT_MINOR;
}

/*
 * The kernel asks lockdown only when /dev/snapshot is opened; through an
 * older descriptor an image could still be written and restored.
 */
static int seclvl_check_snapshot(struct file *file, const char *what)
{
	int level;

	if (!seclvl_enforced(SECLVL_LOCKDOWN_INTEGRITY, &level))
		return 0;
	return seclvl_refuse(SECLVL_LOCKDOWN_INTEGRITY, level, true,
			     "%s %pD, the hibernation image device", what,
			     file);
}

/*
 * Whether @file is a /proc/PID/mem of init: within procfs only the mem
 * file has unsigned offsets, and it keeps the mm as private_data (so do
 * the attr files, which init writes for itself).
 */
static bool seclvl_is_init_mem(struct file *file)
{
	return (file->f_op->fop_flags & FOP_UNSIGNED_OFFSET) &&
	       seclvl_is_init_mm(file->private_data);
}

/*
 * A setting of the initial network namespace under /proc/sys/net: root
 * passes net_ctl_permissions() by its uid alone, whatever its capabilities.
 */
static bool seclvl_is_net_sysctl(struct file *file)
{
#if defined(CONFIG_NET) && defined(CONFIG_PROC_SYSCTL)
	return proc_sys_set(file) == &init_net.sysctls;
#else
	return false;
#endif
}

/*
 * A file of the initial network namespace's /proc/net, guarded by its mode
 * alone (xt_recent's address lists, pktgen).  The caches under rpc/ are
 * the NFS server's, which mountd and gssd answer all the time.
 */
static bool seclvl_is_net_proc(struct file *file)
{
#ifdef CONFIG_NET
	struct dentry *d;

	if (proc_file_net(file) != &init_net)
		return false;
	for (d = file->f_path.dentry->d_parent; !IS_ROOT(d); d = d->d_parent)
		if (!strcmp(d->d_name.name, "rpc") &&
		    !strcmp(d->d_parent->d_name.name, "net"))
			return false;
	return true;
#else
	return false;
#endif
}

/*
 * A file of a network device, or of the network class, of the initial
 * namespace in sysfs: byte queue limits and bonding options, for two, are
 * guarded by their mode alone.  The nodes of those are tagged with their
 * namespace.  Synthesised uevents (udevadm trigger) and a device's power
 * management are not network settings.
 */
static bool seclvl_is_net_sysfs(struct file *file)
{
#ifdef CONFIG_NET
	struct kernfs_node *kn = kernfs_node_from_dentry(file->f_path.dentry);

	if (!kn || !strcmp(kn->name, "uevent"))
		return false;
	for (; kn->parent; kn = kn->parent) {
		if (kn->ns)
			return kn->ns == &init_net;
		if (kn->parent->ns && !strcmp(kn->name, "power"))
			return false;
	}
#endif
	return false;
}

/* binfmt_misc's register file, at the root of its filesystem. */
static bool seclvl_is_binfmt_register(const struct file *file)
{
	const struct dentry *dentry = file->f_path.dentry;

	return dentry->d_parent == dentry->d_sb->s_root &&
	       !strcmp(dentry->d_name.name, "register");
}

/*
 * What seclvl refuses to open for write, refused on each write as well: a
 * descriptor opened before the raise, or taken from another process, may
 * do no more than one opened now.  @what says how: "open for writing",
 * "write to", ...
 */
static int seclvl_check_write(struct file *file, const char *what)
{
	struct inode *inode = file_inode(file);
	int level, err;

	if (S_ISCHR(inode->i_mode)) {
		if (seclvl_is_snapshot(inode->i_rdev))
			return seclvl_check_snapshot(file, what);
		if (!seclvl_is_devmem(inode->i_rdev) ||
		    !seclvl_enforced(SECLVL_DEVMEM_WRITE, &level))
			return 0;
		return seclvl_refuse(SECLVL_DEVMEM_WRITE, level, true,
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
		if (!seclvl_is_binfmt_register(file) ||
		    !seclvl_enforced(SECLVL_SETID_BITS, &level))
			return 0;
		return seclvl_refuse(SECLVL_SETID_BITS, level, true,
				     "%s binfmt_misc file %pD", what,
				     file);
	case DEBUGFS_MAGIC:
		/* The kernel's lockdown checks debugfs at open only. */
		if (!seclvl_enforced(SECLVL_LOCKDOWN_INTEGRITY, &level))
			return 0;
		return seclvl_refuse(SECLVL_LOCKDOWN_INTEGRITY, level, true,
				     "%s debugfs file %pD", what, file);
	case SYSFS_MAGIC:
		if (seclvl_enforced(SECLVL_NET_ADMIN, &level) &&
		    seclvl_is_net_sysfs(file))
			return seclvl_refuse(SECLVL_NET_ADMIN, level, true,
					     "%s network setting %pD4",
					     what, file);
		return 0;
	case PROC_SUPER_MAGIC:
		if (seclvl_enforced(SECLVL_NET_ADMIN, &level) &&
		    (seclvl_is_net_sysctl(file) || seclvl_is_net_proc(file)))
			return seclvl_refuse(SECLVL_NET_ADMIN, level, true,
					     "%s network setting %pD",
					     what, file);
		/* Set by the open method, after file_open: write only. */
		if (seclvl_enforced(SECLVL_PTRACE_INIT, &level) &&
		    seclvl_is_init_mem(file))
			return seclvl_refuse(SECLVL_PTRACE_INIT, level, true,
					     "%s the memory of init through %pD",
					     what, file);
		return 0;
	default:
		return 0;
	}
}

static int hook_file_open(struct file *file)
{
	struct inode *inode = file_inode(file);
	int level;

	if (seclvl_current() <= 0)
		return 0;
	if (file->f_mode & FMODE_WRITE) {
		int err = seclvl_check_write(file, "open for writing");

		if (err)
			return err;
	}
	/* O_TMPFILE creates without inode_create; this is its first hook. */
	if ((file->f_flags & __O_TMPFILE) &&
	    seclvl_enforced(SECLVL_SETID_BITS, &level) &&
	    seclvl_setid_added(0, inode->i_mode))
		return seclvl_refuse(SECLVL_SETID_BITS, level, true,
				     "create an O_TMPFILE with mode %o",
				     inode->i_mode & S_IALLUGO);
	return 0;
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

static int seclvl_check_bdev_write(struct file *file)
{
	struct block_device *bdev = file_bdev(file);
	int level;

	if (seclvl_enforced(SECLVL_BLOCKDEV_WRITE, &level))
		return seclvl_refuse(SECLVL_BLOCKDEV_WRITE, level, true,
				     "write to block device %pg", bdev);
	if (seclvl_enforced(SECLVL_MOUNTED_BLOCKDEV_WRITE, &level) &&
	    seclvl_bdev_in_use(bdev, file))
		return seclvl_refuse(SECLVL_MOUNTED_BLOCKDEV_WRITE, level, true,
				     "write to block device %pg, which is in use",
				     bdev);
	return 0;
}
#else
/* Without the block layer there are no block devices to write. */
static int seclvl_check_bdev_write(struct file *file)
{
	return 0;
}

static bool seclvl_bdev_backs_loop(struct block_device *bdev)
{
	return false;
}
#endif

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
 * Whether the device behind an open character device file is of class
 * @name ("bsg", "nvme", ...), for drivers whose major is dynamic.  The
 * open file holds the cdev, and cdev_device_add() made its device the
 * cdev's parent.
 */
static bool seclvl_chr_class_is(struct inode *inode, const char *name)
{
	struct cdev *cdev = READ_ONCE(inode->i_cdev);
	const struct device *dev;

	if (!S_ISCHR(inode->i_mode) || !cdev || !cdev->kobj.parent)
		return false;
	dev = kobj_to_dev(cdev->kobj.parent);
	return dev->class && !strcmp(dev->class->name, name);
}

/* A disk's NVMe controller or one of its generic namespace devices. */
static bool seclvl_is_nvme_chr(struct inode *inode)
{
	return seclvl_chr_class_is(inode, "nvme-generic") ||
	       seclvl_chr_class_is(inode, "nvme");
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

static int seclvl_check_device_write(struct file *file)
{
	umode_t mode = file_inode(file)->i_mode;

	if (S_ISBLK(mode))
		return seclvl_check_bdev_write(file);
	if (S_ISCHR(mode))
		return seclvl_check_chr_write(file);
	return 0;
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

/* After open, so that the file's mapping is the block device's. */
static int hook_file_post_open(struct file *file, int mask)
{
	if (seclvl_current() <= 0 || !(file->f_mode & FMODE_WRITE) ||
	    !S_ISBLK(file_inode(file)->i_mode))
		return 0;
	return seclvl_check_bdev_write(file);
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

static int hook_inode_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
			      struct iattr *attr)
{
	struct inode *inode = d_backing_inode(dentry);
	/* A set-id bit, or execute, which makes file capabilities usable. */
	bool privbits = (attr->ia_valid & ATTR_MODE) &&
			(attr->ia_mode & (S_ISUID | S_ISGID | 0111));
	umode_t old;
	int level;

	/* Most calls neither truncate nor change the mode: done first. */
	if ((!(attr->ia_valid & ATTR_SIZE) && !privbits) ||
	    seclvl_current() <= 0)
		return 0;
	if ((attr->ia_valid & ATTR_SIZE) && S_ISREG(inode->i_mode)) {
		int err = seclvl_check_change(inode, inode->i_mapping, dentry,
					      "truncate");

		if (err)
			return err;
	}
	if (!privbits || !seclvl_enforced(SECLVL_SETID_BITS, &level))
		return 0;
	old = inode->i_mode;
	if (!seclvl_setid_added(old, attr->ia_mode) &&
	    !((attr->ia_mode & ~old & 0111) && seclvl_has_fcaps(dentry, inode)))
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

/*
 * A disk that backs a loop device cannot be mounted from the level of
 * mounted_blockdev_write on: the loop device would write under the
 * filesystem (a loop device bound to a mounted disk is refused when it is
 * bound).
 */
static int hook_sb_kern_mount(const struct super_block *sb)
{
	int level;

	if (!IS_ENABLED(CONFIG_BLOCK) || !sb->s_bdev ||
	    !seclvl_enforced(SECLVL_MOUNTED_BLOCKDEV_WRITE, &level) ||
	    !seclvl_bdev_backs_loop(sb->s_bdev))
		return 0;
	return seclvl_refuse(SECLVL_MOUNTED_BLOCKDEV_WRITE, level, true,
			     "mount %pg, which backs a loop device", sb->s_bdev);
}

/*
 * An access ACL rewrites the mode's permission bits (the mask becomes the
 * group bits) without inode_setattr, and grants execute to named users and
 * groups, so it can make dormant set-id bits or file capabilities usable
 * by others: none is set on such a program.
 */
static int hook_inode_set_acl(struct mnt_idmap *idmap, struct dentry *dentry,
			      const char *acl_name, struct posix_acl *kacl)
{
	struct inode *inode = d_backing_inode(dentry);
	int level;

	if (!seclvl_enforced(SECLVL_SETID_BITS, &level) ||
	    S_ISDIR(inode->i_mode) ||
	    strcmp(acl_name, XATTR_NAME_POSIX_ACL_ACCESS))
		return 0;
	if (inode->i_mode & (S_ISUID | S_ISGID))
		return seclvl_refuse(SECLVL_SETID_BITS, level, true,
				     "set an access ACL on set-id file %pd",
				     dentry);
	if (seclvl_has_fcaps(dentry, inode))
		return seclvl_refuse(SECLVL_SETID_BITS, level, true,
				     "set an access ACL on %pd, which has file capabilities",
				     dentry);
	return 0;
}

#ifdef CONFIG_BPF_SYSCALL
/* The level of the cgroup at descriptor @fd, or -1: the attach then fails. */
#ifdef CONFIG_CGROUP_BPF
static int seclvl_cgroup_level(u32 fd)
{
	struct cgroup *cgrp = cgroup_get_from_fd(fd);
	int level;

	if (IS_ERR(cgrp))
		return -1;
	level = cgrp->level;
	cgroup_put(cgrp);
	return level;
}
#else
static int seclvl_cgroup_level(u32 fd)
{
	return -1;
}
#endif

/*
 * Whether another task can swap the caller's descriptors between this
 * hook and the kernel's own lookup of them: a thread, or an io_uring
 * worker, sharing the table.  Init does not race itself (ptrace_init
 * keeps others out of it); systemd closes descriptors on a thread of its
 * own while it attaches its units' programs.
 */
static bool seclvl_fds_shared(void)
{
	return atomic_read(&current->files->count) > 1 &&
	       !is_global_init(current);
}

/*
 * A network program attached where it filters or redirects the host's
 * traffic (bpfnet.h): a device or netfilter hook of the initial network
 * namespace, a namespace named by a descriptor, a cgroup above a unit's.
 * Links are not changed or detached either, since which one a descriptor
 * names can change before the kernel looks.  A unit's own cgroup keeps
 * its programs (systemd's IPAddressDeny=, SocketBindDeny=): a program
 * there acts on processes root may trace anyway.
 */
static int hook_bpf(int cmd, union bpf_attr *attr, unsigned int size)
{
	enum seclvl_bpf_net where;
	u32 type, target, flags;
	bool fds_shared;
	int level, cg;

	if (!seclvl_enforced(SECLVL_NET_ADMIN, &level))
		return 0;
	if (cmd == BPF_LINK_UPDATE || cmd == BPF_LINK_DETACH)
		return seclvl_refuse(SECLVL_NET_ADMIN, level, true,
				     "change or detach a BPF link");
	/*
	 * freplace rewrites an attached program, a device's as well; fmod_ret
	 * on security_socket_*() refuses sockets host-wide, a firewall.
	 */
	if (cmd == BPF_PROG_LOAD &&
	    (attr->prog_type == BPF_PROG_TYPE_EXT ||
	     (attr->prog_type == BPF_PROG_TYPE_TRACING &&
	      attr->expected_attach_type == BPF_MODIFY_RETURN)))
		return seclvl_refuse(SECLVL_NET_ADMIN, level, true,
				     "load a BPF program that replaces or overrides others");
	if (cmd == BPF_LINK_CREATE) {
		type = attr->link_create.attach_type;
		target = attr->link_create.target_fd;
		flags = BPF_F_ALLOW_MULTI;	/* what a cgroup link always is */
	} else {
		type = attr->attach_type;
		target = attr->target_fd;
		flags = attr->attach_flags;
	}
	where = seclvl_bpf_attach_net(cmd, type);
	if (where == SECLVL_BPF_NOT_NET)
		return 0;
	fds_shared = where == SECLVL_BPF_NET_CGROUP && seclvl_fds_shared();
	cg = where == SECLVL_BPF_NET_CGROUP ? seclvl_cgroup_level(target) : -1;
	switch (seclvl_bpf_net_verdict(cmd, where, flags,
				       net_eq(current->nsproxy->net_ns, &init_net),
				       fds_shared, cg)) {
	case SECLVL_BPF_NET_HOST:
		return seclvl_refuse(SECLVL_NET_ADMIN, level, true,
				     "attach or detach BPF program type %u on the host's network",
				     type);
	case SECLVL_BPF_NET_NAMED:
		return seclvl_refuse(SECLVL_NET_ADMIN, level, true,
				     "attach BPF program type %u to a network namespace",
				     type);
	case SECLVL_BPF_NET_ALONE:
		/* One alone would make systemd's later attaches fail. */
		return seclvl_refuse(SECLVL_NET_ADMIN, level, true,
				     "attach BPF program type %u to a cgroup without BPF_F_ALLOW_MULTI",
				     type);
	case SECLVL_BPF_NET_SHARED:
		return seclvl_refuse(SECLVL_NET_ADMIN, level, true,
				     "attach or detach BPF program type %u on a cgroup, sharing descriptors",
				     type);
	case SECLVL_BPF_NET_SHALLOW:
		return seclvl_refuse(SECLVL_NET_ADMIN, level, true,
				     "attach or detach BPF program type %u on a cgroup of level %d",
				     type, cg);
	default:
		return 0;
	}
}
#endif

/* Hooks that serve many restrictions, switched on at the first raise. */
static struct security_hook_list seclvl_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(capable, hook_capable),
#ifdef CONFIG_SECURITY_NETWORK
	LSM_HOOK_INIT(socket_sendmsg, hook_socket_sendmsg),
	LSM_HOOK_INIT(socket_setsockopt, hook_socket_setsockopt),
#endif
#ifdef CONFIG_BPF_SYSCALL
	LSM_HOOK_INIT(bpf, hook_bpf),
#endif
	LSM_HOOK_INIT(kernel_module_request, hook_kernel_module_request),
	LSM_HOOK_INIT(kernel_load_data, hook_kernel_load_data),
	LSM_HOOK_INIT(kernel_read_file, hook_kernel_read_file),
	LSM_HOOK_INIT(kernel_post_read_file, hook_kernel_post_read_file),
	LSM_HOOK_INIT(kernel_post_load_data, hook_kernel_post_load_data),
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
};

static struct security_hook_list seclvl_ptrace_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, hook_ptrace_access_check),
};

static struct security_hook_list seclvl_time_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(settime, hook_settime),
};

static struct security_hook_list seclvl_umount_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(sb_umount, hook_sb_umount),
	LSM_HOOK_INIT(move_mount, hook_move_mount),
	LSM_HOOK_INIT(sb_pivotroot, hook_sb_pivotroot),
	LSM_HOOK_INIT(inode_rmdir, hook_inode_rmdir),
	LSM_HOOK_INIT(inode_unlink, hook_inode_unlink),
	LSM_HOOK_INIT(inode_rename, hook_inode_rename),
};

static struct security_hook_list seclvl_mount_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(sb_mount, hook_sb_mount),
	LSM_HOOK_INIT(mount_setattr, hook_mount_setattr),
};

static struct security_hook_list seclvl_kern_mount_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(sb_kern_mount, hook_sb_kern_mount),
};

static struct security_hook_list seclvl_setid_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(inode_setxattr, hook_inode_setxattr),
	LSM_HOOK_INIT(inode_set_acl, hook_inode_set_acl),
};

/*
 * Each set of hooks with the restrictions it serves.  A set is switched on
 * when the first of them applies, so a level pays only for the hooks it
 * enforces with: at level 1 the unmount and clock hooks, which serve level
 * 2 restrictions by default, cost nothing.
 */
static const struct seclvl_hook_set {
	struct security_hook_list *hooks;
	int count;
	unsigned long serves;
} seclvl_hook_sets[] = {
	{ seclvl_hooks, ARRAY_SIZE(seclvl_hooks),
	  GENMASK(SECLVL_NR_RESTRICTIONS - 1, 0) },
	{ seclvl_ptrace_hooks, ARRAY_SIZE(seclvl_ptrace_hooks),
	  BIT(SECLVL_PTRACE_INIT) },
	{ seclvl_time_hooks, ARRAY_SIZE(seclvl_time_hooks),
	  BIT(SECLVL_TIME_BACKWARD) },
	{ seclvl_umount_hooks, ARRAY_SIZE(seclvl_umount_hooks),
	  BIT(SECLVL_UMOUNT) },
	{ seclvl_mount_hooks, ARRAY_SIZE(seclvl_mount_hooks),
	  BIT(SECLVL_UMOUNT) | BIT(SECLVL_SUID_MOUNT) },
	{ seclvl_kern_mount_hooks, ARRAY_SIZE(seclvl_kern_mount_hooks),
	  BIT(SECLVL_MOUNTED_BLOCKDEV_WRITE) },
	{ seclvl_setid_hooks, ARRAY_SIZE(seclvl_setid_hooks),
	  BIT(SECLVL_SETID_BITS) },
};

/* The sets switched on, as BIT(index); under seclvl_lock. */
static unsigned long seclvl_sets_on;

void __init seclvl_add_hooks(void)
{
	const struct seclvl_hook_set *set;

	for (set = seclvl_hook_sets;
	     set < seclvl_hook_sets + ARRAY_SIZE(seclvl_hook_sets); set++)
		security_add_hooks_deferred(set->hooks, set->count,
					    &seclvl_lsmid);
}

/**
 * seclvl_enable_hooks - switch on the hooks of the restrictions that apply
 * @applying: the restrictions about to apply, as BIT(restriction)
 *
 * Called with seclvl_lock held before they apply.  When it returns, every
 * CPU calls every hook that serves one of @applying.
 */
void seclvl_enable_hooks(unsigned long applying)
{
	size_t i;

	lockdep_assert_held(&seclvl_lock);
	BUILD_BUG_ON(ARRAY_SIZE(seclvl_hook_sets) > BITS_PER_LONG);
	for (i = 0; i < ARRAY_SIZE(seclvl_hook_sets); i++) {
		if ((seclvl_sets_on & BIT(i)) ||
		    !(seclvl_hook_sets[i].serves & applying))
			continue;
		security_enable_hooks(seclvl_hook_sets[i].hooks,
				      seclvl_hook_sets[i].count);
		seclvl_sets_on |= BIT(i);
	}
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
	/* Dormant bits made effective by an execute bit. */
	KUNIT_EXPECT_EQ(test, S_ISUID,
			seclvl_setid_added(S_IFREG | 04644, S_IFREG | 04744));
	KUNIT_EXPECT_EQ(test, S_ISGID,
			seclvl_setid_added(S_IFREG | 02644, S_IFREG | 02654));
	KUNIT_EXPECT_EQ(test, 0,
			seclvl_setid_added(S_IFREG | 02644, S_IFREG | 02645));
	KUNIT_EXPECT_EQ(test, 0,
			seclvl_setid_added(S_IFREG | 04744, S_IFREG | 04755));
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

static void test_bpf_attach_net(struct kunit *const test)
{
	/* The caller's namespace: its devices and hooks. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_LINK_CREATE, BPF_XDP));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_PROG_ATTACH, BPF_TCX_INGRESS));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_PROG_DETACH, BPF_TCX_EGRESS));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_LINK_CREATE, BPF_NETFILTER));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NS,
			seclvl_bpf_attach_net(BPF_PROG_ATTACH,
					      BPF_FLOW_DISSECTOR));
	/* A namespace named by a descriptor: any. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ANY,
			seclvl_bpf_attach_net(BPF_LINK_CREATE,
					      BPF_FLOW_DISSECTOR));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ANY,
			seclvl_bpf_attach_net(BPF_LINK_CREATE, BPF_SK_LOOKUP));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ANY,
			seclvl_bpf_attach_net(BPF_LINK_CREATE,
					      BPF_NETKIT_PEER));
	/* Sockets under a cgroup; not its devices or sysctls. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_CGROUP,
			seclvl_bpf_attach_net(BPF_PROG_ATTACH,
					      BPF_CGROUP_INET_EGRESS));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_CGROUP,
			seclvl_bpf_attach_net(BPF_LINK_CREATE,
					      BPF_CGROUP_UNIX_CONNECT));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NOT_NET,
			seclvl_bpf_attach_net(BPF_PROG_ATTACH,
					      BPF_CGROUP_DEVICE));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NOT_NET,
			seclvl_bpf_attach_net(BPF_LINK_CREATE, BPF_LSM_MAC));
	/* Not an attach. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NOT_NET,
			seclvl_bpf_attach_net(BPF_PROG_LOAD, BPF_XDP));
}

static void test_bpf_net_verdict(struct kunit *test)
{
	const unsigned int multi = BPF_F_ALLOW_MULTI;

	/* A device: the host's, not a namespace of one's own. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_HOST,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE, SECLVL_BPF_NET_NS,
					       multi, true, false, -1));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALLOWED,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE, SECLVL_BPF_NET_NS,
					       multi, false, false, -1));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_NAMED,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE, SECLVL_BPF_NET_ANY,
					       multi, false, false, -1));
	/* A cgroup: a unit's with MULTI, alone, shared, or shallower. */
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALLOWED,
			seclvl_bpf_net_verdict(BPF_PROG_ATTACH,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, false, 2));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALONE,
			seclvl_bpf_net_verdict(BPF_PROG_ATTACH,
					       SECLVL_BPF_NET_CGROUP, 0, true,
					       false, 3));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALLOWED,
			seclvl_bpf_net_verdict(BPF_PROG_DETACH,
					       SECLVL_BPF_NET_CGROUP, 0, true,
					       false, 3));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_SHARED,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, true, 3));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_SHALLOW,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, false, 1));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_SHALLOW,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, false, 0));
	KUNIT_EXPECT_EQ(test, SECLVL_BPF_NET_ALLOWED,
			seclvl_bpf_net_verdict(BPF_LINK_CREATE,
					       SECLVL_BPF_NET_CGROUP, multi,
					       true, false, -1));
}

static struct kunit_case hooks_test_cases[] = {
	KUNIT_CASE(test_setid_added),
	KUNIT_CASE(test_is_devmem),
	KUNIT_CASE(test_lockdown_restriction),
	KUNIT_CASE(test_mount_allows_suid),
	KUNIT_CASE(test_bpf_attach_net),
	KUNIT_CASE(test_bpf_net_verdict),
	{}
};

static struct kunit_suite hooks_test_suite = {
	.name = "seclvl_hooks",
	.test_cases = hooks_test_cases,
};

kunit_test_suite(hooks_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
