/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl selftests: the body of a module that does nothing.  Each of the
 * modules of the list of module images is one of these, under its own
 * name, so that each is its own image with its own digest.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <linux/init.h>
#include <linux/module.h>

static int __init seclvl_test_mod_init(void)
{
	return 0;
}

static void __exit seclvl_test_mod_exit(void)
{
}

module_init(seclvl_test_mod_init);
module_exit(seclvl_test_mod_exit);
MODULE_LICENSE("GPL");
