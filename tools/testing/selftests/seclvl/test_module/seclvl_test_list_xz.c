// SPDX-License-Identifier: GPL-2.0-only
/* seclvl selftests: a module of the list of module images: listed, xz-compressed */
#include "seclvl_test_mod.h"
MODULE_DESCRIPTION("seclvl selftests: a module listed, xz-compressed, loaded with finit_module");
