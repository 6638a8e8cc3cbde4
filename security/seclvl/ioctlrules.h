/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl - ioctls and io_uring commands that write a disk
 *
 * Pure: the LSM and the BPF backend both include it, so that the rule
 * is written once.  What a file or device is, each reads its own way and
 * passes in.
 *
 * With the commands' numbers in scope (the kernel's uapi headers; the
 * BPF backend's kconst.h), and devrules.h included before it.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECURITY_SECLVL_IOCTLRULES_H
#define _SECURITY_SECLVL_IOCTLRULES_H

/*
 * What a command writes through: the devices that understand it, and what
 * else it needs to write.  Each command is judged only on the devices that
 * understand it; another answers ENOTTY.  seclvl cannot read a passthrough
 * command without racing the driver, so one that could write counts as a
 * write.
 */
#define SECLVL_IOC_BLK		0x01	/* any block device */
#define SECLVL_IOC_LOOP		0x02	/* a loop device */
#define SECLVL_IOC_SG		0x04	/* an sg character device */
#define SECLVL_IOC_BSG		0x08	/* a character device of class bsg */
#define SECLVL_IOC_NVME		0x10	/* class nvme or nvme-generic */
#define SECLVL_IOC_ON		0x1f	/* the devices */
#define SECLVL_IOC_FWRITE	0x20	/* only if open for writing */
#define SECLVL_IOC_SCSI		0x40	/* only if open for writing or rawio off */

/*
 * A SCSI command can write through a descriptor open only for reading when
 * the caller has CAP_SYS_RAWIO (scsi_cmd_allowed()), that is while rawio
 * is not enforced.  NVMe passthrough needs no more than CAP_SYS_ADMIN,
 * whatever the descriptor's mode.
 */
static inline unsigned int seclvl_ioctl_writes(unsigned int cmd)
{
	switch (cmd) {
	case SG_IO:
		return SECLVL_IOC_BLK | SECLVL_IOC_SG | SECLVL_IOC_BSG |
		       SECLVL_IOC_SCSI;
	case SCSI_IOCTL_SEND_COMMAND:
	/* ATA commands, which libata takes through SCSI disks and sg. */
	case HDIO_DRIVE_CMD:
	case HDIO_DRIVE_TASK:
		return SECLVL_IOC_BLK | SECLVL_IOC_SG | SECLVL_IOC_SCSI;
	case CDROM_SEND_PACKET:
		return SECLVL_IOC_BLK | SECLVL_IOC_SCSI;
	case BLKDISCARD:
	case BLKSECDISCARD:
	case BLKZEROOUT:
	case BLKRESETZONE:
	case BLKFINISHZONE:
		return SECLVL_IOC_BLK | SECLVL_IOC_FWRITE;
	/* Moving a partition moves the blocks under its users. */
	case BLKPG:
	/* Self-encrypting disks: each of these erases or overwrites data. */
	case IOC_OPAL_ERASE_LR:
	case IOC_OPAL_SECURE_ERASE_LR:
	case IOC_OPAL_REVERT_TPR:
	case IOC_OPAL_PSID_REVERT_TPR:
	case IOC_OPAL_REVERT_LSP:
	case IOC_OPAL_WRITE_SHADOW_MBR:
		return SECLVL_IOC_BLK;
	/* What a bound loop device maps, and how much of it. */
	case LOOP_SET_STATUS:
	case LOOP_SET_STATUS64:
	case LOOP_CHANGE_FD:
	case LOOP_SET_CAPACITY:
		return SECLVL_IOC_LOOP;
	case NVME_IOCTL_ADMIN_CMD:
	case NVME_IOCTL_SUBMIT_IO:
	case NVME_IOCTL_IO_CMD:
	case NVME_IOCTL_ADMIN64_CMD:
	case NVME_IOCTL_IO64_CMD:
	case NVME_IOCTL_IO64_CMD_VEC:
		return SECLVL_IOC_BLK | SECLVL_IOC_NVME;
	default:
		return 0;
	}
}

/* The same for io_uring's commands. */
static inline unsigned int seclvl_uring_cmd_writes(unsigned int op)
{
	switch (op) {
	case BLOCK_URING_CMD_DISCARD:
		return SECLVL_IOC_BLK | SECLVL_IOC_FWRITE;
	case NVME_URING_CMD_IO:
	case NVME_URING_CMD_IO_VEC:
	case NVME_URING_CMD_ADMIN:
	case NVME_URING_CMD_ADMIN_VEC:
		return SECLVL_IOC_NVME;
	default:
		return 0;
	}
}

/*
 * The device bits a file of @mode and device major @major is, as far as
 * its numbers tell: bsg and NVMe character devices have dynamic majors,
 * and the caller adds their bits by the device's class, which it reads
 * only if the command needs it (seclvl_ioc_needs_class()).
 */
static inline unsigned int seclvl_ioc_device(umode_t mode, unsigned int major)
{
	if (seclvl_dev_is_loop(mode, major))
		return SECLVL_IOC_BLK | SECLVL_IOC_LOOP;
	if ((mode & S_IFMT) == S_IFBLK)
		return SECLVL_IOC_BLK;
	return seclvl_dev_is_sg(mode, major) ? SECLVL_IOC_SG : 0;
}

/* Whether only the class of a character device can tell if @what applies. */
static inline bool seclvl_ioc_needs_class(unsigned int what,
					  unsigned int device, umode_t mode)
{
	return !(what & device & SECLVL_IOC_ON) &&
	       (what & (SECLVL_IOC_BSG | SECLVL_IOC_NVME)) &&
	       (mode & S_IFMT) == S_IFCHR;
}

/*
 * Whether a command that writes through @what, made on a device that is
 * @device, writes its medium, with the descriptor open for writing or not
 * (@fwrite) and rawio in force or not (@rawio).
 */
static inline bool seclvl_ioc_writes(unsigned int what, unsigned int device,
				     bool fwrite, bool rawio)
{
	if (!(what & device & SECLVL_IOC_ON))
		return false;
	if (what & SECLVL_IOC_FWRITE)
		return fwrite;
	if (what & SECLVL_IOC_SCSI)
		return fwrite || !rawio;
	return true;
}

#endif /* _SECURITY_SECLVL_IOCTLRULES_H */
