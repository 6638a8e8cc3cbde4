/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl - which mounts suid_mount judges
 *
 * Pure: the LSM and the BPF backend both include it, with the MS_* flags
 * of mount(2) and MNT_NOSUID in scope.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECURITY_SECLVL_MOUNTRULES_H
#define _SECURITY_SECLVL_MOUNTRULES_H

/*
 * Whether a mount(2) call makes set-id files usable where they were not:
 * a new mount without MS_NOSUID, or a remount that drops nosuid.  Binds,
 * moves and propagation changes keep the flags their mounts already have.
 * The order of the tests is path_mount()'s.
 */
static inline bool seclvl_mount_allows_suid(unsigned long flags,
					    int mnt_flags)
{
	if (flags & MS_NOSUID)
		return false;
	if (flags & MS_REMOUNT)
		return mnt_flags & MNT_NOSUID;
	return !(flags & (MS_BIND | MS_SHARED | MS_PRIVATE | MS_SLAVE |
			  MS_UNBINDABLE | MS_MOVE));
}

/*
 * Whose ids the set-id files a mount(2) call lets run carry: a remount
 * changes a superblock that exists, whose files are its owner's (a
 * superblock a user namespace owns runs them as that namespace's ids);
 * any other call mounts as the caller.  suid_mount judges the call only
 * where that is the initial user namespace: true if it is the
 * superblock's.
 */
static inline bool seclvl_mount_judged_by_sb(unsigned long flags)
{
	return flags & MS_REMOUNT;
}

/*
 * Whether every new mount of filesystem type @type is a superblock of its
 * own, in memory and empty: tmpfs and ramfs (get_tree_nodev()), which
 * systemd mounts without nosuid for PrivateTmp= and DynamicUser= units.
 * A set-id file or one with file capabilities on it can only be made
 * there, after the mount, and setid_bits refuses that, so while
 * setid_bits is in force such a mount needs no nosuid.  @type is any
 * NUL-terminated string; the tests stop at its end.
 */
static inline bool seclvl_fs_starts_empty(const char *type)
{
	return ((type[0] == 't' && type[1] == 'm' && type[2] == 'p') ||
		(type[0] == 'r' && type[1] == 'a' && type[2] == 'm')) &&
	       type[3] == 'f' && type[4] == 's' && !type[5];
}

#endif /* _SECURITY_SECLVL_MOUNTRULES_H */
