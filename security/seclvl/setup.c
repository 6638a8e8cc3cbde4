// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: registration with the LSM framework
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "seclvl.h"

bool seclvl_initialized __ro_after_init;

const struct lsm_id seclvl_lsmid = {
	.name = SECLVL_NAME,
	.id = LSM_ID_SECLVL,
};

struct lsm_blob_sizes seclvl_blob_sizes __ro_after_init = {
	.lbs_cred = sizeof(struct seclvl_cred),
	.lbs_task = sizeof(struct seclvl_task),
};

static int __init seclvl_init(void)
{
	seclvl_init_rules();
	seclvl_add_hooks();
	seclvl_add_escape_hooks();
	seclvl_init_level();
	seclvl_initialized = true;
	return 0;
}

DEFINE_LSM(seclvl) = {
	.name = SECLVL_NAME,
	.init = seclvl_init,
	.blobs = &seclvl_blob_sizes,
};
