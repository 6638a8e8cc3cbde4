// SPDX-License-Identifier: GPL-2.0-only
/*
 * seclvl selftests: every restriction, tried at the level the guest is at
 *
 * Each test makes one attempt and checks it against the policy the kernel
 * reports: where the restriction applies the call fails with EPERM, one more
 * denial is counted and the state is as it was; elsewhere the call works
 * and nothing is counted.  The guest runs this at levels -1, 0, 1 and 2 and
 * under a changed policy.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#include "common.h"

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/xattr.h>
#include <time.h>

/* From linux/fs.h, which clashes with glibc's sys/mount.h. */
#ifndef FS_IOC_GETFLAGS
#define FS_IOC_GETFLAGS _IOR('f', 1, long)
#define FS_IOC_SETFLAGS _IOW('f', 2, long)
#endif
#ifndef FS_IMMUTABLE_FL
#define FS_IMMUTABLE_FL 0x00000010
#define FS_APPEND_FL 0x00000020
#endif
#ifndef FIBMAP
#define FIBMAP _IO(0x00, 1)
#endif

#define MOD_DIR "/lib/seclvl"

/* The modules to load and to unload, MOD_DIR/NAME.ko. */
#define MOD_LOAD mod_name("SECLVL_MOD_LOAD", "seclvl_test_load")
#define MOD_UNLOAD mod_name("SECLVL_MOD_UNLOAD", "seclvl_test_unload")
/* A realtime clock well after any build date, for a guest with no RTC. */
#define SANE_TIME 1780000000

static int get_flags(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), flags = -1;

	if (fd < 0)
		return -1;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags))
		flags = -1;
	close(fd);
	return flags;
}

static int set_flags(const char *path, int flags)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret, err;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

/* Flags: set a flag on a new file, clear one set at level 0. */

FIXTURE(fsflag) {};

FIXTURE_VARIANT(fsflag) {
	int flag;
	const char *prepared;
};

FIXTURE_VARIANT_ADD(fsflag, immutable) {
	.flag = FS_IMMUTABLE_FL,
	.prepared = DISK_DIR "/immutable",
};

FIXTURE_VARIANT_ADD(fsflag, append) {
	.flag = FS_APPEND_FL,
	.prepared = DISK_DIR "/appendonly",
};

FIXTURE_SETUP(fsflag) {}
FIXTURE_TEARDOWN(fsflag) {}

TEST_F(fsflag, set)
{
	const char *path = DISK_DIR "/flag-target";
	long before = denials("immutable");
	int flags, ret;

	make_file(_metadata, path, 0644);
	flags = get_flags(path);
	ASSERT_LE(0, flags);
	ASSERT_EQ(0, flags & variant->flag);
	ret = set_flags(path, flags | variant->flag);
	EXPECT_OUTCOME("immutable", ret, before);
	if (refused("immutable")) {
		EXPECT_EQ(flags, get_flags(path));
	} else {
		EXPECT_EQ(variant->flag, get_flags(path) & variant->flag);
		ASSERT_EQ(0, set_flags(path, flags));
	}
	EXPECT_EQ(0, unlink(path));
}

TEST_F(fsflag, clear)
{
	long before = denials("immutable");
	int flags = get_flags(variant->prepared), ret;

	ASSERT_LE(0, flags) TH_LOG("%s not prepared", variant->prepared);
	ASSERT_EQ(variant->flag, flags & variant->flag);
	ret = set_flags(variant->prepared, flags & ~variant->flag);
	EXPECT_OUTCOME("immutable", ret, before);
	if (refused("immutable")) {
		EXPECT_EQ(flags, get_flags(variant->prepared));
		/* The flag still does its job. */
		EXPECT_EQ(-1, open(variant->prepared, O_WRONLY | O_TRUNC));
	} else {
		EXPECT_EQ(0, get_flags(variant->prepared) & variant->flag);
		/* Put it back for the next run. */
		ASSERT_EQ(0, set_flags(variant->prepared, flags));
	}
}

/* Raw I/O. */

/*
 * The kernel asks for CAP_SYS_RAWIO and then its lockdown check, so with
 * `rawio` off `lockdown_integrity` still refuses these.
 */
TEST(rawio_iopl)
{
	struct refusers r = REFUSERS("rawio", "lockdown_integrity");
	int ret = iopl(3);

	EXPECT_REFUSED_BY(r, ret, EPERM);
	if (!ret)
		EXPECT_EQ(0, iopl(0));
}

TEST(rawio_ioperm)
{
	struct refusers r = REFUSERS("rawio", "lockdown_integrity");
	int ret = ioperm(0x80, 1, 1);

	EXPECT_REFUSED_BY(r, ret, EPERM);
	if (!ret)
		EXPECT_EQ(0, ioperm(0x80, 1, 0));
}

TEST(rawio_dev_port_read)
{
	struct refusers r = REFUSERS("rawio", "lockdown_integrity");

	EXPECT_REFUSED_BY(r, opened(open("/dev/port", O_RDONLY)), EPERM);
}

