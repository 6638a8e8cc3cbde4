// SPDX-License-Identifier: GPL-2.0-only
/* seclvl selftests: a module of the list of module images: never listed */
#include "seclvl_test_mod.h"
MODULE_DESCRIPTION("seclvl selftests: a module never listed");
