// SPDX-License-Identifier: GPL-2.0-only
/* seclvl selftests: a module of the list of module images: listed, then changed */
#include "seclvl_test_mod.h"
MODULE_DESCRIPTION("seclvl selftests: a module listed, then changed");
