// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: the ways round a secure level, one test per vector
 *
 * The 2003 module was dropped because root could reach a refused effect
 * another way.  Each test here makes one such attempt and checks it against
 * the level and policy the kernel reports: where a restriction applies the
 * attempt fails with EPERM (or the errno the kernel maps it to), the
 * restriction counts it and nothing is changed; below that level it works.
 * The vectors the seed's own restrictions already covered are tested in
 * restrictions_test; Documentation/security/seclvl.rst lists both.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "common.h"

#include <dirent.h>
#include <linux/bsg.h>
#include <linux/ext4.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/io_uring.h>
#include <linux/kexec.h>
#include <linux/blkpg.h>
#include <linux/blkzoned.h>
#include <linux/loop.h>
#include <linux/netfilter.h>
#include <linux/nvme_ioctl.h>
#include <linux/suspend_ioctls.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <scsi/sg.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <sys/xattr.h>

#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif

#define KERNEL_IMAGE DISK_DIR "/bzImage"
#define KEXEC_LOADED "/sys/kernel/kexec_loaded"
#define MNT_DIR "/tmp/seclvl-bypass"
/* Disks whose last sector lies beyond the filesystem mounted on them. */
#define SCSI_DISK "/dev/sda"
#define NVME_DISK "/dev/nvme0n1"
#define NVME_CHAR "/dev/ng0n1"
/* A second virtio disk nothing uses (ext4, made by the host). */
#define SPARE_DISK "/dev/vdb"
#define SPARE_LOOP "/dev/loop3"
#ifndef BLOCK_URING_CMD_DISCARD
#define BLOCK_URING_CMD_DISCARD _IO(0x12, 0)
#endif
#define SECTOR 512

static int number_in(const char *path)
{
	char buf[32];

	return read_file(path, buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
}

/* Replacing the running kernel. */

TEST(kexec_load)
{
	static char image[4096];
	const unsigned long dest = 16 << 20;
	struct kexec_segment seg = {
		.buf = image, .bufsz = sizeof(image),
		.mem = (void *)dest, .memsz = sizeof(image),
	};
	long before = denials("kexec");
	int ret;

	ASSERT_EQ(0, number_in(KEXEC_LOADED));
	ret = syscall(SYS_kexec_load, dest, 1UL, &seg, KEXEC_ARCH_DEFAULT);
	EXPECT_OUTCOME("kexec", ret, before);
	EXPECT_EQ(!refused("kexec"), number_in(KEXEC_LOADED));
	if (!ret)
		EXPECT_EQ(0, syscall(SYS_kexec_load, 0UL, 0UL, NULL,
				     KEXEC_ARCH_DEFAULT));
	EXPECT_EQ(0, number_in(KEXEC_LOADED));
}

TEST(kexec_file_load)
{
	int fd = open(KERNEL_IMAGE, O_RDONLY | O_CLOEXEC);
	long before = denials("kexec");
	int ret;

	ASSERT_LE(0, fd) TH_LOG("the host puts the test kernel on the disk");
	ASSERT_EQ(0, number_in(KEXEC_LOADED));
	ret = syscall(SYS_kexec_file_load, fd, -1, 1UL, "",
		      KEXEC_FILE_NO_INITRAMFS);
	close(fd);
	EXPECT_OUTCOME("kexec", ret, before);
	EXPECT_EQ(!refused("kexec"), number_in(KEXEC_LOADED));
	if (!ret)
		EXPECT_EQ(0, syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL,
				     KEXEC_FILE_UNLOAD));
	EXPECT_EQ(0, number_in(KEXEC_LOADED));
}

/*
 * An open of /dev/snapshot, as 0 or -1: the holder keeps it open, so an
 * open that every check let through ends in EBUSY (the device is taken
 * after lockdown's check, and seclvl's comes before both).
 */
static int snapshot_opened(int fd)
{
	if (fd < 0 && errno == EBUSY)
		return 0;
	return opened(fd);
}

static bool is_char_dev(int fd, unsigned int major, unsigned int minor)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISCHR(st.st_mode) &&
	       major(st.st_rdev) == major && minor(st.st_rdev) == minor;
}

/* Restoring a hibernation image replaces the kernel's memory. */
TEST(hibernation_image)
{
	struct refusers r;
	char state[256];

	/* Empty where no sleep state is left. */
	ASSERT_LE(0, read_file("/sys/power/state", state, sizeof(state)));
	EXPECT_EQ(!refused("lockdown_integrity"), !!strstr(state, "disk"))
		TH_LOG("/sys/power/state: %s", state);
	r = REFUSERS("lockdown_integrity");
	EXPECT_REFUSED_BY(r, snapshot_opened(open("/dev/snapshot",
						  O_WRONLY | O_CLOEXEC)),
			  EPERM);
}

/* A writable debugfs file reaches into the kernel: lockdown's "debugfs". */
TEST(debugfs_write)
{
	const char *path = "/sys/kernel/debug/fault_around_bytes";
	struct refusers r = REFUSERS("lockdown_integrity");
	char old[32], now[32];
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	EXPECT_REFUSED_BY(r, opened(fd < 0 ? -1 : dup(fd)), EPERM);
	if (fd < 0)
		return;
	ASSERT_LT(0, read_file(path, old, sizeof(old)));
	ASSERT_EQ(5, write(fd, "8192\n", 5));
	close(fd);
	ASSERT_LT(0, read_file(path, now, sizeof(now)));
	EXPECT_STREQ("8192\n", now);
	EXPECT_EQ(0, write_str(path, old));
}

/*
 * Kernel confidentiality: default off, so /proc/kcore is left to `rawio`
 * (the kernel asks for CAP_SYS_RAWIO first) unless the policy turns it on.
 */
TEST(kcore_read)
{
	struct refusers r = REFUSERS("rawio", "lockdown_confidentiality");

	EXPECT_REFUSED_BY(r, opened(open("/proc/kcore", O_RDONLY | O_CLOEXEC)),
			  EPERM);
}

/* Raw hardware. */

#define MSR_TSC_AUX 0xc0000103

/* Writing back the value read changes nothing but proves the write. */
TEST(msr_write)
{
	struct refusers r = REFUSERS("rawio");
	__u64 val;
	int fd = open("/dev/cpu/0/msr", O_RDWR | O_CLOEXEC);
	int ret;

	EXPECT_REFUSED_BY(r, opened(fd < 0 ? -1 : dup(fd)), EPERM);
	if (fd < 0)
		return;
	ASSERT_EQ(sizeof(val), pread(fd, &val, sizeof(val), MSR_TSC_AUX));
	/* With `rawio` off the open works and lockdown stops the write. */
	r = REFUSERS("lockdown_integrity");
	ret = pwrite(fd, &val, sizeof(val), MSR_TSC_AUX);
	EXPECT_REFUSED_BY(r, ret == sizeof(val) ? 0 : -1, EPERM);
	close(fd);
}

TEST(devmem_mmap)
{
	struct refusers r = REFUSERS("devmem_write", "rawio",
				     "lockdown_integrity");
	int fd = open("/dev/mem", O_RDWR | O_CLOEXEC);
	void *p;

	EXPECT_REFUSED_BY(r, opened(fd < 0 ? -1 : dup(fd)), EPERM);
	if (fd < 0)
		return;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_NE(MAP_FAILED, p) TH_LOG("%s", strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);
}

/* An SSDT that defines one method, \SCLV, returning 1. */
static size_t make_ssdt(unsigned char *t)
{
	static const unsigned char aml[] = {
		0x14, 0x09, '\\', 'S', 'C', 'L', 'V', 0x00, 0xa4, 0x01,
	};
	const size_t len = 36 + sizeof(aml);
	unsigned char sum = 0;
	size_t i;

	memset(t, 0, len);
	memcpy(t, "SSDT", 4);
	t[4] = len;
	t[8] = 2;
	memcpy(t + 10, "SECLVL", 6);
	memcpy(t + 16, "BYPASS  ", 8);
	t[24] = 1;
	memcpy(t + 28, "INTL", 4);
	t[32] = 1;
	memcpy(t + 36, aml, sizeof(aml));
	for (i = 0; i < len; i++)
		sum += t[i];
	t[9] = -sum;
	return len;
}

static int count_dynamic_ssdts(void)
{
	DIR *d = opendir("/sys/firmware/acpi/tables/dynamic");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "SSDT", 4);
	closedir(d);
	return n;
}

/*
 * configfs loads ACPI tables, new methods included, into the running
 * kernel.  It hands the table over when the file is closed and drops the
 * error there, so a refusal shows as a table not loaded and a denial
 * counted.
 */
TEST(acpi_table_load)
{
	unsigned char table[64];
	size_t len = make_ssdt(table);
	int ssdts = count_dynamic_ssdts();
	char dir[64], aml[80];
	struct refusers r;
	bool loaded;
	int fd;

	if (access("/sys/kernel/config/acpi/table", F_OK))
		SKIP(return, "no ACPI table loading here (CONFIG_ACPI_CONFIGFS)");
	snprintf(dir, sizeof(dir), "/sys/kernel/config/acpi/table/seclvl-%d",
		 getpid());
	snprintf(aml, sizeof(aml), "%s/aml", dir);
	ASSERT_EQ(0, mkdir(dir, 0755)) TH_LOG("%s", strerror(errno));
	fd = open(aml, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	r = REFUSERS("lockdown_integrity");
	ASSERT_EQ(len, write(fd, table, len));
	close(fd);
	loaded = count_dynamic_ssdts() == ssdts + 1;
	/* The hook's EPERM stops at configfs: only the effect is seen. */
	expect_outcome_of(_metadata, &r, loaded ? 0 : -1, EPERM, EPERM);
	/*
	 * Removing an item whose table never loaded unloads ACPI table 0
	 * (acpi_table_drop_item() does not check): leave that one be.  The
	 * sysfs entry of an unloaded table stays.
	 */
	if (loaded)
		EXPECT_EQ(0, rmdir(dir));
}

/* Set-id files without chmod(2). */

TEST(setid_fchmodat2)
{
	const char *path = PREP_DIR "/fchmodat2";
	long before;

	if (kernel_before(6, 6))
		SKIP(return, "no fchmodat2() before 6.6");
	umask(0);
	make_file(_metadata, path, 0755);
	before = denials("setid_bits");
	EXPECT_OUTCOME("setid_bits",
		       syscall(__NR_fchmodat2, AT_FDCWD, path, 04755, 0), before);
	EXPECT_EQ(refused("setid_bits") ? 0755 : 04755, mode_of(path));
	unlink(path);
}

/* New mounts: a filesystem from an image or another disk brings its set-id files. */

static void private_mounts(struct __test_metadata *const _metadata)
{
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	mkdir(MNT_DIR, 0755);
}

static bool nosuid_at(const char *dir)
{
	struct statvfs st;

	return !statvfs(dir, &st) && (st.f_flag & ST_NOSUID);
}

/*
 * devtmpfs: in memory, but one superblock for every mount, so whatever was
 * put on /dev at level 0 is on the new mount too.
 */
TEST(suid_mount_new)
{
	long before;

	private_mounts(_metadata);
	before = denials("suid_mount");
	EXPECT_OUTCOME("suid_mount",
		       mount("seclvl", MNT_DIR, "devtmpfs", 0, NULL), before);
	EXPECT_EQ(!refused("suid_mount"), mounted_at(MNT_DIR));
}

/*
 * A new tmpfs or ramfs is empty: while setid_bits holds, nothing on it can
 * become set-id, so it needs no nosuid (systemd's PrivateTmp=).
 */
static void check_starts_empty(struct __test_metadata *const _metadata,
			       int ret)
{
	bool refuse = refused("suid_mount") && !refused("setid_bits");
	char path[] = MNT_DIR "/suid";
	long before;
	int fd;

	EXPECT_EQ(refuse ? -1 : 0, ret);
	if (ret)
		return;
	EXPECT_FALSE(nosuid_at(MNT_DIR));
	before = denials("setid_bits");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 04755);
	EXPECT_OUTCOME("setid_bits", fd < 0 ? -1 : 0, before);
	if (fd >= 0)
		close(fd);
	ASSERT_EQ(0, close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0755)));
	before = denials("setid_bits");
	EXPECT_OUTCOME("setid_bits", chmod(path, 04755), before);
	EXPECT_EQ(refused("setid_bits") ? 0755 : 04755, mode_of(path));
	EXPECT_EQ(0, umount2(MNT_DIR, MNT_DETACH));
}

TEST(suid_mount_starts_empty)
{
	static const char *const types[] = { "tmpfs", "ramfs" };
	long before;
	int i;

	private_mounts(_metadata);
	for (i = 0; i < 2; i++) {
		before = denials("suid_mount");
		check_starts_empty(_metadata,
				   mount("seclvl", MNT_DIR, types[i], 0, NULL));
		EXPECT_EQ(before + (refused("suid_mount") &&
				    !refused("setid_bits")),
			  denials("suid_mount")) TH_LOG("%s", types[i]);
	}
}

TEST(suid_mount_new_nosuid_allowed)
{
	long before;

	private_mounts(_metadata);
	before = denials("suid_mount");
	EXPECT_EQ(0, mount("seclvl", MNT_DIR, "tmpfs", MS_NOSUID, NULL));
	EXPECT_TRUE(nosuid_at(MNT_DIR));
	EXPECT_EQ(before, denials("suid_mount"));
}

FIXTURE(nosuid_mount) {};

FIXTURE_SETUP(nosuid_mount)
{
	private_mounts(_metadata);
	ASSERT_EQ(0, mount("seclvl", MNT_DIR, "tmpfs", MS_NOSUID, NULL));
	ASSERT_TRUE(nosuid_at(MNT_DIR));
}

FIXTURE_TEARDOWN(nosuid_mount) {}

