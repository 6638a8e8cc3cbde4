// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: the emergency escape
 *
 * The administrator may name one executable that, run by root, resets the
 * level to 0.  It is known by its inode, pinned from the moment it is set,
 * so renaming another file onto its path does not make that file an escape.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/binfmts.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/string.h>
#include <linux/uidgid.h>

#include "seclvl.h"

/* Both guarded by seclvl_lock; the inode is only compared, never used. */
static struct path seclvl_escape_path;
static struct inode *seclvl_escape_inode;

/**
 * seclvl_parse_escape - parse a write to the escape file
 * @buf: the text, NUL-terminated at @len; a trailing newline is cut off
 * @len: its length
 * @path: set to the absolute path in @buf, or to NULL for an empty line
 *
 * Return: 0 or -EINVAL.
 */
int seclvl_parse_escape(char *buf, size_t len, char **path)
{
	if (len == 0 || len > PATH_MAX || strnlen(buf, len) != len)
		return -EINVAL;
	if (buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (len == 0) {
		*path = NULL;
		return 0;
	}
	if (buf[0] != '/' || strchr(buf, '\n'))
		return -EINVAL;
	*path = buf;
	return 0;
}

/**
 * seclvl_escape_inode_ok - whether a file may be the escape
 * @mode: its mode
 * @uid: its owner
 *
 * Return: true for a regular file owned by root and writable by no one
 * else.  With POSIX ACLs the group bits are the mask, so no named user or
 * group can write it either.
 */
bool seclvl_escape_inode_ok(umode_t mode, kuid_t uid)
{
	return S_ISREG(mode) && uid_eq(uid, GLOBAL_ROOT_UID) && !(mode & 0022);
}

/**
 * seclvl_write_escape - what a write to the escape file does
 * @buf: the text written, NUL-terminated at @len
 * @len: its length
 *
 * Return: 0, -EPERM without CAP_SYS_ADMIN or at level >= 1, -EINVAL for a
 * path that is not absolute or does not name an acceptable file.
 */
int seclvl_write_escape(char *buf, size_t len)
{
	struct path path = {}, old;
	char *name;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (seclvl_current() > 0) {
		seclvl_audit_frozen("set_escape");
		return -EPERM;
	}
	err = seclvl_parse_escape(buf, len, &name);
	if (err)
		return err;
	if (name) {
		struct inode *inode;

		if (kern_path(name, LOOKUP_FOLLOW, &path))
			return -EINVAL;
		inode = d_backing_inode(path.dentry);
		if (!seclvl_escape_inode_ok(inode->i_mode, inode->i_uid)) {
			path_put(&path);
			return -EINVAL;
		}
	}

	mutex_lock(&seclvl_lock);
	if (seclvl_level > 0) {
		old = path;
		err = -EPERM;
	} else {
		old = seclvl_escape_path;
		seclvl_escape_path = path;
		WRITE_ONCE(seclvl_escape_inode,
			   name ? d_backing_inode(path.dentry) : NULL);
		if (name)
			pr_warn("escape set to %s: while set, root running it resets the level to 0 (pid %d comm %s)\n",
				name, task_pid_nr(current), current->comm);
		else
			pr_notice("escape cleared (pid %d comm %s)\n",
				  task_pid_nr(current), current->comm);
		seclvl_audit_escape(name ? "set_escape" : "clear_escape", name,
				    true);
	}
	mutex_unlock(&seclvl_lock);
	path_put(&old);
	return err;
}

/**
 * seclvl_format_escape - the text of the escape file
 * @buf: room for the path
 * @size: size of @buf
 *
 * Return: the escape's path where it is now (it may have been renamed),
 * an empty string if none is set, or an ERR_PTR.
 */
char *seclvl_format_escape(char *buf, size_t size)
{
	char *p = buf;

	buf[0] = '\0';
	mutex_lock(&seclvl_lock);
	if (seclvl_escape_path.dentry)
		p = d_path(&seclvl_escape_path, buf, size);
	mutex_unlock(&seclvl_lock);
	return p;
}

/* The earliest hook that sees the file execve() was asked to run. */
static int hook_bprm_creds_for_exec(struct linux_binprm *bprm)
{
	struct inode *escape = READ_ONCE(seclvl_escape_inode);

	if (unlikely(escape) && file_inode(bprm->file) == escape)
		seclvl_cred(bprm->cred)->escape = true;
	return 0;
}

/* Past the point of no return: the escape has run. */
static void hook_bprm_committed_creds(const struct linux_binprm *bprm)
{
	const struct cred *cred = current_cred();

	if (likely(!seclvl_cred(cred)->escape))
		return;
	if (uid_eq(cred->uid, GLOBAL_ROOT_UID) &&
	    uid_eq(cred->euid, GLOBAL_ROOT_UID)) {
		seclvl_set_level(0, SECLVL_ORIGIN_ESCAPE);
		return;
	}
	pr_warn_ratelimited("escape run by uid %u euid %u (pid %d comm %s): level stays %d\n",
			    from_kuid(&init_user_ns, cred->uid),
			    from_kuid(&init_user_ns, cred->euid),
			    task_pid_nr(current), current->comm,
			    seclvl_current());
	seclvl_audit_escape("run_escape", bprm->filename, false);
}

static struct security_hook_list escape_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(bprm_creds_for_exec, hook_bprm_creds_for_exec),
	LSM_HOOK_INIT(bprm_committed_creds, hook_bprm_committed_creds),
};

