/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl - the secure levels, and when a restriction applies
 *
 * Pure: the LSM and the BPF backend both include it.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECURITY_SECLVL_LEVELS_H
#define _SECURITY_SECLVL_LEVELS_H

#define SECLVL_MIN (-1)
#define SECLVL_MAX 2
/* The level of a disabled restriction: above every secure level. */
#define SECLVL_OFF (SECLVL_MAX + 1)

/*
 * Whether a restriction whose level is @rule_level (1, 2 or SECLVL_OFF)
 * applies at secure level @level: nothing applies at 0 or -1.
 */
static inline bool seclvl_rule_applies(int level, int rule_level)
{
	return level > 0 && level >= rule_level;
}

#endif /* _SECURITY_SECLVL_LEVELS_H */