TEST_F(nosuid_mount, remount_clears_nosuid)
{
	long before = denials("suid_mount");

	EXPECT_OUTCOME("suid_mount",
		       mount(NULL, MNT_DIR, NULL, MS_REMOUNT, NULL), before);
	EXPECT_EQ(refused("suid_mount"), nosuid_at(MNT_DIR));
}

TEST_F(nosuid_mount, bind_remount_clears_nosuid)
{
	long before = denials("suid_mount");

	EXPECT_OUTCOME("suid_mount",
		       mount(NULL, MNT_DIR, NULL, MS_REMOUNT | MS_BIND, NULL),
		       before);
	EXPECT_EQ(refused("suid_mount"), nosuid_at(MNT_DIR));
}

TEST_F(nosuid_mount, mount_setattr_clears_nosuid)
{
	struct mount_attr attr = { .attr_clr = MOUNT_ATTR_NOSUID };
	long before = denials("suid_mount");

	if (bpf_gap(_metadata, "mount_setattr() calls no LSM hook on 6.12 (patch 3 adds one)"))
		return;
	EXPECT_OUTCOME("suid_mount",
		       mount_setattr(AT_FDCWD, MNT_DIR, 0, &attr, sizeof(attr)),
		       before);
	EXPECT_EQ(refused("suid_mount"), nosuid_at(MNT_DIR));
}

/*
 * open_tree_attr(2) (Linux 6.15) opens a mount, or a detached copy of it,
 * and changes its attributes on the way, as mount_setattr(2) does.
 * Returns 0 or -1 with errno; *nosuid says what the opened tree has.
 */
static int open_tree_clearing_nosuid(const char *path, unsigned int flags,
				     bool *nosuid)
{
	struct mount_attr attr = { .attr_clr = MOUNT_ATTR_NOSUID };
	struct statvfs st;
	int tree;

	tree = syscall(__NR_open_tree_attr, AT_FDCWD, path,
		       flags | OPEN_TREE_CLOEXEC, &attr, sizeof(attr));
	if (tree < 0)
		return -1;
	*nosuid = !fstatvfs(tree, &st) && (st.f_flag & ST_NOSUID);
	close(tree);
	return 0;
}

/* Skipped where the call is missing or the backend cannot see it. */
static bool no_open_tree_attr(struct __test_metadata *const _metadata)
{
	if (bpf_gap(_metadata, "open_tree_attr() calls no LSM hook (patch 3 adds one)"))
		return true;
	if (!ksft_min_kernel_version(6, 15))
		SKIP(return true, "no open_tree_attr(2) before Linux 6.15");
	return false;
}

TEST_F(nosuid_mount, open_tree_attr_clears_nosuid)
{
	long before = denials("suid_mount");
	bool nosuid = true;

	if (no_open_tree_attr(_metadata))
		return;
	EXPECT_OUTCOME("suid_mount",
		       open_tree_clearing_nosuid(MNT_DIR, 0, &nosuid), before);
	EXPECT_EQ(refused("suid_mount"), nosuid);
	EXPECT_EQ(refused("suid_mount"), nosuid_at(MNT_DIR));
}

TEST_F(nosuid_mount, open_tree_attr_clone_clears_nosuid)
{
	long before = denials("suid_mount");
	bool nosuid = true;

	if (no_open_tree_attr(_metadata))
		return;
	EXPECT_OUTCOME("suid_mount",
		       open_tree_clearing_nosuid(MNT_DIR, OPEN_TREE_CLONE, &nosuid),
		       before);
	EXPECT_EQ(refused("suid_mount"), nosuid);
	EXPECT_TRUE(nosuid_at(MNT_DIR));
}

/*
 * A detached copy of a host mount handed to a user namespace: its nosuid
 * cleared there (no capability over the host needed), then attached in
 * the initial namespace, where its set-id files run as the host's ids.
 * Judged by the mount's superblock, not by the caller's namespace.
 */
static int clear_nosuid_in_userns(const void *arg)
{
	struct mount_attr attr = { .attr_clr = MOUNT_ATTR_NOSUID };
	int tree = *(const int *)arg;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return 2;
	if (mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)))
		return errno == EPERM ? 1 : 2;
	return 0;
}

TEST_F(nosuid_mount, mount_setattr_in_user_ns)
{
	long before = denials("suid_mount");
	struct statvfs st;
	int tree;

	if (bpf_gap(_metadata, "mount_setattr() calls no LSM hook on 6.12 (patch 3 adds one)"))
		return;
	tree = open_tree(AT_FDCWD, MNT_DIR, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	ASSERT_LE(0, tree) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(refused("suid_mount") ? 1 : 0,
		  in_child(clear_nosuid_in_userns, &tree));
	EXPECT_EQ(before + refused("suid_mount"), denials("suid_mount"));
	ASSERT_EQ(0, fstatvfs(tree, &st));
	EXPECT_EQ(refused("suid_mount"), !!(st.f_flag & ST_NOSUID));
	close(tree);
}

TEST_F(nosuid_mount, remount_keeping_nosuid_allowed)
{
	long before = denials("suid_mount");

	EXPECT_EQ(0, mount(NULL, MNT_DIR, NULL, MS_REMOUNT | MS_NOSUID |
			   MS_RDONLY, NULL));
	EXPECT_TRUE(nosuid_at(MNT_DIR));
	EXPECT_EQ(before, denials("suid_mount"));
}

/*
 * A superblock a user namespace owns runs its set-id files as that
 * namespace's ids, whoever remounts it: clearing its nosuid is allowed
 * even to the initial namespace's root (judged by the superblock, not by
 * the caller).  A child makes the mount in a user and mount namespace of
 * its own; a second one joins that mount namespace and remounts.
 */
static int remount_clearing_nosuid_in(const void *arg)
{
	char path[64];
	int ns;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", *(const pid_t *)arg);
	ns = open(path, O_RDONLY | O_CLOEXEC);
	if (ns < 0 || setns(ns, CLONE_NEWNS))
		return 3;
	if (mount(NULL, MNT_DIR, NULL, MS_REMOUNT, NULL))
		return errno == EPERM ? 1 : 2;
	return nosuid_at(MNT_DIR) ? 4 : 0;
}

TEST(suid_mount_remount_userns_sb_allowed)
{
	long before = denials("suid_mount");
	int ready[2], go[2];
	char path[64];
	pid_t child;
	char c = 0;

	private_mounts(_metadata);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
		    write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1 ||
		    mount("seclvl", MNT_DIR, "tmpfs", MS_NOSUID, NULL) ||
		    write(ready[1], &c, 1) != 1)
			_exit(1);
		_exit(read(go[0], &c, 1) == 1 ? 0 : 1);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	snprintf(path, sizeof(path), "/proc/%d/uid_map", child);
	ASSERT_EQ(0, write_str(path, "0 0 1\n"));
	snprintf(path, sizeof(path), "/proc/%d/gid_map", child);
	ASSERT_EQ(0, write_str(path, "0 0 1\n"));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(1, read(ready[0], &c, 1)) TH_LOG("tmpfs in the user namespace");
	EXPECT_EQ(0, in_child(remount_clearing_nosuid_in, &child));
	EXPECT_EQ(before, denials("suid_mount"));
	ASSERT_EQ(1, write(go[1], &c, 1));
	EXPECT_EQ(child, waitpid(child, NULL, 0));
}

/* A bind keeps its source's flags: nothing the system could not run already. */
TEST(suid_mount_bind_allowed)
{
	long before;

	private_mounts(_metadata);
	before = denials("suid_mount");
	EXPECT_EQ(0, mount(DISK_DIR, MNT_DIR, NULL, MS_BIND, NULL));
	EXPECT_FALSE(nosuid_at(MNT_DIR));
	EXPECT_EQ(before, denials("suid_mount"));
}

static int fsmount_fs(const char *type, unsigned int attr)
{
	int fs = fsopen(type, FSOPEN_CLOEXEC), mnt, err;

	if (fs < 0)
		return -2;
	if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		close(fs);
		return -2;
	}
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, attr);
	err = errno;
	close(fs);
	errno = err;
	return mnt;
}

TEST(suid_mount_fsmount)
{
	long before;
	int mnt;

	if (bpf_gap(_metadata, "fsmount() calls no LSM hook on 6.12 (patch 3 adds one)"))
		return;
	private_mounts(_metadata);
	before = denials("suid_mount");
	mnt = fsmount_fs("devtmpfs", 0);
	ASSERT_NE(-2, mnt);
	EXPECT_OUTCOME("suid_mount", mnt < 0 ? -1 : 0, before);
	if (mnt < 0)
		return;
	EXPECT_EQ(0, move_mount(mnt, "", AT_FDCWD, MNT_DIR,
				MOVE_MOUNT_F_EMPTY_PATH));
	EXPECT_FALSE(nosuid_at(MNT_DIR));
	close(mnt);
}

TEST(suid_mount_fsmount_nosuid_allowed)
{
	long before;
	int mnt;

	private_mounts(_metadata);
	before = denials("suid_mount");
	mnt = fsmount_fs("devtmpfs", MOUNT_ATTR_NOSUID);
	ASSERT_LE(0, mnt) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, move_mount(mnt, "", AT_FDCWD, MNT_DIR,
				MOVE_MOUNT_F_EMPTY_PATH));
	EXPECT_TRUE(nosuid_at(MNT_DIR));
	EXPECT_EQ(before, denials("suid_mount"));
	close(mnt);
}

TEST(suid_mount_fsmount_starts_empty)
{
	long before;
	int mnt;

	private_mounts(_metadata);
	before = denials("suid_mount");
	mnt = fsmount_fs("tmpfs", 0);
	ASSERT_NE(-2, mnt);
	if (mnt >= 0) {
		ASSERT_EQ(0, move_mount(mnt, "", AT_FDCWD, MNT_DIR,
					MOVE_MOUNT_F_EMPTY_PATH));
		close(mnt);
	}
	check_starts_empty(_metadata, mnt < 0 ? -1 : 0);
	EXPECT_EQ(before + (mnt < 0), denials("suid_mount"));
}

/* Init: every way to write into PID 1 or take its files. */

