// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: audit records
 *
 * Two record types, as IPE and Landlock have theirs: SECLVL_ACCESS for a
 * refusal, SECLVL_CONFIG_CHANGE for a change of the level, the policy, the
 * module list or the escape.  Each starts with lsm=seclvl and ends with
 * the task's fields and res=.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <crypto/sha2.h>
#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "seclvl.h"

/* Longest operation text kept in a refusal's record. */
#define SECLVL_AUDIT_OP_MAX 256

/*
 * Refused changes (of the level, or of the rest once it is raised) and
 * runs of the escape share a rate limit: whoever can try them could
 * otherwise fill the audit log and rotate out what it holds of them.
 */
static DEFINE_RATELIMIT_STATE(seclvl_audit_refused, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

static struct audit_buffer *seclvl_audit_start(int type, gfp_t gfp)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), gfp, type);
	if (ab)
		audit_log_format(ab, "lsm=%s", SECLVL_NAME);
	return ab;
}

/* A SECLVL_CONFIG_CHANGE record; a refused one only within the rate limit. */
static struct audit_buffer *seclvl_audit_change(bool res)
{
	if (!res && !__ratelimit(&seclvl_audit_refused))
		return NULL;
	return seclvl_audit_start(AUDIT_SECLVL_CONFIG_CHANGE, GFP_KERNEL);
}

/*
 * audit_log_task_info()'s fields but its tty: that takes the task's
 * siglock, and its comm the task's alloc_lock on 6.12, which a hook may be
 * called under (ptrace_attach() holds the tracee's).  The comm is copied
 * as the LSM audit code copies it.
 */
static void seclvl_audit_end(struct audit_buffer *ab, bool res)
{
	const struct cred *cred = current_cred();
	char comm[sizeof(current->comm)];
	struct file *exe;

	audit_log_format(ab,
			 " ppid=%d pid=%d auid=%u uid=%u gid=%u euid=%u suid=%u fsuid=%u egid=%u sgid=%u fsgid=%u ses=%u comm=",
			 task_ppid_nr(current), task_tgid_nr(current),
			 from_kuid(&init_user_ns, audit_get_loginuid(current)),
			 from_kuid(&init_user_ns, cred->uid),
			 from_kgid(&init_user_ns, cred->gid),
			 from_kuid(&init_user_ns, cred->euid),
			 from_kuid(&init_user_ns, cred->suid),
			 from_kuid(&init_user_ns, cred->fsuid),
			 from_kgid(&init_user_ns, cred->egid),
			 from_kgid(&init_user_ns, cred->sgid),
			 from_kgid(&init_user_ns, cred->fsgid),
			 audit_get_sessionid(current));
	memcpy(comm, current->comm, sizeof(comm));
	comm[sizeof(comm) - 1] = '\0';
	audit_log_untrustedstring(ab, comm);
	exe = current->mm ? get_mm_exe_file(current->mm) : NULL;
	if (exe) {
		audit_log_d_path(ab, " exe=", &exe->f_path);
		fput(exe);
	} else {
		audit_log_format(ab, " exe=(null)");
	}
	audit_log_task_context(ab);
	audit_log_format(ab, " res=%d", res);
	audit_log_end(ab);
}

/**
 * seclvl_audit_denied - record a refusal
 * @restriction: the restriction's name
 * @level: the secure level it was refused at
 * @what: what was tried, as the log line says it
 *
 * The operation is the log line's text, which may hold names chosen by
 * the caller: it is written as an untrusted string.  Safe in atomic
 * context.
 */
void seclvl_audit_denied(const char *restriction, int level,
			 struct va_format *what)
{
	struct audit_buffer *ab;
	char op[SECLVL_AUDIT_OP_MAX];

	ab = seclvl_audit_start(AUDIT_SECLVL_ACCESS, GFP_ATOMIC | __GFP_NOWARN);
	if (!ab)
		return;
	snprintf(op, sizeof(op), "%pV", what);
	audit_log_format(ab, " restriction=%s level=%d operation=",
			 restriction, level);
	audit_log_untrustedstring(ab, op);
	seclvl_audit_end(ab, false);
}