TEST(rawio_dev_mem_read)
{
	struct refusers r = REFUSERS("rawio", "lockdown_integrity");

	EXPECT_REFUSED_BY(r, opened(open("/dev/mem", O_RDONLY)), EPERM);
}

TEST(rawio_fibmap)
{
	const char *path = DISK_DIR "/fibmap-target";
	char block[4096] = { 1 };
	long before;
	int fd, blk = 0, ret;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(block), write(fd, block, sizeof(block)));
	ASSERT_EQ(0, fsync(fd));
	before = denials("rawio");
	ret = ioctl(fd, FIBMAP, &blk);
	EXPECT_OUTCOME("rawio", ret, before);
	if (!ret)
		EXPECT_LT(0, blk);
	close(fd);
	unlink(path);
}

/* Network administration. */

static int lo_mtu(int sock, int set)
{
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (set > 0) {
		ifr.ifr_mtu = set;
		return ioctl(sock, SIOCSIFMTU, &ifr);
	}
	if (ioctl(sock, SIOCGIFMTU, &ifr))
		return -1;
	return ifr.ifr_mtu;
}

TEST(net_admin_mtu)
{
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	long before;
	int mtu, ret;

	ASSERT_LE(0, sock);
	mtu = lo_mtu(sock, 0);
	ASSERT_LT(1000, mtu);
	before = denials("net_admin");
	ret = lo_mtu(sock, mtu - 1);
	EXPECT_OUTCOME("net_admin", ret, before);
	if (refused("net_admin")) {
		EXPECT_EQ(mtu, lo_mtu(sock, 0));
	} else {
		EXPECT_EQ(mtu - 1, lo_mtu(sock, 0));
		EXPECT_EQ(0, lo_mtu(sock, mtu));
	}
	close(sock);
}

/* A netlink socket of @proto bound to @groups; its port id in @portid. */
static int netlink_socket(int proto, __u32 groups, __u32 *portid)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = groups };
	socklen_t len = sizeof(addr);
	struct timeval tv = { .tv_sec = 2 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(fd, (struct sockaddr *)&addr, &len) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		close(fd);
		return -1;
	}
	if (portid)
		*portid = addr.nl_pid;
	return fd;
}

static ssize_t netlink_send(int fd, __u32 pid, __u32 groups, const void *buf,
			    size_t len, const void *control, size_t clen)
{
	struct sockaddr_nl to = {
		.nl_family = AF_NETLINK, .nl_pid = pid, .nl_groups = groups,
	};
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = {
		.msg_name = &to, .msg_namelen = sizeof(to),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = (void *)control, .msg_controllen = clen,
	};

	return sendmsg(fd, &msg, 0);
}

/*
 * udev tells libudev listeners of a device by sending to uevent group 2,
 * and processes talk to each other's netlink sockets: netlink wants
 * CAP_NET_ADMIN for both, but no network configuration changes.  Allowed
 * at every level, to a group and to a process.
 */
TEST(net_admin_netlink_to_processes)
{
	static const char event[] = "add@/devices/seclvl\0ACTION=add";
	long before = denials("net_admin");
	__u32 listener_pid;
	int listener = netlink_socket(NETLINK_KOBJECT_UEVENT, 1 << 1,
				      &listener_pid);
	int sender = netlink_socket(NETLINK_KOBJECT_UEVENT, 0, NULL);
	char buf[128];

	ASSERT_LE(0, listener);
	ASSERT_LE(0, sender);
	EXPECT_EQ(sizeof(event), netlink_send(sender, 0, 1 << 1, event,
					      sizeof(event), NULL, 0))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(sizeof(event), recv(listener, buf, sizeof(buf), 0));
	EXPECT_EQ(sizeof(event), netlink_send(sender, listener_pid, 0, event,
					      sizeof(event), NULL, 0))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(sizeof(event), recv(listener, buf, sizeof(buf), 0));
	EXPECT_EQ(before, denials("net_admin"));
	close(sender);
	close(listener);
}

/*
 * A message to a group and to the kernel at once: the group may have it,
 * the kernel's handler still asks for CAP_NET_ADMIN and is refused.  The
 * address is invalid (no interface 0), so nothing changes at level 0.
 */
TEST(net_admin_netlink_group_and_kernel)
{
	struct {
		struct nlmsghdr nh;
		struct ifaddrmsg ifa;
	} req = {
		.nh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = RTM_NEWADDR,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE,
		},
		.ifa = { .ifa_family = AF_INET, .ifa_index = 0 },
	};
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
		char rest[256];
	} ack;
	long before = denials("net_admin");
	int fd = netlink_socket(NETLINK_ROUTE, 0, NULL);

	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(req), netlink_send(fd, 0, RTMGRP_IPV4_IFADDR, &req,
					    sizeof(req), NULL, 0))
		TH_LOG("%s", strerror(errno));
	ASSERT_LT(0, recv(fd, &ack, sizeof(ack), 0));
	ASSERT_EQ(NLMSG_ERROR, ack.nh.nlmsg_type);
	if (refused("net_admin")) {
		EXPECT_EQ(-EPERM, ack.err.error);
		EXPECT_LE(before + 1, denials("net_admin"));
	} else {
		EXPECT_NE(0, ack.err.error);
		EXPECT_NE(-EPERM, ack.err.error);
		EXPECT_EQ(before, denials("net_admin"));
	}
	close(fd);
}