static pid_t tracer_of_init(void)
{
	char buf[4096], *p;

	if (read_file("/proc/1/status", buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "TracerPid:");
	return p ? atoi(p + strlen("TracerPid:")) : -1;
}

/*
 * Once traced, init takes the SIGSTOP that PTRACE_ATTACH sends: wait for
 * that stop and detach without the signal, or init would stay stopped.
 */
TEST(ptrace_init_attach)
{
	long before = denials("ptrace_init");
	int status, i, ret;

	ASSERT_EQ(0, tracer_of_init());
	ret = ptrace(PTRACE_ATTACH, 1, NULL, NULL);
	EXPECT_OUTCOME("ptrace_init", ret, before);
	EXPECT_EQ(refused("ptrace_init") ? 0 : getpid(), tracer_of_init());
	if (ret)
		return;
	for (i = 0; i < 1000; i++) {
		if (waitpid(1, &status, __WALL | WNOHANG) == 1)
			break;
		usleep(10000);
	}
	ASSERT_GT(1000, i) TH_LOG("init did not stop for its tracer");
	EXPECT_TRUE(WIFSTOPPED(status));
	EXPECT_EQ(0, ptrace(PTRACE_DETACH, 1, NULL, NULL));
}

/* Where init's environment strings start: field 50 of /proc/1/stat. */
static unsigned long init_env_start(void)
{
	char stat[2048], *p;
	int i;

	if (read_file("/proc/1/stat", stat, sizeof(stat)) <= 0)
		return 0;
	/* comm, field 2, ends at the last ')'. */
	p = strrchr(stat, ')');
	for (i = 2; p && i < 50; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoul(p + 1, NULL, 10) : 0;
}

/* Init's environment strings, written back as they are. */
TEST(ptrace_init_process_vm_writev)
{
	char env[64], now[64];
	unsigned long env_start = 0;
	struct iovec local, remote;
	long before;
	ssize_t len;

	len = read_file("/proc/1/environ", env, sizeof(env));
	ASSERT_LT(0, len);
	env_start = init_env_start();
	ASSERT_NE(0, env_start);

	local.iov_base = env;
	local.iov_len = len;
	remote.iov_base = (void *)env_start;
	remote.iov_len = len;
	before = denials("ptrace_init");
	len = process_vm_writev(1, &local, 1, &remote, 1, 0);
	EXPECT_OUTCOME("ptrace_init", len == local.iov_len ? 0 : -1, before);
	ASSERT_EQ(local.iov_len, read_file("/proc/1/environ", now, sizeof(now)));
	EXPECT_EQ(0, memcmp(env, now, local.iov_len));
}

TEST(ptrace_init_pidfd_getfd)
{
	int pidfd = syscall(SYS_pidfd_open, 1, 0);
	long before;

	ASSERT_LE(0, pidfd);
	before = denials("ptrace_init");
	EXPECT_OUTCOME("ptrace_init",
		       opened(syscall(SYS_pidfd_getfd, pidfd, 0, 0)), before);
	close(pidfd);
}

/*
 * Descriptors opened at level 0 by another process, taken now with
 * pidfd_getfd() (SCM_RIGHTS passes the same open file): a restriction seclvl
 * applies when such a file is opened applies to each write through them,
 * whichever way it is made.
 */

/*
 * Each way of writing @len bytes of @new at @off through @fd, checked
 * against restriction @name.  Refused: nothing is written; write and pwrite
 * fail with EPERM, and so does every other way that reaches the file (a
 * file may not support some: the kernel then fails them first); each EPERM
 * is counted; @path (if any) still reads @old.  Allowed: write and pwrite
 * work, the other ways are not refused by seclvl, nothing is counted; @old
 * is put back.
 */
static void check_held_writes(struct __test_metadata *const _metadata,
			      const char *name, int fd, const char *path,
			      const char *old, const char *new, size_t len,
			      off_t off)
{
	/* debugfs attributes and the like have no position. */
	bool stream = lseek(fd, 0, SEEK_CUR) < 0 && errno == ESPIPE;
	char now[64];
	int way;

	if (stream)
		off = -1;
	for (way = 0; way < WAY_NR; way++) {
		long before = denials(name);
		ssize_t ret = write_way(way, fd, new, len, off);
		int err = errno;

		if ((way == WAY_AIO && !aio_present()) ||
		    (stream && (way == WAY_PWRITE || way == WAY_AIO)))
			continue;
		if (refused(name)) {
			EXPECT_EQ(-1, ret) TH_LOG("%s", way_names[way]);
			if (way <= WAY_PWRITE || err == EPERM) {
				EXPECT_EQ(EPERM, err)
					TH_LOG("%s: %s", way_names[way],
					       strerror(err));
				EXPECT_LE(before + 1, denials(name))
					TH_LOG("%s: not counted",
					       way_names[way]);
			}
		} else {
			if (way <= WAY_PWRITE) {
				EXPECT_EQ((ssize_t)len, ret)
					TH_LOG("%s: %s", way_names[way],
					       strerror(err));
			} else if (ret < 0) {
				EXPECT_NE(EPERM, err)
					TH_LOG("%s", way_names[way]);
			}
			EXPECT_EQ(before, denials(name)) TH_LOG("%s", way_names[way]);
		}
	}
	if (path && refused(name)) {
		ASSERT_LT(0, read_file(path, now, sizeof(now)));
		EXPECT_STREQ(old, now);
	}
	if (!refused(name))
		EXPECT_EQ((ssize_t)strlen(old),
			  write_way(WAY_PWRITEV2, fd, old, strlen(old), off));
}

/* Memory that nothing backs (no VGA here): reads all ones, takes writes. */
#define DEVMEM_HOLE 0xa0000

TEST(held_devmem)
{
	int fd = held_fd(HELD_DEVMEM);
	char b[2] = "";

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(1, pread(fd, b, 1, DEVMEM_HOLE));
	check_held_writes(_metadata, "devmem_write", fd, NULL, b, b, 1,
			  DEVMEM_HOLE);
	close(fd);
}

/* Init's environment, written back as it is, through /proc/1/mem. */
TEST(held_init_mem)
{
	unsigned long env = init_env_start();
	int fd = held_fd(HELD_INIT_MEM);
	char b[9] = "";

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_NE(0, env);
	ASSERT_EQ(8, pread(fd, b, 8, env));
	if (strlen(b) < 8)
		return;
	check_held_writes(_metadata, "ptrace_init", fd, NULL, b, b, 8, env);
	close(fd);
}

static void check_held_setting(struct __test_metadata *const _metadata,
			       enum held_fd n, const char *name,
			       const char *path, const char *one,
			       const char *other)
{
	int fd = held_fd(n);
	char old[64];
	const char *new;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	/* Lockdown may refuse even reading a writable debugfs file. */
	if (read_file(path, old, sizeof(old)) <= 0) {
		ASSERT_TRUE(refused(name)) TH_LOG("cannot read %s", path);
		path = NULL;
		snprintf(old, sizeof(old), "%s", one);
	}
	new = strcmp(old, one) ? one : other;
	check_held_writes(_metadata, name, fd, path, old, new, strlen(new), 0);
	close(fd);
}

TEST(held_debugfs)
{
	check_held_setting(_metadata, HELD_DEBUGFS, "lockdown_integrity",
			   "/sys/kernel/debug/fault_around_bytes", "8192\n",
			   "16384\n");
}

/*
 * Some debugfs files take ioctls, which reach the kernel as writes do.
 * This one takes none: where allowed, the command is unknown (ENOTTY).
 */
TEST(held_debugfs_ioctl)
{
	struct refusers r = REFUSERS("lockdown_integrity");
	int fd = held_fd(HELD_DEBUGFS);
	int ret;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ret = ioctl(fd, _IO(0xf5, 0x7f));
	EXPECT_REFUSED_BY(r, ret && errno == ENOTTY ? 0 : ret, EPERM);
	close(fd);
}

/* The initial network namespace's settings, changed by file permission. */
TEST(held_net_sysctl)
{
	check_held_setting(_metadata, HELD_NET_SYSCTL, "net_admin",
			   "/proc/sys/net/ipv4/ip_forward", "1\n", "0\n");
}

/*
 * Through the holder's /dev/snapshot, opened at level 0: a restore image
 * written in, and the commands that would restore it.  A few bytes go to
 * the image's header page, which is parsed only when the next page comes.
 */
TEST(held_snapshot)
{
	int fd = held_fd(HELD_SNAPSHOT);
	struct refusers r;
	char size[32];

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	if (!is_char_dev(fd, 10, 231)) {
		close(fd);
		SKIP(return, "this kernel cannot hibernate");
	}
	check_held_writes(_metadata, "lockdown_integrity", fd, NULL, "x", "y",
			  1, 0);
	ASSERT_LT(0, read_file("/sys/power/image_size", size, sizeof(size)));
	r = REFUSERS("lockdown_integrity");
	EXPECT_REFUSED_BY(r, ioctl(fd, SNAPSHOT_PREF_IMAGE_SIZE,
				   strtoul(size, NULL, 10)), EPERM);
	close(fd);
}

/* /proc/PID/fd/N opens the file anew: the checks made at open apply. */
TEST(held_reopened)
{
	/* A refused ptrace check on /proc/PID/mem reaches user space as EACCES. */
	static const struct {
		enum held_fd n;
		const char *name;
		int err;
	} held[] = {
		{ HELD_DEVMEM, "devmem_write", EPERM },
		{ HELD_DEBUGFS, "lockdown_integrity", EPERM },
		{ HELD_INIT_MEM, "ptrace_init", EACCES },
		{ HELD_NET_SYSCTL, "net_admin", EPERM },
	};
	char path[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(held); i++) {
		/* /dev/mem's own open asks for CAP_SYS_RAWIO, then lockdown. */
		struct refusers r = held[i].n == HELD_DEVMEM ?
			REFUSERS("devmem_write", "rawio", "lockdown_integrity") :
			REFUSERS(held[i].name);

		ASSERT_EQ(0, held_path(held[i].n, path, sizeof(path)));
		EXPECT_REFUSED_BY(r, opened(open(path, O_WRONLY | O_CLOEXEC)),
				  held[i].err);
	}
}

/* Network configuration by file permission: root's euid passes the check. */
TEST(net_sysctl_open)
{
	struct refusers r = REFUSERS("net_admin");

	EXPECT_REFUSED_BY(r, opened(open("/proc/sys/net/ipv4/ip_forward",
					 O_WRONLY | O_CLOEXEC)), EPERM);
}

/*
 * A network device's settings in sysfs guarded by file mode alone: the
 * byte queue limits of a transmit queue.  (A virtio NIC has them.)
 */
static int bql_path(char *path, size_t size)
{
	DIR *dir = opendir("/sys/class/net");
	struct dirent *de;
	int ret = -1;

	if (!dir)
		return -1;
	while (ret && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, size, "/sys/class/net/%s/queues/tx-0/byte_queue_limits/limit_min",
			 de->d_name);
		ret = access(path, F_OK);
	}
	closedir(dir);
	return ret;
}

/* Result of write_str() as -1 and errno, or 0. */
static int wrote(int err)
{
	errno = err;
	return err ? -1 : 0;
}

TEST(net_sysfs_write)
{
	struct refusers r = REFUSERS("net_admin");
	char path[PATH_MAX], old[32], now[32];

	if (bql_path(path, sizeof(path)))
		SKIP(return, "no network device with byte queue limits");
	ASSERT_LT(0, read_file(path, old, sizeof(old)));
	EXPECT_REFUSED_BY(r, wrote(write_str(path, strcmp(old, "0\n") ? "0\n" :
								   "1000\n")),
			  EPERM);
	/* Refused: unchanged.  Allowed: changed, and put back. */
	ASSERT_LT(0, read_file(path, now, sizeof(now)));
	EXPECT_EQ(!!first_refuser(&r), !strcmp(old, now));
	EXPECT_EQ(0, first_refuser(&r) ? 0 : write_str(path, old));
}

/* A network device's uevent file is not a setting: udevadm trigger. */
TEST(net_sysfs_uevent_allowed)
{
	long before = denials("net_admin");

	EXPECT_EQ(0, write_str("/sys/class/net/lo/uevent", "change\n"));
	EXPECT_EQ(before, denials("net_admin"));
}

/*
 * The initial network namespace's /proc/net: xt_recent's lists and pktgen
 * take writes by file mode alone.  /proc/net/dev takes none, and says so
 * (EACCES) after the security check: refused, it says EPERM.
 */
TEST(net_proc_open)
{
	long before = denials("net_admin");
	int fd = open("/proc/net/dev", O_WRONLY | O_CLOEXEC);
	int err = errno;

	ASSERT_EQ(-1, fd);
	EXPECT_EQ(refused("net_admin") ? EPERM : EACCES, err)
		TH_LOG("%s", strerror(err));
	EXPECT_EQ(before + refused("net_admin"), denials("net_admin"));
}

/* Another network namespace's /proc/net is that namespace's. */
static int open_own_net_dev(const void *arg)
{
	if (unshare(CLONE_NEWNET))
		return 0;
	return open("/proc/self/net/dev", O_WRONLY | O_CLOEXEC) < 0 ? errno : 0;
}

TEST(net_proc_own_namespace)
{
	long before = denials("net_admin");
	int err = in_child(open_own_net_dev, NULL);

	EXPECT_EQ(EACCES, err) TH_LOG("%s", strerror(err));
	EXPECT_EQ(before, denials("net_admin"));
}

/*
 * In a network namespace of its own a process configures only that
 * namespace: not refused by the file's check.  (A setting whose handler
 * asks for CAP_NET_ADMIN over the namespace's owner, init's user
 * namespace here, is net_admin's as before.)
 */
static int write_own_net_sysctl(const void *arg)
{
	if (unshare(CLONE_NEWNET))
		return 2;
	return write_str("/proc/sys/net/ipv4/tcp_keepalive_time", "7200\n") ?
	       1 : 0;
}

TEST(net_sysctl_own_namespace)
{
	EXPECT_EQ(0, in_child(write_own_net_sysctl, NULL));
}

/*
 * Loop devices: a second way to a disk's blocks.  Binding one to a disk in
 * use, remapping one in use, writing or truncating a bound backing file,
 * and mounting a disk that backs one all write under a user of the disk.
 */

static int loop_config_of(int loop, int fd)
{
	struct loop_config config = { .fd = fd };

	return ioctl(loop, LOOP_CONFIGURE, &config);
}

/* The mounted partition, through a descriptor opened at level 0. */
static void check_loop_bind_held(struct __test_metadata *const _metadata,
				 bool configure)
{
	struct refusers r = bdev_refusers(true);
	int disk = held_fd(HELD_DISK);
	int loop = open(SPARE_LOOP, O_RDWR | O_CLOEXEC);
	int ret;

	ASSERT_LE(0, disk) TH_LOG("%s", strerror(errno));
	/* At level 2 the loop device itself cannot be opened for writing. */
	if (loop < 0 && refused("blockdev_write")) {
		EXPECT_EQ(EPERM, errno);
		close(disk);
		return;
	}
	ASSERT_LE(0, loop) TH_LOG("%s", strerror(errno));
	ret = configure ? loop_config_of(loop, disk) :
			  ioctl(loop, LOOP_SET_FD, disk);
	EXPECT_REFUSED_BY(r, ret, EPERM);
	if (!ret)
		EXPECT_EQ(0, ioctl(loop, LOOP_CLR_FD, 0));
	close(loop);
	close(disk);
}

TEST(loop_set_fd_held_mounted_disk)
{
	check_loop_bind_held(_metadata, false);
}

TEST(loop_configure_held_mounted_disk)
{
	check_loop_bind_held(_metadata, true);
}

/* A read-only binding writes nothing: never refused. */
TEST(loop_bind_read_only_allowed)
{
	int disk = open("/dev/vda1", O_RDONLY | O_CLOEXEC);
	int loop = open(SPARE_LOOP, O_RDONLY | O_CLOEXEC);
	long before = denials("mounted_blockdev_write");

	ASSERT_LE(0, disk);
	ASSERT_LE(0, loop);
	EXPECT_EQ(0, ioctl(loop, LOOP_SET_FD, disk)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, ioctl(loop, LOOP_CLR_FD, 0));
	EXPECT_EQ(before, denials("mounted_blockdev_write"));
	close(loop);
	close(disk);
}

/*
 * A LOOP_CONFIGURE that fails (a block size the block layer refuses) binds
 * nothing: the file stays writable at every level, and a later bind and
 * unbind leave it as they found it.
 */
TEST(loop_failed_configure_binds_nothing)
{
	struct refusers r = bdev_refusers(true);
	struct loop_config config = { .block_size = 3000 };
	const char *path = PREP_DIR "/unbound.img";
	int file = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int loop = open(SPARE_LOOP, O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, file) TH_LOG("%s", strerror(errno));
	ASSERT_LE(0, loop) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ftruncate(file, 1 << 20));
	config.fd = file;
	EXPECT_EQ(-1, ioctl(loop, LOOP_CONFIGURE, &config));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, opened(open(path, O_WRONLY | O_CLOEXEC)))
		TH_LOG("after a failed configure: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(loop, LOOP_SET_FD, file)) TH_LOG("%s", strerror(errno));
	EXPECT_REFUSED_BY(r, opened(open(path, O_WRONLY | O_CLOEXEC)), EPERM);
	EXPECT_EQ(0, ioctl(loop, LOOP_CLR_FD, 0));
	close(loop);
	EXPECT_EQ(0, opened(open(path, O_WRONLY | O_CLOEXEC)))
		TH_LOG("after the unbind: %s", strerror(errno));
	close(file);
	unlink(path);
}

