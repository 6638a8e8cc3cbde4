/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl BPF backend: kernel constants that BTF does not carry, and the
 * kernel symbols the programs read
 *
 * These are macros, so vmlinux.h lacks them.  All are user-space ABI or
 * unchanged since before Linux 3.0; the selftests exercise each one that
 * a rule depends on, on the stock kernel.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SECLVL_KCONST_H
#define _SECLVL_KCONST_H

#define EPERM 1
#define EAGAIN 11
#define ENOMEM 12
#define EBUSY 16
#define EXDEV 18
#define EINVAL 22
#define ENOLINK 67
#define NSEC_PER_SEC 1000000000LL

#define S_IFMT 00170000
#define S_IFBLK 0060000
#define S_IFCHR 0020000
#define S_IFDIR 0040000
#define S_ISUID 0004000
#define S_ISGID 0002000

#define MINORBITS 20
#define MINORMASK ((1U << MINORBITS) - 1)
#define MEM_MAJOR 1
#define MISC_MAJOR 10
#define SNAPSHOT_MINOR 231
#define SCSI_GENERIC_MAJOR 21

#define FMODE_WRITE 0x2
#define MAY_WRITE 0x2
#define FOP_UNSIGNED_OFFSET 0x20
#define FMODE_UNSIGNED_OFFSET 0x2000u	/* 6.1: what FOP_UNSIGNED_OFFSET says */
#define PF_KTHREAD 0x00200000
#define FS_REQUIRES_DEV 1
#define AF_NETLINK 16
#define SOL_SOCKET 1
#define SO_SNDBUFFORCE 32
#define SO_RCVBUFFORCE 33
#define TS_COMPAT 0x0002
/* In orig_ax: an x32 system call (__X32_SYSCALL_BIT). */
#define X32_SYSCALL_BIT 0x40000000
/* x86_64's numbers of the send system calls, setsockopt and delete_module. */
#define NR_sendto 44
#define NR_sendmsg 46
#define NR_setsockopt 54
#define NR_sendmmsg 307
#define NR_delete_module 176
#define NR_bpf 321
#define O_TMPFILE (020000000 | 0200000)	/* __O_TMPFILE | O_DIRECTORY */
#define ATTR_MODE 1
#define PTRACE_MODE_ATTACH 0x02

#define PROT_WRITE 0x2
#define MAP_TYPE 0x0f
#define MAP_PRIVATE 0x02
#define VM_SHARED 0x08

#define BPF_FS_MAGIC 0xcafe4a11
#define PROC_SUPER_MAGIC 0x9fa0
#define SYSFS_MAGIC 0x62656572
#define EXT4_SUPER_MAGIC 0xEF53
#define XFS_SUPER_MAGIC 0x58465342
/* _IOWR('f', 15, struct move_extent): 40 bytes; _IO('f', 17). */
#define EXT4_IOC_MOVE_EXT SECLVL_IOC(3U, 'f', 15, 40)
#define EXT4_IOC_SWAP_BOOT 0x6611
#define DEBUGFS_MAGIC 0x64626720
#define BINFMTFS_MAGIC 0x42494e4d
#define S_IFREG 0100000
#define S_NOSEC 0x1000
#define CGROUP2_SUPER_MAGIC 0x63677270
#define KERNFS_TYPE_MASK 0x000f
#define BPF_F_ALLOW_MULTI 0x2
#define ACL_EXECUTE 0x01
#define MNT_DETACH 0x2
#define DCACHE_MOUNTED 0x10000
#define MNT_NOSUID 0x01
#define MS_NOSUID 2
#define MS_REMOUNT 32
#define MS_BIND 4096
#define MS_MOVE 8192
#define MS_UNBINDABLE 0x20000
#define MS_PRIVATE 0x40000
#define MS_SLAVE 0x80000
#define MS_SHARED 0x100000

#define ADJ_SETOFFSET 0x0100

#define CAP_LINUX_IMMUTABLE 9
#define CAP_NET_ADMIN 12
#define CAP_SYS_MODULE 16
#define CAP_SYS_RAWIO 17
#define CAP_SYS_TIME 25
#define CAP_SETUID 7
#define CAP_FSETID 4

