/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl - which modes make a privileged program (setid_bits)
 *
 * Pure: the LSM and the BPF backend both include it, so that the rule
 * is written once.  What a file or device is, each reads its own way and
 * passes in.
 *
 * With S_IF*, S_ISUID and S_ISGID in scope.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECURITY_SECLVL_SETIDRULES_H
#define _SECURITY_SECLVL_SETIDRULES_H

/*
 * The set-id bits of @mode that take effect on exec: set-uid on a file
 * anyone may execute, set-gid on one its group may (without group execute
 * S_ISGID means mandatory locking, and exec ignores it).
 */
static inline umode_t seclvl_setid_effective(umode_t mode)
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
 * the group on, S_ISUID does nothing).  A new file is one changed from 0.
 */
static inline umode_t seclvl_setid_added(umode_t old, umode_t new)
{
	if ((new & S_IFMT) == S_IFDIR)
		return 0;
	return (new & ~old & (S_ISUID | S_ISGID)) |
	       (seclvl_setid_effective(new) & ~seclvl_setid_effective(old));
}

/*
 * Whether a change of mode from @old to @new makes a privileged program:
 * it adds a set-id bit, or makes one usable, or adds an execute bit to a
 * file with file capabilities (@fcaps), which act on exec.
 */
static inline bool seclvl_chmod_refused(umode_t old, umode_t new, bool fcaps)
{
	/* Adding neither a set-id nor an execute bit makes none usable. */
	if (!(new & ~old & (S_ISUID | S_ISGID | 0111)))
		return false;
	return seclvl_setid_added(old, new) || ((new & ~old & 0111) && fcaps);
}

/*
 * Whether new content in a regular file of @mode would run with privilege:
 * a set-id program keeps its bits when root changes it (root has
 * CAP_FSETID), and one with file capabilities (@fcaps) keeps them when
 * changed through a shared mapping.  A file nobody may run has none.
 */
static inline bool seclvl_content_refused(umode_t mode, bool fcaps)
{
	return seclvl_setid_effective(mode) || ((mode & 0111) && fcaps);
}

/*
 * Whether an access ACL may not be set on a file of @mode.  It rewrites the
 * mode's permission bits (the mask becomes the group bits) without
 * inode_setattr, so on a set-id program it can make dormant bits usable;
 * and one that grants execute to anyone (@grants_exec) makes file
 * capabilities (@fcaps) usable by others.
 */
static inline bool seclvl_acl_refused(umode_t mode, bool grants_exec,
				      bool fcaps)
{
	return (mode & S_IFMT) != S_IFDIR &&
	       ((mode & (S_ISUID | S_ISGID)) || (grants_exec && fcaps));
}

#endif /* _SECURITY_SECLVL_SETIDRULES_H */
