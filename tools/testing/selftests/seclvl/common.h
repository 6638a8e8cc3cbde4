/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seclvl selftests: helpers shared by the test programs
 *
 * A test decides what to expect from the level and the policy the running
 * kernel reports; the harness script checks, before each run, that the
 * level is the one the scenario set (SECLVL_EXPECT_LEVEL), so a kernel that
 * reports a wrong level cannot make a refusal test pass.
 *
 * The same tests run against the BPF backend (tools/seclvl/bpf) on a kernel
 * without seclvl: it shows the level and the policy in the same format
 * under /sys/fs/bpf/seclvl, and raises through a pinned BPF program.  A
 * test of something only the in-tree LSM has skips with the reason.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SELFTESTS_SECLVL_COMMON_H
#define _SELFTESTS_SECLVL_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define SECLVL_DIR "/sys/kernel/security/seclvl"
#define LEVEL_FILE SECLVL_DIR "/level"
#define POLICY_FILE SECLVL_DIR "/policy"
#define ESCAPE_FILE SECLVL_DIR "/escape"
#define PROC_FILE "/proc/seclvl"
#define SYSCTL_FILE "/proc/sys/kernel/securelevel"

#define BPF_DIR "/sys/fs/bpf/seclvl"
#define BPF_LEVEL_FILE BPF_DIR "/level"
#define BPF_POLICY_FILE BPF_DIR "/policy"
#define BPF_RAISE_PIN BPF_DIR "/raise"

/* Where the guest scenario puts what a test needs made at level 0. */
#define PREP_DIR "/run/seclvl"
#define DISK_DIR "/mnt/disk"

#define RULE_OFF 3

static const char *const level_files[] = { LEVEL_FILE, PROC_FILE, SYSCTL_FILE };

static inline ssize_t read_file(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len >= 0)
		buf[len] = '\0';
	return len;
}

/* One write(2) of @len bytes; returns 0 or the errno. */
static inline int write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, buf, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

static inline int write_str(const char *path, const char *s)
{
	return write_file(path, s, strlen(s));
}

static inline int level_from(const char *path)
{
	char buf[32];

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -100;
	return atoi(buf);
}

/* Whether the BPF backend enforces the levels here, not the in-tree LSM. */
static inline bool bpf_backend(void)
{
	static int bpf = -1;
	int err = errno;

	/* Asked between a call and the check of its errno. */
	if (bpf < 0)
		bpf = access(SECLVL_DIR, F_OK) && !access(BPF_LEVEL_FILE, F_OK);
	errno = err;
	return bpf;
}

/*
 * For a test of what only the in-tree LSM has: true, after marking the
 * test skipped, under the BPF backend.
 */
static inline bool lsm_only(struct __test_metadata *const _metadata,
			    const char *what)
{
	if (!bpf_backend())
		return false;
	SKIP(return true, "only the in-tree LSM has %s", what);
}

/* For a path the BPF backend cannot see (seclvl.rst says why). */
static inline bool bpf_gap(struct __test_metadata *const _metadata,
			   const char *why)
{
	if (!bpf_backend())
		return false;
	SKIP(return true, "not enforced by the BPF backend: %s", why);
}

/* The level and policy files of the backend that enforces here. */
static inline const char *level_file(void)
{
	return bpf_backend() ? BPF_LEVEL_FILE : LEVEL_FILE;
}

static inline const char *policy_file(void)
{
	return bpf_backend() ? BPF_POLICY_FILE : POLICY_FILE;
}

static inline int current_level(void)
{
	return level_from(level_file());
}

/* The BPF backend's raise: its pinned program run once; 0 or the errno. */
static inline int bpf_raise(int level)
{
	union bpf_attr attr = {};
	int fd, ret;

	attr.pathname = (unsigned long)BPF_RAISE_PIN;
	fd = syscall(SYS_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
	if (fd < 0)
		return errno;
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = fd;
	attr.test.ctx_in = (unsigned long)&level;
	attr.test.ctx_size_in = sizeof(level);
	ret = syscall(SYS_bpf, BPF_PROG_TEST_RUN, &attr, sizeof(attr)) ?
		      errno : -(int)attr.test.retval;
	close(fd);
	return ret;
}

/* The policy row of @name: its level (RULE_OFF if off) and its denials. */
static inline bool policy_row(const char *name, int *level, long *denials)
{
	char buf[4096], *line, *save = NULL;

	if (read_file(policy_file(), buf, sizeof(buf)) <= 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char rname[64], rlevel[8];
		long n;

		if (sscanf(line, "%63s %7s %ld", rname, rlevel, &n) != 3 ||
		    strcmp(rname, name))
			continue;
		if (level)
			*level = strcmp(rlevel, "off") ? atoi(rlevel) : RULE_OFF;
		if (denials)
			*denials = n;
		return true;
	}
	return false;
}

static inline long denials(const char *name)
{
	long n = -1;

	policy_row(name, NULL, &n);
	return n;
}

/* Whether restriction @name refuses at the current level. */
static inline bool refused(const char *name)
{
	int level = current_level(), rule = RULE_OFF;

	policy_row(name, &rule, NULL);
	return level > 0 && level >= rule;
}

/*
 * Check one attempt of restriction @name: refused means -1 with
 * @refused_err (EPERM, unless the caller maps it) and one more denial
 * counted; allowed means success and no denial counted.  @ret and @err are
 * the call's result and errno, @before the denial count taken before it.
 */
static inline void expect_outcome(struct __test_metadata *const _metadata,
				  const char *name, int ret, int err,
				  int refused_err, long before)
{
	if (refused(name)) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(refused_err, err);
		EXPECT_LE(before + 1, denials(name));
	} else {
		EXPECT_EQ(0, ret) TH_LOG("%s: %s", name, strerror(err));
		EXPECT_EQ(before, denials(name));
	}
}