/* _IOC(dir, type, nr, size) for x86: dir 1 write, 2 read. */
#define SECLVL_IOC(dir, type, nr, size) \
	(((dir) << 30) | ((size) << 16) | ((type) << 8) | (nr))

#define SG_IO 0x2285
#define SCSI_IOCTL_SEND_COMMAND 1
#define CDROM_SEND_PACKET 0x5393
#define HDIO_DRIVE_CMD 0x031f
#define HDIO_DRIVE_TASK 0x031e
#define BLKDISCARD 0x1277
#define BLKSECDISCARD 0x127d
#define BLKZEROOUT 0x127f
#define BLOCK_URING_CMD_DISCARD 0x1200
/* _IO(0x12, 105) and the zone resets, _IOW(0x12, n, struct blk_zone_range). */
#define BLKPG 0x1269
#define BLKRESETZONE SECLVL_IOC(1U, 0x12, 131, 16)
#define BLKFINISHZONE SECLVL_IOC(1U, 0x12, 136, 16)
/*
 * Self-encrypting disks: struct opal_key is 264 bytes, opal_session_info
 * 272, opal_shadow_mbr 288, opal_revert_lsp 272.
 */
#define IOC_OPAL_REVERT_TPR SECLVL_IOC(1U, 'p', 226, 264)
#define IOC_OPAL_ERASE_LR SECLVL_IOC(1U, 'p', 230, 272)
#define IOC_OPAL_SECURE_ERASE_LR SECLVL_IOC(1U, 'p', 231, 272)
#define IOC_OPAL_PSID_REVERT_TPR SECLVL_IOC(1U, 'p', 232, 264)
#define IOC_OPAL_WRITE_SHADOW_MBR SECLVL_IOC(1U, 'p', 234, 288)
#define IOC_OPAL_REVERT_LSP SECLVL_IOC(1U, 'p', 240, 272)
/* struct loop_config: fd first, info.lo_flags at byte 60. */
#define LOOP_MAJOR 7
#define LOOP_SET_FD 0x4C00
#define LOOP_SET_STATUS 0x4C02
#define LOOP_SET_STATUS64 0x4C04
#define LOOP_CHANGE_FD 0x4C06
#define LOOP_SET_CAPACITY 0x4C07
#define LOOP_CONFIGURE 0x4C0A
#define LO_FLAGS_READ_ONLY 1
/* The bit the loop driver clears in its backing file's mapping. */
#define __GFP_IO 0x40u
#define ATTR_SIZE 8
/* struct nvme_passthru_cmd: 72 bytes, nvme_user_io: 48, _cmd64: 80. */
#define NVME_IOCTL_ADMIN_CMD SECLVL_IOC(3U, 'N', 0x41, 72)
#define NVME_IOCTL_SUBMIT_IO SECLVL_IOC(1U, 'N', 0x42, 48)
#define NVME_IOCTL_IO_CMD SECLVL_IOC(3U, 'N', 0x43, 72)
#define NVME_IOCTL_ADMIN64_CMD SECLVL_IOC(3U, 'N', 0x47, 80)
#define NVME_IOCTL_IO64_CMD SECLVL_IOC(3U, 'N', 0x48, 80)
#define NVME_IOCTL_IO64_CMD_VEC SECLVL_IOC(3U, 'N', 0x49, 80)
/* struct nvme_uring_cmd: 72 bytes. */
#define NVME_URING_CMD_IO SECLVL_IOC(3U, 'N', 0x80, 72)
#define NVME_URING_CMD_IO_VEC SECLVL_IOC(3U, 'N', 0x81, 72)
#define NVME_URING_CMD_ADMIN SECLVL_IOC(3U, 'N', 0x82, 72)
#define NVME_URING_CMD_ADMIN_VEC SECLVL_IOC(3U, 'N', 0x83, 72)

/*
 * Kernel symbols the programs read, resolved from /proc/kallsyms when the
 * loader loads them; it refuses to load without them.
 */
extern const void bd_may_claim __ksym;
/* 6.1, 6.12: tk_core; 6.13 on: timekeeper_data[TIMEKEEPER_CORE]. */
extern const void tk_core __ksym __weak;
extern const void timekeeper_data __ksym __weak;
extern const void init_net __ksym;
extern const void init_pid_ns __ksym;
extern const void init_nsproxy __ksym;

#endif /* _SECLVL_KCONST_H */