/*
 * A send to a group that fails before netlink's capability check (a bad
 * control message) must not leave the allowance to the next system call.
 */
TEST(net_admin_netlink_failed_send)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} bad = { .hdr = {
		.cmsg_len = CMSG_LEN(sizeof(int)),
		.cmsg_level = SOL_SOCKET,
		.cmsg_type = 0x7fff,
	} };
	int fd = netlink_socket(NETLINK_KOBJECT_UEVENT, 0, NULL);
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int mtu;
	long before;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, sock);
	mtu = lo_mtu(sock, 0);
	ASSERT_LT(1000, mtu);
	EXPECT_EQ(-1, netlink_send(fd, 0, 1 << 1, "x", 1, &bad, sizeof(bad)));
	EXPECT_EQ(EINVAL, errno);
	before = denials("net_admin");
	EXPECT_OUTCOME("net_admin", lo_mtu(sock, mtu), before);
	close(sock);
	close(fd);
}

/*
 * Forcing a socket's buffer past net.core.rmem_max sizes the caller's own
 * socket: udevd and journald do it, and nothing is refused or counted.
 */
TEST(net_admin_buffer_force_allowed)
{
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int size = 8 << 20, got;
	socklen_t len = sizeof(got);
	long before = denials("net_admin");

	ASSERT_LE(0, sock);
	EXPECT_EQ(0, setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE, &size,
				sizeof(size)));
	EXPECT_EQ(0, setsockopt(sock, SOL_SOCKET, SO_SNDBUFFORCE, &size,
				sizeof(size)));
	EXPECT_EQ(0, getsockopt(sock, SOL_SOCKET, SO_RCVBUF, &got, &len));
	EXPECT_EQ(2 * size, got);
	EXPECT_EQ(before, denials("net_admin"));
	close(sock);
}

/* One that fails before its capability check leaves nothing to the next call. */
TEST(net_admin_buffer_force_failed)
{
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	char size = 1;
	long before;
	int mtu;

	ASSERT_LE(0, sock);
	mtu = lo_mtu(sock, 0);
	ASSERT_LT(1000, mtu);
	EXPECT_EQ(-1, setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE, &size,
				 sizeof(size)));
	EXPECT_EQ(EINVAL, errno);
	before = denials("net_admin");
	EXPECT_OUTCOME("net_admin", lo_mtu(sock, mtu), before);
	close(sock);
}

static int set_own_userns_mtu(const void *arg)
{
	int sock, mtu;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
		return 1;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	mtu = lo_mtu(sock, 0);
	if (mtu <= 1000 || lo_mtu(sock, mtu - 1) || lo_mtu(sock, 0) != mtu - 1)
		return 2;
	return 0;
}

/* A network namespace owned by a new user namespace is its own business. */
TEST(net_admin_own_userns_allowed)
{
	long before = denials("net_admin");

	EXPECT_EQ(0, in_child(set_own_userns_mtu, NULL));
	EXPECT_EQ(before, denials("net_admin"));
}

/* Changing user IDs. */

FIXTURE(setuid) {};

FIXTURE_VARIANT(setuid) {
	int call;
};

FIXTURE_VARIANT_ADD(setuid, setuid) { .call = 0 };
FIXTURE_VARIANT_ADD(setuid, setreuid) { .call = 1 };
FIXTURE_VARIANT_ADD(setuid, setresuid) { .call = 2 };

FIXTURE_SETUP(setuid)
{
	ASSERT_EQ(0, getuid());
}

FIXTURE_TEARDOWN(setuid) {}

TEST_F(setuid, drop_to_nobody)
{
	long before = denials("setuid");
	int ret;

	switch (variant->call) {
	case 0:
		ret = setuid(65534);
		break;
	case 1:
		ret = setreuid(65534, 65534);
		break;
	default:
		ret = setresuid(65534, 65534, 65534);
		break;
	}
	EXPECT_OUTCOME("setuid", ret, before);
	if (refused("setuid")) {
		EXPECT_EQ(0, getuid());
		EXPECT_EQ(0, geteuid());
	} else {
		EXPECT_EQ(65534, getuid());
		EXPECT_EQ(65534, geteuid());
	}
}

/* Modules. */

static int load_module(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), MOD_DIR "/%s.ko", name);
	return finit_module_path(path);
}

