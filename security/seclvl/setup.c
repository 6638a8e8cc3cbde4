// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl - BSD-style secure levels: registration with the LSM framework
 *
 * Each file registers the hooks of its concern as one or more sets, all
 * switched off: until the first raise above 0 none of them is called.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include <linux/bits.h>
#include <linux/init.h>
#include <linux/lockdep.h>
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

static const struct seclvl_hook_set *const seclvl_hook_sets[] = {
	&seclvl_escape_hooks,
	&seclvl_cap_hooks,
	&seclvl_task_hooks,
	&seclvl_net_hooks,
	&seclvl_time_hooks,
	&seclvl_umount_hooks,
	&seclvl_mount_hooks,
	&seclvl_kernel_hooks,
	&seclvl_setid_hooks,
	&seclvl_disk_hooks,
	&seclvl_file_hooks,
	&seclvl_ioctl_hooks,
};

/* The sets switched on, as BIT(index); under seclvl_lock. */
static unsigned long seclvl_sets_on;

/**
 * seclvl_enable_hooks - switch on the hooks a new level needs
 * @level: the level about to be set
 *
 * Called with seclvl_lock held before the level changes, so that a level
 * pays only for the hooks of the restrictions it enforces: at level 1 the
 * unmount and clock hooks, which serve level 2 restrictions by default,
 * cost nothing.  When it returns, every CPU calls every hook that serves a
 * restriction that applies at @level.
 */
void seclvl_enable_hooks(int level)
{
	unsigned long applying = seclvl_applying(level);
	size_t i;

	lockdep_assert_held(&seclvl_lock);
	BUILD_BUG_ON(ARRAY_SIZE(seclvl_hook_sets) > BITS_PER_LONG);
	BUILD_BUG_ON(SECLVL_NR_RESTRICTIONS >= BITS_PER_LONG);
	if (level > 0)
		applying |= SECLVL_ABOVE_ZERO;
	for (i = 0; i < ARRAY_SIZE(seclvl_hook_sets); i++) {
		if ((seclvl_sets_on & BIT(i)) ||
		    !(seclvl_hook_sets[i]->serves & applying))
			continue;
		security_enable_hooks(seclvl_hook_sets[i]->hooks,
				      seclvl_hook_sets[i]->count);
		seclvl_sets_on |= BIT(i);
	}
}

static int __init seclvl_init(void)
{
	size_t i;

	seclvl_init_rules();
	for (i = 0; i < ARRAY_SIZE(seclvl_hook_sets); i++)
		security_add_hooks_deferred(seclvl_hook_sets[i]->hooks,
					    seclvl_hook_sets[i]->count,
					    &seclvl_lsmid);
	seclvl_init_level();
	seclvl_initialized = true;
	return 0;
}

DEFINE_LSM(seclvl) = {
	LSM_INFO_ID(seclvl),
	.init = seclvl_init,
	.blobs = &seclvl_blob_sizes,
};
