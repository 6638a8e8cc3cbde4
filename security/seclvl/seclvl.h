/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl - BSD-style secure levels: definitions shared by its files
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECURITY_SECLVL_SECLVL_H
#define _SECURITY_SECLVL_SECLVL_H

#undef pr_fmt
#define pr_fmt(fmt) "seclvl: " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/cred.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/lsm_hooks.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "levels.h"

#define SECLVL_NAME "seclvl"

/* Longest write each file takes; anything longer is -EINVAL. */
#define SECLVL_LEVEL_WRITE_MAX 16
#define SECLVL_RULE_WRITE_MAX 64
/* "sha256:<64 hex> <name>\n", a name as long as a module's may be. */
#define SECLVL_MODULE_NAME_MAX (MODULE_NAME_LEN - 1)
#define SECLVL_MODULE_WRITE_MAX (7 + 64 + 1 + SECLVL_MODULE_NAME_MAX + 1)
/* Entries in the list of module images: two per module a distribution ships. */
#define SECLVL_MODULES_MAX 16384

/**
 * enum seclvl_origin - who asks for a change of the secure level
 * @SECLVL_ORIGIN_BOOT: the seclvl.level= boot parameter
 * @SECLVL_ORIGIN_WRITE: a write to one of the level interfaces
 * @SECLVL_ORIGIN_ESCAPE: root ran the emergency escape
 */
enum seclvl_origin {
	SECLVL_ORIGIN_BOOT,
	SECLVL_ORIGIN_WRITE,
	SECLVL_ORIGIN_ESCAPE,
};

/* The restrictions, in the order of the policy file (restrictions.h). */
enum seclvl_restriction {
#define SECLVL_RESTRICTION(id, ...) SECLVL_##id,
#include "restrictions.h"
#undef SECLVL_RESTRICTION
	SECLVL_NR_RESTRICTIONS
};

/**
 * struct seclvl_rule - one row of the policy table
 * @name: stable name, used in logs, the policy file and the docs
 * @level: lowest secure level at which the restriction applies, or
 *         %SECLVL_OFF; changed only while the secure level is <= 0
 * @denials: refusals since boot
 * @rs: rate limit of the refusal log lines
 * @unlogged: refusals the rate limit kept out of the log, not yet summed up
 * @summary: logs @unlogged when the rate limit's window ends
 */
struct seclvl_rule {
	const char *name;
	int level;
	atomic_long_t denials;
	struct ratelimit_state rs;
	atomic_long_t unlogged;
	struct delayed_work summary;
};

/**
 * struct seclvl_cred - seclvl's part of a cred
 * @escape: this cred belongs to an execution of the emergency escape
 */
struct seclvl_cred {
	bool escape;
};

/**
 * struct seclvl_task - seclvl's part of a task
 * @net_admin_noop: the task's next CAP_NET_ADMIN check configures nothing
 *                  of the host: a netlink message to other sockets, or a
 *                  socket buffer forced past its limit; cleared by the
 *                  first capability check that reads it
 */
struct seclvl_task {
	bool net_admin_noop;
};

extern int seclvl_level;
extern struct mutex seclvl_lock;
extern struct seclvl_rule seclvl_rules[SECLVL_NR_RESTRICTIONS];
extern bool seclvl_initialized;
extern const struct lsm_id seclvl_lsmid;
extern struct lsm_blob_sizes seclvl_blob_sizes;

/**
 * seclvl_current - the secure level now
 *
 * Return: the level; it never goes down except through the escape.
 */
static inline int seclvl_current(void)
{
	return READ_ONCE(seclvl_level);
}

/**
 * seclvl_enforced - whether a restriction applies now
 * @r: the restriction
 * @level: set to the secure level the decision was made at
 *
 * Return: true if @r must be refused.
 */
static __always_inline bool seclvl_enforced(enum seclvl_restriction r,
					    int *level)
{
	*level = seclvl_current();
	return seclvl_rule_applies(*level, READ_ONCE(seclvl_rules[r].level));
}