/* The escape must work at every level above 0, even with nothing enforced. */
const struct seclvl_hook_set seclvl_escape_hooks = {
	.hooks = escape_hooks,
	.count = ARRAY_SIZE(escape_hooks),
	.serves = SECLVL_ABOVE_ZERO,
};

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

static void test_parse_escape(struct kunit *const test)
{
	char buf[32];
	char *path;

	strscpy(buf, "/sbin/escape\n", sizeof(buf));
	KUNIT_EXPECT_EQ(test, 0, seclvl_parse_escape(buf, strlen(buf), &path));
	KUNIT_EXPECT_PTR_EQ(test, &buf[0], path);
	KUNIT_EXPECT_STREQ(test, "/sbin/escape", path);

	strscpy(buf, "/sbin/escape", sizeof(buf));
	KUNIT_EXPECT_EQ(test, 0, seclvl_parse_escape(buf, strlen(buf), &path));
	KUNIT_EXPECT_STREQ(test, "/sbin/escape", path);

	strscpy(buf, "/", sizeof(buf));
	KUNIT_EXPECT_EQ(test, 0, seclvl_parse_escape(buf, strlen(buf), &path));
	KUNIT_EXPECT_STREQ(test, "/", path);

	/* An empty line clears. */
	strscpy(buf, "\n", sizeof(buf));
	path = buf;
	KUNIT_EXPECT_EQ(test, 0, seclvl_parse_escape(buf, strlen(buf), &path));
	KUNIT_EXPECT_NULL(test, path);
}

static void test_parse_escape_bad(struct kunit *const test)
{
	static const char *const cases[] = {
		"", "sbin/escape", "./escape", " /sbin/escape",
		"/sbin/escape\n\n", "/sbin/\nescape", "\n/sbin/escape",
		"escape\n",
	};
	static const char nul[] = { '/', 'a', '\0', 'b' };
	char buf[32], *path;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strscpy(buf, cases[i], sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    seclvl_parse_escape(buf, strlen(buf), &path),
				    "\"%s\"", cases[i]);
	}
	memcpy(buf, nul, sizeof(nul));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			seclvl_parse_escape(buf, sizeof(nul), &path));
}

static void test_escape_inode_ok(struct kunit *const test)
{
	kuid_t other = KUIDT_INIT(1000);

	KUNIT_EXPECT_TRUE(test, seclvl_escape_inode_ok(S_IFREG | 0755,
						       GLOBAL_ROOT_UID));
	KUNIT_EXPECT_TRUE(test, seclvl_escape_inode_ok(S_IFREG | 0700,
						       GLOBAL_ROOT_UID));
	KUNIT_EXPECT_TRUE(test, seclvl_escape_inode_ok(S_IFREG | 04755,
						       GLOBAL_ROOT_UID));
	KUNIT_EXPECT_FALSE(test, seclvl_escape_inode_ok(S_IFREG | 0775,
							GLOBAL_ROOT_UID));
	KUNIT_EXPECT_FALSE(test, seclvl_escape_inode_ok(S_IFREG | 0757,
							GLOBAL_ROOT_UID));
	KUNIT_EXPECT_FALSE(test, seclvl_escape_inode_ok(S_IFREG | 0755, other));
	KUNIT_EXPECT_FALSE(test, seclvl_escape_inode_ok(S_IFDIR | 0755,
							GLOBAL_ROOT_UID));
	KUNIT_EXPECT_FALSE(test, seclvl_escape_inode_ok(S_IFLNK | 0777,
							GLOBAL_ROOT_UID));
	KUNIT_EXPECT_FALSE(test, seclvl_escape_inode_ok(S_IFCHR | 0600,
							GLOBAL_ROOT_UID));
}

static struct kunit_case escape_test_cases[] = {
	KUNIT_CASE(test_parse_escape),
	KUNIT_CASE(test_parse_escape_bad),
	KUNIT_CASE(test_escape_inode_ok),
	{}
};

static struct kunit_suite escape_test_suite = {
	.name = "seclvl_escape",
	.test_cases = escape_test_cases,
};

kunit_test_suite(escape_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
