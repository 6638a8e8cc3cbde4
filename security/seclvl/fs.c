// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: securityfs, /proc/seclvl and sysctl
 *
 * Three doors to the same setter: /sys/kernel/security/seclvl/level,
 * /proc/seclvl (the 2003 interface) and kernel.securelevel (the BSD habit).
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/limits.h>
#include <linux/proc_fs.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>

#include "seclvl.h"

/*
 * Each write is one whole value: a write at an offset would be the tail of
 * a value split across writes, so it is refused, as is anything too long
 * to be a value.  @apply gets the text NUL-terminated at @count.
 */
static ssize_t seclvl_write(const char __user *buf, size_t count,
			    loff_t *ppos, size_t max,
			    int (*apply)(char *text, size_t len))
{
	char *kbuf;
	int err;

	if (*ppos != 0 || count == 0 || count > max)
		return -EINVAL;
	kbuf = memdup_user_nul(buf, count);
	if (IS_ERR(kbuf))
		return PTR_ERR(kbuf);
	err = apply(kbuf, count);
	kfree(kbuf);
	if (err)
		return err;
	*ppos += count;
	return count;
}

static ssize_t seclvl_level_read(struct file *file, char __user *buf,
				 size_t count, loff_t *ppos)
{
	char tmp[8];
	int len = scnprintf(tmp, sizeof(tmp), "%d\n", seclvl_current());

	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

static ssize_t seclvl_level_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	return seclvl_write(buf, count, ppos, SECLVL_LEVEL_WRITE_MAX,
			    seclvl_write_level);
}

static const struct file_operations seclvl_level_fops = {
	.read = seclvl_level_read,
	.write = seclvl_level_write,
	.llseek = generic_file_llseek,
};

static ssize_t seclvl_policy_read(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	char *page = (char *)__get_free_page(GFP_KERNEL);
	ssize_t ret;

	if (!page)
		return -ENOMEM;
	ret = simple_read_from_buffer(buf, count, ppos, page,
				      seclvl_format_policy(page, PAGE_SIZE));
	free_page((unsigned long)page);
	return ret;
}

static ssize_t seclvl_policy_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	return seclvl_write(buf, count, ppos, SECLVL_RULE_WRITE_MAX,
			    seclvl_write_rule);
}

static const struct file_operations seclvl_policy_fops = {
	.read = seclvl_policy_read,
	.write = seclvl_policy_write,
	.llseek = generic_file_llseek,
};

static int seclvl_modules_open(struct inode *inode, struct file *file)
{
	return single_open(file, seclvl_show_modules, NULL);
}

static ssize_t seclvl_modules_write(struct file *file, const char __user *buf,
				    size_t count, loff_t *ppos)
{
	return seclvl_write(buf, count, ppos, SECLVL_MODULE_WRITE_MAX,
			    seclvl_write_module);
}

static const struct file_operations seclvl_modules_fops = {
	.open = seclvl_modules_open,
	.read = seq_read,
	.write = seclvl_modules_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t seclvl_escape_read(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	char *page = (char *)__get_free_page(GFP_KERNEL);
	ssize_t ret;
	char *path;

	if (!page)
		return -ENOMEM;
	/* Leave room for the newline. */
	path = seclvl_format_escape(page, PAGE_SIZE - 1);
	if (IS_ERR(path)) {
		ret = PTR_ERR(path);
	} else {
		size_t len = strlen(path);

		if (len)
			path[len++] = '\n';
		ret = simple_read_from_buffer(buf, count, ppos, path, len);
	}
	free_page((unsigned long)page);
	return ret;
}

static ssize_t seclvl_escape_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	return seclvl_write(buf, count, ppos, PATH_MAX, seclvl_write_escape);
}

static const struct file_operations seclvl_escape_fops = {
	.read = seclvl_escape_read,
	.write = seclvl_escape_write,
	.llseek = generic_file_llseek,
};

/* kernel.securelevel: same text, same rules, through the same setter. */
static int seclvl_sysctl_level(const struct ctl_table *table, int write,
			       void *buffer, size_t *lenp, loff_t *ppos)
{
	char tmp[8];
	ssize_t len;
	int err;

	if (write) {
		if (*ppos != 0)
			return -EINVAL;
		err = seclvl_write_level(buffer, *lenp);
		if (err)
			return err;
		*ppos += *lenp;
		return 0;
	}
	len = scnprintf(tmp, sizeof(tmp), "%d\n", seclvl_current());
	len = memory_read_from_buffer(buffer, *lenp, ppos, tmp, len);
	if (len < 0)
		return len;
	*lenp = len;
	return 0;
}

static struct ctl_table seclvl_sysctl_table[] = {
	{
		.procname = "securelevel",
		.mode = 0644,
		.proc_handler = seclvl_sysctl_level,
	},
};

#ifdef CONFIG_PROC_FS
static const struct proc_ops seclvl_proc_ops = {
	.proc_read = seclvl_level_read,
	.proc_write = seclvl_level_write,
	.proc_lseek = generic_file_llseek,
};

static void __init seclvl_init_proc(void)
{
	if (!proc_create("seclvl", 0644, NULL, &seclvl_proc_ops))
		pr_err("cannot create /proc/seclvl\n");
}
#else
static inline void seclvl_init_proc(void) { }
#endif

/*
 * /proc/seclvl and kernel.securelevel are the other two doors; a kernel
 * without PROC_FS or SYSCTL simply lacks them.  A failure to create one
 * of them leaves securityfs, which holds the policy and the escape too.
 */
static void __init seclvl_init_other_doors(void)
{
	seclvl_init_proc();
	if (IS_ENABLED(CONFIG_SYSCTL) &&
	    !register_sysctl("kernel", seclvl_sysctl_table))
		pr_err("cannot register the sysctl kernel.securelevel\n");
}

static int __init seclvl_init_fs(void)
{
	struct dentry *dir, *level, *policy, *escape, *modules;
	int err;

	/* Left out with lsm=: leave no interface behind. */
	if (!seclvl_initialized)
		return 0;

	dir = securityfs_create_dir(SECLVL_NAME, NULL);
	if (IS_ERR(dir)) {
		err = PTR_ERR(dir);
		goto fail;
	}
	level = securityfs_create_file("level", 0644, dir, NULL,
				       &seclvl_level_fops);
	policy = securityfs_create_file("policy", 0644, dir, NULL,
					&seclvl_policy_fops);
	escape = securityfs_create_file("escape", 0600, dir, NULL,
					&seclvl_escape_fops);
	modules = securityfs_create_file("modules", 0644, dir, NULL,
					 &seclvl_modules_fops);
	err = PTR_ERR_OR_ZERO(level) ?: PTR_ERR_OR_ZERO(policy) ?:
	      PTR_ERR_OR_ZERO(escape) ?: PTR_ERR_OR_ZERO(modules);
	if (err)
		goto fail_securityfs;
	seclvl_init_other_doors();
	return 0;

fail_securityfs:
	securityfs_remove(modules);
	securityfs_remove(escape);
	securityfs_remove(policy);
	securityfs_remove(level);
	securityfs_remove(dir);
fail:
	pr_err("cannot create the securityfs interface: %d\n", err);
	seclvl_init_other_doors();
	return err;
}

fs_initcall(seclvl_init_fs);
