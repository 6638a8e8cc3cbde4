// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: the capabilities of the 2003 policy
 *
 * immutable, rawio, net_admin, setuid and modules refuse a capability in
 * the initial user namespace, whatever the caller asks it for; net.c and
 * modules.c say which of its uses change nothing of the host.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <linux/bits.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/cred.h>
#include <linux/lsm_hooks.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/uidgid.h>
#include <asm/syscall.h>

#include "seclvl.h"

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
	bool audit = !(opts & CAP_OPT_NOAUDIT);

	/* Every capability is below 64: & 63 keeps the shift defined. */
	BUILD_BUG_ON(CAP_LAST_CAP >= 64);
	if (!(SECLVL_CAPS & BIT_ULL(cap & 63)) || seclvl_current() <= 0)
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
	case CAP_SYS_RAWIO:
		return seclvl_deny(SECLVL_RAWIO, audit, "CAP_SYS_RAWIO");
	case CAP_NET_ADMIN:
		if (seclvl_net_admin_noop() || seclvl_in_bpf())
			return 0;
		return seclvl_deny(SECLVL_NET_ADMIN, audit, "CAP_NET_ADMIN");
	case CAP_SETUID:
		return seclvl_deny(SECLVL_SETUID, audit, "CAP_SETUID");
	case CAP_SYS_MODULE:
		if (seclvl_modules_listed() && !seclvl_unloading())
			return 0;
		return seclvl_deny(SECLVL_MODULES, audit, "CAP_SYS_MODULE");
	}
	/* The last of SECLVL_CAPS. */
	return seclvl_deny(SECLVL_IMMUTABLE, audit, "CAP_LINUX_IMMUTABLE");
}

static struct security_hook_list cap_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(capable, hook_capable),
};

const struct seclvl_hook_set seclvl_cap_hooks = {
	.hooks = cap_hooks,
	.count = ARRAY_SIZE(cap_hooks),
	.serves = BIT(SECLVL_IMMUTABLE) | BIT(SECLVL_RAWIO) |
		  BIT(SECLVL_NET_ADMIN) | BIT(SECLVL_SETUID) |
		  BIT(SECLVL_MODULES),
};
