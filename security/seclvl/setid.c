// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: set-id bits and file capabilities
 *
 * setid_bits keeps the host's set of privileged programs as it is: no
 * set-id bit or file capability is added, made usable by an execute bit or
 * an ACL, or given new content to run.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/posix_acl.h>
#include <linux/stat.h>
#include <linux/xattr.h>

#include "seclvl.h"
#include "setidrules.h"

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

/**
 * seclvl_check_setid_content - judge a change to a regular file's content
 * @inode: the file
 * @dentry: its dentry, or NULL if unknown (file capabilities then pass)
 * @what: how it is changed, for the log: "write to", "truncate", ...
 *
 * A set-id program keeps its bits when root changes it (root has
 * CAP_FSETID), and a program with file capabilities keeps them when
 * changed through a shared mapping, so new content would run with the old
 * privilege.
 *
 * Return: 0, or -EPERM from seclvl_deny().
 */
int seclvl_check_setid_content(struct inode *inode, struct dentry *dentry,
			       const char *what)
{
	if (!seclvl_applies(SECLVL_SETID_BITS))
		return 0;
	if (seclvl_setid_effective(inode->i_mode))
		return seclvl_deny(SECLVL_SETID_BITS, true,
				   "%s set-id file %pd", what, dentry);
	/* Asked only of a file someone may run: the lookup is not free. */
	if (seclvl_content_refused(inode->i_mode,
				   (inode->i_mode & 0111) &&
				   seclvl_has_fcaps(dentry, inode)))
		return seclvl_deny(SECLVL_SETID_BITS, true,
				   "%s %pd, which has file capabilities",
				   what, dentry);
	return 0;
}

/**
 * seclvl_check_chmod - judge a change of mode
 * @dentry: the file
 * @attr: the change, with %ATTR_MODE set
 *
 * Return: 0, or -EPERM from seclvl_deny() if the change adds a set-id
 * bit, or makes one or the file's capabilities usable.
 */
int seclvl_check_chmod(struct dentry *dentry, const struct iattr *attr)
{
	struct inode *inode = d_backing_inode(dentry);
	umode_t old = inode->i_mode;

	/* The lookup of file capabilities only where execute is added. */
	if (!seclvl_applies(SECLVL_SETID_BITS) ||
	    !seclvl_chmod_refused(old, attr->ia_mode,
				  (attr->ia_mode & ~old & 0111) &&
				  seclvl_has_fcaps(dentry, inode)))
		return 0;
	return seclvl_deny(SECLVL_SETID_BITS, true, "chmod %pd from %o to %o",
			   dentry, old & S_IALLUGO, attr->ia_mode & S_IALLUGO);
}

/**
 * seclvl_check_tmpfile - judge a file opened with O_TMPFILE
 * @file: the new file
 *
 * O_TMPFILE creates without inode_create; file_open is its first hook.
 *
 * Return: 0, or -EPERM from seclvl_deny() if its mode has set-id bits.
 */
int seclvl_check_tmpfile(struct file *file)
{
	umode_t mode = file_inode(file)->i_mode;

	if (!seclvl_setid_added(0, mode))
		return 0;
	return seclvl_deny(SECLVL_SETID_BITS, true,
			   "create an O_TMPFILE with mode %o", mode & S_IALLUGO);
}

static int seclvl_check_create(struct dentry *dentry, umode_t mode)
{
	if (!seclvl_setid_added(0, mode))
		return 0;
	return seclvl_deny(SECLVL_SETID_BITS, true, "create %pd with mode %o",
			   dentry, mode & S_IALLUGO);
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
	if (strcmp(name, XATTR_NAME_CAPS))
		return 0;
	return seclvl_deny(SECLVL_SETID_BITS, true,
			   "set file capabilities on %pd", dentry);
}

/* Whether @acl grants execute to anyone, its owner included. */
static bool seclvl_acl_grants_exec(const struct posix_acl *acl)
{
	const struct posix_acl_entry *pa, *pe;

	if (!acl)
		return false;
	FOREACH_ACL_ENTRY(pa, acl, pe)
		if (pa->e_perm & ACL_EXECUTE)
			return true;
	return false;
}

/*
 * An access ACL rewrites the mode's permission bits and grants execute to
 * named users and groups, without inode_setattr (setidrules.h).
 */
static int hook_inode_set_acl(struct mnt_idmap *idmap, struct dentry *dentry,
			      const char *acl_name, struct posix_acl *kacl)
{
	struct inode *inode = d_backing_inode(dentry);
	bool exec;

	if (!seclvl_applies(SECLVL_SETID_BITS) ||
	    strcmp(acl_name, XATTR_NAME_POSIX_ACL_ACCESS))
		return 0;
	exec = seclvl_acl_grants_exec(kacl);
	if (!seclvl_acl_refused(inode->i_mode, exec,
				exec && seclvl_has_fcaps(dentry, inode)))
		return 0;
	if (inode->i_mode & (S_ISUID | S_ISGID))
		return seclvl_deny(SECLVL_SETID_BITS, true,
				   "set an access ACL on set-id file %pd",
				   dentry);
	return seclvl_deny(SECLVL_SETID_BITS, true,
			   "set an access ACL granting execute on %pd, which has file capabilities",
			   dentry);
}

static struct security_hook_list setid_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(inode_create, hook_inode_create),
	LSM_HOOK_INIT(inode_mknod, hook_inode_mknod),
	LSM_HOOK_INIT(inode_setxattr, hook_inode_setxattr),
	LSM_HOOK_INIT(inode_set_acl, hook_inode_set_acl),
};

const struct seclvl_hook_set seclvl_setid_hooks = {
	.hooks = setid_hooks,
	.count = ARRAY_SIZE(setid_hooks),
	.serves = BIT(SECLVL_SETID_BITS),
};

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

static void test_mode_rules(struct kunit *const test)
{
	/* chmod: a bit added, or execute added to a file with capabilities. */
	KUNIT_EXPECT_TRUE(test, seclvl_chmod_refused(S_IFREG | 0755,
						     S_IFREG | 04755, false));
	KUNIT_EXPECT_FALSE(test, seclvl_chmod_refused(S_IFREG | 0644,
						      S_IFREG | 0755, false));
	KUNIT_EXPECT_TRUE(test, seclvl_chmod_refused(S_IFREG | 0644,
						     S_IFREG | 0754, true));
	KUNIT_EXPECT_FALSE(test, seclvl_chmod_refused(S_IFREG | 0755,
						      S_IFREG | 0700, true));
	/* New content: a set-id program, or one with capabilities. */
	KUNIT_EXPECT_TRUE(test, seclvl_content_refused(S_IFREG | 04755, false));
	KUNIT_EXPECT_FALSE(test, seclvl_content_refused(S_IFREG | 04644, false));
	KUNIT_EXPECT_TRUE(test, seclvl_content_refused(S_IFREG | 0755, true));
	KUNIT_EXPECT_FALSE(test, seclvl_content_refused(S_IFREG | 0644, true));
}

static struct kunit_case setid_test_cases[] = {
	KUNIT_CASE(test_setid_added),
	KUNIT_CASE(test_mode_rules),
	{}
};

static struct kunit_suite setid_test_suite = {
	.name = "seclvl_setid",
	.test_cases = setid_test_cases,
};

kunit_test_suite(setid_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
