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
 * under /sys/fs/bpf/seclvl, and raises through pinned BPF programs.  A
 * test of something only the in-tree LSM has skips with the reason.
 *
 * Copyright (C) 2026 The seclvl authors
 */

#ifndef _SELFTESTS_SECLVL_COMMON_H
#define _SELFTESTS_SECLVL_COMMON_H

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/aio_abi.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
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

/* finit_module(2) of the file at @path: -2 if it cannot be opened. */
static inline int finit_module_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret, err;

	if (fd < 0)
		return -2;
	ret = syscall(SYS_finit_module, fd, "", 0);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

/* Whether a module called @name is loaded. */
static inline bool module_loaded(const char *name)
{
	char line[256];
	size_t len = strlen(name);
	bool found = false;
	FILE *f = fopen("/proc/modules", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, len) && line[len] == ' ';
	fclose(f);
	return found;
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

/* The list of module images: securityfs's file, or the BPF backend's view. */
static inline const char *modules_file(void)
{
	return bpf_backend() ? BPF_DIR "/modules" : SECLVL_DIR "/modules";
}

/*
 * Whether there is a list of module images: then a module load is judged
 * by its image, and autoloads are let through.
 */
static inline bool modules_listed(void)
{
	char c;
	int fd = open(modules_file(), O_RDONLY | O_CLOEXEC);
	bool listed = fd >= 0 && read(fd, &c, 1) == 1;

	if (fd >= 0)
		close(fd);
	return listed;
}

/*
 * A module the tests load: the in-tree tests' own, or, on a kernel they
 * were not built for, one the scenario names in @env.
 */
static inline const char *mod_name(const char *env, const char *fallback)
{
	const char *name = getenv(env);

	return name && *name ? name : fallback;
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

/*
 * The attach type of a hook program pinned as "<program>-<kind>", with
 * "_off" after it for one that serves only a restriction the policy turns
 * off; or -1 for another pin.  A raise above 0 attaches each one not off
 * and pins its link as "<program>": see the BPF backend's bpfraise.c.
 */
static inline int bpf_hook_kind(const char *name, size_t *len)
{
	const char *dash = strrchr(name, '-');
	size_t kind;

	if (!dash || dash == name)
		return -1;
	*len = dash - name;
	kind = strcspn(dash, "_");
	if (dash[kind] && strcmp(dash + kind, "_off"))
		return -1;
	if (kind == 4 && !strncmp(dash, "-lsm", kind))
		return BPF_LSM_MAC;
	if (kind == 7 && !strncmp(dash, "-fentry", kind))
		return BPF_TRACE_FENTRY;
	if (kind == 6 && !strncmp(dash, "-fexit", kind))
		return BPF_TRACE_FEXIT;
	return -1;
}

/* Whether the hook program pinned as @name is one no raise attaches. */
static inline bool bpf_hook_off(const char *name)
{
	const char *mark = strrchr(name, '_');

	return mark && !strcmp(mark, "_off");
}

/*
 * Attach the hook program pinned as @name: a link descriptor, or -1 with
 * errno (EBUSY if it is attached already).
 */
static inline int bpf_attach_hook(const char *name)
{
	union bpf_attr attr = {};
	char path[PATH_MAX];
	size_t len;
	int type = bpf_hook_kind(name, &len), prog, link;

	if (type < 0)
		return errno = EINVAL, -1;
	snprintf(path, sizeof(path), "%s/%s", BPF_DIR, name);
	attr.pathname = (unsigned long)path;
	prog = syscall(SYS_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
	if (prog < 0)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	attr.link_create.attach_type = type;
	link = syscall(SYS_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	close(prog);
	return link;
}

/* Attach every hook program not attached yet and pin its link; 0 or errno. */
static inline int bpf_attach_hooks(void)
{
	union bpf_attr attr = {};
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir = opendir(BPF_DIR);
	int err = 0;

	if (!dir)
		return errno;
	while (!err && (d = readdir(dir))) {
		size_t len;
		int link;

		if (bpf_hook_kind(d->d_name, &len) < 0)
			continue;
		link = bpf_attach_hook(d->d_name);
		if (link < 0) {
			err = errno == EBUSY ? 0 : errno;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%.*s", BPF_DIR, (int)len,
			 d->d_name);
		memset(&attr, 0, sizeof(attr));
		attr.pathname = (unsigned long)path;
		attr.bpf_fd = link;
		if (syscall(SYS_bpf, BPF_OBJ_PIN, &attr, sizeof(attr)))
			err = errno;
		close(link);
	}
	closedir(dir);
	return err;
}

static inline __u32 bpf_fd_prog_id(int fd, bool link)
{
	struct bpf_link_info li = {};
	struct bpf_prog_info pi = {};
	union bpf_attr attr = {};

	attr.info.bpf_fd = fd;
	attr.info.info_len = link ? sizeof(li) : sizeof(pi);
	attr.info.info = link ? (unsigned long)&li : (unsigned long)&pi;
	if (syscall(SYS_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)))
		return 0;
	if (link)
		return li.type == BPF_LINK_TYPE_TRACING ? li.prog_id : 0;
	return pi.id;
}

/*
 * How many of the hook programs pinned in BPF_DIR no bpf_link attaches, as
 * the kernel lists its links (-1 if it cannot tell); @total is set to how
 * many there are.  With @off, those no raise attaches, else the others.
 */
static inline int bpf_hooks_unattached_of(bool off, int *total)
{
	__u32 ids[64], id = 0, prog;
	union bpf_attr attr = {};
	char path[PATH_MAX];
	int n = 0, missing, i;
	struct dirent *d;
	DIR *dir;

	dir = opendir(BPF_DIR);
	if (!dir)
		return -1;
	while ((d = readdir(dir)) && n < 64) {
		size_t len;
		int fd;

		if (bpf_hook_kind(d->d_name, &len) < 0 ||
		    bpf_hook_off(d->d_name) != off)
			continue;
		snprintf(path, sizeof(path), "%s/%s", BPF_DIR, d->d_name);
		memset(&attr, 0, sizeof(attr));
		attr.pathname = (unsigned long)path;
		fd = syscall(SYS_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
		if (fd < 0)
			continue;
		ids[n] = bpf_fd_prog_id(fd, false);
		close(fd);
		if (ids[n])
			n++;
	}
	closedir(dir);
	*total = missing = n;
	for (;;) {
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (syscall(SYS_bpf, BPF_LINK_GET_NEXT_ID, &attr, sizeof(attr)))
			break;
		id = attr.next_id;
		memset(&attr, 0, sizeof(attr));
		attr.link_id = id;
		fd = syscall(SYS_bpf, BPF_LINK_GET_FD_BY_ID, &attr, sizeof(attr));
		if (fd < 0)
			continue;
		prog = bpf_fd_prog_id(fd, true);
		close(fd);
		for (i = 0; i < n; i++) {
			if (ids[i] && ids[i] == prog) {
				ids[i] = 0;
				missing--;
			}
		}
	}
	return errno == ENOENT ? missing : -1;
}

/* The hook programs a raise attaches that are not attached. */
static inline int bpf_hooks_unattached(int *total)
{
	return bpf_hooks_unattached_of(false, total);
}

/*
 * Freeze the BPF backend's list of module images, as its tools do before
 * the first raise above 0; 0 or the errno.
 */
static inline int bpf_freeze_list(void)
{
	union bpf_attr attr = {};
	int fd, err = 0;

	attr.pathname = (unsigned long)BPF_DIR "/module_list";
	fd = syscall(SYS_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
	if (fd < 0)
		return errno;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	if (syscall(SYS_bpf, BPF_MAP_FREEZE, &attr, sizeof(attr)))
		err = errno;
	close(fd);
	return err;
}

/* Read the raise iterator of @level (1 or 2): 0 or the errno it prints. */
static inline int bpf_raise_iter(int level)
{
	char path[PATH_MAX], buf[16] = "";
	int fd, ret;

	snprintf(path, sizeof(path), "%s/raise%d", BPF_DIR, level);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	ret = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (ret <= 0)
		return ret ? errno : EIO;
	return -atoi(buf);
}

/* The BPF backend's pinned raise program, run once: 0 or the errno. */
static inline int bpf_raise_prog(int level)
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

/*
 * The BPF backend's raise, as its tools make it: above 0 the raise
 * iterator (the hook programs must be attached first: bpf_attach_hooks()),
 * else the raise program.  0 or the errno.
 */
static inline int bpf_raise(int level)
{
	return level > 0 ? bpf_raise_iter(level) : bpf_raise_prog(level);
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

/*
 * Whether the BPF backend judges a block device's write-open at its first
 * write instead: without file_post_open (before 6.8) it has no pin of
 * that program (the restriction is partial; see seclvlctl).
 */
static inline bool bdev_open_deferred(void)
{
	static int deferred = -1;
	int err = errno;

	if (deferred < 0)
		deferred = bpf_backend() &&
			   access(BPF_DIR "/seclvl_file_post_open-lsm", F_OK);
	errno = err;
	return deferred;
}

/*
 * open(2) of a block device, refused as a write-open is: where the refusal
 * comes at the first write, that write (of nothing) is made here.
 */
static inline int open_bdev(const char *path, int flags)
{
	int fd = open(path, flags), err;

	if (fd < 0 || (flags & O_ACCMODE) == O_RDONLY || !bdev_open_deferred() ||
	    pwrite(fd, "", 0, 0) == 0)
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

/* Whether the running kernel is older than @major.@minor. */
static inline bool kernel_before(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma < major || (ma == major && mi < minor);
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

/*
 * @fn(@arg) in a child, for what must not change this process (a namespace
 * of its own, a capability dropped): its exit status, -1 if it did not exit.
 */
static inline int in_child(int (*fn)(const void *arg), const void *arg)
{
	int status;
	pid_t child = fork();

	if (child < 0)
		return -1;
	if (child == 0)
		_exit(fn(arg));
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

struct child_call {
	int (*fn)(const void *arg);
	const void *arg;
};

static inline int call_without_cap_sys_admin(const void *call)
{
	const struct child_call *c = call;

	return drop_effective_cap(CAP_SYS_ADMIN) ? 255 : c->fn(c->arg);
}

/* @fn(@arg) in a child without CAP_SYS_ADMIN: what in_child() returns. */
static inline int without_cap_sys_admin(int (*fn)(const void *arg),
					const void *arg)
{
	struct child_call c = { fn, arg };

	return in_child(call_without_cap_sys_admin, &c);
}

/*
 * One SQE on a new ring of its own, filled by @fill; @setup_flags for the
 * ring (IORING_SETUP_SQE128 for a 128-byte SQE).  Returns the CQE's result
 * (a negative errno on failure), or the negative errno of setting up the
 * ring.
 */
static inline int uring_one(unsigned int setup_flags,
			    void (*fill)(struct io_uring_sqe *sqe, void *arg),
			    void *arg)
{
	struct io_uring_params p = { .flags = setup_flags };
	int wide = !!(setup_flags & IORING_SETUP_SQE128) + 1;
	size_t sq_len, cq_len, sqe_len;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char *sq, *cq;
	int ring, ret = -1;

	ring = syscall(__NR_io_uring_setup, 1, &p);
	if (ring < 0)
		return -errno;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(__u32);
	cq_len = p.cq_off.cqes + p.cq_entries * 2 * sizeof(*cqe);
	sqe_len = p.sq_entries * wide * sizeof(*sqe);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring,
		  IORING_OFF_CQ_RING);
	sqe = mmap(NULL, sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring,
		   IORING_OFF_SQES);
	ret = -ENOMEM;
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqe == MAP_FAILED)
		goto out;
	memset(sqe, 0, wide * sizeof(*sqe));
	fill(sqe, arg);
	((__u32 *)(sq + p.sq_off.array))[0] = 0;
	__atomic_store_n((__u32 *)(sq + p.sq_off.tail), 1, __ATOMIC_RELEASE);
	ret = -EIO;
	if (syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) != 1)
		goto out;
	cqe = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	ret = cqe->res;
out:
	close(ring);
	return ret;
}

/* The ways user space writes to an open file (each calls rw_verify_area). */
enum write_way {
	WAY_WRITE,
	WAY_PWRITE,
	WAY_WRITEV,
	WAY_PWRITEV2,
	WAY_SPLICE,
	WAY_SENDFILE,
	WAY_COPY_FILE_RANGE,
	WAY_IO_URING,
	WAY_AIO,
	WAY_NR
};

static const char *const way_names[WAY_NR] = {
	"write", "pwrite", "writev", "pwritev2", "splice", "sendfile",
	"copy_file_range", "io_uring", "aio",
};

struct uring_write {
	int fd;
	const void *buf;
	size_t len;
	off_t off;
};

static inline void fill_uring_write(struct io_uring_sqe *sqe, void *arg)
{
	struct uring_write *w = arg;

	sqe->opcode = IORING_OP_WRITE;
	sqe->fd = w->fd;
	sqe->addr = (unsigned long)w->buf;
	sqe->len = w->len;
	sqe->off = w->off;
}

static inline ssize_t aio_pwrite(int fd, const void *buf, size_t len,
				 off_t off)
{
	struct iocb cb = {
		.aio_lio_opcode = IOCB_CMD_PWRITE,
		.aio_fildes = fd,
		.aio_buf = (unsigned long)buf,
		.aio_nbytes = len,
		.aio_offset = off,
	};
	struct iocb *cbs[1] = { &cb };
	aio_context_t ctx = 0;
	struct io_event ev;
	ssize_t ret = -1;

	if (syscall(SYS_io_setup, 1, &ctx))
		return -1;
	if (syscall(SYS_io_submit, ctx, 1, cbs) == 1 &&
	    syscall(SYS_io_getevents, ctx, 1, 1, &ev, NULL) == 1) {
		ret = ev.res;
		if (ret < 0) {
			errno = -ret;
			ret = -1;
		}
	}
	syscall(SYS_io_destroy, ctx);
	return ret;
}

/* @len bytes of @buf in a new memory file, for sendfile and copy_file_range. */
static inline int source_of(const void *buf, size_t len)
{
	int fd = memfd_create("seclvl-source", MFD_CLOEXEC);

	if (fd >= 0 && pwrite(fd, buf, len, 0) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Whether this kernel has aio (CONFIG_AIO): WAY_AIO needs it. */
static inline bool aio_present(void)
{
	aio_context_t ctx = 0;

	if (syscall(SYS_io_setup, 1, &ctx))
		return false;
	syscall(SYS_io_destroy, ctx);
	return true;
}

/*
 * Write @len bytes of @buf at @off through @fd the way @way; @off -1 for a
 * file without a position (nonseekable_open()), written where it is: the
 * ways that need an offset are then not tried (-1, EINVAL), since
 * the kernel refuses them for such a file whatever the caller.  Returns
 * the bytes written or -1 with errno.
 */
static inline ssize_t write_way(enum write_way way, int fd, const void *buf,
				size_t len, off_t off)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct uring_write w = { fd, buf, len, off };
	loff_t in = 0, out = off;
	int pipefd[2], src, err;
	ssize_t ret;

	if (off < 0 && (way == WAY_PWRITE || way == WAY_AIO)) {
		errno = EINVAL;
		return -1;
	}
	switch (way) {
	case WAY_WRITE:
		if (off >= 0 && lseek(fd, off, SEEK_SET) < 0)
			return -1;
		return write(fd, buf, len);
	case WAY_PWRITE:
		return pwrite(fd, buf, len, off);
	case WAY_WRITEV:
		if (off >= 0 && lseek(fd, off, SEEK_SET) < 0)
			return -1;
		return writev(fd, &iov, 1);
	case WAY_PWRITEV2:
		return pwritev2(fd, &iov, 1, off, 0);
	case WAY_SPLICE:
		if (pipe2(pipefd, O_CLOEXEC))
			return -1;
		ret = write(pipefd[1], buf, len) == (ssize_t)len ?
			splice(pipefd[0], NULL, fd, off < 0 ? NULL : &out, len,
			       0) : -1;
		err = errno;
		close(pipefd[0]);
		close(pipefd[1]);
		errno = err;
		return ret;
	case WAY_SENDFILE:
	case WAY_COPY_FILE_RANGE:
		src = source_of(buf, len);
		if (src < 0)
			return -1;
		if (way == WAY_SENDFILE)
			ret = off >= 0 && lseek(fd, off, SEEK_SET) < 0 ? -1 :
				sendfile(fd, src, NULL, len);
		else
			ret = copy_file_range(src, &in, fd,
					      off < 0 ? NULL : &out, len, 0);
		err = errno;
		close(src);
		errno = err;
		return ret;
	case WAY_IO_URING:
		ret = uring_one(0, fill_uring_write, &w);
		if (ret < 0) {
			errno = -ret;
			ret = -1;
		}
		return ret;
	case WAY_AIO:
		return aio_pwrite(fd, buf, len, off);
	default:
		errno = EINVAL;
		return -1;
	}
}

/*
 * The descriptors a process opened at level 0 and keeps (prepare() in the
 * scenario starts it; its pid is in HOLDER_PID), by number.  HELD_DISK is
 * the mounted virtio partition, open for writing; HELD_SETID a set-uid
 * file, HELD_BACKING a loop device's backing file on ext4, both open for
 * reading and writing.  HELD_SNAPSHOT is /dev/snapshot open for writing
 * (/dev/null where the kernel cannot hibernate), HELD_ZONED a zoned disk
 * and HELD_XFS_SETID a set-uid file on XFS, both open for
 * reading and writing, and HELD_FCAPS a program with file capabilities,
 * open for reading and writing.
 */
#define HOLDER_PID PREP_DIR "/holder.pid"
enum held_fd {
	HELD_DEVMEM = 3,
	HELD_DEBUGFS,
	HELD_INIT_MEM,
	HELD_NET_SYSCTL,
	HELD_FTRACE,
	HELD_DISK,
	HELD_SETID,
	HELD_BACKING,
	HELD_SNAPSHOT,
	HELD_ZONED,
	HELD_XFS_SETID,
	HELD_FCAPS,
};

/*
 * The holder's descriptor @n, taken now with pidfd_getfd(): the same open
 * file, with the access it was opened with.  -1 with errno on failure.
 */
static inline int held_fd(enum held_fd n)
{
	char buf[32];
	int pidfd, fd, err;

	if (read_file(HOLDER_PID, buf, sizeof(buf)) <= 0)
		return -1;
	pidfd = syscall(SYS_pidfd_open, atoi(buf), 0);
	if (pidfd < 0)
		return -1;
	fd = syscall(SYS_pidfd_getfd, pidfd, n, 0);
	err = errno;
	close(pidfd);
	errno = err;
	return fd;
}

/* /proc/PID/fd/N of the holder, opened anew. */
static inline int held_path(enum held_fd n, char *path, size_t size)
{
	char buf[32];

	if (read_file(HOLDER_PID, buf, sizeof(buf)) <= 0)
		return -1;
	snprintf(path, size, "/proc/%d/fd/%d", atoi(buf), n);
	return 0;
}

#endif /* _SELFTESTS_SECLVL_COMMON_H */