/* Read 512 bytes at @off and write them back: a write that changes nothing. */
static void write_back(struct __test_metadata *const _metadata, int fd,
		       off_t off)
{
	char block[512];

	ASSERT_EQ(sizeof(block), pread(fd, block, sizeof(block), off));
	EXPECT_EQ(sizeof(block), pwrite(fd, block, sizeof(block), off));
}

/* /dev/loop0 is bound to this file (prepare() in the scenario). */
#define LOOP0_BACKING PREP_DIR "/loop0.img"

TEST(loop_backing_file_write)
{
	struct refusers r = bdev_refusers(true);
	int fd = open(LOOP0_BACKING, O_RDWR | O_CLOEXEC);

	EXPECT_REFUSED_BY(r, fd < 0 ? -1 : 0, EPERM);
	if (fd < 0)
		return;
	write_back(_metadata, fd, 0);
	close(fd);
}

TEST(loop_backing_file_truncate)
{
	struct refusers r = bdev_refusers(true);
	struct stat st;

	ASSERT_EQ(0, stat(LOOP0_BACKING, &st));
	EXPECT_REFUSED_BY(r, truncate(LOOP0_BACKING, st.st_size), EPERM);
}

/* A loop device in use is remapped: its offset moved under the mount. */
TEST(loop_remap_in_use)
{
	struct loop_info64 info;
	struct refusers r;
	int loop;

	private_mounts(_metadata);
	/*
	 * Read-only: where the remap is allowed, a writable ext4 could write
	 * its superblock through the shifted mapping (an error found by its
	 * lazyinit thread in that window) and break the image for later tests.
	 * A read-only mount claims the device all the same.
	 */
	ASSERT_EQ(0, mount("/dev/loop1", MNT_DIR, "ext2", MS_NOSUID | MS_RDONLY,
			   NULL))
		TH_LOG("%s", strerror(errno));
	loop = open("/dev/loop1", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, loop);
	ASSERT_EQ(0, ioctl(loop, LOOP_GET_STATUS64, &info));
	info.lo_offset += 4096;
	r = bdev_refusers(true);
	EXPECT_REFUSED_BY(r, ioctl(loop, LOOP_SET_STATUS64, &info), EPERM);
	r = bdev_refusers(true);
	EXPECT_REFUSED_BY(r, ioctl(loop, LOOP_SET_CAPACITY, 0), EPERM);
	info.lo_offset -= 4096;
	ioctl(loop, LOOP_SET_STATUS64, &info);
	close(loop);
}

/*
 * A loop device bound to the unused spare disk: the disk is then in use,
 * and mounting it is refused, since the loop device would write under
 * the filesystem.
 */
TEST(loop_backing_disk)
{
	struct refusers r;
	int disk = open(SPARE_DISK, O_RDONLY | O_CLOEXEC);
	int loop = open(SPARE_LOOP, O_RDONLY | O_CLOEXEC);
	int fd;

	ASSERT_LE(0, disk);
	ASSERT_LE(0, loop);
	ASSERT_EQ(0, ioctl(loop, LOOP_SET_FD, disk)) TH_LOG("%s", strerror(errno));
	r = bdev_refusers(true);
	fd = open_bdev(SPARE_DISK, O_RDWR | O_CLOEXEC);
	EXPECT_REFUSED_BY(r, fd < 0 ? -1 : 0, EPERM);
	if (fd >= 0) {
		write_back(_metadata, fd, 0);
		close(fd);
	}
	private_mounts(_metadata);
	r = REFUSERS("mounted_blockdev_write");
	EXPECT_REFUSED_BY(r, mount(SPARE_DISK, MNT_DIR, "ext4",
				   MS_NOSUID | MS_RDONLY, NULL), EPERM);
	umount2(MNT_DIR, MNT_DETACH);
	EXPECT_EQ(0, ioctl(loop, LOOP_CLR_FD, 0));
	close(loop);
	close(disk);
}

/* Block commands that no write(2) carries. */

static void fill_discard(struct io_uring_sqe *sqe, void *arg)
{
	const off_t *range = arg;

	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = range[0];
	sqe->cmd_op = BLOCK_URING_CMD_DISCARD;
	sqe->addr = range[1];
	sqe->addr3 = range[2];
}

/*
 * io_uring's discard, through the mounted partition's descriptor opened at
 * level 0, of its last block (free in the test's small ext4).
 */
TEST(discard_io_uring)
{
	struct refusers r = bdev_refusers(true);
	int fd = held_fd(HELD_DISK);
	off_t range[3];
	int ret;

	if (kernel_before(6, 12))
		SKIP(return, "block devices take no io_uring commands before 6.12");
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	range[0] = fd;
	range[2] = 4096;
	range[1] = lseek(fd, 0, SEEK_END) - range[2];
	ret = uring_one(0, fill_discard, range);
	errno = -ret;
	EXPECT_REFUSED_BY(r, ret == -EPERM ? -1 : 0, EPERM);
	close(fd);
}

/*
 * Zone commands, through the zoned disk (null_blk) held from level 0:
 * nothing has it mounted, so they count as writes to an unused disk.
 * Zones of 1 MiB; prepare() wrote the first block of the first zone.
 */
#define ZONED_DISK "/dev/zoned0"
#define ZONE_SECTORS 2048

/* The write pointer of the zone at @start, in sectors from @start. */
static long zone_wp(int fd, __u64 start)
{
	struct {
		struct blk_zone_report rep;
		struct blk_zone zone;
	} z = { .rep = { .sector = start, .nr_zones = 1 } };

	if (ioctl(fd, BLKREPORTZONE, &z) || z.rep.nr_zones != 1)
		return -1;
	return z.zone.wp - z.zone.start;
}

/*
 * @cmd on the zone at @start: refused, the zone is as it was; allowed, its
 * write pointer is at @want after it, and the zone is reset again.
 */
static void check_zone_cmd(struct __test_metadata *const _metadata,
			   unsigned long cmd, __u64 start, long want)
{
	struct blk_zone_range range = { start, ZONE_SECTORS };
	struct refusers r = bdev_refusers(false);
	int fd = held_fd(HELD_ZONED);
	long wp;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	wp = zone_wp(fd, start);
	ASSERT_LE(0, wp) TH_LOG("%s", strerror(errno));
	EXPECT_REFUSED_BY(r, ioctl(fd, cmd, &range), EPERM);
	EXPECT_EQ(first_refuser(&r) ? wp : want, zone_wp(fd, start));
	if (!first_refuser(&r))
		EXPECT_EQ(0, ioctl(fd, BLKRESETZONE, &range));
	close(fd);
}

TEST(held_zone_reset)
{
	int fd;

	/* The block prepare() wrote, written again where writes are allowed. */
	if (!refused("blockdev_write")) {
		void *block = aligned_alloc(4096, 4096);

		ASSERT_NE(NULL, block);
		memset(block, 0x5e, 4096);
		fd = open(ZONED_DISK, O_RDWR | O_DIRECT | O_CLOEXEC);
		ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
		if (zone_wp(fd, 0) == 0)
			ASSERT_EQ(4096, pwrite(fd, block, 4096, 0));
		close(fd);
		free(block);
	}
	check_zone_cmd(_metadata, BLKRESETZONE, 0, 0);
}

TEST(held_zone_finish)
{
	check_zone_cmd(_metadata, BLKFINISHZONE, ZONE_SECTORS, ZONE_SECTORS);
}

/* BLKPG moves a partition's blocks under its users. */
TEST(blkpg_resize_mounted_partition)
{
	struct blkpg_partition part = { .pno = 1 };
	struct blkpg_ioctl_arg arg = {
		.op = BLKPG_RESIZE_PARTITION,
		.datalen = sizeof(part),
		.data = &part,
	};
	struct refusers r = bdev_refusers(true);
	int fd = open("/dev/vda", O_RDONLY | O_CLOEXEC);
	int ret;

	ASSERT_LE(0, fd);
	/* The same start and length: a resize that changes nothing. */
	part.start = 2048 * 512LL;
	part.length = 65536 * 512LL;
	ret = ioctl(fd, BLKPG, &arg);
	EXPECT_REFUSED_BY(r, ret, EPERM);
	close(fd);
}

/* Over-refusal: the disk's own holder, mkfs and partitioning. */

static int run(const char *cmd)
{
	int status = system(cmd);

	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/*
 * An O_EXCL open makes its file the disk's holder: that claim is not a
 * user the writer writes under.  Another descriptor is.
 */
TEST(exclusive_open_unused_disk)
{
	struct refusers r = bdev_refusers(false);
	int fd = open_bdev(SPARE_DISK, O_RDWR | O_EXCL | O_CLOEXEC), other;

	EXPECT_REFUSED_BY(r, fd < 0 ? -1 : 0, EPERM);
	if (fd < 0)
		return;
	write_back(_metadata, fd, 4096);
	r = bdev_refusers(true);
	other = open_bdev(SPARE_DISK, O_RDWR | O_CLOEXEC);
	EXPECT_REFUSED_BY(r, other < 0 ? -1 : 0, EPERM);
	if (other >= 0)
		close(other);
	close(fd);
}

TEST(mkfs_unused_disk)
{
	struct refusers r = bdev_refusers(false);

	EXPECT_REFUSED_BY(r, run("/usr/local/sbin/mke2fs -qF /dev/vdb >/dev/null"),
			  EPERM);
}

TEST(partition_unused_disk)
{
	struct refusers r = bdev_refusers(false);

	EXPECT_REFUSED_BY(r, run("echo 2048 | /usr/local/sbin/sfdisk -q /dev/vdb >/dev/null"),
			  EPERM);
}

/* Passthrough numbers mean nothing to another device: never judged there. */
TEST(ioctl_numbers_elsewhere_allowed)
{
	static const unsigned long cmds[] = {
		SG_IO, NVME_IOCTL_IO_CMD, NVME_IOCTL_ADMIN_CMD, BLKDISCARD,
		LOOP_SET_STATUS64,
	};
	struct refusers r = REFUSERS("rawio", "blockdev_write",
				     "mounted_blockdev_write");
	unsigned char buf[128] = "";
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	size_t i;

	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		EXPECT_EQ(-1, ioctl(fd, cmds[i], buf));
		EXPECT_EQ(ENOTTY, errno) TH_LOG("%#lx", cmds[i]);
	}
	for (i = 0; i < MAX_REFUSERS && r.name[i]; i++)
		EXPECT_EQ(r.before[i], denials(r.name[i])) TH_LOG("%s", r.name[i]);
	close(fd);
}

/* Block devices. */

/* A loop device over a partition is another way to write it. */
static void check_loop_over(struct __test_metadata *const _metadata,
			    const char *dev, bool in_use)
{
	struct refusers r = bdev_refusers(in_use);
	char block[4096], now[4096];
	const off_t off = 16 << 20;
	int fd = open_bdev(dev, O_RDWR | O_CLOEXEC), loop;

	EXPECT_REFUSED_BY(r, opened(fd < 0 ? -1 : dup(fd)), EPERM);
	if (fd < 0)
		return;
	loop = open("/dev/loop2", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, loop);
	ASSERT_EQ(0, ioctl(loop, LOOP_SET_FD, fd));
	ASSERT_EQ(sizeof(block), pread(loop, block, sizeof(block), off));
	EXPECT_EQ(sizeof(block), pwrite(loop, block, sizeof(block), off));
	EXPECT_EQ(0, fsync(loop));
	EXPECT_EQ(sizeof(now), pread(fd, now, sizeof(now), off));
	EXPECT_EQ(0, memcmp(block, now, sizeof(now)));
	EXPECT_EQ(0, ioctl(loop, LOOP_CLR_FD, 0));
	close(loop);
	close(fd);
}

TEST(loop_over_mounted_partition)
{
	check_loop_over(_metadata, "/dev/vda1", true);
}

TEST(loop_over_unused_partition)
{
	check_loop_over(_metadata, "/dev/vda2", false);
}

/*
 * A shared writable mapping of a device opened while unused and mounted
 * later writes under the filesystem without write(2).
 */
TEST(blockdev_mmap_after_mount)
{
	const char *dir = MNT_DIR;
	struct refusers r;
	void *p;
	int fd = open_bdev("/dev/loop1", O_RDWR | O_CLOEXEC);

	if (refused("blockdev_write")) {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EPERM, errno);
		return;
	}
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	private_mounts(_metadata);
	ASSERT_EQ(0, mount("/dev/loop1", dir, "ext2", MS_NOSUID, NULL));
	r = bdev_refusers(true);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_REFUSED_BY(r, p == MAP_FAILED ? -1 : 0, EPERM);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	/* Nor may a read-only shared mapping be made writable. */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	r = bdev_refusers(true);
	EXPECT_REFUSED_BY(r, mprotect(p, 4096, PROT_READ | PROT_WRITE), EPERM);
	munmap(p, 4096);
	close(fd);
}

static off_t last_sector(int fd)
{
	off_t size = lseek(fd, 0, SEEK_END);

	return size < SECTOR ? -1 : size - SECTOR;
}

/* The disk's last sector, read past the page cache. */
static int read_sector(const char *dev, off_t off, unsigned char *buf)
{
	int fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = pread(fd, buf, SECTOR, off) == SECTOR ? 0 : -1;
	close(fd);
	return ret;
}

struct passthrough {
	unsigned char *old, *new, *now;
	off_t off;
};

/* Sector buffers aligned for O_DIRECT and a new pattern to write. */
static void passthrough_setup(struct __test_metadata *const _metadata,
			      struct passthrough *p, const char *disk)
{
	int fd = open(disk, O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, fd) TH_LOG("%s: %s", disk, strerror(errno));
	p->off = last_sector(fd);
	close(fd);
	ASSERT_LE(0, p->off);
	p->old = aligned_alloc(4096, 3 * 4096);
	ASSERT_NE(NULL, p->old);
	p->new = p->old + 4096;
	p->now = p->old + 2 * 4096;
	ASSERT_EQ(0, read_sector(disk, p->off, p->old));
	memset(p->new, p->old[0] + 1 + getpid() % 200, SECTOR);
}