/**
 * seclvl_applies - whether a restriction is in force now
 * @r: the restriction
 *
 * For a hook that would rather not look further at what it is asked while
 * @r does not apply; the refusal itself is seclvl_deny()'s to decide.
 *
 * Return: true if @r applies at the current level.
 */
static __always_inline bool seclvl_applies(enum seclvl_restriction r)
{
	int level;

	return seclvl_enforced(r, &level);
}

int __seclvl_deny(enum seclvl_restriction r, int level, bool audit,
		  const char *fmt, ...) __printf(4, 5);

/**
 * seclvl_deny - refuse an action if a restriction forbids it now
 * @r: the restriction that forbids it
 * @audit: false where the caller asked not to audit the check (a
 *         capability or ptrace check with NOAUDIT); such a refusal is
 *         neither counted nor logged
 * @fmt: what was tried, printf-style, for the log
 *
 * The one way seclvl refuses: the hooks find what an action would do and
 * name the restriction it falls under; this decides, at the current level,
 * and reports.  Inline up to the decision, so a restriction that does not
 * apply costs one load and one compare.  Safe in atomic context.
 *
 * Return: -EPERM, counted and logged (rate-limited), if @r applies now;
 * else 0.
 */
#define seclvl_deny(r, audit, fmt, ...)					\
({									\
	enum seclvl_restriction __seclvl_r = (r);			\
	int __seclvl_level;						\
									\
	seclvl_enforced(__seclvl_r, &__seclvl_level) ?			\
		__seclvl_deny(__seclvl_r, __seclvl_level, audit, fmt,	\
			      ##__VA_ARGS__) : 0;				\
})

static inline struct seclvl_cred *seclvl_cred(const struct cred *cred)
{
	return cred->security + seclvl_blob_sizes.lbs_cred;
}

static inline struct seclvl_task *seclvl_task(const struct task_struct *task)
{
	return task->security + seclvl_blob_sizes.lbs_task;
}

/* level.c */
int seclvl_transition(int cur, int new, enum seclvl_origin origin,
		      bool privileged);
int seclvl_parse_level(const char *buf, size_t len, int *level);
int seclvl_set_level(int new, enum seclvl_origin origin);
int seclvl_write_level(char *buf, size_t len);
void __init seclvl_init_level(void);

/* policy.c */
int seclvl_parse_rule(const char *buf, size_t len,
		      enum seclvl_restriction *r, int *level);
int seclvl_write_rule(char *buf, size_t len);
size_t seclvl_format_policy(char *buf, size_t size);
unsigned long seclvl_applying(int level);
void __init seclvl_init_rules(void);

/*
 * A set of hooks that one file registers, switched off, and the
 * restrictions it serves: setup.c switches it on, for good, when the
 * first of them applies (seclvl_enable_hooks()).
 */
struct seclvl_hook_set {
	struct security_hook_list *hooks;
	int count;
	unsigned long serves;
};

/* In a set's mask: every level above 0, whatever applies there. */
#define SECLVL_ABOVE_ZERO BIT(SECLVL_NR_RESTRICTIONS)

/* setup.c */
void seclvl_enable_hooks(int level);

/* audit.c: records of refusals and changes, with CONFIG_AUDIT. */
#ifdef CONFIG_AUDIT
void seclvl_audit_denied(const char *restriction, int level,
			 struct va_format *what);
void seclvl_audit_unlogged(const char *restriction, long count);
void seclvl_audit_level(int old, int new, enum seclvl_origin origin, int err);
void seclvl_audit_rule(const char *restriction, const char *old,
		       const char *new);
void seclvl_audit_module(const u8 *digest, const char *name);
void seclvl_audit_escape(const char *op, const char *path, bool res);
void seclvl_audit_frozen(const char *op);
#else
static inline void seclvl_audit_denied(const char *restriction, int level,
				       struct va_format *what)
{
}

static inline void seclvl_audit_unlogged(const char *restriction, long count)
{
}

static inline void seclvl_audit_level(int old, int new,
				      enum seclvl_origin origin, int err)
{
}

static inline void seclvl_audit_rule(const char *restriction, const char *old,
				     const char *new)
{
}

static inline void seclvl_audit_module(const u8 *digest, const char *name)
{
}

static inline void seclvl_audit_escape(const char *op, const char *path,
				       bool res)
{
}

static inline void seclvl_audit_frozen(const char *op)
{
}
#endif

/* modules.c */
struct seq_file;
bool seclvl_modules_listed(void);
int seclvl_parse_module(const char *buf, size_t len, u8 *digest, char *name);
int seclvl_write_module(char *buf, size_t len);
int seclvl_show_modules(struct seq_file *m, void *v);
int seclvl_check_module(const void *buf, size_t size, struct file *file);

/* escape.c */
int seclvl_parse_escape(char *buf, size_t len, char **path);
bool seclvl_escape_inode_ok(umode_t mode, kuid_t uid);
int seclvl_write_escape(char *buf, size_t len);
char *seclvl_format_escape(char *buf, size_t size);
extern const struct seclvl_hook_set seclvl_escape_hooks;

/* cap.c: the capabilities of the 2003 policy. */
extern const struct seclvl_hook_set seclvl_cap_hooks;

/* task.c: init, its memory and ptrace. */
bool seclvl_is_init_mm(const void *mm);
extern const struct seclvl_hook_set seclvl_task_hooks;

/* net.c: what configures the host's network. */
bool seclvl_net_admin_noop(void);
bool seclvl_in_bpf(void);
bool seclvl_net_setting(struct file *file);
extern const struct seclvl_hook_set seclvl_net_hooks;

/* time.c: the clock. */
extern const struct seclvl_hook_set seclvl_time_hooks;

/* mount.c: mounts, unmounts and what detaches them. */
extern const struct seclvl_hook_set seclvl_umount_hooks;
extern const struct seclvl_hook_set seclvl_mount_hooks;

/* kernel.c: what loads code into the kernel, and lockdown's reasons. */
extern const struct seclvl_hook_set seclvl_kernel_hooks;

/* setid.c: set-id bits and file capabilities. */
int seclvl_check_setid_content(struct inode *inode, struct dentry *dentry,
			       const char *what);
int seclvl_check_chmod(struct dentry *dentry, const struct iattr *attr);
int seclvl_check_tmpfile(struct file *file);
extern const struct seclvl_hook_set seclvl_setid_hooks;

/* disk.c: block devices, the disks behind character devices, loop. */
bool seclvl_backs_loop(struct address_space *mapping);
bool seclvl_is_sg(struct inode *inode);
bool seclvl_chr_class_is(struct inode *inode, const char *name);
bool seclvl_is_nvme_chr(struct inode *inode);
int seclvl_check_loop_backing(struct address_space *mapping,
			      const struct dentry *dentry, const char *what);
int seclvl_check_bdev_write(struct file *file);
int seclvl_check_device_write(struct file *file);
extern const struct seclvl_hook_set seclvl_disk_hooks;

/*
 * file.c: writes to files.  What seclvl_check_write() may refuse, which
 * the hooks that call it serve.
 */
#define SECLVL_WRITE_RULES						\
	(BIT(SECLVL_DEVMEM_WRITE) | BIT(SECLVL_SETID_BITS) |		\
	 BIT(SECLVL_BLOCKDEV_WRITE) | BIT(SECLVL_MOUNTED_BLOCKDEV_WRITE) | \
	 BIT(SECLVL_LOCKDOWN_INTEGRITY) | BIT(SECLVL_NET_ADMIN) |	\
	 BIT(SECLVL_PTRACE_INIT))
int seclvl_check_write(struct file *file, const char *what);
int seclvl_check_snapshot(struct file *file, const char *what);
bool seclvl_is_snapshot(dev_t dev);
extern const struct seclvl_hook_set seclvl_file_hooks;

/* ioctl.c: ioctls and io_uring commands that write. */
extern const struct seclvl_hook_set seclvl_ioctl_hooks;

#endif /* _SECURITY_SECLVL_SECLVL_H */