TEST(modules_finit_module)
{
	long before = denials("modules");
	int ret;

	ASSERT_FALSE(module_loaded(MOD_LOAD));
	ret = load_module(MOD_LOAD);
	ASSERT_NE(-2, ret);
	EXPECT_OUTCOME("modules", ret, before);
	EXPECT_EQ(!refused("modules"), module_loaded(MOD_LOAD));
	if (!ret)
		EXPECT_EQ(0, syscall(SYS_delete_module, MOD_LOAD, O_NONBLOCK));
}

TEST(modules_init_module)
{
	static char image[1 << 20];
	char path[128];
	long before;
	ssize_t len;
	int fd, ret;

	snprintf(path, sizeof(path), MOD_DIR "/%s.ko", MOD_LOAD);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	len = read(fd, image, sizeof(image));
	ASSERT_LT(0, len);
	close(fd);
	ASSERT_FALSE(module_loaded(MOD_LOAD));
	before = denials("modules");
	ret = syscall(SYS_init_module, image, len, "");
	EXPECT_OUTCOME("modules", ret, before);
	EXPECT_EQ(!refused("modules"), module_loaded(MOD_LOAD));
	if (!ret)
		EXPECT_EQ(0, syscall(SYS_delete_module, MOD_LOAD, O_NONBLOCK));
}

TEST(modules_delete_module)
{
	long before = denials("modules");
	int ret;

	ASSERT_TRUE(module_loaded(MOD_UNLOAD))
		TH_LOG("the scenario loads %s at level 0", MOD_UNLOAD);
	ret = syscall(SYS_delete_module, MOD_UNLOAD, O_NONBLOCK);
	EXPECT_OUTCOME("modules", ret, before);
	EXPECT_EQ(refused("modules"), module_loaded(MOD_UNLOAD));
	if (!ret)
		EXPECT_EQ(0, load_module(MOD_UNLOAD));
}

/*
 * A socket family that is not built in makes the kernel ask for a module;
 * with a list of module images the ask goes through (modules_test).
 */
TEST(modules_autoload)
{
	bool refuse = refused("modules") && !modules_listed();
	long before = denials("modules");
	int fd = socket(AF_APPLETALK, SOCK_DGRAM, 0);

	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EAFNOSUPPORT, errno);
	if (!refuse)
		EXPECT_EQ(before, denials("modules"));
	EXPECT_LE(before + refuse, denials("modules"));
}

/* Block devices. */

/*
 * Opening @dev for writing.  A device not in use must not count against
 * mounted_blockdev_write either way.
 */
static void check_bdev_open(struct __test_metadata *const _metadata,
			    const char *dev, bool in_use)
{
	struct refusers r = bdev_refusers(in_use);
	long before_any = denials("mounted_blockdev_write");

	EXPECT_REFUSED_BY(r, opened(open_bdev(dev, O_WRONLY | O_CLOEXEC)), EPERM);
	if (!in_use)
		EXPECT_EQ(before_any, denials("mounted_blockdev_write"));
}

TEST(blockdev_mounted_partition)
{
	check_bdev_open(_metadata, "/dev/vda1", true);
}

TEST(blockdev_disk_of_mounted_partition)
{
	check_bdev_open(_metadata, "/dev/vda", true);
}

TEST(blockdev_sibling_of_mounted_partition)
{
	check_bdev_open(_metadata, "/dev/vda2", false);
}

TEST(blockdev_read_allowed)
{
	char buf[512];
	int fd = open("/dev/vda1", O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	EXPECT_EQ(sizeof(buf), read(fd, buf, sizeof(buf)));
	close(fd);
}

/* An unused loop device: written at level 1, not at level 2. */
TEST(blockdev_write_unused)
{
	const char *backing = PREP_DIR "/loop0.img";
	char old[512], new[512], now[512];
	long before = denials("blockdev_write");
	int fd, bfd;

	bfd = open(backing, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, bfd);
	ASSERT_EQ(sizeof(old), pread(bfd, old, sizeof(old), 0));
	memset(new, old[0] + 1, sizeof(new));

	fd = open_bdev("/dev/loop0", O_WRONLY | O_CLOEXEC);
	if (refused("blockdev_write")) {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EPERM, errno);
		EXPECT_LE(before + 1, denials("blockdev_write"));
	} else {
		ASSERT_LE(0, fd);
		EXPECT_EQ(sizeof(new), pwrite(fd, new, sizeof(new), 0));
		EXPECT_EQ(0, fsync(fd));
		close(fd);
		EXPECT_EQ(before, denials("blockdev_write"));
	}
	ASSERT_EQ(sizeof(now), pread(bfd, now, sizeof(now), 0));
	EXPECT_EQ(0, memcmp(refused("blockdev_write") ? old : new, now,
			    sizeof(now)));
	close(bfd);
}

