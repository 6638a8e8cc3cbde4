/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lsm= list that adds bpf to the active LSMs, for seclvl-bpf and
 * seclvlctl.
 */
#ifndef SECLVL_LSMLIST_H
#define SECLVL_LSMLIST_H

#include <stdbool.h>
#include <stddef.h>

#define LSM_FILE "/sys/kernel/security/lsm"

int lsm_read_active(char *buf, size_t size);
bool lsm_lists(const char *list, const char *name);
int lsm_with_bpf(const char *active, char *buf, size_t size);

#endif
