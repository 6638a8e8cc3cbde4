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

#include <kunit/test.h>
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
/* After seclvl.h: its rules name the restrictions. */
#include "caprules.h"

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

/* Whether any of @cred's user IDs is the initial namespace's root. */
static bool seclvl_host_root(const struct cred *cred)
{
	return uid_eq(cred->uid, GLOBAL_ROOT_UID) ||
	       uid_eq(cred->euid, GLOBAL_ROOT_UID) ||
	       uid_eq(cred->suid, GLOBAL_ROOT_UID);
}

static const char *const seclvl_cap_names[SECLVL_NR_RESTRICTIONS] = {
	[SECLVL_IMMUTABLE] = "CAP_LINUX_IMMUTABLE",
	[SECLVL_RAWIO] = "CAP_SYS_RAWIO",
	[SECLVL_NET_ADMIN] = "CAP_NET_ADMIN",
	[SECLVL_SETUID] = "CAP_SETUID",
	[SECLVL_MODULES] = "CAP_SYS_MODULE",
};

static int hook_capable(const struct cred *cred, struct user_namespace *ns,
			int cap, unsigned int opts)
{
	enum seclvl_restriction r = seclvl_cap_restriction(cap);

	if (r == SECLVL_NR_RESTRICTIONS || seclvl_current() <= 0)
		return 0;
	if (ns != &init_user_ns &&
	    !seclvl_cap_in_scope(false, cap, seclvl_host_root(cred)))
		return 0;
	if (r == SECLVL_NET_ADMIN &&
	    (seclvl_net_admin_noop() || seclvl_in_bpf()))
		return 0;
	if (r == SECLVL_MODULES && seclvl_modules_listed() &&
	    !seclvl_unloading())
		return 0;
	return seclvl_deny(r, !(opts & CAP_OPT_NOAUDIT), "%s",
			   seclvl_cap_names[r]);
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

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

static void test_cap_rules(struct kunit *const test)
{
	KUNIT_EXPECT_EQ(test, SECLVL_MODULES,
			seclvl_cap_restriction(CAP_SYS_MODULE));
	KUNIT_EXPECT_EQ(test, SECLVL_SETUID, seclvl_cap_restriction(CAP_SETUID));
	KUNIT_EXPECT_EQ(test, SECLVL_NR_RESTRICTIONS,
			seclvl_cap_restriction(CAP_SYS_ADMIN));
	KUNIT_EXPECT_EQ(test, SECLVL_NR_RESTRICTIONS,
			seclvl_cap_restriction(CAP_SETGID));
	/* In a user namespace, only the host's root changing its IDs. */
	KUNIT_EXPECT_TRUE(test, seclvl_cap_in_scope(true, CAP_SYS_RAWIO, false));
	KUNIT_EXPECT_FALSE(test, seclvl_cap_in_scope(false, CAP_SYS_RAWIO, true));
	KUNIT_EXPECT_TRUE(test, seclvl_cap_in_scope(false, CAP_SETUID, true));
	KUNIT_EXPECT_FALSE(test, seclvl_cap_in_scope(false, CAP_SETUID, false));
}

static struct kunit_case cap_test_cases[] = {
	KUNIT_CASE(test_cap_rules),
	{}
};

static struct kunit_suite cap_test_suite = {
	.name = "seclvl_cap",
	.test_cases = cap_test_cases,
};

kunit_test_suite(cap_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
