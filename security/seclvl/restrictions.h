/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl - BSD-style secure levels: the restrictions
 *
 * One line per restriction, in the order of the policy file: its
 * identifier, its stable name (logs, the policy file, the docs) and the
 * lowest level at which it applies by default.  The includer defines
 * SECLVL_RESTRICTION(id, name, level); the LSM builds its enum and its
 * table from this list, and any other enforcer of the same policy (the
 * BPF backend) should too, rather than keep a copy.
 *
 * Copyright (C) 2026 The seclvl authors
 */

/* The 2003 patch's policy. */
SECLVL_RESTRICTION(PTRACE_INIT, "ptrace_init", 1)
SECLVL_RESTRICTION(IMMUTABLE, "immutable", 1)
SECLVL_RESTRICTION(RAWIO, "rawio", 1)
SECLVL_RESTRICTION(NET_ADMIN, "net_admin", 1)
SECLVL_RESTRICTION(SETUID, "setuid", 1)
SECLVL_RESTRICTION(MODULES, "modules", 1)
SECLVL_RESTRICTION(MOUNTED_BLOCKDEV_WRITE, "mounted_blockdev_write", 1)
SECLVL_RESTRICTION(DEVMEM_WRITE, "devmem_write", 1)
SECLVL_RESTRICTION(SETID_BITS, "setid_bits", 1)
SECLVL_RESTRICTION(TIME_BACKWARD, "time_backward", 2)
SECLVL_RESTRICTION(BLOCKDEV_WRITE, "blockdev_write", 2)
SECLVL_RESTRICTION(UMOUNT, "umount", 2)
/* Beyond it: the ways round it that got it removed in 2006. */
SECLVL_RESTRICTION(KEXEC, "kexec", 1)
SECLVL_RESTRICTION(SUID_MOUNT, "suid_mount", 1)
SECLVL_RESTRICTION(LOCKDOWN_INTEGRITY, "lockdown_integrity", 1)
SECLVL_RESTRICTION(LOCKDOWN_CONFIDENTIALITY, "lockdown_confidentiality", SECLVL_OFF)
