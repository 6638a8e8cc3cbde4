// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: mounts, unmounts and what detaches them
 *
 * umount keeps the initial mount namespace's disks where they are: no
 * unmount, move or pivot uncovers what a mount hides, and no removal of a
 * mount point detaches them.  suid_mount keeps every new set-id program
 * off the host: no mount of the initial user namespace without nosuid.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/nsproxy.h>
#include <linux/path.h>
#include <linux/sched.h>
#include <linux/user_namespace.h>
#include <uapi/linux/mount.h>

#include "mountrules.h"
#include "seclvl.h"

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

	if (!seclvl_applies(SECLVL_UMOUNT))
		return 0;
	u.tree = (flags & MNT_DETACH) && path_has_submounts(&root);
	switch (mnt_umount_visit(mnt, flags, seclvl_umount_visit, &u)) {
	case SECLVL_UMOUNT_DISK:
		return seclvl_deny(SECLVL_UMOUNT, true, "unmount %s (%s)",
				   u.sb->s_id, u.sb->s_type->name);
	case SECLVL_UMOUNT_TREE:
		return seclvl_deny(SECLVL_UMOUNT, true,
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
	if (!seclvl_init_mnt_ns())
		return 0;
	return seclvl_deny(SECLVL_UMOUNT, true, "%s %pd", what, path->dentry);
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
	if ((flags & MS_MOVE) && !(flags & MS_REMOUNT)) {
		int err = seclvl_check_move("move a mount to", path);

		if (err)
			return err;
	}
	if (!seclvl_applies(SECLVL_SUID_MOUNT) || !current->mm ||
	    (seclvl_mount_judged_by_sb(flags) ? path->mnt->mnt_sb->s_user_ns :
						current_user_ns()) != &init_user_ns ||
	    !seclvl_mount_allows_suid(flags, path->mnt->mnt_flags) ||
	    (!(flags & MS_REMOUNT) && type && seclvl_fs_starts_empty(type) &&
	     seclvl_applies(SECLVL_SETID_BITS)))
		return 0;
	if (flags & MS_REMOUNT)
		return seclvl_deny(SECLVL_SUID_MOUNT, true,
				   "remount %pd clearing nosuid", path->dentry);
	return seclvl_deny(SECLVL_SUID_MOUNT, true,
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
	if (!d_mountpoint(dentry))
		return 0;
	return seclvl_deny(SECLVL_UMOUNT, true,
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

	if (!seclvl_applies(SECLVL_SUID_MOUNT) ||
	    sb->s_user_ns != &init_user_ns || (attr_set & MOUNT_ATTR_NOSUID))
		return 0;
	/*
	 * fsmount(2) passes every attribute it does not set as cleared,
	 * which mount_setattr(2) cannot; its superblock of tmpfs or ramfs
	 * was made by this fs_context and is empty.
	 */
	if (attr_clr == ~attr_set && seclvl_fs_starts_empty(sb->s_type->name) &&
	    seclvl_applies(SECLVL_SETID_BITS))
		return 0;
	nosuid_after = !(attr_clr & MOUNT_ATTR_NOSUID) &&
		       (path->mnt->mnt_flags & MNT_NOSUID);
	/*
	 * Clearing nosuid; or an idmapping on a mount without it, which
	 * makes the set-id files of a mapped owner run as another.
	 */
	if ((attr_clr & MOUNT_ATTR_NOSUID) ||
	    ((attr_set & MOUNT_ATTR_IDMAP) && !nosuid_after))
		return seclvl_deny(SECLVL_SUID_MOUNT, true,
				   "mount attributes of %pd without nosuid",
				   path->dentry);
	return 0;
}

static struct security_hook_list umount_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(sb_umount, hook_sb_umount),
	LSM_HOOK_INIT(move_mount, hook_move_mount),
	LSM_HOOK_INIT(sb_pivotroot, hook_sb_pivotroot),
	LSM_HOOK_INIT(inode_rmdir, hook_inode_rmdir),
	LSM_HOOK_INIT(inode_unlink, hook_inode_unlink),
	LSM_HOOK_INIT(inode_rename, hook_inode_rename),
};

const struct seclvl_hook_set seclvl_umount_hooks = {
	.hooks = umount_hooks,
	.count = ARRAY_SIZE(umount_hooks),
	.serves = BIT(SECLVL_UMOUNT),
};

/* sb_mount moves mounts (umount) as well as making them. */
static struct security_hook_list mount_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(sb_mount, hook_sb_mount),
	LSM_HOOK_INIT(mount_setattr, hook_mount_setattr),
};

const struct seclvl_hook_set seclvl_mount_hooks = {
	.hooks = mount_hooks,
	.count = ARRAY_SIZE(mount_hooks),
	.serves = BIT(SECLVL_UMOUNT) | BIT(SECLVL_SUID_MOUNT),
};

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

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

/* A remount is judged by its superblock's owner, anything else by the caller. */
static void test_mount_judged_by_sb(struct kunit *const test)
{
	KUNIT_EXPECT_TRUE(test, seclvl_mount_judged_by_sb(MS_REMOUNT));
	KUNIT_EXPECT_TRUE(test, seclvl_mount_judged_by_sb(MS_REMOUNT |
							  MS_BIND));
	KUNIT_EXPECT_FALSE(test, seclvl_mount_judged_by_sb(0));
	KUNIT_EXPECT_FALSE(test, seclvl_mount_judged_by_sb(MS_BIND));
	KUNIT_EXPECT_FALSE(test, seclvl_mount_judged_by_sb(MS_MOVE));
}

static struct kunit_case mount_test_cases[] = {
	KUNIT_CASE(test_mount_allows_suid),
	KUNIT_CASE(test_mount_judged_by_sb),
	{}
};

static struct kunit_suite mount_test_suite = {
	.name = "seclvl_mount",
	.test_cases = mount_test_cases,
};

kunit_test_suite(mount_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
