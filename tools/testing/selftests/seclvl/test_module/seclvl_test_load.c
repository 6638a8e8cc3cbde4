// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: a module that does nothing, for the tests to load
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <linux/init.h>
#include <linux/module.h>

static int __init seclvl_test_load_init(void)
{
	return 0;
}

static void __exit seclvl_test_load_exit(void)
{
}

module_init(seclvl_test_load_init);
module_exit(seclvl_test_load_exit);
MODULE_DESCRIPTION("seclvl selftests: a module to load");
MODULE_LICENSE("GPL");