/* Refused: the sector is as it was.  Allowed: it holds the new pattern. */
static void passthrough_check(struct __test_metadata *const _metadata,
			      struct passthrough *p, const char *disk,
			      bool wrote)
{
	ASSERT_EQ(0, read_sector(disk, p->off, p->now));
	EXPECT_EQ(0, memcmp(wrote ? p->new : p->old, p->now, SECTOR));
	free(p->old);
}

/* A SCSI WRITE(10) of the one sector at @off. */
static void write10_cdb(unsigned char cdb[10], off_t off)
{
	unsigned int lba = off / SECTOR;
	const unsigned char c[10] = {
		0x2a, 0, lba >> 24, lba >> 16, lba >> 8, lba, 0, 0, 1, 0,
	};

	memcpy(cdb, c, sizeof(c));
}

/* That command through @fd with the v3 interface (sg, disks). */
static int sg_write(int fd, off_t off, unsigned char *data)
{
	unsigned char cdb[10], sense[32];
	struct sg_io_hdr io = {
		.interface_id = 'S',
		.dxfer_direction = SG_DXFER_TO_DEV,
		.cmd_len = sizeof(cdb),
		.mx_sb_len = sizeof(sense),
		.dxfer_len = SECTOR,
		.dxferp = data,
		.cmdp = cdb,
		.sbp = sense,
		.timeout = 10000,
	};

	write10_cdb(cdb, off);
	if (ioctl(fd, SG_IO, &io))
		return -1;
	if (io.status || io.host_status || io.driver_status) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* The same through bsg, which speaks only the v4 interface. */
static int bsg_write(int fd, off_t off, unsigned char *data)
{
	unsigned char cdb[10], sense[32];
	struct sg_io_v4 io = {
		.guard = 'Q',
		.protocol = BSG_PROTOCOL_SCSI,
		.subprotocol = BSG_SUB_PROTOCOL_SCSI_CMD,
		.request_len = sizeof(cdb),
		.request = (unsigned long)cdb,
		.max_response_len = sizeof(sense),
		.response = (unsigned long)sense,
		.dout_xfer_len = SECTOR,
		.dout_xferp = (unsigned long)data,
		.timeout = 10000,
	};

	write10_cdb(cdb, off);
	if (ioctl(fd, SG_IO, &io))
		return -1;
	if (io.device_status || io.transport_status || io.driver_status) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static const char *first_in(const char *dir, char *buf, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return NULL;
	buf[0] = '\0';
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(buf, size, "%s/%s", dir, e->d_name);
			break;
		}
	closedir(d);
	return buf[0] ? buf : NULL;
}

/*
 * @node opened @flags sends the write.  Character devices hide which disk
 * they drive, so they count as in use; a read-only descriptor can send a
 * write command only with CAP_SYS_RAWIO, which `rawio` refuses first.
 */
static void check_sg_write(struct __test_metadata *const _metadata,
			   const char *node, int flags,
			   int (*send)(int fd, off_t off, unsigned char *data))
{
	struct passthrough p;
	struct refusers r;
	int fd, ret;

	passthrough_setup(_metadata, &p, SCSI_DISK);
	fd = open(node, flags | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", node, strerror(errno));
	if ((flags & O_ACCMODE) == O_RDONLY)
		r = REFUSERS("rawio", "blockdev_write",
			     "mounted_blockdev_write");
	else
		r = bdev_refusers(true);
	ret = send(fd, p.off, p.new);
	EXPECT_REFUSED_BY(r, ret, EPERM);
	close(fd);
	passthrough_check(_metadata, &p, SCSI_DISK, !ret);
}

TEST(sg_io_through_sg)
{
	check_sg_write(_metadata, "/dev/sg0", O_RDWR, sg_write);
}

TEST(sg_io_through_bsg)
{
	char node[280];

	ASSERT_NE(NULL, first_in("/dev/bsg", node, sizeof(node)));
	check_sg_write(_metadata, node, O_RDWR, bsg_write);
}

TEST(sg_io_through_read_only_disk)
{
	check_sg_write(_metadata, SCSI_DISK, O_RDONLY, sg_write);
}

/*
 * ATA commands through libata (HDIO_DRIVE_CMD, HDIO_DRIVE_TASK) can write
 * as SCSI ones can, and are judged the same way: here through the
 * mounted disk, open for writing since level 0.  It is not ATA: where
 * nothing refuses, its driver answers that it does not know them.
 */
static void check_ata_command(struct __test_metadata *const _metadata,
			      unsigned int cmd)
{
	struct refusers r = bdev_refusers(true);
	unsigned char args[4 + SECTOR] = { 0xec, 0, 0, 1 };	/* IDENTIFY */
	int fd = held_fd(HELD_DISK);
	int ret;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ret = ioctl(fd, cmd, args);
	if (ret && errno != EPERM) {
		EXPECT_TRUE(errno == EINVAL || errno == ENOTTY)
			TH_LOG("%s", strerror(errno));
		ret = 0;
	}
	EXPECT_REFUSED_BY(r, ret, EPERM);
	close(fd);
}

TEST(ata_drive_cmd)
{
	check_ata_command(_metadata, HDIO_DRIVE_CMD);
}

TEST(ata_drive_task)
{
	check_ata_command(_metadata, HDIO_DRIVE_TASK);
}

/* One NVMe Write of the sector at @off; needs only CAP_SYS_ADMIN. */
static int nvme_write(int fd, off_t off, unsigned char *data)
{
	int nsid = ioctl(fd, NVME_IOCTL_ID);
	unsigned long long lba = off / SECTOR;
	struct nvme_passthru_cmd cmd = {
		.opcode = 0x01,
		.addr = (unsigned long)data,
		.data_len = SECTOR,
		.cdw10 = lba,
		.cdw11 = lba >> 32,
	};
	int ret;

	if (nsid <= 0)
		return -1;
	cmd.nsid = nsid;
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &cmd);
	if (ret > 0) {
		errno = EIO;
		return -1;
	}
	return ret;
}

struct nvme_uring_write {
	int fd, nsid;
	off_t off;
	unsigned char *data;
};

static void fill_nvme_uring_write(struct io_uring_sqe *sqe, void *arg)
{
	struct nvme_uring_write *w = arg;
	struct nvme_uring_cmd *cmd = (struct nvme_uring_cmd *)sqe->cmd;
	unsigned long long lba = w->off / SECTOR;

	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = w->fd;
	sqe->cmd_op = NVME_URING_CMD_IO;
	cmd->opcode = 0x01;
	cmd->nsid = w->nsid;
	cmd->addr = (unsigned long)w->data;
	cmd->data_len = SECTOR;
	cmd->cdw10 = lba;
	cmd->cdw11 = lba >> 32;
}

/*
 * The same Write as an io_uring command, on a ring of one 128-byte SQE.
 * Returns 0, or -1 with errno (the command's result).
 */
static int nvme_uring_write(int fd, off_t off, unsigned char *data)
{
	struct nvme_uring_write w = { fd, ioctl(fd, NVME_IOCTL_ID), off, data };
	int ret;

	if (w.nsid <= 0)
		return -1;
	ret = uring_one(IORING_SETUP_SQE128 | IORING_SETUP_CQE32,
			fill_nvme_uring_write, &w);
	if (ret < 0)
		errno = -ret;
	else if (ret > 0)
		errno = EIO;
	return ret ? -1 : 0;
}

static void check_nvme_write(struct __test_metadata *const _metadata,
			     const char *node,
			     int (*send)(int fd, off_t off, unsigned char *data))
{
	struct refusers r = bdev_refusers(true);
	struct passthrough p;
	int fd, ret;

	passthrough_setup(_metadata, &p, NVME_DISK);
	fd = open(node, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", node, strerror(errno));
	ret = send(fd, p.off, p.new);
	EXPECT_REFUSED_BY(r, ret, EPERM);
	close(fd);
	passthrough_check(_metadata, &p, NVME_DISK, !ret);
}

TEST(nvme_passthrough_read_only_disk)
{
	check_nvme_write(_metadata, NVME_DISK, nvme_write);
}

TEST(nvme_passthrough_generic_char)
{
	check_nvme_write(_metadata, NVME_CHAR, nvme_write);
}

/* io_uring passthrough exists for the generic character device only. */
TEST(nvme_passthrough_io_uring)
{
	check_nvme_write(_metadata, NVME_CHAR, nvme_uring_write);
}

/*
 * Detaching a mount without umount(2): removing, in another mount
 * namespace, the directory or file it is mounted on there.  The child
 * takes a copy of the mount table first; the parent then mounts a tmpfs
 * (in the initial namespace, which the copy does not see) on a directory
 * or file the child removes or renames over.  Exits 0 if the child's
 * call worked, 1 if refused with EPERM, 2 on anything else.
 */
enum detach_way {
	DETACH_RMDIR, DETACH_UNLINK, DETACH_RENAME, DETACH_TOP, DETACH_MOVE,
};

/*
 * One directory per way: at level 2 the mount a test makes stays.  One
 * way removes a top-level directory of the root filesystem, as /sys is:
 * no different from the others unless the BPF backend's pins hang under
 * it (bpf_test's detach_pins_mountpoint).
 */
static const char *const detach_dir[] = {
	"/tmp/seclvl-detach-rmdir", "/tmp/seclvl-detach-unlink",
	"/tmp/seclvl-detach-rename", "", "/tmp/seclvl-detach-move",
};

static void detach_path(char *buf, size_t size, enum detach_way way,
			const char *name)
{
	if (way == DETACH_TOP)
		snprintf(buf, size, "/seclvl-detach-%s", name);
	else
		snprintf(buf, size, "%s/%s", detach_dir[way], name);
}

static int detach_child(enum detach_way way, int ready, int go)
{
	char target[64], other[64], c = 0;
	int ret;

	detach_path(target, sizeof(target), way,
		    way == DETACH_UNLINK ? "file" : "dir");
	detach_path(other, sizeof(other), way,
		    way == DETACH_MOVE ? "moved" : "other");
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		return 2;
	switch (way) {
	case DETACH_RMDIR:
	case DETACH_TOP:
		ret = rmdir(target);
		break;
	case DETACH_UNLINK:
		ret = unlink(target);
		break;
	case DETACH_MOVE:
		/* Renaming the mount point itself carries its mounts away. */
		ret = rename(target, other);
		break;
	default:
		ret = rename(other, target);
		break;
	}
	if (!ret)
		return 0;
	return errno == EPERM ? 1 : 2;
}

static void check_detach(struct __test_metadata *const _metadata,
			 enum detach_way way)
{
	long before = denials("umount");
	int ready[2], go[2], status, fd;
	char target[64], path[64];
	bool guarded;
	pid_t child;
	char c = 0;

	if (way != DETACH_TOP)
		ASSERT_EQ(0, mkdir(detach_dir[way], 0755));
	detach_path(path, sizeof(path), way, "other");
	ASSERT_EQ(0, mkdir(path, 0755));
	detach_path(target, sizeof(target), way, "dir");
	ASSERT_EQ(0, mkdir(target, 0755));
	if (way == DETACH_UNLINK) {
		detach_path(target, sizeof(target), way, "file");
		fd = open(target, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		ASSERT_LE(0, fd);
		close(fd);
	}
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(detach_child(way, ready[1], go[0]));
	ASSERT_EQ(1, read(ready[0], &c, 1));
	if (way == DETACH_UNLINK) {
		ASSERT_EQ(0, mount("/dev/null", target, NULL, MS_BIND, NULL));
	} else {
		ASSERT_EQ(0, mount("seclvl", target, "tmpfs", MS_NOSUID,
				   NULL));
	}
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	guarded = refused("umount");
	EXPECT_EQ(guarded ? 1 : 0, WEXITSTATUS(status));
	EXPECT_EQ(guarded, mounted_at(target));
	EXPECT_EQ(before + refused("umount"), denials("umount"));
}

TEST(detach_by_rmdir_elsewhere)
{
	check_detach(_metadata, DETACH_RMDIR);
}

TEST(detach_by_unlink_elsewhere)
{
	check_detach(_metadata, DETACH_UNLINK);
}

TEST(detach_by_rename_elsewhere)
{
	check_detach(_metadata, DETACH_RENAME);
}

TEST(detach_top_level_elsewhere)
{
	check_detach(_metadata, DETACH_TOP);
}

TEST(detach_by_renaming_it_elsewhere)
{
	check_detach(_metadata, DETACH_MOVE);
}

/*
 * Where umount does not apply, the BPF backend still refuses, uncounted,
 * moves it cannot see into from level 1 (bpf_test's move_pins_under_proc).
 */
static bool bpf_guards_moves(void)
{
	return !refused("umount") && bpf_backend() && current_level() > 0;
}

/*
 * Moving a mount of the initial namespace uncovers what it hid: with
 * mount(MS_MOVE) there, and back with move_mount(2).
 */
TEST(move_mount_initial_namespace)
{
	const char *from = "/tmp/seclvl-move-from", *to = "/tmp/seclvl-move-to";
	struct refusers r;

	ASSERT_EQ(0, mkdir(from, 0755));
	ASSERT_EQ(0, mkdir(to, 0755));
	ASSERT_EQ(0, mount("seclvl", from, "tmpfs", MS_NOSUID, NULL));
	if (bpf_guards_moves()) {
		/* move_mount(2) names what it moves; mount(2) does not. */
		long before = denials("umount");

		EXPECT_EQ(-1, mount(from, to, NULL, MS_MOVE, NULL));
		EXPECT_EQ(EPERM, errno);
		EXPECT_EQ(0, move_mount(AT_FDCWD, from, AT_FDCWD, to, 0))
			TH_LOG("%s", strerror(errno));
		EXPECT_EQ(0, move_mount(AT_FDCWD, to, AT_FDCWD, from, 0))
			TH_LOG("%s", strerror(errno));
		EXPECT_TRUE(mounted_at(from));
		EXPECT_EQ(before, denials("umount"));
		umount2(from, MNT_DETACH);
		return;
	}
	r = REFUSERS("umount");
	EXPECT_REFUSED_BY(r, mount(from, to, NULL, MS_MOVE, NULL), EPERM);
	EXPECT_EQ(refused("umount"), mounted_at(from));
	EXPECT_EQ(!refused("umount"), mounted_at(to));
	r = REFUSERS("umount");
	EXPECT_REFUSED_BY(r, move_mount(AT_FDCWD, refused("umount") ? from : to,
					AT_FDCWD, refused("umount") ? to : from,
					0), EPERM);
	EXPECT_TRUE(mounted_at(from));
	umount2(from, MNT_DETACH);
}

/* A mount made with fsmount(2) is attached, not moved: allowed. */
TEST(move_mount_new_mount_allowed)
{
	const char *dir = "/tmp/seclvl-move-new";
	int mnt = fsmount_fs("tmpfs", MOUNT_ATTR_NOSUID);

	ASSERT_LE(0, mnt) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, mkdir(dir, 0755));
	EXPECT_EQ(0, move_mount(mnt, "", AT_FDCWD, dir,
				MOVE_MOUNT_F_EMPTY_PATH)) TH_LOG("%s", strerror(errno));
	EXPECT_TRUE(mounted_at(dir));
	close(mnt);
	umount2(dir, MNT_DETACH);
}

/*
 * Below the level, the same pivot in a mount namespace of one's own: 0 if
 * it worked, 1 for EINVAL, 2 for EPERM, 3 on anything else.
 */
static int pivot_root_own_ns(const void *arg)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 3;
	if (!syscall(SYS_pivot_root, "/tmp", "/tmp"))
		return 0;
	return errno == EINVAL ? 1 : errno == EPERM ? 2 : 3;
}

/*
 * pivot_root(2) in the initial namespace swaps the root of every process:
 * where umount applies seclvl must refuse first, and so must the BPF
 * backend from level 1, as it would take its pins along (uncounted).
 * Below that the kernel decides, and the pivot is tried in a namespace of
 * its own: the guest's initramfs root cannot be pivoted on 6.12 (EINVAL),
 * but from 7.x it sits on nullfs and can, which in the initial namespace
 * would leave the rest of the run without its root.
 */
TEST(pivot_root_initial_namespace)
{
	struct refusers r = REFUSERS("umount");
	long before = denials("umount");
	int ret;

	if (bpf_guards_moves()) {
		EXPECT_EQ(-1, syscall(SYS_pivot_root, "/tmp", "/tmp"));
		EXPECT_EQ(EPERM, errno);
		EXPECT_EQ(before, denials("umount"));
	} else if (refused("umount")) {
		EXPECT_REFUSED_BY(r, syscall(SYS_pivot_root, "/tmp", "/tmp"),
				  EPERM);
	} else {
		ret = in_child(pivot_root_own_ns, NULL);
		EXPECT_TRUE(ret == 0 || ret == 1) TH_LOG("pivot_root: %d", ret);
		EXPECT_EQ(before, denials("umount"));
	}
}

/*
 * An idmapped mount of a filesystem without nosuid: a set-id file owned
 * by a mapped id runs as the id it is mapped to.  The user namespace maps
 * only root (what needs no CAP_SETUID).
 */
#define SUID_MNT PREP_DIR "/suid-mnt"

TEST(idmapped_mount_without_nosuid)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP };
	int ready[2], go[2], ns, tree, ret, err;
	struct refusers r;
	char path[64];
	pid_t child;
	char c = 0;

	if (bpf_gap(_metadata, "mount_setattr() calls no LSM hook on 6.12 (patch 3 adds one)"))
		return;
	ASSERT_TRUE(mounted_at(SUID_MNT)) TH_LOG("made at level 0");
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unshare(CLONE_NEWUSER) || write(ready[1], &c, 1) != 1)
			_exit(1);
		_exit(read(go[0], &c, 1) == 1 ? 0 : 1);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	snprintf(path, sizeof(path), "/proc/%d/uid_map", child);
	ASSERT_EQ(0, write_str(path, "0 0 1\n"));
	snprintf(path, sizeof(path), "/proc/%d/ns/user", child);
	ns = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, ns);
	attr.userns_fd = ns;
	tree = open_tree(AT_FDCWD, SUID_MNT, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	ASSERT_LE(0, tree) TH_LOG("%s", strerror(errno));
	/*
	 * Below the level, seclvl must not refuse; the test kernel itself
	 * refuses this idmapping with EINVAL (not understood yet).
	 */
	r = REFUSERS("suid_mount");
	ret = mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr));
	err = errno;
	if (refused("suid_mount") || !ret || err == EPERM) {
		errno = err;
		EXPECT_REFUSED_BY(r, ret, EPERM);
	} else {
		EXPECT_EQ(r.before[0], denials("suid_mount"));
	}
	close(tree);
	close(ns);
	ASSERT_EQ(1, write(go[1], &c, 1));
	waitpid(child, NULL, 0);
}

