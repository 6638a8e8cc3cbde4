// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: what changes the running kernel
 *
 * modules refuses module loads (with a list, those of images not on it:
 * modules.c), kexec a new kernel, and lockdown_integrity and
 * lockdown_confidentiality what the kernel's lockdown calls a change to
 * the running kernel or a read of it.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/kernel_read_file.h>
#include <linux/lsm_hooks.h>
#include <linux/security.h>

#include "seclvl.h"

/* With a list of module images, the load an autoload leads to is judged. */
static int hook_kernel_module_request(char *kmod_name)
{
	if (seclvl_modules_listed())
		return 0;
	return seclvl_deny(SECLVL_MODULES, true, "module autoload of %s",
			   kmod_name);
}

static int hook_kernel_load_data(enum kernel_load_data_id id, bool contents)
{
	switch (id) {
	case LOADING_MODULE:
		if (seclvl_modules_listed())
			return 0;
		return seclvl_deny(SECLVL_MODULES, true, "module load");
	case LOADING_KEXEC_IMAGE:
		return seclvl_deny(SECLVL_KEXEC, true,
				   "kexec_load of a new kernel");
	default:
		return 0;
	}
}

static int hook_kernel_read_file(struct file *file, enum kernel_read_file_id id,
				 bool contents)
{
	switch (id) {
	case READING_MODULE:
		if (seclvl_modules_listed())
			return 0;
		return seclvl_deny(SECLVL_MODULES, true,
				   "module load from %pD", file);
	case READING_KEXEC_IMAGE:
	case READING_KEXEC_INITRAMFS:
		return seclvl_deny(SECLVL_KEXEC, true,
				   "kexec_file_load of %pD", file);
	default:
		return 0;
	}
}

/*
 * The image as the kernel read it, before it decompresses or parses it.
 * The first hooks let the load through only with a list; the level may
 * have been raised since.
 */
static int hook_kernel_post_read_file(struct file *file, char *buf,
				      loff_t size, enum kernel_read_file_id id)
{
	if (id != READING_MODULE || !seclvl_applies(SECLVL_MODULES))
		return 0;
	if (!seclvl_modules_listed())
		return seclvl_deny(SECLVL_MODULES, true,
				   "module load from %pD", file);
	return seclvl_check_module(buf, size, file);
}

static int hook_kernel_post_load_data(char *buf, loff_t size,
				      enum kernel_load_data_id id,
				      char *description)
{
	if (id != LOADING_MODULE || !seclvl_applies(SECLVL_MODULES))
		return 0;
	if (!seclvl_modules_listed())
		return seclvl_deny(SECLVL_MODULES, true, "module load");
	return seclvl_check_module(buf, size, NULL);
}

/*
 * The kernel's own list of what would let root change the running kernel
 * (integrity) or read it (confidentiality); integrity reasons come first.
 */
static enum seclvl_restriction
seclvl_lockdown_restriction(enum lockdown_reason what)
{
	return what < LOCKDOWN_INTEGRITY_MAX ? SECLVL_LOCKDOWN_INTEGRITY :
					       SECLVL_LOCKDOWN_CONFIDENTIALITY;
}

/* May be called in atomic context: seclvl_deny() does not sleep. */
static int hook_locked_down(enum lockdown_reason what)
{
	const char *reason = NULL;

	if (seclvl_current() <= 0 || what == LOCKDOWN_NONE)
		return 0;
	/* A listed image is judged by its digest, which a signature adds to. */
	if (what == LOCKDOWN_MODULE_SIGNATURE &&
	    seclvl_applies(SECLVL_MODULES) && seclvl_modules_listed())
		return 0;
	if (what <= LOCKDOWN_CONFIDENTIALITY_MAX)
		reason = lockdown_reasons[what];
	return seclvl_deny(seclvl_lockdown_restriction(what), true, "%s",
			   reason ?: "unknown reason");
}

static struct security_hook_list kernel_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(kernel_module_request, hook_kernel_module_request),
	LSM_HOOK_INIT(kernel_load_data, hook_kernel_load_data),
	LSM_HOOK_INIT(kernel_read_file, hook_kernel_read_file),
	LSM_HOOK_INIT(kernel_post_read_file, hook_kernel_post_read_file),
	LSM_HOOK_INIT(kernel_post_load_data, hook_kernel_post_load_data),
	LSM_HOOK_INIT(locked_down, hook_locked_down),
};

const struct seclvl_hook_set seclvl_kernel_hooks = {
	.hooks = kernel_hooks,
	.count = ARRAY_SIZE(kernel_hooks),
	.serves = BIT(SECLVL_MODULES) | BIT(SECLVL_KEXEC) |
		  BIT(SECLVL_LOCKDOWN_INTEGRITY) |
		  BIT(SECLVL_LOCKDOWN_CONFIDENTIALITY),
};

#ifdef CONFIG_SECURITY_SECLVL_KUNIT_TEST

static void test_lockdown_restriction(struct kunit *const test)
{
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_MODULE_SIGNATURE));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_KEXEC));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_HIBERNATION));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_BPF_WRITE_USER));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_INTEGRITY,
			seclvl_lockdown_restriction(LOCKDOWN_INTEGRITY_MAX - 1));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_CONFIDENTIALITY,
			seclvl_lockdown_restriction(LOCKDOWN_INTEGRITY_MAX));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_CONFIDENTIALITY,
			seclvl_lockdown_restriction(LOCKDOWN_KCORE));
	KUNIT_EXPECT_EQ(test, SECLVL_LOCKDOWN_CONFIDENTIALITY,
			seclvl_lockdown_restriction(LOCKDOWN_XFRM_SECRET));
}

static struct kunit_case kernel_test_cases[] = {
	KUNIT_CASE(test_lockdown_restriction),
	{}
};

static struct kunit_suite kernel_test_suite = {
	.name = "seclvl_kernel",
	.test_cases = kernel_test_cases,
};

kunit_test_suite(kernel_test_suite);

#endif /* CONFIG_SECURITY_SECLVL_KUNIT_TEST */