/**
 * seclvl_audit_unlogged - record how many refusals the rate limit left out
 * @restriction: the restriction's name
 * @count: refusals counted but neither logged nor recorded
 */
void seclvl_audit_unlogged(const char *restriction, long count)
{
	struct audit_buffer *ab;

	ab = seclvl_audit_start(AUDIT_SECLVL_ACCESS, GFP_KERNEL);
	if (!ab)
		return;
	/* Written by a worker: the task's fields would name it, not them. */
	audit_log_format(ab, " restriction=%s unrecorded=%ld res=0",
			 restriction, count);
	audit_log_end(ab);
}

/**
 * seclvl_audit_level - record a change of the level, or a refused one
 * @old: the level before
 * @new: the level asked for
 * @origin: who asked
 * @err: 0 if the level is now @new, else why not; refused changes are
 *       recorded rate-limited
 */
void seclvl_audit_level(int old, int new, enum seclvl_origin origin, int err)
{
	static const char *const origins[] = {
		[SECLVL_ORIGIN_BOOT] = "boot",
		[SECLVL_ORIGIN_WRITE] = "write",
		[SECLVL_ORIGIN_ESCAPE] = "escape",
	};
	struct audit_buffer *ab;

	ab = seclvl_audit_change(!err);
	if (!ab)
		return;
	audit_log_format(ab, " op=set_level old_level=%d new_level=%d origin=%s",
			 old, new, origins[origin]);
	seclvl_audit_end(ab, !err);
}

/**
 * seclvl_audit_rule - record a change of a row of the policy
 * @restriction: the restriction's name
 * @old: its level before, "1", "2" or "off"
 * @new: its level now
 */
void seclvl_audit_rule(const char *restriction, const char *old,
		       const char *new)
{
	struct audit_buffer *ab;

	ab = seclvl_audit_change(true);
	if (!ab)
		return;
	audit_log_format(ab, " op=set_policy restriction=%s old=%s new=%s",
			 restriction, old, new);
	seclvl_audit_end(ab, true);
}

/**
 * seclvl_audit_module - record a change of the module list
 * @digest: the SHA-256 of the image added, or NULL when the list was emptied
 * @name: the module's name, or "-"
 */
void seclvl_audit_module(const u8 *digest, const char *name)
{
	struct audit_buffer *ab;

	ab = seclvl_audit_change(true);
	if (!ab)
		return;
	if (digest) {
		audit_log_format(ab, " op=add_module digest=sha256:%*phN name=",
				 SHA256_DIGEST_SIZE, digest);
		audit_log_untrustedstring(ab, name);
	} else {
		audit_log_format(ab, " op=clear_modules");
	}
	seclvl_audit_end(ab, true);
}

/**
 * seclvl_audit_frozen - record a change refused because the level is raised
 * @op: the change: "set_policy", "add_module", "clear_modules" or
 *      "set_escape"
 *
 * Recorded rate-limited, as refused level changes are.
 */
void seclvl_audit_frozen(const char *op)
{
	struct audit_buffer *ab;

	ab = seclvl_audit_change(false);
	if (!ab)
		return;
	audit_log_format(ab, " op=%s level=%d", op, seclvl_current());
	seclvl_audit_end(ab, false);
}

/**
 * seclvl_audit_escape - record a change of the escape, or its refused run
 * @op: "set_escape", "clear_escape" or "run_escape"
 * @path: the escape's path, or NULL
 * @res: whether it was done; refused runs are recorded rate-limited
 */
void seclvl_audit_escape(const char *op, const char *path, bool res)
{
	struct audit_buffer *ab;

	ab = seclvl_audit_change(res);
	if (!ab)
		return;
	audit_log_format(ab, " op=%s", op);
	if (path) {
		audit_log_format(ab, " path=");
		audit_log_untrustedstring(ab, path);
	}
	seclvl_audit_end(ab, res);
}