/* A second loop device over a bound file would unmark it when it goes. */
TEST(loop_second_bind)
{
	struct refusers r = bdev_refusers(true);
	int file = open(LOOP0_BACKING, O_RDONLY | O_CLOEXEC);
	int loop = open(SPARE_LOOP, O_RDONLY | O_CLOEXEC);
	int ret;

	ASSERT_LE(0, file);
	ASSERT_LE(0, loop);
	ret = ioctl(loop, LOOP_SET_FD, file);
	EXPECT_REFUSED_BY(r, ret, EPERM);
	if (!ret)
		EXPECT_EQ(0, ioctl(loop, LOOP_CLR_FD, 0));
	close(loop);
	close(file);
}

/*
 * ext4's move of extents gives the donor the original's old blocks: it
 * writes the donor, here a loop device's backing file held from level 0.
 * (ext4 itself refuses a set-id donor.)
 */
TEST(held_backing_move_extents)
{
	struct refusers r = bdev_refusers(true);
	char path[] = "/mnt/nvme/seclvl-orig-XXXXXX", now[5];
	struct move_extent me = { .len = 1 };
	int donor = held_fd(HELD_BACKING), orig;

	ASSERT_LE(0, donor) TH_LOG("%s", strerror(errno));
	orig = mkstemp(path);
	ASSERT_LE(0, orig) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(5, write(orig, "EVIL\n", 5));
	ASSERT_EQ(0, fsync(orig));
	me.donor_fd = donor;
	EXPECT_REFUSED_BY(r, ioctl(orig, EXT4_IOC_MOVE_EXT, &me), EPERM);
	/* The donor's cached page is left as it was: count what moved. */
	EXPECT_EQ(!first_refuser(&r), me.moved_len > 0);
	ASSERT_EQ(5, pread(donor, now, 5, 0));
	EXPECT_NE(0, memcmp(now, "EVIL\n", 5));
	unlink(path);
	close(orig);
	close(donor);
}

/*
 * ext4 swaps a file's blocks with its boot loader inode's: the file gets
 * other content with no write.  Done twice where allowed, which puts the
 * blocks back.
 */
TEST(held_backing_swap_boot)
{
	struct refusers r = bdev_refusers(true);
	int fd = held_fd(HELD_BACKING);
	char before[8], now[8];
	struct stat st;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, fstat(fd, &st));
	ASSERT_EQ(8, pread(fd, before, 8, 0));
	EXPECT_REFUSED_BY(r, ioctl(fd, EXT4_IOC_SWAP_BOOT), EPERM);
	if (!first_refuser(&r)) {
		EXPECT_NE(st.st_size, lseek(fd, 0, SEEK_END));
		EXPECT_EQ(0, ioctl(fd, EXT4_IOC_SWAP_BOOT));
	}
	EXPECT_EQ(st.st_size, lseek(fd, 0, SEEK_END));
	ASSERT_EQ(8, pread(fd, now, 8, 0));
	EXPECT_EQ(0, memcmp(before, now, 8));
	close(fd);
}

/*
 * XFS.  Its swap of extents takes both files from its argument and works
 * on a descriptor of any file or directory of the filesystem; it keeps
 * set-id bits.  (Its exchange of ranges checks both files as writes, as a
 * clone does; Debian 12's mkfs.xfs cannot make a filesystem that has it.)
 */
#define XFS_DIR "/mnt/xfs"
#define XFS_SUID XFS_DIR "/suid"
#define XFS_OTHER XFS_DIR "/other"

/* XFS's own ABI (fs/xfs/libxfs/xfs_fs.h), which no uapi header has. */
struct xfs_bstime {
	__kernel_long_t tv_sec;
	__s32 tv_nsec;
};

struct xfs_bstat {
	__u64 bs_ino;
	__u16 bs_mode, bs_nlink;
	__u32 bs_uid, bs_gid, bs_rdev;
	__s32 bs_blksize;
	__s64 bs_size;
	struct xfs_bstime bs_atime, bs_mtime, bs_ctime;
	__s64 bs_blocks;
	__u32 bs_xflags;
	__s32 bs_extsize, bs_extents;
	__u32 bs_gen;
	__u16 bs_projid_lo, bs_forkoff, bs_projid_hi, bs_sick, bs_checked;
	unsigned char bs_pad[2];
	__u32 bs_cowextsize, bs_dmevmask;
	__u16 bs_dmstate, bs_aextents;
};

struct xfs_swapext {
	__s64 sx_version, sx_fdtarget, sx_fdtmp, sx_offset, sx_length;
	char sx_pad[16];
	struct xfs_bstat sx_stat;
};

#define XFS_IOC_SWAPEXT _IOWR('X', 109, struct xfs_swapext)

/* Swap @target's extents with @tmp's through a descriptor of @via. */
static int xfs_swapext(int via, int target, int tmp)
{
	struct xfs_swapext sx = { .sx_fdtarget = target, .sx_fdtmp = tmp };
	struct stat st;

	if (fsync(target) || fsync(tmp) || fstat(target, &st))
		return -1;
	sx.sx_length = st.st_size;
	sx.sx_stat.bs_mtime.tv_sec = st.st_mtim.tv_sec;
	sx.sx_stat.bs_mtime.tv_nsec = st.st_mtim.tv_nsec;
	sx.sx_stat.bs_ctime.tv_sec = st.st_ctim.tv_sec;
	sx.sx_stat.bs_ctime.tv_nsec = st.st_ctim.tv_nsec;
	return ioctl(via, XFS_IOC_SWAPEXT, &sx);
}

/*
 * The set-uid file, held from level 0, as the target or as the other file,
 * with the call made on the filesystem's root directory.  Where allowed the
 * contents swap (and swap back); the bits stay either way.
 */