/* Opened while unused, then mounted: the next write is a write under it. */
TEST(blockdev_mounted_after_open)
{
	const char *dir = "/tmp/seclvl-loop1";
	char zero[512] = {}, now[512];
	long before;
	ssize_t ret;
	int fd, err;

	fd = open_bdev("/dev/loop1", O_RDWR | O_CLOEXEC);
	if (refused("blockdev_write")) {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EPERM, errno);
		return;
	}
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	mkdir(dir, 0755);
	ASSERT_EQ(0, mount("/dev/loop1", dir, "ext2", MS_NOSUID, NULL));

	before = denials("mounted_blockdev_write");
	ret = pwrite(fd, zero, sizeof(zero), 0);
	err = errno;
	if (refused("mounted_blockdev_write")) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EPERM, err);
		EXPECT_LE(before + 1, denials("mounted_blockdev_write"));
	} else {
		EXPECT_EQ(sizeof(zero), ret);
		EXPECT_EQ(before, denials("mounted_blockdev_write"));
		EXPECT_EQ(sizeof(now), pread(fd, now, sizeof(now), 0));
		EXPECT_EQ(0, memcmp(zero, now, sizeof(now)));
	}
	close(fd);
}

/* /dev/mem, /dev/kmem and /dev/port, by device number. */

/* seclvl's open hook, then the driver's capability and lockdown checks. */
#define DEVMEM_REFUSERS \
	REFUSERS("devmem_write", "rawio", "lockdown_integrity")

TEST(devmem_write_mem)
{
	struct refusers r = DEVMEM_REFUSERS;

	EXPECT_REFUSED_BY(r, opened(open("/dev/mem", O_WRONLY)), EPERM);
}

TEST(devmem_write_port)
{
	struct refusers r = DEVMEM_REFUSERS;

	EXPECT_REFUSED_BY(r, opened(open("/dev/port", O_RDWR)), EPERM);
}

TEST(devmem_write_node_elsewhere)
{
	const char *node = PREP_DIR "/mem-copy";
	struct refusers r;

	unlink(node);
	ASSERT_EQ(0, mknod(node, S_IFCHR | 0600, makedev(1, 1)));
	r = DEVMEM_REFUSERS;
	EXPECT_REFUSED_BY(r, opened(open(node, O_WRONLY)), EPERM);
	unlink(node);
}

/* 6.12 has no /dev/kmem driver: allowed opens fail with ENXIO. */
TEST(devmem_write_kmem)
{
	const char *node = PREP_DIR "/kmem";
	long before;
	int fd;

	unlink(node);
	ASSERT_EQ(0, mknod(node, S_IFCHR | 0600, makedev(1, 2)));
	before = denials("devmem_write");
	fd = open(node, O_WRONLY);
	EXPECT_EQ(-1, fd);
	if (refused("devmem_write")) {
		EXPECT_EQ(EPERM, errno);
		EXPECT_LE(before + 1, denials("devmem_write"));
	} else {
		EXPECT_EQ(ENXIO, errno);
		EXPECT_EQ(before, denials("devmem_write"));
	}
	unlink(node);
}

/* Set-id bits and file capabilities. */

FIXTURE(setid) {};

FIXTURE_VARIANT(setid) {
	const char *dir;
};

FIXTURE_VARIANT_ADD(setid, tmpfs) { .dir = PREP_DIR };
FIXTURE_VARIANT_ADD(setid, ext4) { .dir = DISK_DIR };

FIXTURE_SETUP(setid)
{
	umask(0);
}

FIXTURE_TEARDOWN(setid) {}

TEST_F(setid, chmod_add_suid)
{
	char path[128];
	long before;
	int ret;

	snprintf(path, sizeof(path), "%s/chmod-suid", variant->dir);
	make_file(_metadata, path, 0755);
	before = denials("setid_bits");
	ret = chmod(path, 04755);
	EXPECT_OUTCOME("setid_bits", ret, before);
	EXPECT_EQ(refused("setid_bits") ? 0755 : 04755, mode_of(path));
	unlink(path);
}

TEST_F(setid, fchmod_add_sgid)
{
	char path[128];
	long before;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/chmod-sgid", variant->dir);
	make_file(_metadata, path, 0755);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	before = denials("setid_bits");
	ret = fchmod(fd, 02755);
	EXPECT_OUTCOME("setid_bits", ret, before);
	EXPECT_EQ(refused("setid_bits") ? 0755 : 02755, mode_of(path));
	close(fd);
	unlink(path);
}

TEST_F(setid, create_with_suid)
{
	char path[128];
	long before;

	snprintf(path, sizeof(path), "%s/create-suid", variant->dir);
	unlink(path);
	before = denials("setid_bits");
	EXPECT_OUTCOME("setid_bits",
		       opened(open(path, O_WRONLY | O_CREAT | O_EXCL, 04755)),
		       before);
	EXPECT_EQ(refused("setid_bits") ? (mode_t)-1 : 04755, mode_of(path));
	unlink(path);
}

