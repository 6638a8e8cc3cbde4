/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl - devices seclvl knows by their numbers
 *
 * Pure: the LSM and the BPF backend both include it, so that the rule
 * is written once.  What a file or device is, each reads its own way and
 * passes in.
 *
 * With S_IF* and the majors and minors used here in scope.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECURITY_SECLVL_DEVRULES_H
#define _SECURITY_SECLVL_DEVRULES_H

/* /dev/mem, the retired /dev/kmem and /dev/port, wherever their nodes are. */
static inline bool seclvl_dev_is_devmem(unsigned int major, unsigned int minor)
{
	return major == MEM_MAJOR && (minor == 1 || minor == 2 || minor == 4);
}

/* /dev/snapshot: a hibernation image in or out. */
static inline bool seclvl_dev_is_snapshot(unsigned int major,
					  unsigned int minor)
{
	return major == MISC_MAJOR && minor == SNAPSHOT_MINOR;
}

/* An sg character device: SCSI commands to the disk behind it. */
static inline bool seclvl_dev_is_sg(umode_t mode, unsigned int major)
{
	return (mode & S_IFMT) == S_IFCHR && major == SCSI_GENERIC_MAJOR;
}

/* A loop block device. */
static inline bool seclvl_dev_is_loop(umode_t mode, unsigned int major)
{
	return (mode & S_IFMT) == S_IFBLK && major == LOOP_MAJOR;
}

#endif /* _SECURITY_SECLVL_DEVRULES_H */