static void check_xfs_swapext(struct __test_metadata *const _metadata,
			      bool suid_is_target)
{
	struct refusers r = REFUSERS("setid_bits");
	int suid = held_fd(HELD_XFS_SETID);
	int other = open(XFS_OTHER, O_RDWR | O_CLOEXEC);
	int dir = open(XFS_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int target = suid_is_target ? suid : other;
	int tmp = suid_is_target ? other : suid;
	char now[8] = "";

	ASSERT_LE(0, suid) TH_LOG("%s", strerror(errno));
	ASSERT_LE(0, other) TH_LOG("%s", strerror(errno));
	ASSERT_LE(0, dir) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(5, pread(suid, now, 5, 0));
	ASSERT_STREQ("data\n", now);
	EXPECT_REFUSED_BY(r, xfs_swapext(dir, target, tmp), EPERM);
	ASSERT_EQ(5, pread(suid, now, 5, 0));
	EXPECT_STREQ(first_refuser(&r) ? "data\n" : "DATA\n", now);
	if (!first_refuser(&r))
		EXPECT_EQ(0, xfs_swapext(dir, target, tmp)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(04755, mode_of(XFS_SUID));
	close(dir);
	close(other);
	close(suid);
}

TEST(xfs_swapext_setid_target)
{
	check_xfs_swapext(_metadata, true);
}

TEST(xfs_swapext_setid_tmp)
{
	check_xfs_swapext(_metadata, false);
}

/*
 * binfmt_misc: an interpreter registered with flag C runs with the
 * credentials of the set-id file it is handed, so registering one changes
 * what set-id programs run.
 */
#define BINFMT_DIR "/proc/sys/fs/binfmt_misc"

TEST(binfmt_misc_register)
{
	struct refusers r = REFUSERS("setid_bits");

	if (access(BINFMT_DIR "/register", F_OK))
		SKIP(return, "no binfmt_misc here");
	EXPECT_REFUSED_BY(r, wrote(write_str(BINFMT_DIR "/register",
					     ":seclvltest:E::seclvltst::/bin/true:C\n")),
			  EPERM);
	EXPECT_EQ(!first_refuser(&r), !access(BINFMT_DIR "/seclvltest", F_OK));
	EXPECT_EQ(0, first_refuser(&r) ? 0 :
		  write_str(BINFMT_DIR "/seclvltest", "-1\n"));
}

/*
 * Switching an interpreter off, or removing it, adds nothing: every level
 * allows it (systemd-binfmt does both at shutdown).  The entry was
 * registered at level 0.
 */
TEST(binfmt_misc_disable_allowed)
{
	const char *entry = BINFMT_DIR "/seclvlprep";
	long before = denials("setid_bits");
	char buf[64] = "";

	if (access(BINFMT_DIR "/register", F_OK))
		SKIP(return, "no binfmt_misc here");
	ASSERT_EQ(0, access(entry, F_OK)) TH_LOG("registered at level 0");
	EXPECT_EQ(0, write_str(entry, "0\n")) TH_LOG("%s", strerror(errno));
	EXPECT_LT(0, read_file(entry, buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "disabled", 8)) TH_LOG("%s", buf);
	EXPECT_EQ(0, write_str(entry, "-1\n")) TH_LOG("%s", strerror(errno));
	EXPECT_NE(0, access(entry, F_OK));
	EXPECT_EQ(before, denials("setid_bits"));
}

/*
 * Set-id programs.  From level 1 root has no CAP_FSETID: the kernel drops
 * the bits of a set-id file whose content changes, and what would keep
 * them or make dormant ones effective is refused.
 */
#define WRITE_SUID PREP_DIR "/write-suid"
#define MMAP_SUID PREP_DIR "/mmap-suid"
#define DORMANT_SUID PREP_DIR "/dormant-suid"
#define ACL_SGID PREP_DIR "/acl-sgid"

/* Root keeps the bits (CAP_FSETID): new content would run set-uid. */
TEST(setid_write)
{
	struct refusers r = REFUSERS("setid_bits");
	int fd;

	ASSERT_EQ(04755, mode_of(WRITE_SUID)) TH_LOG("made at level 0");
	fd = open(WRITE_SUID, O_WRONLY | O_APPEND | O_CLOEXEC);
	EXPECT_REFUSED_BY(r, fd < 0 ? -1 : 0, EPERM);
	if (fd >= 0) {
		EXPECT_EQ(1, write(fd, "x", 1));
		close(fd);
	}
	r = REFUSERS("setid_bits");
	EXPECT_REFUSED_BY(r, truncate(WRITE_SUID, 5), EPERM);
	EXPECT_EQ(04755, mode_of(WRITE_SUID));
}

/* Through a descriptor opened at level 0, by every way of writing. */
TEST(held_setid)
{
	int fd = held_fd(HELD_SETID);

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	check_held_writes(_metadata, "setid_bits", fd, MMAP_SUID, "data\n",
			  "DATA\n", 5, 0);
	EXPECT_EQ(04755, mode_of(MMAP_SUID));
	close(fd);
}

/*
 * The host's root, having joined a user's namespace (it holds every
 * capability there), calls setresuid(0, 0, 0) there: it becomes the user
 * that namespace's root maps to.  That is a change of the host's user IDs
 * by root, as setuid() in the initial namespace is.
 */
static int setuid_in_ns(const void *ns_fd)
{
	if (setns(*(const int *)ns_fd, CLONE_NEWUSER))
		return 100;
	return setresuid(0, 0, 0) ? errno : 0;
}

static int setuid_in_ns_of(pid_t holder)
{
	char path[64];
	int fd, ret;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", holder);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = in_child(setuid_in_ns, &fd);
	close(fd);
	if (ret < 0 || ret == 100)
		return errno = EIO, -1;
	errno = ret;
	return ret ? -1 : 0;
}

TEST(setuid_through_user_ns)
{
	struct refusers r = REFUSERS("setuid");
	FILE *f = fopen(PREP_DIR "/userns.pid", "r");
	int holder = 0;

	if (f) {
		if (fscanf(f, "%d", &holder) != 1)
			holder = 0;
		fclose(f);
	}
	if (holder <= 0)
		SKIP(return, "no user namespace was prepared at level 0");
	EXPECT_REFUSED_BY(r, setuid_in_ns_of(holder), EPERM);
}

/* Stores through a shared mapping never drop set-id bits. */
TEST(setid_shared_mapping)
{
	struct refusers r = REFUSERS("setid_bits");
	int fd = held_fd(HELD_SETID);
	void *p;

	ASSERT_LE(0, fd);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_REFUSED_BY(r, p == MAP_FAILED ? -1 : 0, EPERM);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);
}

/* 04644: set-uid that exec ignores until an execute bit is added. */
TEST(setid_made_effective)
{
	struct refusers r = REFUSERS("setid_bits");

	ASSERT_EQ(04644, mode_of(DORMANT_SUID)) TH_LOG("made at level 0");
	EXPECT_REFUSED_BY(r, chmod(DORMANT_SUID, 04744), EPERM);
	EXPECT_EQ(refused("setid_bits") ? 04644 : 04744, mode_of(DORMANT_SUID));
}

/* An access ACL whose mask gives the group execute: 02644 -> 02674. */
TEST(setid_acl_mask)
{
	struct {
		__u32 version;
		struct { __u16 tag, perm; __u32 id; } e[4];
	} acl = {
		.version = 2,
		.e = {
			{ 0x01, 6, -1 },	/* ACL_USER_OBJ rw- */
			{ 0x04, 4, -1 },	/* ACL_GROUP_OBJ r-- */
			{ 0x10, 7, -1 },	/* ACL_MASK rwx */
			{ 0x20, 4, -1 },	/* ACL_OTHER r-- */
		},
	};
	struct refusers r = REFUSERS("setid_bits");

	ASSERT_EQ(02644, mode_of(ACL_SGID)) TH_LOG("made at level 0");
	EXPECT_REFUSED_BY(r, setxattr(ACL_SGID, "system.posix_acl_access", &acl,
				      sizeof(acl), 0), EPERM);
	EXPECT_EQ(refused("setid_bits") ? 02644 : 02674, mode_of(ACL_SGID));
}

/*
 * Network configuration by BPF.  In bpf(2) every CAP_NET_ADMIN check also
 * accepts CAP_SYS_ADMIN, and attaching checks nothing more: net_admin
 * judges an attach by where the program acts.  Each program here is two
 * instructions, "return @ret".
 */
static int bpf_sys(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int bpf_load_ret(__u32 type, __u32 attach, int ret)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = ret },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr = {
		.prog_type = type,
		.insns = (__u64)(unsigned long)insns,
		.insn_cnt = 2,
		.license = (__u64)(unsigned long)"GPL",
		.expected_attach_type = attach,
	};

	return bpf_sys(BPF_PROG_LOAD, &attr);
}

/*
 * A link of a program of @type returning @ret, attached at @attach to
 * @target (a device's index or a descriptor); with @nf a netfilter hook.
 * The link's descriptor, -1 with errno, or -2 if the program did not load.
 */
static int bpf_link(__u32 type, __u32 attach, int ret, __u32 target, bool nf)
{
	int prog = bpf_load_ret(type, attach, ret), link, err;
	union bpf_attr attr = {};

	if (prog < 0)
		return -2;
	attr.link_create.prog_fd = prog;
	attr.link_create.target_fd = target;
	attr.link_create.attach_type = attach;
	if (nf) {
		attr.link_create.netfilter.pf = NFPROTO_IPV4;
		attr.link_create.netfilter.hooknum = NF_INET_LOCAL_IN;
		attr.link_create.netfilter.priority = -128;
	}
	link = bpf_sys(BPF_LINK_CREATE, &attr);
	err = errno;
	close(prog);
	errno = err;
	return link;
}

/* A link's outcome: refused by net_admin where it applies, else made. */
static void check_bpf_link(struct __test_metadata *const _metadata,
			   int link, bool refuse, long before)
{
	ASSERT_NE(-2, link) TH_LOG("load: %s", strerror(errno));
	if (refuse) {
		EXPECT_EQ(-1, link);
		EXPECT_EQ(EPERM, errno);
		EXPECT_LE(before + 1, denials("net_admin"));
	} else {
		EXPECT_LE(0, link) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(before, denials("net_admin"));
	}
	if (link >= 0)
		close(link);
}

/* XDP on the host's loopback device: every packet it receives. */
TEST(bpf_xdp_host_device)
{
	long before = denials("net_admin");

	check_bpf_link(_metadata, bpf_link(BPF_PROG_TYPE_XDP, BPF_XDP, 2,
					   if_nametoindex("lo"), false),
		       refused("net_admin"), before);
}

/* tcx, by a link and by BPF_PROG_ATTACH; the device's own ingress. */
TEST(bpf_tcx_host_device)
{
	long before = denials("net_admin");
	union bpf_attr attr = {};
	int prog, ret;

	check_bpf_link(_metadata, bpf_link(BPF_PROG_TYPE_SCHED_CLS,
					   BPF_TCX_INGRESS, 0,
					   if_nametoindex("lo"), false),
		       refused("net_admin"), before);
	prog = bpf_load_ret(BPF_PROG_TYPE_SCHED_CLS, BPF_TCX_INGRESS, 0);
	ASSERT_LE(0, prog) TH_LOG("%s", strerror(errno));
	attr.target_ifindex = if_nametoindex("lo");
	attr.attach_bpf_fd = prog;
	attr.attach_type = BPF_TCX_INGRESS;
	before = denials("net_admin");
	ret = bpf_sys(BPF_PROG_ATTACH, &attr);
	EXPECT_OUTCOME("net_admin", ret, before);
	if (!ret)
		EXPECT_EQ(0, bpf_sys(BPF_PROG_DETACH, &attr));
	close(prog);
}

/* A netfilter hook of the host: a second firewall, which may drop. */
TEST(bpf_netfilter_host_hook)
{
	long before = denials("net_admin");

	if (kernel_before(6, 4))
		SKIP(return, "no netfilter BPF programs before 6.4");
	check_bpf_link(_metadata, bpf_link(BPF_PROG_TYPE_NETFILTER,
					   BPF_NETFILTER, 1, 0, true),
		       refused("net_admin"), before);
}

/* sk_lookup steers a namespace's incoming connections: named by a fd. */
TEST(bpf_sk_lookup_any_netns)
{
	long before = denials("net_admin");
	int ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, ns);
	check_bpf_link(_metadata, bpf_link(BPF_PROG_TYPE_SK_LOOKUP,
					   BPF_SK_LOOKUP, 1, ns, false),
		       refused("net_admin"), before);
	close(ns);
}

/* A network namespace of one's own is the caller's to configure. */
static int xdp_in_own_netns(const void *arg)
{
	int link;

	if (unshare(CLONE_NEWNET))
		return 2;
	link = bpf_link(BPF_PROG_TYPE_XDP, BPF_XDP, 2, if_nametoindex("lo"),
			false);
	return link >= 0 ? 0 : errno == EPERM ? 1 : 2;
}

TEST(bpf_xdp_own_netns_allowed)
{
	long before = denials("net_admin");

	EXPECT_EQ(0, in_child(xdp_in_own_netns, NULL));
	EXPECT_EQ(before, denials("net_admin"));
}

/*
 * cgroup programs act on the sockets of every process under the cgroup:
 * above a unit's (level 2, as systemd lays them out) that is the host's.
 * CGROUP_DIR is cgroup2, mounted here if the guest has not.
 */
#define CGROUP_DIR "/sys/fs/cgroup"
#define CGROUP_SLICE CGROUP_DIR "/seclvl.slice"
#define CGROUP_UNIT CGROUP_SLICE "/seclvl.service"