TEST_F(setid, mknod_with_sgid)
{
	char path[128];
	long before;
	int ret;

	snprintf(path, sizeof(path), "%s/mknod-sgid", variant->dir);
	unlink(path);
	before = denials("setid_bits");
	ret = mknod(path, S_IFREG | 02755, 0);
	EXPECT_OUTCOME("setid_bits", ret, before);
	EXPECT_EQ(refused("setid_bits") ? (mode_t)-1 : 02755, mode_of(path));
	unlink(path);
}

TEST_F(setid, tmpfile_with_suid)
{
	struct stat st;
	long before = denials("setid_bits");
	int fd = open(variant->dir, O_TMPFILE | O_RDWR, 04755);
	int err = errno;

	if (refused("setid_bits")) {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EPERM, err);
		EXPECT_LE(before + 1, denials("setid_bits"));
	} else {
		ASSERT_LE(0, fd) TH_LOG("O_TMPFILE: %s", strerror(err));
		ASSERT_EQ(0, fstat(fd, &st));
		EXPECT_EQ(04755, st.st_mode & 07777);
		EXPECT_EQ(before, denials("setid_bits"));
	}
	if (fd >= 0)
		close(fd);
}

TEST_F(setid, file_capabilities)
{
	struct vfs_cap_data caps = {
		.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
		.data = { { .permitted = 1U << CAP_NET_RAW } },
	};
	char path[128], buf[64];
	long before;
	int ret;

	snprintf(path, sizeof(path), "%s/filecaps", variant->dir);
	make_file(_metadata, path, 0755);
	before = denials("setid_bits");
	ret = setxattr(path, "security.capability", &caps, sizeof(caps), 0);
	EXPECT_OUTCOME("setid_bits", ret, before);
	if (refused("setid_bits")) {
		EXPECT_EQ(-1, getxattr(path, "security.capability", buf,
				       sizeof(buf)));
		EXPECT_EQ(ENODATA, errno);
	} else {
		EXPECT_EQ(sizeof(caps), getxattr(path, "security.capability",
						 buf, sizeof(buf)));
	}
	unlink(path);
}

/* Lowering privilege is never refused. */
TEST_F(setid, chmod_clear_suid_allowed)
{
	char path[128];
	long before;

	snprintf(path, sizeof(path), "%s/clear-suid", variant->dir);
	if (mode_of(path) != 04755)
		SKIP(return, "%s was not made at level 0", path);
	before = denials("setid_bits");
	EXPECT_EQ(0, chmod(path, 0755));
	EXPECT_EQ(0755, mode_of(path));
	EXPECT_EQ(before, denials("setid_bits"));
}

/* The kernel's own clearing on chown is never refused either. */
TEST_F(setid, chown_clears_suid_allowed)
{
	char path[128];
	long before;

	snprintf(path, sizeof(path), "%s/chown-suid", variant->dir);
	if (mode_of(path) != 06755)
		SKIP(return, "%s was not made at level 0", path);
	before = denials("setid_bits");
	EXPECT_EQ(0, chown(path, 0, 0));
	EXPECT_EQ(0, mode_of(path) & S_ISUID);
	EXPECT_EQ(before, denials("setid_bits"));
}

TEST_F(setid, directory_sgid_allowed)
{
	char path[128];
	long before;

	snprintf(path, sizeof(path), "%s/sgid-dir", variant->dir);
	rmdir(path);
	ASSERT_EQ(0, mkdir(path, 0755));
	before = denials("setid_bits");
	EXPECT_EQ(0, chmod(path, 02755));
	EXPECT_EQ(02755, mode_of(path));
	EXPECT_EQ(before, denials("setid_bits"));
	rmdir(path);
}

/* The clock. */

FIXTURE(clock) {
	struct timespec start;
};

FIXTURE_SETUP(clock)
{
	struct timespec sane = { .tv_sec = SANE_TIME };

	ASSERT_EQ(0, clock_gettime(CLOCK_REALTIME, &self->start));
	/* Forward is allowed at every level. */
	if (self->start.tv_sec < SANE_TIME) {
		ASSERT_EQ(0, clock_settime(CLOCK_REALTIME, &sane));
		self->start = sane;
	}
}

FIXTURE_TEARDOWN(clock) {}

static time_t realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec;
}

/* Check a step of the clock one hour back, then undo it if it happened. */
static void check_step_back(struct __test_metadata *const _metadata,
			    time_t start, int ret, long before)
{
	EXPECT_OUTCOME("time_backward", ret, before);
	if (refused("time_backward")) {
		EXPECT_LE(start, realtime());
	} else {
		struct timespec back = { .tv_sec = start + 2 };

		EXPECT_GT(start - 3000, realtime());
		EXPECT_EQ(0, clock_settime(CLOCK_REALTIME, &back));
	}
}

/* x86-64 has no stime(2); its 32-bit ABI has, through int $0x80. */
static int stime32(time_t t)
{
	int32_t *arg = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	long ret;

	if (arg == MAP_FAILED)
		return -1;
	*arg = t;
	asm volatile("int $0x80"
		     : "=a"(ret)
		     : "a"(25L), "b"(arg)
		     : "r8", "r9", "r10", "r11", "memory", "cc");
	munmap(arg, 4096);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return 0;
}

