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
 * restrictions_test; Documentation/admin-guide/LSM/seclvl.rst lists both.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "common.h"

#include <dirent.h>
#include <linux/bsg.h>
#include <linux/io_uring.h>
#include <linux/kexec.h>
#include <linux/loop.h>
#include <linux/nvme_ioctl.h>
#include <sched.h>
#include <scsi/sg.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/statvfs.h>
#include <sys/uio.h>

#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif

#define KERNEL_IMAGE DISK_DIR "/bzImage"
#define KEXEC_LOADED "/sys/kernel/kexec_loaded"
#define MNT_DIR "/tmp/seclvl-bypass"
/* Disks whose last sector lies beyond the filesystem mounted on them. */
#define SCSI_DISK "/dev/sda"
#define NVME_DISK "/dev/nvme0n1"
#define NVME_CHAR "/dev/ng0n1"
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
	EXPECT_REFUSED_BY(r, opened(open("/dev/snapshot", O_WRONLY | O_CLOEXEC)),
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

TEST(suid_mount_new)
{
	long before;

	private_mounts(_metadata);
	before = denials("suid_mount");
	EXPECT_OUTCOME("suid_mount", mount("seclvl", MNT_DIR, "tmpfs", 0, NULL),
		       before);
	EXPECT_EQ(!refused("suid_mount"), mounted_at(MNT_DIR));
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

TEST_F(nosuid_mount, remount_keeping_nosuid_allowed)
{
	long before = denials("suid_mount");

	EXPECT_EQ(0, mount(NULL, MNT_DIR, NULL, MS_REMOUNT | MS_NOSUID |
			   MS_RDONLY, NULL));
	EXPECT_TRUE(nosuid_at(MNT_DIR));
	EXPECT_EQ(before, denials("suid_mount"));
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

static int fsmount_tmpfs(unsigned int attr)
{
	int fs = fsopen("tmpfs", FSOPEN_CLOEXEC), mnt, err;

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
	mnt = fsmount_tmpfs(0);
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
	mnt = fsmount_tmpfs(MOUNT_ATTR_NOSUID);
	ASSERT_LE(0, mnt) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, move_mount(mnt, "", AT_FDCWD, MNT_DIR,
				MOVE_MOUNT_F_EMPTY_PATH));
	EXPECT_TRUE(nosuid_at(MNT_DIR));
	EXPECT_EQ(before, denials("suid_mount"));
	close(mnt);
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

/* Init's environment strings, written back as they are. */
TEST(ptrace_init_process_vm_writev)
{
	char env[64], now[64], stat[2048], *p;
	unsigned long env_start = 0;
	struct iovec local, remote;
	long before;
	ssize_t len;
	int i;

	len = read_file("/proc/1/environ", env, sizeof(env));
	ASSERT_LT(0, len);
	ASSERT_LT(0, read_file("/proc/1/stat", stat, sizeof(stat)));
	/* Field 50 is env_start; comm, field 2, ends at the last ')'. */
	p = strrchr(stat, ')');
	ASSERT_NE(NULL, p);
	for (i = 2; p && i < 50; i++)
		p = strchr(p + 1, ' ');
	ASSERT_NE(NULL, p);
	env_start = strtoul(p + 1, NULL, 10);
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

/* Block devices. */

/* A loop device over a partition is another way to write it. */
static void check_loop_over(struct __test_metadata *const _metadata,
			    const char *dev, bool in_use)
{
	struct refusers r = bdev_refusers(in_use);
	char block[4096], now[4096];
	const off_t off = 16 << 20;
	int fd = open(dev, O_RDWR | O_CLOEXEC), loop;

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
	int fd = open("/dev/loop1", O_RDWR | O_CLOEXEC);

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

/*
 * The same Write as an io_uring command, on a ring of one 128-byte SQE.
 * Returns 0, or -1 with errno (the command's result).
 */
static int nvme_uring_write(int fd, off_t off, unsigned char *data)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32,
	};
	int nsid = ioctl(fd, NVME_IOCTL_ID);
	unsigned long long lba = off / SECTOR;
	size_t sq_len, cq_len, sqe_len;
	struct nvme_uring_cmd *cmd;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char *sq, *cq;
	int ring, ret = -1;

	ring = syscall(__NR_io_uring_setup, 1, &p);
	if (ring < 0 || nsid <= 0)
		return -1;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(__u32);
	cq_len = p.cq_off.cqes + p.cq_entries * 2 * sizeof(*cqe);
	sqe_len = p.sq_entries * 2 * sizeof(*sqe);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring,
		  IORING_OFF_CQ_RING);
	sqe = mmap(NULL, sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring,
		   IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqe == MAP_FAILED)
		goto out;

	memset(sqe, 0, 2 * sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = NVME_URING_CMD_IO;
	cmd = (struct nvme_uring_cmd *)sqe->cmd;
	cmd->opcode = 0x01;
	cmd->nsid = nsid;
	cmd->addr = (unsigned long)data;
	cmd->data_len = SECTOR;
	cmd->cdw10 = lba;
	cmd->cdw11 = lba >> 32;
	((__u32 *)(sq + p.sq_off.array))[0] = 0;
	__atomic_store_n((__u32 *)(sq + p.sq_off.tail), 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) != 1)
		goto out;
	cqe = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	if (cqe->res < 0)
		errno = -cqe->res;
	else if (cqe->res > 0)
		errno = EIO;
	else
		ret = 0;
out:
	close(ring);
	return ret;
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
 * In a child, as a container runtime does: pivot_root into a new root, then
 * detach the old one.  Exits 0 if detached, 1 if refused with EPERM (and the
 * old root still mounted), 2 on anything else.
 */
static int pivot_and_detach(void)
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

/* Unmounting: pivot_root is allowed, detaching the old root after it is not. */
TEST(umount_after_pivot_root)
{
	long before = denials("umount");
	int status;
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0)
		_exit(pivot_and_detach());
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(refused("umount") ? 1 : 0, WEXITSTATUS(status));
	EXPECT_LE(before + refused("umount"), denials("umount"));
	if (!refused("umount"))
		EXPECT_EQ(before, denials("umount"));
}

TEST_HARNESS_MAIN
