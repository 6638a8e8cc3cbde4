/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl - which capabilities the restrictions refuse
 *
 * Pure: the LSM and the BPF backend both include it, so that the rule
 * is written once.  What a file or device is, each reads its own way and
 * passes in.
 * After enum seclvl_restriction, with the CAP_* numbers in scope.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECURITY_SECLVL_CAPRULES_H
#define _SECURITY_SECLVL_CAPRULES_H

/*
 * The restriction that refuses capability @cap in the initial user
 * namespace, or SECLVL_NR_RESTRICTIONS for one no restriction refuses.
 */
static inline enum seclvl_restriction seclvl_cap_restriction(int cap)
{
	switch (cap) {
	case CAP_LINUX_IMMUTABLE:
		return SECLVL_IMMUTABLE;
	case CAP_SYS_RAWIO:
		return SECLVL_RAWIO;
	case CAP_NET_ADMIN:
		return SECLVL_NET_ADMIN;
	case CAP_SETUID:
		return SECLVL_SETUID;
	case CAP_SYS_MODULE:
		return SECLVL_MODULES;
	default:
		return SECLVL_NR_RESTRICTIONS;
	}
}

/*
 * Whether a capability check in a user namespace other than the initial
 * one (@init_ns false) concerns the host: a user namespace administers
 * only what it already owns, but the host's root (@host_root: any of its
 * user IDs is 0 in the initial namespace) that changes its IDs in one
 * becomes the user mapped there.
 */
static inline bool seclvl_cap_in_scope(bool init_ns, int cap, bool host_root)
{
	return init_ns || (cap == CAP_SETUID && host_root);
}

#endif /* _SECURITY_SECLVL_CAPRULES_H */