TEST_F(clock, stime_back)
{
	long before = denials("time_backward");

	check_step_back(_metadata, self->start.tv_sec,
			stime32(realtime() - 3600), before);
}

TEST_F(clock, clock_settime_back)
{
	struct timespec ts = { .tv_sec = realtime() - 3600 };
	long before = denials("time_backward");

	check_step_back(_metadata, self->start.tv_sec,
			clock_settime(CLOCK_REALTIME, &ts), before);
}

TEST_F(clock, settimeofday_back)
{
	struct timeval tv = { .tv_sec = realtime() - 3600 };
	long before = denials("time_backward");

	check_step_back(_metadata, self->start.tv_sec, settimeofday(&tv, NULL),
			before);
}

TEST_F(clock, adjtimex_setoffset_back)
{
	struct timex tx = {
		.modes = ADJ_SETOFFSET | ADJ_NANO,
		.time = { .tv_sec = -3600 },
	};
	long before = denials("time_backward");

	check_step_back(_metadata, self->start.tv_sec,
			adjtimex(&tx) < 0 ? -1 : 0, before);
}

TEST_F(clock, clock_adjtime_setoffset_back)
{
	struct timex tx = {
		.modes = ADJ_SETOFFSET,
		.time = { .tv_sec = -3600 },
	};
	long before = denials("time_backward");

	check_step_back(_metadata, self->start.tv_sec,
			clock_adjtime(CLOCK_REALTIME, &tx) < 0 ? -1 : 0, before);
}

TEST_F(clock, timezone_warp)
{
	struct timezone east = { .tz_minuteswest = -60 }, utc = {};
	long before = denials("time_backward");
	int ret = settimeofday(NULL, &east);

	EXPECT_OUTCOME("time_backward", ret, before);
	EXPECT_EQ(0, settimeofday(NULL, &utc)) TH_LOG("%s", strerror(errno));
}

TEST_F(clock, forward_allowed)
{
	struct timespec ts = { .tv_sec = realtime() + 60 };
	struct timex tx = {
		.modes = ADJ_SETOFFSET,
		.time = { .tv_sec = 60 },
	};
	long before = denials("time_backward");

	EXPECT_EQ(0, clock_settime(CLOCK_REALTIME, &ts));
	EXPECT_LE(ts.tv_sec, realtime());
	EXPECT_LE(0, adjtimex(&tx));
	EXPECT_LE(ts.tv_sec + 60, realtime());
	EXPECT_EQ(before, denials("time_backward"));
}

TEST_F(clock, slew_allowed)
{
	struct timex slew = {
		.modes = ADJ_OFFSET_SINGLESHOT,
		.offset = -1000,
	};
	struct timex freq = { .modes = ADJ_FREQUENCY, .freq = 0 };
	long before = denials("time_backward");

	EXPECT_LE(0, adjtimex(&slew));
	EXPECT_LE(0, adjtimex(&freq));
	EXPECT_EQ(before, denials("time_backward"));
}

/*
 * Unmounting, with every flag, a disk's filesystem in the initial mount
 * namespace: a bind mount of the test disk, so that what a refusal leaves
 * mounted is only a second view of /mnt/disk.
 */

FIXTURE(umount) {
	char dir[64];
};

FIXTURE_VARIANT(umount) {
	int flags;
};

FIXTURE_VARIANT_ADD(umount, plain) { .flags = 0 };
FIXTURE_VARIANT_ADD(umount, detach) { .flags = MNT_DETACH };
FIXTURE_VARIANT_ADD(umount, force) { .flags = MNT_FORCE };
FIXTURE_VARIANT_ADD(umount, expire) { .flags = MNT_EXPIRE };
FIXTURE_VARIANT_ADD(umount, nofollow) { .flags = UMOUNT_NOFOLLOW };

FIXTURE_SETUP(umount)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/seclvl-umount-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_TRUE(mounted_at("/mnt/disk"));
	ASSERT_EQ(0, mount("/mnt/disk", self->dir, NULL, MS_BIND, NULL));
	ASSERT_TRUE(mounted_at(self->dir));
}

FIXTURE_TEARDOWN(umount) {}

TEST_F(umount, umount2)
{
	long before = denials("umount");
	int ret = umount2(self->dir, variant->flags);

	/* The first MNT_EXPIRE only marks the mount; the second unmounts. */
	if (variant->flags == MNT_EXPIRE && !refused("umount")) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EAGAIN, errno);
		ret = umount2(self->dir, variant->flags);
	}
	EXPECT_OUTCOME("umount", ret, before);
	EXPECT_EQ(refused("umount"), mounted_at(self->dir));
}