/* errno is taken right after the call, before anything else can change it. */
#define EXPECT_OUTCOME_ERRNO(name, call, refused_err, before)             \
	do {                                                              \
		int __ret = (call);                                       \
		int __err = errno;                                        \
		expect_outcome(_metadata, name, __ret, __err, refused_err, \
			       before);                                   \
	} while (0)

#define EXPECT_OUTCOME(name, call, before) \
	EXPECT_OUTCOME_ERRNO(name, call, EPERM, before)

/*
 * An attempt that more than one restriction may refuse, in the order the
 * kernel asks them (seclvl's own hook first, then a capability check, then
 * the kernel's lockdown check).  The first that applies at this level must
 * refuse it and count it; if none applies it must work and none may count.
 */
#define MAX_REFUSERS 4

struct refusers {
	const char *name[MAX_REFUSERS];
	long before[MAX_REFUSERS];
};

/* Up to MAX_REFUSERS names; their denial counts are taken now. */
#define REFUSERS(...) refusers_of((const char *[]){ __VA_ARGS__, NULL })

static inline struct refusers refusers_of(const char **names)
{
	struct refusers r = {};
	int i;

	for (i = 0; i < MAX_REFUSERS && names[i]; i++) {
		r.name[i] = names[i];
		r.before[i] = denials(names[i]);
	}
	return r;
}

/* The first of @r that refuses at this level, or NULL. */
static inline const char *first_refuser(const struct refusers *r)
{
	int i;

	for (i = 0; i < MAX_REFUSERS && r->name[i]; i++)
		if (refused(r->name[i]))
			return r->name[i];
	return NULL;
}

static inline void expect_outcome_of(struct __test_metadata *const _metadata,
				     const struct refusers *r, int ret,
				     int err, int refused_err)
{
	const char *refuser = first_refuser(r);
	int i;

	if (refuser) {
		EXPECT_EQ(-1, ret) TH_LOG("%s must refuse", refuser);
		EXPECT_EQ(refused_err, err) TH_LOG("%s", strerror(err));
	} else {
		EXPECT_EQ(0, ret) TH_LOG("%s", strerror(err));
	}
	for (i = 0; i < MAX_REFUSERS && r->name[i]; i++) {
		if (r->name[i] == refuser) {
			EXPECT_LE(r->before[i] + 1, denials(r->name[i]))
				TH_LOG("%s counts the refusal", r->name[i]);
		} else if (!refuser) {
			EXPECT_EQ(r->before[i], denials(r->name[i]))
				TH_LOG("%s counted an allowed call", r->name[i]);
		}
	}
}

#define EXPECT_REFUSED_BY(r, call, refused_err)                            \
	do {                                                               \
		int __ret = (call);                                        \
		int __err = errno;                                         \
		expect_outcome_of(_metadata, &(r), __ret, __err,           \
				  refused_err);                            \
	} while (0)

/* The restrictions that may refuse a write to a device, in order. */
static inline struct refusers bdev_refusers(bool in_use)
{
	return in_use ? REFUSERS("blockdev_write", "mounted_blockdev_write") :
			REFUSERS("blockdev_write");
}

/* Result of a call that returns a file descriptor, as 0 or -1. */
static inline int opened(int fd)
{
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static inline mode_t mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? (mode_t)-1 : st.st_mode & 07777;
}

static inline void make_file(struct __test_metadata *const _metadata,
			     const char *path, mode_t mode)
{
	int fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "data", 4));
	ASSERT_EQ(0, fchmod(fd, mode));
	ASSERT_EQ(0, close(fd));
}

/* Whether something is mounted at @dir in this mount namespace. */
static inline bool mounted_at(const char *dir)
{
	char line[1024], mnt[512];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %*s %*s %511s", mnt) == 1 &&
			!strcmp(mnt, dir);
	fclose(f);
	return found;
}

/* Remove @cap from the effective set of this process; 0 on success. */
static inline int drop_effective_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[cap / 32].effective &= ~(1U << (cap % 32));
	return syscall(SYS_capset, &hdr, data);
}

#endif /* _SELFTESTS_SECLVL_COMMON_H */