static void cgroup_tree(struct __test_metadata *const _metadata)
{
	struct statfs st;

	if (statfs(CGROUP_DIR, &st) || st.f_type != 0x63677270)
		ASSERT_EQ(0, mount("cgroup2", CGROUP_DIR, "cgroup2",
				   MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
			TH_LOG("%s", strerror(errno));
	ASSERT_TRUE(!mkdir(CGROUP_SLICE, 0755) || errno == EEXIST);
	ASSERT_TRUE(!mkdir(CGROUP_UNIT, 0755) || errno == EEXIST);
}

/* A cgroup_skb program attached to @dir, then detached: 0, or -1 with errno. */
static int cgroup_skb_attach(const char *dir, __u32 flags)
{
	int cg = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), prog, ret, err;
	union bpf_attr attr = {};

	prog = bpf_load_ret(BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS,
			    1);
	if (cg < 0 || prog < 0)
		return errno = EIO, -1;
	attr.target_fd = cg;
	attr.attach_bpf_fd = prog;
	attr.attach_type = BPF_CGROUP_INET_EGRESS;
	attr.attach_flags = flags;
	ret = bpf_sys(BPF_PROG_ATTACH, &attr);
	err = errno;
	/* Detached, or the next attach would meet it: a failed test. */
	attr.attach_flags = 0;
	if (!ret && bpf_sys(BPF_PROG_DETACH, &attr)) {
		perror("detach");
		abort();
	}
	close(prog);
	close(cg);
	errno = err;
	return ret;
}

TEST(bpf_cgroup_root_and_slice)
{
	long before;

	cgroup_tree(_metadata);
	before = denials("net_admin");
	EXPECT_OUTCOME("net_admin",
		       cgroup_skb_attach(CGROUP_DIR, BPF_F_ALLOW_MULTI), before);
	before = denials("net_admin");
	EXPECT_OUTCOME("net_admin",
		       cgroup_skb_attach(CGROUP_SLICE, BPF_F_ALLOW_MULTI),
		       before);
}

/* A unit's own cgroup, with BPF_F_ALLOW_MULTI as systemd attaches. */
TEST(bpf_cgroup_unit_allowed)
{
	long before;

	cgroup_tree(_metadata);
	before = denials("net_admin");
	EXPECT_EQ(0, cgroup_skb_attach(CGROUP_UNIT, BPF_F_ALLOW_MULTI))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(before, denials("net_admin"));
}

/* Alone on a unit's cgroup, it would make systemd's own attach fail. */
TEST(bpf_cgroup_unit_not_multi)
{
	long before;

	cgroup_tree(_metadata);
	before = denials("net_admin");
	EXPECT_OUTCOME("net_admin", cgroup_skb_attach(CGROUP_UNIT, 0), before);
}

/*
 * With a second thread sharing the descriptors, the one judged could be
 * swapped for the root cgroup's before the kernel looks it up.
 */
static void *idle_thread(void *arg)
{
	pause();
	return arg;
}

TEST(bpf_cgroup_shared_descriptors)
{
	pthread_t thread;
	long before;

	cgroup_tree(_metadata);
	ASSERT_EQ(0, pthread_create(&thread, NULL, idle_thread, NULL));
	before = denials("net_admin");
	EXPECT_OUTCOME("net_admin",
		       cgroup_skb_attach(CGROUP_UNIT, BPF_F_ALLOW_MULTI), before);
	pthread_cancel(thread);
	pthread_join(thread, NULL);
}

/*
 * freplace rewrites an attached program; fmod_ret on a security_*()
 * function refuses what it likes, sockets host-wide.  Refused before the
 * kernel reads the (here missing) target; the BPF backend refuses both
 * from level 1, uncounted, to protect itself.
 */
static void check_override_load(struct __test_metadata *const _metadata,
				__u32 type, __u32 attach)
{
	union bpf_attr attr = {
		.prog_type = type,
		.expected_attach_type = attach,
	};
	long before = denials("net_admin");
	int ret = bpf_sys(BPF_PROG_LOAD, &attr);

	EXPECT_EQ(-1, ret);
	if (refused("net_admin") || (bpf_backend() && current_level() > 0)) {
		EXPECT_EQ(EPERM, errno);
		EXPECT_EQ(before + (refused("net_admin") && !bpf_backend()),
			  denials("net_admin"));
	} else {
		EXPECT_NE(EPERM, errno);
		EXPECT_EQ(before, denials("net_admin"));
	}
	if (ret >= 0)
		close(ret);
}

TEST(bpf_freplace_and_fmod_ret)
{
	check_override_load(_metadata, BPF_PROG_TYPE_EXT, 0);
	check_override_load(_metadata, BPF_PROG_TYPE_TRACING,
			    BPF_MODIFY_RETURN);
}

/*
 * Programs with file capabilities (security.capability): as privileged as
 * set-id ones, and kept through what keeps set-id bits.  The kernel drops
 * them on write and truncate (file_remove_privs()), not on stores through
 * a shared mapping, nor when execute is added.  Made at level 0: cap_net_raw+ep,
 * modes 0755 and 0700.
 */
#define WRITE_FCAPS PREP_DIR "/write-fcaps"
#define MMAP_FCAPS PREP_DIR "/mmap-fcaps"
#define DORMANT_FCAPS PREP_DIR "/dormant-fcaps"
#define ACL_FCAPS PREP_DIR "/acl-fcaps"
#define ACL_NOEXEC_FCAPS PREP_DIR "/acl-noexec-fcaps"

static bool has_fcaps(const char *path)
{
	return getxattr(path, "security.capability", NULL, 0) > 0;
}

/*
 * Opened for writing: refused where setid_bits applies.  The BPF backend
 * cannot read security.capability; it leaves writes to the kernel, which
 * drops the capabilities.  Either way no new content keeps them.
 */
TEST(fcaps_write)
{
	struct refusers r = REFUSERS("setid_bits");
	bool refuse = refused("setid_bits") && !bpf_backend();
	int fd;

	ASSERT_TRUE(has_fcaps(WRITE_FCAPS)) TH_LOG("made at level 0");
	fd = open(WRITE_FCAPS, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (refuse) {
		EXPECT_REFUSED_BY(r, fd < 0 ? -1 : 0, EPERM);
	} else {
		ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(1, write(fd, "x", 1));
		close(fd);
	}
	EXPECT_EQ(refuse, has_fcaps(WRITE_FCAPS));
}

/* Stores through a shared mapping keep the capabilities. */
TEST(fcaps_shared_mapping)
{
	struct refusers r = REFUSERS("setid_bits");
	int fd = held_fd(HELD_FCAPS);
	char *p;

	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_REFUSED_BY(r, p == MAP_FAILED ? -1 : 0, EPERM);
	if (p != MAP_FAILED) {
		p[0] = 'D';
		EXPECT_EQ(0, msync(p, 4096, MS_SYNC));
		munmap(p, 4096);
	}
	/* The hole this closes: changed, and still privileged. */
	EXPECT_TRUE(has_fcaps(MMAP_FCAPS));
	close(fd);
}

/* 0700: only root may run it, until execute is added for others. */
TEST(fcaps_made_effective)
{
	struct refusers r = REFUSERS("setid_bits");

	ASSERT_EQ(0700, mode_of(DORMANT_FCAPS)) TH_LOG("made at level 0");
	EXPECT_REFUSED_BY(r, chmod(DORMANT_FCAPS, 0755), EPERM);
	EXPECT_EQ(refused("setid_bits") ? 0700 : 0755, mode_of(DORMANT_FCAPS));
	EXPECT_TRUE(has_fcaps(DORMANT_FCAPS));
}

/* An access ACL giving the group and others execute: 0700 -> 0755. */
TEST(fcaps_acl)
{
	struct {
		__u32 version;
		struct { __u16 tag, perm; __u32 id; } e[4];
	} acl = {
		.version = 2,
		.e = {
			{ 0x01, 7, -1 },	/* ACL_USER_OBJ rwx */
			{ 0x04, 5, -1 },	/* ACL_GROUP_OBJ r-x */
			{ 0x10, 5, -1 },	/* ACL_MASK r-x */
			{ 0x20, 5, -1 },	/* ACL_OTHER r-x */
		},
	};
	struct refusers r = REFUSERS("setid_bits");

	ASSERT_EQ(0700, mode_of(ACL_FCAPS)) TH_LOG("made at level 0");
	EXPECT_REFUSED_BY(r, setxattr(ACL_FCAPS, "system.posix_acl_access",
				      &acl, sizeof(acl), 0), EPERM);
	EXPECT_EQ(refused("setid_bits") ? 0700 : 0755, mode_of(ACL_FCAPS));
}

/*
 * An access ACL that grants nobody execute leaves the capabilities to
 * root, who alone may run the file: allowed at every level.
 */
TEST(fcaps_acl_no_exec_allowed)
{
	struct {
		__u32 version;
		struct { __u16 tag, perm; __u32 id; } e[4];
	} acl = {
		.version = 2,
		.e = {
			{ 0x01, 6, -1 },	/* ACL_USER_OBJ rw- */
			{ 0x04, 4, -1 },	/* ACL_GROUP_OBJ r-- */
			{ 0x10, 4, -1 },	/* ACL_MASK r-- */
			{ 0x20, 0, -1 },	/* ACL_OTHER --- */
		},
	};

	ASSERT_TRUE(has_fcaps(ACL_NOEXEC_FCAPS)) TH_LOG("made at level 0");
	EXPECT_EQ(0, setxattr(ACL_NOEXEC_FCAPS, "system.posix_acl_access",
			      &acl, sizeof(acl), 0)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0640, mode_of(ACL_NOEXEC_FCAPS));
	EXPECT_TRUE(has_fcaps(ACL_NOEXEC_FCAPS));
}

/*
 * A program without capabilities is any file: made executable, mapped
 * shared and writable, given an ACL without execute (as journald gives
 * its files) at every level, on both backends.
 */
TEST(fcaps_none_allowed)
{
	const char *path = PREP_DIR "/no-fcaps";
	const char *fresh = PREP_DIR "/no-fcaps-fresh";
	struct {
		__u32 version;
		struct { __u16 tag, perm; __u32 id; } e[4];
	} acl = {
		.version = 2,
		.e = {
			{ 0x01, 6, -1 },	/* ACL_USER_OBJ rw- */
			{ 0x04, 4, -1 },	/* ACL_GROUP_OBJ r-- */
			{ 0x10, 4, -1 },	/* ACL_MASK r-- */
			{ 0x20, 0, -1 },	/* ACL_OTHER --- */
		},
	};
	long before = denials("setid_bits");
	void *p;
	int fd;

	make_file(_metadata, path, 0700);
	EXPECT_EQ(0, chmod(path, 0755)) TH_LOG("%s", strerror(errno));
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_NE(MAP_FAILED, p) TH_LOG("%s", strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);
	/* Never written: the VFS has not yet found it without privilege. */
	unlink(fresh);
	fd = open(fresh, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	ASSERT_LE(0, fd);
	close(fd);
	EXPECT_EQ(0, setxattr(fresh, "system.posix_acl_access", &acl,
			      sizeof(acl), 0)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(before, denials("setid_bits"));
	unlink(path);
	unlink(fresh);
}

/*
 * An unmount propagates to the peers of the unmounted mount's parent, in
 * whatever namespace they are (fs/pnode.c).  A mount namespace made by
 * unshare(CLONE_NEWNS) alone keeps the initial namespace's shared mounts
 * as peers, so its unmounts reach the host's mounts: they are judged by
 * what they detach in the initial namespace.  PROP_DIR is a shared tmpfs
 * of the initial namespace, as systemd makes every mount.
 */
#define PROP_DIR "/tmp/seclvl-prop"

struct peer_umount {
	const char *path;
	int flags;
};

/*
 * Unmount in a namespace of one's own that still shares the initial one's
 * peers: 0 if done, 1 if refused with EPERM, 2 on anything else.
 */
static int umount_in_peer_ns(const void *arg)
{
	const struct peer_umount *u = arg;

	if (unshare(CLONE_NEWNS))
		return 2;
	if (umount2(u->path, u->flags))
		return errno == EPERM ? 1 : 2;
	return 0;
}

/* PROP_DIR, shared, with @sub made under it; @sub's full path in @path. */
static void prop_dir(struct __test_metadata *const _metadata,
		     const char *sub, char *path, size_t size)
{
	if (!mounted_at(PROP_DIR)) {
		ASSERT_EQ(0, mkdir(PROP_DIR, 0755));
		ASSERT_EQ(0, mount("seclvl", PROP_DIR, "tmpfs", MS_NOSUID,
				   NULL));
		ASSERT_EQ(0, mount(NULL, PROP_DIR, NULL, MS_SHARED, NULL));
	}
	snprintf(path, size, PROP_DIR "/%s", sub);
	ASSERT_EQ(0, mkdir(path, 0755));
}

/* @path unmounted in a peer namespace: refused where @guarded. */
static void check_peer_umount(struct __test_metadata *const _metadata,
			      const char *path, int flags, bool guarded)
{
	struct peer_umount u = { path, flags };
	long before = denials("umount");

	EXPECT_EQ(guarded ? 1 : 0, in_child(umount_in_peer_ns, &u));
	/* Below the level the host's copy goes too: the test can fail. */
	EXPECT_EQ(guarded, mounted_at(path));
	/* The BPF backend's self-protection refuses uncounted. */
	EXPECT_EQ(before + (guarded && refused("umount")), denials("umount"));
}

/* A disk's filesystem (a bind of it) under a shared mount of the host. */
TEST(umount_propagated_disk)
{
	char path[64];

	prop_dir(_metadata, "disk", path, sizeof(path));
	ASSERT_EQ(0, mount(DISK_DIR, path, NULL, MS_BIND, NULL));
	check_peer_umount(_metadata, path, 0, refused("umount"));
	if (refused("umount"))
		check_peer_umount(_metadata, path, MNT_DETACH, true);
}

/* A memory filesystem may go, from the host and so from a peer. */
TEST(umount_propagated_memory_fs_allowed)
{
	char path[64];

	prop_dir(_metadata, "mem", path, sizeof(path));
	ASSERT_EQ(0, mount("seclvl", path, "tmpfs", MS_NOSUID, NULL));
	check_peer_umount(_metadata, path, 0, false);
}

/*
 * A lazy unmount of a tree: each mount of it propagates by its own
 * parent, so the host loses the tree though only its top was named.
 */
TEST(umount_propagated_lazy_tree)
{
	char path[64], sub[80];

	prop_dir(_metadata, "tree", path, sizeof(path));
	ASSERT_EQ(0, mount("seclvl", path, "tmpfs", MS_NOSUID, NULL));
	snprintf(sub, sizeof(sub), "%s/sub", path);
	ASSERT_EQ(0, mkdir(sub, 0755));
	ASSERT_EQ(0, mount("seclvl", sub, "tmpfs", MS_NOSUID, NULL));
	check_peer_umount(_metadata, path, MNT_DETACH,
			  refused("umount") ||
			  (bpf_backend() && current_level() > 0));
	EXPECT_EQ(mounted_at(path), mounted_at(sub));
}

/*
 * In a child, as a container runtime does: pivot_root into a new root, then
 * detach the old one.  Exits 0 if detached, 1 if refused with EPERM (and the
 * old root still mounted), 2 on anything else.
 */
static int pivot_and_detach(const void *arg)
{
	struct stat root, old;
	int ret, err;

	/* The initramfs root cannot be pivoted: move a tmpfs onto it first. */
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    (mkdir(MNT_DIR, 0755) && errno != EEXIST) ||
	    mount("seclvl", MNT_DIR, "tmpfs", MS_NOSUID, NULL) ||
	    chdir(MNT_DIR) || mount(MNT_DIR, "/", NULL, MS_MOVE, NULL) ||
	    chroot(".") || mkdir("/new", 0755) ||
	    mount("seclvl", "/new", "tmpfs", MS_NOSUID, NULL) ||
	    mkdir("/new/old", 0755) ||
	    syscall(SYS_pivot_root, "/new", "/new/old") || chdir("/"))
		return 2;
	ret = umount2("/old", MNT_DETACH);
	err = errno;
	if (stat("/", &root) || stat("/old", &old))
		return 2;
	if (!ret)
		return old.st_dev == root.st_dev ? 0 : 2;
	return err == EPERM && old.st_dev != root.st_dev ? 1 : 2;
}

/*
 * A container's runtime pivots its own namespace's root and detaches the
 * old one: its own copies, which every level allows.
 */
TEST(umount_after_pivot_root)
{
	long before = denials("umount");

	EXPECT_EQ(0, in_child(pivot_and_detach, NULL));
	EXPECT_EQ(before, denials("umount"));
}

TEST_HARNESS_MAIN