/* A tmpfs at a new directory of /tmp; its path in @dir. */
static int mount_tmpfs_dir(char *dir, size_t size, const char *sub)
{
	if (sub) {
		snprintf(dir + strlen(dir), size - strlen(dir), "/%s", sub);
		if (mkdir(dir, 0755))
			return -1;
	} else {
		snprintf(dir, size, "/tmp/seclvl-umount-XXXXXX");
		if (!mkdtemp(dir))
			return -1;
	}
	return mount("seclvl", dir, "tmpfs", MS_NOSUID, NULL);
}

/*
 * A filesystem that keeps nothing on a disk may be unmounted at every
 * level: a new one can be mounted anyway.  systemd unmounts a user's
 * /run/user/UID at logout, and its memory filesystems at shutdown.
 */
TEST(umount_memory_fs)
{
	long before = denials("umount");
	char dir[64];

	ASSERT_EQ(0, mount_tmpfs_dir(dir, sizeof(dir), NULL));
	EXPECT_EQ(0, umount2(dir, 0)) TH_LOG("%s", strerror(errno));
	EXPECT_FALSE(mounted_at(dir));
	ASSERT_EQ(0, mount_tmpfs_dir(dir, sizeof(dir), NULL));
	EXPECT_EQ(0, umount2(dir, MNT_DETACH)) TH_LOG("%s", strerror(errno));
	EXPECT_FALSE(mounted_at(dir));
	EXPECT_EQ(before, denials("umount"));
}

/*
 * But a lazy unmount takes the mounts under it along, disk or not.  The
 * BPF backend refuses it from level 1, uncounted: its self-protection
 * cannot tell whether the pins' bpffs is among them.
 */
TEST(umount_lazy_tree)
{
	bool self_protected = bpf_backend() && current_level() > 0;
	long before = denials("umount");
	char top[64], sub[80];
	int ret;

	ASSERT_EQ(0, mount_tmpfs_dir(top, sizeof(top), NULL));
	snprintf(sub, sizeof(sub), "%s", top);
	ASSERT_EQ(0, mount_tmpfs_dir(sub, sizeof(sub), "sub"));
	ret = umount2(top, MNT_DETACH);
	if (self_protected && !refused("umount")) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EPERM, errno);
		EXPECT_EQ(before, denials("umount"));
	} else {
		EXPECT_OUTCOME("umount", ret, before);
	}
	EXPECT_EQ(refused("umount") || self_protected, mounted_at(sub));
	/* Undone bottom up, which every level allows. */
	if (mounted_at(sub)) {
		EXPECT_EQ(0, umount2(sub, 0));
		EXPECT_EQ(0, umount2(top, 0));
	}
	EXPECT_FALSE(mounted_at(top));
}

/*
 * Another mount namespace unmounts its own copy of the disk, as a service's
 * private namespace or a container does: the initial one keeps it.
 */
static int umount_disk_in_own_ns(const void *arg)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 2;
	if (umount2("/mnt/disk", 0))
		return errno == EPERM ? 1 : 2;
	return mounted_at("/mnt/disk") ? 2 : 0;
}

TEST(umount_other_ns)
{
	long before = denials("umount");

	EXPECT_EQ(0, in_child(umount_disk_in_own_ns, NULL));
	EXPECT_TRUE(mounted_at("/mnt/disk"));
	EXPECT_EQ(before, denials("umount"));
}

/* Tracing init. */

static pid_t tracer_of_init(void)
{
	char buf[4096], *p;

	if (read_file("/proc/1/status", buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "TracerPid:");
	return p ? atoi(p + strlen("TracerPid:")) : -1;
}

TEST(ptrace_init_seize)
{
	long before = denials("ptrace_init");
	int ret;

	ASSERT_EQ(0, tracer_of_init());
	ret = ptrace(PTRACE_SEIZE, 1, NULL, NULL);
	EXPECT_OUTCOME("ptrace_init", ret, before);
	/* Exiting detaches. */
	EXPECT_EQ(refused("ptrace_init") ? 0 : getpid(), tracer_of_init());
}

/* The kernel reports a refused ptrace check on /proc/PID/mem as EACCES. */
TEST(ptrace_init_proc_mem)
{
	long before = denials("ptrace_init");

	EXPECT_OUTCOME_ERRNO("ptrace_init",
			     opened(open("/proc/1/mem", O_RDWR | O_CLOEXEC)),
			     EACCES, before);
}

TEST(ptrace_init_read_allowed)
{
	char exe[256];
	long before = denials("ptrace_init");

	EXPECT_LT(0, readlink("/proc/1/exe", exe, sizeof(exe)));
	EXPECT_EQ(before, denials("ptrace_init"));
}

TEST(ptrace_other_allowed)
{
	long before = denials("ptrace_init");
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		pause();
		_exit(0);
	}
	EXPECT_EQ(0, ptrace(PTRACE_SEIZE, child, NULL, NULL));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	EXPECT_EQ(before, denials("ptrace_init"));
}

TEST_HARNESS_MAIN
